"""Game night through the real app under Xvfb, by simulated touches only: the roster,
a Mr. Bond game from the roster, its history and log, statistics with charts, export,
backup and a refused restore, settings."""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

from companion.journal import Journal
from companion.night import history, roster
from tests.uidriver import Driver

pytestmark = pytest.mark.ui


def type_name(ui: Driver, name: str) -> None:
    assert ui.dialog == "keyboard"
    ui.tap("keyboard.clear")
    for letter in name:
        ui.tap(f"keyboard.{letter}")
    ui.tap("keyboard.ok")


def add_player(ui: Driver, name: str) -> None:
    ui.tap("players.add")
    type_name(ui, name)


def roster_names(ui: Driver) -> list[str]:
    names = []
    i = 0
    while ui.visible(f"players.{i}.name") is not None:
        names.append(ui.text(f"players.{i}.name"))
        i += 1
    return names


def play_bond_from_roster(ui: Driver) -> int:
    """Anne and Bob from the roster; Bob scores a kill of 3, the game ends by agreement."""
    ui.tap("home.game.bond")
    ui.tap("setup.roster")
    assert ui.dialog == "roster"
    assert ui.find("roster.ok").disabled  # nobody chosen yet
    ui.tap("roster.pick.0")
    ui.tap("roster.pick.1")
    assert ui.text("roster.pick.1") == "2. Bob"
    ui.screenshot("night-roster-picker-800x480")
    ui.tap("roster.ok")
    assert [ui.text("setup.name.0"), ui.text("setup.name.1")] == ["Anne", "Bob"]
    ui.tap("setup.start")
    assert ui.screen == "bond_play"
    ui.tap("play.player.1.add_lair")
    ui.tap("lair.add.3")
    ui.tap("play.player.1.attack")
    ui.tap("attack.by.0")
    ui.tap("attack.spy.3")
    ui.tap("attack.send")
    assert ui.dialog == "capture"
    ui.tap("capture.kill")
    ui.tap("play.end")
    ui.tap("end_confirm.ok")
    assert ui.screen == "bond_end"
    assert ui.text("end.score.1") == "Bob   3 pts"
    game_id = ui.app.session.game_id
    ui.tap("end.home")
    assert ui.screen == "home"
    return game_id


