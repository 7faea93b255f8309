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
    public var severity: AnomalySeverity
    /// A short machine-readable code, e.g. `gap` or `unpaired_stroke`.
    public var code: String
    /// A sentence a researcher can act on.
    public var message: String
    /// The offending text, cut to 200 characters.
    public var raw: String?

    public init(sourceFile: String, line: Int? = nil, location: String? = nil, severity: AnomalySeverity,
                code: String, message: String, raw: String? = nil) {
        self.sourceFile = sourceFile
        self.line = line
        self.location = location
        self.severity = severity
        self.code = code
        self.message = message
        self.raw = raw.map { $0.count > 200 ? String($0.prefix(200)) : $0 }
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
            .string("raw", rows.map(\.raw), description: "the offending input, cut to 200 characters"),
        ])
    }
}
