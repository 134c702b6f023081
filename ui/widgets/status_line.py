"""A game's status line: what just happened, in a box of fixed height, so that no
button under or beside it moves between two taps (issue 29). The whole text is in the
game's log; here a long one goes to the smallest readable size, then gives up its
first sentences ("… " then the latest ones)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from kivy.app import App
from kivy.metrics import sp

from ui import theme
from ui.widgets.basics import Text, _follow_scale, follow_height
from ui.widgets.text_height import text_height

LINE_HEIGHT = 1.25  # a wrapped line's height over its font size (Roboto: ~1.17, kept)
ELLIPSIS = "… "


class StatusLine(Text):
    """`lines` lines of `size` text, whatever it is told (`say`); a long text goes down
    to `smallest` (what the table acts on stays at `theme.SIZE_ACT`)."""

    def __init__(self, tid: str, size: float = theme.SIZE_BODY, lines: int = 3,
                 smallest: float = theme.MIN_TEXT, **kwargs: Any) -> None:
        super().__init__("", size=size, tid=tid, valign="top", **kwargs)
        self.base = size
        self.smallest = min(size, smallest)
        self.set_lines(lines)
        self.sentences: tuple[str, ...] = ()
        self.bind(width=lambda *_: self._fit(), height=lambda *_: self._fit())

    def set_lines(self, lines: int) -> None:
        """The box's height in lines of its size (a screen sets it once per game)."""
        follow_height(self, lines * math.ceil(self.base * LINE_HEIGHT))

    @property
    def whole(self) -> str:
        """Everything it was told, as the log says it."""
        return " ".join(self.sentences)

    def say(self, sentences: Sequence[str]) -> None:
        self.sentences = tuple(s for s in sentences if s)
        self._fit()

    def _fit(self) -> None:
        width = self.width
        self.shorten = False
        scale = float(getattr(App.get_running_app(), "scale", 1.0))
        for size in dict.fromkeys((self.base, self.smallest)):
            if abs(self.font_size - sp(size) * scale) > 0.01:
                _follow_scale(self, size)
            for start in range(len(self.sentences)):
                text = (ELLIPSIS if start else "") + " ".join(self.sentences[start:])
                self.text = text
                if width <= 1 or text_height(self, width) <= self.height + 0.5:
                    return
        # a single sentence longer than the box at the smallest size: cut, the log has it
        self.text = (ELLIPSIS if len(self.sentences) > 1 else "") + (
            self.sentences[-1] if self.sentences else "")
        self.shorten = True
