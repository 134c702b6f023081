"""Mr. Bond through the session and the journal file: resume after a power cut."""

from __future__ import annotations

from typing import Any

import pytest

from companion import config
from companion.games.bond import RULES
from companion.games.bond import commands as c
from companion.games.bond import events as e
from companion.journal import Journal
from companion.messages import RuleError
from companion.records import encode
from companion.session import Session

PARAMS = config.load(use_default_user_file=False).data["games"]["bond"]


def setup() -> dict[str, Any]:
    return {"params": config.merge(PARAMS, {}),
            "players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cid"}]}


GAME = [
    c.AddLairCard(0, 3), c.AddLairCard(1, 4), c.AddLairCard(1, 2),
    c.Attack(1, (2, 3), by=0), c.Ridicule("A"), c.NotAnswered(), c.Kill(),  # Bob 10
    c.Attack(0, (5,), by=2),  # escapes: Ann's lair destroyed
    c.CorrectScore(2, 4),
    c.AddLairCard(2, 4), c.Attack(2, (4,), by=1), c.Ridicule("B"), c.NotAnswered(),
    c.Ridicule("C"), c.NotAnswered(), c.Ridicule("D"), c.NotAnswered(), c.Kill(),  # Cid 36
]


def test_a_short_game_to_the_target_is_resumed_identically(tmp_path):
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    session = Session.start(RULES, journal, setup())
    seen = []
    session.subscribe(seen.append)
    for command in GAME:
        session.dispatch(command)
    assert session.state.scores == (0, 10, 36)
    assert seen[-1].events[-1] == e.GameEnded("target", (2,), 36)
    with pytest.raises(RuleError):
        session.dispatch(c.EndGame())
    journal.close()

    reopened = Journal(path)
    record = reopened.game(session.game_id)
    assert record.kind == "bond" and record.finished
    assert record.summary["winners"] == ["Cid"] and record.summary["scores"] == [0, 10, 36]
    resumed = Session.resume(RULES, reopened, session.game_id)
    assert resumed.state == session.state
    assert [s.command for s in resumed.steps] == GAME
    assert [s.events for s in resumed.steps] == [s.events for s in session.steps]
    entries = reopened.entries(session.game_id)
    assert [entry.command for entry in entries] == [encode(cmd) for cmd in GAME]
    reopened.close()


def test_a_power_cut_during_a_ridicule_resumes_with_the_capture_waiting(tmp_path):
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    session = Session.start(RULES, journal, setup())
    for command in GAME[:5]:  # cut right after the ridicule "A" was played
        session.dispatch(command)
    session.undo()
    session.redo()
    journal.close()  # the power goes off

    reopened = Journal(path)
    resumed = Session.resume(RULES, reopened, session.game_id)
    assert resumed.state == session.state
    capture = resumed.state.capture
    assert capture is not None and capture.pending == "A" and capture.spies == (2, 3)
    assert reopened.unfinished()[0].id == session.game_id
    for command in GAME[5:]:
        resumed.dispatch(command)
    assert resumed.state.outcome is not None and resumed.state.outcome.winners == (2,)
    reopened.close()


def test_undoing_the_winning_kill_reopens_the_game(tmp_path):
    journal = Journal(tmp_path / "journal.sqlite3")
    session = Session.start(RULES, journal, setup())
    for command in GAME:
        session.dispatch(command)
    assert journal.game(session.game_id).finished
    assert session.undo() == c.Kill()
    assert session.state.outcome is None and session.state.capture.value == 32
    assert not journal.game(session.game_id).finished
    session.dispatch(c.Ridicule("E"))
    session.dispatch(c.Answered())
    assert session.state.scores == (0, 10, 4)
    assert not session.state.players[2].has_lair
    assert not session.can_redo()
    assert Session.resume(RULES, journal, session.game_id).state == session.state
    journal.close()


def test_a_refused_command_writes_nothing(tmp_path):
    journal = Journal(tmp_path / "journal.sqlite3")
    session = Session.start(RULES, journal, setup())
    with pytest.raises(RuleError) as caught:
        session.dispatch(c.Attack(1, (2,)))
    assert caught.value.message.key == "bond.error.no_lair"
    assert journal.entries(session.game_id) == []
    journal.close()


def test_spies_given_as_a_list_replay_as_the_same_command(tmp_path):
    journal = Journal(tmp_path / "journal.sqlite3")
    session = Session.start(RULES, journal, setup())
    session.dispatch(c.AddLairCard(1, 4))
    session.dispatch(c.Attack(1, [1, 2], by=0))  # type: ignore[arg-type]
    resumed = Session.resume(RULES, journal, session.game_id)
    assert resumed.steps == session.steps
    assert resumed.state.capture.spies == (1, 2)
    journal.close()
