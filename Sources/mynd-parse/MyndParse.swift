import ArgumentParser
import Foundation
import MYND
import Spectral
import Tables
import ToolSupport

extension DateOrder: ExpressibleByArgument {}

/// `--date-order`: auto or one of the orders.
enum DateOrderChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, mdy, dmy, ymd
    var order: DateOrder? { DateOrder(rawValue: rawValue) }
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
          mynd-parse q_initial_1_0_0_3F2504E0-4F89-41D3-9A0C-0305E82C3301.json r_rest_1_2_1_3F2504E0-4F89-41D3-9A0C-0305E82C3301.hdf -o subject.h5 --report subject.html
          mynd-parse subjects/3F2504E0-4F89-41D3-9A0C-0305E82C3301/ --definitions app/Data -o tables/
          mynd-parse r_rest_1_2_1_3F2504E0-4F89-41D3-9A0C-0305E82C3301.hdf -o band_power.csv --table band_power --bands alpha:8-12,beta:12-30
          mynd-parse --check-protocol subjects/3F2504E0-4F89-41D3-9A0C-0305E82C3301/ -o completeness.csv --table completeness
          mynd-parse r_rest_1_2_1_3F2504E0-4F89-41D3-9A0C-0305E82C3301.hdf -o rest.edf
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
        // The size of the file a link leads to: the reader's time and memory grow with it.
        let size = (try? InputFile.size(path)) ?? 0
        do {
            let data = try isolatedReader.read(path, size: size)
            return try MYNDRecording(transferData: data)
        } catch let error as ToolError where error.exitCode == .software {
            throw .readerFault(message: error.message)
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
        mainAsTool()
    }

    func validate() throws {
        if checkProtocol == nil, inputs.isEmpty { throw ValidationError("give at least one file or folder, or --check-protocol DIR") }
        if checkProtocol != nil, !inputs.isEmpty { throw ValidationError("--check-protocol takes the subject folder alone") }
        guard welchSegmentS > 0, welchSegmentS <= 3600 else { throw ValidationError("--welch-segment-s must be positive and at most 3600") }
    }

    func run() throws {
        let runner = ToolRunner(tool: "mynd-parse", output: output)
        try runner.run {
            var options = MYNDOptions(analysis: RecordingAnalysisOptions(bands: bands, welchSegmentSeconds: welchSegmentS),
                                      dateOrder: dateOrder.order, definitionsFolder: definitions)
            guard let folder = checkProtocol else {
                let format = MYNDFormat(options: options, definitions: try loadDefinitions(),
                                        recordingReader: Self.recordingReader)
                try runner.run(format, inputs: inputs, output: output)
                return
            }
            guard InputFolder.isFolder(folder) else {
                throw ToolError.unreadable(path: folder, reason: "--check-protocol needs a subject folder")
            }
            var studyProtocol = StudyProtocol.myndExample
            var records: [InputRecord] = []
            if let path = `protocol` {
                let (data, record) = try InputFile.read(path)
                studyProtocol = try StudyProtocol.parse(data, sourceFile: path)
                records.append(record)
            }
            options.checkedFolder = folder
            options.protocolName = studyProtocol.name
            let check = MYNDProtocolCheck(folder: folder, studyProtocol: studyProtocol, options: options,
                                          recordingReader: Self.recordingReader)
            try runner.run(check, inputs: [folder], output: output, extraInputs: records)
        }
    }

    /// The questionnaire definitions in the `--definitions` folder (files that are not definitions are passed over).
    func loadDefinitions() throws -> DefinitionSet? {
        guard let definitions else { return nil }
        guard InputFolder.isFolder(definitions) else {
            throw ToolError.unreadable(path: definitions, reason: "--definitions needs a folder")
        }
        let found = try InputFolder.files(under: definitions).filter { $0.hasSuffix(".json") }.compactMap { path in
            QuestionnaireDefinition.parse(try InputFile.read(path).contents, fileName: path)
        }
        if found.isEmpty { Diagnostics(tool: "mynd-parse", quiet: output.quiet).note("\(definitions): no questionnaire definitions found") }
        return DefinitionSet(found)
    }
}
