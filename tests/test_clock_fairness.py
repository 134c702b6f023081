"""The clock's fairness rules, as docs/architecture.md writes them ("The clock's
fairness rules"), each a golden table: the commands with their times (ms) and the
banks they must leave, to the ms. Issue 31: "The fairness rules are written in
docs/architecture.md and golden-tested, including the ones the anchors disagree on
(when the first Fischer increment is credited), that a delay gives no player extra
time on their first turn, that Bronstein credits at most the time used, and that
pausing during a delay resumes the remaining delay"."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from companion.games.clock import commands as c
from companion.games.clock import events as e
from companion.games.clock.rules import RULES, redo_press, undo_press
from companion.games.clock.state import ClockState
from companion.games.clock.view import clock_view, next_deadline, zero_at
from companion.journal import FILE_NAME, Journal, JournalError
from companion.messages import RuleError
from companion.session import Session, replay
from companion.writer import Writer
from tests.helpers.clock import banks, run, setup, state

Row = tuple[Any, list[int]]  # a command, then every seat's bank after it
S, M = 1000, 60_000


def _golden(clock: ClockState, rows: list[Row]) -> ClockState:
    for command, expected in rows:
        clock, _ = RULES.apply(clock, command)
        assert banks(clock) == expected, (command, banks(clock), expected)
    return clock


# 2. When the first Fischer increment is credited: the anchors disagree.
FISCHER_AFTER = [  # Chess.com, lichess: credited when a turn ends; 5|3 starts at 5:00
    (c.Start(0), [300_000, 300_000]),
    (c.Switch(10_000), [293_000, 300_000]),  # Ann used 10 s, earned 3 s
    (c.Switch(30_000), [293_000, 283_000]),  # Bob used 20 s, earned 3 s
    (c.Switch(35_000), [291_000, 283_000]),
]
FISCHER_BEFORE = [  # DGT 2010: "the bonus time is already added for the first move"
    (c.Start(0), [303_000, 303_000]),
    (c.Switch(10_000), [296_000, 303_000]),
    (c.Switch(30_000), [296_000, 286_000]),
    (c.Switch(35_000), [294_000, 286_000]),
]


def test_fischer_increment_after_the_turn_by_default() -> None:
    """The built-in 5 min + 3 s preset shows 5:00 and credits each ended turn once."""
    _golden(state("chess-5m-3s", 2), FISCHER_AFTER)


def test_fischer_increment_before_the_first_move_as_an_option() -> None:
    clock = state({"mode": "bank", "time": "5m", "increment": "3s",
                   "increment_first": "before"})
    _golden(clock, FISCHER_BEFORE)


def test_the_two_conventions_differ_by_one_increment_per_seat_only() -> None:
    after = state({"mode": "bank", "time": "5m", "increment": "3s"}, 3)
    before = state({"mode": "bank", "time": "5m", "increment": "3s",
                    "increment_first": "before"}, 3)
    script = [c.Start(0)] + [c.Switch(1000 + 1234 * i) for i in range(50)]
    a, _ = run(after, script)
    b, _ = run(before, script)
    assert [y - x for x, y in zip(banks(a), banks(b), strict=True)] == [3000] * 3


# 3. A delay gives nobody extra time on their first turn.
def test_bronstein_gives_the_second_player_no_extra_time_on_the_first_turn() -> None:
    """simple-chess-clock#1: "the second player gets extra time added at the start of
    their first turn". Here every seat begins its first turn with the preset's bank."""
    clock, _ = run(state("chess-10m-bronstein-5s", 3), [c.Start(0)])
    assert clock_view(clock, 3000).seats[0].remaining_ms == 597_000  # runs from the start
    clock = _golden(clock, [(c.Switch(3000), [600_000, 600_000, 600_000])])
    view = clock_view(clock, 3000)
    assert view.active == 1 and view.seats[1].remaining_ms == 600_000  # not 10:05
    clock = _golden(clock, [(c.Switch(11_000), [600_000, 597_000, 600_000])])
    assert clock_view(clock, 11_000).seats[2].remaining_ms == 600_000


