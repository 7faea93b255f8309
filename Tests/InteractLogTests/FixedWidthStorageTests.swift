import Foundation
import InteractLog
import Tables
import Testing
import TestSupport

/// The per-event tables' string columns of a known longest value are stored as fixed-width HDF5 strings: every
/// value they can hold fits, and a run of logs whose paths grow writes its HDF5 file.
@Suite("ilog-parse: fixed-width HDF5 string columns")
struct FixedWidthStorageTests {
    @Test("The widths hold every event type, coordinate unit and flag combination")
    func widthsHoldEveryValue() {
        let widths = InteractLogTables.fixedWidths(sourceFileWidth: 7)
        #expect(widths["source_file"] == 7)
        #expect(EventKind.EventType.allCases.allSatisfy { $0.rawValue.utf8.count <= widths["type"]! })
        #expect(widths["type"] == "button_released".utf8.count)
        #expect(LogProgram.allCases.allSatisfy { $0.coordinateUnit.utf8.count <= widths["coord_unit"]! })
        let every = EventFlags(rawValue: 0b1_1111).names.joined(separator: ";")
        #expect(every == "id_gap;ts_backwards;outside_pad;duplicate_release;duplicate_on")
        #expect(widths["flags"] == every.utf8.count)
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
        try output.batches.forEach { table in
            for column in table.columns {
                guard case .string(let values) = column.values else { continue }
                let bounded = InteractLogTables.fixedWidthTables.contains(table.name)
                    && ["source_file", "coord_unit", "type", "flags"].contains(column.name)
                #expect((column.fixedWidth != nil) == bounded, "\(table.name).\(column.name)")
                guard let width = column.fixedWidth else { continue }
                for value in values { #expect((value?.utf8.count ?? 0) <= width, "\(table.name).\(column.name): \(value ?? "")") }
                checked += values.count
            }
        }
        #expect(checked > 1000)
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
