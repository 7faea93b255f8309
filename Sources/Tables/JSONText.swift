/// JSON text as BrainBatch writes it: pretty-printed, keys sorted, the same spelling as `JSONEncoder` with
/// `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]` (which tests hold it to):
///
/// - two spaces per level, `" : "` between a key and its value, an empty array or object as its brackets around
///   a blank line;
/// - keys in the order of their Unicode code points;
/// - numbers as Swift spells a `Double` (the shortest digits that read back to it), an integral one without
///   `.0`; one that is not finite, which JSON cannot hold, as `null`;
/// - strings with `"` and `\` escaped, the control characters U+0000–U+001F as `\b`, `\t`, `\n`, `\f`, `\r` or
///   `\u00xx`, everything else as its UTF-8.
///
/// Written by hand, without `JSONSerialization`: its `Any` values cost a dynamic cast each (a millisecond of
/// every run's start went to looking up conformances), and the spelling is now one piece of code for every file.
public enum JSONText {
    /// The document for `value`, with a line end after it.
    public static func document(_ value: JSON) -> [UInt8] {
        var bytes: [UInt8] = []
        append(value, indent: 0, to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// Appends `value` as it stands at nesting depth `indent` (spaces): its first line is not indented (it
    /// follows a key or the indentation of an array element), its closing bracket is.
    public static func append(_ value: JSON, indent: Int, to bytes: inout [UInt8]) {
        switch value {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let flag): bytes.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let number):
            if number.isFinite { appendNumber(number, to: &bytes) } else { bytes.append(contentsOf: "null".utf8) }
        case .string(let text): appendString(text, to: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            bytes.append(UInt8(ascii: "\n"))
            for (index, element) in elements.enumerated() {
                if index > 0 { appendSeparator(to: &bytes) }
                appendSpaces(indent + 2, to: &bytes)
                append(element, indent: indent + 2, to: &bytes)
            }
            bytes.append(UInt8(ascii: "\n"))
            appendSpaces(indent, to: &bytes)
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            let sorted = members.sorted { $0.key.unicodeScalars.lexicographicallyPrecedes($1.key.unicodeScalars) }
            appendObject(sorted, indent: indent, to: &bytes)
        }
    }

    /// Appends an object of `members` in the order given (``append(_:indent:to:)`` passes them sorted; a caller
    /// that knows its keys passes them in order and saves the dictionary), spelled as ``append(_:indent:to:)``.
    /// (An array, not any collection: called from other modules, a generic function is not specialised, and its
    /// runtime generic checks took half the time of a sidecar's 1,100 annotations.)
    public static func appendObject(_ members: [(key: String, value: JSON)], indent: Int, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "{"))
        bytes.append(UInt8(ascii: "\n"))
        for (index, member) in members.enumerated() {
            if index > 0 { appendSeparator(to: &bytes) }
            appendSpaces(indent + 2, to: &bytes)
            appendString(member.key, to: &bytes)
            bytes.append(UInt8(ascii: " "))
            bytes.append(UInt8(ascii: ":"))
            bytes.append(UInt8(ascii: " "))
            append(member.value, indent: indent + 2, to: &bytes)
        }
        bytes.append(UInt8(ascii: "\n"))
        appendSpaces(indent, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
    }

    /// `count` spaces (indentation).
    public static func appendSpaces(_ count: Int, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: count))
    }

    /// `,` and a line end, between the elements of an array or the members of an object.
    public static func appendSeparator(to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: ","))
        bytes.append(UInt8(ascii: "\n"))
    }

    /// A finite number as Swift spells it (shortest round-trip digits), an integral one without `.0`.
    static func appendNumber(_ value: Double, to bytes: inout [UInt8]) {
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    /// A string in quotes, escaped as the type's documentation says.
    static func appendString(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        let utf8 = text.utf8
        // Most strings (keys, names, paths) need no escape: their bytes as they are.
        guard utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
            bytes.append(contentsOf: utf8)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in utf8 {
            let escape: UInt8? = switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): byte
            case 0x08: UInt8(ascii: "b")
            case 0x09: UInt8(ascii: "t")
            case 0x0A: UInt8(ascii: "n")
            case 0x0C: UInt8(ascii: "f")
            case 0x0D: UInt8(ascii: "r")
            default: nil
            }
            if let escape {
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(escape)
            } else if byte < 0x20 {
                bytes.append(contentsOf: "\\u00".utf8)
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0xF)])
            } else {
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
