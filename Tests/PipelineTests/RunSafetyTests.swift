import Foundation
import Testing
import TestSupport

/// Issue 19, run safety, against the built tools: a run stopped by SIGINT or SIGTERM leaves nothing, one killed by
/// SIGKILL leaves temporaries that the next run removes, two runs never write one output at once (table outputs
/// and signal files alike), and output errors
/// are one line naming `-o` (a full disk, a file over the size limit, a read-only folder). Output folders are seeded with an input, an unrelated
/// file and an earlier output, whose SHA-256s must be the same after a failed or stopped run.
@Suite("Run safety: signals, kills, locks and output errors")
struct RunSafetyTests {
    // MARK: - Helpers

    /// A 10-hour capture (90 MB) from bt-synth, made once: `bt-decode` takes seconds over it, long enough to be
    /// stopped mid-run.
    static let longCapture: Result<String, Error> = Result {
        let folder = TestSupport.temporaryFolder()
        let path = folder.appendingPathComponent("long.bin").path
        let result = try TestSupport.run(TestSupport.executable("bt-synth"), ["-o", path, "--duration-s", "36000", "-q"])
        guard result.status == 0 else { throw Failure("bt-synth failed: \(result.stderr)") }
        return path
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    static func path(_ relative: String) -> String { TestSupport.packageRoot.appendingPathComponent(relative).path }

    static let smallCapture = path("SampleData/brainiac/clean_v2.bin")

    /// How `-o` is spelled for each kind of output: the table outputs, and the signal files (BDF, BrainVision).
    enum Kind: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case hdf5 = "HDF5", folder = "CSV folder", csv = "single CSV", bdf = "BDF", brainVision = "BrainVision"
        var testDescription: String { rawValue }
        /// The table outputs (the tests of output errors run on these).
        static let tables: [Kind] = [.hdf5, .folder, .csv]
        /// The `-o` arguments in `folder` (`table`: the one of a single CSV).
        func arguments(in folder: URL, table: String = "samples") -> [String] {
            switch self {
            case .hdf5: ["-o", folder.appendingPathComponent("out.h5").path]
            case .folder: ["-o", folder.appendingPathComponent("tables").path + "/"]
            case .csv: ["-o", folder.appendingPathComponent("\(table).csv").path, "--table", table]
            case .bdf: ["-o", folder.appendingPathComponent("out.bdf").path]
            case .brainVision: ["-o", folder.appendingPathComponent("out.vhdr").path]
            }
        }
        /// The output's path in `folder`, without a trailing `/`.
        func path(in folder: URL, table: String = "samples") -> String {
            switch self {
            case .hdf5: folder.appendingPathComponent("out.h5").path
            case .folder: folder.appendingPathComponent("tables").path
            case .csv: folder.appendingPathComponent("\(table).csv").path
            case .bdf: folder.appendingPathComponent("out.bdf").path
            case .brainVision: folder.appendingPathComponent("out.vhdr").path
            }
        }
        /// The name of the file written while the run goes on (the temporaries are `.<name>.tmp-<pid>…`): a
        /// BrainVision output's samples go to its `.eeg` as they are decoded; a BDF is written once they all are.
        var name: String {
            switch self {
            case .hdf5: "out.h5"
            case .folder: "tables"
            case .csv: "samples.csv"
            case .bdf: "out.bdf"
            case .brainVision: "out.eeg"
            }
        }
        /// The name of the output's lock file, `.<name>.lock` (a BrainVision output's is its header's, the `-o` path).
        var lockName: String { self == .brainVision ? "out.vhdr" : name }
    }

