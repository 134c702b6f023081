"""The table's clock (issue 31): every mode and rule on a fake clock (the times are
the commands' own `at`, in ms)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games import KINDS, rules_for
from companion.games.clock import commands as c
from companion.games.clock import events as e
from companion.games.clock.rules import RULES, clock_text, describe, redo_press, undo_press
from companion.games.clock.view import clock_view, next_deadline, stats
from companion.i18n import Translator
from companion.journal import Journal
from companion.messages import RuleError
from companion.night import history
from companion.session import Session
from tests.helpers.clock import banks, run, setup, state

S = 1000
M = 60 * S


def _key(exc: pytest.ExceptionInfo[RuleError]) -> str:
    return exc.value.message.key


def test_is_a_game_kind() -> None:
    assert "clock" in KINDS and rules_for("clock") is RULES
    assert Translator("fr")("core.games.clock") == "Horloge de jeu"
    assert Translator("en")("core.games.clock") == "Game clock"


# -- sand ------------------------------------------------------------------------------
def test_sand_flip_swaps_left_and_run() -> None:
    """Issue: "sand: one countdown, a tap or ROLL flips it (remaining and elapsed
    swap)"."""
    clock, _ = run(state("sand-1m", 0), [c.Start(5 * S), c.Flip(25 * S)])
    assert clock.countdown_ms == 20 * S  # 40 s were left, 20 s had run: now 20 s left
    assert clock_view(clock, 30 * S).countdown_ms == 15 * S
    clock, events = run(clock, [c.Checkpoint(50 * S)])
    assert clock.status == "stopped" and clock.stop_reason == "sand"
    assert events[0] == e.ZeroReached(-1, 45 * S, "stop")  # at its own ms, not at 50 s
    clock, _ = run(clock, [c.Flip(60 * S)])  # a run-out sand flipped runs full again
    assert clock.status == "running" and clock.countdown_ms == M
    assert clock.table_ms + clock.pause_ms == clock.elapsed_ms == 55 * S


def test_sand_with_one_team_and_switch_gives_a_fresh_sand() -> None:
    clock, _ = run(state("sand-3m", 2), [c.Start(0), c.Switch(70 * S)])
    assert clock.active == 1 and clock.countdown_ms == 3 * M
    assert clock.seats[0].used_ms == 70 * S


# -- bank (chess clock) --------------------------------------------------------------
def test_bank_fischer_after_the_turn() -> None:
    clock, events = run(state("chess-5m-3s", 2), [c.Start(0), c.Switch(10 * S)])
    assert banks(clock) == [5 * M - 10 * S + 3 * S, 5 * M]
    assert events[-1] == e.TurnEnded(0, 1, 10 * S, 3 * S, 293 * S)
    view = clock_view(clock, 14 * S)
    assert view.active == 1 and view.seats[1].remaining_ms == 5 * M - 4 * S
    assert view.seats[0].remaining_ms == 293 * S and not view.seats[0].active


def test_a_bank_clock_needs_two_players_a_sand_none() -> None:
    with pytest.raises(RuleError) as exc:
        state("chess-5m-3s", 1)
    assert _key(exc) == "clock.error.players_count"
    nine = setup("chess-5m-3s", 8)
    nine["players"] = [{"name": f"P{i}"} for i in range(9)]
    with pytest.raises(RuleError):
        RULES.initial_state(nine)
    assert state("sand-1m", 0).active == -1 and state("phase-2m", 1).seats[0].name == "Ann"


def test_press_for_a_seat_that_is_not_active_is_refused() -> None:
    clock, _ = run(state("chess-5m-3s", 3), [c.Start(0)])
    with pytest.raises(RuleError) as exc:
        RULES.apply(clock, c.Switch(5 * S, seat=2))
    assert _key(exc) == "clock.error.not_active"
    clock, _ = run(clock, [c.Switch(5 * S, seat=0)])
    assert clock.active == 1


