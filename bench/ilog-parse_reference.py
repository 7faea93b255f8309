#!/usr/bin/env python3
"""The straightforward pandas parser a researcher would write for InteractLog logs: header dict, events through
pandas.read_csv, strokes/views/keys paired in plain loops, one CSV per table. Used only by bench/ilog-parse.sh.

usage: ilog-parse_reference.py OUTDIR FILE..."""
import io, os, sys
import numpy as np
import pandas as pd

out, files = sys.argv[1], sys.argv[2:]
trials, events_all, strokes_all, views_all, keys_all = [], [], [], [], []
for path in files:
    with open(path, encoding="utf-8") as f:
        text = f.read()
    head, _, body = text.partition("\n\n")
    header = {}
    for line in head.splitlines():
        label, _, value = line.partition(":")
        header.setdefault(label.strip(), value.strip())
    ipad = "App Version" in header or body.startswith("0")
    ev = pd.read_csv(io.StringIO(body), sep=";", header=None, names=["id", "ts_raw", "x", "y", "event"],
                     dtype={"ts_raw": str}, skip_blank_lines=True)
    ts = ev["ts_raw"].astype(float) if ipad else ev["ts_raw"].astype(np.int64)
    ev["t_s"] = (ts - ts.iloc[0]) / (1e3 if ipad else 1e9)
    ev["dt_s"] = ev["t_s"].diff()
    ev["type"] = "other"
    ev.loc[ev["event"] == "DrawingEnabled", "type"] = "drawing_enabled"
    ev.loc[ev["event"] == "ButtonDown", "type"] = "button_down"
    ev.loc[ev["event"] == "ButtonReleased", "type"] = "button_released"
    ev.loc[ev["event"].str.startswith("KeyPressed_"), "type"] = "key_pressed"
    ev.loc[ev["event"].str.startswith("KeyReleased_"), "type"] = "key_released"
    stim = ev["event"].str.extract(r"^(?P<phase>.+?)(?P<onoff>On|Off)_(?P<image>.*)$")
    ev["phase"], ev["image"] = stim["phase"], stim["image"]
    ev.loc[stim["onoff"] == "On", "type"] = "stim_on"
    ev.loc[stim["onoff"] == "Off", "type"] = "stim_off"
    key = ev["event"].str.extract(r"^Key(?:Pressed|Released)_(?P<code>\d+)\((?P<descr>.*):(?P<loc>\d)\)$")
    ev["key_code"], ev["key_descr"], ev["key_location"] = pd.to_numeric(key["code"]), key["descr"], pd.to_numeric(key["loc"])
    ev.insert(0, "source_file", path)
    events_all.append(ev)

    # strokes: pair in file order
    rows, open_down, last_stim = [], None, None
    for r in ev.itertuples():
        if r.type == "stim_on":
            last_stim = r.image
        elif r.type == "button_down":
            if open_down is not None:
                rows.append((path, "unpaired_down", open_down.t_s, np.nan, open_down.x, open_down.y, np.nan, np.nan, last_stim))
            open_down = r
        elif r.type == "button_released":
            if open_down is None:
                rows.append((path, "unpaired_release", np.nan, r.t_s, np.nan, np.nan, r.x, r.y, last_stim))
            else:
                rows.append((path, "paired", open_down.t_s, r.t_s, open_down.x, open_down.y, r.x, r.y, last_stim))
                open_down = None
    st = pd.DataFrame(rows, columns=["source_file", "status", "start_s", "end_s", "x_start", "y_start", "x_end", "y_end",
                                     "last_stimulus"])
    st["duration_ms"] = (st["end_s"] - st["start_s"]) * 1000
    st["length"] = np.hypot(st["x_end"] - st["x_start"], st["y_end"] - st["y_start"])
    st["pause_before_s"] = st["start_s"] - st["end_s"].shift()
    strokes_all.append(st)

    # stimulus views
    rows, current = [], None
    for r in ev[ev["type"].isin(["stim_on", "stim_off"])].itertuples():
        if r.type == "stim_on":
            if current is not None:
                rows.append((path, current.phase, current.image, current.t_s, r.t_s))
            current = r
        elif current is not None:
            rows.append((path, current.phase, current.image, current.t_s, r.t_s))
            current = None
    if current is not None:
        rows.append((path, current.phase, current.image, current.t_s, ev["t_s"].iloc[-1]))
    vw = pd.DataFrame(rows, columns=["source_file", "phase", "image", "t_on_s", "t_off_s"])
    vw["duration_s"] = vw["t_off_s"] - vw["t_on_s"]
    views_all.append(vw)

    # keys: FIFO per code
    rows, pending = [], {}
    for r in ev[ev["type"].isin(["key_pressed", "key_released"])].itertuples():
        if r.type == "key_pressed":
            pending.setdefault(r.key_code, []).append(r)
        elif pending.get(r.key_code):
            p = pending[r.key_code].pop(0)
            rows.append((path, r.key_code, p.key_descr, p.t_s, r.t_s))
        else:
            rows.append((path, r.key_code, r.key_descr, np.nan, r.t_s))
    for queue in pending.values():
        for p in queue:
            rows.append((path, p.key_code, p.key_descr, p.t_s, np.nan))
    ky = pd.DataFrame(rows, columns=["source_file", "code", "descr", "t_press_s", "t_release_s"])
    ky["hold_s"] = ky["t_release_s"] - ky["t_press_s"]
    keys_all.append(ky)

    start = pd.to_datetime(header.get("Trial Start"), format="%d/%m/%Y - %H:%M:%S")
    end = pd.to_datetime(header.get("Trial End"), format="%d/%m/%Y - %H:%M:%S")
    trials.append({"source_file": path, "participant": header.get("Name"), "trial": int(header.get("Trial Number", 0)),
                   "experiment_start_local": pd.to_datetime(header.get("Experiment Start"), format="%d/%m/%Y - %H:%M:%S"),
                   "trial_start_local": start, "trial_end_local": end, "header_duration_s": (end - start).total_seconds(),
                   "n_events": len(ev), "n_strokes": int((st["status"] == "paired").sum()), "n_views": len(vw)})

os.makedirs(out, exist_ok=True)
pd.DataFrame(trials).to_csv(os.path.join(out, "trials.csv"), index=False)
for name, parts in [("events", events_all), ("strokes", strokes_all), ("stimulus_views", views_all), ("keys", keys_all)]:
    pd.concat(parts, ignore_index=True).to_csv(os.path.join(out, f"{name}.csv"), index=False, na_rep="NA")