def test_roster_a_bond_game_from_it_then_history_log_and_statistics(launch: Any) -> None:
    ui = launch()
    ui.screenshot("night-home-800x480")
    ui.tap("home.players")
    assert ui.screen == "night_roster"
    assert ui.text("players.empty").startswith("No players yet")
    for name in ("BOB", "ANNE", "CLEO"):
        add_player(ui, name)
    assert roster_names(ui) == ["Anne", "Bob", "Cleo"]

    # a taken name (any case) and an empty one are refused; nothing changes
    add_player(ui, "ANNE")
    assert ui.dialog == "error"
    assert ui.text("error.text") == "Anne is already in the roster."
    ui.tap("error.ok")
    ui.tap("players.add")
    ui.tap("keyboard.ok")
    assert ui.text("error.text") == "A player needs a name."
    ui.tap("error.ok")
    assert roster_names(ui) == ["Anne", "Bob", "Cleo"]

    # rename, recolour, retire (kept apart, offered no more) and a refused rename
    ui.tap("players.2.name")
    type_name(ui, "CLEA")
    assert roster_names(ui) == ["Anne", "Bob", "Clea"]
    ui.tap("players.1.name")
    type_name(ui, "CLEA")
    assert ui.text("error.text") == "Clea is already in the roster."
    ui.tap("error.ok")
    ui.tap("players.0.colour")
    assert ui.dialog == "colour"
    ui.screenshot("night-colour-800x480")
    ui.tap("colour.5")
    anne = roster.players(ui.app.journal)[0]
    assert (anne.name, anne.colour) == ("Anne", "#3b73d9")
    assert ui.find("players.0.colour")._fill[:3] == pytest.approx((59 / 255, 115 / 255,
                                                                   217 / 255))
    ui.tap("players.2.retire")
    assert ui.text("players.2.retire") == "Bring back"
    ui.screenshot("night-players-800x480")
    ui.tap("players.back")

    game_id = play_bond_from_roster(ui)
    # the retired player was not offered; the seats are linked to the roster
    assert [s.player_id for s in history.game(ui.app.journal, game_id).seats] == [
        anne.id, roster.players(ui.app.journal)[1].id]

    ui.tap("home.history")
    assert ui.screen == "night_history"
    row = ui.text(f"history.game.{game_id}")
    assert row.startswith("Mr. Bond · ")
    assert "Anne 0, Bob 3" in row and "winner: Bob" in row
    ui.screenshot("night-history-800x480")
    ui.tap(f"history.game.{game_id}")
    assert ui.screen == "night_log"
    lines = []
    k = 0
    while ui.visible(f"log.line.{k}") is not None:
        lines.append(ui.text(f"log.line.{k}"))
        k += 1
    assert lines[0].startswith("1. lair card")
    assert any(line.startswith("3. kill") and "Bob kills the spy: +3 (score 3)" in line
               for line in lines)
    assert lines[-1].startswith("4. end of the game")
    ui.screenshot("night-log-800x480")
    ui.tap("log.back")
    ui.tap("history.back")

    ui.tap("home.stats")
    assert ui.screen == "night_stats"
    assert (ui.text("stats.player.0.name"), ui.text("stats.player.0.games"),
            ui.text("stats.player.0.wins"), ui.text("stats.player.0.rate"),
            ui.text("stats.player.0.streak")) == ("Bob", "1", "1", "100 %", "1 / 1")
    assert (ui.text("stats.player.1.name"), ui.text("stats.player.1.wins"),
            ui.text("stats.player.1.rate")) == ("Anne", "0", "0 %")
    ui.screenshot("night-stats-players-800x480")
    for _ in range(3):  # all games -> Pr. Evil -> Castor -> Mr. Bond
        ui.tap("stats.filter")
    assert ui.text("stats.filter") == "Game: Mr. Bond"
    assert (ui.text("stats.player.0.best"), ui.text("stats.player.0.kill"),
            ui.text("stats.player.1.best")) == ("3", "3", "0")
    ui.tap("stats.tab.games")
    text = ui.text("stats.kind.bond")
    assert "1 games finished" in text and "Best kill: 3 points (Bob)" in text
    ui.screenshot("night-stats-games-800x480")
    ui.tap("stats.tab.charts")
    assert (ui.text("stats.bars.label.0"), ui.text("stats.bars.value.0")) == ("Bob", "1")
    assert (ui.text("stats.bars.label.1"), ui.text("stats.bars.value.1")) == ("Anne", "0")
    assert ui.text("stats.lines.legend.1") == "Bob 3"
    assert ui.text("stats.lines.high") == "3"
    ui.screenshot("night-stats-charts-800x480")
    ui.resize(1280, 800)
    ui.screenshot("night-stats-charts-1280x800")
    ui.resize(800, 480)


def test_history_resumes_and_abandons_unfinished_games(launch: Any) -> None:
    ui = launch()
    ui.tap("home.game.bond")
    ui.tap("setup.start")
    first = ui.app.session.game_id
    ui.app.leave_game()
    ui.pump(5)
    ui.tap("home.game.bond")
    ui.tap("setup.start")
    second = ui.app.session.game_id
    ui.app.leave_game()
    ui.pump(5)
    ui.tap("home.tray")
    ui.tap("traysetup.add.d6")
    ui.tap("traysetup.roll")
    ui.app.leave_game()
    ui.pump(5)
    # three games to resume, the games and the game-night bar all fit 800x480
    for tid in ("home.game.bond", "home.history", "home.settings"):
        widget = ui.find(tid)
        assert widget.height >= 48 and widget.y >= 0, tid
    assert ui.text(f"home.resume.{second + 1}") == "Resume: Dice tray, rolls: 1"
    ui.screenshot("night-home-resume-800x480")
    ui.tap("home.history")
    assert "unfinished" in ui.text(f"history.game.{first}")
    ui.tap(f"history.abandon.{first}")
    assert ui.dialog == "abandon"
    ui.tap("abandon.ok")
    assert "abandoned" in ui.text(f"history.game.{first}")
    assert not ui.has(f"history.resume.{first}")
    ui.tap(f"history.resume.{second}")
    assert ui.screen == "bond_play"
    assert ui.app.session.game_id == second


