# langchain-qgate developer commands. Every target installs what it needs first.
VENV ?= .venv
PY := $(VENV)/bin/python
export HF_HUB_OFFLINE := 1
export TOKENIZERS_PARALLELISM := false

.PHONY: setup demo test test-unit lint type format bench clean

setup: $(VENV)/.installed

# CPU torch from the wheel on this machine's disk first, or pip pulls a multi-GB CUDA build.
# The other packages at the versions the tests' floors were measured with (constraints.txt).
$(VENV)/.installed: pyproject.toml constraints.txt
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q torch==2.13.0
	$(PY) -m pip install -q -c constraints.txt -e ".[dev]"
	touch $@

demo: setup
	$(VENV)/bin/qgate demo

BENCHDATA ?= $(or $(QGATE_BENCHDATA),../shared/benchdata)

test: setup
	@test -f "$(BENCHDATA)/README.md" || echo "note: benchmark data not found at $(BENCHDATA); the real-data tier is skipped (set QGATE_BENCHDATA=/path/to/benchdata)"
	$(PY) -m pytest tests

test-unit: setup
	$(PY) -m pytest tests/unit_tests -m "not model and not benchdata"

lint: setup
	$(VENV)/bin/ruff check langchain_qgate tests benchmarks scripts examples notebooks
	$(VENV)/bin/ruff format --check langchain_qgate tests benchmarks scripts examples notebooks

format: setup
	$(VENV)/bin/ruff format langchain_qgate tests benchmarks scripts examples notebooks
	$(VENV)/bin/ruff check --fix langchain_qgate tests benchmarks scripts examples notebooks

type: setup
	$(VENV)/bin/mypy

bench: setup
	$(VENV)/bin/qgate bench detection --data $(BENCHDATA)/*.jsonl --json benchmarks/results/detection.json

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
