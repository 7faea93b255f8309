import Foundation
import Testing
import TestSupport

/// Every tool on a few hundred mutated copies of its SampleData inputs (seeded, so the same cases every run):
/// bit flips, byte insertions and deletions, truncations, NUL bytes, invalid UTF-8, long lines, extreme numbers,
/// repeated blocks, and for mynd-parse corrupted HDF5 metadata and corrupt definitions and protocols too. Each
/// case is one run of the real executable in a folder of its own that also holds an unrelated file, and each
/// must end as the conventions say (docs/conventions.md §3.3): no signal, no `Fatal error`, exit 0, 65 or 66,
/// nothing left in the folder but the inputs, the unrelated file (its bytes unchanged) and, after exit 0, the
/// output; the inputs unchanged; and on failure every `<tool>: error:` line names the mutated file.
///
/// The libFuzzer targets of Fuzz/ (`make fuzz`) go further on the parsers in process; this suite checks the
/// whole tool, output and clean-up included.
@Suite("Mutated inputs, for every tool")
struct MutationTests {

    static let uuid = "3F2504E0-4F89-41D3-9A0C-0305E82C3301"

    /// A sample input to mutate, how the mutated copy is named, and how it is given to the tool.
    struct Seed: Sendable {
        /// The SampleData file (relative to the package root), or the seed's own bytes when `text` is given.
        let sample: String
        var text: Data? = nil
        /// Only the first `prefix` bytes are used (a long sample stays quick to read in a debug build).
        var prefix: Int? = nil
        /// The mutated file's path in the case folder (the tools read meaning from names).
        let name: String
        /// HDF5: mutate the file's metadata (its first 8 KB and its last 64 KB) rather than text.
        var hdf5 = false
        /// The command line before `-o`: `{input}` is the mutated file's path, `{dir}` the case folder.
        var arguments: [String] = ["{input}"]
        /// Sample files copied into the case folder unchanged (SampleData path, name in the folder).
        var partners: [(sample: String, name: String)] = []
    }

    /// A tool, its seeds and how many cases it gets.
    struct Plan: Sendable, CustomTestStringConvertible {
        let tool: String
        let seeds: [Seed]
        let cases: Int
        /// Whether some mutations must be refused (exit 65). bt-decode's decoder accounts for every byte of
        /// any capture (damage becomes anomalies rows); it refuses only files shorter than one packet.
        var refusals = true
        /// Options added to some cases (each case takes one, in turn).
        let variants: [[String]]
        var testDescription: String { tool }
    }

