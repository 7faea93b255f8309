import FileSystem
import Foundation
import SystemPackage

/// How an output of whole files that a provenance sidecar lists is put in place, and how a commit cut in the middle
/// (SIGKILL, a power cut) is finished by the next run. Such outputs are a signal file and its
/// `<file>.provenance.json`, `bt-synth`'s capture and its `<capture>.truth.json`, and `ilog-parse`'s Java companion
/// files with their folder's `brainbatch-companions.json`.
///
/// The order is a single CSV's (``OutputCommit``):
/// 1. Every file and the new sidecar are written in full beside their places first (temporary siblings).
/// 2. The old sidecar goes aside (`.<sidecar>.tmp-<pid>.previous.json`; an empty file there when there was none):
///    the mark of a commit in progress.
/// 3. The files are renamed into place.
/// 4. The new sidecar is renamed into place last, and the mark is removed.
///
/// Readers meanwhile see whole files and no sidecar, never a sidecar that does not vouch for the files beside it.
/// A later run holding the output's lock that finds a mark of a process that is gone, beside that process's new
/// sidecar, finishes the commit. It does so only once it has checked that each file the new sidecar lists is in
/// place with the old or the new content, or waits complete beside its place. Otherwise it puts the old sidecar
/// back and leaves the files for the usual check to name.
public struct SidecarCommit: Sendable {
    /// The provenance sidecar; the files it lists are in its folder.
    public let sidecar: String
    /// Whether the sidecar holds the provenance under the key `provenance` (`bt-synth`'s truth document).
    public let nested: Bool

    public init(sidecar: String, nested: Bool = false) {
        self.sidecar = sidecar
        self.nested = nested
    }

    /// The temporary sibling of `path` made by process `pid`: `.<name>.tmp-<pid>`.
    static func temporary(of path: String, pid: Int32) -> String {
        FileSystem.temporarySibling(of: FilePath(path), pid: pid).string
    }

    /// The mark of a commit in progress by `pid`: the old sidecar, set aside.
    func mark(pid: Int32) -> String { Self.temporary(of: sidecar, pid: pid) + ".previous.json" }

    /// The output file called `name` in the sidecar's folder.
    func file(named name: String) -> String {
        let parent = FilePath(sidecar).removingLastComponent()
        return parent.isEmpty ? name : parent.appending(name).string
    }

    /// Puts a staged output in place: the old sidecar aside, `renameFiles` (the files' temporaries renamed into
    /// place), the new sidecar, then the mark removed. Call it inside ``FileSystem/deferringSignals(_:)`` once
    /// every temporary is complete. When a rename fails, the old sidecar is put back (beside whatever files were
    /// already renamed: the next run then names them instead of replacing them).
    public func commit(renamingFiles renameFiles: () throws -> Void, thenSidecar staged: StagedFile) throws {
        let mark = FilePath(mark(pid: getpid()))
        if PreviousOutput.kind(of: sidecar) != nil {
            try FileSystem.rename(FilePath(sidecar), to: mark)
        } else {
            try FileSystem.close(try FileSystem.create(mark), path: mark)
        }
        do {
            try renameFiles()
            try staged.commit()
        } catch {
            restore(mark: mark.string)
            throw error
        }
        unlink(mark.string)
    }

    /// An output staged one file at a time (so that only one is in memory), then committed with its sidecar.
    public final class Staging {
        let output: SidecarCommit
        var files: [StagedFile] = []

        init(_ output: SidecarCommit) { self.output = output }

        /// Writes `data` in full beside `path` (its temporary sibling, removed on a signal, or when this staging
        /// ends uncommitted).
        public func add(_ path: String, _ data: Data) throws(TableOutputError) {
            files.append(try SidecarCommit.stage(path, data))
        }

        /// Stages the sidecar, then commits the files (in the order they were added) and it, in one block that
        /// SIGINT, SIGTERM and SIGHUP do not cut. A failure while the sidecar is written (a full disk) replaces
        /// nothing and leaves no temporary; the error names the file and the reason.
        public func commit(sidecarData: Data) throws(TableOutputError) {
            let sidecar = try SidecarCommit.stage(output.sidecar, sidecarData)
            let files = files
            do {
                try FileSystem.deferringSignals {
                    try output.commit(renamingFiles: { for file in files { try file.commit() } }, thenSidecar: sidecar)
                }
            } catch {
                throw SidecarCommit.outputError(error, path: output.sidecar)
            }
        }
    }

