"""Labels whose text textures are kept and shared, by text and style.

A turn changes the same few texts back and forth: the phase chips gain and lose their
tick, each player's "pass the dice" comes back every round, the dice show the same
figures. Kivy renders a label's texture again at each change (layout, glyphs, upload),
which was most of a roll's text work. Here a texture, once rendered, is kept under
everything that decides its pixels, and any label showing that text in that style
draws the same texture. The kept textures are bounded by their total pixels.

Kivy's text provider reuses its texture for the next text of the same size and fills
it lazily, at its first draw. A kept texture is therefore filled at once and then taken
away from the provider, so that nothing ever draws over it."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from kivy.uix.label import Label

from companion.i18n import no_break

#: total texture pixels kept (4 bytes each: 24 MB): the card's sentences of a few games
#: (a game of 200 rolls met ~450 texts, 4.9 M pixels; 2 M evicted a text a roll), the
#: chips, the dice
BUDGET_PIXELS = 6_000_000
_KEPT: OrderedDict[tuple[Any, ...], tuple[Any, bool]] = OrderedDict()
_kept_pixels = 0


#: what the provider writes into its options itself: the first text (its text is keyed
#: apart), and what a render works out from the rest (the font's file, a space's width,
#: the size asked for, keyed apart as `text_size`)
_NOT_STYLE = ("text", "font_name_r", "space_width", "text_size")


def _style(core: Any) -> str:
    """Everything else that decides a text's pixels, in Kivy's fixed order of the
    options' keys: its repr is the cheapest exact key (values are strings, numbers and
    their lists)."""
    options = dict(core.options)
    for name in _NOT_STYLE:
        options.pop(name, None)
    return repr(options)


def _key(core: Any, style: str) -> tuple[Any, ...]:
    return (type(core), core.text, repr(core.text_size), style)


def _keep(key: tuple[Any, ...], texture: Any, shortened: bool) -> None:
    global _kept_pixels
    _KEPT[key] = (texture, shortened)
    _kept_pixels += texture.width * texture.height
    while _kept_pixels > BUDGET_PIXELS and len(_KEPT) > 1:
        _, (old, _) = _KEPT.popitem(last=False)
        _kept_pixels -= old.width * old.height


def kept_pixels() -> int:
    """The kept textures' pixels (the benchmark reports their memory)."""
    return _kept_pixels


def kept_count() -> int:
    """How many textures are kept (the tests read it)."""
    return len(_KEPT)


def forget_all() -> None:
    """Drop every kept texture (a change of fonts or of the GL context)."""
    global _kept_pixels
    _KEPT.clear()
    _kept_pixels = 0


class KeptLabel(Label):
    """A Kivy Label that draws a kept texture when its text and style were shown before.

    Its style's part of the key is worked out once and kept until a style property
    changes: a new text (most changes: a score, a total) costs a lookup, not the repr of
    some thirty options (a page of the score pad's sheet re-tells 48 cells)."""

    _style_key: str | None = None

    # the text drawn (and measured, `ui.widgets.text_height`) has no-break spaces where
    # a line must not break, before a colon or a unit (": finir la partie ?", "5 s");
    # the widget's text stays the one given
    def _create_label(self) -> None:
        super()._create_label()
        if isinstance(self._label.text, str):
            self._label.text = no_break(self._label.text)

    def _trigger_texture_update(self, name: Any = None, source: Any = None,
                                value: Any = None) -> None:
        if name == "text" and isinstance(value, str):
            value = no_break(value)
        if name != "text":  # a style changed (markup, a size, a colour...), or may have
            self._style_key = None
        super()._trigger_texture_update(name, source, value)

    def texture_update(self, *largs: Any) -> None:
        core = self._label
        if self.markup or not core.text:  # markup has references; empty: nothing to keep
            super().texture_update(*largs)
            return
        style = self._style_key
        if style is None:
            style = self._style_key = _style(core)
        key = _key(core, style)
        found = _KEPT.get(key)
        if found is not None:
            _KEPT.move_to_end(key)
            texture, shortened = found
            core.is_shortened = shortened  # the provider tells what is drawn, as after a render
            self.texture = texture
            self.texture_size = list(texture.size)
            self.is_shortened = shortened
            return
        super().texture_update(*largs)
        texture = self.texture
        if texture is None or texture is core.texture_1px or texture.width * texture.height <= 1:
            return
        texture.bind()  # fill it now, from this text, not at its first draw
        core.texture = None  # the provider's next text gets a texture of its own
        _keep(key, texture, bool(self.is_shortened))
