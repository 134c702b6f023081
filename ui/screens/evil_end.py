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
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.box = BoxLayout(orientation="vertical", padding=dp(24), spacing=dp(12))
        self.add_widget(self.box)

    def show(self, state: EvilState) -> None:
        app = App.get_running_app()
        won = state.outcome == "won"
        self.box.clear_widgets()
        self.box.add_widget(Text(app.tr("evil.ui.won_title" if won else "evil.ui.lost_title"),
                                 size=44, bold=True, halign="center", tid="end.title",
                                 color=theme.SUCCESS if won else theme.DANGER))
        text = app.tr("evil.ui.won_text", n=len(state.recovered), turns=state.turn) if won \
            else app.tr("evil.ui.lost_text", n=len(state.lost), turns=state.turn)
        self.box.add_widget(Text(text, size=20, halign="center", tid="end.text"))
        self.box.add_widget(end_bar("evil"))

