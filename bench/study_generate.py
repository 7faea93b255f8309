#!/usr/bin/env python3
"""Writes the study of the study-pipeline benchmark (bench/study.sh) into a folder, deterministically:

  study_generate.py STUDY BIN [CAPTURES LOGS MINDAFFECT]     (defaults 200, 500, 50)

Participants sub-001 … sub-100. Each has CAPTURES/100 Brainiac captures of 10 minutes (`bt-synth --duration-s
600`, a seed each), LOGS/100 InteractLog logs (trials 1…5 of one run, half Java, half iPad, from the logs of
bench/ilog-parse_generate.py given the participant's name and trial number); the first MINDAFFECT participants one
MindAffect save file (SampleData's, copied).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
study, bin_dir = sys.argv[1], sys.argv[2]
captures, logs, mindaffect = (int(a) for a in (sys.argv[3:6] if len(sys.argv) >= 6 else (200, 500, 50)))
participants = 100
os.makedirs(study, exist_ok=True)


def participant(i):
    return f"sub-{i % participants + 1:03d}"


for i in range(captures):
    folder = os.path.join(study, participant(i), "eeg")
    os.makedirs(folder, exist_ok=True)
    subprocess.run([os.path.join(bin_dir, "bt-synth"), "-o", os.path.join(folder, f"capture-{i // participants + 1}.bin"),
                    "--duration-s", "600", "--noise-uv", "5", "--drop-rate", "0.001", "--seed", str(i + 1), "-q"],
                   check=True)

with tempfile.TemporaryDirectory() as tmp:
    subprocess.run([sys.executable, os.path.join(here, "ilog-parse_generate.py"), tmp, str(logs)], check=True)
    made = sorted(os.path.join(d, n) for d, _, ns in os.walk(tmp) for n in ns if n.endswith(".txt"))
    per = max(1, logs // participants)
    for i, path in enumerate(made):
        who, trial = f"sub-{i // per % participants + 1:03d}", i % per + 1
        with open(path, encoding="utf-8") as f:
            text = f.read()
        text = re.sub(r"^Name( +):.*$", lambda m: f"Name{m.group(1)}:{who}", text, count=1, flags=re.M)
        text = re.sub(r"^Trial Number( +):.*$", lambda m: f"Trial Number{m.group(1)}:{trial}", text, count=1, flags=re.M)
        name = re.sub(r"^[^(]+\(Trial \d+\)", f"{who} (Trial {trial})", os.path.basename(path))
        folder = os.path.join(study, who, "drawing")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
            f.write(text)

sample = os.path.join(here, "..", "SampleData", "mindaffect", "mindaffectBCI_sample_261123_1200.txt")
for i in range(mindaffect):
    folder = os.path.join(study, participant(i), "bci")
    os.makedirs(folder, exist_ok=True)
    shutil.copyfile(sample, os.path.join(folder, f"mindaffectBCI_{participant(i).replace('-', '')}_261123_1200.txt"))
