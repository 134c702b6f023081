"""The arithmetic of the clock: banks, increments, delays, stages, zeros. Pure
functions of (state, time); the rules and the views both go through `settle`.

Time is never added up from ticks: every command carries the monotonic ms at which it
happened, and `settle(state, at)` charges the whole `at - state.last_at` at once to
whoever ran (a seat, the pause, the admin time, or the table), integer ms, so over any
number of commands the charges add up exactly to the time elapsed. A zero reached in
between is applied at the very ms it was reached (the preset's `at_zero`), whatever
command comes next and however late: the outcome depends only on the times.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.games.clock import events as e
from companion.games.clock.state import ClockState, Seat

Events = list[Any]


def with_seat(state: ClockState, index: int, seat: Seat) -> ClockState:
    seats = list(state.seats)
    seats[index] = seat
    return replace(state, seats=tuple(seats))


def free_left(state: ClockState) -> int:
    """What is left of the active turn's time spent before the bank (allowance and
    simple delay): the bank waits until it is used up."""
    if state.params.mode != "bank":
        return 0
    return max(0, state.params.free_ms - state.turn_used_ms)


def time_to_zero(state: ClockState) -> int | None:
    """Running ms from `last_at` until the active countdown or bank reaches zero; None
    when no zero lies ahead (not running, counting up, already at or past zero)."""
    if state.status != "running":
        return None
    mode = state.params.mode
    if mode in ("sand", "phase"):
        return state.countdown_ms if state.countdown_ms > 0 else None
    if mode == "countup" or state.active < 0:
        return None
    bank = state.seats[state.active].bank_ms
    if bank <= 0:
        return None
    return free_left(state) + bank


def charge(state: ClockState, delta: int) -> ClockState:
    """Charge `delta` ms (no zero reached within it) to whoever runs."""
    if delta <= 0:
        return state
    state = replace(state, last_at=state.last_at + delta,
                    elapsed_ms=state.elapsed_ms + delta)
    if state.status == "paused":
        return replace(state, pause_ms=state.pause_ms + delta)
    if state.status == "admin":
        return replace(state, admin_ms=state.admin_ms + delta)
    if state.status != "running":
        return replace(state, table_ms=state.table_ms + delta)
    mode = state.params.mode
    if mode in ("sand", "phase"):
        state = replace(state, countdown_ms=state.countdown_ms - delta)
    state = replace(state, turn_used_ms=state.turn_used_ms + delta)
    if state.active < 0:
        return replace(state, table_ms=state.table_ms + delta)
    seat = state.seats[state.active]
    over = 0
    bank = seat.bank_ms
    if mode in ("bank", "turn"):
        spent = delta
        if mode == "bank":  # the turn's free time (allowance, simple delay) goes first
            free_before = max(0, state.params.free_ms - (state.turn_used_ms - delta))
            spent = max(0, delta - free_before)
        bank = seat.bank_ms - spent
        over = max(0, -bank) - max(0, -seat.bank_ms)
    seat = replace(seat, bank_ms=bank, used_ms=seat.used_ms + delta,
                   overtime_ms=seat.overtime_ms + over)
    state = with_seat(state, state.active, seat)
    return replace(state, turn_over_ms=state.turn_over_ms + over)


def settle(state: ClockState, at: int) -> tuple[ClockState, Events]:
    """The state as of `at`: the time since `last_at` charged, every zero reached on
    the way applied at its own ms. A time before `last_at` (a command read before the
    one journaled last) is taken as `last_at`: time never runs backwards. After an
    interruption the first time read starts a new epoch, charging nothing."""
    if not state.started or state.status == "closed":
        return state, []
    if state.rebase:
        return replace(state, last_at=at, rebase=False), []
    events: Events = []
    target = max(at, state.last_at)
    while True:
        delta = target - state.last_at
        ahead = time_to_zero(state)
        if ahead is None or ahead > delta:
            return charge(state, delta), events
        state = charge(state, ahead)
        state, happened = on_zero(state)
        events.extend(happened)


# -- turns ------------------------------------------------------------------------------
def has_time(state: ClockState, index: int) -> bool:
    """Whether a seat would begin a turn with time left (at_zero "next" skips it)."""
    seat = state.seats[index]
    if state.params.mode == "turn":
        return seat.bank_ms + state.params.time_ms > 0
    if state.params.mode == "bank":
        return seat.bank_ms > 0
    return True


#: a switch or a pass this soon after a zero ended a turn (at_zero next, out) was
#: meant for the turn the zero ended: it ends nothing more (the tap met the zero, or
#: waited behind its commit). The screen shows a zero within a look (a quarter of a
#: second) and a commit, and refuses presses for its zero tune from then on; nobody
#: ends a turn they were given this fast on purpose
ZERO_GRACE_MS = 1000


def in_zero_grace(state: ClockState, at: int) -> bool:
    """Whether a switch or pass at `at` comes just after a zero ended the last turn."""
    return state.timed_out_at >= 0 and at - state.timed_out_at < ZERO_GRACE_MS


def begin_turn(state: ClockState, index: int) -> ClockState:
    state = replace(state, active=index, turn_used_ms=0, turn_over_ms=0, timed_out_at=-1)
    if state.params.mode == "turn":
        seat = state.seats[index]
        state = with_seat(state, index, replace(seat, bank_ms=seat.bank_ms
                                                + state.params.time_ms))
    if state.params.mode in ("sand", "phase"):
        state = replace(state, countdown_ms=state.params.time_ms)
    return state


def penalty_overtime(state: ClockState) -> int:
    """The overtime the active seat's penalty is counted on: a bank's whole overtime
    (Scrabble: "a 10-point penalty for each minute or part thereof that is used in
    excess"), a turn timer's turn (each turn has its own time)."""
    if state.params.mode == "bank":
        return state.seats[state.active].overtime_ms
    return state.turn_over_ms


def penalty_owed(state: ClockState) -> int:
    """The active seat's penalty points as they stand (at_zero "penalty"): points per
    started interval of its overtime, the turn under way included."""
    p = state.params
    if p.at_zero != "penalty" or state.active < 0:
        return 0
    seat = state.seats[state.active]
    if state.turn_over_ms <= 0:
        return seat.penalty
    if p.mode == "bank":
        return -(-seat.overtime_ms // p.penalty_every_ms) * p.penalty_points
    return seat.penalty + -(-state.turn_over_ms // p.penalty_every_ms) * p.penalty_points


def close_turn(state: ClockState, *, credit: bool = True) -> tuple[ClockState, int, Events]:
    """End the active seat's turn: its statistics, penalty points, the next stage and
    the credits (Bronstein: what the turn used, at most the delay; Fischer: the stage's
    increment). Returns the state, the credit, the events."""
    p = state.params
    index = state.active
    seat = state.seats[index]
    used = state.turn_used_ms
    events: Events = []
    seat = replace(seat, turns=seat.turns + 1, longest_ms=max(seat.longest_ms, used))
    points = penalty_owed(state) - state.seats[index].penalty
    if points > 0:
        seat = replace(seat, penalty=seat.penalty + points)
        events.append(e.PenaltyGiven(index, points, seat.penalty, state.turn_over_ms))
    credited = 0
    if p.mode == "turn" and not p.carry:
        seat = replace(seat, bank_ms=0)
    if p.mode == "bank":
        stage = p.stages[seat.stage]
        seat = replace(seat, stage_turns=seat.stage_turns + 1)
        if stage.moves and seat.stage_turns >= stage.moves:
            following = min(seat.stage + 1, len(p.stages) - 1)  # a last stage repeats
            added = p.stages[following].time_ms
            seat = replace(seat, stage=following, stage_turns=0, bank_ms=seat.bank_ms + added)
            events.append(e.StageReached(index, following, added))
        if credit:
            # after: the increment of the stage the move was made in; before (FIDE:
            # "added before each move"): the next move's, a new stage's from its first
            # move (its first increment was credited at Start)
            paid = stage if p.increment_first == "after" else p.stages[seat.stage]
            credited = min(p.bronstein_ms, used) + paid.increment_ms
        seat = replace(seat, bank_ms=seat.bank_ms + credited)
    state = with_seat(state, index, seat)
    return replace(state, switches=state.switches + 1), credited, events


def following(state: ClockState, index: int) -> int | None:
    """The next seat in play after `index` that has not passed (None: all passed)."""
    order = state.order
    start = order.index(index) if index in order else -1
    for step in range(1, len(order) + 1):
        candidate = order[(start + step) % len(order)]
        seat = state.seats[candidate]
        if not seat.out and not seat.passed:
            return candidate
    return None


def next_in_play(state: ClockState, index: int, *, including: bool = False) -> int:
    """`index` itself if it is in play and `including`, else the next seat in play."""
    order = state.order
    start = order.index(index)
    for step in range(0 if including else 1, len(order) + 1):
        candidate = order[(start + step) % len(order)]
        if not state.seats[candidate].out:
            return candidate
    return index


def hand_on(state: ClockState, after: int) -> tuple[ClockState, Events]:
    """Give the turn to whoever follows `after` (a new round when everyone in play has
    passed); with at_zero "next", seats with no time left are passed over, and when
    nobody has any the clock stops. Never leaves the clock with nobody's turn."""
    events: Events = []
    nxt = following(state, after)
    if nxt is None:  # everyone in play passed: a new round
        state, first = new_round(state, after)
        events.append(e.NewRound(state.round, first))
        nxt = first
    if state.params.at_zero == "next":
        tried = 0
        while not has_time(state, nxt):
            tried += 1
            candidate = following(state, nxt)
            if candidate is None or tried >= len(state.order):
                state = replace(state, status="stopped", stop_reason="no_time", active=nxt,
                                turn_used_ms=0, turn_over_ms=0)
                return state, [*events, e.Stopped("no_time", nxt)]
            nxt = candidate
    return begin_turn(state, nxt), events


def new_round(state: ClockState, after: int) -> tuple[ClockState, int]:
    """Everyone in play has passed: their passes are cleared, and the round begins
    with the seat the preset's `round_start` says."""
    p = state.params
    first = state.round_first if state.round_first >= 0 else after
    if p.round_start == "rotate":
        first = next_in_play(state, first)
    elif p.round_start == "first_passed" and state.first_passed >= 0:
        first = next_in_play(state, state.first_passed, including=True)
    else:
        first = next_in_play(state, first, including=True)
    seats = tuple(replace(s, passed=False) for s in state.seats)
    state = replace(state, seats=seats, round=state.round + 1, round_first=first,
                    first_passed=-1)
    return state, first


def end_turn(state: ClockState, *, passed: bool = False, timed_out: bool = False
             ) -> tuple[ClockState, Events]:
    """The active seat ends its turn (a switch, a pass, a zero with at_zero "next");
    the next seat has the turn."""
    index = state.active
    used = state.turn_used_ms
    if passed:
        state = with_seat(state, index, replace(state.seats[index], passed=True))
        if state.first_passed < 0:
            state = replace(state, first_passed=index)
    # a turn the zero ended earns no credit (increment, Bronstein): the bank is used
    # up, as a simple delay leaves it (it gives nothing back)
    state, credit, closed = close_turn(state, credit=not timed_out)
    bank = state.seats[index].bank_ms
    state, handed = hand_on(state, index)
    ended = e.TurnEnded(index, state.active, used, credit, bank, passed, timed_out)
    return state, [*closed, ended, *handed]


def decided(state: ClockState) -> bool:
    """One seat left in play of several: the game is decided, the clock stops."""
    return len(state.seats) >= 2 and len(state.in_play) <= 1


def eliminate(state: ClockState, index: int) -> tuple[ClockState, Events]:
    """Seat `index` is out; if it had the turn, the next seat in play has it."""
    was_active = index == state.active
    state = with_seat(state, index, replace(state.seats[index], out=True, passed=False))
    events: Events = []
    if decided(state):
        left = state.in_play[0]
        state = replace(state, status="stopped", stop_reason="decided", active=left)
        return state, [e.Eliminated(index, left), e.Stopped("decided", left)]
    if was_active:
        state, events = hand_on(state, index)
    return state, [e.Eliminated(index, state.active), *events]


def on_zero(state: ClockState) -> tuple[ClockState, Events]:
    """The active countdown or bank has just reached zero (at `state.last_at`)."""
    at = state.last_at
    p = state.params
    state = replace(state, zeros=state.zeros + 1)
    if p.mode in ("sand", "phase"):
        reason = p.mode
        state = replace(state, status="stopped", stop_reason=reason)
        return state, [e.ZeroReached(state.active, at, "stop"), e.Stopped(reason, state.active)]
    index = state.active
    events: Events = [e.ZeroReached(index, at, p.at_zero)]
    if p.at_zero == "next":
        state, ended = end_turn(state, timed_out=True)
        return replace(state, timed_out_at=at), [*events, *ended]
    if p.at_zero == "out":
        state, _, closed = close_turn(state, credit=False)
        state, gone = eliminate(state, index)
        return replace(state, timed_out_at=at), [*events, *closed, *gone]
    return state, events
