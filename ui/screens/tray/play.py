"""The dice tray: the dice showing (tap one to lock or unlock it), roll the unlocked
ones, add or take out dice, the last rolls and each die's distribution.

Every action goes through `app.send`, so it is journaled and undoable like a game's.
"""

from __future__ import annotations

from math import ceil
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen

from companion.dice import tumble_face
from companion.games.tray import commands as c
from companion.games.tray.view import Distribution, TrayView, tray_view
from companion.session import Session, Update
from ui import theme
from ui.screens.night.common import scroll_list
from ui.widgets.basics import Tap, Text, follow_height, follow_width
from ui.widgets.charts import BarChart

BUCKETS = 10  # a die with more faces (d100) is shown in this many groups
#: the tumble's faces a second (as Pr. Evil's dice: a frame every 50 ms while a roll is
#: being saved)
TUMBLE_FPS = 20


def grouped(dist: Distribution) -> list[tuple[str, int]]:
    """A distribution as bars: one per face, or per group of faces for big dice."""
    faces, counts = dist.faces, dist.counts
    if len(faces) <= 20:
        # faces repeated on a die (Fudge: +, +, ○...) make one bar each
        merged: dict[str, int] = {}
        for face, count in zip(faces, counts, strict=True):
            merged[face] = merged.get(face, 0) + count
        return list(merged.items())
    size = ceil(len(faces) / BUCKETS)
    # each group is named by its first face (1, 11, 21...): narrow bars, short labels
    return [(faces[i], sum(counts[i:i + size])) for i in range(0, len(faces), size)]


