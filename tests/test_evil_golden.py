"""Journals written before the rules were versioned replay to the states they had.

The seed's order ("Enfin, consultez le dé noir") changed how a roll resolves; a game
whose setup has no `rules_version` keeps the order it was played with, so a journal
written by an earlier version reopens exactly where it was."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.games.evil import RULES
from companion.records import decode, encode
from companion.session import History, Step
from tests.helpers.evil_golden import snapshot

GOLDEN = json.loads((Path(__file__).parent / "golden" / "evil_v1_journals.json").read_text())


@pytest.mark.parametrize("index", range(len(GOLDEN["games"])))
def test_an_old_journal_replays_to_the_states_it_had(index: int) -> None:
    game = GOLDEN["games"][index]
    assert "rules_version" not in game["setup"]
    history = History(RULES.initial_state(game["setup"]))
    assert snapshot(history.initial) == GOLDEN["initial"][index]
    for n, (entry, expected) in enumerate(zip(game["entries"], game["states"], strict=True)):
        if entry["verb"] == "do":
            command = decode(RULES.commands, entry["command"])
            after, events = RULES.apply(history.state, command)
            assert [encode(ev) for ev in events] == entry["events"], n  # the log reads the same
            history.do(Step(command, tuple(events), history.state, after))
        elif entry["verb"] == "undo":
            history.undo()
        else:
            history.redo()
        assert snapshot(history.state) == expected, n
