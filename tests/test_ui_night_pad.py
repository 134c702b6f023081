"""History, a game's log and Statistics show finished score pad games (and the clock
that ran beside one) in English and French: the games are played through a real
Session into the journal, then the app opens on it and the screens are read after
simulated touches."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.games.pad import commands as pc
from companion.journal import Journal
from companion.night import roster
from tests.test_night_pad import ANN, BOB, CY, rounds, wonders
from tests.test_night_support import clock, pad
from tests.uidriver import Driver

pytestmark = pytest.mark.ui

TEXTS = {
    "en": {"title": "Score pad: 7 Wonders", "ranks": "1. Ann: 39, 2. Cy: 39, 3. Bob: 33",
           "winner": "winner: Ann", "shared": "winners: Bob, Cy",
           "clock": "Ann: 1:00, 1 turn, average 1:00, longest 1:00",
           "filter": "Game: 7 Wonders", "low": "Game: Rounds: lowest wins",
           "best": "Best score: 39 (Ann, Cy)",
           "best_low": "Best score (lowest wins): 4 (Bob, Cy)",
           "coop": "Score pad: Co-operative: win or lose together", "won": "won",
           "correction": "Round 1, Ann: 5 → 6"},
    "fr": {"title": "Bloc de score : 7 Wonders",
           "ranks": "1. Ann : 39, 2. Cy : 39, 3. Bob : 33",
           "winner": "gagnant : Ann", "shared": "gagnants : Bob, Cy",
           "clock": "Ann : 1:00, 1 tour, moyenne 1:00, le plus long 1:00",
           "filter": "Jeu : 7 Wonders", "low": "Jeu : Manches : le plus bas gagne",
           "best": "Meilleur score : 39 (Ann, Cy)",
           "best_low": "Meilleur score (le plus bas gagne) : 4 (Bob, Cy)",
           "coop": "Bloc de score : Coopératif : gagner ou perdre ensemble",
           "won": "gagnée", "correction": "Manche 1, Ann : 5 → 6"},
}


@pytest.fixture
def night(tmp_path: Path) -> tuple[Path, dict[str, int]]:
    path = tmp_path / "night" / "journal.sqlite3"
    path.parent.mkdir()
    j = Journal(path)
    ids = {n: roster.add(j, n).id for n in ("Ann", "Bob", "Cy")}
    abc = [ids["Ann"], ids["Bob"], ids["Cy"]]
    # 7 Wonders: Ann and Cy 39, Ann more coins; a clock beside it, a minute a turn
    ids["w"] = pad(j, abc, "7-wonders", wonders(ANN, BOB, CY), day=0)
    clock(j, abc, [60000, 60000, 60000], pad_game=ids["w"], day=0)
    # lowest wins, Ann's 5 corrected to 6, then a second round: Ann 10, Bob 4, Cy 4
    ids["low"] = pad(j, abc, "rounds-lowest",
                     [*rounds((5, 1, 3), end=False), pc.SetCell(0, 0, None, "6"),
                      *rounds((6, 1, 3), (4, 3, 1))[3:]], day=1)
    ids["coop"] = pad(j, abc, "coop", [pc.CoopOutcome(True)], day=2)
    j.close()
    return path, ids


def _log(ui: Driver) -> list[str]:
    lines, k = [], 0
    while ui.visible(f"log.line.{k}") is not None:
        lines.append(ui.text(f"log.line.{k}"))
        k += 1
    return lines


def _filter_to(ui: Driver, label: str) -> None:
    for _ in range(12):
        if ui.text("stats.filter") == label:
            return
        ui.tap("stats.filter")
    raise AssertionError(f"no filter {label!r}: {ui.text('stats.filter')!r}")


@pytest.mark.parametrize("language", ["en", "fr"])
def test_history_and_statistics_show_a_finished_pad_game(
        launch: Any, night: tuple[Path, dict[str, int]], language: str) -> None:
    path, ids = night
    said = TEXTS[language]
    ui = launch(language=language, journal_file=path)
    ui.tap("home.history")
    assert ui.screen == "night_history"
    row = ui.text(f"history.game.{ids['w']}")
    assert row.startswith(said["title"] + " · ")
    assert said["ranks"] in row and said["winner"] in row
    assert row.split("\n")[0].endswith("3 min")  # the clock's played time
    low = ui.text(f"history.game.{ids['low']}")
    assert said["shared"] in low  # every tied winner; the highest scorer is none
    coop = ui.text(f"history.game.{ids['coop']}")
    assert coop.startswith(said["coop"]) and f"\n{said['won']} · " in coop
    ui.screenshot(f"night-pad-history-{language}-800x480")

    ui.tap(f"history.game.{ids['w']}")
    assert ui.screen == "night_log"
    assert ui.text("log.clock.0") == said["clock"]
    assert ui.visible("log.clock.2") is not None  # a line for each seat
    ui.screenshot(f"night-pad-log-{language}-800x480")
    ui.tap("log.back")
    ui.tap(f"history.game.{ids['low']}")
    assert any(said["correction"] in line for line in _log(ui))
    ui.tap("log.back")
    ui.tap("history.back")

    ui.tap("home.stats")
    assert ui.screen == "night_stats"
    _filter_to(ui, said["filter"])
    assert (ui.text("stats.player.0.name"), ui.text("stats.player.0.wins"),
            ui.text("stats.player.0.rate"), ui.text("stats.player.0.best"),
            ui.text("stats.player.0.average")) == ("Ann", "1", "100 %", "39", "39.0")
    ui.screenshot(f"night-pad-stats-players-{language}-800x480")
    ui.tap("stats.tab.games")
    text = ui.text("stats.kind.pad:7-wonders")
    assert said["title"] in text and said["best"] in text
    ui.tap("stats.tab.charts")
    assert (ui.text("stats.bars.label.0"), ui.text("stats.bars.value.0")) == ("Ann", "1")
    assert ui.text("stats.lines.legend.0") == "Ann 39"
    ui.screenshot(f"night-pad-stats-charts-{language}-800x480")
    ui.tap("stats.tab.games")
    _filter_to(ui, said["low"])
    assert said["best_low"] in ui.text("stats.kind.pad:rounds-lowest")
    ui.screenshot(f"night-pad-stats-games-{language}-800x480")
    ui.tap("stats.tab.players")
    shown = {ui.text(f"stats.player.{i}.name"): (ui.text(f"stats.player.{i}.wins"),
                                                 ui.text(f"stats.player.{i}.best"))
             for i in range(3)}
    assert shown == {"Bob": ("1", "4"), "Cy": ("1", "4"), "Ann": ("0", "10")}


EIGHT = ("Annabelle", "Bartholomew", "Cassandra", "Dominique", "Evangeline", "Fitzgerald",
         "Guinevere", "Hildegarde")


@pytest.mark.parametrize("language", ["en", "fr"])
def test_eight_players_with_a_clock_are_legible(launch: Any, tmp_path: Path,
                                                language: str) -> None:
    """Eight long names, three-digit totals, one eliminated, a clock beside the game:
    every label of History, the log and Statistics fits, nothing under 18 px, at
    800x480 and 1280x800."""
    from tests.legibility import problems
    from tests.pad_helpers import template

    path = tmp_path / "eight" / "journal.sqlite3"
    path.parent.mkdir()
    j = Journal(path)
    ids = [roster.add(j, name).id for name in EIGHT]
    duel = {**template("rounds-highest"), "id": "long-evening", "eliminate": True,
            "name": {"en": "A long evening of rounds", "fr": "Une longue soirée de manches"}}
    game = pad(j, ids, duel, [*rounds(tuple(100 + 7 * s for s in range(8)), end=False),
                              pc.Eliminate(7), pc.End()])
    clock(j, ids, [61000 + 1000 * s for s in range(8)], pad_game=game, pause_ms=1000)
    j.close()
    ui = launch(language=language, journal_file=path)
    ui.tap("home.history")
    row = ui.text(f"history.game.{game}")
    # eliminated: out of the ranking, still shown
    assert "Hildegarde: 149 (" in row or "Hildegarde : 149 (" in row
    steps = [("night_history", None), ("night_log", f"history.game.{game}")]
    for screen, tap in steps:
        if tap is not None:
            ui.tap(tap)
        assert ui.screen == screen
        for size in ((800, 480), (1280, 800)):
            ui.resize(*size)
            assert problems(ui.app.root) == [], (screen, size)
        ui.resize(800, 480)
        ui.screenshot(f"night-pad-eight-{screen}-{language}-800x480")
    ui.tap("log.back")
    ui.tap("history.back")
    ui.tap("home.stats")
    ui.tap("stats.filter")
    ui.tap("stats.filter")
    ui.tap("stats.filter")
    ui.tap("stats.filter")  # all, three games, then the template
    assert "A long evening" in ui.text("stats.filter") or "Une longue" in ui.text(
        "stats.filter")
    for tab in ("players", "games", "charts"):
        ui.tap(f"stats.tab.{tab}")
        for size in ((800, 480), (1280, 800)):
            ui.resize(*size)
            assert problems(ui.app.root) == [], (tab, size)
        ui.resize(800, 480)
        ui.screenshot(f"night-pad-eight-stats-{tab}-{language}-800x480")
