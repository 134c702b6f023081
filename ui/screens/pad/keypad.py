"""The score pad's keypad: digits, an explicit ± key, `+` to add up in the cell, delete
and Enter, in a column beside the sheet; above the keys, whose cell it is, what is
typed with its value, and the player's new total before it is committed.

Tags: `keypad.<digit>`, `keypad.pm`, `keypad.plus`, `keypad.point` (decimals only),
`keypad.del`, `keypad.enter`, `keypad.who`, `keypad.typed`, `keypad.preview`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from ui import theme
from ui.screens.castor.common import SYMBOL_FONT
from ui.screens.pad.common import set_text
from ui.widgets.basics import Tap, Text, TouchesWithin, follow_height, paint_background

ROWS = (("7", "8", "9", "del"), ("4", "5", "6", "plus"), ("1", "2", "3", "pm"))
SYMBOLS = {"del": "⌫", "plus": "+", "pm": "±", "point": "."}
PRESS = {"plus": "+", "point": "."}  # a key's name -> what `typing.press` takes


class Keypad(TouchesWithin, BoxLayout):
    """`on_key(key)` gets "0"-"9", "+", "pm", ".", "del" or "enter". `debounce`: a key
    tapped again within so many seconds is the same tap (a cheap panel's double
    contact), counted once."""

    def __init__(self, on_key: Callable[[str], Any], enter_text: str,
                 **kwargs: Any) -> None:
        super().__init__(orientation="vertical", spacing=dp(theme.SPACE_XS), **kwargs)
        self.on_key = on_key
        self.debounce = 0.0
        self._last: tuple[str, float] = ("", -1.0)
        shown = BoxLayout(orientation="vertical", padding=(dp(theme.SPACE_S), dp(2)))
        follow_height(shown, 116)
        paint_background(shown, theme.PANEL)
        # two lines: a long name and a category's name ("Science: compasses")
        self.who = Text("", size=theme.SIZE_SMALL, color=theme.MUTED, tid="keypad.who",
                        valign="top", size_hint_y=None, height=dp(46))
        self.typed = Text("", size=theme.SIZE_TITLE, bold=True, tid="keypad.typed",
                          halign="right", shorten=True, shorten_from="left")
        self.preview = Text("", size=theme.SIZE_SMALL, tid="keypad.preview", halign="right",
                            size_hint_y=None, height=dp(26))
        for label in (self.who, self.typed, self.preview):
            shown.add_widget(label)
        self.add_widget(shown)
        self.keys: dict[str, Tap] = {}
        for row in ROWS:
            line = BoxLayout(spacing=dp(theme.SPACE_XS))
            for key in row:
                line.add_widget(self._key(key))
            self.add_widget(line)
        last = BoxLayout(spacing=dp(theme.SPACE_XS))
        last.add_widget(self._key("0"))
        self.point = self._key("point")
        last.add_widget(self.point)
        enter = Tap(enter_text, size=theme.SIZE_BUTTON, bold=True, tid="keypad.enter",
                    background=theme.SUCCESS, size_hint_x=2)
        enter.bind(on_release=lambda _b: self._pressed("enter"))
        self.keys["enter"] = enter
        last.add_widget(enter)
        self.last_row = last
        self.add_widget(last)

    def _key(self, key: str) -> Tap:
        text = SYMBOLS.get(key, key)
        tap = Tap(text, size=theme.SIZE_TITLE, bold=True, tid=f"keypad.{key}",
                  font_name=SYMBOL_FONT if key in SYMBOLS else "Roboto")
        tap.bind(on_release=lambda _b: self._pressed(PRESS.get(key, key)))
        self.keys[key] = tap
        return tap

    def decimals(self, allowed: bool) -> None:
        """The point key only for a template that takes decimals."""
        if allowed and self.point.parent is None:
            self.last_row.add_widget(self.point, index=1)
        elif not allowed and self.point.parent is not None:
            self.last_row.remove_widget(self.point)

    def _pressed(self, key: str) -> None:
        now = time.monotonic()
        last_key, at = self._last
        self._last = (key, now)
        if key == last_key and now - at < self.debounce:
            return  # the same tap, counted twice by the panel
        self.on_key(key)

    def tell(self, who: str, typed: str, preview: str, error: bool = False) -> None:
        self.who.text = who
        set_text(self.typed, typed)  # "11 coins → 3"
        self.preview.text = preview
        self.preview.color = theme.DANGER_TEXT if error else theme.TEXT
