#!/bin/sh
# `make test-debian13`: the install path and the whole suite on Debian 13 "trixie"
# (Python 3.13), the base of today's Raspberry Pi OS, in a chroot built once.
#
#   tests/debian13.sh              build (or reuse) the root, install, run everything
#   tests/debian13.sh --bootstrap  only build the cached root and its Debian packages
#   tests/debian13.sh --install    ... and the install path, without the suite
#
# The root is cached in $DEBIAN13_ROOT (default /var/cache/table-companion/debian13),
# never in git. Debian packages come from the mirror this machine's apt uses (and its
# proxy, if any); pip inside the root uses this machine's pip configuration (its config
# files, the PIP_* environment and the local directories they name), so it works
# wherever `make test` does. Needs root (sudo is used when not root) and debootstrap.
set -eu

REPO=$(cd "$(dirname "$0")/.." && pwd)
ROOT=${DEBIAN13_ROOT:-/var/cache/table-companion/debian13}
SUITE=trixie
# Packages the tests need (the Makefile's TEST_APT) and Python itself; the installer's
# own packages are added from `systemd/install.sh --list-packages` run inside the root.
TEST_APT=${TEST_APT:-xvfb xauth libgl1-mesa-dri libgl1 libegl1 libmtdev1 fonts-dejavu-core systemd libxtst6 desktop-file-utils}
BASE_APT="python3 python3-venv python3-pip ca-certificates procps"
ONLY_BOOTSTRAP=""
ONLY_INSTALL=""
[ "${1:-}" = "--bootstrap" ] && ONLY_BOOTSTRAP=1
[ "${1:-}" = "--install" ] && ONLY_INSTALL=1

if [ "$(id -u)" != 0 ]; then
    exec sudo -E "$0" "$@"
fi
command -v debootstrap >/dev/null || {
    echo "test-debian13: debootstrap is missing: sudo apt-get install debootstrap" >&2
    exit 1
}

say() { printf '\n== test-debian13: %s\n' "$*"; }
START=$(date +%s)

# -- the mirror and proxy this machine's apt uses ---------------------------------------
mirror() {
    # deb822 (URIs:) or one-line (deb URL suite ...) sources; the first Debian archive.
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list; do
        [ -f "$f" ] || continue
        sed -n -e 's/^URIs:[[:space:]]*\([^[:space:]]*\/debian\/\{0,1\}\)\([[:space:]].*\)\{0,1\}$/\1/p' \
               -e 's/^deb[[:space:]]\{1,\}\(\[[^]]*\][[:space:]]\{1,\}\)\{0,1\}\([^[:space:]]*\/debian\/\{0,1\}\)[[:space:]].*/\2/p' "$f"
    done | head -n 1
}
MIRROR=${DEBIAN13_MIRROR:-$(mirror)}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
MIRROR=${MIRROR%/}
SECURITY=$(echo "$MIRROR" | sed 's#/debian$#/debian-security#')
APT_PROXY=$(apt-config dump 2>/dev/null | grep -i -E '^Acquire::(http|https)::Proxy ' || true)

