/// A run's anomalies as its summaries read them (the stderr summary, the report, a signal file's sidecar), made
/// each time they are walked: most formats hand over rows already made, but a format with very many (`bt-decode`'s
/// resyncs on a long faulty capture, tens of thousands) makes them from what it keeps compactly, so that a run
/// never holds them all as rows (each has its message and raw bytes as strings).
public struct AnomalyRows {
    /// Hands each row to its argument, in order.
    private let produce: ((Anomaly) throws -> Void) throws -> Void

    /// Rows made by `produce`, which hands them one by one to the closure it is given; it must give the same rows
    /// on every call.
    public init(_ produce: @escaping ((Anomaly) throws -> Void) throws -> Void) {
        self.produce = produce
    }

    /// Rows already made.
    public init(_ rows: [Anomaly]) {
        produce = { body in for row in rows { try body(row) } }
    }

    /// Makes each row and hands it to `body`, in order; an error of `body` ends the walk. Making a row never
    /// fails: what is thrown comes from `body`.
    public func forEach(_ body: (Anomaly) throws -> Void) throws {
        try withoutActuallyEscaping(body) { try produce($0) }
    }

    /// Every row, made at once: for tests and small runs.
    public var all: [Anomaly] {
        var rows: [Anomaly] = []
        // Cannot throw: what forEach throws comes from its body, and this body does not.
        try! forEach { rows.append($0) }
        return rows
    }
}
