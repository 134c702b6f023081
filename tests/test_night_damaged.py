"""Issue 14, cases 2 and 3: a damaged row (not JSON, wrong types, invalid UTF-8, in
`games` or `actions`) never stops a read. Its game is listed as damaged (its log told up
to the damage, or not at all); every other game works: resume, history, statistics,
export."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games import rules_for
from companion.journal import DamagedRow, Journal
from companion.messages import CompanionError
from companion.night import export, history, roster, stats
from companion.session import Session
from tests.test_night_support import bond, castor, evil, open_journal, sheet

#: (table, column, how): each is one real way a row gets damaged
DAMAGES = [
    ("games", "setup", "not json"),
    ("games", "setup", "wrong type"),
    ("games", "setup", "not utf-8"),
    ("games", "setup", "deep"),
    ("games", "summary", "not json"),
    ("games", "summary", "wrong type"),
    ("games", "summary", "not utf-8"),
    ("games", "started", "wrong type"),
    ("games", "kind", "not utf-8"),
    ("actions", "command", "not json"),
    ("actions", "command", "wrong type"),
    ("actions", "command", "not utf-8"),
    ("actions", "events", "not json"),
    ("actions", "events", "wrong type"),
    ("actions", "events", "not utf-8"),
    ("actions", "at", "wrong type"),
]


def _value(column: str, how: str) -> object:
    if how == "not json":
        return '{"players": [{"name": "Ann"'  # a write cut short
    if how == "not utf-8":
        return sqlite3.Binary(b'{"type": "Roll\xff\xfe"}')  # stored, then cast to text
    if how == "deep":
        return "[" * 100_000 + "]" * 100_000
    return {"setup": "[1, 2, 3]", "summary": '"finished"', "started": "yesterday",
            "command": '"Roll"', "at": "later", "events": '{"type": "DiceRolled"}'}[column]


def damage(path: Path, game_id: int, table: str, column: str, how: str) -> None:
    db = sqlite3.connect(path)
    value = _value(column, how)
    where = "id = ?" if table == "games" else \
        "game_id = ? AND seq = (SELECT min(seq) + 1 FROM actions WHERE game_id = ?)"
    params = (game_id,) if table == "games" else (game_id, game_id)
    cast = "CAST(? AS TEXT)" if how == "not utf-8" else "?"
    db.execute(f"UPDATE {table} SET {column} = {cast} WHERE {where}", (value, *params))
    db.commit()
    db.close()


def a_night(tmp_path: Path) -> tuple[Journal, dict[str, int]]:
    j = open_journal(tmp_path)
    a, b = roster.add(j, "Ann").id, roster.add(j, "Bob").id
    ids = {
        "evil": evil(j, [a, b], won=True, day=0),
        "castor": castor(j, [a, b], [sheet([10, 5], [1, 2], [0, 3])] * 2, day=1),
        "bond": bond(j, [a, b], [(0, 2), (1, 3)], end=False, day=2),
        "bond_done": bond(j, [a, b], [(0, 4)], day=3),
    }
    j.close()
    return j, ids


@pytest.mark.parametrize(("table", "column", "how"), DAMAGES)
def test_a_damaged_row_is_listed_and_every_other_game_works(tmp_path, table, column, how):
    _, ids = a_night(tmp_path)
    path = tmp_path / "journal.sqlite3"
    victim = ids["bond"]  # unfinished: the one the app would resume at start
    damage(path, victim, table, column, how)

    j = Journal(path)  # opens: the file is fine, one row is not
    assert j.moved_aside is None
    records = {g.id: g for g in j.games()}
    assert set(records) == set(ids.values())
    assert [g.id for g in j.unfinished()] == [victim]
    if column == "events":  # stored events are derived: a replay computes them again
        assert Session.resume(rules_for("bond"), j, victim).can_undo()
    else:
        with pytest.raises(DamagedRow) as caught:
            Session.resume(rules_for("bond"), j, victim)
        assert caught.value.message.key in ("core.error.damaged_game",
                                            "core.error.damaged_action")

    lines = {line.id: line for line in history.games(j)}
    assert set(lines) == set(ids.values())
    assert lines[victim].status == "damaged" and lines[victim].damage
    for name, gid in ids.items():
        if gid != victim:
            assert lines[gid].status != "damaged", name
            assert history.log(j, gid)  # every other game's log reads in full
    if table == "games":
        with pytest.raises(DamagedRow):
            history.log(j, victim)
    elif column != "events":  # told up to the damage, then one line says where
        told = history.log(j, victim)
        assert [line.verb for line in told] == ["do", "damaged"]
        assert told[-1].title.key == "night.log.damaged"

    figures = stats.statistics(j)
    assert figures.damaged == (victim,)
    assert figures.kinds["castor"].games == 1 and figures.kinds["evil"].games == 1
    assert figures.kinds["bond"].games == 1  # the finished Bond game still counts
    assert stats.score_lines(j, ids["bond_done"]).points[0][-1] > 0
    with pytest.raises(DamagedRow):
        stats.score_lines(j, victim)

    rows = export.csv_text(j).splitlines()
    damaged_rows = [r for r in rows if r.startswith(f"{victim},")]
    assert len(damaged_rows) == 1 and ",damaged," in damaged_rows[0]
    assert len([r for r in rows if r.startswith(f"{ids['castor']},")]) == 2
    plays = export.bgstats(j)["plays"]
    assert len(plays) == 3  # the finished games

    # the other games go on being played and resumed
    castor_session = Session.resume(rules_for("castor"), j, ids["castor"])
    assert castor_session.can_undo()
    j.close()


def test_an_undecodable_player_name_is_shown_not_fatal(tmp_path):
    _, ids = a_night(tmp_path)
    path = tmp_path / "journal.sqlite3"
    db = sqlite3.connect(path)
    db.execute("UPDATE players SET name = CAST(? AS TEXT) WHERE id = 1",
               (sqlite3.Binary(b"An\xffn"),))
    db.commit()
    db.close()
    j = Journal(path)
    names = [s.name for s in history.game(j, ids["castor"]).seats]
    assert names[0] == "An\ufffdn" and names[1] == "Bob"
    assert stats.statistics(j).players[0].overall.games == 3
    assert "An\ufffdn" in export.csv_text(j)


COLUMNS = [("games", "setup"), ("games", "summary"), ("games", "kind"), ("games", "started"),
           ("games", "finished"), ("actions", "command"), ("actions", "events"),
           ("actions", "at"), ("actions", "seq")]


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, int]]:
    folder = tmp_path_factory.mktemp("night")
    _, ids = a_night(folder)
    return folder / "journal.sqlite3", ids


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(column=st.sampled_from(COLUMNS),
       value=st.one_of(st.binary(max_size=40), st.text(max_size=40),
                       st.integers(-(2**63), 2**63 - 1),
                       st.floats(), st.none(),
                       st.recursive(st.integers() | st.text(max_size=5),
                                    lambda inner: st.lists(inner, max_size=3)
                                    | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                                    max_leaves=8).map(json.dumps)))
def test_any_value_in_any_column_never_stops_a_read(template, tmp_path, column, value):
    source, ids = template
    path = tmp_path / f"j-{abs(hash((column, repr(value))))}.sqlite3"
    shutil.copyfile(source, path)
    table, name = column
    db = sqlite3.connect(path)
    where = "id = ?" if table == "games" else "game_id = ? AND seq = 1"
    try:
        db.execute(f"UPDATE {table} SET {name} = ? WHERE {where}", (value, ids["bond"]))
        db.commit()
    except sqlite3.IntegrityError:  # NOT NULL, primary key: SQLite refuses it itself
        db.close()
        return
    db.close()
    j = Journal(path)
    assert len(j.games()) == 4
    lines = {line.id: line for line in history.games(j)}
    for other in ("evil", "castor", "bond_done"):  # (a kind "tray" is not listed)
        assert lines[ids[other]].status != "damaged"
    for gid in ids.values():
        try:
            history.log(j, gid)
        except CompanionError:  # said on the log screen
            assert gid == ids["bond"]
    stats.statistics(j)
    export.csv_text(j)
    export.bgstats(j)
    j.close()
