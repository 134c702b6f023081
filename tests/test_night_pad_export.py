"""The exports of score pad games worked out by hand: the CSV's long table (each cell,
its points, the player's total), the per-seat CSV (rank, exit, team, a clock's times)
and the BG Stats plays (rank, winner, start player, seat order, team, the template's
BGG id, co-op and lowest-wins games, a clock's played time as `durationMin`)."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC
from pathlib import Path
from typing import Any

import pytest

from companion.games.pad import commands as pc
from companion.i18n import Translator
from companion.journal import Journal
from companion.night import export, jobs, roster
from tests.test_night_pad import ANN, BOB, CY, rounds, wonders
from tests.test_night_support import clock, open_journal, pad


@pytest.fixture
def played(tmp_path: Path) -> tuple[Journal, dict[str, int]]:
    j = open_journal(tmp_path)
    ids = {n: roster.add(j, n).id for n in ("Ann", "Bob", "Cy", "Dee")}
    abc = [ids["Ann"], ids["Bob"], ids["Cy"]]
    # Bob starts (seat 1); the clock beside it: 3 minutes played, 10 minutes paused
    ids["w"] = pad(j, abc, "7-wonders", wonders(ANN, BOB, CY), day=0, start_player=1)
    ids["clock"] = clock(j, abc, [60000, 50000, 70000], pad_game=ids["w"],
                         pause_ms=600000, day=0)
    ids["low"] = pad(j, abc, "rounds-lowest", rounds((6, 1, 3), (4, 3, 1)), day=1)
    ids["coop"] = pad(j, abc, "coop", [pc.CoopOutcome(True)], day=2)
    ids["teams"] = pad(j, [*abc, ids["Dee"]], "rounds-highest", rounds((3, 4, 5, 1)),
                       day=3, teams=[[0, 2], [1, 3]])
    return j, ids


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_long_table(played: tuple[Journal, dict[str, int]]) -> None:
    j, ids = played
    rows = _rows(export.scores_csv_text(j, translator=Translator("fr"), tz=UTC))
    assert tuple(rows[0]) == export.SCORES_COLUMNS
    ann = [(r["category"], r["category_name"], r["input"], r["points"], r["total"])
           for r in rows if r["game_id"] == str(ids["w"]) and r["player"] == "Ann"]
    # coins: 7 typed, 2 points; the science symbols score nothing of their own; science
    # is computed (nothing typed): 2² + 1 + 1 + 7 = 13; Ann's total 39
    assert ann == [
        ("military", "Militaire", "5", "5", "39"), ("coins", "Trésor (pièces)", "7", "2", "39"),
        ("wonder", "Merveille", "3", "3", "39"), ("civilian", "Civils", "10", "10", "39"),
        ("commerce", "Commerce", "2", "2", "39"), ("guilds", "Guildes", "4", "4", "39"),
        ("gear", "Science : engrenages", "2", "", "39"),
        ("tablet", "Science : tablettes", "1", "", "39"),
        ("compass", "Science : compas", "1", "", "39"), ("science", "Science", "", "13", "39")]
    low = [(r["player"], r["round"], r["category"], r["input"], r["points"], r["total"])
           for r in rows if r["game_id"] == str(ids["low"])]
    assert low == [("Ann", "1", "", "6", "6", "10"), ("Bob", "1", "", "1", "1", "4"),
                   ("Cy", "1", "", "3", "3", "4"), ("Ann", "2", "", "4", "4", "10"),
                   ("Bob", "2", "", "3", "3", "4"), ("Cy", "2", "", "1", "1", "4")]
    assert {r["game"] for r in rows if r["game_id"] == str(ids["low"])} == {
        "Manches : le plus bas gagne"}


def test_csv_seats(played: tuple[Journal, dict[str, int]]) -> None:
    j, ids = played
    rows = _rows(export.csv_text(j, tz=UTC))
    w = [(r["player"], r["score"], r["rank"], r["winner"], r["time_s"], r["turns"],
          r["average_turn_s"], r["longest_turn_s"], r["duration_min"])
         for r in rows if r["game_id"] == str(ids["w"])]
    # the clock: a turn each, Ann 60 s, Bob 50 s, Cy 70 s; 3 minutes played (the 10
    # minutes' pause left out), not the 40 minutes from start to last action
    assert w == [("Ann", "39", "1", "1", "60.0", "1", "60.0", "60.0", "3"),
                 ("Bob", "33", "3", "0", "50.0", "1", "50.0", "50.0", "3"),
                 ("Cy", "39", "2", "0", "70.0", "1", "70.0", "70.0", "3")]
    assert {r["game"] for r in rows if r["game_id"] == str(ids["w"])} == {"7 Wonders"}
    teams = [(r["player"], r["team"], r["rank"], r["winner"])
             for r in rows if r["game_id"] == str(ids["teams"])]
    assert teams == [("Ann", "1", "1", "1"), ("Bob", "2", "2", "0"), ("Cy", "1", "1", "1"),
                     ("Dee", "2", "2", "0")]
    clocked = [r for r in rows if r["game_id"] == str(ids["clock"])]
    assert [(r["kind"], r["player"], r["time_s"], r["score"]) for r in clocked] == [
        ("clock", "Ann", "60.0", ""), ("clock", "Bob", "50.0", ""), ("clock", "Cy", "70.0", "")]


def _play(data: dict[str, Any], name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    game = next(g for g in data["games"] if g["name"] == name)
    play = next(p for p in data["plays"] if p["gameRefId"] == game["id"])
    return game, play


def test_bgstats(played: tuple[Journal, dict[str, int]]) -> None:
    j, _ = played
    data = export.bgstats(j, tz=UTC)
    names = sorted(g["name"] for g in data["games"])
    assert names == ["7 Wonders", "Co-operative: win or lose together",
                     "Rounds: highest wins", "Rounds: lowest wins"]  # no clock play
    game, play = _play(data, "7 Wonders")
    assert (game["bggId"], game["highestWins"], game["cooperative"]) == (68448, True, False)
    assert (play["bggId"], play["durationMin"], play["usesTeams"]) == (68448, 3, False)
    who = {p["id"]: p["name"] for p in data["players"]}
    assert [(who[s["playerRefId"]], s["score"], s["rank"], s["winner"], s["startPlayer"],
             s["seatOrder"]) for s in play["playerScores"]] == [
        ("Ann", "39", 1, True, False, 0), ("Bob", "33", 3, False, True, 1),
        ("Cy", "39", 2, False, False, 2)]
    game, play = _play(data, "Rounds: lowest wins")
    assert (game["highestWins"], game["bggId"], play["durationMin"]) == (False, 0, 40)
    assert [(s["score"], s["rank"], s["winner"]) for s in play["playerScores"]] == [
        ("10", 3, False), ("4", 1, True), ("4", 1, True)]
    game, play = _play(data, "Co-operative: win or lose together")
    assert (game["cooperative"], game["noPoints"]) == (True, True)
    assert all(s["winner"] for s in play["playerScores"])
    game, play = _play(data, "Rounds: highest wins")
    assert play["usesTeams"] is True
    assert [(who[s["playerRefId"]], s["team"], s["winner"]) for s in play["playerScores"]] == [
        ("Ann", "Team 1", True), ("Bob", "Team 2", False), ("Cy", "Team 1", True),
        ("Dee", "Team 2", False)]
    json.loads(export.bgstats_text(j, tz=UTC))  # the file reads back


def test_csv_job_writes_the_long_table_beside(played: tuple[Journal, dict[str, int]],
                                              tmp_path: Path) -> None:
    j, _ = played
    path = tmp_path / "night.csv"
    beside = tmp_path / "night-scores.csv"
    assert jobs.run(jobs.export_file(j, "csv", path, Translator("en"))) == [path, beside]
    assert path.is_file() and beside.is_file()
    assert beside.read_text(encoding="utf-8") == export.scores_csv_text(
        j, translator=Translator("en"))


def test_no_long_table_without_a_cell_to_put_in_it(tmp_path: Path) -> None:
    """Other games and a co-operative pad (an outcome, no cell): the CSV alone, no
    second file of headers."""
    j = open_journal(tmp_path)
    abc = [roster.add(j, n).id for n in ("Ann", "Bob", "Cy")]
    clock(j, abc, [60000, 50000, 70000])
    pad(j, abc, "coop", [pc.CoopOutcome(True)])
    assert export.scores_csv_text(j) is None
    path = tmp_path / "night.csv"
    assert jobs.run(jobs.export_file(j, "csv", path, Translator("en"))) == [path]
    assert sorted(tmp_path.glob("*.csv")) == [path]


def test_a_failed_long_table_takes_the_csv_away(played: tuple[Journal, dict[str, int]],
                                                tmp_path: Path) -> None:
    """Both files or neither: the long table's place taken by a folder, the write
    fails and the CSV written before it goes too."""
    j, _ = played
    path = tmp_path / "night.csv"
    (tmp_path / "night-scores.csv").mkdir()
    with pytest.raises(OSError):
        jobs.run(jobs.export_file(j, "csv", path, Translator("en")))
    assert list(tmp_path.glob("night*")) == [tmp_path / "night-scores.csv"]  # the folder


def test_a_game_going_on_is_in_the_long_table_and_its_chart_from_its_journal(
        tmp_path: Path) -> None:
    """A game going on writes a summary without its sheet at every action (the whole
    sheet, again and again, to the card): the long table and the score lines replay it
    (from its newest snapshot), and an older journal's summary that held its cells
    while the game went on is read as it is."""
    from companion.games import rules_for
    from companion.night import history, stats
    from companion.session import Session

    j = open_journal(tmp_path)
    ids = [roster.add(j, n).id for n in ("Ann", "Bob")]
    going = pad(j, ids, "rounds-highest", rounds((6, 1), (4, 3), end=False))
    assert "cells" not in j.game(going).summary
    session = Session.resume(rules_for("pad"), j, going)
    session.snapshot_every = 1  # the replay starts from a snapshot, then one action
    session.dispatch(pc.SetCell(0, 2, None, "2+5"))
    session.dispatch(pc.SetCell(1, 2, None, "0"))
    rows = [(r["player"], r["round"], r["input"], r["points"], r["total"])
            for r in _rows(export.scores_csv_text(j, tz=UTC))
            if r["game_id"] == str(going)]
    assert rows == [("Ann", "1", "6", "6", "17"), ("Bob", "1", "1", "1", "4"),
                    ("Ann", "2", "4", "4", "17"), ("Bob", "2", "3", "3", "4"),
                    ("Ann", "3", "2+5", "7", "17"), ("Bob", "3", "0", "0", "4")]
    assert stats.score_lines(j, going).points == ((0, 6, 10, 17), (0, 1, 4, 4))
    # a summary written by an older version, its cells kept while the game went on
    older = dict(j.game(going).summary, cells=[["Ann", 1, "9", 9]])
    with j.writing() as db:
        db.execute("UPDATE games SET summary = ? WHERE id = ?", (json.dumps(older), going))
    assert history.sheet_cells(j, j.game(going)) == [["Ann", 1, "9", 9]]


@pytest.mark.parametrize("command", ['{not json', '{"type": "Teleport"}'])
def test_a_game_going_on_that_cannot_be_replayed_lists_no_cells(
        tmp_path: Path, command: str) -> None:
    """A damaged action (text that is not JSON, a command these rules do not know): no
    cells, and nothing raised."""
    from companion.night import history

    j = open_journal(tmp_path)
    ids = [roster.add(j, n).id for n in ("Ann", "Bob")]
    going = pad(j, ids, "rounds-highest", rounds((6, 1), end=False))
    assert history.sheet_cells(j, j.game(going)) == [["Ann", 1, "6", 6], ["Bob", 1, "1", 1]]
    with j.writing() as db:
        db.execute("UPDATE actions SET command = ? WHERE game_id = ? AND seq = 1",
                   (command, going))
    assert history.sheet_cells(j, j.game(going)) == []
