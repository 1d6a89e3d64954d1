# The two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PORT   ?= 8000

.PHONY: run test lint chromium nginx bench strength screenshots clean

$(STAMP): pyproject.toml setup.py kozel/_kernel.c
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/kozel serve --host 127.0.0.1 --port $(PORT) --db sqlite+aiosqlite:///kozel.db

lint: $(STAMP)
	$(BIN)/ruff check kozel tests bench examples conftest.py
	$(BIN)/ruff format --check kozel tests bench examples conftest.py
	$(BIN)/mypy --strict kozel examples

# Two workers: much of the suite waits on servers, browsers and subprocesses, and the tests
# share nothing (each has its own database, port and Redis namespace). The storage and fan-out
# tests use this machine's PostgreSQL (127.0.0.1:5432, user postgres, trust) and Redis
# (127.0.0.1:6379) when they answer and KOZEL_TEST_POSTGRES / KOZEL_TEST_REDIS are not set
# (tests/suite.py); the run ends with a line saying what was skipped for want of which. The
# clubs' deals are seeded: KOZEL_TEST_SEED=N make test repeats a run's games or tries others.
test: lint chromium nginx
	@found="$$($(BIN)/python -m tests.suite services)"; \
	  echo "services found on this machine: $${found:-none (or already set)}"; \
	  env $$found $(BIN)/pytest -n 2 --dist worksteal --durations=15

# The browser tests drive Debian's chromium with Playwright (Playwright's own browser download
# does not work here); install it when it is missing.
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing Debian's chromium for the browser tests"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -q && $$SUDO apt-get install -y -q chromium; }

# tests/web/test_behind_nginx.py follows docs/deploy.md with Debian's nginx (run as the test's
# own process on a free port); install it when it is missing.
nginx:
	@command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || { \
	  echo "installing Debian's nginx for the deploy guide's test"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -q && $$SUDO apt-get install -y -q nginx; }

# Play the browser tests again, saving the README's screenshots in docs/screenshots.
screenshots: $(STAMP) chromium
	KOZEL_SCREENSHOTS=docs/screenshots $(BIN)/pytest -q tests/web/test_browser.py \
	  tests/web/test_scoring.py tests/web/test_round_end.py tests/web/test_layout.py \
	  tests/web/test_tournament.py tests/web/test_presence.py tests/web/test_trick_table.py \
	  tests/web/test_poker_table.py

# The engine's speed beside the `dominoes` package, then a small peer match against its
# strongest player (a few deals: its figures with intervals take hours, docs/bots.md).
bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/peer_match.py --deals 2 --jobs 2 --early-sample 2 --late-sample 3
	nice -n 10 $(BIN)/python bench/levels.py --rounds 120 --max-seconds 300

strength: $(STAMP)
	$(BIN)/python bench/strength.py --rounds 2000

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
