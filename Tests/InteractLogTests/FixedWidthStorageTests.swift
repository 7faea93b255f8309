import Foundation
@testable import InteractLog
import Tables
import Testing
import TestSupport

/// The per-event tables' string columns of a known longest value are stored as fixed-width HDF5 strings: every
/// value they can hold fits, and a run of logs whose paths grow writes its HDF5 file.
@Suite("ilog-parse: fixed-width HDF5 string columns")
struct FixedWidthStorageTests {
    @Test("The widths hold every event type, coordinate unit, flag combination and UTC time of the years 1–9999")
    func widthsHoldEveryValue() throws {
        let widths = try #require(InteractLogTables.fixedWidths([])["events"])
        #expect(EventKind.EventType.allCases.allSatisfy { $0.rawValue.utf8.count <= widths["type"]! })
        #expect(widths["type"] == "button_released".utf8.count)
        #expect(LogProgram.allCases.allSatisfy { $0.coordinateUnit.utf8.count <= widths["coord_unit"]! })
        let every = EventFlags(rawValue: 0b1_1111).names.joined(separator: ";")
        #expect(every == "id_gap;ts_backwards;outside_pad;duplicate_release;duplicate_on")
        #expect(widths["flags"] == every.utf8.count)
        #expect(widths["t_utc"] == 24)
        // The ends of the range, and a time just inside each, spelled as the writers spell them.
        let range = CellFormatting.timestampRange
        for seconds in [range.lowerBound, range.lowerBound + 0.0004, range.upperBound, range.upperBound + 0.9994] {
            let text = try #require(CellFormatting.timestamp(seconds))
            #expect(text.utf8.count <= 24, "\(seconds): \(text)")
        }
        // (Foundation spells dates before 1582 in the Julian calendar: the range's first second is 0001-01-03.)
        #expect(CellFormatting.timestamp(range.lowerBound) == "0001-01-03T00:00:00Z")
        #expect(CellFormatting.timestamp(range.upperBound + 0.9994) == "9999-12-31T23:59:58.999Z")
    }

    @Test("SampleData: the per-event tables mark their bounded columns, and every value fits its width")
    func sampleDataFits() throws {
        let inputs = SampleLogs.all.map { path in
            InputSource(path: "SampleData/interactlog/" + path,
                        contents: (try? Data(contentsOf: SampleLogs.root.appendingPathComponent(path))) ?? Data())
        }
        let format = InteractLogFormat()
        let output = format.tables(try inputs.map(format.read))
        var checked = 0
        var fixedEventColumns: Set<String> = []
        try output.batches.forEach { table in
            for column in TestSupport.fixedWidthColumns(table) {
                #expect(InteractLogTables.fixedWidthTables.contains(table.name), "\(table.name).\(column.name)")
                #expect(column.tooLong.isEmpty, "\(table.name).\(column.name): \(column.tooLong.prefix(3))")
                if table.name == "events" { fixedEventColumns.insert(column.name) }
                checked += column.values
            }
        }
        #expect(fixedEventColumns == ["source_file", "coord_unit", "type", "flags", "event", "phase", "image",
                                      "key_descr", "ts_raw", "t_utc"])
        #expect(checked > 1000)
    }

    @Test("A column whose longest value is over 64 bytes stays variable-length")
    func longValuesStayVariable() throws {
        let name = String(repeating: "LongEventName", count: 6)   // 78 bytes: an `other` event
        let log = """
            Name                 :P01
            Experiment Start     :04/07/2023 - 10:15:02
            Stimulus Files       :S1.png,S2.png
            Familiarisation File :P1.png
            Drawing Pad Size     :1260,600
            Trial Number         :1
            Trial Start          :04/07/2023 - 10:15:09
            Trial End            :04/07/2023 - 10:16:58

            1;58227413905518;10;20;ButtonDown
            2;58227513905518;10;20;\(name)
            3;58227613905518;10;20;ButtonReleased

            """
        let format = InteractLogFormat()
        let parsed = try format.read(InputSource(path: "P01 (Trial 1) 2023-07-04 - 10-15-02.txt", contents: Data(log.utf8)))
        let widths = try #require(InteractLogTables.fixedWidths(InteractLogFormat.crossChecked([parsed]))["events"])
        #expect(widths["event"] == nil && widths["type"] != nil && widths["ts_raw"] == 21)
    }

    @Test("Logs whose paths grow (a short one first) write one HDF5 file with every path whole")
    func growingPaths() throws {
        let folder = TestSupport.temporaryFolder()
        let log = try Data(contentsOf: SampleLogs.root.appendingPathComponent(SampleLogs.java22Trial1))
        let short = folder.appendingPathComponent("P01 (Trial 1) 2023-07-04 - 10-15-02.txt")
        let deep = folder.appendingPathComponent(String(repeating: "a-much-longer-folder-name/", count: 4))
        try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
        let long = deep.appendingPathComponent("P02 (Trial 1) 2023-07-04 - 10-15-02.txt")
        try log.write(to: short)
        try log.write(to: long)
        let out = folder.appendingPathComponent("out.h5").path
        let run = try TestSupport.run(TestSupport.executable("ilog-parse"), [short.path, long.path, "-o", out, "-q"])
        #expect(run.status == 0, "\(run.stderr)")
        let files = try TestSupport.python("""
            import sys; sys.path.insert(0, sys.argv[2])
            import brainbatch_tables as bt
            for name in ["events", "strokes"]:
                print(name, sorted(set(bt.read_table(sys.argv[1], name)["source_file"])))
            """, [out, TestSupport.packageRoot.appendingPathComponent("python").path])
        #expect(files == "events ['\(short.path)', '\(long.path)']\nstrokes ['\(short.path)', '\(long.path)']\n")
    }
}
