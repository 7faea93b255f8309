import Crypto
import Foundation
import Hashing
import HDF5
import SystemPackage
import Tables

/// Tells an earlier output of a BrainBatch tool, which a run may replace, from everything else, which a run never
/// removes or overwrites (conventions §2). An output is recognised by its provenance, never by its name:
/// - an HDF5 file by its root attributes `tool` (a BrainBatch tool), `tool_version` and `input_sha256`;
/// - a CSV folder by its `provenance.json`, whose `outputs` list every other file of the folder with its SHA-256:
///   a file not listed, or changed since (a table edited by hand), is foreign;
/// - a single CSV by its `<file>.provenance.json` sidecar in the same way;
/// - an HTML report (`--report`) by its seal, a last line naming the tool and the SHA-256 of the page (``ReportFile``).
public enum PreviousOutput {
    /// The tools whose outputs are recognised.
    static let tools: Set<String> = ["bt-decode", "bt-synth", "ilog-parse", "rt-stats", "mynd-parse", "nt-analyze"]

    /// The provenance file of a CSV folder.
    static let folderProvenance = "provenance.json"

    /// Throws ``TableOutputError/foreignFile(path:reason:)`` unless replacing the destination loses nothing but
    /// earlier BrainBatch output.
    public static func checkReplaceable(_ destination: OutputDestination) throws(TableOutputError) {
        switch destination {
        case .hdf5(let path):
            guard let kind = kind(of: path) else { return }
            guard kind == .file else {
                throw .foreignFile(path: path, reason: kind == .folder ? "is a folder, not an HDF5 file"
                                   : "is not a regular file (a symbolic link, a pipe or a device), not an HDF5 output")
            }
            guard isBrainBatchHDF5(path) else {
                throw .foreignFile(path: path, reason: "exists and is not an HDF5 output of a BrainBatch tool")
            }
        case .csvFile(let path, _):
            let sidecars = CSVSidecars(table: path)
            let present = [path, sidecars.schema].filter { kind(of: $0) != nil }
            let provenanceExists = kind(of: sidecars.provenance) != nil
            guard !present.isEmpty || provenanceExists else { return }
            guard let recorded = recordedOutputs(provenance: sidecars.provenance) else {
                throw .foreignFile(path: provenanceExists ? sidecars.provenance : present[0],
                                   reason: provenanceExists
                                       ? "is not the provenance of a BrainBatch output that lists its files"
                                       : "exists without the \(FilePath(sidecars.provenance).lastComponent?.string ?? "") of a BrainBatch output")
            }
            for file in present {
                try checkRecorded(file, name: FilePath(file).lastComponent?.string ?? file, in: recorded)
            }
        case .csvFolder:
            let folder = destination.trimmedPath
            guard let kind = kind(of: folder) else { return }
            guard kind == .folder else { throw .foreignFile(path: folder, reason: "is a file, not a folder") }
            let entries = try folderEntries(folder)
            guard !entries.isEmpty else { return }
            let provenance = folder + "/" + folderProvenance
            guard let recorded = recordedOutputs(provenance: provenance) else {
                let first = entries.contains(folderProvenance) ? folderProvenance : entries[0]
                throw .foreignFile(path: folder + "/" + first,
                                   reason: first == folderProvenance
                                       ? "is not the provenance of a BrainBatch output that lists its files"
                                       : "is in the output folder, which holds no BrainBatch provenance.json")
            }
            for entry in entries where entry != folderProvenance {
                try checkRecorded(folder + "/" + entry, name: entry, in: recorded)
            }
        }
    }

    /// For an output that is one file with a JSON sidecar holding its provenance under the key `provenance`
    /// (`bt-synth`'s capture and `<capture>.truth.json`): throws unless both are absent, or the sidecar is a
    /// BrainBatch provenance that lists the file with its current SHA-256.
    public static func checkReplaceable(file: String, sidecar: String) throws(TableOutputError) {
        let fileExists = kind(of: file) != nil, sidecarExists = kind(of: sidecar) != nil
        guard fileExists || sidecarExists else { return }
        guard let recorded = recordedOutputs(provenance: sidecar, nested: true) else {
            throw .foreignFile(path: sidecarExists ? sidecar : file,
                               reason: sidecarExists ? "is not a BrainBatch sidecar that lists its files"
                                                     : "exists without the sidecar of a BrainBatch output")
        }
        if fileExists { try checkRecorded(file, name: FilePath(file).lastComponent?.string ?? file, in: recorded) }
    }

