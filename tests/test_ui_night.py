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
        if ui.app.dialog.locate(f"keyboard.{letter}") is None:
            ui.tap("keyboard.shift")  # a digit on AZERTY: shift, one tap, as on paper
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
    assert (ui.text("end.name.0"), ui.text("end.score.0")) == ("Bob", "3")
    game_id = ui.app.session.game_id
    ui.tap("end.home")
    assert ui.screen == "home"
    return game_id


def test_a_roster_change_is_shown_once_durable_and_a_failed_one_says_so(
        launch: Any) -> None:
    from tests.helpers.writer import Gate, on_writer_connection

    ui = launch()
    app = ui.app
    ui.tap("home.players")
    add_player(ui, "ANNE")
    assert roster_names(ui) == ["Anne"]
    gate = Gate(app.writer)  # the card takes its time to sync
    ui.tap("players.add")
    for letter in "BOB":
        ui.tap(f"keyboard.{letter}")
    ui.tap("keyboard.ok", settle=False)
    ui.pump(5)
    # being saved: the screen keeps drawing, and shows the new player only once durable
    assert app.saving and roster_names(ui) == ["Anne"]
    gate.release(1)
    ui.wait_until(lambda: not app.saving)
    ui.pump(2)
    assert roster_names(ui) == ["Anne", "Bob"]
    # a card gone read-only: the rename is refused, said, and the roster as it was
    gate.open()
    on_writer_connection(app.writer, lambda j: j._db.execute("PRAGMA query_only=1"))
    ui.tap("players.1.name")
    type_name(ui, "CLEO")
    assert ui.dialog == "error" and "Could not save" in ui.text("error.text")
    ui.tap("error.ok")
    assert roster_names(ui) == ["Anne", "Bob"]
    on_writer_connection(app.writer, lambda j: j._db.execute("PRAGMA query_only=0"))


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
    # retiring asks first and says what changes; Cancel keeps the player in play
    assert ui.dialog == "retire"
    # "Set aside", not "Retire": the player is kept, only no longer offered
    assert ui.text("retire.title") == "Set Clea aside?"
    assert "no longer be offered" in ui.text("retire.text")
    ui.tap("retire.cancel")
    assert ui.text("players.2.retire") == "Set aside"
    ui.tap("players.2.retire")
    ui.tap("retire.yes")
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
    assert "Anne: 0, Bob: 3" in row and "winner: Bob" in row
    ui.screenshot("night-history-800x480")
    ui.tap(f"history.game.{game_id}")
    assert ui.screen == "night_log"
    lines = []
    k = 0
    while ui.visible(f"log.line.{k}") is not None:
        lines.append(ui.text(f"log.line.{k}"))
        k += 1
    assert lines[0].startswith("1. Lair card")
    assert any(line.startswith("3. Kill") and "Bob kills the spy: +3 (score 3)" in line
               for line in lines)
    assert lines[-1].startswith("4. End of the game")
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
    assert "1 game finished" in text and "Best kill: 3 points (Bob)" in text
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
    csv_files = list(folder.glob("*.csv"))  # no score pad game: no long table beside
    assert len(csv_files) == 1 and not csv_files[0].stem.endswith("-scores")
    assert ui.text("export.status") == f"Saved: {csv_files[0]}"
    assert "Bob,Bob,3,1" in csv_files[0].read_text()
    ui.tap("export.bgstats")
    assert len(list(folder.glob("*.bgsplay"))) == 1  # as BG Stats names its play files
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
    [kept] = folder.glob("journal.sqlite3.before-restore-*")
    assert f"The previous history was kept as {kept}." in ui.text("restored.text")
    ui.tap("restored.ok")
    assert [p.name for p in roster.players(ui.app.journal)] == ["Anne", "Bob"]
    assert len(history.games(ui.app.journal)) == 1
    ui.screenshot("night-export-800x480")


