"""A snapshot row is never trusted more than its journal (issue 33, item 3): whatever is
changed in any column of one, the game resumes to the state a full replay gives, or the
snapshot is passed over; `companion journal check` compares every snapshot with the
replay, reports the ones that differ, and `--salvage` rebuilds them."""

from __future__ import annotations

import json
import shutil
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from companion.games import rules_for
from companion.journal import FILE_NAME, Journal
from companion.journal_check import check, rebuild_snapshots
from companion.session import History, Session, replay
from companion.snapshot import FORMAT, SnapshotError, decode, encode, seal, unseal, version
from tests.helpers.evil import setup as evil_setup
from tests.test_core_snapshots import _play_one
from ui.commands.cli import main as companion

COLUMNS = ("game_id", "seq", "done", "version", "state")


def _played(folder: Path) -> tuple[Path, int, int]:
    """Two Pr. Evil games, the second with undos and redos among its 60 actions, a
    snapshot every 7 actions: the journal's path and the games' ids."""
    path = folder / FILE_NAME
    journal = Journal(path)
    rules = rules_for("evil")
    other = Session.start(rules, journal, evil_setup(seed=3))
    other.snapshot_every = 5
    for _ in range(12):
        _play_one(other)
    session = Session.start(rules, journal, evil_setup(seed=11))
    session.snapshot_every = 7
    for n in range(60):
        if session.state.outcome is not None:
            break
        if n % 9 == 4 and session.can_undo():
            session.undo()
        elif n % 9 == 6 and session.can_redo():
            session.redo()
        else:
            _play_one(session)
    journal.close()
    return path, other.game_id, session.game_id


@pytest.fixture(scope="module")
def night() -> Any:
    with tempfile.TemporaryDirectory(prefix="snapshot-trust-") as tmp:
        path, other, game = _played(Path(tmp))
        yield path, other, game


def _full(journal: Journal, game_id: int) -> History:
    return replay(rules_for("evil"), journal.game(game_id).setup, journal.entries(game_id))


def _same(session: Session, full: History) -> None:
    history = session._history
    assert session.state == full.state
    assert (history.cursor, len(history)) == (full.cursor, len(full.steps))
    assert session.can_redo() == full.can_redo()


def _rows(path: Path, game_id: int) -> list[tuple[Any, ...]]:
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT rowid, game_id, seq, done, version, state FROM snapshots"
                          " WHERE game_id = ? ORDER BY seq", (game_id,)).fetchall()
    finally:
        db.close()


def _update(path: Path, sql: str, params: tuple[Any, ...] = ()) -> None:
    db = sqlite3.connect(path)
    try:
        db.execute(sql, params)
        db.commit()
    finally:
        db.close()


def _resumes_as_a_full_replay(path: Path, game_id: int) -> None:
    journal = Journal(path)
    full = _full(journal, game_id)
    _same(Session.resume(rules_for("evil"), journal, game_id), full)
    resumed = Session.resume(rules_for("evil"), journal, game_id, journal.game(game_id))
    _same(resumed, full)
    # the next action is written where it belongs: a fresh resume sees it (the last
    # command undone and played again: a "do", though the game may be over)
    resumed.dispatch(resumed.undo())
    full = _full(journal, game_id)
    again = Session.resume(rules_for("evil"), journal, game_id)
    _same(again, full)
    # and undoing from it walks the full replay's states back to the start
    while again.can_undo():
        again.undo()
        assert again.state == full.step(again._history.cursor).before
    journal.close()


#: what a stored column can become: other numbers (a flipped bit among them), text,
#: bytes, nothing, JSON of another shape
def _values(original: Any) -> st.SearchStrategy[Any]:
    flips = st.integers(0, 40).map(lambda bit: original ^ (1 << bit)) if isinstance(
        original, int) else st.nothing()
    near = st.integers(-3, 3).map(lambda d: original + d) if isinstance(
        original, int) else st.nothing()
    text = st.nothing()
    if isinstance(original, str) and original:
        text = st.tuples(st.integers(0, len(original) - 1), st.integers(0, 6)).map(
            lambda at: _flip_char(original, *at))
    return st.one_of(flips, near, text, st.integers(-(2**63), 2**63 - 1), st.text(max_size=30),
                     st.binary(max_size=30), st.none(), st.floats(allow_nan=False),
                     st.sampled_from(("{}", "[]", '{"!": "EvilState"}', "x:{}",
                                      "0" * 16 + ":{}", f"{FORMAT}:EvilState:0")))


def _flip_char(text: str, at: int, bit: int) -> str:
    flipped = chr(ord(text[at]) ^ (1 << bit))
    return text[:at] + flipped + text[at + 1:]