    /// For a signal file (`-o rec.bdf`, or a BrainVision `.vhdr` with its `.vmrk` and `.eeg`) whose provenance is
    /// the sidecar `<file>.provenance.json`: throws unless none of them exists, or the sidecar is a BrainBatch
    /// provenance listing every existing file with its current SHA-256.
    ///
    /// In two halves: what the names and the sidecar tell is checked now, and the existing files' SHA-256s in the
    /// background while the run reads its input (``DeferredContentCheck``; verify it before replacing anything).
    public static func checkReplaceableDeferringContent(files: [String],
                                                        sidecar: String) throws(TableOutputError) -> DeferredContentCheck {
        let present = files.filter { kind(of: $0) != nil }
        let sidecarExists = kind(of: sidecar) != nil
        guard !present.isEmpty || sidecarExists else { return DeferredContentCheck([]) }
        guard let recorded = recordedOutputs(provenance: sidecar) else {
            throw .foreignFile(path: sidecarExists ? sidecar : present[0],
                               reason: sidecarExists ? "is not the provenance of a BrainBatch output that lists its files"
                                                     : "exists without the \(FilePath(sidecar).lastComponent?.string ?? sidecar) of a BrainBatch output")
        }
        var pending: [(path: String, expected: String)] = []
        for file in present {
            pending.append((file, try recordedDigest(file, name: FilePath(file).lastComponent?.string ?? file, in: recorded)))
        }
        return DeferredContentCheck(pending)
    }

    /// Throws when one of `files` (a signal output and its sidecar) is one of the inputs, by device and inode.
    public static func checkApart(files: [String], from inputs: [String]) throws(TableOutputError) {
        let identities = Set(files.compactMap(FileIdentity.init))
        for input in inputs {
            if let identity = FileIdentity(input), identities.contains(identity) { throw .outputIsInput(input) }
        }
    }

    /// For files a tool adds to a shared folder with a provenance file listing them (`ilog-parse`'s Java companion
    /// files): throws for the first of `files` that exists but is not listed there, unchanged.
    public static func checkReplaceable(files: [String], listedIn provenance: String) throws(TableOutputError) {
        let recorded = recordedFiles(provenance: provenance)
        for file in files where kind(of: file) != nil {
            try checkRecorded(file, name: FilePath(file).lastComponent?.string ?? file, in: recorded)
        }
    }

    /// For an HTML report (`--report`): throws unless nothing is at `path` or it is a report a BrainBatch tool wrote
    /// and nobody changed since (its seal, ``ReportFile``).
    public static func checkReplaceable(report path: String) throws(TableOutputError) {
        guard let kind = kind(of: path) else { return }
        guard kind == .file else { throw .foreignFile(path: path, reason: "is not a file an earlier BrainBatch run wrote") }
        guard let data = FileManager.default.contents(atPath: path), let tool = ReportFile.sealingTool(of: data),
              tools.contains(tool) else {
            throw .foreignFile(path: path, reason: "exists and is not an unchanged report of a BrainBatch tool")
        }
    }

    /// Throws when a report path is an input (73), or the table output, one of its files or a path inside its CSV
    /// folder (64: the folder's manifest lists only what the tables wrote).
    public static func checkReportApart(_ report: String, destination: OutputDestination,
                                        inputs: [String]) throws(TableOutputError) {
        let reportIdentity = FileIdentity(report)
        let reportPath = resolvedPath(report)
        for input in inputs {
            if let reportIdentity, FileIdentity(input) == reportIdentity { throw .outputIsInput(input) }
            if let reportPath, resolvedPath(input) == reportPath { throw .outputIsInput(input) }
        }
        var written = [destination.trimmedPath]
        if case .csvFile(let path, _) = destination {
            let sidecars = CSVSidecars(table: path)
            written += [sidecars.schema, sidecars.provenance]
        }
        if let reportPath, written.contains(where: { resolvedPath($0) == reportPath }) {
            throw .usage("--report \(report) is a file of the table output; give the report a path of its own")
        }
        if case .csvFolder = destination, let reportPath, let folder = resolvedPath(destination.trimmedPath),
           reportPath.hasPrefix(folder == "/" ? folder : folder + "/") {
            throw .usage("--report \(report) is inside the output folder \(destination.trimmedPath), whose manifest lists only tables; write the report beside the folder")
        }
    }

    /// The path with links and `..` resolved: its longest existing ancestor resolved, then the rest of it (so a
    /// report in a folder the run is about to create still compares with that folder).
    private static func resolvedPath(_ path: String) -> String? {
        var rest: [String] = []
        var file = FilePath(path.isEmpty ? "." : path).lexicallyNormalized()
        while true {
            if let resolved = FileIdentity.canonicalPath(file.string.isEmpty ? "." : file.string) {
                let tail = rest.reversed().joined(separator: "/")
                return tail.isEmpty ? resolved : (resolved == "/" ? "/" + tail : resolved + "/" + tail)
            }
            guard let last = file.lastComponent?.string else { return nil }
            rest.append(last)
            file = file.removingLastComponent()
        }
    }

    /// The files (name → SHA-256) a provenance file lists, or `[:]` when it is missing or not a BrainBatch one.
    public static func recordedFiles(provenance path: String) -> [String: String] {
        recordedOutputs(provenance: path) ?? [:]
    }

