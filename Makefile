# The two set-up commands of the README: `make demo` and `make test`. Both bootstrap .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
SHIPPED := arvis kernel syscalls journal tools integrations

.PHONY: demo demo-kernel test test-deep size-check lint typecheck unit bench bench-quick model-runs clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "arvis needs Python >= 3.11")'
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test,semantic,mcp,otel,langgraph]'
	@touch $(STAMP)

# the main job: the flagship adversarial scenario under the kernel and two naive memories, verified by replay
demo: $(STAMP)
	$(BIN)/arvis scenario demo scenarios/flagship-dead-king.yml --out demo-report

# the long-term and working-memory syscalls, one by one, on a fresh journal
demo-kernel: $(STAMP)
	$(BIN)/arvis demo --db demo-journal.db --force

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

# one worker per core (pytest-xdist): 5 minutes on a quiet 2-core machine, 6 to 8 serially
unit: $(STAMP)
	$(BIN)/pytest -n auto

test: lint typecheck unit

# the property tests (every test module that uses hypothesis) with random seeds and 500 examples each:
# run it before resolving an issue that touches the kernel; never part of make test
test-deep: $(STAMP)
	HYPOTHESIS_PROFILE=deep $(BIN)/pytest -n auto $$(grep -l '^from hypothesis' tests/*.py)

# the shipped code's physical lines against .ci/size-budget (.ci/run runs it before make test)
size-check:
	scripts/size-check

BENCH_STAMP := $(VENV)/.bench-stamp

$(BENCH_STAMP): $(STAMP) pyproject.toml
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test,semantic,mcp,otel,langgraph,bench]'
	@touch $(BENCH_STAMP)

# benchmarks (never part of make test): the kernel against raw SQLite and the eventsourcing library,
# side by side in one run; writes bench/RESULTS.md and bench/results.json
bench: $(BENCH_STAMP)
	$(BIN)/python -m bench.run

# the same with small sizes, in under a minute
bench-quick: $(BENCH_STAMP)
	$(BIN)/python -m bench.run --quick

# the recorded model runs that make test verifies and re-scores (tests/model_runs/), made again with a
# model served behind an OpenAI-compatible endpoint (llama.cpp's server, vLLM, Ollama), e.g.
# make model-runs MODEL_URL=http://127.0.0.1:8080/v1 MODEL_NAME=gemma-3-270m
model-runs: $(STAMP)
	$(BIN)/python tests/model_runs/record.py --model "$(MODEL_URL)" --model-name "$(MODEL_NAME)"

# what the targets above wrote, but a journal only while it is still as arvis wrote it: one you made calls on
# is kept and named (scripts/clean_journals.py, run before the venv it needs goes: without one, the journals
# and reports stay); keys are kept wherever they are (an admin key DB.admin-key, a signing key *.key and its
# *.key.pub: losing one locks an administrator out or orphans the checkpoints it signed)
clean:
	@if [ -x $(BIN)/python ]; then \
	  $(BIN)/python scripts/clean_journals.py demo-journal.db demo-report scenario-journals bench-report; \
	fi
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis
