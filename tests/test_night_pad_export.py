"""The exports of score pad games worked out by hand: the CSV's long table (each cell,
its points, the player's total), the per-seat CSV (rank, exit, team, a clock's times)
and the BG Stats plays (rank, winner, start player, seat order, team, the template's
BGG id, co-op and lowest-wins games, a clock's played time as `durationMin`), and the
BG Stats file read back the way public readers of the format read it (`read_back`)."""

from __future__ import annotations

import csv
import io
import json
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from companion.games.pad import commands as pc
from companion.i18n import Translator
from companion.journal import Journal
from companion.night import export, jobs, roster
from tests.pad_helpers import template as pad_template
from tests.test_night_pad import ANN, BOB, CY, ZERO, rounds, wonders
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
    data = read_back(export.bgstats_text(j, tz=UTC))
    names = sorted(g["name"] for g in data["games"])
    assert names == ["7 Wonders", "Co-operative: win or lose together",
                     "Rounds: highest wins", "Rounds: lowest wins"]  # no clock play
    game, play = _play(data, "7 Wonders")
    # the game's BoardGameGeek id on the game; the play's own (none: never posted) 0
    assert (game["bggId"], game["highestWins"], game["cooperative"]) == (68448, True, False)
    assert (play["bggId"], play["durationMin"], play["usesTeams"]) == (0, 3, False)
    who = {p["id"]: p["name"] for p in data["players"]}
    assert [(who[s["playerRefId"]], s["score"], s["rank"], s["winner"], s["startPlayer"],
             s["seatOrder"]) for s in play["playerScores"]] == [
        ("Ann", "39", 1, True, False, 1), ("Bob", "33", 3, False, True, 2),
        ("Cy", "39", 2, False, False, 3)]
    assert play["manualWinner"] is True  # the tie-breaker, not the scores, chose Ann
    game, play = _play(data, "Rounds: lowest wins")
    assert (game["highestWins"], game["bggId"], play["durationMin"]) == (False, 0, 40)
    assert [(s["score"], s["rank"], s["winner"]) for s in play["playerScores"]] == [
        ("10", 3, False), ("4", 1, True), ("4", 1, True)]
    assert play["manualWinner"] is False  # the lowest scores won: BG Stats agrees
    game, play = _play(data, "Co-operative: win or lose together")
    assert (game["cooperative"], game["noPoints"]) == (True, True)
    assert all(s["winner"] for s in play["playerScores"]) and play["manualWinner"] is True
    game, play = _play(data, "Rounds: highest wins")
    assert play["usesTeams"] is True and play["manualWinner"] is True  # team 1: 8 to 5
    assert [(who[s["playerRefId"]], s["team"], s["winner"]) for s in play["playerScores"]] == [
        ("Ann", "1", True), ("Bob", "2", False), ("Cy", "1", True), ("Dee", "2", False)]


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


# The BG Stats file, read back as public readers of the format read it. BG Stats' own
# export (sqrtxander/bgstats-wrapped, sampleData.json: 217 plays) is the reference;
# the readers: adrianocola/bgstats-merger (index.js), theiam79/BGStats.Bot
# (src/BGStats.Bot/Models/*.cs), luceleaftea/end-of-year-bgstats-summary
# (general_summary.py), TalitaJames/bgStats-dataVisualiser (dataGathering.py),
# gnidan/bgstats-elo-ratings (src/index.ts), sqrtxander/bgstats-wrapped (get_data.py).
BG_DATE = "%Y-%m-%d %H:%M:%S"
TYPES: dict[str, dict[str, type | tuple[type, ...]]] = {
    "game": {"id": int, "uuid": str, "name": str, "modificationDate": str, "bggId": int,
             "cooperative": bool, "highestWins": bool, "noPoints": bool, "usesTeams": bool,
             "minPlayTime": int, "maxPlayTime": int, "minPlayerCount": int,
             "maxPlayerCount": int, "tags": list},
    "player": {"id": int, "uuid": str, "name": str, "isAnonymous": bool,
               "modificationDate": str, "bggUsername": str},
    "play": {"uuid": str, "gameRefId": int, "playDate": str, "entryDate": str,
             "modificationDate": str, "durationMin": int, "rounds": int, "ignored": bool,
             "manualWinner": bool, "usesTeams": bool, "board": str, "playImages": str,
             "rating": int, "scoringSetting": int, "bggId": int, "importPlayId": int,
             "nemestatsId": int, "expansionPlays": list, "playerScores": list},
    "score": {"playerRefId": int, "score": str, "winner": bool, "newPlayer": bool,
              "startPlayer": bool, "seatOrder": int, "rank": int, "role": str},
}


