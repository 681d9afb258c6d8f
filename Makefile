# neardup — every target creates and uses .venv by itself.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP_RUN := $(VENV)/.installed-run
STAMP_TEST := $(VENV)/.installed-test

.PHONY: run test bench package package-test screenshots deps-run deps-test translations clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

$(STAMP_RUN): pyproject.toml | $(PY)
	$(PY) -m pip install -q -e .
	touch $@

$(STAMP_TEST): pyproject.toml | $(PY)
	$(PY) -m pip install -q -e '.[test]'
	touch $@ $(STAMP_RUN)

deps-run:
	@scripts/install-deps.sh run

deps-test:
	@scripts/install-deps.sh test

run: deps-run $(STAMP_RUN)
	$(PY) -m neardup_gui --sample

test: deps-test $(STAMP_TEST)
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q -p no:cacheprovider

bench: deps-test $(STAMP_TEST)
	QT_QPA_PLATFORM=offscreen $(PY) tests/benchmarks/run_all.py

clean:
	rm -rf $(VENV) build dist *.egg-info tests/benchmarks/out

translations: $(STAMP_RUN)
	$(VENV)/bin/pyside6-lupdate neardup_gui/app/*.py -ts resources/translations/neardup_zh_CN.ts -no-obsolete
	$(VENV)/bin/pyside6-lrelease resources/translations/neardup_zh_CN.ts -qm resources/translations/neardup_zh_CN.qm

screenshots: deps-test $(STAMP_RUN)
	xvfb-run -a -s "-screen 0 1600x1000x24" $(PY) packaging/screenshots.py
