#!/usr/bin/env python3
"""Writes a benchmark subject folder: COUNT rest blocks of the real length (TrialTime 60 s, 140 s at 256 Hz),
made with SampleData/mynd/make_sample.py's recording writer.

    python3 bench/mynd-parse_generate.py FOLDER [COUNT]
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "SampleData", "mynd"))
import make_sample  # noqa: E402

folder, count = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 20
os.makedirs(folder, exist_ok=True)
for run in range(1, count + 1):
    make_sample.recording(os.path.join(folder, f"r_rest_1_2_{run}_{make_sample.UUID}.hdf"), trial_time=60, run=run,
                          seed=run)
