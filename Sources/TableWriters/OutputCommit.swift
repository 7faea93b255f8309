import FileSystem
import Foundation
import SystemPackage

/// How a finished temporary output is put in place, and how a commit cut in the middle (SIGKILL, a power cut) is
/// finished by the next run (conventions §3.1). At no moment is the output missing, and whenever a provenance is in
/// place it vouches for exactly the files beside it:
/// - HDF5: one `rename(2)`.
/// - A CSV folder: `renameat2(RENAME_EXCHANGE)` (the old and the new folder trade places in one step; the old
///   one, now at the temporary name, is then emptied of the files its manifest lists and removed). Where the file
///   system has no exchange (NFS, some FUSE file systems), the folder stays in place and its files are replaced:
///   its `provenance.json` is first moved aside into the temporary folder, then each new file is renamed over the
///   old one, old files the new output lacks are removed, and the new `provenance.json` comes last. Readers meanwhile
///   see whole files and no provenance, never a provenance that does not match the files.
/// - A single CSV: the same order for its three files: the old `<file>.provenance.json` aside
///   (`.<file>.tmp-<pid>.previous.json`), the schema and the table renamed over the old ones, the provenance last.
///
/// The aside file is the mark of a commit in progress: a later run that finds it beside a complete temporary of a
/// process that is gone finishes the commit, once it has checked that every file at the destination is one the
/// old or the new provenance lists (else it puts the old provenance back and leaves the files for the usual check
/// to name). Any other temporary of a gone process is removed.
enum OutputCommit {
    /// The temporary files of one run of `destination`, by the pid of the process that made them.
    struct Files {
        let destination: OutputDestination
        /// The temporary file or folder: `.<name>.tmp-<pid>`.
        let temporary: String

        init(_ destination: OutputDestination, pid: Int32 = getpid()) {
            self.destination = destination
            temporary = FileSystem.temporarySibling(of: FilePath(destination.trimmedPath), pid: pid).string
        }

        /// The final path of the output's file `name` (a name its provenance lists).
        func final(_ name: String) -> String {
            switch destination {
            case .csvFolder: return destination.trimmedPath + "/" + name
            case .hdf5, .csvFile:
                let parent = FilePath(destination.trimmedPath).removingLastComponent()
                return parent.isEmpty ? name : parent.appending(name).string
            }
        }

        /// The temporary path of the output's file `name`.
        func temporary(_ name: String) -> String {
            switch destination {
            case .csvFolder: return temporary + "/" + name
            case .hdf5: return temporary
            case .csvFile(let path, _):
                let table = FilePath(path).lastComponent?.string ?? path
                return temporary + String(name.dropFirst(table.count))
            }
        }

        /// The provenance at its final place.
        var finalProvenance: String {
            switch destination {
            case .csvFolder: final(PreviousOutput.folderProvenance)
            case .hdf5(let path): path
            case .csvFile(let path, _): CSVSidecars(table: path).provenance
            }
        }

        /// The new provenance while it is temporary.
        var temporaryProvenance: String {
            switch destination {
            case .csvFolder: temporary + "/" + PreviousOutput.folderProvenance
            case .hdf5: temporary
            case .csvFile: CSVSidecars(table: temporary).provenance
            }
        }

        /// Where the old provenance waits while a commit replaces files one by one (the mark of a commit in
        /// progress).
        var aside: String {
            switch destination {
            case .csvFolder: temporary + "/.previous-provenance.json"
            case .hdf5: temporary + ".previous.json"
            case .csvFile: temporary + ".previous.json"
            }
        }
    }

    /// Replaces the files of a CSV output one by one (a single CSV always; a folder where the file system cannot
    /// exchange folders): the old provenance aside, the new files over the old, the new provenance last.
    static func replaceFiles(_ files: Files) throws(TableOutputError) {
        let final = files.finalProvenance
        if PreviousOutput.kind(of: final) != nil {
            try rename(final, to: files.aside, naming: files.destination.path)
        } else {
            do { try FileSystem.close(try FileSystem.create(FilePath(files.aside)), path: FilePath(files.aside)) } catch {
                throw .cannotCreate(path: files.destination.path, reason: error.reason)
            }
        }
        try finish(files)
    }

