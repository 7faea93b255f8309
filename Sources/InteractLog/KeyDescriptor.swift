/// The parts of a `KeyPressed_<code>(<descriptor>:<location>)` event (spec §3.1).
public struct KeyDescriptor: Sendable, Equatable {
    /// The Java key code (`38` for UP), `nil` when the event has no decimal code.
    public var code: Int?
    /// The descriptor (`UP`, `Repeat Stimulus`, a space, U+FFFF, a control character), `nil` on bad syntax.
    public var descriptor: String?
    /// 0 unknown, 1 standard, 2 left, 3 right, 4 numpad; `nil` on bad syntax.
    public var location: Int?
    /// Whether the body followed the grammar (else `W_KEY_SYNTAX`).
    public var wellFormed: Bool

    /// Parses the text after `KeyPressed_` / `KeyReleased_`.
    public static func parse(_ text: Substring) -> KeyDescriptor {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        let code = Int(digits)
        let rest = text[digits.endIndex...]
        guard code != nil, rest.first == "(", let close = rest.lastIndex(of: ")") else {
            return KeyDescriptor(code: code, descriptor: nil, location: nil, wellFormed: false)
        }
        let body = rest[rest.index(after: rest.startIndex)..<close]
        if body.hasPrefix("RETURN"), let location = Int(body.dropFirst(6)), !body.contains(":") {
            return KeyDescriptor(code: code, descriptor: "RETURN", location: location, wellFormed: true)
        }
        guard let colon = body.lastIndex(of: ":"), let location = Int(body[body.index(after: colon)...]),
              (0...4).contains(location) else {
            return KeyDescriptor(code: code, descriptor: nil, location: nil, wellFormed: false)
        }
        return KeyDescriptor(code: code, descriptor: String(body[..<colon]), location: location, wellFormed: true)
    }
}