# -- mounts, undone on exit --------------------------------------------------------------
MOUNTS=""
mount_at() {  # mount_at TARGET mount-args...
    target=$1; shift
    mount "$@" "$target"
    MOUNTS="$target $MOUNTS"
}
cleanup() {
    # everything mounted under the root, deepest first (a recursive bind brings its own)
    for _pass in 1 2 3; do
        awk -v root="$ROOT/" 'index($2, root) == 1 {print $2}' /proc/mounts | sort -r |
            while read -r m; do umount -l "$m" 2>/dev/null || true; done
    done
}
trap cleanup EXIT INT TERM
mount_system() {
    cleanup  # what an interrupted run may have left
    mount_at "$ROOT/proc" -t proc proc
    mount_at "$ROOT/sys" -t sysfs sysfs
    mount_at "$ROOT/dev" --rbind /dev
    mount --make-rslave "$ROOT/dev"
    # the LED ring's tests open pseudo-terminals: a private /dev/pts for the root
    mount_at "$ROOT/dev/pts" -t devpts devpts -o newinstance,ptmxmode=0666,mode=0620
    mount_at "$ROOT/dev/ptmx" --bind "$ROOT/dev/pts/ptmx"
    mount_at "$ROOT/dev/shm" -t tmpfs tmpfs -o mode=1777
    cp /etc/resolv.conf "$ROOT/etc/resolv.conf" 2>/dev/null || true
}
ENV_FILE=/etc/table-companion-test.env  # inside the root: this machine's PIP_* and proxies
in_root() {
    chroot "$ROOT" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        /bin/sh -c '[ -f "$0" ] && . "$0"; exec "$@"' "$ENV_FILE" "$@"
}
quoted_env() {  # export lines for the variables matching $1, values quoted for sh
    env | grep -E "$1" | while IFS= read -r line; do
        printf "export %s='%s'\n" "${line%%=*}" "$(printf %s "${line#*=}" | sed "s/'/'\\\\''/g")"
    done
}

# -- 1. the root, once ---------------------------------------------------------------------
if [ ! -f "$ROOT/.debootstrap-done" ]; then
    say "debootstrap $SUITE from $MIRROR into $ROOT (once)"
    rm -rf "$ROOT"
    mkdir -p "$ROOT"
    debootstrap --variant=minbase --include=ca-certificates "$SUITE" "$ROOT" "$MIRROR"
    cat >"$ROOT/etc/apt/sources.list" <<EOF
deb $MIRROR $SUITE main
deb $MIRROR $SUITE-updates main
deb $SECURITY $SUITE-security main
EOF
    [ -n "$APT_PROXY" ] && echo "$APT_PROXY" >"$ROOT/etc/apt/apt.conf.d/90host-proxy"
    # services never start inside the chroot
    printf '#!/bin/sh\nexit 101\n' >"$ROOT/usr/sbin/policy-rc.d"
    chmod 755 "$ROOT/usr/sbin/policy-rc.d"
    touch "$ROOT/.debootstrap-done"
fi
mount_system
quoted_env '^(http_proxy|https_proxy|no_proxy|HTTP_PROXY|HTTPS_PROXY|NO_PROXY)=' >"$ROOT$ENV_FILE"

# -- 2. the Debian packages the README names -------------------------------------------------
say "copying the project into the root"
rm -rf "$ROOT/srv/table-companion"
mkdir -p "$ROOT/srv/table-companion"
tar -C "$REPO" --exclude=./.venv --exclude=./.git --exclude=__pycache__ \
    --exclude=./test-artifacts --exclude=./.pytest_cache --exclude=./.hypothesis \
    --exclude=./.ruff_cache --exclude='*.egg-info' -cf - . | tar -C "$ROOT/srv/table-companion" -xf -

INSTALLER_APT=$(in_root sh /srv/table-companion/systemd/install.sh --list-packages)
WANTED="$BASE_APT $TEST_APT $INSTALLER_APT"
STAMP="$ROOT/.apt-$(echo "$WANTED" | tr ' ' '\n' | sort -u | md5sum | cut -c1-12)"
if [ ! -f "$STAMP" ]; then
    say "apt-get install $WANTED"
    in_root apt-get update -qq
    # shellcheck disable=SC2086  # one word per package
    in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $WANTED
    touch "$STAMP"
fi
[ -n "$ONLY_BOOTSTRAP" ] && { say "root ready in $(( $(date +%s) - START ))s"; exit 0; }
# a git checkout, as on the Pi (`companion update` pulls; its test wants .git)
in_root git init -q /srv/table-companion

# -- 3. this machine's pip configuration --------------------------------------------------
# Config files are copied to the same places; the local paths they (or PIP_*) name
# (wheel directories, file:// indexes, certificates, constraint files) are bound read-only.
PIP_FILES="/etc/pip.conf /etc/xdg/pip/pip.conf $HOME/.config/pip/pip.conf $HOME/.pip/pip.conf ${PIP_CONFIG_FILE:-}"
for f in $PIP_FILES; do
    [ -f "$f" ] || continue
    case $f in "$HOME"/*) dest="/root${f#"$HOME"}" ;; *) dest=$f ;; esac
    mkdir -p "$ROOT$(dirname "$dest")"
    cp "$f" "$ROOT$dest"
done
quoted_env '^PIP_[A-Z0-9_]*=' >>"$ROOT$ENV_FILE"
PATHS=$( (for f in $PIP_FILES; do [ -f "$f" ] && cat "$f"; done; env | grep -E '^PIP_') \
    | grep -o -E '(file://)?/[^[:space:]"'"'"',]+' | sed -e 's#^file://##' -e 's#/$##' \
    | sed 's#^\(.*\)/simple$#\1#' | sort -u)  # a local index links to files beside it
for p in $PATHS; do
    [ -e "$p" ] || continue
    case $p in /proc*|/sys*|/dev*|/srv/table-companion*) continue ;; esac
    if [ -d "$p" ]; then mkdir -p "$ROOT$p"; else mkdir -p "$ROOT$(dirname "$p")"; touch "$ROOT$p"; fi
    mount_at "$ROOT$p" --bind "$p"
    mount -o remount,bind,ro "$ROOT$p" 2>/dev/null || true
done

# -- 4. the project's install path ----------------------------------------------------------
say "install path on $(in_root python3 --version)"
in_root sh -eu -c '
cd /srv/table-companion
echo "-- the installer refuses nothing here and shows its plan (--dry-run):"
sh systemd/install.sh --dry-run
echo "-- the venv with the pinned packages (systemd/constraints.txt) and the test extras:"
rm -rf /srv/venv
python3 -m venv --system-site-packages /srv/venv
/srv/venv/bin/pip install --quiet --upgrade pip
/srv/venv/bin/pip install --quiet -c systemd/constraints.txt -e ".[test]"
/srv/venv/bin/python -c "import sys, kivy, yaml, gpiozero, serial; print(\"python\", sys.version.split()[0], \"kivy\", kivy.__version__)"
echo "-- companion install --dry-run (console) and --root (console, desktop):"
/srv/venv/bin/companion install --console --venv /srv/venv --dry-run
rm -rf /tmp/plan && mkdir -p /tmp/plan
/srv/venv/bin/companion install --console --venv /srv/venv --root /tmp/plan
/srv/venv/bin/companion install --desktop --user pi --home /home/pi --venv /srv/venv --root /tmp/plan
find /tmp/plan -type f -o -type l | sort
systemd-analyze verify /tmp/plan/etc/systemd/system/table-companion.service 2>&1 | grep -v -E "Cannot find|not executable|No such file" || true
systemd-analyze security --offline=true /tmp/plan/etc/systemd/system/table-companion.service | tail -n 1
'
[ -n "$ONLY_INSTALL" ] && { say "install path done in $(( $(date +%s) - START ))s"; exit 0; }

# -- 5. the whole suite --------------------------------------------------------------------
say "the whole suite under $(in_root python3 --version)"
in_root sh -eu -c '
cd /srv/table-companion
/srv/venv/bin/ruff check .
xvfb-run -a -s "-screen 0 1920x1080x24" /srv/venv/bin/python -m pytest -q -p no:cacheprovider
'
say "passed in $(( $(date +%s) - START ))s"
