# BrainBatch: build, test and run the tools.
#   make demo   set up what is missing, build in release mode, run every tool on SampleData/ into out/
#   make test   set up what is missing, build, run the whole test suite
SHELL := /bin/bash
SWIFT ?= swift
RELEASE := .build/release
# Release tools carry the Swift runtime, HDF5, FFTW and libdeflate inside (process start falls from 21 to 12 ms;
# they run on cluster nodes without Swift): scripts/static-libs.sh points pkg-config at the static archives.
# Linked as position-dependent executables: the loader then has no relocations to apply (2 ms less at start); the
# price is a fixed load address for the tool's own code (libraries and stacks are still randomised).
RELEASE_FLAGS := --static-swift-stdlib -Xlinker -no-pie
OUT ?= out

.PHONY: setup build release demo test man completions bench clean

setup:
	@scripts/setup.sh

build: setup
	$(SWIFT) build

release: setup
	static=$$(scripts/static-libs.sh) && \
	PKG_CONFIG_PATH=$$static$${PKG_CONFIG_PATH:+:$$PKG_CONFIG_PATH} $(SWIFT) build -c release $(RELEASE_FLAGS)

test: setup
	$(SWIFT) build --build-tests
	$(SWIFT) test

demo: release
	@mkdir -p $(OUT)
	scripts/demo.sh $(RELEASE) $(OUT)

# Man pages (ArgumentParser's generate-manual plugin) and shell completions, from the same definitions.
man: release
	@mkdir -p docs/man
	$(SWIFT) package --allow-writing-to-package-directory generate-manual --output-directory docs/man

completions: release
	@mkdir -p $(OUT)/completions
	for tool in bt-decode bt-synth ilog-parse rt-stats mynd-parse nt-analyze; do \
	  for shell in bash zsh fish; do \
	    $(RELEASE)/$$tool --generate-completion-script $$shell > $(OUT)/completions/$$tool.$$shell; \
	  done; \
	done

bench: release
	bench/bt-decode.sh

clean:
	rm -rf .build $(OUT)

include study.mk
