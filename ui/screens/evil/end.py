"""The end of a Pr. Evil game on the shared end page: the outcome large, the treasures
recovered and lost (key figures, with their colours), the last roll's dice after a
defeat, the game's story in a few lines, and a new game with the same players."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.games.evil.dice import DICE
from companion.games.evil.state import EvilState
from companion.games.evil.story import story
from ui import theme
from ui.screens.evil.card import Badge
from ui.widgets.basics import Text, find, follow_height, follow_width
from ui.widgets.components import EndPage, ScoreLine, same_players
from ui.widgets.dice import DieFace

CHIP = 40  # px at 800x480: a treasure's colour chip
DIE = 60  # px at 800x480: the last roll's dice (their faces' text a key figure)


class EvilEndPage(EndPage):
    """The shared end page, whose scores column shows the treasures and the last roll
    (a cooperative game has no per-player scores)."""

    summary: Widget | None = None

    def _scores(self, scores: Sequence[ScoreLine]) -> Any:
        return self.summary if self.summary is not None else super()._scores(scores)


class EvilEndScreen(Screen):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.page = EvilEndPage()
        self.add_widget(self.page)
        self.dice: dict[str, DieFace] = {}
        self.story: list[Any] = []

    def show(self, state: EvilState) -> None:
        app = App.get_running_app()
        session = app.session
        won = state.outcome == "won"
        treasures = state.recovered if won else state.lost
        text = app.tr("evil.ui.won_text" if won else "evil.ui.lost_text", n=len(treasures))
        self.page.summary = self._summary(state)
        lines = story(state, session.steps if session is not None else (),
                      lambda name: app.tr(f"evil.colour.{name}"))
        self.page.show(app.tr("evil.ui.won_title" if won else "evil.ui.lost_title"),
                       theme.SUCCESS_TEXT if won else theme.DANGER_TEXT, text, [],
                       [app.say(line) for line in lines], self.again,
                       caption=app.tr("evil.ui.final_board"))
        self.story = [label for k in range(len(lines))
                      if (label := find(self.page, f"end.story.{k}")) is not None]
        for label in self.story:  # a story line takes the lines it needs, no more
            label.size_hint_y = None
            label.bind(width=self._fit_story)
        Clock.schedule_once(self._fit_story)

    def _fit_story(self, *_: Any) -> None:
        """The story fits its column: its lines at the body size, else at the smallest
        size; at that size the last lines (difficulty, powers) give way before any is
        cut off."""
        if not self.story or self.story[0].parent is None:
            return
        column = self.story[0].parent
        scale = float(getattr(App.get_running_app(), "scale", 1.0))
        for size in (theme.SIZE_BODY, theme.SIZE_SMALL):
            for label in self.story:
                label.opacity = 1
                label.font_size = sp(size) * scale
                _fit_height(label)
            if _content(column) <= column.height + 1:
                return
        for label in reversed(self.story[1:]):
            if _content(column) <= column.height + 1:
                return
            label.opacity, label.height = 0, 0

    def _summary(self, state: EvilState) -> BoxLayout:
        """Recovered and lost as key figures with a chip per treasure; after a defeat,
        the dice of the roll that decided it."""
        app = App.get_running_app()
        p = state.params
        box = BoxLayout(orientation="vertical", spacing=dp(theme.SPACE_S))
        for kind, treasures, total, ink in (
                ("recovered", state.recovered, p.recovered_to_win, theme.SUCCESS_TEXT),
                ("lost", state.lost, p.lost_to_lose, theme.DANGER_TEXT)):
            row = follow_height(BoxLayout(spacing=dp(theme.SPACE_S)), dp(52))
            row.add_widget(follow_width(
                Text(app.tr(f"evil.ui.{kind}_caption"), size=theme.SIZE_BODY, bold=True,
                     color=ink, tid=f"end.{kind}.caption"), 118))
            row.add_widget(follow_width(
                Text(app.tr("evil.ui.count", n=len(treasures), total=total),
                     size=theme.SIZE_FIGURE, bold=True, color=ink, tid=f"end.{kind}"), 76))
            chips = BoxLayout(spacing=dp(theme.SPACE_XS))
            scale = float(getattr(app, "scale", 1.0))
            for i, treasure in enumerate(treasures):
                chips.add_widget(Badge(app.tr(f"evil.letter.{treasure.colour}"),
                                       theme.colour(treasure.colour),
                                       tid=f"end.{kind}.chip.{i}",
                                       size=(dp(CHIP) * scale, dp(CHIP) * scale),
                                       pos_hint={"center_y": 0.5}))
            chips.add_widget(Widget())
            row.add_widget(chips)
            box.add_widget(row)
        self.dice = {}
        roll = state.last_roll
        if state.outcome == "lost" and roll is not None:
            box.add_widget(Text(app.tr("evil.ui.final_roll"), size=theme.SIZE_SMALL, bold=True,
                                color=theme.MUTED, tid="end.roll.caption", size_hint_y=None,
                                height=dp(24)))
            row = follow_height(BoxLayout(spacing=dp(theme.SPACE_S)), dp(DIE))
            for die in DICE:
                face = getattr(roll, die)
                widget = follow_width(DieFace(die, white=die != "clock"), DIE)
                widget.tid = f"end.die.{die}"
                widget.show(face, app.tr(f"evil.letter.{face}") if die == "colour" else "")
                self.dice[die] = widget
                row.add_widget(widget)
            row.add_widget(Widget())
            box.add_widget(row)
        box.add_widget(Widget())
        return box

    def again(self) -> None:
        """The same seats in the same order, each with their character, and the same
        difficulty, on a new game's setup."""
        app = App.get_running_app()
        session = app.session
        assert session is not None
        setup = app.root.get_screen("evil_setup")
        setup.next_difficulty_after = session.state.difficulty or None
        same_players("evil", session.setup["players"])


def _content(column: Any) -> float:
    """The height a vertical box's children take (its filler, with a size hint, none)."""
    shown = [c for c in column.children if c.size_hint_y is None]
    return sum(c.height for c in shown) + column.spacing * max(0, len(shown) - 1) \
        + column.padding[1] + column.padding[3]


def _fit_height(label: Any, *_: Any) -> None:
    label.text_size = (label.width, None)
    label.texture_update()
    label.height = label.texture_size[1]
