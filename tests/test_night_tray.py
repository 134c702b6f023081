"""The dice tray: config, rules, fairness (chi-square at fixed seeds), replay and undo."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import config
from companion.games import KINDS, rules_for
from companion.games.tray import RULES, tray_view, validate_config
from companion.games.tray import commands as c
from companion.i18n import Translator
from companion.journal import Journal
from companion.messages import RuleError
from companion.night import history
from companion.session import Session, replay
from tests.helpers.checked import load
from tests.test_night_support import params


def _setup(seed: int = 5, dice: tuple[str, ...] = ("d6", "d20")) -> dict[str, Any]:
    return {"params": params("tray"), "seed": seed, "dice": list(dice)}


def _key(exc: pytest.ExceptionInfo[RuleError]) -> str:
    return exc.value.message.key


def test_is_a_game_kind_with_valid_defaults() -> None:
    assert "tray" in KINDS and rules_for("tray") is RULES
    assert validate_config(params("tray")) == []


@pytest.mark.parametrize("override, key", [
    ({"standard": [6, 1]}, "standard.1"),
    ({"standard": [6, 6]}, "standard"),
    ({"custom": [{"id": "d6", "faces": ["a", "b"]}]}, "custom.0.id"),
    ({"custom": [{"id": "x", "faces": ["a"]}]}, "custom.0.faces"),
    ({"custom": [{"id": "x", "faces": ["a", ""]}]}, "custom.0.faces"),
    ({"custom": [{"id": "x", "faces": ["a", "b"]}, {"id": "x", "faces": ["a", "b"]}]},
     "custom.1.id"),
    ({"custom": [{"id": "x", "faces": ["a", "b"], "colour": "red"}]}, "custom.0.colour"),
    ({"max_dice": 0}, "max_dice"),
])
def test_bad_config_named(tmp_path: Path, override: dict[str, Any], key: str) -> None:
    import yaml

    user = tmp_path / "config.yaml"
    user.write_text(yaml.safe_dump({"games": {"tray": override}}), encoding="utf-8")
    with pytest.raises(config.ConfigError) as exc:
        load(user)
    assert f"games.tray.{key}" in [p.key for p in exc.value.problems]


def test_roll_lock_reroll() -> None:
    state = RULES.initial_state(_setup(dice=("d6", "d6", "fudge")))
    with pytest.raises(RuleError) as exc:
        RULES.apply(state, c.Lock(0))
    assert _key(exc) == "night.error.lock_unrolled"
    state, events = RULES.apply(state, c.Roll())
    first = tray_view(state)
    assert [d.face is not None for d in first.dice] == [True] * 3
    assert events[0].total is None  # the fudge die has no number
    state, _ = RULES.apply(state, c.Lock(0))
    state, _ = RULES.apply(state, c.Lock(2))
    state, events = RULES.apply(state, c.Roll())
    second = tray_view(state)
    assert events[0].rolled == (False, True, False)
    assert second.dice[0].face == first.dice[0].face and second.dice[2].face == first.dice[2].face
    assert [d.locked for d in second.dice] == [True, False, True]
    assert [r.number for r in second.history] == [2, 1]
    assert sum(d.rolls for d in second.distribution) == 3 + 1  # locked dice were not rolled
    state, _ = RULES.apply(state, c.Lock(1))
    with pytest.raises(RuleError) as exc:
        RULES.apply(state, c.Roll())
    assert _key(exc) == "night.error.all_locked"


def test_total_and_bad_commands() -> None:
    state = RULES.initial_state(_setup(dice=("d6", "d8")))
    state, events = RULES.apply(state, c.Roll())
    view = tray_view(state)
    assert view.total == events[0].total == sum(int(d.face or 0) for d in view.dice)
    for command, key in ((c.AddDie("d7"), "night.error.unknown_die"),
                         (c.RemoveDie(5), "night.error.no_such_die"),
                         (c.Unlock(0), "night.error.not_locked")):
        with pytest.raises(RuleError) as exc:
            RULES.apply(state, command)
        assert _key(exc) == key
    empty, _ = RULES.apply(state, c.ClearDice())
    with pytest.raises(RuleError) as exc:
        RULES.apply(empty, c.Roll())
    assert _key(exc) == "night.error.tray_empty"
    closed, _ = RULES.apply(state, c.Close())
    assert RULES.summary(closed)["finished"]
    with pytest.raises(RuleError):
        RULES.apply(closed, c.Roll())
    full = RULES.initial_state(_setup(dice=("d4",) * params("tray")["max_dice"]))
    with pytest.raises(RuleError) as exc:
        RULES.apply(full, c.AddDie("d4"))
    assert _key(exc) == "night.error.tray_full"


# chi-square critical values at p = 0.001 (df = faces - 1)
CRITICAL = {"d4": 16.27, "d6": 20.52, "d20": 43.82, "d100": 148.23, "fudge": 20.52}


@pytest.mark.parametrize("die", list(CRITICAL))
def test_fair_at_fixed_seed(die: str) -> None:
    state = RULES.initial_state(_setup(seed=20240301, dice=(die,) * 5))
    rolls = 30000 // 5
    for _ in range(rolls):
        state, _ = RULES.apply(state, c.Roll())
    counts = dict(state.counts)[die]
    n = sum(counts)
    assert n == rolls * 5
    expected = n / len(counts)
    chi2 = sum((k - expected) ** 2 / expected for k in counts)
    assert chi2 < CRITICAL[die], (die, chi2)
    assert min(counts) > 0


def test_fudge_faces_keep_their_weights() -> None:
    state = RULES.initial_state(_setup(seed=3, dice=("fudge",) * 4))
    faces: Counter[str] = Counter()
    for _ in range(1500):
        state, events = RULES.apply(state, c.Roll())
        faces.update(events[0].faces)
    share = faces["+"] / sum(faces.values())  # two "+" sides out of six
    assert 0.31 < share < 0.36


COMMANDS = st.one_of(
    st.just(c.Roll()), st.just(c.Roll()), st.just(c.Roll()),
    st.sampled_from(["d4", "d6", "d20", "d100", "fudge", "d3"]).map(c.AddDie),
    st.integers(-1, 4).map(c.RemoveDie), st.integers(-1, 4).map(c.Lock),
    st.integers(-1, 4).map(c.Unlock), st.just(c.ClearDice()),
)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**63), script=st.lists(COMMANDS, max_size=25))
def test_undo_restores_and_replay_reproduces(seed: int, script: list[Any]) -> None:
    journal = Journal(":memory:")
    session = Session.start(RULES, journal, _setup(seed=seed))
    for command in script:
        before = session.state
        try:
            session.dispatch(command)
        except RuleError:
            assert session.state == before
            continue
        after = session.state
        session.undo()
        assert session.state == before
        session.redo()
        assert session.state == after
        for _kind, counts in after.counts:
            assert all(k >= 0 for k in counts)
        assert len(after.recent) <= after.params.history
        assert len(after.dice) <= after.params.max_dice
    record = journal.game(session.game_id)
    rebuilt = replay(RULES, record.setup, journal.entries(session.game_id))
    assert rebuilt.state == session.state
    assert Session.resume(RULES, journal, session.game_id).state == session.state


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**63), rolls=st.integers(1, 5))
def test_undo_then_roll_gives_the_same_faces(seed: int, rolls: int) -> None:
    state = RULES.initial_state(_setup(seed=seed))
    for _ in range(rolls):
        state, _ = RULES.apply(state, c.Roll())
    again, first = RULES.apply(state, c.Roll())
    same, second = RULES.apply(state, c.Roll())  # "undo" = apply to the state before
    assert first == second and again == same


def test_log_lines_translated(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    session = Session.start(RULES, journal, _setup())
    session.dispatch(c.Roll())
    session.dispatch(c.Lock(0))
    session.undo()
    session.dispatch(c.Close())
    assert history.games(journal) == []  # not a game between players
    for language in ("en", "fr"):
        tr = Translator(language)
        for line in history.log(journal, session.game_id):
            assert tr.has(line.title.key) and all(tr.has(m.key) for m in line.details)
    lines = history.log(journal, session.game_id)
    assert [line.verb for line in lines] == ["do", "do", "undo", "do"]
    assert lines[0].details[0].key == "night.tray.say.rolled_total"
