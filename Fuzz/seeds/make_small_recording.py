#!/usr/bin/env python3
"""Writes mynd-hdf5/r_rest_1_2_1_<UUID>.hdf: the constructed recording of SampleData/mynd/make_sample.py in the
same layout (every group, dataset and attribute), but 45 rows long instead of 10,241, so that the HDF5 fuzz target
mutates metadata (superblock, object headers, B-trees, heaps, attribute tables) rather than samples.

Run: python3 Fuzz/seeds/make_small_recording.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "SampleData", "mynd"))
import make_sample  # noqa: E402

make_sample.FS = 2  # rows per "second": 20 + 2·1 s → 45 rows with the row-0 quirk and every marker
os.makedirs(os.path.join(HERE, "mynd-hdf5"), exist_ok=True)
make_sample.recording(os.path.join(HERE, "mynd-hdf5", f"r_rest_1_2_1_{make_sample.UUID}.hdf"), trial_time=1)
