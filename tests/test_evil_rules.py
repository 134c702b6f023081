"""Pr. Evil's rules (GAMES.md §1), one behaviour per test, with their edge cases."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.dice import draw
from companion.games.evil import RULES
from companion.games.evil import commands as c
from companion.games.evil import events as e
from companion.games.evil.dice import DICE
from companion.games.evil.instructions import instructions, roman
from companion.games.evil.state import evolve
from companion.i18n import Translator
from companion.messages import RuleError
from tests.helpers.evil import CHARACTERS, NAMES, apply, at, new_state, of, refused, roll, setup


# -- placing treasures ------------------------------------------------------------------
def test_initial_state_places_the_first_treasures_from_xii():
    state = new_state(treasures={"red": 45, "green": 30, "blue": 55})
    assert state.time == 0
    assert [t.steps for t in state.slots] == [9, 6, 11]
    assert state.marker_position("red") == 9  # 45 min at XII -> IX
    assert roman(state.marker_position("red")) == "IX"


def test_forty_minutes_with_time_on_iv_goes_on_xii():
    state = at(new_state(treasures={}), time=4)
    state, events = RULES.apply(state, c.PlaceTreasure("green", 40))
    assert state.slot("green").steps == 8
    assert state.marker_position("green") == 0
    assert roman(state.marker_position("green")) == "XII"
    assert events == [e.TreasurePlaced("green", 40, 0)]


@pytest.mark.parametrize("minutes", [5, 10, 25, 50, 55])
def test_every_tile_value_is_accepted(minutes):
    state, _ = RULES.apply(new_state(treasures={}), c.PlaceTreasure("blue", minutes))
    assert state.slot("blue").steps == minutes // 5
    assert state.slot("blue").minutes == minutes


@pytest.mark.parametrize("minutes", [0, -5, 3, 12, 56, 60, 65, 1000, "45", 45.0, True, None])
def test_minutes_out_of_range_or_not_a_multiple_of_five_are_refused(minutes):
    state = new_state(treasures={})
    error = refused(state, c.PlaceTreasure("red", minutes), "evil.error.minutes")
    assert error.message.params["minutes"] == str(minutes)
    assert error.message.params["step"] == 5


def test_a_treasure_cannot_be_placed_on_a_taken_slot_or_an_unknown_colour():
    state = new_state()
    refused(state, c.PlaceTreasure("red", 30), "evil.error.slot_taken")
    refused(state, c.PlaceTreasure("yellow", 30), "evil.error.unknown_colour")


def test_a_bad_first_treasure_refuses_the_setup():
    with pytest.raises(RuleError) as caught:
        RULES.initial_state(setup(treasures={"red": 60}))
    assert caught.value.message.key == "evil.error.minutes"


# -- losses -----------------------------------------------------------------------------
def test_treasure_marker_moving_back_onto_the_time_marker_is_lost():
    state = at(new_state(), time=5, red=1)
    state, events = RULES.apply(state, roll("time5", "red", "clock1"))
    assert of(events, e.TreasureMoved) == [e.TreasureMoved("red", -1, 0)]
    assert of(events, e.TreasureLost) == [e.TreasureLost("red", 5)]
    assert state.slot("red") is None
    assert [t.colour for t in state.lost] == ["red"]


def test_treasure_marker_moving_back_past_the_time_marker_is_lost():
    state = at(new_state(), red=1)
    state, events = RULES.apply(state, roll("time10", "red", "clock1"))
    assert of(events, e.TreasureMoved) == [e.TreasureMoved("red", -2, -1)]
    assert len(state.lost) == 1 and state.slot("red") is None


def test_treasure_marker_moving_back_short_of_the_time_marker_stays():
    state = at(new_state(), red=3, green=9, blue=9)
    state, events = RULES.apply(state, roll("time10", "red", "clock1"))
    # professor die first: 3 -> 1; then the clock: 1 -> 0, lost by the time marker
    assert of(events, e.TreasureMoved) == [e.TreasureMoved("red", -2, 1)]
    assert of(events, e.TreasureLost) == [e.TreasureLost("red", 15)]


def test_time_marker_reaching_a_treasure_loses_it():
    state = at(new_state(), red=1, green=2, blue=9)
    state, events = RULES.apply(state, roll("chevron1", "blue", "clock1"))
    assert of(events, e.TreasureLost) == [e.TreasureLost("red", 5)]
    assert state.slot("green").steps == 1


def test_time_marker_passing_a_treasure_loses_it():
    state = at(new_state(), red=1, green=3, blue=9)
    state, events = RULES.apply(state, roll("chevron1", "blue", "clock2"))
    assert of(events, e.TreasureLost) == [e.TreasureLost("red", 5)]
    assert state.slot("green").steps == 1 and state.slot("blue").steps == 7


def test_two_treasures_lost_in_one_roll_by_the_clock():
    state = at(new_state(), red=1, green=2, blue=5)
    state, events = RULES.apply(state, roll("chevron2", "blue", "clock2"))
    assert [ev.colour for ev in of(events, e.TreasureLost)] == ["red", "green"]
    assert len(state.lost) == 2
    assert state.empty_colours == ("red", "green")


def test_two_treasures_lost_in_one_roll_by_both_dice():
    state = at(new_state(), red=2, green=1, blue=5)
    state, events = RULES.apply(state, roll("time10", "red", "clock1"))
    assert [ev.colour for ev in of(events, e.TreasureLost)] == ["red", "green"]
    assert len(state.lost) == 2


def test_a_treasure_lost_by_the_professor_die_is_not_lost_again_by_the_clock():
    state = at(new_state(), red=1, green=9, blue=9)
    state, events = RULES.apply(state, roll("time5", "red", "clock2"))
    assert len(of(events, e.TreasureLost)) == 1
    assert len(state.lost) == 1


# -- resolution order -------------------------------------------------------------------
def test_professor_die_resolves_before_the_clock():
    state = at(new_state(), red=4, green=9, blue=9)
    state, events = RULES.apply(state, roll("time10", "red", "clock2"))
    kinds = [type(ev) for ev in events]
    assert kinds.index(e.TreasureMoved) < kinds.index(e.TimeMoved) < kinds.index(e.TreasureLost)
    assert isinstance(events[0], e.DiceRolled)
    assert isinstance(events[-1], e.TurnPassed)
    # 4 - 2 = 2 left, then the clock moves 2: reached, lost
    assert state.slot("red") is None


# -- an empty colour slot ---------------------------------------------------------------
@pytest.mark.parametrize("face", ["time5", "time10", "passage"])
def test_an_empty_colour_slot_has_no_effect(face):
    state = at(new_state(), red=None, green=4, blue=6)
    after, events = RULES.apply(state, roll(face, "red", "clock1"))
    assert of(events, e.NoEffect) == [e.NoEffect("red")]
    assert not of(events, e.TreasureMoved) and not of(events, e.SecretPassage)
    assert after.slot("green").steps == 3 and after.slot("blue").steps == 5
    assert after.lost == ()


def test_chevrons_still_move_the_professor_when_the_colour_slot_is_empty():
    state = at(new_state(), red=None)
    _, events = RULES.apply(state, roll("chevron3", "red", "clock1"))
    assert of(events, e.ProfessorMoves) == [e.ProfessorMoves(3, "red")]
    assert not of(events, e.NoEffect)


def test_secret_passage_to_a_treasure_in_play_moves_no_marker():
    state = new_state()
    after, events = RULES.apply(state, roll("passage", "green", "clock1"))
    assert of(events, e.SecretPassage) == [e.SecretPassage("green")]
    assert [t.steps for t in after.slots] == [t.steps - 1 for t in state.slots]


# -- power spaces -----------------------------------------------------------------------
def test_a_power_space_reached_exactly_prompts_an_activation():
    state = at(new_state(), time=2)
    state, events = RULES.apply(state, roll("chevron1", "red", "clock1"))
    assert state.time == 3
    assert of(events, e.PowerSpaceReached) == [e.PowerSpaceReached(3)]
    assert state.pending_powers == 1


def test_a_power_space_passed_by_a_two_step_move_prompts_an_activation():
    state = at(new_state(), time=8, red=11, green=11, blue=11)
    state, events = RULES.apply(state, roll("chevron1", "red", "clock2"))
    assert state.time == 10
    assert of(events, e.PowerSpaceReached) == [e.PowerSpaceReached(9)]
    assert state.pending_powers == 1


def test_a_power_space_not_reached_prompts_nothing():
    state = at(new_state(), time=0)
    state, events = RULES.apply(state, roll("chevron1", "red", "clock2"))
    assert not of(events, e.PowerSpaceReached) and state.pending_powers == 0


def test_power_spaces_are_configurable_and_each_crossed_space_counts():
    state = at(new_state(power_spaces=[1, 2, 12]), time=11, red=9, green=9, blue=9)
    state, events = RULES.apply(state, roll("chevron1", "red", "clock2"))
    # 11 -> 1 crosses XII (0) and I
    assert of(events, e.PowerSpaceReached) == [e.PowerSpaceReached(0), e.PowerSpaceReached(1)]
    assert state.pending_powers == 2
    state, _ = apply(state, c.ActivatePower(CHARACTERS[0]))
    refused(state, roll("chevron1", "red", "clock1"), "evil.error.power_pending")
    state, _ = apply(state, c.SkipPower())
    assert state.pending_powers == 0
    assert state.powers_up == (CHARACTERS[0],)


def test_no_power_spaces_at_all():
    state = at(new_state(power_spaces=[]), time=2)
    state, events = RULES.apply(state, roll("chevron1", "red", "clock2"))
    assert state.pending_powers == 0 and not of(events, e.PowerSpaceReached)


def test_a_roll_that_loses_the_game_grants_no_power():
    state = replace(at(new_state(), time=2, red=1), lost=new_state().slots)
    state, events = RULES.apply(state, roll("chevron1", "blue", "clock1"))
    assert state.outcome == "lost" and state.pending_powers == 0
    assert not of(events, e.PowerSpaceReached)


# -- power activation -------------------------------------------------------------------
def test_rolling_is_refused_while_an_activation_is_pending():
    state = replace(new_state(), pending_powers=1)
    refused(state, c.Roll(), "evil.error.power_pending")
    refused(state, roll("chevron1", "red", "clock1"), "evil.error.power_pending")


def test_activate_skip_and_flip_down():
    state = replace(new_state(players=3), pending_powers=1)
    refused(state, c.ActivatePower(CHARACTERS[4]), "evil.error.character_not_playing")
    up, events = RULES.apply(state, c.ActivatePower(CHARACTERS[1]))
    assert events == [e.PowerActivated(CHARACTERS[1])]
    assert up.powers_up == (CHARACTERS[1],) and up.pending_powers == 0
    refused(up, c.ActivatePower(CHARACTERS[2]), "evil.error.no_power_pending")
    refused(up, c.SkipPower(), "evil.error.no_power_pending")
    again = replace(up, pending_powers=1)
    refused(again, c.ActivatePower(CHARACTERS[1]), "evil.error.power_already_up")
    down, events = RULES.apply(up, c.FlipPowerDown(CHARACTERS[1]))
    assert events == [e.PowerFlippedDown(CHARACTERS[1])] and down.powers_up == ()
    refused(down, c.FlipPowerDown(CHARACTERS[1]), "evil.error.power_not_up")
    skipped, events = RULES.apply(state, c.SkipPower())
    assert events == [e.PowerSkipped()] and skipped.pending_powers == 0
    assert skipped.powers_up == ()
    # a flipped-down power can be chosen again at the next power space
    reup, _ = RULES.apply(replace(down, pending_powers=1), c.ActivatePower(CHARACTERS[1]))
    assert reup.powers_up == (CHARACTERS[1],)


def test_other_actions_are_allowed_while_an_activation_is_pending():
    state = replace(at(new_state(), red=None), pending_powers=1)
    state, _ = apply(state, c.PlaceTreasure("red", 20), c.Recover("green"), c.MoveTime(1))
    assert state.pending_powers == 1


# -- recovered treasures, replacements, the end ----------------------------------------
def test_recovered_treasure_then_replacement_relative_to_current_time():
    state = at(new_state(), time=7, red=3)
    state, events = RULES.apply(state, c.Recover("red"))
    assert events == [e.TreasureRecovered("red", 15)]
    assert state.slot("red") is None and [t.colour for t in state.recovered] == ["red"]
    refused(state, c.Recover("red"), "evil.error.slot_empty")
    state, events = RULES.apply(state, c.PlaceTreasure("red", 35))
    assert state.slot("red").steps == 7 and state.marker_position("red") == 2
    assert events == [e.TreasurePlaced("red", 35, 2)]


def test_four_recovered_win_and_the_game_refuses_further_actions():
    state = replace(new_state(), recovered=new_state().slots)
    state, events = apply(state, c.Recover("red"))
    assert state.outcome == "won" and events[-1] == e.GameWon(4)
    assert RULES.summary(state)["finished"] is True
    assert RULES.summary(state)["outcome"] == "won"
    for command in (c.Roll(), roll("chevron1", "red", "clock1"), c.PlaceTreasure("red", 5),
                    c.MoveTime(1), c.Recover("green")):
        refused(state, command, "evil.error.game_over")


def test_three_recovered_is_not_a_win():
    state = replace(new_state(), recovered=new_state().slots[:2])
    state, _ = apply(state, c.Recover("red"))
    assert state.outcome is None and len(state.recovered) == 3


def test_four_lost_lose():
    state = replace(at(new_state(), red=1), lost=new_state().slots)
    state, events = RULES.apply(state, roll("time5", "red", "clock1"))
    assert state.outcome == "lost" and of(events, e.GameLost) == [e.GameLost(4)]
    assert not of(events, e.TimeMoved) and not of(events, e.TurnPassed)
    refused(state, c.Roll(), "evil.error.game_over")


def test_lost_never_passes_four_when_two_are_lost_in_the_deciding_roll():
    state = replace(at(new_state(), red=1, green=1, blue=2), lost=new_state().slots)
    state, events = RULES.apply(state, roll("chevron1", "blue", "clock2"))
    assert len(state.lost) == 4 and state.outcome == "lost"
    assert len(of(events, e.TreasureLost)) == 1 and of(events, e.GameLost) == [e.GameLost(4)]


def test_win_and_loss_thresholds_are_configurable():
    state = new_state(recovered_to_win=1, lost_to_lose=2)
    won, _ = RULES.apply(state, c.Recover("blue"))
    assert won.outcome == "won"
    lost, _ = apply(state, c.MarkLost("red"))
    assert lost.outcome is None
    lost, _ = apply(lost, c.MarkLost("green"))
    assert lost.outcome == "lost"


# -- turns ------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_turn_order_passes_to_the_left_and_counts_turns(players):
    state = new_state(players=players, treasures={})
    order = []
    for turn in range(2, 2 * players + 3):
        state, events = RULES.apply(state, roll("chevron1", "red", "clock1"))
        state = replace(state, pending_powers=0)
        assert state.turn == turn
        passed = of(events, e.TurnPassed)
        assert passed == [e.TurnPassed(state.current_player.name,
                                       state.current_player.character, turn)]
        order.append(state.active)
    assert order[:players] == [*range(1, players), 0]
    assert order[players:2 * players] == order[:players]


def test_first_player_from_setup():
    state = new_state(players=4, first_player=2)
    assert state.current_player.name == NAMES[2]
    state, _ = RULES.apply(state, roll("chevron1", "red", "clock1"))
    assert state.current_player.name == NAMES[3]


@pytest.mark.parametrize("players", [0, 1, 6])
def test_player_count_outside_two_to_five_is_refused(players):
    raw = setup()
    raw["players"] = [{"name": f"P{i}", "character": CHARACTERS[i % 5]} for i in range(players)]
    with pytest.raises(RuleError) as caught:
        RULES.initial_state(raw)
    assert caught.value.message.key == "evil.error.players_count"


@pytest.mark.parametrize("players,key", [
    ([{"name": "A", "character": "Nathan Goodspeed"},
      {"name": "a", "character": "Edward Wyre"}], "core.error.duplicate_name"),
    ([{"name": "A", "character": "Nathan Goodspeed"},
      {"name": "B", "character": "Nathan Goodspeed"}], "evil.error.duplicate_character"),
    ([{"name": "  ", "character": "Nathan Goodspeed"},
      {"name": "B", "character": "Edward Wyre"}], "core.error.empty_name"),
    ([{"name": "A", "character": "Dr. No"},
      {"name": "B", "character": "Edward Wyre"}], "evil.error.unknown_character"),
])
def test_bad_players_are_refused(players, key):
    raw = setup()
    raw["players"] = players
    with pytest.raises(RuleError) as caught:
        RULES.initial_state(raw)
    assert caught.value.message.key == key


# -- manual adjustments -----------------------------------------------------------------
def test_time_forward_by_hand_has_the_consequences_of_a_move():
    state = at(new_state(), time=2, red=1, green=5, blue=9)
    state, events = RULES.apply(state, c.MoveTime(1))
    assert state.time == 3 and state.pending_powers == 1
    assert of(events, e.TreasureLost) == [e.TreasureLost("red", 5)]
    assert state.slot("green").steps == 4
    assert state.turn == 1  # a correction is not a turn


def test_time_back_by_hand_gives_time_back_and_no_power():
    state = at(new_state(), time=4, red=1, green=5, blue=None)
    state, events = RULES.apply(state, c.MoveTime(-1))
    assert state.time == 3 and state.pending_powers == 0
    assert [t and t.steps for t in state.slots] == [2, 6, None]
    assert events == [e.TimeMoved(-1, 3)]
    state, _ = RULES.apply(at(state, time=0), c.MoveTime(-1))
    assert state.time == 11


def test_time_back_is_refused_when_it_would_pass_a_treasure_marker():
    state = at(new_state(), time=4, red=11)
    refused(state, c.MoveTime(-1), "evil.error.time_back_blocked")


@pytest.mark.parametrize("delta", [0, 2, -2, True, "1", None])
def test_adjustments_move_one_step_only(delta):
    state = new_state()
    refused(state, c.MoveTime(delta), "evil.error.delta")
    refused(state, c.MoveTreasure("red", delta), "evil.error.delta")


def test_treasure_marker_by_hand():
    state = at(new_state(), red=10, green=1)
    state, events = RULES.apply(state, c.MoveTreasure("red", 1))
    assert state.slot("red").steps == 11 and events == [e.TreasureMoved("red", 1, 11)]
    refused(state, c.MoveTreasure("red", 1), "evil.error.treasure_lap")
    state, _ = RULES.apply(state, c.MoveTreasure("red", -1))
    assert state.slot("red").steps == 10
    state, events = RULES.apply(state, c.MoveTreasure("green", -1))
    assert of(events, e.TreasureLost) == [e.TreasureLost("green", 5)]
    refused(state, c.MoveTreasure("green", 1), "evil.error.slot_empty")
    refused(state, c.MoveTreasure("purple", 1), "evil.error.unknown_colour")


def test_mark_lost_by_hand():
    state, events = RULES.apply(new_state(), c.MarkLost("blue"))
    assert events == [e.TreasureLost("blue", 55)] and state.slot("blue") is None
    refused(state, c.MarkLost("blue"), "evil.error.slot_empty")


# -- dice -------------------------------------------------------------------------------
def test_roll_draws_from_the_seeded_source_and_counts_draws():
    state = new_state(seed=1234)
    after, events = RULES.apply(state, c.Roll())
    params = state.params
    expected = [draw(1234, i, params.die_faces(die)) for i, die in enumerate(DICE)]
    assert events[0] == e.DiceRolled(*expected, source="app")
    assert after.draws == 3
    assert after.last_roll.source == "app"


def test_roll_is_a_pure_function_of_seed_and_counter():
    faces = {RULES.apply(new_state(seed=s), c.Roll())[1][0] for s in range(40)}
    assert len(faces) > 5  # different seeds, different games
    assert RULES.apply(new_state(seed=3), c.Roll()) == RULES.apply(new_state(seed=3), c.Roll())


def test_enter_roll_validates_every_face():
    state = new_state()
    refused(state, roll("chevron4", "red", "clock1"), "evil.error.unknown_face")
    refused(state, roll("chevron1", "yellow", "clock1"), "evil.error.unknown_face")
    refused(state, roll("chevron1", "red", "clock3"), "evil.error.unknown_face")
    refused(state, roll("clock1", "red", "chevron1"), "evil.error.unknown_face")
    refused(state, roll("", "red", "clock1"), "evil.error.unknown_face")
    after, events = RULES.apply(state, roll("chevron2", "green", "clock2"))
    assert events[0] == e.DiceRolled("chevron2", "green", "clock2", "table")
    assert after.draws == state.draws  # physical dice use no random draw


def test_enter_roll_accepts_faces_from_a_configured_die():
    state = new_state(dice={"clock": ["clock1", "clock3"]})
    after, _ = RULES.apply(state, roll("chevron1", "red", "clock3"))
    assert after.time == 3


def test_reroll_re_resolves_the_last_roll_from_before_it():
    state = at(new_state(seed=5), time=1)
    rolled, _ = RULES.apply(state, roll("time10", "red", "clock2"))
    rerolled, events = RULES.apply(rolled, c.Reroll("professor"))
    face = draw(5, state.draws, state.params.die_faces("professor"))
    assert events[0] == e.DiceRolled(face, "red", "clock2", "table")
    expected, _ = RULES.apply(state, roll(face, "red", "clock2"))
    assert rerolled == replace(expected, draws=state.draws + 1)
    assert rerolled.turn == state.turn + 1  # one turn, however often it is re-rolled
    again, _ = RULES.apply(rerolled, c.Reroll("clock"))
    assert again.turn == state.turn + 1 and again.draws == state.draws + 2


def test_set_die_corrects_the_last_roll():
    state = at(new_state(), red=2)
    rolled, _ = RULES.apply(state, roll("time10", "red", "clock1"))
    assert rolled.slot("red") is None
    fixed, events = RULES.apply(rolled, c.SetDie("professor", "chevron1"))
    assert fixed.slot("red").steps == 1 and fixed.lost == ()
    assert events[0] == e.DiceRolled("chevron1", "red", "clock1", "table")
    refused(rolled, c.SetDie("professor", "time15"), "evil.error.unknown_face")
    refused(rolled, c.SetDie("elbow", "chevron1"), "evil.error.unknown_die")
    refused(rolled, c.Reroll("elbow"), "evil.error.unknown_die")


def test_reroll_and_set_die_only_right_after_a_roll():
    state = new_state()
    refused(state, c.Reroll("colour"), "evil.error.no_roll_to_change")
    refused(state, c.SetDie("colour", "red"), "evil.error.no_roll_to_change")
    rolled, _ = RULES.apply(state, c.Roll())
    moved, _ = RULES.apply(rolled, c.MoveTime(-1) if rolled.time else c.MoveTime(1))
    refused(moved, c.Reroll("colour"), "evil.error.no_roll_to_change")
    refused(moved, c.SetDie("colour", "red"), "evil.error.no_roll_to_change")


def test_a_roll_that_ended_the_game_can_still_be_re_rolled_or_corrected():
    state = replace(at(new_state(), red=2), lost=new_state().slots)
    ended, _ = RULES.apply(state, roll("time10", "red", "clock1"))
    assert ended.outcome == "lost"
    fixed, _ = RULES.apply(ended, c.SetDie("professor", "passage"))
    assert fixed.outcome is None and fixed.slot("red").steps == 1
    assert fixed.turn == state.turn + 1
    still, _ = RULES.apply(ended, c.SetDie("professor", "time5"))
    assert still.outcome == "lost"  # 2 - 1 = 1, then the clock reaches it
    rerolled, _ = RULES.apply(ended, c.Reroll("professor"))
    assert rerolled.last_roll.clock == "clock1" and rerolled.draws == state.draws + 1
    # but nothing else: the game is over
    refused(ended, c.MoveTime(-1), "evil.error.game_over")
    won, _ = RULES.apply(replace(new_state(), recovered=new_state().slots), c.Recover("red"))
    refused(won, c.Reroll("professor"), "evil.error.game_over")


def test_unknown_command_is_refused():
    refused(new_state(), object(), "core.error.unknown_command")


# -- instructions -----------------------------------------------------------------------
def test_instructions_say_what_the_professor_does():
    state = at(new_state(), time=2, red=1)
    _, events = RULES.apply(state, roll("chevron2", "blue", "clock1"))
    keys = [m.key for m in instructions(events, state.params)]
    assert keys == ["evil.say.moves", "evil.say.time", "evil.say.lost", "evil.say.power",
                    "evil.say.turn"]
    said = instructions(events, state.params)
    assert said[0].params["n"] == 2  # the rooms: the count that chooses the plural
    assert said[0].params["doors"].key == "evil.doors.blue"
    assert said[1].params["position"] == "III"
    assert Translator("en").message(said[0]) == (
        "The professor moves 2 rooms through the BLUE doors: he locks open doors, re-arms "
        "traps, chases players out.")
    # "2 portes bleues": the colour agrees with the doors, the count with its noun
    assert Translator("fr").message(said[0]).startswith(
        "Le professeur avance de 2 pièces par les portes BLEUES :")
    assert Translator("fr").message(said[1]) == "Le marqueur de temps avance de 1 cran, sur III."


def test_evolve_is_replace_and_refuses_unknown_fields():
    state = new_state()
    assert evolve(state, time=5) == replace(state, time=5)
    assert state.time == 0
    with pytest.raises(TypeError):
        evolve(state, tiem=5)


@pytest.mark.parametrize("language,won,lost,face", [
    ("en", "2 treasures recovered: the players win!", "3 treasures lost: Pr. Evil wins.",
     "clock9 is not a face of the clock die."),
    ("fr", "2 trésors récupérés : les joueurs gagnent !", "3 trésors perdus : le Pr. Evil gagne.",
     "clock9 n'est pas une face du dé horloge."),
])
def test_end_and_error_texts_follow_the_configured_rules(language, won, lost, face):
    translate = Translator(language)
    state = new_state(recovered_to_win=2, lost_to_lose=3)
    won_state, events = apply(state, c.Recover("red"), c.PlaceTreasure("red", 5), c.Recover("red"))
    assert won_state.outcome == "won"
    assert translate.message(instructions(events, state.params)[-1]) == won
    lost_state, events = apply(state, c.MarkLost("red"), c.MarkLost("green"), c.MarkLost("blue"))
    assert lost_state.outcome == "lost"
    assert translate.message(instructions(events, state.params)[-1]) == lost
    error = refused(state, roll("chevron1", "red", "clock9"), "evil.error.unknown_face")
    assert translate.message(error.message) == face
