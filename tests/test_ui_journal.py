"""Issue 14 in the real app: a damaged row or a journal that cannot be written now
never takes the table down (the app under Xvfb, driven by taps)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

from companion.journal import Journal
from companion.night import history
from tests.test_night_damaged import a_night, damage
from tests.test_night_support import open_journal


def test_a_damaged_unfinished_game_leaves_the_app_up_and_other_games_intact(
        launch: Any, tmp_path: Path) -> None:
    # case 2: "One malformed JSON value in an unfinished game's row crashes the app at
    # every start"; case 3: History, Statistics and a game's log crash on it
    _, ids = a_night(tmp_path)
    path = tmp_path / "journal.sqlite3"
    victim = ids["bond"]
    damage(path, victim, "games", "setup", "not json")
    ui = launch(journal_file=path)
    assert ui.dialog == "error"  # the start says which game and why, and stays up
    assert f"Game {victim} is damaged" in ui.text("error.text")
    ui.screenshot("journal-damaged-start-800x480")
    ui.tap("error.ok")
    assert ui.screen == "home"
    assert not ui.has(f"home.resume.{victim}")  # not offered: History lists it
    ui.tap("home.history")
    assert "damaged, cannot be read" in ui.text(f"history.game.{victim}")
    assert "damaged" not in ui.text(f"history.game.{ids['castor']}")
    ui.screenshot("journal-damaged-history-800x480")
    ui.tap(f"history.game.{victim}")
    assert ui.screen == "night_log" and "is damaged" in ui.text("log.error")
    ui.tap("log.back")
    ui.tap(f"history.game.{ids['castor']}")
    assert ui.text("log.line.0").startswith("1. ")  # another game's log reads in full
    ui.tap("log.back")
    ui.tap("history.back")
    ui.tap("home.stats")
    ui.tap("stats.tab.games")
    assert "1 damaged game is not counted" in ui.text("stats.damaged")
    ui.tap("stats.tab.charts")
    ui.tap("stats.back")
    ui.tap("home.export")
    ui.tap("export.csv")
    written = sorted(path.parent.glob("*.csv"))  # no score pad game: no long table
    assert len(written) == 1 and f"\n{victim}," in written[0].read_text()
    ui.tap("export.back")
    ui.tap("home.game.castor")  # and a new game is played as usual
    assert ui.screen == "castor_setup"


def test_a_damaged_action_shows_the_log_up_to_the_damage(launch: Any,
                                                        tmp_path: Path) -> None:
    _, ids = a_night(tmp_path)
    path = tmp_path / "journal.sqlite3"
    damage(path, ids["bond_done"], "actions", "command", "not utf-8")
    ui = launch(journal_file=path)
    ui.app.leave_game()
    ui.pump(5)
    ui.tap("home.history")
    ui.tap(f"history.game.{ids['bond_done']}")
    assert ui.text("log.line.0").startswith("1. ")
    assert "Damaged in the journal from here" in ui.text("log.line.1")
    ui.screenshot("journal-damaged-log-800x480")


HOLD = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN IMMEDIATE")
db.execute("UPDATE games SET updated = updated")
print("locked", flush=True)
sys.stdin.readline()
"""


def test_a_journal_another_program_is_writing_opens_read_only_and_says_so(
        launch: Any, tmp_path: Path) -> None:
    # case 1: the file stays where it is, the screen says what to do
    j = open_journal(tmp_path)
    j.close()
    _, ids = a_night(tmp_path)
    path = tmp_path / "journal.sqlite3"
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=DELETE")
    db.close()
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(path)], text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        ui = launch(journal_file=path)
        assert ui.dialog == "journal_read_only"
        assert "cannot be written now" in ui.text("journal_read_only.text")
        ui.screenshot("journal-read-only-800x480")
        ui.tap("journal_read_only.ok")
        ui.app.leave_game()
        ui.pump(5)
        ui.tap("home.history")  # looking works
        assert len(history.games(ui.app.journal)) == 4
        ui.tap("history.back")
        ui.tap(f"home.abandon.{ids['bond']}")  # writing is refused, with the reason
        assert ui.dialog == "abandon"  # asked first, as every destructive action
        ui.tap("abandon.yes")
        assert ui.dialog == "error" and "cannot be written now" in ui.text("error.text")
    finally:
        holder.communicate("\n", timeout=10)
    assert sorted(p.name for p in tmp_path.iterdir() if "unreadable" in p.name) == []


