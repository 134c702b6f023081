"""The set-ups open with the table's own folders at their bounds (100 templates, 100
presets, and files past the bound) and the UI thread parses none of them: every parse
is recorded with the thread that did it. The table's own entries are shown once read;
a file past the bound is named as broken. Real touches only."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from companion import config, ownfolder
from companion.games.clock import presets
from companion.games.pad import templates

pytestmark = pytest.mark.ui


def fill_folders(root: Path) -> None:
    pad, clock = root / templates.FOLDER, root / "clock"
    pad.mkdir(parents=True)
    clock.mkdir(parents=True)
    for i in range(ownfolder.MAX_FILES + 3):
        (pad / f"t{i:03d}.yaml").write_text(f"id: t{i:03d}\nname: Own {i:03d}\n"
                                            "shape: rounds\n")
    for i in range(ownfolder.MAX_FILES + 2):
        (clock / f"p{i:03d}.yaml").write_text(f"mode: sand\ntime: {i + 1}m\n"
                                              f"name: Own {i:03d}\n")


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[tuple[str, bool]]:
    """The own folders at their bounds; each file parsed and whether on the UI thread."""
    xdg = tmp_path / "xdg"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(xdg))
    fill_folders(xdg / config.APP_DIR)
    templates.CACHE.clear()
    presets.CACHE.clear()
    seen: list[tuple[str, bool]] = []
    real = config.read_yaml

    def read(path: Path, *args: Any, **kwargs: Any) -> Any:
        seen.append((Path(path).name, threading.current_thread() is threading.main_thread()))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(config, "read_yaml", read)
    monkeypatch.setattr(presets, "read_yaml", read)
    return seen


def test_the_pad_set_up_and_its_list_parse_nothing_on_the_ui_thread(launch, parses) -> None:
    ui = launch()
    ui.tap("home.game.pad")  # the tap settles: the worker's read has arrived
    ui.tap("setup.template")
    assert ui.dialog == "templates"
    ui.wait_until(lambda: ui.has("templates.t099"))
    assert ui.has("templates.rounds-highest")
    assert not ui.has("templates.t100") and not ui.has("templates.loading")
    assert "t102.yaml" in ui.text("templates.broken.2")  # past the bound, named
    parsed = {name for name, _ui in parses}
    assert {f"t{i:03d}.yaml" for i in range(100)} <= parsed
    assert "t100.yaml" not in parsed  # past the bound: never read
    assert [name for name, on_ui in parses if on_ui] == []


def test_the_clock_set_up_and_its_presets_parse_nothing_on_the_ui_thread(launch,
                                                                          parses) -> None:
    ui = launch()
    ui.tap("home.game.clock")
    ui.tap("clocksetup.add")
    ui.tap("clocksetup.preset")
    assert ui.dialog == "clockpresets"
    assert ui.has("clockpresets.p099") and ui.has("clockpresets.chess-5m-3s")
    assert not ui.has("clockpresets.p100") and not ui.has("clockpresets.loading")
    assert {f"p{i:03d}.yaml" for i in range(100)} <= {name for name, _ui in parses}
    assert [name for name, on_ui in parses if on_ui] == []
