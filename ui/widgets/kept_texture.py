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

from ui.widgets.texels import one_to_one

#: total texture pixels kept (4 bytes each: 24 MB): the card's sentences of a few games
#: (a game of 200 rolls met ~450 texts, 4.9 M pixels; 2 M evicted a text a roll), the
#: chips, the dice
BUDGET_PIXELS = 6_000_000
_KEPT: OrderedDict[tuple[Any, ...], tuple[Any, bool]] = OrderedDict()
_kept_pixels = 0


def _key(core: Any) -> tuple[Any, ...]:
    # the options dict holds the text's every style, in Kivy's fixed order of its keys:
    # its repr is the cheapest exact key (values are strings, numbers and their lists).
    # The font's file (font_name_r) follows from its name and is filled in at render.
    options = dict(core.options)
    options.pop("font_name_r", None)
    return (type(core), core.text, repr(core.text_size), repr(options))


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
    """A Kivy Label that draws a kept texture when its text and style were shown before."""

    def texture_update(self, *largs: Any) -> None:
        core = self._label
        if self.markup or not core.text:  # markup has references; empty: nothing to keep
            super().texture_update(*largs)
            if self.texture is not None:
                one_to_one(self.texture)  # drawn at its size on whole pixels (Kivy's rule)
            return
        key = _key(core)
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
        one_to_one(texture)  # drawn at its size on whole pixels (Kivy's rule)
        core.texture = None  # the provider's next text gets a texture of its own
        _keep(key, texture, bool(self.is_shortened))
