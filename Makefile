# BrainBatch: build, test and run the tools.
#   make demo   set up what is missing, build in release mode, run every tool on SampleData/ into out/
#   make test   set up what is missing, build, run the whole test suite
#   make man    generate the man pages into docs/man (built in .build-man, away from the release build)
#   make install [PREFIX=~/.local]   release build, then the tools into PREFIX/bin, brainbatch_tables.py into
#               PREFIX/share/brainbatch/python and the man pages (if made) into PREFIX/share/man/man1
#   make uninstall [PREFIX=~/.local]   removes exactly what `make install` put there
#   make fuzz [SECONDS=60]   build the libFuzzer targets of Fuzz/ and run each for SECONDS (make fuzz-short: 60 s each, part of make test)
#   make fuzz-volume [SECONDS=60]   the same targets without AddressSanitizer, for many more executions per second
SHELL := /bin/bash
SWIFT ?= swift
RELEASE := .build/release
# Release tools carry the Swift runtime, HDF5, FFTW and libdeflate inside (process start falls from 21 to 12 ms;
# they run on cluster nodes without Swift): scripts/static-libs.sh points pkg-config at the static archives.
# Linked as position-dependent executables: the loader then has no relocations to apply (2 ms less at start); the
# price is a fixed load address for the tool's own code (libraries and stacks are still randomised).
RELEASE_FLAGS := --static-swift-stdlib -Xlinker -no-pie
OUT ?= out
TOOLS := bt-decode bt-synth ilog-parse rt-stats mynd-parse nt-analyze
PREFIX ?= $(HOME)/.local
BINDIR := $(PREFIX)/bin
PYDIR := $(PREFIX)/share/brainbatch/python
MAN1DIR := $(PREFIX)/share/man/man1
PYTABLES := python/brainbatch_tables.py

.PHONY: setup build release demo test test-slurm man install uninstall completions bench bench-study bench-scale clean fuzz fuzz-build fuzz-short fuzz-volume fuzz-volume-build

setup:
	@scripts/setup.sh

build: setup
	$(SWIFT) build

release: setup
	static=$$(scripts/static-libs.sh) && \
	PKG_CONFIG_PATH=$$static$${PKG_CONFIG_PATH:+:$$PKG_CONFIG_PATH} $(SWIFT) build -c release $(RELEASE_FLAGS)

# The tests call python3 (pandas, h5py, scipy, frictionless, Snakemake): the project's pinned .venv comes first.
VENV_PATH := PATH="$(CURDIR)/.venv/bin:$$PATH"

test: setup
	$(SWIFT) build --build-tests
	$(VENV_PATH) $(SWIFT) test
	$(MAKE) test-slurm
	$(MAKE) fuzz-short

# The study pipeline on a real Slurm cluster: starts a single-node one here (scripts/slurm-local.sh; root or sudo,
# Debian's slurm-wlm and munge), runs a mixed study through `make study-slurm` (StudyPipelineTests.slurmStudy),
# compares with the local run, and stops the cluster whatever the test's outcome. About 2.5 minutes; part of
# `make test` (after the suite, which skips this one test without BRAINBATCH_TEST_SLURM=1).
test-slurm:
	@scripts/setup.sh --slurm
	$(SWIFT) build --build-tests
	scripts/slurm-local.sh start
	BRAINBATCH_TEST_SLURM=1 $(VENV_PATH) $(SWIFT) test --skip-build --filter 'StudyPipelineTests/slurmStudy'; \
	  status=$$?; scripts/slurm-local.sh stop; exit $$status

demo: release
	@mkdir -p $(OUT)
	scripts/demo.sh $(RELEASE) $(OUT)

# Man pages (ArgumentParser's generate-manual plugin) and shell completions, from the same definitions.
# The plugin builds the tools itself (dynamically linked): in its own scratch path, so the static release build in
# .build/release stays as it is. docs/man is generated, not committed.
man: setup
	@mkdir -p docs/man
	$(SWIFT) package --scratch-path .build-man --allow-writing-to-package-directory generate-manual --output-directory docs/man

