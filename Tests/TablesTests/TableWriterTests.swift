import Foundation
import Testing
import Tables
import TableWriters
import TestSupport

/// A table with every kind of column and a missing value in each.
func everyKindTable() -> Table {
    Table("kinds", [
        .string("source_file", ["a.bin", "b,\"quoted\".bin", "ünï\ncode", nil]),
        .int32("count", [1, -2147483647, 2147483647, nil], unit: "1"),
        .int64("big", [5_000_000_000, -1, 0, nil]),
        .float("t_s", [0.1, 1e-300, -2.5, nil], unit: "s"),
        Column("t3_uv", unit: "µV", .float32([1.5, -0.25, 3, .nan])),
        .bool("clear", [true, false, true, nil]),
        .timestamp("start", [1_418_424_723, 1_418_424_723.25, 0, nil]),
        .localTimestamp("start_local", [1_418_424_723, nil, 86_400.5, 0]),
    ])
}

func provenanceForTests() -> Provenance {
    Provenance(tool: "rt-stats", version: "0", commandLine: "test -o x", inputs: [
        InputRecord(path: "a.bin", contents: Data("abc".utf8)),
    ], parametersJSON: Provenance.encodeParameters(["window_s": 10]))
}

func writeEveryKind(to path: String, format: OutputDestination.Format? = nil, table: String? = nil) throws {
    let output = try TableOutput(destination: OutputDestination.resolve(path: path, format: format, table: table,
                                                                        tableNames: ["kinds", "empty"]),
                                 tableNames: ["kinds", "empty"])
    let table = everyKindTable()
    // Two batches: the writers must append.
    try output.write(Table("kinds", table.columns.map { column in
        var first = column
        first.values = column.values.emptyOfSameKind
        return first
    }))
    try output.write(table)
    try output.write(Table("empty", [.int32("n", [])]))
    try output.commit(provenance: provenanceForTests())
}

@Suite("Table output")
struct TableWriterTests {
    @Test("SHA-256 of the provenance is the standard digest")
    func sha256() {
        #expect(InputRecord(path: "x", contents: Data("abc".utf8)).sha256
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("CSV cells: shortest floats, NA, ISO 8601 times, RFC 4180 quoting")
    func csvText() throws {
        let folder = TestSupport.temporaryFolder()
        try writeEveryKind(to: folder.appendingPathComponent("out").path)
        let text = try String(contentsOf: folder.appendingPathComponent("out/kinds.csv"), encoding: .utf8)
        let expected = """
        source_file,count,big,t_s,t3_uv,clear,start,start_local
        a.bin,1,5000000000,0.1,1.5,TRUE,2014-12-12T22:52:03Z,2014-12-12T22:52:03
        "b,""quoted"".bin",-2147483647,-1,1e-300,-0.25,FALSE,2014-12-12T22:52:03.250Z,NA
        "ünï
        code",2147483647,0,-2.5,3.0,TRUE,1970-01-01T00:00:00Z,1970-01-02T00:00:00.500
        NA,NA,NA,NA,NA,NA,NA,1970-01-01T00:00:00

        """
        #expect(text == expected)
        let provenance = try Data(contentsOf: folder.appendingPathComponent("out/provenance.json"))
        let object = try JSONSerialization.jsonObject(with: provenance) as? [String: Any]
        #expect(object?["tool"] as? String == "rt-stats")
        #expect((object?["parameters"] as? [String: Any])?["window_s"] as? Int == 10)
        #expect(try String(contentsOf: folder.appendingPathComponent("out/empty.csv"), encoding: .utf8) == "n\n")
    }

    @Test("CSV of a table over several blocks and flushes: the same lines as spelling each row on its own")
    func csvBlocks() throws {
        let rows = 20_000   // two and a half blocks of 8,192 rows, about 1.6 flushes of 1 MiB
        let texts = ["plain", "with,comma", "with \"quote\"", "NA", "line\nend", "ünïcödé", String(repeating: "x", count: 70)]
        let table = Table("t", [
            .int32("i", (0..<rows).map { $0 % 97 == 0 ? nil : $0 - 5000 }),
            Column("x", .float64((0..<rows).map { $0 % 89 == 0 ? .nan : Double($0) / 7 })),
            .string("s", (0..<rows).map { $0 % 83 == 0 ? nil : texts[$0 % texts.count] }),
            Column("b", .bool((0..<rows).map { Int8($0 % 3) - 1 })),
        ])
        let folder = TestSupport.temporaryFolder()
        let output = try TableOutput(destination: .csvFolder(path: folder.appendingPathComponent("out").path),
                                     tableNames: ["t"])
        try output.write(table)
        try output.commit(provenance: provenanceForTests())
        // The reference: each row spelled by itself with the conventions' cell spellings.
        func field(_ text: String?) -> String {
            guard let text else { return "NA" }
            let quoted = text == "NA" || text.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }
            return quoted ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
        }
        var expected = "i,x,s,b\n"
        for row in 0..<rows {
            let i = row % 97 == 0 ? "NA" : String(row - 5000)
            let x = CellFormatting.float(row % 89 == 0 ? .nan : Double(row) / 7) ?? "NA"
            let b = ["FALSE", "NA", "TRUE"][row % 3 == 0 ? 1 : row % 3 == 1 ? 0 : 2]
            expected += [i, x, field(row % 83 == 0 ? nil : texts[row % texts.count]), b].joined(separator: ",") + "\n"
        }
        let written = try String(contentsOf: folder.appendingPathComponent("out/t.csv"), encoding: .utf8)
        #expect(written == expected)
    }

