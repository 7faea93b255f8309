import Foundation
import Tables
#if canImport(Glibc)
import Glibc
#endif

/// An input's text, decoded and split into lines by the terminator rule of spec §1: a line ends at CRLF (one
/// terminator), CR or LF, mixing allowed; the last line may be unterminated.
///
/// The text is not decoded as a whole: one pass over the bytes settles the encoding (UTF-8 with an optional BOM,
/// else Windows-1252, else UTF-8 with replacement characters) and counts the lines, then ``forEachLine(_:)``
/// decodes one line at a time. Each line reads exactly as its slice of the whole decoded text did: no character
/// spans a CR or LF but CR LF itself, which is a terminator.
public struct TextLines: Sendable {
    /// One line, without its terminator, and its 1-based number.
    public struct Line: Sendable {
        public var number: Int
        public var text: Substring
    }

    /// How the bytes are decoded.
    enum Decoding: Sendable { case utf8, windows1252, utf8Replacing }

    private let data: Data
    /// Where the text starts (after a byte order mark; Foundation also drops a second one from valid UTF-8).
    private let start: Int
    private let decoding: Decoding
    /// Whether the bytes were not valid UTF-8 and were decoded as Windows-1252.
    public let decodedAsWindows1252: Bool
    /// How many lines ended with each terminator (`CR`, `LF`, `CRLF`).
    public let terminatorCounts: [String: Int]
    /// The number of lines; an empty last line after a final terminator is not a line.
    public let lineCount: Int

    /// Reads the layout of `data` (UTF-8 with an optional BOM, else Windows-1252).
    public init(_ data: Data) {
        self.data = data
        var start = data.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let (valid, counts, lines) = data.withUnsafeBytes { raw in
            let bytes = UnsafeRawBufferPointer(rebasing: raw[start...])
            let counts = TextLines.terminators(bytes)
            return (UTF8Validity.isValid(bytes), counts, TextLines.lineCount(bytes, terminators: counts))
        }
        if valid {
            // `String(data:encoding: .utf8)`, which read the text before, drops a byte order mark at its start.
            if data.dropFirst(start).starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
            decoding = .utf8
        } else {
            decoding = String(data: data.dropFirst(start), encoding: .windowsCP1252) != nil ? .windows1252 : .utf8Replacing
        }
        self.start = start
        decodedAsWindows1252 = !valid
        if valid && start == 6 {
            // The second mark is not text: count again without it.
            let (counts, lines) = data.withUnsafeBytes { raw in
                let bytes = UnsafeRawBufferPointer(rebasing: raw[start...])
                let counts = TextLines.terminators(bytes)
                return (counts, TextLines.lineCount(bytes, terminators: counts))
            }
            terminatorCounts = counts
            lineCount = lines
        } else {
            terminatorCounts = counts
            lineCount = lines
        }
    }

    /// The whole decoded text (BOM removed).
    public var text: String {
        data.withUnsafeBytes { raw in decode(UnsafeRawBufferPointer(rebasing: raw[start...])) }
    }

    /// The lines in order.
    public var lines: [Line] {
        var lines: [Line] = []
        lines.reserveCapacity(lineCount)
        forEachLine { lines.append($0) }
        return lines
    }

    /// The first line, if any.
    public var firstLine: Line? {
        var first: Line?
        forEachLine(while: { first = $0; return false })
        return first
    }

    /// Calls `body` with each line in order.
    public func forEachLine(_ body: (Line) throws -> Void) rethrows {
        try forEachLine(while: { try body($0); return true })
    }

    /// Calls `body` with each line in order until it returns `false`.
    public func forEachLine(while body: (Line) throws -> Bool) rethrows {
        try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = UnsafeRawBufferPointer(rebasing: raw[start...])
            var lineStart = 0
            var index = 0
            var number = 1
            while index < bytes.count {
                let byte = bytes[index]
                if byte == 13 || byte == 10 {
                    guard try body(Line(number: number, text: Substring(decode(UnsafeRawBufferPointer(rebasing: bytes[lineStart..<index]))))) else { return }
                    number += 1
                    index += byte == 13 && index + 1 < bytes.count && bytes[index + 1] == 10 ? 2 : 1
                    lineStart = index
                } else {
                    index += 1
                }
            }
            if lineStart < bytes.count {
                _ = try body(Line(number: number, text: Substring(decode(UnsafeRawBufferPointer(rebasing: bytes[lineStart...])))))
            }
        }
    }

    /// Whether the text holds nothing but whitespace.
    public var isBlank: Bool {
        var blank = true
        forEachLine(while: { line in
            blank = line.text.allSatisfy(\.isWhitespace)
            return blank
        })
        return blank
    }

    /// Some bytes of the text in its encoding.
    private func decode(_ bytes: UnsafeRawBufferPointer) -> String {
        switch decoding {
        case .utf8, .utf8Replacing: String(decoding: bytes, as: UTF8.self)
        case .windows1252: String(data: Data(bytes), encoding: .windowsCP1252) ?? String(decoding: bytes, as: UTF8.self)
        }
    }

    /// Whether a byte of `word` is zero.
    private static func hasZeroByte(_ word: UInt64) -> Bool {
        (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 != 0
    }

    private static func terminators(_ bytes: UnsafeRawBufferPointer) -> [String: Int] {
        var cr = 0, lf = 0, crlf = 0
        var index = 0
        while index < bytes.count {
            // Eight bytes at a time while none is a CR or an LF (a byte equal to c has a zero in x ^ c…c).
            while index + 8 <= bytes.count {
                let word = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                if hasZeroByte(word ^ 0x0A0A_0A0A_0A0A_0A0A) || hasZeroByte(word ^ 0x0D0D_0D0D_0D0D_0D0D) { break }
                index += 8
            }
            guard index < bytes.count else { break }
            let byte = bytes[index]
            if byte == 13 {
                if index + 1 < bytes.count, bytes[index + 1] == 10 { crlf += 1; index += 2; continue }
                cr += 1
            } else if byte == 10 {
                lf += 1
            }
            index += 1
        }
        var counts: [String: Int] = [:]
        if cr > 0 { counts["CR"] = cr }
        if lf > 0 { counts["LF"] = lf }
        if crlf > 0 { counts["CRLF"] = crlf }
        return counts
    }

    /// The number of lines: one per terminator, and one more for text after the last (a last line without one).
    private static func lineCount(_ bytes: UnsafeRawBufferPointer, terminators: [String: Int]) -> Int {
        let ended = terminators.values.reduce(0, +)
        guard let last = bytes.last else { return ended }
        return ended + (last == 13 || last == 10 ? 0 : 1)
    }
}
