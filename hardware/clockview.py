"""The clock as the physical outputs see it, derived from a game state. Pure code.

Only Pr. Evil has a clock; any other state (or none) gives the idle view, so the
LEDs go dark and the ring shows its idle glow outside a Pr. Evil game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: a treasure LED's behaviour
OFF, STEADY, SLOW, FAST = "off", "steady", "slow", "fast"


@dataclass(frozen=True)
class ClockView:
    dial: int  # positions on the dial; 0 = no clock (idle)
    time: int  # the time marker's position, 0 = XII
    treasures: tuple[tuple[str, int | None], ...]  # (colour, steps left or None), slot order
    mode: str  # play | won | lost | idle
    pending: int  # power activations waiting for the table

    def steps(self, colour: str) -> int | None:
        return dict(self.treasures).get(colour)


IDLE = ClockView(0, 0, (), "idle", 0)


def view_of(state: Any) -> ClockView:
    """The clock of an EvilState (duck-typed so that `hardware` needs no game import)."""
    params = getattr(state, "params", None)
    slots = getattr(state, "slots", None)
    if params is None or slots is None or not hasattr(params, "dial_steps"):
        return IDLE
    treasures = tuple(
        (colour, None if slot is None else slot.steps)
        for colour, slot in zip(params.colours, slots, strict=True)
    )
    outcome = getattr(state, "outcome", None)
    return ClockView(int(params.dial_steps), int(state.time) % int(params.dial_steps),
                     treasures, outcome or "play", int(getattr(state, "pending_powers", 0)))


def treasure_mode(steps: int | None, warn_steps: int, urgent_steps: int) -> str:
    """Steady while safe, blinking when `warn_steps` or fewer remain, faster from
    `urgent_steps`, off while the slot is empty."""
    if steps is None:
        return OFF
    if steps <= urgent_steps:
        return FAST
    if steps <= warn_steps:
        return SLOW
    return STEADY


def led_index(position: int, dial: int, leds: int) -> int:
    """Which of `leds` clock LEDs shows dial position `position` (LED 0 at XII)."""
    return position * leds // dial if dial else 0
