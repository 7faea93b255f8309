/// An input format as every tool reads it (docs/conventions.md §1): the one contract between a format's library
/// and the shared runner (`ToolSupport`'s ``ToolRunner``), which owns opening the output, progress,
/// `--keep-going`, the stderr summary, the provenance and the exit codes.
///
/// A format reads each input on its own (``read(_:)``), then makes the run's tables from every input that could
/// be read (``tables(_:)``), so that checks across files (duplicate trials, a subject's date order) see them all.
/// Its ``options`` are what the provenance records as the run's parameters: the values the library uses, not a
/// restatement of them.
public protocol InputFormat {
    /// The run's options; encoded as JSON, the provenance's `parameters`.
    associatedtype Options: Encodable
    /// What one input becomes.
    associatedtype Parsed

    /// The options in force.
    var options: Options { get }

    /// Every table the format writes, in output order (`--table` chooses among them).
    var tableNames: [String] { get }

    /// Whether a folder given as an input is read as the files under it (recursively, sorted); otherwise a folder
    /// is refused as an unreadable input.
    var readsFolders: Bool { get }

    /// Reads one input. Errors are ``ReportableError``s naming the file and the line or byte offset; one ends the
    /// run, or with `--keep-going` fails this input alone.
    func read(_ input: InputSource) throws -> Parsed

    /// Whether ``read(_:emit:)`` hands table batches over while it reads (``StreamingInputFormat``).
    var streamsTables: Bool { get }

    /// Reads one input, handing table batches to `emit` as they are made when the format streams; by default
    /// ``read(_:)``, emitting nothing.
    func read(_ input: InputSource, emit: (Table) throws -> Void) throws -> Parsed

    /// One line about a parsed input for stderr (e.g. packets and lost samples), or `nil`.
    func summary(of parsed: Parsed) -> String?

    /// Whether an input was read only to be set aside (an InteractLog companion file, a file in a MYND folder
    /// without a MYND name): it adds an anomaly row and nothing else. A run whose every other input failed writes
    /// nothing, so that `--keep-going` never replaces an earlier output with one of no input.
    func isSetAside(_ parsed: Parsed) -> Bool

    /// The run's tables from the inputs read, in input order: every table of ``tableNames``, empty ones included.
    /// Throws when the run as a whole has nothing to write.
    func tables(_ parsed: [Parsed]) throws -> FormatOutput
}

extension InputFormat {
    public var readsFolders: Bool { false }
    public var streamsTables: Bool { false }
    public func read(_ input: InputSource, emit: (Table) throws -> Void) throws -> Parsed { try read(input) }
    public func summary(of parsed: Parsed) -> String? { nil }
    public func isSetAside(_ parsed: Parsed) -> Bool { false }
}

/// A format whose inputs are too large to hold: ``read(_:emit:)`` hands table batches to the runner as they are
/// decoded, and ``InputFormat/tables(_:)`` adds what is known only at the end (per-input summaries, anomalies).
/// Batches already handed over stay in the output when the input fails later.
/// It implements ``InputFormat/read(_:emit:)``; its ``InputFormat/read(_:)`` drops the batches.
public protocol StreamingInputFormat: InputFormat {}

extension StreamingInputFormat {
    public var streamsTables: Bool { true }
    public func read(_ input: InputSource) throws -> Parsed { try read(input) { _ in } }
}

/// What a run writes: table batches, HDF5 arrays, and the anomalies (the rows of its `anomalies` table, which is
/// among the batches) for the stderr summary.
public struct FormatOutput {
    /// Table batches in output order; batches of one name append rows to that table. Made one at a time as the
    /// output takes them (``TableBatches``).
    public var batches: TableBatches
    /// N-dimensional arrays for HDF5 outputs (`/arrays/…`); CSV outputs leave them out.
    public var arrays: [ArrayDataset]
    /// The run's anomalies for the stderr summary, as in its `anomalies` table: at least every warning and error
    /// (the summary leaves notes out, so a format with very many notes, `bt-decode`'s `I_GAP`, may leave them out
    /// here and make their rows only with the table), and every note too when the run writes a report, which
    /// counts them. Made each time they are walked (``AnomalyRows``): the summary keeps counts and a few rows.
    public var anomalies: AnomalyRows
    /// Lines for stderr about the run as a whole.
    public var notes: [String]

    /// An output whose batches are made by `batches` as they are written, and whose anomalies are made each time
    /// they are walked.
    public init(batches: TableBatches, arrays: [ArrayDataset] = [], anomalies: AnomalyRows, notes: [String] = []) {
        self.batches = batches
        self.arrays = arrays
        self.anomalies = anomalies
        self.notes = notes
    }

    /// An output whose batches are made by `batches` as they are written.
    public init(batches: TableBatches, arrays: [ArrayDataset] = [], anomalies: [Anomaly], notes: [String] = []) {
        self.init(batches: batches, arrays: arrays, anomalies: AnomalyRows(anomalies), notes: notes)
    }

    /// An output whose batches are all made already.
    public init(tables: [Table], arrays: [ArrayDataset] = [], anomalies: [Anomaly], notes: [String] = []) {
        self.init(batches: TableBatches(tables), arrays: arrays, anomalies: anomalies, notes: notes)
    }

    /// Every batch, made at once: for tests and small runs (a large input's tables may not fit in memory).
    public var tables: [Table] {
        var tables: [Table] = []
        // Cannot throw: what forEach throws comes from its body, and this body does not.
        try! batches.forEach { tables.append($0) }
        return tables
    }
}

/// A run's table batches in output order, each made only when the output takes it, so that a run never holds
/// every table of a large input at once: a 100 MB log's `events` table alone is half a gigabyte as columns, but
/// a batch of 65,536 rows is a few megabytes, written and freed before the next is made.
public struct TableBatches {
    /// Hands each batch of the tables `wanted` accepts to `emit`, in order (a producer may hand over others too).
    private let produce: (_ wanted: (String) -> Bool, _ emit: (Table) throws -> Void) throws -> Void

    /// Batches made by `produce`, which hands them one by one to the closure it is given (and makes the next
    /// only when that returns).
    public init(_ produce: @escaping ((Table) throws -> Void) throws -> Void) {
        self.produce = { _, emit in try produce(emit) }
    }

    /// Batches made by `produce`, which is told which tables are wanted and leaves the others unmade: for a table
    /// whose batches cost much to make (`mynd-parse`'s samples, read back from a scratch file), when a walk wants
    /// a few tables (a report's) or one (`-o table.csv --table NAME`).
    public init(wanting produce: @escaping (_ wanted: (String) -> Bool, _ emit: (Table) throws -> Void) throws -> Void) {
        self.produce = produce
    }

    /// Batches already made.
    public init(_ tables: [Table]) {
        self.produce = { _, emit in for table in tables { try emit(table) } }
    }

    /// Makes each batch and hands it to `body`, in order; an error of `body` ends the walk. Making a batch never
    /// fails: what is thrown comes from `body`.
    public func forEach(_ body: (Table) throws -> Void) throws {
        try produce({ _ in true }, body)
    }

    /// As ``forEach(_:)``, for the batches of the tables `wanted` accepts only: the others are passed over, and
    /// left unmade where the producer can tell (``init(wanting:)``).
    public func forEach(where wanted: (String) -> Bool, _ body: (Table) throws -> Void) throws {
        try produce(wanted) { table in
            if wanted(table.name) { try body(table) }
        }
    }
}
