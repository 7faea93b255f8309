import Foundation

/// A JSON value, as read by ``JSONDocument``.
public indirect enum JSONValue: Sendable, Equatable {
    case string(String)
    /// A number with its literal text (so that `19.5` is reported as written).
    case number(Double, text: String)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): a == b
        case (.number(let a, _), .number(let b, _)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null): true
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.map(\.key) == b.map(\.key) && a.map(\.value) == b.map(\.value)
        default: false
        }
    }

    /// The value as a message quotes it: scalars as written, arrays and objects by their opening bracket.
    public var quoted: String {
        switch self {
        case .string(let text): "\"\(text.count > 40 ? String(text.prefix(40)) + "…" : text)\""
        case .number(_, let text): text
        case .bool(let value): value ? "true" : "false"
        case .null: "null"
        case .array: "["
        case .object: "{"
        }
    }

    /// The value as ``quoted`` writes it but with a string in full: the `raw` of an anomaly, which the anomalies
    /// table escapes and cuts by its own rule (conventions §3.2).
    var quotedInFull: String {
        if case .string(let text) = self { return "\"\(text)\"" }
        return quoted
    }

    /// An integer when the value is a whole number within `Int`'s range.
    public var integer: Int? {
        guard case .number(let value, _) = self, value == value.rounded(), abs(value) < 9e15 else { return nil }
        return Int(value)
    }
}

/// One top-level member of a JSON object, with the 1-based line and column where its value starts.
public struct JSONMember: Sendable, Equatable {
    public var key: String
    public var value: JSONValue
    public var line: Int
    public var column: Int
}

/// A small JSON reader that keeps the position of every top-level member, so that messages can say
/// `file:line:column` (spec §9). Accepts a leading UTF-8 BOM.
public enum JSONDocument {
    /// A syntax error at a 1-based line and column.
    public struct SyntaxError: Error, Equatable {
        public var line: Int
        public var column: Int
        public var message: String
    }

    /// Parses a document whose top level must be an object; returns its members in file order.
    public static func parseObject(_ bytes: [UInt8]) throws(SyntaxError) -> [JSONMember] {
        var reader = Reader(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.index = 3 }
        reader.skipSpace()
        guard reader.peek == UInt8(ascii: "{") else {
            throw reader.error("expected a JSON object starting with {, found \(reader.found)")
        }
        let members = try reader.object(positions: true)
        reader.skipSpace()
        guard reader.index == bytes.count else { throw reader.error("expected the end of the document, found \(reader.found)") }
        guard case .object = members.value else { return [] }
        return members.positions
    }

    /// Parses any JSON value (for definition files and protocols).
    public static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> JSONValue {
        var reader = Reader(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.index = 3 }
        reader.skipSpace()
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.index == bytes.count else { throw reader.error("expected the end of the document, found \(reader.found)") }
        return value
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        var found: String {
            guard let byte = peek else { return "the end of the file" }
            if byte < 0x80, byte >= 0x20 { return "'\(Character(Unicode.Scalar(byte)))'" }
            return String(format: "byte 0x%02X", byte)
        }

        /// Offsets just after each line feed, for positions in O(log n).
        lazy var lineStarts: [Int] = [0] + bytes.indices.filter { bytes[$0] == 0x0A }.map { $0 + 1 }

        /// 1-based line and column (in characters) of `offset`.
        mutating func position(_ offset: Int) -> (Int, Int) {
            let target = min(offset, bytes.count)
            var low = 0, high = lineStarts.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if lineStarts[middle] <= target { low = middle } else { high = middle - 1 }
            }
            let column = String(decoding: bytes[lineStarts[low]..<target], as: UTF8.self).count + 1
            return (low + 1, column)
        }

        mutating func error(_ message: String) -> SyntaxError {
            let (line, column) = position(index)
            return SyntaxError(line: line, column: column, message: message)
        }

