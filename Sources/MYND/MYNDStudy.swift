import Foundation
import Tables

/// Everything one run reads: questionnaire results, analysed recordings and the files set aside, turned into
/// the tables of spec §8 once all are in (the date order of a subject is decided across its files).
public struct MYNDStudy: Sendable {
    /// Every table a normal run writes, in order.
    public static let tableNames = ["answers", "recordings", "events", "epochs", "band_power", "quality",
                                    "quality_summary", "samples", "anomalies"]

    public var questionnaires: [QuestionnaireResult] = []
    public var recordings: [RecordingAnalysis] = []
    /// Anomalies of files that were set aside (`ignored`).
    public var setAside: [Anomaly] = []
    public let options: RecordingAnalysisOptions
    /// How an HDF5 recording is read: in this process (``RecordingReader/inProcess``), or in a child process
    /// where a fault of libhdf5 on a corrupt file cannot end the run (`mynd-parse`).
    public let recordingReader: RecordingReader

    public init(options: RecordingAnalysisOptions = RecordingAnalysisOptions(), recordingReader: RecordingReader = .inProcess) {
        self.options = options
        self.recordingReader = recordingReader
    }

    /// What one file is once read: a questionnaire result, an analysed recording, or a file set aside.
    public enum Item: Sendable {
        case questionnaire(QuestionnaireResult)
        case recording(RecordingAnalysis)
        /// A file that is not read, with its `I_IGNORED` row saying why.
        case setAside(Anomaly)

        /// The anomalies the file adds.
        public var anomalies: [Anomaly] {
            switch self {
            case .questionnaire(let result): result.anomalies
            case .recording(let analysis): analysis.anomalies
            case .setAside(let anomaly): [anomaly]
            }
        }
    }

    /// Reads one file given by path (`data` its bytes): a questionnaire result or a recording is parsed (a
    /// recording through `recordingReader`); `message.json` and PDFs are set aside; anything else throws.
    public static func read(path: String, data: Data, options: RecordingAnalysisOptions,
                            recordingReader: RecordingReader) throws(MYNDError) -> Item {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let expected = name.contains(".hdf") ? "HDF5" : "JSON"
        switch MYNDContentKind.detect(data) {
        case .empty:
            throw .empty(file: path)
        case .encrypted(let armored, let keyID):
            throw .encrypted(file: path, armored: armored, keyID: keyID, expected: expected)
        case .pdf:
            return setAside(path, "a PDF (the signed consent?) is not read")
        case .other(let found):
            throw .wrongContent(file: path, expected: "a MYND questionnaire (JSON) or recording (HDF5)", found: found)
        case .json:
            if name == "message.json" { return setAside(path, "the study's announcement file is not read") }
            return .questionnaire(try QuestionnaireResult.parse(data, sourceFile: path))
        case .hdf5:
            return .recording(RecordingAnalysis(try recordingReader.read(path), options: options))
        }
    }

    /// A file set aside with an `I_IGNORED` row (info) saying why.
    public static func setAside(_ path: String, _ message: String) -> Item {
        .setAside(Anomaly(sourceFile: path, code: .ignored, message: message))
    }

    /// Adds a file read by ``read(path:data:options:recordingReader:)``.
    public mutating func add(_ item: Item) {
        switch item {
        case .questionnaire(let result): questionnaires.append(result)
        case .recording(let analysis): recordings.append(analysis)
        case .setAside(let anomaly): setAside.append(anomaly)
        }
    }

    /// Reads one file and keeps it; returns the anomalies the file added.
    @discardableResult
    public mutating func ingest(path: String, data: Data) throws(MYNDError) -> [Anomaly] {
        let item = try Self.read(path: path, data: data, options: options, recordingReader: recordingReader)
        add(item)
        return item.anomalies
    }

    /// The tables of spec §8 (answers, recordings, events, epochs, band_power, quality, quality_summary,
    /// samples, anomalies), every one present even when empty, and the anomalies of the last table as values.
    /// The `samples` table whole: a run writes ``output(definitions:dateOrder:)``'s batches instead.
    public func tables(definitions: DefinitionSet?, dateOrder: DateOrder?) throws -> (tables: [Table], anomalies: [Anomaly]) {
        let (tables, anomalies) = tablesBeforeSamples(definitions: definitions, dateOrder: dateOrder)
        return (tables + [try RecordingTables.samples(recordings), Table.anomalies(anomalies)], anomalies)
    }

