"""The table clock's play screen: whose turn it is and their time left, in digits read
from every seat, on a large area in their colour that ends the turn at one tap (or
ROLL, or the seat's own button on the ring); every seat's bank in its colour below;
Pause/Resume (also the OK button), Pass, time added or taken, Undo/Redo of the last
switch, End.

Time: what is shown is always computed from the state and the monotonic now
(`clock_view(state, now)`), never from ticks added up. The screen looks at the clock
at most four times a second (a coarse Kivy interval; a label is redrawn only when its
text changes) and sends `Zero` at the deadline the rules gave (`next_deadline`),
stamped with that deadline. A press reads the time once, when it happens, and puts it
in its command (`moment.now`, which the tests give a fake clock).
"""

from __future__ import annotations

import math
import time
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.graphics import Color, SmoothRoundedRectangle
from kivy.metrics import dp
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout

from companion.games.clock import commands as c
from companion.games.clock import engine
from companion.games.clock import events as ev
from companion.games.clock.rules import is_silent, redo_press, undo_press
from companion.games.clock.view import ClockView, clock_view, next_deadline
from companion.messages import Message
from companion.session import Session, Update
from hardware.timerview import TimerShown
from ui import theme
from ui.names import display_name
from ui.screens.clock import moment
from ui.screens.clock.figures import clock_text, elapsed_text
from ui.screens.play_base import PlayScreen
from ui.widgets.basics import Tap, Text, follow_height, follow_width
from ui.widgets.charts import PALETTE, hex_rgba
from ui.widgets.components import header

LOOK_EVERY = 0.25  # s: the clock is looked at at most 4 times a second
ZERO_TUNE_MS = 2000  # a press this soon after a zero is refused (the tune is playing)
NEWS_MS = 8000  # an instruction line (penalty points, a new round, a stage) stays this long
SEAT_ROW = 76  # px at 800x480: each seat's name and bank


def seat_rgba(colour: str, index: int) -> theme.Rgba:
    """A seat's colour: the roster's, else the palette's by seat."""
    return hex_rgba(colour) if colour else hex_rgba(PALETTE[index % len(PALETTE)])


