#!/bin/sh
# `make test-arm64`: the real installer on 64-bit ARM Debian 13 "trixie" (what a Pi 3, 4,
# 5 or Zero 2 W runs under 64-bit Raspberry Pi OS), in a chroot built once with
# debootstrap and run by qemu-user through the kernel's binfmt_misc.
#
#   tests/arm64.sh              build (or reuse) the root, install, start the app once
#   tests/arm64.sh --bootstrap  only build the cached root and its Debian packages
#
# Steps: `systemd/install.sh` runs as a Pi owner runs it (Debian packages, the venv at
# /opt/table-companion/venv with Kivy's aarch64 wheel, GPIO's lgpio, then `companion
# install`); the app then starts under the installed unit's environment and user, on
# Xvfb in place of the KMSDRM screen, and the run passes when the app says READY=1 and
# WATCHDOG=1 on a notify socket, as it does to systemd. The screen is kept as
# $ARTIFACTS/arm64-first-frame.png. The apt and pip plan used are printed.
#
# The root is cached in $ARM64_ROOT (default /var/cache/table-companion/arm64), never in
# git. Needs root (sudo is used when not root), debootstrap, and qemu-aarch64 registered
# with the "F" flag (Debian's qemu-user-static with binfmt-support, or qemu-user-binfmt):
# the Makefile target installs them. Takes tens of minutes (everything is emulated), so
# it is not part of `make test` nor of .ci/run.
set -eu

REPO=$(cd "$(dirname "$0")/.." && pwd)
ROOT=${ARM64_ROOT:-/var/cache/table-companion/arm64}
ARTIFACTS=${ARTIFACTS:-$REPO/test-artifacts}
SUITE=trixie
# Python and what the test itself needs (Xvfb for the screen, the notify listener); the
# installer brings the rest, as on a Pi.
BASE_APT="python3 ca-certificates procps xvfb xauth libgl1-mesa-dri fonts-dejavu-core systemd"
FIRST_FRAME_TIMEOUT=${FIRST_FRAME_TIMEOUT:-900}  # seconds: Kivy's start, emulated
ONLY_BOOTSTRAP=""
[ "${1:-}" = "--bootstrap" ] && ONLY_BOOTSTRAP=1

if [ "$(id -u)" != 0 ]; then
    exec sudo -E "$0" "$@"
fi
say() { printf '\n== test-arm64: %s\n' "$*"; }
fail() { printf 'test-arm64: %s\n' "$*" >&2; exit 1; }
START=$(date +%s)
command -v debootstrap >/dev/null || fail "debootstrap is missing: apt-get install debootstrap"

# -- 0. can this kernel run arm64 programs? ------------------------------------------------
BINFMT=/proc/sys/fs/binfmt_misc
if [ ! -f "$BINFMT/status" ]; then
    mount -t binfmt_misc binfmt_misc "$BINFMT" 2>/dev/null \
        || fail "binfmt_misc cannot be mounted at $BINFMT here (a container without it?): arm64 programs cannot run"
fi
if [ ! -f "$BINFMT/qemu-aarch64" ] && command -v update-binfmts >/dev/null; then
    update-binfmts --enable qemu-aarch64 2>/dev/null || true
fi
[ -f "$BINFMT/qemu-aarch64" ] \
    || fail "qemu-aarch64 is not registered in $BINFMT: apt-get install qemu-user-static binfmt-support"
grep -q '^enabled' "$BINFMT/qemu-aarch64" || fail "qemu-aarch64 is registered but disabled ($BINFMT/qemu-aarch64)"
# "F": the kernel opens the emulator once, so it runs inside a chroot that does not have it.
grep -q '^flags:.*F' "$BINFMT/qemu-aarch64" \
    || fail "qemu-aarch64 lacks the F flag (it would not run inside the chroot): use Debian's qemu-user-static"
say "binfmt: $(sed -n 's/^interpreter //p' "$BINFMT/qemu-aarch64") ($(sed -n 's/^flags: //p' "$BINFMT/qemu-aarch64"))"

