"""The end of a Castor game: the winner (or the players sharing the victory), every
player's medals and points, the game's story (each round's medals, the best round),
and a new game with the same players."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.uix.screenmanager import Screen

from companion.games.castor import scoreboard
from companion.games.castor.state import CastorState
from companion.games.castor.story import story
from ui import theme
from ui.names import display_name
from ui.screens.castor.common import SYMBOL_FONT
from ui.screens.castor.play import medals_text
from ui.widgets.basics import Tap
from ui.widgets.components import EndPage, ScoreLine, same_players


class CastorEndScreen(Screen):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.page = EndPage()
        self.add_widget(self.page)

    def show(self, state: CastorState) -> None:
        app = App.get_running_app()
        board = scoreboard(state)
        shared = len(board.winners) > 1
        text = app.tr("castor.ui.shared_text" if shared else "castor.ui.won_text",
                      players=", ".join(board.winners), round=board.decided_round,
                      n=board.medals_to_win)
        totals = [sum(c.cells[seat].total for c in board.rounds if c.counts)
                  for seat in range(len(board.players))]
        order = sorted(range(len(board.players)),
                       key=lambda s: (-board.players[s].medals, -totals[s]))
        scores = [ScoreLine(display_name(board.players[s].name),
                            medals_text(board.players[s].medals),
                            app.tr("castor.ui.points", n=totals[s]),
                            board.players[s].winner, SYMBOL_FONT) for s in order]
        board_button = Tap(app.tr("castor.ui.scoreboard"), size=theme.SIZE_BUTTON,
                           tid="end.board")
        board_button.bind(on_release=lambda _b: setattr(app.root, "current", "castor_play"))
        self.page.show(app.tr("castor.ui.shared_title" if shared else "castor.ui.won_title"),
                       theme.SUCCESS_TEXT, text, scores,
                       [app.say(m) for m in story(state)], self.again, extra=[board_button],
                       caption=app.tr("castor.ui.final_medals"))

    def again(self) -> None:
        session = App.get_running_app().session
        assert session is not None
        same_players("castor", session.setup["players"])
