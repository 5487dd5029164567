# langchain-qgate developer commands. Every target installs what it needs first.
VENV ?= .venv
PY := $(VENV)/bin/python
export HF_HUB_OFFLINE := 1
export TOKENIZERS_PARALLELISM := false

.PHONY: setup demo test test-unit lint type format bench figures clean

setup: $(VENV)/.installed

TORCH := torch==2.13.0
TORCH_CPU_INDEX ?= https://download.pytorch.org/whl/cpu
# Names in a pip install plan that mean a CUDA build of torch (several GB).
CUDA_PLAN := import json, sys; plan = json.load(open(sys.argv[1]))["install"]; \
	sys.exit(any(i["metadata"]["name"].lower().startswith(("nvidia-", "cuda-", "triton")) for i in plan))

# CPU torch, never the multi-GB CUDA build. pip resolves torch first without installing it (a
# dry run reads metadata only): where pip's config names a local wheel folder holding the CPU
# wheel (find-links, as on the development machine) or PyPI's wheel is CPU-only (macOS,
# Windows), the plain install is the CPU build and runs as is. Where the plan holds CUDA packages
# (PyPI on Linux), torch comes from the PyTorch CPU index instead ($(TORCH_CPU_INDEX); that host
# must be reachable; `make setup TORCH_CPU_INDEX=...` names a mirror).
# The other packages at the versions the tests' floors were measured with (constraints.txt).
$(VENV)/.installed: pyproject.toml constraints.txt
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q --dry-run --ignore-installed --report $(VENV)/torch-plan.json $(TORCH)
	if $(PY) -c '$(CUDA_PLAN)' $(VENV)/torch-plan.json; then \
		$(PY) -m pip install -q $(TORCH); \
	else \
		echo "torch: the default build here is CUDA; installing the CPU build from $(TORCH_CPU_INDEX)"; \
		$(PY) -m pip install -q --index-url $(TORCH_CPU_INDEX) $(TORCH); \
	fi
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

# Measured figures against their floors (a benchmark run of its own, not part of `make test`):
# exit 1 on a miss; the checks on the benchmark data skip when it is missing.
figures: setup
	QGATE_BENCHDATA=$(BENCHDATA) $(PY) benchmarks/check_figures.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
