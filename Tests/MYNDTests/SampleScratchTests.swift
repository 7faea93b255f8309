import Foundation
import Tables
import Testing
import TestSupport
@testable import MYND

@Suite("The samples table from the scratch file (MYND)")
struct SampleScratchTests {
    let path = TestSupport.packageRoot
        .appendingPathComponent("SampleData/mynd/r_rest_1_2_1_3F2504E0-4F89-41D3-9A0C-0305E82C3301.hdf").path

    /// Three recordings of the sample, the third with two channels only (one of a name the others lack), so that
    /// the table has NA columns and batches cross recordings.
    func analyses() throws -> [RecordingAnalysis] {
        let recording = try RecordingReader.inProcess.read(path)
        var other = recording
        other.sourceFile = "other/" + recording.sourceFile
        var narrow = recording
        narrow.sourceFile = "narrow.hdf"
        narrow.channels = [recording.channels[3], recording.channels[1].map { -$0 }]
        narrow.channelNames = [recording.channelNames[3], "Weird"]
        return [recording, other, narrow].map { RecordingAnalysis($0, options: RecordingAnalysisOptions()) }
    }

    /// The columns' values bit for bit (NaN, the missing value, equal to itself).
    func bits(_ table: Table) -> [[UInt64]] {
        table.columns.map { column in
            switch column.values {
            case .float64(let v): v.map(\.bitPattern)
            case .int64(let v): v.map { UInt64(bitPattern: $0) }
            case .string(let v): v.map { UInt64(truncatingIfNeeded: ($0 ?? "NA").hashValue) }
            default: []
            }
        }
    }

    @Test("Samples moved to the scratch file come back bit for bit, in batches of any size")
    func roundTrip() throws {
        let inMemory = try analyses()
        let whole = try RecordingTables.samples(inMemory)
        #expect(whole.rowCount == inMemory.map(\.sampleFrames).reduce(0, +))
        #expect(whole.columnNames == ["source_file", "subject_id", "sample", "t_s", "tp9_uv", "af7_uv", "af8_uv", "tp10_uv", "weird_uv"])
        let scratch = SampleScratch()
        var moved = inMemory
        for index in moved.indices { try moved[index].moveSamples(to: scratch) }
        #expect(moved.allSatisfy { $0.recording.channels.isEmpty })
        #expect(moved.map(\.sampleFrames) == inMemory.map(\.sampleFrames))
        for rows in [RecordingTables.sampleBatchRows, 10_240, 1000, 7] {
            var batches: [Table] = []
            try RecordingTables.sampleBatches(moved, rowsPerBatch: rows) { batches.append($0) }
            #expect(batches.dropLast().allSatisfy { $0.rowCount == rows })
            let joined = try #require(Table.concatenating(batches))
            #expect(joined.columnNames == whole.columnNames)
            #expect(joined.columns.map(\.fixedWidth) == whole.columns.map(\.fixedWidth))
            #expect(bits(joined) == bits(whole), "batches of \(rows) rows")
        }
    }

    @Test("A recording without samples (dropped) adds no rows; a run without any makes one empty batch")
    func empty() throws {
        var all = try analyses()
        all[1].dropSamples()
        #expect(try RecordingTables.samples(all).rowCount == all[0].sampleFrames + all[2].sampleFrames)
        var batches: [Table] = []
        try RecordingTables.sampleBatches([]) { batches.append($0) }
        #expect(batches.count == 1 && batches[0].rowCount == 0)
        #expect(batches[0].columnNames == ["source_file", "subject_id", "sample", "t_s"])
    }

    @Test("The scratch file has no name, so nothing is left behind however the run ends")
    func anonymous() throws {
        let scratch = SampleScratch()
        var analysis = try analyses()[0]
        try analysis.moveSamples(to: scratch)
        let target = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(scratch.fileDescriptor)")
        #expect(target.hasSuffix(" (deleted)"), "\(target)")
    }

    @Test("A scratch file that cannot be read back ends the run with a ScratchError (exit 74), not a crash")
    func unreadable() throws {
        let scratch = SampleScratch()
        var moved = try analyses()
        for index in moved.indices { try moved[index].moveSamples(to: scratch) }
        // The file breaks under the run: its descriptor now stands for /dev/null opened write-only, so every read
        // fails (EBADF). (Replaced, not closed: the number stays the scratch's, and no other file's.)
        let writeOnly = open("/dev/null", O_WRONLY)
        try #require(writeOnly >= 0 && dup2(writeOnly, scratch.fileDescriptor) == scratch.fileDescriptor)
        close(writeOnly)
        let error = try #require(throws: ScratchError.self) {
            try RecordingTables.sampleBatches(moved) { _ in }
        }
        #expect(error.description.contains("cannot be read back: Bad file descriptor"), "\(error)")
        #expect(error.exitCode == .ioError)
    }

    @Test("The run's batches: samples in batches after quality_summary; a walk that does not want them gets none")
    func studyBatches() throws {
        var study = MYNDStudy()
        for analysis in try analyses() { study.add(.recording(analysis)) }
        let output = study.output(definitions: nil, dateOrder: nil).batches
        var names: [String] = []
        var rows = 0
        try output.forEach { table in
            names.append(table.name)
            if table.name == "samples" { rows += table.rowCount }
        }
        #expect(names.filter { $0 != "samples" } == MYNDStudy.tableNames.filter { $0 != "samples" })
        #expect(names.firstIndex(of: "samples") == names.firstIndex(of: "quality_summary").map { $0 + 1 })
        #expect(rows == study.recordings.map(\.sampleFrames).reduce(0, +))
        var wanted: [String] = []
        try output.forEach(where: { $0 != "samples" }) { wanted.append($0.name) }
        #expect(wanted == MYNDStudy.tableNames.filter { $0 != "samples" })
    }

    @Test("A scratch folder that cannot be written: one line naming the file, exit 74, nothing written, even with --keep-going")
    func scratchFails() throws {
        let out = TestSupport.temporaryFolder().appendingPathComponent("x.h5").path
        let result = try TestSupport.run("/usr/bin/env", ["TMPDIR=/nonexistent/scratch", TestSupport.executable("mynd-parse"),
                                                          path, "-o", out, "--keep-going"])
        #expect(result.status == 74)
        #expect(result.stderr == "mynd-parse: error: \(path): cannot keep the samples until the tables are written: a scratch file in /nonexistent/scratch failed (No such file or directory); set TMPDIR to a folder with space\n")
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
