# One command per job; README, .ci/run and netlify.toml call these.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python

.PHONY: setup build serve check test bench clean chromium java

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

# The browser tests drive Debian's chromium and the HTML validator runs on Java;
# install them when they are missing.
chromium java:
	@command -v $(if $(filter java,$@),java,chromium) >/dev/null || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	      $(if $(filter java,$@),default-jre-headless,chromium); \
	  else echo "The tests need $@: sudo apt-get install $(if $(filter java,$@),default-jre-headless,chromium)" >&2; exit 1; fi; }

test: setup $(VENV)/.installed-test chromium java
	$(PY) -m pytest

# Speed and size, measured side by side; writes BENCHMARKS.md.
bench: setup $(VENV)/.installed-test chromium
	$(PY) -m pip install --quiet -e '.[bench]'
	$(PY) -m benchmarks.run

clean:
	rm -rf _site .cache .pytest_cache