    /// A folder holding a copy of the small capture (an input), notes of the user, and an earlier `bt-decode`
    /// output of `kind` made from that copy; returns the folder and the arguments of that earlier run.
    static func seededFolder(_ kind: Kind) throws -> (URL, [String]) {
        let folder = TestSupport.temporaryFolder()
        let input = folder.appendingPathComponent("small.bin").path
        try FileManager.default.copyItem(atPath: smallCapture, toPath: input)
        try Data("my notes, not BrainBatch's\n".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let arguments = [input] + kind.arguments(in: folder) + ["-q"]
        let result = try TestSupport.run(TestSupport.executable("bt-decode"), arguments)
        try #require(result.status == 0, "earlier output: \(result.stderr)")
        return (folder, arguments)
    }

    /// The files whose SHA-256 differ between two snapshots (added, removed or changed), for messages.
    static func changes(_ before: [String: String], _ after: [String: String]) -> [String] {
        Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
    }

    /// A tool started with `posix_spawn`, SIGINT, SIGTERM and SIGHUP at their default action (a test runner started
    /// in the background of a shell ignores SIGINT, and a child would inherit that), stdout to /dev/null and stderr
    /// into a file read once it has ended.
    final class Running {
        let pid: pid_t
        let stderr: URL
        private(set) var status: Int32 = 0
        private var ended = false

        init(_ tool: String, _ arguments: [String]) throws {
            stderr = TestSupport.temporaryFolder().appendingPathComponent("stderr.txt")
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, stderr.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var defaults = sigset_t(), none = sigset_t()
            sigemptyset(&defaults)
            [SIGINT, SIGTERM, SIGHUP].forEach { sigaddset(&defaults, $0) }
            sigemptyset(&none)
            posix_spawnattr_setsigdefault(&attributes, &defaults)
            posix_spawnattr_setsigmask(&attributes, &none)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
            let executable = TestSupport.executable(tool)
            let argv = ([executable] + arguments).map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            var pid: pid_t = 0
            let result = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
            guard result == 0 else { throw Failure("cannot start \(tool): \(String(cString: strerror(result)))") }
            self.pid = pid
        }

        var isRunning: Bool {
            guard !ended else { return false }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid { ended = true; self.status = status; return false }
            return true
        }

        func signal(_ number: Int32) { kill(pid, number) }

        /// Waits for the end; returns stderr.
        @discardableResult
        func wait() -> String {
            if !ended {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                self.status = status
                ended = true
            }
            return (try? String(contentsOf: stderr, encoding: .utf8)) ?? ""
        }

        /// The signal that ended the process, or `nil` when it exited.
        var endingSignal: Int32? { status & 0x7f != 0 ? status & 0x7f : nil }
        /// The exit status, or `nil` when a signal ended it.
        var exitStatus: Int32? { status & 0x7f == 0 ? (status >> 8) & 0xff : nil }
    }

    /// Waits until the run has a temporary of `kind` in `folder` with some content written (mid-run), or with
    /// `lockOnly` until it holds the output's lock (from its start: a BDF's temporary appears only in its last
    /// seconds); fails if the run ends first.
    static func waitMidRun(_ run: Running, _ kind: Kind, in folder: URL, lockOnly: Bool = false) throws {
        let temporary = folder.appendingPathComponent(".\(kind.name).tmp-\(run.pid)")
        let written = lockOnly ? folder.appendingPathComponent(".\(kind.lockName).lock")
            : kind == .folder ? temporary.appendingPathComponent("samples.csv") : temporary
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            try #require(run.isRunning, "the run ended before it could be stopped: \(run.wait())")
            if let size = try? FileManager.default.attributesOfItem(atPath: written.path)[.size] as? Int, size > 0 { return }
            Thread.sleep(forTimeInterval: 0.02)
        }
        throw Failure("no temporary output appeared")
    }

    // MARK: - Signals, kills and locks

    @Test("SIGINT or SIGTERM mid-run: the run ends by that signal and leaves the folder's files as they were (earlier output, input, notes)",
          arguments: [SIGINT, SIGTERM], Kind.allCases)
    func signalRemovesTemporaries(_ signal: Int32, _ kind: Kind) throws {
        let long = try RunSafetyTests.longCapture.get()
        let (folder, _) = try RunSafetyTests.seededFolder(kind)
        let before = try TestSupport.sha256s(under: folder)
        // Two inputs into a table output; a signal file holds one input's signal.
        let inputs = Kind.tables.contains(kind) ? [long, folder.appendingPathComponent("small.bin").path] : [long]
        let run = try Running("bt-decode", inputs + kind.arguments(in: folder))
        try RunSafetyTests.waitMidRun(run, kind, in: folder)
        run.signal(signal)
        let stderr = run.wait()
        #expect(run.endingSignal == signal, "signal \(String(describing: run.endingSignal)), exit \(String(describing: run.exitStatus)): \(stderr)")
        let after = try TestSupport.sha256s(under: folder)
        #expect(after == before, "\(RunSafetyTests.changes(before, after))")
    }

