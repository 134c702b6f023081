"""The table clock's set-up by real touches at 800x480 and at 1280x720 (Touch Display 2
turned: a 720x1280 panel at `display.rotation: 90` shows the app in a 1280x720 window,
tests/test_ui_rotation.py): eight seats, each with its own name, colour and ×, the start
player chosen by a tap on a seat's colour (issue 46)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests import screen_audit
from tests.test_ui_clock import bank, fake, later, set_up  # noqa: F401  (fake: a fixture)
from tests.uidriver import Driver

pytestmark = pytest.mark.ui

SIZES = {"800x480": (800, 480), "1280x720": (1280, 720)}


def screen(ui: Driver) -> Any:
    return ui.app.root.get_screen("clock_setup")


def boxes(ui: Driver, seat: int) -> dict[str, tuple[float, ...]]:
    return {part: screen_audit._box(ui.find(f"{tid}.{seat}"))
            for part, tid in (("name", "setup.name"), ("colour", "clocksetup.first"),
                              ("remove", "setup.remove"))}


def eight_seats(ui: Driver) -> None:
    ui.tap("home.game.clock")
    assert ui.screen == "clock_setup"
    for seats in range(3, 9):
        ui.tap("clocksetup.add")  # a real touch at Add's middle: it lands on Add
        assert ui.visible(f"setup.name.{seats - 1}") is not None, seats
    assert ui.find("clocksetup.add").disabled


@pytest.mark.parametrize("size", sorted(SIZES))
def test_eight_seats_each_with_its_own_name_colour_and_remove(
        launch: Any, fake: Any, size: str) -> None:  # noqa: F811  (the fixture imported above)
    ui = launch(language="en")
    ui.resize(*SIZES[size])
    try:
        eight_seats(ui)
        found = screen_audit.audit(screen(ui), "clock_setup", "en", ui.app.scale)
        assert found == [], "\n".join(v.what + " " + v.widget for v in found)
        # every seat's three controls stand apart from every other seat's
        places = [box for seat in range(8) for box in boxes(ui, seat).values()]
        assert len(set(places)) == 24
        # a tap on a seat's colour makes it the start player, marked on it, named below
        for seat in (4, 7, 2):
            ui.tap(f"clocksetup.first.{seat}")
            assert ui.text("clocksetup.note") == f"Starts: Player {seat + 1}"
            marked = [k for k in range(8) if ui.text(f"clocksetup.first.{k}")]
            assert marked == [seat]
        # a tap on seat 6's name opens the keyboard for that seat; its × takes it away
        ui.tap("setup.name.5")
        assert ui.dialog == "keyboard"
        assert ui.text("keyboard.value") == "Player 6"
        ui.app.close_dialog()
        ui.pump(3)
        ui.tap("setup.remove.5")
        names = [ui.text(f"setup.name.{k}") for k in range(7)]
        assert names == [f"Player {k}" for k in (1, 2, 3, 4, 5, 7, 8)]
        assert ui.visible("setup.name.7") is None
        assert not ui.find("clocksetup.add").disabled
        # the start player chosen, the clock starts on that seat
        ui.tap("clocksetup.first.3")
        ui.tap("clocksetup.start")
        assert ui.screen == "clock_play"
        assert ui.app.session.state.active == 3
        ui.screenshot(f"clock-setup-started-{size}")
    finally:
        ui.resize(800, 480)


def far_from_overtime(rgba: Any) -> bool:
    """Not to be taken for the play screen's overtime red (theme.DANGER) at a glance:
    more than 0.3 apart in RGB (the palette's red is 0.2 from it, its orange 0.4)."""
    from ui import theme

    return sum((a - b) ** 2 for a, b in zip(rgba[:3], theme.DANGER[:3], strict=True)) > 0.09


def chips(ui: Driver, seats: int) -> list[tuple[float, ...]]:
    return [tuple(round(c, 3) for c in ui.find(f"clocksetup.first.{i}")._fill)
            for i in range(seats)]


def test_eight_guests_take_eight_colours_none_like_overtime(launch: Any) -> None:
    from ui import theme

    ui = launch(language="en")
    ui.resize(1280, 720)
    try:
        eight_seats(ui)
        shown = chips(ui, 8)
        assert len(set(shown)) == 8, shown
        assert tuple(theme.FALLBACK_COLOUR) not in shown
        assert all(far_from_overtime(c) for c in shown), shown
    finally:
        ui.resize(800, 480)


def test_a_score_pad_game_s_players_keep_one_colour_each_from_set_up_to_play(
        launch: Any, fake: Any) -> None:  # noqa: F811  (the fixture imported above)
    """The score pad's Clock button hands its players over (`pad.play.start_clock`), a
    guest without a colour among them: each seat shows one colour of its own in the
    set-up, and the same one on the play screen."""
    from ui import theme
    from ui.screens.clock.play import seat_rgba

    ui = launch(language="en")
    setup = ui.app.root.get_screen("clock_setup")
    setup.pending_players = [{"name": "Anne"}, {"name": "Bob", "colour": "#e58a2e"},
                             {"name": "Chloé"}, {"name": "Dan"}]
    ui.app.root.current = "clock_setup"
    ui.pump(5)
    shown = chips(ui, 4)
    assert len(set(shown)) == 4, shown
    assert tuple(theme.FALLBACK_COLOUR) not in shown  # no guest in grey
    assert shown[1] == tuple(round(c, 3) for c in (229 / 255, 138 / 255, 46 / 255, 1))
    assert all(far_from_overtime(c) for c in shown), shown
    ui.tap("clocksetup.start")
    assert ui.screen == "clock_play"
    played = [tuple(round(c, 3) for c in seat_rgba(s.colour, i))
              for i, s in enumerate(ui.app.session.state.seats)]
    assert played == shown


def test_a_seat_waiting_in_a_turn_timer_shows_the_turn_it_will_get(
        launch: Any, fake: Any) -> None:  # noqa: F811  (the fixture imported above)
    """60 s a turn: a seat waiting shows 1:00 (the turn it will get), never 0:00,
    which reads as out of time; the seat playing shows its time running."""
    ui = launch(language="en")
    set_up(ui, "turn-60s", 3, first=0)
    ui.tap("clocksetup.start")
    assert ui.screen == "clock_play"
    later(ui, fake, 20_000)
    assert [bank(ui, i) for i in range(3)] == ["0:40", "1:00", "1:00"]
    ui.tap("play.area")  # seat 1's turn ends after 20 s: seat 2 plays
    later(ui, fake, 5_000)
    assert [bank(ui, i) for i in range(3)] == ["1:00", "0:55", "1:00"]


def test_every_custom_clock_offered_is_a_preset_the_reader_takes() -> None:
    """Each step of each mode, with each extra, makes preset data that
    `params.read_preset` (the preset files' own reader) takes without a problem."""
    from companion.games.clock.params import read_preset
    from ui.screens.clock import custom

    for mode, steps in (("bank", custom.BANK_MIN), ("turn", custom.TURN_S)):
        for time in range(len(steps)):
            for extra in custom.EXTRAS if mode == "bank" else ("none",):
                for extra_s in range(len(custom.EXTRA_S)):
                    choice = custom.Choice(mode, time, extra, extra_s)
                    read = read_preset(custom.custom_data(choice, "x"))
                    assert read.params is not None, (choice, read.problems)
                    assert read.params.time_ms == choice.seconds * 1000


def test_a_custom_clock_in_a_few_taps_used_then_saved_as_the_table_s_own(
        launch: Any, fake: Any, tmp_path: Path,  # noqa: F811  (the fixture imported above)
        monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.games.clock.presets import own_dir

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))  # the preset saved stays here
    ui = launch(language="en")
    ui.tap("home.game.clock")
    ui.tap("clocksetup.preset")
    ui.tap("clockpresets.custom")
    assert ui.dialog == "clockcustom"
    assert ui.text("clockcustom.summary") == "10 min + 5 s"
    ui.tap("clockcustom.time.plus")
    ui.tap("clockcustom.time.plus")  # 10, 15, 20 min
    ui.tap("clockcustom.extra.none")
    assert ui.text("clockcustom.summary") == "20 min each"
    ui.screenshot("clock-custom-800x480")
    ui.tap("clockcustom.use")
    assert ui.dialog is None
    assert ui.text("clocksetup.preset") == "20 min each"
    # the table's own: 45 s per turn, saved beside the config file, offered among presets
    ui.tap("clocksetup.preset")
    ui.tap("clockpresets.custom")
    ui.tap("clockcustom.mode.turn")
    ui.tap("clockcustom.time.minus")  # 60 s, then 45 s
    assert ui.find("clockcustom.extra.increment").disabled
    assert ui.text("clockcustom.summary") == "45 s per turn"
    ui.tap("clockcustom.save")
    assert ui.dialog is None
    saved = own_dir(ui.app.settings.user_file) / "own-turn-45s.yaml"
    assert saved.is_file()
    assert ui.text("clocksetup.preset") == "45 s per turn"
    ui.tap("clocksetup.preset")
    assert ui.text("clockpresets.own-turn-45s") == "45 s per turn"
    ui.tap("clockpresets.cancel")
    ui.tap("clocksetup.start")
    assert ui.screen == "clock_play"
    params = ui.app.session.state.params
    assert (params.mode, params.time_ms) == ("turn", 45_000)


