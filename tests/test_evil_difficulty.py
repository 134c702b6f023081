"""Difficulty (rulebook): first games without the 55-minute treasures, expert games
without the 30s. The tiles left out cannot be placed; the game records its difficulty."""

from __future__ import annotations

import pytest

from companion.games.evil import commands as c
from companion.games.evil.rules import RULES
from companion.messages import RuleError
from tests.helpers.evil import setup


def start(difficulty: str, **treasures: int):
    return RULES.initial_state(dict(setup(treasures=treasures), difficulty=difficulty))


def test_first_games_leave_out_the_55s() -> None:
    state = start("first_games", red=45, green=30)
    assert state.left_out == (55,)
    with pytest.raises(RuleError) as refused:
        RULES.apply(state, c.PlaceTreasure("blue", 55))
    assert refused.value.message.key == "evil.error.minutes_left_out"
    state, _ = RULES.apply(state, c.PlaceTreasure("blue", 50))
    assert state.slot("blue").minutes == 50


def test_expert_games_leave_out_the_30s_and_a_first_treasure_of_30_is_refused() -> None:
    with pytest.raises(RuleError):
        start("expert", red=30)
    assert start("expert", red=55).slot("red").minutes == 55


def test_the_difficulty_is_in_the_summary_and_an_unknown_one_is_refused() -> None:
    assert RULES.summary(start("standard", red=55))["difficulty"] == "standard"
    with pytest.raises(RuleError) as refused:
        start("nightmare", red=20)
    assert refused.value.message.key == "evil.error.unknown_difficulty"


def test_without_a_difficulty_every_tile_is_in_play() -> None:
    state = RULES.initial_state(setup(treasures={"red": 55, "green": 30}))
    assert state.difficulty == "" and state.left_out == ()
