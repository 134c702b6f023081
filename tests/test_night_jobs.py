"""The game-night jobs: step by step, the same results as the plain calls, progress that
only goes forward, and stopping between two steps leaves the journal as it was."""

from __future__ import annotations

from pathlib import Path

from bench.stats_history import build
from companion.i18n import Translator
from companion.journal import Journal
from companion.night import backup, export, history, jobs, stats
from companion.night.jobs import Progress


def _steps(job: jobs.Job) -> tuple[list[Progress], object]:
    seen: list[Progress] = []
    while True:
        try:
            seen.append(next(job))
        except StopIteration as stop:
            return seen, stop.value


def _big(tmp_path: Path, games: int = 1200) -> Journal:
    path = tmp_path / "big" / "journal.sqlite3"
    path.parent.mkdir()
    build(path, games, tmp_path).close()
    return Journal(path)


def test_jobs_give_what_the_plain_calls_give_with_forward_progress(tmp_path: Path) -> None:
    journal = _big(tmp_path)
    assert len(jobs.stale_games(journal)) == 1200  # nothing cached yet: the slow path
    seen, data = _steps(jobs.statistics(journal, ("castor", "bond"), 12))
    # the stale facts go 500 games a step, each step saying how far it is
    assert [p.what.key for p in seen].count("night.progress.facts") == 3
    assert [p.done for p in seen] == sorted(p.done for p in seen)
    assert all(p.total == seen[0].total for p in seen) and seen[-1].done < seen[-1].total
    assert jobs.stale_games(journal) == []
    assert data.statistics == stats.statistics(journal)
    assert data.recent["bond"] == history.games(journal, kind="bond", status="finished",
                                                limit=12)
    assert jobs.run(jobs.history_page(journal, "castor", 31)) == history.games(
        journal, kind="castor", limit=31)
    line, log = jobs.run(jobs.game_log(journal, 5))
    assert (line, log) == (history.game(journal, 5), history.log(journal, 5))

    tr = Translator("en")
    for what, plain in (("csv", export.csv_text), ("bgstats", export.bgstats_text)):
        target = tmp_path / f"out.{what}"
        assert jobs.run(jobs.export_file(journal, what, target, tr)) == [target]
        assert target.read_text(encoding="utf-8") == plain(journal, translator=tr)
    manifest = jobs.run(jobs.make_backup(journal, tmp_path / "b.zip"))
    assert manifest.games == 1200
    assert jobs.run(jobs.check_backup(tmp_path / "b.zip")) == backup.check(tmp_path / "b.zip")
    journal.close()


def test_a_job_stopped_between_steps_writes_nothing_more(tmp_path: Path) -> None:
    journal = _big(tmp_path)
    target = tmp_path / "never.csv"
    job = jobs.export_file(journal, "csv", target, Translator("en"))
    first = next(job)
    second = next(job)  # the first chunk of facts is being cached
    assert (first.what.key, second.what.key) == ("night.progress.reading",
                                                 "night.progress.facts")
    job.close()  # Cancel: the generator ends at the step it was at
    assert not target.exists()
    # what was cached stays valid; the rest is computed next time
    assert len(jobs.stale_games(journal)) == 1200  # the chunk runs after its step
    assert jobs.run(jobs.history_page(journal, None, 5))[0].id == 1200
    journal.close()


def test_another_connection_reads_the_same_journal(tmp_path: Path) -> None:
    journal = _big(tmp_path, games=20)
    other = journal.another_connection()
    assert other.read("SELECT COUNT(*) FROM games") == [(20,)]
    assert other.path == journal.path and other.moved_aside is None
    other.close()
    journal.close()
