import Tables

/// What the stderr summary says about one input's anomalies, gathered as they are walked: the count of each code in
/// the order first seen, and the first rows of each code for `--verbose` (``Diagnostics/report(_:for:)``), so that
/// a run never holds every row of an input with very many.
public struct AnomalyTally {
    /// The most rows of one code kept (and printed with `--verbose`).
    public static let rowsPerCode = 20

    /// Each code and its count, in the order first seen.
    public private(set) var counts: [(code: String, count: Int)] = []
    /// The first ``rowsPerCode`` rows of each code, in input order (none unless rows are kept).
    public private(set) var rows: [Anomaly] = []
    private let keepsRows: Bool

    /// A tally that keeps the first rows of each code when `keepingRows`.
    public init(keepingRows: Bool) {
        keepsRows = keepingRows
    }

    /// A tally of `anomalies`.
    public init(_ anomalies: [Anomaly], keepingRows: Bool) {
        self.init(keepingRows: keepingRows)
        for anomaly in anomalies { add(anomaly) }
    }

    /// Counts the next row.
    public mutating func add(_ anomaly: Anomaly) {
        let count: Int
        if let index = counts.firstIndex(where: { $0.code == anomaly.code }) {
            counts[index].count += 1
            count = counts[index].count
        } else {
            counts.append((anomaly.code, 1))
            count = 1
        }
        if keepsRows && count <= Self.rowsPerCode { rows.append(anomaly) }
    }

    public var isEmpty: Bool { counts.isEmpty }
}
