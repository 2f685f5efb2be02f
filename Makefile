# Two commands do everything on a fresh machine:
#   make demo   build the HumanEval benchmark and evaluate bm25, dense and hybrid (prints the report)
#   make test   lint (ruff), type-check (mypy), check the collected-test floor, run the fast test suite
PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-all setup system-deps bench clean

system-deps:
	@if [ "$$(id -u)" = "0" ] && ! command -v bwrap >/dev/null 2>&1; then \
		(apt-get update -qq && apt-get install -y -qq bubblewrap >/dev/null) || \
		echo "warning: could not install bubblewrap; the oracle will fall back to a weaker isolation level"; \
	fi

$(STAMP): pyproject.toml
	@command -v $(PY) >/dev/null 2>&1 || { echo "error: $(PY) not found (set PY=/path/to/python3.11)"; exit 1; }
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q torch==2.13.0
	$(BIN)/pip install -q -e '.[dense,report,test]'
	touch $(STAMP)

setup: system-deps $(STAMP)

demo: setup
	$(BIN)/execir run

# lint, types, the collected-test floor (tests/MIN_COLLECTED), then the fast suite
test: setup
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy
	$(BIN)/python -m tests.check_collected
	$(BIN)/python -m pytest -q -m "not slow"

test-all: setup
	$(BIN)/python -m pytest -q

bench: setup
	$(BIN)/pip install -q rank-bm25 faiss-cpu threadpoolctl
	for script in benchmarks/bench_*.py; do echo "== $$script"; $(BIN)/python $$script || exit 1; done

clean:
	rm -rf $(VENV) .execir-cache out
