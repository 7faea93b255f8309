import Tables

/// The elements of a signal sidecar's `annotations` array as pretty-printed JSON, written straight into bytes.
///
/// The text is the one `JSONEncoder` gives with `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]` (keys in
/// order `description`, `duration`, `onset`; `" : "` between key and value; numbers as Swift spells a `Double`,
/// without a trailing `.0`; `"`, `\`, and control characters escaped, everything else as UTF-8), which a test
/// checks value by value. Made by hand because the encoder took a tenth of a 1-hour capture's export for its
/// thousand annotations.
struct AnnotationsJSONText {
    /// Spaces before each element's braces (its keys get two more).
    var indent: Int

    /// A value JSON cannot hold (an onset or duration that is not finite).
    struct NotFinite: Error, CustomStringConvertible {
        var annotation: SignalAnnotation
        var description: String {
            "annotation \"\(annotation.description)\" has an onset or duration that is not finite "
                + "(\(annotation.onset), \(annotation.duration))"
        }
    }

    /// Appends the elements of `annotations` to `bytes`, separated by `,` and a line end, without the brackets
    /// around them and without a line end after the last.
    func append(_ annotations: some Collection<SignalAnnotation>, to bytes: inout [UInt8]) throws(NotFinite) {
        let outer = [UInt8](repeating: UInt8(ascii: " "), count: indent)
        let inner = outer + [UInt8(ascii: " "), UInt8(ascii: " ")]
        var first = true
        for annotation in annotations {
            guard annotation.onset.isFinite, annotation.duration.isFinite else { throw NotFinite(annotation: annotation) }
            if !first { bytes += [UInt8(ascii: ","), UInt8(ascii: "\n")] }
            first = false
            bytes += outer
            bytes += [UInt8(ascii: "{"), UInt8(ascii: "\n")]
            bytes += inner
            bytes += Self.descriptionKey
            Self.appendString(annotation.description, to: &bytes)
            bytes += [UInt8(ascii: ","), UInt8(ascii: "\n")]
            bytes += inner
            bytes += Self.durationKey
            Self.appendNumber(annotation.duration, to: &bytes)
            bytes += [UInt8(ascii: ","), UInt8(ascii: "\n")]
            bytes += inner
            bytes += Self.onsetKey
            Self.appendNumber(annotation.onset, to: &bytes)
            bytes += [UInt8(ascii: "\n")]
            bytes += outer
            bytes += [UInt8(ascii: "}")]
        }
    }

    private static let descriptionKey = Array("\"description\" : ".utf8)
    private static let durationKey = Array("\"duration\" : ".utf8)
    private static let onsetKey = Array("\"onset\" : ".utf8)

    /// A finite number as Swift spells it (shortest round-trip digits), an integral one without `.0`.
    static func appendNumber(_ value: Double, to bytes: inout [UInt8]) {
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes += text.utf8
    }

    /// A string in quotes: `"` and `\` escaped with a backslash, the control characters U+0000–U+001F as `\b`,
    /// `\t`, `\n`, `\f`, `\r` or `\u00xx`; every other character as its UTF-8.
    static func appendString(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x08: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0C: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes += Array("\\u00".utf8)
                bytes += [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
