"""`display.rotation` turns the app and its touches: Touch Display 2 is a 720x1280
portrait panel that shows the app in landscape, 1280x720.

On the console the app turns the picture and the panel's touches (`display.rotation`).
On a desktop turned as a whole, the app reads only the desktop's pointer events, which
the compositor has turned with the picture: a tap lands on the widget under the finger.

Kivy reads its graphics settings when the window is made, once per process: the real
app (`ui.main.main`) runs in a child process with the config file given.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.helpers.app_child import run_child
from tests.test_ui_input import installed, unit_environment
from tests.uidriver import ARTIFACTS

pytestmark = pytest.mark.ui

CHILD = r"""
import sys
from kivy.clock import Clock
from tests.helpers.app_child import RESULT as result, run_app

SHOT = sys.argv[-1]


def panel_touch(x, y):
    # a touch as the panel's driver reports it: normalized to the panel's own axes,
    # which Kivy turns by Window.rotation (the inverse of MotionEvent.to_absolute_pos)
    from kivy.base import EventLoop
    from kivy.core.window import Window
    from kivy.tests.common import UnitTestTouch

    w, h = Window._get_effective_size()
    r = Window.rotation
    nx, ny = {0: (x / w, y / h), 90: (1 - y / w, x / h),
              180: (1 - x / w, 1 - y / h), 270: (y / w, 1 - x / h)}[r]
    touch = UnitTestTouch(0, 0)
    touch.sx, touch.sy = nx, ny
    touch.touch_down()
    EventLoop.idle()
    touch.touch_up()
    for _ in range(5):
        EventLoop.idle()


def settle(app, tries=[]):
    # the first layout passes may still move the buttons: wait until two agree
    from ui.widgets.basics import find

    button = find(app.root, "home.game.evil")
    where = (tuple(button.to_window(*button.center)), tuple(button.size))
    tries.append(where)
    if len(tries) < 2 or tries[-1] != tries[-2]:
        Clock.schedule_once(lambda _dt: settle(app), 0.2)
        return
    check(app)


def check(app):
    from kivy.core.window import Window
    from ui.widgets.basics import find

    result["rotation"] = Window.rotation
    result["size"] = list(Window.size)
    result["system_size"] = list(Window.system_size)
    result["root"] = list(app.root.size)
    if SHOT:
        Window.screenshot(name=SHOT)
    button = find(app.root, "home.game.evil")
    result["button"] = list(button.to_window(*button.center))
    panel_touch(*button.to_window(*button.center))
    waited = []

    def done(_dt):
        waited.append(1)
        if app.root.current == "home" and len(waited) < 50:
            return None  # the release and the screen change take a few frames
        result["screen"] = app.root.current
        app.stop()
        return False

    Clock.schedule_interval(done, 0.1)


sys.exit(run_app(settle, sys.argv[1:-1]))
"""


DESKTOP_CHILD = r"""
import sys
import time
from kivy.clock import Clock
from tests.helpers.app_child import RESULT as result, run_app


def settle(app, tries=[]):
    from ui.widgets.basics import find

    button = find(app.root, "home.game.evil")
    where = (tuple(button.to_window(*button.center)), tuple(button.size))
    tries.append(where)
    if len(tries) < 2 or tries[-1] != tries[-2]:
        Clock.schedule_once(lambda _dt: settle(app), 0.2)
        return
    check(app)


def check(app):
    from kivy.base import EventLoop
    from kivy.config import Config
    from kivy.core.window import Window
    from tests.helpers import sdl
    from ui.widgets.basics import find

    result["input"] = dict(Config.items("input"))
    result["providers"] = sorted(type(p).__name__ for p in EventLoop.input_providers)
    result["sdl_touch_mouse_events"] = sdl.touch_makes_mouse_events()
    result["rotation"] = Window.rotation
    result["size"] = list(Window.size)
    button = find(app.root, "home.game.evil")
    x, y = button.to_window(*button.center)
    # the finger on the turned desktop: the window's place on the screen plus the
    # button's place in the window (from the top left, as the X server counts)
    on_screen = (Window.left + int(x), Window.top + int(Window.system_size[1] - 1 - y))
    result["on_screen"] = list(on_screen)
    pointer = sdl.XPointer()
    pointer.tap(*on_screen)
    pointer.close()
    deadline = time.monotonic() + 30
    while app.root.current == "home" and time.monotonic() < deadline:
        EventLoop.idle()
        Window.mainloop()  # SDL reads the X server's events here, as in Kivy's loop
    result["screen"] = app.root.current
    app.stop()


