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
from ui.widgets.basics import Text, follow_height, follow_width
from ui.widgets.components import EndPage, ScoreLine, same_players
from ui.widgets.dice import DieFace

CHIP = 40  # px at 800x480: a treasure's colour chip
STORY_LINES = 5  # the most a story tells: turns, recovered, lost, powers, difficulty
DIE = 60  # px at 800x480: the last roll's dice (their faces' text a key figure)


class EvilEndPage(EndPage):
    """The shared end page, whose scores column shows the treasures and the last roll
    (a cooperative game has no per-player scores)."""

    summary: Widget | None = None

    def _scores(self, scores: Sequence[ScoreLine]) -> Any:
        return self.summary if self.summary is not None else super()._scores(scores)


class EvilEndScreen(Screen):
    """Built while the table plays (`prepare`, half a second into a game), so that the
    roll that ends the game only re-tells it."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.page = EvilEndPage()
        self.add_widget(self.page)
        self.dice: dict[str, DieFace] = {}
        self.story: list[Any] = []
        self.summary: Summary | None = None
        self._fit_soon = Clock.create_trigger(self._fit_story)

    def prepare(self, state: EvilState) -> None:
        """The page, its summary and its story lines, for a game like this one."""
        if self.summary is None:
            self.summary = Summary()
        self.summary.prepare(state)
        self.page.summary = self.summary
        self.page.build(STORY_LINES)
        for label in self.page.story_labels:
            if not getattr(label, "fits_story", False):
                # a story line takes the lines it needs, no more
                label.fits_story = True
                label.size_hint_y = None
                label.bind(width=self._fit_story)

    def rehearse(self, state: EvilState) -> None:
        """Told once while the table plays, off screen, as the game's end would be (its
        story without the powers, which would read every step): each text is then
        rendered at the width it shows at, and the roll that ends the game renders only
        what differs."""
        self.show(state, steps=())

    def show(self, state: EvilState, steps: Sequence[Any] | None = None) -> None:
        app = App.get_running_app()
        session = app.session
        won = state.outcome == "won"
        treasures = state.recovered if won else state.lost
        text = app.tr("evil.ui.won_text" if won else "evil.ui.lost_text", n=len(treasures))
        if steps is None:
            steps = session.steps if session is not None else ()
        lines = story(state, steps, lambda name: app.tr(f"evil.colour.{name}"))
        self.page.build(len(lines))
        self.prepare(state)
        assert self.summary is not None
        self.dice = self.summary.show(state)
        self.page.show(app.tr("evil.ui.won_title" if won else "evil.ui.lost_title"),
                       theme.SUCCESS_TEXT if won else theme.DANGER_TEXT, text, [],
                       [app.say(line) for line in lines], self.again,
                       caption=app.tr("evil.ui.final_board"))
        self.story = self.page.shown_story()
        self._fit_soon()

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

    def again(self) -> None:
        """The same seats in the same order, each with their character, and the same
        difficulty, on a new game's setup."""
        app = App.get_running_app()
        session = app.session
        assert session is not None
        setup = app.root.get_screen("evil_setup")
        setup.next_difficulty_after = session.state.difficulty or None
        same_players("evil", session.setup["players"])


