# Study pipelines (conventions §5; docs/pipelines.md): included from the top-level Makefile.
#   make study STUDY=path OUT=path [CONFIG=study.yaml] [BIN=folder of the tools] [-j N]
#     one HDF5 output per unit of work (one input, or one participant's InteractLog logs, or one MYND subject's
#     files), OUT/<kind>/<id>.h5 (or a <output>.failed stamp holding the tool's message), the study-level tables
#     OUT/study/<kind>_<table>.csv merged from them, OUT/study/summary.csv (every input) and participants.csv, with
#     a datapackage.json codebook. A second run does nothing; a changed input, tool version or option re-runs the
#     units it applies to and their kind's merge only.
#   make study-slurm STUDY=path OUT=path [CONFIG=study.yaml] [BIN=…]   the same through Snakemake on Slurm
#   make study-units …            the units' tool runs only (no merges, no summary)
#   make study-clean OUT=path     removes what `make study` wrote under OUT (default out/study-run)
STUDY_SCRIPTS := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))/scripts
STUDY_KINDS := brainiac interactlog braintracker mynd mindaffect
STUDY_TOOL_NAMES := bt-decode ilog-parse rt-stats mynd-parse nt-analyze
# The project's pinned environment (scripts/setup.sh) when it is there, else the python3 on PATH (with h5py, pandas
# and PyYAML).
STUDY_HOME := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
ifeq ($(origin PYTHON),undefined)
PYTHON := $(if $(wildcard $(STUDY_HOME)/.venv/bin/python),$(STUDY_HOME)/.venv/bin/python,python3)
endif
# Without OUT= on the command line (or in the environment), the study goes to out/study-run, away from `make demo`.
ifeq ($(origin OUT),file)
STUDY_OUT_DIR := $(OUT)/study-run
else
STUDY_OUT_DIR := $(OUT)
endif

.PHONY: study study-units study-clean study-slurm

ifneq ($(CONFIG),)
ifeq ($(wildcard $(CONFIG)),)
$(error make study: the configuration $(CONFIG) does not exist)
endif
STUDY_CONFIG := $(abspath $(CONFIG))
endif

ifneq ($(filter study study-units,$(MAKECMDGOALS)),)
ifeq ($(STUDY),)
$(error make study needs STUDY=<study folder> (and OUT=<output folder>))
endif
ifeq ($(wildcard $(STUDY)),)
$(error make study: the study folder $(STUDY) does not exist)
endif
STUDY_DEFAULT_BIN := $(abspath $(RELEASE))
BIN ?= $(RELEASE)
STUDY_BIN := $(abspath $(BIN))
STUDY_OUT := $(abspath $(STUDY_OUT_DIR))
STUDY_TOOLS := $(addprefix $(STUDY_BIN)/,$(STUDY_TOOL_NAMES))
STUDY_RUN := $(STUDY_SCRIPTS)/study-run.sh

# The tools must exist before discovery, which asks each for its version (a unit is stale when it changes): with
# the default BIN they are built here when missing; a rebuild alone does not re-run the study.
ifeq ($(STUDY_BIN),$(STUDY_DEFAULT_BIN))
ifneq ($(words $(wildcard $(STUDY_TOOLS))),$(words $(STUDY_TOOLS)))
$(info make study: building the tools (make release))
ifneq ($(shell $(MAKE) --no-print-directory -C $(STUDY_SCRIPTS)/.. release >&2; echo $$?),0)
$(error make study: building the tools failed)
endif
endif
endif

# Discovery runs every time (it is cheap): it (re)writes OUT/.study/rules.mk, the lists and the units' signatures
# only when they change. It prints `ok` and the outputs whose <output>.failed stamp is newer than the unit's inputs
# and signature: their result is the stamp.
STUDY_DISCOVERY := $(shell $(PYTHON) $(STUDY_SCRIPTS)/study_discover.py make '$(abspath $(STUDY))' '$(STUDY_OUT)' '$(STUDY_BIN)' $(STUDY_CONFIG))
ifneq ($(firstword $(STUDY_DISCOVERY)),ok)
$(error make study: discovering the inputs of $(STUDY) failed)
endif
STUDY_FAILED := $(wordlist 2,$(words $(STUDY_DISCOVERY)),$(STUDY_DISCOVERY))
include $(STUDY_OUT)/.study/rules.mk
$(foreach k,$(STUDY_KINDS),$(eval STUDY_RESULTS_$(k) := $(filter-out $(STUDY_FAILED),$(STUDY_OUTPUTS_$(k))) \
  $(addsuffix .failed,$(filter $(STUDY_FAILED),$(STUDY_OUTPUTS_$(k))))))

