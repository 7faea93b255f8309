#!/usr/bin/env bash
# Installs what BrainBatch needs and is missing: the C libraries (FFTW, HDF5, libdeflate, pkg-config) from Debian's
# packages, R with rhdf5 and hdf5r (the tests read the HDF5 outputs back in R), headless Chromium (the tests load
# every --report page in a real browser), and the Python packages the tests and benchmarks cross-check against.
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

apt_packages=()
if ! pkg-config --exists fftw3 hdf5 libdeflate 2>/dev/null; then
    apt_packages+=(libfftw3-dev libhdf5-dev libdeflate-dev pkg-config)
fi
if ! Rscript -e 'suppressPackageStartupMessages({library(rhdf5); library(hdf5r)})' >/dev/null 2>&1; then
    apt_packages+=(r-base-core r-bioc-rhdf5 r-cran-hdf5r)
fi
if ! command -v chromium-headless-shell >/dev/null 2>&1 && ! command -v chromium >/dev/null 2>&1; then
    apt_packages+=(chromium-headless-shell)
fi
if [ ${#apt_packages[@]} -gt 0 ]; then
    echo "setup: installing ${apt_packages[*]}" >&2
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -qq --no-install-recommends "${apt_packages[@]}" >/dev/null
fi

if ! python3 -c "import numpy, scipy, h5py, pandas, snakemake, frictionless" 2>/dev/null; then
    echo "setup: installing Python packages from requirements.txt" >&2
    python3 -m pip install --quiet --disable-pip-version-check -r requirements.txt
fi

# The EEG-BIDS tools (make bids, the signal-file and BIDS tests): their own virtual environment, .venv-bids/,
# made or brought to requirements-bids.txt's exact pins when it is missing or differs (about 600 MB).
bids_pins=$(grep -E '^[A-Za-z0-9_.-]+==' requirements-bids.txt | tr 'A-Z_' 'a-z-' | sort)
bids_have=$( { .venv-bids/bin/python -m pip freeze --disable-pip-version-check 2>/dev/null || true; } \
    | tr 'A-Z_' 'a-z-' | grep -E '^(mne|mne-bids|edfio|bids-validator-deno|pybv)==' | sort)
if [ "$bids_pins" != "$(comm -12 <(echo "$bids_pins") <(echo "$bids_have"))" ]; then
    echo "setup: installing requirements-bids.txt into .venv-bids/" >&2
    [ -x .venv-bids/bin/python ] || python3 -m venv .venv-bids
    .venv-bids/bin/python -m pip install --quiet --disable-pip-version-check -r requirements-bids.txt
fi
