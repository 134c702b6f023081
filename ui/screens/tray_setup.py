"""The dice tray's setup: tap the dice to put in the tray, then roll them.

Rolling starts a tray session (journaled like a game) and rolls at once; more dice
can be added or taken out on the tray itself.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen

from companion.games.tray.commands import Roll
from companion.games.tray.params import TrayParams
from ui import theme
from ui.widgets.basics import Tap, Text


def die_name(params: TrayParams, kind: str) -> str:
    return params.label(kind)


class TraySetupScreen(Screen):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.dice: list[str] = []
        self.box = BoxLayout(orientation="vertical", padding=dp(8), spacing=dp(8))
        self.add_widget(self.box)

    @property
    def params(self) -> TrayParams:
        return TrayParams.from_config(App.get_running_app().settings.get("games.tray"))

    def on_pre_enter(self, *_: Any) -> None:
        self.dice = []
        self.refresh()

    def refresh(self) -> None:
        app = App.get_running_app()
        p = self.params
        box = self.box
        box.clear_widgets()
        box.add_widget(Text(app.tr("night.ui.tray_setup_title"), size=22, bold=True,
                            size_hint_y=None, height=dp(40), tid="traysetup.title"))
        grid = GridLayout(cols=4, spacing=dp(8))
        full = len(self.dice) >= p.max_dice
        for kind in p.kinds:
            count = self.dice.count(kind)
            text = die_name(p, kind) + (f"  ×{count}" if count else "")
            # dark ink on green: white on it reads at 2.5:1 only
            button = Tap(text, tid=f"traysetup.add.{kind}", size=26, disabled=full,
                         background=theme.SUCCESS if count else theme.BUTTON)
            button.bind(on_release=lambda _b, k=kind: self.add(k))
            grid.add_widget(button)
        box.add_widget(grid)
        chosen = ", ".join(die_name(p, k) for k in self.dice) or app.tr("night.ui.tray_none")
        box.add_widget(Text(app.tr("night.ui.tray_chosen", dice=chosen, n=len(self.dice),
                                   max=p.max_dice),
                            size=18, tid="traysetup.chosen", size_hint_y=None, height=dp(52)))
        bottom = BoxLayout(spacing=dp(8), size_hint_y=None, height=theme.touch(60))
        back = Tap(app.tr("core.ui.back"), tid="traysetup.back", size_hint_x=0.25)
        back.bind(on_release=lambda _b: setattr(app.root, "current", "home"))
        clear = Tap(app.tr("core.ui.clear"), tid="traysetup.clear", size_hint_x=0.25,
                    disabled=not self.dice)
        clear.bind(on_release=lambda _b: self.clear())
        roll = Tap(app.tr("night.ui.tray_roll_n", n=len(self.dice)), tid="traysetup.roll",
                   size=24, background=theme.SUCCESS, size_hint_x=0.5,
                   disabled=not self.dice)
        roll.bind(on_release=lambda _b: self.start())
        for widget in (back, clear, roll):
            bottom.add_widget(widget)
        box.add_widget(bottom)

    def add(self, kind: str) -> None:
        if len(self.dice) < self.params.max_dice:
            self.dice.append(kind)
            self.refresh()

    def clear(self) -> None:
        self.dice = []
        self.refresh()

    def start(self) -> None:
        app = App.get_running_app()
        if app.start_game("tray", {"dice": list(self.dice)}) is not None:
            app.send(Roll())
