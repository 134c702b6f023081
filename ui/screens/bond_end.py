"""Mr. Bond's victory screen: the winner(s), why, and every score."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen

from companion.games.bond.instructions import outcome
from companion.games.bond.state import BondState
from ui import theme
from ui.screens.game_parts import end_bar
from ui.widgets.basics import Text


class BondEndScreen(Screen):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.box = BoxLayout(orientation="vertical", padding=dp(16), spacing=dp(8))
        self.add_widget(self.box)

    def show(self, state: BondState) -> None:
        app = App.get_running_app()
        assert state.outcome is not None
        winners = state.outcome.winners
        self.box.clear_widgets()
        title = "bond.ui.tie" if len(winners) > 1 else "bond.ui.victory"
        self.box.add_widget(Text(app.tr(title), size=40, bold=True, halign="center",
                                 color=theme.SUCCESS, tid="end.title", size_hint_y=None,
                                 height=dp(60)))
        sentence = outcome(state)
        self.box.add_widget(Text(app.say(sentence) if sentence else "", size=20,
                                 halign="center", tid="end.text", size_hint_y=None,
                                 height=dp(60)))
        self.box.add_widget(Text(app.tr("bond.ui.final_scores"), size=16, color=theme.MUTED,
                                 halign="center", size_hint_y=None, height=dp(24)))
        # best first; winners in the accent colour
        order = sorted(range(len(state.players)), key=lambda i: -state.players[i].score)
        scores = GridLayout(cols=2 if len(order) > 3 else 1, spacing=dp(2))
        for i in order:
            player = state.players[i]
            scores.add_widget(Text(f"{player.name}   {app.tr('bond.ui.score', score=player.score)}",
                                   size=22, bold=i in winners, halign="center",
                                   color=theme.ACCENT if i in winners else theme.TEXT,
                                   tid=f"end.score.{i}"))
        self.box.add_widget(scores)
        self.box.add_widget(end_bar("bond"))

