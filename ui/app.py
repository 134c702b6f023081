"""The Kivy app and its composition root: config -> journal -> session -> screens
(-> hardware). Every action goes through `send`, `undo` or `redo` here, so a touch,
a GPIO button and a test all take exactly the same path."""

from __future__ import annotations

import logging
import random
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.properties import NumericProperty
from kivy.uix.screenmanager import NoTransition, ScreenManager

from companion.config import Config
from companion.games import rules_for
from companion.i18n import Translator
from companion.journal import GameRecord, Journal, JournalError
from companion.messages import CompanionError, Message, msg
from companion.session import Session, Update
from companion.writer import Ticket, Writer
from ui import theme
from ui.memory import IdleCollector
from ui.screen_registry import LazyScreenManager
from ui.touch_pace import TouchPace
from ui.watchdog import Watchdog

if TYPE_CHECKING:
    from ui.dialogs import Dialog

log = logging.getLogger(__name__)
T = TypeVar("T")
_SEEDS = random.SystemRandom()  # the OS's randomness, as `secrets` uses
#: how long a tap waits for its commit before going on without it: a fast disk's commit
#: (~0.3 ms) ends within it, and the action is shown in this very frame, as before the
#: writer thread; a card's sync goes on beside the screen (a frame is 16.7 ms)
COMMIT_GRACE = 0.005
#: how long a frame drawn while its action's commit syncs (`_draw_early`) waits for that
#: commit at the swap: a card's usual sync ends within it and the frame is swapped the
#: moment the action is durable; a longer one has the frame taken back (never shown) and
#: the action shown when the writer hands it back, as on a stalled card
SWAP_HOLD = 1 / 60
#: taps that may wait behind an action being saved; one more is refused, and said (a
#: card stalled this long is a fault to tell, not a queue to grow)
WAITING_TAPS = 16


def _background_busy() -> bool:
    """Game-night work is running (its module is imported only when some runs)."""
    background = sys.modules.get("ui.background")
    return bool(background is not None and background.busy())


def _rolls(command: Any) -> bool:
    """A roll of the dice (Pr. Evil's and the tray's `Roll`): guarded against a double tap."""
    return type(command).__name__ == "Roll"


class _Dispatch:
    """A command to do, as `_act` takes it (a waiting roll is recognised by it)."""

    def __init__(self, command: Any) -> None:
        self.command = command

    def __call__(self, session: Session) -> Any:
        return session.dispatch(self.command)


