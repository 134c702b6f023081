"""What a start parsed is kept for the next one (`config.ParsedCopies`): the same files
give the same config without parsing YAML again; anything else is read as before, and
every check after the reading still runs."""

from __future__ import annotations

import json
import logging
import os
import threading
import zlib
from pathlib import Path
from typing import Any

import pytest

from companion import config


def load(tmp_path: Path, user: Path | None, folder: Path | None = None) -> config.Config:
    """A start: what the last one parsed, what this one parsed kept for the next."""
    copies = config.ParsedCopies((folder or tmp_path) / config.PARSED_FILE)
    try:
        return config.load(user, use_default_user_file=False, copies=copies)
    finally:
        copies.save()


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files parsed by YAML, in order."""
    seen: list[str] = []
    real = config._parse

    def parse(text: str, file: str, *args: Any) -> Any:
        seen.append(Path(file).name)
        return real(text, file, *args)

    monkeypatch.setattr(config, "_parse", parse)
    return seen


def test_a_start_with_the_same_files_parses_no_yaml_and_gets_the_same_config(
        tmp_path: Path, parses: list[str]) -> None:
    user = tmp_path / "config.yaml"
    user.write_text("language: fr\ngames:\n  evil:\n    power_spaces: [3, 9]\n",
                    encoding="utf-8")
    first = load(tmp_path, user)
    assert "config.yaml" in parses and "app.yaml" in parses
    parses.clear()
    again = load(tmp_path, user)
    assert parses == []
    assert again.data == first.data == config.load(user, use_default_user_file=False).data
    assert again.get("language") == "fr"


def test_a_changed_file_is_parsed_again(tmp_path: Path, parses: list[str]) -> None:
    user = tmp_path / "config.yaml"
    user.write_text("language: fr\n", encoding="utf-8")
    load(tmp_path, user)
    user.write_text("language: en\n", encoding="utf-8")
    parses.clear()
    assert load(tmp_path, user).get("language") == "en"
    assert parses == ["config.yaml"]  # the defaults, unchanged, from their copies


def test_every_check_after_the_reading_still_runs(tmp_path: Path) -> None:
    user = tmp_path / "config.yaml"
    user.write_text("language: de\ndisplay:\n  width: 99999\n", encoding="utf-8")
    for _ in range(2):  # the second time from the copy: refused the same way
        with pytest.raises(config.ConfigError) as caught:
            load(tmp_path, user)
        assert [(p.line, p.key) for p in caught.value.problems] == [(3, "display.width")]
    user.write_text("language: de\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(config.ConfigError) as caught:
            load(tmp_path, user)
        assert [(p.line, p.key) for p in caught.value.problems] == [(1, "language")]


def test_what_json_does_not_give_back_is_not_kept(tmp_path: Path, parses: list[str]) -> None:
    user = tmp_path / "config.yaml"
    user.write_text("language: 2024-01-01\n", encoding="utf-8")  # a date, for YAML
    for _ in range(2):
        parses.clear()
        with pytest.raises(config.ConfigError):
            load(tmp_path, user)
        assert "config.yaml" in parses  # parsed at each start, never taken from a copy
    copies = config.ParsedCopies(tmp_path / config.PARSED_FILE)
    assert copies.kept and not any("2024-01-01" in key for key in copies._old)


def test_copies_from_another_reader_or_unreadable_are_ignored_and_written_again(
        tmp_path: Path, parses: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    user = tmp_path / "config.yaml"
    user.write_text("language: fr\n", encoding="utf-8")
    copies = tmp_path / config.PARSED_FILE
    load(tmp_path, user)
    monkeypatch.setattr(config, "_source_stamp", lambda: "another")
    parses.clear()
    assert load(tmp_path, user).get("language") == "fr"
    assert "config.yaml" in parses
    assert copies.read_bytes().split(b"\n", 1)[0].split(b" ")[-2] == b"another"
    for damaged in ("{not json", '{"stamp": "another", "files": {"x": 1}}', "[]", ""):
        copies.write_text(damaged, encoding="utf-8")
        parses.clear()
        assert load(tmp_path, user).get("language") == "fr"
        assert "config.yaml" in parses


def test_a_folder_that_cannot_be_written_only_costs_a_parse(
        tmp_path: Path, parses: list[str]) -> None:
    user = tmp_path / "config.yaml"
    user.write_text("language: fr\n", encoding="utf-8")
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        for _ in range(2):
            cfg = load(tmp_path, user, folder)
            assert cfg.get("language") == "fr"
        if os.geteuid() != 0:  # root writes anywhere
            assert parses.count("config.yaml") == 2
            assert list(folder.iterdir()) == []
    finally:
        folder.chmod(0o700)


# -- a damaged copies file never stops a start (issue 33, item 2) ---------------------
SHIPPED = ["app.yaml", "bond.yaml", "castor.yaml", "evil.yaml", "pad.yaml", "tray.yaml",
           "hardware.yaml"]


def fresh(user: Path | None) -> dict[str, Any]:
    """The config the files themselves give, without any copy."""
    return config.load(user, use_default_user_file=False).data


def rewrite(path: Path, change: Any, *, checksum: bool) -> None:
    """Change the copies' JSON (`change(files)`), with or without a matching checksum:
    damage by the card, and damage made to look right."""
    head, body = path.read_bytes().split(b"\n", 1)
    files = json.loads(body)
    change(files)
    new = json.dumps(files).encode("utf-8")
    if checksum:
        head = head.rsplit(b" ", 1)[0] + f" {zlib.crc32(new):08x}".encode()
    path.write_bytes(head + b"\n" + new)


def entry(files: dict[str, Any], prefix: list[str], scan: bool) -> list[Any]:
    """The copy of the file read under `prefix` (shipped files are read unscanned)."""
    (found,) = [value for key, value in files.items() if json.loads(key)[:2] == [prefix, scan]]
    return found  # type: ignore[no-any-return]


def two_damaged_starts(tmp_path: Path, user: Path, damage: Any,
                       caplog: pytest.LogCaptureFixture) -> None:
    """Start, damage the copies, start; damage them again, start again: every start
    gives the config the files give, says in one line that the copies were not used,
    and leaves good copies behind (the next start parses nothing)."""
    expected = fresh(user)
    load(tmp_path, user)
    for _ in range(2):
        damage(tmp_path / config.PARSED_FILE)
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="companion.config"):
            assert load(tmp_path, user).data == expected
        said = [r.getMessage() for r in caplog.records if "parsed again" in r.getMessage()]
        assert len(said) == 1, caplog.text
        assert config.PARSED_FILE in said[0]
    copies = config.ParsedCopies(tmp_path / config.PARSED_FILE)
    assert copies.kept and copies.dropped is None
    assert config.load(user, use_default_user_file=False, copies=copies).data == expected
    assert copies.served == len(SHIPPED) + 1  # every file from its copy again


@pytest.fixture
def user(tmp_path: Path) -> Path:
    path = tmp_path / "config.yaml"
    path.write_text("language: fr\ndisplay:\n  width: 1024\n", encoding="utf-8")
    return path


def test_text_where_a_number_belongs_is_parsed_again(
        tmp_path: Path, user: Path, caplog: pytest.LogCaptureFixture) -> None:
    def shipped(files: dict[str, Any]) -> None:  # in a default: only the checksum says it
        entry(files, [], False)[0]["display"]["width"] = "eight hundred"

    def users(files: dict[str, Any]) -> None:  # in the user's file: its check says it too
        entry(files, [], True)[0]["display"]["width"] = "wide"

    def shipped_checksummed(files: dict[str, Any]) -> None:  # the app's own check says it
        entry(files, [], False)[0]["display"]["roll_animation"] = "slow"

    two_damaged_starts(tmp_path, user, lambda p: rewrite(p, shipped, checksum=False), caplog)
    # a refusal that comes from a copy never blames the correct file it names
    two_damaged_starts(tmp_path, user, lambda p: rewrite(p, users, checksum=True), caplog)
    two_damaged_starts(tmp_path, user,
                       lambda p: rewrite(p, shipped_checksummed, checksum=True), caplog)


def test_any_flipped_bit_is_parsed_again(
        tmp_path: Path, user: Path, caplog: pytest.LogCaptureFixture) -> None:
    load(tmp_path, user)
    size = (tmp_path / config.PARSED_FILE).stat().st_size
    # the header's first bytes, then bytes spread over the whole file, each bit in turn
    for n, at in enumerate([0, 30, 40, *range(60, size, size // 24)]):
        def flip(path: Path, at: int = at, bit: int = n % 8) -> None:
            raw = bytearray(path.read_bytes())
            raw[at] ^= 1 << bit
            path.write_bytes(bytes(raw))

        two_damaged_starts(tmp_path, user, flip, caplog)


def test_a_copy_nested_600_deep_is_refused_without_recursion(
        tmp_path: Path, user: Path, caplog: pytest.LogCaptureFixture) -> None:
    def nest(depth: int) -> Any:
        deep: Any = 1
        for _ in range(depth):
            deep = [deep]
        return deep

    def deep(files: dict[str, Any]) -> None:
        entry(files, ["games", "evil"], False)[0]["dice"]["clock"] = nest(600)

    two_damaged_starts(tmp_path, user, lambda p: rewrite(p, deep, checksum=True), caplog)
    two_damaged_starts(tmp_path, user, lambda p: rewrite(p, deep, checksum=False), caplog)
    big = tmp_path / "deeper"
    big.mkdir()
    user_big = big / "config.yaml"
    user_big.write_text(user.read_text(encoding="utf-8"), encoding="utf-8")
    head = b"[" * 100_000 + b"1" + b"]" * 100_000  # past what json itself can read
    load(big, user_big)

    def raw_deep(path: Path) -> None:
        first = path.read_bytes().split(b"\n", 1)[0].rsplit(b" ", 1)[0]
        path.write_bytes(first + f" {zlib.crc32(head):08x}".encode() + b"\n" + head)

    two_damaged_starts(big, user_big, raw_deep, caplog)


def test_dice_replaced_by_a_number_are_parsed_again_and_the_first_game_plays(
        tmp_path: Path, user: Path, caplog: pytest.LogCaptureFixture) -> None:
    from bench.games import PLAYERS
    from companion.games import rules_for
    from companion.journal import Journal
    from companion.session import Session

    def dice(files: dict[str, Any]) -> None:
        entry(files, ["games", "evil"], False)[0]["dice"] = 6

    def nan(files: dict[str, Any]) -> None:  # JSON would read NaN back: refused
        entry(files, ["games", "evil"], False)[0]["recovered_to_win"] = "NaN-here"

    def nan_bytes(path: Path) -> None:
        rewrite(path, nan, checksum=False)
        raw = path.read_bytes().replace(b'"NaN-here"', b"NaN")
        head, body = raw.split(b"\n", 1)
        path.write_bytes(head.rsplit(b" ", 1)[0] + f" {zlib.crc32(body):08x}".encode()
                         + b"\n" + body)

    two_damaged_starts(tmp_path, user, lambda p: rewrite(p, dice, checksum=False), caplog)
    two_damaged_starts(tmp_path, user, nan_bytes, caplog)
    load(tmp_path, user)
    rewrite(tmp_path / config.PARSED_FILE, dice, checksum=False)
    params = load(tmp_path, user).get("games.evil")
    assert params == fresh(user)["games"]["evil"]
    journal = Journal(tmp_path / "journal.sqlite3")
    session = Session.start(rules_for("evil"), journal, {
        "params": params, "seed": 3,
        "players": [{"name": n, "character": ch} for n, ch in PLAYERS],
        "treasures": {colour: 30 for colour in params["colours"]}})
    from companion.games.evil import commands as c

    session.dispatch(c.Roll())
    roll = session.state.last_roll
    assert roll is not None and roll.professor in params["dice"]["professor"]
    assert roll.clock in params["dice"]["clock"]
    journal.close()


def test_a_named_pipe_in_the_copies_place_never_hangs_a_start(
        tmp_path: Path, user: Path, caplog: pytest.LogCaptureFixture) -> None:
    def pipe(path: Path) -> None:
        path.unlink(missing_ok=True)
        os.mkfifo(path)

    result: list[Any] = []
    worker = threading.Thread(target=lambda: result.append(
        two_damaged_starts(tmp_path, user, pipe, caplog)), daemon=True)
    worker.start()
    worker.join(timeout=60)  # a bound on a hang, not a synchronisation: it returns at once
    assert result == [None], "a start waited on the named pipe"


def test_copies_read_are_gone_until_the_first_frame_saves_them(tmp_path: Path,
                                                                 user: Path) -> None:
    """A start that dies before its first frame (a kill, a crash outside Python) leaves
    the next one nothing derived to trust."""
    load(tmp_path, user)
    copies = config.ParsedCopies(tmp_path / config.PARSED_FILE)
    assert copies.kept and not (tmp_path / config.PARSED_FILE).exists()
    config.load(user, use_default_user_file=False, copies=copies)
    copies.save()
    assert config.ParsedCopies(tmp_path / config.PARSED_FILE).kept
