"""`companion install | update | uninstall`: the kiosk on a Raspberry Pi.

`systemd/install.sh` makes the venv (pinned by systemd/constraints.txt) and then runs
`companion install`, which lays out the rest: the unit, Kivy's touch settings, a config
file that fills the screen without a cursor, the service user and its groups.

Everything is a plan of small steps, computed first and then carried out, so that:
- running it twice changes nothing (a file is written only when its content differs,
  the user's own config is never overwritten);
- `--dry-run` prints the plan and changes nothing on this system;
- `--root DIR` writes the files under DIR (an image, a test) and runs no command.
Two setups: `--console` (a system service drawing through KMSDRM, the default) and
`--desktop` (a user service inside the desktop session).
"""

from __future__ import annotations

import argparse
import configparser
import grp
import io
import os
import platform
import pwd
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from companion import config
from companion.files import read_regular_text
from companion.i18n import FALLBACK, Translator

REPO = Path(__file__).resolve().parents[2]
UNITS = REPO / "systemd"
UNIT = "table-companion.service"
SESSION_TARGET = "table-companion-session.target"
SESSION_DESKTOP = "table-companion-session.desktop"
SERVICE_USER = "table-companion"
GROUPS = ("gpio", "dialout", "video", "render", "input")
# The defaults written in the committed units, replaced when the install differs.
DEFAULT_VENV = "/opt/table-companion/venv"
DEFAULT_SRC = "/opt/table-companion/src"
STATE_DIR = Path("/var/lib/table-companion")
ETC_CONFIG = Path("/etc") / config.APP_DIR / config.USER_FILE
PACKAGES = ("companion", "hardware", "ui")  # the app's code, byte-compiled at install
PRIVATE_TREES = (Path("/home"), Path("/root"), Path("/run/user"))
# The LED ring's USB serial drivers, loaded at boot so that the console unit's
# DeviceAllow=char-ttyACM and char-ttyUSB find their device groups (systemd reads them
# from /proc/devices when the unit starts) even before a ring is plugged in.
MODULES_LOAD = Path("/etc/modules-load.d/table-companion.conf")
MODULES_LOADED = ("cdc_acm", "usbserial")
MODULES = ("# Written by `companion install`: the LED ring's USB serial drivers.\n"
           + "".join(f"{m}\n" for m in MODULES_LOADED))
# Back-off between restarts (systemd 254 and later): 2 s, growing to five minutes.
RESTART_BACKOFF = "RestartSteps=10\nRestartMaxDelaySec=300\n"
BACKOFF_SINCE = 254
# Before 254 (bookworm's 252) RestartSec= cannot grow: five quick tries, then the unit
# fails (start limit) and a timer starts it again five minutes later, and so on.
START_LIMIT = "StartLimitIntervalSec=300\nStartLimitBurst=5\n"
RETRY_TIMER = "table-companion-retry.timer"
# The backlight: writable by the group video (the app's users are in it) through a udev
# rule, and bound writable into the unit (ProtectKernelTunables= makes all of /sys
# read-only), for dimming and blanking.
SYS_BACKLIGHT = Path("/sys/class/backlight")
BACKLIGHT_RULE = Path("/etc/udev/rules.d/70-table-companion-backlight.rules")
SYSTEMD_RUNTIME = Path("/run/systemd/system")  # exists only under a running systemd
# Where the data must not be: a RAM file system loses every game at power-off.
VOLATILE_FS = ("overlay", "tmpfs", "ramfs")
# Kivy has no wheels for these: 32-bit Raspberry Pi OS cannot run the app.
THIRTY_TWO_BIT = ("armv6l", "armv7l", "armv8l", "armhf", "armel", "i386", "i686")

USER_CONFIG = """\
# Your Table Companion settings: every key of config/app.yaml (and of the games and
# hardware files) can be set here. Check this file with `companion check-config`.
# Written once by `companion install`; updates and reinstalls never change it.
display:
  # The kiosk: the whole screen, no mouse cursor.
  fullscreen: true
  show_cursor: false
"""