def test_a_restore_failing_halfway_changes_nothing_and_says_so(launch: Any) -> None:
    """A backup holding one of the table's templates, restored where `pad` is now a
    file: the restore fails when it stages the template, after the journal is ready;
    the error says nothing was changed, and it is true (the same history, nothing
    kept aside)."""
    from companion.night import backup

    ui = launch()
    journal = ui.app.journal
    folder = Path(journal.path).parent
    roster.add(journal, "Anne")
    pad = backup.own_config_dir() / "pad"
    pad.mkdir(parents=True, exist_ok=True)
    (pad / "family-golf.yaml").write_text("id: family-golf\nshape: rounds\nwin: lowest\n")
    try:
        ui.tap("home.export")
        ui.tap("export.backup")
        [made] = folder.glob("*-backup-*.zip")
        roster.add(journal, "Dan")  # since the backup: stays, as nothing is restored
        shutil.rmtree(pad)
        pad.write_text("a file where the folder goes")
        ui.tap("export.back")
        ui.tap("home.export")
        assert ui.text("restore.0").startswith(made.name)
        ui.tap("restore.0")
        ui.tap("restore.ok")
        assert ui.dialog == "error"
        assert "Nothing was changed." in ui.text("error.text")
        assert f"Could not write {pad}: " in ui.text("error.text")
        ui.tap("error.ok")
        assert [p.name for p in roster.players(ui.app.journal)] == ["Anne", "Dan"]
        assert not list(folder.glob("journal.sqlite3.*"))  # nothing kept aside, staged
        assert pad.read_text() == "a file where the folder goes"
        assert not ui.find("export.back").disabled
    finally:
        if pad.is_file():
            pad.unlink()


