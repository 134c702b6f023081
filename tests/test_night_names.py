"""Hostile names: refused at the roster and at a new game's setup, neutralised in the CSV.

Names are typed at the table and end up in a spreadsheet: a name that a spreadsheet
would run as a formula is written as text in the CSV, while the BG Stats file keeps the
exact name.
"""

from __future__ import annotations

import csv
import io
import json
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games import rules_for
from companion.i18n import Translator
from companion.journal import Journal
from companion.messages import RuleError
from companion.names import NAME_MAX, check_name, clean_name, tidy_name
from companion.night import export, roster
from companion.session import Session
from tests.test_night_support import castor, open_journal, params, sheet


@pytest.fixture
def journal(tmp_path: Path) -> Journal:
    return open_journal(tmp_path)


@pytest.mark.parametrize("name", ["Ann", "Zoé", "Jean-Luc", "O'Brien", "李小龙",
                                  "x" * NAME_MAX, "  Ann   Lee  "])
def test_ordinary_names_pass(name: str) -> None:
    assert check_name(name) is None


@pytest.mark.parametrize(("name", "key"), [
    ("", "core.error.empty_name"),
    ("   ", "core.error.empty_name"),
    ("\u200b\u200d", "core.error.empty_name"),  # zero-width: nothing to see
    ("x" * (NAME_MAX + 1), "core.error.name_long"),
    ("x" * 10_000, "core.error.name_long"),
    ("Ann\x00", "core.error.name_control"),
    ("Ann\nBob", "core.error.name_control"),
    ("Ann\tBob", "core.error.name_control"),
    ("\x1b[31mAnn", "core.error.name_control"),
    ("Ann\u2028", "core.error.name_control"),
    *[(f"Ann{chr(c)}nnA", "core.error.name_bidi")
      for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))],
])
def test_hostile_names_are_refused_with_a_reason(name: str, key: str) -> None:
    problem = check_name(name)
    assert problem is not None and problem.key == key
    for lang in ("en", "fr"):  # the message reads in both languages, with its values
        text = Translator(lang).message(problem)
        assert "{" not in text and text


