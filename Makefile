# One command sets up a virtual environment and runs everything: `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PLAY_STAMP := $(VENV)/.installed-play

.PHONY: test check lint typecheck pytest play bench clean locale pot

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

test: $(STAMP) lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/pytest -q

# Play against the computer: a server starts inside the client, nothing else is needed. Only
# what playing needs is installed (not the test tools); options go through ARGS, e.g.
# make play ARGS="--seat black --variant1".
ARGS ?=
$(PLAY_STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $(PLAY_STAMP)

play: $(PLAY_STAMP)
	$(BIN)/kahuna-client --local $(ARGS)

# The client's translations: client/locale/kahuna.pot from the code (the messages to
# translate), and each client/locale/LANG/LC_MESSAGES/kahuna.po compiled to the kahuna.mo beside
# it (both are committed; tests/client/test_i18n.py fails when a .mo is older than its .po).
pot:
	$(PYTHON) -m client.msgfmt --pot

locale:
	$(PYTHON) -m client.msgfmt

bench: $(STAMP)
	$(BIN)/python bench/engine_bench.py

clean:
	rm -rf $(VENV)
