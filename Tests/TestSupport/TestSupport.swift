import Crypto
import Foundation

/// Helpers shared by the test targets: temporary folders, the real-data folder, and Python cross-checks.
public enum TestSupport {
    /// The package root (found from this source file's location).
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared/realdata` beside the package: the real files (present on the development machine and on CI).
    public static let realDataRoot: URL = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/realdata")

    /// Whether `../shared/realdata/<relativePath>` exists. Tests that read real files declare it as their condition,
    /// `.enabled(if: TestSupport.hasRealData("mynd"), "../shared/realdata/mynd is absent")`, so that a missing
    /// folder shows as a skipped test in the report instead of a silent pass.
    public static func hasRealData(_ relativePath: String) -> Bool {
        FileManager.default.fileExists(atPath: realDataRoot.appendingPathComponent(relativePath).path)
    }

    /// `../shared/realdata/<relativePath>`, or `nil` when it is absent; a test gated by `hasRealData` unwraps it with
    /// `try #require(...)`, so a file missing from a present folder fails the test.
    public static func realData(_ relativePath: String) -> URL? {
        let url = realDataRoot.appendingPathComponent(relativePath)
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    /// A new empty temporary folder, inside this test process's ``TestScratch`` folder: removed with everything in
    /// it when the process exits, or by the next test process if this one is killed.
    public static func temporaryFolder() -> URL {
        let url = TestScratch.root.appendingPathComponent(UUID().uuidString)
        // A folder that cannot be made shows up as the caller's first failed write into it.
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The id of a process that has ended (a `/bin/true` that was waited for): what the tests of stale temporaries
    /// and locks give as the pid of a killed run.
    public static func endedProcessID() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    /// The bytes of every file under `folder` (hidden ones too), by path relative to it.
    public static func files(under folder: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        while let path = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            let url = folder.appendingPathComponent(path)
            _ = FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder)
            if !isFolder.boolValue { result[path] = try Data(contentsOf: url) }
        }
        return result
    }

    /// The SHA-256 (lowercase hex) of every file under `folder` (hidden ones too), by path relative to it: what a
    /// test compares to show that a run left a folder's files as they were.
    public static func sha256s(under folder: URL) throws -> [String: String] {
        try files(under: folder).mapValues { SHA256.hash(data: $0).map { String(format: "%02x", $0) }.joined() }
    }

    /// The result of running a process.
    public struct ProcessResult: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs an executable with arguments and optional standard input; `environment` is added to this process's.
    public static func run(_ executable: String, _ arguments: [String], stdin: String? = nil,
                           environment: [String: String] = [:]) throws -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        // Closing stdin of a child that already exited can fail; the exit status and output are what count.
        try? input.fileHandleForWriting.close()
        // Read both pipes before waiting, so a large output cannot block the child.
        final class Box: @unchecked Sendable { var data = Data() }
        let errBox = Box()
        let group = DispatchGroup()
        group.enter()
        let errHandle = err.fileHandleForReading
        DispatchQueue.global().async { errBox.data = errHandle.readDataToEndOfFile(); group.leave() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        let errData = errBox.data
        process.waitUntilExit()
        return ProcessResult(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                             stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Runs a Python 3 script (numpy, scipy, h5py, pandas are installed by `make test`) and returns its stdout.
    /// Fails the caller with the script's stderr when it exits non-zero.
    public static func python(_ script: String, _ arguments: [String] = []) throws -> String {
        let result = try run("/usr/bin/env", ["python3", "-c", script] + arguments)
        guard result.status == 0 else { throw PythonFailure(stderr: result.stderr) }
        return result.stdout
    }

    /// A file's SHA-256 in lowercase hex as Python's `hashlib` computes it: an independent reference for the
    /// provenance.
    public static func pythonSHA256(ofFile path: String) throws -> String {
        try python("import hashlib,sys; print(hashlib.sha256(open(sys.argv[1],'rb').read()).hexdigest())", [path])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A Python cross-check that failed.
    public struct PythonFailure: Error, CustomStringConvertible {
        public var stderr: String
        public var description: String { "python3 failed:\n\(stderr)" }
    }

    /// The path of a built executable of this package (tests run after `swift build` builds them all).
    public static func executable(_ name: String) -> String {
        let bundle = Bundle.main.bundleURL
        // .build/<triple>/debug/<tests bundle>: executables sit beside it.
        var folder = bundle
        while folder.path != "/" && !FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path) {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent(name).path
    }
}
