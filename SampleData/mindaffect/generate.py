#!/usr/bin/env python3
"""Writes a constructed MindAffect hub save file (spec mindaffect.md §1), with every trap of §1.5.

Nothing here is copied from a real recording: the EEG is sine waves plus seeded noise, the stimuli come from the
65_6532 Gold codes regenerated below, and the clocks are made up.

    python3 generate.py [--prediction-trials N] [--seed S] > mindaffectBCI_sample_261123_1200.txt
    python3 generate.py --prediction-trials 20 --response-uv 10 > synthetic.txt   # with a brain response

With --response-uv A (default 0: none, and the default file is unchanged) every channel c also gets
A * MIX[c] * the cued target's stimulus convolved with a known impulse response (`impulse_response` below): per
rising edge of the cue's state RESPONSE_RE, per falling edge RESPONSE_FE, from the frame's hub time on. The decoder
tests (Tests/MindAffectTests/DecodeTests.swift) recover that shape.

Facts of the default file (checked by Tests/MindAffectTests/SampleFileTests.swift):
  4 trials: 2 Calibration.supervised (cues 3, 5; 253 frames), 2 Prediction.static (cues 2, 4; 150 and 200 frames),
  selections 2 and 1 (1 of 2 correct); 4 channels at 200 Hz; first packet 100 samples; packet sizes cycle
  6, 4, 2, 8; 2 packets repeat the previous sts; rts crosses 2^31 (prints negative); the DATAHEADER is swapped;
  the decoder's PREDICTEDTARGETPROB/DIST use hub time mod 2^24 (W-STS); one unknown NAME; a truncated last line.
"""
import argparse, math, random, sys

import numpy as np

FS = 200
CHANNELS = 4
OBJECTS = 6                     # objIDs 1..6, plus 0 for the cued target
ACQ, PRES, DEC = "/127.0.0.1:50001", "/127.0.0.1:50002", "/127.0.0.1:50003"
HUB0 = 2**31 - 4000             # hub ms at the first line: the 32-bit rts turns negative 4 s in (T2)


def m_sequence(taps):
    a = [1] * 6
    for j in range(6, 69):
        bit = 0
        for t in taps:
            bit ^= a[j - t]
        a.append(bit)
    return a[6:]


def gold_65_6532():
    q, p = m_sequence([6, 5]), m_sequence([6, 5, 3, 2])
    codes = [[p[n] ^ q[(n - i) % 63] for n in range(63)] for i in range(63)] + [q, p]
    return [[v for b in code for v in (b, 1 - b)] for code in codes]   # psk: frames b, 1-b


MIX = (1.0, 0.6, -0.4, 0.2)     # the response's weight per channel


def impulse_response(t_s, kind, fe_ratio=-0.5):
    """The synthetic brain response t_s seconds after a rising ('re') or falling ('fe') edge of the cue's state:
    an 8 Hz damped sine (decay 80 ms) over 0.45 s; the falling edge's is fe_ratio times it."""
    if t_s < 0 or t_s >= 0.45:
        return 0.0
    value = math.sin(2 * math.pi * 8 * t_s) * math.exp(-t_s / 0.08)
    return value if kind == 're' else fe_ratio * value


def int32(x):
    x &= 0xFFFFFFFF
    return x - 2**32 if x >= 2**31 else x