# Kivy's [input] section, one input path per setup, so that one tap is one touch:
# - console (KMSDRM, no compositor): Kivy's touch reader (mtdev, or hidinput) reads the
#   touch screen, and the unit switches SDL's own copy of each touch off
#   (SDL_TOUCH_MOUSE_EVENTS=0 in systemd/table-companion.service: SDL would turn every
#   touch into a mouse event too, and Kivy 2.3.1 would make a second touch of it). The
#   mouse provider is for a real mouse, and stands down while a finger is down.
# - desktop: the compositor's pointer events only, turned with the desktop (SDL turns
#   the compositor's touches into mouse events); no raw reader, which would read the
#   panel in its own, unturned axes. The key `%(name)s` is there, empty (off), so that
#   Kivy's first start does not add its own raw reader (`probesysfs`) under it.
TOUCH_READERS = ("mtdev", "hidinput")
DESKTOP_INPUT = {"mouse": "mouse", "%(name)s": ""}


def kivy_input(target: Target) -> dict[str, str]:
    if target.mode == "desktop":
        return dict(DESKTOP_INPUT)
    return {"mouse": "mouse,disable_on_activity",
            "%(name)s": f"probesysfs,provider={target.touch}"}


# -- steps ------------------------------------------------------------------------------
@dataclass(frozen=True)
class WriteFile:
    path: Path
    content: str
    mode: int = 0o644
    keep_existing: bool = False  # the user's own file: write it only if missing


@dataclass(frozen=True)
class KivyInput:
    """Kivy's config.ini with our [input] section; Kivy's own keys are kept."""

    path: Path
    entries: dict[str, str]


@dataclass(frozen=True)
class Symlink:
    path: Path
    target: Path


@dataclass(frozen=True)
class Remove:
    path: Path
    tree: bool = False
    must_be_venv: bool = False


@dataclass(frozen=True)
class Run:
    argv: tuple[str, ...]
    may_fail: bool = False  # e.g. the user's service manager is not running


Step = WriteFile | KivyInput | Symlink | Remove | Run


@dataclass
class Target:
    """Where and as whom: every path in a plan is the path on the Pi."""

    mode: str  # "console" or "desktop"
    venv: Path
    user: str
    home: Path
    repo: Path = REPO
    touch: str = "mtdev"
    data_dir: str = ""
    systemd_version: int | None = None  # None: unknown, only what every systemd has
    backlights: tuple[str, ...] = ()  # their /sys/devices folders, made writable

    @property
    def unit_path(self) -> Path:
        if self.mode == "console":
            return Path("/etc/systemd/system") / UNIT
        return self.home / ".config/systemd/user" / UNIT

    @property
    def config_path(self) -> Path:
        if self.mode == "console":
            return ETC_CONFIG
        return self.home / ".config" / config.APP_DIR / config.USER_FILE

    @property
    def data_path(self) -> Path:
        if self.mode == "console":
            return STATE_DIR
        return self.home / ".local/share" / config.APP_DIR

    @property
    def owner(self) -> str | None:
        """Who owns the files written in a home directory."""
        return self.user if self.mode == "desktop" else None


# -- rendering --------------------------------------------------------------------------
def render_unit(target: Target) -> str:
    console = target.mode == "console"
    template = "table-companion.service" if console else "table-companion-user.service"
    text = read_regular_text(UNITS / template)
    text = text.replace(DEFAULT_VENV, str(target.venv)).replace(DEFAULT_SRC, str(target.repo))
    if target.mode == "console":
        if target.user != SERVICE_USER:
            text = text.replace(f"User={SERVICE_USER}", f"User={target.user}")
            text = text.replace(f"Group={SERVICE_USER}", f"Group={target.user}")
        hidden = [p for p in (target.repo, target.venv) if _under(p, PRIVATE_TREES)]
        if hidden:
            # The code lives in a home directory: show only that, read-only.
            binds = " ".join(sorted({str(p) for p in hidden}))
            text = text.replace("ProtectHome=yes\n",
                                f"ProtectHome=tmpfs\nBindReadOnlyPaths={binds}\n")
    if has_restart_steps(target):
        text = text.replace("RestartSec=2\n", f"RestartSec=2\n{RESTART_BACKOFF}", 1)
    else:
        text = text.replace("StartLimitIntervalSec=0\n", START_LIMIT, 1)
    anchor = "UMask=0077\n"
    if target.data_dir:
        # `data_dir` in the config moves the journal: that place must stay writable.
        text = text.replace(anchor, f"ReadWritePaths=-{target.data_dir}\n{anchor}", 1)
    for device in target.backlights:
        text = text.replace(anchor, f"ReadWritePaths=-{device}\n{anchor}", 1)
    return text


