"""What happened at the clock, for the screen, the LEDs, the buzzer and the log."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Started:
    seat: int  # -1: no seat (a sand timer alone)


@dataclass(frozen=True)
class TurnEnded:
    """`seat` ended a turn of `used_ms`; its bank is `bank_ms` after `credit_ms`
    (increment, Bronstein) was credited; `seat_to` has the turn now."""

    seat: int
    seat_to: int
    used_ms: int
    credit_ms: int
    bank_ms: int
    passed: bool = False
    timed_out: bool = False  # ended by at_zero "next"


@dataclass(frozen=True)
class NewRound:
    """Everyone had passed: round `round` begins with `seat`."""

    round: int
    seat: int


@dataclass(frozen=True)
class StageReached:
    """`seat` reached stage `stage` (0-based) of the time control: `added_ms` more."""

    seat: int
    stage: int
    added_ms: int


@dataclass(frozen=True)
class PenaltyGiven:
    """`seat` ended a turn `over_ms` past zero: `points` penalty points (`total` now)."""

    seat: int
    points: int
    total: int
    over_ms: int


@dataclass(frozen=True)
class ZeroReached:
    """A bank (`seat`) or the countdown (`seat` -1) reached zero at `at`; `action`:
    overtime, next, penalty, out, or stop (sand, phase)."""

    seat: int
    at: int
    action: str


@dataclass(frozen=True)
class Paused:
    seat: int


@dataclass(frozen=True)
class Resumed:
    paused_ms: int  # how long this pause (or interruption) lasted


@dataclass(frozen=True)
class Flipped:
    left_ms: int  # sand left after the flip


@dataclass(frozen=True)
class Adjusted:
    seat: int
    delta_ms: int
    bank_ms: int


@dataclass(frozen=True)
class Eliminated:
    seat: int
    seat_to: int  # who has the turn now


@dataclass(frozen=True)
class Reordered:
    order: tuple[int, ...]


@dataclass(frozen=True)
class AdminStarted:
    pass


@dataclass(frozen=True)
class AdminEnded:
    admin_ms: int  # this stretch of admin time
    running: bool  # the clock runs again (else paused)


@dataclass(frozen=True)
class Stopped:
    """The clock stopped by itself: `reason` sand (ran out), phase (over), decided (one
    player left in play), no_time (at_zero next: nobody has time left)."""

    reason: str
    seat: int


@dataclass(frozen=True)
class Interruption:
    """The clock was reopened after its process ended: stopped as of its last
    journaled time, paused. `running`: it was running, so up to `at_most_ms` (the
    checkpoint interval) may have been charged to nobody."""

    running: bool
    at_most_ms: int


@dataclass(frozen=True)
class Closed:
    duration_ms: int
    turns: int