def test_the_length_is_counted_on_the_name_as_kept() -> None:
    spaced = "  " + "a " * (NAME_MAX // 2) + "  "
    assert len(clean_name(spaced)) <= NAME_MAX and check_name(spaced) is None
    assert check_name("x" * (NAME_MAX + 1)).params == {"n": NAME_MAX, "length": NAME_MAX + 1}


def test_the_roster_refuses_them_and_keeps_nothing(journal: Journal) -> None:
    ann = roster.add(journal, "Ann")
    for bad in ("x" * 10_000, "Eve\u202e", "Nul\x00"):
        started = time.monotonic()
        with pytest.raises(RuleError):
            roster.add(journal, bad)
        with pytest.raises(RuleError):
            roster.rename(journal, ann.id, bad)
        assert time.monotonic() - started < 0.5
    assert [p.name for p in roster.players(journal)] == ["Ann"]


def _setup(name: str) -> dict[str, Any]:
    return {"params": params("bond"), "seed": 1,
            "players": [{"name": "Ann"}, {"name": name}]}


@pytest.mark.parametrize("bad", ["x" * 10_000, "Eve\u202e", "Nul\x00"])
def test_a_new_game_refuses_them_before_writing_anything(journal: Journal, bad: str) -> None:
    with pytest.raises(RuleError) as err:
        Session.start(rules_for("bond"), journal, _setup(bad))
    assert err.value.message.key.startswith("core.error.name_")
    assert journal.read("SELECT COUNT(*) FROM games") == [(0,)]


def test_a_game_already_in_the_journal_keeps_its_long_name(journal: Journal) -> None:
    # written before names were limited: it must still resume as it was played
    long = "x" * (NAME_MAX + 6)
    game = journal.create_game("bond", _setup(long), {})
    resumed = Session.resume(rules_for("bond"), journal, game)
    assert resumed.state.players[1].name == long


def test_an_older_games_names_join_the_roster_tidied(journal: Journal) -> None:
    # games written before the limit, never linked: the roster gets acceptable names
    long, hidden = "y" * 10_000, "Eve\u202egnirts\x00"
    journal.create_game("bond", _setup(long), {})
    journal.create_game("bond", {"params": params("bond"), "seed": 2,
                                 "players": [{"name": hidden}, {"name": "\x00\u202e"}]}, {})
    assert roster.link_missing(journal) == 2
    names = sorted(p.name for p in roster.players(journal))
    assert names == sorted(["Ann", "y" * NAME_MAX, "Evegnirts"])
    assert all(check_name(name) is None for name in names)


FORMULAS = ["=HYPERLINK(\"http://x\")", "+1+1", "-2+3", "@SUM(A1)"]


def test_csv_cells_that_read_as_formulas_are_neutralised(journal: Journal) -> None:
    ids = [roster.add(journal, name).id for name in FORMULAS]
    castor(journal, ids[:3], [sheet([5, 4, 1], [1, 1, 2], [0, 0, 3])] * 2)
    castor(journal, ids[1:], [sheet([5, 4, 0], [1, 1, 2], [0, 0, 3])] * 2)
    rows = list(csv.DictReader(io.StringIO(export.csv_text(journal))))
    names = {row["player"] for row in rows}
    assert names == {"'" + name for name in FORMULAS}
    assert {row["name_then"] for row in rows} == names
    for row in rows:  # numbers stay numbers: a negative score is no formula
        assert row["score"] == "" or row["score"].lstrip("-").isdigit()
    # the BG Stats file keeps each name exactly as it was typed
    data = json.loads(export.bgstats_text(journal))
    assert {p["name"] for p in data["players"] if not p["isAnonymous"]} == set(FORMULAS)


@pytest.mark.parametrize(("text", "shown"), [
    ("=1+1", "'=1+1"), ("+1", "'+1"), ("-1", "'-1"), ("@A1", "'@A1"),
    ("\tx", "'\tx"), ("\rx", "'\rx"), ("Ann", "Ann"), ("A=1", "A=1"), ("", ""),
])
def test_neutralise(text: str, shown: str) -> None:
    assert export.neutralise(text) == shown


@pytest.mark.parametrize(("text", "tidy"), [
    ("Ann", "Ann"), ("  Ann  ", "Ann"), ("A\x00n\u202en", "Ann"), ("x" * 30, "x" * NAME_MAX),
    ("\x00", ""), ("a" * 23 + " b", "a" * 23),
])
def test_tidy_name(text: str, tidy: str) -> None:
    assert tidy_name(text) == tidy


# -- text an earlier version, a restore or an import let in: tidied where it is read ------
HIDING = "\x00\x1b\u202e\u2066\u2028\n\t"  # NUL, ESC, a bidi override, an isolate...


def _legacy_player(journal: Journal, name: str) -> int:
    """A roster row as an earlier version (or a restored backup of one) left it."""
    from companion.journal import fold_name

    with journal.writing() as db:
        cursor = db.execute("INSERT INTO players(name, folded, created) VALUES (?, ?, ?)",
                            (name, fold_name(name), 0.0))
    return int(cursor.lastrowid or 0)


def _legacy_bond_game(journal: Journal, names: list[str]) -> int:
    """A finished Bond game whose setup holds names typed before they were checked."""
    from companion.games.bond import commands as bc

    game = journal.create_game("bond", {"params": params("bond"), "seed": 1,
                                        "players": [{"name": n} for n in names]}, {})
    session = Session.resume(rules_for("bond"), journal, game)
    session.dispatch(bc.AddLairCard(1, 4))
    session.dispatch(bc.Attack(1, (3,)))
    session.dispatch(bc.Kill())
    session.dispatch(bc.EndGame())
    return game


def _clean(text: str) -> bool:
    return not any(ch in text for ch in HIDING)


def test_an_older_journals_names_are_tidied_wherever_they_are_read(journal: Journal) -> None:
    from companion.night import history

    stored = "\u202eZed\x00" + "z" * 10_000
    zed = _legacy_player(journal, stored)
    long, hidden = "Eve\u202egnirts\x1b[31m" + "y" * 10_000, "Nul\x00l\tTab\u2028"
    game = _legacy_bond_game(journal, [long, hidden])
    # the roster: as long and as clean as a typed name; the row is kept as it was
    shown = {p.id: p.name for p in roster.players(journal)}
    assert shown[zed] == ("Zed" + "z" * 10_000)[:NAME_MAX]
    assert all(check_name(name) is None for name in shown.values())
    assert journal.read("SELECT name FROM players WHERE id = ?", (zed,)) == [(stored,)]
    # History's lines and a game's log
    line = history.game(journal, game)
    assert [s.name_then for s in line.seats] == [("Evegnirts[31m" + "y" * 10_000)[:NAME_MAX],
                                                 "Null Tab"]
    assert all(check_name(s.name) is None for s in line.seats)
    tr = Translator("en")
    said = [tr.message(m) for entry in history.log(journal, game) for m in entry.details]
    assert said and all(_clean(text) and len(text) < 300 for text in said)
    assert any("Null Tab" in text for text in said)
    # a game's score lines (Statistics)
    from companion.night import stats

    assert stats.score_lines(journal, game).names == tuple(s.name_then for s in line.seats)
    # a new game from the roster: the player is offered and the game starts
    other = roster.add(journal, "Ann").id
    players = roster.setup_players(journal, [zed, other])
    Session.start(rules_for("bond"), journal, {"params": params("bond"), "seed": 3,
                                               "players": players})


def test_exports_carry_no_hidden_character(journal: Journal) -> None:
    _legacy_bond_game(journal, ["Eve\u202egnirts\x1b[31m", "Nul\x00l\tTab"])
    text = export.csv_text(journal)
    assert _clean(text.replace("\n", "")) and "Evegnirts[31m" in text
    assert list(csv.DictReader(io.StringIO(text)))[1]["name_then"] == "Null Tab"
    data = json.loads(export.bgstats_text(journal))
    names = [p["name"] for p in data["players"] if not p["isAnonymous"]]
    assert sorted(names) == ["Evegnirts[31m", "Null Tab"]
    assert all(_clean(json.dumps(play, ensure_ascii=False)) for play in data["plays"])


@given(text=st.text(st.characters(codec="utf-8"), max_size=300)
       | st.text(st.sampled_from(["a", "é", " ", *HIDING, "\u200d", "\xa0"]), max_size=300),
       limit=st.integers(1, 60))
def test_tidy_text_reads_only_what_it_needs_and_gives_what_a_full_tidy_would(
        text: str, limit: int) -> None:
    from companion.names import tidy_text

    whole = tidy_text(text)
    assert _clean(whole) and whole == whole.strip() and "  " not in whole
    assert tidy_text(text, limit) == whole[:limit].strip()


def test_a_long_name_is_tidied_from_its_head(monkeypatch: pytest.MonkeyPatch) -> None:
    import companion.names as names

    read: list[int] = []
    tidy = names._tidy
    monkeypatch.setattr(names, "_tidy", lambda raw: (read.append(len(raw)), tidy(raw))[1])
    assert tidy_name("\u202e" + "y" * 1_000_000) == "y" * NAME_MAX
    assert max(read) <= 4 * NAME_MAX + 16  # not the million characters


def test_messages_name_players_as_typed_names_read() -> None:
    # the turn card, dialogs' titles, the log: an older game's names come as parameters
    from companion.i18n import Translator
    from companion.names import display_name

    tr = Translator("en")
    hostile = "Eve\u202e\x1b[31m" + "y" * 10_000
    tidy = ("Eve[31m" + "y" * 10_000)[:NAME_MAX]
    assert tr("evil.ui.turn", turn=1, player=hostile) == "Turn 1: " + tidy
    assert tr("evil.ui.turn", turn=1, player="Zoé") == "Turn 1: Zoé"  # typed: as it is
    said = tr("castor.say.game_shared", players="Ann, \x00Bob")
    assert said.startswith("Ann, Bob")
    # a parameter that is not a player's name is left whole (a difficulty, a file name)
    long_title = tr("evil.ui.difficulty", name="First games (without the 55s)")
    assert long_title.endswith("(without the 55s)")
    assert display_name("\x00\u202e") == "?" and display_name("Ann") == "Ann"