study: $(STUDY_OUT)/study/summary.csv

# The units' tool runs alone, without the merges (bench/study.sh times the two apart).
study-units: $(foreach k,$(STUDY_KINDS),$(STUDY_RESULTS_$(k)))

$(STUDY_OUT)/study/summary.csv: $(foreach k,$(STUDY_KINDS),$(STUDY_OUT)/study/.$(k).merged)
	@$(PYTHON) $(STUDY_SCRIPTS)/study_merge.py summary $(STUDY_OUT)

define STUDY_MERGE_RULE
$(STUDY_OUT)/study/.$(1).merged: $(STUDY_OUT)/.study/$(1).list $(STUDY_OUT)/.study/merge.json $$(STUDY_RESULTS_$(1))
	@$(PYTHON) $(STUDY_SCRIPTS)/study_merge.py kind $(STUDY_OUT) $(1)
	@touch $$@
endef
$(foreach k,$(STUDY_KINDS),$(eval $(call STUDY_MERGE_RULE,$(k))))

# The tools are order-only prerequisites: a rebuild that keeps the version does not re-run the study.
$(STUDY_TOOLS):
	@echo "make study: $@ not found (build the tools, or give BIN=<folder of the built tools>)" >&2; exit 1
endif

study-clean:
	rm -rf $(STUDY_OUT_DIR)/study $(STUDY_OUT_DIR)/report $(STUDY_OUT_DIR)/.study $(addprefix $(STUDY_OUT_DIR)/,$(STUDY_KINDS))

# The same study through Snakemake on a Slurm cluster (the one `sinfo` reaches; scripts/slurm-local.sh start makes
# one on this machine), with the project's pinned Snakemake and Slurm executor in .venv (scripts/setup.sh).
#   make study-slurm STUDY=path OUT=path [CONFIG=study.yaml] [BIN=…] [SLURM_PROFILE=folder] [SNAKEMAKE_ARGS=…]
STUDY_REPO := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
STUDY_VENV_PYTHON := $(STUDY_REPO)/.venv/bin/python
SLURM_PROFILE ?= $(STUDY_REPO)/workflow/profiles/slurm
SNAKEMAKE_ARGS ?=

study-slurm:
	@test -n "$(STUDY)" || { echo "make study-slurm needs STUDY=<study folder> (and OUT=<output folder>)" >&2; exit 2; }
	@test -d "$(STUDY)" || { echo "make study-slurm: the study folder $(STUDY) does not exist" >&2; exit 2; }
	@$(STUDY_REPO)/scripts/setup.sh
	@PATH=$$PATH:/usr/sbin sinfo -h >/dev/null 2>&1 || { echo "make study-slurm: no Slurm cluster answers (sinfo); scripts/slurm-local.sh start makes one here" >&2; exit 2; }
	@if [ -z "$(filter command line environment,$(origin BIN))" ]; then \
	  for tool in $(STUDY_TOOL_NAMES); do [ -x $(RELEASE)/$$tool ] || { $(MAKE) --no-print-directory release && break; }; done; fi
	@mkdir -p $(abspath $(STUDY_OUT_DIR))/.study/snakemake
	$(STUDY_VENV_PYTHON) -m snakemake -s $(STUDY_REPO)/workflow/Snakefile --profile $(SLURM_PROFILE) \
	  --directory $(abspath $(STUDY_OUT_DIR))/.study/snakemake \
	  $(if $(STUDY_CONFIG),--configfile $(STUDY_CONFIG)) \
	  --config study=$(abspath $(STUDY)) out=$(abspath $(STUDY_OUT_DIR)) bin=$(abspath $(if $(filter command line environment,$(origin BIN)),$(BIN),$(RELEASE))) \
	  $(SNAKEMAKE_ARGS)
