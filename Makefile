# One command per job; README, .ci/run and netlify.toml call these.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python

.PHONY: setup build serve check lint test test-quick test-links bench bench-plans bench-suite clean chromium java engines

# The site needs only the runtime dependencies; the tests add their own tools.
$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: $(VENV)/.installed
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

setup: $(VENV)/.installed node_modules/.installed

build: setup
	$(PY) -m site_builder build

serve: setup
	$(PY) -m site_builder serve

check: setup
	$(PY) -m site_builder check

# The browser tests drive Debian's chromium, firefox-esr and WebKitGTK (its WebDriver and
# MiniBrowser, in a virtual display), and the HTML validator runs on Java; install what is missing.
chromium java engines:
	@(for program in $(PROGRAMS_$@); do command -v $$program >/dev/null || exit 1; done) || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(PACKAGES_$@); \
	  else echo "The tests need $@: sudo apt-get install $(PACKAGES_$@)" >&2; exit 1; fi; }
PACKAGES_chromium := chromium
PACKAGES_java := default-jre-headless
PACKAGES_engines := firefox-esr webkit2gtk-driver xvfb xauth
PROGRAMS_chromium := chromium
PROGRAMS_java := java
PROGRAMS_engines := firefox-esr WebKitWebDriver xvfb-run xauth

# Lint and formatting: ruff's findings, and any file the formatter would change.
lint: $(VENV)/.installed-test
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# Two test workers (pytest-xdist), one per core of the machine the suite is sized for; the engine
# tests share one worker (tests/pyodide_app/test_engines.py).  WORKERS=0 runs the suite in one process.
# More workers do not help: the suite is bound by the two cores (the browsers' work), and with
# WORKERS=4 a clean clone's .ci/run had done 45% of its tests at 12.5 min, where two finish in 14.6.
WORKERS ?= 2
XDIST = $(if $(filter 0,$(WORKERS)),,-n $(WORKERS) --dist loadgroup)

test: setup $(VENV)/.installed-test chromium java engines
	$(PY) -m pytest $(XDIST)

# The link property (tests/pyodide_app/test_browser_link_property.py) alone, over more random sequences than
# `make test` runs, from another seed.  CI runs `make test` itself with 270 (.ci/run), in the same run.
test-links: setup $(VENV)/.installed-test chromium
	LINK_SEQUENCES=240 LINK_SEED=20261203 $(PY) -m pytest $(XDIST) tests/pyodide_app/test_browser_link_property.py

# The CPython tests alone (no Node, no browser) but those marked slow: under 30 s, for the edit-test loop.
test-quick: $(VENV)/.installed-test
	$(PY) -m pytest -m "not node and not browser and not slow"

# Speed and size, measured side by side; writes BENCHMARKS.md (keeping the plans' and the suite's
# sections), then the plan pages' figures into its "Plans" section (benchmarks.plans, as bench-plans).
bench: setup $(VENV)/.installed-test chromium engines
	$(PY) -m pip install --quiet -e '.[bench]'
	$(PY) -m benchmarks.run
	$(PY) -m benchmarks.plans

# The plan pages alone: recompute and solve latency once Python is ready, and page weight; writes
# BENCHMARKS.md's "Plans" section and leaves the rest of the file as it is.
bench-plans: setup $(VENV)/.installed-test chromium
	$(PY) -m benchmarks.plans

# The test suite's duration, run once as `make test` runs it; writes BENCHMARKS.md's suite section.
bench-suite: setup $(VENV)/.installed-test chromium java engines
	$(PY) -m benchmarks.suite

clean:
	rm -rf _site .cache .pytest_cache