# -- the mirror and proxy this machine's apt uses (as tests/debian13.sh) ------------------
mirror() {
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list; do
        [ -f "$f" ] || continue
        sed -n -e 's/^URIs:[[:space:]]*\([^[:space:]]*\/debian\/\{0,1\}\)\([[:space:]].*\)\{0,1\}$/\1/p' \
               -e 's/^deb[[:space:]]\{1,\}\(\[[^]]*\][[:space:]]\{1,\}\)\{0,1\}\([^[:space:]]*\/debian\/\{0,1\}\)[[:space:]].*/\2/p' "$f"
    done | head -n 1
}
MIRROR=${ARM64_MIRROR:-$(mirror)}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
MIRROR=${MIRROR%/}
SECURITY=$(echo "$MIRROR" | sed 's#/debian$#/debian-security#')
APT_PROXY=$(apt-config dump 2>/dev/null | grep -i -E '^Acquire::(http|https)::Proxy ' || true)

# -- mounts, undone on exit ----------------------------------------------------------------
APP_PID=""
cleanup() {
    [ -n "$APP_PID" ] && kill "$APP_PID" 2>/dev/null
    for _pass in 1 2 3; do
        awk -v root="$ROOT/" 'index($2, root) == 1 {print $2}' /proc/mounts | sort -r |
            while read -r m; do umount -l "$m" 2>/dev/null || true; done
    done
}
trap cleanup EXIT INT TERM
mount_system() {
    cleanup
    mount -t proc proc "$ROOT/proc"
    mount -t sysfs sysfs "$ROOT/sys"
    mount --rbind /dev "$ROOT/dev"
    mount --make-rslave "$ROOT/dev"
    mount -t devpts devpts -o newinstance,ptmxmode=0666,mode=0620 "$ROOT/dev/pts"
    mount --bind "$ROOT/dev/pts/ptmx" "$ROOT/dev/ptmx"
    mount -t tmpfs tmpfs -o mode=1777 "$ROOT/dev/shm"
    cp /etc/resolv.conf "$ROOT/etc/resolv.conf" 2>/dev/null || true
}
ENV_FILE=/etc/table-companion-test.env  # inside the root: this machine's PIP_* and proxies
in_root() {
    chroot "$ROOT" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        /bin/sh -c '[ -f "$0" ] && . "$0"; exec "$@"' "$ENV_FILE" "$@"
}
quoted_env() {
    env | grep -E "$1" | while IFS= read -r line; do
        printf "export %s='%s'\n" "${line%%=*}" "$(printf %s "${line#*=}" | sed "s/'/'\\\\''/g")"
    done
}

# -- 1. the root, once ---------------------------------------------------------------------
if [ ! -f "$ROOT/.debootstrap-done" ]; then
    say "debootstrap --arch=arm64 $SUITE from $MIRROR into $ROOT (once)"
    rm -rf "$ROOT"
    mkdir -p "$ROOT"
    debootstrap --arch=arm64 --variant=minbase --include=ca-certificates "$SUITE" "$ROOT" "$MIRROR"
    cat >"$ROOT/etc/apt/sources.list" <<EOF
deb $MIRROR $SUITE main
deb $MIRROR $SUITE-updates main
deb $SECURITY $SUITE-security main
EOF
    [ -n "$APT_PROXY" ] && echo "$APT_PROXY" >"$ROOT/etc/apt/apt.conf.d/90host-proxy"
    printf '#!/bin/sh\nexit 101\n' >"$ROOT/usr/sbin/policy-rc.d"  # no service starts
    chmod 755 "$ROOT/usr/sbin/policy-rc.d"
    touch "$ROOT/.debootstrap-done"
fi
mount_system
quoted_env '^(http_proxy|https_proxy|no_proxy|HTTP_PROXY|HTTPS_PROXY|NO_PROXY)=' >"$ROOT$ENV_FILE"
say "root: $(in_root uname -m), $(in_root sh -c '. /etc/os-release; echo $PRETTY_NAME')"

STAMP="$ROOT/.apt-$(echo "$BASE_APT" | tr ' ' '\n' | sort -u | md5sum | cut -c1-12)"
if [ ! -f "$STAMP" ]; then
    say "apt-get install $BASE_APT"
    in_root apt-get update -qq
    # shellcheck disable=SC2086  # one word per package
    in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $BASE_APT
    touch "$STAMP"
fi
[ -n "$ONLY_BOOTSTRAP" ] && { say "root ready in $(( $(date +%s) - START ))s"; exit 0; }

# -- 2. this machine's pip configuration (as tests/debian13.sh) ----------------------------
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
    | sed 's#^\(.*\)/simple$#\1#' | sort -u)