# The release tools, the Python table reader (when present) and the man pages (when `make man` made them).
install: release
	install -d $(BINDIR)
	install -m 755 $(addprefix $(RELEASE)/,$(TOOLS)) $(BINDIR)/
	@echo "install: $(TOOLS) -> $(BINDIR)"
	@if [ -f $(PYTABLES) ]; then \
	  install -d $(PYDIR) && install -m 644 $(PYTABLES) $(PYDIR)/ && \
	  echo "install: $(notdir $(PYTABLES)) -> $(PYDIR)"; \
	fi
	@pages=$$(ls docs/man/*.1 2>/dev/null || true); \
	if [ -n "$$pages" ]; then \
	  install -d $(MAN1DIR) && install -m 644 $$pages $(MAN1DIR)/ && \
	  echo "install: man pages -> $(MAN1DIR)"; \
	else \
	  echo "install: no man pages in docs/man (make man first to install them)"; \
	fi
	@case ":$$PATH:" in *":$(abspath $(BINDIR)):"*|*":$(BINDIR):"*) ;; \
	  *) echo "install: $(BINDIR) is not on PATH; add it, e.g. export PATH=\"$(BINDIR):\$$PATH\"";; esac

# Removes exactly the files `make install` writes: the tools, brainbatch_tables.py and the man pages (the tools' own,
# and any other page docs/man holds, as install copies all of them); folders are left in place.
uninstall:
	rm -f $(addprefix $(BINDIR)/,$(TOOLS))
	rm -f $(PYDIR)/$(notdir $(PYTABLES))
	@pages=$$(cd docs/man 2>/dev/null && ls *.1 2>/dev/null || true); \
	for page in $$(printf '%s\n' $(addsuffix .1,$(TOOLS)) $$pages | sort -u); do \
	  rm -f $(MAN1DIR)/$$page; \
	done
	@echo "uninstall: removed BrainBatch's files from $(PREFIX)"

completions: release
	@mkdir -p $(OUT)/completions
	for tool in bt-decode bt-synth ilog-parse rt-stats mynd-parse nt-analyze; do \
	  for shell in bash zsh fish; do \
	    $(RELEASE)/$$tool --generate-completion-script $$shell > $(OUT)/completions/$$tool.$$shell; \
	  done; \
	done

bench: release
	bench/bt-decode.sh

# Scale (issue 19; README "Performance"): every text tool at 12.5 to 100 MB against its pandas reference, and
# bt-decode's peak memory on 10-hour captures, clean and faulty (bench/scale.sh; SIZES, REFERENCE=0, CAPTURES=0).
bench-scale: release
	bench/scale.sh

# The study pipeline end to end on a generated study (bench/study.sh; README "Scaling out").
bench-study: release
	bench/study.sh

# Fuzzing (README, "Fuzzing"): one libFuzzer target per parser in Fuzz/, a package of its own (its build in
# Fuzz/.build leaves the main package's as it is), built in release mode with the fuzzer and address sanitizers.
# Fuzz/run.sh runs each target for SECONDS and prints executions, executions per second and findings; it exits 1
# on a finding (the input in Fuzz/artifacts/<target>/). fuzz-short is the 60-s run of `make test`.
FUZZ_BUILD := $(SWIFT) build -c release --package-path Fuzz -Xswiftc -sanitize=fuzzer,address
FUZZ_SECONDS := $(or $(SECONDS),60)
# fuzz-volume: the same targets without AddressSanitizer (in Fuzz/.build-volume), for executions in number: Swift's
# own checks (bounds, overflow, unwrapping, allocation limits) still trap, and the corpora are shared. Not
# FuzzMYNDHDF5 (Fuzz/run.sh says why): it needs AddressSanitizer's allocator.
FUZZ_VOLUME_BUILD := $(SWIFT) build -c release --package-path Fuzz --scratch-path Fuzz/.build-volume -Xswiftc -sanitize=fuzzer

fuzz-build: setup
	$(FUZZ_BUILD)

fuzz: fuzz-build
	Fuzz/run.sh $(FUZZ_SECONDS)

fuzz-volume-build: setup
	$(FUZZ_VOLUME_BUILD)

fuzz-volume: fuzz-volume-build
	FUZZ_BIN=.build-volume/release Fuzz/run.sh $(FUZZ_SECONDS)

fuzz-short: fuzz-build
	Fuzz/run.sh 60

clean:
	rm -rf .build $(OUT)

include study.mk
include bids.mk
