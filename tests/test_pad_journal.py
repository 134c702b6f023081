"""The score pad through the session and a journal file: a power cut mid-game gives
back the same sheet on the same cell, and a resume from a snapshot equals the replay."""

from __future__ import annotations

from companion.games.pad import commands as c
from companion.games.pad.rules import RULES
from companion.games.pad.view import sheet_view, standings_view
from companion.journal import FILE_NAME, Journal
from companion.session import Session, replay
from tests.pad_helpers import setup


def test_a_power_cut_mid_entry_reopens_on_the_same_cell(tmp_path):
    path = tmp_path / FILE_NAME
    journal = Journal(path)
    session = Session.start(RULES, journal, setup("rounds-highest", 4))
    for r in range(3):
        for seat in range(4):
            session.dispatch(c.SetCell(seat, r, None, f"{seat}+{r}"))
    session.dispatch(c.SetCell(0, 3, None, "7"))
    session.dispatch(c.SetCell(1, 3, None, "-2"))
    session.dispatch(c.SetCell(1, 1, None, "10"))  # a correction of round 2 on round 4
    session.undo()
    state, game_id = session.state, session.game_id
    summary = RULES.summary(state)
    journal.close()  # the power goes off

    journal = Journal(path)
    resumed = Session.resume(RULES, journal, game_id)
    assert resumed.state == state
    view = sheet_view(resumed.state)
    assert view.current == (3, None) and view.current_seat == 2  # the same cell
    assert journal.game(game_id).summary == summary and not summary["finished"]
    assert resumed.next_redo() == c.SetCell(1, 1, None, "10")  # still redoable
    resumed.redo()
    assert resumed.state.rounds[1][1].value == 10
    journal.close()


def test_a_finished_game_resumed_from_its_snapshot_equals_its_replay(tmp_path):
    path = tmp_path / FILE_NAME
    journal = Journal(path)
    data = setup("7-wonders", 3)
    session = Session.start(RULES, journal, data)
    session.snapshot_every = 7
    ids = [cat.id for cat in session.state.template.categories if cat.entered]
    for i, ident in enumerate(ids):
        for seat in range(3):
            session.dispatch(c.SetCell(seat, None, ident, str((i + seat) % 4)))
    session.dispatch(c.SetCell(2, None, "military", "25"))  # out of range: noted
    session.dispatch(c.End())
    game_id = session.game_id
    journal.close()

    journal = Journal(path)
    assert journal.game(game_id).finished
    resumed = Session.resume(RULES, journal, game_id)
    replayed = replay(RULES, data, journal.entries(game_id))
    assert resumed.state == replayed.state == session.state
    assert standings_view(resumed.state) == standings_view(session.state)
    while resumed.can_undo():  # the steps before the snapshot are rebuilt when undone
        resumed.undo()
    assert resumed.state == RULES.initial_state(data)
    journal.close()


def test_the_games_log_shows_entries_and_corrections(tmp_path):
    from companion.i18n import Translator
    from companion.night.history import log

    journal = Journal(tmp_path / FILE_NAME)
    session = Session.start(RULES, journal, setup("rounds-highest", 2))
    session.dispatch(c.SetCell(0, 0, None, "3+6+2"))
    session.dispatch(c.SetCell(1, 0, None, "5"))
    session.dispatch(c.SetCell(1, 0, None, "7"))
    session.undo()
    tr = Translator("en")
    lines = [(tr.message(line.title), [tr.message(d) for d in line.details])
             for line in log(journal, session.game_id)]
    assert lines[0] == ("Score entered", ["Round 1 begins", "Round 1, Ann: 3+6+2 = 11"])
    assert lines[2] == ("Score entered", ["Round 1, Bob: 5 → 7"])
    assert lines[3] == ("Undone: Score entered", [])
    journal.close()
