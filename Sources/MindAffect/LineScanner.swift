import Foundation

/// A cursor over the bytes of one line, reading the tokens of the hub's `toString()` output.
///
/// The buffer must hold a 0 byte somewhere after `end` (``SaveFile`` appends one), so that the C number
/// parsers, which run only over tokens already checked against the Java grammar, always stop.
struct LineScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    /// The first byte of the line (for 1-based columns).
    let lineStart: Int
    /// One past the last byte to read.
    var end: Int
    /// The next byte to read.
    var position: Int

    init(bytes: UnsafeBufferPointer<UInt8>, lineStart: Int, start: Int, end: Int) {
        self.bytes = bytes
        self.lineStart = lineStart
        self.position = start
        self.end = end
    }

    /// The 1-based column of the next byte.
    var column: Int { position - lineStart + 1 }

    var isAtEnd: Bool { position >= end }

    /// The next byte, or `nil` at the end.
    var peek: UInt8? { position < end ? bytes[position] : nil }

    /// Consumes `literal` if the text continues with it.
    mutating func skip(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard end - position >= count else { return false }
        let matches = literal.withUTF8Buffer { expected in
            for index in 0..<count where bytes[position + index] != expected[index] { return false }
            return true
        }
        if matches { position += count }
        return matches
    }

    /// Consumes one byte if it is `byte`.
    mutating func skip(byte: UInt8) -> Bool {
        guard position < end, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    /// Reads `["-"] digit+` as a Java 32-bit int.
    mutating func readInt32() -> Int? {
        let start = position
        var index = position
        var negative = false
        if index < end, bytes[index] == UInt8(ascii: "-") { negative = true; index += 1 }
        var value = 0
        var digits = 0
        while index < end, bytes[index] &- 48 < 10 {
            value = value &* 10 &+ Int(bytes[index] &- 48)
            digits += 1
            index += 1
            if digits > 10 { position = start; return nil }
        }
        guard digits > 0 else { return nil }
        let signed = negative ? -value : value
        guard signed >= Int(Int32.min), signed <= Int(Int32.max) else { return nil }
        position = index
        return signed
    }

    /// The end of a Java `Float.toString` (or plain int) token starting at the cursor, or `nil`:
    /// `["-"] (digits ["." digits] ["E" ["-"] digits] | "NaN" | "Infinity")`.
    func javaNumberEnd() -> Int? {
        var index = position
        if index < end, bytes[index] == UInt8(ascii: "-") { index += 1 }
        func matches(_ word: StaticString, at start: Int) -> Bool {
            let count = word.utf8CodeUnitCount
            guard end - start >= count else { return false }
            return word.withUTF8Buffer { expected in
                for offset in 0..<count where bytes[start + offset] != expected[offset] { return false }
                return true
            }
        }
        if matches("Infinity", at: index) { return index + 8 }
        if index == position, matches("NaN", at: index) { return index + 3 }
        func digits(from start: Int) -> Int {
            var at = start
            while at < end, bytes[at] &- 48 < 10 { at += 1 }
            return at
        }
        let integerEnd = digits(from: index)
        guard integerEnd > index else { return nil }
        index = integerEnd
        if index < end, bytes[index] == UInt8(ascii: ".") {
            let fractionEnd = digits(from: index + 1)
            guard fractionEnd > index + 1 else { return nil }
            index = fractionEnd
        }
        if index < end, bytes[index] == UInt8(ascii: "E") {
            var exponent = index + 1
            if exponent < end, bytes[exponent] == UInt8(ascii: "-") { exponent += 1 }
            let exponentEnd = digits(from: exponent)
            guard exponentEnd > exponent else { return nil }
            index = exponentEnd
        }
        return index
    }

    /// Reads a Java float as a `Float` (the hub's sample type), or `nil` if the token is not one.
    mutating func readFloat32() -> Float? {
        guard let tokenEnd = javaNumberEnd() else { return nil }
        let value = bytes.baseAddress!.advanced(by: position).withMemoryRebound(to: CChar.self, capacity: 1) {
            strtof($0, nil)
        }
        position = tokenEnd
        return value
    }

    /// Reads a Java float as a `Double`, or `nil` if the token is not one.
    mutating func readDouble() -> Double? {
        guard let tokenEnd = javaNumberEnd() else { return nil }
        let value = bytes.baseAddress!.advanced(by: position).withMemoryRebound(to: CChar.self, capacity: 1) {
            strtod($0, nil)
        }
        position = tokenEnd
        return value
    }

    /// Reads bytes up to (not including) `terminator` or the end.
    mutating func readBytes(upTo terminator: UInt8?) -> Range<Int> {
        let start = position
        while position < end, bytes[position] != terminator { position += 1 }
        return start..<position
    }

    /// The bytes from the cursor to the end, as text for messages (cut to 40 characters).
    var remainderForMessage: String {
        if isAtEnd { return "the end of the line" }
        let stop = min(end, position + 40)
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<stop]), as: UTF8.self)
        return "\"" + text + (stop < end ? "…" : "") + "\""
    }
}
