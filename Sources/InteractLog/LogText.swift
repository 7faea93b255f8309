import Foundation

/// The text encoding a log was decoded with (spec §1.3).
public enum LogEncoding: String, Sendable {
    case utf8 = "utf-8"
    case windows1252 = "windows-1252"
}

/// The line endings found in a log.
public enum LineEnding: String, Sendable {
    case lf, crlf, mixed
    /// A single line without any line break.
    case none
}

/// A log's bytes decoded into lines (spec §1.3): UTF-8, else Windows-1252; BOM stripped; LF or CRLF, a trailing
/// CR removed from each line.
public struct LogText: Sendable {
    /// The lines, without their line breaks; line `n` (1-based) is `lines[n - 1]`.
    public var lines: [Substring]
    public var encoding: LogEncoding
    public var lineEnding: LineEnding
    /// Whether the file began with a byte order mark.
    public var hadBOM: Bool
    /// Whether the last line lacked its line break.
    public var missingFinalNewline: Bool

    /// Decodes a file; fails with `E_EMPTY` or `E_BINARY`.
    public static func decode(_ data: Data, sourceFile: String) throws(InteractLogError) -> LogText {
        var bytes = [UInt8](data)
        if let nul = bytes.firstIndex(of: 0) {
            let line = bytes[..<nul].reduce(1) { $0 + ($1 == 10 ? 1 : 0) }
            throw .binary(file: sourceFile, line: line)
        }
        var hadBOM = false
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3); hadBOM = true }
        guard bytes.contains(where: { !($0 == 32 || $0 == 9 || $0 == 10 || $0 == 13) }) else {
            throw .empty(file: sourceFile)
        }
        let text: String
        let encoding: LogEncoding
        if let utf8 = String(validating: bytes, as: UTF8.self) {
            text = utf8; encoding = .utf8
        } else {
            text = String(bytes.map { Character(windows1252Scalar($0)) }); encoding = .windows1252
        }
        var lines: [Substring] = []
        var lfCount = 0, crlfCount = 0
        var start = text.startIndex
        let utf8 = text.utf8
        var position = utf8.startIndex
        while position != utf8.endIndex {
            if utf8[position] == 10 {
                var end = position
                if end > start, utf8[utf8.index(before: end)] == 13 { end = utf8.index(before: end); crlfCount += 1 }
                else { lfCount += 1 }
                lines.append(text[start..<end])
                start = utf8.index(after: position)
            }
            position = utf8.index(after: position)
        }
        let missingFinalNewline = start != text.endIndex
        if missingFinalNewline {
            var last = text[start...]
            if last.hasSuffix("\r") { last = last.dropLast() }
            lines.append(last)
        }
        let ending: LineEnding = crlfCount > 0 && lfCount > 0 ? .mixed : crlfCount > 0 ? .crlf : lfCount > 0 ? .lf : .none
        return LogText(lines: lines, encoding: encoding, lineEnding: ending, hadBOM: hadBOM,
                       missingFinalNewline: missingFinalNewline)
    }

    /// The Unicode scalar of a Windows-1252 byte (undefined bytes map to the C1 control of the same value).
    static func windows1252Scalar(_ byte: UInt8) -> Unicode.Scalar {
        let high: [UInt32] = [0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
                              0x2039, 0x0152, 0x8D, 0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
                              0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178]
        if (0x80...0x9F).contains(byte), let scalar = Unicode.Scalar(high[Int(byte) - 0x80]) { return scalar }
        return Unicode.Scalar(byte)
    }

    /// Text with control characters and U+FFFF written as `<U+XXXX>` (spec §1.3), for table cells.
    public static func printable<S: StringProtocol>(_ text: S) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return String(text) }
        var result = ""
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "<U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + ">"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Text quoted for a message, made printable.
    static func quoted<S: StringProtocol>(_ text: S) -> String {
        let cut = text.count > 80 ? String(text.prefix(80)) + "…" : String(text)
        return "'" + printable(cut) + "'"
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) || scalar.value == 0xFFFF
    }
}