def test_export_backup_and_a_refused_restore_change_nothing(launch: Any) -> None:
    ui = launch()
    journal = ui.app.journal
    folder = Path(journal.path).parent
    for name in ("Anne", "Bob"):
        roster.add(journal, name)
    play_bond_from_roster(ui)
    ui.tap("home.export")
    assert ui.screen == "night_export"
    assert ui.text("restore.empty").startswith("No backup file in")
    ui.tap("export.csv")
    csv_files = list(folder.glob("*.csv"))
    assert len(csv_files) == 1 and ui.text("export.status") == f"Saved: {csv_files[0]}"
    assert "Bob,Bob,3,1" in csv_files[0].read_text()
    ui.tap("export.bgstats")
    assert len(list(folder.glob("*-bgstats.json"))) == 1
    ui.tap("export.backup")
    backups = list(folder.glob("*-backup-*.zip"))
    assert len(backups) == 1
    assert ui.text("export.status").endswith("1 games, 2 players.")

    # a file that is not ours and a truncated backup: refused, the history untouched
    (folder / "aaa-broken.zip").write_bytes(b"this is not a zip file at all")
    good = backups[0].read_bytes()
    (folder / "aab-truncated.zip").write_bytes(good[: len(good) // 2])
    for name, why in (("aaa-broken.zip", "is not a Table Companion backup"),
                      ("aab-truncated.zip", "truncated or damaged")):
        time.sleep(0.01)
        (folder / name).touch()  # newest: listed first
        ui.tap("export.back")
        ui.tap("home.export")
        assert ui.text("restore.0").startswith(name)
        ui.tap("restore.0")
        assert ui.dialog == "error"
        assert why in ui.text("error.text")
        ui.screenshot(f"night-restore-refused-{name[:3]}-800x480")
        ui.tap("error.ok")
        assert len(history.games(ui.app.journal)) == 1
        assert ui.app.journal is journal

    # the good backup comes back: a player added since is gone, the game is there
    roster.add(journal, "Dan")
    ui.tap("export.back")
    ui.tap("home.export")
    index = next(i for i in range(3) if ui.text(f"restore.{i}").startswith(backups[0].name))
    ui.tap(f"restore.{index}")
    assert ui.dialog == "restore"
    assert "1 games, 2 players" in ui.text("restore.text")
    ui.screenshot("night-restore-confirm-800x480")
    ui.tap("restore.ok")
    assert ui.dialog == "restored"
    assert "kept as" in ui.text("restored.text")
    ui.tap("restored.ok")
    assert [p.name for p in roster.players(ui.app.journal)] == ["Anne", "Bob"]
    assert len(history.games(ui.app.journal)) == 1
    assert len(list(folder.glob("journal.sqlite3.before-restore-*"))) == 1
    ui.screenshot("night-export-800x480")


def test_settings_are_saved_checked_and_applied(launch: Any, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    target = tmp_path / "config" / "table-companion" / "config.yaml"
    ui = launch(hardware=True)
    ui.tap("home.settings")
    assert ui.screen == "night_settings"
    assert ui.text("settings.volume") == "Volume 100 %"
    assert "Unavailable" in ui.text("settings.dim") or "unavailable" in ui.text("settings.dim")
    assert ui.text("settings.dice.colour") == (
        "colour die: red, red, green, green, blue, blue")
    assert ui.text("settings.about").startswith("Table Companion 0.")
    ui.screenshot("night-settings-800x480")

    ui.tap("settings.sound")
    assert ui.text("settings.sound") == "Sound off"
    assert ui.app.hardware.buzzer.mute is True
    ui.tap("settings.volume.minus")
    ui.tap("settings.volume.minus")
    assert ui.text("settings.volume") == "Volume 80 %"
    assert ui.app.hardware.buzzer.volume == pytest.approx(0.8)
    assert ui.text("settings.tempo") == "Tunes: normal"
    ui.tap("settings.tempo")
    assert ui.text("settings.tempo") == "Tunes: fast"
    assert ui.app.hardware.buzzer.tempo == 360
    ui.tap("settings.lang.fr")  # at once: every screen in French, still on settings
    assert ui.screen == "night_settings"
    assert ui.text("settings.volume") == "Volume 80 %"
    assert ui.app.translator.language == "fr"
    ui.tap("settings.part.ring")
    assert ui.text("settings.part.ring") == "L'anneau de LED : désactivé"
    saved = yaml.safe_load(target.read_text())
    assert saved == {"hardware": {"buzzer": {"mute": True, "volume": 0.8, "tempo": 360},
                                  "ring": {"enabled": False}}, "language": "fr"}
    assert ui.text("settings.tempo") == "Airs : rapides"
    assert not target.with_name("config.yaml.tmp").exists()

    # the next start reads the file: French screens, the volume kept
    from companion import config

    loaded = config.load(target)
    ui = launch(language=loaded.get("language"), hardware=False)
    ui.tap("home.settings")
    assert ui.text("settings.title") == "Réglages"


def test_a_refused_setting_keeps_the_file(launch: Any, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "mine.yaml"
    target.write_text("language: en\n")
    monkeypatch.setenv("COMPANION_CONFIG", str(target))
    ui = launch()
    ui.tap("home.settings")
    # a value the config check refuses (a language this version does not have)
    ui.app.root.get_screen("night_settings").set_value("language", "de")
    ui.pump(3)
    assert ui.dialog == "error"
    assert "language" in ui.text("error.text") and "en, fr" in ui.text("error.text")
    assert target.read_text() == "language: en\n"
    assert not target.with_name("mine.yaml.tmp").exists()


def test_the_dimmer_lowers_the_backlight_and_a_touch_restores_it(tmp_path: Path) -> None:
    from ui.screens.night_prefs import Dimmer

    light = tmp_path / "backlight" / "panel"
    light.mkdir(parents=True)
    (light / "brightness").write_text("200\n")
    (light / "max_brightness").write_text("255\n")
    now = [0.0]
    dimmer = Dimmer(60, root=tmp_path / "backlight", clock=lambda: now[0])
    now[0] = 59
    dimmer.tick()
    assert (light / "brightness").read_text() == "200\n"
    now[0] = 61
    dimmer.tick()
    assert (light / "brightness").read_text() == "25" and dimmer.dimmed
    assert dimmer.touched() is False  # the touch still reaches the screen
    assert (light / "brightness").read_text() == "200" and not dimmer.dimmed
    dimmer.seconds = 0
    now[0] = 1000
    dimmer.tick()
    assert not dimmer.dimmed


def test_statistics_open_with_5000_games_of_history(launch: Any, tmp_path: Path) -> None:
    """Years of history still open and show (its speed is measured in bench/, not here)."""
    import bench.stats_history as bench
    from companion.night import stats

    path = tmp_path / "big" / "journal.sqlite3"
    path.parent.mkdir()
    bench.build(path, 5000, tmp_path).close()
    warm = Journal(path)
    stats.statistics(warm)  # facts computed and cached once, as after an upgrade
    warm.close()
    ui = launch(journal_file=path)
    ui.app.root.current = "night_stats"
    ui.pump(1)
    assert ui.visible("stats.title") is not None  # the frame at once, the figures after
    ui.settle()
    assert ui.visible("stats.player.11.wins") is not None
    ui.tap("stats.back")
    ui.tap("home.stats")
    assert ui.text("stats.player.0.games") != "0"
    ui.tap("stats.tab.charts")
    assert ui.text("stats.bars.value.0").isdigit()
    ui.tap("stats.back")
    ui.tap("home.history")
    assert ui.visible("history.more") is not None
    shutil.rmtree(path.parent, ignore_errors=True)


def test_a_castor_game_from_the_roster_is_linked_to_its_players(launch: Any) -> None:
    ui = launch()
    journal = ui.app.journal
    for name in ("Maëlys", "Nathaniel"):
        roster.add(journal, name)
    ui.tap("home.game.castor")
    ui.tap("setup.roster")
    assert ui.dialog == "roster"
    ui.tap("roster.pick.1")
    ui.tap("roster.pick.0")
    ui.tap("roster.ok")
    assert [ui.text("setup.name.0"), ui.text("setup.name.1")] == ["Nathaniel", "Maëlys"]
    ui.tap("setup.start")
    assert ui.screen == "castor_play"
    game_id = ui.app.session.game_id
    ids = {p.name: p.id for p in roster.players(journal)}
    assert [s.player_id for s in history.game(journal, game_id).seats] == [
        ids["Nathaniel"], ids["Maëlys"]]