def test_simple_delay_holds_every_first_turn_alike() -> None:
    clock = state({"mode": "bank", "time": "10m", "delay": "5s", "delay_kind": "simple"}, 2)
    clock, _ = run(clock, [c.Start(0)])
    first = clock_view(clock, 3000).seats[0]
    assert (first.remaining_ms, first.delay_left_ms) == (600_000, 2000)
    clock = _golden(clock, [(c.Switch(3000), [600_000, 600_000])])
    second = clock_view(clock, 3000).seats[1]
    assert (second.remaining_ms, second.delay_left_ms) == (600_000, 5000)  # the same 5 s
    _golden(clock, [(c.Switch(11_000), [600_000, 597_000])])


# 4. Bronstein credits at most the time used.
BRONSTEIN = [
    (c.Start(0), [600_000, 600_000]),
    (c.Switch(2000), [600_000, 600_000]),  # used 2 s: credited 2 s, not 5
    (c.Switch(10_000), [600_000, 597_000]),  # used 8 s: credited 5 s
    (c.Switch(10_001), [600_000, 597_000]),  # used 1 ms: credited 1 ms
    (c.Switch(70_001), [600_000, 542_000]),
]


def test_bronstein_credits_at_most_the_time_used() -> None:
    clock = _golden(state("chess-10m-bronstein-5s", 2), BRONSTEIN)
    assert clock.seats[0].used_ms == 2001 and clock.seats[1].used_ms == 68_000


# 5. Pausing during a delay resumes the remaining delay.
def test_a_pause_during_a_simple_delay_keeps_what_was_left_of_it() -> None:
    clock = state({"mode": "bank", "time": "10m", "delay": "5s"}, 2)
    clock, _ = run(clock, [c.Start(0), c.Pause(2000), c.Resume(62_000)])
    view = clock_view(clock, 62_000).seats[0]
    assert (view.remaining_ms, view.delay_left_ms) == (600_000, 3000)
    assert next_deadline(clock, 62_000) == 65_000  # the delay's end
    assert clock_view(clock, 66_000).seats[0].remaining_ms == 599_000
    clock, _ = run(clock, [c.Admin(63_000, True), c.Admin(100_000, False)])
    assert clock_view(clock, 101_000).seats[0].delay_left_ms == 1000  # admin time too


def test_a_pause_during_a_bronstein_delay_credits_only_the_running_time() -> None:
    clock = _golden(state("chess-10m-bronstein-5s", 2), [
        (c.Start(0), [600_000, 600_000]), (c.Pause(2000), [598_000, 600_000]),
        (c.Resume(62_000), [598_000, 600_000]), (c.Switch(64_000), [600_000, 600_000])])
    assert clock.pause_ms == 60_000 and clock.seats[0].used_ms == 4000


# 6. A zero at the same instant as a pause: one outcome, decided by the times.
def test_a_pause_at_the_zeros_own_ms_comes_after_the_zero() -> None:
    clock = state({"mode": "bank", "time": "10s", "at_zero": "out"}, 3)
    clock, events = run(clock, [c.Start(0), c.Pause(10_000)])
    assert events[1:] == [e.ZeroReached(0, 10_000, "out"), e.Eliminated(0, 1),
                          e.Paused(1)]
    assert clock.seats[0].out and clock.status == "paused"
    # the app's Zero journaled first gives the same clock
    other, _ = run(state({"mode": "bank", "time": "10s", "at_zero": "out"}, 3),
                   [c.Start(0), c.Zero(10_000), c.Pause(10_000)])
    assert other == clock


def test_a_pause_one_ms_before_the_zero_keeps_the_last_ms() -> None:
    clock = state({"mode": "bank", "time": "10s", "at_zero": "out"}, 3)
    clock, _ = run(clock, [c.Start(0), c.Pause(9999)])
    assert banks(clock)[0] == 1 and not clock.seats[0].out
    with pytest.raises(RuleError) as exc:  # the app's late Zero finds nothing at zero
        RULES.apply(clock, c.Zero(10_000))
    assert exc.value.message.key == "clock.error.not_at_zero"
    clock, _ = run(clock, [c.Resume(50_000)])
    assert zero_at(clock, 50_000) == 50_001
    clock, _ = run(clock, [c.Zero(50_001)])
    assert clock.seats[0].out and clock.active == 1 and clock.turn_used_ms == 0


