import Foundation
import SignalFiles
import SystemPackage
import Tables
import TableWriters

/// `-o rec.bdf`, `-o rec.edf`, `-o rec.vhdr`: one input's signal as a signal file (docs/bids.md), written by the
/// runner for a ``Tables/SignalExportingFormat``.
///
/// The same rules as for tables: the destination is checked before the input is read, files go to temporary
/// siblings and are renamed into place, nothing is replaced that a BrainBatch tool did not write. The provenance
/// is the sidecar `<file>.provenance.json` (the tool, the command line, the input's SHA-256, the parameters, each
/// file written with its SHA-256) with a `signal` object: channels, rate, resolution, annotations. It is written
/// last and is what a later run recognises.
enum SignalOutput {
    /// The provenance sidecar of a signal output.
    static func sidecar(of path: String) -> String { path + ".provenance.json" }

    /// Usage and destination checks, before any input is read.
    static func check(_ kind: SignalFileKind, output: OutputOptions, inputs: [String]) throws {
        let path = output.output
        if let table = output.table {
            throw ToolError.usage("--table \(table) chooses a table of a .csv output; -o \(path) is a \(kind.displayName) signal file")
        }
        if let format = output.format {
            throw ToolError.usage("--format \(format.rawValue) contradicts -o \(path), a \(kind.displayName) signal file")
        }
        if output.report != nil {
            throw ToolError.usage("--report goes with a table output (-o NAME.h5 or NAME/); -o \(path) writes a signal file")
        }
        guard inputs.count == 1 else {
            throw ToolError.usage("-o \(path) holds the signal of one input, \(inputs.count) were given; write one signal file per input")
        }
        let files = kind.files(for: path) + [sidecar(of: path)]
        let parent = FilePath(path).removingLastComponent().string
        guard InputFolder.isFolder(parent.isEmpty ? "." : parent) else {
            throw TableOutputError.cannotCreate(path: path, reason: "folder \(parent) does not exist")
        }
        try PreviousOutput.checkApart(files: files, from: inputs)
        try PreviousOutput.checkReplaceable(files: kind.files(for: path), sidecar: sidecar(of: path))
    }

    /// Writes the provenance sidecar: the run's provenance with every file's SHA-256, and the signal's summary.
    static func writeSidecar(_ summary: SignalFileSummary, path: String, provenance: Provenance,
                             anomalies: AnomalyRows) throws {
        var provenance = provenance
        provenance.outputs = try summary.files.map { file in
            guard let sha = PreviousOutput.contentSHA256(of: file) else {
                throw TableOutputError.cannotCreate(path: file, reason: "cannot read back the file just written")
            }
            return OutputFileRecord(file: FilePath(file).lastComponent?.string ?? file, sha256: sha)
        }
        guard var object = try JSONSerialization.jsonObject(with: provenance.jsonDocument()) as? [String: Any] else {
            throw TableOutputError.cannotCreate(path: sidecar(of: path), reason: "provenance is not a JSON object")
        }
        var signal = summary
        signal.files = summary.files.map { FilePath($0).lastComponent?.string ?? $0 }
        let encoder = JSONEncoder()
        object["signal"] = try JSONSerialization.jsonObject(with: encoder.encode(signal))
        // The input's anomalies by code (the table tools list each; a signal file has no table for them).
        var counts: [String: Int] = [:]
        try anomalies.forEach { counts[$0.code, default: 0] += 1 }
        object["anomalies"] = counts
        let data = try JSONSerialization.data(withJSONObject: object,
                                              options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        try AtomicFile.write(data + Data("\n".utf8), to: sidecar(of: path))
    }
}

/// Hands a signal to the file writer and counts nothing else; kept apart so the format never sees the writer.
extension ToolRunner {
    /// Reads the one input of `inputs` with `format` and writes its signal to `-o` (`kind` from the extension).
    func runSignal<Format: SignalExportingFormat>(_ format: Format, kind: SignalFileKind, inputs: [String],
                                                  output: OutputOptions, extraInputs: [InputRecord]) throws {
        try SignalOutput.check(kind, output: output, inputs: inputs)
        let sources = InputFolder.expand(inputs, walkingFolders: format.readsFolders)
        guard sources.count == 1, let source = sources.first else {
            throw ToolError.usage("-o \(output.output) holds the signal of one input file; \(inputs[0]) holds \(sources.count)")
        }
        let progress = ProgressBar(inputs: [source.path], quiet: output.quiet)
        var records = InputRecords(extraInputs)
        let writer = makeSignalFileWriter(kind, path: output.output)
        var parsed: Format.Parsed?
        var summary: SignalFileSummary?
        let failures = try forEachInput([source.path], progress: progress) { path in
            var recorder = InputRecords([])
            let input = InputSource(path: path, folder: source.folder, reader: InputFile.reader(
                for: path, progress: progress, recording: { recorder.add($0) }))
            do {
                parsed = try format.readSignal(input, into: writer)
                summary = try writer.finish()
            } catch {
                writer.discard()
                throw error
            }
            records.add(contentsOf: recorder)
        }
        guard let parsed, let summary, failures.isEmpty else { try finish(failures: failures); return }
        if let line = format.summary(of: parsed) { diagnostics.note(line) }
        let result = try format.tables([parsed])
        reportAnomalies(result)
        let provenance = provenance(inputs: records.list, parametersJSON: Provenance.encodeParameters(format.options))
        try SignalOutput.writeSidecar(summary, path: output.output, provenance: provenance,
                                      anomalies: result.anomalies)
        diagnostics.note(summary.line)
    }
}
