"""Castor's trick tracker: who wins a trick, powers, overrides, and the round it adds up to."""

from __future__ import annotations

from typing import Any

import pytest

from companion import config
from companion.games.castor import RULES, trick_view
from companion.games.castor import commands as c
from companion.games.castor import events as e
from companion.games.castor.rules import game_standings
from companion.games.castor.state import CastorState, Sheet
from companion.messages import RuleError

PARAMS = config.load(use_default_user_file=False).data["games"]["castor"]
# the seed's example: Maëlys is Martha, Nathaniel is Henry B. Belton
SEED_PLAYERS = [{"name": "Maëlys", "agent": "martha"}, {"name": "Nathaniel", "agent": "belton"},
                {"name": "Mathis", "agent": "agent3"}]


def new_state(players: list[dict[str, Any]] | None = None, first_leader: int = 0,
              **params: Any) -> CastorState:
    return RULES.initial_state({"params": config.merge(PARAMS, params),
                                "players": players or SEED_PLAYERS,
                                "first_leader": first_leader})


def recoloured(name: str, **spec: int) -> list[dict[str, Any]]:
    """The default colours with one colour's count and values changed."""
    return [{**colour, **spec} if colour["name"] == name else colour
            for colour in PARAMS["colours"]]


def run(state: CastorState, *commands: Any) -> tuple[CastorState, list[Any]]:
    events: list[Any] = []
    for command in commands:
        state, more = RULES.apply(state, command)
        events += more
    return state, events


def play(state: CastorState, cards: list[tuple[str, str, int]], plan: int = 1,
         extra: int | None = None) -> tuple[CastorState, list[Any]]:
    return run(state, *(c.PlayCard(*card) for card in cards), c.TakeTrick(plan, extra))


def refused(state: CastorState, command: Any, key: str) -> RuleError:
    with pytest.raises(RuleError) as caught:
        RULES.apply(state, command)
    assert caught.value.message.key == key
    return caught.value


def won(events: list[Any]) -> e.TrickWon:
    return next(ev for ev in events if isinstance(ev, e.TrickWon))


# -- who wins --------------------------------------------------------------------------
def test_without_mauve_the_highest_card_of_the_first_colour_wins():
    # the seed: 8 green, 12 yellow, 11 green -> Mathis wins with the 11 green
    state, events = play(new_state(), [("Maëlys", "green", 8), ("Nathaniel", "yellow", 12),
                                       ("Mathis", "green", 11)], plan=3)
    trick = won(events)
    assert trick.winner == "Mathis" and trick.next_leader == "Mathis"
    assert trick.cards == (("green", 8), ("yellow", 12), ("green", 11))
    assert trick_view(state).so_far == Sheet((0, 0, 3), (0, 0, 2), (0, 0, 1))


def test_any_mauve_beats_the_first_colour():
    # the seed: 7 blue, 6 yellow, 3 mauve -> Maëlys wins with the only mauve
    state = new_state(first_leader=1)
    _, events = play(state, [("Nathaniel", "blue", 7), ("Mathis", "yellow", 6),
                             ("Maëlys", "mauve", 3)])
    assert won(events).winner == "Maëlys"


def test_the_highest_mauve_wins_among_several():
    _, events = play(new_state(), [("Maëlys", "mauve", 9), ("Nathaniel", "blue", 18),
                                   ("Mathis", "mauve", 10)])
    assert won(events).winner == "Mathis"


def test_a_card_of_another_colour_never_wins_even_if_higher():
    _, events = play(new_state(), [("Maëlys", "blue", 2), ("Nathaniel", "yellow", 16),
                                   ("Mathis", "green", 15)])
    assert won(events).winner == "Maëlys"