def test_settings_are_saved_checked_and_applied(launch: Any, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    monkeypatch.delenv("COMPANION_SETTINGS", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    # the app's own settings file, beside the journal; the user's config is never written
    target = tmp_path / "data" / "table-companion" / "settings.yaml"
    ui = launch(hardware=True)
    ui.tap("home.settings")
    assert ui.screen == "night_settings"
    assert ui.text("settings.volume") == "Volume 100 %"
    assert "Unavailable" in ui.text("settings.dim") or "unavailable" in ui.text("settings.dim")
    assert ui.text("settings.dice.colour") == (
        "colour die: red, red, green, green, blue, blue")
    assert ui.text("settings.about").startswith("Table Companion 0.")
    ui.screenshot("night-settings-800x480")

    from tests.helpers.writer import Gate

    gate = Gate(ui.app.writer)  # saved on the writer thread: shown once durable
    ui.tap("settings.sound", settle=False)
    ui.pump(5)
    assert ui.app.saving and not target.exists()
    assert ui.text("settings.sound") == "Sound on" and ui.app.hardware.buzzer.mute is False
    gate.open()
    ui.settle()
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
    assert not target.with_name("settings.yaml.tmp").exists()
    assert not (tmp_path / "config").exists()
    assert str(target) in ui.text("settings.about")

    # the next start reads the file: French screens, the volume kept
    from companion import config

    loaded = config.load()
    assert loaded.get("hardware.buzzer.volume") == pytest.approx(0.8)
    ui = launch(language=loaded.get("language"), hardware=False)
    ui.tap("home.settings")
    assert ui.text("settings.title") == "Réglages"


def test_a_refused_setting_keeps_the_file(launch: Any, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "settings.yaml"
    target.write_text("language: en\n")
    monkeypatch.setenv("COMPANION_SETTINGS", str(target))
    ui = launch()
    ui.tap("home.settings")
    # a value the config check refuses (a language this version does not have)
    ui.app.root.get_screen("night_settings").set_value("language", "de")
    ui.settle()  # saved on the writer thread: wait for its answer, not for frames
    assert ui.dialog == "error"
    assert "language" in ui.text("error.text") and "en, fr" in ui.text("error.text")
    assert target.read_text() == "language: en\n"
    assert not target.with_name("settings.yaml.tmp").exists()


def test_the_dimmer_lowers_the_backlight_and_a_touch_restores_it(tmp_path: Path) -> None:
    from ui.screens.night.prefs import Dimmer

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
    assert dimmer.touched() is True  # the waking touch stops there (tests/test_ui_dimming.py)
    assert (light / "brightness").read_text() == "200" and not dimmer.dimmed
    assert dimmer.touched() is False  # awake: the next touch reaches the screen
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


# -- names in any language, dialogs that hide nothing, abandon asks first -------------
def test_french_names_with_accents_typed_on_the_keyboard_reach_the_roster(
        launch: Any) -> None:
    ui = launch(language="fr")
    ui.tap("home.players")
    ui.tap("players.add")
    assert ui.dialog == "keyboard"
    assert ui.text("keyboard.count") == "0/24"
    # Kivy's VKeyboard, French layout: touches on its drawn keys, lower case; a name
    # starts with a capital by itself
    for letter in "hélène":
        ui.tap(f"keyboard.{letter}")
    assert (ui.text("keyboard.value"), ui.text("keyboard.count")) == ("Hélène", "6/24")
    ui.screenshot("night-keyboard-fr-800x480")
    ui.tap("keyboard.ok")
    add_player(ui, "françois 2")
    # Cancel keeps nothing of what was typed
    ui.tap("players.add")
    for letter in "zoé":
        ui.tap(f"keyboard.{letter}")
    ui.tap("keyboard.cancel")
    assert ui.dialog is None
    assert roster_names(ui) == ["François 2", "Hélène"]
    assert [p.name for p in roster.players(ui.app.journal)] == ["François 2", "Hélène"]


def test_the_name_keyboard_stops_at_its_limit_and_speaks_english(launch: Any) -> None:
    from ui.dialogs import NAME_MAX

    ui = launch()
    ui.tap("home.players")
    ui.tap("players.add")
    assert ui.app.dialog.keys.layout == "en_names"
    for letter in "abcdefghijklmnopqrstuvwxyz":
        ui.tap(f"keyboard.{letter}")
    assert ui.text("keyboard.value") == "Abcdefghijklmnopqrstuvwx"
    assert ui.text("keyboard.count") == f"{NAME_MAX}/{NAME_MAX}"
    ui.screenshot("night-keyboard-en-800x480")
    ui.tap("keyboard.ok")
    assert roster_names(ui) == ["Abcdefghijklmnopqrstuvwx"]


def _unfinished_bond_games(ui: Driver, count: int) -> list[int]:
    from companion.games import rules_for
    from companion.session import Session
    from tests.test_night_support import params

    ids = []
    for k in range(count):
        setup = {"params": params("bond"),
                 "players": [{"name": f"Ann {k}"}, {"name": f"Bob {k}"}]}
        ids.append(Session.start(rules_for("bond"), ui.app.journal, setup).game_id)
    ui.app.root.get_screen("home").refresh()
    ui.pump(5)
    return ids


def _drag_up(ui: Driver, tid: str, distance: float) -> None:
    from kivy.tests.common import UnitTestTouch
    from kivy.uix.scrollview import ScrollView

    widget = ui.find(tid)
    x, y = widget.to_window(*widget.center)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    for step in range(1, 11):
        ui.pump(1)
        touch.touch_move(x, y + distance * step / 10)
    touch.touch_up()
    scroll = widget
    while not isinstance(scroll, ScrollView):
        scroll = scroll.parent
    effect = scroll.effect_y
    # the fling has stopped (it runs on the clock's time, however long a busy machine
    # takes): a tap then lands where the widget stands
    ui.wait_until(lambda: not effect.is_manual and effect.velocity == 0
                  and not effect.overscroll)


def _pixel(path: Path, x: float, y: float) -> tuple[int, int, int]:
    """The colour of a screenshot at window coordinates (origin bottom left)."""
    from kivy.core.image import Image as CoreImage

    image = CoreImage(str(path), keep_data=True)
    r, g, b, _a = image.read_pixel(int(x), image.height - 1 - int(y))
    return round(r * 255), round(g * 255), round(b * 255)


def test_home_lists_every_unfinished_game_and_abandon_asks_first(launch: Any) -> None:
    ui = launch()
    ids = _unfinished_bond_games(ui, 5)
    # every game is listed (the list scrolls); the rest of home still fits 800x480
    assert all(ui.visible(f"home.resume.{gid}") is not None for gid in ids)
    for tid in ("home.game.bond", "home.history", "home.settings"):
        widget = ui.find(tid)
        assert widget.height >= 48 and widget.y >= 0, tid
    ui.screenshot("night-home-five-unfinished-800x480")
    # the oldest is at the bottom of the list: a finger drags the list up to reach it
    _drag_up(ui, f"home.resume.{ids[-1]}", 200)
    ui.screenshot("night-home-scrolled-800x480")

    ui.tap(f"home.abandon.{ids[0]}")
    assert ui.dialog == "abandon"
    assert ui.text("abandon.title") == "Abandon this game?"
    assert "Ann 0, Bob 0" in ui.text("abandon.text")
    assert "can no longer be resumed" in ui.text("abandon.text")
    # the dialog's body is opaque: where the screen behind has a green Resume button,
    # the screenshot shows the dialog's panel colour
    body = ui.app.dialog.box
    behind = ui.app.root.get_screen("home").box
    resume = next(w for w in behind.walk() if getattr(w, "tid", "") == f"home.resume.{ids[0]}")
    x = body.x + 4
    y = resume.to_window(*resume.center)[1]
    assert body.y < y < body.top and resume.to_window(resume.x, 0)[0] < x
    shot = ui.screenshot("night-home-abandon-800x480")
    panel = tuple(round(c * 255) for c in theme_panel())
    assert all(abs(a - b) <= 3 for a, b in zip(_pixel(shot, x, y), panel, strict=True))
    ui.confirm_default = None
    ui.app.confirm()  # the hardware OK button never abandons: it cancels
    assert ui.dialog is None
    assert ui.app.journal.game(ids[0]).abandoned == 0
    ui.tap(f"home.abandon.{ids[0]}")
    ui.tap("abandon.yes")
    assert ui.app.journal.game(ids[0]).abandoned
    assert ui.visible(f"home.resume.{ids[0]}") is None
    assert all(ui.visible(f"home.resume.{gid}") is not None for gid in ids[1:])


def theme_panel() -> tuple[float, ...]:
    from ui import theme

    return theme.PANEL[:3]


# -- the design system's own promises ---------------------------------------------------
def test_every_text_colour_pair_of_the_theme_reads_at_4_5_to_1() -> None:
    from ui import theme
    from ui.widgets.charts import PALETTE, hex_rgba

    fills = [theme.BUTTON, theme.ACCENT, theme.SELECTED, theme.DANGER, theme.SUCCESS,
             theme.PANEL, *theme.COLOURS.values(), *(hex_rgba(c) for c in PALETTE)]
    for fill in fills:
        text = theme.text_on(fill)
        assert theme.contrast(text, fill) >= 4.5, fill
        assert theme.contrast(text, theme.pressed(fill)) >= 4.5, fill
        assert theme.contrast(theme.disabled_text(fill), theme.disabled(fill)) >= 4.5, fill
        assert theme.disabled(fill)[3] == 1  # opaque: nothing behind shows through
    for text in (theme.TEXT, theme.MUTED, theme.ACCENT):
        for ground in (theme.BACKGROUND, theme.PANEL):
            assert theme.contrast(text, ground) >= 4.5
    # the selected state is dark on yellow, never white on yellow (1.6:1)
    assert theme.text_on(theme.SELECTED) == theme.INK
    assert theme.contrast(theme.TEXT, theme.SELECTED) < 2


def test_the_type_scale_keeps_its_minimums() -> None:
    from ui import theme

    assert min(theme.SIZE_SMALL, theme.SIZE_BODY, theme.SIZE_BUTTON) >= theme.MIN_TEXT == 18
    assert theme.SIZE_FIGURE * theme.CAP_RATIO >= theme.KEY_FIGURE_CAP == 26
    assert theme.MIN_TOUCH == 48 and theme.touch(30) == theme.touch() >= 48
    assert theme.scale_for(1280, 800) == pytest.approx(1.6)
    assert theme.scale_for(1920, 1080) == pytest.approx(2.25)


# -- statistics: guests are not players; a co-operative game's own record -----------------
def test_statistics_of_a_cooperative_game_and_no_placeholder_players(launch: Any) -> None:
    from companion.games import rules_for
    from companion.games.bond.commands import EndGame
    from companion.session import Session
    from tests.test_night_support import evil, params
    from ui import theme

    for language in ("en", "fr"):  # the same journal, read in both languages
        ui = launch(language=language)
        j = ui.app.journal
        if language == "en":
            ann, bob = roster.add(j, "Ann").id, roster.add(j, "Bob").id
            evil(j, [ann, bob], won=True, difficulty="expert", day=0)
            evil(j, [ann, bob], won=False, day=1)
            # a Mr. Bond game whose seats nobody named
            Session.start(rules_for("bond"), j, {
                "params": params("bond"),
                "players": [{"name": "Player 1"}, {"name": "Player 2"}]}).dispatch(EndGame())
        ui.tap("home.history")
        guest, colon = ("Player", ":") if language == "en" else ("Joueur", " :")  # as in play
        assert f"{guest} 1{colon} 0, {guest} 2{colon} 0" in ui.text(f"history.game.{3}")
        ui.tap("history.back")
        ui.tap("home.stats")
        names = [ui.text(f"stats.player.{i}.name") for i in range(2)]
        assert sorted(names) == ["Ann", "Bob"] and ui.visible("stats.player.2.name") is None
        ui.tap("stats.filter")  # all games -> Pr. Evil
        ui.tap("stats.tab.games")
        text = ui.text("stats.kind.evil")
        if language == "en":
            assert "Treasures: 1 recovered, 1 lost" in text
            assert "Expert (without the 30s): 1 won, 0 lost" in text
            assert "Most wins" not in text
        ui.screenshot(f"night-stats-evil-games-{language}-800x480")
        ui.tap("stats.tab.charts")
        labels = [(ui.text(f"stats.bars.label.{i}"), ui.text(f"stats.bars.value.{i}"))
                  for i in range(4)]
        if language == "en":
            assert labels == [("Standard\nwon", "0"), ("Standard\nlost", "1"),
                              ("Expert\nwon", "1"), ("Expert\nlost", "0")]
            assert [ui.text(f"stats.treasures.value.{i}") for i in range(2)] == ["1", "1"]
        ui.screenshot(f"night-stats-evil-charts-{language}-800x480")
        ui.tap("stats.filter")  # -> Castor: no line to show, both arrows disabled
        ui.tap("stats.filter")  # -> Mr. Bond: the guests' game
        arrow = ui.visible("stats.line.prev")
        assert arrow.disabled
        assert theme.contrast(arrow.disabled_color, theme.disabled(arrow._fill)) >= 4.5
        ui.screenshot(f"night-stats-bond-charts-{language}-800x480")
        ui.tap("stats.back")
        ui.tap("home.players")
        assert roster_names(ui) == ["Ann", "Bob"]


def test_a_plugged_in_keyboard_types_names_and_hides_the_on_screen_one(launch: Any) -> None:
    from kivy.core.window import Window

    ui = launch()
    ui.tap("home.players")
    ui.tap("players.add")
    assert ui.app.dialog.keys.parent is not None
    Window.dispatch("on_textinput", "zoë")  # SDL's text from a real keyboard
    ui.pump(3)
    assert ui.app.dialog.keys.parent is None  # the on-screen keys only took room
    Window.dispatch("on_key_down", 8, 0, None, [])  # Backspace
    Window.dispatch("on_textinput", "é")
    Window.dispatch("on_keyboard", 13, 0, None, [])  # Enter: the dialog's OK
    ui.settle()  # the roster's change is saved on the writer thread, then shown
    assert ui.dialog is None
    assert roster_names(ui) == ["Zoé"]
    # Escape cancels, and the next dialog no longer listens to the keyboard
    ui.tap("players.add")
    Window.dispatch("on_keyboard", 27, 0, None, [])
    ui.pump(3)
    Window.dispatch("on_textinput", "x")
    assert ui.dialog is None and roster_names(ui) == ["Zoé"]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_night_screens_are_legible_at_800x480_and_1280x800(launch: Any,
                                                                language: str) -> None:
    """Back at the same place on every screen; every label fits, no text under 18 px,
    every target 48 px both ways, every button's text at 4.5:1."""
    from tests.legibility import problems

    ui = launch(language=language)
    backs = {}
    for screen, tid in (("night_roster", "players"), ("night_history", "history"),
                        ("night_stats", "stats"), ("night_export", "export"),
                        ("night_settings", "settings")):
        ui.app.root.current = screen
        ui.settle()  # what it loads on a worker (history, statistics) shown, not 0.5 s
        ui.pump(3)  # laid out
        back = ui.find(f"{tid}.back")
        backs[screen] = (round(back.x), round(back.top), round(back.width), round(back.height))
        for size in ((800, 480), (1280, 800)):
            ui.resize(*size)
            assert problems(ui.app.root) == [], (screen, size)
        ui.resize(800, 480)
    assert len(set(backs.values())) == 1, backs


def test_every_line_of_a_chart_has_its_swatch_and_guests_differ(window: None) -> None:
    """Issue 29: the legend missed a swatch (the first series' was drawn 0 px wide) and
    every guest was the same grey."""
    from kivy.graphics import Color, Rectangle
    from kivy.metrics import dp

    from ui.widgets.charts import PALETTE, LineChart, guest_colours, hex_rgba

    taken = [hex_rgba(PALETTE[0])]
    spare = guest_colours(taken)
    guests = [next(spare), next(spare)]
    assert guests[0] != guests[1] and not set(guests) & set(taken)
    chart = LineChart(tid="t")
    chart.show([("Ann", [1, 2, 4], taken[0]), ("Player 2", [0, 3, 3], guests[0]),
                ("Player 3", [2, 2, 5], guests[1])], "none")
    chart.size = (600, 220)
    chart.redraw()
    colour, swatches = None, []
    for instruction in chart.canvas.children:
        if isinstance(instruction, Color):
            colour = tuple(instruction.rgba)
        elif isinstance(instruction, Rectangle) and tuple(instruction.size) == (dp(14), dp(14)):
            swatches.append(colour)
    assert swatches == [taken[0], *guests]
