"""Castor's config section (defaults and a user's overrides) and its FR/EN catalogs."""

from __future__ import annotations

import re
import string
from pathlib import Path
from typing import Any

import pytest
import yaml

from companion import config
from companion.games.castor import RULES
from companion.games.castor import commands as c
from companion.games.castor.instructions import instructions
from companion.games.castor.params import CastorParams, validate_config, widened
from companion.i18n import Translator, load_catalog
from companion.messages import RuleError
from tests.helpers.checked import load

PACKAGE = Path(__file__).resolve().parents[1] / "companion" / "games" / "castor"


def problems_for(tmp_path: Path, castor: dict[str, Any]) -> dict[str, str]:
    """Load the config with a user file overriding `games.castor`: {dotted key: message key}."""
    user = tmp_path / "config.yaml"
    user.write_text(yaml.safe_dump({"games": {"castor": castor}}), encoding="utf-8")
    with pytest.raises(config.ConfigError) as caught:
        load(user)
    return {p.key: p.message.key for p in caught.value.problems}


def test_the_defaults_are_valid_and_match_the_rulebook(defaults):
    section = defaults.get("games.castor")
    params = CastorParams.from_config(section)
    assert (params.players_min, params.players_max) == (2, 5)
    assert {c.name: c.count for c in params.colours} == {
        "mauve": 10, "blue": 18, "green": 16, "yellow": 16}
    assert sum(c.count for c in params.colours) == 60
    assert len(params.plan_cards) == 20 and set(params.plan_cards) == set(range(1, 7))
    assert params.tricks_per_round == 12 and params.medals_to_win == 2
    assert [(t.players, t.bonus, t.malus) for t in params.table_sizes] == [
        ((2, 3), 8, 8), ((4, 5), 5, 5)]
    assert params.trumps == ("mauve",)
    assert (params.bonus_colour, params.malus_colour) == ("green", "yellow")
    assert params.agent("belton").effect == "choose_leader"
    assert params.agent("martha").effect == "extra_plan"
    assert CastorParams.from_config(params.to_config()) == params


def test_a_valid_override_is_accepted(tmp_path):
    user = tmp_path / "config.yaml"
    user.write_text("games:\n  castor:\n    medals_to_win: 3\n    malus_when_none: true\n",
                    encoding="utf-8")
    loaded = load(user)
    assert loaded.get("games.castor.medals_to_win") == 3
    assert loaded.get("games.castor.colours")[0]["name"] == "mauve"


