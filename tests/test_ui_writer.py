"""Actions made durable on the writer thread, through the real app under Xvfb: the
screen keeps drawing while the card syncs and shows an action only once it is durable;
the dice tumble from touch-down; an impatient second ROLL never rolls twice; taps on
other controls during a commit are applied after it, in order, never lost nor doubled.

The writer's commits are held by a gate (`tests/helpers/writer.py`): a commit ends only
when the test lets it, as on a card that takes its time to sync."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.evil import commands as c
from tests.helpers.writer import Gate
from tests.test_ui_evil import answer_dialogs, new_game
from tests.uidriver import Driver

pytestmark = pytest.mark.ui


def _in_file(ui: Driver) -> list[tuple[str, str | None]]:
    """The game's actions as another program reads them from the file (committed only)."""
    assert ui.app.journal.path is not None and ui.app.session is not None
    db = sqlite3.connect(ui.app.journal.path)
    try:
        return db.execute("SELECT verb, command FROM actions WHERE game_id = ? ORDER BY seq",
                          (ui.app.session.game_id,)).fetchall()
    finally:
        db.close()


def _rolls(ui: Driver) -> int:
    return sum(1 for verb, command in _in_file(ui) if verb == "do" and '"Roll"' in command)


def _through(ui: Driver, gate: Gate, count: int = 1) -> None:
    """Let `count` commits end, and wait for the app to have shown them."""
    gate.release(count)
    ui.wait_until(lambda: gate.all_through() and not ui.app.session.committed)
    ui.pump(2)


def test_the_dice_tumble_from_touch_down_and_the_roll_shows_only_once_durable(
        launch: Any) -> None:
    from kivy.base import EventLoop
    from kivy.tests.common import UnitTestTouch

    ui = launch(seed=3)
    new_game(ui, minutes=55)
    app = ui.app
    screen = app.root.get_screen("evil_play")
    gate = Gate(app.writer)
    button = screen.roll_button
    touch = UnitTestTouch(*button.to_window(*button.center))
    touch.touch_down()
    ui.pump(1)
    assert screen.animating  # at once, before the finger lifts
    EventLoop._dispatch_input("end", touch)
    faces = set()
    for _ in range(20):  # the card is still syncing: the screen keeps drawing
        EventLoop.idle()
        faces.add(tuple(d.face for d in screen.dice.values()))
        assert ui.text("play.turn").startswith("Turn 1") and _rolls(ui) == 0
        assert app.busy and screen.animating

    def tumbled() -> bool:
        faces.add(tuple(d.face for d in screen.dice.values()))
        return len(faces) > 1

    ui.wait_until(tumbled)  # the dice tumble meanwhile (the commit is held at the gate)
    _through(ui, gate)
    assert _rolls(ui) == 1 and ui.text("play.turn").startswith("Turn 2")
    ui.wait_until(lambda: not screen.animating)
    roll = app.session.state.last_roll
    assert [screen.dice[die].face for die in ("professor", "colour", "clock")] == \
        [roll.professor, roll.colour, roll.clock]


def test_a_roll_made_while_the_last_roll_s_dice_still_tumble_tumbles_until_its_result(
        launch: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The last roll's tumble ends on its own time (`display.roll_animation` from its
    touch); a new roll touched meanwhile keeps it tumbling until the new result is
    durable, however long the card takes: the screen never stands still during a
    commit. The tumble's clock is held still, so the last tumble is surely running."""
    from kivy.base import EventLoop
    from kivy.tests.common import UnitTestTouch

    from ui.screens.evil import play

    now = [1000.0]
    monkeypatch.setattr(play, "tumble_clock", lambda: now[0])
    ui = launch(seed=3)
    new_game(ui, minutes=55)
    app = ui.app
    screen = app.root.get_screen("evil_play")
    ui.tap("play.roll")
    answer_dialogs(ui, 55)
    assert screen.animating  # the first roll's dice, still tumbling to their end
    ui.wait_until(app.may_roll)
    gate = Gate(app.writer)
    button = screen.roll_button
    touch = UnitTestTouch(*button.to_window(*button.center))
    touch.touch_down()
    ui.pump(1)
    EventLoop._dispatch_input("end", touch)
    now[0] += 10.0  # the first tumble's time is long over; the card is still syncing
    for _ in range(10):
        EventLoop.idle()
        assert app.busy and screen.animating and _rolls(ui) == 1
    _through(ui, gate)
    assert _rolls(ui) == 2
    now[0] += 10.0
    ui.wait_until(lambda: not screen.animating)
    roll = app.session.state.last_roll
    assert [screen.dice[die].face for die in ("professor", "colour", "clock")] == \
        [roll.professor, roll.colour, roll.clock]


