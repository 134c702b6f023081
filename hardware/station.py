"""The physical station: every part built from config, fed by session updates.

Built by `hardware.setup`; see the package docstring for how the UI uses it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from companion.messages import CompanionError, Message, msg
from hardware.blinker import Blinker
from hardware.buttons import BUTTONS, Buttons, Dispatch
from hardware.clockview import IDLE, ClockView, view_of
from hardware.timerview import TimerShown
from hardware.tunes import tune_names_for

log = logging.getLogger(__name__)
Action = Callable[[], None]


class Station:
    def __init__(self, section: Mapping[str, Any], dispatch_on_main: Dispatch,
                 actions: Mapping[str, Action] | None = None, *, pin_factory: Any = None,
                 ring_opener: Callable[..., Any] | None = None) -> None:
        self.section = section
        self._dispatch = dispatch_on_main
        self._actions: dict[str, Action] = dict(actions or {})
        self._on_error: Callable[[Message], None] | None = None
        self._router: Callable[[str], None] | None = None
        self._listeners: list[Callable[[], None]] = []
        self._notify_pending = threading.Event()
        self._session: Any = None
        self._commanded: list[str] = []  # the buttons `attach` bound to a command
        self._later: Callable[[Callable[[], None]], None] | None = None
        self.problems: list[Message] = []
        self.view: ClockView = IDLE
        self.factory: Any = None
        self.mocked = False
        self.gpio_problem: Message | None = None  # on a Pi, on mock pins: why, what to do
        self.clock: Any = None
        self.treasures: Any = None
        self.buzzer: Any = None
        self.buttons: Any = None
        self.ring: Any = None
        self.blinker: Blinker | None = None
        self._ticked: int | None = None  # the table clock's last ticked second
        self._lights: Any = None  # the table clock's lights shown last
        gpio_parts = [p for p in ("clock_leds", "treasure_leds", "buzzer", "buttons")
                      if section[p]["enabled"]]
        if gpio_parts:
            self._choose_factory(pin_factory)
        if section["clock_leds"]["enabled"]:
            self.clock = self._build("clock_leds", self._clock)
        if section["treasure_leds"]["enabled"]:
            self.blinker = Blinker()
            self.treasures = self._build("treasure_leds", self._treasures)
        if section["buzzer"]["enabled"]:
            self.buzzer = self._build("buzzer", self._buzzer)
        if section["buttons"]["enabled"]:
            self.buttons = self._build("buttons", self._buttons)
        if section["ring"]["enabled"]:
            from hardware.ring import RingLink

            self.ring = RingLink(section["ring"], on_change=self._changed, opener=ring_opener,
                                 on_press=self._seat_pressed)
            self.ring.send(IDLE)
        self.show_state(None)

    # -- building ------------------------------------------------------------------------
    def _choose_factory(self, given: Any) -> None:
        from gpiozero.pins.mock import MockFactory

        from hardware import pins

        if given is None:
            given, _ = pins.choose_factory(str(self.section["pin_factory"]))
        self.factory = given
        self.mocked = isinstance(given, MockFactory)
        if self.mocked and pins.last_fallback is not None:
            # on a Pi this is a fault to show, not a desktop's normal mock
            self.gpio_problem = pins.gpio_problem(pins.last_fallback)
            if self.gpio_problem is not None:
                from companion.i18n import Translator

                log.error("%s", Translator("en").message(self.gpio_problem))
                self.problems.append(self.gpio_problem)

    def _build(self, part: str, build: Callable[[], Any]) -> Any:
        """A part that cannot be built (a pin in use, no PWM) is left out and reported;
        the rest of the station works without it."""
        try:
            return build()
        except Exception as exc:
            log.warning("hardware part %s left out: %s", part, exc)
            self.problems.append(msg("hardware.error.part", part=msg(f"hardware.part.{part}"),
                                     reason=str(exc)))
            return None

    def _clock(self) -> Any:
        from hardware.outputs import ClockLeds

        return ClockLeds(self.section["clock_leds"], self.factory)

    def _treasures(self) -> Any:
        from hardware.outputs import TreasureLeds

        assert self.blinker is not None
        return TreasureLeds(self.section["treasure_leds"], self.factory, self.blinker)

    def _buzzer(self) -> Any:
        from hardware.buzzer import TunePlayer

        return TunePlayer(self.section["buzzer"], self.factory, on_note=lambda _n: self._changed())

    def _buttons(self) -> Any:
        return Buttons(self.section["buttons"], self.factory, self._dispatch, self._press)

    # -- what the session tells ----------------------------------------------------------
    def observe(self, update: Any) -> None:
        """A session observer: outputs follow the new state; "do"/"redo" play tunes."""
        self.show_state(update.state)
        if self.buzzer is not None and update.verb in ("do", "redo"):
            self.buzzer.play(tune_names_for(update.events, dict(self.section["buzzer"]["play"])))

    def show_state(self, state: Any) -> None:
        """Show a state without sound (after a resume, or None for no game)."""
        self.view = view_of(state)
        if self.clock is not None:
            self.clock.show(self.view)
        if self.treasures is not None:
            self.treasures.show(self.view)
        if self.ring is not None:
            self.ring.send(self.view)

    # -- the table clock (its play screen drives these: see hardware.timerview) --------
    def show_timer(self, shown: TimerShown | None) -> None:
        """Show the table clock on the LEDs and the ring, and tick in its last seconds
        (each second once); None: dark."""
        from hardware.timerview import lights, tick_due

        out = lights(shown, len(self.clock.pins) if self.clock is not None else 12)
        changed = out != self._lights
        self._lights = out
        self.view = out.ring
        if self.clock is not None:
            self.clock.light(out.leds)
        if self.treasures is not None:
            self.treasures.signal(out.signal, out.blink)
        if self.ring is not None:
            self.ring.send(out.ring)
        second = None if shown is None else tick_due(shown, int(self.section["buzzer"]["ticks"]))
        if second is not None and second != self._ticked:
            self.sound("clock_tick")
        self._ticked = second
        if changed:
            self._changed()  # the virtual panel draws the LEDs as they are now

    def sound(self, kind: str, seat: int | None = None) -> None:
        """The table clock's sound for `kind` (`buzzer.play`: clock_tick, clock_no,
        clock_zero, clock_draw, clock_turn); clock_turn's tune is the seat's own motif
        (`<name><seat number>`). Mute and volume apply as to every tune."""
        if self.buzzer is None:
            return
        name = str(dict(self.section["buzzer"]["play"]).get(kind, ""))
        if name and seat is not None:
            name = f"{name}{seat + 1}"
        if name:
            self.buzzer.play([name])

    def _seat_pressed(self, seat: int) -> None:
        # the ring's reader thread: the press goes the way of the other buttons
        self._dispatch(lambda: self._press(f"seat{seat}"))

    # -- what the buttons do -------------------------------------------------------------
    def bind(self, button: str, action: Action | None) -> None:
        """What a button does (called on the main thread); None: nothing."""
        if button not in BUTTONS:
            raise KeyError(button)
        if action is None:
            self._actions.pop(button, None)
        else:
            self._actions[button] = action

    def route(self, router: Callable[[str], None] | None) -> None:
        """Hand every press (`"roll"`, `"undo"`, `"ok"`) to `router`, on the main thread,
        instead of the actions bound here: the app's `press`, which does what a touch
        on the screen would (and nothing under an open dialog). None: the bound actions
        again (the hardware tests, the doctor)."""
        self._router = router

    def on_error(self, callback: Callable[[Message], None] | None) -> None:
        """Where a refused press goes (a toast on screen), on the main thread."""
        self._on_error = callback

    def attach(self, session: Any,
               later: Callable[[Callable[[], None]], None] | None = None,
               commands: Mapping[str, Callable[[], Any]] | None = None) -> None:
        """Follow a session: its updates drive the outputs, UNDO undoes on it, and each
        button of `commands` dispatches the command its factory makes (ROLL: Pr. Evil's
        `Roll`): the caller says what a button does, the hardware knows no game (the app
        routes every press instead, `route`). `later` (the UI's next frame) runs the
        outputs' update after the screen's: the frame that shows an action waits for no
        pin, serial write or tune."""
        self.detach()
        self._session = session
        self._later = later
        session.subscribe(self._follow)
        self.show_state(session.state)
        for button, command in (commands or {}).items():
            self.bind(button, lambda command=command: session.dispatch(command()))
            self._commanded.append(button)
        self.bind("undo", session.undo)

    def _follow(self, update: Any) -> None:
        if self._later is None:
            self.observe(update)
            return
        session = self._session

        def follow() -> None:
            if self._session is not session:
                return  # detached meanwhile: the outputs show what follows now
            try:
                self.observe(update)
            except CompanionError as exc:  # never taken into the UI's loop
                log.warning("outputs not updated: %s", exc.message)
                if self._on_error is not None:
                    self._on_error(exc.message)
            except Exception:
                log.exception("outputs not updated")

        self._later(follow)

    def detach(self) -> None:
        if self._session is not None:
            self._session.unsubscribe(self._follow)
            self._session = None
            for button in (*self._commanded, "undo"):
                self.bind(button, None)
            self._commanded = []
            self.show_state(None)

    def _press(self, button: str) -> None:
        # on the main thread, handed over by Buttons
        action = self._actions.get(button)
        if self._router is not None:
            router = self._router
            action = lambda: router(button)  # noqa: E731
        if action is None:
            log.debug("button %s: nothing bound", button)
            return
        try:
            action()
        except CompanionError as exc:
            if self._on_error is not None:
                self._on_error(exc.message)
            else:
                log.info("button %s refused: %s", button, exc.message)

    def press_seat(self, seat: int) -> None:
        """A seat button on the ring's Pico (as its report would arrive)."""
        self._seat_pressed(seat)

    def press(self, button: str) -> None:
        """The virtual panel's button: on mock pins it drives the pin (the very path of
        a real press); otherwise it hands the press to the main thread directly."""
        if button not in BUTTONS:
            raise KeyError(button)
        device = self.buttons.devices.get(button) if self.buttons is not None else None
        if self.mocked and device is not None:
            device.pin.drive_low()
            time.sleep(self.buttons.min_press + 0.0005)  # held as long as a press must be
            device.pin.drive_high()
        else:
            self._dispatch(lambda: self._press(button))

    # -- settings ------------------------------------------------------------------------
    def set_mute(self, mute: bool) -> None:
        if self.buzzer is not None:
            self.buzzer.set_mute(mute)
            self._changed()

    def set_volume(self, volume: float) -> None:
        if self.buzzer is not None:
            self.buzzer.volume = min(max(float(volume), 0.0), 1.0)

    def set_tempo(self, tempo: float) -> None:
        """Quarter notes per minute, from the next note on."""
        if self.buzzer is not None:
            self.buzzer.tempo = min(max(float(tempo), 20.0), 2000.0)

    # -- the virtual panel ---------------------------------------------------------------
    def add_listener(self, listener: Callable[[], None]) -> None:
        """`listener()` runs on the main thread when the panel changed from another
        thread (a note, the ring); calls are merged while one is pending."""
        self._listeners.append(listener)

    def _changed(self) -> None:
        if not self._listeners or self._notify_pending.is_set():
            return
        self._notify_pending.set()

        def notify() -> None:
            self._notify_pending.clear()
            for listener in list(self._listeners):
                listener()

        self._dispatch(notify)

    def panel_state(self) -> dict[str, Any]:
        """Plain data for an on-screen panel. Blinking LEDs give their rate (the panel
        animates them itself) and their level right now."""
        panel: dict[str, Any] = {"mocked": self.mocked, "problems": list(self.problems),
                                 "clock": None, "treasures": None, "buzzer": None,
                                 "buttons": None, "ring": None}
        if self.clock is not None:
            panel["clock"] = {"leds": len(self.clock.pins), "lit": self.clock.lit,
                              "lit_all": sorted(self.clock.lit_set),
                              "pins": list(self.clock.pins)}
        if self.treasures is not None and self.blinker is not None:
            panel["treasures"] = {}
            for colour in self.treasures.colours:
                on, hz = self.blinker.state(f"treasure.{colour}")
                panel["treasures"][colour] = {"mode": self.treasures.modes[colour], "on": on,
                                              "blink_hz": hz}
        if self.buzzer is not None:
            panel["buzzer"] = {"note": self.buzzer.note, "tune": self.buzzer.playing,
                               "mute": self.buzzer.mute, "volume": self.buzzer.volume}
        if self.buttons is not None:
            panel["buttons"] = {name: {"pin": pin, "pressed": self.buttons.is_pressed(name)}
                                for name, pin in self.buttons.pins.items()}
        if self.ring is not None:
            panel["ring"] = self.ring.snapshot()
        return panel

    def close(self) -> None:
        self.detach()
        for part in (self.buttons, self.buzzer, self.treasures, self.clock, self.ring,
                     self.blinker):
            if part is not None:
                try:
                    part.close()
                except Exception:  # closing must finish whatever one part does
                    log.exception("closing %s", part)
        self.clock = self.treasures = self.buzzer = self.buttons = self.ring = None
        self.blinker = None
