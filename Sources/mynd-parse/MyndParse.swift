import ArgumentParser
import Foundation
import MYND
import Spectral
import Tables
import ToolSupport

extension MYNDError: ToolReportable {
    public var exitCode: SysExit { .dataError }
    public var message: String { description }
}

extension DateOrder: ExpressibleByArgument {}

/// `--date-order`: auto or one of the orders.
enum DateOrderChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, mdy, dmy, ymd
    var order: DateOrder? { DateOrder(rawValue: rawValue) }
}

/// The parameters recorded in the provenance (numbers as JSON numbers).
struct Parameters: Encodable {
    struct Welch: Encodable {
        var segment_s: Double
        var overlap = 0.5
        var window = "hann (periodic)"
        var detrend = "constant"
        var scaling = "density"
        var epoch_mean_removed = true
        var relative_to_hz = [1.0, 45.0]
    }
    struct Quality: Encodable {
        var window_s = 0.5
        var threshold_uv2 = SignalQuality.threshold
        var initial_average = SignalQuality.initialAverage
    }
    struct AppAlphaWindows: Encodable {
        var window_s = AppAlpha.windowSeconds
        var step_s = AppAlpha.stepSeconds
        var band_hz = [8.0, 12.0]
        var window = "hann (symmetric)"
    }
    var date_order: String
    var bands: String
    var welch: Welch
    var quality = Quality()
    var app_alpha = AppAlphaWindows()
    var definitions: String?
    var check_protocol: String?
    var protocol_name: String?
}

/// The files under a path: the path itself, or a folder's files (recursively, sorted).
func files(under path: String) -> [String] {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { return [path] }
    let base = path.hasSuffix("/") ? String(path.dropLast()) : path
    let relative = (FileManager.default.enumerator(atPath: path)?.allObjects as? [String]) ?? []
    return relative.sorted().map { "\(base)/\($0)" }.filter { candidate in
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: candidate, isDirectory: &folder) && !folder.boolValue
    }
}

