"""Mr. Bond's end: the winner(s) and why, every score as a key figure, the game's
story (captures, kills, the best kill), and a new game with the same players."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.uix.screenmanager import Screen

from companion.games.bond.instructions import outcome
from companion.games.bond.state import BondState
from companion.games.bond.story import story
from ui import theme
from ui.names import display_name
from ui.widgets.components import EndPage, ScoreLine, same_players


class BondEndScreen(Screen):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.page = EndPage()
        self.add_widget(self.page)

    def show(self, state: BondState) -> None:
        app = App.get_running_app()
        assert state.outcome is not None
        winners = state.outcome.winners
        title = "bond.ui.tie" if len(winners) > 1 else "bond.ui.victory"
        sentence = outcome(state)
        # best first; winners in the accent colour
        order = sorted(range(len(state.players)), key=lambda i: -state.players[i].score)
        scores = [ScoreLine(display_name(state.players[i].name), str(state.players[i].score),
                            winner=i in winners) for i in order]
        steps = app.session.steps if app.session is not None else []
        lines = [app.say(m) for m in story(state, (s.events for s in steps))]
        self.page.show(app.tr(title), theme.SUCCESS_TEXT,
                       app.say(sentence) if sentence else "", scores, lines, self.again,
                       caption=app.tr("bond.ui.final_points"))

    def again(self) -> None:
        session = App.get_running_app().session
        assert session is not None
        same_players("bond", session.setup["players"])
