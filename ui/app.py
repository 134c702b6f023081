"""The Kivy app and its composition root: config -> journal -> session -> screens
(-> hardware). Every action goes through `send`, `undo` or `redo` here, so a touch,
a GPIO button and a test all take exactly the same path."""

from __future__ import annotations

import importlib
import logging
import secrets
from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.properties import NumericProperty
from kivy.uix.screenmanager import NoTransition, ScreenManager

from companion.config import Config
from companion.games import available, rules_for
from companion.i18n import Translator
from companion.journal import Journal
from companion.messages import CompanionError, Message, msg
from companion.session import Session, Update
from ui import theme
from ui.dialogs import Dialog, message
from ui.watchdog import Watchdog

log = logging.getLogger(__name__)

#: each game's screens: a module with `screens()` returning `<kind>_setup` and
#: `<kind>_play` (with `open_session(session)` and `after_update(update)`), and more
GAME_SCREENS = {kind: f"ui.screens.{kind}_screens"
                for kind in ("evil", "castor", "bond", "tray")}


def game_screens(kind: str) -> list[Any]:
    """The game's screens, or none while its UI is not built."""
    name = GAME_SCREENS.get(kind)
    if name is None:
        return []
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name == name:
            return []
        raise
    return list(module.screens())


class CompanionApp(App):
    scale = NumericProperty(1.0)
    use_kivy_settings = False  # no settings panel (F1) on a kiosk

    def __init__(self, config: Config, journal: Journal, *, hardware: Any = None,
                 auto_resume: bool = True,
                 new_seed: Callable[[], int] = lambda: secrets.randbits(63),
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.settings = config
        self.journal = journal
        self.hardware = hardware
        self.auto_resume = auto_resume
        self.new_seed = new_seed
        self.translator = Translator(config.get("language", "en"))
        self.session: Session | None = None
        self.dialog: Dialog | None = None
        self.watchdog = Watchdog.from_environment()

    # -- translation -----------------------------------------------------------------
    def tr(self, key: str, **params: Any) -> str:
        return self.translator(key, **params)

    def say(self, message_: Message) -> str:
        return self.translator.message(message_)

    # -- building ---------------------------------------------------------------------
    def build(self) -> ScreenManager:
        from ui.screens.home import HomeScreen

        self.title = self.tr("core.app_name")
        Window.clearcolor = theme.BACKGROUND
        Window.bind(size=self._rescale, on_keyboard=self._on_key)
        self._rescale(Window, Window.size)
        manager = ScreenManager(transition=NoTransition())
        home = HomeScreen(name="home")
        manager.add_widget(home)
        for kind in available():
            for screen in game_screens(kind):
                manager.add_widget(screen)
        home.refresh()
        return manager

    def set_language(self, language: str) -> None:
        """Switch the language now: every screen is built again in it, and the game
        being played (and the screen being looked at) stays as it was."""
        if language == self.translator.language:
            return
        self.translator = Translator(language)
        shown = self.root.current
        session = self.session
        self.close_dialog()
        Window.remove_widget(self.root)
        self.root = self.build()
        Window.add_widget(self.root)
        if session is not None:
            self._open(session)
        if self.root.has_screen(shown):
            self.root.current = shown

    def _rescale(self, _window: Any, size: tuple[int, int]) -> None:
        self.scale = theme.scale_for(*size)

    def _on_key(self, _window: Any, key: int, *_: Any) -> bool:
        if key == 27:  # Escape/back: never quit the kiosk; close a dialog instead
            if self.dialog is not None:
                self.dialog.dismiss()
            return True
        if key == 13:  # Enter = the OK button
            self.confirm()
            return True
        return False

    def on_start(self) -> None:
        # systemd: ready once the first screen exists; pings come from the Kivy clock,
        # so a frozen UI stops them and the watchdog restarts the app
        self.watchdog.ready()
        self.watchdog.start(Clock.schedule_interval)
        if self.hardware is not None:
            self.hardware.bind("ok", self.confirm)
            self.hardware.on_error(self.show_error)
        if self.journal.moved_aside is not None:
            message(self.tr("core.ui.saved_elsewhere"),
                    self.tr("core.error.journal_moved", path=str(self.journal.moved_aside)))
        if self.auto_resume:
            for record in self.journal.unfinished():
                if self.playable(record.kind) and self.resume(record.id):
                    break

    def on_stop(self) -> None:
        self.watchdog.stopping()
        if self.hardware is not None:
            self.hardware.close()

    # -- games and sessions -----------------------------------------------------------
    def playable(self, kind: str) -> bool:
        """A game whose rules and screens are both there."""
        return self.root is not None and self.root.has_screen(self.screen_name(kind, "play"))

    def screen_name(self, kind: str, part: str) -> str:
        return f"{kind}_{part}"

    def start_game(self, kind: str, setup: dict[str, Any]) -> Session | None:
        setup = {"params": self.settings.get(f"games.{kind}"), "seed": self.new_seed(), **setup}
        try:
            session = Session.start(rules_for(kind), self.journal, setup)
        except CompanionError as exc:
            self.show_error(exc.message)
            return None
        self._open(session)
        return session

    def resume(self, game_id: int) -> bool:
        try:
            record = self.journal.game(game_id)
            session = Session.resume(rules_for(record.kind), self.journal, game_id)
        except CompanionError as exc:
            self.show_error(exc.message)
            return False
        except Exception as exc:  # a journal this version cannot replay: say so, keep it
            log.exception("replaying game %s failed", game_id)
            self.show_error(msg("core.error.replay", game=game_id, reason=str(exc)))
            return False
        self._open(session)
        return True

    def _open(self, session: Session) -> None:
        if self.session is not None:
            self.session.unsubscribe(self._on_update)
        self.session = session
        session.subscribe(self._on_update)
        if self.hardware is not None:
            self.hardware.detach()
            if session.rules.kind == "evil":  # the clock hardware is Pr. Evil's
                self.hardware.attach(session)
        kind = session.rules.kind
        play = self.root.get_screen(self.screen_name(kind, "play"))
        play.open_session(session)
        self.root.current = play.name
        play.after_update(None)

    def leave_game(self) -> None:
        self.close_dialog()
        if self.session is not None:
            self.session.unsubscribe(self._on_update)
        if self.hardware is not None:
            self.hardware.detach()
        self.session = None
        self.root.current = "home"

    def _on_update(self, update: Update) -> None:
        kind = self.session.rules.kind if self.session else ""
        screen = self.root.get_screen(self.screen_name(kind, "play"))
        screen.after_update(update)

    # -- actions: every touch and button comes through here ----------------------------
    def send(self, command: Any) -> bool:
        return self._act(lambda s: s.dispatch(command))

    def undo(self) -> bool:
        return self._act(lambda s: s.undo())

    def redo(self) -> bool:
        return self._act(lambda s: s.redo())

    def _act(self, action: Callable[[Session], Any]) -> bool:
        if self.session is None:
            return False
        try:
            action(self.session)
        except CompanionError as exc:
            self.show_error(exc.message)
            return False
        return True

    # -- dialogs ----------------------------------------------------------------------
    def open_dialog(self, dialog: Dialog) -> None:
        self.close_dialog()
        self.dialog = dialog
        dialog.bind(on_dismiss=self._forget_dialog)
        dialog.open(animation=False)

    def _forget_dialog(self, dialog: Dialog) -> None:
        if self.dialog is dialog:
            self.dialog = None

    def close_dialog(self) -> None:
        if self.dialog is not None:
            self.dialog.dismiss(animation=False)
            self.dialog = None

    def confirm(self) -> None:
        """The OK button: the open dialog's default action."""
        if self.dialog is not None:
            self.dialog.confirm()

    def show_error(self, error: Message) -> None:
        dialog = message(self.tr("core.ui.error_title"), self.say(error), tid="error")
        # the error may have replaced a dialog the rules still need (a power choice)
        dialog.bind(on_dismiss=self._reprompt_soon)

    def _reprompt_soon(self, *_: Any) -> None:
        # returns None on purpose: a truthy on_dismiss handler cancels the dismissal
        Clock.schedule_once(self._reprompt)

    def _reprompt(self, *_: Any) -> None:
        if self.session is None or self.dialog is not None or App.get_running_app() is not self:
            return
        screen = self.root.get_screen(self.screen_name(self.session.rules.kind, "play"))
        if self.root.current == screen.name:
            screen.after_update(None)
