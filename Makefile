# Two commands do everything on a fresh machine:
#   make demo   build the HumanEval benchmark and evaluate bm25, dense and hybrid (prints the report)
#   make test   execir doctor (what is missing), lint (ruff), type-check (mypy), the collected-test floor, the fast test suite
PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# the Infinity server (tests of the HTTP embedding and rerank clients) lives in its own venv:
# its pins (sentence-transformers <4, numpy <2) conflict with ExecIR's
INFINITY_VENV := .venv-infinity
INFINITY_STAMP := $(INFINITY_VENV)/.installed

.PHONY: demo test test-all setup system-deps debian-packages bench clean

# bubblewrap (the sandbox), the toolchains of the oracle's other languages and Chromium, from
# Debian (requirements/debian.txt), when run as root; without root (or without apt) `execir doctor`
# (run first by `make test`) says which piece is missing and which package brings it
HERE := $(dir $(abspath $(lastword $(MAKEFILE_LIST))))
DEBIAN_PACKAGES := $(shell grep -v '^[[:space:]]*\#' $(HERE)requirements/debian.txt)
# the list system-deps installs (tests/test_debian_packages.py checks it against what the runtimes read)
debian-packages:
	@echo $(DEBIAN_PACKAGES)

system-deps:
	@if [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then \
		missing=""; for p in $(DEBIAN_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
		if [ -n "$$missing" ]; then \
			echo "installing Debian packages:$$missing"; \
			(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/tmp/execir-apt.log 2>&1 || { tail -20 /tmp/execir-apt.log; false; }) || \
			{ echo "error: could not install$$missing (apt-get failed above); \`execir doctor\` lists what is missing"; exit 1; }; \
		fi; \
	fi
	@# one HumanEval-X JavaScript task requires the npm package js-md5 (no Debian package carries it)
	@if [ "$$(id -u)" = "0" ] && command -v npm >/dev/null 2>&1 && [ ! -d "$$(npm root -g)/js-md5" ]; then \
		npm install -g --silent js-md5@0.8.3 >/dev/null 2>&1 || echo "warning: could not install js-md5 (HumanEval-X JavaScript/162 needs it)"; \
	fi
	@# TypeScript's compiler (tsc 7: a native binary in the npm package) transpiles TypeScript candidates
	@if [ "$$(id -u)" = "0" ] && command -v npm >/dev/null 2>&1 && [ "$$(tsc --version 2>/dev/null)" != "Version 7.0.2" ]; then \
		npm install -g --silent typescript@7.0.2 >/dev/null 2>&1 || echo "warning: could not install typescript (the TypeScript runtime needs tsc)"; \
	fi

$(STAMP): pyproject.toml
	@command -v $(PY) >/dev/null 2>&1 || { echo "error: $(PY) not found (set PY=/path/to/python3.11)"; exit 1; }
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q torch==2.13.0
	$(BIN)/pip install -q -e '.[dense,rerank,report,test,interop,ray,index,onnx]'
	touch $(STAMP)

$(INFINITY_STAMP): requirements/infinity.txt
	@command -v $(PY) >/dev/null 2>&1 || { echo "error: $(PY) not found (set PY=/path/to/python3.11)"; exit 1; }
	rm -rf $(INFINITY_VENV)
	$(PY) -m venv $(INFINITY_VENV)
	$(INFINITY_VENV)/bin/pip install -q --upgrade pip
	$(INFINITY_VENV)/bin/pip install -q torch==2.13.0
	$(INFINITY_VENV)/bin/pip install -q -r requirements/infinity.txt
	touch $(INFINITY_STAMP)

setup: system-deps $(STAMP) $(INFINITY_STAMP)

demo: setup
	$(BIN)/execir run

# what is missing first (execir doctor: every language judged outside, the sandbox, the extras the
# tests use), then lint, types, the collected-test floor (tests/MIN_COLLECTED) and the fast suite
test: setup
	$(BIN)/execir doctor --require-extras
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy
	$(BIN)/python -m tests.check_collected
	EXECIR_REQUIRE_INFINITY=1 $(BIN)/python -m pytest -q -m "not slow"

test-all: setup
	EXECIR_REQUIRE_INFINITY=1 $(BIN)/python -m pytest -q

bench: setup
	$(BIN)/pip install -q rank-bm25 threadpoolctl
	for script in benchmarks/bench_*.py; do echo "== $$script"; $(BIN)/python $$script || exit 1; done

clean:
	rm -rf $(VENV) $(INFINITY_VENV) .execir-cache out
