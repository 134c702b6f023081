"""Only regular files are opened where a file is expected (issue 33): the config, the
settings, the catalogs, the unit templates, a backup to restore.

`companion.files.open_regular` opens without waiting (a named pipe with no writer
would block an ordinary open for ever) and checks the descriptor itself; each test
runs its opening on a thread joined with a generous bound, which only turns a hang
into a failure (it returns at once when the code is right)."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion import config
from companion.files import NotRegularFile, open_regular, read_regular_text
from tests.helpers.checked import load


def returns(work: Callable[[], Any]) -> Any:
    """What `work` returns or raises; a failure if it waits (on a pipe)."""
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(("returned", work()))
        except BaseException as exc:  # handed to the test
            outcome.append(("raised", exc))

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(timeout=30)
    assert outcome, "it waited on something that is not a file"
    kind, value = outcome[0]
    if kind == "raised":
        raise value
    return value


@pytest.fixture
def places(tmp_path: Path) -> dict[str, Path]:
    """A regular file, and what can stand in a file's place."""
    regular = tmp_path / "regular.yaml"
    regular.write_text("language: fr\n", encoding="utf-8")
    pipe = tmp_path / "pipe.yaml"
    os.mkfifo(pipe)
    link = tmp_path / "link.yaml"
    link.symlink_to(pipe)
    folder = tmp_path / "folder.yaml"
    folder.mkdir()
    return {"regular": regular, "pipe": pipe, "link to a pipe": link, "folder": folder,
            "device": Path("/dev/null")}


def test_open_regular_reads_a_file_and_refuses_the_rest_at_once(
        places: dict[str, Path]) -> None:
    assert returns(lambda: read_regular_text(places["regular"])) == "language: fr\n"
    with returns(lambda: open_regular(places["regular"])) as handle:
        handle.seek(3)  # an ordinary, blocking, seekable file object
        assert handle.read() == b"guage: fr\n" and os.get_blocking(handle.fileno())
    for name, kind in (("pipe", "named pipe"), ("link to a pipe", "named pipe"),
                       ("folder", "folder"), ("device", "device")):
        with pytest.raises(NotRegularFile) as refused:
            returns(lambda name=name: open_regular(places[name]))
        assert refused.value.strerror == f"not a regular file: a {kind}", name
        assert refused.value.filename == str(places[name])
    with pytest.raises(FileNotFoundError):
        open_regular(places["regular"].with_name("missing.yaml"))


def test_a_config_file_that_is_not_a_file_is_refused_with_a_message(
        places: dict[str, Path]) -> None:
    for name in ("pipe", "link to a pipe", "folder", "device"):
        with pytest.raises(config.ConfigError) as refused:
            returns(lambda name=name: load(places[name], use_default_user_file=False))
        (problem,) = refused.value.problems
        assert (problem.file, problem.message.key) == (str(places[name]),
                                                       "core.config.not_regular")


def test_a_backup_that_is_not_a_file_is_refused_and_the_journal_kept(
        tmp_path: Path) -> None:
    from companion.journal import Journal
    from companion.night import backup

    journal = tmp_path / "journal.sqlite3"
    Journal(journal).close()
    before = journal.read_bytes()
    pipe = tmp_path / "backup-pipe.zip"
    os.mkfifo(pipe)
    link = tmp_path / "backup-link.zip"
    link.symlink_to(pipe)
    folder = tmp_path / "backup-folder.zip"
    folder.mkdir()
    for zipped in (pipe, link, folder):
        for act in (lambda z=zipped: backup.check(z),
                    lambda z=zipped: backup.restore(z, journal)):
            with pytest.raises(backup.BackupError) as refused:
                returns(act)
            assert refused.value.message.key == "night.backup.unreadable"
            assert "not a regular file" in refused.value.message.params["reason"]
    assert journal.read_bytes() == before


def test_a_catalog_that_is_not_a_file_never_hangs_a_translation(tmp_path: Path) -> None:
    from companion.i18n import Translator

    folder = tmp_path / "fr" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    os.mkfifo(folder / "core.mo")
    assert returns(lambda: Translator("fr", tmp_path)("core.hello")) == "core.hello"


def test_the_language_of_a_refused_config_is_read_only_from_a_file(tmp_path: Path) -> None:
    """The problem screen's language comes from the refused file's `language:` line:
    a named pipe in its place gives the default language, at once."""
    from ui.commands.checkconfig import configured_language

    pipe = tmp_path / "config.yaml"
    os.mkfifo(pipe)
    assert returns(lambda: configured_language(pipe)) == "en"
    french = tmp_path / "french.yaml"
    french.write_text("language: fr\ndisplay: [\n", encoding="utf-8")
    assert configured_language(french) == "fr"
