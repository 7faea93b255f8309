#!/usr/bin/env bash
# Installs what BrainBatch needs and is missing: the C libraries (FFTW, HDF5, libdeflate, pkg-config) from Debian's
# packages, R with rhdf5 and hdf5r (the tests read the HDF5 outputs back in R), headless Chromium (the tests load
# every --report page in a real browser), LAPACK/BLAS (nt-analyze decode), and the pinned Python virtual environments
# (.venv, .venv-bids, .venv-pmb; below) the tests, benchmarks and study workflow use.
#   scripts/setup.sh           what `make test` and `make demo` need
#   scripts/setup.sh --slurm   also Debian's slurm-wlm and munge (scripts/slurm-local.sh, make test-slurm)
# Each step is skipped when what it installs is there, so a second run does nothing.
set -euo pipefail
slurm=false
[ "${1:-}" = "--slurm" ] && slurm=true
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
if $slurm && ! { command -v slurmctld || command -v /usr/sbin/slurmctld; } >/dev/null 2>&1; then
    apt_packages+=(slurm-wlm munge)
fi
if [ ${#apt_packages[@]} -gt 0 ]; then
    echo "setup: installing ${apt_packages[*]}" >&2
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -qq --no-install-recommends "${apt_packages[@]}" >/dev/null
fi

# Python: pinned virtual environments, each made once and checked against its pins on every run (a pin that is
# missing or of another version re-runs pip for that environment only).
#   .venv        the cross-checks of the tests and benchmarks (requirements.txt) and the study workflow
#                (requirements-study.txt); `make test` puts it first on PATH, make study uses its python
#   .venv-bids   the EEG-BIDS tools (make bids, the signal-file and BIDS tests; requirements-bids.txt, ~600 MB)
#   .venv-pmb    pymindaffectBCI 0.9.24, the reference of `nt-analyze decode` (requirements-pmb.txt: it needs
#                numpy < 1.24, so it cannot share .venv; every package pinned, installed with --no-deps)
venv_ok() {  # venv_ok DIR REQUIREMENTS...
    local dir=$1; shift
    "$dir/bin/python" - "$@" <<'EOF' 2>/dev/null
import sys
from importlib.metadata import version, PackageNotFoundError
pins = [l.split("#")[0].strip() for f in sys.argv[1:] for l in open(f)]
try:
    sys.exit(any(p and version(p.split("==")[0]) != p.split("==")[1] for p in pins))
except PackageNotFoundError:
    sys.exit(1)
EOF
}
ensure_venv() {  # ensure_venv DIR PYTHON [--no-deps] REQUIREMENTS...
    local dir=$1 python=$2 pip_options=(); shift 2
    [ "${1:-}" = --no-deps ] && { pip_options+=(--no-deps); shift; }
    venv_ok "$dir" "$@" && return 0
    echo "setup: installing $* into $dir" >&2
    [ -x "$dir/bin/python" ] || "$python" -m venv "$dir"
    "$dir/bin/python" -m pip install --quiet --disable-pip-version-check "${pip_options[@]}" $(printf -- '-r %s ' "$@")
    venv_ok "$dir" "$@" || { echo "setup: $dir does not match $* after installing" >&2; exit 1; }
}
ensure_venv .venv python3 requirements.txt requirements-study.txt
ensure_venv .venv-bids python3 requirements-bids.txt
ensure_venv .venv-pmb python3 --no-deps requirements-pmb.txt
