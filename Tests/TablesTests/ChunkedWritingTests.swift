import Foundation
import HDF5
import Tables
import TableWriters
import Testing
import TestSupport

/// Batches of awkward sizes against whole-chunk appending, with and without compression, directly and on the
/// background writer.
@Suite("Chunked and background writing")
struct ChunkedWritingTests {
    /// Rows `start..<start+count` of a table with a column of each stored kind.
    static func batch(_ start: Int, _ count: Int) -> Table {
        let rows = start..<(start + count)
        return Table("t", [
            Column("file", fixedWidth: 4, .string(rows.map { $0 % 1000 == 999 ? nil : "f\($0 / 5000)" })),
            .int32("i", rows.map { $0 }),
            Column("x", unit: "s", .float64(rows.map { Double($0) * 0.25 })),
            Column("b", .bool(rows.map { Int8($0 % 3 == 0 ? 1 : 0) })),
            .string("label", rows.map { "r\($0 % 7)" }),
        ])
    }

    /// First batch 1 row (so 4,096-row chunks), then sizes that straddle, fill and overshoot chunk boundaries.
    static let sizes = [1, 4095, 4096, 10_000, 3, 70_000, 1]

    func write(_ path: String, compression: Int, inBackground: Bool) throws {
        let output = try TableOutput(destination: .hdf5(path: path), tableNames: ["t"], compression: compression,
                                     inBackground: inBackground)
        var start = 0
        for size in ChunkedWritingTests.sizes {
            try output.write(ChunkedWritingTests.batch(start, size))
            start += size
        }
        try output.commit(provenance: provenanceForTests())
    }

    @Test("Every row reads back in h5py, in order, whatever the batch sizes, compression and writer thread",
          arguments: [(0, false), (1, false), (0, true), (4, true)])
    func readBack(compression: Int, inBackground: Bool) throws {
        let path = TestSupport.temporaryFolder().appendingPathComponent("t.h5").path
        try write(path, compression: compression, inBackground: inBackground)
        let total = ChunkedWritingTests.sizes.reduce(0, +)
        let out = try TestSupport.python("""
        import sys, h5py, numpy as np
        g = h5py.File(sys.argv[1])["t"]
        n = int(sys.argv[2]); r = np.arange(n)
        files = np.array([b"NA" if k % 1000 == 999 else ("f%d" % (k // 5000)).encode() for k in r])
        ok = [bool(g.attrs["n_rows"] == n),
              np.array_equal(g["i"][()], r),
              np.array_equal(g["x"][()], r * 0.25),
              np.array_equal(g["b"][()], (r % 3 == 0).astype(np.int8)),
              np.array_equal(g["file"][()], files),
              [s.decode() for s in g["label"][()]] == ["r%d" % (k % 7) for k in r],
              g["i"].chunks == (4096,),
              (g["x"].compression == "gzip") == (int(sys.argv[3]) > 0)]
        print(ok)
        """, [path, String(total), String(compression)])
        #expect(out.trimmingCharacters(in: .whitespacesAndNewlines) == "[True, True, True, True, True, True, True, True]")
    }

    @Test("Chunks that hold only the fill value are not stored, and read back as that value",
          arguments: [0, 1])
    func fillValueChunks(compression: Int) throws {
        // 12,000 rows in 4,096-row chunks: `file` changes from a.bin to b.bin inside the third chunk, `segment`
        // is 0 but for five rows of the third, `x` never repeats.
        let path = TestSupport.temporaryFolder().appendingPathComponent("fill.h5").path
        let output = try TableOutput(destination: .hdf5(path: path), tableNames: ["t"], compression: compression)
        for (start, count) in [(0, 4096), (4096, 4096), (8192, 3808)] {
            let rows = start..<(start + count)
            try output.write(Table("t", [
                Column("file", fixedWidth: 8, .string(rows.map { $0 < 10_000 ? "a.bin" : "b.bin" })),
                .int32("segment", rows.map { (9000..<9005).contains($0) ? 1 : 0 }),
                Column("x", .float64(rows.map(Double.init))),
            ]))
        }
        try output.commit(provenance: provenanceForTests())
        let out = try TestSupport.python("""
        import sys, h5py, numpy as np
        g = h5py.File(sys.argv[1])["t"]
        r = np.arange(12000)
        print([np.array_equal(g["file"][()], np.where(r < 10000, b"a.bin", b"b.bin")),
               np.array_equal(g["segment"][()], ((r >= 9000) & (r < 9005)).astype(np.int32)),
               np.array_equal(g["x"][()], r.astype(float)),
               g["file"].fillvalue == b"a.bin", bool(g["segment"].fillvalue == 0),
               g["file"].id.get_num_chunks(), g["segment"].id.get_num_chunks(), g["x"].id.get_num_chunks()])
        """, [path])
        #expect(out.trimmingCharacters(in: .whitespacesAndNewlines) == "[True, True, True, True, True, 1, 1, 3]")
    }