def test_a_button_that_started_an_action_looks_pressed_until_it_is_shown(
        launch: Any) -> None:
    from ui import theme

    ui = launch(seed=3)
    new_game(ui, minutes=55)
    app = ui.app
    gate = Gate(app.writer)
    roll = ui.find("play.roll")
    ui.tap("play.roll", settle=False)
    ui.pump(5)  # the finger is long gone: the button still says it is at work
    assert roll.working and roll.state == "normal"
    assert tuple(roll._color.rgba) == tuple(theme.pressed(roll._fill))
    _through(ui, gate)
    assert not roll.working
    assert tuple(roll._color.rgba) in (tuple(roll._fill), tuple(theme.disabled(roll._fill)))


def test_an_impatient_second_roll_never_rolls_twice(launch: Any) -> None:
    ui = launch(seed=3)
    new_game(ui, minutes=55)
    app = ui.app
    gate = Gate(app.writer)
    ui.tap("play.roll", settle=False)
    for _ in range(3):  # tapped again while the first is being saved
        ui.tap("play.roll", settle=False, patient=False)
    _through(ui, gate, 4)
    assert _rolls(ui) == 1 and ui.text("play.turn").startswith("Turn 2")
    answer_dialogs(ui, 55)
    # and within `display.roll_guard` of its result
    app.roll_guard = 60.0
    gate.open()
    ui.tap("play.roll")
    ui.wait_until(lambda: not app.busy)
    before = _rolls(ui)
    ui.tap("play.roll", patient=False)
    assert _rolls(ui) == before


def test_a_tap_on_another_control_during_a_commit_is_applied_after_it(
        launch: Any) -> None:
    ui = launch(seed=3)
    new_game(ui, minutes=55)
    app = ui.app
    gate = Gate(app.writer)
    ui.tap("play.roll", settle=False)
    app.undo()  # (its button follows what is durable: there was nothing to undo)
    assert ui.text("play.turn").startswith("Turn 1") and _in_file(ui) == []
    _through(ui, gate)  # the roll, shown; then the undo goes to the writer
    assert _rolls(ui) == 1
    _through(ui, gate)
    assert [verb for verb, _ in _in_file(ui)] == ["do", "undo"]
    assert ui.text("play.turn").startswith("Turn 1") and not app.busy


def test_the_writers_hand_back_wakes_the_loop_without_waiting_for_the_next_tick(
        launch: Any) -> None:
    import threading

    from kivy.clock import Clock

    ui = launch(seed=3)
    new_game(ui, minutes=55)
    app = ui.app
    gate = Gate(app.writer)
    ui.tap("play.roll", settle=False)
    ui.pump(2)
    clock = object.__getattribute__(Clock, "_obj")
    clock._event.clear()  # the loop would sleep until its next tick
    gate.release(1)  # the commit ends: the writer thread hands it back
    done = threading.Event()
    app.writer.submit(lambda _journal: done.set())
    gate.release(1)
    assert done.wait(10)
    # the hand-back (a Clock trigger, from the writer thread) interrupts the loop's wait
    assert clock._event.is_set()
    ui.pump(1)
    assert _rolls(ui) == 1 and ui.text("play.turn").startswith("Turn 2")


