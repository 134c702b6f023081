"""Every action at the clock, each journaled. `at` is the monotonic clock in ms
(`time.monotonic_ns() // 1_000_000`) read once, at the edge, when the press happened:
the rules never read a clock, so a journal replays to the same banks anywhere."""

from __future__ import annotations

from dataclasses import dataclass

from companion.records import registry


@dataclass(frozen=True)
class Start:
    """Start the clock: `seat` begins (None: the setup's start player)."""

    at: int
    seat: int | None = None


@dataclass(frozen=True)
class Switch:
    """End the turn. `seat`: the seat whose button was pressed (refused unless it is
    the active one); None: the screen or ROLL, which always mean the active seat.
    Sand and phase: a fresh countdown for the next seat."""

    at: int
    seat: int | None = None


@dataclass(frozen=True)
class Pass:
    """The active player passes for this round (skipped until everyone has passed)."""

    at: int


@dataclass(frozen=True)
class Pause:
    at: int


@dataclass(frozen=True)
class Resume:
    at: int


@dataclass(frozen=True)
class Flip:
    """Sand: turn the timer over (the time left and the time run swap)."""

    at: int


@dataclass(frozen=True)
class Adjust:
    """Add (or, negative, remove) time to one seat's bank."""

    at: int
    seat: int
    delta_ms: int


@dataclass(frozen=True)
class Eliminate:
    """This seat is out: skipped from now on."""

    at: int
    seat: int


@dataclass(frozen=True)
class Reorder:
    """The turn order from now on: every seat once."""

    at: int
    order: tuple[int, ...]


@dataclass(frozen=True)
class Admin:
    """Admin time (rules look-up, set-up) on or off: counted apart, charged to nobody."""

    at: int
    on: bool


@dataclass(frozen=True)
class Zero:
    """The app saw a bank (`seat`) or the countdown (None) reach zero by `at`: the
    rules check it did and apply the preset's `at_zero`."""

    at: int
    seat: int | None = None


@dataclass(frozen=True)
class Checkpoint:
    """Journal the time so far (a running clock, every `checkpoint_ms`): it charges the
    time to whoever runs and changes nothing else. Silent: the Undo button skips it."""

    at: int


@dataclass(frozen=True)
class Interrupted:
    """The app reopened the clock (a power cut, a crash, a restart): the monotonic
    clock may have restarted, so the clock stops as of its last journaled time
    (`state.last_at`), paused; the next time read starts a new epoch."""


@dataclass(frozen=True)
class Close:
    """The session ends: the statistics are final."""

    at: int


COMMANDS = registry([Start, Switch, Pass, Pause, Resume, Flip, Adjust, Eliminate, Reorder,
                     Admin, Zero, Checkpoint, Interrupted, Close])
#: commands the Undo button passes over (it undoes them with the next one)
SILENT = (Checkpoint,)
