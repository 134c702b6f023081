"""One touch is one tap: the app started with the installer's Kivy config.ini keeps its
touch provider, and its mouse provider ignores the mouse events made during a touch.

On the Pi, SDL turns each touch into a mouse event while mtdev reads the same touch:
without `disable_on_activity` one tap would arrive twice (two rolls for one touch).
Kivy reads config.ini once per process, so the real app (`ui.main.main`) runs in a
child process with its own KIVY_HOME holding the file `companion install` writes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.app_child import run_child
from ui.commands import deploy
from ui.main import input_settings

pytestmark = pytest.mark.ui

CHILD = r"""
import sys
from tests.helpers.app_child import RESULT as result, run_app


def taps(mouse, finger_down):
    # a finger (a non-mouse touch, as mtdev gives it) and the mouse event SDL makes of it
    from kivy.base import EventLoop
    from kivy.core.window import Window
    from kivy.tests.common import UnitTestTouch

    seen = []
    record = lambda _w, touch: seen.append(type(touch).__name__)
    Window.bind(on_touch_down=record)
    finger = UnitTestTouch(400, 240)
    if finger_down:
        finger.touch_down()
    mouse.on_mouse_press(Window, 400, 240, "left", [])
    for _ in range(3):
        EventLoop.idle()
    mouse.on_mouse_release(Window, 400, 240, "left", [])
    if finger_down:
        finger.touch_up()
    for _ in range(3):
        EventLoop.idle()
    Window.unbind(on_touch_down=record)
    return seen


def check(app):
    from kivy.base import EventLoop
    from kivy.config import Config
    from kivy.input.providers.mouse import MouseMotionEventProvider

    result["input"] = dict(Config.items("input"))
    mice = [p for p in EventLoop.input_providers if isinstance(p, MouseMotionEventProvider)]
    result["mice"] = [{"disable_on_activity": m.disable_on_activity,
                       "multitouch_on_demand": m.multitouch_on_demand} for m in mice]
    mouse = mice[0]
    result["touch_then_mouse"] = taps(mouse, finger_down=True)
    result["mouse_alone"] = taps(mouse, finger_down=False)
    mouse.disable_on_activity = False  # the old setting, to show what the test catches
    result["touch_then_mouse_old"] = taps(mouse, finger_down=True)
    app.stop()


sys.exit(run_app(check, sys.argv[1:]))
"""


def installers_kivy_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """KIVY_HOME as `companion install --console` leaves it on the Pi."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-empty"))
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    root = tmp_path / "root"
    assert deploy.install_main(["--root", str(root), "--console", "--venv", "/v"]) == 0
    home = root / "var/lib/table-companion/kivy"
    assert (home / "config.ini").exists()
    return home


def run_app(tmp_path: Path, kivy_home: Path) -> dict:
    return run_child(CHILD, ["--data-dir", str(tmp_path / "data")], tmp_path, kivy_home)


def test_the_app_keeps_the_installers_touch_settings_and_one_touch_is_one_tap(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = run_app(tmp_path, installers_kivy_home(tmp_path, monkeypatch))
    # Kivy's effective [input] after start: the installer's touch provider is there...
    assert result["input"]["%(name)s"] == "probesysfs,provider=mtdev"
    # ...and the mouse provider stands down while a finger is down
    mouse = result["input"]["mouse"].split(",")
    assert mouse[0] == "mouse" and "disable_on_activity" in mouse
    assert "multitouch_on_demand" in mouse  # no red dots for a right click
    assert result["mice"] == [{"disable_on_activity": True, "multitouch_on_demand": True}]
    # a mouse event made during a touch gives no second touch (no second command)
    assert result["touch_then_mouse"] == ["UnitTestTouch"]
    # a mouse alone still works (a desktop, a USB mouse on the Pi)
    assert result["mouse_alone"] == ["MouseMotionEvent"]
    # the old setting (without disable_on_activity) would have counted the tap twice
    assert result["touch_then_mouse_old"] == ["UnitTestTouch", "MouseMotionEvent"]


@pytest.mark.parametrize(("given", "expected"), [
    # the installer's section: kept, with no red dots added
    ({"mouse": "mouse,disable_on_activity", "%(name)s": "probesysfs,provider=mtdev"},
     {"mouse": "mouse,disable_on_activity,multitouch_on_demand",
      "%(name)s": "probesysfs,provider=mtdev"}),
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
