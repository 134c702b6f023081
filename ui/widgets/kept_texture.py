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

#: total texture pixels kept (4 bytes each): the card's sentences, the chips, the dice
BUDGET_PIXELS = 2_000_000
_KEPT: OrderedDict[tuple[Any, ...], tuple[Any, bool]] = OrderedDict()
_kept_pixels = 0


def _frozen(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    return value


def _key(core: Any) -> tuple[Any, ...]:
    # the options dict keeps Kivy's order of its keys; the font's name, boldness and
    # slant are there, and the file they resolve to (font_name_r) follows from them
    options = tuple((k, _frozen(v) if isinstance(v, list | tuple | dict) else v)
                    for k, v in core.options.items() if k != "font_name_r")
    return (type(core), core.text, _frozen(core.text_size), options)


def _keep(key: tuple[Any, ...], texture: Any, shortened: bool) -> None:
    global _kept_pixels
    _KEPT[key] = (texture, shortened)
    _kept_pixels += texture.width * texture.height
    while _kept_pixels > BUDGET_PIXELS and len(_KEPT) > 1:
        _, (old, _) = _KEPT.popitem(last=False)
        _kept_pixels -= old.width * old.height


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
            return
        key = _key(core)
        found = _KEPT.get(key)
        if found is not None:
            _KEPT.move_to_end(key)
            texture, shortened = found
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
