#!/usr/bin/env python3
"""Writes the constructed sample inputs of rt-stats (nothing here is copied from a real file).

BrainTrackerResultsFile.csv: one simulated user from April to December 2014, every row layout of the spec
(braintracker.md §6) in its era, with the app's own line ends (LF before 2014-09-11, CR after), the stale header,
commas and '|' in comments, a hand-edited stretch with empty-ID session rows, an abandoned attempt split off by a
gap, aborted sessions, a 3-trial test session and a session with Redo rows. Session rows carry the SessionScore
the app would have stored (§7: all-history rule before 2014-09-18 17:43:33 UTC, last-100 window after; N = 32).

brain_data_raw.csv: a small export of Seth Roberts' R program (§9) with the row-name column, warm-ups,
too-fast/too-slow, wrong and correction trials.

Usage: python3 make_sample.py [folder]   (deterministic: fixed seed)
"""
import datetime as dt
import random
import sys
from pathlib import Path

out = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent)
rng = random.Random(20141212)
UTC = dt.timezone.utc
CUTOVER = dt.datetime(2014, 9, 18, 17, 43, 33, tzinfo=UTC)
N = 32
history = []          # (label, latency ms) of every trial row, in file order


def stamp(t):
    return t.strftime('%Y-%m-%d %H:%M:%S +0000')


def percentile(label, latency, rule):
    same = [x for (l, x) in history if l == label]
    if rule == 'window100':
        same = same[-100:]
    return sum(1 for x in same if x > latency) / len(same)


def latency_for(label):
    base = 330 + 12 * int(label)
    return round(max(160.0, rng.gauss(base, 45)) + (900 if rng.random() < 0.02 else 0), 6)


class File:
    def __init__(self):
        self.lines = []            # (text, terminator)

    def add(self, text, eol):
        self.lines.append((text, eol))

    def write(self, path):
        data = ''.join(t + e for t, e in self.lines[:-1]) + self.lines[-1][0]   # no final terminator, as the app
        Path(path).write_bytes(data.encode('utf-8'))


def session(f, start, trials, *, layout, eol, comment, sid=None, session_row=True, legacy_factor=1.0,
            redo=0):
    """Appends one session's rows; returns the time after it."""
    rule = 'all-history' if start < CUTOVER else 'window100'
    t = start + dt.timedelta(seconds=rng.randint(8, 20))
    total = 0.0
    rows = trials + redo
    for i in range(rows):
        label = str(rng.randint(1, 6))
        ms = latency_for(label)
        history.append((label, ms))
        total += percentile(label, ms, rule)
        value = ms / legacy_factor
        text_value = f'{value:f}'
        if layout == 'legacy4':
            f.add(f'{stamp(t)},{label},{text_value},Target Response={label}', eol)
        elif layout == 'hand':
            f.add(f'{sid},{stamp(t)},{label},{text_value},{comment}', eol)
        elif layout == 'paren':
            f.add(f'(timestamp={stamp(t)}),{label},{text_value},{comment}', eol)
        else:
            f.add(f'{sid},{stamp(t)},{label},{text_value},{sid}', eol)
        t += dt.timedelta(seconds=rng.choice([3, 3, 3, 4]))
    if session_row:
        score = f'{total / N:f}'
        if layout == 'legacy4':
            f.add(f'{stamp(t)},Session,{score},{comment}', eol)
        elif layout == 'hand':
            f.add(f',{stamp(t)},Session,{score},{comment}', eol)
        elif layout == 'paren':
            f.add(f'{stamp(t)},Session,{score},{comment}', eol)
        else:
            f.add(f'{sid},{stamp(start)},Session,{score},{comment}', eol)
    return t


def app_id(comment, start, offset_min):
    local = start + dt.timedelta(minutes=offset_min)
    week_year = local.isocalendar()[0] if False else int(local.strftime('%G'))   # Unicode YYYY ≈ ISO week year
    return f'ID{comment}|{week_year}{local.month:02d}{local.timetuple().tm_yday:02d}{local.hour:02d}{local.minute:02d}'


f = File()
f.add('date,string,latency (mSec),comment', '\n')
# April 2014: seconds (03df941), then ms÷10 (528e457), then ms.
session(f, dt.datetime(2014, 4, 8, 15, 0, tzinfo=UTC), N, layout='legacy4', eol='\n', comment='first try', legacy_factor=1000)
session(f, dt.datetime(2014, 4, 23, 15, 0, tzinfo=UTC), N, layout='legacy4', eol='\n', comment='after lunch', legacy_factor=10)
session(f, dt.datetime(2014, 5, 2, 15, 0, tzinfo=UTC), N, layout='legacy4', eol='\n', comment='morning')
# August: hand-made IDs and empty-ID session rows; one abandoned attempt 9.6 h before the real session.
session(f, dt.datetime(2014, 8, 1, 13, 52, tzinfo=UTC), N, layout='hand', eol='\n', sid='ID080113m', comment='morning coffee')
session(f, dt.datetime(2014, 8, 2, 3, 28, tzinfo=UTC), 4, layout='hand', eol='\n', sid='ID080203m',
        comment='morning coffee, then a walk', session_row=False)
