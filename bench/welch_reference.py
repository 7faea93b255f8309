"""The Welch PSD a researcher would compute with scipy, timed on the same data as Spectral's Welch.

Usage: welch_reference.py SIGNAL.f64 RUNS SWIFT_PSD.f64 SWIFT_MS
SIGNAL.f64 holds 4 channels (channel-major, float64); SWIFT_PSD.f64 the Swift estimates for comparison.
"""
import sys
import time

import numpy as np
import scipy.signal

signal_path, runs, swift_psd_path, swift_ms = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
x = np.fromfile(signal_path, dtype='<f8').reshape(4, -1)

best = float('inf')
for _ in range(runs):
    start = time.perf_counter()
    f, psd = scipy.signal.welch(x, fs=250, axis=-1)  # defaults: hann, nperseg 256, 50 %, constant, density
    best = min(best, time.perf_counter() - start)
scipy_ms = best * 1000

swift = np.fromfile(swift_psd_path, dtype='<f8').reshape(psd.shape)
rel = np.max(np.abs(swift - psd) / np.maximum(np.abs(psd), 1e-300))

print(f"Welch PSD, 4 channels x 1 hour at 250 Hz ({x.shape[1]:,} samples each, "
      f"{(x.shape[1] - 256) // 128 + 1:,} segments per channel), best of {runs}, one core")
print(f"Spectral (Swift + FFTW): {swift_ms:8.2f} ms")
print(f"scipy.signal.welch     : {scipy_ms:8.2f} ms")
print(f"ratio (scipy / Spectral): {scipy_ms / swift_ms:.1f}x")
print(f"largest relative difference of the PSDs: {rel:.2e}")