def java_float(x):
    x = np.float32(x)
    if x == 0:
        return "0.0"
    if 1e-3 <= abs(x) < 1e7:
        text = np.format_float_positional(x, unique=True, trim='0')
        return text if '.' in text else text + '.0'
    text = np.format_float_scientific(x, unique=True, trim='0', exp_digits=1)
    mantissa, exponent = text.split('e')
    if '.' not in mantissa:
        mantissa += '.0'
    return mantissa + 'E' + str(int(exponent))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--prediction-trials', type=int, default=2)
    parser.add_argument('--seed', type=int, default=7)
    parser.add_argument('--response-uv', type=float, default=0.0, help='amplitude of the cue-locked brain response')
    parser.add_argument('--background-uv', type=float, default=20.0, help='amplitude of the 10-13 Hz background sines')
    parser.add_argument('--noise-uv', type=float, default=5.0, help='SD of the Gaussian noise')
    parser.add_argument('--fe-ratio', type=float, default=-0.5, help="the falling edge's response relative to the rising edge's")
    args = parser.parse_args()
    edges = []   # (hub ms, 're' or 'fe') of the cue's state
    rng = random.Random(args.seed)
    codes = gold_65_6532()
    lines = []   # (hub ms, order, text)

    def log(hub, name, payload, client, sts=None, ts=None, order=0):
        sts = hub if sts is None else sts
        ts = (hub - HUB0 + 5000) if ts is None else ts
        lines.append((hub, order, f"rts:{int32(hub)} sts:{int32(sts)}  t:{name} ts:{int32(ts)}{payload} <-{client}"))

    # Presentation and decoder: the trial schedule.
    t = HUB0 + 1000
    log(HUB0, "DATAHEADER", " fs4.0 ch[200]:", ACQ, sts=9728, ts=9728)          # T1, and sts = ts (T3)
    log(t, "MODECHANGE", " mode:idle", PRES); t += 1500
    log(t, "LOG", " msg:starting: calibration", PRES)
    log(t + 1, "FUTUREMSG", " x:1", PRES)                                     # unknown NAME
    log(t + 500, "MODECHANGE", " mode:Calibration.supervised", PRES); t += 1000
    calibration_cues = [3, 5]
    prediction_cues = [2, 4] + [rng.randint(1, OBJECTS) for _ in range(max(0, args.prediction_trials - 2))]
    prediction_frames = [150, 200] + [rng.randint(120, 300) for _ in range(max(0, args.prediction_trials - 2))]
    prediction_selected = [2, 1] + [c if rng.random() < 0.8 else (c % OBJECTS) + 1 for c in prediction_cues[2:]]

    def trial(start, cue, frames, blank_last):
        log(start - 2048, "NEWTARGET", "", PRES)
        previous = 0
        for f in range(frames):
            hub = start + round(f * 1000 / 60)
            blank = blank_last and f == frames - 1
            states = [0 if blank else codes[k - 1][f % 126] for k in range(1, OBJECTS + 1)]
            if states[cue - 1] != previous:
                edges.append((hub, 're' if states[cue - 1] == 1 else 'fe'))
                previous = states[cue - 1]
            pairs = "".join(f"{{{k},{s}}}" for k, s in zip(range(1, OBJECTS + 1), states))
            pairs += f"{{0,{states[cue - 1]}}}"
            log(hub, "STIMULUSEVENT", f" v[{OBJECTS + 1}]:{pairs}", PRES, sts=hub - 1)
        return start + round((frames - 1) * 1000 / 60)

    for cue in calibration_cues:
        end = trial(t + 2048, cue, 253, blank_last=True)
        t = end + 3000
    log(t, "MODECHANGE", " mode:idle", PRES); t += 1200
    log(t, "MODECHANGE", " mode:Prediction.static", PRES); t += 500
    for cue, frames, selected in zip(prediction_cues, prediction_frames, prediction_selected):
        end = trial(t + 2048, cue, frames, blank_last=False)
        sel = end + 2
        decoder_ts = (sel - 5) % 2**24 - 19
        log(sel - 5, "PREDICTEDTARGETPROB", f" Yest:{selected} Perr:0.15", DEC, sts=decoder_ts + 15503091, ts=decoder_ts)
        log(sel - 4, "PREDICTEDTARGETDIST", f" v[1]:{{{selected},0.85}}", DEC, sts=decoder_ts + 15503092, ts=decoder_ts + 1)
        log(sel, "SELECTION", f" id:{selected}", PRES, sts=sel - 1)
        t = sel + 1030
    log(t, "MODECHANGE", " mode:idle", PRES)
    end_of_run = t + 1000

    # Heartbeats every second from the presentation and decoder, signal quality every 2 s.
    hb = HUB0 + 900
    while hb < end_of_run:
        log(hb, "HEARTBEAT", " v:Presentation:selectionMatrix", PRES, order=1)
        log(hb + 300, "HEARTBEAT", " v:decoder", DEC, order=1)
        hb += 1000
    sq = HUB0 + 1100
    while sq < end_of_run:
        values = "".join(java_float(3 + 2 * rng.random()) + "," for _ in range(CHANNELS))
        log(sq, "SIGNALQUALITY", f" [{CHANNELS}] {values}", DEC, order=1)
        sq += 2000

    # Acquisition: 200 Hz; a 100-sample backlog first, then packets of 6, 4, 2, 8 samples (T4, T5).
    first_sample = HUB0 + 1200 - 99 * 5
    n_samples = (end_of_run - first_sample) // 5
    sizes = [100]
    while sum(sizes) < n_samples:
        sizes.append([6, 4, 2, 8][len(sizes) % 4])
    response = np.zeros(sum(sizes))
    if args.response_uv:
        for hub, kind in edges:
            first = max(0, -(-(hub - first_sample) // 5))
            for n in range(first, min(len(response), first + 100)):
                response[n] += args.response_uv * impulse_response((first_sample + n * 5 - hub) / 1000, kind, args.fe_ratio)
    k = 0
    previous_sts = None
    for index, size in enumerate(sizes):
        rows = []
        for j in range(size):
            tt = (k + j) / FS
            rows.append("[" + "".join(java_float(args.background_uv * math.sin(2 * math.pi * (10 + c) * tt) + rng.gauss(0, args.noise_uv) - 150 * (c == 3)
                                                 + (MIX[c] * response[k + j] if args.response_uv else 0)) + ","
                                      for c in range(CHANNELS)) + "]")
        last = first_sample + (k + size - 1) * 5
        sts = previous_sts if index in (40, 41) else last + 1                     # two packets repeat the sts
        log(last + 3, "DATAPACKET", f" v[{CHANNELS}x{size}]:" + "".join(rows), ACQ, sts=sts, ts=(last % 2**24) + 149000000, order=2)
        previous_sts = sts
        k += size

    lines.sort(key=lambda item: (item[0], item[1]))
    out = sys.stdout
    for _, _, text in lines:
        out.write(text + "\n")
    # A crash mid-write (T6).
    out.write(f"rts:{int32(end_of_run + 10)} sts:{int32(end_of_run + 10)}  t:DATAPACKET ts:1 v[4x4]:[30.601732,-4")


if __name__ == '__main__':
    main()
