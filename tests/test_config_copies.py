"""What a start parsed is kept for the next one (`config.ParsedCopies`): the same files
give the same config without parsing YAML again; anything else is read as before, and
every check after the reading still runs."""

from __future__ import annotations

import json
import os
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
        with pytest.raises(config.ConfigError):
            load(tmp_path, user)
    assert parses.count("config.yaml") == 2


def test_copies_from_another_reader_or_unreadable_are_ignored_and_written_again(
        tmp_path: Path, parses: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    user = tmp_path / "config.yaml"
    user.write_text("language: fr\n", encoding="utf-8")
    copies = tmp_path / config.PARSED_FILE
    load(tmp_path, user)
    monkeypatch.setattr(config, "_source_stamp", lambda: "another")
    parses.clear()
    assert load(tmp_path, user).get("language") == "fr"
    assert "config.yaml" in parses and json.loads(copies.read_text())["stamp"] == "another"
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