class TrayPlayScreen(Screen):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.session: Session | None = None
        self.dist_kind: str | None = None
        self.box = BoxLayout(orientation="vertical", padding=dp(8), spacing=dp(6))
        self.add_widget(self.box)
        #: the dice's buttons as last drawn, with what each shows under its face
        self._dice: list[tuple[Any, str, bool]] = []
        self._tumble: Any = None  # the tumble's clock event, while the dice tumble
        self._tumble_ticks = 0
        self._tumble_shown: dict[int, str] = {}  # each die's face in the tumble so far
        self.roll_button: Any = None

    def open_session(self, session: Session) -> None:
        self.session = session
        self.dist_kind = None

    def after_update(self, update: Update | None) -> None:
        app = App.get_running_app()
        self._end_tumble(restore=False)  # the result (or the dice as they were) is drawn now
        if self.session is None:
            return
        if self.session.state.closed:
            app.leave_game()
            return
        if app.root.current != self.name:
            app.root.current = self.name
        self.refresh(tray_view(self.session.state))

    # -- drawing -----------------------------------------------------------------------
    def refresh(self, view: TrayView) -> None:
        app = App.get_running_app()
        assert self.session is not None
        box = self.box
        box.clear_widgets()
        # the shared header's place and size: putting the dice away is this screen's Back
        top = follow_height(BoxLayout(spacing=dp(theme.SPACE_S)), theme.touch(theme.HEADER))
        close = follow_width(Tap(app.tr("night.ui.tray_close"), tid="play.close",
                                 size=theme.SIZE_BUTTON), theme.BACK_WIDTH)
        close.bind(on_release=lambda _b: app.send(c.Close()))
        top.add_widget(close)
        total = "" if view.total is None else app.tr("night.ui.tray_total", total=view.total)
        top.add_widget(Text(total, size=theme.SIZE_FIGURE, bold=True, color=theme.ACCENT,
                            halign="center",
                            tid="play.total"))
        undo = follow_width(Tap(app.tr("core.ui.undo"), tid="play.undo", size=theme.SIZE_BUTTON,
                                disabled=not self.session.can_undo()), 110)
        undo.bind(on_release=lambda _b: app.undo())
        redo = follow_width(Tap(app.tr("core.ui.redo"), tid="play.redo", size=theme.SIZE_BUTTON,
                                disabled=not self.session.can_redo()), 110)
        redo.bind(on_release=lambda _b: app.redo())
        top.add_widget(undo)
        top.add_widget(redo)
        box.add_widget(top)

        columns = BoxLayout(spacing=dp(10))
        left = BoxLayout(orientation="vertical", spacing=dp(6), size_hint_x=0.6)
        left.add_widget(self.dice_grid(view))
        left.add_widget(self.add_row(view))
        unlocked = sum(1 for d in view.dice if not d.locked)
        rolled = any(d.face is not None for d in view.dice)
        key = "night.ui.tray_reroll" if rolled and unlocked < len(view.dice) else \
            "night.ui.tray_roll"
        roll = Tap(app.tr(key, n=unlocked), tid="play.roll", size=24, size_hint_y=None,
                   height=theme.touch(64), background=theme.SUCCESS, disabled=not view.can_roll)
        roll.rolls = True  # guarded against a double tap (`app.may_roll`)
        roll.bind(on_press=self._roll_pressed, on_release=self._roll_released)
        self.roll_button = roll
        left.add_widget(roll)
        columns.add_widget(left)
        columns.add_widget(self.side(view))
        box.add_widget(columns)

    def dice_grid(self, view: TrayView) -> GridLayout:
        app = App.get_running_app()
        grid = GridLayout(cols=5, spacing=dp(6))
        self._dice = []
        if not view.dice:
            grid.add_widget(Text(app.tr("night.ui.tray_empty"), size=18, color=theme.MUTED,
                                 tid="play.empty"))
        for die in view.dice:
            face = "–" if die.face is None else die.face
            under = app.tr("night.ui.tray_locked", die=die.label) if die.locked else die.label
            button = Tap(self._die_text(face, under),
                         tid=f"play.die.{die.index}", size=theme.SIZE_SMALL, markup=True,
                         background=theme.SELECTED if die.locked else theme.PANEL)
            button.face = face  # what a test reads, without the markup
            button.bind(on_release=lambda _b, d=die: self.toggle(d.index, d.locked))
            grid.add_widget(button)
            self._dice.append((button, under, die.locked))
        return grid

    @staticmethod
    def _die_text(face: str, under: str) -> str:
        figure = int(dp(theme.SIZE_DISPLAY) * App.get_running_app().scale)
        return f"[size={figure}][b]{face}[/b][/size]\n{under}"

    def add_row(self, view: TrayView) -> BoxLayout:
        app = App.get_running_app()
        assert self.session is not None
        params = self.session.state.params
        full = len(view.dice) >= params.max_dice
        row = follow_height(GridLayout(cols=5, spacing=dp(4)), theme.touch() * 2 + dp(4))
        for kind in view.offered:
            add = Tap(f"+{params.label(kind)}", tid=f"play.add.{kind}", size=theme.SIZE_SMALL,
                      disabled=full)
            add.bind(on_release=lambda _b, k=kind: app.send(c.AddDie(k)))
            row.add_widget(add)
        remove = Tap(app.tr("night.ui.tray_remove"), tid="play.remove", size=theme.SIZE_SMALL,
                     disabled=not view.dice)
        remove.bind(on_release=lambda _b: app.send(c.RemoveDie(len(view.dice) - 1)))
        row.add_widget(remove)
        clear = Tap(app.tr("core.ui.clear"), tid="play.clear", size=theme.SIZE_SMALL,
                    disabled=not view.dice)
        clear.bind(on_release=lambda _b: app.send(c.ClearDice()))
        row.add_widget(clear)
        return row

    def side(self, view: TrayView) -> BoxLayout:
        app = App.get_running_app()
        side = BoxLayout(orientation="vertical", spacing=dp(4), size_hint_x=0.4)
        side.add_widget(Text(app.tr("night.ui.tray_history"), size=theme.SIZE_SMALL,
                             color=theme.MUTED,
                             size_hint_y=None, height=dp(46)))
        scroller, rows = scroll_list(2)
        for k, roll in enumerate(view.history[:30]):
            faces = " ".join(f if rolled else f"({f})"
                             for f, rolled in zip(roll.faces, roll.rolled, strict=True))
            text = f"{roll.number}. {faces}"
            if roll.total is not None:
                text += f" = {roll.total}"
            rows.add_widget(Text(text, size=theme.SIZE_SMALL, tid=f"play.history.{k}",
                                 size_hint_y=None,
                                 height=dp(24), shorten=True,
                                 color=theme.TEXT if k == 0 else theme.MUTED))
        side.add_widget(scroller)
        # in the order the tray offers them (d4, d6... then the table's own dice)
        order = {kind: i for i, kind in enumerate(view.offered)}
        kinds = sorted((d.kind for d in view.distribution), key=lambda k: order.get(k, 99))
        if kinds:
            if self.dist_kind not in kinds:
                in_tray = [d.kind for d in view.dice if d.kind in kinds]
                self.dist_kind = in_tray[0] if in_tray else kinds[0]
            dist = next(d for d in view.distribution if d.kind == self.dist_kind)
            pick = Tap(app.tr("night.ui.tray_distribution", die=dist.label, n=dist.rolls),
                       tid="play.dist.kind", size=theme.SIZE_SMALL, size_hint_y=None,
                       height=theme.touch(),
                       disabled=len(kinds) < 2)
            pick.bind(on_release=lambda _b: self.next_distribution(kinds))
            side.add_widget(pick)
            chart = BarChart(tid="play.dist", size_hint_y=1.1)
            chart.show([(face, count, theme.ACCENT) for face, count in grouped(dist)])
            side.add_widget(chart)
        return side

    # -- the tumble ------------------------------------------------------------------------
    def _roll_pressed(self, _button: Any) -> None:
        """The unlocked dice tumble from touch-down (decorative faces, nothing of the
        roll) while it is made durable: its result is shown only once it is."""
        if self._tumble is None and App.get_running_app().may_roll():
            self._tumble_ticks = 0
            self._tumble_shown = {}
            self._tumble_step(0)
            self._tumble = Clock.schedule_interval(self._tumble_step, 1 / TUMBLE_FPS)

    def _roll_released(self, _button: Any) -> None:
        if not App.get_running_app().send(c.Roll()):
            self._end_tumble()  # no roll came of it (the guard, the rules): as they were

    def _tumble_step(self, _dt: float) -> bool:
        app = App.get_running_app()
        roll = self.roll_button
        if not app.busy and (roll is None or roll.state == "normal"):
            self._end_tumble()  # the press made no roll (the finger slid off, a refusal)
            return False
        self._tumble_ticks += 1
        assert self.session is not None
        params = self.session.state.params
        for index, (button, under, locked) in enumerate(self._dice):
            faces = params.faces(self.session.state.dice[index].kind) \
                if index < len(self.session.state.dice) else None
            if not locked and faces:
                face = tumble_face(self._tumble_ticks, index, faces,
                                   self._tumble_shown.get(index))
                self._tumble_shown[index] = face
                button.text = self._die_text(face, under)
        return True

    def _end_tumble(self, restore: bool = True) -> None:
        """The dice as they are (their faces in the state shown), unless the screen is
        about to be drawn anew."""
        if self._tumble is None:
            return
        self._tumble.cancel()
        self._tumble = None
        for button, under, _locked in self._dice:
            if restore:
                button.text = self._die_text(button.face, under)

    @property
    def animating(self) -> bool:
        return self._tumble is not None

    # -- actions -----------------------------------------------------------------------
    def toggle(self, index: int, locked: bool) -> None:
        app = App.get_running_app()
        app.send(c.Unlock(index) if locked else c.Lock(index))

    def next_distribution(self, kinds: list[str]) -> None:
        assert self.session is not None
        index = kinds.index(self.dist_kind) if self.dist_kind in kinds else -1
        self.dist_kind = kinds[(index + 1) % len(kinds)]
        self.refresh(tray_view(self.session.state))
