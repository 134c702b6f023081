"""A score drawn while the card syncs it, through the real app under Xvfb: the screen
is told the entry as soon as its statements are written and only the sync is left,
the frame is drawn meanwhile, and it is swapped only once the entry is durable
(`CompanionApp._draw_early`, `_swap_early`). A sync that outlasts `SWAP_HOLD` has the
frame dropped and the durable sheet drawn again until it lands; a sync that fails
never shows the entry at all.

The writer's commits wait at their sync on a gate (`tests/helpers/writer.SyncGate`):
the sync ends, or fails, when the test says. Every buffer swap is watched: no frame
on screen ever shows the entry while the file does not hold it."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.helpers.writer import SyncGate, committed_actions
from tests.uidriver import Driver

pytestmark = [pytest.mark.ui, pytest.mark.usefixtures("instant_release")]



def watch_frames(ui: Driver, monkeypatch: pytest.MonkeyPatch,
                 swapped: Callable[[list[str]], None]) -> None:
    """`swapped(totals)` at each buffer swap, with the sheet's totals as that frame was
    drawn (read as its drawing begins: what the widgets show may change between the
    drawing and the swap, what the frame shows does not)."""
    from kivy.core.window import Window

    drawn: list[str] = []
    draw, swap = Window.on_draw, Window.flip

    def on_draw() -> None:
        drawn[:] = [ui.text(f"sheet.total.{seat}") for seat in range(2)]
        draw()

    def flip() -> None:
        swapped(list(drawn))
        swap()

    monkeypatch.setattr(Window, "on_draw", on_draw)
    monkeypatch.setattr(Window, "flip", flip)


class Screen:
    """What each buffer swap put on screen: Player 1's total and the actions the file
    held at that moment."""

    def __init__(self, ui: Driver, monkeypatch: pytest.MonkeyPatch) -> None:
        self.ui = ui
        self.path = ui.app.journal.path
        self.swaps: list[tuple[str, int]] = []
        watch_frames(ui, monkeypatch, lambda totals: self.swaps.append(
            (totals[0], committed_actions(self.path))))

    def in_file(self) -> int:
        return committed_actions(self.path)


def ad_hoc_pad(ui: Driver) -> None:
    ui.tap("home.game.pad")
    ui.tap("setup.start")
    assert ui.screen == "pad_play" and ui.text("keypad.who") == "Player 1 · Round 1"
    assert ui.text("sheet.total.0") == "0"


def pad_at_the_gate(launch: Any, monkeypatch: pytest.MonkeyPatch, hold: float,
                    fail: BaseException | None = None) -> tuple[Driver, Screen, SyncGate]:
    """The ad-hoc pad, its frames watched, every commit held at its sync (`fail`: and
    failing there); a frame waits `hold` seconds for its entry's commit (`SWAP_HOLD`).

    A tap waits for the writer to reach the sync (`COMMIT_GRACE`, 5 ms in the app): on a
    busy machine the writer thread may not run within 5 ms, and the entry is then
    shown once durable rather than drawn early, which is not what these tests look at."""
    from ui import app as app_module

    monkeypatch.setattr(app_module, "SWAP_HOLD", hold)
    monkeypatch.setattr(app_module, "COMMIT_GRACE", 30.0)
    ui = launch()
    ad_hoc_pad(ui)
    return ui, Screen(ui, monkeypatch), SyncGate(ui.app.writer, fail=fail)


def at_the_swap(monkeypatch: pytest.MonkeyPatch, session: Any, ends: Callable[[], bool]
                ) -> None:
    """When a frame waits for its entry's commit (`Session.wait_for_commit`), `ends()`
    says whether the sync ends now (the gate let through, waited for) or not yet."""
    wait = session.wait_for_commit

    def waiting(_timeout: float) -> bool:
        return wait(30.0) if ends() else wait(0.0)

    monkeypatch.setattr(session, "wait_for_commit", waiting)


def release_enter(ui: Driver) -> None:
    """A finger on Enter, lifted: the loop passes once (input, drawing, the swap)."""
    from kivy.base import EventLoop
    from kivy.tests.common import UnitTestTouch

    from ui.widgets.basics import find

    button = find(ui.app.root.get_screen("pad_play"), "keypad.enter")
    touch = UnitTestTouch(*button.to_window(*button.center))
    touch.touch_down()
    EventLoop.idle()
    EventLoop._dispatch_input("end", touch)
    EventLoop.idle()


def test_a_score_is_drawn_while_the_card_syncs_and_swapped_once_durable(
        launch: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    ui, screen, gate = pad_at_the_gate(launch, monkeypatch, hold=60.0)
    app = ui.app
    before = screen.in_file()
    session = app.session
    at_swap: list[tuple[str, str, bool, int, int]] = []

    def the_frame_waits() -> bool:
        # the frame showing the entry is drawn; the card is still syncing it
        at_swap.append((ui.text("sheet.total.0"), ui.text("keypad.who"),
                        app.root.get_screen("pad_play").undo_button.disabled,
                        screen.in_file(), len(screen.swaps)))
        gate.release()
        return True

    at_the_swap(monkeypatch, session, the_frame_waits)
    ui.tap("keypad.7")
    swapped = len(screen.swaps)
    release_enter(ui)
    # drawn before durable: the new total, the next player's cell, Undo offered
    assert at_swap == [("7", "Player 2 · Round 1", False, before, swapped + 1)]
    # swapped once durable: the frame after the touch-down's is the entry's
    assert screen.swaps[swapped + 1:] == [("7", before + 1)]
    assert not app.busy and session.can_undo() and session.state.rounds[0][0].value == 7
    ui.pump(3)  # the hand-back: nothing more to tell, the screen as it was swapped
    assert ui.text("sheet.total.0") == "7" and ui.text("keypad.who") == "Player 2 · Round 1"
    assert not ui.visible("play.undo").disabled


def test_a_sync_longer_than_a_frame_never_shows_the_score_before_it_lands(
        launch: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    ui, screen, gate = pad_at_the_gate(launch, monkeypatch, hold=0.0)  # never waits
    app = ui.app
    before = screen.in_file()
    taken_back: list[str] = []
    take_back = app._take_back_early

    def taking_back() -> None:
        taken_back.append(ui.text("sheet.total.0"))  # the entry was drawn, not swapped
        take_back()

    monkeypatch.setattr(app, "_take_back_early", taking_back)
    ui.tap("keypad.7")
    release_enter(ui)
    assert gate.at_sync.is_set() and taken_back == ["7"]
    ui.pump(5)  # the card is still syncing: the sheet as it is durable
    assert app.busy and ui.text("sheet.total.0") == "0"
    assert ui.text("keypad.who") == "Player 1 · Round 1"
    gate.release()
    ui.wait_until(lambda: not app.busy)
    ui.pump(2)
    assert ui.text("sheet.total.0") == "7" and ui.text("keypad.who") == "Player 2 · Round 1"
    assert screen.in_file() == before + 1
    assert ("7", before + 1) in screen.swaps
    assert all(count == before + 1 for total, count in screen.swaps if total == "7")


def test_a_writer_not_at_the_sync_within_the_grace_has_the_entry_shown_once_durable(
        launch: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The writer thread has not written the entry by the end of the tap's grace (a
    busy machine that has not run it yet): nothing is drawn early, the sheet stays as
    it is durable with what was typed on its cell, and the entry is shown once it
    lands."""
    from tests.helpers.writer import Gate

    ui = launch()
    ad_hoc_pad(ui)
    app = ui.app
    screen = Screen(ui, monkeypatch)
    before = screen.in_file()
    pad = app.root.get_screen("pad_play")
    drawn: list[Any] = []
    draw = pad.draw_early
    monkeypatch.setattr(pad, "draw_early", lambda update: (drawn.append(update),
                                                           draw(update)))
    gate = Gate(app.writer)  # the entry's job waits before its statements
    ui.tap("keypad.7")
    release_enter(ui)
    ui.pump(3)
    assert drawn == [] and app.busy and ui.text("sheet.total.0") == "0"
    assert ui.text("keypad.who") == "Player 1 · Round 1" and ui.text("keypad.typed") == "7"
    gate.release()
    ui.wait_until(lambda: not app.busy)
    ui.pump(2)
    assert ui.text("sheet.total.0") == "7" and ui.text("keypad.who") == "Player 2 · Round 1"
    assert screen.in_file() == before + 1 and drawn == []
    assert all(count == before + 1 for total, count in screen.swaps if total == "7")


