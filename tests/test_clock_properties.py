"""Property tests of the clock through a real `Session` (journal, undo, redo, replay),
on the fake clock of the commands' own times. Issue 31: "any sequence of switches,
pauses, undos and redos keeps the sum of time charged plus pause plus admin equal to
the time elapsed, and undo restores the banks exactly"; "over a simulated 3-hour game
the banks drift by 0 ms from the fake clock"."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.clock import commands as c
from companion.games.clock.rules import RULES, redo_press, undo_press
from companion.games.clock.state import ClockState
from companion.games.clock.view import clock_view
from companion.journal import Journal
from companion.messages import RuleError
from companion.session import Session, replay
from tests.helpers.clock import setup

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
PRESETS = ("chess-5m-3s", "chess-10m-bronstein-5s", "go-stages", "turn-60s",
           "turn-2m-carry", "turn-1m-penalty", "count-up", "sand-1m", "phase-2m")
OWN = ({"mode": "bank", "time": "20s", "delay": "3s", "at_zero": "next"},
       {"mode": "bank", "time": "15s", "allowance": "5s", "at_zero": "out"},
       {"mode": "bank", "time": "30s", "increment": "2s", "increment_first": "before",
        "stages": None},
       {"mode": "turn", "time": "10s", "at_zero": "next", "carry": True},
       {"mode": "countup", "round_start": "first_passed"})

#: an action code -> what the table does (switches most often, as at a table)
CODES = ((40, "switch"), (48, "pass"), (54, "pause"), (60, "resume"), (68, "undo"),
         (73, "redo"), (77, "checkpoint"), (80, "admin_on"), (83, "admin_off"),
         (86, "zero"), (88, "flip"), (94, "adjust"), (98, "eliminate"),
         (100, "interrupt"))


def _action(code: int, players: int) -> tuple[Any, ...]:
    name = next(name for bound, name in CODES if code < bound)
    seat = (code * 31) % max(players, 1)
    if name == "adjust":
        return (name, seat, (code * 7919) % 40_000 - 20_000 or 1000)
    if name == "eliminate":
        return (name, seat)
    return (name,)


def _command(action: tuple[Any, ...], at: int) -> Any:
    match action:
        case ("switch",):
            return c.Switch(at)
        case ("pass",):
            return c.Pass(at)
        case ("pause",):
            return c.Pause(at)
        case ("resume",):
            return c.Resume(at)
        case ("checkpoint",):
            return c.Checkpoint(at)
        case ("admin_on",):
            return c.Admin(at, True)
        case ("admin_off",):
            return c.Admin(at, False)
        case ("zero",):
            return c.Zero(at)
        case ("flip",):
            return c.Flip(at)
        case ("interrupt",):
            return c.Interrupted()
        case ("adjust", seat, delta):
            return c.Adjust(at, seat, delta)
        case ("eliminate", seat):
            return c.Eliminate(at, seat)
    raise AssertionError(action)


def _balanced(state: ClockState, start_at: int | None) -> None:
    """Time charged + pause + admin + the table's == elapsed; and, on one monotonic
    clock (`start_at` given: no interruption), elapsed == the clock's own span."""
    charged = sum(s.used_ms for s in state.seats)
    assert charged + state.pause_ms + state.admin_ms + state.table_ms == state.elapsed_ms
    if start_at is not None:
        assert state.elapsed_ms == state.last_at - start_at
    if state.status not in ("ready", "closed") and state.seats:
        active = state.seats[state.active]
        assert not active.out or state.status == "stopped"  # never nobody's turn
        assert state.active in state.order