    @Test("SIGKILL mid-run leaves a temporary and the lock file; the next run writing there removes them and succeeds",
          arguments: Kind.allCases)
    func killedRunCleanedByNext(_ kind: Kind) throws {
        let long = try RunSafetyTests.longCapture.get()
        let (folder, earlier) = try RunSafetyTests.seededFolder(kind)
        let before = try TestSupport.sha256s(under: folder)
        let run = try Running("bt-decode", [long] + kind.arguments(in: folder))
        try RunSafetyTests.waitMidRun(run, kind, in: folder)
        run.signal(SIGKILL)
        run.wait()
        let left = try TestSupport.sha256s(under: folder).keys.filter { before[$0] == nil }
        #expect(left.contains { $0.hasPrefix(".\(kind.name).tmp-\(run.pid)") }, "\(left)")
        #expect(left.contains(".\(kind.lockName).lock"), "\(left)")
        // The same run as the earlier one gives the same bytes (deterministic), so the folder is as it was.
        let next = try TestSupport.run(TestSupport.executable("bt-decode"), earlier)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(try TestSupport.sha256s(under: folder) == before)
    }

    @Test("A BrainVision commit cut by SIGKILL between its renames (new .eeg, old .vmrk and .vhdr, no sidecar) is finished by the next run, which then goes on")
    func cutSignalCommitFinishedByNext() throws {
        let (folder, earlier) = try RunSafetyTests.seededFolder(.brainVision)
        let before = try TestSupport.sha256s(under: folder)
        // Another capture's output, staged as a run now gone would have left it, its commit cut after the .eeg.
        let staging = TestSupport.temporaryFolder()
        let other = try TestSupport.run(TestSupport.executable("bt-decode"),
                                        [RunSafetyTests.path("SampleData/brainiac/faulty_v2.bin"), "-o", staging.appendingPathComponent("out.vhdr").path, "-q"])
        try #require(other.status == 0, "\(other.stderr)")
        let pid = try TestSupport.endedProcessID()
        let path = { (name: String) in folder.appendingPathComponent(name).path }
        for name in ["out.eeg", "out.vmrk", "out.vhdr", "out.vhdr.provenance.json"] {
            try #require(rename(staging.appendingPathComponent(name).path, path(".\(name).tmp-\(pid)")) == 0)
        }
        try #require(rename(path("out.vhdr.provenance.json"), path(".out.vhdr.provenance.json.tmp-\(pid).previous.json")) == 0)
        try #require(rename(path(".out.eeg.tmp-\(pid)"), path("out.eeg")) == 0)
        // The next run finishes that commit (every file is one the old or the new sidecar lists), so the output is
        // a BrainBatch one again and is replaced: the same run as the earlier one leaves the folder as it was.
        let next = try TestSupport.run(TestSupport.executable("bt-decode"), earlier)
        #expect(next.status == 0, "\(next.stderr)")
        let after = try TestSupport.sha256s(under: folder)
        #expect(after == before, "\(RunSafetyTests.changes(before, after))")
    }

