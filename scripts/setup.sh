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
# LAPACK and BLAS (reference netlib builds, through LAPACKE and CBLAS) for `nt-analyze decode`.
if ! pkg-config --exists lapacke blas 2>/dev/null; then
    apt_packages+=(liblapacke-dev libblas-dev pkg-config)
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

# pymindaffectBCI 0.9.24, the reference of `nt-analyze decode`, in its own virtual environment .venv-pmb/ (it needs
# numpy < 1.24): made from requirements-pmb.txt, remade only when that file changes (its SHA-256 is kept inside).
pmb_stamp=.venv-pmb/requirements-pmb.sha256
pmb_want=$(sha256sum requirements-pmb.txt | cut -d' ' -f1)
if [ "$(cat "$pmb_stamp" 2>/dev/null)" != "$pmb_want" ] || ! .venv-pmb/bin/python -c "import mindaffectBCI" 2>/dev/null; then
    echo "setup: making .venv-pmb (pymindaffectBCI 0.9.24) from requirements-pmb.txt" >&2
    rm -rf .venv-pmb
    python3 -m venv .venv-pmb
    .venv-pmb/bin/python -m pip install --quiet --disable-pip-version-check --no-deps -r requirements-pmb.txt
    echo "$pmb_want" > "$pmb_stamp"
fi