def has_restart_steps(target: Target) -> bool:
    return target.systemd_version is not None and target.systemd_version >= BACKOFF_SINCE


def render_retry_timer(target: Target) -> str:
    wanted = "timers.target" if target.mode == "console" else "graphical-session.target"
    return (
        "# Written by `companion install` for systemd before 254, which cannot make the\n"
        "# pause between restarts grow: after a crash loop has hit the unit's start limit,\n"
        "# start it again five minutes later (and again, while it keeps failing).\n"
        "[Unit]\nDescription=Table Companion: try again five minutes after a crash loop\n\n"
        f"[Timer]\nUnit={UNIT}\nOnUnitInactiveSec=5min\n\n"
        f"[Install]\nWantedBy={wanted}\n")


def backlight_rule() -> str:
    files = "/sys%p/brightness /sys%p/bl_power"
    return (
        "# Written by `companion install`: the backlight's brightness and power writable\n"
        "# by the group video, so that Table Companion (its user is in that group) can dim\n"
        "# and blank the screen. See docs/raspberry-pi.md, \"Dimming and blanking\".\n"
        f'ACTION=="add", SUBSYSTEM=="backlight", RUN+="/bin/chgrp video {files}", '
        f'RUN+="/bin/chmod g+w {files}"\n')


def backlight_devices(root: Path) -> tuple[str, ...]:
    """The real folders behind /sys/class/backlight/* (links into /sys/devices) on this
    system; none for an image (its /sys is empty)."""
    if root != Path("/"):
        return ()
    try:
        return tuple(str(link.resolve()) for link in sorted(SYS_BACKLIGHT.iterdir()))
    except OSError:
        return ()


def volatile_fs(path: Path, mountinfo: str | None = None) -> str | None:
    """The file system type holding `path` if it does not survive a power cut (the
    Overlay File System of raspi-config, a tmpfs), else None."""
    if mountinfo is None:
        try:
            mountinfo = Path("/proc/self/mountinfo").read_text(encoding="utf-8")
        except OSError:
            return None
    best, kind = "", ""
    for line in mountinfo.splitlines():
        fields, _, rest = line.partition(" - ")
        parts = fields.split()
        if len(parts) < 5 or not rest:
            continue
        point = parts[4].replace("\\040", " ")
        inside = str(path) == point or str(path).startswith(point.rstrip("/") + "/")
        if inside and len(point) >= len(best):
            best, kind = point, rest.split()[0]
    return kind if kind in VOLATILE_FS else None


def _under(path: Path, trees: Sequence[Path]) -> bool:
    return any(path == tree or tree in path.parents for tree in trees)


def wanted_by(unit_text: str) -> str:
    for line in unit_text.splitlines():
        if line.startswith("WantedBy="):
            return line.split("=", 1)[1].split()[0]
    raise ValueError("unit without WantedBy=")


def kivy_ini(existing: str | None, entries: dict[str, str]) -> str | None:
    """The new config.ini text, or None if its [input] is already ours."""
    parser = configparser.RawConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys keep case
    if existing:
        try:
            parser.read_string(existing)
        except configparser.Error:
            parser = configparser.RawConfigParser(interpolation=None)
            parser.optionxform = str  # type: ignore[assignment,method-assign]
    if parser.has_section("input") and dict(parser.items("input")) == entries:
        return None
    if parser.has_section("input"):
        parser.remove_section("input")
    parser.add_section("input")
    for key, value in entries.items():
        parser.set("input", key, value)
    out = io.StringIO()
    parser.write(out)
    return out.getvalue()