for p in $PATHS; do
    [ -e "$p" ] || continue
    case $p in /proc*|/sys*|/dev*|/opt/table-companion*) continue ;; esac
    if [ -d "$p" ]; then mkdir -p "$ROOT$p"; else mkdir -p "$ROOT$(dirname "$p")"; touch "$ROOT$p"; fi
    mount --bind "$p" "$ROOT$p"
    mount -o remount,bind,ro "$ROOT$p" 2>/dev/null || true
done

# -- 3. the project where the docs put it, and the real installer --------------------------
say "copying the project to /opt/table-companion/src"
SRC=/opt/table-companion/src
rm -rf "$ROOT$SRC"
mkdir -p "$ROOT$SRC"
tar -C "$REPO" --exclude=./.venv --exclude=./.git --exclude=__pycache__ \
    --exclude=./test-artifacts --exclude=./.pytest_cache --exclude=./.hypothesis \
    --exclude=./.ruff_cache --exclude='*.egg-info' -cf - . | tar -C "$ROOT$SRC" -xf -

say "the installer's plan (--dry-run, --list-packages)"
in_root sh "$SRC/systemd/install.sh" --list-packages
in_root sh "$SRC/systemd/install.sh" --dry-run

say "sudo systemd/install.sh (console), for real"
CODE=0
in_root sh "$SRC/systemd/install.sh" || CODE=$?
[ "$CODE" = 0 ] || fail "systemd/install.sh failed (exit $CODE, see above)"

say "the plan it used"
echo "-- apt: the Debian packages it names, as installed here:"
for p in $(in_root sh "$SRC/systemd/install.sh" --list-packages); do
    # Debian 13 renamed some libraries (libmtdev1 -> libmtdev1t64)
    for name in "$p" "${p}t64"; do
        if in_root dpkg -s "$name" >/dev/null 2>&1; then
            in_root dpkg-query -W -f '${Package} ${Version} ${Architecture}\n' "$name"
            continue 2
        fi
    done
    echo "$p: not installed"
done
echo "-- pip: the venv's packages:"
in_root /opt/table-companion/venv/bin/pip list --format=freeze
echo "-- GPIO:"
in_root /opt/table-companion/venv/bin/python -c 'import lgpio; print("lgpio", lgpio.__file__)' \
    || echo "lgpio: not importable"
UNIT_FILE="$ROOT/etc/systemd/system/table-companion.service"
[ -f "$UNIT_FILE" ] || fail "no unit at /etc/systemd/system/table-companion.service"
in_root systemd-analyze security --offline=true /etc/systemd/system/table-companion.service | tail -n 1

