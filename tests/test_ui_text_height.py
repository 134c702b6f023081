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


@pytest.mark.parametrize("padding", [0, (4, 2), (3, 1, 5, 6)])
@pytest.mark.parametrize("line_height", [1.0, 1.2])
def test_a_line_that_fits_has_the_drawn_height_without_a_layout(
        window: None, monkeypatch: pytest.MonkeyPatch, padding: object,
        line_height: float) -> None:
    """A text on one line (the score pad's headline, new at each action) is measured by
    the font alone: the same height as drawn, at widths on either side of the text's
    own, where Kivy's layout starts to wrap it."""
    from kivy.uix.label import Label

    for text in ("Round 63: 3 scores missing (?)", "Manche 12 : en attente de Joueur 8",
                 "W", "Hg · ½"):
        for size in (14, 20, 26.5):
            probe = Label(text=text, font_size=size, padding=padding,
                          line_height=line_height)
            own = probe._label.get_extents(text)[0]
            for width in (own - 3, own, own + 1, own + 6, own + 11, own + 20, own + 40):
                label = Label(text=text, font_size=size, bold=size > 20, padding=padding,
                              line_height=line_height, halign="left")
                calls: list[int] = []
                render = label._label.render
                monkeypatch.setattr(label._label, "render",
                                    lambda *a, r=render, c=calls: c.append(1) or r(*a))
                measured = measure.text_height(label, width)
                monkeypatch.undo()
                label.text_size = (width, None)
                label.texture_update()
                assert measured == label.texture_size[1], (text, size, width)
                if width >= own + 20:  # room to spare beside the padding: no layout
                    assert calls == [], (text, size, width)


@pytest.mark.parametrize("padding", [0, (4, 2), (3, 1, 5, 6)])
@pytest.mark.parametrize("line_height", [1.0, 1.2])
def test_a_text_said_surely_taller_is_drawn_taller(window: None, padding: object,
                                                   line_height: float) -> None:
    """`surely_taller` measures the font alone: whatever it calls too long for a height
    is drawn taller than that height by Kivy's own layout, and it does call the score
    pad's headline naming seven waiting players too long for its two-line header."""
    from kivy.uix.label import Label

    names = ", ".join(f"Player {i}" for i in range(2, 9))
    texts = [f"Round 51: waiting for {names}", "Manche 12 : en attente de Joueur 8",
             "Round 63: 3 scores missing (?)", "W", "Wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww",
             TEXTS[0], TEXTS[2]]
    said = 0
    for text in texts:
        for size in (14, 20, 26.5):
            for width in (60, 120, 184, 260):
                for height in (20, 30, 56, 90):
                    label = Label(text=text, font_size=size, bold=size > 20,
                                  padding=padding, line_height=line_height, halign="left")
                    if not measure.surely_taller(label, text, width, height):
                        continue
                    said += 1
                    label.text_size = (width, None)
                    label.texture_update()
                    assert label.texture_size[1] > height, (text, size, width, height)
    assert said > 20
    header = Label(text="", font_size=20)
    assert measure.surely_taller(header, texts[0], 184, 56.5)
    assert not measure.surely_taller(header, texts[2], 184, 56.5)
