import FileSystem
import Foundation
import Hashing
import SignalFiles
import SystemPackage
import Tables
import TableWriters

/// `-o rec.bdf`, `-o rec.edf`, `-o rec.vhdr`: one input's signal as a signal file (docs/bids.md), written by the
/// runner for a ``Tables/SignalExportingFormat``.
///
/// The same rules as for tables: the destination is checked and locked before the input is read (one run at a
/// time; taking the lock removes what killed runs left), files go to temporary siblings that a signal removes,
/// nothing is replaced that a BrainBatch tool did not write. The provenance is the sidecar
/// `<file>.provenance.json` (the tool, the command line, the input's SHA-256, the parameters, each file written
/// with its SHA-256) with a `signal` object: channels, rate, resolution, annotations. It is what a later run
/// recognises: every file is written in full beside its destination first, then all are renamed into place in
/// one block that SIGINT, SIGTERM and SIGHUP do not cut, the old sidecar set aside first and the new one last
/// (``TableWriters/SidecarCommit``: a commit cut by SIGKILL is finished by the next run).
enum SignalOutput {
    /// The provenance sidecar of a signal output.
    static func sidecar(of path: String) -> String { path + ".provenance.json" }

    /// How a signal output is put in place: its files, then the sidecar that lists them.
    static func commit(of path: String) -> SidecarCommit { SidecarCommit(sidecar: sidecar(of: path)) }

    /// The files of a signal output, the path given first: the lock is that path's, and taking it removes the
    /// temporaries killed runs left for any of them (the EDF writer's sample scratch `<file>.samples` included).
    static func lockedFiles(_ kind: SignalFileKind, path: String) -> [String] {
        [path] + kind.files(for: path).filter { $0 != path } + [sidecar(of: path), path + ".samples"]
    }

    /// Usage and destination checks, before any input is read, and the output's lock (hold it until the run ends);
    /// the existing files' contents are checked against their sidecar in the background (verify the result before
    /// the output is committed).
    static func check(_ kind: SignalFileKind, output: OutputOptions,
                      inputs: [String]) throws -> (lock: OutputLock, previous: DeferredContentCheck) {
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
        let lock = try OutputLock.acquire(forFiles: lockedFiles(kind, path: path), committedBy: commit(of: path))
        return (lock, try PreviousOutput.checkReplaceableDeferringContent(files: kind.files(for: path), sidecar: sidecar(of: path)))
    }

    /// Writes the provenance sidecar beside its place (``FileSystem/StagedFile``): the run's provenance with every
    /// file's SHA-256, and the signal's summary.
    static func stageSidecar(_ summary: SignalFileSummary, path: String, provenance: Provenance,
                             anomalies: AnomalyRows) throws -> StagedFile {
        var provenance = provenance
        provenance.outputs = zip(summary.files, summary.digests).map { file, digest in
            OutputFileRecord(file: FilePath(file).lastComponent?.string ?? file, sha256: digest.hexString)
        }
        var object = provenance.jsonObject()
        var signal = summary
        signal.files = summary.files.map { FilePath($0).lastComponent?.string ?? $0 }
        // The annotations (tens of thousands for a long capture) are serialised apart, a group at a time, and put
        // in the place of a marker: as one object graph they took over a gigabyte for a 10-hour faulty capture.
        let annotations = signal.annotations
        signal.annotations = []
        guard case .object(var signalObject) = try JSONDecoder().decode(JSON.self, from: JSONEncoder().encode(signal)) else {
            throw TableOutputError.cannotCreate(path: sidecar(of: path), reason: "signal summary is not a JSON object")
        }
        if !annotations.isEmpty { signalObject["annotations"] = .string(annotationsMarker) }
        object["signal"] = .object(signalObject)
        // The input's anomalies by code (the table tools list each; a signal file has no table for them).
        var counts: [String: Int] = [:]
        try anomalies.forEach { counts[$0.code, default: 0] += 1 }
        object["anomalies"] = .object(counts.mapValues { JSON($0) })
        let document = Data(JSONText.document(.object(object)).dropLast())
        // Written piece by piece: the annotations of a faulty 10-hour capture are 40 MB of text, held twice when the
        // document was made whole first.
        let sidecarPath = sidecar(of: path)
        do {
            return try FileSystem.stage(FilePath(sidecarPath)) { append in
                try writeSplicing(annotations, into: document, path: sidecarPath, append: append)
            }
        } catch let error as FileSystemError {
            throw TableOutputError.cannotCreate(path: sidecarPath, reason: error.reason)
        }
    }

