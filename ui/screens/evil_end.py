"""Victory and defeat."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.games.evil.state import EvilState
from ui import theme
from ui.screens.game_parts import end_bar
from ui.widgets.basics import Text


class EvilEndScreen(Screen):
    """Built once; each game's end only changes its two texts (the last roll of a game
    then draws no new widgets)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.box = BoxLayout(orientation="vertical", padding=dp(24), spacing=dp(12))
        self.title_label = Text(size=44, bold=True, halign="center", tid="end.title")
        self.text_label = Text(size=20, halign="center", tid="end.text")
        for widget in (self.title_label, self.text_label, end_bar("evil")):
            self.box.add_widget(widget)
        self.add_widget(self.box)

    def show(self, state: EvilState) -> None:
        app = App.get_running_app()
        won = state.outcome == "won"
        self.title_label.text = app.tr("evil.ui.won_title" if won else "evil.ui.lost_title")
        self.title_label.color = theme.SUCCESS if won else theme.DANGER
        if won:
            text = app.tr("evil.ui.won_text", n=len(state.recovered), turns=state.turn)
        else:
            text = app.tr("evil.ui.lost_text", n=len(state.lost), turns=state.turn)
        self.text_label.text = text

