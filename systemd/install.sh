#!/bin/sh
# Table Companion on 64-bit Raspberry Pi OS (trixie with Python 3.13, or bookworm with
# Python 3.11): one command, no questions.
#   sudo systemd/install.sh              kiosk on the console (KMSDRM, no desktop)
#   sudo systemd/install.sh --desktop    kiosk inside the desktop session of $SUDO_USER
#   systemd/install.sh --dry-run ...     print every step, change nothing
#   systemd/install.sh --list-packages   print the Debian packages it would install
# Installs the Debian packages the app needs, makes the venv with pinned versions
# (systemd/constraints.txt), then hands over to `companion install`, which writes the
# unit, Kivy's touch settings and the config. Safe to run again: it changes nothing
# that is already right. Other options are passed on (see `companion install --help`).
#
# GPIO is optional: the app runs without it (mock pins, and it says so on screen). It
# comes from Raspberry Pi OS's python3-lgpio (the venv sees the system's packages), else
# from lgpio's wheel on PyPI (Python 3.11), else from lgpio's source built with swig and
# a compiler, with the lg library inside it (PYPI=1: plain Debian has no liblgpio-dev).
# When none works the install goes on and says what to do.
set -eu

REPO=$(cd "$(dirname "$0")/.." && pwd)
VENV=${COMPANION_VENV:-/opt/table-companion/venv}
# For tests: another os-release file and architecture than this machine's.
OS_RELEASE=${COMPANION_OS_RELEASE:-/etc/os-release}
ARCH=${COMPANION_ARCH:-$(dpkg --print-architecture 2>/dev/null || uname -m)}
# Runtime libraries for Kivy's SDL2 wheels (GL, EGL, GBM/DRM for KMSDRM, mtdev for
# touch), git for `companion update`, venv for the app's own Python packages.
APT_PACKAGES="python3-venv git libmtdev1 libgl1 libegl1 libgles2 libgbm1 libdrm2"
# GPIO, best first: the lgpio binding of Raspberry Pi OS's archive (bookworm and trixie;
# plain Debian has none), else what pip needs to build lgpio from source (no cp313 wheel
# exists): the lg C library is compiled into it (PYPI=1), so no liblgpio-dev is needed.
APT_GPIO="python3-lgpio"
APT_GPIO_BUILD="swig gcc libc6-dev python3-dev"

DRY_RUN=""
LIST=""
for arg in "$@"; do
    case $arg in
        --dry-run) DRY_RUN=1 ;;
        --list-packages) LIST=1 ;;
    esac
done

say() { echo "install.sh: $*"; }
warn() { echo "install.sh: $*" >&2; }
run() {
    if [ -n "$DRY_RUN" ]; then echo "would run: $*"; else echo "run: $*"; "$@"; fi
}

# -- which system ------------------------------------------------------------------------
case $ARCH in
    arm64|aarch64|amd64|x86_64) ;;
    armhf|armel|armv6l|armv7l|i386|i686)
        warn "this is a 32-bit system ($ARCH). Table Companion needs 64-bit Raspberry Pi OS:"
        warn "Kivy publishes no 32-bit ARM wheels, so its graphics cannot be installed here."
        warn "Flash 'Raspberry Pi OS (64-bit)' with Raspberry Pi Imager (any Pi 3, 4, 5,"
        warn "400, 500 or Zero 2 W runs it), then run this installer again."
        exit 2 ;;
    *)
        warn "unknown architecture '$ARCH': trying anyway (64-bit Raspberry Pi OS is the tested one)" ;;
esac
CODENAME=$(sed -n 's/^VERSION_CODENAME=//p' "$OS_RELEASE" 2>/dev/null | tr -d '"')
case $CODENAME in
    bookworm|trixie) ;;
    *) warn "'${CODENAME:-unknown}' is not Debian 12 (bookworm) or 13 (trixie): trying anyway" ;;
esac

available() {  # is a Debian package known to apt here?
    apt-cache show "$1" >/dev/null 2>&1
}
installed() {  # Debian 13 renamed some libraries (libmtdev1 -> libmtdev1t64)
    dpkg -s "$1" >/dev/null 2>&1 || dpkg -s "${1}t64" >/dev/null 2>&1
}
gpio_packages() {
    if available python3-lgpio; then
        echo "$APT_GPIO"
    else
        for pkg in $APT_GPIO_BUILD; do available "$pkg" && echo "$pkg"; done
    fi
}

