"""A dialog draws only what shows: the dimming around a dialog that keeps the screen in
view, and Kivy's background image behind an opaque body, are not drawn at all (under a
software renderer a transparent rectangle over the window still costs a fill of it); and
the question a roll raises, and the end screen of the roll that ends the game, come in
the frame after the roll's result."""

from __future__ import annotations

from typing import Any

import pytest

from tests.test_ui_evil import answer_dialogs, new_game

pytestmark = pytest.mark.ui


def _pixels(ui: Any, name: str) -> Any:
    from kivy.core.image import Image as CoreImage

    return CoreImage(str(ui.screenshot(name)), keep_data=True)


def _window_covering(dialog: Any) -> list[Any]:
    from kivy.core.window import Window
    from kivy.graphics import BorderImage, Rectangle

    return [i for i in dialog.canvas.children if isinstance(i, (Rectangle, BorderImage))
            and tuple(i.size) == tuple(Window.size)]


def test_a_side_dialog_leaves_the_card_as_it_was_and_draws_nothing_over_it(
        launch: Any) -> None:
    ui = launch(seed=20)
    new_game(ui, minutes=55)
    ui.wait_until(lambda: ui.app.root.get_screen("evil_play").warmed, timeout=30)
    screen = ui.app.root.get_screen("evil_play")
    card = ui.find("play.card")
    before = _pixels(ui, "side-dialog-before")
    dialog = screen.placement()
    dialog.show(ui.app.session.state, "red", None)
    ui.pump(3)
    assert ui.dialog is not None
    after = _pixels(ui, "side-dialog-after")
    # the turn card's side is untouched, pixel for pixel (nothing dims it)
    for fx in (0.1, 0.5, 0.9):
        for fy in (0.1, 0.5, 0.9):
            x, y = int(card.x + card.width * fx), int(card.y + card.height * fy)
            flipped = before.height - 1 - y  # the image's rows run top-down
            assert before.read_pixel(x, flipped) == after.read_pixel(x, flipped)
    # and the dialog holds no instruction over the whole window, nor an unseen image
    from kivy.graphics import BorderImage

    assert _window_covering(dialog) == []
    assert not any(isinstance(i, BorderImage) for i in dialog.canvas.children)
    ui.app.close_dialog()


def test_a_dialog_that_dims_the_screen_still_dims_it(launch: Any) -> None:
    from ui.dialogs import message

    ui = launch(seed=3)
    new_game(ui)
    home = ui.find("play.home")
    x, y = int(home.center_x), int(home.center_y)
    before = _pixels(ui, "dim-dialog-before")
    dialog = message("Title", "Text")
    ui.pump(3)
    after = _pixels(ui, "dim-dialog-after")
    assert not dialog.collide_point(x, y)  # the Home button is outside the dialog
    flipped = before.height - 1 - y
    lit, dimmed = before.read_pixel(x, flipped), after.read_pixel(x, flipped)
    assert sum(dimmed[:3]) < 0.6 * sum(lit[:3])  # the overlay's 0.6 black over it
    assert len(_window_covering(dialog)) == 1
    ui.app.close_dialog()


def test_a_roll_s_question_opens_the_frame_after_its_result(launch: Any) -> None:
    """The roll's result is drawn first, its question (here a power) in the next frame;
    meanwhile ROLL is already disabled, so no touch can roll again in between. The
    result is shown once the writer hands the roll back durable (see below)."""
    from kivy.base import EventLoop
    from kivy.tests.common import UnitTestTouch

    ui = launch(seed=7)
    new_game(ui, minutes=30)
    screen = ui.app.root.get_screen("evil_play")

    def enter(professor: str, colour: str, clock: str, last: bool = False) -> None:
        ui.tap("play.adjust")
        ui.tap("adjust.enter_roll")
        for die, face in (("professor", professor), ("colour", colour), ("clock", clock)):
            ui.tap(f"enter_roll.{die}.{face}")
        if not last:
            ui.tap("enter_roll.ok")
            return
        ok = ui.find("enter_roll.ok")
        touch = UnitTestTouch(*ok.to_window(*ok.center))
        touch.touch_down()
        ui.pump(1)
        # released as a finger's release is: read by the loop between its clock and
        # its drawing
        EventLoop._dispatch_input("end", touch)

    enter("chevron1", "red", "clock2")  # XII -> II
    turn = ui.app.session.state.turn
    enter("chevron1", "red", "clock2", last=True)  # II -> IV: past the power space III
    EventLoop.idle()  # the release read: the roll is made and goes to the writer
    # the frame of the result: the one in which the writer's hand-back is shown (at
    # once on a fast disk, frames later on a busy machine: waited for, never counted)
    ui.wait_until(lambda: not ui.app.busy, timeout=30)
    state = ui.app.session.state
    assert state.pending_powers and state.turn == turn + 1
    assert screen.roll_button.disabled
    assert ui.app.dialog is None
    EventLoop.idle()  # the next frame: the question
    assert ui.dialog == "power"


def test_the_last_roll_shows_its_result_then_the_end_screen_in_the_next_frame(
        launch: Any) -> None:
    """The roll that ends the game is drawn on the play screen first (the clock, the
    counts, ROLL disabled), and the end screen comes in the next frame, as a question
    does: the roll's frame waits for none of the end screen's drawing. The roll is shown
    once the writer hands it back durable: at once on a fast disk (`COMMIT_GRACE`),
    frames later on a busy machine; the test waits for that, never for a frame count."""
    from kivy.base import EventLoop
    from kivy.core.window import Window
    from kivy.tests.common import UnitTestTouch

    ui = launch(seed=11)
    new_game(ui, minutes=5)
    app = ui.app
    screen = app.root.get_screen("evil_play")
    drawn: list[tuple[str, Any]] = []  # each frame swapped in: the screen, the clock

    def flipped(_window: Any) -> None:
        view = screen.dial.view
        drawn.append((app.root.current, None if view is None else view.time))

    for _ in range(60):
        answer_dialogs(ui, 5)
        assert ui.screen == "evil_play" and app.dialog is None
        ui.wait_until(app.may_roll)  # as a person waits for the last result
        button = screen.roll_button
        touch = UnitTestTouch(*button.to_window(*button.center))
        touch.touch_down()
        ui.pump(1)
        EventLoop._dispatch_input("end", touch)  # as the loop reads a finger's release
        Window.bind(on_flip=flipped)
        drawn.clear()
        EventLoop.idle()  # the release read: the roll is made and goes to the writer
        # the frame of the result: the one in which the writer's hand-back is shown
        ui.wait_until(lambda: not app.busy, timeout=30)
        Window.unbind(on_flip=flipped)
        state = app.session.state
        if state.outcome is not None:
            break
        ui.pump(2)  # its question, if any, opens in the next frame
    else:
        pytest.fail("no game ended in 60 rolls")
    assert ui.screen == "evil_play"
    assert screen.roll_button.disabled
    # the clock as the last roll left it (the dice tumble, then show it)
    assert screen.dial.view is not None and screen.dial.view.time == state.time
    assert screen.lost_label.figure.text.startswith(str(len(state.lost)))
    assert drawn[-1] == ("evil_play", state.time)  # and that frame was swapped in
    EventLoop.idle()  # the next frame: the end
    assert ui.screen == "evil_end"
