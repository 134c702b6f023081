"""A dialog draws only what shows: the dimming around a dialog that keeps the screen in
view, and Kivy's background image behind an opaque body, are not drawn at all (under a
software renderer a transparent rectangle over the window still costs a fill of it)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.test_ui_evil import new_game

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