def test_handicap_banks_and_adjust() -> None:
    clock = state("chess-5m-3s", 2, banks=[10 * M, None])
    assert banks(clock) == [10 * M, 5 * M]
    clock, events = run(clock, [c.Start(0), c.Adjust(4 * S, 1, 30 * S)])
    assert banks(clock) == [10 * M - 4 * S, 5 * M + 30 * S]
    assert events[-1] == e.Adjusted(1, 30 * S, 5 * M + 30 * S)
    for bad in (0, 25 * 3600 * S):
        with pytest.raises(RuleError) as exc:
            RULES.apply(clock, c.Adjust(5 * S, 0, bad))
        assert _key(exc) == "clock.error.adjust_range"


def test_pause_is_charged_to_nobody_and_admin_apart() -> None:
    clock, events = run(state("chess-5m-3s", 2), [
        c.Start(0), c.Pause(10 * S), c.Resume(70 * S), c.Admin(80 * S, True),
        c.Admin(200 * S, False), c.Switch(210 * S)])
    assert clock.pause_ms == 60 * S and clock.admin_ms == 120 * S
    assert clock.seats[0].used_ms == 30 * S  # 10 + 10 + 10
    assert e.Resumed(60 * S) in events and e.AdminEnded(120 * S, True) in events
    with pytest.raises(RuleError) as exc:
        RULES.apply(run(clock, [c.Pause(220 * S)])[0], c.Switch(230 * S))
    assert _key(exc) == "clock.error.paused"  # a press during a pause: a "no" beep


def test_stages_after_40_moves_30_minutes_more() -> None:
    """Issue: stages ("after 40 moves, 30 minutes more")."""
    clock = state({"mode": "bank", "stages": [{"moves": 2, "time": "10m"},
                                              {"moves": 0, "time": "30m", "increment": "5s"}]})
    clock, events = run(clock, [c.Start(0), c.Switch(1 * S), c.Switch(2 * S),
                                c.Switch(3 * S)])
    assert e.StageReached(0, 1, 30 * M) in events
    assert banks(clock) == [10 * M - 2 * S + 30 * M, 10 * M - 1 * S]
    clock, _ = run(clock, [c.Switch(4 * S), c.Switch(5 * S)])
    assert banks(clock)[0] == 40 * M - 3 * S + 5 * S  # the second stage's increment


def test_allowance_is_spent_before_the_bank() -> None:
    clock = state({"mode": "bank", "time": "5m", "allowance": "30s"})
    clock, _ = run(clock, [c.Start(0), c.Switch(20 * S), c.Switch(60 * S)])
    assert banks(clock) == [5 * M, 5 * M - 10 * S]
    view = clock_view(clock, 70 * S)
    assert view.seats[0].delay_left_ms == 20 * S and view.seats[0].remaining_ms == 5 * M


# -- turn ------------------------------------------------------------------------------
def test_turn_countdown_with_carry_and_debt() -> None:
    clock = state("turn-2m-carry", 2)
    clock, _ = run(clock, [c.Start(0), c.Switch(90 * S), c.Switch(90 * S + 150 * S)])
    assert banks(clock) == [30 * S + 2 * M, -30 * S]  # Ann plays with 2:30, Bob owes 30 s
    clock, _ = run(clock, [c.Switch(240 * S + 10 * S)])
    assert clock_view(clock, 250 * S).seats[1].remaining_ms == 2 * M - 30 * S


def test_turn_without_carry_starts_full_and_goes_over() -> None:
    clock, events = run(state("turn-60s", 2), [c.Start(0), c.Checkpoint(70 * S)])
    assert banks(clock) == [-10 * S, 0] and clock.seats[0].overtime_ms == 10 * S
    assert events[1:] == [e.ZeroReached(0, 60 * S, "overtime")]
    assert clock_view(clock, 70 * S).seats[0].level == "over"
    clock, _ = run(clock, [c.Switch(80 * S)])
    assert banks(clock) == [0, 60 * S]


def test_penalty_points_per_started_interval() -> None:
    clock, events = run(state("turn-1m-penalty", 2), [c.Start(0), c.Switch(60 * S + 31 * S)])
    assert e.PenaltyGiven(0, 2, 2, 31 * S) in events  # 31 s over: two started 30 s
    assert RULES.summary(clock)["penalties"] == [2, 0]


