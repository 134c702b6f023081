"""History lines, a past game's log as translated lines, resume and abandon."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.evil import commands as ec
from companion.i18n import Translator
from companion.messages import RuleError
from companion.night import history, roster
from tests.test_night_support import EPOCH, bond, castor, evil, open_journal, sheet, start


def test_lines_carry_what_the_history_screen_shows(tmp_path: Path) -> None:
    j = open_journal(tmp_path)
    a, b = roster.add(j, "Ann", "#112233").id, roster.add(j, "Bob").id
    e = evil(j, [a, b], won=False, difficulty="first_games", day=0)
    c = castor(j, [a, b], [sheet([10, 5], [1, 2], [0, 3])] * 2, day=1)
    lines = history.games(j)
    assert [line.id for line in lines] == [c, e]  # newest first
    ev = history.game(j, e)
    assert (ev.kind, ev.status, ev.outcome, ev.difficulty, ev.recovered, ev.lost) == (
        "evil", "finished", "lost", "first_games", 0, 1)
    assert ev.started == EPOCH and ev.duration == 30 * 60
    assert ev.winners == ()
    ca = history.game(j, c)
    assert [(s.name, s.colour, s.score, s.medals, s.winner) for s in ca.seats] == [
        ("Ann", "#112233", 36, 2, True), ("Bob", "", -6, 0, False)]
    assert [line.id for line in history.games(j, kind="evil")] == [e]
    assert [line.id for line in history.games(j, newest_first=False, limit=1)] == [e]
    assert [line.id for line in history.games(j, offset=1)] == [e]


def test_filters_by_player_and_status(tmp_path: Path) -> None:
    j = open_journal(tmp_path)
    a, b, c = (roster.add(j, n).id for n in ("Ann", "Bob", "Cy"))
    g1 = bond(j, [a, b], [], day=0)
    g2 = bond(j, [b, c], [], end=False, day=1)
    assert [line.id for line in history.games(j, player_id=c)] == [g2]
    assert [line.id for line in history.games(j, player_id=b)] == [g2, g1]
    assert [line.id for line in history.games(j, status="unfinished")] == [g2]


def test_resume_and_abandon(tmp_path: Path) -> None:
    j = open_journal(tmp_path)
    a, b = roster.add(j, "Ann").id, roster.add(j, "Bob").id
    done = bond(j, [a, b], [], day=0)
    open_ = bond(j, [a, b], [(0, 3)], end=False, day=1)
    session = history.resume(j, open_)
    assert session.state.scores == (3, 0)
    for call, key in ((history.resume, "night.error.not_resumable"),
                      (history.abandon, "night.error.not_abandonable")):
        with pytest.raises(RuleError) as exc:
            call(j, done)
        assert exc.value.message.key == key
    history.abandon(j, open_)
    assert history.game(j, open_).status == "abandoned"
    with pytest.raises(RuleError):
        history.abandon(j, open_)
    with pytest.raises(RuleError):
        history.resume(j, open_)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_evil_log_is_translated_with_undo(tmp_path: Path, language: str) -> None:
    j = open_journal(tmp_path)
    a, b = roster.add(j, "Ann").id, roster.add(j, "Bob").id
    session = start(j, "evil", [a, b], [{"character": "Nathan Goodspeed"},
                                        {"character": "Edward Wyre"}],
                    treasures={"red": 45})
    session.dispatch(ec.Roll())
    session.undo()
    session.dispatch(ec.Recover("red"))
    lines = history.log(j, session.game_id)
    assert [line.verb for line in lines] == ["do", "undo", "do"]
    tr = Translator(language)
    texts = [tr.message(line.title) for line in lines]
    assert texts[0] == tr("evil.command.Roll")
    assert texts[1] == tr("night.log.undo", what=tr("evil.command.Roll"))
    assert lines[0].details and all(tr.has(m.key) for line in lines for m in line.details)
    assert tr.message(lines[2].details[0]) != lines[2].details[0].key
    assert lines[2].details[0].key == "evil.say.recovered"


def test_castor_and_bond_logs_name_every_command(tmp_path: Path) -> None:
    j = open_journal(tmp_path)
    a, b = roster.add(j, "Ann").id, roster.add(j, "Bob").id
    gids = [castor(j, [a, b], [sheet([10, 5], [1, 2], [0, 3])]), bond(j, [a, b], [(0, 2)])]
    for language in ("en", "fr"):
        tr = Translator(language)
        for gid in gids:
            for line in history.log(j, gid):
                assert tr.has(line.title.key), line.title.key
                assert all(tr.has(m.key) for m in line.details)


def test_unknown_game_refused(tmp_path: Path) -> None:
    j = open_journal(tmp_path)
    with pytest.raises(Exception) as exc:
        history.game(j, 42)
    assert exc.value.message.key == "core.error.no_such_game"  # type: ignore[attr-defined]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_log_lines_start_with_a_capital_and_name_the_character(tmp_path: Path,
                                                              language: str) -> None:
    """Issue 29: "power activated" without the character, lower-case starts."""
    j = open_journal(tmp_path)
    a, b = roster.add(j, "Ann").id, roster.add(j, "Bob").id
    session = start(j, "evil", [a, b], [{"character": "Nathan Goodspeed"},
                                        {"character": "Edward Wyre"}],
                    treasures={"red": 45, "green": 45, "blue": 45})
    for _ in range(2):  # XII -> II -> IV: past the power space III
        session.dispatch(ec.EnterRoll("chevron1", "red", "clock2"))
    assert session.state.pending_powers
    session.dispatch(ec.ActivatePower("Edward Wyre"))
    session.undo()
    tr = Translator(language)
    texts = [tr.message(line.title) for line in history.log(j, session.game_id)]
    assert all(text[:1].isupper() for text in texts), texts
    assert "Edward Wyre" in texts[2] and "Edward Wyre" in texts[3], texts


@pytest.mark.parametrize(("language", "one", "two"), [
    ("en", "1 spy of power 3 sent", "2 spies of power 5 sent"),
    ("fr", "1 espion de puissance 3 envoyé", "2 espions de puissance 5 envoyés")])
def test_one_spy_is_said_in_the_singular(tmp_path: Path, language: str, one: str,
                                         two: str) -> None:
    from companion.games.bond import commands as bc

    j = open_journal(tmp_path)
    a, b = roster.add(j, "Ann").id, roster.add(j, "Bob").id
    session = start(j, "bond", [a, b])
    session.dispatch(bc.AddLairCard(0, 9))
    session.dispatch(bc.Attack(0, (3,)))
    session.dispatch(bc.Kill())
    session.dispatch(bc.Attack(0, (2, 3)))
    tr = Translator(language)
    said = [tr.message(m) for line in history.log(j, session.game_id) for m in line.details]
    assert any(text.startswith(one) for text in said), said
    assert any(text.startswith(two) for text in said), said


def test_a_guest_keeps_one_name_in_every_language() -> None:
    """Issue 29: "Joueur 2" in play, "Invité 2" in History, "Player 3" in a French log.
    A placeholder seat is said as the set-up says one, in the language on screen."""
    from companion.messages import msg
    from companion.night.facts import as_guests, placeholder_number

    assert placeholder_number("Player 3") == 3 and placeholder_number("joueur 12") == 12
    assert placeholder_number("Anne") is None and placeholder_number("Player") is None
    tr = Translator("fr")
    said = as_guests(msg("night.log.undo", what=msg("bond.say.killed", player="Player 3",
                                                     points=4, score=4)),
                     lambda n: tr("core.ui.player_n", n=n))
    assert "Joueur 3" in tr.message(said) and "Player" not in tr.message(said)
    kept = msg("bond.say.killed", player="Anne", points=4, score=4)
    assert as_guests(kept, lambda n: "?") == kept
