"""One game contract: a toy game that lives in this file only, registered from here,
is listed and told in History, counted in Statistics, exported and backed up, with no
edit outside this file (`companion.game.GameNight`, `companion.games.register`)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from companion.game import GameNight
from companion.games import register, rules_for, unregister
from companion.i18n import Translator
from companion.journal import Journal
from companion.messages import Message, RuleError, msg
from companion.night import backup, export, history, roster, stats
from companion.records import registry
from companion.session import Session, Step


@dataclass(frozen=True)
class Score:
    seat: int
    points: int


@dataclass(frozen=True)
class Finish:
    pass


@dataclass(frozen=True)
class Scored:
    seat: int
    points: int


@dataclass(frozen=True)
class ToyState:
    names: tuple[str, ...]
    scores: tuple[int, ...]
    finished: bool = False


class ToyRules:
    kind = "toy"
    commands = registry((Score, Finish))
    state_type = ToyState

    def initial_state(self, setup: Mapping[str, Any]) -> ToyState:
        names = tuple(str(p["name"]).strip() for p in setup["players"])
        return ToyState(names, (0,) * len(names))

    def check_resumable(self, setup: Mapping[str, Any]) -> None:
        pass

    def apply(self, state: ToyState, command: Any) -> tuple[ToyState, Sequence[Any]]:
        if isinstance(command, Score):
            scores = list(state.scores)
            scores[command.seat] += command.points
            return replace(state, scores=tuple(scores)), [Scored(command.seat,
                                                                 command.points)]
        if isinstance(command, Finish):
            return replace(state, finished=True), []
        raise RuleError("core.error.unknown_command", name=type(command).__name__)

    def summary(self, state: ToyState) -> dict[str, Any]:
        best = max(state.scores)
        return {"finished": state.finished, "players": list(state.names),
                "scores": list(state.scores),
                "winners": [n for n, s in zip(state.names, state.scores, strict=True)
                            if s == best] if state.finished else []}


class ToyNight(GameNight):
    has_score_line = True

    def describe(self, step: Step) -> Sequence[Message]:
        return [msg("toy.scored", seat=e.seat, points=e.points) for e in step.events
                if isinstance(e, Scored)]

    def score_lines(self, journal: Journal, record: Any, n: int) -> list[list[int]]:
        lines = [[0] for _ in range(n)]
        for entry in journal.readable_entries(record.id)[0]:
            for event in entry.events:
                lines[event["seat"]].append(lines[event["seat"]][-1] + event["points"])
        return lines


@pytest.fixture
def toy() -> Iterator[None]:
    register(ToyRules(), ToyNight("toy"))
    yield
    unregister("toy")


def _played(tmp_path: Path) -> tuple[Journal, int]:
    journal = Journal(tmp_path / "journal.sqlite3")
    ann, bob = roster.add(journal, "Ann").id, roster.add(journal, "Bob").id
    setup = {"players": roster.setup_players(journal, [ann, bob])}
    session = Session.start(rules_for("toy"), journal, setup)
    roster.link_game(journal, session.game_id)
    for command in (Score(0, 5), Score(1, 3), Score(1, 1), Finish()):
        session.dispatch(command)
    return journal, session.game_id


def test_a_toy_game_is_listed_and_told_in_history(tmp_path: Path, toy: None) -> None:
    journal, gid = _played(tmp_path)
    line = history.game(journal, gid)
    assert (line.kind, line.status) == ("toy", "finished")
    assert [(s.name, s.score, s.winner) for s in line.seats] == [("Ann", 5, True),
                                                                ("Bob", 4, False)]
    assert "toy" in history.kinds_in(journal)
    log = history.log(journal, gid)
    assert [m.title.key for m in log] == ["night.command.toy.Score"] * 3 + [
        "night.command.toy.Finish"]
    assert log[0].details == (msg("toy.scored", seat=0, points=5),)


def test_a_toy_game_is_counted_in_statistics(tmp_path: Path, toy: None) -> None:
    journal, gid = _played(tmp_path)
    data = stats.statistics(journal)
    toy_stats = data.kinds["toy"]
    assert toy_stats.games == 1
    by_name = {p.player.name: p for p in data.players}
    assert [(by_name[n].by_kind["toy"].games, by_name[n].by_kind["toy"].wins)
            for n in ("Ann", "Bob")] == [(1, 1), (1, 0)]
    assert stats.score_lines(journal, gid).points == ((0, 5), (0, 3, 4))


def test_a_toy_game_is_exported(tmp_path: Path, toy: None) -> None:
    journal, _ = _played(tmp_path)
    rows = export.csv_text(journal, translator=Translator("en")).splitlines()
    assert sum(1 for r in rows[1:] if ",toy," in r) == 2  # a row per seat
    plays = export.bgstats(journal, translator=Translator("en"))
    assert [g["name"] for g in plays["games"]] == ["toy"]
    assert sorted(s["score"] for s in plays["plays"][0]["playerScores"]) == ["4", "5"]


def test_a_toy_game_is_backed_up_and_restored(tmp_path: Path, toy: None) -> None:
    journal, gid = _played(tmp_path)
    archive = tmp_path / "night.zip"
    backup.create(journal, archive, config_dir=tmp_path / "own")
    journal.close()
    other = tmp_path / "other" / "journal.sqlite3"
    other.parent.mkdir()
    backup.restore(archive, other)
    restored = Journal(other)
    assert history.game(restored, gid).seats[0].score == 5
    assert json.loads(json.dumps(restored.game(gid).summary))["scores"] == [5, 4]