@given(data=st.data())
def test_any_snapshot_column_changed_resumes_as_a_full_replay_or_is_reported_and_rebuilt(
        night: Any, data: st.DataObject) -> None:
    source, other, game = night
    with tempfile.TemporaryDirectory(prefix="snapshot-trust-") as tmp:
        path = Path(tmp) / FILE_NAME
        shutil.copy(source, path)
        rows = _rows(path, data.draw(st.sampled_from((game, other)), label="game"))
        rowid, *columns = data.draw(st.sampled_from(rows), label="row")
        column = data.draw(st.sampled_from(COLUMNS), label="column")
        original = columns[COLUMNS.index(column)]
        value = data.draw(_values(original), label="value")
        assume(value != original or type(value) is not type(original))
        try:
            _update(path, f"UPDATE snapshots SET {column} = ? WHERE rowid = ?", (value, rowid))
        except sqlite3.IntegrityError:  # another snapshot of that game already there
            assume(False)
        stored = [r for r in _rows(path, columns[0]) + _rows(path, other) + _rows(path, game)
                  if r[0] == rowid]
        assume(stored and tuple(stored[0][1:]) != tuple(columns))  # SQLite may coerce

        report = check(path)
        new_version = stored[0][4]
        if isinstance(new_version, str) and not new_version.startswith(f"{FORMAT}:"):
            assert not report.snapshots  # another codec's: never read, nothing to say
        else:
            assert rowid in {m.rowid for m in report.snapshots}, (column, value)
            assert not report.damages and report.integrity == "ok"
        for game_id in (game, other):
            _resumes_as_a_full_replay(path, game_id)
        rebuild_snapshots(path)
        assert check(path).ok


def _tampered(night: Any, tmp_path: Path, sql: str) -> tuple[Path, int]:
    source, _, game = night
    path = tmp_path / FILE_NAME
    shutil.copy(source, path)
    newest = _rows(path, game)[-1]
    _update(path, sql.format(rowid=newest[0], game=game), ())
    return path, game


#: the damage a snapshot row met in the attack on the previous version (issue 33, item 3)
DAMAGES = {
    "seq off by one bit":
        "UPDATE snapshots SET seq = (seq | 64) - (seq & 64) WHERE rowid = {rowid}",
    "seq one further": "UPDATE snapshots SET seq = seq + 1 WHERE rowid = {rowid}",
    "seq one back": "UPDATE snapshots SET seq = seq - 1 WHERE rowid = {rowid}",
    "seq far past the journal": "UPDATE snapshots SET seq = 1000000 WHERE rowid = {rowid}",
    "done one more": "UPDATE snapshots SET done = done + 1 WHERE rowid = {rowid}",
    "done one less": "UPDATE snapshots SET done = done - 1 WHERE rowid = {rowid}",
    "done past seq": "UPDATE snapshots SET done = seq + 5 WHERE rowid = {rowid}",
    "state nested 100 000 deep": "UPDATE snapshots SET state = substr(state, 1, 17) ||"
        " replace(hex(zeroblob(50000)), '00', '[') || replace(hex(zeroblob(50000)), '00', ']')"
        " WHERE rowid = {rowid}",
    "state of an older snapshot": "UPDATE snapshots SET state = (SELECT state FROM snapshots"
        " WHERE game_id = {game} ORDER BY seq LIMIT 1) WHERE rowid = {rowid}",
    "a digit of the state changed": "UPDATE snapshots SET state = replace(state, '55', '56')"
        " WHERE rowid = {rowid}",
    "another game's": "UPDATE snapshots SET game_id = game_id - 1 WHERE rowid = {rowid}",
    "not text": "UPDATE snapshots SET state = 12 WHERE rowid = {rowid}",
}


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_each_damage_met_before_is_passed_over_reported_and_rebuilt(
        night: Any, tmp_path: Path, damage: str, capsys: Any) -> None:
    path, game = _tampered(night, tmp_path, DAMAGES[damage])
    _resumes_as_a_full_replay(path, game)
    shutil.copy(night[0], path)  # the resume above played on: tamper again
    path, game = _tampered(night, tmp_path, DAMAGES[damage])
    assert companion(["journal", "check", "--journal", str(path)]) == 1
    out = capsys.readouterr().out
    assert "snapshot after action" in out and "only snapshots change" in out
    assert "Nothing is damaged" not in out
    assert companion(["journal", "check", "--salvage", "--journal", str(path)]) == 0
    assert "Snapshots rebuilt: 1." in capsys.readouterr().out
    assert not list(tmp_path.glob("*.before-salvage-*"))  # rebuilt in place
    assert companion(["journal", "check", "--journal", str(path)]) == 0
    journal = Journal(path)
    resumed = Session.resume(rules_for("evil"), journal, game)
    _same(resumed, _full(journal, game))
    journal.close()


