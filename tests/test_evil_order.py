"""Pr. Evil's roll in the seed's order (rules version 2), the deciding roll, the first
player and the turn card. Each rule test quotes the seed sentence it checks."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.games.evil import RULES
from companion.games.evil import commands as c
from companion.games.evil import events as e
from companion.games.evil.card import turn_card
from companion.games.evil.dice import draw_first_player
from companion.games.evil.instructions import roman
from companion.games.evil.rules import RULES_VERSION
from companion.i18n import Translator
from companion.messages import RuleError
from companion.session import Step
from tests.helpers.evil import CHARACTERS, NAMES, at, of, refused, roll, setup


def new(**kwargs):
    return RULES.initial_state(setup(rules_version=RULES_VERSION, **kwargs))


# -- the roll waits for the replacement ------------------------------------------------
def test_a_time_presses_loss_is_replaced_before_the_black_die():
    # "Mettez en place un nouveau trésor pour le remplacer : [...] comme lors de la mise
    # en place d'origine." then "Enfin, consultez le dé noir pour savoir combien de temps
    # s'est écoulé durant votre tour."
    state = at(new(), time=4, red=2, green=9, blue=9)
    paused, events = RULES.apply(state, roll("time10", "red", "clock2"))
    assert of(events, e.TreasureLost) == [e.TreasureLost("red", 10)]
    assert of(events, e.BlackDieWaits) == [e.BlackDieWaits(("red",), "clock2")]
    assert not of(events, e.TimeMoved) and not of(events, e.TurnPassed)
    assert paused.time == 4 and paused.pending_clock == "clock2"
    assert paused.active == state.active and paused.turn == state.turn
    assert paused.slot("green").steps == 9  # the black die has not moved anything yet
    done, events = RULES.apply(paused, c.PlaceTreasure("red", 30))
    # the new marker 30 minutes ahead of the time marker before the black die: IV + 6 = X
    assert of(events, e.TreasurePlaced) == [e.TreasurePlaced("red", 30, 10)]
    kinds = [type(ev) for ev in events]
    assert kinds == [e.TreasurePlaced, e.BlackDieApplied, e.TimeMoved, e.TurnPassed]
    assert done.time == 6 and done.marker_position("red") == 10
    assert done.slot("red").steps == 4  # then moved by the black die
    assert done.pending_clock is None and done.turn == state.turn + 1
    assert done.active == (state.active + 1) % len(state.players)


def test_a_five_minute_replacement_is_taken_by_the_same_roll():
    # "Si le marqueur de temps atteint ou dépasse un marqueur de trésor de cette façon
    # (ou plusieurs), le ou les trésors correspondants sont perdus"
    state = at(new(), time=0, red=1, green=9, blue=9)
    paused, _ = RULES.apply(state, roll("time5", "red", "clock1"))
    done, events = RULES.apply(paused, c.PlaceTreasure("red", 5))
    assert of(events, e.TreasureLost) == [e.TreasureLost("red", 5)]
    assert [t.minutes for t in done.lost] == [5, 5]
    assert done.slot("red") is None and done.pending_clock is None
    assert done.turn == state.turn + 1  # the roll is over: the next replacement is ordinary
    after, events = RULES.apply(done, c.PlaceTreasure("red", 20))
    assert not of(events, e.TimeMoved) and after.time == done.time


def test_a_black_die_loss_is_replaced_afterwards():
    # "Si le marqueur de temps atteint ou dépasse un marqueur de trésor de cette façon
    # [...] le ou les trésors correspondants sont perdus (voir Perte d'un trésor)."
    state = at(new(), time=4, red=1, green=9, blue=9)
    done, events = RULES.apply(state, roll("chevron2", "blue", "clock1"))
    assert not of(events, e.BlackDieWaits) and done.pending_clock is None
    assert of(events, e.TreasureLost) == [e.TreasureLost("red", 5)]
    assert of(events, e.TurnPassed) and done.empty_colours == ("red",)
    refused(done, c.Roll(), "evil.error.place_before_rolling")
    placed, _ = RULES.apply(done, c.PlaceTreasure("red", 25))
    assert placed.marker_position("red") == 5 + 5  # relative to the time after the black die


def test_two_losses_in_one_roll_white_then_black():
    # "Si le marqueur de temps atteint ou dépasse un marqueur de trésor, que ce soit par
    # déplacement de l'un ou de l'autre, alors le professeur sécurise immédiatement ce trésor"
    state = at(new(), time=0, red=1, green=2, blue=9)
    paused, events = RULES.apply(state, roll("time10", "red", "clock2"))
    assert [ev.colour for ev in of(events, e.TreasureLost)] == ["red"]
    done, events = RULES.apply(paused, c.PlaceTreasure("red", 50))
    assert [ev.colour for ev in of(events, e.TreasureLost)] == ["green"]
    assert [t.colour for t in done.lost] == ["red", "green"]
    assert done.slot("red").steps == 8 and done.empty_colours == ("green",)


def test_two_losses_to_the_black_die():
    state = at(new(), time=0, red=1, green=2, blue=9)
    done, events = RULES.apply(state, roll("chevron1", "blue", "clock2"))
    assert [ev.colour for ev in of(events, e.TreasureLost)] == ["red", "green"]
    assert done.empty_colours == ("red", "green") and done.pending_clock is None


def test_a_roll_or_entered_roll_is_refused_while_a_replacement_is_awaited():
    state = at(new(), red=1)
    paused, _ = RULES.apply(state, roll("time5", "red", "clock1"))
    error = refused(paused, c.Roll(), "evil.error.replacement_awaited")
    assert error.message.params["colour"].key == "evil.colour.red"
    refused(paused, roll("chevron1", "green", "clock1"), "evil.error.replacement_awaited")
    assert "enter its tile's minutes" in Translator("en").message(error.message)


def test_the_difficulty_refuses_left_out_minutes_and_the_roll_keeps_waiting():
    raw = setup(rules_version=RULES_VERSION, treasures={"red": 45, "green": 35, "blue": 55})
    state = at(RULES.initial_state({**raw, "difficulty": "expert"}), red=1)
    paused, _ = RULES.apply(state, roll("time5", "red", "clock1"))
    refused(paused, c.PlaceTreasure("red", 30), "evil.error.minutes_left_out")
    assert paused.pending_clock == "clock1"


def test_reroll_and_set_die_of_a_waiting_roll_resolve_it_again_from_before():
    state = at(new(), time=0, red=1, green=9, blue=9)
    paused, _ = RULES.apply(state, roll("time5", "red", "clock1"))
    fixed, events = RULES.apply(paused, c.SetDie("professor", "chevron1"))
    # no loss to the white dice: the roll goes on, and the black die takes red
    assert fixed.pending_clock is None and not of(events, e.BlackDieWaits)
    assert [ev.colour for ev in of(events, e.TreasureLost)] == ["red"]
    assert fixed.turn == state.turn + 1 and of(events, e.TimeMoved)
    clock, _ = RULES.apply(paused, c.SetDie("clock", "clock2"))
    assert clock.pending_clock == "clock2" and clock.time == 0  # still waiting
    rerolled, _ = RULES.apply(paused, c.Reroll("colour"))
    assert rerolled.draws == state.draws + 1
    # once the replacement is placed the roll is complete: a change goes through undo
    done, _ = RULES.apply(paused, c.PlaceTreasure("red", 40))
    refused(done, c.SetDie("clock", "clock2"), "evil.error.no_roll_to_change")


def test_corrections_while_waiting_stay_possible_and_logged():
    state = at(new(), time=3, red=1, green=9, blue=9)
    paused, _ = RULES.apply(state, roll("time5", "red", "clock1"))
    moved, _ = RULES.apply(paused, c.MoveTime(-1))
    assert moved.pending_clock == "clock1" and moved.time == 2
    recovered, _ = RULES.apply(moved, c.Recover("green"))
    half, events = RULES.apply(recovered, c.PlaceTreasure("red", 20))
    assert not of(events, e.TimeMoved)  # the green slot is empty too: still waiting
    done, events = RULES.apply(half, c.PlaceTreasure("green", 20))
    assert of(events, e.BlackDieApplied) and done.time == 3


def test_no_roll_with_an_empty_slot():
    # "Mettez en place un nouveau trésor" after a recovery: a slot is never empty at a roll
    state, _ = RULES.apply(new(), c.Recover("blue"))
    error = refused(state, c.Roll(), "evil.error.place_before_rolling")
    assert error.message.params["colour"].key == "evil.colour.blue"


def test_an_unknown_rules_version_is_refused():
    with pytest.raises(RuleError) as caught:
        RULES.initial_state(setup(rules_version=99))
    assert caught.value.message.key == "evil.error.rules_version"


# -- the deciding roll ---------------------------------------------------------------------
def test_the_deciding_roll_moves_every_marker_and_records_every_treasure():
    # "Si en revanche le professeur sécurise quatre trésors avant que les joueurs ne
    # récupèrent les leurs, la partie est perdue."
    state = replace(at(new(), time=5, red=1, green=2, blue=6), lost=new().slots)
    over, events = RULES.apply(state, roll("chevron1", "blue", "clock2"))
    assert over.outcome == "lost" and over.time == 7
    assert [ev.colour for ev in of(events, e.TreasureLost)] == ["red", "green"]
    assert [t.colour for t in over.lost[3:]] == ["red", "green"] and len(over.lost) == 5
    assert over.slot("blue").steps == 4 and over.marker_position("blue") == 11
    assert of(events, e.GameLost) == [e.GameLost(5)]
    assert over.pending_powers == 0 and not of(events, e.PowerSpaceReached)
    assert RULES.summary(over)["lost"] == 5


def test_a_deciding_time_presses_loss_ends_the_game_at_once():
    state = replace(at(new(), time=0, red=1, green=9, blue=9), lost=new().slots)
    over, events = RULES.apply(state, roll("time5", "red", "clock2"))
    assert over.outcome == "lost" and over.pending_clock is None
    assert not of(events, e.TimeMoved) and over.slot("green").steps == 9


# -- first player, seating order -----------------------------------------------------------
def test_the_first_player_is_drawn_from_the_seed():
    # "Décidez au hasard qui sera le premier joueur."
    assert draw_first_player(1234, 4) == draw_first_player(1234, 4)
    seats = {draw_first_player(seed, 4) for seed in range(60)}
    assert seats == {0, 1, 2, 3}
    assert all(0 <= draw_first_player(seed, 2) < 2 for seed in range(30))


@pytest.mark.parametrize("first", [0, 2, 3])
def test_turns_go_clockwise_from_the_first_player(first):
    # "Ensuite, jouez dans le sens horaire." Players are entered in seating order,
    # clockwise: each turn passes to the next seat.
    state = new(players=4, first_player=first, treasures={"red": 55, "green": 55,
                                                          "blue": 55})
    seen = [state.current_player.name]
    for _ in range(5):
        state, _ = RULES.apply(state, roll("chevron1", "red", "clock1"))
        state = replace(state, pending_powers=0)
        seen.append(state.current_player.name)
    assert seen == [NAMES[(first + i) % 4] for i in range(6)]


# -- the turn card ------------------------------------------------------------------------
def steps_of(state, *commands):
    out = []
    for command in commands:
        after, events = RULES.apply(state, command)
        out.append(Step(command, tuple(events), state, after))
        state = after
    return state, out


def texts(card, language="en"):
    tr = Translator(language)
    # a line as the card shows it: what to do, its parts, then the rule's reminder
    return [tr.message(card.headline)] + [
        " ".join([tr.message(line.text), " · ".join(tr.message(p) for p in line.parts),
                  tr.message(line.detail) if line.detail is not None else ""]).strip()
        for line in card.lines]


def test_the_card_while_waiting_says_why_and_what_to_place():
    state = at(new(), time=4, red=2, green=9, blue=9)
    paused, steps = steps_of(state, roll("time10", "red", "clock2"))
    card = turn_card(paused, steps)
    said = texts(card)
    assert said[0] == "First, place a new RED treasure"
    assert [line.icon for line in card.lines] == ["time10", "lost", "clock2"]
    assert [line.colour for line in card.lines] == ["red", "red", None]
    assert "Lost treasures" in said[2] and "(IV)" in said[3]
    assert card.phase == 3
    french = texts(card, "fr")
    assert french[0] == "D'abord, placez un nouveau trésor ROUGE"


def test_the_card_after_the_roll_tells_the_roller_to_pass_the_dice():
    # "À la fin de votre tour, passez les dés à votre voisin de gauche."
    state = at(new(players=3), time=0, red=5, green=9, blue=9)
    done, steps = steps_of(state, roll("chevron2", "blue", "clock1"))
    said = texts(turn_card(done, steps))
    assert said[0] == f"{NAMES[0]}: pass the dice to {NAMES[1]}, on your left."
    assert done.current_player.name == NAMES[1]
    assert "locks each open door" in said[1] and "never stops him" in said[1]
    assert "re-arms a disabled trap" in said[1] and "anywhere outside the manor" in said[1]
    assert said[2].endswith("now on I.")


def test_the_card_after_an_adjustment_or_undo_says_where_the_board_is():
    state = at(new(), time=0, red=5, green=9, blue=9)
    done, steps = steps_of(state, roll("chevron2", "blue", "clock1"))
    adjusted, more = steps_of(done, c.MoveTime(-1))
    said = texts(turn_card(adjusted, steps + more))
    assert said[1].startswith("The board now: time marker on XII")
    assert not any("now on I." in text for text in said)  # never stale
    undone = texts(turn_card(state, [], verb="undo"))
    assert undone[1].startswith("The board now: time marker on XII · red on V")
    assert not any("Undo" in text for text in undone)


def test_the_card_after_a_recovery_re_arms_the_traps():
    # "réactivez immédiatement tous les pièges indiqués sur sa tuile"
    state, steps = steps_of(new(), c.Recover("green"))
    said = texts(turn_card(state, steps))
    assert said[0] == "Place a new GREEN treasure"
    assert "re-arm every trap on its tile" in said[1]


def test_the_card_names_the_one_shot_bonus_cost():
    # "Il perd donc également son pouvoir spécial permanent au moment où il exerce son bonus."
    state = at(new(), time=2, red=9, green=9, blue=9)
    state, steps = steps_of(state, roll("chevron1", "red", "clock1"),
                            c.ActivatePower(CHARACTERS[0]))
    said = texts(turn_card(state, steps))
    assert any("the permanent power goes with it" in text for text in said)
    assert roman(state.time) == "III"


def test_the_table_can_correct_whose_turn_it_is():
    # "Ensuite, jouez dans le sens horaire": when the dice went to another seat, the table
    # says so with a logged command, and play goes on clockwise from there
    state = new(players=3)
    state, events = RULES.apply(state, c.SetPlayer(NAMES[2]))
    assert state.current_player.name == NAMES[2] and state.turn == 1
    assert events == [e.PlayerSet(NAMES[2], CHARACTERS[2])]
    state, _ = RULES.apply(state, roll("chevron1", "red", "clock1"))
    assert state.current_player.name == NAMES[0]
    refused(state, c.SetPlayer("Zed"), "evil.error.player_not_playing")
    said = texts(turn_card(*steps_of(new(players=3), c.SetPlayer(NAMES[1]))))
    assert said[0] == f"{NAMES[1]}, your turn"
    assert said[1].startswith("The board now:")
    assert said[2].startswith(f"{NAMES[1]} ({CHARACTERS[1]}): draw 2 action cards")
