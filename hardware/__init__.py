"""Everything physical: LEDs, buzzer and buttons on GPIO (gpiozero), the LED ring on
USB serial (pyserial), the ring's firmware, and mock pins for desktops and tests.

Importing this package is light (no gpiozero, no serial): it only defines the
validator of the `hardware` config section (`VALIDATORS`, handed to `config.load`).
The UI uses it like this::

    import hardware
    station = hardware.setup(config, dispatch_on_main=lambda fn: Clock.schedule_once(
        lambda _dt: fn()))           # button presses run fn on the Kivy thread
    station.mocked                   # True without GPIO (desktop, CI): offer the panel
    station.problems                 # [Message]: parts left out (pin busy, ...)
    station.attach(session, later, commands={"roll": Roll})
                                     # subscribes; ROLL -> session.dispatch(Roll()),
                                     # UNDO -> session.undo (the caller names each
                                     # button's command: the hardware knows no game);
                                     # later(fn): the outputs follow after the frame
    station.bind("ok", confirm_dialog)   # OK confirms the dialog on screen (None: unbind)
    station.on_error(show_toast)     # a refused press (RuleError) -> Message
    station.detach()                 # leaving the game: LEDs off, ROLL/UNDO unbound
    station.show_state(state)        # show a state silently (attach() does it)
    station.observe(update)          # what an update does to the outputs
    station.panel_state()            # plain data for the virtual panel, see below
    station.add_listener(fn)         # fn() on the main thread when the panel changed
    station.press("roll")            # a virtual button (drives the mock pin)
    station.set_mute(True); station.set_volume(0.5); station.set_tempo(240)
    station.close()

`panel_state()` returns::

    {"mocked": bool, "problems": [Message],
     "clock": {"leds": 12, "lit": 3 or None, "lit_all": [0, 1, 2], "pins": [...]}
              or None,
     "treasures": {"red": {"mode": "off|steady|slow|fast", "on": bool,
                           "blink_hz": float}, ...} or None,
     "buzzer": {"note": "A5" or None, "tune": "roll" or None, "mute": bool,
                "volume": float} or None,
     "buttons": {"roll": {"pin": 21, "pressed": bool}, ...} or None,
     "ring": {"port": str, "status": "connecting|connected|loopback|disconnected|
              silent|incompatible", "problem": Message or None,
              "handshake": {"protocol", "pixels", "firmware"} or {"loopback": True}
              or None, "last_frame": str or None, "acked": bool, "stats": {...}} or None}

Translation keys for statuses: `hardware.ring.status.<status>`; parts:
`hardware.part.<part>`. `companion doctor` is `hardware.doctor:main`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from companion.config import Validators

if TYPE_CHECKING:
    from hardware.station import Station


def _check(section: Any) -> Any:
    # the checks themselves are imported only when a config sets the hardware section
    from hardware.validate import validate

    return validate(section)


#: the hardware section's check, to hand to `companion.config.load`
VALIDATORS: Validators = {"hardware": _check}


def setup(config: Any, dispatch_on_main: Callable[[Callable[[], None]], None],
          actions: Mapping[str, Callable[[], None]] | None = None, *,
          pin_factory: Any = None, ring_opener: Callable[..., Any] | None = None) -> Station:
    """Build the parts enabled in `config` (a companion Config, or its `hardware`
    section). `actions` maps "roll"/"undo"/"ok" to what they do (see `bind`);
    `pin_factory` forces one (tests), else the config's choice, falling back to mock."""
    from hardware.station import Station

    section = config.get("hardware") if hasattr(config, "data") else config
    return Station(section, dispatch_on_main, actions, pin_factory=pin_factory,
                   ring_opener=ring_opener)


__all__ = ["setup"]