def _typed(what: str, record: dict[str, Any]) -> None:
    for key, kind in TYPES[what].items():
        assert key in record, (what, key, record)
        # a bool is an int in Python, not in C# or Go: an int field takes no bool
        assert isinstance(record[key], kind) and (
            kind is bool or not isinstance(record[key], bool)), (what, key, record[key])


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def read_back(text: str) -> dict[str, Any]:
    """The file as public readers take it; fails on what one of them would trip on."""
    data = json.loads(text)
    for key in ("games", "players", "locations", "plays", "tags"):
        assert isinstance(data[key], list), key  # TalitaJames reads data['tags']
    games = {g["id"]: g for g in data["games"]}
    players = {p["id"]: p for p in data["players"]}
    locations = {loc["id"]: loc for loc in data["locations"]}
    for what, records in (("game", data["games"]), ("player", data["players"])):
        for record in records:
            _typed(what, record)
            uuid.UUID(record["uuid"])  # C#: Guid
            datetime.strptime(record["modificationDate"], BG_DATE)  # Go: time.DateTime
        # ids 1, 2, 3... in the file's order, as BG Stats writes them (gnidan's reader
        # takes games[id - 1])
        assert [r["id"] for r in records] == list(range(1, len(records) + 1)), what
    me = data["userInfo"]["meRefId"]
    assert isinstance(me, int) and me in players  # the merger reads players[me].name
    uuids = [r["uuid"] for r in (*data["games"], *data["players"], *data["plays"])]
    assert len(set(uuids)) == len(uuids)
    for play in data["plays"]:
        _typed("play", play)
        for key in ("playDate", "entryDate", "modificationDate"):
            datetime.strptime(play[key], BG_DATE)  # bgstats-wrapped's strptime
        game = games[play["gameRefId"]]
        if "locationRefId" in play:
            assert play["locationRefId"] in locations
        # the play's own BoardGameGeek id: 0 until BG Stats posts it
        assert play["bggId"] == 0
        scores = play["playerScores"]
        for score in scores:
            _typed("score", score)
            assert score["playerRefId"] in players
        # seats from 1 (0 is "not set"), each once
        assert sorted(s["seatOrder"] for s in scores) == list(range(1, len(scores) + 1))
        if play["usesTeams"]:
            assert all(isinstance(s["team"], str) and s["team"].isdigit()
                       and int(s["team"]) >= 1 for s in scores)
        else:
            assert all("team" not in s for s in scores)
        # BG Stats works the winners out from the scores unless manualWinner says they
        # were chosen: then the file's winners must be what the scores say
        points = [_number(s["score"]) for s in scores]
        if not play["manualWinner"]:
            best = None if None in points else (max if game["highestWins"] else min)(
                p for p in points if p is not None)  # no score, no winner
            assert [s["winner"] for s in scores] == [
                best is not None and p == best for p in points], play
    return data