class TurnArea(ButtonBehavior, BoxLayout):
    """The large area that ends the turn: a filled panel holding the name, the time
    and a line of state; one tap anywhere on it."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(orientation="vertical", padding=dp(theme.SPACE_S), **kwargs)
        self.tid = "play.area"
        self.fill = theme.PANEL
        with self.canvas.before:
            self._colour = Color(*self.fill)
            self._rect = SmoothRoundedRectangle(radius=[theme.RADIUS])
        self.bind(pos=self._redraw, size=self._redraw, state=self._redraw)

    def paint(self, fill: theme.Rgba) -> None:
        self.fill = fill
        self._redraw()

    def _redraw(self, *_: Any) -> None:
        self._colour.rgba = theme.pressed(self.fill) if self.state == "down" else self.fill
        self._rect.pos, self._rect.size = self.pos, self.size


class ClockPlayScreen(PlayScreen):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._looking: Any = None
        self._deadline_event: Any = None
        self._zero_until = -1  # presses before this (monotonic ms) are refused
        self._resumed = False  # the session came from the journal (not just started)
        #: labels redrawn (a text changed) since the game opened: for the benchmark
        self.redraws = 0
        self.seat_buttons: list[Tap] = []
        #: what an open dialog draws with the screen (the adjust dialog's bank)
        self.also_draw: Any = None
        #: the instruction lines of the last action and until when they are shown
        #: (monotonic ms) in the turn area's info line, instead of the tap hint
        self.news: tuple[str, int] | None = None
        #: the clock's own write (a checkpoint, a zero) could not be saved: not tried
        #: again before this moment (monotonic ms), and "not saved" said meanwhile
        self._retry_at: int | None = None

    # -- layout -----------------------------------------------------------------------
    def _build(self) -> None:
        app = App.get_running_app()
        page = BoxLayout(orientation="vertical", padding=dp(theme.SPACE_S),
                         spacing=dp(theme.SPACE_S))
        # Undo and Redo pass over the checkpoints (`undo_press`, `redo_press`)
        undo = self.undo_button = follow_width(Tap(app.tr("core.ui.undo"), tid="play.undo",
                                                   size=theme.SIZE_BUTTON), 110)
        undo.bind(on_release=lambda _b: self.undo_turn())
        redo = self.redo_button = follow_width(Tap(app.tr("core.ui.redo"), tid="play.redo",
                                                   size=theme.SIZE_BUTTON), 110)
        redo.bind(on_release=lambda _b: self.redo_turn())
        # back to the score pad's sheet, the clock running on (shown when beside one)
        sheet = self.sheet_button = follow_width(Tap(app.tr("clockui.sheet"),
                                                     tid="play.sheet",
                                                     size=theme.SIZE_BUTTON), 130)
        sheet.bind(on_release=lambda _b: App.get_running_app().show_beside())
        top = header("", "play", back=self.leave, back_text=app.tr("core.ui.home"),
                     extra=[sheet, undo, redo], title_size=theme.SIZE_BODY,
                     title_tid="play.status", back_tid="play.home")
        self.status = top.title_label  # type: ignore[attr-defined]
        self.header_bar = top
        top.remove_widget(sheet)  # shown only beside a score pad game
        page.add_widget(top)

        self.area = TurnArea()
        self.area.bind(on_release=lambda _b: self.end_turn(None))
        self.name_label = Text("", size=theme.SIZE_FIGURE, bold=True, halign="center",
                               tid="play.name", size_hint_y=None, height=dp(48),
                               shorten=True)
        self.time_label = Text("", size=theme.SIZE_CLOCK, bold=True, halign="center",
                               tid="play.time")
        self.info_label = Text("", size=theme.SIZE_BODY, halign="center", tid="play.info",
                               size_hint_y=None, height=dp(30), shorten=True)
        for label in (self.name_label, self.time_label, self.info_label):
            self.area.add_widget(label)
        page.add_widget(self.area)

        self.seat_row = follow_height(BoxLayout(spacing=dp(theme.SPACE_XS)),
                                      theme.touch(SEAT_ROW))
        page.add_widget(self.seat_row)

        bar = follow_height(BoxLayout(spacing=dp(theme.SPACE_S)), theme.touch(theme.ROW))
        self.pause_button = Tap(app.tr("clockui.pause"), size=theme.SIZE_BUTTON,
                                tid="play.pause")
        self.pause_button.bind(on_release=lambda _b: self.toggle_pause())
        self.pass_button = Tap(app.tr("clockui.pass"), size=theme.SIZE_BUTTON,
                               tid="play.pass")
        self.pass_button.bind(on_release=lambda _b: self.pass_turn())
        self.adjust_button = Tap(app.tr("clockui.adjust"), size=theme.SIZE_BUTTON,
                                 tid="play.adjust")
        self.adjust_button.bind(on_release=lambda _b: self.open_adjust())
        # admin time (a rules look-up, the set-up): counted apart, charged to nobody
        self.admin_button = Tap(app.tr("clockui.admin_on"), size=theme.SIZE_BUTTON,
                                tid="play.admin")
        self.admin_button.bind(on_release=lambda _b: self.toggle_admin())
        end = Tap(app.tr("clockui.end"), size=theme.SIZE_BUTTON, tid="play.close",
                  background=theme.DANGER)
        end.bind(on_release=lambda _b: self.ask_end())
        for button in (self.pause_button, self.pass_button, self.adjust_button,
                       self.admin_button, end):
            bar.add_widget(button)
        self.bar = bar
        self.pins_button: Tap | None = None
        self.pin_panel: Any = None
        self.offer_pins()
        page.add_widget(bar)
        self.add_widget(page)

    def offer_pins(self) -> None:
        """A Pins button when the hardware runs on mock pins (a desktop)."""
        app = App.get_running_app()
        if self.pins_button is not None or app.hardware is None or not app.hardware.mocked:
            return
        self.pins_button = Tap(app.tr("core.ui.pins"), tid="play.pins", size_hint_x=0.6)
        self.pins_button.bind(on_release=lambda _b: self.toggle_pins())
        self.bar.add_widget(self.pins_button)

    def toggle_pins(self) -> None:
        """The simulated LEDs, buzzer and ring over the turn area."""
        if self.pin_panel is not None:
            self.pin_panel.close()
            self.remove_widget(self.pin_panel)
            self.pin_panel = None
            return
        from ui.widgets.pin_panel import PinPanel

        panel = PinPanel(App.get_running_app().hardware, size_hint=(None, None))
        panel.pos_hint = {"x": 0.01, "top": 0.86}
        self.pin_panel = panel
        self.add_widget(panel)

    def hardware_button(self, name: str) -> Any:
        """ROLL ends the turn (flips a sand timer), OK pauses and resumes, UNDO takes
        the last switch back; `seat<n>` is seat n's button on the ring's Pico."""
        if name == "roll":
            return self.area
        if name == "ok":
            return self.pause_button
        if name.startswith("seat") and name[4:].isdigit():
            seat = int(name[4:])
            return self.seat_buttons[seat] if seat < len(self.seat_buttons) else None
        return super().hardware_button(name)

    # -- session ----------------------------------------------------------------------
    def open_session(self, session: Session) -> None:
        super().open_session(session)
        self._zero_until = -1
        self._retry_at = None
        self.redraws = 0
        self.seat_row.clear_widgets()
        self.seat_buttons = []
        # a sand timer is the table's, not a seat's: no banks to show
        sand = session.state.params.mode == "sand"
        self.seat_row.opacity = 0 if sand else 1
        self.seat_row.disabled = sand
        for index, seat in enumerate(session.state.seats):
            button = Tap("", size=theme.SIZE_SMALL, tid=f"play.seat.{index}", markup=True,
                         background=seat_rgba(seat.colour, index))
            button.bind(on_release=lambda _b, i=index: self.end_turn(i))
            button.figure = ""  # the bank as shown, without the markup (tests read it)
            self.seat_buttons.append(button)
            self.seat_row.add_widget(button)
        self._show_sheet_button()
        state = session.state
        # a clock reopened from the journal (after a power cut, a crash, a restart): the
        # monotonic clock may have started again, so it is stopped as of its last
        # journaled time and paused (`Interrupted`); the table resumes it
        self._resumed = bool(session.steps) and state.started and \
            state.status != "closed" and not state.rebase
        App.get_running_app().once_on_screen(self._start_looking)

    # -- beside a score pad game ---------------------------------------------------------
    @property
    def beside(self) -> bool:
        """This clock is held beside the game shown (the score pad's sheet)."""
        app = App.get_running_app()
        return self.session is not None and app.beside is self.session

    def _show_sheet_button(self) -> None:
        app = App.get_running_app()
        held = app.beside is not None and app.beside.rules.kind == "pad"
        button, bar = self.sheet_button, self.header_bar
        if held and button.parent is None:
            bar.add_widget(button, index=2)  # before Undo and Redo
        elif not held and button.parent is not None:
            bar.remove_widget(button)

    def went_beside(self) -> None:
        """The sheet came on screen: the clock goes on being looked at (its strip)."""
        self._start_looking()
        self.look()

    def _write_penalties(self, update: Update) -> None:
        """Penalty points the clock gave (`at_zero: penalty`) written into the score pad
        game it runs beside, as that game's own journaled `Penalty` (its Undo takes them
        back; the clock's Undo does not): to the seat of the same name."""
        app = App.get_running_app()
        pad_game = self.state.pad_game
        pad = next((s for s in (app.session, app.beside) if s is not None and
                    s.rules.kind == "pad" and s.game_id == pad_game), None)
        if pad is None:
            return
        from companion.games.pad import commands as pc

        names = [p.name for p in pad.state.players]
        for event in update.events:
            if not isinstance(event, ev.PenaltyGiven) or event.points <= 0:
                continue
            name = self.state.seats[event.seat].name
            if name not in names:
                continue
            command = pc.Penalty(names.index(name), event.points)
            if app.session is pad:
                app.send(command)
            else:
                app.send_beside(command)

    def send(self, command: Any) -> bool:
        """Do `command` in this clock, on screen or held beside the sheet."""
        app = App.get_running_app()
        return app.send_beside(command) if self.beside else app.send(command)

    def set_aside(self) -> None:
        """The clock beside is let go (the table leaves the game): paused first, as a
        clock left from its own screen is."""
        if self.session is not None and self.state.status == "running":
            self.send(c.Pause(at=moment.now()))
        self._stop_looking()
        self._show_hardware(None)

    def stop_cleanly(self) -> None:
        """The app stops cleanly: a running clock (shown or beside the sheet) is paused
        and journaled now, so the next start has no interruption to tell."""
        app = App.get_running_app()
        if self.session is not None and self.session in (app.session, app.beside) \
                and self.state.status == "running":
            self.send(c.Pause(at=moment.now()))

    def _interrupt(self) -> None:
        app = App.get_running_app()
        session = self.session
        if session is None or session not in (app.session, app.beside):
            return
        cap = self.state.params.checkpoint_ms
        running = self.state.status in ("running", "admin")
        # read before `Interrupted` is journaled: its commit moves the game's last update
        # (held beside a sheet it commits at once, so read after it said 0 or 1 second)
        uncharged = self._uncharged(cap) if running else 0
        if not (self.send(c.Interrupted()) and running):
            return
        title = app.tr("clockui.interrupted_title")
        text = app.tr("clockui.interrupted", n=uncharged)
        # told once the reopening is over, not in the middle of it: the other game opened
        # after this one (the score pad beside it) may open its remembered menu or its end
        # questions, or close the open dialog, and would replace or close the message;
        # told after them, it waits behind their dialog (`tell`) and is always seen
        def tell(_dt: float) -> None:
            if App.get_running_app() is app:  # (not once this app has stopped)
                app.tell(title, text, tid="clock_interrupted")

        Clock.schedule_once(tell)

    def _uncharged(self, cap_ms: int) -> int:
        """Seconds charged to nobody, at most: since the last journaled action by the
        wall clock (the monotonic one restarted with the Pi), never more than the
        checkpoint interval (a running clock is journaled at least that often)."""
        app = App.get_running_app()
        assert self.session is not None
        last = app.journal.game(self.session.game_id).updated  # its last action's time
        return max(0, min(-(-cap_ms // 1000), math.ceil(time.time() - last)))

    def after_update(self, update: Update | None) -> None:
        if self.session is None:
            return
        if self._resumed:
            self._resumed = False
            self._interrupt()  # its own update draws the screen
            return
        app = App.get_running_app()
        if update is not None:
            self._retry_at = None  # the card took an action: the clock's own go on
        if update is not None and update.verb == "do":
            self._write_penalties(update)
        if self.beside:  # the sheet is shown: its strip follows, no screen changes
            if self.state.status == "closed":
                app.end_beside()
                self._stop_looking()
                strip = getattr(app.root.current_screen, "show_clock", None)
                if strip is not None:
                    strip(None)
                return
            self._start_looking()
            self.look()
            return
        if self.state.status == "closed" and app.beside is not None:
            # a clock ended beside a score pad game: back to its sheet, alone
            self._stop_looking()
            self._show_hardware(None)
            app.show_beside()
            app.end_beside()
            return
        self._show_sheet_button()
        if self.show_end_or_stay(self.state.status == "closed"):
            self._stop_looking()
            self._show_hardware(None)
            return
        self.refresh_history_buttons()
        if update is not None and update.verb in ("do", "redo"):
            self._sound(update)
        self._tell_news(update)
        self.look()

    def _sound(self, update: Update) -> None:
        hardware = App.get_running_app().hardware
        if any(isinstance(e, ev.ZeroReached) for e in update.events):
            self._zero_until = moment.now() + ZERO_TUNE_MS
            if hardware is not None:
                hardware.sound("clock_zero")
            return
        turned = any(isinstance(e, (ev.Started, ev.TurnEnded, ev.Resumed, ev.NewRound))
                     for e in update.events)
        active = self.state.active
        if turned and hardware is not None and active >= 0 and \
                self.state.params.mode in ("turn", "bank", "countup"):
            hardware.sound("clock_turn", seat=active)

    def _tell_news(self, update: Update | None) -> None:
        """The lines the table must act on after an action (`instructions`: penalty
        points, a new round, a stage, a zero), in the info line for a while; an
        interruption has its own message. Penalty points the app wrote into the score
        pad game itself are not asked of the table."""
        from companion.games.clock.instructions import instructions

        self.news = None  # each action says its own (an undo: nothing)
        if update is None or update.verb == "undo":
            return
        app = App.get_running_app()
        events = [e for e in update.events if not isinstance(e, ev.Interruption)]
        written = any(s is not None and s.rules.kind == "pad" and
                      s.game_id == self.state.pad_game for s in (app.session, app.beside))
        lines = instructions(events, self.state, written=written)
        if lines:
            self.news = (" · ".join(app.say(line) for line in lines),
                         moment.now() + NEWS_MS)

    def leave(self) -> None:
        """Home: a running clock is paused first (it is not left running unseen)."""
        app = App.get_running_app()
        if self.session is not None and self.state.status == "running":
            app.send(c.Pause(at=moment.now()))
        app.leave_game()

    # -- looking at the clock ------------------------------------------------------------
    def _start_looking(self) -> None:
        if self._looking is None:
            self._looking = Clock.schedule_interval(lambda _dt: self.look(), LOOK_EVERY)

    def _stop_looking(self) -> None:
        if self._looking is not None:
            self._looking.cancel()
            self._looking = None
        if self._deadline_event is not None:
            self._deadline_event.cancel()
            self._deadline_event = None

    def on_leave(self, *_: Any) -> None:
        if self.beside:
            return  # held beside the sheet: it keeps running, looked at, on the LEDs
        self._stop_looking()
        self._show_hardware(None)

    def on_enter(self, *_: Any) -> None:
        if self.session is not None:
            self._start_looking()

    def look(self) -> None:
        """Show the clock as it is now; send `Zero` or `Checkpoint` when due."""
        app = App.get_running_app()
        if self.session is None or app is None or \
                self.session not in (app.session, app.beside) or \
                app.root.built(self.name) is not self:  # (a screen of another language)
            self._stop_looking()
            return
        state = self.state
        if state.status == "closed":
            return
        now = moment.now()
        view = clock_view(state, now)
        self._draw(view)
        self._show_hardware(view)
        if self.beside:
            strip = getattr(app.root.current_screen, "show_clock", None)
            if strip is not None:
                strip(view)
        if (app.busy and not self.beside) or state.rebase:
            return  # an action is being saved (the next look decides); or reopened
        if self._retry_at is not None and now < self._retry_at:
            return  # the card refused the last one: tried again when next due
        if self._due_zero(now):
            return
        if state.status == "running" and now - state.last_at >= state.params.checkpoint_ms:
            # journaled every `checkpoint_ms`: a power cut charges nobody more than that
            self.send(c.Checkpoint(at=now))
            return
        self._schedule_deadline(now)

    def write_failed(self, verb: str, command: Any, error: Message) -> bool:
        """The clock's own checkpoint or zero could not be saved (a card turned
        read-only, a full card): the clock keeps counting on screen from what the card
        holds, "not saved" is said on the turn area (no dialog over it: the table plays
        on), and it is tried again when a checkpoint is next due, at once if the table's
        own action is saved meanwhile; never from inside this failure (the app's
        `_failing`). Held beside the score pad's sheet, where the turn area is not seen,
        the first such failure in a row is said by the app in a dialog. A tap's action
        is refused by the app in a dialog, as any other."""
        if verb != "do" or not isinstance(command, (c.Checkpoint, c.Zero)):
            return False
        first = self._retry_at is None
        self._retry_at = command.at + self.state.params.checkpoint_ms
        if self.session is not None:
            self._draw(clock_view(self.state, moment.now()))
        return not (first and self.beside)

    def _schedule_deadline(self, now: int) -> None:
        """One Kivy event at the next moment the rules change something by themselves
        (a zero, a warning): shown then rather than up to a look later."""
        if self._deadline_event is not None:
            self._deadline_event.cancel()
            self._deadline_event = None
        deadline = next_deadline(self.state, now)
        if deadline is not None and deadline - now < LOOK_EVERY * 1000:
            self._deadline_event = Clock.schedule_once(lambda _dt: self.look(),
                                                       max(deadline - now, 0) / 1000)

    def _due_zero(self, now: int) -> bool:
        """A bank or countdown reached zero: the rules are told (they apply the preset's
        `at_zero` at the zero's own ms), unless a dialog is open: then it waits."""
        if self.state.status != "running":
            return False
        _settled, events = engine.settle(self.state, now)
        if not any(isinstance(e, ev.ZeroReached) for e in events):
            return False
        app = App.get_running_app()
        if app.dialog is not None:
            return True  # a zero reached while a dialog is open waits for it to close
        self.send(c.Zero(at=now))
        return True

    # -- drawing ----------------------------------------------------------------------
    def _set(self, label: Any, text: str) -> None:
        if label.text != text:
            label.text = text
            self.redraws += 1

    def _draw(self, view: ClockView) -> None:
        app = App.get_running_app()
        mode = view.mode
        active = view.active if view.active >= 0 else None
        seat = view.seats[active] if active is not None else None
        if mode in ("sand", "phase", "turn") and view.countdown_ms is not None:
            remaining, level = view.countdown_ms, view.countdown_level
        elif seat is not None:
            remaining, level = seat.remaining_ms, seat.level
        else:
            remaining, level = 0, "ok"
        shared = mode in ("sand", "phase") and len(view.seats) <= 1
        self._set(self.name_label, app.tr(f"clockui.mode.{mode}") if shared or seat is None
                  else display_name(seat.name))
        text = elapsed_text(remaining) if mode == "countup" else clock_text(remaining)
        self._set(self.time_label, text)
        over = level == "over" and mode != "countup"
        running = view.status == "running"
        if view.status in ("paused", "admin"):
            info = app.tr(f"clockui.{view.status}", pause=elapsed_text(
                view.admin_ms if view.status == "admin" else view.pause_ms))
            fill = theme.PANEL
        elif view.status == "stopped":
            info = app.tr("clockui.stopped_sand" if mode == "sand" else "clockui.stopped")
            fill = theme.DANGER
        elif over:
            info = app.tr("clockui.overtime")
            fill = theme.DANGER
        else:
            info = app.tr("clockui.tap_hint_sand" if mode == "sand" else "clockui.tap_hint")
            fill = seat_rgba(seat.colour, seat.index) if seat is not None and not shared \
                else theme.BUTTON
        if self.news is not None and view.status == "running" and not over:
            text, until = self.news
            if moment.now() < until:
                info = text  # what the table must act on, for a while
            else:
                self.news = None
        if self._retry_at is not None:
            info = app.tr("clockui.not_saved")  # the card took no checkpoint, no zero
        if self.area.fill != fill:
            self.area.paint(fill)
            ink = theme.text_on(fill)
            for label in (self.name_label, self.time_label, self.info_label):
                label.color = ink
        if fill == theme.PANEL and over:
            self.time_label.color = theme.DANGER_TEXT  # paused in overtime: red digits
        self._set(self.info_label, info)
        self._set(self.status, app.tr("clockui.status", mode=app.tr(f"clockui.mode.{mode}"),
                                      round=view.round, table=elapsed_text(view.table_ms)))
        paused = view.status == "paused"
        self._set(self.pause_button, app.tr("clockui.resume" if paused else "clockui.pause"))
        wanted = theme.SUCCESS if paused else theme.BUTTON
        if self.pause_button._fill != wanted:
            self.pause_button.set_background(wanted)
        self.pause_button.disabled = view.status not in ("running", "paused")
        self.pass_button.disabled = not running or active is None or \
            mode not in ("turn", "bank", "countup")
        self.adjust_button.disabled = mode == "sand" or view.status == "closed"
        admin = view.status == "admin"
        self._set(self.admin_button, app.tr("clockui.admin_off" if admin else "clockui.admin_on"))
        self.admin_button.disabled = view.status not in ("running", "paused", "admin")
        self._draw_seats(view, active)
        if self.also_draw is not None:
            self.also_draw()

    def _draw_seats(self, view: ClockView, active: int | None) -> None:
        app = App.get_running_app()
        big = int(dp(theme.SIZE_BUTTON) * app.scale)
        for button, s in zip(self.seat_buttons, view.seats, strict=False):
            if view.mode == "countup":
                figure = elapsed_text(s.remaining_ms)
            elif view.mode in ("sand", "phase"):
                figure = elapsed_text(s.total_ms)
            elif view.mode == "turn" and s.index != view.active:
                # a seat waiting for its turn: the time that turn will give it (its carry
                # and the turn's time, as `engine.begin_turn` adds), never a 0:00 that
                # reads as out of time
                figure = clock_text(s.remaining_ms + self.state.params.time_ms)
            else:
                figure = clock_text(s.remaining_ms)
            note = app.tr("clockui.out") if s.out else (
                app.tr("clockui.passed") if s.passed else figure)
            text = f"{display_name(s.name)}\n[size={big}][b]{note}[/b][/size]"
            if button.text != text:
                button.text = text
                button.figure = note
                self.redraws += 1
            fill = seat_rgba(s.colour, s.index)
            if s.index != active:
                fill = theme.blend(fill, theme.BACKGROUND, 0.55)
            if s.level == "over" and view.mode in ("bank", "turn"):
                fill = theme.DANGER
            if button._fill != fill:
                button.set_background(fill)

    def _show_hardware(self, view: ClockView | None) -> None:
        hardware = App.get_running_app().hardware
        if hardware is None or not hasattr(hardware, "show_timer"):
            return
        hardware.show_timer(None if view is None else self.shown(view))

    def shown(self, view: ClockView) -> TimerShown:
        """The clock reduced to what the LEDs, ring and buzzer show."""
        active = view.active if view.active >= 0 else None
        mode = view.mode
        if mode in ("sand", "phase", "turn") and view.countdown_ms is not None:
            remaining, level = view.countdown_ms, view.countdown_level
        elif active is not None:
            remaining, level = view.seats[active].remaining_ms, view.seats[active].level
        else:
            remaining, level = 0, "ok"
        full = max(self.state.params.time_ms, remaining, 1)
        if mode == "countup":
            level, remaining, full = "ok", 1, 1  # nothing drains: the seat's LED
        return TimerShown(seats=max(len(view.seats), 1), active=active,
                          remaining_ms=int(remaining), full_ms=int(full), level=level,
                          running=view.status == "running",
                          drain=mode in ("sand", "phase", "turn"))

    # -- actions (each reads the time once, when the finger or button acts) ---------------
    def refuse(self) -> None:
        """A press that does nothing now (a pause, the zero tune, another seat's
        button): a short "no" from the buzzer, nothing journaled."""
        hardware = App.get_running_app().hardware
        if hardware is not None and hasattr(hardware, "sound"):
            hardware.sound("clock_no")

    def end_turn(self, seat: int | None) -> None:
        at = moment.now()
        app = App.get_running_app()
        state = self.state
        mode = state.params.mode
        ready = ("running", "stopped") if mode in ("sand", "phase") else ("running",)
        if state.status not in ready or at < self._zero_until:
            self.refuse()
            return
        if seat is not None and seat != state.active:
            self.refuse()  # only the active seat's button ends the turn
            return
        app.send(c.Flip(at=at) if mode == "sand" else c.Switch(at=at, seat=seat))

    def toggle_pause(self) -> None:
        at = moment.now()
        status = self.state.status
        App.get_running_app().send(c.Resume(at=at) if status == "paused" else c.Pause(at=at))

    def toggle_admin(self) -> None:
        at = moment.now()
        App.get_running_app().send(c.Admin(at=at, on=self.state.status != "admin"))

    def eliminate(self, seat: int) -> None:
        App.get_running_app().send(c.Eliminate(at=moment.now(), seat=seat))

    def pass_turn(self) -> None:
        App.get_running_app().send(c.Pass(at=moment.now()))

    def undo_turn(self) -> None:
        """Undo takes back the last action the table made, with the checkpoints
        journaled since (they only charged time); the pauses since stay nobody's (the
        press's time, read now, goes with it)."""
        at = moment.now()
        App.get_running_app()._act(lambda session: undo_press(session, at))

    def redo_turn(self) -> None:
        at = moment.now()
        App.get_running_app()._act(lambda session: redo_press(session, at))

    def refresh_history_buttons(self) -> None:
        assert self.session is not None
        steps = self.session.steps
        index = len(steps) - 1
        while index >= 0 and is_silent(steps[index].command):
            index -= 1
        # the Start stays (undone, the clock would wait with no way to start it)
        self.undo_button.disabled = index < 1 or isinstance(steps[index].command,
                                                             c.Interrupted)
        self.redo_button.disabled = not self.session.can_redo()

    def open_adjust(self) -> None:
        from ui.screens.clock.dialogs import adjust_dialog

        adjust_dialog(self)

    def adjust(self, seat: int, delta_ms: int) -> None:
        App.get_running_app().send(c.Adjust(at=moment.now(), seat=seat, delta_ms=delta_ms))

    def ask_end(self) -> None:
        from ui.dialogs import confirm_loss

        app = App.get_running_app()
        confirm_loss(app.tr("clockui.end_title"), app.tr("clockui.end_text"),
                     app.tr("clockui.end"), self.close_clock, tid="clock_end")

    def close_clock(self) -> None:
        App.get_running_app().send(c.Close(at=moment.now()))
