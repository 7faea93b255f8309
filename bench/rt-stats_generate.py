#!/usr/bin/env python3
"""Writes a sizeable constructed BrainTrackerResultsFile.csv in the current format (CR line ends, 5 fields,
session rows after their trials) for the rt-stats benchmark. Usage: rt-stats_generate.py OUT SESSIONS"""
import datetime as dt
import random
import sys

out, sessions = sys.argv[1], int(sys.argv[2])
rng = random.Random(7)
t = dt.datetime(2014, 9, 26, 16, 0, 0)
rows = ['date,string,latency (mSec),comment']
for s in range(sessions):
    start = t
    local = start - dt.timedelta(hours=8)
    comment = rng.choice(['morning coffee', 'after lunch, tired', 'evening|late', 'before bed'])
    sid = f'ID{comment}|{local:%G%m}{local.timetuple().tm_yday:02d}{local:%H%M}'
    n = 32 if rng.random() > 0.05 else rng.randint(1, 31)
    for i in range(n):
        t += dt.timedelta(seconds=3)
        label = str(rng.randint(1, 6))
        rows.append(f'{sid},{t:%Y-%m-%d %H:%M:%S} +0000,{label},{max(160.0, rng.gauss(380, 60)):f},{sid}')
    if n == 32:
        rows.append(f'{sid},{start:%Y-%m-%d %H:%M:%S} +0000,Session,{rng.random():f},{comment}')
    t += dt.timedelta(hours=rng.randint(3, 20))
with open(out, 'w', newline='') as f:
    f.write('\r'.join(rows))
