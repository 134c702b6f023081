"""Mr. Bond's rules (GAMES.md §3, issue 5), one behaviour per test, with their edge cases.

The builders at the top are shared by the other `test_bond_*` files.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion import config
from companion.games.bond import RULES
from companion.games.bond import commands as c
from companion.games.bond import events as e
from companion.games.bond.state import BondState
from companion.messages import RuleError

NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")


# -- builders ---------------------------------------------------------------------------
def default_params() -> dict[str, Any]:
    """The `games.bond` section of the shipped defaults (a fresh copy each time)."""
    data = config.load(use_default_user_file=False).data["games"]["bond"]
    return config.merge(data, {})


_PARAMS = default_params()


def setup(players: int = 3, **params: Any) -> dict[str, Any]:
    """A game setup as the UI builds it; `params` override the default rule parameters."""
    return {
        "params": config.merge(_PARAMS, params),
        "players": [{"name": NAMES[i]} for i in range(players)],
    }


def new_state(players: int = 3, **params: Any) -> BondState:
    return RULES.initial_state(setup(players, **params))


def play(state: BondState, *commands: Any) -> tuple[BondState, list[Any]]:
    """Apply commands in turn; the events of them all."""
    events: list[Any] = []
    for command in commands:
        state, new = RULES.apply(state, command)
        events += list(new)
    return state, events


def with_lair(state: BondState, player: int, *cards: int) -> BondState:
    state, _ = play(state, *(c.AddLairCard(player, v) for v in cards))
    return state


def refused(state: BondState, command: Any, key: str) -> RuleError:
    with pytest.raises(RuleError) as caught:
        RULES.apply(state, command)
    assert caught.value.message.key == key
    return caught.value


def of(events: list[Any], kind: type) -> list[Any]:
    return [ev for ev in events if isinstance(ev, kind)]


# -- setup ------------------------------------------------------------------------------
def test_a_new_game_has_no_lairs_no_scores_no_capture():
    state = new_state(4)
    assert [p.name for p in state.players] == list(NAMES[:4])
    assert [p.lair_size for p in state.players] == [0, 0, 0, 0]
    assert not any(p.has_lair for p in state.players)
    assert state.scores == (0, 0, 0, 0)
    assert state.capture is None and state.outcome is None


@pytest.mark.parametrize("count", [1, 7])
def test_player_count_outside_two_to_six_is_refused(count):
    with pytest.raises(RuleError) as caught:
        RULES.initial_state({"params": _PARAMS,
                             "players": [{"name": f"P{i}"} for i in range(count)]})
    assert caught.value.message.key == "bond.error.players_count"
    assert caught.value.message.params == {"low": 2, "high": 6}


def test_duplicate_or_empty_names_are_refused():
    with pytest.raises(RuleError, match="duplicate_name"):
        RULES.initial_state({"params": _PARAMS, "players": [{"name": "Ann"}, {"name": "ann "}]})
    with pytest.raises(RuleError, match="empty_name"):
        RULES.initial_state({"params": _PARAMS, "players": [{"name": "Ann"}, {"name": " "}]})


def test_unusable_params_are_a_rule_error_not_a_crash():
    for params in (None, {}, config.merge(_PARAMS, {"spy_values": {"min": 4, "max": 2}})):
        with pytest.raises(RuleError) as caught:
            RULES.initial_state({"params": params, "players": [{"name": "A"}, {"name": "B"}]})
        assert caught.value.message.key == "bond.error.bad_params"


@pytest.mark.parametrize(("players", "cards"), [(2, 6), (3, 6), (4, 5), (6, 5)])
def test_the_deal_is_five_cards_or_six_with_two_or_three_players(players, cards):
    assert new_state(players).params.deal_size(players) == cards


# -- lairs ------------------------------------------------------------------------------
def test_lair_size_is_the_sum_of_its_cards():
    state, events = play(new_state(), c.AddLairCard(0, 2), c.AddLairCard(0, 3))
    assert state.players[0].lair == (2, 3)
    assert state.players[0].lair_size == 5
    assert events == [e.LairCardAdded(0, 2, 2), e.LairCardAdded(0, 3, 5)]
    assert state.lair_cards_played == 2


@pytest.mark.parametrize("value", [5, 6, 12, 99])
def test_a_lair_card_outside_the_configured_values_is_accepted_with_a_note(value):
    # seed: "18 cartes pour améliorer son repaire (Lair)": the values printed on them are
    # a guess of the settings
    state, events = play(new_state(), c.AddLairCard(0, value))
    assert events == [e.CheckCards("lair", value, 1, 4), e.LairCardAdded(0, value, value)]
    assert state.players[0].lair == (value,)


@pytest.mark.parametrize("value", [1, 4])
def test_a_lair_card_in_the_configured_values_has_no_note(value):
    _, events = play(new_state(), c.AddLairCard(0, value))
    assert events == [e.LairCardAdded(0, value, value)]


@pytest.mark.parametrize("value", [0, -1, 100, 10**6, "2", True, 2.0, None])
def test_a_lair_card_no_card_can_print_is_refused_with_a_clear_message(value):
    state = new_state()
    error = refused(state, c.AddLairCard(0, value), "bond.error.lair_value")
    assert error.message.params["low"] == 1 and error.message.params["high"] == 99


@pytest.mark.parametrize("player", [-1, 3, None, "0"])
def test_an_unknown_player_is_refused(player):
    refused(new_state(), c.AddLairCard(player, 2), "bond.error.unknown_player")
    refused(with_lair(new_state(), 0, 3), c.Attack(player, (1,)), "bond.error.unknown_player")


def test_no_more_lair_cards_than_the_deck_holds():
    state = with_lair(new_state(deck={"lair": 3}), 0, 1, 2)
    state = with_lair(state, 1, 4)
    error = refused(state, c.AddLairCard(2, 1), "bond.error.no_lair_cards_left")
    assert error.message.params == {"count": 3}


def test_removing_a_lair_card_is_a_correction_that_gives_the_card_back():
    state = with_lair(new_state(), 1, 3, 2, 3)
    state, events = play(state, c.RemoveLairCard(1, 3))
    assert state.players[1].lair == (3, 2)
    assert events == [e.LairCardRemoved(1, 3, 5)]
    assert state.lair_cards_played == 2
    refused(state, c.RemoveLairCard(1, 4), "bond.error.not_in_lair")
    refused(state, c.RemoveLairCard(1, True), "bond.error.not_in_lair")


# -- attacks ----------------------------------------------------------------------------
def test_a_spy_of_power_equal_to_the_lair_size_is_captured():
    state = with_lair(new_state(), 1, 2, 3)
    state, events = play(state, c.Attack(1, (5,), by=0))
    assert events == [e.SpiesPlayed(1, (5,), 5, 5, 0), e.SpyCaptured(1, 5)]
    assert state.capture is not None
    assert (state.capture.owner, state.capture.power, state.capture.value) == (1, 5, 5)
    assert state.players[1].lair == (2, 3)  # a capture leaves the lair standing
    assert state.spies_played == 1


def test_a_spy_of_power_one_above_the_lair_size_escapes_and_destroys_the_lair():
    state = with_lair(new_state(), 1, 1, 3)
    state, events = play(state, c.Attack(1, (5,)))
    assert events == [
        e.SpiesPlayed(1, (5,), 5, 4, None),
        e.SpyEscaped(1, 5, "too_strong"),
        e.LairDestroyed(1, (1, 3)),
        e.TurnBegan(2),  # the lair card made it Bob's turn: his spies are done, Cid's
    ]
    assert state.capture is None
    assert state.players[1].lair == () and not state.players[1].has_lair
    assert state.lair_cards_played == 2  # discarded cards are not reused
    assert state.scores == (0, 0, 0)


def test_two_spies_played_together_count_as_one_with_summed_power():
    captured, events = play(with_lair(new_state(), 2, 4, 1), c.Attack(2, (2, 3), by=0))
    assert of(events, e.SpyCaptured) == [e.SpyCaptured(2, 5)]
    assert captured.capture.spies == (2, 3) and captured.spies_played == 2
    killed, events = play(captured, c.Kill())
    assert killed.scores == (0, 0, 5)  # the value of the pair is their summed power

    _, events = play(with_lair(new_state(), 2, 4, 1), c.Attack(2, (3, 3), by=0))
    assert of(events, e.SpyEscaped) == [e.SpyEscaped(2, 6, "too_strong")]


def test_the_summed_power_may_exceed_the_largest_spy_card():
    state = with_lair(new_state(), 0, 4, 4, 4)
    state, events = play(state, c.Attack(0, (5, 5, 2), by=1))
    assert of(events, e.SpyCaptured) == [e.SpyCaptured(0, 12)]


def test_a_single_spy_may_be_played_on_the_players_own_lair():
    _, events = play(with_lair(new_state(), 0, 3), c.Attack(0, (2,), by=0))
    assert of(events, e.SpyCaptured) == [e.SpyCaptured(0, 2)]


def test_several_spies_on_ones_own_lair_follow_the_config():
    state = with_lair(new_state(), 0, 4)
    refused(state, c.Attack(0, (1, 2), by=0), "bond.error.multi_spy_own_lair")
    allowed = with_lair(new_state(multi_spy_own_lair=True), 0, 4)
    _, events = play(allowed, c.Attack(0, (1, 2), by=0))
    assert of(events, e.SpyCaptured) == [e.SpyCaptured(0, 3)]


def test_an_attack_on_a_player_without_a_lair_is_refused():
    error = refused(new_state(), c.Attack(1, (1,)), "bond.error.no_lair")
    assert error.message.params == {"player": "Bob"}
    destroyed, _ = play(with_lair(new_state(), 1, 1), c.Attack(1, (2,)))
    refused(destroyed, c.Attack(1, (1,)), "bond.error.no_lair")


def test_a_spy_value_outside_the_configured_range_is_accepted_with_a_note():
    # seed: "18 cartes espions (cartes jaunes)": the values printed on them are a guess of
    # the settings
    state = with_lair(new_state(), 1, 4)
    after, events = play(state, c.Attack(1, (2, 6)))
    assert events[0] == e.CheckCards("spy", 6, 1, 5)
    assert e.SpiesPlayed(1, (2, 6), 8, 4, None) in events
    assert after.spies_played == 2
    _, events = play(state, c.Attack(1, (2, 5)))
    assert not [ev for ev in events if isinstance(ev, e.CheckCards)]


@pytest.mark.parametrize("spies", [(0,), (100,), (2, 10**6), (-1,), (True,), ("3",), (2.5,)])
def test_a_spy_value_no_card_can_print_is_refused(spies):
    state = with_lair(new_state(), 1, 4)
    error = refused(state, c.Attack(1, spies), "bond.error.spy_value")
    assert (error.message.params["low"], error.message.params["high"]) == (1, 99)


def test_an_attack_needs_at_least_one_spy():
    refused(with_lair(new_state(), 1, 4), c.Attack(1, ()), "bond.error.no_spies")


def test_no_more_spies_than_the_deck_holds():
    state = with_lair(new_state(deck={"spy": 3}), 1, 4, 4)
    state, _ = play(state, c.Attack(1, (1, 1), by=0), c.Kill())
    error = refused(state, c.Attack(1, (1, 1)), "bond.error.no_spies_left")
    assert error.message.params == {"left": 1, "count": 3}


def test_a_new_attack_while_a_capture_is_dealt_with_is_refused():
    state, _ = play(with_lair(with_lair(new_state(), 1, 4), 2, 4), c.Attack(1, (3,)))
    error = refused(state, c.Attack(2, (1,)), "bond.error.capture_pending")
    assert error.message.params == {"owner": "Bob"}
    for command in (c.AddLairCard(0, 1), c.EndGame(), c.CorrectScore(0, 2),
                    c.RemoveLairCard(2, 4)):
        refused(state, command, "bond.error.capture_pending")


# -- kills and ridicules ----------------------------------------------------------------
def test_a_kill_scores_the_spy_value_for_the_lair_owner():
    state, events = play(with_lair(new_state(), 1, 4), c.Attack(1, (3,), by=0), c.Kill())
    assert state.scores == (0, 3, 0)
    assert of(events, e.SpyKilled) == [e.SpyKilled(1, 3, 0, 3, 3)]
    assert state.capture is None
    assert state.players[1].lair == (4,)  # a kill leaves the lair standing


def test_a_spy_of_three_ridiculed_twice_kills_for_twelve():
    state = with_lair(new_state(), 1, 4)
    state, events = play(state, c.Attack(1, (3,), by=0), c.Ridicule("A"), c.NotAnswered(),
                         c.Ridicule("C"), c.NotAnswered())
    assert of(events, e.RidiculeSucceeded) == [e.RidiculeSucceeded(1, "A", 6),
                                               e.RidiculeSucceeded(1, "C", 12)]
    assert state.capture.successes == ("A", "C")
    assert state.capture.value == 12
    state, events = play(state, c.Kill())
    assert of(events, e.SpyKilled) == [e.SpyKilled(1, 3, 2, 12, 12)]
    assert state.scores == (0, 12, 0)


def test_an_answered_ridicule_destroys_the_lair_and_scores_nothing():
    state = with_lair(new_state(), 1, 2, 2)
    state, events = play(state, c.Attack(1, (3,)), c.Ridicule("A"), c.NotAnswered(),
                         c.Ridicule("B"), c.Answered())
    assert events[-4:] == [e.RidiculeAnswered(1, "B"), e.SpyEscaped(1, 3, "answered"),
                           e.LairDestroyed(1, (2, 2)), e.TurnBegan(2)]
    assert state.scores == (0, 0, 0)
    assert state.capture is None and not state.players[1].has_lair
    assert state.doublers_played == ("A", "B", "B")
    refused(state, c.Kill(), "bond.error.no_capture")  # the spy escaped: nothing to kill


def test_a_letter_reused_on_the_same_spy_is_refused():
    state = with_lair(new_state(), 1, 4)
    state, _ = play(state, c.Attack(1, (3,)), c.Ridicule("A"), c.NotAnswered())
    error = refused(state, c.Ridicule("A"), "bond.error.letter_reused")
    assert error.message.params == {"letter": "A"}
    state, _ = play(state, c.Ridicule("C"), c.NotAnswered())
    refused(state, c.Ridicule("A"), "bond.error.letter_reused")  # earlier ones stay used


def test_the_twin_letter_may_ridicule_another_spy_but_no_third_card_exists():
    state = with_lair(new_state(), 1, 4)
    state, _ = play(state, c.Attack(1, (1,)), c.Ridicule("A"), c.NotAnswered(), c.Kill(),
                    c.Attack(1, (1,)), c.Ridicule("A"))
    error = refused(state, c.Answered(), "bond.error.twin_gone")
    assert error.message.params == {"letter": "A"}
    state, _ = play(state, c.NotAnswered(), c.Kill(), c.Attack(1, (1,)))
    refused(state, c.Ridicule("A"), "bond.error.letter_gone")


def test_an_unknown_letter_is_refused():
    state, _ = play(with_lair(new_state(), 1, 4), c.Attack(1, (3,)))
    for letter in ("J", "a", "", 1):
        refused(state, c.Ridicule(letter), "bond.error.unknown_letter")


def test_kill_or_ridicule_waits_for_the_answer_to_the_last_ridicule():
    state, _ = play(with_lair(new_state(), 1, 4), c.Attack(1, (3,)), c.Ridicule("D"))
    error = refused(state, c.Kill(), "bond.error.ridicule_pending")
    assert error.message.params == {"letter": "D"}
    refused(state, c.Ridicule("E"), "bond.error.ridicule_pending")


def test_capture_commands_need_a_captured_spy():
    state = with_lair(new_state(), 1, 4)
    for command in (c.Kill(), c.Ridicule("A"), c.Answered(), c.NotAnswered()):
        refused(state, command, "bond.error.no_capture")
    state, _ = play(state, c.Attack(1, (2,)))
    refused(state, c.Answered(), "bond.error.no_ridicule")
    refused(state, c.NotAnswered(), "bond.error.no_ridicule")


def test_a_kill_of_a_spy_that_escaped_the_lair_is_refused():
    state, _ = play(with_lair(new_state(), 1, 1), c.Attack(1, (4,)))
    refused(state, c.Kill(), "bond.error.no_capture")


# -- end of the game ----------------------------------------------------------------------
def test_reaching_thirty_ends_the_game_with_its_winner():
    state = with_lair(new_state(), 2, 4, 1)
    state, _ = play(state, c.Attack(2, (5,)), c.Ridicule("A"), c.NotAnswered(),
                    c.Ridicule("B"), c.NotAnswered(), c.Kill())
    assert state.scores == (0, 0, 20) and state.outcome is None
    state, events = play(state, c.Attack(2, (5,)), c.Ridicule("C"), c.NotAnswered(), c.Kill())
    assert state.scores == (0, 0, 30)
    assert events[-1] == e.GameEnded("target", (2,), 30)
    assert state.outcome.reason == "target" and state.outcome.winners == (2,)
    assert RULES.summary(state)["winners"] == ["Cid"]
    assert RULES.summary(state)["finished"] is True


def test_twenty_nine_does_not_end_the_game():
    state, events = play(new_state(), c.CorrectScore(0, 29))
    assert state.outcome is None and not of(events, e.GameEnded)


def test_the_target_is_configurable():
    state = with_lair(new_state(target_score=5), 0, 4, 1)
    state, events = play(state, c.Attack(0, (5,), by=1), c.Kill())
    assert events[-1] == e.GameEnded("target", (0,), 5)


def test_every_move_after_the_end_is_refused():
    state, _ = play(with_lair(new_state(), 0, 4), c.EndGame())
    for command in (c.AddLairCard(0, 1), c.Attack(0, (1,)), c.Kill(), c.Ridicule("A"),
                    c.Answered(), c.NotAnswered(), c.EndGame(), c.CorrectScore(0, 1),
                    c.RemoveLairCard(0, 4)):
        refused(state, command, "bond.error.game_over")


def test_ending_by_agreement_gives_the_highest_score():
    state, events = play(new_state(), c.CorrectScore(0, 7), c.CorrectScore(1, 9),
                         c.CorrectScore(2, 4), c.EndGame())
    assert events[-1] == e.GameEnded("agreed", (1,), 9)
    assert RULES.summary(state)["winners"] == ["Bob"]


def test_ties_at_an_agreed_end_are_shared():
    state, events = play(new_state(4), c.CorrectScore(0, 12), c.CorrectScore(2, 12),
                         c.CorrectScore(3, 5), c.EndGame())
    assert events[-1] == e.GameEnded("agreed", (0, 2), 12)
    assert RULES.summary(state)["winners"] == ["Ann", "Cid"]


def test_the_game_ends_when_the_last_spy_is_discarded():
    state = with_lair(new_state(deck={"spy": 2}), 1, 4)
    state, events = play(state, c.Attack(1, (1, 2)))  # the last two spies, captured
    assert state.outcome is None and state.spies_played == 2
    refused(state, c.EndGame(), "bond.error.capture_pending")
    state, events = play(state, c.Kill())  # killed: discarded
    assert events[-1] == e.GameEnded("last_spy", (1,), 3)


def test_the_last_spy_escaping_ends_the_game_with_a_shared_win():
    state = with_lair(new_state(deck={"spy": 1}), 0, 1)
    state, events = play(state, c.Attack(0, (5,)))
    assert events[-2:] == [e.LairDestroyed(0, (1,)), e.GameEnded("last_spy", (0, 1, 2), 0)]


def test_a_kill_of_the_last_spy_reaching_the_target_is_a_target_win():
    state = with_lair(new_state(deck={"spy": 1}, target_score=3), 1, 4)
    state, events = play(state, c.Attack(1, (3,)), c.Kill())
    assert events[-1] == e.GameEnded("target", (1,), 3)


# -- score corrections ----------------------------------------------------------------
def test_a_score_correction_is_its_own_logged_command():
    state, events = play(new_state(), c.CorrectScore(1, 4), c.CorrectScore(1, -3))
    assert state.scores == (0, 1, 0)
    assert events == [e.ScoreCorrected(1, 4, 4), e.ScoreCorrected(1, -3, 1)]


def test_a_correction_reaching_the_target_ends_the_game():
    _, events = play(new_state(), c.CorrectScore(2, 31))
    assert events[-1] == e.GameEnded("target", (2,), 31)


@pytest.mark.parametrize("delta", [0, True, 1.5, "3", None])
def test_a_correction_must_be_a_nonzero_whole_number(delta):
    refused(new_state(), c.CorrectScore(0, delta), "bond.error.correction")


def test_a_correction_cannot_make_a_score_negative():
    state, _ = play(new_state(), c.CorrectScore(0, 2))
    error = refused(state, c.CorrectScore(0, -3), "bond.error.negative_score")
    assert error.message.params == {"player": "Ann", "score": -1}


def test_unknown_commands_are_refused():
    refused(new_state(), object(), "core.error.unknown_command")


def test_the_summary_has_what_history_and_statistics_need():
    state, _ = play(with_lair(new_state(), 1, 3, 1), c.CorrectScore(0, 6))
    assert RULES.summary(state) == {
        "finished": False, "outcome": None, "players": ["Ann", "Bob", "Cid"],
        "scores": [6, 0, 0], "lairs": [0, 4, 0], "winners": [], "target": 30,
        "spies_played": 0,
    }