def test_a_complice_card_can_make_blue_beat_mauve_for_one_trick():
    state, events = run(new_state(), c.SetTrumps(("blue", "mauve")))
    assert events[-1] == e.TrumpsSet(("blue", "mauve"))
    state, events = play(state, [("Maëlys", "mauve", 10), ("Nathaniel", "blue", 2),
                                 ("Mathis", "green", 16)])
    assert won(events).winner == "Nathaniel"
    # the next trick is back to the usual trumps
    assert state.tracking is not None and state.tracking.current.trumps is None
    _, events = play(state, [("Nathaniel", "blue", 3), ("Mathis", "mauve", 1),
                             ("Maëlys", "blue", 17)])
    assert won(events).winner == "Mathis"


def test_a_complice_card_can_say_no_trump_for_one_trick():
    state, _ = run(new_state(), c.SetTrumps(()))
    assert trick_view(state).trumps == () and trick_view(state).trumps_overridden
    _, events = play(state, [("Maëlys", "green", 5), ("Nathaniel", "mauve", 10),
                             ("Mathis", "green", 6)])
    assert won(events).winner == "Mathis"


def test_the_override_can_be_set_after_the_cards_and_cleared_again():
    state, _ = run(new_state(), c.PlayCard("Maëlys", "blue", 5),
                   c.PlayCard("Nathaniel", "mauve", 1), c.PlayCard("Mathis", "blue", 6))
    assert trick_view(state).winning == "Nathaniel"
    state, _ = run(state, c.SetTrumps(()))
    assert trick_view(state).winning == "Mathis"
    state, events = run(state, c.SetTrumps(None), c.TakeTrick(2))
    assert won(events).winner == "Nathaniel"


@pytest.mark.parametrize("trumps", [("red",), ("blue", "blue"), "blue"])
def test_an_override_with_unknown_or_repeated_colours_is_refused(trumps):
    key = "castor.error.trumps_twice" if trumps == ("blue", "blue") else \
        "castor.error.unknown_colour"
    refused(new_state(), c.SetTrumps(trumps), key)


def test_the_trumps_come_from_config():
    state = new_state(trumps=["yellow"])
    _, events = play(state, [("Maëlys", "mauve", 10), ("Nathaniel", "yellow", 1),
                             ("Mathis", "green", 16)])
    assert won(events).winner == "Nathaniel"


def test_equal_cards_of_a_colour_printed_twice_go_to_the_first_played():
    # 18 blue cards valued 1..9: each value twice
    state = new_state(colours=recoloured("blue", count=18, min=1, max=9))
    _, events = play(state, [("Maëlys", "blue", 9), ("Nathaniel", "blue", 9),
                             ("Mathis", "blue", 3)])
    assert won(events).winner == "Maëlys"


# -- powers ----------------------------------------------------------------------------
def test_martha_takes_the_bottom_plan_card_too_when_she_wins():
    state, events = run(new_state(first_leader=1), c.DrawPower("martha"))
    assert events[-1] == e.PowerDrawn("martha", "Maëlys", "extra_plan", "castor.power.martha")
    state, _ = run(state, c.PlayCard("Nathaniel", "blue", 7), c.PlayCard("Mathis", "yellow", 6),
                   c.PlayCard("Maëlys", "mauve", 3))
    assert trick_view(state).extra_plan
    state, events = run(state, c.TakeTrick(2, extra_plan=5))
    assert won(events).plan == 2 and won(events).extra_plan == 5
    assert trick_view(state).so_far.plan == (7, 0, 0)


def test_martha_may_leave_the_bottom_plan_card():
    state, _ = run(new_state(), c.DrawPower("martha"))
    state, _ = play(state, [("Maëlys", "mauve", 3), ("Nathaniel", "blue", 7),
                            ("Mathis", "green", 4)], plan=2)
    assert trick_view(state).so_far.plan == (2, 0, 0)


