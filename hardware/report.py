"""`companion doctor --report`: what a maintainer needs to know about a Pi, in one text.

Model, OS, kernel, the GPIO chips with their labels (and the header's), the input
devices the kernel sees, SDL's video drivers and the display settings, Kivy's [input]
section as installed, and the state of the units. Read-only: nothing is opened for
writing, no pin is claimed, no service is touched. Every path and command comes through
`Host`, so that the report can be made of a made-up system in tests. The headings are
in the user's language; the facts are the system's own words (labels, names, states),
as the maintainer who reads them will search for them.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import importlib.metadata
import importlib.util
import os
import platform
import re
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from companion.i18n import Translator
from hardware import gpiochips

UNIT = "table-companion.service"
UNIT_PROPERTIES = "ActiveState,SubState,Result,NRestarts,ExecMainStatus,ActiveEnterTimestamp"
ABS_MT_POSITION_X = 0x35
INPUT_PROP_DIRECT = 0x01
KIVY_INI = (Path("/var/lib/table-companion/kivy/config.ini"),  # console setup
            Path(".local/share/table-companion/kivy/config.ini"))  # desktop, in a home
BOOT_CONFIG = (Path("/boot/firmware/config.txt"), Path("/boot/config.txt"))
BOOT_KEYS = ("dtoverlay", "display_auto_detect", "display_lcd_rotate", "lcd_rotate",
             "dtparam=i2c", "dtparam=spi", "arm_64bit")
PACKAGES = ("table-companion", "Kivy", "gpiozero", "lgpio", "pyserial")
ENVIRONMENT = ("SDL_VIDEODRIVER", "SDL_TOUCH_MOUSE_EVENTS", "KIVY_WINDOW", "KIVY_HOME",
               "WAYLAND_DISPLAY", "DISPLAY", "XDG_SESSION_TYPE", "GPIOZERO_PIN_FACTORY")


def _run(argv: Sequence[str]) -> str:
    try:
        done = subprocess.run(list(argv), capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"({exc})"
    return (done.stdout or done.stderr).strip()


@dataclass
class Host:
    """Where the report looks: the live system, or a made-up one in tests."""

    root: Path = Path("/")
    run: Callable[[Sequence[str]], str] = _run
    environ: dict[str, str] = field(default_factory=lambda: dict(os.environ))
    machine: str = field(default_factory=platform.machine)
    kernel: str = field(default_factory=lambda: " ".join(platform.uname()[2:4]))
    sdl_drivers: Callable[[], list[str] | None] = lambda: sdl_video_drivers()

    def path(self, absolute: Path | str) -> Path:
        return self.root / Path(absolute).relative_to("/")

    def read(self, absolute: Path | str) -> str | None:
        try:
            return self.path(absolute).read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None


def report(out: TextIO, tr: Translator, host: Host | None = None) -> None:
    host = host or Host()
    sections = [("system", _system(host)), ("gpio", _gpio(host)), ("input", _input(host)),
                ("display", _display(host)), ("units", _units(host)),
                ("versions", _versions())]
    print(tr("hardware.report.title"), file=out)
    for key, lines in sections:
        print(f"\n## {tr(f'hardware.report.{key}')}", file=out)
        for line in lines or [tr("hardware.report.nothing")]:
            print(line, file=out)


def _system(host: Host) -> list[str]:
    model = (host.read("/proc/device-tree/model") or "").split("\0", 1)[0].strip()
    release = host.read("/etc/os-release") or ""
    pretty = re.search(r'^PRETTY_NAME="?([^"\n]*)"?', release, re.M)
    revision = re.search(r"^Revision\s*:\s*(\S+)", host.read("/proc/cpuinfo") or "", re.M)
    lines = [f"model: {model or '?'}" + (f" (revision {revision.group(1)})" if revision else ""),
             f"os: {pretty.group(1) if pretty else '?'}",
             f"kernel: {host.kernel}",
             f"machine: {host.machine}, python {platform.python_version()}"]
    for config in BOOT_CONFIG:
        text = host.read(config)
        if text is None:
            continue
        kept = [line.strip() for line in text.splitlines()
                if line.strip().startswith(BOOT_KEYS)]
        lines.append(f"{config}: {'; '.join(kept) or '-'}")
        break
    return lines


def _gpio(host: Host) -> list[str]:
    found = gpiochips.chips(host.path("/dev"), host.path("/sys"))
    lines = []
    for chip in found:
        access = "rw" if os.access(chip.path, os.R_OK | os.W_OK) else "no access"
        lines.append(f"{chip.describe()} [{access}]")
    header = gpiochips.header_chip(found)
    lines.append(f"header: {header.describe() if header else 'not found'}"
                 f" (labels looked for: {', '.join(gpiochips.HEADER_LABELS)})")
    return lines


def _input(host: Host) -> list[str]:
    """Each input device, from /proc/bus/input/devices: its event node, name, and
    whether it is a multitouch screen (what Kivy's mtdev reader reads)."""
    lines = []
    for block in (host.read("/proc/bus/input/devices") or "").split("\n\n"):
        name = re.search(r'^N: Name="(.*)"', block, re.M)
        event = re.search(r"^H: Handlers=.*?\b(event\d+)", block, re.M)
        if not (name and event):
            continue
        kinds = []
        if _bit(block, "ABS", ABS_MT_POSITION_X):
            kinds.append("multitouch")
        if _bit(block, "PROP", INPUT_PROP_DIRECT):
            kinds.append("direct (a screen)")
        node = host.path("/dev/input") / event.group(1)
        access = "readable" if os.access(node, os.R_OK) else "not readable by this user"
        lines.append(f"{event.group(1)}: {name.group(1)}"
                     f" [{', '.join(kinds) or 'not touch'}; {access}]")
    return lines


def _bit(block: str, kind: str, bit: int) -> bool:
    """Whether bit `bit` is set in the `B: KIND=` bitmap (hex words, highest first)."""
    found = re.search(rf"^B: {kind}=([0-9a-f ]+)$", block, re.M)
    if not found:
        return False
    value = 0
    for word in found.group(1).split():
        value = (value << 64) | int(word, 16)  # words are longs: 64 bits on arm64
    return bool(value >> bit & 1)


def _display(host: Host) -> list[str]:
    drivers = host.sdl_drivers()
    lines = [f"SDL video drivers in Kivy's SDL: {', '.join(drivers) if drivers else '?'}"]
    for key in ENVIRONMENT:
        lines.append(f"{key}={host.environ.get(key, '')}")
    cards = sorted(p.name for p in host.path("/dev/dri").glob("card*"))
    lines.append(f"/dev/dri: {', '.join(cards) or '-'}")
    homes = {host.environ.get("HOME", "")} | {f"/home/{p.name}"
                                             for p in host.path("/home").glob("*")}
    for ini in [KIVY_INI[0]] + [Path(h) / KIVY_INI[1] for h in sorted(homes) if h]:
        text = host.read(ini)
        section = re.search(r"^\[input\]\n((?:[^\[\n].*\n?)*)", text or "", re.M)
        if section:
            entries = "; ".join(line.strip() for line in section.group(1).splitlines()
                                if line.strip())
            lines.append(f"{ini} [input]: {entries}")
    return lines


def _units(host: Host) -> list[str]:
    lines = []
    commands = [("system", ["systemctl", "show", UNIT, f"--property={UNIT_PROPERTIES}"])]
    user = host.environ.get("SUDO_USER") or (host.environ.get("USER") if os.geteuid() else None)
    if user and user != "root":
        commands.append((f"user {user}", ["systemctl", "--user", f"--machine={user}@",
                                          "show", UNIT, f"--property={UNIT_PROPERTIES}"]))
    for who, argv in commands:
        shown = " ".join(host.run(argv).split())
        lines.append(f"{who}: {shown or '-'}")
    environment = host.run(["systemctl", "show", UNIT, "--property=Environment"])
    if environment.startswith("Environment="):
        lines.append(f"system unit: {' '.join(environment.split())}")
    return lines


def _versions() -> list[str]:
    lines = []
    for name in PACKAGES:
        try:
            lines.append(f"{name} {importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            lines.append(f"{name}: not installed")
    return lines


def sdl_video_drivers() -> list[str] | None:
    """The video drivers built into the SDL that Kivy uses (its wheel's own copy),
    asked without starting SDL's video; None if it cannot be loaded."""
    spec = importlib.util.find_spec("kivy")
    candidates: list[str] = []
    if spec and spec.origin:
        site = Path(spec.origin).parent.parent
        candidates += [str(p) for p in sorted((site / "Kivy.libs").glob("libSDL2-2*.so*"))]
    candidates += [c for c in (ctypes.util.find_library("SDL2-2.0"),) if c]
    for candidate in candidates:
        try:
            sdl = ctypes.CDLL(candidate)
        except OSError:
            continue
        sdl.SDL_GetVideoDriver.restype = ctypes.c_char_p
        count = sdl.SDL_GetNumVideoDrivers()
        return [sdl.SDL_GetVideoDriver(i).decode() for i in range(count)]
    return None
