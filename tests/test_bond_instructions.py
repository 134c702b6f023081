"""What the Mr. Bond screens say after each action, in English and French."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from companion import config
from companion.games.bond import RULES
from companion.games.bond import commands as c
from companion.games.bond import events as e
from companion.games.bond.instructions import command_name, instructions, outcome
from companion.i18n import Translator

PARAMS = config.load(use_default_user_file=False).data["games"]["bond"]
GAME = [
    c.AddLairCard(0, 3), c.AddLairCard(1, 4), c.RemoveLairCard(0, 3), c.AddLairCard(0, 2),
    c.Attack(1, (3,), by=0), c.Ridicule("A"), c.NotAnswered(), c.Ridicule("B"),
    c.Answered(), c.Attack(0, (1,)), c.Kill(), c.CorrectScore(0, 5),
    c.AddLairCard(1, 6), c.Attack(1, (7,)),  # values the settings do not print: noted
    c.EndGame(),
]


def run(commands: list[Any]) -> list[tuple[Any, list[Any], Any]]:
    state = RULES.initial_state({"params": PARAMS,
                                 "players": [{"name": "Ann"}, {"name": "Bob"}]})
    out = []
    for command in commands:
        state, events = RULES.apply(state, command)
        out.append((command, events, state))
    return out


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_event_of_a_game_is_said_in_full(language):
    tr = Translator(language)
    said: set[type] = set()
    for _, events, state in run(GAME):
        messages = instructions(events, state)
        # a turn that begins after a kill or an escape is the headline's news, not said
        said_events = [ev for i, ev in enumerate(events)
                       if not (isinstance(ev, e.TurnBegan) and i > 0)]
        assert len(messages) == len(said_events)
        for message in messages:
            assert tr.has(message.key), message.key
            text = tr.message(message)
            assert "{" not in text and "bond." not in text, text
        said |= {type(ev) for ev in events}
    every_event = {cls for cls in vars(e).values()
                   if isinstance(cls, type) and dataclasses.is_dataclass(cls)}
    assert said == every_event


def test_sentences_name_the_players_and_the_numbers():
    steps = run(GAME)
    tr = Translator("en")
    _, events, state = steps[8]  # the answered ridicule
    assert [tr.message(m) for m in instructions(events, state)] == [
        "The other B is played: the ridicule fails.",
        "The spy escapes: the ridicule was answered.",
        "Bob's lair is destroyed: discard its lair cards.",
    ]
    _, events, state = steps[10]
    assert tr.message(instructions(events, state)[0]) == "Ann kills the spy: +1 (score 1)."
    _, events, state = steps[11]
    assert tr.message(instructions(events, state)[0]) == "Ann's score corrected by +5: 6."
    _, events, state = steps[12]
    assert tr.message(instructions(events, state)[0]) == (
        "Check your cards: a lair card worth 6 is outside 1–4 in the settings. Accepted.")


def test_the_victory_sentence_shares_a_tie():
    _, _, state = run([c.CorrectScore(0, 4), c.CorrectScore(1, 4), c.EndGame()])[-1]
    assert Translator("en").message(outcome(state)) == (
        "Game stopped by agreement: Ann, Bob with 4 points.")
    assert Translator("fr").message(outcome(state)) == (
        "Partie arrêtée d'un commun accord : Ann, Bob avec 4 points.")
    assert outcome(run([c.AddLairCard(0, 1)])[-1][2]) is None


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_command_has_a_name_for_the_undo_button(language):
    tr = Translator(language)
    for cls in c.COMMANDS.values():
        fields = {f.name: 0 for f in dataclasses.fields(cls)}
        assert tr.has(command_name(cls(**fields)).key), cls.__name__
