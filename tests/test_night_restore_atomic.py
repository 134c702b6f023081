"""A restore is all or nothing (`backup.restore_all`, `swap`): a backup whose preset
the loader fails on, a `pad` that is a file, a read-only config folder, a card full at
any step, or a kill at any step leaves the table's journal and own files exactly as
they were (the message saying so), or, once the decision is taken, the backup's whole
(the message naming where the previous history is kept); never a mix."""

from __future__ import annotations

import errno
import os
import shutil
import signal
from pathlib import Path
from typing import Any

import pytest

from companion.games.clock import presets
from companion.i18n import Translator
from companion.journal import Journal
from companion.night import backup, roster, swap
from companion.night.backup import BackupError
from tests.test_night_support import open_journal

OWN = "id: family-golf\nname: {en: Family golf}\nplayers: {min: 2, max: 6}\n" \
      "shape: rounds\nwin: lowest\n"
BROKEN = "id: broken\nshape: rounds\nwin: sideways\n"
PRESET = "name: Our turns\nmode: turn\ntime: 45s\n"
#: a preset the YAML reader fails on: an integer of more digits than Python converts
HUGE = "name: Huge\nmode: turn\ntime: " + "9" * 5000 + "\n"


def _tree(root: Path) -> dict[str, bytes | None]:
    """Every file (its bytes) and folder (None) under `root`."""
    return {str(p.relative_to(root)): (p.read_bytes() if p.is_file() else None)
            for p in sorted(root.rglob("*"))}


def _make(tmp_path: Path, extra_clock: dict[str, str] | None = None) -> tuple[Path, Path]:
    """A backup (Ann and Bob; a template, a broken one, a preset) and a table (Kept;
    its own version of the template, the same broken one, one of its own, no clock
    folder) in `tmp_path/table`: the backup's path and the table's folder."""
    source = tmp_path / "source"
    (source / "config" / "pad").mkdir(parents=True)
    (source / "config" / "clock").mkdir()
    (source / "config" / "pad" / "family-golf.yaml").write_text(OWN)
    (source / "config" / "pad" / "broken.yaml").write_text(BROKEN)
    (source / "config" / "clock" / "our-turns.yaml").write_text(PRESET)
    for name, text in (extra_clock or {}).items():
        (source / "config" / "clock" / name).write_text(text)
    j = open_journal(source)
    roster.add(j, "Ann")
    roster.add(j, "Bob")
    file = tmp_path / "backup.zip"
    backup.create(j, file, source / "config")
    j.close()
    table = tmp_path / "table"
    (table / "config" / "pad").mkdir(parents=True)
    (table / "config" / "pad" / "family-golf.yaml").write_text(OWN.replace("Family", "Our"))
    (table / "config" / "pad" / "broken.yaml").write_text(BROKEN)
    (table / "config" / "pad" / "mine.yaml").write_text("id: mine\n")
    kept = open_journal(table / "data")
    roster.add(kept, "Kept")
    kept.close()
    return file, table


def _restore(file: Path, table: Path) -> backup.Restored:
    return backup.restore_all(file, table / "data" / "journal.sqlite3", table / "config")


def _players(table: Path) -> list[str]:
    journal = Journal(table / "data" / "journal.sqlite3")  # as the app opens it
    try:
        return [p.name for p in roster.players(journal, include_retired=True)]
    finally:
        journal.close()


def _is_old(table: Path, before: dict[str, dict[str, bytes | None]]) -> bool:
    """Exactly as before: every file and folder of the data and config folders."""
    return {"data": _tree(table / "data"), "config": _tree(table / "config")} == before


def _assert_new(table: Path, old_journal: bytes) -> None:
    """The backup's, whole: its journal and files, the table's previous ones kept aside
    (its journal byte for byte), its file the backup does not hold left, nothing
    staged left."""
    data, config = _tree(table / "data"), _tree(table / "config")
    [kept] = [n for n in data if ".before-restore-" in n]
    assert data[kept] == old_journal
    assert sorted(n for n in data if n != kept) == ["journal.sqlite3"]
    assert config["pad/family-golf.yaml"] == OWN.encode()
    assert config["pad/broken.yaml"] == BROKEN.encode()
    assert config["pad/mine.yaml"] == b"id: mine\n"
    assert config["clock/our-turns.yaml"] == PRESET.encode()
    [aside] = [n for n in config if ".before-restore-" in n]
    assert aside.startswith("pad/family-golf.yaml.") and config[aside].startswith(b"id: family")
    assert not [n for n in (*data, *config) if ".restore" in n]
    assert _players(table) == ["Ann", "Bob"]


def _snapshot(table: Path) -> dict[str, dict[str, bytes | None]]:
    return {"data": _tree(table / "data"), "config": _tree(table / "config")}


def _said(error: BackupError) -> tuple[str, str]:
    return Translator("en").message(error.message), Translator("fr").message(error.message)