@pytest.mark.parametrize(("override", "key", "message"), [
    ({"players": {"min": 1, "max": 5}}, "games.castor.players", "castor.config.players"),
    ({"medals_to_win": 0}, "games.castor.medals_to_win", "core.config.at_least"),
    ({"tricks_per_round": 13}, "games.castor.tricks_per_round", "castor.config.deck_too_small"),
    ({"colours": [{"name": "mauve", "count": 10, "min": 1, "max": 3},
                  {"name": "green", "count": 16, "min": 1, "max": 16},
                  {"name": "yellow", "count": 40, "min": 1, "max": -1}]},
     "games.castor.colours.2.max", "castor.config.max_below_min"),
    ({"colours": [{"name": "mauve", "count": 60, "min": 5, "max": 4}]},
     "games.castor.colours.0.max", "castor.config.max_below_min"),
    ({"colours": [{"name": "mauve", "count": 60}]}, "games.castor.colours.0",
     "castor.config.colour_item"),
    ({"colours": ["mauve"]}, "games.castor.colours.0", "castor.config.colour_item"),
    ({"bonus_colour": "red"}, "games.castor.bonus_colour", "castor.config.unknown_colour"),
    ({"trumps": ["mauve", "mauve"]}, "games.castor.trumps", "castor.config.duplicates"),
    ({"trumps": ["violet"]}, "games.castor.trumps.0", "castor.config.unknown_colour"),
    ({"plan_cards": [1, 2, 3]}, "games.castor.plan_cards", "castor.config.plan_too_few"),
    ({"plan_cards": [-1] + [1] * 19}, "games.castor.plan_cards.0", "core.config.at_least"),
    ({"bonus_malus": [{"players": [2, 3], "bonus": 8, "malus": 8}]},
     "games.castor.bonus_malus", "castor.config.bonus_malus_cover"),
    ({"bonus_malus": [{"players": [2, 3, 4], "bonus": 8, "malus": 8},
                      {"players": [4, 5], "bonus": 5, "malus": 5}]},
     "games.castor.bonus_malus", "castor.config.bonus_malus_cover"),
    ({"bonus_malus": [{"players": [2, 3], "bonus": -1, "malus": 8},
                      {"players": [4, 5], "bonus": 5, "malus": 5}]},
     "games.castor.bonus_malus.0.bonus", "core.config.at_least"),
    ({"bonus_malus": [{"players": [2, 3], "points": 8}]},
     "games.castor.bonus_malus.0", "castor.config.bonus_malus_item"),
    ({"agents": [{"id": "a", "name": "A", "effect": "fly", "text": "castor.power.other"}] * 1},
     "games.castor.agents.0.effect", "castor.config.effect"),
    ({"agents": [{"id": "a", "name": "A", "effect": "none", "text": "x"},
                 {"id": "a", "name": "B", "effect": "none", "text": "x"},
                 {"id": "c", "name": "C", "effect": "none", "text": "x"},
                 {"id": "d", "name": "D", "effect": "none", "text": "x"},
                 {"id": "e", "name": "E", "effect": "none", "text": "x"}]},
     "games.castor.agents", "castor.config.duplicates"),
    ({"agents": [{"id": "a", "name": "A", "effect": "none", "text": "x"}]},
     "games.castor.agents", "castor.config.agents_count"),
    ({"agents": [{"id": "a", "name": ""}]}, "games.castor.agents.0", "castor.config.agent_item"),
])
def test_bad_values_are_reported_with_their_key(tmp_path, override, key, message):
    problems = problems_for(tmp_path, override)
    assert problems.get(key) == message, problems


def test_a_wrong_type_is_caught_before_the_meaning(tmp_path):
    problems = problems_for(tmp_path, {"medals_to_win": "two"})
    assert problems == {"games.castor.medals_to_win": "core.config.wrong_type"}


# -- catalogs --------------------------------------------------------------------------
def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_english_and_french_have_the_same_keys_and_placeholders():
    en = {k: v for k, v in load_catalog("en").items() if k.startswith("castor.")}
    fr = {k: v for k, v in load_catalog("fr").items() if k.startswith("castor.")}
    assert en and set(en) == set(fr)
    for key in en:
        assert _fields(en[key]) == _fields(fr[key]), key


def test_every_key_the_code_names_exists():
    en = load_catalog("en")
    named = set()
    for path in PACKAGE.glob("*.py"):
        named |= set(re.findall(r'"(castor\.[a-z_]+\.[a-z_]+)"', path.read_text("utf-8")))
    assert named, "the scan found no keys"
    params = CastorParams.from_config(PARAMS)
    named |= {f"castor.colour.{colour}" for colour in params.colour_names}
    named |= {f"castor.sheet.{what}" for what in ("plan", "green", "yellow")}
    named |= {agent.text for agent in params.agents}
    named |= {f"castor.effect.{agent.effect}" for agent in params.agents}
    missing = sorted(key for key in named if key not in en)
    assert missing == []


PARAMS = load(use_default_user_file=False).data["games"]["castor"]
NAMES = [{"name": "Ann", "agent": "martha"}, {"name": "Bob", "agent": "belton"}]


