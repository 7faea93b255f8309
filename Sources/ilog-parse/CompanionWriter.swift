import Foundation
import InteractLog
import Tables
import TableWriters
import ToolSupport

/// Why companion files cannot be written (spec §4.2): exit 64 for a folder holding an input, 73 otherwise.
struct CompanionError: ReportableError {
    var exitCode: SysExit
    var message: String
}

/// Writes `<stem>_strokes.txt` and `<stem>_keys.txt` for each Java log into a folder, atomically, never beside
/// the inputs and never over an existing file unless forced; one run at a time per folder (the lock of its
/// provenance file, whose taking removes what killed runs left there).
struct CompanionWriter: SideOutput {
    let folder: String
    let force: Bool

    init(folder: String, inputs: [String], force: Bool) throws {
        self.folder = folder
        self.force = force
        let resolved = Self.resolved(folder)
        for input in inputs where Self.resolved(URL(fileURLWithPath: input).deletingLastPathComponent().path) == resolved {
            throw CompanionError(exitCode: .usage,
                                 message: "--java-companions \(folder): the folder holds the input \(input); companions are never written beside the inputs")
        }
    }

    static func resolved(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    static func stem(_ path: String) -> String {
        let name = URL(fileURLWithPath: path).lastPathComponent
        return name.hasSuffix(".txt") ? String(name.dropLast(4)) : name
    }

    /// The provenance file of the companions folder: it lists every companion file ilog-parse wrote there with its
    /// SHA-256, so that a later run replaces those (and only those, unchanged) without `--force`.
    static let provenanceName = "ilog-parse-companions.provenance.json"
    var provenancePath: String { folder + "/" + CompanionWriter.provenanceName }

    /// Refuses two Java logs with one stem, and (without `--force`) existing files that ilog-parse did not write
    /// or that changed since (exit 73).
    func check(_ parsed: [InteractLogFormat.Parsed]) throws {
        try checkReplaceable(targets(parsed))
    }

    /// The files the Java logs of `parsed` write; refuses two with one stem (exit 73).
    func targets(_ parsed: [InteractLogFormat.Parsed]) throws -> [String] {
        let analyses = Self.logs(parsed)
        var stems: [String: String] = [:]
        var targets: [String] = []
        for analysis in analyses where analysis.log.program == .java {
            let stem = Self.stem(analysis.log.sourceFile)
            if let other = stems[stem] {
                throw CompanionError(exitCode: .cannotCreate,
                                     message: "--java-companions: \(other) and \(analysis.log.sourceFile) have the same name; their companion files would collide")
            }
            stems[stem] = analysis.log.sourceFile
            targets += ["_strokes.txt", "_keys.txt"].map { folder + "/" + stem + $0 }
        }
        return targets
    }

    /// Without `--force`, refuses existing files that ilog-parse did not write or that changed since (exit 73).
    func checkReplaceable(_ targets: [String]) throws {
        guard !force else { return }
        do { try PreviousOutput.checkReplaceable(files: targets, listedIn: provenancePath) } catch {
            throw CompanionError(exitCode: .cannotCreate, message: error.description + " (or give --force to overwrite it)")
        }
    }

    /// Writes the files (creating the folder) and then the folder's provenance (the earlier entries of files not
    /// rewritten, and these), each in full beside its place first (one file in memory at a time), then renamed
    /// into place (``SidecarCommit``). Holds the folder's lock meanwhile (73 when another run has it) and checks the
    /// files again under it, as another run may have written there since ``check(_:)``.
    func write(_ parsed: [InteractLogFormat.Parsed], provenance: Provenance) throws {
        let java = Self.logs(parsed).filter { $0.log.program == .java }
        guard !java.isEmpty else { return }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw CompanionError(exitCode: .cannotCreate, message: "\(folder): cannot create the folder: \(error.localizedDescription)")
        }
        let targets = try targets(parsed)
        let commit = SidecarCommit(sidecar: provenancePath)
        let lock = try OutputLock.acquire(forFiles: [provenancePath] + targets, committedBy: commit)
        defer { lock.release() }
        try checkReplaceable(targets)
        var recorded = PreviousOutput.recordedFiles(provenance: provenancePath)
        let staging = commit.staging()
        for analysis in java {
            let stem = Self.stem(analysis.log.sourceFile)
            for (suffix, text) in [("_strokes.txt", JavaCompanionFiles.strokes(analysis)),
                                   ("_keys.txt", JavaCompanionFiles.keys(analysis))] {
                let data = Data(text.utf8)
                try staging.add(folder + "/" + stem + suffix, data)
                recorded[stem + suffix] = InputRecord(path: stem + suffix, contents: data).sha256
            }
        }
        var record = provenance
        record.outputs = recorded.keys.sorted().map { OutputFileRecord(file: $0, sha256: recorded[$0]!) }
        // Every file, then the provenance that lists them: a run killed in between leaves a commit the next run
        // finishes.
        try staging.commit(sidecarData: record.jsonDocument())
    }

    static func logs(_ parsed: [InteractLogFormat.Parsed]) -> [TrialAnalysis] {
        parsed.compactMap { item in
            if case .log(let analysis) = item { return analysis }
            return nil
        }
    }
}