session(f, dt.datetime(2014, 8, 2, 13, 7, tzinfo=UTC), N, layout='hand', eol='\n', sid='ID080203m',
        comment='morning coffee, then a walk')
# From 2014-09-11 the app ends rows with CR; the file continues with mixed line ends.
session(f, dt.datetime(2014, 9, 12, 13, 16, tzinfo=UTC), N, layout='hand', eol='\r', sid='ID091213m', comment='morning coffee')
session(f, dt.datetime(2014, 9, 20, 12, 27, tzinfo=UTC), N, layout='hand', eol='\r', sid='ID092012m', comment='morning coffee')
session(f, dt.datetime(2014, 9, 23, 12, 33, tzinfo=UTC), N, layout='paren', eol='\r', comment='morning (timestamp build)')
# Current format (2014-09-25 on), IDs stamped in local time (UTC−7, then UTC−8).
start = dt.datetime(2014, 9, 25, 16, 48, 34, tzinfo=UTC)
session(f, start, 3, layout='current', eol='\r', sid=app_id('2New', start, -420), comment='2New')
start = dt.datetime(2014, 11, 22, 17, 59, 45, tzinfo=UTC)
session(f, start, N, layout='current', eol='\r', sid=app_id('morning after shower', start, -480),
        comment='morning after shower', redo=2)
start = dt.datetime(2014, 12, 9, 3, 22, 58, tzinfo=UTC)
session(f, start, 5, layout='current', eol='\r', sid=app_id('scout meeting, Z=7|b', start, -480),
        comment='scout meeting, Z=7|b', session_row=False)
start = dt.datetime(2014, 12, 9, 3, 24, 10, tzinfo=UTC)
session(f, start, N, layout='current', eol='\r', sid=app_id('scout meeting, Z=7|b', start, -480),
        comment='scout meeting, Z=7|b')
start = dt.datetime(2014, 12, 29, 16, 0, 5, tzinfo=UTC)      # week-based year 2015 in the ID
session(f, start, N, layout='current', eol='\r', sid=app_id('year end', start, -480), comment='year end')
f.write(out / 'BrainTrackerResultsFile.csv')

# Seth Roberts' R export (write.csv with row names).
cols = ['when', 'condition', 'trial', 'foreperiod.msec', 'problem', 'latency.msec', 'latency.ptile',
        'actual.answer', 'correct', 'include', 'note']
rows = []
t0 = dt.datetime(2014, 3, 8, 10, 40)
for s in range(6):
    start = t0 + dt.timedelta(days=s)
    warm = f'{start:%Y-%m-%d %H:%M} warmup'
    for i in range(6):
        p = str(rng.randint(2, 8))
        rows.append([start + dt.timedelta(seconds=4 * i), warm, i + 1, 1500, p, int(latency_for(p)), 'NA', p,
                     'TRUE', 'FALSE', 'warmup'])
    start += dt.timedelta(minutes=2)
    cond = f'{start:%Y-%m-%d %H:%M}  D-Ribose at bed, "breakfast" {s}'
    trial, i = 1, 0
    while trial <= 32:
        p = str(rng.randint(2, 8))
        ms = int(latency_for(p))
        note, correct, include = '', 'TRUE', 'TRUE'
        r = rng.random()
        if r < 0.03:
            ms, note, include = 140, 'too fast', 'FALSE'
        elif r < 0.06:
            correct, include, note = 'FALSE', 'TRUE', ''
        rows.append([start + dt.timedelta(seconds=4 * i), cond, trial, 1500, p, ms, 'NA',
                     p if correct == 'TRUE' else str(rng.randint(2, 8)), correct, include, note])
        if correct == 'FALSE':
            i += 1
            rows.append([start + dt.timedelta(seconds=4 * i), cond, trial, 1500, p, int(latency_for(p)), 'NA', p,
                         'TRUE', 'FALSE', 'correction trial'])
        elif include == 'TRUE':
            trial += 1
        i += 1


def q(x):
    return '"' + str(x).replace('"', '""') + '"'


with open(out / 'brain_data_raw.csv', 'w', newline='') as r:
    r.write(','.join(q(c) for c in [''] + cols) + '\n')
    order = list(range(len(rows)))
    for n in order:
        w, c, tr, fp, p, ms, pt, ans, co, inc, note = rows[n]
        r.write(','.join([q(n + 1), q(f'{w:%Y-%m-%d %H:%M:%S}'), q(c), str(tr), str(fp), q(p), str(ms), pt, q(ans),
                          co, inc, q(note)]) + '\n')
print(f'wrote {out}/BrainTrackerResultsFile.csv and {out}/brain_data_raw.csv')
