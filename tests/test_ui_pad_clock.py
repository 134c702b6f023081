"""A table clock beside a score pad game, through the real app under Xvfb by simulated
touches: the clock started from the sheet with its players, a switch on the clock, back
to the sheet (the clock running on, its strip showing whose turn and the time left), an
entry, and Undo on each side taking back only its own game's action; both reopened
after the app stops. Time is the fake monotonic clock of tests/test_ui_clock.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests import test_ui_clock
from tests.helpers.kill_child import run_killed
from tests.test_ui_clock import FakeClock, later
from tests.test_ui_pad_rounds import (
    NAMES,
    cell,
    enter,
    start_four,
)
from tests.uidriver import Driver

fake = test_ui_clock.fake  # the fake monotonic clock (a fixture)

pytestmark = [pytest.mark.ui, pytest.mark.usefixtures("instant_release")]

STRIP = {"en": "{player}  {time}", "fr": "{player}  {time}"}
PAUSED = {"en": "{player}  {time}  (paused)", "fr": "{player}  {time}  (en pause)"}


def names(session: Any) -> list[str]:
    """What the table did in `session` (a running clock's checkpoints left out)."""
    return [type(s.command).__name__ for s in session.steps
            if type(s.command).__name__ != "Checkpoint"]


def start_clock_beside(ui: Driver) -> tuple[Any, Any]:
    """From the sheet: Clock -> the clock's set-up with the pad's players -> Start."""
    pad = ui.app.session
    ui.tap("play.clock")
    assert ui.screen == "clock_setup"
    assert [ui.text(f"setup.name.{i}") for i in range(4)] == NAMES  # in seat order
    ui.tap("clocksetup.preset")
    ui.tap("clockpresets.chess-5m-3s")
    ui.tap("clocksetup.start")
    assert ui.screen == "clock_play"
    clock = ui.app.session
    assert clock.rules.kind == "clock" and ui.app.beside is pad
    assert clock.setup["pad_game"] == pad.game_id
    assert names(clock) == ["Start"]
    return pad, clock


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_score_pad_game_with_its_clock_beside(launch: Any, fake: FakeClock,
                                                language: str) -> None:
    ui = launch(language=language)
    start_four(ui)
    ui.screenshot(f"pad-clock-offered-{language}-800x480")
    pad, clock = start_clock_beside(ui)
    assert ui.text("play.name") == "Ann"
    later(ui, fake, 12_300)
    ui.tap("play.area")  # Ann ends her turn
    assert names(clock) == ["Start", "Switch"]
    assert ui.text("play.name") == "Bob"

    # back to the sheet: the clock runs on, its strip in Bob's colour
    ui.tap("play.sheet")
    assert ui.screen == "pad_play" and ui.app.session is pad and ui.app.beside is clock
    assert ui.text("play.strip") == STRIP[language].format(player="Bob", time="5:00")
    later(ui, fake, 2_000)
    assert ui.text("play.strip") == STRIP[language].format(player="Bob", time="4:58")
    assert clock.state.status == "running"
    ui.screenshot(f"pad-clock-strip-{language}-800x480")
    enter(ui, "7")
    assert ui.text(cell(ui, "1", 0)) == "7"
    assert names(pad) == ["SetCell"]

    # Undo on the sheet takes back the entry, not the switch
    ui.tap("play.undo")
    assert ui.text(cell(ui, "1", 0)) in ("", "?")
    assert len(pad.steps) == 0 or not pad.can_undo()
    assert names(clock) == ["Start", "Switch"] and clock.state.active == 1
    ui.tap("play.redo")
    assert ui.text(cell(ui, "1", 0)) == "7"

    # ROLL on the sheet is the keypad's Enter, not the clock's switch
    assert ui.app.root.current_screen.hardware_button("roll").tid == "keypad.enter"

    # one tap on the strip: the clock; its Undo takes back the switch, not the entry
    ui.tap("play.strip")
    assert ui.screen == "clock_play" and ui.app.session is clock
    assert ui.app.root.current_screen.hardware_button("roll") is ui.visible("play.area")
    ui.screenshot(f"pad-clock-beside-{language}-800x480")
    ui.tap("play.undo")
    assert names(clock) == ["Start"] and clock.state.active == 0
    assert names(pad) == ["SetCell"] and pad.state == pad.steps[-1].after

    # Home from the clock pauses it and leaves both; the journal reopens both
    ui.tap("play.home")
    assert ui.screen == "home"
    assert clock.state.status == "paused" and ui.app.beside is None
    ui = launch(language=language, journal_file=Path(ui.app.journal.path))
    assert ui.screen == "pad_play"
    assert ui.app.session.game_id == pad.game_id
    assert ui.app.beside is not None and ui.app.beside.game_id == clock.game_id
    assert ui.text(cell(ui, "1", 0)) == "7"
    ui.wait_until(lambda: ui.visible("play.strip") is not None)
    assert ui.text("play.strip") == PAUSED[language].format(player="Ann", time="4:46")


def test_killed_with_both_open_both_reopen(launch: Any, fake: FakeClock,
                                           tmp_path: Path) -> None:
    """`companion run` with a score pad game on screen and its clock running beside it,
    killed with SIGKILL after an entry and two checkpoints: started again, the sheet is
    back with the entry, the clock beside it paused with the banks of its last
    checkpoint, and the table told what was charged to nobody (so is it on the child's
    own first opening, the clock running there too)."""
    import time

    from companion.games import rules_for
    from companion.games.clock import commands as c
    from companion.games.clock.presets import load_presets, setup_for
    from companion.journal import Journal
    from companion.session import Session
    from tests.pad_helpers import setup as pad_setup

    data = tmp_path / "data"
    data.mkdir()
    folder = tmp_path / "conf"
    (folder / "clock").mkdir(parents=True)
    (folder / "clock" / "quick.yaml").write_text("mode: bank\ntime: 5m\ncheckpoint: 1s\n",
                                                 encoding="utf-8")
    config = folder / "config.yaml"
    config.write_text("language: en\n", encoding="utf-8")
    preset = load_presets(config).get("quick")
    assert preset is not None
    path = data / "journal.sqlite3"
    journal = Journal(path)
    pad = Session.start(rules_for("pad"), journal, pad_setup("rounds-highest", 3))
    clock = Session.start(rules_for("clock"), journal, setup_for(
        preset, [{"name": n} for n in ("Ann", "Bob", "Cy")], seed=1, start=0,
        pad_game=pad.game_id))
    start = time.monotonic_ns() // 1_000_000
    clock.dispatch(c.Start(at=start))
    clock.dispatch(c.Switch(at=start + 7_000))  # Ann: 4:53; Bob's turn
    journal.close()

    done = run_killed("pad_clock_kill_child.py", tmp_path, str(data), str(config), "2")
    # opened beside the sheet from the test's journal, the running clock said what it
    # charged to nobody (every time: the child waits for the message, never goes on
    # without it)
    told = [line for line in done.stdout.splitlines() if line.startswith("told ")]
    assert len(told) == 1 and "at most 1 second was charged to nobody" in told[0], \
        done.stdout[-2000:]
    pad_entries, clock_entries = (int(n) for n in [
        line for line in done.stdout.splitlines() if line.startswith("killing")][-1].split()[1:])

    journal = Journal(path)
    assert len(journal.entries(pad.game_id)) == pad_entries  # nothing seen was lost
    assert len(journal.entries(clock.game_id)) == clock_entries
    killed = Session.resume(rules_for("clock"), journal, clock.game_id)
    assert killed.state.status == "running"
    assert names(killed)[:4] == ["Start", "Switch", "Interrupted", "Resume"]
    as_journaled = killed.state
    journal.close()

    ui = launch(journal_file=path)
    assert ui.screen == "pad_play"
    assert ui.app.session.game_id == pad.game_id
    assert ui.text(cell(ui, "1", 0)) == "7"  # the entry made before the plug was pulled
    beside = ui.app.beside
    assert beside is not None and beside.game_id == clock.game_id
    ui.wait_until(lambda: ui.dialog == "clock_interrupted")
    assert "at most 1 second was charged to nobody" in ui.text("clock_interrupted.text")
    assert beside.state.status == "paused"
    assert [s.bank_ms for s in beside.state.seats] == [s.bank_ms for s in as_journaled.seats]
    ui.tap("clock_interrupted.ok")
    ui.wait_until(lambda: ui.visible("play.strip") is not None)
    assert ui.text("play.strip").startswith("Bob") and ui.text("play.strip").endswith(
        "(paused)")
    ui.screenshot("pad-clock-reopened-en-800x480")


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_template_naming_a_clock_offers_it_at_set_up(launch: Any, fake: FakeClock,
                                                       language: str) -> None:
    """A template's `timer: chess-5m-3s`: the set-up offers that clock (on unless
    declined); Start opens the sheet's game with the clock beside it, started, with the
    same players in the same seat order and the same start player."""
    from tests.pad_helpers import template
    from tests.test_ui_pad_rounds import type_name

    words = {"en": ("Clock: ", "No clock"), "fr": ("Horloge : ", "Sans horloge")}[language]
    ui = launch(language=language)
    timed = dict(template("rounds-highest"), timer="chess-5m-3s")
    for declined in (True, False):
        ui.tap("home.game.pad")
        ui.app.root.get_screen("pad_setup").chosen(timed)  # as the template list does
        ui.pump(2)
        while ui.visible("setup.name.3") is None:
            ui.tap("setup.add")
        for seat, name in enumerate(NAMES):
            type_name(ui, seat, name)
        ui.tap("setup.start_player")  # drawn -> Ann
        assert ui.text("setup.clock").startswith(words[0])
        ui.screenshot(f"pad-setup-clock-{language}-800x480")
        if declined:
            ui.tap("setup.clock")
            assert ui.text("setup.clock") == words[1]
            ui.tap("setup.start")
            assert ui.screen == "pad_play" and ui.app.beside is None
            ui.tap("play.home")
            continue
        ui.tap("setup.start")
        assert ui.screen == "clock_play"
        clock, pad = ui.app.session, ui.app.beside
        assert pad.rules.kind == "pad" and clock.setup["pad_game"] == pad.game_id
        assert [s.name for s in clock.state.seats] == NAMES
        assert names(clock) == ["Start"] and clock.state.last_at == fake.ms
        assert clock.state.active == pad.state.start_player
        ui.tap("play.sheet")
        assert ui.screen == "pad_play"


def test_a_penalty_at_zero_is_written_into_the_sheet(launch: Any, fake: FakeClock) -> None:
    """The 1-minute turn with a penalty point per started 30 s past zero: Ann ends her
    turn 36 s over, so 2 points; the score pad game beside it takes them from her
    total (its own journaled Penalty, undone by the sheet's Undo, not the clock's)."""
    ui = launch()
    start_four(ui)
    pad = ui.app.session
    ui.tap("play.clock")
    ui.tap("clocksetup.preset")
    ui.tap("clockpresets.turn-1m-penalty")
    ui.tap("clocksetup.start")
    clock = ui.app.session
    assert ui.screen == "clock_play" and ui.app.beside is pad
    ui.tap("play.sheet")
    enter(ui, "10")  # Ann's round 1: 10
    later(ui, fake, 60_000)  # Ann's minute is up (zero: she plays on, overtime)
    later(ui, fake, 36_000)
    ui.tap("play.strip")
    ui.tap("play.area")  # Ann ends her turn 36 s past zero: 2 started intervals
    assert names(clock)[-1] == "Switch"
    assert pad.state.penalties[0] == 2 and names(pad) == ["SetCell", "Penalty"]
    ui.tap("play.sheet")
    assert ui.text("sheet.total.0") == "8"  # 10 - 2
    ui.screenshot("pad-clock-penalty-en-800x480")
    ui.tap("play.undo")  # the sheet's Undo: the penalty, not the entry
    assert ui.text("sheet.total.0") == "10"
    assert names(clock)[-1] == "Switch"


@pytest.mark.parametrize("pad_last", [True, False])
def test_reopened_beside_says_the_time_since_its_last_action(
        launch: Any, fake: FakeClock, tmp_path: Path, pad_last: bool) -> None:
    """A clock journaled every 30 s, running beside a score pad game, its last action
    12 s before the app stopped: reopened (the sheet's game or the clock's played last,
    so opened first), the table is told up to 12 s were charged to nobody, read from
    the clock's last action, not from the `Interrupted` that reopening journals (that
    said 1 second, whatever the gap)."""
    import re
    import sqlite3
    import time

    from companion.games import rules_for
    from companion.games.clock import commands as c
    from companion.games.clock.presets import load_presets, setup_for
    from companion.journal import Journal
    from companion.session import Session
    from tests.pad_helpers import setup as pad_setup

    folder = tmp_path / "conf"
    (folder / "clock").mkdir(parents=True)
    (folder / "clock" / "slow.yaml").write_text("mode: bank\ntime: 5m\ncheckpoint: 30s\n",
                                                encoding="utf-8")
    preset = load_presets(folder / "config.yaml").get("slow")
    assert preset is not None
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    pad = Session.start(rules_for("pad"), journal, pad_setup("rounds-highest", 3))
    clock = Session.start(rules_for("clock"), journal, setup_for(
        preset, [{"name": n} for n in ("Ann", "Bob", "Cy")], seed=1, start=0,
        pad_game=pad.game_id))
    clock.dispatch(c.Start(at=fake.ms))
    journal.close()
    now = time.time()
    with sqlite3.connect(path) as db:  # the clock's last action 12 s before the stop
        db.execute("UPDATE games SET updated = ? WHERE id = ?", (now - 12, clock.game_id))
        db.execute("UPDATE games SET updated = ? WHERE id = ?",
                   (now - (6 if pad_last else 20), pad.game_id))

    ui = launch(journal_file=path)
    assert ui.screen == "pad_play" and ui.app.beside.game_id == clock.game_id
    ui.wait_until(lambda: ui.dialog == "clock_interrupted")
    said = re.search(r"at most (\d+) seconds were charged to nobody",
                     ui.text("clock_interrupted.text"))
    assert said is not None and 12 <= int(said.group(1)) <= 30
    assert ui.app.beside.state.status == "paused"