def test_at_zero_next_player_at_its_own_ms() -> None:
    clock = state({"mode": "turn", "time": "30s", "at_zero": "next"}, 3)
    clock, events = run(clock, [c.Start(0), c.Zero(31 * S)])
    assert clock.active == 1 and clock.turn_used_ms == 1 * S
    assert e.ZeroReached(0, 30 * S, "next") in events


def test_at_zero_out_and_the_last_one_decides() -> None:
    clock = state({"mode": "bank", "time": "10s", "at_zero": "out"}, 3)
    clock, _ = run(clock, [c.Start(0), c.Zero(10 * S)])
    assert clock.seats[0].out and clock.active == 1
    clock, events = run(clock, [c.Checkpoint(25 * S)])
    assert clock.status == "stopped" and clock.stop_reason == "decided" and clock.active == 2
    assert e.Stopped("decided", 2) in events


def test_zero_refused_before_the_time_is_up() -> None:
    clock, _ = run(state("chess-5m-3s", 2), [c.Start(0)])
    with pytest.raises(RuleError) as exc:
        RULES.apply(clock, c.Zero(4 * M))
    assert _key(exc) == "clock.error.not_at_zero"


# -- order, passes, rounds -----------------------------------------------------------
def test_pass_until_everyone_passed_then_a_new_round() -> None:
    """Issue: "pass for this round" (passed players skipped until everyone has passed,
    then a new round); never a state where it is nobody's turn."""
    clock, _ = run(state("count-up", 3), [c.Start(0), c.Pass(S), c.Switch(2 * S)])
    assert clock.active == 2
    clock, _ = run(clock, [c.Switch(3 * S)])
    assert clock.active == 1  # Ann passed: skipped
    clock, _ = run(clock, [c.Pass(4 * S)])
    assert clock.active == 2
    clock, events = run(clock, [c.Switch(5 * S)])
    assert clock.active == 2  # the only one who has not passed plays on
    clock, events = run(clock, [c.Pass(6 * S)])
    assert e.NewRound(2, 1) in events  # rotate: Ann began round 1, Bob begins round 2
    assert clock.round == 2 and not any(s.passed for s in clock.seats)


def test_eliminated_are_skipped_and_reorder() -> None:
    clock, _ = run(state("count-up", 4), [c.Start(0), c.Eliminate(S, 1), c.Switch(2 * S)])
    assert clock.active == 2
    clock, _ = run(clock, [c.Reorder(3 * S, (2, 0, 3, 1)), c.Switch(4 * S)])
    assert clock.active == 0
    clock, _ = run(clock, [c.Eliminate(5 * S, 0)])
    assert clock.active == 3  # the active one out: the next in play has the turn
    clock, _ = run(clock, [c.Eliminate(6 * S, 3)])
    assert clock.status == "stopped" and clock.active == 2
    with pytest.raises(RuleError) as exc:
        RULES.apply(clock, c.Eliminate(7 * S, 2))
    assert _key(exc) == "clock.error.last_in_play"


# -- interruptions ---------------------------------------------------------------------
def test_interrupted_reopens_paused_and_starts_a_new_epoch() -> None:
    """Issue: after a power cut the timer reopens paused, every bank as of the last
    checkpoint, and says how much time (at most the checkpoint interval) was not
    charged to anyone."""
    clock, _ = run(state("chess-5m-3s", 2), [c.Start(10**9), c.Checkpoint(10**9 + 40 * S)])
    clock, events = run(clock, [c.Interrupted()])
    assert clock.status == "paused" and banks(clock) == [5 * M - 40 * S, 5 * M]
    assert events == [e.Interruption(True, 10 * S)]
    # after the reboot the monotonic clock starts again near 0
    clock, _ = run(clock, [c.Resume(3 * S), c.Switch(8 * S)])
    assert banks(clock) == [5 * M - 45 * S + 3 * S, 5 * M]
    assert clock.elapsed_ms == 45 * S
    assert clock_view(clock, 9 * S).seats[1].remaining_ms == 5 * M - 1 * S