# 1. Monotonic time only, read at the press.
def test_a_2s_stall_between_the_press_and_its_command_gains_and_loses_nothing() -> None:
    clock, _ = run(state("chess-5m-3s", 2), [c.Start(0)])
    # Bob's press read at 10 000; the UI thread stalls 2 s; the command is applied at
    # 12 000 with the time of the press
    late, _ = RULES.apply(clock, c.Switch(10_000))
    view = clock_view(late, 12_000)
    assert [s.remaining_ms for s in view.seats] == [293_000, 298_000]
    # the same press applied at once, then viewed at 12 000: the very same clock
    prompt, _ = RULES.apply(clock, c.Switch(10_000))
    assert prompt == late and clock_view(prompt, 12_000) == view


def test_the_rules_never_read_a_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """A system clock jumping by an hour changes nothing: no clock is read at all."""
    clock = state("chess-5m-3s", 4)

    def jumped(*_: Any) -> Any:
        raise AssertionError("the rules read a clock")

    for name in ("time", "monotonic", "monotonic_ns", "perf_counter", "time_ns"):
        monkeypatch.setattr(time, name, jumped)
    script = [c.Start(5000), c.Switch(9000), c.Pause(12_000), c.Resume(15_000),
              c.Checkpoint(25_000), c.Adjust(26_000, 2, 60_000), c.Pass(27_000),
              c.Switch(400_000), c.Checkpoint(400_001), c.Interrupted(), c.Resume(3),
              c.Close(10)]
    clock, _ = run(clock, script)
    clock_view(clock, 20)
    next_deadline(clock, 20)
    assert banks(clock) == [299_000, 288_000, -10_000, 299_992]


# 7. Undo restores every bank exactly; the time since belongs to who ran before.
def test_undo_of_a_wrong_press_gives_the_time_back() -> None:
    session = Session.start(RULES, Journal(":memory:"), setup("chess-5m-3s", 2))
    session.dispatch(c.Start(0))
    session.dispatch(c.Switch(10_000))  # Ann, right
    before = session.state
    session.dispatch(c.Switch(12_000))  # Bob's press by mistake (Ann's elbow)
    session.undo()
    assert session.state == before and banks(session.state) == [293_000, 300_000]
    session.dispatch(c.Switch(40_000))  # Bob ends his turn for real: 30 s are his
    assert banks(session.state) == [293_000, 273_000]


# 8. A power cut charges nobody for what was not journaled.
def test_a_power_cut_loses_at_most_one_checkpoint_interval() -> None:
    clock = _golden(state("chess-5m-3s", 2), [
        (c.Start(50_000), [300_000, 300_000]), (c.Checkpoint(60_000), [290_000, 300_000]),
        (c.Checkpoint(70_000), [280_000, 300_000]),
        # the plug is pulled at 77 000: 7 s never journaled; after the reboot:
        (c.Interrupted(), [280_000, 300_000]), (c.Resume(1500), [280_000, 300_000]),
        (c.Switch(6500), [278_000, 300_000])])
    assert clock.elapsed_ms == 25_000


# Issue 46, item 4: the increment before each move, a later stage's included.
FIDE_STAGES = {"mode": "bank", "increment_first": "before",
               "stages": [{"moves": 40, "time": "120m"}, {"moves": 20, "time": "60m"},
                          {"moves": 0, "time": "15m", "increment": "30s"}]}


