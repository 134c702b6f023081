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
from typing import Any

import pytest

from tests.helpers.writer import SyncGate, committed_actions
from tests.uidriver import Driver

pytestmark = pytest.mark.ui


@pytest.fixture(autouse=True)
def instant_release() -> Any:
    """Buttons release on touch-up (Kivy otherwise holds a quick tap's release)."""
    from kivy.config import Config

    before = Config.get("graphics", "min_state_time")
    Config.set("graphics", "min_state_time", "0")
    yield
    Config.set("graphics", "min_state_time", before)


class Screen:
    """What each buffer swap put on screen: Player 1's total and the actions the file
    held at that moment."""

    def __init__(self, ui: Driver, monkeypatch: pytest.MonkeyPatch) -> None:
        from kivy.core.window import Window

        self.ui = ui
        self.path = ui.app.journal.path
        self.swaps: list[tuple[str, int]] = []
        swap = Window.flip

        def flip() -> None:
            self.swaps.append((ui.text("sheet.total.0"), committed_actions(self.path)))
            swap()

        monkeypatch.setattr(Window, "flip", flip)

    def in_file(self) -> int:
        return committed_actions(self.path)


def ad_hoc_pad(ui: Driver) -> None:
    ui.tap("home.game.pad")
    ui.tap("setup.start")
    assert ui.screen == "pad_play" and ui.text("keypad.who") == "Player 1 · Round 1"
    assert ui.text("sheet.total.0") == "0"


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
    from ui import app as app_module

    monkeypatch.setattr(app_module, "SWAP_HOLD", 60.0)  # the sync ends when the gate opens
    ui = launch()
    ad_hoc_pad(ui)
    app = ui.app
    screen = Screen(ui, monkeypatch)
    gate = SyncGate(app.writer)
    before = screen.in_file()
    session = app.session
    at_swap: list[tuple[str, str, bool, int, int]] = []
    wait = session.wait_for_commit

    def the_frame_waits(timeout: float) -> bool:
        # the frame showing the entry is drawn; the card is still syncing it
        at_swap.append((ui.text("sheet.total.0"), ui.text("keypad.who"),
                        app.root.get_screen("pad_play").undo_button.disabled,
                        screen.in_file(), len(screen.swaps)))
        gate.release()
        return wait(timeout)

    monkeypatch.setattr(session, "wait_for_commit", the_frame_waits)
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
    from ui import app as app_module

    monkeypatch.setattr(app_module, "SWAP_HOLD", 0.0)  # the frame never waits
    ui = launch()
    ad_hoc_pad(ui)
    app = ui.app
    screen = Screen(ui, monkeypatch)
    gate = SyncGate(app.writer)
    before = screen.in_file()
    pad = app.root.get_screen("pad_play")
    taken_back: list[str] = []
    take_back = pad.take_back_early

    def taking_back() -> None:
        taken_back.append(ui.text("sheet.total.0"))  # the entry was drawn, not swapped
        take_back()

    monkeypatch.setattr(pad, "take_back_early", taking_back)
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


def test_a_sync_that_fails_never_shows_the_score_and_says_why(
        launch: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from ui import app as app_module

    monkeypatch.setattr(app_module, "SWAP_HOLD", 60.0)
    ui = launch()
    ad_hoc_pad(ui)
    app = ui.app
    screen = Screen(ui, monkeypatch)
    gate = SyncGate(app.writer, fail=sqlite3.OperationalError("database or disk is full"))
    before = screen.in_file()
    session = app.session
    wait = session.wait_for_commit

    def the_sync_fails(timeout: float) -> bool:
        gate.release()
        return wait(timeout)

    monkeypatch.setattr(session, "wait_for_commit", the_sync_fails)
    ui.tap("keypad.7")
    release_enter(ui)
    ui.pump(2)
    assert ui.dialog == "error" and "database or disk is full" in ui.text("error.text")
    assert ui.text("sheet.total.0") == "0" and ui.text("keypad.who") == "Player 1 · Round 1"
    assert screen.in_file() == before and not session.can_undo()
    assert all(total == "0" for total, _count in screen.swaps)
    # the table goes on: the same score entered again, the card writing again
    ui.app.close_dialog()
    gate.open()
    ui.tap("keypad.7")
    ui.tap("keypad.enter")
    assert ui.text("sheet.total.0") == "7" and screen.in_file() == before + 1