if [ -n "$LIST" ]; then
    echo $APT_PACKAGES $(gpio_packages)
    exit 0
fi

if [ -z "$DRY_RUN" ] && [ "$(id -u)" != 0 ]; then
    warn "run it with sudo (or try --dry-run)"
    exit 1
fi

# -- Debian packages -----------------------------------------------------------------------
missing=""
for pkg in $APT_PACKAGES; do
    installed "$pkg" || missing="$missing $pkg"
done
gpio_missing=""
for pkg in $(gpio_packages); do
    installed "$pkg" || gpio_missing="$gpio_missing $pkg"
done
if [ -n "$missing$gpio_missing" ]; then
    if ! run apt-get update -qq; then
        warn "apt-get update failed: is the network up? Check it (ping deb.debian.org),"
        warn "then run this installer again."
        [ -n "$missing" ] && exit 1
    fi
fi
if [ -n "$missing" ]; then
    # shellcheck disable=SC2086  # one word per package
    if ! run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing; then
        warn "could not install the Debian packages$missing; see apt's message above,"
        warn "fix it (network, disk space, 'sudo dpkg --configure -a'), then run this again."
        exit 1
    fi
fi
if [ -n "$gpio_missing" ]; then
    # shellcheck disable=SC2086
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $gpio_missing \
        || warn "GPIO packages$gpio_missing could not be installed: going on without them"
fi

# -- the venv ------------------------------------------------------------------------------
# It sees the system's site packages: Debian's python3-lgpio is importable from it. The
# pinned packages installed in the venv come first on sys.path.
if [ ! -x "$VENV/bin/python" ]; then
    run python3 -m venv --system-site-packages "$VENV"
elif ! grep -q '^include-system-site-packages *= *true' "$VENV/pyvenv.cfg" 2>/dev/null; then
    run sed -i 's/^include-system-site-packages *=.*/include-system-site-packages = true/' \
        "$VENV/pyvenv.cfg"
fi
run "$VENV/bin/pip" install --quiet --upgrade pip
if ! run "$VENV/bin/pip" install --quiet -c "$REPO/systemd/constraints.txt" -e "$REPO"; then
    warn "pip could not install the app's pinned packages (see its message above)."
    warn "Without network, connect the Pi and run this installer again."
    exit 1
fi

# -- GPIO (optional) -----------------------------------------------------------------------
if [ -n "$DRY_RUN" ]; then
    echo "would run: $VENV/bin/python -c 'import lgpio' || env PYPI=1 $VENV/bin/pip install --quiet -c $REPO/systemd/constraints.txt -e $REPO[pi]"
elif "$VENV/bin/python" -c 'import lgpio' 2>/dev/null; then
    say "GPIO: lgpio is there ($("$VENV/bin/python" -c 'import lgpio; print(lgpio.__file__)'))"
elif run env PYPI=1 "$VENV/bin/pip" install --quiet -c "$REPO/systemd/constraints.txt" -e "$REPO[pi]" \
        && "$VENV/bin/python" -c 'import lgpio' 2>/dev/null; then
    say "GPIO: lgpio installed from PyPI ($("$VENV/bin/pip" show lgpio 2>/dev/null | sed -n 's/^Version: //p'))"
else
    warn "GPIO: lgpio could not be installed, so the LEDs, buzzer and buttons will not"
    warn "work (the app still runs and shows this on screen). To fix it:"
    warn "  sudo apt-get install python3-lgpio    (Raspberry Pi OS), or"
    warn "  sudo apt-get install $APT_GPIO_BUILD    (any Debian: lgpio is built from source)"
    warn "then run this installer again."
fi

if [ -n "$DRY_RUN" ] && [ ! -x "$VENV/bin/companion" ]; then
    echo "would run: $VENV/bin/companion install --venv $VENV $*"
    exit 0
fi
exec "$VENV/bin/companion" install --venv "$VENV" "$@"
