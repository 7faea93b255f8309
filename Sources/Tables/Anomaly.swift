/// How serious an anomaly is.
public enum AnomalySeverity: String, Sendable, Codable {
    case error, warning, info
}

/// A recoverable oddity of an input, kept as data (conventions §3): one row of the shared `anomalies` table.
public struct Anomaly: Sendable, Equatable, Codable {
    /// The input, as given on the command line.
    public var sourceFile: String
    /// The 1-based line, where the input has lines.
    public var line: Int?
    /// A byte offset or an HDF5 path, where that fits.
    public var location: String?
    /// The severity the code's prefix says (`E_` error, `W_` warning, `I_` info).
    public var severity: AnomalySeverity
    /// A machine-readable code of the shared vocabulary (conventions §3.2), e.g. `W_RESYNC`; each format library's
    /// catalogue of ``AnomalyCode``s lists the codes its tool writes.
    public var code: String
    /// A sentence a researcher can act on.
    public var message: String
    /// The offending text, in one form for every tool (conventions §3.2, ``rawText(_:)``): each control character
    /// other than tab (C0, DEL, C1) and each Unicode noncharacter (such as U+FFFF) written as `\u{…}` with its
    /// hexadecimal scalar value (`\u{D}` for a carriage return, `\u{1B}` for ESC), then cut to at most
    /// ``rawLimit`` characters at a character (grapheme) boundary, never inside an escape. Bytes are given as hex by
    /// the tool that read them. A backslash of the input is kept as it is.
    public var raw: String?

    /// The most characters `raw` holds.
    public static let rawLimit = 200

    /// A row whose severity follows from its code (the way every tool builds its rows).
    public init(sourceFile: String, line: Int? = nil, location: String? = nil, code: AnomalyCode, message: String,
                raw: String? = nil) {
        self.init(sourceFile: sourceFile, line: line, location: location, severity: code.severity, code: code.code,
                  message: message, raw: raw)
    }

    /// A row from a code given as text. `severity` must be the one the code's prefix says (`E_` error, `W_` warning,
    /// `I_` info): a row that contradicts its own code is a programming error and stops the program.
    public init(sourceFile: String, line: Int? = nil, location: String? = nil, severity: AnomalySeverity,
                code: String, message: String, raw: String? = nil) {
        precondition(AnomalyCode.severity(ofCode: code) == severity,
                     "anomaly code \(code) has severity \(severity.rawValue), but its prefix says otherwise")
        self.sourceFile = sourceFile
        self.line = line
        self.location = location
        self.severity = severity
        self.code = code
        self.message = message
        self.raw = raw.map(Self.rawText)
    }

    /// `text` as the `raw` column holds it (see ``raw``): control characters other than tab and noncharacters
    /// escaped as `\u{…}`, at most ``rawLimit`` characters, cut between characters and never inside an escape.
    public static func rawText(_ text: some StringProtocol) -> String {
        if text.utf8.count <= rawLimit && !text.unicodeScalars.contains(where: needsEscape) { return String(text) }
        var result = ""
        var length = 0
        for character in text {
            let piece: String
            if character.unicodeScalars.contains(where: needsEscape) {
                var escaped = ""
                for scalar in character.unicodeScalars {
                    if needsEscape(scalar) {
                        escaped += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                    } else {
                        escaped.unicodeScalars.append(scalar)
                    }
                }
                piece = escaped
            } else {
                piece = String(character)
            }
            // Pieces are counted apart; joined, a piece can only merge into its neighbour (a combining mark after
            // an escape's `}`), so the result never holds more than `length` characters.
            let pieceLength = piece.count
            guard length + pieceLength <= rawLimit else { break }
            result += piece
            length += pieceLength
        }
        return result
    }

    /// Control characters other than tab, and noncharacters: by their code points, which Unicode fixes for both
    /// (general category Cc is exactly U+0000–U+001F and U+007F–U+009F; the noncharacters are U+FDD0–U+FDEF and
    /// the last two code points of every plane), without the property tables' lookups that made this the costliest
    /// step of reading a file with many bad lines.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x20 { return value != 0x09 }
        if value < 0x7F { return false }
        if value <= 0x9F { return true }
        return (0xFDD0...0xFDEF).contains(value) || value & 0xFFFE == 0xFFFE
    }
}

extension Table {
    /// The shared `anomalies` table: `source_file, line, location, severity, code, message, raw`.
    public static func anomalies(_ rows: [Anomaly]) -> Table {
        Table("anomalies", [
            .string("source_file", rows.map(\.sourceFile), description: "the input path as given"),
            .int32("line", rows.map(\.line), description: "1-based line of the input, where it has lines"),
            .string("location", rows.map(\.location),
                    description: "where in the input, as the tool says: byte offset, HDF5 path, field or column"),
            .string("severity", rows.map(\.severity.rawValue), description: "error, warning or info"),
            .string("code", rows.map(\.code), description: "machine-readable code of the anomaly (see the tool's docs)"),
            .string("message", rows.map(\.message), description: "what was found, in a sentence"),
            .string("raw", rows.map(\.raw), description: "the offending input (bytes as hex), control characters other than tab as \\u{…}, at most 200 characters"),
        ])
    }
}

extension Array where Element == Anomaly {
    /// The anomalies by line, rows without a line last, each group in its order here (a stable sort): the order
    /// `nt-analyze`'s anomalies are listed in, whichever part of its analysis found them.
    public func sortedByLine() -> [Anomaly] {
        enumerated().sorted { a, b in
            switch (a.element.line, b.element.line) {
            case let (x?, y?): return x != y ? x < y : a.offset < b.offset
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return a.offset < b.offset
            }
        }.map(\.element)
    }
}