def test_a_later_stages_increment_is_there_for_its_first_move() -> None:
    """FIDE Laws of Chess, Glossary: "increment: an amount of time (from 2 to 60
    seconds) added from a control before each move of the player" (`increment_first:
    before`). With 40/120, 20/60, then 15 min + 30 s, move 61 is played with its 30 s
    already on the clock."""
    clock, _ = run(state(FIDE_STAGES, 2), [c.Start(0)] + [
        c.Switch(S * (i + 1)) for i in range(120)])  # 60 moves each, 1 s a move
    assert (clock.active, clock.seats[0].stage) == (0, 2)
    start = (120 + 60 + 15) * M
    assert banks(clock) == [start - 60 * S + 30 * S] * 2  # move 61's 30 s credited
    clock, events = run(clock, [c.Switch(121 * S)])  # move 61: 1 s, move 62's 30 s
    assert banks(clock)[0] == start - 61 * S + 60 * S
    assert e.TurnEnded(0, 1, S, 30 * S, start - S, False, False) in events
    after = dict(FIDE_STAGES, increment_first="after")  # after each move: from 61 on
    late, _ = run(state(after, 2), [c.Start(0)] + [c.Switch(S * (i + 1))
                                                   for i in range(121)])
    assert banks(late)[0] == start - 61 * S + 30 * S


# Issue 46, item 4: a used-up bank is used up, whatever the delay.
@pytest.mark.parametrize("kind", ["simple", "bronstein"])
def test_a_bank_run_out_under_next_stays_run_out_with_either_delay(kind: str) -> None:
    """An increment or a delay's time is credited "after each move, unless the
    player's main time ran out before they completed their move" (Time control, as
    FIDE and US Chess play it); a simple delay gives nothing back at all. Under
    `at_zero: next` the turn that ran Ann's bank out earns no credit, so she is passed
    over from then on, with a simple delay as with a Bronstein one."""
    clock = state({"mode": "bank", "time": "10s", "delay": "5s", "delay_kind": kind,
                   "at_zero": "next"}, 3)
    clock, events = run(clock, [c.Start(0), c.Checkpoint(16 * S)])  # Ann runs out
    ended = next(ev for ev in events if isinstance(ev, e.TurnEnded))
    assert ended.timed_out and ended.credit_ms == 0 and banks(clock)[0] == 0
    clock, _ = run(clock, [c.Switch(17 * S), c.Switch(18 * S)])  # Bob, Cid
    assert clock.active == 1  # Ann passed over


# 11. A pause's time, once it ran, is never charged to a player (issue 46, item 1).
def _seen(session: Session, now: int) -> tuple[list[int], int, int]:
    view = clock_view(session.state, now)
    return [s.remaining_ms for s in view.seats], view.pause_ms, view.admin_ms


def _replayed(session: Session) -> ClockState:
    return replay(RULES, session.setup, session.journal.entries(session.game_id)).state


def test_undoing_a_pause_never_charges_it_to_the_player_on_turn() -> None:
    """Issue 46: "4 players, chess clock: Pause, about 14 s, Resume, Undo twice: Player 3
    drops from 5:00 to 4:44 at once and the end page says "pauses 0:00"". Cid's turn
    begins at 10 s; the table pauses at 11 s, resumes at 25 s and undoes both."""
    session = Session.start(RULES, Journal(":memory:"), setup("chess-5m-3s", 4))
    for command in (c.Start(0), c.Switch(5000), c.Switch(10_000), c.Pause(11_000),
                    c.Resume(25_000)):
        session.dispatch(command)
    undo_press(session, 25_500)  # the Resume: paused again, the 0.5 s since a pause
    assert _seen(session, 25_500) == ([298_000, 298_000, 299_000, 300_000], 14_500, 0)
    undo_press(session, 26_000)  # the Pause: Cid's clock runs, his 1 s charged only
    assert session.state.status == "running"
    assert _seen(session, 26_000) == ([298_000, 298_000, 299_000, 300_000], 15_000, 0)
    assert _seen(session, 30_000)[0][2] == 295_000  # and his time runs from there
    assert _replayed(session) == session.state  # the journal holds the same clock
    # the pizza break: the switch made before the pause undone too, at 27 s. Bob's
    # turn again, as if the switch never happened (his 5 s, and Cid's 1 s before the
    # pause and 1 s after the undo), the pause still nobody's
    undo_press(session, 27_000)
    assert _seen(session, 27_000) == ([298_000, 293_000, 300_000, 300_000], 15_000, 0)
    assert RULES.summary(session.state)["pause_ms"] == 15_000
    # redone: the switch (Cid's 3 s run since his turn began are his), the pause (from
    # the 15 s counted, the time since is a pause too), the resume
    expected = {28_000: ([298_000, 298_000, 297_000, 300_000], 15_000, 0),
                29_000: ([298_000, 298_000, 299_000, 300_000], 18_000, 0),
                30_000: ([298_000, 298_000, 299_000, 300_000], 19_000, 0)}
    for at, seen in expected.items():
        redo_press(session, at)
        assert _seen(session, at) == seen, at
    figures = clock_view(session.state, 30_000)
    assert sum(s.total_ms for s in figures.seats) + figures.pause_ms == 30_000
    assert _replayed(session) == session.state


