#!/bin/sh
# Table Companion on Raspberry Pi OS Bookworm (64-bit): one command, no questions.
#   sudo systemd/install.sh              kiosk on the console (KMSDRM, no desktop)
#   sudo systemd/install.sh --desktop    kiosk inside the desktop session of $SUDO_USER
#   systemd/install.sh --dry-run ...     print every step, change nothing
# Installs the Debian packages the app needs, makes the venv with pinned versions
# (systemd/constraints.txt), then hands over to `companion install`, which writes the
# unit, Kivy's touch settings and the config. Safe to run again: it changes nothing
# that is already right. Other options are passed on (see `companion install --help`).
set -eu

REPO=$(cd "$(dirname "$0")/.." && pwd)
VENV=${COMPANION_VENV:-/opt/table-companion/venv}
# Runtime libraries for Kivy's SDL2 wheels (GL, EGL, GBM/DRM for KMSDRM, mtdev for
# touch), git for `companion update`, the compiler bits in case lgpio has no wheel.
APT_PACKAGES="python3-venv python3-dev git libmtdev1 libgl1 libegl1 libgles2 libgbm1 libdrm2 swig"
# lgpio's C library (the only GPIO backend on a Pi 5) comes from the Raspberry Pi archive.
APT_OPTIONAL="liblgpio-dev"

DRY_RUN=""
for arg in "$@"; do
    [ "$arg" = "--dry-run" ] && DRY_RUN=1
done

run() {
    if [ -n "$DRY_RUN" ]; then echo "would run: $*"; else echo "run: $*"; "$@"; fi
}

if [ -z "$DRY_RUN" ] && [ "$(id -u)" != 0 ]; then
    echo "install.sh: run it with sudo (or try --dry-run)" >&2
    exit 1
fi

missing=""
for pkg in $APT_PACKAGES; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing="$missing $pkg"
done
for pkg in $APT_OPTIONAL; do
    if ! dpkg -s "$pkg" >/dev/null 2>&1 && apt-cache show "$pkg" >/dev/null 2>&1; then
        missing="$missing $pkg"
    fi
done
if [ -n "$missing" ]; then
    run apt-get update -qq
    # shellcheck disable=SC2086  # one word per package
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
fi

[ -x "$VENV/bin/python" ] || run python3 -m venv "$VENV"
run "$VENV/bin/pip" install --quiet --upgrade pip
run "$VENV/bin/pip" install --quiet -c "$REPO/systemd/constraints.txt" -e "$REPO[pi]"

if [ -n "$DRY_RUN" ] && [ ! -x "$VENV/bin/companion" ]; then
    echo "would run: $VENV/bin/companion install --venv $VENV $*"
    exit 0
fi
exec "$VENV/bin/companion" install --venv "$VENV" "$@"