@st.composite
def games(draw: st.DrawFn) -> tuple[dict[str, Any], list[tuple[tuple[Any, ...], int]]]:
    preset = draw(st.sampled_from(PRESETS + OWN))
    if isinstance(preset, dict):
        preset = {k: v for k, v in preset.items() if v is not None}
    mode = preset["mode"] if isinstance(preset, dict) else None
    low = 2 if preset in ("chess-5m-3s", "chess-10m-bronstein-5s", "go-stages") or \
        mode == "bank" else 1
    players = draw(st.integers(low, 4))
    codes = draw(st.lists(st.tuples(st.integers(0, 99), st.integers(0, 40_000)),
                          min_size=5, max_size=40))
    script = [(_action(code, players), step) for code, step in codes]
    return setup(preset, players, start=draw(st.integers(0, players - 1))), script


@SETTINGS
@given(games())
def test_time_balances_and_undo_restores_exactly(game: Any) -> None:
    game_setup, script = game
    journal = Journal(":memory:")
    session = Session.start(RULES, journal, game_setup)
    start_at = 1_000_000
    session.dispatch(c.Start(start_at))
    at = start_at
    for action, step in script:
        at += step
        before = session.state
        try:
            if action == ("undo",):
                undone_from = session.state
                steps = session.steps
                index = len(steps) - 1
                while index >= 0 and isinstance(steps[index].command, c.Checkpoint):
                    index -= 1
                expected = steps[index].before if index >= 0 else None
                undo_press(session)
                # exactly the state before the command undone: every bank, every figure
                assert session.state == expected
                redo_press(session)
                assert session.state == undone_from
                undo_press(session)
            elif action == ("redo",):
                redo_press(session)
            else:
                session.dispatch(_command(action, at))
                if action == ("interrupt",):  # a reboot: the monotonic clock restarts
                    at = 100
        except RuleError:
            assert session.state == before  # a refusal changes nothing
            continue
        state = session.state
        interrupted = any(isinstance(s.command, c.Interrupted) for s in session.steps)
        if state.started:
            _balanced(state, None if interrupted else start_at)
        view = clock_view(state, at + 5000)
        if state.status not in ("ready", "closed") and state.seats:
            assert view.active >= 0
    rebuilt = replay(RULES, journal.game(session.game_id).setup,
                     journal.entries(session.game_id))
    assert rebuilt.state == session.state
    assert Session.resume(RULES, journal, session.game_id).state == session.state


@SETTINGS
@given(games())
def test_a_pause_that_ran_is_never_charged_whatever_is_undone(game: Any) -> None:
    """Issue 46: "a pause's time, once it ran, is never charged to a player, whatever
    is undone or redone". Undo and Redo pressed with their time, as the screen does:
    the pause and admin time counted is never less than the time the clock was shown
    paused or in admin time; the time still balances; the journal replays the same."""
    game_setup, script = game
    journal = Journal(":memory:")
    session = Session.start(RULES, journal, game_setup)
    start_at = 1_000_000
    session.dispatch(c.Start(start_at))
    at, shown_apart = start_at, 0  # the ms the clock was shown paused or in admin time
    for action, step in script:
        if action == ("interrupt",):
            break  # another monotonic clock: what is shown apart is not comparable
        if clock_view(session.state, at).status in ("paused", "admin"):
            shown_apart += step
        at += step
        try:
            if action == ("undo",):
                undo_press(session, at)
            elif action == ("redo",):
                redo_press(session, at)
            else:
                session.dispatch(_command(action, at))
        except RuleError:
            pass
        state = session.state
        if state.started:
            _balanced(state, start_at)
            view = clock_view(state, at)
            assert view.pause_ms + view.admin_ms >= shown_apart
    rebuilt = replay(RULES, journal.game(session.game_id).setup,
                     journal.entries(session.game_id))
    assert rebuilt.state == session.state
    assert Session.resume(RULES, journal, session.game_id).state == session.state


@SETTINGS
@given(games())
def test_undo_gives_back_every_bank(game: Any) -> None:
    """Each command, undone, leaves the state exactly as it was before it: both
    players' banks, the pause and admin time, whose turn it is."""
    game_setup, script = game
    session = Session.start(RULES, Journal(":memory:"), game_setup)
    session.dispatch(c.Start(0))
    at = 0
    for action, step in script:
        at += step
        if action in (("undo",), ("redo",)):
            continue
        before = session.state
        try:
            session.dispatch(_command(action, at))
        except RuleError:
            continue
        after = session.state
        session.undo()
        assert session.state == before
        assert [s.bank_ms for s in session.state.seats] == [s.bank_ms for s in before.seats]
        session.redo()
        assert session.state == after