def test_undoing_across_admin_time_never_charges_it_to_a_player() -> None:
    """The same for admin time (a rules look-up): counted apart, whatever is undone."""
    session = Session.start(RULES, Journal(":memory:"), setup("chess-5m-3s", 2))
    for command in (c.Start(0), c.Switch(4000), c.Admin(6000, True),
                    c.Admin(66_000, False)):
        session.dispatch(command)
    undo_press(session, 67_000)  # admin time back on: its minute and the second since
    undo_press(session, 68_000)  # no admin time at all: Bob's 2 s before it only
    assert _seen(session, 68_000) == ([299_000, 298_000], 0, 62_000)
    undo_press(session, 69_000)  # Ann's switch: her turn again, all 7 s run hers
    assert _seen(session, 69_000) == ([293_000, 300_000], 0, 62_000)
    assert _replayed(session) == session.state


def test_undo_of_a_wrong_switch_still_gives_back_the_time() -> None:
    """Without a pause in between, an undo with its time is the plain undo."""
    session = Session.start(RULES, Journal(":memory:"), setup("chess-5m-3s", 2))
    for command in (c.Start(0), c.Switch(10_000)):
        session.dispatch(command)
    before = session.state
    session.dispatch(c.Switch(12_000))
    undo_press(session, 20_000)
    assert session.state == before


def _paused_and_resumed(journal: Journal) -> Session:
    session = Session.start(RULES, journal, setup("chess-5m-3s", 4))
    for command in (c.Start(0), c.Switch(5000), c.Switch(10_000), c.Pause(11_000),
                    c.Resume(25_000)):
        session.dispatch(command)
        session.settle()
    return session


def test_an_undo_through_the_writer_lands_as_it_does_at_once(tmp_path: Path) -> None:
    """The app's session writes on its writer thread: the undo's landing reaches the
    stacks once durable, the same clock as a session writing at once."""
    journal = Journal(tmp_path / FILE_NAME)
    session = _paused_and_resumed(journal)
    writer = Writer(journal)
    session.writer = writer
    try:
        undo_press(session, 25_500)
        undo_press(session, 26_000)
        session.settle()
        assert _seen(session, 26_000) == ([298_000, 298_000, 299_000, 300_000], 15_000, 0)
        assert _replayed(session) == session.state
    finally:
        writer.close()
        journal.close()


def test_an_undo_whose_commit_fails_is_taken_back_with_its_landing(
        tmp_path: Path) -> None:
    journal = Journal(tmp_path / FILE_NAME)
    session = _paused_and_resumed(journal)
    undo_press(session, 25_500)
    before = session.state
    session.hold_commits = True
    real = journal._db

    class Failing:
        def execute(self, sql: str, *args: Any) -> Any:
            if sql.split()[0] == "COMMIT":
                raise sqlite3.OperationalError("database or disk is full")
            return real.execute(sql, *args)

        def __getattr__(self, name: str) -> Any:
            return getattr(real, name)

    journal._db = Failing()  # type: ignore[assignment]
    undo_press(session, 26_000)
    with pytest.raises(JournalError):
        session.settle()
    journal._db = real
    assert session.state == before  # landed where it was, the undo never made
    session.hold_commits = False
    session.undo()  # without a time: the state before the Pause exactly, no landing left
    assert session.state == session.steps[-1].after
    assert _replayed(session) == session.state
    journal.close()