# -- plans ------------------------------------------------------------------------------
def plan_install(target: Target, probe: Probe) -> list[Step]:
    steps: list[Step] = [compile_step(target)]
    unit_text = render_unit(target)
    unit_dir = target.unit_path.parent
    wants = unit_dir / f"{wanted_by(unit_text)}.wants" / UNIT
    if target.mode == "console" and not probe.user_exists(target.user):
        steps.append(Run(("useradd", "--system", "--user-group", "--no-create-home",
                          "--home-dir", str(STATE_DIR), "--shell", "/usr/sbin/nologin",
                          target.user)))
    groups = [g for g in GROUPS if probe.group_exists(g)]
    if groups:
        steps.append(Run(("usermod", "--append", "--groups", ",".join(groups), target.user)))
    steps.append(WriteFile(target.unit_path, unit_text))
    if target.mode == "console":
        steps.append(WriteFile(MODULES_LOAD, MODULES))
        steps.append(Run(("modprobe", "-a", *MODULES_LOADED), may_fail=True))
    steps.append(WriteFile(BACKLIGHT_RULE, backlight_rule()))
    steps.append(Run(("udevadm", "trigger", "--subsystem-match=backlight", "--action=add"),
                     may_fail=True))
    retry = unit_dir / RETRY_TIMER
    if has_restart_steps(target):
        steps.append(Remove(retry))
        steps.append(Remove(unit_dir / f"{wanted_by(render_retry_timer(target))}.wants"
                            / RETRY_TIMER))
    else:
        timer = render_retry_timer(target)
        steps.append(WriteFile(retry, timer))
        steps.append(Symlink(unit_dir / f"{wanted_by(timer)}.wants" / RETRY_TIMER, retry))
    if target.mode == "desktop":
        steps.append(WriteFile(unit_dir / SESSION_TARGET,
                               read_regular_text(UNITS / SESSION_TARGET)))
        steps.append(WriteFile(target.home / ".config/autostart" / SESSION_DESKTOP,
                               read_regular_text(UNITS / SESSION_DESKTOP)))
    steps.append(Symlink(wants, target.unit_path))
    steps.append(WriteFile(target.config_path, USER_CONFIG, keep_existing=True))
    steps.append(KivyInput(target.data_path / "kivy" / "config.ini", kivy_input(target)))
    steps += _reload(target)
    if target.mode == "console":
        # The app owns the screen of tty1: no login prompt there.
        steps.append(Run(("systemctl", "disable", "getty@tty1.service"), may_fail=True))
    steps.append(Run((*_systemctl(target), "try-restart", UNIT), may_fail=True))
    if not has_restart_steps(target):
        steps.append(Run((*_systemctl(target), "start", RETRY_TIMER), may_fail=True))
    return steps


def compile_step(target: Target) -> Run:
    """Byte-code for the app's packages, written now: the service may not write into the
    source tree (ProtectSystem=strict), and without it every start would compile the
    whole app again before its first frame."""
    python = str(target.venv / "bin" / "python")
    return Run((python, "-m", "compileall", "-q",
                *(str(target.repo / p) for p in PACKAGES)))


def plan_uninstall(target: Target, purge: bool) -> list[Step]:
    unit_dir = target.unit_path.parent
    # one unit per call: systemctl refuses the whole call when one unit file is missing
    # (no retry timer on systemd 254+); the timer first, so it cannot start the app again
    steps: list[Step] = [Run((*_systemctl(target), "disable", "--now", RETRY_TIMER),
                             may_fail=True),
                         Run((*_systemctl(target), "disable", "--now", UNIT), may_fail=True)]
    for path in (unit_dir / "multi-user.target.wants" / UNIT,
                 unit_dir / "graphical-session.target.wants" / UNIT, target.unit_path,
                 unit_dir / "timers.target.wants" / RETRY_TIMER,
                 unit_dir / "graphical-session.target.wants" / RETRY_TIMER,
                 unit_dir / RETRY_TIMER):
        steps.append(Remove(path))
    if target.mode == "desktop":
        steps.append(Remove(unit_dir / SESSION_TARGET))
        steps.append(Remove(target.home / ".config/autostart" / SESSION_DESKTOP))
    steps += _reload(target)
    steps.append(Remove(BACKLIGHT_RULE))
    if target.mode == "console":
        steps.append(Remove(MODULES_LOAD))
        steps.append(Run(("systemctl", "enable", "getty@tty1.service"), may_fail=True))
    steps.append(Remove(target.venv, tree=True, must_be_venv=True))
    if purge:
        steps.append(Remove(target.config_path.parent, tree=True))
        steps.append(Remove(target.data_path, tree=True))
        if target.mode == "console":
            steps.append(Run(("userdel", target.user), may_fail=True))
    return steps