    /// Throws when the destination is an input, or a folder output holds one.
    public static func checkApart(_ destination: OutputDestination, from inputs: [String]) throws(TableOutputError) {
        var written = [destination.trimmedPath]
        if case .csvFile(let path, _) = destination {
            let sidecars = CSVSidecars(table: path)
            written += [sidecars.schema, sidecars.provenance]
        }
        let outputIdentities = Set(written.compactMap(FileIdentity.init))
        let folder: String? = if case .csvFolder = destination {
            FileIdentity.canonicalPath(destination.trimmedPath).map { $0 == "/" ? $0 : $0 + "/" }
        } else { nil }
        for input in inputs {
            if let identity = FileIdentity(input), outputIdentities.contains(identity) { throw .outputIsInput(input) }
            if let folder, let resolved = FileIdentity.canonicalPath(input), resolved.hasPrefix(folder) {
                throw .holdsInput(folder: destination.trimmedPath, input: input)
            }
        }
    }

    /// The files a CSV folder's provenance lists (to remove once a new output has taken its place).
    static func recordedFiles(inFolder folder: String) -> [String] {
        (recordedOutputs(provenance: folder + "/" + folderProvenance) ?? [:]).keys.sorted()
    }

    // MARK: - Reading what is there

    enum Kind { case file, folder, other }

    /// What is at `path` (links not followed), or `nil` where nothing is.
    static func kind(of path: String) -> Kind? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .folder
        default: return .other
        }
    }

    private static func folderEntries(_ folder: String) throws(TableOutputError) -> [String] {
        do { return try FileManager.default.contentsOfDirectory(atPath: folder).sorted() } catch {
            throw .cannotCreate(path: folder, reason: "cannot list the folder: \(error.localizedDescription)")
        }
    }

    private static func checkRecorded(_ path: String, name: String,
                                      in recorded: [String: String]) throws(TableOutputError) {
        try checkUnchanged(path, expected: try recordedDigest(path, name: name, in: recorded))
    }

    /// Throws unless the file's SHA-256 is `expected`, the one its provenance recorded.
    static func checkUnchanged(_ path: String, expected: String) throws(TableOutputError) {
        guard sha256(of: path) == expected else {
            throw .foreignFile(path: path, reason: "has changed since a BrainBatch tool wrote it")
        }
    }

    /// The SHA-256 the provenance recorded for an existing file; throws when it is not a regular file or not listed.
    private static func recordedDigest(_ path: String, name: String,
                                       in recorded: [String: String]) throws(TableOutputError) -> String {
        guard kind(of: path) == .file else {
            throw .foreignFile(path: path, reason: "is not a file an earlier BrainBatch run wrote")
        }
        guard let expected = recorded[name] else {
            throw .foreignFile(path: path, reason: "is not listed in the provenance of the earlier BrainBatch output")
        }
        return expected
    }

    /// The `outputs` of a provenance file (name → SHA-256), or `nil` when it is missing or not a BrainBatch
    /// provenance that lists its files; `nested` when the file holds the provenance under the key `provenance`.
    static func recordedOutputs(provenance path: String, nested: Bool = false) -> [String: String]? {
        // Anything that is not such a provenance (not JSON, another program's file) is none: nil, not an error.
        guard kind(of: path) == .file, let data = FileManager.default.contents(atPath: path) else { return nil }
        let decoder = JSONDecoder()
        guard let recorded = nested ? (try? decoder.decode(RecordedProvenance.Nested.self, from: data))?.provenance
                                    : try? decoder.decode(RecordedProvenance.self, from: data),
              tools.contains(recorded.tool) else { return nil }
        var outputs: [String: String] = [:]
        for output in recorded.outputs { outputs[output.file] = output.sha256 }
        return outputs
    }

    private static func isBrainBatchHDF5(_ path: String) -> Bool {
        guard let file = try? HDF5File.open(path: path),
              let tool = try? file.attribute("tool").stringValue, tools.contains(tool) else { return false }
        let names = (try? file.attributeNames()) ?? []
        return names.contains("tool_version") && names.contains("input_sha256")
    }

    /// The SHA-256 of a file's content, lowercase hex; `nil` when it cannot be read.
    static func sha256(of path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var hasher = SHA256()
        while true {
            // `nil` or empty at the end of the file; a read error ends the check.
            let chunk: Data?
            do { chunk = try handle.read(upToCount: 1 << 20) } catch { return nil }
            guard let chunk, !chunk.isEmpty else { break }
            hasher.update(data: chunk)
        }
        return hasher.finalize().hexString
    }
}

/// What a provenance file says about the output it belongs to: the tool that wrote it and each file with its SHA-256.
/// Only these keys are decoded; the rest of the document (a signal file's thousands of annotations) is skipped.
private struct RecordedProvenance: Decodable {
    struct Output: Decodable {
        let file: String
        let sha256: String
    }

    let tool: String
    let outputs: [Output]

    /// A provenance one level down, under the key `provenance` (`bt-synth`'s `<capture>.truth.json`).
    struct Nested: Decodable {
        let provenance: RecordedProvenance
    }
}

/// The files beside a single-table CSV output.
struct CSVSidecars {
    /// `<file>.schema.json`: the Frictionless Table Schema of the table.
    let schema: String
    /// `<file>.provenance.json`.
    let provenance: String

    init(table path: String) {
        schema = path + ".schema.json"
        provenance = path + ".provenance.json"
    }
}
