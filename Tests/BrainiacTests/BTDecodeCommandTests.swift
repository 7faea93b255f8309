import Foundation
import Testing
import TestSupport

/// `bt-decode` and `bt-synth` end to end, through the built executables.
@Suite("bt-decode and bt-synth commands")
struct BTDecodeCommandTests {
    let folder = TestSupport.temporaryFolder()
    let decode = TestSupport.executable("bt-decode")
    let synth = TestSupport.executable("bt-synth")

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    @Test("Bad inputs: clear messages and sysexits codes, no output")
    func badInputs() throws {
        _ = FileManager.default.createFile(atPath: path("empty.bin"), contents: Data())
        _ = FileManager.default.createFile(atPath: path("seven.bin"), contents: Data([1, 2, 3, 4, 5, 6, 7]))
        var generator = SystemRandomNumberGenerator()
        _ = FileManager.default.createFile(atPath: path("random.bin"),
                                       contents: Data((0..<4000).map { _ in UInt8.random(in: 0...255, using: &generator) }))
        try FileManager.default.createDirectory(atPath: path("folder.bin"), withIntermediateDirectories: true)
        let cases: [(String, Int32, String)] = [
            ("empty.bin", 65, "empty.bin: empty file"),
            ("seven.bin", 65, "seven.bin: 7 bytes: shorter than one 20-byte Brainiac packet"),
            ("random.bin", 65, "random.bin: no Brainiac packet stream (no 4 chained 20-byte packets)"),
            ("folder.bin", 66, "folder.bin: cannot read: is a folder, not a file"),
            ("missing.bin", 66, "missing.bin: cannot read: no such file"),
        ]
        for (name, status, message) in cases {
            let result = try TestSupport.run(decode, [path(name), "-o", path("out-\(name).h5")])
            #expect(result.status == status, "\(name)")
            #expect(result.stderr.contains(message), "\(name): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: path("out-\(name).h5")))
        }
        let usage = try TestSupport.run(decode, [path("x.bin"), "-o", path("x.csv")])
        #expect(usage.status == 64)
    }

