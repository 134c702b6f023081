"""What every game's play screen shares: the session it shows (its layout built once,
on the first game) and the Undo, Redo and Home buttons, kept in step with the session."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kivy.app import App
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.session import Session
from ui import theme
from ui.widgets.basics import Tap, Text
from ui.widgets.components import header


class PlayScreen(Screen):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.session: Session | None = None
        self._built = False

    def _build(self) -> None:
        """Lay out the screen's widgets (once)."""
        raise NotImplementedError

    @property
    def state(self) -> Any:
        assert self.session is not None
        return self.session.state

    def open_session(self, session: Session) -> None:
        if not self._built:
            self._build()
            self._built = True
        self.session = session

    def history_buttons(self) -> tuple[Tap, Tap, Tap]:
        """Undo, Redo and Home, the same on every game's screen."""
        app = App.get_running_app()
        self.undo_button = Tap(app.tr("core.ui.undo"), tid="play.undo")
        self.undo_button.bind(on_release=lambda _b: app.undo())
        self.redo_button = Tap(app.tr("core.ui.redo"), tid="play.redo")
        self.redo_button.bind(on_release=lambda _b: app.redo())
        home = Tap(app.tr("core.ui.home"), tid="play.home")
        home.bind(on_release=lambda _b: app.leave_game())
        return self.undo_button, self.redo_button, home

    def show_end_or_stay(self, finished: bool) -> bool:
        """A finished game goes to the game's end screen (True); otherwise this screen
        is the one shown."""
        app = App.get_running_app()
        if finished:
            app.close_dialog()
            end = app.root.get_screen(self.name.replace("_play", "_end"))
            end.show(self.state)
            app.root.current = end.name
            return True
        if app.root.current != self.name:
            app.root.current = self.name
        return False

    def game_header(self, title_tid: str, extra: Sequence[Widget] = (),
                    title_size: float = theme.SIZE_BODY) -> tuple[BoxLayout, Text]:
        """The shared header: Home where every other screen has Back, the game's
        status (tagged `title_tid`), then `extra`."""
        app = App.get_running_app()
        bar = header("", "play", back=app.leave_game, back_text=app.tr("core.ui.home"),
                     extra=extra, title_size=title_size, title_tid=title_tid,
                     back_tid="play.home")
        return bar, bar.title_label  # type: ignore[attr-defined]

    def refresh_history_buttons(self) -> None:
        assert self.session is not None
        self.undo_button.disabled = not self.session.can_undo()
        self.redo_button.disabled = not self.session.can_redo()
