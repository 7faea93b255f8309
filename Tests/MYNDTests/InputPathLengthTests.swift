import Foundation
import Testing
import TestSupport

/// The attack of issue 19 found recordings whose outcome depended on the length of the input's path: a crash, or
/// exit 0 with every `/Recording` attribute silently NA. A recording is now read in a child process whose attribute
/// reads throw on any libhdf5 error; these tests hold the outcome to the file's content alone.
@Suite("Input path length (MYND recordings)")
struct InputPathLengthTests {
    let tool = TestSupport.executable("mynd-parse")

    /// A copy of `source` named `name`, in nested folders under a new temporary folder, so that its path is
    /// `length` characters long, or one more (at least the folder's own path; every component stays under
    /// NAME_MAX). The checks report the length reached.
    /// `mkdir` and `cp` make them: Foundation's `FileManager` cannot (its `copyItem` returns without an error and
    /// without a file when the path is 2,048 characters long).
    static func copy(_ source: String, named name: String, pathLength length: Int) throws -> String {
        var folder = TestSupport.temporaryFolder().path
        while folder.count + 1 + name.count < length {
            let room = length - folder.count - 1 - name.count - 1
            let component = String(repeating: "p", count: max(1, min(200, room)))
            folder += "/" + component
        }
        let path = folder + "/" + name
        #expect(try TestSupport.run("/bin/mkdir", ["-p", folder]).status == 0)
        #expect(try TestSupport.run("/bin/cp", [source, path]).status == 0)
        #expect(try TestSupport.run("/bin/cmp", [source, path]).status == 0, "no copy at \(path.count) characters")
        return path
    }

    /// Path lengths from a short one to near PATH_MAX (4096), around the powers of two where an allocator's
    /// size classes change.
    static let lengths = [0, 127, 128, 255, 256, 257, 511, 1023, 2048, 4000]

    /// The CSV tables of one run, each with the input's path replaced by `<input>`.
    func tables(of input: String) throws -> (status: Int32, stderr: String, tables: [String: String]) {
        let out = TestSupport.temporaryFolder().appendingPathComponent("out")
        let result = try TestSupport.run(tool, [input, "-o", out.path + "/", "-q"])
        var tables: [String: String] = [:]
        if result.status == 0 {
            for (name, data) in try TestSupport.files(under: out) where name.hasSuffix(".csv") {
                tables[name] = String(decoding: data, as: UTF8.self).replacingOccurrences(of: input, with: "<input>")
            }
        }
        return (result.status, result.stderr.replacingOccurrences(of: input, with: "<input>"), tables)
    }

    func checkSameOutcome(of source: String, named name: String) throws -> (status: Int32, stderr: String, tables: [String: String]) {
        let reference = try tables(of: try Self.copy(source, named: name, pathLength: 0))
        for length in Self.lengths.dropFirst() {
            let path = try Self.copy(source, named: name, pathLength: length)
            let outcome = try tables(of: path)
            #expect(outcome.status == reference.status, "path of \(path.count) characters: \(outcome.stderr)")
            #expect(outcome.stderr == reference.stderr, "path of \(path.count) characters")
            #expect(outcome.tables.keys.sorted() == reference.tables.keys.sorted(), "path of \(path.count) characters")
            for (table, text) in reference.tables where outcome.tables[table] != text {
                Issue.record("path of \(path.count) characters: \(table) differs from the short path's")
            }
        }
        return reference
    }

    /// The `/Recording` attribute columns of `recordings.csv`'s one row: none may be NA for an intact file.
    static func attributeValues(_ recordings: String) throws -> [String: String] {
        let lines = recordings.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        let header = lines[0].split(separator: ",").map(String.init)
        // Quoted fields hold commas: read the row with the same rules through Python's csv module.
        let row = try TestSupport.python("""
        import csv, sys, json
        print(json.dumps(next(csv.DictReader(open(sys.argv[1])))))
        """, [try Self.write(recordings)])
        let values = try JSONSerialization.jsonObject(with: Data(row.utf8)) as? [String: String] ?? [:]
        #expect(values.keys.sorted() == header.sorted())
        return values
    }

    static func write(_ text: String) throws -> String {
        let url = TestSupport.temporaryFolder().appendingPathComponent("recordings.csv")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    @Test("SampleData's recording gives the same tables, with every attribute read, at input paths of 20 to 4,000 characters")
    func sampleRecording() throws {
        let name = "r_rest_1_2_1_3F2504E0-4F89-41D3-9A0C-0305E82C3301.hdf"
        let source = TestSupport.packageRoot.appendingPathComponent("SampleData/mynd/\(name)").path
        let reference = try checkSameOutcome(of: source, named: name)
        #expect(reference.status == 0, "\(reference.stderr)")
        let values = try Self.attributeValues(try #require(reference.tables["recordings.csv"]))
        for column in ["sampling_rate_hz", "version", "device", "channel_names", "recording_start_raw", "recording_time_s"] {
            #expect(values[column] != nil && values[column] != "NA", "\(column) = \(values[column] ?? "absent")")
        }
    }

    @Test("The real recording gives the same tables, with every attribute read, at input paths of 20 to 4,000 characters",
          .enabled(if: MYNDTestFiles.present, "../shared/realdata/mynd is absent"))
    func realRecording() throws {
        let source = try #require(MYNDTestFiles.recording).path
        let reference = try checkSameOutcome(of: source, named: MYNDTestFiles.recordingName)
        #expect(reference.status == 0, "\(reference.stderr)")
        let values = try Self.attributeValues(try #require(reference.tables["recordings.csv"]))
        #expect(values["sampling_rate_hz"] == "256.0")
        #expect(values["device"] == "muse")
        #expect(values["channel_names"] == "Left Ear;Left Front;Right Front;Right Ear")
        #expect(values["recording_start_raw"] == "05/02/2020, 5:42:09 PM GMT+02:00")
    }

    @Test("A recording on which libhdf5 crashes fails the same way, naming the file, at every path length")
    func crashingRecording() throws {
        let name = "r_rest_1_2_1_3F2504E0-4F89-41D3-9A0C-0305E82C3301.hdf"
        let corrupt = try RobustnessTests.heapCorruptedRecording(in: TestSupport.temporaryFolder(), name: name)
        let reference = try checkSameOutcome(of: corrupt, named: name)
        #expect(reference.status == 65)
        #expect(reference.stderr.hasPrefix("mynd-parse: error: <input>: the reader of this HDF5 file died of signal"),
                "\(reference.stderr)")
    }
}