def plan_update(target: Target, repo_owner: str | None = None) -> list[Step]:
    """New code and pinned dependencies, then the install plan of the new code (run as
    a new process, so the new units are the ones written). GPIO (lgpio) is optional, as
    in systemd/install.sh: Debian's python3-lgpio may already be there, and where pip
    can neither find a wheel nor build it the update goes on without it.

    `repo_owner`: who owns the checkout, when it is not us (a clone in a user's home):
    git refuses a repository owned by someone else ("dubious ownership"), and a pull
    as root would leave root's files in the user's checkout, so git runs as its owner."""
    pip = str(target.venv / "bin" / "pip")
    pins = ("-c", str(target.repo / "systemd/constraints.txt"))
    git = ("git", "-C", str(target.repo), "pull", "--ff-only")
    if repo_owner:
        git = ("runuser", "-u", repo_owner, "--", *git)
    return [
        Run(git),
        Run((pip, "install", "--quiet", *pins, "-e", str(target.repo))),
        Run((str(target.venv / "bin" / "python"), "-c", "import lgpio"), may_fail=True),
        Run(("env", "PYPI=1", pip, "install", "--quiet", *pins, "-e", f"{target.repo}[pi]"),
            may_fail=True),
        Run((str(target.venv / "bin" / "companion"), "install", f"--{target.mode}",
             "--user", target.user, "--venv", str(target.venv), "--touch", target.touch)),
    ]


def owner_if_not_me(path: Path) -> str | None:
    """The user owning `path`, when that is not the user running this."""
    try:
        uid = path.stat().st_uid
    except OSError:
        return None
    if uid == os.geteuid():
        return None
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return None


def _systemctl(target: Target) -> tuple[str, ...]:
    if target.mode == "console":
        return ("systemctl",)
    return ("systemctl", "--user", f"--machine={target.user}@")


def _reload(target: Target) -> list[Step]:
    # Without a running systemd (a chroot, an image being prepared) there is nothing to
    # reload: the units are read at the next boot.
    return [Run((*_systemctl(target), "daemon-reload"),
                may_fail=target.mode == "desktop" or not systemd_running())]


def systemd_running() -> bool:
    """sd_booted(): this system was started by systemd, which manages it now."""
    return SYSTEMD_RUNTIME.is_dir()


# -- looking at the (possibly image) system ------------------------------------------------
def systemd_version(root: Path) -> int | None:
    """The systemd of the system (or image) at `root`, from its shared library's name."""
    for folder in ("usr/lib/*/systemd", "usr/lib/systemd", "lib/systemd"):
        pattern = f"{folder}/libsystemd-shared-*.so"
        for found in sorted(root.glob(pattern)):
            number = re.search(r"libsystemd-shared-(\d+)", found.name)
            if number:
                return int(number.group(1))
    return None


def is_32bit(machine: str) -> bool:
    return machine in THIRTY_TWO_BIT


@dataclass
class Probe:
    """Users and groups, from the live system or from an image's /etc files."""

    root: Path

    def _names(self, file: str) -> set[str]:
        if self.root == Path("/"):
            entries = pwd.getpwall() if file == "passwd" else grp.getgrall()
            return {e[0] for e in entries}
        try:
            text = (self.root / "etc" / file).read_text(encoding="utf-8")
        except OSError:
            return set()
        return {line.split(":", 1)[0] for line in text.splitlines() if ":" in line}

    def user_exists(self, name: str) -> bool:
        return name in self._names("passwd")

    def group_exists(self, name: str) -> bool:
        return name in self._names("group")


