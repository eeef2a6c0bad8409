# The README's two commands: `make run` and `make test`.  Both set everything up first.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: setup system run test lint bench clean

setup: system $(STAMP)

system:
	@bash scripts/system-packages.sh

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

run: setup
	$(BIN)/bellwether run

lint: setup
	$(BIN)/ruff check companion hardware ui calibration cli tests benchmarks

test: setup lint
	$(BIN)/python -m pytest -q

bench: setup
	@for b in benchmarks/*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