def test_a_restore_puts_everything_in_place(tmp_path: Path) -> None:
    file, table = _make(tmp_path)
    old_journal = (table / "data" / "journal.sqlite3").read_bytes()
    restored = _restore(file, table)
    _assert_new(table, old_journal)
    assert restored.kept is not None and restored.kept.read_bytes() == old_journal
    assert restored.broken == ("pad/broken.yaml",)
    text = Translator("en")("night.ui.restored", kept=str(restored.kept))
    assert str(restored.kept) in text


def test_a_preset_the_loader_fails_on_changes_nothing(tmp_path: Path) -> None:
    file, table = _make(tmp_path, {"huge.yaml": HUGE})
    before = _snapshot(table)
    probe = tmp_path / "probe" / "huge.yaml"
    probe.parent.mkdir()
    probe.write_text(HUGE)
    try:  # the loader's own answer decides which of the two the restore must do
        presets.read_file(probe, own=True)
        fails = False
    except Exception:
        fails = True
    if fails:
        with pytest.raises(BackupError) as caught:
            _restore(file, table)
        assert _is_old(table, before)
        assert caught.value.message.key == "night.backup.refused"
        english, french = _said(caught.value)
        assert "clock/huge.yaml" in english and "nothing was changed" in english
        assert "rien n'a été changé" in french
    else:  # the reader lists it as broken: restored, and said to be broken
        assert "clock/huge.yaml" in _restore(file, table).broken


def test_a_pad_that_is_a_file_changes_nothing(tmp_path: Path) -> None:
    file, table = _make(tmp_path)
    shutil.rmtree(table / "config" / "pad")
    (table / "config" / "pad").write_text("a file where the folder goes")
    before = _snapshot(table)
    with pytest.raises(BackupError) as caught:
        _restore(file, table)
    assert _is_old(table, before)
    assert caught.value.message.key == "night.backup.write_failed"
    english, french = _said(caught.value)
    assert f"Could not write {table / 'config' / 'pad'}: " in english
    assert "Nothing was changed" in english
    assert "Rien n'a été changé" in french


