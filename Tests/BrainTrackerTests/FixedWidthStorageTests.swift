import BrainTracker
import Foundation
import Tables
import Testing
import TestSupport

/// The `trials` table's string columns of a known longest value are stored as fixed-width HDF5 strings: every
/// value fits, in a run of a results file and an R export together.
@Suite("rt-stats: fixed-width HDF5 string columns")
struct FixedWidthStorageTests {
    @Test("SampleData (results file and R export in one run): the bounded columns are marked and every value fits")
    func sampleDataFits() throws {
        let root = TestSupport.packageRoot.appendingPathComponent("SampleData/braintracker")
        let format = BrainTrackerFormat()
        let parsed = try ["BrainTrackerResultsFile.csv", "brain_data_raw.csv"].map { name in
            try format.read(InputSource(path: "SampleData/braintracker/" + name,
                                        contents: try Data(contentsOf: root.appendingPathComponent(name))))
        }
        var fixed: Set<String> = []
        var checked = 0
        try format.tables(parsed).batches.forEach { table in
            for column in TestSupport.fixedWidthColumns(table) {
                #expect(table.name == "trials", "\(table.name).\(column.name)")
                #expect(column.tooLong.isEmpty, "\(column.name): \(column.tooLong.prefix(3))")
                fixed.insert(column.name)
                checked += column.values
            }
        }
        #expect(fixed == ["source_file", "row_format", "pct_rule", "session_id", "target", "exclusion", "time_utc"])
        #expect(checked > 1000)
    }

    @Test("The widths hold every row format and score rule name")
    func enumeratedNames() {
        let widths = BrainTrackerTables.trialWidths([])
        #expect(RowFormat.allCases.allSatisfy { $0.rawValue.utf8.count <= widths["row_format"]! })
        #expect(ScoreRule.allCases.allSatisfy { $0.rawValue.utf8.count <= widths["pct_rule"]! })
        #expect(widths["time_utc"] == CellFormatting.longestTimestampInRange)
    }
}
