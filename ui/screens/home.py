"""Home: choose a game, or resume an unfinished one (every one of them, in a list that
scrolls). Abandoning a game asks first and says what it loses."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.core.window import Window
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from ui import theme
from ui.screens.night.common import scroll_list
from ui.screens.night.games import screens_for
from ui.screens.page import PageScreen
from ui.widgets.basics import Tap, Text, follow_height

GAMES = ("evil", "castor", "bond", "pad", "clock")  # the clock runs alone, for any game


def portrait() -> bool:
    """The window is taller than wide: the screens are laid out for landscape."""
    return bool(Window.height > Window.width)


class HomeScreen(PageScreen):
    PADDING, SPACING = 16, 10  # dp: the first screen, with room around its choices

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._portrait = portrait()
        Window.bind(size=self._turned)

    def _turned(self, *_: Any) -> None:
        if portrait() != self._portrait:  # the hint comes or goes with the window's shape
            self._portrait = portrait()
            if self.manager is not None and self.manager.current == self.name:
                self.refresh()

    def refresh(self) -> None:
        app = App.get_running_app()
        if self.manager is None:
            return
        box = self.box
        box.clear_widgets()
        box.add_widget(Text(app.tr("core.ui.home_title"), size=30, bold=True, halign="center",
                            size_hint_y=None, height=dp(56), tid="home.title"))
        if portrait():
            # a portrait panel (Touch Display 2) left at rotation 0: every screen is laid
            # out for landscape and comes out squeezed; say how to turn it
            box.add_widget(Text(app.tr("core.ui.portrait_hint"), size=theme.SIZE_BODY,
                                color=theme.ACCENT, tid="home.portrait", fit=True))
        # a damaged game is not offered here: History lists it as damaged
        records = [r for r in app.journal.unfinished()
                   if r.damaged is None and app.playable(r.kind)]
        if records:
            # up to three rows in view; with more, two and a half, so the cut row shows
            # that the list scrolls
            row_height = theme.touch(theme.ROW)
            shown = len(records) if len(records) <= 3 else 2.5
            scroller, rows = scroll_list(theme.SPACE_S)
            follow_height(scroller, shown * row_height + (int(shown) - 1) * dp(theme.SPACE_S))
            for record in records:
                rows.add_widget(self.resume_row(record, row_height))
            box.add_widget(scroller)
        box.add_widget(Text(app.tr("core.ui.choose_game"), size=18, color=theme.MUTED,
                            size_hint_y=None, height=dp(32)))
        # side by side: three resume rows and the bar below still fit 800x480
        row = BoxLayout(spacing=dp(10))
        for kind in GAMES:
            button = Tap(app.tr(f"core.games.{kind}"), tid=f"home.game.{kind}", size=22,
                         background=theme.BUTTON)
            button.bind(on_release=lambda _b, k=kind: self.choose(k))
            row.add_widget(button)
        box.add_widget(row)
        box.add_widget(self.night_bar())

    def resume_row(self, record: Any, height: float) -> BoxLayout:
        app = App.get_running_app()
        row = follow_height(BoxLayout(spacing=dp(theme.SPACE_S)), height)
        resume = Tap(self.describe(record), tid=f"home.resume.{record.id}",
                     background=theme.SUCCESS, size_hint_x=0.78)
        resume.bind(on_release=lambda _b, r=record: app.resume(r.id, r))
        abandon = Tap(app.tr("core.ui.abandon"), tid=f"home.abandon.{record.id}",
                      size_hint_x=0.22)
        abandon.bind(on_release=lambda _b, r=record: self.ask_abandon(r))
        row.add_widget(resume)
        row.add_widget(abandon)
        return row

    def describe(self, record: Any) -> str:
        app = App.get_running_app()
        players = ", ".join(record.summary.get("players", []))
        return app.tr("core.ui.resume" if players else "core.ui.resume_alone",
                      game=app.tr(f"core.games.{record.kind}"),
                      progress=self.progress(record.kind, record.summary, record.setup),
                      players=players)

    def night_bar(self) -> BoxLayout:
        """Game night: the dice tray, players, history, statistics, export, settings."""
        app = App.get_running_app()
        bar = follow_height(BoxLayout(spacing=dp(6)), theme.touch(52))
        for name, screen in (("tray", "tray_setup"), ("players", "night_roster"),
                             ("history", "night_history"), ("stats", "night_stats"),
                             ("export", "night_export"), ("settings", "night_settings")):
            button = Tap(app.tr(f"night.ui.home.{name}"), tid=f"home.{name}",
                         size=theme.SIZE_SMALL)
            button.bind(on_release=lambda _b, s=screen: setattr(app.root, "current", s))
            bar.add_widget(button)
        return bar

    @staticmethod
    def progress(kind: str, summary: dict[str, Any],
                 setup: dict[str, Any] | None = None) -> str:
        """How far an unfinished game went: Pr. Evil's turn, Castor's round, Bond's scores."""
        app = App.get_running_app()
        own = screens_for(kind).progress(summary, setup)
        if own is not None:
            return own
        if "scores" in summary:
            return app.tr("core.ui.progress_scores",
                          scores="–".join(str(s) for s in summary["scores"]))
        return app.tr("core.ui.progress_turn", n=summary.get("turn", 1))

    def choose(self, kind: str) -> None:
        app = App.get_running_app()
        app.root.current = f"{kind}_setup"

    def ask_abandon(self, record: Any) -> None:
        """Abandoning cannot be undone: say which game and what it loses first."""
        from ui.dialogs import confirm_loss  # dialogs wait until one opens (the start)

        app = App.get_running_app()
        confirm_loss(app.tr("core.ui.abandon_title"),
                     app.tr("core.ui.abandon_loss", game=self.describe(record)),
                     app.tr("core.ui.abandon"), lambda: self.abandon(record.id),
                     tid="abandon")

    def abandon(self, game_id: int) -> None:
        app = App.get_running_app()
        # shown once durable; a journal that cannot be written now says why
        app.write(lambda journal: journal.abandon(game_id), lambda _none: self.refresh())
