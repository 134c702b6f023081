"""The pure views the Mr. Bond screens read: player cards, capture flow, live buttons."""

from __future__ import annotations

from typing import Any

import pytest

from companion import config
from companion.games.bond import RULES, view
from companion.games.bond import commands as c
from companion.games.bond.state import BondState
from companion.messages import RuleError

PARAMS = config.load(use_default_user_file=False).data["games"]["bond"]


def game(*commands: Any, players: int = 3, **params: Any) -> BondState:
    names = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"][:players]
    state = RULES.initial_state({"params": config.merge(PARAMS, params),
                                 "players": [{"name": n} for n in names]})
    for command in commands:
        state, _ = RULES.apply(state, command)
    return state


def test_player_cards_show_lair_size_score_and_what_is_left_to_the_target():
    state = game(c.AddLairCard(1, 3), c.AddLairCard(1, 2), c.CorrectScore(0, 12))
    cards = view.players(state)
    assert [(p.name, p.lair_size, p.has_lair, p.score, p.to_target) for p in cards] == [
        ("Ann", 0, False, 12, 18), ("Bob", 5, True, 0, 30), ("Cid", 0, False, 0, 30)]
    assert cards[1].lair == (3, 2)
    assert not any(p.holds_capture or p.winner for p in cards)


def test_the_capture_view_tells_the_value_now_and_after_one_more_ridicule():
    state = game(c.AddLairCard(2, 4), c.Attack(2, (3,), by=0), c.Ridicule("A"),
                 c.NotAnswered())
    held = view.capture(state)
    assert held is not None
    assert (held.owner, held.owner_name, held.power, held.value, held.next_value) == (
        2, "Cid", 3, 6, 12)
    assert held.successes == ("A",) and held.pending is None
    assert held.letters == tuple("BCDEFGHI")
    assert view.players(state)[2].holds_capture


def test_the_capture_view_hides_letters_whose_two_cards_are_played():
    state = game(c.AddLairCard(2, 4), c.Attack(2, (1,)), c.Ridicule("A"), c.Answered(),
                 c.AddLairCard(1, 4), c.Attack(1, (1,)), c.Ridicule("B"))
    held = view.capture(state)
    assert held.pending == "B" and held.can_answer
    assert "A" not in view.capture(game(c.AddLairCard(2, 4), c.Attack(2, (1,)),
                                        c.Ridicule("A"), c.Answered(), c.AddLairCard(1, 4),
                                        c.Attack(1, (1,)))).letters


def test_no_capture_no_capture_view():
    assert view.capture(game()) is None


def test_next_moves_outside_a_capture():
    moves = view.next_moves(game(c.AddLairCard(1, 2)))
    assert moves.add_lair and moves.end_game and moves.correct
    assert moves.attack_targets == (1,)
    assert not (moves.kill or moves.ridicule or moves.answered or moves.not_answered)


def test_next_moves_while_a_capture_waits_then_while_a_ridicule_waits():
    state = game(c.AddLairCard(1, 2), c.Attack(1, (2,)))
    moves = view.next_moves(state)
    assert moves.kill and moves.ridicule == tuple("ABCDEFGHI")
    assert not (moves.add_lair or moves.attack_targets or moves.end_game or moves.correct)
    assert not (moves.answered or moves.not_answered)
    moves = view.next_moves(RULES.apply(state, c.Ridicule("C"))[0])
    assert moves.answered and moves.not_answered
    assert not moves.kill and moves.ridicule == ()


def test_nothing_is_offered_after_the_end():
    state = game(c.CorrectScore(1, 30))
    assert view.next_moves(state) == view.Moves(False, (), False, (), False, False, False,
                                                False)
    assert [p.winner for p in view.players(state)] == [False, True, False]
    assert view.players(state)[1].to_target == 0


def test_spies_left_bounds_the_attack_flow_and_the_last_one_ends_the_game():
    state = game(c.AddLairCard(1, 4), c.AddLairCard(0, 4), c.Attack(1, (1, 1)), c.Kill(),
                 deck={"spy": 3})
    assert view.spies_left(state) == 1
    assert view.lair_cards_left(state) == 16
    assert view.next_moves(state).attack_targets == (0, 1)
    with pytest.raises(RuleError, match="no_spies_left"):
        RULES.apply(state, c.Attack(0, (1, 1)))
    state, _ = RULES.apply(state, c.Attack(0, (5,)))
    assert view.spies_left(state) == 0 and state.outcome.reason == "last_spy"
    assert view.next_moves(state).attack_targets == ()


def test_attack_preview_deal_size_and_leaders():
    state = game(c.AddLairCard(0, 4), c.CorrectScore(1, 5), c.CorrectScore(2, 5))
    assert view.attack_result(state, 0, (2, 2)) == "captured"
    assert view.attack_result(state, 0, (5,)) == "escaped"
    assert view.leaders(state) == (1, 2)
    params = state.params
    assert [view.deal_size(params, n) for n in range(2, 7)] == [6, 6, 5, 5, 5]


def test_the_story_counts_captures_kills_the_best_kill_and_destroyed_lairs():
    from companion.games.bond.story import story

    state = RULES.initial_state({"params": PARAMS,
                                 "players": [{"name": n} for n in ("Ann", "Bob", "Cid")]})
    steps = []
    for command in (c.AddLairCard(2, 4), c.Attack(2, (3,), by=0), c.Ridicule("A"),
                    c.NotAnswered(), c.Kill(),  # Cid: 3 doubled once, 6 points
                    c.AddLairCard(1, 2), c.Attack(1, (5,), by=0),  # too strong: destroyed
                    c.AddLairCard(0, 5), c.Attack(0, (2,), by=1), c.Kill()):  # Ann: 2
        state, events = RULES.apply(state, command)
        steps.append(events)
    lines = story(state, steps)
    assert [(m.key, m.params.get("n")) for m in lines] == [
        ("bond.story.captures", 2), ("bond.story.kills", 2),
        ("bond.story.best_kill_doubled", 6), ("bond.story.lairs_destroyed", 1)]
    assert lines[2].params["player"] == "Cid" and lines[2].params["times"] == 1