PANEL_CHILD = r"""
import sys
from tests.helpers.app_child import RESULT as result, run_app


def panel_touch(x, y):
    # as the panel's driver reports a touch: in the panel's own axes, which Kivy
    # turns by Window.rotation (tests/test_ui_rotation.py)
    from kivy.base import EventLoop
    from kivy.core.window import Window
    from kivy.tests.common import UnitTestTouch

    w, h = Window._get_effective_size()
    nx, ny = {90: (1 - y / w, x / h), 270: (y / w, 1 - x / h)}[Window.rotation]
    touch = UnitTestTouch(0, 0)
    touch.sx, touch.sy = nx, ny
    touch.touch_down()
    EventLoop.idle()
    touch.touch_up()
    for _ in range(8):
        EventLoop.idle()


def shown(app, tid):
    # the widget once on screen and laid out: the same place two frames running
    from kivy.base import EventLoop
    from ui.widgets.basics import find

    places = []
    for _ in range(400):
        EventLoop.idle()
        widget = find(app.root.current_screen, tid)
        if widget is None or widget.get_root_window() is None:
            continue
        places.append((tuple(widget.to_window(*widget.center)), tuple(widget.size)))
        if len(places) > 2 and places[-1] == places[-2] == places[-3]:
            return widget
    raise AssertionError(f"{tid} never shown")


def tap(app, tid):
    widget = shown(app, tid)
    panel_touch(*widget.to_window(*widget.center))


def check(app):
    from kivy.core.window import Window
    from tests import screen_audit
    from ui.widgets.basics import find

    tap(app, "home.game.clock")
    result["screen"] = app.root.current
    for seat in range(2, 8):
        tap(app, "clocksetup.add")
        shown(app, f"setup.name.{seat}")
    tap(app, "clocksetup.first.4")
    shown(app, "clocksetup.first.4")
    screen = app.root.get_screen("clock_setup")
    result["names"] = [find(screen, f"setup.name.{i}").text for i in range(8)
                       if find(screen, f"setup.name.{i}") is not None]
    result["note"] = find(screen, "clocksetup.note").text
    result["found"] = [v.widget + " " + v.what for v in
                       screen_audit.audit(screen, "clock_setup", "en", app.scale)]
    result["size"] = list(Window.size)
    app.stop()


sys.exit(run_app(check, sys.argv[1:]))
"""


@pytest.mark.parametrize("rotation", [90, 270])
def test_on_touch_display_2_turned_panel_touches_set_up_eight_seats(
        tmp_path: Path, rotation: int) -> None:
    """The real app on a 720x1280 panel at `display.rotation` 90 or 270, touched in
    the panel's own axes: Add six times makes eight seats, each its own row, and a
    touch on seat 5's colour makes it the start player."""
    import json

    from tests.helpers.app_child import run_child

    cfg = tmp_path / "config.yaml"
    cfg.write_text(json.dumps({"display": {"width": 720, "height": 1280,
                                           "rotation": rotation}}))  # JSON is YAML
    result = run_child(PANEL_CHILD, ["--config", str(cfg), "--data-dir",
                                     str(tmp_path / "data")], tmp_path, tmp_path / "kivy")
    assert result["size"] == [1280, 720]
    assert result["screen"] == "clock_setup"
    assert result["names"] == [f"Player {i}" for i in range(1, 9)]
    assert result["note"] == "Starts: Player 5"
    assert result["found"] == []  # the audit: no control over another or the header
