#!/usr/bin/env python3
"""The straightforward pandas/numpy version of rt-stats a researcher would write for the current format: parse the
rows with a date-anchored regular expression, group sessions by ID, recompute the app's last-100 percentile and
SessionScore, Seth Roberts' final-window percentile, and per-session mean/median/SD/trimmed mean/log mean; write
trials.csv and sessions.csv. Usage: rt-stats_reference.py OUTDIR FILE"""
import os
import re
import sys
from collections import defaultdict, deque

import numpy as np
import pandas as pd
from scipy import stats

outdir, path = sys.argv[1], sys.argv[2]
os.makedirs(outdir, exist_ok=True)
text = open(path, encoding='utf-8').read()
lines = re.split(r'\r\n|\r|\n', text)
row = re.compile(r'^(.*?),?(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} [+-]\d{4}),([^,]+),([0-9.eE+-]+)(?:,(.*))?$')
records = []
for number, line in enumerate(lines, 1):
    m = row.match(line)
    if m:
        records.append((number, m.group(1), m.group(2), m.group(3), float(m.group(4)), m.group(5)))
d = pd.DataFrame(records, columns=['line', 'id', 'time', 'label', 'value', 'e'])
d['time_utc'] = pd.to_datetime(d['time'], format='%Y-%m-%d %H:%M:%S %z')
trials = d[d['label'] != 'Session'].copy()
sessions_rows = d[d['label'] == 'Session']
trials['session'] = (trials['id'] != trials['id'].shift()).cumsum()

# The app's percentile: last 100 trials at the same target, strict inequality, current trial included.
recent = defaultdict(lambda: deque(maxlen=100))
pct = []
for label, latency in zip(trials['label'], trials['value']):
    window = recent[label]
    window.append(latency)
    pct.append(sum(1 for x in window if x > latency) / len(window))
trials['pct_app'] = pct

# Seth Roberts' percentile against the final window of 400 (valid trials only).
valid = (trials['value'] > 150) & (trials['value'] < 3000)
trials['valid_seth'] = valid
n = min(400, trials[valid].groupby('label').size().min())
comparison = {l: np.sort(g['value'].to_numpy()[-n:]) for l, g in trials[valid].groupby('label')}
ptile = np.full(len(trials), np.nan)
for i, (label, latency, ok) in enumerate(zip(trials['label'], trials['value'], valid)):
    if ok and n >= 5:
        c = comparison[label]
        a = len(c) - np.searchsorted(c, latency, 'right') + 0.5 * (np.searchsorted(c, latency, 'right') - np.searchsorted(c, latency, 'left'))
        ptile[i] = 100 * (1 / (2 * n) + a * (1 - 1 / n) / n)
trials['ptile_seth'] = ptile

g = trials.groupby('session')
sessions = pd.DataFrame({
    'session_id': g['id'].first(),
    'n_trials': g.size(),
    'pct_sum': g['pct_app'].sum(),
    'latency_mean_ms': g['value'].mean(),
    'latency_median_ms': g['value'].median(),
    'latency_sd_ms': g['value'].std(ddof=1),
    'latency_trimmed_mean_ms': g['value'].apply(lambda x: stats.trim_mean(x, 0.1)),
    'latency_log_mean': g['value'].apply(lambda x: np.log(x).mean()),
    'seth_ptile_mean': g['ptile_seth'].mean(),
})
stored = sessions_rows.set_index('id')['value']
sessions['score_stored'] = sessions['session_id'].map(stored)
sessions['score_recomputed'] = np.where(sessions['score_stored'].notna(), sessions['pct_sum'] / 32, np.nan)
trials.to_csv(os.path.join(outdir, 'trials.csv'), index=False, na_rep='NA')
sessions.to_csv(os.path.join(outdir, 'sessions.csv'), na_rep='NA')
