"""The screen a game was on, kept beside the journal for a power cut (issue 29): kept
and found again for its game only; a file that is not ours, too large, or a folder that
cannot be written costs the convenience, never the game."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion import screen_memory


def test_a_record_comes_back_for_its_game_only(tmp_path: Path) -> None:
    record = {"game": 3, "screen": "pad_standings", "dialog": None, "seat": None}
    screen_memory.remember(tmp_path, record)
    assert screen_memory.recall(tmp_path, 3) == record
    assert screen_memory.recall(tmp_path, 4) is None
    screen_memory.remember(tmp_path, {"game": 3, "screen": "pad_play", "dialog": "player",
                                      "seat": 1})
    assert screen_memory.recall(tmp_path, 3)["dialog"] == "player"
    assert [p.name for p in tmp_path.iterdir()] == [screen_memory.NAME]  # no .tmp left


@pytest.mark.parametrize("content", [b"", b"{", b"\xff\xfe", b"[1, 2]", b'{"game": 3}',
                                     b'{"game": 3, "screen": 7}',
                                     b'{"game": 3, "screen": "x", "pad": "' + b"a" * 5000
                                     + b'"}'])
def test_a_file_that_is_not_a_record_is_ignored(tmp_path: Path, content: bytes) -> None:
    (tmp_path / screen_memory.NAME).write_bytes(content)
    assert screen_memory.recall(tmp_path, 3) is None


def test_no_folder_or_a_folder_that_cannot_be_written_loses_only_the_screen(
        tmp_path: Path) -> None:
    screen_memory.remember(None, {"game": 1, "screen": "pad_play"})
    assert screen_memory.recall(None, 1) is None
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        screen_memory.remember(folder, {"game": 1, "screen": "pad_standings"})
        if os.geteuid() != 0:  # root writes anywhere
            assert list(folder.iterdir()) == []
            assert screen_memory.recall(folder, 1) is None
    finally:
        folder.chmod(0o700)
