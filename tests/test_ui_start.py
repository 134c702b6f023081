"""Start-up: the first frame shows only what it needs; the rest comes when asked for
(other screens when first opened, the hardware once that frame is on screen)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.test_ui_evil import answer_dialogs, new_game

pytestmark = pytest.mark.ui


def test_a_fresh_start_builds_the_home_screen_only(launch: Any) -> None:
    ui = launch()
    assert ui.screen == "home"
    assert ui.app.root.screen_names == ["home"]
    assert ui.text("home.game.castor") == "Le Castor en cavale"  # offered, not built
    ui.tap("home.stats")
    assert ui.screen == "night_stats"
    assert set(ui.app.root.screen_names) == {"home", "night_stats"}


def test_a_resumed_game_starts_on_its_play_screen_alone(launch: Any) -> None:
    ui = launch(seed=3)
    new_game(ui)
    ui.tap("play.roll")
    answer_dialogs(ui, 30)
    turn = ui.text("play.turn")

    ui = launch()  # the plug pulled and put back
    assert ui.screen == "evil_play"
    assert ui.app.root.screen_names == ["evil_play"]
    assert ui.text("play.turn") == turn
    ui.tap("play.home")
    assert ui.screen == "home"
    assert ui.find("home.resume.1") is not None


def test_the_hardware_starts_after_the_first_frame_and_shows_the_resumed_game(
        launch: Any) -> None:
    from kivy.core.window import Window

    ui = launch(hardware=True, seed=5)
    new_game(ui, minutes=20)
    ui.tap("play.roll")
    answer_dialogs(ui, 20)
    time_marker = ui.app.session.state.time

    frames: list[int] = []
    count = {"flips": 0}

    def flipped(*_: Any) -> None:
        count["flips"] += 1

    Window.bind(on_flip=flipped)
    try:
        seen: dict[str, Any] = {}
        original = type(ui.app)._after_start

        def after_start(app: Any) -> None:
            frames.append(count["flips"])
            seen["pins_button"] = app.root.get_screen("evil_play").pins_button
            original(app)

        type(ui.app)._after_start = after_start  # type: ignore[method-assign]
        try:
            ui = launch(hardware=True)
        finally:
            type(ui.app)._after_start = original  # type: ignore[method-assign]
    finally:
        Window.unbind(on_flip=flipped)
    assert frames and frames[0] >= 1  # the game was on screen before the pins were set up
    assert seen["pins_button"] is None
    assert ui.text("play.pins") == "Pins"  # offered once the mock pins exist
    ui.tap("play.pins")
    lit = ui.app.hardware.panel_state()["clock"]["lit"]
    assert lit == time_marker


def test_the_collector_is_back_and_start_up_is_frozen_after_the_first_frame() -> None:
    import gc

    from ui.memory import FULL_OFF, settle_memory

    threshold = gc.get_threshold()
    gc.disable()
    try:
        settle_memory()
        assert gc.isenabled()
        assert gc.get_freeze_count() > 0  # what start-up built is out of the collector's way
        assert gc.get_threshold()[2] == FULL_OFF  # full collections: the IdleCollector's
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)
        gc.enable()


def test_text_and_rows_follow_the_window_size(launch: Any) -> None:
    from ui.widgets.basics import find

    ui = launch()
    new_game(ui)
    roll = find(ui.app.root, "play.roll")
    font, height = roll.font_size, roll.height
    ui.resize(1600, 960)  # twice the 800x480 design
    assert roll.font_size == 2 * font and roll.height == 2 * height
    ui.tap("play.adjust")  # a dialog built at this size, then resized with the rest
    close = find(ui.app.dialog, "adjust.close")
    big = close.font_size
    ui.resize(800, 480)
    assert roll.font_size == font and close.font_size == big / 2
    ui.tap("adjust.close")


def test_dialogs_add_no_bindings_to_the_app(launch: Any) -> None:
    ui = launch()
    new_game(ui)
    observers = len(ui.app.get_property_observers("scale"))
    for _ in range(5):
        ui.tap("play.adjust")
        ui.tap("adjust.close")
    assert len(ui.app.get_property_observers("scale")) == observers


def test_touches_and_actions_tell_the_collector_the_table_is_busy(launch: Any) -> None:
    import time

    ui = launch()
    collector = ui.app.collector
    before = collector.last_activity
    time.sleep(0.01)
    new_game(ui)  # touches
    touched = collector.last_activity
    assert touched > before
    time.sleep(0.01)
    from companion.games.evil import commands as c

    ui.app.send(c.Roll())  # what a hardware button does, no touch involved
    assert collector.last_activity > touched


_FIRST_FRAME_PROBE = """
import json, os, sys
from kivy.clock import Clock
from bench.apps import FlipProbe
data, config = sys.argv[1], sys.argv[2]
seen = {}
def on_frame(n, _t):
    if n != 1:
        return
    from kivy.app import App
    seen["screens"] = App.get_running_app().root.screen_names
    seen["modules"] = sorted(sys.modules)
    Clock.schedule_once(after, 0.2)