def test_no_bottom_plan_card_when_martha_loses_or_her_power_was_not_drawn_this_trick():
    state, _ = run(new_state(), c.DrawPower("martha"), c.PlayCard("Maëlys", "blue", 3),
                   c.PlayCard("Nathaniel", "mauve", 1), c.PlayCard("Mathis", "green", 4))
    assert not trick_view(state).extra_plan
    refused(state, c.TakeTrick(2, extra_plan=4), "castor.error.extra_plan_not_allowed")
    state, _ = run(state, c.TakeTrick(2))  # Nathaniel leads the next trick
    state, _ = run(state, c.PlayCard("Nathaniel", "blue", 4), c.PlayCard("Mathis", "green", 5),
                   c.PlayCard("Maëlys", "mauve", 2))
    error = refused(state, c.TakeTrick(2, extra_plan=4), "castor.error.extra_plan_not_allowed")
    assert error.message.params == {"player": "Maëlys"}


def test_belton_decides_who_leads_before_any_card():
    state, events = run(new_state(), c.DrawPower("belton"))
    assert events[-1] == e.PowerDrawn("belton", "Nathaniel", "choose_leader",
                                      "castor.power.belton")
    assert trick_view(state).choosing == "Nathaniel"
    assert trick_view(state).next_player is None
    refused(state, c.PlayCard("Maëlys", "blue", 1), "castor.error.leader_pending")
    state, events = run(state, c.ChooseLeader("Nathaniel"))
    assert events == [e.LeaderChosen("Nathaniel", "belton")]
    assert trick_view(state).choosing is None
    assert trick_view(state).to_play == ("Nathaniel", "Mathis", "Maëlys")
    refused(state, c.PlayCard("Maëlys", "blue", 1), "castor.error.not_leader")
    state, _ = run(state, c.PlayCard("Nathaniel", "blue", 1))
    refused(state, c.ChooseLeader("Mathis"), "castor.error.leader_after_cards")


def test_powers_drawn_together_resolve_in_order_and_each_only_once_a_round():
    state, _ = run(new_state(), c.DrawPower("belton"), c.DrawPower("martha"),
                   c.ChooseLeader("Mathis"))
    view = trick_view(state)
    assert [p.agent_name for p in view.powers] == ["Henry B. Belton", "Martha"]
    assert view.leader == "Mathis"
    refused(state, c.DrawPower("belton"), "castor.error.power_drawn_twice")
    state, _ = play(state, [("Mathis", "blue", 1), ("Maëlys", "blue", 2),
                            ("Nathaniel", "blue", 3)])
    refused(state, c.DrawPower("martha"), "castor.error.power_drawn_twice")


def test_other_agents_show_their_configured_text_only():
    state, events = run(new_state(), c.DrawPower("agent3"))
    assert events[-1] == e.PowerDrawn("agent3", "Mathis", "none", "castor.power.other")
    assert trick_view(state).choosing is None


def test_power_cards_are_drawn_before_the_first_card_and_only_for_agents_in_play():
    state, _ = run(new_state(), c.PlayCard("Maëlys", "blue", 1))
    refused(state, c.DrawPower("martha"), "castor.error.power_after_cards")
    refused(new_state(), c.DrawPower("agent4"), "castor.error.agent_not_playing")
    refused(new_state(), c.DrawPower("nobody"), "castor.error.agent_not_playing")


# -- cards the settings did not expect: accepted, noted --------------------------------
def notes(events: list[Any]) -> list[e.CheckCards]:
    return [ev for ev in events if isinstance(ev, e.CheckCards)]


def test_the_same_card_twice_in_a_trick_is_accepted_with_a_note():
    # seed: "60 cartes Action": how many cards print each value is a guess of the settings
    state, _ = run(new_state(), c.PlayCard("Maëlys", "green", 8))
    state, events = run(state, c.PlayCard("Nathaniel", "green", 8))
    assert notes(events) == [e.CheckCards("copies", 8, "green", 1, 16, 1)]
    assert [card.value for card in state.tracking.current.cards] == [8, 8]


def test_a_card_already_played_this_round_is_noted_but_not_next_round():
    state, _ = play(new_state(), [("Maëlys", "green", 8), ("Nathaniel", "blue", 1),
                                  ("Mathis", "blue", 2)])
    _, events = run(state, c.PlayCard("Maëlys", "green", 8))
    assert notes(events) == [e.CheckCards("copies", 8, "green", 1, 16, 1)]
    state, _ = full_round(new_state(), PLANS)  # played green 1..12, 8 included
    state, events = run(state, c.PlayCard("Maëlys", "green", 8))
    assert events[-1] == e.CardPlayed("Maëlys", "green", 8) and not notes(events)


