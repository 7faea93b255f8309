import Foundation
import Testing
import TestSupport

@Suite("nt-analyze /arrays/ in HDF5 (spec §2.7)")
struct ArrayOutputTests {
    @Test("The 2-D arrays hold the same values as the samples and stimuli tables, time first",
          .enabled(if: TestSupport.hasRealData("mindaffect"), "../shared/realdata/mindaffect is absent"))
    func arraysMatchTables() throws {
        let output = TestSupport.temporaryFolder().appendingPathComponent("nt.h5").path
        let input = try #require(TestSupport.realData("mindaffect/mindaffectBCI_exampledata.txt")).path
        let run = try TestSupport.run(TestSupport.executable("nt-analyze"), [input, "-o", output, "-q"])
        #expect(run.status == 0, "\(run.stderr)")
        let out = try TestSupport.python("""
        import sys, json, h5py, numpy as np
        f = h5py.File(sys.argv[1]); a = f["arrays"]
        ids = a["objids"][()]
        st = np.stack([f["stimuli"]["obj%d" % i][()] for i in ids], 1)
        eeg = np.stack([f["samples"]["ch%d_uv" % c][()] for c in range(1, 5)], 1)
        print(json.dumps({
            "shapes": {k: list(a[k].shape) for k in a},
            "dims": {k: list(a[k].attrs["dimension_names"]) for k in a},
            "stimuli": bool(np.array_equal(st, a["stimuli"][()])),
            "samples": bool(np.array_equal(eeg, a["samples"][()])),
            "stim_last": bool(np.array_equal(a["stim_samples"][-1], a["stimuli"][-1])),
            "tables_load": sorted(k for k in f if k != "arrays") == sorted(f.attrs["tables"]),
        }))
        """, [output])
        let r = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        let shapes = r["shapes"] as? [String: [Int]]
        #expect(shapes?["samples"] == [44406, 4])
        #expect(shapes?["stim_samples"] == [44406, 26])
        #expect(shapes?["objids"] == [26])
        #expect(shapes?["stimuli"]?.last == 26)
        #expect((r["dims"] as? [String: [String]])?["stimuli"] == ["event", "object"])
        #expect(r["stimuli"] as? Bool == true)
        #expect(r["samples"] as? Bool == true)
        #expect(r["stim_last"] as? Bool == true)
        #expect(r["tables_load"] as? Bool == true)
    }
}
