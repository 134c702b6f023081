"""Kept text textures: a text shown again in the same style draws the texture rendered
the first time, and no later text ever draws over a kept one."""

from __future__ import annotations

import pytest

from ui.widgets import kept_texture as kept

pytestmark = pytest.mark.ui


@pytest.fixture
def fresh() -> None:
    kept.forget_all()


def _renders(label: object, calls: list[str]) -> None:
    core = label._label  # type: ignore[attr-defined]
    refresh = core.refresh

    def counted() -> None:
        calls.append(core.text)
        refresh()

    core.refresh = counted


def test_a_text_shown_again_is_not_rendered_again(window: None, fresh: None) -> None:
    label = kept.KeptLabel(text="3 · Roll", font_size=18, bold=True)
    calls: list[str] = []
    _renders(label, calls)
    label.texture_update()
    first = label.texture
    label.text = "✓ 3 · Roll"
    label.texture_update()
    label.text = "3 · Roll"
    label.texture_update()
    assert calls == ["3 · Roll", "✓ 3 · Roll"]  # the third showing rendered nothing
    assert label.texture is first and label.texture_size == list(first.size)


def test_labels_of_one_text_and_style_share_a_texture(window: None, fresh: None) -> None:
    a = kept.KeptLabel(text="Anne: pass the dice to your left.", font_size=21)
    b = kept.KeptLabel(text="Anne: pass the dice to your left.", font_size=21)
    c = kept.KeptLabel(text="Anne: pass the dice to your left.", font_size=21, bold=True)
    d = kept.KeptLabel(text="Anne: pass the dice to your left.", font_size=21)
    d.text_size = (120, None)  # wrapped: another picture
    for label in (a, b, c, d):
        label.texture_update()
    assert a.texture is b.texture
    assert c.texture is not a.texture and c.texture.width > a.texture.width
    assert d.texture is not a.texture and d.texture.height > a.texture.height


def test_a_kept_texture_keeps_its_pixels(window: None, fresh: None) -> None:
    """Kivy's text provider draws its next text into its texture when the size is the
    same: a kept texture must be out of its reach, and filled at once."""
    label = kept.KeptLabel(text="55", font_size=38, bold=True)
    label.texture_update()
    texture = label.texture
    pixels = texture.pixels
    assert any(pixels[i + 3] for i in range(0, len(pixels), 4))  # glyphs, not blank
    label.text = "88"  # the same width and height in this font
    label.texture_update()
    assert label.texture is not texture and label.texture.size == texture.size
    _ = label.texture.pixels  # drawn
    assert texture.pixels == pixels
    assert label.texture.pixels != pixels


def test_the_kept_textures_stay_within_their_budget(window: None, fresh: None,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    label = kept.KeptLabel(text="0", font_size=30)
    label.texture_update()
    one = label.texture.width * label.texture.height
    monkeypatch.setattr(kept, "BUDGET_PIXELS", one * 3)
    for n in range(1, 10):
        label.text = str(n)
        label.texture_update()
    assert 1 <= kept.kept_count() <= 4
    label.text = "9"  # the newest is kept
    calls: list[str] = []
    _renders(label, calls)
    label.texture_update()
    assert calls == []
    label.text = "0"  # the oldest is gone: rendered again
    label.texture_update()
    assert calls == ["0"]


def test_markup_and_empty_texts_are_left_to_kivy(window: None, fresh: None) -> None:
    marked = kept.KeptLabel(text="[b]5[/b]", markup=True)
    marked.texture_update()
    empty = kept.KeptLabel(text="")
    empty.texture_update()
    assert kept.kept_count() == 0
    assert marked.texture is not None and empty.texture_size == [0, 0]


def test_a_kept_text_says_whether_it_was_shortened(window: None, fresh: None) -> None:
    """A label shown again at a width it had before draws that width's kept texture, and
    both it and its text provider say whether that picture is shortened (the screen
    audit reads the provider)."""
    name = "Clémence Nathan Goodspeed"
    label = kept.KeptLabel(text=name, font_size=22, shorten=True)
    label.text_size = (400, None)
    label.texture_update()  # wide enough: whole
    label.text_size = (60, None)
    label.texture_update()  # too narrow: shortened
    assert label.is_shortened and label._label.is_shortened
    label.text_size = (400, None)
    label.texture_update()  # the wide picture again, kept
    assert not label.is_shortened
    assert not label._label.is_shortened


def test_a_style_changed_after_a_text_draws_that_style(window: None, fresh: None) -> None:
    """The style's part of the key is kept between texts: changing the colour, the size
    or the disabled look of a label that showed a text draws the text in its new style,
    never the old picture; and the old style's picture comes back with the old style."""
    label = kept.KeptLabel(text="42", font_size=30, color=(1, 1, 1, 1))
    label.texture_update()
    white = label.texture
    label.text = "43"
    label.texture_update()
    label.text = "42"
    label.color = (1, 0, 0, 1)
    label.texture_update()
    red = label.texture
    assert red is not white
    label.font_size = 40
    label.texture_update()
    assert label.texture.height > red.height
    label.font_size = 30
    label.disabled = True  # drawn in disabled_color
    label.texture_update()
    assert label.texture is not red and label.texture is not white
    label.disabled = False
    label.texture_update()
    assert label.texture is red
    label.color = (1, 1, 1, 1)
    label.texture_update()
    assert label.texture is white