        mutating func skipSpace() {
            while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        mutating func expect(_ byte: UInt8, _ what: String) throws(SyntaxError) {
            guard peek == byte else { throw error("expected \(what), found \(found)") }
            index += 1
        }

        mutating func value(depth: Int) throws(SyntaxError) -> JSONValue {
            guard depth < 512 else { throw error("JSON nested too deeply") }
            skipSpace()
            switch peek {
            case UInt8(ascii: "{"): return try object(positions: false, depth: depth).value
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case let byte? where byte == UInt8(ascii: "-") || (byte >= 48 && byte <= 57): return try number()
            default: throw error("expected a JSON value, found \(found)")
            }
        }

        mutating func literal(_ word: String) throws(SyntaxError) {
            let expected = Array(word.utf8)
            guard bytes.count >= index + expected.count, Array(bytes[index..<index + expected.count]) == expected else {
                throw error("expected a JSON value, found \(found)")
            }
            index += expected.count
        }

        mutating func number() throws(SyntaxError) -> JSONValue {
            let start = index
            if peek == UInt8(ascii: "-") { index += 1 }
            while let byte = peek, (byte >= 48 && byte <= 57) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e")
                    || byte == UInt8(ascii: "E") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") { index += 1 }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            guard let value = Double(text), value.isFinite else {
                index = start
                throw error("expected a number, found \(text)")
            }
            return .number(value, text: text)
        }

        mutating func string() throws(SyntaxError) -> String {
            try expect(UInt8(ascii: "\""), "a string")
            var out: [UInt8] = []
            while true {
                guard let byte = peek else { throw error("unterminated string") }
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard let escaped = peek else { throw error("unterminated string") }
                    index += 1
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escaped)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "u"):
                        var code = try hex4()
                        if (0xD800..<0xDC00).contains(code), peek == UInt8(ascii: "\\"),
                           index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") {
                            let afterHigh = index
                            index += 2
                            let low = try hex4()
                            if (0xDC00..<0xE000).contains(low) {
                                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                            } else {
                                index = afterHigh  // a lone high surrogate: U+FFFD, and the next escape on its own
                            }
                        }
                        let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
                        out.append(contentsOf: Array(String(Character(scalar)).utf8))
                    default:
                        index -= 1
                        throw error("invalid escape \\\(Character(Unicode.Scalar(escaped)))")
                    }
                case 0x00..<0x20:
                    index -= 1
                    throw error("control character in a string")
                default:
                    out.append(byte)
                }
            }
        }

        mutating func hex4() throws(SyntaxError) -> UInt32 {
            guard bytes.count >= index + 4,
                  let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else {
                throw error("expected 4 hexadecimal digits after \\u")
            }
            index += 4
            return code
        }

        mutating func array(depth: Int) throws(SyntaxError) -> JSONValue {
            try expect(UInt8(ascii: "["), "[")
            var values: [JSONValue] = []
            skipSpace()
            if peek == UInt8(ascii: "]") { index += 1; return .array([]) }
            while true {
                values.append(try value(depth: depth + 1))
                skipSpace()
                if peek == UInt8(ascii: ",") { index += 1; continue }
                try expect(UInt8(ascii: "]"), "',' or ']'")
                return .array(values)
            }
        }

        mutating func object(positions: Bool, depth: Int = 0) throws(SyntaxError)
            -> (value: JSONValue, positions: [JSONMember]) {
            try expect(UInt8(ascii: "{"), "{")
            var members: [(key: String, value: JSONValue)] = []
            var located: [JSONMember] = []
            skipSpace()
            if peek == UInt8(ascii: "}") { index += 1; return (.object([]), []) }
            while true {
                skipSpace()
                guard peek == UInt8(ascii: "\"") else { throw error("expected a key in double quotes, found \(found)") }
                let key = try string()
                skipSpace()
                try expect(UInt8(ascii: ":"), "':' after the key \"\(key)\"")
                skipSpace()
                let (line, column) = positions ? position(index) : (0, 0)
                let member = try value(depth: depth + 1)
                members.append((key, member))
                if positions { located.append(JSONMember(key: key, value: member, line: line, column: column)) }
                skipSpace()
                if peek == UInt8(ascii: ",") { index += 1; continue }
                try expect(UInt8(ascii: "}"), "',' or '}'")
                return (.object(members), located)
            }
        }
    }
}

extension JSONValue {
    /// The members of an object (empty for other values).
    public var members: [(key: String, value: JSONValue)] {
        if case .object(let members) = self { return members }
        return []
    }

    /// The first member named `key` of an object.
    public subscript(key: String) -> JSONValue? { members.first { $0.key == key }?.value }

    /// The text of a string value.
    public var text: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