@pytest.fixture
def night(tmp_path: Path) -> tuple[Journal, dict[str, int]]:
    """Every way a winner is decided: points, a tie-breaker, a shared victory, lowest
    wins, co-op won and lost, an instant win over points, teams; and other games."""
    from tests.test_night_support import bond, castor, evil, sheet

    j = open_journal(tmp_path)
    ids = {n: roster.add(j, n).id for n in ("Ann", "Bob", "Cy", "Dee")}
    abc = [ids["Ann"], ids["Bob"], ids["Cy"]]
    ids["w1"] = pad(j, abc, "7-wonders", wonders(ANN, BOB, CY), day=0)
    ids["w2"] = pad(j, abc, "7-wonders", wonders(ANN, ANN, ZERO), day=1)
    ids["l2"] = pad(j, abc, "rounds-lowest", rounds((6, 1, 3), (4, 3, 1)), day=2)
    ids["c1"] = pad(j, abc, "coop", [pc.CoopOutcome(True)], day=3)
    ids["c2"] = pad(j, abc, "coop", [pc.CoopOutcome(False)], day=4)
    duel = {**pad_template("rounds-highest"), "id": "duel", "name": "Duel",
            "instant_win": True, "eliminate": True, "bgg_id": 173346}
    ids["i1"] = pad(j, abc, duel, [*rounds((10, 20, 5), end=False), pc.Eliminate(2),
                                   pc.InstantWin((0,), "science")], day=5)
    ids["teams"] = pad(j, [*abc, ids["Dee"]], "rounds-highest", rounds((3, 4, 5, 1)),
                       day=6, teams=[[0, 2], [1, 3]])
    castor(j, abc, [sheet([5, 5, 0], [1, 1, 2], [0, 0, 3])] * 2, day=7)
    evil(j, [ids["Ann"], ids["Cy"]], won=True, day=8)
    bond(j, [ids["Bob"], ids["Cy"]], [(0, 3), (1, 2)], day=9)
    return j, ids


def _play_of(data: dict[str, Any], game_id: int) -> dict[str, Any]:
    wanted = export.play_uuid(game_id)
    return next(p for p in data["plays"] if p["uuid"] == wanted)


def test_the_file_reads_back_as_public_readers_read_it(
        night: tuple[Journal, dict[str, int]]) -> None:
    j, ids = night
    for language in ("en", "fr"):
        data = read_back(export.bgstats_text(j, translator=Translator(language), tz=UTC))
        assert len(data["plays"]) == 10
    manual = {k: _play_of(data, ids[k])["manualWinner"]
              for k in ("w1", "w2", "l2", "c1", "c2", "i1", "teams")}
    # chosen against the scores: the tie-breaker, a co-op win, the instant win over
    # Bob's 20 points, a team's total; the scores alone: a shared top score, lowest
    # wins, a co-op loss (no winner, no points)
    assert manual == {"w1": True, "w2": False, "l2": False, "c1": True, "c2": False,
                      "i1": True, "teams": True}
    duel = next(g for g in data["games"] if g["name"] == "Duel")
    assert duel["bggId"] == 173346 and _play_of(data, ids["i1"])["bggId"] == 0
    assert [s["winner"] for s in _play_of(data, ids["i1"])["playerScores"]] == [
        True, False, False]


def test_me_names_a_player_in_no_play(night: tuple[Journal, dict[str, int]]) -> None:
    """A table has no owner: "me" is BG Stats' anonymous player, in none of the plays,
    so importing the file gives none of them to whoever imports it."""
    j, _ = night
    data = read_back(export.bgstats_text(j, tz=UTC))
    me = next(p for p in data["players"] if p["id"] == data["userInfo"]["meRefId"])
    assert me["isAnonymous"] is True and me["name"] == "Anonymous player"
    assert all(s["playerRefId"] != me["id"] for p in data["plays"]
               for s in p["playerScores"])
    french = export.bgstats(j, translator=Translator("fr"), tz=UTC)
    assert french["players"][0]["name"] == Translator("fr")("night.export.anonymous")
    assert [p["isAnonymous"] for p in data["players"]].count(True) == 1


def test_ids_stay_when_a_game_or_a_player_is_added(
        played: tuple[Journal, dict[str, int]]) -> None:
    """A template whose name comes first, and a new player: every game and player keeps
    its id (and uuid); the new ones take the next ids."""
    j, ids = played
    before = export.bgstats(j, tz=UTC)
    first = {**pad_template("rounds-highest"), "id": "aaa", "name": "Aaa: a first game"}
    eve = roster.add(j, "Eve").id
    pad(j, [eve, ids["Ann"]], first, rounds((1, 2)), day=9)
    after = read_back(export.bgstats_text(j, tz=UTC))
    for what in ("games", "players"):
        old = {r["uuid"]: r["id"] for r in before[what]}
        new = {r["uuid"]: r["id"] for r in after[what]}
        assert {u: new[u] for u in old} == old, what
        assert sorted(set(new.values()) - set(old.values())) == [len(old) + 1], what
    assert before["plays"] == after["plays"][1:]  # the new play first, the rest as they were