def test_a_time_before_the_last_one_charges_nothing() -> None:
    clock, _ = run(state("chess-5m-3s", 2), [c.Start(0), c.Checkpoint(10 * S),
                                             c.Switch(9 * S)])
    assert banks(clock) == [5 * M - 10 * S + 3 * S, 5 * M] and clock.last_at == 10 * S


# -- views -----------------------------------------------------------------------------
def test_levels_and_next_deadline() -> None:
    clock, _ = run(state("chess-5m-3s", 2), [c.Start(0)])
    assert next_deadline(clock, 0) == 5 * M - 30 * S  # warn at 30 s left
    assert clock_view(clock, 5 * M - 20 * S).seats[0].level == "warn"
    assert next_deadline(clock, 5 * M - 20 * S) == 5 * M - 10 * S
    assert clock_view(clock, 5 * M - 5 * S).seats[0].level == "danger"
    assert next_deadline(clock, 5 * M - 5 * S) == 5 * M
    assert clock_view(clock, 5 * M).seats[0].level == "over"
    assert next_deadline(clock, 5 * M) is None  # overtime: nothing more changes
    paused, _ = run(clock, [c.Pause(S)])
    assert next_deadline(paused, 2 * S) is None
    bronstein, _ = run(state("chess-10m-bronstein-5s", 2), [c.Start(0)])
    assert clock_view(bronstein, 2 * S).seats[0].delay_left_ms == 3 * S


def test_stats_and_summary() -> None:
    clock, _ = run(state("count-up", 2), [c.Start(0), c.Switch(10 * S), c.Switch(15 * S),
                                          c.Switch(45 * S), c.Pause(50 * S),
                                          c.Close(60 * S)])
    figures = stats(clock)
    assert [s.total_ms for s in figures.seats] == [40 * S, 10 * S]
    assert [s.turns for s in figures.seats] == [2, 2]
    assert [s.longest_ms for s in figures.seats] == [30 * S, 5 * S]
    assert [s.average_ms for s in figures.seats] == [20 * S, 5 * S]
    summary = RULES.summary(clock)
    assert summary["finished"] and summary["duration_ms"] == 60 * S
    assert summary["pause_ms"] == 10 * S and summary["turn"] == 3
    assert summary["players"] == ["Ann", "Bob"] and summary["mode"] == "countup"
    with pytest.raises(RuleError) as exc:
        RULES.apply(clock, c.Switch(70 * S))
    assert _key(exc) == "clock.error.closed"


def test_clock_text() -> None:
    assert [clock_text(ms) for ms in (0, 1, 999, 1000, 61_001, -1500, 3_600_000)] == [
        "0:00", "0:01", "0:01", "0:01", "1:02", "-0:01", "1:00:00"]