    @Test("HDF5 and CSV read back with h5py and pandas: values, units, missing values")
    func readBack() throws {
        let folder = TestSupport.temporaryFolder()
        let h5 = folder.appendingPathComponent("out.h5").path
        let csv = folder.appendingPathComponent("csv").path
        try writeEveryKind(to: h5)
        try writeEveryKind(to: csv)
        let script = """
        import sys, json, math, h5py, numpy as np, pandas as pd
        h5, csv = sys.argv[1], sys.argv[2]
        f = h5py.File(h5, "r")
        g = f["kinds"]
        df = pd.DataFrame({k: g[k][()] for k in g})
        out = {}
        out["columns"] = [c.decode() if isinstance(c, bytes) else c for c in g.attrs["columns"]]
        out["n_rows"] = int(g.attrs["n_rows"])
        out["units"] = {k: g[k].attrs["unit"] for k in g}
        out["dtypes"] = {k: str(g[k].dtype) for k in g}
        out["count"] = [int(x) for x in g["count"][()]]
        out["count_missing"] = int(g["count"].attrs["missing_value"])
        out["big"] = [None if math.isnan(x) else int(x) for x in g["big"][()]]
        out["kinds"] = {k: g[k].attrs["kind"] for k in g}
        out["t_s"] = [None if math.isnan(x) else x for x in g["t_s"][()]]
        out["clear"] = [int(x) for x in g["clear"][()]]
        out["logical"] = g["clear"].attrs["storage.mode"]
        out["as_na"] = sorted(k for k in g if "as.na" in g[k].attrs)
        out["source_file"] = [x.decode() for x in g["source_file"][()]]
        out["start"] = [x.decode() for x in g["start"][()]]
        out["tool"] = f.attrs["tool"]
        out["params"] = json.loads(f.attrs["parameters"])
        out["sha"] = [x for x in f.attrs["input_sha256"]]
        out["empty_rows"] = int(f["empty"].attrs["n_rows"])
        c = pd.read_csv(csv + "/kinds.csv")
        out["csv_dtypes"] = {k: str(v) for k, v in c.dtypes.items()}
        out["csv_missing"] = [int(c[k].isna().sum()) for k in c.columns]
        out["csv_t_s"] = [None if math.isnan(x) else x for x in c["t_s"]]
        out["csv_source"] = [None if isinstance(x, float) else x for x in c["source_file"]]
        print(json.dumps(out))
        """
        let json = try TestSupport.python(script, [h5, csv])
        let result = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(result["columns"] as? [String] == everyKindTable().columnNames)
        #expect(result["n_rows"] as? Int == 4)
        let units = result["units"] as? [String: String]
        #expect(units?["t_s"] == "s")
        #expect(units?["t3_uv"] == "µV")
        let dtypes = result["dtypes"] as? [String: String]
        #expect(dtypes?["count"] == "int32")
        #expect(dtypes?["big"] == "float64")  // R has no 64-bit integers
        #expect(result["kinds"] as? [String: String] == [
            "source_file": "string", "count": "int32", "big": "int64", "t_s": "float64", "t3_uv": "float32",
            "clear": "bool", "start": "timestamp", "start_local": "timestamp_local"])
        #expect(result["as_na"] as? [String] == ["source_file", "start", "start_local"])
        #expect(dtypes?["t3_uv"] == "float32")
        #expect(dtypes?["clear"] == "int8")
        #expect(result["count"] as? [Int] == [1, -2147483647, 2147483647, Int(Int32.min)])
        #expect(result["count_missing"] as? Int == Int(Int32.min))
        let big = result["big"] as? [Any]
        #expect(big?.prefix(3).compactMap { $0 as? Int } == [5_000_000_000, -1, 0])
        #expect(big?.last is NSNull)
        let times = result["t_s"] as? [Any]
        #expect(times?.count == 4)
        #expect(times?[1] as? Double == 1e-300)
        #expect(times?[3] is NSNull)
        #expect(result["clear"] as? [Int] == [1, 0, 1, -128])
        #expect(result["logical"] as? String == "logical")
        #expect(result["source_file"] as? [String] == ["a.bin", "b,\"quoted\".bin", "ünï\ncode", "NA"])
        #expect(result["start"] as? [String] == ["2014-12-12T22:52:03Z", "2014-12-12T22:52:03.250Z",
                                                 "1970-01-01T00:00:00Z", "NA"])
        #expect(result["tool"] as? String == "rt-stats")
        #expect((result["params"] as? [String: Int])?["window_s"] == 10)
        #expect(result["empty_rows"] as? Int == 0)
        let csvTypes = result["csv_dtypes"] as? [String: String]
        #expect(csvTypes?["count"] == "float64")  // NA makes pandas use float for an int column
        #expect(csvTypes?["t_s"] == "float64")
        #expect(csvTypes?["clear"] == "object" || csvTypes?["clear"] == "bool")
        #expect(result["csv_missing"] as? [Int] == [1, 1, 1, 1, 1, 1, 1, 1])
        #expect((result["csv_t_s"] as? [Any])?[0] as? Double == 0.1)
        #expect((result["csv_source"] as? [Any])?[2] as? String == "ünï\ncode")
    }

    @Test("A second run gives byte-identical HDF5 and CSV files")
    func deterministic() throws {
        let folder = TestSupport.temporaryFolder()
        let first = folder.appendingPathComponent("a.h5").path
        let second = folder.appendingPathComponent("b.h5").path
        try writeEveryKind(to: first)
        Thread.sleep(forTimeInterval: 1.1)
        try writeEveryKind(to: second)
        #expect(try Data(contentsOf: URL(fileURLWithPath: first)) == Data(contentsOf: URL(fileURLWithPath: second)))
        try writeEveryKind(to: folder.appendingPathComponent("c").path)
        try writeEveryKind(to: folder.appendingPathComponent("d").path)
        for name in ["kinds.csv", "provenance.json"] {
            #expect(try Data(contentsOf: folder.appendingPathComponent("c/\(name)"))
                    == Data(contentsOf: folder.appendingPathComponent("d/\(name)")))
        }
    }

    @Test("An uncommitted output leaves nothing and keeps the earlier output")
    func atomic() throws {
        let folder = TestSupport.temporaryFolder()
        let path = folder.appendingPathComponent("out.h5").path
        try writeEveryKind(to: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            let output = try TableOutput(destination: .hdf5(path: path), tableNames: ["kinds"])
            try output.write(everyKindTable())
            // dropped without commit, as when a run fails midway
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(leftovers == ["out.h5"])
    }

    @Test("A whole file is replaced atomically; one that cannot be made names the file and the system's reason")
    func atomicFile() throws {
        let folder = TestSupport.temporaryFolder()
        let path = folder.appendingPathComponent("notes.txt").path
        try AtomicFile.write(Data("one\n".utf8), to: path)
        try AtomicFile.write(Data("two\n".utf8), to: path)
        #expect(FileManager.default.contents(atPath: path) == Data("two\n".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["notes.txt"])
        let missing = folder.appendingPathComponent("missing/notes.txt").path
        #expect(throws: TableOutputError.cannotCreate(path: missing, reason: "No such file or directory")) {
            try AtomicFile.write(Data("x".utf8), to: missing)
        }
    }

    @Test("A single .csv needs --table when the tool makes several tables")
    func singleCSV() throws {
        let folder = TestSupport.temporaryFolder()
        let path = folder.appendingPathComponent("k.csv").path
        #expect(throws: TableOutputError.tableNameNeeded(path: path, available: ["kinds", "empty"])) {
            try writeEveryKind(to: path)
        }
        #expect(throws: TableOutputError.unknownTable("nope", available: ["kinds", "empty"])) {
            try writeEveryKind(to: path, table: "nope")
        }
        try writeEveryKind(to: path, table: "kinds")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("source_file,count,"))
        #expect(FileManager.default.fileExists(atPath: path + ".provenance.json"))
    }

    @Test("The destination comes from -o without guessing; --format and --table must agree with it")
    func destination() throws {
        let names = ["kinds", "empty"]
        func resolve(_ path: String, _ format: OutputDestination.Format? = nil,
                     _ table: String? = nil) throws(TableOutputError) -> OutputDestination {
            try OutputDestination.resolve(path: path, format: format, table: table, tableNames: names)
        }
        let folder = TestSupport.temporaryFolder().path
        #expect(try resolve("x.h5") == .hdf5(path: "x.h5"))
        #expect(try resolve("x.HDF5") == .hdf5(path: "x.HDF5"))
        #expect(try resolve("x.hdf") == .hdf5(path: "x.hdf"))
        #expect(try resolve("x.h5", .hdf5) == .hdf5(path: "x.h5"))
        #expect(try resolve("x.csv", nil, "kinds") == .csvFile(path: "x.csv", table: "kinds"))
        #expect(try resolve("out") == .csvFolder(path: "out"))
        #expect(try resolve("out.d/") == .csvFolder(path: "out.d/"))
        #expect(try resolve("out", .csv) == .csvFolder(path: "out"))
        // An existing folder is a folder whatever its name.
        try FileManager.default.createDirectory(atPath: folder + "/tables.v2", withIntermediateDirectories: false)
        #expect(try resolve(folder + "/tables.v2") == .csvFolder(path: folder + "/tables.v2"))
        // Usage errors, each saying what to write instead.
        for (path, format, table) in [("out", OutputDestination.Format.hdf5, nil), ("x.h5", .csv, nil),
                                      ("x.h5", nil, "kinds"), ("x.csv", .hdf5, "kinds"), ("notes.txt", nil, nil),
                                      ("out/", nil, "kinds"), ("", nil, nil)] as [(String, OutputDestination.Format?, String?)] {
            #expect(throws: TableOutputError.self) { try resolve(path, format, table) }
        }
        _ = FileManager.default.createFile(atPath: folder + "/notes", contents: Data("mine".utf8))
        do {
            _ = try resolve(folder + "/notes")
            Issue.record("an existing file without an extension was taken as an output")
        } catch {
            guard case .usage(let message) = error else { Issue.record("\(error)"); return }
            #expect(message.contains("-o NAME.h5"))
        }
    }
}