def test_a_player_plays_once_per_trick():
    state, _ = run(new_state(), c.PlayCard("Maëlys", "green", 8))
    error = refused(state, c.PlayCard("Maëlys", "green", 9), "castor.error.played_twice")
    assert error.message.params == {"player": "Maëlys"}


def test_a_card_of_a_player_not_in_the_game_is_refused():
    refused(new_state(), c.PlayCard("Zoé", "green", 8), "castor.error.unknown_player")


@pytest.mark.parametrize(("colour", "value"), [
    ("mauve", 11), ("green", 0), ("blue", 19), ("blue", 99), ("yellow", 17)])
def test_values_outside_the_configured_range_are_accepted_with_a_note(colour, value):
    # seed: "60 cartes Action" in four colours; the values printed are not given
    state, events = run(new_state(), c.PlayCard("Maëlys", colour, value))
    spec = state.params.colour(colour)
    assert notes(events) == [e.CheckCards("value", value, colour, spec.low, spec.high)]
    assert state.tracking.current.cards[-1].value == value


@pytest.mark.parametrize(("colour", "value", "key"), [
    ("blue", -3, "castor.error.implausible_card"),
    ("blue", 100, "castor.error.implausible_card"),
    ("blue", 10**6, "castor.error.implausible_card"),
    ("blue", "3", "castor.error.implausible_card"),
    ("blue", True, "castor.error.implausible_card"),
    ("blue", 2.5, "castor.error.implausible_card"),
    ("red", 3, "castor.error.unknown_colour"),
])
def test_values_no_card_can_print_are_refused_with_a_clear_message(colour, value, key):
    state = new_state()
    error = refused(state, c.PlayCard("Maëlys", colour, value), key)
    if key == "castor.error.implausible_card":
        assert error.message.params["low"] == 0 and error.message.params["high"] == 99
    assert state.tracking is None


def test_the_value_range_comes_from_the_game_setup():
    state = new_state(colours=recoloured("mauve", count=10, min=0, max=9))
    _, events = run(state, c.PlayCard("Maëlys", "mauve", 10))
    assert notes(events) == [e.CheckCards("value", 10, "mauve", 0, 9)]
    _, events = run(state, c.PlayCard("Maëlys", "mauve", 0))
    assert not notes(events)


def test_the_leader_plays_first():
    error = refused(new_state(), c.PlayCard("Mathis", "green", 8), "castor.error.not_leader")
    assert error.message.params == {"player": "Mathis", "leader": "Maëlys"}


def test_a_trick_is_taken_only_when_everyone_played_with_a_real_plan_value():
    refused(new_state(), c.TakeTrick(3), "castor.error.no_trick")
    state, _ = run(new_state(), c.PlayCard("Maëlys", "green", 8))
    error = refused(state, c.TakeTrick(3), "castor.error.trick_incomplete")
    assert error.message.params == {"players": "Nathaniel, Mathis"}
    state, _ = run(state, c.PlayCard("Nathaniel", "green", 9), c.PlayCard("Mathis", "green", 10))
    for bad in (-1, 100, 10**6, "3", None, 2.5):
        refused(state, c.TakeTrick(bad), "castor.error.implausible_plan")
    # seed: "20 cartes Plan machiavélique (d'une valeur de 1 à 6)": the list is a guess
    _, events = run(state, c.TakeTrick(7))
    assert notes(events) == [e.CheckCards("plan_value", 7, low=1, high=6)]
    _, events = run(state, c.TakeTrick(0))
    assert notes(events) == [e.CheckCards("plan_value", 0, low=1, high=6)]