class CompanionApp(App):
    scale = NumericProperty(1.0)
    use_kivy_settings = False  # no settings panel (F1) on a kiosk

    def __init__(self, config: Config, journal: Journal, *, hardware: Any = None,
                 start_hardware: Callable[[], Any] | None = None,
                 auto_resume: bool = True,
                 new_seed: Callable[[], int] = lambda: _SEEDS.getrandbits(63),
                 **kwargs: Any) -> None:
        """`hardware`: a ready Station (tests); `start_hardware`: builds one once the
        first frame is on screen, so the table sees the game before the pins are set up."""
        super().__init__(**kwargs)
        self.settings = config
        self.journal = journal
        self.hardware = hardware
        self.start_hardware = start_hardware
        self.auto_resume = auto_resume
        self.new_seed = new_seed
        self.translator = Translator(config.get("language", "en"))
        self.session: Session | None = None
        #: a game held beside the one shown (a clock beside a score pad game): journaled
        #: through the same writer, with its own undo stack; `show_beside` swaps the two
        self.beside: Session | None = None
        self._outputs: list[Callable[[], None]] = []  # see `_later`
        self.dialog: Dialog | None = None
        self._told_later: list[tuple[str, str, str, tuple[float, float]]] = []  # `tell`
        self.watchdog = Watchdog.from_environment()
        self.night_dimmer: Any = None
        self.collector = IdleCollector(hold=_background_busy)
        self.touch_pace: TouchPace | None = None  # from the first frame on
        self.on_screen = False  # the first frame has been swapped to the screen
        #: the thread that makes actions durable (from the first frame on)
        self.writer: Writer | None = None
        #: taps made while an action is being made durable, applied in order after it
        self._waiting: deque[Callable[[Session], Any]] = deque()
        #: game-night writes with the writer (`write`): ticket, result, what follows it
        #: once durable, what follows a failure
        self._night: deque[tuple[Ticket, list[Any], Callable[[Any], None] | None,
                                 Callable[[], None] | None]] = deque()
        #: a new game's row is with the writer (`start_game`): no second start meanwhile
        self._starting = False
        self._started = False
        #: buttons that started an action being saved: pressed-looking until it is shown
        self._working: list[Any] = []
        #: the play screen that has drawn the action with the writer before it is
        #: durable (`_draw_early`): its frame waits for the commit at the swap
        self._early_screen: Any = None
        #: that action was settled at the swap: the hand-back goes on with what waits
        self._settled_early = False
        #: a tap is being applied (`_start`): what it sends is its own action, not a
        #: tap that waits behind it
        self._in_start = False
        #: a commit's failure is being said and drawn (`_failing`): no action now
        self._in_failure = False
        #: when ROLL may roll again (a roll's result plus `display.roll_guard`)
        self._roll_ready_at = 0.0
        self.roll_guard = float(config.get("display.roll_guard", 0.4))

    # -- translation -----------------------------------------------------------------
    def tr(self, key: str, **params: Any) -> str:
        return self.translator(key, **params)

    def say(self, message_: Message) -> str:
        return self.translator.message(message_)

    # -- building ---------------------------------------------------------------------
    def build(self) -> ScreenManager:
        from ui.widgets.basics import rescale_all

        self.bind(scale=rescale_all)  # every text and row that follows the window size
        Window.clearcolor = theme.BACKGROUND
        Window.bind(size=self._rescale, on_keyboard=self._on_key)
        # an action's commit is held open while its frame is laid out and drawn, and
        # made just before the swap (see `settle`)
        Window.bind(on_flip=self._before_flip)
        self._settle_soon = Clock.create_trigger(self._run_outputs)
        # the writer thread's hand-back: the action's end, on this thread
        self._handed_back = Clock.create_trigger(self._commit_ended)
        self._rescale(Window, Window.size)
        return self._screens()

    def _screens(self) -> ScreenManager:
        # each screen is built when first shown: on_start shows the resumed game or home
        self.title = self.tr("core.app_name")
        return LazyScreenManager(transition=NoTransition())

    def set_language(self, language: str) -> None:
        """Switch the language now: every screen is built again in it, and the game
        being played (and the screen being looked at) stays as it was."""
        if language == self.translator.language:
            return
        self.translator = Translator(language)
        self._prepare_dates()
        shown = self.root.current
        session = self.session
        self.close_dialog()
        Window.remove_widget(self.root)
        self.root = self._screens()
        Window.add_widget(self.root)
        beside = self.beside
        if session is not None:
            self._open(session, keep_beside=True)
        if beside is not None:
            self._play_screen(beside).open_session(beside)
        self.root.current = shown if self.root.has_screen(shown) else "home"

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
            self._wire_hardware()
        self._tell_journal_state()
        if self.auto_resume:
            for record in self.journal.unfinished():
                if self.playable(record.kind) and self.resume(record.id, record):
                    break
        if self.session is None:
            self.root.current = "home"
        self._tell_set_aside_settings()
        self.after_first_frame(self._after_start)

    def _tell_journal_state(self) -> None:
        """A journal moved aside, or one that cannot be written now: said at once."""
        if self.journal.moved_aside is None and self.journal.read_only is None:
            return  # the usual start: no dialog module to import before the first frame
        from ui.dialogs import message

        if self.journal.moved_aside is not None:
            message(self.tr("core.ui.saved_elsewhere"),
                    self.tr("core.error.journal_moved", path=str(self.journal.moved_aside)))
        elif self.journal.read_only is not None:
            message(self.tr("core.ui.saved_elsewhere"), self.say(self.journal.read_only),
                    tid="journal_read_only")

    #: dropped settings listed on screen; the rest are counted
    SHOWN_KEYS = 6

    def _tell_set_aside_settings(self) -> None:
        """The app's own settings file was refused at start and set aside (nobody at
        the table can edit it): say which settings no longer apply, and why."""
        aside = self.settings.set_aside
        if aside is None:
            return  # the usual start
        if aside.keys:
            keys = ", ".join(aside.keys[:self.SHOWN_KEYS])
            if aside.count > self.SHOWN_KEYS:
                keys += ", " + self.tr("core.settings.dropped_more",
                                       n=aside.count - self.SHOWN_KEYS)
            lines = [self.tr("core.settings.dropped", n=aside.count, keys=keys)]
        else:
            lines = [self.tr("core.settings.dropped_unreadable")]
        # the file's name is enough on screen (the log has the whole path)
        reasons = [replace(p, file=Path(p.file).name).format(self.say)
                   for p in aside.problems[:2]]
        lines.append(self.tr("core.settings.dropped_why", reason="; ".join(reasons)))
        lines.append(self.tr("core.settings.dropped_kept", path=Path(aside.kept).name)
                     if aside.kept else
                     self.tr("core.settings.dropped_not_kept", path=Path(aside.file).name))
        self.tell(self.tr("core.settings.dropped_title"), "\n\n".join(lines),
                  tid="settings_dropped", size_hint=(0.9, 0.88))

    def tell(self, title: str, text: str, tid: str,
             size_hint: tuple[float, float] = (0.8, 0.6)) -> None:
        """A message for the table that waits for the open dialog (a resumed game's
        question, another message) to be closed, so neither replaces the other."""
        if self.dialog is not None:
            self._told_later.append((title, text, tid, size_hint))
            return
        from ui.dialogs import message

        message(title, text, tid=tid, size_hint=size_hint)

    def _tell_waiting(self, _dt: float = 0) -> None:
        if self._told_later and self.dialog is None:
            self.tell(*self._told_later.pop(0))

    def after_first_frame(self, work: Callable[[], None]) -> None:
        """Run `work` in the clock tick after the first frame is swapped to the screen."""
        def flipping(*_: Any) -> None:  # runs just before the swap
            Window.unbind(on_flip=flipping)
            Clock.schedule_once(lambda _dt: work())

        Window.bind(on_flip=flipping)

    def once_on_screen(self, work: Callable[[], None]) -> None:
        """Run `work` now if the first frame is on screen, else in the tick after it."""
        if self.on_screen:
            work()
        else:
            self.after_first_frame(work)

    def _after_start(self) -> None:
        self.on_screen = True
        self._started = True
        self._start_writer()
        # full garbage collections wait for a quiet table (ui/memory.py)
        Window.bind(on_touch_down=self.collector.activity)
        Clock.schedule_interval(self.collector.tick, 1.0)
        self._start_dimmer()
        # the loop passes faster while a finger is down: its release is read at once
        self.touch_pace = pace = TouchPace(Clock)
        Window.bind(on_touch_down=pace.down, on_touch_up=pace.up)
        self._prepare_dates()
        from ui.ownfolders import folders

        folders().refresh()  # the set-ups' templates and presets, on a worker thread
        if self.hardware is None and self.start_hardware is not None:
            self.hardware = self.start_hardware()
            self._wire_hardware()
        if self.session is not None:
            # the snapshots' version, which a resume without snapshots did not need:
            # computed now rather than in the touch that writes the game's first one
            from companion.snapshot import version as snapshot_version

            snapshot_version(self.session.rules.state_type)

    def _prepare_dates(self) -> None:
        """Load Babel's date formats for the language on a thread of their own: the
        first screen that shows a date (History, the game log, the backups to restore)
        then formats it in its frame without the tens of ms that loading takes."""
        threading.Thread(target=self.translator.prepare_dates, name="companion-dates",
                         daemon=True).start()

    def _start_dimmer(self) -> None:
        """Lower the backlight after a while without a touch, where there is one."""
        from ui.screens.night import prefs as night_prefs

        lights = night_prefs.BACKLIGHT
        if self.night_dimmer is not None or not night_prefs.dimming_available(self.settings,
                                                                             lights):
            return
        self.night_dimmer = dimmer = night_prefs.Dimmer(
            int(self.settings.get(night_prefs.DIM_KEY, 0)), root=lights,
            blank_after=int(self.settings.get(night_prefs.BLANK_KEY, 0) or 0))
        # a handler bound to the window that returns True stops the touch before the
        # window hands it to the screens: the waking touch wakes, and does nothing else
        Window.bind(on_touch_down=dimmer.touched, on_touch_move=dimmer.moved,
                    on_touch_up=dimmer.released)
        self._dimming = Clock.schedule_interval(dimmer.tick, 5)

    def stop_dimmer(self) -> None:
        dimmer, self.night_dimmer = self.night_dimmer, None
        if dimmer is None:
            return
        Window.unbind(on_touch_down=dimmer.touched, on_touch_move=dimmer.moved,
                      on_touch_up=dimmer.released)
        self._dimming.cancel()

    def stop_touch_pace(self) -> None:
        """The loop back at its pace, and no longer hurried by this app's touches."""
        pace, self.touch_pace = self.touch_pace, None
        if pace is not None:
            Window.unbind(on_touch_down=pace.down, on_touch_up=pace.up)
            pace.rest()

    def _wire_hardware(self) -> None:
        self.hardware.route(self.press)  # every button: the path of a touch
        self.hardware.on_error(self.show_error)
        problem = getattr(self.hardware, "gpio_problem", None)
        if problem is not None:  # a Pi on mock pins: say it, with what to do (which can
            # name every GPIO chip seen: the whole screen)
            self.tell(self.tr("hardware.gpio.title"), self.say(problem), tid="gpio_problem",
                      size_hint=(0.94, 0.9))
        if self.session is not None and self.session.rules.kind == "evil":
            # the clock hardware is Pr. Evil's
            self.hardware.attach(self.session, later=self._later)
        # a Pins button on each play screen that offers one and was built before the
        # hardware (the game reopened at the start: Pr. Evil's, or a clock's)
        for name in ("evil_play", "clock_play"):
            play = self.root.built(name)
            if play is not None and hasattr(play, "offer_pins"):
                play.offer_pins()

    def on_stop(self) -> None:
        # a clean stop (SIGTERM from systemd, which SDL turns into the window's close; the
        # window closed) pauses a running clock as of now: the next start reopens it
        # paused, and does not take the stop for a power cut
        clock = self.root.built("clock_play") if self.root is not None else None
        if clock is not None and hasattr(clock, "stop_cleanly"):
            clock.stop_cleanly()
        self.settle()
        self.stop_dimmer()
        self.stop_touch_pace()
        self.close_writer()
        self.watchdog.stopping()
        if self.hardware is not None:
            self.hardware.close()

    # -- games and sessions -----------------------------------------------------------
    def playable(self, kind: str) -> bool:
        """A game whose rules and screens are both there."""
        return self.root is not None and self.root.has_screen(self.screen_name(kind, "play"))

    def screen_name(self, kind: str, part: str) -> str:
        return f"{kind}_{part}"

    def start_game(self, kind: str, setup: dict[str, Any], beside: int | None = None,
                   done: Callable[[Session], None] | None = None) -> Session | None:
        """Start a game of `kind`. `beside`: the id of the game it runs beside (a clock
        beside a score pad game): that game is opened first if it is not the one
        shown, and stays held beside the new one.

        The setup is checked here (a bad one refused before anything is written); the
        game's row is written on the writer thread, waited for up to `COMMIT_GRACE`: a
        fast disk's commit ends within it, and the game opens in this call (and is
        returned). On a slow card this returns None at once and the game opens when
        the writer hands the commit back. `done(session)` runs once the game is open,
        now or then; never if the start is refused or its commit fails (said, and the
        set-up stays on screen with nothing started). One start at a time: a start
        asked while one is in flight (a second tap on Start) is ignored."""
        if self._starting:
            return None
        setup = {"params": self.settings.get(f"games.{kind}"), "seed": self.new_seed(), **setup}
        # the game before's action ends first (one held open on this connection is
        # committed before a row written here, without a writer)
        self.settle()
        if beside is not None and (self.session is None or self.session.game_id != beside) \
                and not self.resume(beside):
            return None
        try:
            new = Session.prepare(rules_for(kind), setup)
        except CompanionError as exc:
            self.show_error(exc.message)
            return None
        writer = self.writer
        opened: list[Session] = []

        def written(game_id: int) -> None:
            self._starting = False
            # the writer closed meanwhile (the app stopping, a restore), or the game to
            # run beside was left: nothing opens, the row is an unfinished game as any
            if (writer is not None and self.writer is not writer) or (
                    beside is not None and (self.session is None
                                            or self.session.game_id != beside)):
                self._worked()
                return
            session = new.open(self.journal, game_id)
            if beside is not None:
                self._drop_beside()
                self.hold_beside(session)
                self.show_beside()
            else:
                self._open(session)
            opened.append(session)
            if done is not None:
                done(session)

        def failed() -> None:  # said already: the set-up stays, its Start as it was
            self._starting = False
            self._worked()

        self._starting = True
        try:
            ticket = self.write(new.write, written, failed)
        except BaseException:  # (a writer closed under it): the next start may go on
            self._starting = False
            raise
        if ticket is not None and ticket.wait(COMMIT_GRACE):
            self._night_writes_ended()  # durable already: the game opens in this frame
        return opened[0] if opened else None

    @property
    def starting(self) -> bool:
        """A new game's row is with the writer: the game opens once it is durable."""
        return self._starting

    def resume(self, game_id: int, listed: GameRecord | None = None) -> bool:
        """Resume the game; `listed` is its row as the journal listed it (not read again)."""
        try:
            record = self.journal.game(game_id) if listed is None else listed
            session = Session.resume(rules_for(record.kind), self.journal, game_id, record)
        except CompanionError as exc:
            self.show_error(exc.message)
            return False
        except Exception as exc:  # a journal this version cannot replay: say so, keep it
            log.exception("replaying game %s failed", game_id)
            self.show_error(msg("core.error.replay", game=game_id, reason=str(exc)))
            return False
        self._open(session)
        self._resume_partner(record)
        return True

    def _resume_partner(self, record: GameRecord) -> None:
        """A clock that ran beside a score pad game comes back beside it: the score
        pad game on screen (on its cell), the clock held beside it (paused, as a clock
        reopened alone is)."""
        partner: GameRecord | None = None
        if record.kind == "clock" and isinstance(record.setup.get("pad_game"), int):
            pad = next((r for r in self.journal.unfinished()
                        if r.id == record.setup["pad_game"] and r.kind == "pad"
                        and r.damaged is None), None)
            if pad is None:
                return
            clock = self.session
            try:
                session = Session.resume(rules_for("pad"), self.journal, pad.id, pad)
            except Exception:  # the clock alone, as before; the pad game says why when opened
                log.exception("the score pad game beside clock %s", record.id)
                return
            self._open(session)
            assert clock is not None
            self.hold_beside(clock)
            return
        if record.kind == "pad":
            partner = next((r for r in self.journal.unfinished()
                            if r.kind == "clock" and r.damaged is None
                            and r.setup.get("pad_game") == record.id), None)
        if partner is None:
            return
        try:
            clock = Session.resume(rules_for("clock"), self.journal, partner.id, partner)
        except Exception:
            log.exception("the clock beside score pad game %s", record.id)
            return
        self.hold_beside(clock)

    # -- a game beside the one shown ------------------------------------------------------
    def _play_screen(self, session: Session) -> Any:
        return self.root.get_screen(self.screen_name(session.rules.kind, "play"))

    def hold_beside(self, session: Session) -> None:
        """Hold `session` beside the game shown: its writes go through the same writer
        (each waited for: see `send_beside`), its screen keeps its clock looked at."""
        session.snapshot_every = int(self.settings.get("snapshot_every", 100))
        session.hold_commits = False
        session.writer = self.writer
        session.subscribe(self._on_beside_update)
        self.beside = session
        play = self._play_screen(session)
        play.open_session(session)
        play.after_update(None)  # a reopened clock is stopped as of its last action

    def _drop_beside(self) -> None:
        beside = self.beside
        if beside is None:
            return
        screen = self._play_screen(beside)
        if hasattr(screen, "set_aside"):
            screen.set_aside()  # a running clock is paused first (journaled)
        self.beside = None
        beside.unsubscribe(self._on_beside_update)

    def show_beside(self) -> bool:
        """The game held beside comes on screen, and the one shown goes beside it (a
        clock keeps running): Undo, Redo, ROLL and OK then act on the game shown."""
        if self.beside is None or self.session is None or not self.settle():
            return False
        self._waiting.clear()
        self._worked()
        self.close_dialog()
        shown, other = self.session, self.beside
        shown.unsubscribe(self._on_update)
        other.unsubscribe(self._on_beside_update)
        self.session, self.beside = other, shown
        shown.hold_commits, other.hold_commits = False, True
        other.subscribe(self._on_update)
        shown.subscribe(self._on_beside_update)
        play = self._play_screen(other)
        self.root.current = play.name
        play.after_update(None)
        aside = self._play_screen(shown)
        if hasattr(aside, "went_beside"):
            aside.went_beside()  # a clock: its strip on the sheet at once
        return True

    def send_beside(self, command: Any) -> bool:
        """Do `command` in the game held beside (a clock's checkpoint, zero or pause
        while the score pad is shown): journaled like any action, and waited for here
        (no tap is behind it: it comes from the clock's own look)."""
        session = self.beside
        if session is None or self._in_failure:
            return False
        try:
            session.dispatch(command)
        except CompanionError as exc:
            self.show_error(exc.message)
            return False
        pending = session.pending
        try:
            session.settle()
        except CompanionError as exc:
            with self._failing():
                self._write_failed(session, pending, exc)
            return False
        return True

    def end_beside(self) -> None:
        """The game beside has ended (a clock closed): the game shown goes on alone."""
        self._drop_beside()

    def _on_beside_update(self, update: Update) -> None:
        if self.beside is not None:
            self._play_screen(self.beside).after_update(update)

    def _open(self, session: Session, keep_beside: bool = False) -> None:
        self.settle()
        if not keep_beside:
            self._drop_beside()
        if self.session is not None:
            self.session.unsubscribe(self._on_update)
        self.session = session
        # its range (1..10 000) is checked with the config: never quietly made 1
        session.snapshot_every = int(self.settings.get("snapshot_every", 100))
        session.hold_commits = True
        self._waiting.clear()
        self._worked()
        if self._started:
            self._start_writer()
        session.writer = self.writer
        session.subscribe(self._on_update)
        if self.hardware is not None:
            self.hardware.detach()
            if session.rules.kind == "evil":  # the clock hardware is Pr. Evil's
                # the outputs follow in the next frame: the screen shows the roll first
                self.hardware.attach(session, later=self._later)
        kind = session.rules.kind
        play = self.root.get_screen(self.screen_name(kind, "play"))
        play.open_session(session)
        self.root.current = play.name
        play.after_update(None)

    # -- durable before shown ----------------------------------------------------------
    def _start_writer(self) -> None:
        """The writer thread for this journal (a journal that cannot be written, or one
        in memory, keeps the commits on this thread: they are refused at once)."""
        journal = self.journal
        if self.writer is not None and self.writer.path == journal.path \
                and self.writer.journal is journal:
            return
        self.close_writer()
        if journal.path is None or journal.read_only is not None:
            return
        self.settle()  # an action held open before the writer existed is committed here
        self.writer = Writer(journal, handback=self._handed_back)
        for session in (self.session, self.beside):
            if session is not None:
                session.writer = self.writer

    def close_writer(self) -> None:
        """Finish the actions given to the writer, checkpoint and close its connections
        (the app stops, or the journal is about to be replaced)."""
        if self.writer is None:
            return
        self.settle()
        writer, self.writer = self.writer, None
        for session in (self.session, self.beside):
            if session is not None:
                session.writer = None
        writer.close()
        self._night_writes_ended()

    @property
    def busy(self) -> bool:
        """An action is being made durable, or taps wait behind one."""
        session = self.session
        return bool(self._waiting) or (session is not None and session.in_flight)

    def settle(self) -> bool:
        """End the action in progress, waiting for its commit if need be (leaving a
        game, stopping; a tap never waits here: see `_act`). If the commit failed, the
        action was not shown (writer) or has been taken back (held commit): the taps
        waiting behind it and the outputs it would have driven are dropped, the error is
        said, and False is returned."""
        session = self.session
        if session is None:
            return True
        before = len(self._outputs)
        pending = session.pending
        try:
            session.settle()
        except CompanionError as exc:
            del self._outputs[:before]
            self._waiting.clear()
            self._worked()
            with self._failing():
                self._write_failed(session, pending, exc)
                self._redraw()
            return False
        return True

    @contextmanager
    def _failing(self) -> Iterator[None]:
        """A commit's failure being said and drawn: nothing it runs (a screen's look
        at its clock, drawn again) may send an action meanwhile (`_act` refuses it),
        so a failure never re-enters the action that failed; the screen tries again
        when that action is next due, or when the table asks."""
        nested, self._in_failure = self._in_failure, True
        try:
            yield
        finally:
            self._in_failure = nested

    def _write_failed(self, session: Session, pending: tuple[str, Any] | None,
                      exc: CompanionError) -> None:
        """Say why the action was not saved: the log always; the screen of its game if
        the action was one it made on its own (`PlayScreen.write_failed`), else a
        dialog."""
        verb, command = pending if pending is not None else ("", None)
        if not isinstance(exc, JournalError):
            self.show_error(exc.message)  # (a refusal raised by the writer's job)
            return
        log.warning("game %s: %s %s not saved: %s", session.game_id, verb,
                    type(command).__name__, exc.message.params.get("reason", exc))
        screen = self._play_screen(session)
        told = getattr(screen, "write_failed", None)
        if told is None or not told(verb, command, exc.message):
            self.show_error(exc.message)

    def _settle_held(self) -> bool:
        """Commit an action held open on this thread (before the writer exists)."""
        if self.session is None or not self.session.holding:
            return True
        return self.settle()

    # -- game-night writes (roster, a game's seats, an abandoned game) ----------------
    def write(self, change: Callable[[Journal], T],
              done: Callable[[T], None] | None = None,
              failed: Callable[[], None] | None = None) -> Ticket | None:
        """Make a game-night change durable off this thread: `change(journal)` runs on
        the writer thread (its own connection), after every action given before it, and
        `done(result)` runs here once it is durable (the screen shows the change then).
        A refusal (a name taken), a failed commit or a full queue is said, `done` is
        not called, and `failed()` is. Without a writer (before the first frame, a
        journal that cannot be written, or in memory) the change is made here at once,
        as before. Returns the writer's ticket while the change is with it (None once
        made or refused)."""
        writer = self.writer
        if writer is None:
            try:
                result = change(self.journal)
            except CompanionError as exc:
                self.show_error(exc.message)
                if failed is not None:
                    failed()
                return None
            if done is not None:
                done(result)
            return None
        box: list[Any] = []
        try:
            ticket = writer.submit(lambda journal: box.append(change(journal)))
        except CompanionError as exc:  # the writer's queue is full
            self.show_error(exc.message)
            if failed is not None:
                failed()
            return None
        self._night.append((ticket, box, done, failed))
        return ticket

    @property
    def saving(self) -> bool:
        """A game-night write is with the writer and not yet handed back."""
        return bool(self._night)

    def _night_writes_ended(self) -> None:
        """The game-night writes the writer has ended, in order: each one shown (its
        `done`), or its failure said."""
        while self._night and self._night[0][0].done:
            ticket, box, done, failed = self._night.popleft()
            error = ticket.error
            if error is None:
                if done is not None:
                    done(box[0])
                continue
            if isinstance(error, CompanionError):
                self.show_error(error.message)
            else:
                log.error("a game-night write failed", exc_info=error)
                self.show_error(msg("core.error.journal_write", path=str(self.journal.path),
                                    reason=str(error)))
            if failed is not None:
                failed()

    def _commit_ended(self, _dt: float = 0) -> None:
        """The writer has made an action durable (or failed to): shown now, in this
        frame; then the next tap that waited behind it."""
        self._night_writes_ended()
        session = self.session
        if session is None:
            return
        if session.committed:
            rolled = _rolls(session.in_flight_command)
            if not self.settle():
                return
            if rolled:
                self._roll_ready_at = time.monotonic() + self.roll_guard
        elif not self._settled_early:
            return
        self._settled_early = False
        # each as if tapped now: one the rules refuse says why, and the next goes on
        while self._waiting and self.session is not None and not self.session.in_flight:
            self._start(self._waiting.popleft())
        if not self.busy:
            self._worked()

    def show_working(self, button: Any) -> None:
        """`button` started an action still being saved (or waiting), or a game still
        being started: it looks pressed until that is shown."""
        if button not in self._working:
            self._working.append(button)
            button.set_working(True)

    def _worked(self) -> None:
        """Nothing is being saved any more: the buttons look as they are."""
        working, self._working = self._working, []
        for button in working:
            button.set_working(False)

    def _redraw(self) -> None:
        """The play screen drawn again from the state as it is (an action not saved)."""
        self._forget_early()
        if self.session is None:
            return
        screen = self.root.get_screen(self.screen_name(self.session.rules.kind, "play"))
        screen.after_update(None)

    # -- an action drawn while its commit syncs -----------------------------------------
    def _draw_early(self, session: Session, until: float) -> bool:
        """Draw the action with the writer while the card syncs it, if its screen can
        take the drawing back (`PlayScreen.draws_early`): waits (without the
        interpreter's lock) until the writer has written it and only the sync is left,
        so that the disk and the drawing run side by side; the frame is swapped only
        once the action is durable (`_swap_early`). False if not drawn (an action that
        is durable by then is shown as any other)."""
        update = session.in_flight_update
        if update is None:
            return False
        screen = self.root.get_screen(self.screen_name(session.rules.kind, "play"))
        draws = getattr(screen, "draws_early", None)  # a `PlayScreen`'s (not the tray's)
        if draws is None or not draws(update):
            return False
        if not session.wait_for_sync(max(0.0, until - time.monotonic())) \
                or session.committed:
            return False
        self._early_screen = screen
        screen.draw_early(update)
        return True

    def _swap_early(self) -> bool:
        """The frame drawn shows an action not known durable yet: True to swap it (its
        commit ended within `SWAP_HOLD` and it is settled), False to drop it (the
        commit takes longer, or failed: the screen draws the durable state again, and
        the action is shown when it lands, or its failure said)."""
        from kivy.graphics.opengl import glFlush

        glFlush()  # rendered (llvmpipe's threads, a GPU) while the commit syncs
        session = self.session
        if session is None or not session.wait_for_commit(SWAP_HOLD):
            self._take_back_early()
            return False
        if not self.settle():  # said, and the durable state drawn again (`_redraw`)
            return False
        # the screen was told it (`_on_update`); the hand-back goes on with the taps
        # that wait and the buttons' looks
        self._settled_early = True
        if self._early_screen is not None:  # its screen was not told it: not this frame's
            self._take_back_early()
            return False
        return True

    def _take_back_early(self) -> None:
        """The action drawn early is not shown: its screen draws the durable state."""
        screen = self._forget_early()
        if screen is not None:
            screen.after_update(None)

    def _forget_early(self) -> Any:
        """The screen that drew an action early, now reading the durable state again
        (None if none did); the caller draws it."""
        screen, self._early_screen = self._early_screen, None
        if screen is None or screen.early is None:
            return None
        screen.early = None
        return screen

    def _before_flip(self, _window: Any) -> bool:
        if self._early_screen is not None:
            return not self._swap_early()
        if self.session is None or not self.session.holding:
            return False  # (with the writer, a frame only ever shows what is durable)
        from kivy.graphics.opengl import glFlush

        # the frame's drawing is sent to the GPU (or llvmpipe's threads) first: it
        # is rendered while the commit waits for the disk
        glFlush()
        # True stops the swap: a frame showing an action that could not be saved is
        # never shown; the next one shows the action taken back, and why
        return not self.settle()

    def _later(self, work: Callable[[], None]) -> None:
        """The LEDs, ring and buzzer: in the next frame, once the action is durable."""
        self._outputs.append(work)
        self._settle_soon()

    def _run_outputs(self, _dt: float) -> None:
        # settled by the frame's swap; here too, in the next tick, if no frame was drawn
        self._settle_held()
        work, self._outputs = self._outputs, []
        for follow in work:
            follow()

    def leave_game(self) -> None:
        self.settle()
        self._settled_early = False
        self._waiting.clear()
        self._worked()
        if self.writer is not None:
            self.writer.flush()  # a game left: its snapshot, on the writer's thread
            self.writer.checkpoint()  # and the table is quiet
        self.close_dialog()
        self._drop_beside()  # a clock beside is paused first (`set_aside`)
        if self.session is not None:
            self.session.unsubscribe(self._on_update)
        if self.hardware is not None:
            self.hardware.detach()
        self.session = None
        self.root.current = "home"

    def _on_update(self, update: Update) -> None:
        self._settle_soon()  # (the frame's swap settles first)
        kind = self.session.rules.kind if self.session else ""
        screen = self.root.get_screen(self.screen_name(kind, "play"))
        early = getattr(screen, "early", None)
        if screen is self._early_screen and early is not None \
                and update.command is early.command and update.state is early.state:
            self._early_screen = None
            screen.landed_early()  # drawn already, in the frame about to be swapped
            return
        self._forget_early()
        screen.after_update(update)

    # -- actions: every touch and button comes through here ----------------------------
    def send(self, command: Any) -> bool:
        """Do `command`. A roll (`Roll`, Pr. Evil's and the tray's) is dropped while one
        is being made durable or waits, and for `display.roll_guard` seconds after its
        result: an impatient second tap never rolls twice. Any other tap made while an
        action is being made durable waits, and is applied after it, in order."""
        if _rolls(command) and not self.may_roll():
            return False
        return self._act(_Dispatch(command))

    def may_roll(self) -> bool:
        """No roll in progress or waiting, and the last one's result shown long enough."""
        session = self.session
        if session is not None and _rolls(session.in_flight_command):
            return False
        if any(isinstance(action, _Dispatch) and _rolls(action.command)
               for action in self._waiting):
            return False
        return time.monotonic() >= self._roll_ready_at

    def undo(self) -> bool:
        return self._act(lambda s: s.undo())

    def redo(self) -> bool:
        return self._act(lambda s: s.redo())

    def press(self, button: str) -> None:
        """A hardware button (`ok`, `roll`, `undo`, a clock's `seat<n>`), on the main
        thread: OK is the open dialog's default (as Enter), else the screen's own OK
        button if it has one (the clock's Pause); ROLL and UNDO are a touch on the shown
        screen's own button, only where a finger could touch it now: no dialog over it, the
        button enabled. A press under a dialog is not for the screen behind it; one on
        a dimmed or dark screen wakes it (and keeps it awake), as a touch does."""
        self.collector.activity()
        if self.night_dimmer is not None and self.night_dimmer.touched():
            return  # a dimmed or dark screen: the press wakes it, as a touch, nothing more
        if button == "ok" and self.dialog is not None:
            self.confirm()
            return
        if self.dialog is not None:
            log.info("button %s: a dialog is open (%s), nothing done", button, self.dialog.tid)
            return
        screen = self.root.current_screen if self.root is not None else None
        target = getattr(screen, "hardware_button", lambda _b: None)(button)
        if target is None or target.disabled or target.get_root_window() is None:
            log.info("button %s: nothing to press on this screen now", button)
            return
        target.trigger_action(duration=0)  # the touch's own path: on_press, on_release

    @property
    def taps_wait(self) -> bool:
        """A tap made now waits: an action is being made durable, or taps wait before
        it (a tap being applied from that queue is its turn)."""
        return self.busy and not self._in_start

    def in_turn(self, tap: Callable[[], Any]) -> bool:
        """A screen's own tap (the score pad's keys and cells: what it changes is the
        screen's until Enter sends an action): done now, or, while an action is being
        saved, after it and the taps before it, in order, as if tapped then; so a
        second score typed during a slow sync goes to the next player's cell, not
        into the cell whose score is being saved."""
        return self._act(lambda _session: tap())

    def _act(self, action: Callable[[Session], Any]) -> bool:
        self.collector.activity()  # a hardware button is the table at work too
        if self.session is None:
            return False
        if self._in_failure:  # sent while a commit's failure is said (`_failing`)
            log.info("an action sent while a failed one was being said: not done")
            return False
        if self.taps_wait:  # never waits for the disk here: applied once the action before is
            if len(self._waiting) >= WAITING_TAPS:
                self.show_error(msg("core.error.taps_waiting", n=len(self._waiting)))
                return False
            self._waiting.append(action)
            return True
        return self._start(action)

    def _start(self, action: Callable[[Session], Any]) -> bool:
        if self.session is None or not self._settle_held():
            return False
        nested, self._in_start = self._in_start, True
        try:
            action(self.session)
        except CompanionError as exc:
            self.show_error(exc.message)
            return False
        finally:
            self._in_start = nested
        if nested:  # an action a tap sent as it was applied: that tap's start shows it
            return True
        session = self.session
        if session is None or not session.in_flight:
            return True
        until = time.monotonic() + COMMIT_GRACE
        if self._draw_early(session, until):
            return True
        if session.wait_for_commit(max(0.0, until - time.monotonic())):
            self._commit_ended()  # durable already: shown in this frame
        return True

    # -- dialogs ----------------------------------------------------------------------
    def open_dialog(self, dialog: Dialog) -> None:
        self.close_dialog()
        self.dialog = dialog
        dialog.funbind("on_dismiss", self._forget_dialog)  # a reused dialog: bound once
        dialog.fbind("on_dismiss", self._forget_dialog)
        dialog.open(animation=False)

    def _forget_dialog(self, dialog: Dialog) -> None:
        if self.dialog is dialog:
            self.dialog = None
        if self._told_later:  # once whatever closing this dialog opens has opened
            Clock.schedule_once(self._tell_waiting)

    def close_dialog(self) -> None:
        """Close the open dialog, if any: twice, or from the dialog's own dismissal,
        is harmless (forgotten before it is dismissed)."""
        dialog, self.dialog = self.dialog, None
        if dialog is not None:
            dialog.dismiss(animation=False)

    def confirm(self) -> None:
        """The OK button: the open dialog's default action."""
        if self.dialog is not None:
            self.dialog.confirm()

    def show_error(self, error: Message) -> None:
        from ui.dialogs import message

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
