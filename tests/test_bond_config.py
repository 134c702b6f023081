"""The `games.bond` config section: shipped defaults, user overrides, meaning checks."""

from __future__ import annotations

import pytest

from companion import config
from companion.games.bond import RULES, validate_config
from companion.games.bond.params import BondParams, widened
from tests.helpers.checked import load


def section(**changes):
    return config.merge(load(use_default_user_file=False).data["games"]["bond"],
                        changes)


def keys(problems):
    return sorted(key for key, _ in problems)


def test_the_shipped_defaults_follow_the_rulebook():
    params = BondParams.from_config(section())
    assert (params.players_min, params.players_max) == (2, 6)
    assert (params.hand_cards, params.small_table_players, params.small_table_cards) == (5, 3, 6)
    assert (params.lair_cards, params.spy_cards, params.doubler_cards) == (18, 18, 18)
    assert params.letters == tuple("ABCDEFGHI")
    assert params.target_score == 30
    assert validate_config(section()) == []


def test_params_round_trip_through_the_config_shape():
    params = BondParams.from_config(section(target_score=25))
    assert BondParams.from_config(params.to_config()) == params
    assert params.to_config() == section(target_score=25)


@pytest.mark.parametrize(("changes", "key"), [
    ({"players": {"min": 1, "max": 6}}, "players"),
    ({"players": {"min": 5, "max": 4}}, "players"),
    ({"deal": {"cards": 0}}, "deal.cards"),
    ({"deal": {"small_table": {"cards": 0}}}, "deal.small_table.cards"),
    ({"deck": {"spy": 0}}, "deck.spy"),
    ({"deck": {"lair": -2}}, "deck.lair"),
    ({"lair_values": {"min": 0}}, "lair_values"),
    ({"spy_values": {"min": 6, "max": 5}}, "spy_values"),
    ({"doubler_letters": []}, "doubler_letters"),
    ({"doubler_letters": ["A", "B", "A"]}, "doubler_letters"),
    ({"doubler_letters": ["A", " "]}, "doubler_letters"),
    ({"target_score": 0}, "target_score"),
    ({"deal": {"cards": 10}}, "deal"),  # 6 x 10 cards from a 54-card deck
    ({"deal": {"small_table": {"players": 6, "cards": 10}}}, "deal"),
    ({"deal": {"small_table": {"players": 3, "cards": 19}}}, "deal"),  # 3 x 19 > 54
    ({"players": {"min": 2, "max": 10**9}}, "deal"),  # refused at once, not counted up to
])
def test_meaningless_values_are_reported_by_key(changes, key):
    assert keys(validate_config(section(**changes))) == [key]


def test_a_user_file_changes_the_target_and_a_new_game_uses_it(tmp_path):
    user = tmp_path / "config.yaml"
    user.write_text("games:\n  bond:\n    target_score: 50\n    spy_values: {max: 6}\n")
    loaded = load(user)
    bond = loaded.get("games.bond")
    assert bond["target_score"] == 50 and bond["spy_values"] == {"min": 1, "max": 6}
    state = RULES.initial_state({"params": bond, "players": [{"name": "A"}, {"name": "B"}]})
    assert state.params.target_score == 50 and state.params.spy_max == 6


def test_a_bad_user_value_names_the_file_the_line_and_the_key(tmp_path):
    user = tmp_path / "config.yaml"
    user.write_text("language: fr\ngames:\n  bond:\n    spy_values: {min: 4, max: 2}\n")
    with pytest.raises(config.ConfigError) as caught:
        load(user)
    [problem] = caught.value.problems
    assert (problem.file, problem.line, problem.key) == (str(user), 4, "games.bond.spy_values")
    assert problem.message.key == "bond.config.range"


def test_a_wrong_type_is_caught_before_the_meaning(tmp_path):
    user = tmp_path / "config.yaml"
    user.write_text("games:\n  bond:\n    target_score: thirty\n")
    with pytest.raises(config.ConfigError) as caught:
        load(user)
    assert [p.key for p in caught.value.problems] == ["games.bond.target_score"]
    assert caught.value.problems[0].message.key == "core.config.wrong_type"


def test_a_noted_card_gives_the_settings_change_for_the_next_games():
    section = load(use_default_user_file=False).data["games"]["bond"]
    assert widened(section, "lair", 6) == ("lair_values", {"min": 1, "max": 6})
    assert widened(section, "spy", 9) == ("spy_values", {"min": 1, "max": 9})
    assert widened(section, "spy", 3) is None
    assert validate_config({**section, "spy_values": {"min": 1, "max": 9}}) == []
