"""The score pad's keypad: digits, an explicit ± key, `+` to add up in the cell, delete
and Enter, three keys wide in a column beside the sheet (the sheet keeps the width
for eight four-digit columns); above the keys, whose cell it is, what is typed with
its value, and the player's new total before it is committed.

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
from ui.widgets.basics import Tap, Text, TouchesWithin, follow_height, paint_background

ROWS = (("7", "8", "9"), ("4", "5", "6"), ("1", "2", "3"), ("pm", "0", "plus"))
GAP = 2  # px between keys: the sheet's grid gap (five rows of keys under the line)
SYMBOLS = {"del": "⌫", "plus": "+", "pm": "±", "point": "."}
PRESS = {"plus": "+", "point": "."}  # a key's name -> what `typing.press` takes


class Keypad(TouchesWithin, BoxLayout):
    """`on_key(key)` gets "0"-"9", "+", "pm", ".", "del" or "enter". `debounce`: a key
    tapped again within so many seconds is the same tap (a cheap panel's double
    contact), counted once."""

    def __init__(self, on_key: Callable[[str], Any], enter_text: str,
                 **kwargs: Any) -> None:
        super().__init__(orientation="vertical", spacing=dp(GAP), **kwargs)
        self.on_key = on_key
        self.debounce = 0.0
        self._last: tuple[str, float] = ("", -1.0)
        # the line above the keys takes the height they leave
        shown = BoxLayout(orientation="vertical", padding=(dp(theme.SPACE_XS), dp(2)))
        paint_background(shown, theme.PANEL)
        # one line: whose cell and its row, or whose alone (the cell is lit on the sheet)
        self.who = Text("", size=theme.SIZE_SMALL, color=theme.MUTED, tid="keypad.who",
                        size_hint_y=None, height=dp(22))
        self.typed = Text("", size=theme.SIZE_TITLE, bold=True, tid="keypad.typed",
                          halign="right", shorten=True, shorten_from="left")
        # two lines: "Nouveau total : 1048", "Type 0 for no points"
        self.preview = Text("", size=theme.SIZE_SMALL, tid="keypad.preview", halign="right",
                            valign="top", size_hint_y=None, height=dp(44))
        for label in (self.who, self.typed, self.preview):
            shown.add_widget(label)
        self._told: tuple[tuple[str, ...], str] = (("",), "")
        self.who.bind(width=self._fit, font_size=self._fit)
        self.typed.bind(width=self._fit)
        self.add_widget(shown)
        self.keys: dict[str, Tap] = {}
        for row in ROWS:
            line = follow_height(BoxLayout(spacing=dp(GAP)), theme.MIN_TOUCH)
            for key in row:
                line.add_widget(self._key(key))
            self.add_widget(line)
        last = follow_height(BoxLayout(spacing=dp(GAP)), theme.MIN_TOUCH)
        last.add_widget(self._key("del"))
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

    def _fit(self, *_: Any) -> None:
        """The who line and what is typed, each on one line at the width laid out: the
        who line's first form that fits, what is typed smaller (down to the smallest
        size) if need be."""
        from kivy.app import App

        from ui.screens.pad.sheet import _text_width, one_line

        forms, typed = self._told
        room = self.who.width
        self.who.text = next((text for text in forms
                              if _text_width(text, self.who.font_size, False) <= room),
                             forms[-1])
        scale = float(getattr(App.get_running_app(), "scale", 1.0))
        one_line(self.typed, typed, theme.SIZE_TITLE, scale, self.typed.width)

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

    def tell(self, who: str | tuple[str, ...], typed: str, preview: str,
             error: bool = False) -> None:
        """`who`: the line's text, or its forms longest first (the first that fits one
        line is shown: "Joueur 2 · Manche 1", else "Joueur 2")."""
        self._told = (who,) if isinstance(who, str) else tuple(who), typed
        self._fit()
        self.preview.text = preview
        self.preview.color = theme.DANGER_TEXT if error else theme.TEXT