    @Test("A second run writing an output that a run is writing is refused (73, one line naming -o and the pid); the first is untouched",
          arguments: Kind.allCases)
    func secondRunRefused(_ kind: Kind) throws {
        let long = try RunSafetyTests.longCapture.get()
        let (folder, earlier) = try RunSafetyTests.seededFolder(kind)
        let before = try TestSupport.sha256s(under: folder)
        let run = try Running("bt-decode", [long] + kind.arguments(in: folder))
        // A BDF's temporary exists only in the run's last seconds: the second run is started while the first holds
        // the lock, from its start.
        try RunSafetyTests.waitMidRun(run, kind, in: folder, lockOnly: kind == .bdf)
        let second = try TestSupport.run(TestSupport.executable("bt-decode"), earlier)
        let temporaryStillThere = kind == .bdf || FileManager.default.fileExists(
            atPath: folder.appendingPathComponent(".\(kind.name).tmp-\(run.pid)").path)
        run.signal(SIGTERM)
        run.wait()
        #expect(second.status == 73, "\(second.stderr)")
        let outPath = kind.arguments(in: folder)[1]
        #expect(second.stderr == "bt-decode: error: \(outPath): another run (pid \(run.pid)) is writing this output; wait until it ends, or choose another -o\n")
        #expect(temporaryStillThere, "the refused run touched the first run's temporary")
        let after = try TestSupport.sha256s(under: folder)
        #expect(after == before, "\(RunSafetyTests.changes(before, after))")
    }

    // MARK: - Output errors: one line naming -o

    /// A tool and a good input of it, with a table it writes (its rows are compared in `InputRouteTests`).
    struct ToolInput: CustomTestStringConvertible, Sendable {
        let tool: String
        let input: String
        let table: String
        var testDescription: String { tool }
    }

    static let toolInputs: [ToolInput] = [
        ToolInput(tool: "bt-decode", input: "SampleData/brainiac/faulty_v2.bin", table: "samples"),
        ToolInput(tool: "ilog-parse", input: "SampleData/interactlog/data/2023-07-04/P01 (Trial 2) 2023-07-04 - 10-15-02.txt", table: "events"),
        ToolInput(tool: "rt-stats", input: "SampleData/braintracker/BrainTrackerResultsFile.csv", table: "trials"),
        ToolInput(tool: "mynd-parse", input: "SampleData/mynd/q_initial_1_0_0_3F2504E0-4F89-41D3-9A0C-0305E82C3301.json", table: "answers"),
        ToolInput(tool: "nt-analyze", input: "SampleData/mindaffect/mindaffectBCI_sample_261123_1200.txt", table: "messages"),
    ]

    /// The message of a failed write must name `-o` (for a CSV folder, a file in it) and not the hidden temporary,
    /// nor carry HDF5's error trace.
    static func checkOneLine(_ stderr: String, naming out: String, reason: String) {
        let lines = stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(stderr)")
        #expect(stderr.hasPrefix("bt-decode: error: \(out)"), "\(stderr)")
        #expect(stderr.contains(reason), "\(stderr)")
        #expect(!stderr.contains(".tmp-") && !stderr.contains("HDF5-DIAG") && !stderr.contains("#00"), "\(stderr)")
    }

    @Test("A file too large for the limit (RLIMIT_FSIZE, as on a full disk): exit 74, one line naming -o, the folder as it was",
          arguments: Kind.tables)
    func fileTooLarge(_ kind: Kind) throws {
        let long = try RunSafetyTests.longCapture.get()
        let (folder, _) = try RunSafetyTests.seededFolder(kind)
        let before = try TestSupport.sha256s(under: folder)
        // SIGXFSZ ignored: the write fails with EFBIG instead of killing the process.
        let result = try TestSupport.run("/bin/sh", ["-c", "trap '' XFSZ; ulimit -f 4096; exec \"$0\" \"$@\"",
                                                     TestSupport.executable("bt-decode"), long] + kind.arguments(in: folder))
        #expect(result.status == 74, "\(result.stderr)")
        RunSafetyTests.checkOneLine(result.stderr, naming: kind.path(in: folder), reason: "write failed: File too large")
        #expect(try TestSupport.sha256s(under: folder) == before)
    }

    static var isRoot: Bool { getuid() == 0 }

