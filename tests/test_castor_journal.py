"""Castor through the session and a journal file: whole tracked rounds, edits, undo and
redo, and resuming after the app stopped (a power cut) gives back the same game."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import config
from companion.games.castor import RULES, scoreboard, trick_view
from companion.games.castor import commands as c
from companion.games.castor import events as e
from companion.games.castor.params import CastorParams
from companion.games.castor.rules import game_standings
from companion.games.castor.state import Sheet
from companion.games.castor.tricks import round_plans
from companion.journal import FILE_NAME, Journal
from companion.session import Session

NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve")
AGENTS = ("belton", "martha", "agent3", "agent4", "agent5")
PARAMS = config.load(use_default_user_file=False).data["games"]["castor"]


def setup(n: int) -> dict[str, Any]:
    return {"params": PARAMS,
            "players": [{"name": NAMES[i], "agent": AGENTS[i]} for i in range(n)]}


def deal(params: CastorParams, n: int, rng: random.Random) -> dict[str, list[tuple[str, int]]]:
    cards = [(spec.name, value) for spec in params.colours
             for value in range(spec.low, spec.high + 1) for _ in range(spec.copies)]
    rng.shuffle(cards)
    t = params.tricks_per_round
    return {NAMES[i]: cards[i * t:(i + 1) * t] for i in range(n)}


def play_round(session: Session, rng: random.Random, check_undo: bool) -> None:
    """One whole round, trick by trick, with powers, choices and overrides at random."""
    state = session.state
    hands = deal(state.params, len(state.players), rng)

    def do(command: Any) -> None:
        before = session.state
        session.dispatch(command)
        if check_undo:
            after = session.state
            session.undo()
            assert session.state == before
            session.redo()
            assert session.state == after

    drawn: set[str] = set()
    for _ in range(state.params.tricks_per_round):
        for agent in (p.agent for p in state.players):
            if agent and agent not in drawn and rng.random() < 0.1:
                drawn.add(agent)
                do(c.DrawPower(agent))
        view = trick_view(session.state)
        if view.choosing:
            do(c.ChooseLeader(rng.choice(NAMES[: len(state.players)])))
        if rng.random() < 0.15:
            do(c.SetTrumps(rng.choice([(), ("blue", "mauve"), ("yellow",)])))
        for name in trick_view(session.state).to_play:
            do(c.PlayCard(name, *hands[name].pop(rng.randrange(len(hands[name])))))
        tracking = session.state.tracking
        left = sorted((session.state.params.plan_counts - round_plans(tracking.done)).elements())
        plan = left.pop(rng.randrange(len(left)))
        extra = rng.choice(left) if trick_view(session.state).extra_plan else None
        do(c.TakeTrick(plan, extra))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 5), st.randoms(use_true_random=False))
def test_tracked_rounds_undo_redo_and_replay(n, rng):
    journal = Journal(":memory:")
    session = Session.start(RULES, journal, setup(n))
    play_round(session, rng, check_undo=True)
    assert len(session.state.rounds) == 1 and session.state.tracking is None
    play_round(session, rng, check_undo=False)
    resumed = Session.resume(RULES, journal, session.game_id)
    assert resumed.state == session.state
    while session.can_undo():
        session.undo()
    assert session.state == RULES.initial_state(setup(n))
    journal.close()


def test_resume_after_a_power_cut_gives_the_same_game(tmp_path):
    path = tmp_path / FILE_NAME
    journal = Journal(path)
    session = Session.start(RULES, journal, setup(3))
    seen: list[Any] = []
    session.subscribe(lambda update: seen.append(update.verb))
    session.dispatch(c.EnterSheet(1, (10, 4, 3), (1, 2, 3), (0, 1, 2)))  # Ann wins
    play_round(session, random.Random(4), check_undo=False)  # round 2, tracked
    session.dispatch(c.EnterSheet(1, (4, 10, 3), (1, 2, 3), (0, 1, 2)))  # edit: Bob won it
    session.undo()
    session.redo()
    session.dispatch(c.DrawPower("martha"))  # round 3 under way
    session.dispatch(c.PlayCard(trick_view(session.state).leader, "mauve", 7))
    session.undo()  # an undone card stays redoable after the restart
    state, summary = session.state, RULES.summary(session.state)
    game_id = session.game_id
    assert len(seen) == len(journal.entries(game_id))  # observers heard every action
    assert seen[-3:] == ["do", "do", "undo"]
    journal.close()  # the power goes off here

    journal = Journal(path)
    resumed = Session.resume(RULES, journal, game_id)
    assert resumed.state == state
    assert journal.game(game_id).summary == summary
    assert scoreboard(resumed.state) == scoreboard(state)
    assert trick_view(resumed.state) == trick_view(state)
    assert resumed.next_redo() == c.PlayCard(trick_view(state).leader, "mauve", 7)
    resumed.redo()
    assert len(resumed.state.tracking.current.cards) == 1
    journal.close()


def test_the_summary_in_the_journal_follows_edits_and_victory(tmp_path):
    journal = Journal(tmp_path / FILE_NAME)
    session = Session.start(RULES, journal, setup(2))
    session.dispatch(c.EnterSheet(1, (10, 1), (0, 1), (0, 0)))
    events = session.dispatch(c.EnterSheet(2, (10, 1), (0, 1), (0, 0)))
    assert e.GameWon(2, ("Ann",)) in events
    record = journal.game(session.game_id)
    assert record.finished and record.summary["winners"] == ["Ann"]
    assert record.summary["rounds"] == [[18, 1], [18, 1]]
    assert record.summary["medals"] == [2, 0]
    assert journal.unfinished() == []
    session.dispatch(c.EnterSheet(2, (1, 10), (1, 0), (0, 0)))  # the edit reopens it
    record = journal.game(session.game_id)
    assert not record.finished and record.summary["turn"] == 3
    assert [g.id for g in journal.unfinished()] == [session.game_id]
    assert game_standings(session.state).medals == (1, 1)
    journal.close()


def test_off_guess_cards_replay_from_the_games_own_settings(tmp_path):
    # the game's setup holds its settings: widening the config later changes nothing in
    # a game already played, and a journal replays to the same state and the same notes
    path = tmp_path / FILE_NAME
    journal = Journal(path)
    session = Session.start(RULES, journal, setup(2))
    events = session.dispatch(c.PlayCard("Ann", "blue", 20))
    assert e.CheckCards("value", 20, "blue", 1, 18) in events
    session.dispatch(c.PlayCard("Bob", "blue", 20))  # again: still outside the game's 1-18
    session.dispatch(c.TakeTrick(9))
    state, game_id = session.state, session.game_id
    journal.close()

    journal = Journal(path)
    resumed = Session.resume(RULES, journal, game_id)
    assert resumed.state == state
    assert resumed.state.params.colour("blue").high == 18
    notes = [ev for entry in journal.entries(game_id) for ev in entry.events
             if ev["type"] == "CheckCards"]  # in the game's log, as written
    assert [n["reason"] for n in notes] == ["value", "value", "plan_value"]
    journal.close()


def test_complice_corrections_are_logged_undone_and_replayed(tmp_path):
    # seed: "Il arrive que le Castor reçoive de l'aide d'un complice. Chaque fois, tu verras
    # une indication ou une action à réaliser."
    path = tmp_path / FILE_NAME
    journal = Journal(path)
    session = Session.start(RULES, journal, setup(2))
    steps = [c.NoteComplice("winner", "lowest wins"), c.PlayCard("Ann", "green", 9),
             c.PlayCard("Bob", "green", 2), c.AwardTrick("Bob"), c.TakeTrick(4),
             c.NoteComplice("card"), c.MoveCard("Bob", "Ann", "green", 9),
             c.NoteComplice("points"), c.MovePlan("Bob", "Ann", 3)]
    states = [session.state]
    for command in steps:
        session.dispatch(command)
        states.append(session.state)
    done = session.state.tracking.done
    assert done[0].winner == 1 and done[0].complice == (("winner", "lowest wins"),)
    assert trick_view(session.state).so_far == Sheet((3, 1), (1, 1), (0, 0))
    game_id = session.game_id
    journal.close()
    journal = Journal(path)
    resumed = Session.resume(RULES, journal, game_id)
    assert resumed.state == states[-1]
    for expected in reversed(states[:-1]):  # undo always works, one command at a time
        resumed.undo()
        assert resumed.state == expected
    journal.close()
