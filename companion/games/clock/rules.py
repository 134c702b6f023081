"""The table's clock as a pure reducer: sand timer, turn timer, chess clock for 2 to 8,
phase countdown, count-up. The journal, undo and redo come from the session.

Setup: `{"preset": id, "params": ClockParams.to_setup(), "players": [{"name", "colour"}],
"start": seat | None (None: drawn from "seed"), "seed": int, "banks": [ms | None per
seat] (handicaps, bank mode), "pad_game": game id | None}`. Every command carries its
time (`at`, monotonic ms); the arithmetic is in `engine`, the fairness rules in
docs/architecture.md ("The table's clock").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from companion.games.clock import commands as c
from companion.games.clock import engine
from companion.games.clock import events as e
from companion.games.clock.durations import MAX_MS
from companion.games.clock.params import ClockParams
from companion.games.clock.state import ClockState, Seat
from companion.messages import Message, RuleError, msg
from companion.names import checked_name

Events = list[Any]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _seats(raw: Any, params: ClockParams) -> tuple[Seat, ...]:
    low, high = params.seats
    if raw is None:
        raw = []
    if not isinstance(raw, (list, tuple)) or not low <= len(raw) <= high:
        raise RuleError("clock.error.players_count", low=low, high=high, mode=params.mode)
    seats = []
    for item in raw:
        if isinstance(item, Mapping):
            name, colour = item.get("name"), item.get("colour") or ""
        else:
            name, colour = item, ""
        if not isinstance(colour, str):
            raise RuleError("clock.error.setup", reason="colour")
        seats.append(Seat(checked_name(name), colour))
    if len({s.name.casefold() for s in seats}) != len(seats):
        raise RuleError("core.error.duplicate_name")
    return tuple(seats)


class ClockRules:
    kind = "clock"
    commands = c.COMMANDS
    state_type = ClockState

    def initial_state(self, setup: Mapping[str, Any]) -> ClockState:
        try:
            params = ClockParams.from_setup(setup.get("params"))  # type: ignore[arg-type]
        except (ValueError, TypeError) as exc:
            raise RuleError("clock.error.setup", reason=f"params {exc}") from exc
        preset = setup.get("preset", "")
        if not isinstance(preset, str):
            raise RuleError("clock.error.setup", reason="preset")
        seats = _seats(setup.get("players"), params)
        if params.mode == "bank":
            seats = _handicaps(seats, setup.get("banks"), params)
        start = setup.get("start")
        if start is None and seats:
            seed = setup.get("seed")
            if not _is_int(seed):
                raise RuleError("clock.error.setup", reason="seed")
            from companion.dice import draw

            start = int(draw(seed, 0, [str(i) for i in range(len(seats))]))
        elif not seats:
            start = -1
        elif not _is_int(start) or not 0 <= start < len(seats):
            raise RuleError("clock.error.no_such_seat", seat=_shown(start))
        pad = setup.get("pad_game")
        if pad is not None and not _is_int(pad):
            raise RuleError("clock.error.setup", reason="pad_game")
        return ClockState(params=params, preset=preset, seats=seats,
                          order=tuple(range(len(seats))), start=start, pad_game=pad)

    def check_resumable(self, setup: Mapping[str, Any]) -> None:
        pass  # one version of these rules so far

    def summary(self, state: ClockState) -> dict[str, Any]:
        from companion.games.clock.view import stats

        figures = stats(state)
        return {
            "finished": state.status == "closed",
            "players": [s.name for s in state.seats],
            "preset": state.preset,
            "mode": state.params.mode,
            "times_ms": [s.total_ms for s in figures.seats],
            "turns": [s.turns for s in figures.seats],
            "longest_ms": [s.longest_ms for s in figures.seats],
            "overtime_ms": [s.overtime_ms for s in figures.seats],
            "penalties": [s.penalty for s in figures.seats],
            "out": [s.out for s in state.seats],
            "pause_ms": state.pause_ms,
            "admin_ms": state.admin_ms,
            "duration_ms": state.elapsed_ms,
            "turn": state.switches,
            "pad_game": state.pad_game,
        }

    def landing(self, current: ClockState, target: ClockState, at: int) -> ClockState:
        """The state an undo or redo at `at` lands on (the session asks): `target`, the
        state before (or after) the command, with the pause and admin time counted
        since it was the clock's charged to nobody, moved to its `last_at`. A pause's
        time, once it ran, is never charged to a player, whatever is undone or redone;
        the rest of the time since is charged as if the command had (not) been made."""
        if not target.started or current.rebase or target.rebase \
                or target.status == "closed":
            return target  # nothing ran since, or on another monotonic clock
        # the clock was not running since it was undone to before its Start, or
        # since it was closed (the end page): that time is nobody's either
        if not current.started:  # the Start redone
            current = replace(target, status="paused")
        elif current.status == "closed":  # the Close undone
            current = replace(current, status="paused")
        shown, _ = engine.settle(current, at)
        span = max(0, shown.last_at - target.last_at)
        paused = min(max(0, shown.pause_ms - target.pause_ms), span)
        admin = min(max(0, shown.admin_ms - target.admin_ms), span - paused)
        if not paused and not admin:
            return target
        return replace(target, last_at=target.last_at + paused + admin,
                       elapsed_ms=target.elapsed_ms + paused + admin,
                       pause_ms=target.pause_ms + paused, admin_ms=target.admin_ms + admin)

    def apply(self, state: ClockState, command: Any) -> tuple[ClockState, Events]:
        if state.status == "closed":
            raise RuleError("clock.error.closed")
        handler = _HANDLERS.get(type(command))
        if handler is None:
            raise RuleError("core.error.unknown_command", name=type(command).__name__)
        at = getattr(command, "at", 0)
        if not _is_int(at) or not 0 <= at < 2**62:
            raise RuleError("clock.error.bad_time", at=str(at)[:20])
        return handler(state, command)


RULES = ClockRules()


def _handicaps(seats: tuple[Seat, ...], banks: Any, params: ClockParams) -> tuple[Seat, ...]:
    """Each seat's starting bank: the preset's, or its own (a handicap)."""
    if banks is None:
        banks = [None] * len(seats)
    if not isinstance(banks, (list, tuple)) or len(banks) != len(seats):
        raise RuleError("clock.error.setup", reason="banks")
    out = []
    for seat, bank in zip(seats, banks, strict=True):
        if bank is None:
            bank = params.time_ms
        if not _is_int(bank) or not 0 < bank <= MAX_MS:
            raise RuleError("clock.error.bank_range")
        out.append(replace(seat, bank_ms=bank))
    return tuple(out)


# -- guards ---------------------------------------------------------------------------
def _started(state: ClockState) -> None:
    if not state.started:
        raise RuleError("clock.error.not_started")


def _running(state: ClockState) -> None:
    _started(state)
    if state.status == "paused":
        raise RuleError("clock.error.paused")
    if state.status == "admin":
        raise RuleError("clock.error.admin")
    if state.status == "stopped":
        raise RuleError("clock.error.stopped")


def _seat(state: ClockState, seat: Any) -> int:
    if not _is_int(seat) or not 0 <= seat < len(state.seats):
        raise RuleError("clock.error.no_such_seat", seat=_shown(seat))
    return int(seat)


def _shown(seat: Any) -> str:
    """A seat as the table counts them (from 1)."""
    return str(seat + 1) if _is_int(seat) else str(seat)[:20]


def _not_active(state: ClockState, seat: Any) -> RuleError:
    """A press for a seat whose time is not running (a seat button)."""
    index = _seat(state, seat)
    return RuleError("clock.error.not_active", player=state.seats[index].name)


def _modes(state: ClockState, *modes: str) -> None:
    if state.params.mode not in modes:
        raise RuleError("clock.error.not_in_mode", mode=state.params.mode)


# -- handlers -------------------------------------------------------------------------
def _start(state: ClockState, cmd: c.Start) -> tuple[ClockState, Events]:
    if state.started:
        raise RuleError("clock.error.started")
    start = state.start if cmd.seat is None else _seat(state, cmd.seat)
    if start >= 0 and state.seats[start].out:
        raise RuleError("clock.error.seat_out", player=state.seats[start].name)
    state = replace(state, status="running", last_at=cmd.at, start=start, round_first=start)
    p = state.params
    if p.mode == "bank" and p.increment_first == "before":
        first = p.stages[0].increment_ms  # DGT-style: every bank starts with one
        state = replace(state, seats=tuple(replace(s, bank_ms=s.bank_ms + first)
                                           for s in state.seats))
    return engine.begin_turn(state, start), [e.Started(start)]


def _switch(state: ClockState, cmd: c.Switch) -> tuple[ClockState, Events]:
    _started(state)
    state, events = engine.settle(state, cmd.at)
    if state.params.mode in ("sand", "phase"):
        if state.status in ("paused", "admin"):
            _running(state)
        nxt = engine.next_in_play(state, state.active) if state.seats else -1
        if cmd.seat is not None and cmd.seat != state.active:
            raise _not_active(state, cmd.seat)
        ended = e.TurnEnded(state.active, nxt, state.turn_used_ms, 0, 0)
        if state.active >= 0:
            seat = state.seats[state.active]
            state = engine.with_seat(state, state.active, replace(
                seat, turns=seat.turns + 1, longest_ms=max(seat.longest_ms,
                                                           state.turn_used_ms)))
        state = replace(state, status="running", stop_reason="",
                        switches=state.switches + 1)
        return engine.begin_turn(state, nxt), [*events, ended]
    if engine.in_zero_grace(state, cmd.at):
        return state, events  # the tap meant for the turn a zero has just ended
    _running(state)
    if cmd.seat is not None and cmd.seat != state.active:
        raise _not_active(state, cmd.seat)
    state, ended = engine.end_turn(state)
    return state, [*events, *ended]


def _pass(state: ClockState, cmd: c.Pass) -> tuple[ClockState, Events]:
    _modes(state, "turn", "bank", "countup")
    _started(state)
    state, events = engine.settle(state, cmd.at)
    if engine.in_zero_grace(state, cmd.at):
        return state, events  # the tap meant for the turn a zero has just ended
    _running(state)
    state, ended = engine.end_turn(state, passed=True)
    return state, [*events, *ended]


def _pause(state: ClockState, cmd: c.Pause) -> tuple[ClockState, Events]:
    _started(state)
    state, events = engine.settle(state, cmd.at)
    _running(state)
    return replace(state, status="paused"), [*events, e.Paused(state.active)]


def _resume(state: ClockState, cmd: c.Resume) -> tuple[ClockState, Events]:
    _started(state)
    before = state.pause_ms
    state, events = engine.settle(state, cmd.at)
    if state.status != "paused":
        raise RuleError("clock.error.not_paused")
    state = replace(state, status="running")
    return state, [*events, e.Resumed(state.pause_ms - before)]


def _flip(state: ClockState, cmd: c.Flip) -> tuple[ClockState, Events]:
    _modes(state, "sand")
    _started(state)
    state, events = engine.settle(state, cmd.at)
    if state.status in ("paused", "admin"):
        _running(state)
    left = state.params.time_ms - max(0, state.countdown_ms)
    state = replace(state, status="running", stop_reason="", countdown_ms=left)
    if left <= 0:  # turned over before any sand ran: it is out at once
        state, out = engine.on_zero(state)
        return state, [*events, e.Flipped(left), *out]
    return state, [*events, e.Flipped(left)]


def _adjust(state: ClockState, cmd: c.Adjust) -> tuple[ClockState, Events]:
    _modes(state, "bank", "turn")
    index = _seat(state, cmd.seat)
    if not _is_int(cmd.delta_ms) or cmd.delta_ms == 0 or abs(cmd.delta_ms) > MAX_MS:
        raise RuleError("clock.error.adjust_range")
    state, events = engine.settle(state, cmd.at)
    seat = state.seats[index]
    if seat.out:
        raise RuleError("clock.error.seat_out", player=seat.name)
    bank = seat.bank_ms + cmd.delta_ms
    if abs(bank) > MAX_MS:
        raise RuleError("clock.error.adjust_range")
    # at_zero next and out act when time runs out during a turn: a bank taken to zero
    # by hand would be passed over or played in overtime instead
    left = bank + (state.params.time_ms if state.params.mode == "turn"
                   and index != state.active else 0)
    if state.params.at_zero in ("next", "out") and cmd.delta_ms < 0 and left <= 0:
        raise RuleError("clock.error.adjust_to_zero", player=seat.name)
    state = engine.with_seat(state, index, replace(seat, bank_ms=bank))
    return state, [*events, e.Adjusted(index, cmd.delta_ms, bank)]


def _eliminate(state: ClockState, cmd: c.Eliminate) -> tuple[ClockState, Events]:
    _modes(state, "bank", "turn", "countup")
    index = _seat(state, cmd.seat)
    if state.seats[index].out:
        raise RuleError("clock.error.seat_out", player=state.seats[index].name)
    if state.in_play == (index,):
        raise RuleError("clock.error.last_in_play")
    state, events = engine.settle(state, cmd.at)
    if state.status == "stopped":
        raise RuleError("clock.error.stopped")
    if not state.started:  # before the start: the start player moves on if need be
        state = engine.with_seat(state, index, replace(state.seats[index], out=True))
        if state.start == index:
            start = engine.next_in_play(state, index)
            state = replace(state, start=start, active=-1)
        return state, [e.Eliminated(index, state.start)]
    if index == state.active:
        state, _, closed = engine.close_turn(state, credit=False)
        events.extend(closed)
    state, gone = engine.eliminate(state, index)
    return state, [*events, *gone]


def _reorder(state: ClockState, cmd: c.Reorder) -> tuple[ClockState, Events]:
    order = cmd.order
    if not isinstance(order, tuple) or not all(_is_int(i) for i in order) \
            or sorted(order) != list(range(len(state.seats))) or not state.seats:
        raise RuleError("clock.error.order", n=len(state.seats))
    state, events = engine.settle(state, cmd.at)
    return replace(state, order=tuple(order)), [*events, e.Reordered(tuple(order))]


def _admin(state: ClockState, cmd: c.Admin) -> tuple[ClockState, Events]:
    _started(state)
    if not isinstance(cmd.on, bool):
        raise RuleError("clock.error.bad_command")
    before = state.admin_ms
    state, events = engine.settle(state, cmd.at)
    if cmd.on:
        if state.status not in ("running", "paused"):
            raise RuleError("clock.error.admin" if state.status == "admin"
                            else "clock.error.stopped")
        return replace(state, status="admin", resume_to=state.status), [
            *events, e.AdminStarted()]
    if state.status != "admin":
        raise RuleError("clock.error.not_admin")
    state = replace(state, status=state.resume_to)
    return state, [*events, e.AdminEnded(state.admin_ms - before,
                                         state.status == "running")]


def _zero(state: ClockState, cmd: c.Zero) -> tuple[ClockState, Events]:
    _started(state)
    before = state
    state, events = engine.settle(state, cmd.at)
    reached = [ev for ev in events if isinstance(ev, e.ZeroReached)]
    target = before.active if cmd.seat is None else _seat(state, cmd.seat)
    if cmd.seat is not None and cmd.seat != before.active and not any(
            ev.seat == target for ev in reached):
        raise _not_active(state, cmd.seat)
    if not reached:
        mode = state.params.mode
        at_zero = (state.countdown_ms <= 0 if mode in ("sand", "phase")
                   else mode in ("bank", "turn") and state.seats[target].bank_ms <= 0)
        if not at_zero:
            raise RuleError("clock.error.not_at_zero")
    return state, events


def _checkpoint(state: ClockState, cmd: c.Checkpoint) -> tuple[ClockState, Events]:
    _started(state)
    return engine.settle(state, cmd.at)


def _interrupted(state: ClockState, _: c.Interrupted) -> tuple[ClockState, Events]:
    _started(state)
    running = state.status in ("running", "admin")
    status = "paused" if state.status in ("running", "admin", "paused") else state.status
    state = replace(state, status=status, rebase=True)
    return state, [e.Interruption(running, state.params.checkpoint_ms if running else 0)]


def _close(state: ClockState, cmd: c.Close) -> tuple[ClockState, Events]:
    state, events = engine.settle(state, cmd.at)
    state = replace(state, status="closed")
    return state, [*events, e.Closed(state.elapsed_ms, state.switches)]


_HANDLERS: dict[type, Any] = {
    c.Start: _start, c.Switch: _switch, c.Pass: _pass, c.Pause: _pause,
    c.Resume: _resume, c.Flip: _flip, c.Adjust: _adjust, c.Eliminate: _eliminate,
    c.Reorder: _reorder, c.Admin: _admin, c.Zero: _zero, c.Checkpoint: _checkpoint,
    c.Interrupted: _interrupted, c.Close: _close,
}


def is_silent(command: Any) -> bool:
    """A command the Undo button passes over (a checkpoint)."""
    return isinstance(command, c.SILENT)


def undo_press(session: Any, at: int | None = None) -> Any:
    """What the Undo button does: undo the checkpoints on top, then the last command
    the table made (all one action to the table). Refuses, changing nothing, when
    there is none, or when it lies before a power cut (`Interrupted`): the times on
    either side of one are not on the same monotonic clock. `at`: the press's time
    (the pauses since stay charged to nobody: `ClockRules.landing`)."""
    steps = session.steps
    index = len(steps) - 1
    while index >= 0 and is_silent(steps[index].command):
        index -= 1
    if index < 0:
        raise RuleError("core.error.nothing_to_undo")
    if isinstance(steps[index].command, c.Interrupted):
        raise RuleError("clock.error.undo_interrupted")
    depth = len(steps) - index
    undone = None
    for _ in range(depth):
        undone = session.undo(at)
    return undone


def redo_press(session: Any, at: int | None = None) -> Any:
    """The Redo button: redo the next table command and the checkpoints after it."""
    if not session.can_redo():
        raise RuleError("core.error.nothing_to_redo")
    done = session.redo(at)
    while session.can_redo() and is_silent(session.next_redo()):
        session.redo(at)
    return done


# -- the log ----------------------------------------------------------------------------
def _name(names: tuple[str, ...], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else "?"


def describe(events: Iterable[Any], state: ClockState | None = None) -> list[Message]:
    """One line per event, for the log and the screen (`state`: the clock they happened
    on, for the players' names)."""
    names = tuple(s.name for s in state.seats) if state is not None else ()
    out: list[Message] = []
    for event in events:
        match event:
            case e.Started(seat=seat):
                out.append(msg("clock.say.started", player=_name(names, seat))
                           if seat >= 0 else msg("clock.say.started_alone"))
            case e.TurnEnded(seat=seat, seat_to=to, used_ms=used, passed=passed,
                             timed_out=timed_out):
                key = ("clock.say.passed" if passed else
                       "clock.say.timed_out" if timed_out else "clock.say.switched")
                if seat < 0:
                    out.append(msg("clock.say.restarted"))
                else:
                    out.append(msg(key, player=_name(names, seat), next=_name(names, to),
                                   time=clock_text(used)))
            case e.NewRound(round=n, seat=seat):
                out.append(msg("clock.say.new_round", n=n, player=_name(names, seat)))
            case e.StageReached(seat=seat, stage=stage, added_ms=added):
                out.append(msg("clock.say.stage", player=_name(names, seat), n=stage + 1,
                               time=clock_text(added)))
            case e.PenaltyGiven(seat=seat, points=points, total=total):
                out.append(msg("clock.say.penalty", player=_name(names, seat), n=points,
                               total=total))
            case e.ZeroReached(seat=seat, action=action):
                if seat < 0:
                    out.append(msg("clock.say.zero_alone"))
                else:
                    out.append(msg(f"clock.say.zero_{action}", player=_name(names, seat)))
            case e.Paused():
                out.append(msg("clock.say.paused"))
            case e.Resumed(paused_ms=ms):
                out.append(msg("clock.say.resumed", time=clock_text(ms)))
            case e.Flipped(left_ms=left):
                out.append(msg("clock.say.flipped", time=clock_text(left)))
            case e.Adjusted(seat=seat, delta_ms=delta, bank_ms=bank):
                key = "clock.say.added" if delta > 0 else "clock.say.removed"
                out.append(msg(key, player=_name(names, seat), time=clock_text(abs(delta)),
                               bank=clock_text(bank)))
            case e.Eliminated(seat=seat):
                out.append(msg("clock.say.eliminated", player=_name(names, seat)))
            case e.Reordered(order=order):
                out.append(msg("clock.say.reordered",
                               names=", ".join(_name(names, i) for i in order)))
            case e.AdminStarted():
                out.append(msg("clock.say.admin_on"))
            case e.AdminEnded(admin_ms=ms):
                out.append(msg("clock.say.admin_off", time=clock_text(ms)))
            case e.Stopped(reason=reason, seat=seat):
                out.append(msg(f"clock.say.stopped_{reason}", player=_name(names, seat)))
            case e.Interruption(running=running, at_most_ms=ms):
                out.append(msg("clock.say.interrupted_running", time=clock_text(ms))
                           if running else msg("clock.say.interrupted"))
            case e.Closed(duration_ms=ms, turns=turns):
                out.append(msg("clock.say.closed", time=clock_text(ms), n=turns))
    return out


def clock_text(ms: int) -> str:
    """A time as a clock shows it: `m:ss`, `h:mm:ss`, a minus sign in overtime (whole
    seconds, rounded up while counting down: 0:01 until the very zero)."""
    sign = "-" if ms < 0 else ""
    seconds = -(-abs(ms) // 1000) if ms > 0 else abs(ms) // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{sign}{hours}:{minutes:02d}:{secs:02d}"
    return f"{sign}{minutes}:{secs:02d}"
