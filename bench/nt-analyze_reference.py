#!/usr/bin/env python3
"""The straightforward Python a researcher would write for nt-analyze's main tables (benchmark reference).

Reads a MindAffect save file line by line with regular expressions, builds messages counts, modes, trials
(gap > 1000 ms, cue by agreement with objID 0, first selection), samples (interpolated per-sample times) and
latched stimuli with numpy/pandas, and writes them to HDF5 with h5py (one group per table, one dataset per column).

    python3 nt-analyze_reference.py save.txt out.h5
"""
import collections, re, sys

import h5py
import numpy as np
import pandas as pd

LINE = re.compile(r'rts:(-?\d+) sts:(-?\d+)  t:(\w+) ts:(-?\d+)(.*) <-(\S+)$')
PACKET = re.compile(r' v\[(\d+)x(\d+)\]:(.*)')
PAIR = re.compile(r'\{(-?\d+),(-?\d+)\}')


def unwrap(values):
    values = np.asarray(values, dtype=np.int64)
    if values[0] < 0:
        values = values + 2**32
    drops = np.diff(values) < -2**31
    return values + np.concatenate([[0], np.cumsum(drops)]) * 2**32


def main(path, out):
    names, clients, rts, sts, payloads = [], [], [], [], []
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            m = LINE.match(line.rstrip('\r\n'))
            if not m:
                continue
            rts.append(int(m.group(1))); sts.append(int(m.group(2)))
            names.append(m.group(3)); payloads.append(m.group(5)); clients.append(m.group(6))
    r = unwrap(rts)
    d = ((np.asarray(sts, dtype=np.int64) - np.asarray(rts, dtype=np.int64) + 2**31) % 2**32) - 2**31
    t = np.where(np.abs(d) > 1000, r, r + d)
    names = np.array(names)

    counts = collections.Counter(zip(names, clients))
    messages = pd.DataFrame([(n, c, k) for (n, c), k in counts.items()], columns=['name', 'client', 'count'])

    # Samples.
    chunks, packet_t, packet_n = [], [], []
    for i in np.flatnonzero(names == 'DATAPACKET'):
        m = PACKET.match(payloads[i])
        nch, ns = int(m.group(1)), int(m.group(2))
        values = np.array(m.group(3).replace('][', ',').strip('[]').replace(',,', ',').rstrip(',').split(','), dtype=np.float32)
        chunks.append(values.reshape(ns, nch)); packet_t.append(t[i]); packet_n.append(ns)
    X = np.concatenate(chunks)
    packet_t = np.asarray(packet_t, dtype=float); packet_n = np.asarray(packet_n)
    fs = (packet_n.sum() - packet_n[0]) * 1000 / (packet_t[-1] - packet_t[0])
    fs = min([100, 125, 128, 200, 250, 256, 500, 512, 1000, 1024, 2048], key=lambda s: abs(s - fs))
    stamps = [packet_t[0] - (packet_n[0] - np.arange(1, packet_n[0] + 1)) * 1000 / fs]
    prev = packet_t[0]
    for T, n in zip(packet_t[1:], packet_n[1:]):
        if T <= prev:
            stamps.append(np.full(n, prev))
        else:
            stamps.append(prev + (T - prev) * np.arange(1, n + 1) / n)
            prev = T
    samples = pd.DataFrame(X, columns=[f'ch{c + 1}_uv' for c in range(X.shape[1])])
    samples.insert(0, 't_ms', np.concatenate(stamps))

    # Stimuli, latched.
    ev = np.flatnonzero(names == 'STIMULUSEVENT')
    pairs = [[(int(a) % 256, int(b) % 256) for a, b in PAIR.findall(payloads[i])] for i in ev]
    objids = sorted({o for p in pairs for o, _ in p})
    col = {o: k for k, o in enumerate(objids)}
    S = np.zeros((len(ev), len(objids)), dtype=np.uint8)
    row = np.zeros(len(objids), dtype=np.uint8)
    for e, p in enumerate(pairs):
        for o, s in p:
            row[col[o]] = s
        S[e] = row
    stimuli = pd.DataFrame(S, columns=[f'obj{o}' for o in objids])
    stimuli.insert(0, 't_ms', t[ev])

    # Modes and trials.
    modes = pd.DataFrame({'t_ms': t[names == 'MODECHANGE'],
                          'mode': [payloads[i][6:] for i in np.flatnonzero(names == 'MODECHANGE')]})
    et = t[ev]
    starts = np.concatenate([[0], np.flatnonzero(np.diff(et) > 1000) + 1])
    ends = np.concatenate([starts[1:] - 1, [len(ev) - 1]])
    sel_idx = np.flatnonzero(names == 'SELECTION')
    rows = []
    for k, (a, b) in enumerate(zip(starts, ends)):
        before = modes[modes['t_ms'] <= et[a]]
        mode = before['mode'].iloc[-1] if len(before) else None
        cue, best = None, -1.0
        if 0 in col:
            for o in objids:
                if o == 0:
                    continue
                agree = np.mean(S[a:b + 1, col[o]] == S[a:b + 1, col[0]])
                if agree > best:
                    cue, best = o, agree
        nxt = ev[starts[k + 1]] if k + 1 < len(starts) else len(names)
        sel = [i for i in sel_idx if ev[a] <= i < nxt]
        selected = int(payloads[sel[0]][4:]) if sel else None
        rows.append(dict(trial=k, mode=mode, t_start_ms=et[a], duration_ms=et[b] - et[a], n_frames=b - a + 1,
                         cued_target=cue if best >= 0.95 else None, cue_agreement=best, selected=selected,
                         correct=(selected == cue) if sel and cue is not None else None,
                         time_to_selection_ms=(t[sel[0]] - et[a]) if sel else None))
    trials = pd.DataFrame(rows)

    with h5py.File(out, 'w') as h5:
        for name, table in [('messages', messages), ('modes', modes), ('trials', trials),
                            ('samples', samples), ('stimuli', stimuli)]:
            g = h5.create_group(name)
            for column in table.columns:
                values = table[column].to_numpy()
                if values.dtype == object:
                    values = np.array([str(v) for v in values], dtype=h5py.string_dtype())
                g.create_dataset(column, data=values)


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
