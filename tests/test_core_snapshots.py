"""Snapshots: a resumed game (newest snapshot + the actions after it) is exactly the game
a full replay of its journal gives, for every game, and undo reaches back past them."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games import rules_for
from companion.games.tray import commands as tc
from companion.journal import FILE_NAME, SCHEMA_VERSION, DamagedRow, Journal, JournalError
from companion.messages import RuleError
from companion.session import History, Session, replay
from companion.snapshot import SnapshotError, decode, encode, unseal, version
from tests import test_bond_properties as bond_props
from tests import test_castor_properties as castor_props
from tests import test_evil_properties as evil_props
from tests.helpers.evil import setup as evil_setup
from tests.test_night_support import params

SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


# -- one random table per game: a setup, and the next command given the state ---------------
def _evil_setup(data: st.DataObject) -> dict[str, Any]:
    game = data.draw(evil_props.games)
    # both roll orders: a game set up before rules versions (1) and the rulebook's (2),
    # whose roll can wait for a replacement (pending_clock in the state)
    return evil_setup(players=game["players"], seed=game["seed"], first_player=game["first"],
                      treasures=game["treasures"],
                      rules_version=data.draw(st.sampled_from((None, 2)), label="rules"))


def _evil_next(data: st.DataObject, state: Any) -> Any:
    command = data.draw(evil_props.commands)
    if isinstance(command, (tuple, str)):  # the helper's turns, undo and redo
        return evil_props.c.Roll()
    return command


def _tray_next(data: st.DataObject, state: Any) -> Any:
    n = max(len(state.dice), 1)
    return data.draw(st.one_of(
        st.builds(tc.AddDie, st.sampled_from(("d6", "d20", "fudge", "d4"))),
        st.builds(tc.RemoveDie, st.integers(0, n)),
        st.just(tc.Roll()), st.just(tc.Roll()), st.just(tc.Roll()),
        st.builds(tc.Lock, st.integers(0, n - 1)),
        st.builds(tc.Unlock, st.integers(0, n - 1)),
        st.just(tc.ClearDice()),
    ))


GAMES: dict[str, tuple[Callable[[st.DataObject], dict[str, Any]],
                       Callable[[st.DataObject, Any], Any]]] = {
    "evil": (_evil_setup, _evil_next),
    "castor": (lambda data: data.draw(castor_props.setups()),
               lambda data, state: castor_props.offered(state, data.draw)),
    "bond": (lambda data: data.draw(bond_props.setups()), bond_props.next_command),
    "tray": (lambda data: {"params": params("tray"), "seed": data.draw(st.integers(0, 999)),
                           "dice": ["d6", "d20"]}, _tray_next),
}


def _play(data: st.DataObject, kind: str, journal: Journal, every: int) -> Session:
    make_setup, next_command = GAMES[kind]
    session = Session.start(rules_for(kind), journal, make_setup(data))
    session.snapshot_every = every
    for _ in range(data.draw(st.integers(10, 70), label="actions")):
        verb = data.draw(st.sampled_from(("do",) * 5 + ("undo", "undo", "redo")))
        try:
            if verb == "undo":
                session.undo()
            elif verb == "redo":
                session.redo()
            else:
                session.dispatch(next_command(data, session.state))
        except RuleError:
            pass  # refused: nothing written
    return session


class _Counting:
    """A game's rules that count the initial states they build."""

    def __init__(self, rules: Any) -> None:
        self._rules = rules
        self.built = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._rules, name)

    def initial_state(self, setup: Any) -> Any:
        self.built += 1
        return self._rules.initial_state(setup)


def _full_replay(session: Session) -> History:
    journal = session.journal
    return replay(session.rules, session.setup, journal.entries(session.game_id))


