"""The clock's state: immutable, compared by value, every time in integer milliseconds.

Every time in the state is as of `last_at`, the monotonic time of the last command that
carried one: a seat's `bank_ms` is what it had left at that instant. The time since
then is charged by the next command (`engine.settle`) or shown by the views, never
added up from ticks.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.clock.params import ClockParams

#: a clock's life: not started, running, paused, admin time (counted apart), stopped
#: (a sand timer ran out, a phase ended, the game was decided), closed
STATUSES = ("ready", "running", "paused", "admin", "stopped", "closed")


@dataclass(frozen=True)
class Seat:
    """One player's clock."""

    name: str
    colour: str  # "#rrggbb" from the roster, or ""
    #: bank mode: the bank left; turn mode: the active seat's turn time left, the
    #: others' carried time (negative: a debt); count-up, sand, phase: 0
    bank_ms: int = 0
    used_ms: int = 0  # every ms charged to this seat
    turns: int = 0  # turns ended (a pass ends one)
    stage: int = 0  # bank: the stage of the time control (index in params.stages)
    stage_turns: int = 0  # turns ended in that stage
    longest_ms: int = 0  # the longest ended turn
    overtime_ms: int = 0  # time charged below zero
    penalty: int = 0  # penalty points of ended turns (at_zero "penalty")
    passed: bool = False  # passed for this round
    out: bool = False  # eliminated (or out of time with at_zero "out")


@dataclass(frozen=True)
class ClockState:
    """The clock at one moment (`last_at`)."""

    params: ClockParams
    preset: str
    seats: tuple[Seat, ...]
    order: tuple[int, ...]  # seat indices in turn order
    start: int  # the seat that starts (-1: no seats)
    pad_game: int | None = None  # the score pad game it runs beside
    status: str = "ready"
    resume_to: str = "running"  # what admin time gives back: running or paused
    stop_reason: str = ""  # "sand", "phase", "decided", "no_time" when stopped
    active: int = -1  # the seat whose time runs (-1: none, a sand timer alone)
    round: int = 1
    round_first: int = -1  # the seat that began this round
    first_passed: int = -1  # the first seat that passed this round
    last_at: int = 0  # the monotonic ms every time here is as of
    rebase: bool = False  # after Interrupted: the next time read starts a new epoch
    turn_used_ms: int = 0  # running time of the active turn
    turn_over_ms: int = 0  # of which below zero
    #: the ms a zero ended the last turn (at_zero next, out) and began this one; -1:
    #: this turn began otherwise (a tap soon after it was meant for the ended turn)
    timed_out_at: int = -1
    countdown_ms: int = 0  # sand, phase: the shared countdown left
    elapsed_ms: int = 0  # every ms since Start (across power cuts: the epochs' sum)
    pause_ms: int = 0
    admin_ms: int = 0
    table_ms: int = 0  # running or stopped time charged to no seat
    switches: int = 0  # turns ended, every seat
    zeros: int = 0  # zeros reached

    @property
    def started(self) -> bool:
        return self.status != "ready"

    @property
    def in_play(self) -> tuple[int, ...]:
        """Seats not out, in turn order."""
        return tuple(i for i in self.order if not self.seats[i].out)
