"""The table's own folders beside its config file (`pad/`, `clock/`; issue 44, item
6): what is not a regular file there is named as broken, never skipped without a
word; `companion --config FILE` offers the templates beside FILE; a preset's name is
bounded as a pad label is."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from companion.games.clock import presets
from companion.games.pad import templates
from ui.commands import checkconfig

SPECIALS = ("fifo", "folder", "dangling", "device")


def special(folder: Path, kind: str) -> Path:
    """A `<kind>.yaml` in `folder` that is not a regular file."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{kind}.yaml"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "dangling":
        path.symlink_to(folder / "nothing-here.yaml")
    else:
        path.symlink_to("/dev/null")
    return path


@pytest.mark.parametrize("kind", SPECIALS)
def test_a_special_file_among_the_pad_templates_is_listed_as_broken(
        tmp_path: Path, kind: str) -> None:
    path = special(tmp_path / "pad", kind)
    catalogue = templates.load(own_dir=tmp_path / "pad")
    (broken,) = catalogue.broken
    assert broken.path == path
    assert [(p.file, p.message.key) for p in broken.problems] == [
        (str(path), "core.config.not_regular")]


@pytest.mark.parametrize("kind", SPECIALS)
def test_a_special_file_among_the_clock_presets_is_listed_as_broken(
        tmp_path: Path, kind: str) -> None:
    path = special(tmp_path / "clock", kind)
    found = presets.load_presets(own=tmp_path / "clock")
    assert found.broken == [str(path)]
    assert [(p.file, p.message.key) for p in found.problems] == [
        (str(path), "core.config.not_regular")]


def test_check_config_names_each_special_file(tmp_path: Path, capsys) -> None:
    user = tmp_path / "config.yaml"
    user.write_text("language: en\n", encoding="utf-8")
    made = [special(tmp_path / folder, kind) for folder in ("pad", "clock")
            for kind in SPECIALS]
    assert checkconfig.main([str(user)]) == 1
    out = capsys.readouterr().out.splitlines()
    for path in made:
        (line,) = [x for x in out if x.startswith(f"{path}: ")]
        assert "not a regular file" in line, line


@pytest.mark.ui
@pytest.mark.usefixtures("instant_release")
def test_the_app_on_a_config_file_offers_and_saves_the_templates_beside_it(
        launch: Any, tmp_path: Path) -> None:
    """`companion --config FILE`: `pad/` beside FILE, as for the clock presets and
    `companion check-config FILE` (not the user's default folder)."""
    from tests.test_ui_pad_categories import PLACES
    from tests.test_ui_pad_rounds import enter

    table = tmp_path / "table"
    (table / "pad").mkdir(parents=True)
    (table / "pad" / "race.yaml").write_text(PLACES, encoding="utf-8")
    ui = launch()
    ui.app.settings.user_file = table / "config.yaml"
    ui.tap("home.game.pad")
    ui.tap("setup.template")
    assert ui.text("templates.race") == "Race\n2–6 players · places"
    ui.tap("templates.cancel")
    ui.tap("setup.start")  # the ad-hoc pad, saved as the table's own
    enter(ui, "4")
    enter(ui, "6")
    ui.tap("play.standings")
    ui.tap("standings.save")
    for letter in "PUB":
        ui.tap(f"keyboard.{letter}")
    ui.tap("keyboard.ok")
    assert ui.dialog == "saved", ui.text("error.text") if ui.dialog == "error" else ui.dialog
    assert (table / "pad" / "pub.yaml").is_file()


@pytest.mark.parametrize("name", ["x" * 10_000, "{en: " + "x" * 41 + ", fr: Court}",
                                  "'" + "x" * 41 + "'"])
def test_a_clock_preset_name_longer_than_a_pad_label_is_refused(tmp_path: Path,
                                                                name: str) -> None:
    path = tmp_path / "long.yaml"
    path.write_text(f"mode: sand\ntime: 1m\nname: {name}\n", encoding="utf-8")
    preset, problems, _ = presets.read_file(path, own=True)
    assert preset is None
    assert [(p.line, p.key, p.message.key, p.message.params) for p in problems] == [
        (3, "name", "clock.config.name", {"n": 40})]


def test_a_clock_preset_name_of_forty_characters_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "long.yaml"
    path.write_text(f"mode: sand\ntime: 1m\nname: {'x' * 40}\n", encoding="utf-8")
    preset, problems, _ = presets.read_file(path, own=True)
    assert problems == [] and preset is not None and preset.names == (("", "x" * 40),)
