"""The score pad's `Penalty`: points from the clock running beside the game. Issue 31:
"What happens at zero, per preset: ... a penalty in points per started interval written
into the score pad game it runs beside". Taken from the total where the highest wins,
added where the lowest wins; journaled, logged and undone like any entry."""

from __future__ import annotations

import pytest

from companion.games.pad import commands as c
from companion.games.pad.outcome import outcome
from companion.games.pad.rules import RULES, describe
from companion.games.pad.view import sheet_view
from companion.i18n import Translator
from companion.journal import Journal
from companion.messages import RuleError
from companion.session import Session
from tests.pad_helpers import play, setup, start


def test_a_penalty_takes_points_from_the_total_where_the_highest_wins() -> None:
    state = play(start("rounds-highest", 3), c.SetCell(0, 0, None, "10"),
                 c.SetCell(1, 0, None, "9"))
    after, events = RULES.apply(state, c.Penalty(0, 2))
    assert after.penalties == (2, 0, 0)
    assert outcome(after).totals == (8, 9, 0)  # 10 - 2
    assert [col.total for col in sheet_view(after).columns][:2] == [8, 9]
    assert outcome(after).ranks[:2] == (2, 1)  # Bob leads now
    again, _ = RULES.apply(after, c.Penalty(0, 1))
    assert again.penalties == (3, 0, 0) and outcome(again).totals[0] == 7
    tr = Translator("en")
    assert [tr.message(m) for m in describe(events)] == [
        "Ann: 2 penalty points from the clock (2 in all)"]
    assert [Translator("fr").message(m) for m in describe(events)] == [
        "Ann : 2 points de pénalité de l'horloge (2 en tout)"]
    assert RULES.summary(after)["totals"][:2] == [8, 9]


def test_a_penalty_adds_points_where_the_lowest_wins() -> None:
    state = play(start("rounds-lowest", 2), c.SetCell(0, 0, None, "4"),
                 c.SetCell(1, 0, None, "5"))
    after, _ = RULES.apply(state, c.Penalty(0, 3))
    assert outcome(after).totals == (7, 5)
    assert outcome(after).ranks == (2, 1)


@pytest.mark.parametrize(("ident", "command", "key"), [
    ("coop", c.Penalty(0, 1), "pad.error.penalty_win"),
    ("rounds-highest", c.Penalty(0, 0), "pad.error.penalty_points"),
    ("rounds-highest", c.Penalty(0, -2), "pad.error.penalty_points"),
    ("rounds-highest", c.Penalty(0, 1001), "pad.error.penalty_points"),
    ("rounds-highest", c.Penalty(7, 1), "pad.error.no_seat"),
])
def test_a_penalty_that_cannot_count_is_refused_with_a_reason(ident, command, key) -> None:
    with pytest.raises(RuleError) as refused:
        RULES.apply(start(ident, 3), command)
    assert refused.value.message.key == key
    assert "pad.error" not in Translator("fr").message(refused.value.message)


def test_a_penalty_is_journaled_and_undone_alone(tmp_path) -> None:
    journal = Journal(tmp_path / "journal.sqlite3")
    session = Session.start(RULES, journal, setup("rounds-highest", 2))
    session.dispatch(c.SetCell(0, 0, None, "10"))
    session.dispatch(c.Penalty(0, 2))
    assert outcome(session.state).totals[0] == 8
    session.undo()  # the penalty only: the entry stays
    assert outcome(session.state).totals[0] == 10 and not any(session.state.penalties)
    session.redo()
    game = session.game_id
    journal.close()
    journal = Journal(tmp_path / "journal.sqlite3")
    resumed = Session.resume(RULES, journal, game)
    assert outcome(resumed.state).totals[0] == 8
    assert type(resumed.steps[-1].command).__name__ == "Penalty"
    journal.close()
