"""Long game-night work runs beside the screen: a progress bar says what is being done,
Cancel stops it, and the app stays usable meanwhile."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from companion.journal import Journal
from companion.messages import msg
from companion.night import jobs
from companion.night.jobs import Progress


@pytest.fixture
def big(tmp_path: Path) -> Path:
    import bench.stats_history as bench

    path = tmp_path / "big" / "journal.sqlite3"
    path.parent.mkdir()
    bench.build(path, 3000, tmp_path).close()  # no facts cached: the slow first time
    return path


def _gate(monkeypatch: pytest.MonkeyPatch, name: str) -> threading.Event:
    """Replace job `name` with one that waits, step after step, until released."""
    release = threading.Event()
    original = getattr(jobs, name)

    def gated(*args: Any, **kwargs: Any) -> Any:
        yield Progress(msg("night.progress.reading"), 0, 2)
        release.wait(20)
        yield Progress(msg("night.progress.csv"), 1, 2)
        return (yield from original(*args, **kwargs))

    monkeypatch.setattr(jobs, name, gated)
    return release


@pytest.mark.parametrize("language", ["en", "fr"])
def test_statistics_show_progress_and_cancel_keeps_the_app_usable(
        launch: Any, big: Path, monkeypatch: pytest.MonkeyPatch, language: str) -> None:
    release = _gate(monkeypatch, "statistics")
    ui = launch(language=language, journal_file=big)
    ui.tap("home.stats", settle=False)
    ui.wait_until(lambda: ui.has("stats.progress.cancel"))
    ui.pump(3)
    assert ui.text("stats.progress.text") in ("Reading the games…", "Lecture des parties…")
    assert ui.visible("stats.title") is not None  # the screen's frame is there meanwhile
    ui.screenshot(f"night-stats-progress-{language}-800x480")
    ui.tap("stats.progress.cancel", settle=False)
    assert not ui.has("stats.progress.cancel")
    release.set()
    ui.settle()
    assert ui.visible("stats.player.0.wins") is None  # cancelled: nothing shown late
    # the rest of the app works: the history opens (and reads the facts itself)
    ui.tap("stats.back")
    ui.tap("home.history")
    assert ui.visible("history.more") is not None


def _with_a_pad_game(path: Path) -> None:
    """One score pad game (three players, a round) among the history's games, so an
    export to its end writes the CSV and the long table beside it."""
    from companion.night import roster
    from tests.test_night_pad import rounds
    from tests.test_night_support import pad

    journal = Journal(path)
    pad(journal, [p.id for p in roster.players(journal)[:3]], "rounds-highest",
        rounds((3, 4, 5)), day=400)
    journal.close()


def test_a_cancelled_export_leaves_no_file(launch: Any, big: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Neither the CSV nor the score pad's long table beside it."""
    _with_a_pad_game(big)
    release = _gate(monkeypatch, "export_file")
    ui = launch(journal_file=big)
    ui.tap("home.export")
    ui.tap("export.csv", settle=False)
    ui.wait_until(lambda: ui.has("export.progress.cancel"))
    assert ui.find("export.bgstats").disabled  # one job at a time
    ui.pump(3)
    ui.screenshot("night-export-progress-800x480")
    ui.tap("export.progress.cancel", settle=False)
    release.set()
    ui.settle()
    assert ui.text("export.status") == "Cancelled."
    assert list(big.parent.glob("*.csv")) == []
    ui.tap("export.csv")  # and once more, to its end
    [written] = [p for p in big.parent.glob("*.csv") if not p.stem.endswith("-scores")]
    [scores] = big.parent.glob("*-scores.csv")
    assert ui.text("export.status") == f"Saved: {written}\nSaved: {scores}"
    assert written.read_text(encoding="utf-8").count("\n") > 3000
    assert scores.read_text(encoding="utf-8").count("\n") == 1 + 3  # a row per cell