    @Test("--keep-going writes the good inputs and lists the bad ones (exit 65)")
    func keepGoing() throws {
        #expect(try TestSupport.run(synth, ["-o", path("good.bin"), "--duration-s", "4", "-q"]).status == 0)
        _ = FileManager.default.createFile(atPath: path("bad.bin"), contents: Data([1, 2, 3]))
        let result = try TestSupport.run(decode, [path("good.bin"), path("bad.bin"), "-o", path("out"), "--keep-going"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("failed inputs:"))
        let recordings = try String(contentsOfFile: path("out/recordings.csv"), encoding: .utf8)
        #expect(recordings.split(separator: "\n").count == 2)
        #expect(recordings.contains("good.bin"))
        let stopped = try TestSupport.run(decode, [path("bad.bin"), path("good.bin"), "-o", path("out2")])
        #expect(stopped.status == 65)
        #expect(!FileManager.default.fileExists(atPath: path("out2")))
    }

    @Test("Output read back with h5py equals an independent numpy decoding; re-runs are byte-identical")
    func readBack() throws {
        let capture = path("noisy.bin")
        let made = try TestSupport.run(synth, ["-o", capture, "--duration-s", "20", "--noise-uv", "20", "--seed", "3",
                                               "--drop-packets", "100,101,900", "-q"])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(try TestSupport.run(decode, [capture, "-o", path("a.h5"), "-q"]).status == 0)
        let first = try Data(contentsOf: URL(fileURLWithPath: path("a.h5")))
        #expect(try TestSupport.run(decode, [capture, "-o", path("a.h5"), "-q"]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path("a.h5"))) == first)
        let script = """
        import sys, json, numpy as np, h5py, pandas as pd
        raw = np.fromfile(sys.argv[1], dtype=np.uint8).reshape(-1, 20)
        order = raw[:, 0].astype(np.int64) * 256 + raw[:, 1]
        def channels(offset):
            return raw[:, offset:offset + 8].copy().view(">i2").astype(np.float64)
        K = 1_000_000_000 * (2.4 / 6.0 / 32.0) / 32767
        a = np.floor(channels(3) * K) / 1000
        b = np.floor(channels(12) * K) / 1000
        values = np.empty((2 * len(raw), 4)); values[0::2] = a; values[1::2] = b
        index = np.empty(2 * len(raw), dtype=np.int64)
        index[0::2] = (order - order[0]) % 65536; index[1::2] = index[0::2] + 1
        f = h5py.File(sys.argv[2], "r")
        s = pd.DataFrame({k: f["samples"][k][()] for k in f["samples"]})
        g = f["gaps"]
        got = s[["t3_uv", "o1_uv", "t4_uv", "o2_uv"]].to_numpy()
        print(json.dumps({
            "equal": bool(np.array_equal(got, values)),
            "index_equal": bool(np.array_equal(s["sample_index"].to_numpy(), index)),
            "t_s_equal": bool(np.array_equal(s["t_s"].to_numpy(), index / 250)),
            "rows": int(len(s)), "n_rows_attr": int(f["samples"].attrs["n_rows"]),
            "unit": f["samples"]["t3_uv"].attrs["unit"],
            "kinds": [k.decode() for k in g["kind"][()]],
            "lost": [int(x) for x in g["lost_packets"][()]],
            "sha": f.attrs["input_sha256"][0],
            "tool": f.attrs["tool"],
        }))
        """
        let output = try TestSupport.python(script, [capture, path("a.h5")])
        let result = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(result["equal"] as? Bool == true)
        #expect(result["index_equal"] as? Bool == true)
        #expect(result["t_s_equal"] as? Bool == true)
        #expect(result["rows"] as? Int == 5000 - 6)
        #expect(result["n_rows_attr"] as? Int == 5000 - 6)
        #expect(result["unit"] as? String == "µV")
        #expect(result["kinds"] as? [String] == ["gap", "gap"])
        #expect(result["lost"] as? [Int] == [2, 1])
        #expect(result["tool"] as? String == "bt-decode")
        #expect(result["sha"] as? String == (try TestSupport.pythonSHA256(ofFile: capture)))
    }

    @Test("--no-analysis writes only recordings, samples, gaps and anomalies, the same rows as a full run")
    func noAnalysis() throws {
        let capture = path("plain.bin")
        #expect(try TestSupport.run(synth, ["-o", capture, "--duration-s", "30", "--drop-packets", "7", "-q"]).status == 0)
        #expect(try TestSupport.run(decode, [capture, "-o", path("full.h5"), "-q"]).status == 0)
        let result = try TestSupport.run(decode, [capture, "-o", path("decoded.h5"), "--no-analysis", "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        let out = try TestSupport.python("""
        import sys, json, h5py, numpy as np
        full, only = h5py.File(sys.argv[1]), h5py.File(sys.argv[2])
        def equal(a, b): return np.array_equal(a, b, equal_nan=a.dtype.kind == "f")
        same = all(equal(full[t][c][()], only[t][c][()])
                   for t in ["recordings", "samples", "gaps", "anomalies"] for c in only[t])
        params = json.loads(only.attrs["parameters"])
        print(json.dumps({"tables": sorted(only.keys()), "same": same,
                          "analysis": [params["analysis_tables"], "analysis" in params]}))
        """, [path("full.h5"), path("decoded.h5")])
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        #expect(parsed["tables"] as? [String] == ["anomalies", "gaps", "recordings", "samples"])
        #expect(parsed["same"] as? Bool == true)
        #expect(parsed["analysis"] as? [Bool] == [false, false])
    }

    @Test("bt-synth: same seed, same bytes; the truth sidecar lists the faults")
    func synthDeterminism() throws {
        let arguments = ["--duration-s", "10", "--drop-rate", "0.05,2", "--byte-loss-rate", "0.01", "--seed", "11", "-q"]
        #expect(try TestSupport.run(synth, ["-o", path("s1.bin")] + arguments).status == 0)
        #expect(try TestSupport.run(synth, ["-o", path("s2.bin")] + arguments).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path("s1.bin"))) == Data(contentsOf: URL(fileURLWithPath: path("s2.bin"))))
        let truth = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path("s1.bin.truth.json")))) as? [String: Any]
        let faults = truth?["truth"] as? [String: Any]
        #expect(((faults?["droppedPackets"] as? [Any])?.count ?? 0) > 0)
        #expect(((faults?["byteDeletions"] as? [Any])?.count ?? 0) > 0)
        #expect((truth?["provenance"] as? [String: Any])?["tool"] as? String == "bt-synth")
        let bad = try TestSupport.run(synth, ["-o", path("x.bin"), "--preset", "purple"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("unknown preset purple"))
    }

    @Test("bt-synth replaces its own capture (recognised by the provenance inside the truth sidecar), never a changed one")
    func synthReplacesOnlyItsOwn() throws {
        let capture = path("own.bin")
        #expect(try TestSupport.run(synth, ["-o", capture, "--duration-s", "5", "-q"]).status == 0)
        let again = try TestSupport.run(synth, ["-o", capture, "--duration-s", "6", "-q"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: capture)).count == 6 * 250 / 2 * 20)
        // Changed by hand since: kept, byte for byte.
        let edited = Data([1, 2, 3])
        try edited.write(to: URL(fileURLWithPath: capture))
        let refused = try TestSupport.run(synth, ["-o", capture, "--duration-s", "5", "-q"])
        #expect(refused.status == 73)
        #expect(refused.stderr.contains("\(capture): has changed since a BrainBatch tool wrote it"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: capture)) == edited)
        // A sidecar whose provenance is not a BrainBatch tool's: nothing is replaced.
        try Data(#"{"provenance": {"tool": "other", "outputs": [{"file": "own.bin", "sha256": "00"}]}}"#.utf8)
            .write(to: URL(fileURLWithPath: capture + ".truth.json"))
        let foreign = try TestSupport.run(synth, ["-o", capture, "--duration-s", "5", "-q"])
        #expect(foreign.status == 73)
        #expect(foreign.stderr.contains("is not a BrainBatch sidecar that lists its files"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: capture)) == edited)
    }

    @Test("bt-decode writes the SDK re-computation: the spec's §6.5 timeline through the command line")
    func analysisTables() throws {
        #expect(try TestSupport.run(synth, ["-o", path("v2.bin"), "-q"]).status == 0)
        let result = try TestSupport.run(decode, [path("v2.bin"), "-o", path("v2"), "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        let out = try TestSupport.python("""
        import sys, json, pandas as pd
        d = sys.argv[1]
        ind = pd.read_csv(d + "/indicators.csv")
        base = pd.read_csv(d + "/baseline.csv")
        frames = pd.read_csv(d + "/frames.csv")
        bp = pd.read_csv(d + "/band_power.csv")
        print(json.dumps({
            "counters": ind["counter"].tolist(),
            "x_ratio": [round(x, 4) for x in ind["x_ratio"]],
            "y_ratio": [round(x, 4) for x in ind["y_ratio"]],
            "zones": ind["zone"].tolist(), "percents": ind["percents"].tolist(), "colors": ind["colors"].tolist(),
            "x0": base["x0_sdk"][0], "y0": base["y0_sdk"][0], "status": base["status"][0],
            "frames": int(frames["frame"].nunique()), "rows": int(len(frames)),
            "scopes": sorted(bp["scope"].unique().tolist()),
        }))
        """, [path("v2")])
        let r = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        #expect(r["counters"] as? [Int] == [6250, 7500, 8750, 10000])
        #expect(r["x_ratio"] as? [Double] == [0.5935, 0.4919, 0.4919, 0.4919])
        #expect(r["y_ratio"] as? [Double] == [0.9721, 0.9652, 0.9652, 0.9652])
        #expect(r["zones"] as? [Int] == [3, 3, 3, 3])
        #expect(r["percents"] as? [Double] == [0.25, 1.0, 1.0, 1.0])
        #expect(r["colors"] as? [String] == ["green", "green", "green", "green"])
        #expect(abs((r["x0"] as? Double ?? 0) / 2.917376e6 - 1) < 1e-6)
        #expect(abs((r["y0"] as? Double ?? 0) / 1.105575e6 - 1) < 1e-6)
        #expect(r["status"] as? String == "ok")
        #expect(r["frames"] as? Int == 40)
        #expect(r["rows"] as? Int == 40 * 12)
        #expect(r["scopes"] as? [String] == ["recording", "window"])
        let early = try TestSupport.run(decode, [path("v2.bin"), "-o", path("e"), "--baseline-start-s", "5"])
        #expect(early.status == 64)
        #expect(early.stderr.contains("2750"))
        let badBands = try TestSupport.run(decode, [path("v2.bin"), "-o", path("e"), "--bands", "alpha"])
        #expect(badBands.status == 64)
    }
}