def _resealed(path: Path, game: int, change: Any) -> None:
    """The newest snapshot rewritten with a seal that fits: what a crafted backup or a
    bug could hold, which no checksum tells apart."""
    rowid, _, seq, done, stamp, stored = _rows(path, game)[-1]
    text = unseal(game, seq, done, stamp, stored)
    seq, done, text = change(seq, done, text)
    _update(path, "UPDATE snapshots SET seq = ?, done = ?, state = ? WHERE rowid = ?",
            (seq, done, seal(game, seq, done, stamp, text), rowid))


def _field(name: str, value: Any) -> Any:
    """A change of the snapshot's state: its `name` field set to `value`."""
    def change(seq: int, done: int, text: str) -> tuple[int, int, str]:
        state = json.loads(text)
        assert name in state
        state[name] = value
        return seq, done, json.dumps(state)
    return change


def _chain(depth: int) -> Any:
    """A state before the roll holding a state before the roll... `depth` deep."""
    def change(seq: int, done: int, text: str) -> tuple[int, int, str]:
        state = json.loads(text)
        inner = dict(state, before_roll=None)
        for _ in range(depth):
            inner = dict(state, before_roll=inner)
        return seq, done, json.dumps(inner)
    return change


@pytest.mark.parametrize("change", [
    _field("turn", "7"),  # a text where a number is declared
    _field("seed", True),  # a bool is no number here
    _field("slots", 5),  # a number where a tuple of treasures is
    _field("players", [["Ann"]]),  # a list where a player is
    _field("players", [[[[[]]]]] * 3),
    _field("outcome", 1),  # a number where text or nothing is
    _field("last_roll", {"!": "Treasure", "colour": "red", "minutes": 5, "steps": 1}),
    _field("players", ("[" * 5000) + ("]" * 5000)),  # a text: not a tuple
    _chain(60), _chain(900),  # a state nested far deeper than a roll keeps
    lambda seq, done, text: (seq - 3, done, text),  # no "do" just before it
    lambda seq, done, text: (seq + 100, done, text),  # past the last action
], ids=["text for int", "bool for int", "int for tuple", "list for record", "nested lists",
        "int for text", "another record", "a text", "chain 60", "chain 900", "no do before",
        "past the end"])
def test_a_resealed_snapshot_that_does_not_fit_is_passed_over(
        night: Any, tmp_path: Path, change: Any) -> None:
    path, game = _tampered(night, tmp_path, "SELECT {rowid}, {game}")
    _resealed(path, game, change)
    _resumes_as_a_full_replay(path, game)


def test_a_resealed_state_of_the_right_types_but_wrong_is_reported_by_the_check(
        night: Any, tmp_path: Path) -> None:
    """No checksum can tell a crafted state (of the right types) from the real one:
    the check's replay does, and rebuilds it."""
    path, game = _tampered(night, tmp_path, "SELECT {rowid}, {game}")
    turn = json.loads(unseal(game, *_rows(path, game)[-1][2:]))["turn"]
    _resealed(path, game, _field("turn", turn + 1))
    report = check(path)
    assert [m.reason for m in report.snapshots] == ["state: not the replay's"]
    rebuild_snapshots(path)
    assert check(path).ok
    _resumes_as_a_full_replay(path, game)


@pytest.mark.parametrize("kind", ["evil", "castor", "bond", "tray"])
def test_every_state_field_is_checked_against_its_declared_type(kind: str) -> None:
    """Every game's state type is one the decoder can check field by field (an
    unknown kind of annotation would refuse every snapshot: a full replay each time),
    and a value of another type in any field of it is refused."""
    from tests.helpers.tables import table_setup

    rules = rules_for(kind)
    state = rules.initial_state(table_setup(kind))
    assert decode(rules.state_type, encode(state)) == state
    plain = json.loads(encode(state))
    for name, value in plain.items():
        if name == "!":
            continue
        for wrong in (True, "x", 1.5, [[["deep"]]], {"!": "Nothing"}):
            if type(wrong) is type(value) or (value is None and isinstance(wrong, str)):
                continue  # of the field's own type (or a text where text or None is)
            with pytest.raises(SnapshotError):
                decode(rules.state_type, json.dumps(dict(plain, **{name: wrong})))


def test_the_version_names_the_sealed_codec() -> None:
    assert version(rules_for("evil").state_type).startswith(f"{FORMAT}:EvilState:")
    assert FORMAT == 2