def test_a_three_hour_game_drifts_by_zero_ms() -> None:
    """Four players, a 45 min bank and a 5 s Fischer increment, 2,000 turns of uneven
    lengths, pauses and checkpoints every 10 s over three hours: every bank is what
    the fake clock says to the ms."""
    session = Session.start(RULES, Journal(":memory:"), setup(
        {"mode": "bank", "time": "45m", "increment": "5s"}, 4))
    session.snapshot_every = 100_000  # one stretch: the drift is the rules', not replay's
    at = 123_456_789
    session.dispatch(c.Start(at))
    expected_used = [0, 0, 0, 0]
    turns = [0, 0, 0, 0]
    paused = 0
    turn_started = at
    i = 0
    end = at + 3 * 3600 * 1000
    while at < end:
        length = 1 + (i * 7919) % 9_973  # 1 ms .. 10 s, uneven
        i += 1
        seat = session.state.active
        # checkpoints every 10 s within the turn, as the app would journal them
        while at + 10_000 < turn_started + length:
            at += 10_000
            session.dispatch(c.Checkpoint(at))
        at = turn_started + length
        if i % 97 == 0:
            session.dispatch(c.Pause(at))
            at += 61_003
            paused += 61_003
            session.dispatch(c.Resume(at))
            at += 1
            length += 1
        session.dispatch(c.Switch(at))
        expected_used[seat] += length
        turns[seat] += 1
        turn_started = at
    state = session.state
    assert [s.used_ms for s in state.seats] == expected_used
    assert [s.bank_ms for s in state.seats] == [
        45 * 60_000 - used + 5000 * n for used, n in zip(expected_used, turns, strict=True)]
    assert state.pause_ms == paused
    assert state.elapsed_ms == at - 123_456_789 >= 3 * 3600 * 1000


ODD = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(),
                st.text(max_size=3), st.lists(st.integers(-1, 4), max_size=5).map(tuple))


@SETTINGS
@given(st.sampled_from(sorted(c.COMMANDS)), st.lists(ODD, min_size=3, max_size=3),
       st.sampled_from(PRESETS), st.booleans())
def test_a_command_of_any_shape_is_refused_or_applied(name: str, values: list[Any],
                                                      preset: str, started: bool) -> None:
    """A journal row edited by hand, or a command from a newer version: a rule error
    naming it, never another exception, never a changed state."""
    import dataclasses

    cls = c.COMMANDS[name]
    fields = [f.name for f in dataclasses.fields(cls)]
    clock = RULES.initial_state(setup(preset, 3 if preset != "sand-1m" else 0))
    if started:
        clock, _ = RULES.apply(clock, c.Start(0))
    command = cls(**dict(zip(fields, values, strict=False)))
    try:
        after, _ = RULES.apply(clock, command)
    except RuleError:
        return
    assert isinstance(after, ClockState)


JSONISH = st.recursive(ODD, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12)


@SETTINGS
@given(st.sampled_from(PRESETS), st.sampled_from(["params", "players", "banks", "start",
                                                  "seed", "preset", "pad_game",
                                                  "params.stages", "params.mode",
                                                  "params.time_ms", "params.carry"]),
       JSONISH)
def test_a_setup_of_any_shape_is_refused_with_a_rule_error(preset: str, key: str,
                                                           value: Any) -> None:
    game_setup = setup(preset, 2)
    target = game_setup
    *path, last = key.split(".")
    for part in path:
        target = target[part]
    target[last] = value
    try:
        clock = RULES.initial_state(game_setup)
    except RuleError:
        return
    assert isinstance(clock, ClockState)
    RULES.apply(clock, c.Start(0))