sys.exit(run_app(settle, sys.argv[1:]))
"""


def run_app(tmp_path: Path, display: dict, shot: str = "") -> dict:
    cfg = tmp_path / "config.yaml"
    cfg.write_text(json.dumps({"display": display}))  # JSON is YAML
    return run_child(CHILD, ["--config", str(cfg), "--data-dir", str(tmp_path / "data"), shot],
                     tmp_path, tmp_path / "kivy")


@pytest.mark.parametrize("rotation", [90, 270])
def test_touch_display_2_portrait_panel_shows_the_app_in_landscape(
        tmp_path: Path, rotation: int) -> None:
    result = run_app(tmp_path, {"width": 720, "height": 1280, "rotation": rotation})
    assert result["rotation"] == rotation
    assert result["system_size"] == [720, 1280]  # the panel
    assert result["size"] == [1280, 720] and result["root"] == [1280, 720]  # the app
    # a touch on the panel where the button is shown reaches that button
    assert result["screen"] == "evil_setup"


def test_upside_down(tmp_path: Path) -> None:
    result = run_app(tmp_path, {"rotation": 180})
    assert result["size"] == [800, 480] and result["root"] == [800, 480]
    assert result["screen"] == "evil_setup"


def test_a_screenshot_at_touch_display_2s_landscape_size(tmp_path: Path) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    shot = tmp_path / "shot.png"
    result = run_app(tmp_path, {"width": 1280, "height": 720}, shot=str(shot))
    assert result["size"] == [1280, 720]
    written = sorted(tmp_path.glob("shot*.png"))  # Kivy numbers the file
    assert written
    shutil.copy(written[-1], ARTIFACTS / "touch-display-2-1280x720.png")


def test_a_game_at_touch_display_2s_landscape_size(launch) -> None:
    from tests.test_ui_evil import answer_dialogs, new_game

    ui = launch()
    ui.resize(1280, 720)
    new_game(ui)
    ui.tap("play.roll")
    answer_dialogs(ui, 30)
    ui.wait_until(lambda: not ui.app.root.get_screen("evil_play").animating)
    assert ui.screen == "evil_play"
    ui.screenshot("evil-play-1280x720")


def test_on_a_turned_desktop_a_tap_lands_on_the_widget_under_the_finger(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Touch Display 2 with the whole desktop turned to landscape (the docs' desktop
    advice): the app's window is landscape and `rotation` stays 0. The desktop setup's
    Kivy config reads no raw touch (it would read the panel in its own portrait axes),
    SDL makes mouse events of the compositor's touches, and a tap sent through the X
    server where the button is shown reaches that button."""
    cfg = tmp_path / "config.yaml"
    cfg.write_text(json.dumps({"display": {"width": 1280, "height": 720, "rotation": 0}}))
    result = run_child(DESKTOP_CHILD, ["--config", str(cfg), "--data-dir", str(tmp_path / "data")],
                       tmp_path, installed(tmp_path, monkeypatch, "desktop"),
                       unit_environment("desktop"))
    assert result["input"] == {"mouse": "mouse,multitouch_on_demand"}
    assert "MTDMotionEventProvider" not in result["providers"]
    assert "HIDInputMotionEventProvider" not in result["providers"]
    assert result["sdl_touch_mouse_events"] is True
    assert result["rotation"] == 0 and result["size"] == [1280, 720]
    assert result["screen"] == "evil_setup"
