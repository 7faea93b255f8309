import FileSystem
import Foundation
import SystemPackage
import Testing
import TestSupport

@Suite("File-system layer")
struct FileSystemTests {
    @Test("An error says the path, what was attempted and the system's reason in one line")
    func errorDescription() {
        let error = FileSystemError(path: "out/x.csv", operation: .create, errno: .permissionDenied)
        #expect(error.description == "out/x.csv: cannot create: Permission denied")
        #expect(FileSystem.message(.noSuchFileOrDirectory) == "No such file or directory")
    }

    @Test("The temporary sibling is .<name>.tmp-<pid> in the same folder")
    func temporarySibling() {
        let pid = ProcessInfo.processInfo.processIdentifier
        #expect(FileSystem.temporarySibling(of: "out/x.csv") == FilePath("out/.x.csv.tmp-\(pid)"))
        #expect(FileSystem.temporarySibling(of: "x.h5") == FilePath(".x.h5.tmp-\(pid)"))
        #expect(FileSystem.temporarySibling(of: "/a/b/tables") == FilePath("/a/b/.tables.tmp-\(pid)"))
    }

    @Test("Replacing a file atomically writes the new content over the old and leaves nothing else")
    func replaceAtomically() throws {
        let folder = TestSupport.temporaryFolder()
        let path = FilePath(folder.appendingPathComponent("x.txt").path)
        try FileSystem.replaceAtomically(path, with: Data("first\n".utf8))
        try FileSystem.replaceAtomically(path, with: Array("second\n".utf8))
        #expect(FileManager.default.contents(atPath: path.string) == Data("second\n".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["x.txt"])
    }

    @Test("A file that cannot be written is a typed error naming the destination; nothing is left behind")
    func replaceFailure() throws {
        let folder = TestSupport.temporaryFolder()
        let path = FilePath(folder.appendingPathComponent("missing/x.txt").path)
        let error = #expect(throws: FileSystemError.self) {
            try FileSystem.replaceAtomically(path, with: Data("x".utf8))
        }
        #expect(error == FileSystemError(path: path, operation: .create, errno: .noSuchFileOrDirectory))
        #expect(error?.description == "\(path): cannot create: No such file or directory")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test("A staged file waits beside its destination, fully written, until commit renames it; discarded (or dropped), it leaves nothing")
    func stagedFile() throws {
        let folder = TestSupport.temporaryFolder()
        let path = FilePath(folder.appendingPathComponent("x.json").path)
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: path.string))
        let staged = try FileSystem.stage(path) { append in
            try Array("new\n".utf8).withUnsafeBytes { try append($0) }
        }
        #expect(staged.temporary == FileSystem.temporarySibling(of: path))
        #expect(try String(contentsOfFile: staged.temporary.string, encoding: .utf8) == "new\n")
        #expect(try String(contentsOfFile: path.string, encoding: .utf8) == "old\n")
        try staged.commit()
        #expect(try String(contentsOfFile: path.string, encoding: .utf8) == "new\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["x.json"])

        let other = FilePath(folder.appendingPathComponent("y.json").path)
        do {
            let dropped = try FileSystem.stage(other) { append in try Array("y".utf8).withUnsafeBytes { try append($0) } }
            #expect(FileManager.default.fileExists(atPath: dropped.temporary.string))
        }
        let discarded = try FileSystem.stage(other) { append in try Array("y".utf8).withUnsafeBytes { try append($0) } }
        discarded.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["x.json"])
    }

    @Test("A failed rename names the destination and the reason")
    func renameFailure() throws {
        let folder = TestSupport.temporaryFolder()
        let source = FilePath(folder.appendingPathComponent("absent").path)
        let target = FilePath(folder.appendingPathComponent("target").path)
        let error = #expect(throws: FileSystemError.self) { try FileSystem.rename(source, to: target) }
        #expect(error?.operation == .rename)
        #expect(error?.path == target)
        #expect(error?.errno == .noSuchFileOrDirectory)
    }
}
