"""One tap is one touch, whatever order its two copies arrive in.

On the console (KMSDRM) two programs read the touch screen: Kivy's touch reader (mtdev,
from the installer's kivy/config.ini) and SDL, which sends each touch again as a mouse
event that Kivy 2.3.1 makes a second touch of. SDL's copy is read after the frame is
drawn, so a tap during a redraw arrives mouse first, and `disable_on_activity` (which
only ignores a mouse event while a finger is down) cannot catch it: ROLL rolled twice.
The console unit switches SDL's copy off (SDL_TOUCH_MOUSE_EVENTS=0).

The real app (`ui.main.main`) runs in a child process with the installer's Kivy
config.ini and the unit's environment (Kivy reads both once per process). There, SDL
itself is asked whether it makes mouse events of touches, and a tap on ROLL is played
in both orders through Kivy's real input paths: the finger through Kivy's mtdev reader
(`MTDMotionEventProvider`'s queue, as its reading thread fills it), SDL's copy (only
if SDL makes one) pushed into SDL's own queue as SDL_SendTouch queues it, and read by
the window's main loop after the frame, as on the Pi. No KMSDRM device nor touch screen
exists here: SDL runs on Xvfb; what SDL does with a touch is taken from SDL's answer.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.app_child import run_child
from ui.commands import deploy
from ui.main import input_settings

pytestmark = pytest.mark.ui

CHILD = r"""
import collections
import sys
import time

from tests.helpers.app_child import RESULT as result, run_app


def check(app):
    from kivy.base import EventLoop
    from kivy.config import Config
    from kivy.core.window import Window
    from kivy.input.providers.mtdev import MTDMotionEvent, MTDMotionEventProvider

    from tests.helpers import sdl
    from tests.test_ui_evil import answer_dialogs, new_game
    from tests.uidriver import Driver

    result["input"] = dict(Config.items("input"))
    result["providers"] = sorted(type(p).__name__ for p in EventLoop.input_providers)
    mice = [p for p in EventLoop.input_providers if type(p).__name__ == "MouseMotionEventProvider"]
    result["disable_on_activity"] = [m.disable_on_activity for m in mice]
    copies = sdl.touch_makes_mouse_events()
    result["sdl_touch_mouse_events"] = copies
    # the finger reaches Kivy's own reader only where one is configured (the console)
    readers = ("probesysfs", "mtdev", "hidinput")
    raw = any(v.split(",")[0] in readers for v in result["input"].values())
    result["raw_reader"] = raw

    # the reader probesysfs makes for the panel (no panel here: fed as its thread would)
    reader = MTDMotionEventProvider("panel", "/dev/input/event0")
    reader.queue = collections.deque()
    EventLoop.add_input_provider(reader)

    ui = Driver(app)
    new_game(ui)
    rolls = []
    send = app.send

    def counting(command, *args, **kwargs):
        if type(command).__name__ == "Roll":
            rolls.append(command)
        return send(command, *args, **kwargs)

    app.send = counting

    def frame():
        # one turn of Kivy's main loop: the frame (input providers, clock, draw, flip),
        # then SDL's queue read by the window
        EventLoop.idle()
        Window.mainloop()

    def ready():
        screen = app.root.get_screen("evil_play")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            frame()
            answer_dialogs(ui, 30)
            roll = ui.find("play.roll")
            if ui.dialog is None and not screen.animating and roll and not roll.disabled:
                return
        raise AssertionError(f"ROLL never came back (dialog {ui.dialog})")

    def tap(order, finger_id, real_mouse=False):
        ready()
        before = len(rolls)
        button = ui.find("play.roll")
        x, y = button.to_window(*button.center)
        px, py = int(x), int(Window.system_size[1] - 1 - y)  # SDL's pixels, from the top
        finger = MTDMotionEvent("panel", finger_id, {"x": x / Window.width,
                                                    "y": y / Window.height,
                                                    "id": finger_id})

        def finger_down():
            if raw:
                reader.queue.append(("begin", finger))

        def finger_up():
            if raw:
                finger.update_time_end()
                reader.queue.append(("end", finger))

        def mouse(down):
            return lambda: sdl.push_touch_mouse(px, py, down) if copies else None

        if real_mouse:
            steps = [lambda: sdl.push_mouse(px, py, True), lambda: sdl.push_mouse(px, py, False)]
        elif order == "mouse_first":
            steps = [mouse(True), finger_down, mouse(False), finger_up]
        else:
            steps = [finger_down, mouse(True), finger_up, mouse(False)]
        for step in steps:
            step()
            frame()
        for _ in range(5):
            frame()
        return len(rolls) - before

    result["mouse_first"] = tap("mouse_first", 1)
    result["touch_first"] = tap("touch_first", 2)
    result["real_mouse"] = tap("", 3, real_mouse=True)
    app.stop()


