# One command sets up a virtual environment and runs everything: `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PLAY_STAMP := $(VENV)/.installed-play

.PHONY: test lint lint-js typecheck pytest format layers play bench clean locale pot web-words

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

test: $(STAMP) lint lint-js typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# Fixes what ruff can fix by itself (the order of imports, ...), then formats the code;
# `make lint` checks both.
format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# The page's JavaScript (web/, not its vendored msgpack) under ESLint's recommended rules
# (eslint.config.mjs). ESLint comes from npm at the versions package-lock.json pins, installed
# by `npm ci` into node_modules/ (beside web/, so never served, never in the wheel). It needs
# Node.js and npm (Debian's `nodejs` and `npm`, which .ci/run installs; ESLint 9, as 10 wants a
# newer Node.js than Debian 12's 18); where there is none, it says so and is skipped, as the
# browser's tests are without chromium.
NODE_STAMP := node_modules/.installed
$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

ifneq ($(shell command -v npm 2>/dev/null),)
lint-js: $(NODE_STAMP)
	node_modules/.bin/eslint --max-warnings 0 web eslint.config.mjs
# the page's accessibility test takes axe-core from node_modules (make -j too)
pytest: $(NODE_STAMP)
else
lint-js:
	@echo "lint-js skipped: ESLint needs Node.js and npm (Debian: apt-get install nodejs npm)" >&2
endif

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/pytest -q

# The import contracts of pyproject.toml's [tool.importlinter], the layers; the tests check them
# too (tests/test_layers.py).
layers: $(STAMP)
	$(BIN)/lint-imports --no-logo

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

# The translations, with Babel, in the catalogue package: `make pot` writes
# catalogue/locale/kahuna.pot, the messages of the terminal client, the catalogue's tables and
# the page (catalogue/babel.cfg: those given to _(), N_(), ngettext() and pgettext(), Babel's
# default keywords, and the page's t()), then brings each
# catalogue/locale/LANG/LC_MESSAGES/kahuna.po (what translators edit) up to date with it;
# `make locale` compiles each .po to the kahuna.mo beside it. All are committed;
# tests/client/test_i18n.py fails when a .mo is not its .po compiled, or when a message of the
# code or the page has no translation.
pot: $(STAMP)
	$(BIN)/pybabel extract --project=kahuna --mapping-file=catalogue/babel.cfg --keyword=t \
		--width=100 --output-file=catalogue/locale/kahuna.pot client catalogue server web
	$(BIN)/pybabel update --input-file=catalogue/locale/kahuna.pot --domain=kahuna \
		--output-dir=catalogue/locale --width=100 --no-fuzzy-matching

locale: $(STAMP)
	$(BIN)/pybabel compile --statistics --directory=catalogue/locale --domain=kahuna

# The page's tables (web/code-words.mjs: the server's codes, the endings, the log's sentences)
# from the catalogue package, and its lessons and rules in short (web/lessons.mjs) from the
# catalogue and the engine; tests/web/test_words.py and test_learn_data.py check both are fresh.
web-words: $(STAMP)
	$(BIN)/python -m catalogue.web_tables > web/code-words.mjs
	$(BIN)/python -m server.net.web_lessons > web/lessons.mjs

bench: $(STAMP)
	$(BIN)/python bench/engine_bench.py

clean:
	rm -rf $(VENV)
