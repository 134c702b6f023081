"""The session: every command undoable, observers after the commit, rolls not fishable."""

from __future__ import annotations

import pytest

from companion.games.evil import RULES
from companion.games.evil import commands as c
from companion.i18n import Translator
from companion.journal import FILE_NAME, Journal, JournalError
from companion.messages import RuleError
from companion.session import Session, Update
from tests.helpers.evil import CHARACTERS, NAMES, history_of, setup, start


@pytest.fixture
def journal(tmp_path):
    journal = Journal(tmp_path / FILE_NAME)
    yield journal
    journal.close()


def test_nothing_to_undo_or_redo(journal):
    session = start(journal)
    for action, key in ((session.undo, "core.error.nothing_to_undo"),
                        (session.redo, "core.error.nothing_to_redo")):
        with pytest.raises(RuleError) as caught:
            action()
        assert caught.value.message.key == key
    assert journal.entries(session.game_id) == []
    assert session.next_undo() is None and session.next_redo() is None


def test_a_bad_setup_writes_no_game(journal):
    with pytest.raises(RuleError):
        Session.start(RULES, journal, setup(players=1))
    assert journal.games() == []


def test_every_command_is_undoable_and_redoable(journal):
    session = start(journal, players=3, treasures={"red": 30, "green": 45, "blue": 55})
    updates: list[Update] = []
    session.subscribe(updates.append)
    done: set[type] = set()

    def check(command):
        before = session.state
        events = session.dispatch(command)
        after = session.state
        assert updates[-1] == Update("do", command, events, after)
        assert session.next_undo() == command
        assert session.undo() == command
        assert session.state == before
        assert updates[-1] == Update("undo", command, (), before)
        assert session.next_redo() == command
        assert session.redo() == command
        assert session.state == after
        assert updates[-1] == Update("redo", command, events, after)
        done.add(type(command))

    def until_power():
        for _ in range(12):
            if session.state.pending_powers:
                return
            check(c.MoveTime(1))
        raise AssertionError("no power space reached")

    check(c.EnterRoll("chevron1", "red", "clock2"))
    check(c.SetDie("clock", "clock1"))
    check(c.Reroll("colour"))
    until_power()
    check(c.ActivatePower(CHARACTERS[2]))
    check(c.FlipPowerDown(CHARACTERS[2]))
    check(c.MoveTime(-1))
    check(c.MoveTreasure("blue", -1))
    check(c.MoveTreasure("blue", 1))
    check(c.Recover("green"))
    check(c.PlaceTreasure("green", 20))
    check(c.MarkLost("blue"))
    check(c.PlaceTreasure("blue", 55))
    until_power()
    check(c.SkipPower())
    check(c.SetPlayer(NAMES[2]))
    check(c.Roll())
    assert done == set(c.COMMANDS.values())
    # and the whole story undoes back to the start
    while session.can_undo():
        session.undo()
    assert session.state == RULES.initial_state(session.setup)


def test_undo_a_roll_then_roll_again_gives_the_same_faces(journal):
    session = start(journal, seed=2024)
    for _ in range(5):
        first = session.dispatch(c.Roll())
        session.undo()
        assert session.dispatch(c.Roll()) == first
        if session.state.pending_powers:
            session.dispatch(c.SkipPower())
    # and re-rolls too: undoing a re-roll cannot fish for a better face
    session.dispatch(c.Roll())
    rerolled = session.dispatch(c.Reroll("professor"))
    session.undo()
    assert session.dispatch(c.Reroll("professor")) == rerolled


def test_a_new_command_drops_the_redo_tail(journal):
    session = start(journal)
    session.dispatch(c.MoveTime(1))
    session.dispatch(c.MoveTime(1))
    session.undo()
    assert session.can_redo()
    session.dispatch(c.Recover("red"))
    assert not session.can_redo()
    assert [type(step.command) for step in session.steps] == [c.MoveTime, c.Recover]


def test_a_finished_game_refuses_rolls_but_can_be_undone(journal):
    session = start(journal, recovered_to_win=1)
    session.dispatch(c.Recover("red"))
    assert session.state.outcome == "won"
    with pytest.raises(RuleError) as caught:
        session.dispatch(c.Roll())
    assert caught.value.message.key == "evil.error.game_over"
    session.undo()
    assert session.state.outcome is None
    session.dispatch(c.Roll())


def test_observers_can_unsubscribe(journal):
    session = start(journal)
    seen: list[Update] = []
    session.subscribe(seen.append)
    session.dispatch(c.MoveTime(1))
    session.unsubscribe(seen.append)
    session.unsubscribe(seen.append)  # twice is harmless
    session.dispatch(c.MoveTime(1))
    assert len(seen) == 1


def test_resume_rebuilds_the_stacks_including_the_redo_tail(journal):
    session = start(journal, seed=8)
    for _ in range(6):
        if session.state.pending_powers:
            session.dispatch(c.SkipPower())
        session.dispatch(c.Roll())
    session.undo()
    session.undo()
    session.redo()
    again = Session.resume(RULES, journal, session.game_id)
    assert history_of(again) == history_of(session)
    assert again.next_redo() == session.next_redo()
    expected = session._history.peek_redo().after
    again.redo()  # the resumed session carries on (the old one is no longer used)
    assert again.state == expected


def test_a_failing_observer_does_not_keep_the_others_from_the_update(journal):
    session = start(journal)
    seen: list[str] = []

    def broken(update):
        seen.append("broken")
        raise OSError("serial port gone")

    session.subscribe(broken)
    session.subscribe(lambda update: seen.append(update.verb))
    with pytest.raises(OSError):
        session.dispatch(c.MoveTime(1))
    assert seen == ["broken", "do"]
    assert session.state.time == 1  # the action is done and durable
    assert len(journal.entries(session.game_id)) == 1


def test_a_journal_these_rules_cannot_replay_says_which_game(journal, tmp_path):
    session = start(journal)
    session.dispatch(c.Recover("red"))
    # a second Recover of the same colour, as a journal written elsewhere could hold
    journal._db.execute(
        "INSERT INTO actions(game_id, seq, verb, command, events, at)"
        " VALUES (?, 1, 'do', '{\"type\":\"Recover\",\"colour\":\"red\"}', '[]', 0)",
        (session.game_id,))
    with pytest.raises(JournalError) as caught:
        Session.resume(RULES, journal, session.game_id)
    assert caught.value.message.key == "core.error.replay"
    assert caught.value.message.params["game"] == session.game_id
    assert caught.value.message.params["reason"].key == "evil.error.slot_empty"
    text = Translator("en").message(caught.value.message)
    assert text == (f"Game {session.game_id} could not be replayed: "
                    "There is no red treasure in play.")
    journal._db.execute("UPDATE actions SET command = '{\"type\":\"Teleport\"}' WHERE seq = 1")
    with pytest.raises(JournalError) as caught:
        Session.resume(RULES, journal, session.game_id)
    assert caught.value.message.params["reason"].key == "core.error.unknown_command"