def test_more_plan_cards_of_a_value_than_listed_are_accepted_with_a_note():
    # two plan cards are worth 6 in the settings: a third is noted, not refused
    state = new_state()
    leader = "Maëlys"
    for n in range(2):
        state, events = play(state, [(leader, "blue", 3 * n + 1),
                                     *[(p, "blue", 3 * n + 2 + i) for i, p in
                                       enumerate(x for x in ("Maëlys", "Nathaniel", "Mathis")
                                                 if x != leader)]], plan=6)
        leader = won(events).winner
    seats = ["Maëlys", "Nathaniel", "Mathis"]
    order = seats[seats.index(leader):] + seats[:seats.index(leader)]
    state, _ = run(state, *(c.PlayCard(p, "green", i + 1) for i, p in enumerate(order)))
    state, events = run(state, c.TakeTrick(6))
    assert notes(events) == [e.CheckCards("plan_copies", 6, count=2)]
    assert state.tracking.done[-1].plan == 6


PLANS = [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]


# -- a whole round ---------------------------------------------------------------------
def full_round(state: CastorState, plans: list[int]) -> tuple[CastorState, list[Any]]:
    """Twelve tricks: in trick k every player plays green/yellow/blue k (leader first)."""
    events: list[Any] = []
    colours = ("green", "yellow", "blue")
    for k in range(12):
        view = trick_view(state)
        assert view is not None
        cards = [(name, colours[i], k + 1) for i, name in enumerate(view.to_play)]
        state, more = play(state, cards, plan=plans[k])
        events += more
    return state, events


def test_the_twelfth_trick_fills_in_the_round_sheet_and_scores_it():
    state = new_state()
    plans = [1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6]
    state, events = full_round(state, plans)
    # the leader plays green each trick and wins it (no mauve): Maëlys every time
    assert state.tracking is None and len(state.rounds) == 1
    assert len(state.rounds[0].tricks) == 12
    assert state.rounds[0].sheet == Sheet((42, 0, 0), (12, 0, 0), (12, 0, 0))
    assert won(events[-6:]).next_leader is None
    assert e.SheetEntered(1, "tricks", False) in events
    score = game_standings(state).scores[0]
    assert score.bonus == (0, 8, 8) and score.malus == (8, 0, 0)
    assert score.totals == (34, 8, 8)
    assert [ev for ev in events if isinstance(ev, e.RoundScored)] == [
        e.RoundScored(1, (34, 8, 8), ("Maëlys",))]


def test_a_thirteenth_trick_belongs_to_the_next_round_led_by_the_round_winner():
    state, _ = full_round(new_state(), PLANS)
    state, events = run(state, c.PlayCard("Maëlys", "green", 1))
    assert events[0] == e.RoundStarted(2, "Maëlys")
    assert state.tracking is not None and state.tracking.number == 2
    assert trick_view(state).trick == 1


def test_tricks_per_round_comes_from_config():
    state = new_state(tricks_per_round=2)
    for k in range(2):
        state, _ = play(state, [("Maëlys", "blue", k + 1), ("Nathaniel", "green", k + 1),
                                ("Mathis", "green", k + 3)], plan=1)
    assert len(state.rounds) == 1 and state.rounds[0].sheet.plan == (2, 0, 0)


def test_a_tracked_round_can_be_edited_on_the_sheet_afterwards():
    state, _ = full_round(new_state(), PLANS)
    state, events = run(state, c.EnterSheet(1, (10, 2, 0), (12, 0, 0), (12, 0, 0)))
    assert state.rounds[0].edited and len(state.rounds[0].tricks) == 12
    assert game_standings(state).scores[0].totals == (2, 10, 8)
    assert e.SheetEntered(1, "sheet", True) in events


def test_cancelling_the_tracking_drops_the_round_in_progress():
    state, _ = play(new_state(), [("Maëlys", "green", 8), ("Nathaniel", "blue", 1),
                                  ("Mathis", "blue", 2)])
    state, events = run(state, c.CancelTracking())
    assert state.tracking is None and events == [e.TrackingCancelled(1, 1)]
    refused(state, c.CancelTracking(), "castor.error.no_tracking")