    @Test("Strings are told apart by their bytes (canonically equal paths are different files), empty ones too",
          arguments: [0, 1])
    func stringBytes(compression: Int) throws {
        // "café" spelt precomposed and decomposed: equal as Swift strings, different files on Linux.
        let precomposed = "caf\u{e9}.bin", decomposed = "cafe\u{301}.bin"
        let path = TestSupport.temporaryFolder().appendingPathComponent("s.h5").path
        let output = try TableOutput(destination: .hdf5(path: path), tableNames: ["t"], compression: compression)
        let files = (0..<8192).map { $0 < 4096 ? precomposed : decomposed }
        try output.write(Table("t", [Column("file", fixedWidth: 8, .string(files)),
                                     Column("empty", fixedWidth: 0, .string(files.map { _ in "" }))]))
        try output.commit(provenance: provenanceForTests())
        let out = try TestSupport.python("""
        import sys, h5py
        g = h5py.File(sys.argv[1])["t"]
        f = [v.decode() for v in g["file"][()]]
        print(f[0] == sys.argv[2], f[-1] == sys.argv[3], f.count(sys.argv[3]), set(g["empty"][()]) == {b""})
        """, [path, precomposed, decomposed])
        #expect(out.trimmingCharacters(in: .whitespacesAndNewlines) == "True True 4096 True")
    }

    @Test("A chunk compressed outside HDF5 is the shuffle filter's byte transposition in a zlib stream")
    func chunkCompressor() throws {
        let values: [Int32] = [1, 2, 3, 0x0102_0304]
        let compressor = HDF5ChunkCompressor(level: 6, elementSize: 4, shuffle: true)
        let stream = values.withUnsafeBytes { compressor.compress($0) }
        // Python's zlib inflates it; byte j of element i sits at j·4 + i.
        let out = try TestSupport.python("""
        import sys, zlib
        print(list(zlib.decompress(bytes.fromhex(sys.argv[1]))))
        """, [stream.map { String(format: "%02x", $0) }.joined()])
        #expect(out.trimmingCharacters(in: .whitespacesAndNewlines)
                == "[1, 2, 3, 4, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1]")
    }

    @Test("The background writer makes byte-identical files to the direct one")
    func sameBytes() throws {
        let folder = TestSupport.temporaryFolder()
        for compression in [0, 1] {
            let direct = folder.appendingPathComponent("direct\(compression).h5").path
            let background = folder.appendingPathComponent("background\(compression).h5").path
            try write(direct, compression: compression, inBackground: false)
            try write(background, compression: compression, inBackground: true)
            #expect(FileManager.default.contents(atPath: direct) == FileManager.default.contents(atPath: background))
        }
    }

    @Test("A write that fails in the background is reported by a later call, and nothing is left behind")
    func backgroundFailure() throws {
        let path = TestSupport.temporaryFolder().appendingPathComponent("fail.h5").path
        let output = try TableOutput(destination: .hdf5(path: path), tableNames: ["t"], inBackground: true)
        try output.write(Table("t", [Column("f", fixedWidth: 3, .string(["abc"]))]))
        var caught: TableOutputError?
        do {
            try output.write(Table("t", [Column("f", fixedWidth: 3, .string(["much longer"]))]))
            try output.write(Table("t", [Column("f", fixedWidth: 3, .string(["abc"]))]))
            try output.commit(provenance: provenanceForTests())
        } catch {
            caught = error
        }
        let error = try #require(caught)
        #expect(error.description.contains("\"much longer\" is longer than the column's 3 bytes"), "\(error)")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("An appender refuses values of another type with a message naming the dataset")
    func typeMismatch() throws {
        let path = TestSupport.temporaryFolder().appendingPathComponent("m.h5").path
        let file = try HDF5File.create(path: path)
        let appender = try HDF5ChunkAppender(in: file, name: "n", type: .int32,
                                             storage: HDF5StorageOptions(chunkRows: 8, deflateLevel: 1, shuffle: true))
        let values: [Double] = [1, 2]
        let error = #expect(throws: HDF5Error.self) {
            try values.withUnsafeBufferPointer { (b) throws(HDF5Error) in try appender.append(b) }
        }
        #expect(error?.description.contains("/n") == true, "\(String(describing: error))")
        try [Int32](1...20).withUnsafeBufferPointer { (b) throws(HDF5Error) in try appender.append(b) }
        #expect(try appender.dataset.elementCount() == 16)  // two whole chunks written, four rows staged
        try appender.flush()
        #expect(try appender.dataset.readInt64s() == Array(1...20))
    }
}