def test_a_resumed_clock_undoes_past_its_snapshot_with_the_same_landings(
        tmp_path: Path) -> None:
    """A resume starts from a snapshot; undoing past it rebuilds the older steps from
    the journal, the undos' landings included: the clock the table had."""
    def played(journal: Journal) -> Session:
        session = Session.start(RULES, journal, setup("chess-5m-3s", 4))
        session.snapshot_every = 3
        for command in (c.Start(0), c.Switch(5000), c.Switch(10_000), c.Pause(11_000),
                        c.Resume(25_000)):
            session.dispatch(command)
        undo_press(session, 25_500)
        redo_press(session, 26_000)  # the Resume again: the 0.5 s paused between stays
        for command in (c.Switch(30_000), c.Switch(31_000), c.Switch(32_000)):
            session.dispatch(command)
        return session

    live = played(Journal(":memory:"))
    journal = Journal(tmp_path / FILE_NAME)
    resumed = Session.resume(RULES, journal, played(journal).game_id)
    assert resumed.state == live.state
    for at in (33_000, 34_000, 35_000, 36_000, 37_000):
        undo_press(live, at)
        undo_press(resumed, at)
        assert resumed.state == live.state, at
    # the Resume undone too: from the pause at 11 s on, all of it was pause
    assert _seen(live, 37_000)[1] == 26_000
    journal.close()


def test_the_start_undone_and_redone_charges_nobody_for_the_time_between() -> None:
    """Undone to before its Start, the clock did not run: redone, the time since the
    Start is nobody's, the pause before the undo included."""
    session = Session.start(RULES, Journal(":memory:"), setup("chess-5m-3s", 2))
    for command in (c.Start(0), c.Pause(2000)):
        session.dispatch(command)
    undo_press(session, 10_000)
    undo_press(session, 11_000)  # the Start: the clock waits
    assert not session.state.started
    redo_press(session, 50_000)
    assert _seen(session, 50_000) == ([300_000, 300_000], 50_000, 0)
    redo_press(session, 51_000)  # the Pause: Ann's 2 s before it hers
    assert _seen(session, 51_000) == ([298_000, 300_000], 49_000, 0)


def test_an_undo_without_a_time_lands_on_the_state_before_exactly() -> None:
    """A plain undo (no time: another screen's Undo) gives the step's `before`, even
    where that state was itself an undo's landing; what the screen is told is the
    session's state."""
    session = Session.start(RULES, Journal(":memory:"), setup("chess-5m-3s", 2))
    for command in (c.Start(0), c.Pause(1000), c.Resume(20_000)):
        session.dispatch(command)
    undo_press(session, 21_000)
    undo_press(session, 22_000)  # a landing: running, the pause nobody's
    landed = session.state
    session.dispatch(c.Switch(23_000))
    redone = session.state
    told: list[Any] = []
    session.subscribe(lambda update: told.append(update.state))
    session.undo()
    assert session.state == landed and told[-1] == session.state
    session.redo()
    assert session.state == redone and told[-1] == session.state
    session.undo(24_000)  # no pause since: the same landing
    assert session.state == landed and told[-1] == session.state
    # the Switch's before landed anew (a pause since), then redone: a plain undo
    # still gives its before, and says so
    session.redo()
    session.dispatch(c.Pause(24_000))
    undo_press(session, 25_000)
    undo_press(session, 26_000)
    assert session.state != landed
    redo_press(session, 27_000)
    session.undo()
    assert session.state == landed and told[-1] == session.state


def test_a_close_undone_charges_nobody_for_the_end_page() -> None:
    """Ended by mistake and undone from the end page a minute later: that minute the
    clock was not running, it is nobody's."""
    session = Session.start(RULES, Journal(":memory:"), setup("chess-5m-3s", 2))
    for command in (c.Start(0), c.Switch(4000), c.Close(6000)):
        session.dispatch(command)
    undo_press(session, 66_000)
    assert session.state.status == "running"
    assert _seen(session, 66_000) == ([299_000, 298_000], 60_000, 0)