def test_a_tap_past_the_waiting_bound_is_refused_and_said(launch: Any) -> None:
    from ui.app import WAITING_TAPS

    ui = launch(seed=3)
    new_game(ui, minutes=55)
    app = ui.app
    gate = Gate(app.writer)
    app.send(c.MoveTime(1))  # with the writer: the card is still syncing it
    for n in range(WAITING_TAPS):  # taps that wait behind it
        assert app.undo() if n % 2 == 0 else app.redo()
    assert ui.dialog is None
    assert not app.undo()  # one too many: refused, and said
    ui.pump(2)
    assert ui.dialog == "error"
    assert f"{WAITING_TAPS} taps are still waiting" in ui.text("error.text")
    gate.open()
    ui.wait_until(lambda: not app.busy)
    # every tap taken was applied, once, in order; the refused one was not
    assert [verb for verb, _ in _in_file(ui)] == \
        ["do"] + ["undo", "redo"] * (WAITING_TAPS // 2)
    assert app.session.state.time == 1
    app.close_dialog()


def test_a_commit_that_fails_shows_nothing_of_the_action_and_drops_what_waited(
        launch: Any) -> None:
    from tests.helpers.writer import on_writer_connection

    ui = launch(seed=3)
    new_game(ui, minutes=55)
    app = ui.app
    on_writer_connection(app.writer, lambda j: j._db.execute("PRAGMA query_only=1"))
    gate = Gate(app.writer)
    ui.tap("play.roll", settle=False)
    app.send(c.MoveTime(1))  # waits behind the roll
    _through(ui, gate)
    assert ui.dialog == "error" and "Could not save" in ui.text("error.text")
    assert ui.text("play.turn").startswith("Turn 1") and _in_file(ui) == []
    assert not app.busy and app.session.state.time == 0  # the waiting tap was dropped
    gate.open()
    on_writer_connection(app.writer, lambda j: j._db.execute("PRAGMA query_only=0"))
    ui.tap("error.ok")
    ui.tap("play.roll")
    assert _rolls(ui) == 1 and ui.text("play.turn").startswith("Turn 2")


# -- any interleaving of taps and commit ends: the journal of the same taps one by one ----
TAPS = st.lists(st.one_of(
    st.sampled_from(["+1", "-1", "undo", "redo"]),
    st.just("end"),  # a commit ends (the next waiting tap then goes to the writer)
), min_size=1, max_size=14)


def _tap(app: Any, tap: str) -> None:
    if tap == "undo":
        app.undo()
    elif tap == "redo":
        app.redo()
    else:
        app.send(c.MoveTime(1 if tap == "+1" else -1))


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(program=TAPS)
def test_any_interleaving_of_taps_and_commits_gives_the_journal_of_one_at_a_time(
        launch: Any, program: list[str]) -> None:
    ui = launch(seed=3)
    app = ui.app
    setup = {"players": [{"name": n, "character": ch} for n, ch in
                         (("Ann", "Nathan Goodspeed"), ("Bob", "Edward Wyre"))],
             "treasures": {"red": 30, "green": 30, "blue": 30}}
    taps = [t for t in program if t != "end"]

    # the taps, as fast as fingers go, the commits ending whenever the program says
    app.start_game("evil", dict(setup))
    ui.settle()  # open once its row is durable (at once on a fast disk)
    gate = Gate(app.writer)
    for step in program:
        if step == "end":
            if app.busy:
                _through(ui, gate)
        else:
            _tap(app, step)
    gate.open()
    ui.wait_until(lambda: not app.busy)
    fast = [(v, cmd) for v, cmd in _in_file(ui)]
    app.close_dialog()

    # the same taps, each once the one before is on screen
    app.start_game("evil", dict(setup))
    ui.settle()
    for tap in taps:
        _tap(app, tap)
        ui.wait_until(lambda: not app.busy)
    one_by_one = [(v, cmd) for v, cmd in _in_file(ui)]
    app.close_dialog()
    assert fast == one_by_one