# -- carrying a plan out --------------------------------------------------------------------
@dataclass
class Executor:
    tr: Translator
    root: Path = Path("/")
    dry_run: bool = False
    owner: str | None = None
    out: Callable[[str], None] = print
    runner: Callable[[Sequence[str]], int] = field(default=lambda argv: subprocess.call(list(argv)))

    @property
    def live(self) -> bool:
        return self.root == Path("/")

    @property
    def writes(self) -> bool:
        return not (self.dry_run and self.live)

    @property
    def runs(self) -> bool:
        return self.live and not self.dry_run

    def at(self, path: Path) -> Path:
        return self.root / path.relative_to("/") if path.is_absolute() else self.root / path

    def carry_out(self, steps: Sequence[Step]) -> int:
        for step in steps:
            code = self.do(step)
            if code:
                return code
        return 0

    def do(self, step: Step) -> int:
        if isinstance(step, Run):
            return self._run(step)
        if isinstance(step, Remove):
            self._remove(step)
        elif isinstance(step, Symlink):
            self._symlink(step)
        elif isinstance(step, KivyInput):
            where = self.at(step.path)
            existing = read_regular_text(where) if where.exists() else None
            new = kivy_ini(existing, step.entries)
            self._write(step.path, new, 0o644, existed=existing is not None)
        else:
            where = self.at(step.path)
            if where.exists() and step.keep_existing:
                self.out(self.tr("deploy.step.kept", path=step.path))
                return 0
            existing = read_regular_text(where) if where.exists() else None
            new = None if existing == step.content else step.content
            self._write(step.path, new, step.mode, existed=existing is not None)
        return 0

    def _write(self, path: Path, content: str | None, mode: int, existed: bool) -> None:
        if content is None:
            self.out(self.tr("deploy.step.unchanged", path=path))
            return
        verb = "update" if existed else "create"
        if not self.writes:
            self.out(self.tr(f"deploy.step.would_{verb}", path=path))
            return
        where = self.at(path)
        self._makedirs(where.parent)
        # Atomic: a power cut leaves the old file or the new one, never half of one.
        fd, tmp = tempfile.mkstemp(dir=where.parent, prefix=f".{where.name}.")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(content)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(tmp, mode)
            self._chown(Path(tmp))
            os.replace(tmp, where)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        self.out(self.tr(f"deploy.step.{verb}", path=path))

    def _symlink(self, step: Symlink) -> None:
        where = self.at(step.path)
        if where.is_symlink() and Path(os.readlink(where)) == step.target:
            self.out(self.tr("deploy.step.unchanged", path=step.path))
            return
        if not self.writes:
            self.out(self.tr("deploy.step.would_link", path=step.path, target=step.target))
            return
        self._makedirs(where.parent)
        if where.is_symlink() or where.exists():
            where.unlink()
        where.symlink_to(step.target)  # the target as seen on the Pi, like systemctl does
        self._chown(where)
        self.out(self.tr("deploy.step.link", path=step.path, target=step.target))

    def _remove(self, step: Remove) -> None:
        where = self.at(step.path)
        if not (where.exists() or where.is_symlink()):
            self.out(self.tr("deploy.step.absent", path=step.path))
            return
        if step.must_be_venv and not (where / "pyvenv.cfg").exists():
            self.out(self.tr("deploy.error.not_a_venv", path=step.path))
            return
        if not self.writes:
            self.out(self.tr("deploy.step.would_remove", path=step.path))
            return
        if step.tree and where.is_dir() and not where.is_symlink():
            shutil.rmtree(where)
        else:
            where.unlink()
        self.out(self.tr("deploy.step.remove", path=step.path))

    def _run(self, step: Run) -> int:
        command = shlex.join(step.argv)
        if not self.runs:
            self.out(self.tr("deploy.step.would_run", command=command))
            return 0
        self.out(self.tr("deploy.step.run", command=command))
        try:
            code = self.runner(step.argv)
        except OSError as exc:
            code = 127
            reason = str(exc)
        else:
            reason = f"exit {code}"
        if code and step.may_fail:
            self.out(self.tr("deploy.step.tolerated", reason=reason))
            return 0
        if code:
            self.out(self.tr("deploy.error.command_failed", code=code, command=command))
        return code

    def _makedirs(self, where: Path) -> None:
        missing = []
        probe = where
        while not probe.exists():
            missing.append(probe)
            probe = probe.parent
        for directory in reversed(missing):
            directory.mkdir(mode=0o755)
            self._chown(directory)

    def _chown(self, where: Path) -> None:
        """Files written into a user's home belong to that user (we run as root)."""
        if not (self.live and self.owner and os.geteuid() == 0):
            return
        if where.is_relative_to(Path("/etc")) or where.is_relative_to(STATE_DIR):
            return
        account = pwd.getpwnam(self.owner)
        os.chown(where, account.pw_uid, account.pw_gid, follow_symlinks=False)


# -- command line -------------------------------------------------------------------------
def translator() -> Translator:
    try:
        language = config.load().get("language", FALLBACK)
    except Exception:  # a broken config must not stop an uninstall
        language = FALLBACK
    return Translator(str(language))


def _parser(tr: Translator, name: str, purge: bool = False) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=f"companion {name}",
                                     description=tr("deploy.install.description"))
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--console", dest="mode", action="store_const", const="console",
                      help=tr("deploy.install.console_help"))
    mode.add_argument("--desktop", dest="mode", action="store_const", const="desktop",
                      help=tr("deploy.install.desktop_help"))
    parser.add_argument("--dry-run", action="store_true", help=tr("deploy.install.dry_run_help"))
    parser.add_argument("--root", type=Path, default=Path("/"), help=tr("deploy.install.root_help"))
    parser.add_argument("--user", help=tr("deploy.install.user_help"))
    parser.add_argument("--home", type=Path, help=tr("deploy.install.home_help"))
    parser.add_argument("--venv", type=Path, help=tr("deploy.install.venv_help"))
    parser.add_argument("--touch", choices=TOUCH_READERS, default="mtdev",
                        help=tr("deploy.install.touch_help"))
    if purge:
        parser.add_argument("--purge", action="store_true", help=tr("deploy.install.purge_help"))
    return parser