    /// The tables of ``tables(definitions:dateOrder:)`` as batches: the `samples` table in batches of
    /// ``RecordingTables/sampleBatchRows`` rows, each made (its samples read from where the recordings keep them)
    /// only when the output takes it, and not at all by a walk that does not want it; the other tables are made here, at once (they are small).
    public func output(definitions: DefinitionSet?, dateOrder: DateOrder?) -> (batches: TableBatches, anomalies: [Anomaly]) {
        let (tables, anomalies) = tablesBeforeSamples(definitions: definitions, dateOrder: dateOrder)
        let recordings = recordings
        return (TableBatches(wanting: { wanted, emit in
            for table in tables { try emit(table) }
            // Made only when wanted: a report's walk or a single other CSV table reads no samples back.
            if wanted("samples") { try RecordingTables.sampleBatches(recordings, emit) }
            try emit(Table.anomalies(anomalies))
        }), anomalies)
    }

    /// The tables before `samples` (answers … quality_summary) and the run's anomalies.
    private func tablesBeforeSamples(definitions: DefinitionSet?, dateOrder: DateOrder?) -> (tables: [Table], anomalies: [Anomaly]) {
        var resolver = DateOrderResolver(given: dateOrder)
        for analysis in recordings {
            let recording = analysis.recording
            guard let subject = recording.subjectID else { continue }
            if let start = recording.recordingStart {
                resolver.add(subjectID: subject, time: start, referenceUTC: recording.firstTimestampUTC)
            }
            for time in [recording.recordingEnd, recording.sessionStart].compactMap({ $0 }) {
                resolver.add(subjectID: subject, time: time, referenceUTC: nil)
            }
        }
        for result in questionnaires {
            if let subject = result.subjectID, let time = result.sessionStart {
                resolver.add(subjectID: subject, time: time, referenceUTC: nil)
            }
        }
        var anomalies: [Anomaly] = []
        func orderFor(_ subject: String?, _ locale: String?, _ times: [LocalizedTime?], _ file: String) -> DateOrder {
            let (order, guessed) = resolver.order(subjectID: subject, locale: locale)
            if guessed, let ambiguous = times.compactMap({ $0 }).first(where: \.isAmbiguous) {
                anomalies.append(Anomaly(sourceFile: file, code: .dateOrderGuessed,
                                         message: "day and month of \"\(ambiguous.raw)\" cannot be told apart and no recording of the subject decides; read as \(order.rawValue) (use --date-order)",
                                         raw: ambiguous.raw))
            }
            return order
        }

        // Answers.
        var answerRows: [[AnswerRow]] = []
        var answerOrders: [DateOrder?] = []
        var questionnaireAnomalies: [[Anomaly]] = []
        for result in questionnaires {
            let definition = definitions?.definition(scenario: result.scenario, locale: result.locale)
            let (rows, extra) = result.answerRows(definition: definition)
            answerRows.append(rows)
            let before = anomalies.count
            answerOrders.append(orderFor(result.subjectID, result.locale, [result.sessionStart], result.sourceFile))
            questionnaireAnomalies.append(result.anomalies + extra + anomalies[before...])
            anomalies.removeSubrange(before...)
        }
        var recordingOrders: [DateOrder] = []
        var recordingAnomalies: [[Anomaly]] = []
        for analysis in recordings {
            let recording = analysis.recording
            let before = anomalies.count
            recordingOrders.append(orderFor(recording.subjectID, recording.locale,
                                            [recording.recordingStart, recording.recordingEnd, recording.sessionStart],
                                            recording.sourceFile))
            recordingAnomalies.append(analysis.anomalies + anomalies[before...])
            anomalies.removeSubrange(before...)
        }
        let blocks = RecordingTables.blocks(recordings.map(\.recording))
        let allAnomalies = questionnaireAnomalies.flatMap { $0 } + recordingAnomalies.flatMap { $0 } + setAside
        return ([
            AnswerTable.table(questionnaires, rows: answerRows, dateOrders: answerOrders),
            RecordingTables.recordings(recordings, blocks: blocks, dateOrders: recordingOrders),
            RecordingTables.events(recordings, blocks: blocks),
            RecordingTables.epochs(recordings, blocks: blocks),
            RecordingTables.bandPower(recordings, blocks: blocks),
            RecordingTables.quality(recordings),
            RecordingTables.qualitySummary(recordings),
        ], allAnomalies)
    }
}