    @Test("A full disk (a 256 KiB tmpfs): exit 74, one line naming -o, no HDF5 trace, nothing left",
          .enabled(if: RunSafetyTests.isRoot, "mounting a tmpfs needs root"), arguments: Kind.tables)
    func fullDisk(_ kind: Kind) throws {
        let long = try RunSafetyTests.longCapture.get()
        let disk = TestSupport.temporaryFolder()
        let mount = try TestSupport.run("/bin/mount", ["-t", "tmpfs", "-o", "size=256k", "tmpfs", disk.path])
        try #require(mount.status == 0, "cannot mount a tmpfs: \(mount.stderr)")
        defer { _ = try? TestSupport.run("/bin/umount", [disk.path]) }
        try Data("my notes\n".utf8).write(to: disk.appendingPathComponent("notes.txt"))
        let before = try TestSupport.sha256s(under: disk)
        let result = try TestSupport.run(TestSupport.executable("bt-decode"), [long] + kind.arguments(in: disk))
        #expect(result.status == 74, "\(result.stderr)")
        RunSafetyTests.checkOneLine(result.stderr, naming: kind.path(in: disk), reason: "write failed: No space left on device")
        #expect(try TestSupport.sha256s(under: disk) == before)
    }

    @Test("A signal file (BDF, EDF, BrainVision) on a full disk or over the size limit: exit 74, one line naming -o, nothing left",
          // Mounting a tmpfs needs root; the size limit runs for anyone.
          arguments: ["x.bdf", "x.edf", "x.vhdr"], RunSafetyTests.isRoot ? [true, false] : [false])
    func signalFileWriteFails(_ name: String, tmpfs: Bool) throws {
        // The file's chunks are written on a second thread (BackgroundSHA256): its error must still end the run.
        let long = try RunSafetyTests.longCapture.get()
        let folder = TestSupport.temporaryFolder()
        if tmpfs {
            let mount = try TestSupport.run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", folder.path])
            try #require(mount.status == 0, "cannot mount a tmpfs: \(mount.stderr)")
        }
        defer { if tmpfs { _ = try? TestSupport.run("/bin/umount", [folder.path]) } }
        try Data("my notes\n".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let before = try TestSupport.sha256s(under: folder)
        let out = folder.appendingPathComponent(name).path
        let result = tmpfs
            ? try TestSupport.run(TestSupport.executable("bt-decode"), [long, "-o", out, "--no-analysis"])
            : try TestSupport.run("/bin/sh", ["-c", "trap '' XFSZ; ulimit -f 2048; exec \"$0\" \"$@\"",
                                              TestSupport.executable("bt-decode"), long, "-o", out, "--no-analysis"])
        #expect(result.status == 74, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        // It names the output's file (for BrainVision the .eeg that failed), never the hidden temporary.
        #expect(lines.count == 1 && result.stderr.hasPrefix("bt-decode: error: \(folder.appendingPathComponent("x.").path)"),
                "\(result.stderr)")
        #expect(result.stderr.contains(tmpfs ? "No space left on device" : "File too large"), "\(result.stderr)")
        #expect(!result.stderr.contains(".tmp-"), "\(result.stderr)")
        #expect(try TestSupport.sha256s(under: folder) == before)
    }

    @Test("A read-only folder: exit 73, '<-o>: cannot create output: Permission denied', never the temporary's name (as root, run as nobody)",
          arguments: toolInputs, Kind.tables)
    func readOnlyFolder(_ c: ToolInput, _ kind: Kind) throws {
        let folder = TestSupport.temporaryFolder()
        try Data("my notes\n".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path) }
        let arguments = [RunSafetyTests.path(c.input)] + kind.arguments(in: folder, table: c.table)
        let outPath = arguments[2]
        // root writes into a folder whatever its mode: the tool runs as nobody then.
        let result = RunSafetyTests.isRoot
            ? try TestSupport.run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups",
                                                       TestSupport.executable(c.tool)] + arguments)
            : try TestSupport.run(TestSupport.executable(c.tool), arguments)
        #expect(result.status == 73, "\(result.stderr)")
        #expect(result.stderr == "\(c.tool): error: \(outPath): cannot create output: Permission denied\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["notes.txt"])
    }
}
