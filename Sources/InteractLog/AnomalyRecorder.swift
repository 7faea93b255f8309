import Tables

/// Collects the anomalies of one log (spec §7.2) with their file name filled in.
public struct AnomalyRecorder: Sendable {
    /// The input, as given on the command line.
    public let sourceFile: String
    /// The anomalies, in the order they were found.
    public private(set) var anomalies: [Anomaly] = []

    public init(sourceFile: String) { self.sourceFile = sourceFile }

    /// Records an anomaly of ``InteractLogAnomalies/catalogue``; the severity is the code's.
    public mutating func add(_ code: AnomalyCode, line: Int? = nil, location: String? = nil, _ message: String,
                             raw: String? = nil) {
        anomalies.append(Anomaly(sourceFile: sourceFile, line: line, location: location, code: code, message: message,
                                 raw: raw))
    }

    /// Appends anomalies recorded elsewhere.
    public mutating func append(contentsOf other: [Anomaly]) { anomalies += other }

    /// The number of anomalies of a severity.
    public func count(_ severity: AnomalySeverity) -> Int { anomalies.reduce(0) { $0 + ($1.severity == severity ? 1 : 0) } }
}
