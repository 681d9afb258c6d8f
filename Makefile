# neardup — every target creates and uses .venv by itself.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP_RUN := $(VENV)/.installed-run
STAMP_TEST := $(VENV)/.installed-test
STAMP_BENCH := $(VENV)/.installed-bench
STAMP_PACKAGE := $(VENV)/.installed-package
# what an install builds from (the compiled modules included: a changed C file is built again)
BUILD_INPUTS := pyproject.toml setup.py $(wildcard neardup_gui/core/*.c neardup_gui/core/*/*.c neardup_gui/core/*/*/*.c)

.PHONY: run test bench package package-test screenshots deps-run deps-test translations clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

# The package's modules are compiled once, as an installed wheel's are: with PYTHONDONTWRITEBYTECODE
# set (as on some machines) every command would compile them again (0.1 s of each `neardup` run).
$(STAMP_RUN): $(BUILD_INPUTS) | $(PY)
	$(PY) -m pip install -q -e .
	$(PY) -m compileall -q neardup_gui
	touch $@

$(STAMP_TEST): $(BUILD_INPUTS) | $(PY)
	$(PY) -m pip install -q -e '.[test]'
	$(PY) -m compileall -q neardup_gui
	touch $@ $(STAMP_RUN)

deps-run:
	@scripts/install-deps.sh run

deps-test:
	@scripts/install-deps.sh test

run: deps-run $(STAMP_RUN)
	$(PY) -m neardup_gui --sample

test: deps-test $(STAMP_TEST)
	$(PY) -m ruff check neardup_gui tests benchmarks
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q -p no:cacheprovider

$(STAMP_BENCH): $(BUILD_INPUTS) | $(PY)
	$(PY) -m pip install -q -e '.[test,bench]'
	touch $@ $(STAMP_TEST) $(STAMP_RUN)

bench: deps-test $(STAMP_TEST) $(STAMP_BENCH)
	$(PY) -m compileall -q neardup_gui
	QT_QPA_PLATFORM=offscreen $(PY) benchmarks/run_all.py

$(STAMP_PACKAGE): $(BUILD_INPUTS) | $(PY)
	$(PY) -m pip install -q -e '.[package]'
	touch $@ $(STAMP_RUN)

# The one-folder bundle dist/neardup/ (neardup-gui and neardup) and its .tar.gz; takes minutes.
package: $(STAMP_PACKAGE)
	@scripts/install-deps.sh package
	packaging/build.sh $(PY)

# Builds the bundle, then runs its command line and its window offscreen (not part of `make test`).
package-test: package
	desktop-file-validate packaging/io.github.neardup.NearDup.desktop
	appstreamcli validate --no-net packaging/io.github.neardup.NearDup.metainfo.xml
	$(PY) packaging/smoke_test.py dist/neardup

clean:
	rm -rf $(VENV) build dist *.egg-info benchmarks/out

translations: $(STAMP_RUN)
	$(PY) scripts/ts_fill.py $(PY)

screenshots: deps-test $(STAMP_RUN)
	xvfb-run -a -s "-screen 0 1600x1000x24" $(PY) packaging/screenshots.py