def test_scores_typed_during_a_slow_sync_go_to_the_next_cells_in_turn(
        launch: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """"7 Enter 3 Enter 5" while the card still syncs the 7: the keys wait behind it and
    are applied in turn, as typed: the 3 is the next player's, the 5 is typed in the
    next round's first cell (never a correction of the cell being saved)."""
    ui, _screen, gate = pad_at_the_gate(launch, monkeypatch, hold=0.0)
    app = ui.app
    for key in ("7", "enter", "3", "enter", "5"):
        ui.tap(f"keypad.{key}", settle=False)
    assert app.busy and ui.text("sheet.total.0") == "0" and ui.text("keypad.typed") == ""
    gate.release(2)
    ui.wait_until(lambda: not app.busy)
    ui.pump(2)
    rounds = app.session.state.rounds
    assert [cell.value for cell in rounds[0]] == [7, 3]
    assert [ui.text("sheet.total.0"), ui.text("sheet.total.1")] == ["7", "3"]
    assert ui.text("keypad.who") == "Player 1 · Round 2" and ui.text("keypad.typed") == "5"


def test_a_sync_that_fails_never_shows_the_score_and_says_why(
        launch: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    ui, screen, gate = pad_at_the_gate(
        launch, monkeypatch, hold=60.0,
        fail=sqlite3.OperationalError("database or disk is full"))
    app = ui.app
    before = screen.in_file()
    session = app.session

    def the_sync_fails() -> bool:
        gate.release()
        return True

    at_the_swap(monkeypatch, session, the_sync_fails)
    ui.tap("keypad.7")
    release_enter(ui)
    ui.pump(2)
    assert ui.dialog == "error" and "database or disk is full" in ui.text("error.text")
    assert ui.text("sheet.total.0") == "0" and ui.text("keypad.who") == "Player 1 · Round 1"
    assert screen.in_file() == before and not session.can_undo()
    assert all(total == "0" for total, _count in screen.swaps)
    # the table goes on: what was typed is still on its cell, entered again once the
    # card writes again
    ui.app.close_dialog()
    assert ui.text("keypad.typed") == "7"
    gate.open()
    ui.tap("keypad.enter")
    assert ui.text("sheet.total.0") == "7" and screen.in_file() == before + 1


#: "7" types a digit, "entry" a digit and Enter, "sync" ends the sync waiting at the
#: gate, "pass" is one pass of the loop
STEPS = st.lists(st.sampled_from(["7", "entry", "entry", "enter", "undo", "sync", "pass"]),
                 min_size=1, max_size=8)


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(program=STEPS, lands=st.lists(st.booleans(), min_size=40, max_size=40))
@example(program=["entry", "entry", "undo", "entry", "pass", "sync", "entry", "undo"],
         lands=[False, True] * 20)
@example(program=["entry", "7", "entry", "sync", "entry", "entry", "pass", "undo", "sync"],
         lands=[True, False, False] * 13 + [True])
def test_any_interleaving_of_entries_and_syncs_swaps_only_durable_totals(
        launch: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        program: list[str], lands: list[bool]) -> None:
    """Keys, Enter and Undo as fast as fingers go; each commit's sync ends when the
    program says (`sync`), or within its frame's wait at the swap, or not (`lands`).
    At every swap the sheet's totals are the durable state's; at the end, the journal's."""
    from kivy.base import EventLoop

    from companion.games.pad.outcome import outcome
    from companion.games.pad.rules import RULES
    from companion.journal import Journal
    from companion.session import Session
    from ui import app as app_module
    from ui.screens.pad.common import number

    with monkeypatch.context() as patch:
        patch.setattr(app_module, "SWAP_HOLD", 30.0)  # `lands` says (`at_the_swap`)
        ui = launch(journal_file=tmp_path / f"{len(list(tmp_path.iterdir()))}.sqlite3")
        ad_hoc_pad(ui)
        app = ui.app
        session = app.session
        gate = SyncGate(app.writer)
        wrong: list[tuple[list[str], list[str]]] = []

        def durable_totals(state: Any) -> list[str]:
            return [number(total) for total in outcome(state).totals]

        def swapped(shown: list[str]) -> None:
            if shown != durable_totals(session.state):
                wrong.append((shown, durable_totals(session.state)))

        watch_frames(ui, patch, swapped)
        plan = iter(lands)

        def the_sync_ends_or_not() -> bool:
            if next(plan, True):
                gate.release()
                return True
            return False

        at_the_swap(patch, session, the_sync_ends_or_not)
        pad = app.root.get_screen("pad_play")
        for step in program:
            if step in ("7", "entry") and len(pad.typed) < 3:
                ui.tap("keypad.7", settle=False)
            if step in ("entry", "enter"):
                ui.tap("keypad.enter", settle=False)
            elif step == "undo" and not ui.visible("play.undo").disabled:
                ui.tap("play.undo", settle=False)
            elif step == "sync":
                gate.release()
            elif step == "pass":
                EventLoop.idle()
            assert ui.dialog is None, ui.text("error.text")
        gate.open()
        ui.wait_until(lambda: not app.busy)
        ui.pump(3)
        assert wrong == []
        assert [ui.text(f"sheet.total.{seat}") for seat in range(2)] == \
            durable_totals(session.state)
        journal = Journal(app.journal.path, read_only=True)
        try:
            replayed = Session.resume(RULES, journal, session.game_id).state
        finally:
            journal.close()
        assert replayed == session.state
