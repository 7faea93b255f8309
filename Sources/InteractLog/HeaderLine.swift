/// One `Label:value` header line, split at the first `:` (spec §1.1).
public struct HeaderLine: Sendable, Equatable {
    /// The 1-based line number.
    public var line: Int
    /// The label, trimmed.
    public var label: String
    /// The value, trimmed (a single space, Java's unset file name, becomes empty).
    public var value: String
    /// The characters before the `:`, padding included (18 or 21 for `Name`).
    public var labelWidth: Int

    /// Splits a line at its first `:`, or returns `nil` when it has none.
    public static func parse(_ text: Substring, line: Int) -> HeaderLine? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let label = text[..<colon]
        return HeaderLine(line: line, label: trimmed(label), value: trimmed(text[text.index(after: colon)...]),
                          labelWidth: label.count)
    }

    static func trimmed(_ text: Substring) -> String { String(text.trimmingSpaces) }
}