class _ReadOnly(swap.Ops):
    """What the kernel answers a user (not root, whom it lets write anyway) making or
    renaming anything in a read-only folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _check(self, *paths: Path) -> None:
        for path in paths:
            if Path(path).parent.is_relative_to(self.folder):
                raise PermissionError(errno.EACCES, "Permission denied", str(path))

    def mkdir(self, path: Path) -> None:
        self._check(path)
        super().mkdir(path)

    def create(self, path: Path) -> Any:
        self._check(path)
        return super().create(path)

    def rename(self, source: Path, target: Path) -> None:
        self._check(source, target)
        super().rename(source, target)


def test_a_read_only_config_folder_changes_nothing(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    file, table = _make(tmp_path)
    config = table / "config"
    before = _snapshot(table)
    for folder in (config / "pad", config):
        folder.chmod(0o555)
    monkeypatch.setattr(swap, "OPS", _ReadOnly(config))
    try:
        with pytest.raises(BackupError) as caught:
            _restore(file, table)
    finally:
        for folder in (config, config / "pad"):
            folder.chmod(0o755)
    assert _is_old(table, before)
    assert caught.value.message.key == "night.backup.write_failed"
    assert "Nothing was changed" in _said(caught.value)[0]


class _Counting(swap.Ops):
    """Every file-system step of a restore, counted; `at(n, kind, args)` runs first."""

    def __init__(self) -> None:
        self.n = 0
        self.committed_at: int | None = None

    def at(self, n: int, kind: str, args: tuple[Any, ...]) -> None:
        if kind == "rename" and Path(args[1]).name.endswith(".restoring") and \
                self.committed_at is None and b'"forward"' in Path(args[0]).read_bytes():
            self.committed_at = n

    def _step(self, kind: str, *args: Any) -> None:
        self.n += 1
        self.at(self.n - 1, kind, args)

    def mkdir(self, path: Path) -> None:
        self._step("mkdir", path)
        super().mkdir(path)

    def create(self, path: Path) -> Any:
        self._step("create", path)
        return super().create(path)

    def write(self, handle: Any, data: bytes) -> None:
        self._step("write", handle)
        super().write(handle, data)

    def sync(self, handle: Any) -> None:
        self._step("sync", handle)
        super().sync(handle)

    def sync_file(self, path: Path) -> None:
        self._step("sync_file", path)
        super().sync_file(path)

    def sync_dir(self, folder: Path) -> None:
        self._step("sync_dir", folder)
        super().sync_dir(folder)

    def rename(self, source: Path, target: Path) -> None:
        self._step("rename", source, target)
        super().rename(source, target)

    def remove(self, path: Path) -> None:
        self._step("remove", path)
        super().remove(path)

    def rmdir(self, path: Path) -> None:
        self._step("rmdir", path)
        super().rmdir(path)


def _steps(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path, int, int]:
    """The scenario made once (`tmp_path/table`, copied for each run) and the number
    of steps of its restore, and the step that takes the decision (the intent file
    saying `forward` put in place)."""
    file, table = _make(tmp_path)
    trial = tmp_path / "trial"
    shutil.copytree(table, trial)
    counting = _Counting()
    monkeypatch.setattr(swap, "OPS", counting)
    _restore(file, trial)
    monkeypatch.setattr(swap, "OPS", swap.Ops())
    assert counting.committed_at is not None
    return file, table, counting.n, counting.committed_at


class _Full(_Counting):
    """The card is full at step `fail` (ENOSPC), and only there."""

    def __init__(self, fail: int) -> None:
        super().__init__()
        self.fail = fail
        self.failed: str | None = None

    def at(self, n: int, kind: str, args: tuple[Any, ...]) -> None:
        super().at(n, kind, args)
        if n == self.fail and kind != "sync_dir":  # fsync_dir never raises: best effort
            self.failed = kind
            raise OSError(errno.ENOSPC, "No space left on device", str(args[0]))


def test_a_full_card_at_any_step_changes_nothing(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    file, table, steps, decided = _steps(tmp_path, monkeypatch)
    old_journal = (table / "data" / "journal.sqlite3").read_bytes()
    before = _snapshot(table)
    undone = []
    for n in range(steps):
        run = tmp_path / f"full-{n}"
        shutil.copytree(table, run)
        full = _Full(n)
        monkeypatch.setattr(swap, "OPS", full)
        try:
            _restore(file, run)
        except BackupError as exc:
            monkeypatch.setattr(swap, "OPS", swap.Ops())
            assert full.failed is not None, n
            assert _snapshot(run) == before, (n, full.failed)  # exactly as before
            assert exc.message.key == "night.backup.write_failed", n
            assert "Nothing was changed" in _said(exc)[0]
            if n > decided:
                undone.append(n)
        else:  # nothing failed there (a folder's sync) or after all was in place
            monkeypatch.setattr(swap, "OPS", swap.Ops())
            assert full.failed is None or n > decided, n
            backup.finish_pending(run / "data" / "journal.sqlite3")  # the next start
            _assert_new(run, old_journal)
        shutil.rmtree(run)
    assert steps > 20
    assert undone  # renames done, then one failing: undone, and said so


def _killed_at(n: int, file: Path, run: Path) -> int:
    """The restore in a child process killed (SIGKILL) before its step `n`: how it
    ended (the signal, or 0 when it finished first)."""
    pid = os.fork()
    if pid == 0:  # the child: never back into pytest
        code = 3
        try:
            class Kill(_Counting):
                def at(self, k: int, kind: str, args: tuple[Any, ...]) -> None:
                    if k == n:
                        os.kill(os.getpid(), signal.SIGKILL)

            swap.OPS = Kill()
            _restore(file, run)
            code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.WTERMSIG(status) if os.WIFSIGNALED(status) else -os.WEXITSTATUS(status)


def test_a_kill_at_any_step_reopens_on_the_old_or_the_new_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    file, table, steps, decided = _steps(tmp_path, monkeypatch)
    old_journal = (table / "data" / "journal.sqlite3").read_bytes()
    before = _snapshot(table)
    outcomes = []
    for n in range(steps + 1):
        run = tmp_path / f"kill-{n}"
        shutil.copytree(table, run)
        ended = _killed_at(n, file, run)
        assert ended == (signal.SIGKILL if n < steps else 0), n
        backup.finish_pending(run / "data" / "journal.sqlite3")  # the start, as the app's
        if _snapshot(run) == before:
            outcomes.append("old")
            assert n <= decided, n  # once decided, never back to the old
            assert _players(run) == ["Kept"]
        else:
            outcomes.append("new")
            assert n > decided, n
            _assert_new(run, old_journal)
        shutil.rmtree(run)
    assert outcomes == ["old"] * (decided + 1) + ["new"] * (steps - decided)


@pytest.mark.parametrize("after", [-1, 3])  # steps after the decision: before it, in it
def test_the_app_s_start_finishes_or_undoes_a_restore_left_half_done(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, after: int,
        caplog: pytest.LogCaptureFixture) -> None:
    from ui.main import finish_restore

    file, table, _, decided = _steps(tmp_path, monkeypatch)
    old_journal = (table / "data" / "journal.sqlite3").read_bytes()
    before = _snapshot(table)
    assert _killed_at(decided + after, file, table) == signal.SIGKILL
    assert (table / "data" / "journal.sqlite3.restoring").exists() or after < 0
    finish_restore(table / "data" / "journal.sqlite3")  # what the start runs first
    if after < 0:
        assert _snapshot(table) == before
    else:
        _assert_new(table, old_journal)
        assert "a restore left half done was finished" in caplog.text


def test_a_card_full_while_sqlite_readies_the_journal_changes_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite's own writes in the staged journal (derived tables dropped, migrations)
    do not go through `swap.OPS`: its "disk is full" is said as a write that failed."""
    import sqlite3

    file, table = _make(tmp_path)
    before = _snapshot(table)

    def full(_path: Path) -> list[str]:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(backup, "_drop_stale_derived", full)
    with pytest.raises(BackupError) as caught:
        _restore(file, table)
    assert _is_old(table, before)
    assert caught.value.message.key == "night.backup.write_failed"