# -- 4. the app, under the unit's user, directory and environment --------------------------
say "the app under the installed unit's environment (Xvfb in place of KMSDRM)"
unit_value() { sed -n "s/^$1=//p" "$UNIT_FILE" | tail -n 1; }
UNIT_USER=$(unit_value User)
WORKDIR=$(unit_value WorkingDirectory)
EXEC=$(unit_value ExecStart)
# what systemd hands a Type=notify service with WatchdogSec= (plain seconds in our unit)
WATCHDOG_USEC=$(( $(unit_value WatchdogSec) * 1000000 ))
# StateDirectory=, as systemd makes it at each start: owned by the service user (the
# installer wrote kivy/config.ini in it as root: systemd hands it all over), 0700.
in_root chown -R "$UNIT_USER:$UNIT_USER" "$WORKDIR"
in_root chmod 0700 "$WORKDIR"
ENVS=$(sed -n 's/^Environment=//p' "$UNIT_FILE" | grep -v '^SDL_VIDEODRIVER=' | tr '\n' ' ')
echo "user $UNIT_USER, directory $WORKDIR, command $EXEC"
echo "environment: $ENVS SDL_VIDEODRIVER=x11 DISPLAY=(Xvfb's) NOTIFY_SOCKET=/run/tc-notify WATCHDOG_USEC=$WATCHDOG_USEC"
rm -rf "$ROOT/tmp/fb" "$ROOT/tmp/screen.xwd" && mkdir -p "$ROOT/tmp/fb"
cat >"$ROOT/tmp/first_frame.sh" <<EOF
#!/bin/sh
# Xvfb at the 7" panel's size, on the first free display (the chroot shares the host's
# abstract X sockets); its screen is a file (-fbdir) the host reads.
rm -f /tmp/display
Xvfb -displayfd 3 -screen 0 800x480x24 -fbdir /tmp/fb -nolisten tcp 3>/tmp/display >/tmp/xvfb.log 2>&1 &
XVFB=\$!
trap 'kill \$XVFB 2>/dev/null' EXIT
for _ in \$(seq 60); do [ -s /tmp/display ] && break; sleep 1; done
DISPLAY_NUMBER=\$(cat /tmp/display)
echo "Xvfb on :\$DISPLAY_NUMBER"
python3 /tmp/notify_listen.py /run/tc-notify $FIRST_FRAME_TIMEOUT &
LISTENER=\$!
for _ in \$(seq 120); do [ -S /run/tc-notify ] && break; sleep 1; done  # (mode 0666)
cd $WORKDIR
env -i PATH=/usr/bin:/bin LANG=C.UTF-8 HOME=$WORKDIR $ENVS SDL_VIDEODRIVER=x11 DISPLAY=:\$DISPLAY_NUMBER \\
    NOTIFY_SOCKET=/run/tc-notify WATCHDOG_USEC=$WATCHDOG_USEC setpriv --reuid=$UNIT_USER --regid=$UNIT_USER --init-groups \\
    $EXEC >/tmp/app.log 2>&1 &
APP=\$!
wait \$LISTENER
CODE=\$?
cp /tmp/fb/Xvfb_screen0 /tmp/screen.xwd 2>/dev/null
kill \$APP 2>/dev/null
exit \$CODE
EOF
cat >"$ROOT/tmp/notify_listen.py" <<'EOF'
"""systemd's side of sd_notify: wait for READY=1, then for two WATCHDOG=1 (frames drawn)."""
import os, socket, sys, time
path, timeout = sys.argv[1], float(sys.argv[2])
if os.path.exists(path):
    os.unlink(path)
sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
sock.bind(path)
os.chmod(path, 0o666)
start = time.monotonic()
seen = set()
pings = 0
while not ("READY=1" in seen and pings >= 2):
    left = timeout - (time.monotonic() - start)
    if left <= 0:
        print(f"notify: no READY=1 and WATCHDOG=1 after {timeout:.0f} s (seen {sorted(seen)})")
        sys.exit(1)
    sock.settimeout(left)
    try:
        message = sock.recv(4096).decode()
    except TimeoutError:
        continue
    for line in message.splitlines():
        pings += line == "WATCHDOG=1"
        if line not in seen:
            print(f"notify: {line} after {time.monotonic() - start:.0f} s", flush=True)
        seen.add(line)
EOF
CODE=0
in_root sh /tmp/first_frame.sh || CODE=$?
echo "-- the app's log:"
cat "$ROOT/tmp/app.log"
mkdir -p "$ARTIFACTS"
if [ -f "$ROOT/tmp/screen.xwd" ]; then
    python3 "$REPO/tests/xwd_png.py" "$ROOT/tmp/screen.xwd" "$ARTIFACTS/arm64-first-frame.png"
    echo "screen: $ARTIFACTS/arm64-first-frame.png"
fi
[ "$CODE" = 0 ] || fail "the app did not draw its first frame (exit $CODE)"
say "passed in $(( $(date +%s) - START ))s"
