"""Texts and pictures read one texel a pixel (ui/widgets/texels.py): they are drawn at
their own size on whole pixels, so sampling them nearest, which a software renderer
does at a quarter of the texel reads, shows the table exactly the frame linear showed."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.ui


def _one_to_one_textures(screen: Any) -> dict[int, Any]:
    """The textures the play screen draws that must be shown one texel a pixel: every
    label's text, each die's picture, the dial's face and its markers."""
    from kivy.uix.label import Label

    from ui.widgets.dial import Dial
    from ui.widgets.dice import DieFace

    found: dict[int, Any] = {}
    for widget in screen.walk(restrict=True):
        if isinstance(widget, Label) and widget.texture is not None and widget.text:
            found[widget.texture.id] = widget.texture
        elif isinstance(widget, DieFace) and widget._shown is not None:
            for instruction in widget._shown.children:
                if getattr(instruction, "texture", None) is not None:
                    found[instruction.texture.id] = instruction.texture
        elif isinstance(widget, Dial):
            found[widget._face.texture.id] = widget._face.texture
            for _group, picture in widget._markers[:len(widget.view.markers)]:
                found[picture.texture.id] = picture.texture
    return found


def _frame() -> bytes:
    """The window's frame, drawn now and read before any swap."""
    from kivy.core.window import Window
    from kivy.graphics.opengl import GL_RGBA, GL_UNSIGNED_BYTE, glReadPixels

    Window.canvas.ask_update()
    Window.dispatch("on_draw")
    width, height = Window.size
    return bytes(glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE))


def _sample(textures: list[Any], how: str) -> None:
    for texture in textures:
        texture.mag_filter = texture.min_filter = how


def test_the_play_screen_s_texts_and_pictures_look_the_same_sampled_nearest(
        launch: Any) -> None:
    from tests.test_ui_evil import answer_dialogs, new_game

    ui = launch(seed=5)
    new_game(ui, minutes=30)
    for _ in range(3):
        ui.tap("play.roll")
        answer_dialogs(ui, 30)
    screen = ui.app.root.get_screen("evil_play")
    ui.wait_until(lambda: not screen.animating)  # the tumble ends on the result
    ui.pump(2)  # and is drawn
    textures = list(_one_to_one_textures(screen).values())
    # the card's sentences, the buttons, the chips, the dice, the dial: all of them
    assert len(textures) >= 25
    assert {(t.mag_filter, t.min_filter) for t in textures} == {("nearest", "nearest")}
    nearest = _frame()
    _sample(textures, "linear")
    try:
        linear = _frame()
    finally:
        _sample(textures, "nearest")
    differ = sum(a != b for a, b in zip(nearest, linear, strict=True))
    assert differ == 0, f"{differ} channels differ between nearest and linear sampling"


def test_a_text_off_the_pixel_grid_would_be_seen(launch: Any) -> None:
    """The comparison above can fail: a label moved half a pixel (its text then falls
    between pixels) looks different sampled nearest and linear."""
    from kivy.graphics import Translate

    from tests.test_ui_evil import new_game

    ui = launch(seed=5)
    new_game(ui, minutes=30)
    screen = ui.app.root.get_screen("evil_play")
    label = screen.turn_label
    shift, back = Translate(0.5, 0.5), Translate(-0.5, -0.5)
    label.canvas.before.add(shift)
    label.canvas.after.add(back)
    try:
        nearest = _frame()
        _sample([label.texture], "linear")
        linear = _frame()
    finally:
        _sample([label.texture], "nearest")
        label.canvas.before.remove(shift)
        label.canvas.after.remove(back)
    assert sum(a != b for a, b in zip(nearest, linear, strict=True)) > 100