# -- through the session: undo, redo, the log ----------------------------------------
def test_undo_button_skips_checkpoints_and_restores_both_banks(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    session = Session.start(RULES, journal, setup("chess-5m-3s", 2))
    session.dispatch(c.Start(0))
    session.dispatch(c.Checkpoint(10 * S))
    before = session.state
    session.dispatch(c.Switch(12 * S))
    session.dispatch(c.Checkpoint(22 * S))
    session.dispatch(c.Checkpoint(32 * S))
    assert isinstance(undo_press(session), c.Switch)
    assert session.state == before
    redo_press(session)
    assert session.state.last_at == 32 * S and session.state.active == 1
    undo_press(session)
    undo_press(session)  # the Start: checkpoint and all
    assert not session.state.started
    with pytest.raises(RuleError) as exc:
        undo_press(session)
    assert _key(exc) == "core.error.nothing_to_undo"
    session.dispatch(c.Start(0))
    session.dispatch(c.Interrupted())
    with pytest.raises(RuleError) as exc:
        undo_press(session)
    assert _key(exc) == "clock.error.undo_interrupted"
    resumed = Session.resume(RULES, journal, session.game_id)
    assert resumed.state == session.state


def test_log_lines_translated(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    session = Session.start(RULES, journal, setup("turn-1m-penalty", 3))
    for command in (c.Start(0), c.Pass(S), c.Switch(2 * S), c.Pause(3 * S),
                    c.Resume(4 * S), c.Admin(5 * S, True), c.Admin(6 * S, False),
                    c.Adjust(7 * S, 0, 5 * S), c.Adjust(8 * S, 0, -2 * S),
                    c.Reorder(9 * S, (2, 1, 0)), c.Checkpoint(100 * S),
                    c.Switch(101 * S), c.Eliminate(102 * S, 1), c.Interrupted(),
                    c.Close(103 * S)):
        session.dispatch(command)
    lines = history.log(journal, session.game_id)
    keys = {m.key for line in lines for m in line.details}
    assert {"clock.say.zero_penalty", "clock.say.penalty", "clock.say.passed",
            "clock.say.interrupted_running"} <= keys
    for language in ("en", "fr"):
        tr = Translator(language)
        for line in lines:
            assert tr.has(line.title.key), line.title.key
            for message in line.details:
                assert tr.has(message.key), message.key
                assert "{" not in tr.message(message), tr.message(message)
    listed = history.games(journal)  # History lists the clock with its times
    assert [line.kind for line in listed] == ["clock"]
    assert describe([e.Started(-1)]) != []


def test_snapshots_decode_the_state_and_a_long_clock_resumes_from_one() -> None:
    from companion import snapshot

    clock, _ = run(state("go-stages", 3, pad_game=12), [c.Start(0), c.Switch(S),
                                                       c.Pass(2 * S)])
    assert snapshot.decode(type(clock), snapshot.encode(clock)) == clock
    journal = Journal(":memory:")
    session = Session.start(RULES, journal, setup("turn-1m-penalty", 3))
    session.dispatch(c.Start(0))
    for i in range(1, 260):
        session.dispatch(c.Checkpoint(i * 10 * S) if i % 3 else c.Switch(i * 10 * S))
    resumed = Session.resume(RULES, journal, session.game_id)
    assert resumed.state == session.state
    assert journal.newest_snapshot(session.game_id, lambda: snapshot.version(
        type(session.state))) is not None


def test_penalty_deadlines_fall_where_a_point_is_added() -> None:
    clock, _ = run(state("turn-1m-penalty", 2), [c.Start(0)])
    assert next_deadline(clock, 59 * S) == 60 * S  # the zero
    assert clock_view(clock, 60 * S).seats[0].penalty == 0
    assert next_deadline(clock, 60 * S) == 60 * S + 1  # its first ms over: one point
    assert clock_view(clock, 60 * S + 1).seats[0].penalty == 1
    assert next_deadline(clock, 60 * S + 1) == 90 * S + 1
    assert clock_view(clock, 90 * S).seats[0].penalty == 1
    assert clock_view(clock, 90 * S + 1).seats[0].penalty == 2


def test_undo_across_a_new_round_gives_the_passes_back(tmp_path: Path) -> None:
    session = Session.start(RULES, Journal(tmp_path / "j.sqlite3"), setup("count-up", 2))
    session.dispatch(c.Start(0))
    session.dispatch(c.Pass(S))
    before = session.state
    events = session.dispatch(c.Pass(2 * S))
    assert e.NewRound(2, 1) in events and session.state.round == 2
    undo_press(session)
    assert session.state == before and session.state.seats[0].passed
    assert session.state.round == 1 and session.state.active == 1


def test_presets_offered_by_mode_then_shortest() -> None:
    from companion.games.clock.params import MODES
    from companion.games.clock.presets import load_presets

    found = load_presets(own=Path("/nonexistent")).presets
    assert list(found)[:2] == ["sand-1m", "sand-3m"] and list(found)[-1] == "count-up"
    modes = [MODES.index(p.params.mode) for p in found.values()]
    assert modes == sorted(modes)


def test_headline_and_instructions() -> None:
    from companion.games.clock.instructions import headline, instructions

    en = Translator("en")
    clock = state("turn-1m-penalty", 2, pad_game=4)
    assert en.message(headline(clock_view(clock, 0))) == "Ann begins: start the clock"
    clock, _ = run(clock, [c.Start(0)])
    assert en.message(headline(clock_view(clock, S))) == "Ann's turn"
    assert en.message(headline(clock_view(clock, 65 * S))) == "Ann's turn: 0:05 over"
    clock, events = run(clock, [c.Switch(95 * S)])
    said = [en.message(m) for m in instructions(events, clock)]
    assert said == ["Ann's time is up: penalty points from now on",
                    "Ann: 2 penalty points (2 in all)",
                    "Write 2 penalty points for Ann in the score pad"]
    fr = Translator("fr")
    assert fr.message(instructions(events, clock)[2]) == \
        "Notez 2 points de pénalité pour Ann sur le bloc de score"
    # the app wrote them in the score pad game itself: not asked of the table
    assert [m.key for m in instructions(events, clock, written=True)] == [
        "clock.say.zero_penalty", "clock.say.penalty"]
    paused, _ = run(clock, [c.Interrupted()])
    assert fr.message(headline(clock_view(paused, 0))) == \
        "Interrompue : en pause jusqu'à la reprise"
    sand, _ = run(state("sand-1m", 0), [c.Start(0)])
    assert en.message(headline(clock_view(sand, 61 * S))) == "The sand has run out"


def test_a_seat_buttons_press_out_of_turn_names_the_player() -> None:
    clock, _ = run(state("chess-5m-3s", 3), [c.Start(0)])
    with pytest.raises(RuleError) as exc:
        RULES.apply(clock, c.Switch(S, seat=1))
    assert Translator("en").message(exc.value.message).startswith("It is not Bob's turn")
    with pytest.raises(RuleError) as exc:
        RULES.apply(clock, c.Switch(S, seat=3))
    assert Translator("fr").message(exc.value.message) == \
        "Il n'y a pas de place 4 à cette horloge."


EVERY_EVENT = [
    e.Started(0), e.Started(-1), e.TurnEnded(0, 1, 1000, 3000, 5000),
    e.TurnEnded(0, 1, 1000, 0, 5000, passed=True), e.TurnEnded(0, 1, 1, 0, 0, timed_out=True),
    e.TurnEnded(-1, -1, 1000, 0, 0), e.NewRound(2, 1), e.StageReached(0, 1, 60_000),
    e.PenaltyGiven(0, 1, 1, 10), e.PenaltyGiven(0, 3, 4, 10), e.ZeroReached(-1, 5, "stop"),
    *(e.ZeroReached(1, 5, a) for a in ("overtime", "penalty", "next", "out", "stop")),
    e.Paused(0), e.Resumed(60_000), e.Flipped(20_000), e.Adjusted(0, 30_000, 90_000),
    e.Adjusted(0, -30_000, 30_000), e.Eliminated(2, 0), e.Reordered((2, 0, 1)),
    e.AdminStarted(), e.AdminEnded(5000, True),
    *(e.Stopped(r, 0) for r in ("sand", "phase", "decided", "no_time")),
    e.Interruption(True, 10_000), e.Interruption(False, 0), e.Closed(3_600_000, 1),
    e.Closed(3_600_000, 40)]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_event_and_headline_reads_in_both_languages(language: str) -> None:
    import dataclasses

    from companion.games.clock.instructions import headline

    kinds = {type(event) for event in EVERY_EVENT}
    assert kinds == {cls for cls in vars(e).values()
                     if isinstance(cls, type) and dataclasses.is_dataclass(cls)}
    tr = Translator(language)
    clock = state("chess-5m-3s", 3)
    said = describe(EVERY_EVENT, clock)
    assert len(said) == len(EVERY_EVENT)
    for status in ("ready", "running", "paused", "admin", "closed"):
        said.append(headline(clock_view(dataclasses.replace(
            clock, status=status, active=0 if status != "ready" else -1), 0)))
    for message in said:
        text = tr.message(message)
        assert tr.has(message.key) and "{" not in text and "clock." not in text, text


def test_phase_one_shared_countdown_then_the_next_phase() -> None:
    """Issue: "phase: one shared countdown for a simultaneous phase"."""
    clock, events = run(state("phase-2m", 3), [c.Start(0), c.Checkpoint(2 * M + 5 * S)])
    assert clock.status == "stopped" and clock.stop_reason == "phase"
    assert e.ZeroReached(0, 2 * M, "stop") in events
    assert clock.seats[0].used_ms == 2 * M and clock.table_ms == 5 * S
    assert clock_view(clock, 3 * M).countdown_ms == 0
    clock, _ = run(clock, [c.Switch(3 * M)])  # the next phase, led by the next seat
    assert clock.status == "running" and clock.active == 1
    assert clock_view(clock, 3 * M + 30 * S).countdown_ms == 90 * S
    with pytest.raises(RuleError) as exc:
        RULES.apply(clock, c.Flip(4 * M))
    assert _key(exc) == "clock.error.not_in_mode"


@pytest.mark.parametrize("round_start, first", [("rotate", 2), ("same", 1),
                                                ("first_passed", 3)])
def test_who_begins_the_next_round(round_start: str, first: int) -> None:
    """Bob begins round 1; Dee passes first, then Ann, Bob, Cid."""
    clock = state({"mode": "countup", "round_start": round_start}, 4, start=1)
    clock, events = run(clock, [c.Start(0), c.Switch(S), c.Switch(2 * S), c.Pass(3 * S),
                                c.Pass(4 * S), c.Pass(5 * S), c.Pass(6 * S)])
    assert e.NewRound(2, first) in events and clock.active == first


def test_at_zero_next_skips_empty_banks_and_stops_when_nobody_has_time() -> None:
    clock = state({"mode": "bank", "time": "10s", "at_zero": "next"}, 3)
    clock, _ = run(clock, [c.Start(0), c.Switch(4 * S), c.Zero(14 * S)])
    assert banks(clock) == [6 * S, 0, 10 * S] and clock.active == 2
    clock, _ = run(clock, [c.Switch(15 * S)])
    assert clock.active == 0  # Bob has nothing left: passed over
    clock, events = run(clock, [c.Zero(21 * S), c.Checkpoint(40 * S)])
    assert clock.status == "stopped" and clock.stop_reason == "no_time"
    assert e.Stopped("no_time", 2) in events and banks(clock) == [0, 0, 0]
    clock, _ = run(clock, [c.Adjust(41 * S, 1, 30 * S)])  # time given back: still stopped
    assert clock.status == "stopped"


def test_a_sand_flipped_before_any_sand_ran_is_out_at_once() -> None:
    clock, events = run(state("sand-1m", 0), [c.Start(0), c.Flip(0)])
    assert clock.status == "stopped" and clock.countdown_ms == 0
    assert events[-2:] == [e.ZeroReached(-1, 0, "stop"), e.Stopped("sand", -1)]
    clock, _ = run(clock, [c.Flip(5 * S)])
    assert clock.status == "running" and clock.countdown_ms == M


def test_time_taken_to_zero_by_hand_is_refused_where_a_zero_acts() -> None:
    clock, _ = run(state({"mode": "bank", "time": "10s", "at_zero": "out"}, 3), [c.Start(0)])
    with pytest.raises(RuleError) as exc:
        RULES.apply(clock, c.Adjust(S, 1, -10 * S))
    assert _key(exc) == "clock.error.adjust_to_zero"
    assert banks(RULES.apply(clock, c.Adjust(S, 1, -9 * S))[0]) == [9 * S, S, 10 * S]
    overtime, _ = run(state("chess-5m-3s", 2), [c.Start(0), c.Adjust(S, 1, -6 * M)])
    assert banks(overtime)[1] == -M  # overtime: a debt is the table's to give


# Issue 46, item 3: a bank's penalty is counted over the player's total overtime.
SCRABBLE = {"mode": "bank", "time": "1m", "at_zero": "penalty",
            "penalty": {"points": 10, "every": "1m"}}


def test_a_bank_penalty_counts_the_players_whole_overtime() -> None:
    """NASPA tournament rules: "a 10-point penalty for each minute or part thereof
    that is used in excess [of the player's time]... 61 seconds carries a 20-point
    penalty". Three turns of 20 s over, 60 s in all: 10 points, not 30."""
    clock, events = run(state(SCRABBLE, 2), [
        c.Start(0), c.Switch(80 * S),  # Ann: her minute and 20 s over
        c.Switch(81 * S), c.Switch(101 * S),  # Bob 1 s; Ann 20 s over (40 s)
        c.Switch(102 * S), c.Switch(122 * S)])  # Bob 1 s; Ann 20 s over (60 s)
    assert clock.seats[0].overtime_ms == 60 * S
    assert [ev for ev in events if isinstance(ev, e.PenaltyGiven)] == [
        e.PenaltyGiven(0, 10, 10, 20 * S)]
    assert RULES.summary(clock)["penalties"] == [10, 0]
    clock, _ = run(clock, [c.Switch(123 * S)])  # Bob
    assert clock_view(clock, 124 * S).seats[0].penalty == 20  # 61 s: a second minute
    assert next_deadline(clock, 123 * S) == 123 * S + 1  # the 61st second begun
    clock, events = run(clock, [c.Switch(124 * S)])
    assert e.PenaltyGiven(0, 10, 20, S) in events
    assert RULES.summary(clock)["penalties"] == [20, 0]


def test_a_turn_timer_penalty_stays_per_turn() -> None:
    """A turn timer's overtime is the turn's: each turn over by 20 s costs its own."""
    clock = state({"mode": "turn", "time": "1m", "at_zero": "penalty",
                   "penalty": {"points": 10, "every": "1m"}}, 2)
    clock, _ = run(clock, [c.Start(0), c.Switch(80 * S), c.Switch(81 * S),
                           c.Switch(161 * S)])
    assert RULES.summary(clock)["penalties"] == [20, 0]


# Issue 46, item 2: a tap at (or just after) a zero ends only the turn the zero ended.
@pytest.mark.parametrize("at_zero", ["next", "out"])
@pytest.mark.parametrize("late", [0, 40])
def test_a_switch_at_the_zero_ends_only_the_turn_the_zero_ended(at_zero: str,
                                                                 late: int) -> None:
    """Ann taps as her 10 s run out (at the zero's ms, or 40 ms after): the zero ends
    her turn; the tap was meant for that turn, not for Bob's, which has just begun."""
    clock = state({"mode": "bank", "time": "10s", "at_zero": at_zero}, 3)
    clock, events = run(clock, [c.Start(0), c.Switch(10 * S + late)])
    assert not [ev for ev in events if isinstance(ev, e.TurnEnded) and ev.seat == 1]
    assert events[1] == e.ZeroReached(0, 10 * S, at_zero)
    assert clock.active == 1 and clock.turn_used_ms == late and clock.switches == 1
    assert clock.seats[1].turns == 0 and banks(clock)[1] == 10 * S - late


@pytest.mark.parametrize("at_zero", ["next", "out"])
def test_a_tap_behind_the_zeros_commit_ends_nothing_more(at_zero: str) -> None:
    """The screen journals `Zero` at the deadline; a tap read 40 ms later and applied
    after it is still the tap meant for Ann's turn."""
    clock = state({"mode": "bank", "time": "10s", "at_zero": at_zero}, 3)
    clock, events = run(clock, [c.Start(0), c.Zero(10 * S), c.Switch(10 * S + 40),
                                c.Pass(10 * S + 80), c.Switch(10 * S + 90, seat=0)])
    assert clock.active == 1 and clock.turn_used_ms == 90 and not clock.seats[1].passed
    assert [type(ev) for ev in events if isinstance(ev, e.TurnEnded)] == (
        [e.TurnEnded] if at_zero == "next" else [])
    clock, events = run(clock, [c.Switch(12 * S)])  # Bob's own tap, 2 s into his turn
    assert clock.active == 2 and e.TurnEnded(1, 2, 2 * S, 0, 8 * S) in events