class Summary(BoxLayout):
    """Recovered and lost as key figures with a chip per treasure; after a defeat, the
    dice of the roll that decided it. Built once (chips for the most treasures a game
    can count), re-told by `show`."""

    def __init__(self) -> None:
        super().__init__(orientation="vertical", spacing=dp(theme.SPACE_S))
        app = App.get_running_app()
        self.chips: dict[str, BoxLayout] = {}
        self.chip_pool: dict[str, list[Badge]] = {}
        self.counts: dict[str, Text] = {}
        for kind, ink in (("recovered", theme.SUCCESS_TEXT), ("lost", theme.DANGER_TEXT)):
            row = follow_height(BoxLayout(spacing=dp(theme.SPACE_S)), dp(52))
            row.add_widget(follow_width(
                Text(app.tr(f"evil.ui.{kind}_caption"), size=theme.SIZE_BODY, bold=True,
                     color=ink, tid=f"end.{kind}.caption"), 118))
            self.counts[kind] = follow_width(
                Text("", size=theme.SIZE_FIGURE, bold=True, color=ink, tid=f"end.{kind}"), 76)
            row.add_widget(self.counts[kind])
            self.chips[kind] = BoxLayout(spacing=dp(theme.SPACE_XS))
            self.chip_pool[kind] = []
            row.add_widget(self.chips[kind])
            self.add_widget(row)
        self.chips_end = {kind: Widget() for kind in self.chips}
        self.roll_caption = Text(app.tr("evil.ui.final_roll"), size=theme.SIZE_SMALL,
                                 bold=True, color=theme.MUTED, tid="end.roll.caption",
                                 size_hint_y=None, height=dp(24))
        self.roll_row = follow_height(BoxLayout(spacing=dp(theme.SPACE_S)), dp(DIE))
        self.dice: dict[str, DieFace] = {}
        for die in DICE:
            widget = follow_width(DieFace(die, white=die != "clock"), DIE)
            widget.tid = f"end.die.{die}"
            self.dice[die] = widget
            self.roll_row.add_widget(widget)
        self.roll_row.add_widget(Widget())
        self.add_widget(Widget())

    def prepare(self, state: EvilState) -> None:
        """Chips for every treasure this game can count: the deciding roll may take
        every treasure in play past the losing count."""
        p = state.params
        most = {"recovered": p.recovered_to_win + len(p.colours),
                "lost": p.lost_to_lose + len(p.colours)}
        # a pool per side of the count ("recovered", "lost")
        for side, pool in self.chip_pool.items():
            while len(pool) < max(most[side], len(state.recovered if side == "recovered"
                                                     else state.lost)):
                pool.append(Badge("", theme.BUTTON, tid=f"end.{side}.chip.{len(pool)}",
                                  pos_hint={"center_y": 0.5}))

    def show(self, state: EvilState) -> dict[str, DieFace]:
        """Tell this game's end; the dice shown (after a defeat), by die."""
        app = App.get_running_app()
        p = state.params
        self.prepare(state)
        scale = float(getattr(app, "scale", 1.0))
        for kind, treasures, total in (("recovered", state.recovered, p.recovered_to_win),
                                       ("lost", state.lost, p.lost_to_lose)):
            self.counts[kind].text = app.tr("evil.ui.count", n=len(treasures), total=total)
            chips = self.chips[kind]
            chips.clear_widgets()
            for badge, treasure in zip(self.chip_pool[kind], treasures, strict=False):
                badge.paint(app.tr(f"evil.letter.{treasure.colour}"),
                            theme.colour(treasure.colour))
                badge.size = (dp(CHIP) * scale, dp(CHIP) * scale)
                chips.add_widget(badge)
            chips.add_widget(self.chips_end[kind])
        roll = state.last_roll
        lost = state.outcome == "lost" and roll is not None
        if lost and self.roll_row.parent is None:
            self.add_widget(self.roll_caption, index=1)  # above the filler
            self.add_widget(self.roll_row, index=1)
        elif not lost and self.roll_row.parent is not None:
            self.remove_widget(self.roll_caption)
            self.remove_widget(self.roll_row)
        if not lost:
            return {}
        assert roll is not None
        for die, widget in self.dice.items():
            face = getattr(roll, die)
            widget.show(face, app.tr(f"evil.letter.{face}") if die == "colour" else "")
        return dict(self.dice)


def _content(column: Any) -> float:
    """The height a vertical box's children take (its filler, with a size hint, none)."""
    shown = [c for c in column.children if c.size_hint_y is None]
    return sum(c.height for c in shown) + column.spacing * max(0, len(shown) - 1) \
        + column.padding[1] + column.padding[3]


def _fit_height(label: Any, *_: Any) -> None:
    label.text_size = (label.width, None)
    label.texture_update()
    label.height = label.texture_size[1]
