import Foundation
import InteractLog
import Tables
import ToolSupport

/// Why companion files cannot be written (spec §4.2): exit 64 for a folder holding an input, 73 otherwise.
struct CompanionError: ToolReportable {
    var exitCode: SysExit
    var message: String
}

/// Writes `<stem>_strokes.txt` and `<stem>_keys.txt` for each Java log into a folder, atomically, never beside
/// the inputs and never over an existing file unless forced.
struct CompanionWriter {
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

    /// Refuses two Java logs with one stem, and existing files without `--force` (exit 73).
    func check(_ analyses: [TrialAnalysis]) throws {
        var stems: [String: String] = [:]
        for analysis in analyses where analysis.log.program == .java {
            let stem = Self.stem(analysis.log.sourceFile)
            if let other = stems[stem] {
                throw CompanionError(exitCode: .cannotCreate,
                                     message: "--java-companions: \(other) and \(analysis.log.sourceFile) have the same name; their companion files would collide")
            }
            stems[stem] = analysis.log.sourceFile
            for suffix in ["_strokes.txt", "_keys.txt"] where !force {
                let path = folder + "/" + stem + suffix
                if FileManager.default.fileExists(atPath: path) {
                    throw CompanionError(exitCode: .cannotCreate, message: "\(path) exists (give --force to overwrite it)")
                }
            }
        }
    }

    /// Writes the files (creating the folder), each through a temporary file and a rename.
    func write(_ analyses: [TrialAnalysis]) throws {
        let java = analyses.filter { $0.log.program == .java }
        guard !java.isEmpty else { return }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw CompanionError(exitCode: .cannotCreate, message: "\(folder): cannot create the folder: \(error.localizedDescription)")
        }
        for analysis in java {
            let stem = Self.stem(analysis.log.sourceFile)
            try writeAtomically(JavaCompanionFiles.strokes(analysis), to: folder + "/" + stem + "_strokes.txt")
            try writeAtomically(JavaCompanionFiles.keys(analysis), to: folder + "/" + stem + "_keys.txt")
        }
    }

    private func writeAtomically(_ text: String, to path: String) throws {
        let temporary = URL(fileURLWithPath: path).deletingLastPathComponent()
            .appendingPathComponent(".\(URL(fileURLWithPath: path).lastPathComponent).tmp-\(getpid())").path
        guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8)) else {
            throw CompanionError(exitCode: .cannotCreate, message: "\(path): cannot write")
        }
        if rename(temporary, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw CompanionError(exitCode: .cannotCreate, message: "\(path): cannot write: \(reason)")
        }
    }
}
