"""What every game's play screen shares: the session it shows (its layout built once,
on the first game) and the Undo, Redo and Home buttons, kept in step with the session."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.messages import Message
from companion.session import Session, Update
from ui import theme
from ui.widgets.basics import Tap, Text, find
from ui.widgets.components import header

END_SCREEN_AFTER = 0.5  # seconds after a game opens: after its first frame, before a roll


class PlayScreen(Screen):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.session: Session | None = None
        #: an action drawn while its commit syncs (`draw_early`), not yet durable: the
        #: screen reads its state until the app swaps that frame or takes it back
        self.early: Update | None = None
        self._built = False
        self._dialogs: dict[Hashable, Any] = {}
        self.warmed = False  # what an action opens is built (`warm_steps`)
        #: the game being warmed and its remaining pieces (`_build_end_screen`)
        self._warming: tuple[Session, Iterator[None]] | None = None

    def _build(self) -> None:
        """Lay out the screen's widgets (once)."""
        raise NotImplementedError

    @property
    def state(self) -> Any:
        if self.early is not None:
            return self.early.state
        assert self.session is not None
        return self.session.state

    def write_failed(self, verb: str, command: Any, error: Message) -> bool:
        """An action of this screen's game could not be saved (`error`: the card cannot
        be written, or is full). True if the screen says so itself (a write the app
        made on its own, as the clock's checkpoint: no dialog over the game); False by
        default: the app says it in a dialog (a tap's action, refused)."""
        return False

    # -- an action drawn while its commit syncs -----------------------------------------
    def draws_early(self, update: Update) -> bool:
        """Whether `update` (an action with the writer) may be drawn while its commit
        syncs: only an update whose telling changes this screen's widgets and nothing
        else (no screen, no dialog, no memory written), so that a frame the app does not
        swap is taken back by drawing the durable state again. None by default."""
        return False

    def draw_early(self, update: Update) -> None:
        """Draw `update` before it is durable; the app swaps that frame only once it is
        (`CompanionApp._before_flip`), else draws the durable state again
        (`CompanionApp._take_back_early`)."""
        self.early = update
        self.after_update(update)

    def landed_early(self) -> None:
        """The action drawn early is durable and on the session's stacks."""
        self.early = None

    def open_session(self, session: Session) -> None:
        if not self._built:
            self._build()
            self._built = True
        self.session = session
        self.warmed = False
        app = App.get_running_app()
        if app is None:
            self._schedule_end_screen()
        else:
            # counted from the first frame: a first frame that comes late (a busy
            # machine) must not build the end screen before it
            app.once_on_screen(self._schedule_end_screen)

    def _schedule_end_screen(self) -> None:
        Clock.schedule_once(self._build_end_screen, END_SCREEN_AFTER)

    def _build_end_screen(self, _dt: float = 0) -> None:
        """The end screen and what an action opens are built while the table plays, not
        by the action that needs them: one piece per frame (`warm_steps`), so that no
        frame waits on all of them."""
        app = App.get_running_app()
        if app is None or app.root is None or app.session is not self.session:
            return
        assert self.session is not None
        # kept on the screen, not in a closure that schedules itself: such a closure is
        # a cycle, which would hold the whole game (its session) after it ended
        self._warming = (self.session, iter(self.warm_steps()))
        self._warm_step()

    def _warm_step(self, _dt: float = 0) -> None:
        app = App.get_running_app()
        if self._warming is None:
            return
        session, steps = self._warming
        if app.session is not session or self.session is not session:
            self._warming = None
            return  # another game opened meanwhile: it warms its own
        try:
            next(steps)
        except StopIteration:
            self._warming = None
            self.warmed = True
            collector = getattr(app, "collector", None)
            if collector is not None:
                collector.keep()  # what was built lives as long as the screen
            return
        Clock.schedule_once(self._warm_step)  # the next piece in the next frame

    def warm_steps(self) -> Iterator[None]:
        """Build ahead, sized for the game on screen, what an action would otherwise
        build, one piece per `next` (each is one frame's work). The end screen here; a
        game's screen adds its dialogs."""
        app = App.get_running_app()
        name = self.name.replace("_play", "_end")
        if app.root.has_screen(name):
            end = app.root.get_screen(name)
            yield
            if hasattr(end, "prepare"):
                end.prepare(self.state)
                yield
            # laid out now at the size it will show at (a screen that is not shown is
            # no child of the manager, and keeps Kivy's default size): its texts are
            # rendered once at their own widths now, not several times by the last roll
            end.pos, end.size = app.root.pos, app.root.size
            yield
            if hasattr(end, "rehearse"):
                end.rehearse(self.state)
                yield

    def open_reused(self, key: Hashable, build: Callable[[], Any],
                    texts: Mapping[str, str] | None = None) -> Any:
        """The dialog `build` makes (and opens), made once per `key` and opened again as
        it is afterwards, so that what a roll calls for allocates no widget. `key` must
        hold everything its buttons depend on; `texts` (tid -> text) are the labels that
        change from one opening to the next. A language switch builds the screens, and
        so these dialogs, again."""
        dialog = self._dialogs.get(key)
        if dialog is None:
            dialog = self._dialogs[key] = build()
        else:
            App.get_running_app().open_dialog(dialog)
        for tid, text in (texts or {}).items():
            label = find(dialog, tid)
            if label is not None and label.text != text:
                label.text = text
        return dialog

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

    def hardware_button(self, name: str) -> Tap | None:
        """The button on this screen a hardware button presses (`CompanionApp.press`)."""
        return getattr(self, "undo_button", None) if name == "undo" else None

    def refresh_history_buttons(self) -> None:
        assert self.session is not None
        if self.early is not None and self.early.verb == "do":
            # a new action drawn early: it will be the one to undo, and nothing is left
            # to redo after it
            self.undo_button.disabled, self.redo_button.disabled = False, True
            return
        self.undo_button.disabled = not self.session.can_undo()
        self.redo_button.disabled = not self.session.can_redo()
