# Study pipelines (conventions §5; docs/pipelines.md): included from the top-level Makefile.
#   make study STUDY=path OUT=path [BIN=folder of the tools] [-j N]
#     one HDF5 output per input, OUT/<kind>/<path in the study>.h5 (or a <output>.failed stamp holding the
#     tool's message), the study-level tables OUT/study/<kind>_<table>.csv merged from them, and
#     OUT/study/summary.csv listing every input with its status. A second run does nothing; a changed input
#     re-runs that input and its kind's merge only.
#   make study-clean OUT=path     removes what `make study` wrote under OUT (default out/study-run)
STUDY_SCRIPTS := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))/scripts
STUDY_KINDS := brainiac interactlog braintracker mynd mindaffect
STUDY_TOOL_NAMES := bt-decode ilog-parse rt-stats mynd-parse nt-analyze
PYTHON ?= python3
# Without OUT= on the command line (or in the environment), the study goes to out/study-run, away from `make demo`.
ifeq ($(origin OUT),file)
STUDY_OUT_DIR := $(OUT)/study-run
else
STUDY_OUT_DIR := $(OUT)
endif

.PHONY: study study-clean

ifneq ($(filter study,$(MAKECMDGOALS)),)
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

# Discovery runs every time (it is cheap): it (re)writes OUT/.study/rules.mk only when the plan changes.
# It prints `ok` and the outputs whose <output>.failed stamp is newer than the input: their result is the stamp.
STUDY_DISCOVERY := $(shell $(PYTHON) $(STUDY_SCRIPTS)/study_discover.py make '$(abspath $(STUDY))' '$(STUDY_OUT)' '$(STUDY_BIN)')
ifneq ($(firstword $(STUDY_DISCOVERY)),ok)
$(error make study: discovering the inputs of $(STUDY) failed)
endif
STUDY_FAILED := $(wordlist 2,$(words $(STUDY_DISCOVERY)),$(STUDY_DISCOVERY))
include $(STUDY_OUT)/.study/rules.mk
$(foreach k,$(STUDY_KINDS),$(eval STUDY_RESULTS_$(k) := $(filter-out $(STUDY_FAILED),$(STUDY_OUTPUTS_$(k))) \
  $(addsuffix .failed,$(filter $(STUDY_FAILED),$(STUDY_OUTPUTS_$(k))))))

study: $(STUDY_OUT)/study/summary.csv

$(STUDY_OUT)/study/summary.csv: $(foreach k,$(STUDY_KINDS),$(STUDY_OUT)/study/.$(k).merged)
	@$(PYTHON) $(STUDY_SCRIPTS)/study_merge.py summary $(STUDY_OUT)

define STUDY_MERGE_RULE
$(STUDY_OUT)/study/.$(1).merged: $(STUDY_OUT)/.study/$(1).list $$(STUDY_RESULTS_$(1))
	@$(PYTHON) $(STUDY_SCRIPTS)/study_merge.py kind $(STUDY_OUT) $(1)
	@touch $$@
endef
$(foreach k,$(STUDY_KINDS),$(eval $(call STUDY_MERGE_RULE,$(k))))

# The tools are order-only prerequisites: built when missing, a rebuild does not re-run the study.
ifeq ($(STUDY_BIN),$(STUDY_DEFAULT_BIN))
$(STUDY_TOOLS) &:
	$(SWIFT) build -c release $(RELEASE_FLAGS)
else
$(STUDY_TOOLS):
	@echo "make study: $@ not found (build the tools, or give BIN=<folder of the built tools>)" >&2; exit 1
endif
endif

study-clean:
	rm -rf $(STUDY_OUT_DIR)/study $(STUDY_OUT_DIR)/.study $(addprefix $(STUDY_OUT_DIR)/,$(STUDY_KINDS))
