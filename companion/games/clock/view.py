"""What the clock's screens, LEDs and buzzer show: pure functions of (state, now).

`now` is the monotonic ms the app reads when it draws; the view is the state settled
to `now` (`engine.settle`), so what is shown is what the journal will hold once the
next command carries that time, zeros included.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.clock import engine
from companion.games.clock.state import ClockState


@dataclass(frozen=True)
class SeatView:
    """One seat as the screen shows it. `remaining_ms`: the bank (bank), the turn's
    time left or the carry (turn), the time so far (count-up); negative in overtime."""

    index: int
    name: str
    colour: str
    remaining_ms: int
    total_ms: int  # every ms charged to the seat
    turn_ms: int  # the active turn so far (0 for the others)
    delay_left_ms: int  # the active turn's delay or allowance left (Bronstein: to credit)
    passed: bool
    out: bool
    active: bool
    turns: int
    penalty: int  # penalty points so far (at_zero "penalty"), the live turn's included
    level: str  # "ok", "warn", "danger", "over"


@dataclass(frozen=True)
class ClockView:
    mode: str
    status: str  # ready, running, paused, admin, stopped, closed
    stop_reason: str
    active: int  # -1: no seat
    seats: tuple[SeatView, ...]
    countdown_ms: int | None  # sand, phase: the shared countdown; turn: the active turn's
    countdown_level: str
    pause_ms: int
    admin_ms: int
    table_ms: int  # the table's whole time since the start (every stretch)
    round: int
    order: tuple[int, ...]
    interrupted: bool  # reopened after a power cut, not resumed yet
    start: int = -1  # the seat that begins (or began) the clock


def level(state: ClockState, remaining: int) -> str:
    p = state.params
    if remaining <= 0:
        return "over"
    if p.danger_ms and remaining <= p.danger_ms:
        return "danger"
    if p.warn_ms and remaining <= p.warn_ms:
        return "warn"
    return "ok"


def _penalty_live(state: ClockState) -> int:
    """The points the active turn adds so far (given when it ends)."""
    if state.active < 0:
        return 0
    return engine.penalty_owed(state) - state.seats[state.active].penalty


def clock_view(state: ClockState, now: int) -> ClockView:
    interrupted = state.rebase
    state, _ = engine.settle(state, now)
    mode = state.params.mode
    seats = []
    for i, seat in enumerate(state.seats):
        active = i == state.active and state.started
        if mode == "countup":
            remaining = seat.used_ms
            lvl = "ok"
        elif mode in ("sand", "phase"):
            remaining = state.countdown_ms if active else 0
            lvl = level(state, remaining) if active else "ok"
        else:
            remaining = seat.bank_ms
            lvl = level(state, remaining) if (active or mode == "bank") else "ok"
        delay = 0
        if active and mode == "bank":
            delay = engine.free_left(state) or max(
                0, min(state.params.bronstein_ms - state.turn_used_ms,
                       state.params.bronstein_ms))
        seats.append(SeatView(i, seat.name, seat.colour, remaining, seat.used_ms,
                              state.turn_used_ms if active else 0, delay, seat.passed,
                              seat.out, active, seat.turns,
                              seat.penalty + (_penalty_live(state) if active else 0), lvl))
    countdown: int | None = None
    if mode in ("sand", "phase"):
        countdown = state.countdown_ms if state.started else state.params.time_ms
    elif mode == "turn" and state.active >= 0 and state.started:
        countdown = state.seats[state.active].bank_ms
    return ClockView(mode, state.status, state.stop_reason, state.active, tuple(seats),
                     countdown, "ok" if countdown is None else level(state, countdown),
                     state.pause_ms, state.admin_ms, state.elapsed_ms, state.round,
                     state.order, interrupted, state.start)


def next_deadline(state: ClockState, now: int) -> int | None:
    """The monotonic ms after `now` at which the view changes by itself (a zero, a
    warning level, a delay ending, a penalty interval begun), for the app to schedule
    one event (and send `Zero`) instead of polling; None when nothing will."""
    state, _ = engine.settle(state, now)
    if state.status != "running":
        return None
    at = max(now, state.last_at)
    mode = state.params.mode
    p = state.params
    if mode == "countup":
        return None
    if mode in ("sand", "phase"):
        left, free = state.countdown_ms, 0
    elif state.active < 0:
        return None
    else:
        left, free = state.seats[state.active].bank_ms, engine.free_left(state)
    found: list[int] = []
    if free > 0:
        found.append(free)
    for threshold in (p.warn_ms, p.danger_ms, 0):
        if left > threshold and (threshold or left > 0):
            found.append(free + left - threshold)
    if left <= 0 and p.at_zero == "penalty":  # the next started interval: one more point
        over, every = engine.penalty_overtime(state), p.penalty_every_ms
        found.append(-(-over // every) * every + 1 - over)
    found = [d for d in found if d > 0]
    return at + min(found) if found else None


def zero_at(state: ClockState, now: int) -> int | None:
    """The monotonic ms at which the running bank or countdown reaches zero (the
    `Zero` command's time), None when no zero lies ahead."""
    state, _ = engine.settle(state, now)
    ahead = engine.time_to_zero(state)
    return None if ahead is None else state.last_at + ahead


@dataclass(frozen=True)
class SeatStats:
    name: str
    total_ms: int
    turns: int  # ended turns, and the turn under way if it has run
    average_ms: int
    longest_ms: int
    overtime_ms: int
    penalty: int
    out: bool


@dataclass(frozen=True)
class ClockStats:
    seats: tuple[SeatStats, ...]
    pause_ms: int
    admin_ms: int
    table_ms: int
    duration_ms: int
    switches: int


def stats(state: ClockState) -> ClockStats:
    """Per seat: total time, turns, average and longest turn, overtime, penalty points
    (the turn under way counted as it stands); for the summary, History and exports."""
    rows = []
    for i, seat in enumerate(state.seats):
        turns, longest = seat.turns, seat.longest_ms
        penalty = seat.penalty
        if i == state.active and state.turn_used_ms > 0 and state.status != "ready":
            turns += 1
            longest = max(longest, state.turn_used_ms)
            penalty += _penalty_live(state)
        average = seat.used_ms // turns if turns else 0
        rows.append(SeatStats(seat.name, seat.used_ms, turns, average, longest,
                              seat.overtime_ms, penalty, seat.out))
    return ClockStats(tuple(rows), state.pause_ms, state.admin_ms, state.table_ms,
                      state.elapsed_ms, state.switches)
