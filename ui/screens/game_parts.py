"""Rows that several games' screens share: Back/Start under a setup, and Undo/Home/New
game under a game's end."""

from __future__ import annotations

from collections.abc import Callable

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from ui import theme
from ui.widgets.basics import Tap


def setup_bar(on_start: Callable[[], None]) -> BoxLayout:
    """Back (to home) and a large Start."""
    app = App.get_running_app()
    bar = BoxLayout(spacing=dp(8), size_hint_y=None, height=theme.touch(60))
    back = Tap(app.tr("core.ui.back"), tid="setup.back", size_hint_x=0.3)
    back.bind(on_release=lambda _b: setattr(app.root, "current", "home"))
    start = Tap(app.tr("core.ui.start"), tid="setup.start", size=24,
                background=theme.SUCCESS, size_hint_x=0.7)
    start.bind(on_release=lambda _b: on_start())
    bar.add_widget(back)
    bar.add_widget(start)
    return bar


def end_bar(kind: str) -> BoxLayout:
    """Undo (back into the game), Home, and New game (this game's setup)."""
    app = App.get_running_app()
    bar = BoxLayout(spacing=dp(10), size_hint_y=None, height=theme.touch(64))
    undo = Tap(app.tr("core.ui.undo"), tid="end.undo")
    undo.bind(on_release=lambda _b: app.undo())
    home = Tap(app.tr("core.ui.home"), tid="end.home")
    home.bind(on_release=lambda _b: app.leave_game())
    again = Tap(app.tr("core.ui.new_game"), tid="end.new", background=theme.SUCCESS)
    again.bind(on_release=lambda _b: new_game(kind))
    for widget in (undo, home, again):
        bar.add_widget(widget)
    return bar


def new_game(kind: str) -> None:
    app = App.get_running_app()
    app.leave_game()
    app.root.current = f"{kind}_setup"
