"""The app's own settings file, refused at start, is set aside (issue 33, item 9).

Nobody at the table can edit `settings.yaml` (the app writes it): when it cannot be
read, or a value in it is refused, the start moves it aside as
`settings.yaml.refused-<stamp>` (byte for byte, its reason in a `.reason` file beside
it), goes on with the user's config, and `Config.set_aside` says which settings no
longer apply (the app shows it: tests/test_ui_own_files.py). Everywhere else (a save,
`companion check-config`) the same file is refused with its problems as before.
"""

from __future__ import annotations

import errno
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion import config
from companion.config import ConfigError
from companion.settings import save_settings
from tests.helpers.checked import load

USER = "display:\n  fullscreen: true\nhardware:\n  buzzer: {volume: 0.5}\n"


@pytest.fixture(autouse=True)
def _own_places(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    monkeypatch.delenv("COMPANION_SETTINGS", raising=False)


def _nested(depth: int) -> str:
    return "a: " + "[" * depth + "]" * depth + "\n"


LAUGHS = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 9) + "]\n"
    for i in range(8))

#: (what is in the file, the key named first, the settings listed on screen)
REFUSED: dict[str, tuple[bytes, str, tuple[str, ...] | None]] = {
    "syntax": (b"language: [fr\n", "", None),
    "not utf-8": (b"language: fr\xff\n", "", None),
    "not a mapping": (b"- language\n- fr\n", "", None),
    "unknown key": (b"colour_scheme: dark\nlanguage: fr\n", "colour_scheme",
                    ("colour_scheme", "language")),
    "wrong type": (b"language: 3\n", "language", ("language",)),
    "language not offered": (b"language: de\n", "language", ("language",)),
    "number out of range": (b"display:\n  width: 99999\n", "display.width",
                            ("display.width",)),
    "not finite": (b"display:\n  roll_animation: .nan\n", "display.roll_animation",
                   ("display.roll_animation",)),
    "a section refuses it": (b"hardware:\n  buzzer:\n    volume: 5.0\n",
                             "hardware.buzzer.volume", ("hardware.buzzer.volume",)),
    "data_dir": (b"data_dir: /elsewhere\n", "data_dir", ("data_dir",)),
    "snapshot_every 0": (b"snapshot_every: 0\n", "snapshot_every", ("snapshot_every",)),
    "600 deep": (_nested(600).encode(), "a.0.0", None),
    "aliases that multiply": (LAUGHS.encode(), "e", None),
    "a tag": (b"language: !!python/object/apply:os.system [true]\n", "language", None),
    "merge key": (b"base: &b {language: fr}\n<<: *b\n", "<<", None),
    "too big": (b"language: fr\n" + b"# " + b"x" * 70_000 + b"\n", "", None),
}


def start(tmp_path: Path, user: Path, **kwargs: Any) -> config.Config:
    return load(user, data_dir=str(tmp_path / "data"), set_aside_settings=True,
                       **kwargs)


def settings_file(tmp_path: Path) -> Path:
    return tmp_path / "data" / config.SETTINGS_FILE


def user_file(tmp_path: Path) -> Path:
    path = tmp_path / "config.yaml"
    path.write_text(USER, encoding="utf-8")
    return path


def aside(tmp_path: Path) -> list[Path]:
    return sorted(p for p in (tmp_path / "data").iterdir()
                  if p.name.startswith("settings.yaml.refused-")
                  and not p.name.endswith(".reason"))


def check_set_aside(tmp_path: Path, make: Callable[[Path], None], key: str,
                    keys: tuple[str, ...] | None) -> config.SetAside:
    user = user_file(tmp_path)
    alone = load(user, use_default_user_file=False).data  # the user's config
    place = settings_file(tmp_path)
    place.parent.mkdir(exist_ok=True)
    make(place)
    # a save and `companion check-config` still refuse it, naming the file
    with pytest.raises(ConfigError) as refused:
        load(user, data_dir=str(tmp_path / "data"))
    assert any(p.file == str(place) for p in refused.value.problems)
    assert any(p.key.startswith(key) for p in refused.value.problems)
    before = place.read_bytes() if place.is_file() and not place.is_symlink() else None

    cfg = start(tmp_path, user)  # the start goes on with the user's config
    assert cfg.data == alone
    found = cfg.set_aside
    assert found is not None and found.file == str(place)
    assert found.problems[0].key.startswith(key)
    assert found.keys == keys and found.count == len(keys or ())
    assert not os.path.lexists(place)
    (kept,) = aside(tmp_path)
    assert found.kept == str(kept)
    if before is not None:
        assert kept.read_bytes() == before  # byte for byte
    reason = Path(f"{kept}.reason").read_text(encoding="utf-8")
    assert found.problems[0].message.key in reason and str(place) in reason
    again = start(tmp_path, user)  # the next start: nothing to set aside
    assert again.set_aside is None and again.data == alone
    return found