def test_an_export_cancelled_too_late_takes_both_files_away(
        launch: Any, big: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Cancel tapped once the files are written, before the job has returned: the
    result is discarded, and with it both files."""
    _with_a_pad_game(big)
    release = threading.Event()
    original = jobs.export_file

    def held(*args: Any, **kwargs: Any) -> Any:
        written = yield from original(*args, **kwargs)
        release.wait(60)  # no step left to stop at: the job ends with its result
        return written

    monkeypatch.setattr(jobs, "export_file", held)
    ui = launch(journal_file=big)
    ui.tap("home.export")
    ui.tap("export.csv", settle=False)
    ui.wait_until(lambda: len(list(big.parent.glob("*.csv"))) == 2, timeout=120)
    ui.tap("export.progress.cancel", settle=False)
    release.set()
    ui.settle()
    assert ui.text("export.status") == "Cancelled."
    assert list(big.parent.glob("*.csv")) == []


def test_statistics_of_a_big_history_arrive_without_a_long_frame(
        launch: Any, big: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The facts of 3000 games are computed a chunk at a time on a worker, and the
    screen's loop runs while they are: a frame is drawn during the work, never one
    frame holding all of it. Told by threads and events, not by the frames' lengths,
    which a busy machine changes (bench/ measures those)."""
    from kivy.clock import Clock

    ui = launch(journal_file=big)
    main = threading.main_thread()
    chunks: list[tuple[bool, int]] = []  # (on the main thread, games) per chunk
    loop_ran = threading.Event()
    real_refresh = jobs.refresh

    def refresh(journal: Journal, game_ids: Any) -> Any:
        chunks.append((threading.current_thread() is main, len(game_ids)))
        if len(chunks) == 1:
            # the screen's loop must run a callback while this chunk is being worked on
            Clock.schedule_once(lambda _dt: loop_ran.set())
            assert loop_ran.wait(30), "the screen's loop did not run during the work"
        return real_refresh(journal, game_ids)

    monkeypatch.setattr(jobs, "refresh", refresh)
    ui.tap("home.stats")
    ui.settle()
    assert ui.text("stats.player.0.games") != "0"
    assert Journal(big).read("SELECT COUNT(*) FROM game_facts") == [(3000,)]
    assert loop_ran.is_set()
    assert chunks and not any(on_main for on_main, _ in chunks)
    assert sum(n for _, n in chunks) == 3000 and max(n for _, n in chunks) <= jobs.CHUNK


def test_no_full_collection_while_work_runs_beside_the_screen() -> None:
    """A full collection would walk everything the work holds, and hold every thread."""
    from ui.memory import OVERDUE, IdleCollector

    busy = {"on": True}
    collected: list[int] = []
    collector = IdleCollector(clock=lambda: 100.0, collect=lambda: collected.append(1),
                              pending=lambda: OVERDUE + 5, hold=lambda: busy["on"])
    collector.tick()
    assert collected == []
    busy["on"] = False
    collector.tick()
    assert collected == [1]


@pytest.mark.parametrize("step", ["check", "restore_all"])  # what the screen's jobs call
def test_an_unforeseen_failure_of_a_restore_is_said_as_refused(
        launch: Any, monkeypatch: pytest.MonkeyPatch, step: str) -> None:
    """A backup made to break the checks (an error the domain did not foresee, on the
    worker) is said as a refused backup in the error dialog; the journal stays open."""
    from companion.night import backup

    ui = launch()
    journal = ui.app.journal
    ui.tap("home.export")
    ui.tap("export.backup")
    [made] = Path(journal.path).parent.glob("*-backup-*.zip")
    games = [g.id for g in journal.games()]

    def broken(*_args: Any) -> Any:
        raise KeyError("made to break us")

    monkeypatch.setattr(backup, step, broken)
    ui.tap("export.back")
    ui.tap("home.export")
    assert ui.text("restore.0").startswith(made.name)
    ui.tap("restore.0")
    if step == "restore_all":
        assert ui.dialog == "restore"
        ui.tap("restore.ok")
    assert ui.dialog == "error"
    assert f"The backup {made} was refused (KeyError)" in ui.text("error.text")
    ui.tap("error.ok")
    assert [g.id for g in ui.app.journal.games()] == games  # open again, the same
    assert ui.app.journal.read_only is None
    assert not ui.find("export.back").disabled