@SETTINGS
@pytest.mark.parametrize("kind", sorted(GAMES))
@given(data=st.data(), every=st.integers(2, 9))
def test_snapshot_and_tail_is_the_full_replay(kind: str, data: st.DataObject, every: int) -> None:
    journal = Journal(":memory:")
    played = _play(data, kind, journal, every)
    full = _full_replay(played)
    # every snapshot is the state a full replay reaches at that point of the journal
    root = type(full.initial)
    entries = journal.entries(played.game_id)
    for seq, done, stamp, sealed in journal.read(
            "SELECT seq, done, version, state FROM snapshots WHERE game_id = ?",
            (played.game_id,)):
        upto = replay(played.rules, played.setup, entries[:seq])
        assert decode(root, unseal(played.game_id, seq, done, stamp, sealed)) == upto.state
        assert done == upto.cursor == len(upto.steps)  # nothing to redo after a "do"

    resumed = Session.resume(played.rules, journal, played.game_id)
    assert resumed.state == full.state == played.state
    assert (resumed._history.cursor, len(resumed._history)) == (full.cursor, len(full.steps))
    assert resumed.can_redo() == full.can_redo()
    # the stacks below the snapshot, rebuilt on demand, are the full replay's
    assert tuple(resumed._history.steps) == tuple(full.steps)

    # and undoing all the way back from a fresh resume walks the same states; one from
    # a snapshot builds the initial state only if it goes back that far (its tail can
    # undo past the snapshot; the table's undo can)
    # (this one given the row as the journal lists it, as the app's start does)
    counting = _Counting(played.rules)
    again = Session.resume(counting, journal, played.game_id, journal.game(played.game_id))
    assert again.state == resumed.state and again.setup == resumed.setup
    assert counting.built == (0 if again._history._base else 1)
    while again.can_undo():
        again.undo()
        assert again.state == full.step(again._history.cursor).before
    assert again.state == full.initial == again._history.initial
    assert counting.built == 1
    while again.can_redo():
        again.redo()
    assert again.state == (full.step(len(full) - 1).after if len(full) else full.initial)


@SETTINGS
@pytest.mark.parametrize("kind", sorted(GAMES))
@given(data=st.data())
def test_each_game_names_the_type_of_its_state(kind: str, data: st.DataObject) -> None:
    """A resume from a snapshot reads the snapshot's version from `state_type` instead
    of building the initial state: it must be the type the rules build."""
    rules = rules_for(kind)
    setup = GAMES[kind][0](data)
    assert rules.state_type is type(rules.initial_state(setup))
    rules.check_resumable(setup)  # a setup the game started with can be played on


def test_a_game_of_a_newer_rulebook_order_is_refused_though_it_has_a_snapshot(
        tmp_path: Path) -> None:
    """The initial state is not built when a snapshot is used: the rules still say
    whether they can play on the game, as building it would have (same message)."""
    path = tmp_path / FILE_NAME
    journal = Journal(path)
    played = _evil_game(journal)
    journal.close()
    setup = {**played.setup, "rules_version": 99}
    _tamper(path, f"UPDATE games SET setup = '{json.dumps(setup)}'")
    journal = Journal(path)
    with pytest.raises(JournalError) as caught:
        Session.resume(played.rules, journal, played.game_id)
    assert caught.value.message.key == "core.error.replay"
    assert caught.value.message.params["reason"].key == "evil.error.rules_version"
    journal.close()


def _evil_game(journal: Journal, rolls: int = 30, every: int = 10) -> Session:
    """A Pr. Evil game of `rolls` rolls (powers skipped, treasures placed at 55)."""
    session = Session.start(rules_for("evil"), journal, evil_setup(seed=11))
    session.snapshot_every = every
    for _ in range(rolls):
        if session.state.outcome is not None:
            break
        _play_one(session)
    return session


def _play_one(session: Session) -> None:
    """The table's next move: skip a power, place a treasure at 55, or roll."""
    c = evil_props.c
    state = session.state
    if state.pending_powers:
        session.dispatch(c.SkipPower())
    elif state.empty_colours:
        session.dispatch(c.PlaceTreasure(state.empty_colours[0], 55))
    else:
        session.dispatch(c.Roll())


def test_a_roll_waiting_for_a_replacement_resumes_from_its_snapshot(tmp_path: Path) -> None:
    """The rulebook's order (rules_version 2): a roll that empties a slot waits, its clock
    die kept in the state (`pending_clock`), until the new treasure is placed. A snapshot
    taken then holds that wait, and the resumed game goes on from it."""
    c = evil_props.c
    journal = Journal(tmp_path / FILE_NAME)
    session = Session.start(rules_for("evil"), journal, evil_setup(seed=11, rules_version=2))
    session.snapshot_every = 1  # a snapshot after every "do"
    for _ in range(200):
        state = session.state
        if state.waiting_for_replacement or state.outcome is not None:
            break
        _play_one(session)
    state = session.state
    assert state.rules_version == 2 and state.pending_clock is not None, "no roll waited"
    resumed = Session.resume(session.rules, journal, session.game_id)
    assert resumed._history._base > 0  # from the snapshot, not a full replay
    assert resumed.state == state
    assert resumed.state.pending_clock == state.pending_clock
    colour = state.empty_colours[0]
    expected, _ = session.rules.apply(state, c.PlaceTreasure(colour, 55))
    resumed.dispatch(c.PlaceTreasure(colour, 55))  # the roll goes on where it waited
    assert resumed.state == expected and resumed.state.pending_clock is None
    journal.close()