    /// Stands for the annotations array in the serialised sidecar until ``writeSplicing(_:into:path:append:)``.
    private static let annotationsMarker = "brainbatch-annotations-marker"
    /// Annotations serialised at once.
    private static let annotationGroup = 1_000

    /// Hands `document` to `append` with the marker replaced by `annotations` as pretty-printed JSON, then a line
    /// end: the same text as when the array was serialised in its place (``AnnotationsJSONText``, a group at a
    /// time, its elements indented below the marker's line).
    private static func writeSplicing(_ annotations: [SignalAnnotation], into document: Data, path: String,
                                      append: (UnsafeRawBufferPointer) throws -> Void) throws {
        func put(_ bytes: some DataProtocol) throws {
            try Data(bytes).withUnsafeBytes { try append($0) }
        }
        guard !annotations.isEmpty else {
            try put(document + Data("\n".utf8))
            return
        }
        let marker = Data(("\"" + annotationsMarker + "\"").utf8)
        guard let range = document.range(of: marker) else {
            throw TableOutputError.cannotCreate(path: path, reason: "the annotations marker is missing")
        }
        let lineStart = document[..<range.lowerBound].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        let depth = document[lineStart...].prefix { $0 == UInt8(ascii: " ") }.count
        let indent = [UInt8](repeating: UInt8(ascii: " "), count: depth)
        try put(document[..<range.lowerBound])
        try put(Array("[\n".utf8))
        // Elements two spaces deeper than the marker's line, as JSONText indents an array's elements.
        let text = AnnotationsJSONText(indent: depth + 2)
        var lines: [UInt8] = []
        for start in stride(from: 0, to: annotations.count, by: annotationGroup) {
            lines.removeAll(keepingCapacity: true)
            if start > 0 { lines += Array(",\n".utf8) }
            do {
                try text.append(annotations[start..<min(annotations.count, start + annotationGroup)], to: &lines)
            } catch {
                throw TableOutputError.cannotCreate(path: path, reason: error.description)
            }
            try lines.withUnsafeBytes { try append($0) }
        }
        try put(Array("\n".utf8) + indent + Array("]".utf8))
        try put(document[range.upperBound...] + Data("\n".utf8))
    }
}

/// Hands a signal to the file writer and counts nothing else; kept apart so the format never sees the writer.
extension ToolRunner {
    /// Reads the one input of `inputs` with `format` and writes its signal to `-o` (`kind` from the extension).
    func runSignal<Format: SignalExportingFormat>(_ format: Format, kind: SignalFileKind, inputs: [String],
                                                  output: OutputOptions, extraInputs: [InputRecord]) throws {
        let (lock, previousOutput) = try SignalOutput.check(kind, output: output, inputs: inputs)
        defer { lock.release() }
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
                try previousOutput.verify()
                // The decoding's freed memory back to the kernel before the file is written (as for tables).
                AllocatorTuning.releaseFreePages()
                summary = try writer.finishTemporaries()
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
        let sidecar: StagedFile
        do {
            sidecar = try SignalOutput.stageSidecar(summary, path: output.output, provenance: provenance,
                                                    anomalies: result.anomalies)
        } catch {
            writer.discard()
            throw error
        }
        do {
            try FileSystem.deferringSignals {
                try SignalOutput.commit(of: output.output).commit(renamingFiles: { try writer.commit() }, thenSidecar: sidecar)
            }
        } catch let error as FileSystemError {
            writer.discard()
            throw TableOutputError.cannotCreate(path: output.output, reason: error.reason)
        } catch {
            writer.discard()
            throw error
        }
        diagnostics.note(summary.line)
    }
}
