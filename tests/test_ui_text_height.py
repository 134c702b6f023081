"""`text_height`: the height Kivy's layout gives a wrapped text, without drawing it, is
the height of the texture the label then draws."""

from __future__ import annotations

import pytest

from ui.widgets import text_height as measure

pytestmark = pytest.mark.ui

TEXTS = [
    "Dé noir : le marqueur de temps avance de 2 crans, maintenant sur IV.",
    "Black die: the time marker goes 1 step clockwise, now on I.",
    "Joueur 3 (Leroy Johnson) : piochez 2 cartes Action, jusqu'à 3 actions et une carte "
    "Action, puis LANCER.",
    "Court",
    "",
]


@pytest.mark.parametrize("width", [120, 260, 434])
@pytest.mark.parametrize("size", [18, 21, 38])
@pytest.mark.parametrize("bold", [False, True])
def test_the_measured_height_is_the_drawn_height(window: None, width: int, size: int,
                                                 bold: bool) -> None:
    from kivy.uix.label import Label

    for text in TEXTS:
        label = Label(text=text, font_size=size, bold=bold, halign="left")
        measured = measure.text_height(label, width)
        label.text_size = (width, None)
        label.texture_update()
        assert measured == (label.texture_size[1] if text else 0), (text, width, size)


def test_a_text_is_laid_out_once_and_kept(window: None,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from kivy.uix.label import Label

    label = Label(text=TEXTS[0], font_size=19)
    first = measure.text_height(label, 300)
    calls: list[int] = []
    render = label._label.render
    monkeypatch.setattr(label._label, "render", lambda *a: calls.append(1) or render(*a))
    assert measure.text_height(label, 300) == first and calls == []  # kept
    label.font_size = 30  # another size is another layout, and taller
    assert measure.text_height(label, 300) > first and calls == [1]
    # the label's own wrapping is left as it was
    assert label.text_size == [None, None]