@pytest.mark.parametrize("listed", [False, True])
def test_resume_reads_only_the_actions_after_the_newest_snapshot(tmp_path: Path,
                                                                  monkeypatch,
                                                                  listed: bool) -> None:
    journal = Journal(tmp_path / FILE_NAME)
    played = _evil_game(journal)
    record = journal.game(played.game_id) if listed else None
    total = len(journal.entries(played.game_id))
    newest = journal.read("SELECT MAX(seq) FROM snapshots")[0][0]
    assert 0 < newest <= total
    read: list[tuple[int, int | None]] = []
    original = journal.entries_between

    def spy(game_id: int, start: int, end: int | None = None) -> Any:
        read.append((start, end))
        return original(game_id, start, end)

    queries: list[str] = []
    fetch = journal._fetch

    def fetch_spy(sql: str, params: Any = ()) -> Any:
        queries.append(sql)
        return fetch(sql, params)

    monkeypatch.setattr(journal, "entries_between", spy)
    monkeypatch.setattr(journal, "_fetch", fetch_spy)
    resumed = Session.resume(played.rules, journal, played.game_id, record)
    assert read == [(newest, None)]
    # given the row the journal listed, a resume reads it no more (the snapshot alone)
    assert sum("FROM games" in sql for sql in queries) == (0 if listed else 1)
    assert resumed.state == played.state
    assert resumed._history._base > 0  # the steps before the snapshot are not built
    journal.close()


def _snapshot_seqs(journal: Journal, game_id: int) -> list[int]:
    return [seq for (seq,) in journal.read("SELECT seq FROM snapshots WHERE game_id = ?",
                                           (game_id,))]


def test_a_game_without_snapshots_resumes_without_fingerprinting_its_state(
        tmp_path: Path, monkeypatch) -> None:
    """A short game (fewer actions than the stride) has no snapshot: its resume is the
    full replay, and computes no version (the start of such a game waits for none)."""
    import companion.session as session_module

    journal = Journal(tmp_path / FILE_NAME)
    played = _evil_game(journal, rolls=5, every=100)
    assert _snapshot_seqs(journal, played.game_id) == []
    asked: list[type] = []
    monkeypatch.setattr(session_module, "snapshot_version", lambda root: asked.append(root))
    resumed = Session.resume(played.rules, journal, played.game_id)
    listed = Session.resume(played.rules, journal, played.game_id,
                            journal.game(played.game_id))
    assert asked == []
    assert resumed.state == listed.state == played.state
    assert resumed.steps == listed.steps == played.steps
    monkeypatch.undo()
    # once it has one, the version picks it, as before
    longer = _evil_game(journal, rolls=12, every=10)
    seqs = _snapshot_seqs(journal, longer.game_id)
    assert seqs and min(seqs) >= 1
    assert Session.resume(longer.rules, journal, longer.game_id)._snapshot_seq > 0
    journal.close()


def test_undo_across_a_snapshot_then_play_on(tmp_path: Path) -> None:
    journal = Journal(tmp_path / FILE_NAME)
    played = _evil_game(journal, rolls=25, every=7)
    states = [played.state]
    while played.can_undo():  # the live session's states, newest first
        played.undo()
        states.append(played.state)
    for _ in range(len(states) - 1):
        played.redo()
    resumed = Session.resume(played.rules, journal, played.game_id)
    for expected in states[1:]:
        resumed.undo()
        assert resumed.state == expected
    # a new action from the very start, then a resume: the journal still agrees
    resumed.dispatch(evil_props.c.Roll())
    after = Session.resume(played.rules, journal, played.game_id)
    assert after.state == resumed.state == _full_replay(resumed).state
    assert len(after.steps) == 1
    journal.close()


