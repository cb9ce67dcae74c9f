# Borne: `make demo` installs Borne and runs the camera demo with its score display; `make test` installs, lints, type-checks and runs every test.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: install install-club install-test browser photo-tools club-tools demo test lint bench

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

# PP-OCR's text models for the distance numerals come in rapidocr-onnxruntime's wheel; Borne runs its model
# file with ONNX Runtime and imports none of its code, so none of its dependencies (a second OpenCV) come along.
OCR_WHEEL := rapidocr-onnxruntime==1.4.4

install: $(BIN)/python
	$(BIN)/pip install -q -e .
	$(BIN)/pip install -q --no-deps $(OCR_WHEEL)

# The club hub and a table joining a club (MQTT, PostgreSQL's client): `borne club`, `borne serve --club`.
install-club: $(BIN)/python
	$(BIN)/pip install -q -e '.[club]'

install-test: $(BIN)/python
	$(BIN)/pip install -q -e '.[test,train,photo]'
	$(BIN)/pip install -q --no-deps $(OCR_WHEEL)

# Debian's Chromium for the browser tests (Playwright drives it; it never downloads a browser).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq chromium >/dev/null; \
	  else sudo apt-get update -qq && sudo apt-get install -y -qq chromium >/dev/null; fi; }

# Debian's Blender and GIMP's photographed patterns for the photo-real renders (`borne data photos`).
photo-tools:
	@{ command -v blender >/dev/null 2>&1 && [ -d /usr/share/gimp/2.0/patterns ]; } || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq --no-install-recommends blender gimp-data >/dev/null; \
	  else sudo apt-get update -qq && sudo apt-get install -y -qq --no-install-recommends blender gimp-data >/dev/null; fi; }

# Debian's PostgreSQL and Mosquitto for the club's tests, which start their own throwaway server and broker
# (pg_ctl is not on PATH on Debian: it lives in /usr/lib/postgresql/*/bin). In a container with no init, a
# policy-rc.d that says no keeps the packages from starting their own services while they install; it is
# removed afterwards (a machine running systemd is left to start them as usual).
club-tools:
	@{ { command -v mosquitto || [ -x /usr/sbin/mosquitto ]; } >/dev/null 2>&1 && ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; } || { \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  POLICY=; if [ ! -d /run/systemd/system ] && [ ! -e /usr/sbin/policy-rc.d ]; then POLICY=/usr/sbin/policy-rc.d; \
	    printf '#!/bin/sh\nexit 101\n' | $$SUDO tee $$POLICY >/dev/null && $$SUDO chmod 755 $$POLICY; fi; \
	  $$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	    postgresql mosquitto >/dev/null; status=$$?; \
	  [ -z "$$POLICY" ] || $$SUDO rm -f $$POLICY; exit $$status; }

# The main job: the score display and the camera pipeline; with no camera, a simulated game plays itself.
# Its games go to a file of their own in the venv, apart from the games of `borne serve`/`borne run`.
demo: install
	$(BIN)/borne run --db $(VENV)/demo.sqlite3

# Lint and types first (a minute), then every test and every package's doctests.
test: lint browser photo-tools club-tools
	$(BIN)/python -m pytest

lint: install-test
	$(BIN)/ruff check .
	$(BIN)/mypy

bench: install
	$(BIN)/python bench/bench_scoring.py