def test_players_without_agents_play_without_powers():
    state = new_state([{"name": "Ann"}, {"name": "Bob"}])
    refused(state, c.DrawPower("martha"), "castor.error.agent_not_playing")
    _, events = play(state, [("Ann", "yellow", 4), ("Bob", "yellow", 5)])
    assert won(events).winner == "Bob"


# -- complice cards ---------------------------------------------------------------------------
def test_a_complice_note_is_kept_on_its_trick():
    # seed: "Chaque fois, tu verras une indication ou une action à réaliser. [...] Cette
    # « règle spéciale » ne s'applique que pour un tour."
    state, events = run(new_state(), c.NoteComplice("other", "  lowest card wins "))
    assert events[-1] == e.CompliceNoted("other", "lowest card wins")
    state, _ = play(state, [("Maëlys", "green", 8), ("Nathaniel", "green", 3),
                            ("Mathis", "green", 5)])
    assert state.tracking.done[0].complice == (("other", "lowest card wins"),)
    assert state.tracking.current.complice == ()  # the next trick starts without it


def test_a_complice_can_give_the_trick_to_another_player_and_back():
    state, _ = run(new_state(), c.PlayCard("Maëlys", "green", 8),
                   c.PlayCard("Nathaniel", "green", 3), c.PlayCard("Mathis", "green", 5))
    awarded, events = run(state, c.AwardTrick("Nathaniel"))
    assert events == [e.TrickAwarded("Nathaniel")]
    assert trick_view(awarded).winning == "Nathaniel"
    usual, events = run(awarded, c.AwardTrick(None))
    assert events == [e.TrickAwarded(None)] and trick_view(usual).winning == "Maëlys"
    _, events = run(awarded, c.TakeTrick(2))
    assert won(events).winner == "Nathaniel" and won(events).next_leader == "Nathaniel"


@pytest.mark.parametrize(("command", "key"), [
    (c.NoteComplice("other", ""), "castor.error.complice_empty"),
    (c.NoteComplice("other", "x" * 81), "castor.error.complice_text"),
    (c.NoteComplice("dance"), "castor.error.complice_action"),
    (c.NoteComplice("trumps", 3), "castor.error.complice_text"),
    (c.AwardTrick("Zoé"), "castor.error.unknown_player"),
    (c.MoveCard("Maëlys", "Maëlys", "green", 8), "castor.error.move_to_self"),
    (c.MoveCard("Nathaniel", "Maëlys", "green", 8), "castor.error.not_in_pile"),
    (c.MoveCard("Mathis", "Maëlys", "red", 8), "castor.error.not_in_pile"),
    (c.MovePlan("Mathis", "Maëlys", 4), "castor.error.not_enough_plan"),
    (c.MovePlan("Mathis", "Maëlys", 0), "castor.error.move_points"),
    (c.MovePlan("Mathis", "Maëlys", "3"), "castor.error.move_points"),
])
def test_corrections_that_do_not_fit_the_piles_are_refused_clearly(command, key):
    # Mathis has won one trick: 8 and 11 green, 12 yellow, 3 plan points
    state, _ = play(new_state(), [("Maëlys", "green", 8), ("Nathaniel", "yellow", 12),
                                  ("Mathis", "green", 11)], plan=3)
    refused(state, command, key)


def test_moves_between_piles_change_the_round_sheet():
    state, _ = play(new_state(), [("Maëlys", "green", 8), ("Nathaniel", "yellow", 12),
                                  ("Mathis", "green", 11)], plan=3)
    state, events = run(state, c.MoveCard("Mathis", "Maëlys", "yellow", 12),
                        c.MovePlan("Mathis", "Nathaniel", 2))
    assert events == [e.PileMoved("Mathis", "Maëlys", "yellow", 12),
                      e.PileMoved("Mathis", "Nathaniel", None, 2)]
    assert trick_view(state).so_far == Sheet((0, 2, 1), (0, 0, 2), (1, 0, 0))
    refused(state, c.MoveCard("Mathis", "Maëlys", "yellow", 12), "castor.error.not_in_pile")