    /// The rest of a commit once the old provenance is aside: the new files, the old ones the new output lacks
    /// removed, the new provenance, then the aside file (and a temporary folder) removed.
    private static func finish(_ files: Files) throws(TableOutputError) {
        let new = PreviousOutput.recordedOutputs(provenance: files.temporaryProvenance) ?? [:]
        let old = PreviousOutput.recordedOutputs(provenance: files.aside) ?? [:]
        // The codebook before the tables, as a reader that opens the table first finds its types in place.
        let names = new.keys.filter(isCodebook).sorted() + new.keys.filter { !isCodebook($0) }.sorted()
        for name in names where PreviousOutput.kind(of: files.temporary(name)) != nil {
            try rename(files.temporary(name), to: files.final(name), naming: files.destination.path)
        }
        if case .csvFolder = files.destination {
            for name in old.keys where new[name] == nil { unlink(files.final(name)) }
        }
        try rename(files.temporaryProvenance, to: files.finalProvenance, naming: files.destination.path)
        unlink(files.aside)
        if case .csvFolder = files.destination { FileSystem.removeTree(FilePath(files.temporary)) }
    }

    private static func isCodebook(_ name: String) -> Bool {
        name == "datapackage.json" || name.hasSuffix(".schema.json")
    }

    private static func rename(_ source: String, to target: String, naming output: String) throws(TableOutputError) {
        do { try FileSystem.rename(FilePath(source), to: FilePath(target)) } catch {
            throw .cannotCreate(path: output, reason: error.reason)
        }
    }

    // MARK: - What killed runs left

    /// Removes the temporaries of `destination` left by processes that are gone (and by this one: called with
    /// the output's lock held), finishing a commit one of them was in the middle of. Never throws: what cannot be
    /// cleared is left, and the checks that follow name anything in the output's way.
    static func recover(_ destination: OutputDestination) {
        let stale = FileSystem.staleTemporaries(of: FilePath(destination.trimmedPath), includingOwn: true)
        for pid in Set(stale.map(\.pid)).sorted() {
            let mine = stale.filter { $0.pid == pid }
            let files = Files(destination, pid: pid)
            // An exchange fallback of an earlier version moved the old folder aside as `.<name>.tmp-<pid>.old`.
            if case .csvFolder = destination, let old = mine.first(where: { $0.suffix == ".old" && $0.isFolder }) {
                if PreviousOutput.kind(of: destination.trimmedPath) == nil {
                    try? FileSystem.rename(old.path, to: FilePath(destination.trimmedPath))
                }
            }
            if destination.isCSV, PreviousOutput.kind(of: files.aside) == .file,
               PreviousOutput.kind(of: files.temporaryProvenance) == .file {
                if onlyListedFiles(files) {
                    try? finish(files)
                } else if PreviousOutput.kind(of: files.finalProvenance) == nil {
                    try? FileSystem.rename(FilePath(files.aside), to: FilePath(files.finalProvenance))
                }
            }
            for temporary in mine { FileSystem.remove(temporary) }
        }
    }

    /// Whether every file at the destination is one the old (aside) or the new (temporary) provenance lists with its
    /// content, so that finishing the commit loses nothing.
    private static func onlyListedFiles(_ files: Files) -> Bool {
        guard let new = PreviousOutput.recordedOutputs(provenance: files.temporaryProvenance) else { return false }
        let old = PreviousOutput.recordedOutputs(provenance: files.aside) ?? [:]
        var present: [String] = []
        switch files.destination {
        case .csvFolder:
            present = FileSystem.entries(of: files.destination.trimmedPath).filter { $0 != PreviousOutput.folderProvenance }
        case .csvFile(let path, _):
            let table = FilePath(path).lastComponent?.string ?? path
            present = [table, table + ".schema.json"].filter { PreviousOutput.kind(of: files.final($0)) != nil }
        case .hdf5:
            return false
        }
        if PreviousOutput.kind(of: files.finalProvenance) != nil { return false }
        for name in present {
            guard PreviousOutput.kind(of: files.final(name)) == .file,
                  let sha = PreviousOutput.sha256(of: files.final(name)), sha == new[name] || sha == old[name] else {
                return false
            }
        }
        return true
    }
}

extension OutputDestination {
    var isCSV: Bool {
        if case .hdf5 = self { false } else { true }
    }
}
