"""The end of a score pad game: the winners (every tied winner a winner; the table's
win or loss in a co-operative game), each player's rank and total best first, a few
lines of the game's story, and a new game with the same players and template."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.uix.screenmanager import Screen

from ui import theme
from ui.names import display_name
from ui.screens.pad.common import label, number
from ui.widgets.basics import Tap
from ui.widgets.components import EndPage, ScoreLine, same_players


class PadEndScreen(Screen):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.page = EndPage()
        self.add_widget(self.page)

    def show(self, state: Any) -> None:
        from companion.games.pad.view import standings_view

        app = App.get_running_app()
        view = standings_view(state)
        winners = [display_name(name) for name in view.winners]
        template = state.template
        if template.win == "coop":
            won = bool(state.coop_won)
            title = app.tr("pad.ui.coop_won_title" if won else "pad.ui.coop_lost_title")
            colour = theme.SUCCESS_TEXT if won else theme.DANGER_TEXT
        elif any(set(tie.names) & set(view.winners) for tie in view.ties):
            # tied for the win, its question still to answer: no winner yet
            title = app.tr("pad.ui.tied_title", players=", ".join(winners))
            colour = theme.TEXT
        else:
            title = app.tr("pad.ui.won_title" if len(winners) == 1 else "pad.ui.shared_title",
                           players=", ".join(winners))
            colour = theme.SUCCESS_TEXT
        # the end condition when there was one ("Ann reached 100"), else the sheet's name
        text = app.say(view.end) if view.end is not None else label(template.name)
        scores = []
        for entry in view.entries:
            rank = "–" if entry.rank is None else app.tr("pad.ui.rank", n=entry.rank)
            figure = number(entry.total) if entry.total is not None else rank
            scores.append(ScoreLine(display_name(entry.name), figure,
                                    rank if entry.total is not None else "",
                                    entry.winner))
        sheet = Tap(app.tr("pad.ui.sheet"), size=theme.SIZE_BUTTON, tid="end.sheet")
        sheet.bind(on_release=lambda _b: setattr(app.root, "current", "pad_play"))
        story = self.story(state)
        if view.tie is not None:  # how the tie for the win went, first
            story.insert(0, app.say(view.tie))
        self.page.show(title, colour, text, scores, story, self.again,
                       extra=[sheet], caption=app.tr("pad.ui.final_scores"))

    def story(self, state: Any) -> list[str]:
        app = App.get_running_app()
        lines = []
        if state.template.shape == "rounds":
            lines.append(app.tr("pad.ui.story.rounds", n=len(state.rounds)))
        start = state.players[state.start_player].name
        lines.append(app.tr("pad.ui.story.start_drawn" if state.start_drawn
                            else "pad.ui.story.start_chosen", player=start))
        return lines

    def again(self) -> None:
        session = App.get_running_app().session
        assert session is not None
        setup = App.get_running_app().root.get_screen("pad_setup")
        setup.pending_template = dict(session.setup.get("template") or {})
        same_players("pad", session.setup["players"])