    static let plans: [Plan] = [
        Plan(tool: "bt-decode", seeds: [
            // 30 KB reach the baseline and indicators (2750 samples); 12 KB the decoder, frames and band power.
            Seed(sample: "SampleData/brainiac/clean_v2.bin", prefix: 30_000, name: "capture.bin"),
            Seed(sample: "SampleData/brainiac/faulty_v2.bin", prefix: 12_000, name: "faulty.bin"),
            Seed(sample: "SampleData/brainiac/legacy_le_v1.bin", prefix: 12_000, name: "legacy.bin"),
            Seed(sample: "SampleData/brainiac/restart_mixed.bin", prefix: 12_000, name: "restart.bin"),
        ], cases: 200, refusals: false, variants: [[], ["--byte-order", "le"], ["--byte-order", "mixed"], ["--gaps", "fill", "--no-split"],
                                  ["--no-analysis"]]),
        Plan(tool: "ilog-parse", seeds: [
            Seed(sample: "SampleData/interactlog/data/2023-07-04/P01 (Trial 1) 2023-07-04 - 10-15-02.txt",
                 name: "P01 (Trial 1) 2023-07-04 - 10-15-02.txt"),
            Seed(sample: "SampleData/interactlog/data/2017-05-03/Anonymous Participant (Trial 1) 2017-05-03 - 11-22-40.txt",
                 name: "Anonymous Participant (Trial 1) 2017-05-03 - 11-22-40.txt"),
            Seed(sample: "SampleData/interactlog/experiments/6610E5B7-1005-4295-9B04-BD9A46F1454F/P07 (Trial 1) 2023-10-17 - 14-02-11.txt",
                 name: "P07 (Trial 1) 2023-10-17 - 14-02-11.txt",
                 partners: [("SampleData/interactlog/experiments/6610E5B7-1005-4295-9B04-BD9A46F1454F/InteractLog.json",
                             "InteractLog.json")]),
            // The iPad app's sidecar, mutated beside its log.
            Seed(sample: "SampleData/interactlog/experiments/6610E5B7-1005-4295-9B04-BD9A46F1454F/InteractLog.json",
                 name: "InteractLog.json", arguments: ["{dir}/P07 (Trial 1) 2023-10-17 - 14-02-11.txt"],
                 partners: [("SampleData/interactlog/experiments/6610E5B7-1005-4295-9B04-BD9A46F1454F/P07 (Trial 1) 2023-10-17 - 14-02-11.txt",
                             "P07 (Trial 1) 2023-10-17 - 14-02-11.txt")]),
        ], cases: 200, variants: [[], ["--skip-bad-lines"]]),
        Plan(tool: "rt-stats", seeds: [
            Seed(sample: "SampleData/braintracker/BrainTrackerResultsFile.csv", name: "BrainTrackerResultsFile.csv"),
            Seed(sample: "SampleData/braintracker/brain_data_raw.csv", name: "brain_data_raw.csv"),
        ], cases: 200, variants: [[], ["--skip-bad-lines"]]),
        Plan(tool: "nt-analyze", seeds: [
            Seed(sample: "SampleData/mindaffect/mindaffectBCI_sample_261123_1200.txt", prefix: 60_000,
                 name: "mindaffectBCI_sample_261123_1200.txt"),
        ], cases: 200, variants: [[], ["--skip-bad-lines"]]),
        Plan(tool: "mynd-parse", seeds: [
            Seed(sample: "SampleData/mynd/q_initial_1_0_0_\(uuid).json", name: "q_initial_1_0_0_\(uuid).json"),
            Seed(sample: "SampleData/mynd/q_motivation_1_1_2_\(uuid).json", name: "q_motivation_1_1_2_\(uuid).json"),
            Seed(sample: "SampleData/mynd/r_rest_1_2_1_\(uuid).hdf", name: "r_rest_1_2_1_\(uuid).hdf", hdf5: true),
            // A questionnaire definition (--definitions): one that cannot be read is passed over.
            Seed(sample: "SampleData/mynd/definitions/motivation_en.json", name: "definitions/motivation_en.json",
                 arguments: ["{dir}/q_motivation_1_1_2_\(uuid).json", "--definitions", "{dir}/definitions"],
                 partners: [("SampleData/mynd/q_motivation_1_1_2_\(uuid).json", "q_motivation_1_1_2_\(uuid).json")]),
            // A study protocol (--check-protocol … --protocol), made from the subject folder's one result.
            Seed(sample: "", text: protocolText, name: "protocol.json",
                 arguments: ["--check-protocol", "{dir}/\(uuid)", "--protocol", "{input}"],
                 partners: [("SampleData/mynd/q_initial_1_0_0_\(uuid).json", "\(uuid)/q_initial_1_0_0_\(uuid).json")]),
        ], cases: 250, variants: [[]]),
    ]

    /// A study protocol in the `--protocol` format, for the protocol seed (SampleData has none).
    static let protocolText = Data("""
        {"name": "two_days", "slots": [
          {"session_id": 0, "day": 1, "scenario": "initial", "kind": "q", "files": 1},
          {"session_id": 1, "day": 1, "scenario": "motivation", "kind": "q"},
          {"session_id": 2, "day": 1, "scenario": "rest", "kind": "r", "files": 3}
        ]}

        """.utf8)

    /// The bytes of a seed: the sample (or its first `prefix` bytes).
    static func seedBytes(_ seed: Seed) throws -> [UInt8] {
        if let text = seed.text { return [UInt8](text) }
        let bytes = [UInt8](try Data(contentsOf: TestSupport.packageRoot.appendingPathComponent(seed.sample)))
        return seed.prefix.map { Array(bytes.prefix($0)) } ?? bytes
    }

    // MARK: - Mutations

