#!/usr/bin/env python3
"""Writes the constructed MYND sample files of this folder (none is copied from a real study).

- r_rest_1_2_1_<UUID>.hdf: a 40-s rest block in the app's Version 3 layout (h5py), synthetic EEG at 256 Hz with a
  10-Hz rhythm that is stronger with eyes closed, the row-0 quirk, markers of a rest block, TrialTime shortened to
  10 s so that the file stays small.
- q_initial_1_0_0_<UUID>.json, q_motivation_1_1_2_<UUID>.json: questionnaire results as the app writes them
  (one with a skipped question), and definitions/motivation_en.json to label them.

Run: python3 SampleData/mynd/make_sample.py  (deterministic: the same bytes every time, h5py permitting)
"""
import json
import os

import h5py
import numpy as np

UUID = "3F2504E0-4F89-41D3-9A0C-0305E82C3301"
HERE = os.path.dirname(os.path.abspath(__file__))
FS = 256


def recording(path, trial_time=10, run=1, seed=20200502):
    """A rest block: welcome, eyes open and eyes closed of `trial_time` s each, goodbye (20 + 2·trial_time s)."""
    seconds = 20 + 2 * trial_time
    n = seconds * FS + 1  # + row 0, the replayed pre-recording sample
    rng = np.random.default_rng(seed)
    t = np.arange(n) / FS
    closed = (t >= 14 + trial_time) & (t < 14 + 2 * trial_time)
    alpha = np.where(closed, 12.0, 3.0)[:, None] * np.sin(2 * np.pi * 10 * t)[:, None]
    offsets = np.array([848.0, 849.0, 859.0, 845.0])
    data = offsets + alpha * np.array([1.0, 0.4, 0.4, 1.0]) + rng.normal(0, [7, 3, 3, 7], (n, 4))
    marker = np.zeros((n, 1), dtype="i8")
    T = trial_time
    for second, code in [(0, 910), (2, 910), (6, 310), (8, 320), (8 + T, 330), (12 + T, 410), (14 + T, 420),
                         (14 + 2 * T, 430), (18 + 2 * T, 910)]:
        marker[1 + second * FS] = code
    stamps = (1588434129712318 + np.round(np.arange(n) * 1e6 / FS)).astype("i8").reshape(n, 1)
    stamps[0] = 0
    ascii = h5py.string_dtype("ascii")
    with h5py.File(path, "w", track_order=False) as f:
        rec = f.create_group("Recording")
        rec.create_dataset("Data", data=data)
        rec.create_dataset("Marker", data=marker)
        rec.create_dataset("TimeStamp", data=stamps)
        names = np.array([[b"Left Ear", b"Left Front", b"Right Front", b"Right Ear"]], dtype=object)
        rec.create_dataset("ChannelNames", data=names, dtype=ascii)
        for key, value in [("Session", 2), ("Run", run), ("Version", 3)]:
            rec.attrs.create(key, np.array([[value]], dtype="i8"))
        for key, value in [
            ("subjectID", UUID), ("day", "1"), ("sessionID", "2"), ("runID", str(run)), ("device", "muse"),
            ("samplingRate", "256"), ("channelCount", "4"),
            ("channelNames", '["Left Ear", "Left Front", "Right Front", "Right Ear"]'),
            ("fittingTime", "31.5"), ("recordingTime", f"{seconds}.0"), ("locale", "en"),
            ("recordingStartTime", "05/02/2020, 5:42:09 PM GMT+02:00"),
            ("recordingEndTime", "05/02/2020, 5:42:49 PM GMT+02:00"),
            ("sessionStartTime", "05/02/2020, 5:39:14 PM GMT+02:00"),
        ]:
            rec.attrs.create(key, np.array([value], dtype=object), dtype=ascii)
        par = f.create_group("Paradigm")
        par.attrs.create("Paradigm", np.array(["rest"], dtype=object), dtype=ascii)
        for key, value in [("BaseTime", -3), ("TrialTime", trial_time), ("ConditionCount", 2)]:
            par.attrs.create(key, np.array([[value]], dtype="i8"))
        par.create_dataset("ConditionLabels", data=np.array([[b"EyesOpen", b"EyesClosed"]], dtype=object), dtype=ascii)
        par.create_dataset("ConditionMarkers", data=np.array([[320, 420]], dtype="i8"))
        par.create_dataset("BaseMarkers", data=np.array([[310, 410]], dtype="i8"))


def questionnaire(name, answers, title, session, run, start):
    content = dict(answers, subjectID=UUID, locale="en", runID=run, sessionID=session, title=title, day=1,
                   sessionStartTime=start)
    text = json.dumps(content, indent=2, separators=(",", " : ")).replace("/", "\\/")
    with open(os.path.join(HERE, name), "w") as f:
        f.write(text + "\n")


def definitions():
    motivation = {
        "name": "Motivation questionnaire", "identifier": "motivation", "version": 1.0, "locale": "en",
        "title": "Today", "text": "A constructed definition for the sample.", "image": "motivation.jpg",
        "questions": [
            {"identifier": "mood", "type": "mc", "title": "Mood", "text": "How do you feel?", "optional": True,
             "choices": [{"text": "Fine", "value": 2}, {"text": "Not fine", "value": 1}]},
            {"identifier": "sleepHours", "type": "numeric", "title": "Sleep", "text": "Hours slept?", "optional": False},
            {"identifier": "oneWord", "type": "text", "title": "One word", "text": "Describe today.", "optional": False,
             "input": "word"},
        ],
    }
    with open(os.path.join(HERE, "definitions", "motivation_en.json"), "w") as f:
        json.dump(motivation, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    os.makedirs(os.path.join(HERE, "definitions"), exist_ok=True)
    recording(os.path.join(HERE, f"r_rest_1_2_1_{UUID}.hdf"))
    questionnaire(f"q_initial_1_0_0_{UUID}.json", {"birthday": "19900317 120000 0000", "work": "Carpenter"},
                  "initial", 0, 0, "05/02/2020, 5:09:05 PM GMT+02:00")
    questionnaire(f"q_motivation_1_1_2_{UUID}.json", {"mood": "no answer", "sleepHours": "7", "oneWord": "Sunny"},
                  "motivation", 1, 2, "05/02/2020, 5:20:41 PM GMT+02:00")
    definitions()