@Suite("Fixed-width string columns")
struct FixedWidthStringTests {
    @Test("A fixed-width string column reads back in h5py; a longer value later is a clear error")
    func fixedWidth() throws {
        let folder = TestSupport.temporaryFolder()
        let path = folder.appendingPathComponent("f.h5").path
        let output = try TableOutput(destination: .hdf5(path: path), tableNames: ["samples"])
        try output.write(Table("samples", [Column("source_file", fixedWidth: 9, .string(["a.bin", "a.bin"]))]))
        try output.write(Table("samples", [Column("source_file", fixedWidth: 9, .string(["bb/ü.bin", nil]))]))
        #expect(throws: TableOutputError.self) {
            try output.write(Table("samples", [Column("source_file", fixedWidth: 9, .string(["much/longer.bin"]))]))
        }
        try output.commit(provenance: provenanceForTests())
        let out = try TestSupport.python("""
        import sys, h5py
        d = h5py.File(sys.argv[1])["samples"]["source_file"]
        print(d.dtype, [x.decode() for x in d[()]])
        """, [path])
        #expect(out.trimmingCharacters(in: .whitespacesAndNewlines) == "|S9 ['a.bin', 'a.bin', 'bb/ü.bin', 'NA']")
    }
}

@Suite("N-dimensional arrays")
struct ArrayDatasetTests {
    @Test("An array is written under /arrays/ with its dimension names; CSV skips it; bad shapes are refused")
    func array() throws {
        #expect(ArrayDataset(path: "x", dimensions: [2, 2], dimensionNames: ["a", "b"], values: .uint8([1, 2, 3])) == nil)
        let folder = TestSupport.temporaryFolder()
        let path = folder.appendingPathComponent("a.h5").path
        let output = try TableOutput(destination: .hdf5(path: path), tableNames: ["t"])
        try output.write(Table("t", [.int32("n", [1])]))
        let array = try #require(ArrayDataset(path: "sub/m", dimensions: [3, 2], dimensionNames: ["time", "channel"],
                                              unit: "µV", values: .float32([1, 2, 3, 4, 5, 6])))
        try output.writeArray(array)
        try output.commit(provenance: provenanceForTests())
        let out = try TestSupport.python("""
        import sys, h5py
        d = h5py.File(sys.argv[1])["arrays/sub/m"]
        print(d.shape, d.dtype, list(d.attrs["dimension_names"]), d.attrs["unit"], d[()].tolist())
        """, [path])
        #expect(out.trimmingCharacters(in: .whitespacesAndNewlines)
                == "(3, 2) float32 ['time', 'channel'] µV [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]")
        let csv = try TableOutput(destination: .csvFolder(path: folder.appendingPathComponent("c").path), tableNames: ["t"])
        try csv.write(Table("t", [.int32("n", [1])]))
        try csv.writeArray(array)
        try csv.commit(provenance: provenanceForTests())
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("c").path).sorted()
                == ["datapackage.json", "provenance.json", "t.csv"])
    }
}