def _refusals() -> list[RuleError]:
    state = RULES.initial_state({"params": PARAMS, "players": NAMES})
    played, _ = RULES.apply(state, c.PlayCard("Ann", "green", 3))
    bad = [
        (state, c.EnterSheet(1, (-1, 0), (0, 0), (0, 0))),
        (state, c.EnterSheet(1, (1, 0), (9, 9), (0, 0))),
        (state, c.EnterSheet(1, (1, 0), (1, 0, 3), (0, 0))),
        (state, c.EnterSheet(4, (1, 0), (1, 0), (0, 0))),
        (state, c.EnterSheet(1, (1, "x"), (1, 0), (0, 0))),
        (state, c.PlayCard("Ann", "mauve", 100)),
        (state, c.PlayCard("Bob", "mauve", 1)),
        (state, c.TakeTrick(3)),
        (played, c.PlayCard("Ann", "green", 4)),
        (played, c.TakeTrick(3)),
        (state, c.EnterSheet(1, (2000, 0), (1, 0), (0, 0))),
        (state, c.NoteComplice("other", " ")),
        (state, c.NoteComplice("dance")),
        (state, c.MoveCard("Ann", "Bob", "green", 3)),
        (played, c.MoveCard("Ann", "Ann", "green", 3)),
        (played, c.MovePlan("Ann", "Bob", 2)),
        (played, c.MovePlan("Ann", "Bob", 0)),
        (played, c.ChooseLeader("Bob")),
        (state, c.DrawPower("agent3")),
        (state, c.SetTrumps(("red",))),
    ]
    errors = []
    for st, command in bad:
        with pytest.raises(RuleError) as caught:
            RULES.apply(st, command)
        errors.append(caught.value)
    return errors


@pytest.mark.parametrize("language", ["en", "fr"])
def test_refusals_and_instructions_read_as_full_sentences(language):
    translate = Translator(language)
    for error in _refusals():
        assert translate.has(error.message.key), error.message.key
        text = translate.message(error.message)
        assert "{" not in text and "castor." not in text, text
    state = RULES.initial_state({"params": PARAMS, "players": NAMES})
    state, events = RULES.apply(state, c.DrawPower("belton"))
    more: list[Any] = list(events)
    for command in (c.ChooseLeader("Ann"), c.SetTrumps(("blue", "mauve")),
                    c.NoteComplice("trumps", "blue beats mauve"),
                    c.PlayCard("Ann", "blue", 30), c.PlayCard("Bob", "blue", 30),
                    c.AwardTrick("Bob"), c.AwardTrick(None),
                    c.TakeTrick(9), c.MoveCard("Ann", "Bob", "blue", 30),
                    c.MovePlan("Ann", "Bob", 2), c.NoteComplice("other", "swap hands"),
                    c.SetTrumps(()), c.SetTrumps(None),
                    c.EnterSheet(1, (70, 0), (0, 0), (0, 0))):
        state, events = RULES.apply(state, command)
        more += events
    texts = [translate.message(m) for m in instructions(more)]
    assert len(texts) >= 14
    assert sum("check" in t.casefold() or "vérifiez" in t.casefold() for t in texts) == 4
    for text in texts:
        assert "{" not in text and "castor." not in text, text


def test_a_noted_card_gives_the_settings_change_for_the_next_games():
    section = load(use_default_user_file=False).data["games"]["castor"]
    key, colours = widened(section, "value", 20, "blue")
    assert key == "colours"
    blue = next(spec for spec in colours if spec["name"] == "blue")
    assert (blue["min"], blue["max"], blue["count"]) == (1, 20, 18)
    assert section["colours"][1]["max"] == 18  # the section itself is not changed
    assert validate_config({**section, "colours": colours}) == []  # a valid config
    assert widened({**section, "colours": colours}, "value", 20, "blue") is None
    assert widened(section, "value", 0, "green")[1][2]["min"] == 0
    key, plan = widened(section, "plan_value", 7)
    assert key == "plan_cards" and len(plan) == 21 and 7 in plan
    assert widened(section, "plan_value", 3) is None
    for reason in ("copies", "plan_copies", "plan_total"):  # no single setting says it
        assert widened(section, reason, 3, "blue") is None