    /// Numbers that overflow, underflow or are not numbers, put in place of a number of the input.
    static let extremeNumbers = ["99999999999999999999999999", "-9223372036854775808", "9223372036854775807",
                                 "18446744073709551616", "2147483648", "-2147483649", "4294967296", "1e308", "-1e309",
                                 "1e-320", "NaN", "-inf", "0", "-0", "0.0000000000000000000000001", "65536", "-1"]
    /// Bytes that are not UTF-8: a lone continuation byte, an overlong slash, a surrogate, a truncated sequence,
    /// bytes never used, a byte-order mark in the middle.
    static let invalidUTF8: [[UInt8]] = [[0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0xFF, 0xFE],
                                         [0xF8, 0x88, 0x80, 0x80, 0x80], [0xEF, 0xBB, 0xBF]]
    /// Bytes with a meaning in some format: separators, quotes, brackets, line ends.
    static let structural = Array(",;:\"{}[]\\\n\r\t <-=()_.".utf8) + [0x00, 0xFF]

    /// One mutation of a text (or binary) input; returns what it did, for messages.
    static func mutate(_ bytes: inout [UInt8], using generator: inout SeededGenerator) -> String {
        let at = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &generator)
        switch Int.random(in: 0..<11, using: &generator) {
        case 0:
            guard !bytes.isEmpty else { return "flip (empty)" }
            let flips = Int.random(in: 1...8, using: &generator)
            for _ in 0..<flips {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] ^= 1 << UInt8.random(in: 0...7, using: &generator)
            }
            return "\(flips) bit flips"
        case 1:
            bytes.insert(structural.randomElement(using: &generator)!, at: at)
            return "byte inserted at \(at)"
        case 2:
            let count = min(bytes.count - at, Int.random(in: 1...64, using: &generator))
            bytes.removeSubrange(at..<(at + count))
            return "\(count) bytes deleted at \(at)"
        case 3:
            bytes.removeSubrange(at...)
            return "truncated to \(at) bytes"
        case 4:
            let count = Int.random(in: 1...16, using: &generator)
            bytes.insert(contentsOf: [UInt8](repeating: 0, count: count), at: at)
            return "\(count) NUL bytes at \(at)"
        case 5:
            bytes.insert(contentsOf: invalidUTF8.randomElement(using: &generator)!, at: at)
            return "invalid UTF-8 at \(at)"
        case 6:
            // A long line: 8 KB to 256 KB of one character (a digit, a letter, a separator).
            let length = Int.random(in: 8192...262_144, using: &generator)
            let byte = Array("7x,;\" ".utf8).randomElement(using: &generator)!
            bytes.insert(contentsOf: [UInt8](repeating: byte, count: length), at: at)
            return "\(length)-byte run of \(Character(Unicode.Scalar(byte))) at \(at)"
        case 7:
            // An extreme number in place of the digits at or after `at`.
            guard let start = bytes[at...].firstIndex(where: { (0x30...0x39).contains($0) }) else { return "no number" }
            var end = start
            while end < bytes.count, (0x30...0x39).contains(bytes[end]) || bytes[end] == 0x2E { end += 1 }
            let number = extremeNumbers.randomElement(using: &generator)!
            bytes.replaceSubrange(start..<end, with: Array(number.utf8))
            return "number at \(start) → \(number)"
        case 8:
            // A block repeated: lines or packets duplicated, out of order after it.
            let count = min(bytes.count - at, Int.random(in: 1...4096, using: &generator))
            let repeats = Int.random(in: 1...8, using: &generator)
            let block = Array(bytes[at..<(at + count)])
            for _ in 0..<repeats { bytes.insert(contentsOf: block, at: at) }
            return "\(count) bytes at \(at) repeated \(repeats)×"
        case 9:
            guard !bytes.isEmpty else { return "replace (empty)" }
            bytes[at] = structural.randomElement(using: &generator)!
            return "byte replaced at \(at)"
        default:
            // A line end removed or added: lines joined or split.
            if let newline = bytes[at...].firstIndex(of: 0x0A) {
                bytes.remove(at: newline)
                return "line end removed at \(newline)"
            }
            bytes.insert(0x0A, at: at)
            return "line end inserted at \(at)"
        }
    }

    /// One corruption of an HDF5 file's metadata: bytes of its first 8 KB (superblock, root group, object headers,
    /// B-trees, local heaps) or its last 64 KB (global heap, attribute tables) set to random values, 0xFF…
    /// (sizes and addresses that point past the file) or 0; or the file truncated.
    static func corruptHDF5(_ bytes: inout [UInt8], using generator: inout SeededGenerator) -> String {
        let regions = [0..<min(8192, bytes.count), max(0, bytes.count - 65_536)..<bytes.count]
        switch Int.random(in: 0..<4, using: &generator) {
        case 0:
            let count = Int.random(in: 1...20, using: &generator)
            for _ in 0..<count {
                let region = regions.randomElement(using: &generator)!
                bytes[Int.random(in: region, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            return "\(count) metadata bytes randomised"
        case 1:
            let region = regions.randomElement(using: &generator)!
            let at = Int.random(in: region.lowerBound..<max(region.lowerBound + 1, region.upperBound - 8), using: &generator)
            let value: UInt8 = Bool.random(using: &generator) ? 0xFF : 0x00
            for index in at..<min(bytes.count, at + 8) { bytes[index] = value }
            return "8 bytes at \(at) set to \(value)"
        case 2:
            let at = Int.random(in: 0..<bytes.count, using: &generator)
            bytes.removeSubrange(at...)
            return "truncated to \(at) bytes"
        default:
            let flips = Int.random(in: 1...32, using: &generator)
            for _ in 0..<flips {
                let region = regions.randomElement(using: &generator)!
                bytes[Int.random(in: region, using: &generator)] ^= 1 << UInt8.random(in: 0...7, using: &generator)
            }
            return "\(flips) metadata bit flips"
        }
    }

    /// One case: the mutated bytes and the command line.
    struct Case: Sendable {
        let index: Int
        let seed: Seed
        let bytes: [UInt8]
        let mutations: [String]
        let variant: [String]
        /// HDF5 output (`out.h5`) or a CSV folder (`out/`).
        let hdf5Output: Bool
        var label: String { "case \(index) (\(seed.name); \(mutations.joined(separator: ", ")); \(variant.joined(separator: " ")))" }
    }

    /// The cases of a plan, the same on every run.
    static func cases(_ plan: Plan) throws -> [Case] {
        var generator = SeededGenerator(seed: plan.tool.utf8.reduce(0x2545_F491_4F6C_DD1D) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 })
        let seeds = try plan.seeds.map(seedBytes)
        return (0..<plan.cases).map { index in
            let which = index % plan.seeds.count
            var bytes = seeds[which]
            let count = Int.random(in: 1...3, using: &generator)
            var mutations: [String] = []
            for _ in 0..<count {
                mutations.append(plan.seeds[which].hdf5 && !bytes.isEmpty
                                 ? corruptHDF5(&bytes, using: &generator) : mutate(&bytes, using: &generator))
            }
            return Case(index: index, seed: plan.seeds[which], bytes: bytes, mutations: mutations,
                        variant: plan.variants[index % plan.variants.count], hdf5Output: index % 2 == 0)
        }
    }

    // MARK: - Running

    /// What one run of a tool did.
    struct Outcome {
        var status: Int32
        var signaled: Bool
        var timedOut: Bool
        var stderr: String
    }

    /// Runs a tool with a time limit (a run that does not end in time is killed and reported as a hang).
    static func run(_ executable: String, _ arguments: [String], limit: TimeInterval) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let err = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        final class Flag: @unchecked Sendable { var value = false }
        let timedOut = Flag()
        let timer = DispatchWorkItem { if process.isRunning { timedOut.value = true; process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + limit, execute: timer)
        let data = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        timer.cancel()
        return Outcome(status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
                       timedOut: timedOut.value, stderr: String(decoding: data, as: UTF8.self))
    }

    /// Every file and folder under `folder` (hidden ones too), relative paths; a folder's ends with `/`, so that
    /// an empty folder left behind (a temporary CSV folder) counts too.
    static func entries(under folder: URL) -> Set<String> {
        var result = Set<String>()
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        while let path = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isFolder)
            result.insert(isFolder.boolValue ? path + "/" : path)
        }
        return result
    }

    /// The folders a relative path lies in, each ending with `/` (`a/b/c.txt`: `a/`, `a/b/`).
    static func enclosingFolders(_ path: String) -> [String] {
        let parts = path.split(separator: "/").dropLast()
        return parts.indices.map { parts[...$0].joined(separator: "/") + "/" }
    }

    /// The unrelated file of every case folder.
    static let unrelatedName = "notes.txt"
    static let unrelatedBytes = Data("a researcher's notes, not an input: nothing may touch this file\n".utf8)

    /// Runs one case in a folder of its own; returns the exit status and what went against the conventions.
    static func check(_ plan: Plan, _ testCase: Case, in root: URL) throws -> (status: Int32, problems: [String]) {
        let dir = root.appendingPathComponent("case\(testCase.index)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let input = dir.appendingPathComponent(testCase.seed.name)
        try FileManager.default.createDirectory(at: input.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(testCase.bytes).write(to: input)
        var inputs: [String: Data] = [testCase.seed.name: Data(testCase.bytes)]
        for partner in testCase.seed.partners {
            let url = dir.appendingPathComponent(partner.name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let data = try Data(contentsOf: TestSupport.packageRoot.appendingPathComponent(partner.sample))
            try data.write(to: url)
            inputs[partner.name] = data
        }
        try unrelatedBytes.write(to: dir.appendingPathComponent(unrelatedName))

        let output = testCase.hdf5Output ? "out.h5" : "out"
        let arguments = testCase.seed.arguments.map {
            $0.replacingOccurrences(of: "{input}", with: input.path).replacingOccurrences(of: "{dir}", with: dir.path)
        } + ["-o", dir.appendingPathComponent(output).path + (testCase.hdf5Output ? "" : "/"), "-q"] + testCase.variant
        let outcome = try run(TestSupport.executable(plan.tool), arguments, limit: 120)

        var problems: [String] = []
        if outcome.timedOut { problems.append("did not end within 120 s") }
        if outcome.signaled { problems.append("died of signal \(outcome.status)") }
        if outcome.stderr.contains("Fatal error") || outcome.stderr.contains("Program crashed") {
            problems.append("crashed: \(outcome.stderr.prefix(2000))")
        }
        if !outcome.signaled, ![0, 65, 66].contains(outcome.status) {
            problems.append("exit \(outcome.status), expected 0, 65 or 66: \(outcome.stderr.prefix(500))")
        }
        // Nothing left behind: the inputs, the unrelated file, and the output only after success.
        let found = entries(under: dir)
        let expected = Set(inputs.keys).union(inputs.keys.flatMap(enclosingFolders)).union([unrelatedName])
        let extra = found.subtracting(expected).filter { outcome.status == 0 && !outcome.signaled ? !$0.hasPrefix(output) : true }
        if !extra.isEmpty { problems.append("left behind: \(extra.sorted().joined(separator: ", "))") }
        if outcome.status == 0, !outcome.signaled, !found.contains(where: { $0.hasPrefix(output) }) {
            problems.append("exit 0 without an output")
        }
        if (try? Data(contentsOf: dir.appendingPathComponent(unrelatedName))) != unrelatedBytes {
            problems.append("the unrelated file changed")
        }
        for (name, data) in inputs where (try? Data(contentsOf: dir.appendingPathComponent(name))) != data {
            problems.append("the input \(name) changed")
        }
        // Every error line names the mutated file.
        if outcome.status != 0 {
            let errors = outcome.stderr.split(separator: "\n").filter { $0.hasPrefix("\(plan.tool): error:") }
            if errors.isEmpty { problems.append("exit \(outcome.status) without a '\(plan.tool): error:' line: \(outcome.stderr.prefix(500))") }
            for line in errors where !line.contains(input.path) {
                problems.append("an error line that does not name \(input.path): \(line.prefix(500))")
            }
        }
        if problems.isEmpty { try? FileManager.default.removeItem(at: dir) }
        return (outcome.signaled ? -outcome.status : outcome.status, problems)
    }

    @Test("Mutated SampleData inputs: no signal, no Fatal error, exit 0/65/66, nothing left behind, the file named",
          arguments: plans)
    func mutatedInputs(_ plan: Plan) throws {
        let root = TestSupport.temporaryFolder()
        let started = Date()
        let all = try Self.cases(plan)
        var exits: [Int32: Int] = [:]
        var failures = 0
        for testCase in all {
            let (status, problems) = try Self.check(plan, testCase, in: root)
            for problem in problems { Issue.record("\(plan.tool) \(testCase.label): \(problem)") }
            if !problems.isEmpty { failures += 1 }
            exits[status, default: 0] += 1
        }
        if failures == 0 { try? FileManager.default.removeItem(at: root) }
        let seconds = Date().timeIntervalSince(started)
        let counts = exits.keys.sorted().map { "exit \($0): \(exits[$0]!)" }.joined(separator: ", ")
        print("\(plan.tool): \(all.count) mutated inputs in \(String(format: "%.1f", seconds)) s (\(counts)), \(failures) failed")
        // Mutations that are never refused would not reach the error paths.
        if plan.refusals { #expect(exits[65, default: 0] > 0) }
    }
}
