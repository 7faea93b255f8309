#!/usr/bin/env python3
"""Runs pymindaffectBCI 0.9.24's offline analysis of one MindAffect save file: the reference of `nt-analyze decode`.

Run it with the pinned environment's interpreter, `.venv-pmb/bin/python scripts/pmb_decode.py FILE OUT_DIR`
(scripts/setup.sh makes .venv-pmb). PMB's loader writes pickles into the working folder, so this script works in a
temporary folder of its own and removes it.

    --mode reference (default): the stages one by one, written to OUT_DIR: summary.json (shapes, fs, trial starts,
        W, R, A, b, audc_score, the decoding curve with the tie-breaking noise off) and the arrays X.f32 (trials x samples
        x channels, float32), Y.i32 (trials x samples x outputs), Fy.f32 (the cross-validated scores), raw little-endian.
    --mode analyse: what a PMB user runs, `load_mindaffectBCI` then `analyse_dataset` (seeded), timing only; prints
        the audc_score.
"""
import argparse
import json
import os
import shutil
import sys
import tempfile

import numpy as np


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("savefile")
    parser.add_argument("out", nargs="?")
    parser.add_argument("--mode", choices=("reference", "analyse"), default="reference")
    parser.add_argument("--tau-ms", type=float, default=450)
    args = parser.parse_args()
    savefile = os.path.abspath(args.savefile)
    out = os.path.abspath(args.out) if args.out else None
    work = tempfile.mkdtemp(prefix="pmb-decode-")
    cwd = os.getcwd()
    os.chdir(work)
    try:
        # PMB prints its progress on stdout; keep stdout for our own result.
        real_stdout = sys.stdout
        sys.stdout = sys.stderr
        from mindaffectBCI.decoder.offline.load_mindaffectBCI import load_mindaffectBCI
        from mindaffectBCI.decoder.analyse_datasets import analyse_dataset
        from mindaffectBCI.decoder.model_fitting import MultiCCA
        from mindaffectBCI.decoder.decodingCurveSupervised import decodingCurveSupervised
        np.random.seed(0)
        X, Y, coords = load_mindaffectBCI(savefile)
        if args.mode == "analyse":
            score, *_ = analyse_dataset(X, Y, coords, model="cca", tau_ms=args.tau_ms, evtlabs=("re", "fe"), rank=1, cv=5)
            sys.stdout = real_stdout
            print(json.dumps({"audc_score": float(score)}))
            return
        fs = coords[1]["fs"]
        tau = int(args.tau_ms * fs / 1000)
        model = MultiCCA(tau=tau, evtlabs=("re", "fe"), rank=1, center=True)
        result = model.cv_fit(X, Y, cv=5)
        raw_fy = result["rawestimator"]
        score = model.audc_score(raw_fy)
        lengths, perr, perr_est, _, _, yerr, trial_perr = decodingCurveSupervised(
            raw_fy, marginalizedecis=True, minDecisLen=model.minDecisLen, bwdAccumulate=model.bwdAccumulate,
            priorsigma=(model.sigma0_, model.priorweight), softmaxscale=model.softmaxscale_,
            nEpochCorrection=model.startup_correction, tiebreaking_noise=0)
        sys.stdout = real_stdout
        os.makedirs(out, exist_ok=True)
        # The loader's raw per-sample times (the last column of the pickle it left in the working folder), unwrapped.
        import pickle
        from mindaffectBCI.decoder.utils import unwrap
        with open("raw_lmbci.pk", "rb") as f:
            raw_ts = unwrap(pickle.load(f)["data"][:, -1].astype(np.float64))
        np.ascontiguousarray(raw_ts, dtype="<f8").tofile(os.path.join(out, "ts.f64"))
        np.ascontiguousarray(X, dtype="<f4").tofile(os.path.join(out, "X.f32"))
        np.ascontiguousarray(Y, dtype="<i4").tofile(os.path.join(out, "Y.i32"))
        np.ascontiguousarray(raw_fy, dtype="<f4").tofile(os.path.join(out, "Fy.f32"))
        summary = {
            "pmb_version": "0.9.24",
            "X_shape": list(X.shape), "Y_shape": list(Y.shape), "fs": float(fs), "tau": tau,
            "trial_ts": [int(t) for t in coords[0]["coords"]],
            "W": np.asarray(model.W_, dtype=float).reshape(-1).tolist(),
            "R": np.asarray(model.R_, dtype=float).reshape(-1).tolist(),
            "A": np.asarray(model.A_, dtype=float).reshape(-1).tolist(),
            "b": np.asarray(model.b_, dtype=float).reshape(-1).tolist(),
            "sigma0": float(model.sigma0_), "softmaxscale": float(model.softmaxscale_),
            "fold_scores": [float(s) for s in result["test_score"]],
            "audc_score": float(score),
            "integration_lengths": [int(n) for n in lengths],
            "perr": [float(p) for p in perr], "perr_est": [float(p) for p in perr_est],
            "trial_wrong": np.asarray(yerr, dtype=bool).astype(int).tolist(),
            "trial_perr": np.asarray(trial_perr, dtype=float).tolist(),
        }
        with open(os.path.join(out, "summary.json"), "w") as f:
            json.dump(summary, f)
    finally:
        os.chdir(cwd)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
