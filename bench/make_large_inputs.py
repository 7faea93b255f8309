#!/usr/bin/env python3
"""Writes large text inputs of about a given size for the scale benchmark (bench/scale.sh), deterministically:

    make_large_inputs.py OUT_DIR MB [MB ...]

For each size MB (e.g. 12.5 25 50 100) it writes, under OUT_DIR:
  interactlog_<MB>MB/P0001 (Trial 1) 2023-07-04 - 10-15-02.txt  one Java 2.2 log with many events (stimuli shown
      again and again, strokes between them, key presses), as bench/ilog-parse_generate.py writes them but long;
  braintracker_<MB>MB/BrainTrackerResultsFile.csv  many sessions, by bench/rt-stats_generate.py;
  mindaffect_<MB>MB/mindaffectBCI_scale_261123_1200.txt  many messages (a long recording: more prediction
      trials), by SampleData/mindaffect/generate.py.
The largest size is generated (within a few per cent of MB × 10^6 bytes: the two generators are called with a
count scaled from two small calibration runs); each smaller one is the largest file's first MB × 10^6 bytes, cut
back to a line end, so that every size has the same mix of lines (the InteractLog header's Trial End then lies
past the events: one W_SPAN_MISMATCH note)."""
import datetime
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def interactlog(path, target_bytes):
    """One Java 2.2 log of about target_bytes: header, then rounds of (key press, stimulus on/off, strokes)."""
    rng = random.Random(1)
    images = [f"S{i}.png" for i in range(1, 21)]
    header = ["Name                 :P0001", "Experiment Start     :04/07/2023 - 10:15:02",
              "Stroke Colour        :0,0,0,255", "Background Colour    :255,255,255,255",
              "Stroke Width         :2.0", "Stimulus Files       :" + ",".join(images),
              "Familiarisation File :P1.png", "Input Mask File      :", "Drawing Pad Size     :1260,600",
              "Trial Number         :1", "Trial Start          :04/07/2023 - 10:15:09"]
    t0 = 58227413905518
    t = t0
    n = 0
    out = []
    size = 0

    def add(x, y, event, step):
        nonlocal t, n, size
        t += step
        n += 1
        line = f"{n};{t};{x};{y};{event}\n"
        out.append(line)
        size += len(line)

    add(0, 0, "FamiliarisationOn_P1.png", 0)
    add(0, 0, "FamiliarisationOff_P1.png", 10**10)
    add(0, 0, "DrawingEnabled", 500000)
    round_ = 0
    while size < target_bytes - 200:
        image = images[round_ % len(images)]
        round_ += 1
        add(0, 0, "KeyPressed_38(UP:1)", rng.randrange(10**9, 3 * 10**9))
        add(0, 0, f"StimulusOn_{image}", 600000)
        add(0, 0, "KeyReleased_38(UP:1)", rng.randrange(10**9, 5 * 10**9))
        add(0, 0, f"StimulusOff_{image}", 500000)
        for _ in range(rng.randrange(3, 7)):
            add(rng.randrange(1260), rng.randrange(600), "ButtonDown", rng.randrange(3 * 10**8, 2 * 10**9))
            add(rng.randrange(1260), rng.randrange(600), "ButtonReleased", rng.randrange(3 * 10**8, 2 * 10**9))
    add(0, 0, "KeyPressed_27(ESCAPE:1)", 10**9)
    # Trial End: the events' span after Trial Start (10:15:09), in whole seconds (a long log spans days).
    end = (datetime.datetime(2023, 7, 4, 10, 15, 9) + datetime.timedelta(seconds=(t - t0) // 10**9 + 1)
           ).strftime("%d/%m/%Y - %H:%M:%S")
    with open(path, "w") as f:
        f.write("\n".join(header + [f"Trial End            :{end}", ""]) + "\n")
        f.writelines(out)


def scaled(command, target_bytes, path, calibration):
    """Runs a generator at two calibration counts (size = fixed + per unit × count), then at the count that should
    give target_bytes."""
    def run(count):
        subprocess.run(command(count), check=True)
        return os.path.getsize(path)
    small, large = run(calibration), run(2 * calibration)
    per_unit = (large - small) / calibration
    fixed = small - per_unit * calibration
    run(max(1, round((target_bytes - fixed) / per_unit)))


def prefix(source, destination, target_bytes):
    """The first target_bytes of source, cut back to the last line end (LF or CR) within them."""
    with open(source, "rb") as f:
        data = f.read(target_bytes)
    end = max(data.rfind(b"\n"), data.rfind(b"\r")) + 1
    with open(destination, "wb") as f:
        f.write(data[:end] if end > 0 else data)


KINDS = {
    "interactlog": "P0001 (Trial 1) 2023-07-04 - 10-15-02.txt",
    "braintracker": "BrainTrackerResultsFile.csv",
    "mindaffect": "mindaffectBCI_scale_261123_1200.txt",
}


def generate(out, mb):
    """The three inputs of about mb MB."""
    target = int(mb * 1e6)
    label = f"{mb:g}MB"
    folder = os.path.join(out, f"interactlog_{label}")
    os.makedirs(folder, exist_ok=True)
    interactlog(os.path.join(folder, KINDS["interactlog"]), target)

    folder = os.path.join(out, f"braintracker_{label}")
    os.makedirs(folder, exist_ok=True)
    csv = os.path.join(folder, KINDS["braintracker"])
    scaled(lambda n: [sys.executable, os.path.join(HERE, "rt-stats_generate.py"), csv, str(n)], target, csv, 400)

    folder = os.path.join(out, f"mindaffect_{label}")
    os.makedirs(folder, exist_ok=True)
    save = os.path.join(folder, KINDS["mindaffect"])

    def nt(n):
        return ["sh", "-c", 'exec "$0" "$1" --prediction-trials "$2" > "$3"', sys.executable,
                os.path.join(ROOT, "SampleData", "mindaffect", "generate.py"), str(n), save]
    scaled(nt, target, save, 20)


def main():
    out, sizes = sys.argv[1], sorted(float(s) for s in sys.argv[2:])
    largest = sizes[-1]
    generate(out, largest)
    for mb in sizes[:-1]:
        for kind, name in KINDS.items():
            folder = os.path.join(out, f"{kind}_{mb:g}MB")
            os.makedirs(folder, exist_ok=True)
            prefix(os.path.join(out, f"{kind}_{largest:g}MB", name), os.path.join(folder, name), int(mb * 1e6))
    for mb in sizes:
        for kind, name in KINDS.items():
            path = os.path.join(out, f"{kind}_{mb:g}MB", name)
            print(f"{path}: {os.path.getsize(path) / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