def test_tapping_hostile_backups_in_the_restore_list_shows_why(launch: Any,
                                                              tmp_path: Path) -> None:
    # case 4: "Tapping a hostile file in the restore list crashes the app"
    import json
    import zipfile

    from companion.night import backup
    from tests.test_night_backup_hostile import (
        deep_manifest,
        encrypted,
        textual_created,
        unknown_compression,
    )

    ui = launch()
    folder = Path(ui.app.journal.path).parent
    source = folder / "source.zip"
    backup.create(ui.app.journal, source)
    with zipfile.ZipFile(source) as zf:
        db, base = zf.read(backup.DATABASE), json.loads(zf.read(backup.MANIFEST))
    source.unlink()
    before = Path(ui.app.journal.path).read_bytes()
    for make in (encrypted, unknown_compression, deep_manifest, textual_created):
        work = tmp_path / make.__name__
        work.mkdir()
        make(work, db, base).replace(folder / "hostile.zip")
        ui.tap("home.export")
        ui.tap("restore.0")
        assert ui.dialog == "error", make.__name__
        assert "hostile.zip" in ui.text("error.text")
        if make is encrypted:
            ui.screenshot("journal-restore-refused-800x480")
        ui.tap("error.ok")
        ui.tap("export.back")
    assert Path(ui.app.journal.path).read_bytes() == before


def test_the_app_waits_for_a_locked_journal_then_starts_on_it(tmp_path: Path) -> None:
    # case 1: "the app goes on read-only or waits": `companion` shows the problem, keeps
    # the file where it is, and starts by itself once the other program lets go
    import os
    import socket
    import time

    from tests.test_core_journal_trouble import HOLDER, _journal_with_games

    data = tmp_path / "data"
    path = data / "journal.sqlite3"
    ids = _journal_with_games(path, games=1)
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(path), "everything"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(str(tmp_path / "notify"))
    notify.settimeout(0.2)
    env = dict(os.environ, NOTIFY_SOCKET=str(tmp_path / "notify"),
               XDG_CONFIG_HOME=str(tmp_path / "config"), KIVY_NO_CONSOLELOG="1")
    app = subprocess.Popen([sys.executable, "-m", "ui.commands.cli", "run",
                            "--data-dir", str(data)], env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE,
                           cwd=Path(__file__).resolve().parents[1])

    def heard(what: str) -> list[str]:
        said: list[str] = []
        until = time.monotonic() + 30
        while time.monotonic() < until and not any(what in s for s in said):
            try:
                said.append(notify.recv(4096).decode())
            except TimeoutError:
                continue
        return said

    try:
        first = heard("STATUS=A problem with the saved games")
        assert any("STATUS=A problem with the saved games" in s for s in first), first
        assert path.exists() and not list(data.glob("*.unreadable-*"))
        started = time.monotonic()
        holder.communicate("\n", timeout=10)  # the other program lets go
        second = heard("READY=1")
        assert any(s.startswith("READY=1") for s in second), second  # the real app
        assert time.monotonic() - started < 15
        assert app.poll() is None
    finally:
        app.kill()
        app.wait(timeout=10)
        notify.close()
        if holder.poll() is None:
            holder.kill()
    assert not list(data.glob("*.unreadable-*"))
    journal = Journal(path)
    assert [g.id for g in journal.games()] == ids


def test_in_french_a_damaged_game_is_said_and_listed(launch: Any, tmp_path: Path) -> None:
    _, ids = a_night(tmp_path)
    path = tmp_path / "journal.sqlite3"
    victim = ids["bond"]
    damage(path, victim, "games", "summary", "wrong type")
    ui = launch(language="fr", journal_file=path)
    assert ui.dialog == "error"
    assert f"La partie {victim} est endommagée" in ui.text("error.text")
    ui.screenshot("journal-damaged-start-fr-800x480")
    ui.tap("error.ok")
    ui.tap("home.history")
    assert "endommagée, illisible" in ui.text(f"history.game.{victim}")
    ui.screenshot("journal-damaged-history-fr-800x480")


def test_companion_says_a_newer_app_wrote_the_journal_and_leaves_it(
        tmp_path: Path, monkeypatch: Any) -> None:
    # case 8: "A journal from a newer version of the app is called unreadable and moved
    # aside"; now the problem screen says so, and nothing is retried nor touched
    from ui import main as start

    data = tmp_path / "data"
    open_journal(data).close()
    path = data / "journal.sqlite3"
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version=7")
    db.close()
    before = path.read_bytes()
    shown: list[tuple[str, list[str], object]] = []
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setattr(start, "show_problem",
                        lambda title, lines, retry=None: shown.append((title, lines, retry))
                        or 2)
    assert start.main(["--data-dir", str(data)]) == 2
    (title, lines, retry), = shown
    assert title == "A problem with the saved games" and retry is None
    assert "written by a newer version of the app (journal version 7)" in lines[0]
    # (beside it only the lock that keeps a second app away, which is no file's content)
    assert path.read_bytes() == before and sorted(p.name for p in data.iterdir()) == [
        "companion.lock", "journal.sqlite3"]
