"""Exports against golden files (tests/golden/night_*). To accept a deliberate change
of format, run with NIGHT_UPDATE_GOLDEN=1 and review the diff."""

from __future__ import annotations

import csv
import io
import json
import os
from datetime import UTC
from pathlib import Path

import pytest

from companion.i18n import Translator
from companion.journal import Journal
from companion.night import export, history, roster
from tests.test_night_support import bond, castor, evil, open_journal, sheet

GOLDEN = Path(__file__).with_name("golden")


@pytest.fixture
def played(tmp_path: Path) -> Journal:
    j = open_journal(tmp_path)
    a, b, c = (roster.add(j, n).id for n in ("Ann", "Bob", "Cy"))
    castor(j, [a, b, c], [sheet([5, 5, 0], [1, 1, 2], [0, 0, 3])] * 2, day=0)
    evil(j, [a, c], won=True, difficulty="expert", day=1)
    bond(j, [b, c], [(0, 3), (1, 2)], day=2)
    history.abandon(j, bond(j, [a, b], [], end=False, day=3))
    roster.rename(j, c, "Cyril")  # exports show the current name; the CSV also the old one
    return j


def _golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("NIGHT_UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def test_csv_golden(played: Journal) -> None:
    text = export.csv_text(played, tz=UTC)
    _golden("night_plays.csv", text)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 3 + 2 + 2 + 2  # one row per game per player, abandoned included
    assert tuple(rows[0]) == export.CSV_COLUMNS


def test_bgstats_golden(played: Journal) -> None:
    text = export.bgstats_text(played, tz=UTC)
    _golden("night_bgstats.json", text)
    data = json.loads(text)
    assert len(data["plays"]) == 3  # the abandoned game is not a play
    ids = {p["id"] for p in data["players"]}
    games = {g["id"] for g in data["games"]}
    for play in data["plays"]:
        assert play["gameRefId"] in games
        assert {s["playerRefId"] for s in play["playerScores"]} <= ids
    coop = [g for g in data["games"] if g["cooperative"]]
    assert [g["name"] for g in coop] == [Translator("en")("core.games.evil")]


def test_exports_are_stable_and_translated(played: Journal, tmp_path: Path) -> None:
    first = export.bgstats(played, tz=UTC)
    assert export.bgstats(played, tz=UTC) == first  # same uuids: no double import
    french = export.bgstats(played, translator=Translator("fr"), tz=UTC)
    assert french["about"] == Translator("fr")("night.export.about") != first["about"]
    target = tmp_path / "out.csv"
    export.write(target, "a,b\n")
    assert target.read_text() == "a,b\n" and not target.with_name("out.csv.tmp").exists()


def test_a_file_written_in_pieces_is_the_whole_text(played: Journal, tmp_path: Path) -> None:
    # the BG Stats file is encoded and written a batch at a time, never joined whole
    data = export.bgstats(played, tz=UTC)
    pieces = list(export.json_chunks(data))
    assert len(pieces) > 10 and max(map(len, pieces)) < 1000
    assert "".join(pieces) == json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    target = tmp_path / "plays.json"
    long = ["é" * 40_000, "x", "ü" * 30_000, *pieces]  # batches cross WRITE_BATCH
    export.write(target, iter(long))
    assert target.read_text(encoding="utf-8") == "".join(long)
    assert not target.with_name("plays.json.tmp").exists()
