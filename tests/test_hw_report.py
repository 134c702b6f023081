"""`companion doctor --report`: what a maintainer needs, from a made-up Pi 5 and from
this machine."""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path

import pytest

from companion.i18n import Translator
from hardware import doctor, report
from tests.helpers import gpiotree
from ui.commands import deploy

# /proc/bus/input/devices of a Pi with the official 7" screen and a USB keyboard
INPUT_DEVICES = """\
I: Bus=0003 Vendor=046d Product=c31c Version=0110
N: Name="Logitech USB Keyboard"
H: Handlers=sysrq kbd leds event0
B: PROP=0
B: EV=120013

I: Bus=0018 Vendor=0000 Product=0000 Version=0000
N: Name="raspberrypi-ts"
S: Sysfs=/devices/platform/soc/soc:firmware/soc:firmware:touchscreen/input/input4
H: Handlers=mouse0 event4
B: PROP=2
B: EV=b
B: KEY=400 0 0 0 0 0 0 0 0 0 0
B: ABS=260800000000003
"""


def made_up_pi(root: Path, monkeypatch: pytest.MonkeyPatch) -> report.Host:
    gpiotree.make(root, gpiotree.PI5_11_TO_15)
    files = {
        "proc/device-tree/model": "Raspberry Pi 5 Model B Rev 1.0\0",
        "proc/cpuinfo": "processor\t: 0\nRevision\t: d04170\n",
        "etc/os-release": 'PRETTY_NAME="Debian GNU/Linux 13 (trixie)"\nID=debian\n',
        "boot/firmware/config.txt": "# hello\ndtoverlay=vc4-kms-v3d\narm_64bit=1\n"
                                    "display_auto_detect=1\n",
        "proc/bus/input/devices": INPUT_DEVICES,
        "dev/input/event0": "", "dev/input/event4": "", "dev/dri/card1": "",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(root / "xdg-empty"))
    assert deploy.install_main(["--root", str(root), "--console", "--venv", "/v"]) == 0
    asked: list[Sequence[str]] = []

    def run(argv: Sequence[str]) -> str:
        asked.append(list(argv))
        if "--property=Environment" in argv:
            return "Environment=KIVY_WINDOW=sdl2 SDL_VIDEODRIVER=kmsdrm SDL_TOUCH_MOUSE_EVENTS=0"
        return "ActiveState=active\nSubState=running\nResult=success\nNRestarts=0\n"

    host = report.Host(root=root, run=run, machine="aarch64", kernel="6.18.2-v8-16k+ #1 SMP",
                       environ={"SUDO_USER": "pi", "SDL_VIDEODRIVER": "kmsdrm"},
                       sdl_drivers=lambda: ["x11", "KMSDRM", "offscreen", "dummy", "evdev"])
    host.asked = asked  # type: ignore[attr-defined]
    return host


def test_the_report_says_what_a_maintainer_needs(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    host = made_up_pi(tmp_path, monkeypatch)
    out = io.StringIO()
    report.report(out, Translator("en"), host)
    text = out.getvalue()
    # model, OS, kernel
    assert "model: Raspberry Pi 5 Model B Rev 1.0 (revision d04170)" in text
    assert "os: Debian GNU/Linux 13 (trixie)" in text
    assert "kernel: 6.18.2-v8-16k+ #1 SMP" in text and "machine: aarch64" in text
    assert "dtoverlay=vc4-kms-v3d; arm_64bit=1; display_auto_detect=1" in text
    # the GPIO chips with their labels, and the header's
    assert "gpiochip13 (pinctrl-rp1, 54 lines)" in text
    assert "gpiochip11 (label unknown)" in text  # two chips of one device (legacy sysfs)
    assert "header: gpiochip13 (pinctrl-rp1, 54 lines)" in text
    # the input devices: which one is the touch screen
    assert "event4: raspberrypi-ts [multitouch, direct (a screen); readable]" in text
    assert "event0: Logitech USB Keyboard [not touch; readable]" in text
    # SDL and the display settings, Kivy's [input] as installed
    assert "SDL video drivers in Kivy's SDL: x11, KMSDRM, offscreen, dummy, evdev" in text
    assert "SDL_VIDEODRIVER=kmsdrm" in text and "/dev/dri: card1" in text
    assert ("/var/lib/table-companion/kivy/config.ini [input]: mouse = mouse,"
            "disable_on_activity; %(name)s = probesysfs,provider=mtdev") in text
    # the units: the system one, and the desktop user's (the one who ran sudo)
    assert "system: ActiveState=active SubState=running Result=success NRestarts=0" in text
    assert "user pi: ActiveState=active" in text
    assert ["systemctl", "--user", "--machine=pi@", "show", "table-companion.service",
            f"--property={report.UNIT_PROPERTIES}"] in host.asked  # type: ignore[attr-defined]
    assert "system unit: Environment=KIVY_WINDOW=sdl2 SDL_VIDEODRIVER=kmsdrm " \
           "SDL_TOUCH_MOUSE_EVENTS=0" in text
    assert "Kivy 2.3.1" in text


def test_a_machine_without_gpio_nor_input_says_so(tmp_path: Path) -> None:
    host = report.Host(root=tmp_path, run=lambda _argv: "", environ={},
                       sdl_drivers=lambda: None)
    out = io.StringIO()
    report.report(out, Translator("fr"), host)
    text = out.getvalue()
    assert "## Puces GPIO" in text and "header: not found" in text
    assert "## Périphériques d'entrée\n(aucun)" in text
    assert "model: ?" in text and "SDL video drivers in Kivy's SDL: ?" in text


def test_doctor_report_runs_on_this_machine(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The command as a Pi owner runs it: reads only, changes nothing, and asks this
    machine's SDL (Kivy's wheel) for its video drivers."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-empty"))
    out = io.StringIO()
    assert doctor.main(["--report"], out=out) == 0
    text = out.getvalue()
    for heading in ("System", "GPIO chips", "Input devices", "Display and SDL", "Units",
                    "Versions"):
        assert f"## {heading}" in text
    drivers = report.sdl_video_drivers()
    assert drivers and "KMSDRM" in drivers  # the console setup's driver is in the wheel
    assert "wayland" not in drivers  # as docs/raspberry-pi.md says: Xwayland on labwc
