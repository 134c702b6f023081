# Table Companion: `make run` starts the app, `make test` runs every test.
# Both set up what they need on a fresh Debian / Raspberry Pi OS machine.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
SUDO   := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Debian packages the tests need: a virtual X server and Mesa's software OpenGL, XTest
# (a tap sent through the X server), desktop-file-validate (the session file) and strace
# (a failing card's EROFS and ENOSPC, injected at the writer's system calls).
TEST_APT := xvfb xauth libgl1-mesa-dri libgl1 libegl1 libmtdev1 fonts-dejavu-core systemd \
            libxtst6 desktop-file-utils strace
RUN_APT  := libgl1-mesa-dri libgl1 libegl1 libmtdev1

.PHONY: run test test-fast fuzz lint bench screenshots catalogs clean apt-test apt-run test-debian13 test-arm64

$(BIN)/activate:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/activate
	$(BIN)/pip install --quiet -e ".[test]"
	touch $@

apt-test:
	@missing=""; for p in $(TEST_APT); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

apt-run:
	@missing=""; for p in $(RUN_APT); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

# byte-code written ahead, as `companion install` does: a start then compiles nothing
COMPILE := $(BIN)/python -m compileall -q companion hardware ui

run: apt-run $(VENV)/.installed
	$(COMPILE)
	$(BIN)/companion

# the translations: checks every companion/locales/<lang>/LC_MESSAGES/<domain>.po (no
# empty text, every plural form) and compiles it to the .mo beside it, which the app
# reads; the .mo are committed, so run this after editing a .po and commit both
catalogs: $(VENV)/.installed
	$(BIN)/python -m companion.catalogs

lint: $(VENV)/.installed
	$(BIN)/ruff check .

test: apt-test $(VENV)/.installed lint
	xvfb-run -a -s "-screen 0 1920x1080x24" $(BIN)/python -m pytest

# the inner loop: the domain, the config, the hardware on mock pins, the benches' smoke
# runs; no window, nothing marked `ui` or `slow` (every one of them runs in `make test`)
test-fast: $(VENV)/.installed lint
	$(BIN)/python -m pytest -q -m "not ui and not slow"

# property tests with fresh randomness and 1000 examples each (not part of `make test`)
fuzz: apt-test $(VENV)/.installed
	HYPOTHESIS_PROFILE=fuzz xvfb-run -a -s "-screen 0 1920x1080x24" $(BIN)/python -m pytest -q \
	  -p no:cacheprovider $$(grep -l "hypothesis" tests/test_*.py)

# byte-code written ahead, as installed: a screen's first opening compiles nothing
bench: apt-test $(VENV)/.installed
	$(COMPILE)
	xvfb-run -a -s "-screen 0 1920x1080x24" $(BIN)/python -m bench

# Debian 13 "trixie" (Python 3.13, the base of today's Raspberry Pi OS) in a chroot
# built once with debootstrap and cached in $(DEBIAN13_ROOT): the Debian packages the
# README names, the installer's plan, the pinned venv, then lint and the whole suite.
# Uses this machine's apt mirror and pip configuration. Needs root (or sudo); takes
# minutes, so it is not part of `make test` nor of .ci/run.
DEBIAN13_ROOT ?= /var/cache/table-companion/debian13
test-debian13:
	@command -v debootstrap >/dev/null || { $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq debootstrap; }
	DEBIAN13_ROOT=$(DEBIAN13_ROOT) TEST_APT="$(TEST_APT)" sh tests/debian13.sh

# The real installer on 64-bit ARM Debian 13 (what a Pi runs), in a chroot built once
# with debootstrap and run by qemu-user through binfmt_misc, cached in $(ARM64_ROOT):
# systemd/install.sh for real, then the app under the installed unit's user and
# environment on Xvfb until it says READY=1 and pings the watchdog; its first frame is
# kept as test-artifacts/arm64-first-frame.png, and the apt and pip plan is printed.
# Needs root; tens of minutes (all emulated): not part of `make test` nor of .ci/run.
ARM64_ROOT ?= /var/cache/table-companion/arm64
test-arm64:
	@missing=""; for p in debootstrap qemu-user-static binfmt-support; do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi
	ARM64_ROOT=$(ARM64_ROOT) sh tests/arm64.sh

# every screen and dialog, in English and French, at 800x480, 1280x800 and 1280x720 (a
# 720x1280 panel turned to landscape): test-artifacts/screens/<lang>/<size>/<screen>.png,
# their audit in test-artifacts/screens/audit.txt, the README's pictures in docs/screenshots/
screenshots: apt-test $(VENV)/.installed
	xvfb-run -a -s "-screen 0 1920x1080x24" $(BIN)/python -m tests.screen_tour

clean:
	rm -rf $(VENV) test-artifacts .pytest_cache