class Refused(Exception):
    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


def target_from(args: argparse.Namespace, mode: str) -> Target:
    venv = args.venv
    if venv is None:
        if sys.prefix == sys.base_prefix:
            raise Refused("deploy.error.no_venv")
        venv = Path(sys.prefix)
    if mode == "console":
        user = args.user or SERVICE_USER
        home = STATE_DIR
    else:
        user = args.user or os.environ.get("SUDO_USER") or ""
        if not user or user == "root":
            raise Refused("deploy.error.no_user")
        home = args.home or _home_of(user)
    data_dir = ""
    try:
        data_dir = str(config.load().get("data_dir", "") or "")
    except Exception:  # check-config reports it; the install goes on
        data_dir = ""
    root = args.root.resolve()
    return Target(mode=mode, venv=Path(venv), user=user, home=Path(home),
                  touch=args.touch, data_dir=data_dir,
                  systemd_version=systemd_version(root), backlights=backlight_devices(root))


def _home_of(user: str) -> Path:
    try:
        return Path(pwd.getpwnam(user).pw_dir)
    except KeyError:
        return Path("/home") / user


def installed_modes(args: argparse.Namespace, root: Path) -> list[str]:
    if args.mode:
        return [args.mode]
    found = []
    if (root / "etc/systemd/system" / UNIT).exists():
        found.append("console")
    user = args.user or os.environ.get("SUDO_USER")
    if user and user != "root":
        home = args.home or _home_of(user)
        if (root / home.relative_to("/") / ".config/systemd/user" / UNIT).exists():
            found.append("desktop")
    return found


def _run_command(argv: Sequence[str] | None, action: str) -> int:
    tr = translator()
    parser = _parser(tr, action, purge=action == "uninstall")
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    root = args.root.resolve()
    if root == Path("/") and not args.dry_run and os.geteuid() != 0:
        print(tr("deploy.error.need_root"), file=sys.stderr)
        return 1
    if action == "install" and root == Path("/") and is_32bit(platform.machine()):
        print(tr("deploy.error.thirty_two_bit", machine=platform.machine()), file=sys.stderr)
        return 1
    modes = [args.mode or "console"] if action == "install" else installed_modes(args, root)
    if not modes:
        print(tr("deploy.install.nothing_installed"))
        return 0
    for mode in modes:
        try:
            target = target_from(args, mode)
        except Refused as exc:
            print(tr(exc.key, **exc.params), file=sys.stderr)
            return 1
        executor = Executor(tr, root=root, dry_run=args.dry_run, owner=target.owner)
        if action == "install" and root == Path("/"):
            data = Path(target.data_dir) if target.data_dir else target.data_path
            kind = volatile_fs(data)
            if kind:  # raspi-config's Overlay File System: every game lost at power-off
                print(tr("deploy.warn.volatile_data", path=data, kind=kind), file=sys.stderr)
        if action == "install":
            steps = plan_install(target, Probe(root))
        elif action == "update":
            if not (target.repo / ".git").exists():
                print(tr("deploy.error.no_repo", path=target.repo), file=sys.stderr)
                return 1
            steps = plan_update(target, owner_if_not_me(target.repo))
        else:
            steps = plan_uninstall(target, purge=args.purge)
        code = executor.carry_out(steps)
        if code:
            return code
        if action == "install" and not args.dry_run:
            print(tr(f"deploy.install.done_{mode}", user=target.user))
    if args.dry_run:
        return 0
    if action == "update":
        print(tr("deploy.install.done_update"))
    elif action == "uninstall":
        print(tr("deploy.install.done_purge" if args.purge else "deploy.install.done_uninstall"))
    return 0


def install_main(argv: Sequence[str] | None = None) -> int:
    return _run_command(argv, "install")


def update_main(argv: Sequence[str] | None = None) -> int:
    return _run_command(argv, "update")


def uninstall_main(argv: Sequence[str] | None = None) -> int:
    return _run_command(argv, "uninstall")
