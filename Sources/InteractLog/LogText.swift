import Foundation
import Tables
#if canImport(Glibc)
import Glibc
#endif

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

/// A log's bytes read as lines (spec §1.3): UTF-8, else Windows-1252; BOM stripped; LF or CRLF, a trailing CR
/// removed from each line.
///
/// The file is not decoded as a whole: one pass over the bytes settles the encoding (a file that is not valid
/// UTF-8 throughout is read as Windows-1252), the line endings and the line count, then ``forEachLine(_:)``
/// decodes one line at a time. Line `n` reads exactly as it did when the whole text was decoded and split at
/// LF: no character spans a line feed.
public struct LogText {
    /// The file's bytes (with a byte order mark still at their start; ``bodyStart`` skips it).
    let data: Data
    /// Where the text starts: 3 after a byte order mark, else 0.
    let bodyStart: Int
    public var encoding: LogEncoding
    public var lineEnding: LineEnding
    /// Whether the file began with a byte order mark.
    public var hadBOM: Bool
    /// Whether the last line lacked its line break.
    public var missingFinalNewline: Bool
    /// The number of lines: one per line feed, and the last one without it.
    public var lineCount: Int

    /// Reads a file's layout; fails with `E_EMPTY` or `E_BINARY`.
    public static func decode(_ data: Data, sourceFile: String) throws(InteractLogError) -> LogText {
        let facts = data.withUnsafeBytes { LayoutScan(UnsafeRawBufferPointer($0)) }
        if let nulLine = facts.nulLine { throw .binary(file: sourceFile, line: nulLine) }
        guard facts.hasText else { throw .empty(file: sourceFile) }
        let ending: LineEnding = facts.crlf > 0 && facts.lf > 0 ? .mixed : facts.crlf > 0 ? .crlf : facts.lf > 0 ? .lf : .none
        return LogText(data: data, bodyStart: facts.bodyStart, encoding: facts.validUTF8 ? .utf8 : .windows1252,
                       lineEnding: ending, hadBOM: facts.bodyStart == 3,
                       missingFinalNewline: facts.missingFinalNewline,
                       lineCount: facts.lf + facts.crlf + (facts.missingFinalNewline ? 1 : 0))
    }

    /// Calls `body` with each line's 1-based number and text (without its line break or a CR before it), in
    /// order, until it returns `false`.
    public func forEachLine(_ body: (_ number: Int, _ text: Substring) throws -> Bool) rethrows {
        try forEachLine { number, bytes in try body(number, Substring(decodeLine(bytes))) }
    }

    /// Calls `body` with each line's 1-based number and bytes (without its line break or a CR before it), in
    /// order, until it returns `false`; ``decodeLine(_:)`` makes a line's text.
    func forEachLine(_ body: (_ number: Int, _ bytes: UnsafeRawBufferPointer) throws -> Bool) rethrows {
        try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = UnsafeRawBufferPointer(rebasing: raw[bodyStart...])
            var start = 0
            var number = 0
            while start < bytes.count {
                var end = start
                if let base = bytes.baseAddress, let lf = memchr(base + start, 10, bytes.count - start) {
                    end = base.distance(to: UnsafeRawPointer(lf))
                } else {
                    end = bytes.count
                }
                let next = end + 1
                if end > start, bytes[end - 1] == 13 { end -= 1 }
                number += 1
                guard try body(number, UnsafeRawBufferPointer(rebasing: bytes[start..<end])) else { return }
                start = next
            }
        }
    }

    /// One line's text in the file's encoding.
    func decodeLine(_ bytes: UnsafeRawBufferPointer) -> String { Self.decode(bytes, encoding) }

    /// Bytes of a line as text in an encoding.
    static func decode(_ bytes: UnsafeRawBufferPointer, _ encoding: LogEncoding) -> String {
        switch encoding {
        case .utf8: String(decoding: bytes, as: UTF8.self)
        case .windows1252:
            String(String.UnicodeScalarView(bytes.lazy.map(LogText.windows1252Scalar)))
        }
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

/// What one pass over a log's bytes finds: where a NUL byte is, whether there is any text, whether the bytes are
/// valid UTF-8, and the line breaks.
struct LayoutScan {
    var bodyStart = 0
    /// The line of the first NUL byte, if any.
    var nulLine: Int?
    /// Whether a byte other than space, tab, CR and LF follows the byte order mark.
    var hasText = false
    var validUTF8 = true
    /// Lines ended by a bare LF, and by CR LF.
    var lf = 0, crlf = 0
    var missingFinalNewline = false

    init(_ all: UnsafeRawBufferPointer) {
        if let base = all.baseAddress, let found = memchr(base, 0, all.count) {
            let nul = base.distance(to: UnsafeRawPointer(found))
            nulLine = all[..<nul].reduce(1) { $0 + ($1 == 10 ? 1 : 0) }
            return
        }
        if all.count >= 3, all[0] == 0xEF, all[1] == 0xBB, all[2] == 0xBF { bodyStart = 3 }
        let bytes = UnsafeRawBufferPointer(rebasing: all[bodyStart...])
        hasText = bytes.contains { !($0 == 32 || $0 == 9 || $0 == 10 || $0 == 13) }
        validUTF8 = UTF8Validity.isValid(bytes)
        guard let base = bytes.baseAddress else { return }
        var start = 0
        while start < bytes.count, let lf = memchr(base + start, 10, bytes.count - start) {
            let end = base.distance(to: UnsafeRawPointer(lf))
            if end > start, bytes[end - 1] == 13 { crlf += 1 } else { self.lf += 1 }
            start = end + 1
        }
        missingFinalNewline = start < bytes.count
    }
}
