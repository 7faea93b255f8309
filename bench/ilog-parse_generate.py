#!/usr/bin/env python3
"""Writes N constructed InteractLog logs (half Java 2.2, half iPad 1.1 with skipped ids) into a folder, in the
real folder layout, for the ilog-parse benchmark. Deterministic (seeded)."""
import os, random, sys

out, n = sys.argv[1], int(sys.argv[2])
rng = random.Random(1)


def trial_end(seconds, minute):
    """`Trial End` a whole number of seconds after minute:00, as the header writes it."""
    total = int(seconds) + 1
    day = "04/07/2023" if minute == 15 else "17/10/2023"
    hour = 10 if minute == 15 else 14
    return f"Trial End            :{day} - {hour:02d}:{minute + total // 60:02d}:{total % 60:02d}"


def java(i):
    folder = os.path.join(out, "data", "2023-07-04")
    os.makedirs(folder, exist_ok=True)
    name = f"P{i:04d}"
    lines = [f"Name                 :{name}", "Experiment Start     :04/07/2023 - 10:15:02",
             "Stroke Colour        :0,0,0,255", "Background Colour    :255,255,255,255",
             "Stroke Width         :2.0", "Stimulus Files       :S1.png,S2.png,S3.png",
             "Familiarisation File :P1.png", "Input Mask File      :", "Drawing Pad Size     :1260,600",
             "Trial Number         :1", "Trial Start          :04/07/2023 - 10:15:09"]
    t = rng.randrange(10**12, 10**13)
    t0 = t
    ev = []
    def add(x, y, e, step):
        nonlocal t
        t += step
        ev.append(f"{len(ev) + 1};{t};{x};{y};{e}")
    add(0, 0, "FamiliarisationOn_P1.png", 0)
    add(0, 0, "FamiliarisationOff_P1.png", 10**10)
    add(0, 0, "DrawingEnabled", 500000)
    for image in ("S1.png", "S2.png", "S3.png"):
        for _ in range(2):
            add(0, 0, "KeyPressed_38(UP:1)", rng.randrange(10**9, 3 * 10**9))
            add(0, 0, f"StimulusOn_{image}", 600000)
            add(0, 0, "KeyReleased_38(UP:1)", rng.randrange(10**9, 5 * 10**9))
            add(0, 0, f"StimulusOff_{image}", 500000)
            for _ in range(rng.randrange(3, 7)):
                add(rng.randrange(1260), rng.randrange(600), "ButtonDown", rng.randrange(3 * 10**8, 2 * 10**9))
                add(rng.randrange(1260), rng.randrange(600), "ButtonReleased", rng.randrange(3 * 10**8, 2 * 10**9))
    add(0, 0, "KeyPressed_27(ESCAPE:1)", 10**9)
    lines += [trial_end(9 + (t - t0) / 1e9, 15), ""]
    with open(os.path.join(folder, f"{name} (Trial 1) 2023-07-04 - 10-15-02.txt"), "w") as f:
        f.write("\n".join(lines + ev) + "\n")


def ipad(i):
    folder = os.path.join(out, "experiments", f"RUN{i:05d}")
    os.makedirs(folder, exist_ok=True)
    name = f"Q{i:04d}"
    lines = ["App Version          :1.1", f"Name                 :{name}", "Experiment Start     :17/10/2023 - 14:02:11",
             "Stroke Colour        :0,0,0,255", "Background Colour    :255,255,255,255", "Stroke Width         :1",
             "Familiarisation Files       :P1", "Stimulus Files       :S1,S2,S3", "Input Mask File      :",
             "Drawing Pad Size     :1180.0,820.0", "Trial Number         :1",
             "Trial Start          :17/10/2023 - 14:04:38"]
    t = 1697547878597.120850
    t0 = t
    ident = 0
    ev = []
    def add(x, y, e, step):
        nonlocal t, ident
        t += step
        xy = "0;0" if x is None else f"{x:.1f};{y:.1f}"
        ev.append(f"{ident:03d};{t:.6f};{xy};{e}")
        ident += 2 if e == "ButtonReleased" else 1
    add(None, None, "DrawingEnabled", 0)
    add(None, None, "FamiliarisationOn_P1", 18.09)
    add(None, None, "FamiliarisationOff_P1", 12388.3)
    for image in ("S1", "S2", "S3"):
        for _ in range(2):
            add(None, None, f"StimulusOn_{image}", rng.uniform(1000, 3000))
            add(None, None, f"StimulusOff_{image}", rng.uniform(1000, 8000))
            for _ in range(rng.randrange(3, 7)):
                add(rng.uniform(0, 1180), rng.uniform(0, 820), "ButtonDown", rng.uniform(300, 2000))
                add(rng.uniform(0, 1180), rng.uniform(0, 820), "ButtonReleased", rng.uniform(300, 2000))
    lines += [trial_end(38 + (t - t0) / 1e3, 4), ""]
    with open(os.path.join(folder, f"{name} (Trial 1) 2023-10-17 - 14-02-11.txt"), "w") as f:
        f.write("\n".join(lines + ev) + "\n")


for i in range(n):
    (java if i % 2 == 0 else ipad)(i)