def test_a_game_resumed_from_a_snapshot_builds_its_initial_state_only_to_undo_that_far(
        tmp_path: Path) -> None:
    journal = Journal(tmp_path / FILE_NAME)
    played = _evil_game(journal, rolls=25, every=7)
    full = _full_replay(played)
    counting = _Counting(played.rules)
    resumed = Session.resume(counting, journal, played.game_id)
    assert resumed._history._base > 0 and counting.built == 0
    while resumed.can_undo():
        assert counting.built == 0 or resumed._history._base == 0
        resumed.undo()
        assert resumed.state == full.step(resumed._history.cursor).before
    assert resumed.state == full.initial == resumed._history.initial
    assert counting.built == 1
    journal.close()


def _one_more_action(session: Session) -> None:
    """A "do": the last command undone and played again (the game may be over)."""
    session.dispatch(session.undo())


def _tamper(path: Path, sql: str) -> None:
    db = sqlite3.connect(path)
    db.execute(sql)
    db.commit()
    db.close()


@pytest.mark.parametrize("damage", [
    "UPDATE snapshots SET version = '0:EvilState:old'",  # another format: ignored
    "UPDATE snapshots SET state = '{\"!\": \"EvilState\"'",  # does not decode
    "UPDATE snapshots SET state = '{\"!\": \"Treasure\", \"colour\": 1}'",  # wrong shape
    "UPDATE snapshots SET state = '{\"!\": \"os.system\"}'",  # not a record of the state
    # damaged rows (a flipped bit, a bad write): passed over, never a crash
    "UPDATE snapshots SET state = CAST(X'7B80FF' AS TEXT)",  # not UTF-8
    "UPDATE snapshots SET done = 'x'",  # not a number
    "UPDATE snapshots SET state = 12",  # not text
])
def test_a_snapshot_of_another_version_or_unreadable_means_a_full_replay(
        tmp_path: Path, damage: str) -> None:
    path = tmp_path / FILE_NAME
    journal = Journal(path)
    played = _evil_game(journal)
    journal.close()
    _tamper(path, damage)
    journal = Journal(path)
    resumed = Session.resume(played.rules, journal, played.game_id)
    assert resumed.state == played.state
    assert resumed._history._base == 0  # every step rebuilt from the start
    # the next action due writes a readable snapshot again
    resumed.snapshot_every = 1
    _one_more_action(resumed)
    assert Session.resume(played.rules, journal, played.game_id)._history._base > 0
    journal.close()


def test_a_damaged_action_after_the_snapshot_refuses_the_game(tmp_path: Path) -> None:
    """As a full replay would: the game is listed as damaged, never resumed half-way."""
    path = tmp_path / FILE_NAME
    journal = Journal(path)
    played = _evil_game(journal, rolls=30, every=7)
    last = played._seq - 1
    assert journal.latest_snapshot(played.game_id, version(type(played.state))).seq <= last
    journal.close()
    _tamper(path, f"UPDATE actions SET command = '{{not json' WHERE seq = {last}")
    journal = Journal(path)
    with pytest.raises(DamagedRow) as caught:
        Session.resume(played.rules, journal, played.game_id)
    assert caught.value.message.key == "core.error.damaged_action"
    assert caught.value.message.params["seq"] == last
    journal.close()


#: a game row's columns as a flipped bit or a bad write leaves them (issue 14, cases 2-3)
ROW_DAMAGES = [
    ("kind", "CAST(X'65FF' AS TEXT)"),  # not UTF-8
    ("setup", """'{"players": [{"name": "Ann"'"""),  # a write cut short
    ("setup", "'[1, 2, 3]'"),  # JSON, not an object
    ("setup", "CAST(X'7B22FF223A317D' AS TEXT)"),  # not UTF-8
    ("setup", "'[' || setup || ']'"),  # not an object, around a whole setup
    ("setup", "setup || ' x'"),  # something after the setup
    ("setup", "'[' || setup"),  # a whole setup, cut short around it
    ("setup", "replace(hex(zeroblob(50000)), '00', '[')"  # nested too deep to read
              " || replace(hex(zeroblob(50000)), '00', ']')"),
    ("summary", """'{"finished": fals'"""),
    ("summary", """'"finished"'"""),
    ("summary", "CAST(X'7BFF7D' AS TEXT)"),
    ("started", "'yesterday'"),
    ("updated", "1e300"),  # no date is that far
]


