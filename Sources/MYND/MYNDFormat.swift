import Foundation
import Tables

/// MYND questionnaire results and recordings as `mynd-parse` reads them (docs/formats/mynd.md): files, or
/// subject folders walked recursively (files without a MYND name set aside there), each read on its own; the
/// tables are made once all are in, as a subject's date order is decided across its files.
public struct MYNDFormat: InputFormat {
    public let options: MYNDOptions
    /// The app's questionnaire definitions that label the answers, if given.
    public let definitions: DefinitionSet?
    /// How HDF5 recordings are read (in a child process in `mynd-parse`).
    public let recordingReader: RecordingReader
    public var tableNames: [String] { MYNDStudy.tableNames }
    public var readsFolders: Bool { true }

    public init(options: MYNDOptions = MYNDOptions(), definitions: DefinitionSet? = nil,
                recordingReader: RecordingReader = .inProcess) {
        self.options = options
        self.definitions = definitions
        self.recordingReader = recordingReader
    }

    /// Where the recordings read keep their samples until the `samples` table is written: one recording's
    /// samples are in memory at a time, not every recording's.
    public let sampleScratch = SampleScratch()

    /// Reads one input; a recording's samples go to ``sampleScratch``.
    public func read(_ input: InputSource) throws -> MYNDStudy.Item {
        let item = try readKeepingSamples(input)
        guard case .recording(var analysis) = item else { return item }
        do throws(ScratchError) { try analysis.moveSamples(to: sampleScratch) } catch {
            var named = error
            named.file = input.path
            throw named
        }
        return .recording(analysis)
    }

    /// Reads one input; a recording keeps its samples in memory (a signal file is written from them at once).
    func readKeepingSamples(_ input: InputSource) throws -> MYNDStudy.Item {
        if let folder = input.folder, MYNDFileName(path: input.path) == nil {
            return MYNDStudy.setAside(input.path, "not a MYND result or recording name (in folder \(folder))")
        }
        return try MYNDStudy.read(path: input.path, data: try input.contents(), options: options.analysis,
                                  recordingReader: recordingReader)
    }

    /// A file without a MYND name in a folder is set aside (its `I_IGNORED` row).
    public func isSetAside(_ parsed: MYNDStudy.Item) -> Bool {
        if case .setAside = parsed { true } else { false }
    }

    public func tables(_ parsed: [MYNDStudy.Item]) throws -> FormatOutput {
        var study = MYNDStudy(options: options.analysis, recordingReader: recordingReader)
        parsed.forEach { study.add($0) }
        if study.questionnaires.isEmpty && study.recordings.isEmpty {
            throw MYNDError.nothingToRead(setAside: study.setAside)
        }
        let (batches, anomalies) = study.output(definitions: definitions, dateOrder: options.dateOrder)
        let setAside = study.setAside.count
        let notes = setAside == 0 ? [] : ["\(setAside) file\(setAside == 1 ? "" : "s") set aside (I_IGNORED rows of the anomalies table)"]
        return FormatOutput(batches: batches, anomalies: anomalies, notes: notes)
    }
}

/// `mynd-parse --check-protocol`: which files of a study protocol a subject folder holds (spec §7.3), from the
/// file names, with the content of the unencrypted files read for their anomalies.
public struct MYNDProtocolCheck: InputFormat {
    public let options: MYNDOptions
    public let studyProtocol: StudyProtocol
    /// The subject folder.
    public let folder: String
    public let recordingReader: RecordingReader
    public var tableNames: [String] { ["completeness", "anomalies"] }
    public var readsFolders: Bool { true }

    /// One file of the folder, and what it holds when it was read.
    public struct Parsed: Sendable {
        public var file: FolderFile
        public var content: MYNDStudy.Item?
    }

    public init(folder: String, studyProtocol: StudyProtocol = .myndExample, options: MYNDOptions = MYNDOptions(),
                recordingReader: RecordingReader = .inProcess) {
        self.folder = folder
        self.studyProtocol = studyProtocol
        self.options = options
        self.recordingReader = recordingReader
    }

    public func read(_ input: InputSource) throws -> Parsed {
        guard let name = MYNDFileName(path: input.path) else { return Parsed(file: FolderFile(path: input.path)) }
        let data = try input.contents()
        if case .encrypted(_, let keyID) = MYNDContentKind.detect(data) {
            return Parsed(file: FolderFile(path: input.path, keyID: keyID))
        }
        if name.encrypted { return Parsed(file: FolderFile(path: input.path)) }
        var item = try MYNDStudy.read(path: input.path, data: data, options: options.analysis,
                                      recordingReader: recordingReader)
        // A protocol check writes no samples table: the samples are not kept.
        if case .recording(var analysis) = item {
            analysis.dropSamples()
            item = .recording(analysis)
        }
        return Parsed(file: FolderFile(path: input.path), content: item)
    }

    public func tables(_ parsed: [Parsed]) -> FormatOutput {
        let (rows, anomalies) = CompletenessCheck.check(folder: folder, files: parsed.map(\.file),
                                                        protocol: studyProtocol)
        var content = MYNDStudy(options: options.analysis, recordingReader: recordingReader)
        parsed.compactMap(\.content).forEach { content.add($0) }
        let all = anomalies + content.output(definitions: nil, dateOrder: options.dateOrder).anomalies
        let count = { (status: String) in rows.filter { $0.status == status }.count }
        let summary = "\(folder): \(count("complete")) complete, \(count("missing") + count("partial")) missing or "
            + "partial, \(count("extra")) extra of \(studyProtocol.slots.count) slots in \(studyProtocol.name)"
        return FormatOutput(tables: [CompletenessCheck.table(folder: folder, rows: rows), .anomalies(all)],
                            anomalies: all, notes: [summary])
    }
}

extension ScratchError: ReportableError {
    /// 74: writing failed midway, through no fault of the input (so `--keep-going` does not go on).
    public var exitCode: SysExit { .ioError }
    public var message: String { description }
}

extension MYNDError: ReportableError {
    /// 66 for a recording that cannot be read as given (a pipe), 70 for a reader that stopped on a fault of its own
    /// code, 65 for every fault of a file's content.
    public var exitCode: SysExit {
        switch self {
        case .notSeekable: .noInput
        case .readerFault: .software
        default: .dataError
        }
    }
    public var message: String { description }
}
