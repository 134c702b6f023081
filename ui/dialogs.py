"""Modal dialogs: big buttons, no keyboard. One dialog is open at a time; the
hardware OK button (and Enter) triggers the open dialog's default action."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.modalview import ModalView

from ui import theme
from ui.widgets.basics import Tap, Text

Action = Callable[[], Any]


class Dialog(ModalView):
    """A titled dialog. `default` is what the OK button does."""

    def __init__(self, title: str, tid: str, subtitle: str = "", **kwargs: Any) -> None:
        kwargs.setdefault("size_hint", (0.92, 0.9))
        super().__init__(auto_dismiss=False, background_color=(0, 0, 0, 0.7), **kwargs)
        self.tid = tid
        self.default: Action | None = None
        self.box = BoxLayout(orientation="vertical", padding=dp(10), spacing=dp(8))
        self.box.add_widget(Text(title, size=20, tid=f"{tid}.title", size_hint_y=None,
                                 height=dp(44), bold=True))
        if subtitle:
            self.box.add_widget(Text(subtitle, size=15, tid=f"{tid}.subtitle", size_hint_y=None,
                                     height=dp(52), color=theme.MUTED))
        self.add_widget(self.box)

    def add(self, widget: Any) -> Any:
        self.box.add_widget(widget)
        return widget

    def buttons(self, items: Sequence[tuple[str, str, Action]], cols: int = 0,
                height: float = 56) -> GridLayout:
        grid = GridLayout(cols=cols or len(items), spacing=dp(8), size_hint_y=None)
        rows = -(-len(items) // grid.cols)
        grid.height = rows * theme.touch(height) + (rows - 1) * dp(8)
        for text, tid, action in items:
            button = Tap(text, tid=tid, size_hint_y=None, height=theme.touch(height))
            button.bind(on_release=lambda _b, a=action: a())
            grid.add_widget(button)
        return self.add(grid)

    def confirm(self) -> None:
        if self.default is not None:
            self.default()

    def dismiss(self, *args: Any, **kwargs: Any) -> None:
        # no fade-out: a closing dialog must not swallow the next touch
        kwargs["animation"] = False
        super().dismiss(*args, **kwargs)


def open_dialog(dialog: Dialog) -> Dialog:
    app = App.get_running_app()
    app.open_dialog(dialog)
    return dialog


def message(title: str, text: str, tid: str = "message") -> Dialog:
    app = App.get_running_app()
    dialog = Dialog(title, tid, size_hint=(0.8, 0.6))
    dialog.add(Text(text, size=18, tid=f"{tid}.text"))
    dialog.buttons([(app.tr("core.ui.ok"), f"{tid}.ok", dialog.dismiss)])
    dialog.default = dialog.dismiss
    return open_dialog(dialog)


class NameKeyboard(Dialog):
    """An on-screen keyboard for a player's name: there is no keyboard at the table."""

    ROWS = ("AZERTYUIOP", "QSDFGHJKLM", "WXCVBN-'É")

    def __init__(self, title: str, initial: str, on_done: Callable[[str], None]) -> None:
        super().__init__(title, "keyboard")
        app = App.get_running_app()
        self.value = initial
        self.on_done = on_done
        self.shown = self.add(Text(initial, size=24, tid="keyboard.value", size_hint_y=None,
                                   height=dp(48), halign="center"))
        for row in self.ROWS:
            grid = GridLayout(cols=len(row), spacing=dp(4), size_hint_y=None,
                              height=theme.touch())
            for letter in row:
                key = Tap(letter, tid=f"keyboard.{letter}", size=20)
                key.bind(on_release=lambda _b, ch=letter: self.type(ch))
                grid.add_widget(key)
            self.add(grid)
        self.buttons([
            (app.tr("core.ui.space"), "keyboard.space", lambda: self.type(" ")),
            (app.tr("core.ui.delete"), "keyboard.delete", self.backspace),
            (app.tr("core.ui.clear"), "keyboard.clear", self.clear),
            (app.tr("core.ui.ok"), "keyboard.ok", self.done),
        ])
        self.default = self.done

    def type(self, ch: str) -> None:
        if len(self.value) < 20:
            # names read best capitalised: first letter upper, the rest lower
            starts_word = not self.value or self.value.endswith((" ", "-", "'"))
            self.value += ch if starts_word else ch.lower()
            self.shown.text = self.value

    def backspace(self) -> None:
        self.value = self.value[:-1]
        self.shown.text = self.value

    def clear(self) -> None:
        self.value = ""
        self.shown.text = ""

    def done(self) -> None:
        self.dismiss()
        self.on_done(self.value.strip())