@main
struct MyndParse: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mynd-parse",
        abstract: "MYND study questionnaires and HDF5 recordings into answers, events, band power and signal quality.",
        discussion: """
        Reads the MYND iOS app's questionnaire results q_<scenario>_<day>_<session>_<run>_<UUID>.json and EEG \
        recordings r_<scenario>_<day>_<session>_<run>_<UUID>.hdf (files or subject folders, walked recursively) and \
        writes the tables answers, recordings, events, epochs, band_power, quality, quality_summary and anomalies. \
        Encrypted .asc files are reported, not decrypted. --check-protocol SUBJECT_DIR writes completeness instead: \
        which files of the study protocol the folder holds.

        EXAMPLES:
          mynd-parse q_initial_1_0_0_3F2504E0-4F89-41D3-9A0C-0305E82C3301.json r_rest_1_2_1_3F2504E0-4F89-41D3-9A0C-0305E82C3301.hdf -o subject.h5
          mynd-parse subjects/3F2504E0-4F89-41D3-9A0C-0305E82C3301/ --definitions app/Data -o tables/
          mynd-parse r_rest_1_2_1_3F2504E0-4F89-41D3-9A0C-0305E82C3301.hdf -o band_power.csv --table band_power --bands alpha:8-12,beta:12-30
          mynd-parse --check-protocol subjects/3F2504E0-4F89-41D3-9A0C-0305E82C3301/ -o completeness.csv --table completeness
        """,
        version: ToolVersion.current)

    @Argument(help: "Questionnaire results (q_*.json), recordings (r_*.hdf) or folders of them.")
    var inputs: [String] = []

    @OptionGroup var output: OutputOptions

    @Option(help: ArgumentHelp("Folder of the app's questionnaire definitions (<scenario>_<language>.json) to label answers.",
                               valueName: "dir"))
    var definitions: String?

    @Option(help: "Day/month order of localized dates: auto (from the recordings' timestamps), mdy, dmy or ymd.")
    var dateOrder: DateOrderChoice = .auto

    @Option(help: "Bands for band_power, name:lo-hi,… in Hz (default delta:1-4,theta:4-8,alpha:8-12,beta:12-30,gamma:30-45).",
            transform: { try FrequencyBand.parseList($0) })
    var bands: [FrequencyBand] = FrequencyBand.defaults

    @Option(help: "Welch segment length in s (50 % overlap, periodic Hann; 2 s = 512 samples at 256 Hz).")
    var welchSegmentS: Double = 2

    @Option(help: ArgumentHelp("Check a subject folder against the study protocol; writes completeness and anomalies.",
                               valueName: "subject-dir"))
    var checkProtocol: String?

    @Option(help: ArgumentHelp("Study protocol JSON for --check-protocol (default: the app's mynd_example).",
                               valueName: "file"))
    var `protocol`: String?

    /// Reads each HDF5 recording in a child process (this program with `--read-hdf5-isolated`): a crash or an
    /// endless loop of libhdf5 on a corrupt file fails that input alone, with the file named.
    static let recordingReader = RecordingReader { path throws(MYNDError) in
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        do {
            let data = try isolatedReader.read(path, size: size)
            return try MYNDRecording(transferData: data)
        } catch let error as ToolError {
            throw .readerProcess(message: error.message)
        } catch {
            throw .readerProcess(message: "\(path): \(error)")
        }
    }

    static let isolatedReader = IsolatedReader(option: "--read-hdf5-isolated", what: "HDF5 file")

    /// The child's side of ``recordingReader`` first (it reads one recording and writes it to standard output),
    /// else the command line.
    static func main() {
        isolatedReader.serveIfAsked { path in try RecordingReader.inProcess.read(path).transferData() }
        main(nil)
    }

    func validate() throws {
        if checkProtocol == nil, inputs.isEmpty { throw ValidationError("give at least one file or folder, or --check-protocol DIR") }
        if checkProtocol != nil, !inputs.isEmpty { throw ValidationError("--check-protocol takes the subject folder alone") }
        guard welchSegmentS > 0, welchSegmentS <= 3600 else { throw ValidationError("--welch-segment-s must be positive and at most 3600") }
    }

    func parameters(protocolName: String?) -> Parameters {
        Parameters(date_order: dateOrder.rawValue, bands: bands.map(\.description).joined(separator: ","),
                   welch: .init(segment_s: welchSegmentS),
                   definitions: definitions, check_protocol: checkProtocol, protocol_name: protocolName)
    }

    func run() throws {
        let runner = ToolRunner(tool: "mynd-parse", quiet: output.quiet, verbose: output.verbose, keepGoing: output.keepGoing)
        try runner.run {
            let options = AnalysisOptions(bands: bands, welchSegmentSeconds: welchSegmentS)
            if let folder = checkProtocol {
                try runCheck(folder: folder, runner: runner, options: options)
            } else {
                try runParse(runner: runner, options: options)
            }
        }
    }

    func loadDefinitions() throws -> DefinitionSet? {
        guard let definitions else { return nil }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: definitions, isDirectory: &isFolder), isFolder.boolValue else {
            throw ToolError.unreadable(path: definitions, reason: "--definitions needs a folder")
        }
        let found = try files(under: definitions).filter { $0.hasSuffix(".json") }.compactMap { path in
            QuestionnaireDefinition.parse(try InputFile.read(path).contents, fileName: path)
        }
        if found.isEmpty { Diagnostics(tool: "mynd-parse", quiet: output.quiet).note("\(definitions): no questionnaire definitions found") }
        return DefinitionSet(found)
    }

    func runParse(runner: ToolRunner, options: AnalysisOptions) throws {
        let definitionSet = try loadDefinitions()
        var study = MYNDStudy(options: options, recordingReader: Self.recordingReader)
        var paths: [String] = []
        for input in inputs {
            let under = files(under: input)
            if under.count == 1, under[0] == input { paths.append(input); continue }
            let mynd = under.filter { MYNDFileName(path: $0) != nil }
            if mynd.isEmpty { throw ToolError.badInput("\(input): no MYND files (q_*.json, r_*.hdf) in the folder") }
            for other in under where MYNDFileName(path: other) == nil {
                study.setAside(other, "not a MYND result or recording name (in folder \(input))")
            }
            paths += mynd
        }
        var records: [InputRecord] = []
        let progress = ProgressBar(inputs: paths, quiet: output.quiet)
        let failures = try runner.forEachInput(paths, progress: progress) { path in
            let (data, record) = try InputFile.read(path)
            try study.ingest(path: path, data: data)
            progress.advance(bytes: data.count)
            records.append(record)
        }
        let (tables, anomalies) = study.tables(definitions: definitionSet, dateOrder: dateOrder.order)
        for (source, list) in MYNDStudy.bySource(anomalies.filter { $0.severity != .info }) {
            runner.diagnostics.report(list, for: source)
        }
        let setAside = anomalies.filter { $0.code == MYNDAnomalies.ignored.code }.count
        if setAside > 0 { runner.diagnostics.note("\(setAside) file\(setAside == 1 ? "" : "s") set aside (ignored rows of the anomalies table)") }
        if study.questionnaires.isEmpty && study.recordings.isEmpty && failures.isEmpty {
            throw ToolError.badInput("nothing to read: every input was set aside (see the anomalies table)")
        }
        // The output is opened only now, so that nothing of it exists while inputs are read.
        let out = try output.open(tableNames: MYNDStudy.tableNames, inputs: inputs)
        for table in tables { try out.write(table) }
        try out.commit(provenance: runner.provenance(inputs: records,
                                                     parametersJSON: Provenance.encodeParameters(parameters(protocolName: nil))))
        try runner.finish(failures: failures)
    }

    func runCheck(folder: String, runner: ToolRunner, options: AnalysisOptions) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw ToolError.unreadable(path: folder, reason: "--check-protocol needs a subject folder")
        }
        var records: [InputRecord] = []
        var study = StudyProtocol.myndExample
        if let path = `protocol` {
            let (data, record) = try InputFile.read(path)
            study = try StudyProtocol.parse(data, sourceFile: path)
            records.append(record)
        }
        var content = MYNDStudy(options: options, recordingReader: Self.recordingReader)
        var folderFiles: [FolderFile] = []
        let paths = files(under: folder)
        let failures = try runner.forEachInput(paths) { path in
            guard let name = MYNDFileName(path: path) else { folderFiles.append(FolderFile(path: path)); return }
            let (data, record) = try InputFile.read(path)
            records.append(record)
            if name.encrypted {
                var key: String?
                if case .encrypted(_, let keyID) = MYNDContentKind.detect(data) { key = keyID }
                folderFiles.append(FolderFile(path: path, keyID: key))
                return
            }
            if case .encrypted(_, let keyID) = MYNDContentKind.detect(data) {
                folderFiles.append(FolderFile(path: path, keyID: keyID))
                return
            }
            try content.ingest(path: path, data: data)
            folderFiles.append(FolderFile(path: path))
        }
        let (rows, anomalies) = CompletenessCheck.check(folder: folder, files: folderFiles, protocol: study)
        let all = anomalies + content.tables(definitions: nil, dateOrder: dateOrder.order).anomalies
        runner.diagnostics.report(all.filter { $0.severity != .info }, for: folder)
        let missing = rows.filter { $0.status == "missing" || $0.status == "partial" }.count
        runner.diagnostics.note("\(folder): \(rows.filter { $0.status == "complete" }.count) complete, \(missing) missing or partial, \(rows.filter { $0.status == "extra" }.count) extra of \(study.slots.count) slots in \(study.name)")
        let out = try output.open(tableNames: ["completeness", "anomalies"], inputs: [folder])
        try out.write(CompletenessCheck.table(folder: folder, rows: rows))
        try out.write(Table.anomalies(all))
        try out.commit(provenance: runner.provenance(inputs: records,
                                                     parametersJSON: Provenance.encodeParameters(parameters(protocolName: study.name))))
        try runner.finish(failures: failures)
    }
}