@pytest.mark.parametrize("name", list(REFUSED))
def test_a_refused_settings_file_is_set_aside_and_the_start_goes_on(
        tmp_path: Path, name: str) -> None:
    content, key, keys = REFUSED[name]
    check_set_aside(tmp_path, lambda place: place.write_bytes(content), key, keys)


def test_a_symlink_to_a_named_pipe_never_hangs_the_start(tmp_path: Path) -> None:
    def pipe(place: Path) -> None:
        os.mkfifo(tmp_path / "pipe")
        place.symlink_to(tmp_path / "pipe")

    done: list[config.SetAside] = []
    worker = threading.Thread(target=lambda: done.append(
        check_set_aside(tmp_path, pipe, "", None)), daemon=True)
    worker.start()
    worker.join(timeout=60)  # a bound on a hang, not a synchronisation
    assert done, "the start waited on the named pipe"
    assert done[0].problems[0].message.key == "core.config.not_regular"
    assert (tmp_path / "pipe").exists()  # the link was moved, not what it points to


def test_a_folder_in_its_place_is_set_aside(tmp_path: Path) -> None:
    found = check_set_aside(tmp_path, lambda place: place.mkdir(), "", None)
    assert found.problems[0].message.key == "core.config.not_regular"


def test_only_what_the_settings_file_sets_is_blamed_on_it(tmp_path: Path) -> None:
    """The user's own mistakes stay the user's: the problem screen, as before."""
    user = tmp_path / "config.yaml"
    user.write_text("language: de\n", encoding="utf-8")
    place = settings_file(tmp_path)
    place.parent.mkdir()
    place.write_text("display:\n  fullscreen: true\n", encoding="utf-8")
    with pytest.raises(ConfigError) as refused:
        start(tmp_path, user)
    assert [(p.file, p.key) for p in refused.value.problems] == [(str(user), "language")]
    assert place.exists() and not aside(tmp_path)


def test_after_a_set_aside_the_settings_screen_saves_again(tmp_path: Path) -> None:
    user = user_file(tmp_path)
    place = settings_file(tmp_path)
    place.parent.mkdir()
    place.write_text("language: 3\n", encoding="utf-8")
    cfg = start(tmp_path, user)
    assert cfg.set_aside is not None and cfg.settings_file == place
    save_settings({"language": "fr"}, cfg)
    assert cfg.get("language") == "fr"
    again = start(tmp_path, user)
    assert again.set_aside is None and again.get("language") == "fr"
    assert len(aside(tmp_path)) == 1


def test_a_file_that_cannot_be_moved_is_left_out_at_every_start_and_said(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A read-only card: the rename fails (EROFS); the start goes on all the same."""
    def read_only(path: Path, label: str) -> Path:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))

    monkeypatch.setattr(config, "keep_aside", read_only)
    user = user_file(tmp_path)
    place = settings_file(tmp_path)
    place.parent.mkdir()
    place.write_text("language: 3\n", encoding="utf-8")
    for _ in range(2):  # each start: left where it is, left out, said
        cfg = start(tmp_path, user)
        assert cfg.set_aside is not None and cfg.set_aside.kept is None
        assert cfg.set_aside.keys == ("language",)
        assert cfg.get("language") == "en" and place.read_text() == "language: 3\n"


def test_many_refused_settings_are_counted(tmp_path: Path) -> None:
    lines = "".join(f"  k{i}: {i}\n" for i in range(60))
    user = user_file(tmp_path)
    place = settings_file(tmp_path)
    place.parent.mkdir()
    place.write_text(f"unknown:\n{lines}", encoding="utf-8")
    found = start(tmp_path, user).set_aside
    assert found is not None and found.count == 60
    assert found.keys == tuple(f"unknown.k{i}" for i in range(config.MAX_DROPPED_KEYS))
