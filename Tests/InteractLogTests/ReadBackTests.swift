import Foundation
import InteractLog
import Testing
import TestSupport

/// The executable's outputs read back with h5py and pandas, their numbers checked against an independent Python
/// reading of the raw sample logs and the iPad sidecar.
@Suite struct ReadBackTests {
    static let script = #"""
import sys, os, re, json, glob
import h5py, numpy as np, pandas as pd
h5, csv, samples = sys.argv[1], sys.argv[2], sys.argv[3]
f = h5py.File(h5, "r")
def table(name):
    g = f[name]
    return pd.DataFrame({k: g[k][()] for k in g.attrs["columns"]})
def text(s):
    return s.decode() if isinstance(s, bytes) else s
strokes, events, trials = table("strokes"), table("events"), table("trials")
for df in (strokes, events, trials):
    df["source_file"] = df["source_file"].map(lambda s: os.path.relpath(text(s), samples))
out = []
# 1. Event counts per file equal the raw lines that start like an event.
for src in trials["source_file"]:
    raw = open(os.path.join(samples, src), encoding="utf-8").read().splitlines()
    n = sum(1 for l in raw if re.match(r"^[0-9]+;", l))
    assert (events["source_file"] == src).sum() == n, (src, n)
out.append("events ok")
# 2. Strokes of a clean Java log: naive pairing of the raw lines gives the same durations and lengths.
src = "data/2023-07-04/P01 (Trial 1) 2023-07-04 - 10-15-02.txt"
rows = [l.split(";") for l in open(os.path.join(samples, src)).read().splitlines() if re.match(r"^[0-9]+;", l)]
downs = [r for r in rows if r[4] == "ButtonDown"]; ups = [r for r in rows if r[4] == "ButtonReleased"]
dur = np.array([(int(u[1]) - int(d[1])) / 1e6 for d, u in zip(downs, ups)])
length = np.array([np.hypot(int(u[2]) - int(d[2]), int(u[3]) - int(d[3])) for d, u in zip(downs, ups)])
mine = strokes[strokes["source_file"] == src]
assert len(mine) == len(downs) == 18
assert np.allclose(mine["duration_ms"].to_numpy(), dur, rtol=0, atol=1e-9)
assert np.allclose(mine["length_coord"].to_numpy(), length, rtol=0, atol=1e-9)
t0 = int(rows[0][1])
assert np.allclose(mine["start_s"].to_numpy(), [(int(d[1]) - t0) / 1e9 for d in downs], atol=1e-12)
out.append("java strokes ok")
# 3. iPad pencil means: actions[up_id + 1] of the sidecar, read with Python's json.
src = "experiments/6610E5B7-1005-4295-9B04-BD9A46F1454F/P07 (Trial 1) 2023-10-17 - 14-02-11.txt"
actions = json.load(open(os.path.join(samples, os.path.dirname(src), "InteractLog.json")))["actions"]
mine = strokes[strokes["source_file"] == src]
assert len(mine) == 16
for _, s in mine.iterrows():
    p = actions[int(s["up_id"]) + 1]["action"]["pencilDrawing"]["_0"]
    d = actions[int(s["down_id"])]["action"]["drawing"]["_1"]
    assert s["force_mean"] == p["force"] and s["azimuth_mean_rad"] == p["azimuth"] and s["altitude_mean_rad"] == p["altitude"]
    assert s["pencil_x_mean_coord"] == p["point"][0] and s["force_down"] == d["force"]
    assert abs(s["duration_ms"] - (actions[int(s["up_id"])]["timestamp"] - actions[int(s["down_id"])]["timestamp"])) < 1e-3
out.append("pencil ok")
# 4. HDF5 conventions: int32 with missing_value, booleans int8, units, strings.
g = f["strokes"]
assert g["stroke"].dtype == np.int32 and g["down_line"].attrs["missing_value"] == np.iinfo(np.int32).min
assert g["stimulus_visible"].dtype == np.int8 and g["stimulus_visible"].attrs["logical"] == 1
assert text(g["x_start_coord"].attrs["unit"]) == "px|pt, see coord_unit"
assert text(g["duration_ms"].attrs["unit"]) == "ms"
# 5. The CSV folder: pandas reads it with no options and agrees with HDF5.
c = pd.read_csv(os.path.join(csv, "strokes.csv"))
assert c["stimulus_visible"].dtype == bool and c["stroke"].dtype.kind == "i"
assert np.allclose(c["duration_ms"].to_numpy(), strokes["duration_ms"].to_numpy(), equal_nan=True, rtol=0, atol=0)
t = pd.read_csv(os.path.join(csv, "trials.csv"))
assert list(t["variant"]) == [text(v) for v in trials["variant"]]
assert list(t["experiment_start_local"])[0] == "2023-07-04T10:15:02"
k = pd.read_csv(os.path.join(csv, "keys.csv"))
assert "<U+001B>" in set(k["descr"].dropna()) and "<U+FFFF>" in set(k["descr"].dropna())
v = pd.read_csv(os.path.join(csv, "stimulus_views.csv"))
assert (v["status"] == "open_at_end").sum() == 1
out.append("conventions ok")
print(";".join(out), len(trials), len(strokes))
"""#

    @Test(.enabled(if: SampleLogs.present, "SampleData/interactlog is absent"))
    func hdf5AndCSVReadBackMatchAnIndependentReading() throws {
        let samples = try SampleLogs.folder()
        let folder = TestSupport.temporaryFolder()
        let exe = TestSupport.executable("ilog-parse")
        let inputs = SampleLogs.all.map { samples.appendingPathComponent($0).path }
        let h5 = folder.appendingPathComponent("out.h5").path, csv = folder.appendingPathComponent("csv").path
        let first = try TestSupport.run(exe, inputs + ["-o", h5, "-q"])
        #expect(first.status == 0, "\(first.stderr)")
        let second = try TestSupport.run(exe, inputs + ["-o", csv, "-q"])
        #expect(second.status == 0, "\(second.stderr)")
        let output = try TestSupport.python(Self.script, [h5, csv, samples.path])
        #expect(output.trimmingCharacters(in: .whitespacesAndNewlines)
                == "events ok;java strokes ok;pencil ok;conventions ok 9 112")
    }
}
