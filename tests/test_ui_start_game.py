"""Starting a game, through the real app under Xvfb: the set-up is checked on the UI
thread and the game's row is written by the writer thread (issue 32). On a slow card
the tap returns at once, Start looks at work, and the game opens only once its row is
durable; a second tap starts no second game; a failed write says why and leaves the
set-up with nothing started; a fast disk's commit opens the game in the tap itself; a
clock whose score pad game is left during its start opens nothing.

A slow card is the writer held by a gate (`tests/helpers/writer.py`: a commit ends only
when the test lets it), and once the real slow-card rig (`bench/slow_card.py`, every
sync of the journal's folder 100 ms, in a child process)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests import test_ui_clock
from tests.helpers.writer import Gate, committed_games, on_writer_connection, pytest_under_the_rig
from tests.test_ui_clock import FakeClock
from tests.uidriver import Driver

fake = test_ui_clock.fake  # the clock screens' monotonic clock, held still (a fixture)

pytestmark = pytest.mark.ui



def _games(ui: Driver) -> list[tuple[int, str]]:
    """The games another program reading the file sees (committed only)."""
    assert ui.app.journal.path is not None
    return committed_games(ui.app.journal.path)


def _record_openings(ui: Driver) -> list[tuple[int, list[tuple[int, str]]]]:
    """Each game the app opens, with the games in the file at that moment."""
    app = ui.app
    opened: list[tuple[int, list[tuple[int, str]]]] = []
    real = app._open

    def opening(session: Any, keep_beside: bool = False) -> None:
        opened.append((session.game_id, _games(ui)))
        real(session, keep_beside)

    app._open = opening
    return opened


def _evil_setup(ui: Driver) -> None:
    ui.tap("home.game.evil")
    assert ui.screen == "evil_setup"


def _nothing_shown_meanwhile(ui: Driver, screen: str, frames: int = 5) -> None:
    """The card is still syncing: the screen keeps drawing, and shows no new game."""
    for _ in range(frames):
        ui.pump(1)
        assert ui.screen == screen and ui.app.starting


def test_on_a_slow_card_the_tap_returns_at_once_and_the_game_opens_once_durable(
        launch: Any) -> None:
    ui = launch(seed=3)
    _evil_setup(ui)
    app = ui.app
    opened = _record_openings(ui)
    gate = Gate(app.writer)
    start = ui.find("setup.start")
    ui.tap("setup.start", settle=False)
    # the tap has returned: the row is with the writer, nothing of the game is shown
    assert len(gate.tickets) == 1 and not gate.tickets[0].done
    assert app.starting and app.session is None and _games(ui) == []
    assert start.working  # Start looks at work until the game opens
    _nothing_shown_meanwhile(ui, "evil_setup")
    gate.release(1)  # the row's commit ends
    ui.wait_until(lambda: ui.screen == "evil_play")
    [(game_id, in_file)] = opened
    assert in_file == [(game_id, "evil")]  # durable before it was opened
    assert app.session.game_id == game_id and not app.starting and not start.working
    gate.open()  # the seats' roster links, after the row
    ui.settle()
    assert _games(ui) == [(game_id, "evil")]
    ui.tap("play.roll")  # the game plays on
    assert ui.text("play.turn").startswith("Turn 2")


def test_a_second_tap_on_start_during_the_start_starts_no_second_game(
        launch: Any) -> None:
    ui = launch(seed=3)
    _evil_setup(ui)
    app = ui.app
    gate = Gate(app.writer)
    for _ in range(3):  # impatient: Start tapped again while the row is being synced
        ui.tap("setup.start", settle=False)
    app.root.get_screen("evil_setup").start()  # (and a start asked by another path)
    assert len(gate.tickets) == 1 and app.starting and _games(ui) == []
    gate.open()
    ui.wait_until(lambda: ui.screen == "evil_play")
    ui.settle()
    assert [kind for _, kind in _games(ui)] == ["evil"]
    assert app.session.game_id == _games(ui)[0][0] and ui.dialog is None


@pytest.mark.parametrize("card", ["slow", "fast"])
def test_a_start_whose_commit_fails_says_why_and_starts_nothing(
        launch: Any, card: str) -> None:
    ui = launch(seed=3)
    _evil_setup(ui)
    app = ui.app
    opened = _record_openings(ui)
    on_writer_connection(app.writer, lambda j: j._db.execute("PRAGMA query_only=1"))
    start = ui.find("setup.start")
    if card == "slow":
        gate = Gate(app.writer)
        ui.tap("setup.start", settle=False)
        assert app.starting and start.working and ui.dialog is None
        gate.release(1)  # the commit ends, and fails
        ui.wait_until(lambda: ui.dialog == "error")
        gate.open()
    else:
        ui.tap("setup.start")
    assert ui.dialog == "error" and "Could not save" in ui.text("error.text")
    # the set-up as it was: nothing started, nothing opened, Start as it looks
    assert ui.screen == "evil_setup" and app.session is None and opened == []
    assert _games(ui) == [] and not app.starting and not start.working
    on_writer_connection(app.writer, lambda j: j._db.execute("PRAGMA query_only=0"))
    ui.tap("error.ok")
    ui.tap("setup.start")  # the card writable again: the start goes through
    assert ui.screen == "evil_play" and [kind for _, kind in _games(ui)] == ["evil"]


def test_a_fast_disk_opens_the_game_in_the_start_s_own_call(
        launch: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # a commit that ends within the grace, as a fast disk's does (~0.3 ms of 5 ms),
    # however busy the machine running this test
    monkeypatch.setattr("ui.app.COMMIT_GRACE", 30.0)
    ui = launch(seed=3)
    app = ui.app
    _evil_setup(ui)
    app.root.get_screen("evil_setup").start()  # what the Start button does
    # no frame since: the game is open, its row durable
    assert app.root.current == "evil_play" and not app.starting
    assert _games(ui) == [(app.session.game_id, "evil")]
    ui.settle()

    # the returned session, and the caller's follow-up run in the same call
    app.leave_game()
    seen: list[Any] = []
    setup = {"players": [{"name": n, "character": ch} for n, ch in
                         (("Ann", "Nathan Goodspeed"), ("Bob", "Edward Wyre"))],
             "treasures": {"red": 30, "green": 30, "blue": 30}}
    session = app.start_game("evil", setup, done=seen.append)
    assert session is not None and session is app.session and seen == [session]
    assert app.root.current == "evil_play"
    ui.settle()


def test_a_fast_disk_sends_the_tray_s_first_roll_in_the_start_s_own_call(
        launch: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("ui.app.COMMIT_GRACE", 30.0)  # (as above)
    ui = launch(seed=3)
    app = ui.app
    ui.tap("home.tray")
    ui.tap("traysetup.add.d6")
    app.root.get_screen("tray_setup").start()
    # no frame since: the tray is open and its roll with the writer (or shown already)
    assert app.root.current == "tray_play" and app.session.rules.kind == "tray"
    assert app.session.in_flight or app.session.steps
    ui.settle()
    assert [type(s.command).__name__ for s in app.session.steps] == ["Roll"]


def test_a_score_pad_game_and_its_template_s_clock_open_once_both_rows_are_durable(
        launch: Any, fake: FakeClock) -> None:
    from tests.pad_helpers import template

    ui = launch()
    app = ui.app
    ui.tap("home.game.pad")
    setup = app.root.get_screen("pad_setup")
    setup.chosen(dict(template("rounds-highest"), timer="chess-5m-3s"))  # as its list does
    gate = Gate(app.writer)
    setup.start()  # what the Start button does
    assert app.starting and _games(ui) == []
    _nothing_shown_meanwhile(ui, "pad_setup")
    gate.open()  # the pad's row, its links, the clock's row, its links, its Start
    ui.wait_until(lambda: ui.screen == "clock_play" and not app.busy and not app.saving)
    clock, pad = app.session, app.beside
    assert [kind for _, kind in _games(ui)] == ["pad", "clock"]
    assert pad.rules.kind == "pad" and clock.setup["pad_game"] == pad.game_id
    assert [type(s.command).__name__ for s in clock.steps] == ["Start"]
    assert clock.state.last_at == fake.ms  # from the tap's moment


def test_a_clock_whose_score_pad_game_is_left_during_its_start_opens_nothing(
        launch: Any, fake: FakeClock) -> None:
    ui = launch()
    app = ui.app
    ui.tap("home.game.pad")
    ui.tap("setup.start")
    assert ui.screen == "pad_play"
    ui.tap("play.clock")
    ui.tap("clocksetup.preset")
    ui.tap("clockpresets.chess-5m-3s")
    gate = Gate(app.writer)
    ui.tap("clocksetup.start", settle=False)
    assert app.starting and ui.screen == "clock_setup"
    app.leave_game()  # the table goes home while the clock's row is being synced
    gate.open()
    ui.settle()
    # nothing opened behind the table's back: the clock's row is an unfinished game
    assert ui.screen == "home" and app.session is None and app.beside is None
    assert not app.starting and ui.dialog is None
    assert [kind for _, kind in _games(ui)] == ["pad", "clock"]


# -- the real slow-card rig ------------------------------------------------------------------
def test_the_game_opens_only_once_its_row_is_durable_on_any_card(launch: Any) -> None:
    """Also run under the slow-card rig (below): there the tap returns before the
    row's 100 ms sync has ended, and the game opens on the writer's hand-back."""
    ui = launch(seed=3)
    _evil_setup(ui)
    app = ui.app
    ui.wait_until(lambda: app.writer is not None)
    opened = _record_openings(ui)
    app.root.get_screen("evil_setup").start()
    if os.environ.get("SLOW_CARD_PROFILE") == "fixed:100":
        # a 100 ms sync never ends within the 5 ms grace: the UI thread went on
        assert app.starting and ui.screen == "evil_setup" and opened == []
    ui.wait_until(lambda: ui.screen == "evil_play", timeout=30)
    [(game_id, in_file)] = opened
    assert in_file == [(game_id, "evil")] and not app.starting
    ui.settle()


def test_the_start_under_the_slow_card_rig(tmp_path: Path) -> None:
    if not os.environ.get("DISPLAY"):
        pytest.fail("needs an X display: run the tests under xvfb-run")
    from bench.slow_card import SlowCard

    out, log = pytest_under_the_rig("fixed:100", tmp_path, str(Path(__file__)), "on_any_card")
    assert "1 passed" in out
    wal = [s for s in SlowCard.delays(log) if s[3].endswith("-wal")]
    assert wal and all(s[1] == 100.0 for s in wal)  # the rig delayed the row's sync
