import Foundation

/// An input's text, decoded and split into lines by the terminator rule of spec §1: a line ends at CRLF (one
/// terminator), CR or LF, mixing allowed; the last line may be unterminated.
public struct TextLines: Sendable {
    /// One line, without its terminator, and its 1-based number.
    public struct Line: Sendable {
        public var number: Int
        public var text: Substring
    }

    /// The whole decoded text (BOM removed).
    public let text: String
    /// The lines in order; an empty last line after a final terminator is not a line.
    public let lines: [Line]
    /// Whether the bytes were not valid UTF-8 and were decoded as Windows-1252.
    public let decodedAsWindows1252: Bool
    /// How many lines ended with each terminator (`CR`, `LF`, `CRLF`).
    public let terminatorCounts: [String: Int]

    /// Decodes `data` (UTF-8 with an optional BOM, else Windows-1252) and splits it into lines.
    public init(_ data: Data) {
        var bytes = data
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        if let utf8 = String(data: bytes, encoding: .utf8) {
            text = utf8
            decodedAsWindows1252 = false
        } else {
            text = String(data: bytes, encoding: .windowsCP1252) ?? String(decoding: bytes, as: UTF8.self)
            decodedAsWindows1252 = true
        }
        var lines: [Line] = []
        var counts: [String: Int] = [:]
        let utf8 = text.utf8
        var start = utf8.startIndex
        var index = start
        var number = 1
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == 13 || byte == 10 {
                lines.append(Line(number: number, text: text[start..<index]))
                number += 1
                var next = utf8.index(after: index)
                if byte == 13, next < utf8.endIndex, utf8[next] == 10 {
                    next = utf8.index(after: next)
                    counts["CRLF", default: 0] += 1
                } else {
                    counts[byte == 13 ? "CR" : "LF", default: 0] += 1
                }
                index = next
                start = next
            } else {
                index = utf8.index(after: index)
            }
        }
        if start < utf8.endIndex { lines.append(Line(number: number, text: text[start..<utf8.endIndex])) }
        self.lines = lines
        terminatorCounts = counts
    }

    /// Whether the text holds nothing but whitespace.
    public var isBlank: Bool { text.allSatisfy(\.isWhitespace) }
}
