import Foundation
import Spectral
import Tables

/// Brainiac captures as `bt-decode` reads them (docs/formats/brainiac.md): each file streamed once, its samples and
/// SDK analysis rows handed over in batches as they are decoded (memory stays flat in the capture's length); the
/// per-capture tables (`recordings`, `gaps`, `anomalies`) follow once every capture is read.
public struct CaptureFormat: StreamingInputFormat {
    /// The options of a run, as the provenance records them.
    public struct Options: Sendable, Encodable {
        public var byteOrder: ByteOrderChoice
        public var decoder: CaptureDecoderOptions
        /// The SDK analysis and band power; `nil` decodes only (`--no-analysis`).
        public var analysis: BrainiacAnalysisOptions?

        public init(byteOrder: ByteOrderChoice = .auto, decoder: CaptureDecoderOptions = CaptureDecoderOptions(),
                    analysis: BrainiacAnalysisOptions? = BrainiacAnalysisOptions()) {
            self.byteOrder = byteOrder
            self.decoder = decoder
            self.analysis = analysis
        }

        enum CodingKeys: String, CodingKey {
            case byteOrder = "byte_order", orderStep = "order_step", maxGap = "max_gap_samples"
            case split = "split_segments", gaps, rate = "sampling_rate_hz", scaling = "scaling_nv_per_count"
            case analysisTables = "analysis_tables", analysis
        }

        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(byteOrder.rawValue, forKey: .byteOrder)
            try container.encode(decoder.orderStep, forKey: .orderStep)
            try container.encode(decoder.maxGapSamples, forKey: .maxGap)
            try container.encode(decoder.splitSegments, forKey: .split)
            try container.encode(decoder.gaps.rawValue, forKey: .gaps)
            try container.encode(BrainiacHeadband.samplingRate, forKey: .rate)
            try container.encode(BrainiacScaling.nanovoltsPerCount, forKey: .scaling)
            try container.encode(analysis != nil, forKey: .analysisTables)
            try container.encodeIfPresent(analysis, forKey: .analysis)
        }
    }

    /// One decoded capture: what the tables after the samples need.
    public struct Decoded: Sendable {
        public var sourceFile: String
        /// Its events (the `gaps` rows), compactly.
        public var events: CaptureEventLog
        public var recordings: Table
        /// One line: packets, samples, lost samples, wraps, byte order, segments.
        public var summary: String
        /// What the report shows beyond the tables, when the run writes one (``gathersReport``).
        public var report: CaptureReportData?
    }

    public let options: Options
    /// The width of `source_file` in the samples table: the longest input path of the run, in UTF-8 bytes, so
    /// that every batch has one HDF5 string type.
    public let sourceFileWidth: Int
    /// Whether each capture's report data is gathered while it streams (`--report`; not a parameter of the
    /// tables, so not in the provenance).
    public let gathersReport: Bool

    public init(options: Options = Options(), inputs: [String] = [], report: Bool = false) {
        self.options = options
        sourceFileWidth = inputs.map(\.utf8.count).max() ?? 0
        gathersReport = report
    }

    public var tableNames: [String] { CaptureTables.names + (options.analysis == nil ? [] : BrainiacAnalysis.tableNames) }

    public func read(_ input: InputSource, emit: (Table) throws -> Void) throws -> Decoded {
        var samples = SampleTableBuilder(sourceFile: input.path, sourceFileWidth: sourceFileWidth)
        let analysis = options.analysis.map { AnalysisPipeline(BrainiacAnalysis(sourceFile: input.path, options: $0)) }
        // The report's spectrum comes from the analysis when it runs, else from the collector's own Welch.
        let collector = gathersReport ? CaptureReportCollector(
            welch: options.analysis == nil ? WelchParameters(samplingRate: BrainiacHeadband.samplingRate) : nil,
            bands: options.analysis?.bands.map(\.name) ?? []) : nil
        let result = Result {
            try decode(input) { batch in
                collector?.add(batch)
                for table in samples.add(batch) { try emit(table) }
                // Analysis rows go out as they come (two chunks behind), so memory stays bounded for long captures.
                for table in analysis?.consume(batch) ?? [] where table.rowCount > 0 {
                    collector?.observe(table)
                    try emit(table)
                }
            }
        }
        // The last, shorter batch and the analysis still queued; handed over even when the input failed part-way,
        // like the batches before them.
        if let last = samples.finish() { try emit(last) }
        let complete = (try? result.get()) != nil
        for table in analysis?.finish(complete: complete) ?? [] where table.rowCount > 0 {
            collector?.observe(table)
            try emit(table)
        }
        var decoded = try result.get()
        decoded.report = collector?.finish(analysisSpectra: analysis?.recordingSpectra())
        return decoded
    }

    public func summary(of parsed: Decoded) -> String? { parsed.summary }

    /// Rows per batch of the `gaps` and `anomalies` tables: a quarter of ``TableBatchJoiner/rows``. An
    /// `anomalies` row holds its message as text, and the writer has a few batches in hand at once (one made, one
    /// compressed on every core); at 65,536 rows a 10-hour capture with the worst faults (294,296 gaps) peaked at
    /// 94 MB, at 16,384 at 56 MB, under the 64 MB bt-decode keeps to whatever the faults. The HDF5 chunks of
    /// these two tables hold as many rows (the first batch sets them).
    public static let eventBatchRows = 16_384

    /// The per-capture tables, each made in slices of ``eventBatchRows`` as it is written: a long faulty
    /// capture has tens of thousands of gaps, whose `gaps` and `anomalies` rows are never all made at once.
    /// The stderr summary gets the warnings only: the `I_GAP` notes, nearly every row, are left out of it anyway.
    /// A run with `--report` hands every anomaly on, notes too: the report counts them by code. Their rows too are
    /// made from the events each time they are walked, never all held.
    public func tables(_ parsed: [Decoded]) -> FormatOutput {
        let gathersReport = gathersReport
        let warnings = AnomalyRows { body in
            for decoded in parsed {
                for event in decoded.events where gathersReport || event.kind.anomalyCode.severity != .info {
                    try body(CaptureTables.anomaly(event, sourceFile: decoded.sourceFile))
                }
            }
        }
        let analysis = options.analysis
        let sourceFileWidth = sourceFileWidth
        // Tables not wanted (a report asking for `recordings` only, `--table x`) are not made: the gaps and
        // anomalies of a faulty 10-hour capture are hundreds of thousands of rows.
        let batches = TableBatches(wanting: { wanted, emit in
            // Every table exists with its columns even when no capture gave it rows (an empty batch adds nothing
            // to a table that has rows).
            if wanted("samples") { try emit(SampleTableBuilder.table([], sourceFile: "", sourceFileWidth: sourceFileWidth)) }
            if parsed.isEmpty {
                if wanted("recordings") {
                    try emit(CaptureTables.recordings([], sourceFile: "", byteOrder: .be, scoreLE: nil, scoreMixed: nil))
                }
                if wanted("gaps") { try emit(CaptureTables.gaps([], sourceFile: "")) }
            } else {
                if wanted("recordings") { for decoded in parsed { try emit(decoded.recordings) } }
                if wanted("gaps") {
                    for decoded in parsed {
                        try decoded.events.forEachSlice(of: Self.eventBatchRows) { events in
                            try emit(CaptureTables.gaps(events, sourceFile: decoded.sourceFile))
                        }
                    }
                }
            }
            if wanted("anomalies") {
                var anomalies = TableBatchJoiner(first: .anomalies([]), batchRows: Self.eventBatchRows)
                for decoded in parsed {
                    try decoded.events.forEachSlice(of: Self.eventBatchRows) { events in
                        guard !events.isEmpty else { return }
                        try anomalies.add(.anomalies(CaptureTables.anomalies(events, sourceFile: decoded.sourceFile)),
                                          emit: emit)
                    }
                }
                try anomalies.finish(emit: emit)
            }
            if let analysis { for table in BrainiacAnalysis(sourceFile: "", options: analysis).tables { try emit(table) } }
        })
        return FormatOutput(batches: batches, anomalies: warnings)
    }

    /// Streams the capture once through a ``CaptureStream``, handing decoded samples to `emit` in batches.
    func decode(_ input: InputSource, emit: ([BrainiacSample]) throws -> Void) throws -> Decoded {
        let size = try input.size()
        do {
            var stream = try CaptureStream(fileSize: size, byteOrder: options.byteOrder, options: options.decoder)
            // Whole packets per chunk, so that a clean capture decodes into batches of one length.
            try input.stream(chunkSize: 13_107 * BrainiacPacket.size) { chunk in
                let samples = try stream.feed(chunk)
                if !samples.isEmpty { try emit(samples) }
            }
            let last = try stream.finish()
            if !last.isEmpty { try emit(last) }
            let decision = stream.decision
            let finite = { (value: Double?) in value.flatMap { $0.isFinite ? $0 : nil } }
            let order = decision?.byteOrder ?? .be
            let recordings = CaptureTables.recordings(stream.segments, sourceFile: input.path, byteOrder: order,
                                                      scoreLE: finite(decision?.scoreLE),
                                                      scoreMixed: finite(decision?.scoreMixed))
            return Decoded(sourceFile: input.path, events: stream.eventLog, recordings: recordings,
                           summary: Self.summaryLine(input.path, stream.segments, order))
        } catch let error as CaptureDecodingError {
            throw CaptureInputError(path: input.path, error: error)
        }
    }

    /// One line: packets, samples, lost samples and %, wraps, byte order, segments (spec §2.3).
    static func summaryLine(_ path: String, _ segments: [CaptureSegment], _ order: BrainiacByteOrder) -> String {
        let packets = segments.reduce(0) { $0 + $1.packets }
        let samples = segments.reduce(0) { $0 + $1.samples }
        let lost = segments.reduce(0) { $0 + $1.lostSamples }
        let wraps = segments.reduce(0) { $0 + $1.wraps }
        let percent = samples + lost > 0 ? 100 * Double(lost) / Double(samples + lost) : 0
        return "\(path): \(packets) packets, \(samples) samples, \(lost) lost samples ("
            + String(format: "%.2f", percent) + " %), \(wraps) wraps, byte order \(order.rawValue), "
            + "\(segments.count) segment\(segments.count == 1 ? "" : "s")"
    }
}

/// A capture that cannot be decoded (exit 65): the file and what was found.
public struct CaptureInputError: ReportableError, Equatable {
    public var path: String
    public var error: CaptureDecodingError
    public var exitCode: SysExit { .dataError }
    public var message: String { "\(path): \(error.message)" }
}