    /// A new staging of this output's files.
    public func staging() -> Staging { Staging(self) }

    /// Writes an output held in memory: each of `files` staged, then the sidecar, then all committed.
    public func write(_ files: [(path: String, data: Data)], sidecarData: Data) throws(TableOutputError) {
        let staging = staging()
        for file in files { try staging.add(file.path, file.data) }
        try staging.commit(sidecarData: sidecarData)
    }

    private static func stage(_ path: String, _ data: Data) throws(TableOutputError) -> StagedFile {
        do {
            return try FileSystem.stage(FilePath(path)) { append in try data.withUnsafeBytes { try append($0) } }
        } catch {
            throw outputError(error, path: path)
        }
    }

    /// A failure while staging or committing, as the output error that names the file (a file-system error names
    /// the destination it was about) and the reason.
    private static func outputError(_ error: any Error, path: String) -> TableOutputError {
        guard let error = error as? FileSystemError else { return .cannotCreate(path: path, reason: "\(error)") }
        return .cannotCreate(path: error.path.string, reason: error.reason)
    }

    // MARK: - What killed runs left

    /// Finishes (or undoes) the commits that processes now gone were in the middle of. Call it with the output's
    /// lock held, before the temporaries of gone processes are removed. Never throws: what cannot be finished is
    /// left for the checks that follow to name.
    func recover() {
        for mark in FileSystem.staleTemporaries(of: FilePath(sidecar), includingOwn: true)
        where mark.suffix == ".previous.json" && !mark.isFolder {
            if let files = filesToFinish(pid: mark.pid) {
                finish(files, pid: mark.pid)
            } else {
                restore(mark: mark.path.string)
            }
        }
    }

    /// The files of `pid`'s new sidecar (their names), when finishing its commit loses nothing: no sidecar is in
    /// place, the new one lists its files, and each of them is in place with the old or the new content or waits
    /// complete (the new content) beside its place.
    func filesToFinish(pid: Int32) -> [String]? {
        let newSidecar = Self.temporary(of: sidecar, pid: pid)
        guard PreviousOutput.kind(of: sidecar) == nil,
              let new = PreviousOutput.recordedOutputs(provenance: newSidecar, nested: nested) else { return nil }
        let old = PreviousOutput.recordedOutputs(provenance: mark(pid: pid), nested: nested) ?? [:]
        for (name, digest) in new {
            guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else { return nil }
            let path = file(named: name), waiting = Self.temporary(of: path, pid: pid)
            let placed = PreviousOutput.kind(of: path), staged = PreviousOutput.kind(of: waiting)
            // Somewhere, and wherever it is, a whole file with content one of the sidecars vouches for.
            guard placed != nil || staged != nil else { return nil }
            if staged != nil {
                guard staged == .file, PreviousOutput.sha256(of: waiting) == digest else { return nil }
            }
            if placed != nil {
                guard placed == .file, let present = PreviousOutput.sha256(of: path),
                      present == digest || present == old[name] else { return nil }
            }
        }
        return new.keys.sorted()
    }

    /// Renames `pid`'s waiting files into place, then its new sidecar, and removes its mark.
    private func finish(_ names: [String], pid: Int32) {
        do {
            try FileSystem.deferringSignals { () throws(FileSystemError) in
                for name in names {
                    let path = file(named: name), waiting = Self.temporary(of: path, pid: pid)
                    if PreviousOutput.kind(of: waiting) != nil {
                        try FileSystem.rename(FilePath(waiting), to: FilePath(path))
                    }
                }
                try FileSystem.rename(FilePath(Self.temporary(of: sidecar, pid: pid)), to: FilePath(sidecar))
            }
            unlink(mark(pid: pid))
        } catch {
            restore(mark: mark(pid: pid))
        }
    }

    /// Puts an old sidecar set aside back in place, when no sidecar is there; an empty mark (there was none) is
    /// removed.
    private func restore(mark: String) {
        var info = stat()
        guard PreviousOutput.kind(of: sidecar) == nil, lstat(mark, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return }
        if info.st_size == 0 {
            unlink(mark)
        } else {
            try? FileSystem.rename(FilePath(mark), to: FilePath(sidecar))
        }
    }
}
