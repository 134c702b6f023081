"""The table clock (game kind "clock") as the physical outputs show it. Pure code.

The play screen reduces the clock's view to a `TimerShown` (whose turn, the time left,
its warning level) at most four times a second and hands it to the station; this
module says what that means for each part:

- the 12 clock LEDs: a draining ring (the countdown of a sand, phase or turn timer:
  as many LEDs lit from XII as twelfths of the time are left) or the active seat's LED
  (a chess clock, count-up); seats share LEDs when there are more seats than LEDs;
- the treasure LEDs (three LEDs or one RGB LED) as a signal: green, yellow (red and
  green together), red, then red blinking fast in overtime; slow blinking while paused;
- the serial ring, in protocol 1 as it is (no new frame, so every ring already
  flashed shows it): the white marker where the LEDs' marker is (the active seat, or
  XII for a countdown), one pixel in the signal's colour as many twelfths ahead as the
  time left (it blinks in the last two twelfths, as the firmware blinks a near
  treasure), the faint glow of a pending power while paused, and the whole ring red
  in overtime ("lost");
- the buzzer: a tick each second of the last `ticks` seconds of a running countdown.
"""

from __future__ import annotations

from dataclasses import dataclass

from hardware.clockview import ClockView, led_index

#: the signal's states
OK, WARN, DANGER, OVER = "ok", "warn", "danger", "over"
DIAL = 12  # positions of the ring frame's dial


@dataclass(frozen=True)
class TimerShown:
    """What the outputs show of a running table clock."""

    seats: int  # players at the table (1 for a sand timer)
    active: int | None  # the seat whose turn it is (None: a shared countdown)
    remaining_ms: int  # the active seat's (or the countdown's) time left; < 0: overtime
    full_ms: int  # what a full ring stands for (the countdown's length, the bank)
    level: str  # ok | warn | danger | over
    running: bool  # False: paused (or admin time)
    drain: bool  # show a draining ring rather than the active seat


@dataclass(frozen=True)
class TimerLights:
    leds: frozenset[int]  # the clock LEDs lit
    signal: frozenset[str]  # the treasure colours lit ("green", "red")
    blink: str  # "" steady, "slow" (paused) or "fast" (overtime)
    ring: ClockView  # the ring's frame


def twelfths_left(remaining_ms: int, full_ms: int, positions: int = DIAL) -> int:
    """How many of `positions` a draining ring still lights: every started share of
    the time left counts (the last LED goes out at zero, not a twelfth before)."""
    if remaining_ms <= 0 or full_ms <= 0:
        return 0
    return min(positions, -(-remaining_ms * positions // full_ms))


def signal_colours(level: str) -> frozenset[str]:
    if level == OK:
        return frozenset({"green"})
    if level == WARN:  # yellow: an RGB LED's red and green, or the two LEDs side by side
        return frozenset({"green", "red"})
    return frozenset({"red"})


def lights(shown: TimerShown | None, leds: int = 12) -> TimerLights:
    """The LEDs, signal and ring frame for a clock (None: no clock, all dark, idle)."""
    if shown is None:
        return TimerLights(frozenset(), frozenset(), "", ClockView(0, 0, (), "idle", 0))
    left = twelfths_left(shown.remaining_ms, shown.full_ms, leds)
    if shown.drain or shown.active is None:
        lit = frozenset(range(left))
        marker = 0
    else:
        lit = frozenset({led_index(shown.active, shown.seats, leds)})
        marker = led_index(shown.active, shown.seats, DIAL)
    over = shown.level == OVER or shown.remaining_ms < 0
    blink = "fast" if over else ("" if shown.running else "slow")
    ahead = twelfths_left(shown.remaining_ms, shown.full_ms, DIAL)
    treasures: tuple[tuple[str, int | None], ...] = ()
    colour = {OK: "green", WARN: "yellow"}.get(shown.level, "red")
    if 0 < ahead < DIAL:
        treasures = ((colour, ahead),)
    ring = ClockView(DIAL, marker, treasures, "lost" if over else "play",
                     0 if shown.running else 1)
    return TimerLights(lit, signal_colours(OVER if over else shown.level), blink, ring)


def tick_due(shown: TimerShown, ticks: int) -> int | None:
    """The whole second of a running countdown's last `ticks` seconds it is in (10, 9,
    ... 1), for one tick each; None outside them."""
    if not shown.running or ticks <= 0 or shown.remaining_ms <= 0:
        return None
    second = -(-shown.remaining_ms // 1000)
    return second if second <= ticks else None