@pytest.mark.parametrize(("column", "value"), ROW_DAMAGES)
def test_a_damaged_game_row_refuses_the_resume_as_the_history_lists_it(
        tmp_path: Path, column: str, value: str) -> None:
    """A resume reads every column of the game's row that can be damaged, though it
    needs only the setup, as `Journal.game` reads them: the game the history lists as
    damaged is refused, with the same reason, snapshot or not."""
    from companion.night import history

    path = tmp_path / FILE_NAME
    journal = Journal(path)
    played = _evil_game(journal)
    assert journal.latest_snapshot(played.game_id, version(type(played.state))) is not None
    journal.close()
    _tamper(path, f"UPDATE games SET {column} = {value}")
    journal = Journal(path)
    reason = journal.game(played.game_id).damaged
    assert reason is not None and reason.startswith(f"{column}: ")
    for listed in (None, journal.game(played.game_id)):  # read by the resume, or listed
        with pytest.raises(DamagedRow) as caught:
            Session.resume(played.rules, journal, played.game_id, listed)
        assert caught.value.message.key == "core.error.damaged_game"
        assert caught.value.message.params == {"game": played.game_id, "reason": reason}
    [line] = history.games(journal)
    assert (line.status, line.damage) == ("damaged", reason)
    journal.close()


def test_a_resume_given_another_game_s_row_is_refused(tmp_path: Path) -> None:
    journal = Journal(tmp_path / FILE_NAME)
    first, second = _evil_game(journal, rolls=5), _evil_game(journal, rolls=5)
    with pytest.raises(ValueError, match="row of game"):
        Session.resume(first.rules, journal, first.game_id, journal.game(second.game_id))
    journal.close()


@pytest.mark.parametrize("around", ["' ' || {c} || char(10)", "char(9) || {c}", "{c} || '  '"])
def test_whitespace_around_a_game_row_column_is_no_damage(tmp_path: Path, around: str) -> None:
    """JSON may have whitespace around it (an edited row): as `Journal.game` reads it,
    so does a resume, which then plays on as before."""
    path = tmp_path / FILE_NAME
    journal = Journal(path)
    played = _evil_game(journal)
    journal.close()
    _tamper(path, "UPDATE games SET setup = {}, summary = {}".format(
        around.format(c="setup"), around.format(c="summary")))
    journal = Journal(path)
    assert journal.game(played.game_id).damaged is None
    resumed = Session.resume(played.rules, journal, played.game_id)
    assert resumed.state == played.state and resumed.setup == played.setup
    assert resumed._history._base > 0
    journal.close()


def test_a_damaged_action_before_the_snapshot_is_met_only_by_undoing_that_far(
        tmp_path: Path) -> None:
    """The snapshot holds the state after the damaged action: the game resumes from it;
    undoing past the snapshot needs the older actions, and that undo is refused with
    what is damaged (the app shows it; nothing changes)."""
    path = tmp_path / FILE_NAME
    journal = Journal(path)
    played = _evil_game(journal, rolls=30, every=10)
    snap = journal.latest_snapshot(played.game_id, version(type(played.state)))
    assert snap is not None and snap.seq >= 2
    journal.close()
    _tamper(path, "UPDATE actions SET command = '[1]' WHERE seq = 1")
    journal = Journal(path)
    resumed = Session.resume(played.rules, journal, played.game_id)
    assert resumed.state == played.state
    with pytest.raises(DamagedRow):
        while resumed.can_undo():
            resumed.undo()
    # every stretch after the damage was rebuilt and undone; the one holding it is not
    [(first,)] = journal.read("SELECT MIN(seq) FROM snapshots WHERE seq > 1")
    assert resumed._history.cursor == first
    before_refusal = resumed.state
    with pytest.raises(DamagedRow):
        resumed.undo()
    assert resumed.state == before_refusal and resumed.can_redo()
    journal.close()


