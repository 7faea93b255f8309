# EEG-BIDS from a study folder (docs/bids.md): included from the top-level Makefile.
#   make bids STUDY=path BIDS=path [BIN=folder of the tools] [FORMAT=bdf|edf|vhdr] [LINE_FREQ=50|60]
#             [EEG_REFERENCE=text] [MAP=mapping.tsv] [NAME=dataset name] [-j N]
#     one signal file per EEG input (Brainiac *.bin, MYND r_*.hdf, mindaffectBCI_*.txt) with its sidecars, the
#     inputs under sourcedata/, then dataset_description.json, README, participants and scans. A second run does
#     nothing; a changed input (or its line in MAP) re-runs that input and the index only.
#   make bids-validate BIDS=path    the official validator (bids-validator-deno, in .venv-bids) on the dataset
BIDS_SCRIPTS := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))/scripts
BIDS_VENV := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))/.venv-bids
FORMAT ?= bdf
LINE_FREQ ?= n/a
EEG_REFERENCE ?= n/a
MAP ?=
NAME ?=

.PHONY: bids bids-validate

ifneq ($(filter bids,$(MAKECMDGOALS)),)
ifeq ($(STUDY),)
$(error make bids needs STUDY=<study folder> and BIDS=<dataset folder>)
endif
ifeq ($(BIDS),)
$(error make bids needs BIDS=<dataset folder>)
endif
ifeq ($(wildcard $(STUDY)),)
$(error make bids: the study folder $(STUDY) does not exist)
endif
ifneq ($(filter-out bdf edf vhdr,$(FORMAT)),)
$(error make bids: FORMAT must be bdf, edf or vhdr)
endif
BIDS_DEFAULT_BIN := $(abspath $(RELEASE))
BIN ?= $(RELEASE)
BIDS_BIN := $(abspath $(BIN))
BIDS_OUT := $(abspath $(BIDS))
BIDS_TOOLS := $(addprefix $(BIDS_BIN)/,bt-decode mynd-parse nt-analyze)
BIDS_PY := BIDS_FORMAT='$(FORMAT)' BIDS_LINE_FREQ='$(LINE_FREQ)' BIDS_REFERENCE='$(EEG_REFERENCE)' \
  BIDS_MAP='$(if $(MAP),$(abspath $(MAP)))' BIDS_NAME='$(NAME)' $(PYTHON) $(BIDS_SCRIPTS)/bids.py

BIDS_PLANNED := $(shell mkdir -p '$(BIDS_OUT)' && $(BIDS_PY) plan '$(abspath $(STUDY))' '$(BIDS_OUT)' '$(BIDS_BIN)')
ifneq ($(BIDS_PLANNED),ok)
$(error make bids: planning the dataset from $(STUDY) failed)
endif
include $(BIDS_OUT)/.brainbatch/rules.mk

bids: $(BIDS_OUT)/.brainbatch/indexed

$(BIDS_OUT)/.brainbatch/indexed: $(BIDS_STAMPS) $(BIDS_OUT)/.brainbatch/plan.json
	@$(BIDS_PY) index '$(abspath $(STUDY))' '$(BIDS_OUT)'
	@touch $@

ifeq ($(BIDS_BIN),$(BIDS_DEFAULT_BIN))
$(BIDS_TOOLS) &:
	$(SWIFT) build -c release $(RELEASE_FLAGS)
else
$(BIDS_TOOLS):
	@echo "make bids: $@ not found (build the tools, or give BIN=<folder of the built tools>)" >&2; exit 1
endif
endif

bids-validate:
	@test -n "$(BIDS)" || { echo "make bids-validate needs BIDS=<dataset folder>" >&2; exit 64; }
	$(BIDS_VENV)/bin/bids-validator-deno '$(BIDS)'
