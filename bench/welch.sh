#!/usr/bin/env bash
# Welch PSD (scipy defaults at 250 Hz: periodic Hann, nperseg 256, 50 % overlap, constant detrend, density) over
# a 4-channel 1-hour recording (900,000 samples per channel): Spectral's Welch on one core against
# scipy.signal.welch on the same data in the same run, best of N runs each (computation only, not file reading),
# the results compared, and the ratio printed. Target: ≤ 30 ms and ≥ 5× faster than scipy.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
runs=${RUNS:-20}
scratch=${SCRATCH:-$root/.build-welch-bench}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

swift build -c release --package-path Benchmarks --scratch-path "$scratch" --product WelchTiming >/dev/null
bin=$(swift build -c release --package-path Benchmarks --scratch-path "$scratch" --show-bin-path)

# The recording: white noise plus a 10-Hz alpha line and a slow drift, in µV, channel-major float64.
python3 - "$work/signal.f64" <<'PY'
import sys, numpy as np
rng = np.random.default_rng(1)
n = 900_000
t = np.arange(n) / 250
x = np.stack([10 * rng.standard_normal(n) + 20 * np.sin(2 * np.pi * 10 * t + c) + 5 * np.sin(0.3 * t)
              for c in range(4)])
x.astype('<f8').tofile(sys.argv[1])
PY

# One core for both.
swift_ms=$(taskset -c 0 "$bin/WelchTiming" "$work/signal.f64" 4 "$runs" "$work/psd.f64")
OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 \
    taskset -c 0 python3 bench/welch_reference.py "$work/signal.f64" "$runs" "$work/psd.f64" "$swift_ms"