sys.exit(run_app(check, sys.argv[1:]))
"""


def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str) -> Path:
    """Kivy's home as `companion install` leaves it on the Pi."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-empty"))
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    root = tmp_path / "root"
    extra = ["--user", "pi", "--home", "/home/pi"] if mode == "desktop" else []
    assert deploy.install_main(["--root", str(root), f"--{mode}", "--venv", "/v", *extra]) == 0
    home = root / ("var/lib/table-companion" if mode == "console"
                   else "home/pi/.local/share/table-companion") / "kivy"
    assert (home / "config.ini").exists()
    return home


# The Pi's paths and display stay out: the test has its own, and no KMSDRM device.
NOT_HERE = {"KIVY_HOME", "XDG_DATA_HOME", "SDL_VIDEODRIVER"}


def unit_environment(mode: str) -> dict[str, str]:
    """The Environment= lines of the unit `companion install` writes."""
    target = deploy.Target(mode=mode, venv=Path("/v"), user="pi", home=Path("/home/pi"))
    env = {}
    for line in deploy.render_unit(target).splitlines():
        if line.startswith("Environment="):
            key, value = line.removeprefix("Environment=").split("=", 1)
            if key not in NOT_HERE:
                env[key] = value
    return env


def run_app(tmp_path: Path, kivy_home: Path, environment: dict[str, str]) -> dict:
    return run_child(CHILD, ["--data-dir", str(tmp_path / "data")], tmp_path, kivy_home,
                     environment)


def test_on_the_console_one_tap_is_one_roll_in_either_order(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    environment = unit_environment("console")
    assert environment["SDL_TOUCH_MOUSE_EVENTS"] == "0"
    result = run_app(tmp_path, installed(tmp_path, monkeypatch, "console"), environment)
    # the installer's touch reader is kept, beside the mouse (a real mouse still works)
    assert result["input"]["%(name)s"] == "probesysfs,provider=mtdev"
    assert result["input"]["mouse"].split(",")[0] == "mouse"
    assert result["raw_reader"] is True
    assert result["disable_on_activity"] == [True]
    # SDL itself says it makes no mouse event of a touch under the unit's environment
    assert result["sdl_touch_mouse_events"] is False
    assert result["mouse_first"] == 1
    assert result["touch_first"] == 1
    assert result["real_mouse"] == 1


def test_without_the_units_setting_a_tap_read_mouse_first_rolls_twice(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the console test guards against: the same app and config.ini, SDL left to
    its default (the units before this fix)."""
    environment = unit_environment("console")
    del environment["SDL_TOUCH_MOUSE_EVENTS"]
    result = run_app(tmp_path, installed(tmp_path, monkeypatch, "console"), environment)
    assert result["sdl_touch_mouse_events"] is True
    assert result["mouse_first"] == 2  # disable_on_activity comes too late
    assert result["touch_first"] == 1  # the only order the old test tried


def test_the_desktop_reads_no_raw_touch_and_keeps_sdls_touch_mouse(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On the desktop the compositor's touches come as SDL's mouse events only: no raw
    reader is configured (Kivy's first start would add one), SDL's copy stays on."""
    environment = unit_environment("desktop")
    assert "SDL_TOUCH_MOUSE_EVENTS" not in environment
    result = run_app(tmp_path, installed(tmp_path, monkeypatch, "desktop"), environment)
    assert result["input"] == {"mouse": "mouse,multitouch_on_demand"}
    assert result["raw_reader"] is False
    # Kivy's window always adds its SDL2 provider, which Kivy 2.3.1 feeds on Android and
    # iOS only (window_sdl2.py drops SDL's finger events elsewhere)
    assert result["providers"] == ["MouseMotionEventProvider", "SDL2MotionEventProvider"]
    assert result["sdl_touch_mouse_events"] is True
    assert result["mouse_first"] == result["touch_first"] == 1
    assert result["real_mouse"] == 1


@pytest.mark.parametrize(("given", "expected"), [
    # the installer's console section: kept, with no red dots added
    ({"mouse": "mouse,disable_on_activity", "%(name)s": "probesysfs,provider=mtdev"},
     {"mouse": "mouse,disable_on_activity,multitouch_on_demand",
      "%(name)s": "probesysfs,provider=mtdev"}),
    # the installer's desktop section: the empty entry is off, no raw reader
    ({"mouse": "mouse", "%(name)s": ""}, {"mouse": "mouse,multitouch_on_demand"}),
    # Kivy's own first-start section on Linux: probesysfs is a touch provider
    ({"mouse": "mouse", "%(name)s": "probesysfs"},
     {"mouse": "mouse,multitouch_on_demand,disable_on_activity",
      "%(name)s": "probesysfs"}),
    # a hand-written hidinput device under another key
    ({"touch": "hidinput,/dev/input/event0"},
     {"touch": "hidinput,/dev/input/event0",
      "mouse": "mouse,multitouch_on_demand,disable_on_activity"}),
    # no touch provider at all (a desktop): nothing to stand down for
    ({"mouse": "mouse"}, {"mouse": "mouse,multitouch_on_demand"}),
    ({}, {"mouse": "mouse,multitouch_on_demand"}),
])
def test_input_settings(given: dict[str, str], expected: dict[str, str]) -> None:
    assert input_settings(given) == expected
