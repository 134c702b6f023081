"""The end of a Castor game: the winner, or the players sharing the victory."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.games.castor import scoreboard
from companion.games.castor.state import CastorState
from ui import theme
from ui.screens.castor_common import SYMBOL_FONT
from ui.screens.castor_play import medals_text
from ui.widgets.basics import Tap, Text, follow_height


class CastorEndScreen(Screen):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.box = BoxLayout(orientation="vertical", padding=dp(20), spacing=dp(10))
        self.add_widget(self.box)

    def show(self, state: CastorState) -> None:
        app = App.get_running_app()
        board = scoreboard(state)
        shared = len(board.winners) > 1
        names = ", ".join(board.winners)
        self.box.clear_widgets()
        self.box.add_widget(Text(app.tr("castor.ui.shared_title" if shared
                                        else "castor.ui.won_title"),
                                 size=42, bold=True, halign="center", tid="end.title",
                                 color=theme.SUCCESS, size_hint_y=None, height=dp(70)))
        text = app.tr("castor.ui.shared_text" if shared else "castor.ui.won_text",
                      players=names, round=board.decided_round, medals=board.medals_to_win)
        self.box.add_widget(Text(text, size=22, halign="center", tid="end.text"))
        medals = "   ".join(f"{row.name} {medals_text(row.medals)}" for row in board.players)
        self.box.add_widget(Text(medals, size=18, halign="center", tid="end.medals",
                                 font_name=SYMBOL_FONT, color=theme.MUTED))
        row = follow_height(BoxLayout(spacing=dp(8)), theme.touch(64))
        undo = Tap(app.tr("core.ui.undo"), tid="end.undo")
        undo.bind(on_release=lambda _b: app.undo())
        board_button = Tap(app.tr("castor.ui.scoreboard"), tid="end.board")
        board_button.bind(on_release=lambda _b: setattr(app.root, "current", "castor_play"))
        home = Tap(app.tr("core.ui.home"), tid="end.home")
        home.bind(on_release=lambda _b: app.leave_game())
        again = Tap(app.tr("core.ui.new_game"), tid="end.new", background=theme.SUCCESS)
        again.bind(on_release=lambda _b: self.new_game())
        for widget in (undo, board_button, home, again):
            row.add_widget(widget)
        self.box.add_widget(row)

    def new_game(self) -> None:
        app = App.get_running_app()
        app.leave_game()
        app.root.current = "castor_setup"