def test_only_the_newest_bad_snapshot_is_passed_over(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    journal = Journal(path)
    played = _evil_game(journal, rolls=30, every=5)
    journal.close()
    _tamper(path, "UPDATE snapshots SET state = 'x' WHERE seq = (SELECT MAX(seq) FROM snapshots)")
    journal = Journal(path)
    older = journal.read("SELECT seq, done FROM snapshots ORDER BY seq DESC LIMIT 2")[1]
    resumed = Session.resume(played.rules, journal, played.game_id)
    assert resumed.state == played.state
    assert resumed._history._base == older[1]
    journal.close()


def test_a_damaged_older_snapshot_is_never_read(tmp_path: Path) -> None:
    """Only the newest snapshot is read (a long game has hundreds): damage in an older
    one changes nothing."""
    path = tmp_path / FILE_NAME
    journal = Journal(path)
    played = _evil_game(journal, rolls=30, every=5)
    journal.close()
    _tamper(path, "UPDATE snapshots SET state = CAST(X'7B80FF' AS TEXT)"
                  " WHERE seq = (SELECT MIN(seq) FROM snapshots)")
    journal = Journal(path)
    newest = journal.read("SELECT seq, done FROM snapshots ORDER BY seq DESC LIMIT 1")[0]
    snap = journal.latest_snapshot(played.game_id, version(type(played.state)))
    assert snap is not None and (snap.seq, snap.done) == newest
    resumed = Session.resume(played.rules, journal, played.game_id)
    assert resumed.state == played.state
    assert resumed._history._base == newest[1]
    journal.close()


def test_resuming_a_game_that_is_not_in_the_journal_says_so() -> None:
    journal = Journal(":memory:")
    with pytest.raises(JournalError) as caught:
        Session.resume(rules_for("evil"), journal, 42)
    assert caught.value.message.key == "core.error.no_such_game"
    journal.close()


def test_a_schema_2_journal_opened_read_only_resumes_without_snapshots(
        tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    journal = Journal(path)
    played = _evil_game(journal, every=10_000)
    journal.close()
    _tamper(path, "DROP TABLE snapshots")
    _tamper(path, "PRAGMA user_version = 2")
    journal = Journal(path, read_only=True)
    resumed = Session.resume(played.rules, journal, played.game_id)
    assert resumed.state == played.state and resumed._history._base == 0
    journal.close()


def test_a_schema_2_journal_gains_snapshots_and_resumes(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    journal = Journal(path)
    played = _evil_game(journal, every=10_000)  # no snapshot: as version 2 wrote it
    journal.close()
    _tamper(path, "DROP TABLE snapshots")
    _tamper(path, "PRAGMA user_version = 2")
    journal = Journal(path)
    assert journal.read("PRAGMA user_version") == [(SCHEMA_VERSION,)] == [(3,)]
    resumed = Session.resume(played.rules, journal, played.game_id)
    assert resumed.state == played.state
    resumed.snapshot_every = 1
    _one_more_action(resumed)
    assert journal.read("SELECT COUNT(*) FROM snapshots") == [(1,)]
    journal.close()


@dataclass(frozen=True)
class Inner:
    n: int


@dataclass(frozen=True)
class State:
    inner: tuple[Inner, ...]
    table: Any = None


@dataclass(frozen=True)
class Renamed:
    inner: tuple[Inner, ...]
    other: Any = None


def test_the_codec_keeps_records_tuples_and_mappings() -> None:
    state = State((Inner(1), Inner(2)), {1: "a", "b": (2, 3)})
    assert decode(State, encode(state)) == state
    with pytest.raises(SnapshotError):
        decode(State, encode(Inner(1)))
    # another field name is another version: such a snapshot is never read
    assert version(State).startswith("2:State:")
    assert version(State)[8:] != version(Renamed)[10:]


def test_the_codec_writes_the_text_the_old_encoder_wrote() -> None:
    """The text is the format's, byte for byte as the snapshots already in the journals
    (the seal covers it): records by name, tuples as lists, mappings as pairs, an
    IntEnum as its number, text as it is; a value it cannot write is refused."""
    import enum

    class Level(enum.IntEnum):
        HIGH = 3

    state = State((Inner(1), Inner(Level.HIGH)),
                  {1: ["a", None], "b": (2.5, True), "é": -0.0})
    assert encode(state) == (
        '{"!":"State","inner":[{"!":"Inner","n":1},{"!":"Inner","n":3}],'
        '"table":{"!map":[[1,["a",null]],["b",[2.5,true]],["é",-0.0]]}}')
    with pytest.raises(SnapshotError, match="cannot encode"):
        encode(State((), {1, 2}))