def after(_dt):
    seen["version_after"] = "hashlib" in sys.modules
    print("SEEN " + json.dumps(seen), flush=True)
    os._exit(0)
probe = FlipProbe(on_frame)  # held: the clock keeps only a weak reference
Clock.schedule_once(probe.install, 0)
from ui.main import main
main(["--data-dir", data, "--config", config])
"""


def test_a_resumed_game_s_first_frame_waits_for_nothing_it_does_not_show(
        tmp_path: Path) -> None:
    """`companion` itself, twice on the same data folder (the plug pulled between): the
    first frame imports no dialog, no other game, no game-night screen and no
    hardware. The config is parsed at every start (nothing a start derived is kept for
    the next)."""
    import json
    import os
    import subprocess
    import sys

    from bench.games import evil_setup
    from companion.games import rules_for
    from companion.journal import Journal
    from companion.session import Session

    data = tmp_path / "data"
    data.mkdir()
    journal = Journal(data / "journal.sqlite3")
    Session.start(rules_for("evil"), journal, {**evil_setup(), "rules_version": 2})
    journal.close()
    config = tmp_path / "config.yaml"
    config.write_text("language: en\n", encoding="utf-8")
    env = dict(os.environ, KIVY_HOME=str(tmp_path / "kivy"), KIVY_NO_ARGS="1",
               KIVY_NO_FILELOG="1", GPIOZERO_PIN_FACTORY="mock")
    runs = []
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", _FIRST_FRAME_PROBE, str(data),
                               str(config)], capture_output=True, text=True, env=env,
                              timeout=120, cwd=Path(__file__).resolve().parents[1])
        line = [x for x in done.stdout.splitlines() if x.startswith("SEEN ")]
        assert line, done.stderr[-3000:]
        runs.append(json.loads(line[0][5:]))
    first, again = runs
    # the snapshots' version, computed after the first frame, not in the 100th roll
    assert all(seen["version_after"] for seen in runs)
    for seen in runs:
        assert seen["screens"] == ["evil_play"]
        modules = set(seen["modules"])
        for absent in ("ui.dialogs", "ui.screens.home", "ui.background", "companion.night",
                       "companion.games.castor.rules", "companion.games.bond.rules",
                       "hardware.station", "gpiozero", "babel.dates",
                       "hashlib"):  # the snapshots' version: no snapshot to read here
            assert not any(m == absent or m.startswith(absent + ".") for m in modules), absent
        assert not any(m.startswith("ui.screens.night") for m in modules)
    assert "yaml" in set(first["modules"]) and "yaml" in set(again["modules"])
    assert not (data / "config-parsed.json").exists()


def test_babel_s_dates_load_on_a_thread_after_the_first_frame_and_at_a_new_language(
        launch: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first screen that shows a date (the backups to restore are listed in a
    frame) finds Babel's formats loaded, by a thread, not by that frame."""
    import threading

    from companion.i18n import Translator

    calls: list[tuple[str, bool]] = []
    prepare = Translator.prepare_dates

    def spied(self: Translator) -> None:
        calls.append((self.language, threading.current_thread() is threading.main_thread()))
        prepare(self)

    monkeypatch.setattr(Translator, "prepare_dates", spied)
    ui = launch(language="fr")
    ui.wait_until(lambda: bool(calls))
    assert calls == [("fr", False)]
    ui.app.set_language("en")
    ui.wait_until(lambda: len(calls) == 2)
    assert calls[1] == ("en", False)
