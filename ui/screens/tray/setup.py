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
from ui.widgets.components import option_button, setup_page


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
        chosen = ", ".join(die_name(p, k) for k in self.dice) or app.tr("night.ui.tray_none")
        dice, options = setup_page(
            self.box, app.tr("night.ui.tray_setup_title"), self.start, tid="traysetup",
            start_text=app.tr("night.ui.tray_roll_n", n=len(self.dice)),
            start_tid="traysetup.roll", start_disabled=not self.dice,
            note=app.tr("night.ui.tray_chosen", dice=chosen, n=len(self.dice), max=p.max_dice),
            split=0.66)
        # the note says which dice are in the tray: the test and the eye read it there
        grid = GridLayout(cols=4, spacing=dp(theme.SPACE_S))
        full = len(self.dice) >= p.max_dice
        for kind in p.kinds:
            count = self.dice.count(kind)
            text = die_name(p, kind) + (f"  ×{count}" if count else "")
            button = Tap(text, tid=f"traysetup.add.{kind}", size=theme.SIZE_TITLE,
                         disabled=full, background=theme.SELECTED if count else theme.BUTTON)
            button.bind(on_release=lambda _b, k=kind: self.add(k))
            grid.add_widget(button)
        dice.add_widget(grid)
        options.add_widget(option_button(app.tr("core.ui.clear"), "traysetup.clear",
                                         self.clear, disabled=not self.dice))
        options.add_widget(Text(app.tr("night.ui.tray_setup_hint"), size=theme.SIZE_SMALL,
                                color=theme.MUTED, tid="traysetup.hint", valign="top"))

    def add(self, kind: str) -> None:
        if len(self.dice) < self.params.max_dice:
            self.dice.append(kind)
            self.refresh()

    def clear(self) -> None:
        self.dice = []
        self.refresh()

    def start(self) -> None:
        app = App.get_running_app()
        # the first roll once the tray is open (the tray's row durable)
        app.start_game("tray", {"dice": list(self.dice)}, done=lambda _s: app.send(Roll()))
