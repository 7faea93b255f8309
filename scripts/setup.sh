#!/usr/bin/env bash
# Installs what BrainBatch needs and is missing: the C libraries (FFTW, HDF5, libdeflate, pkg-config) from Debian's
# packages, and the Python packages the tests and benchmarks cross-check against.
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

if ! pkg-config --exists fftw3 hdf5 libdeflate 2>/dev/null; then
    echo "setup: installing libfftw3-dev libhdf5-dev libdeflate-dev pkg-config" >&2
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq libfftw3-dev libhdf5-dev libdeflate-dev pkg-config >/dev/null
fi

if ! python3 -c "import numpy, scipy, h5py, pandas, snakemake" 2>/dev/null; then
    echo "setup: installing Python packages from requirements.txt" >&2
    python3 -m pip install --quiet --disable-pip-version-check -r requirements.txt
fi
