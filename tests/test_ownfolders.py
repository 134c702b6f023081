"""The table's own folders (`pad/` templates, `clock/` presets): read within a bound
on the whole folder (files and bytes), each file past it named as broken in name
order, by the app and by `companion check-config`; and each file parsed again only
when it changed (parses counted, never timed)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion import config, ownfolder
from companion.games.clock import presets
from companion.games.pad import templates
from companion.i18n import Translator
from ui.commands import checkconfig

EN = Translator("en")


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    monkeypatch.delenv("COMPANION_SETTINGS", raising=False)
    templates.CACHE.clear()
    presets.CACHE.clear()


def template_text(ident: str, padding: int = 0) -> str:
    # a comment pads the file to a size without changing what it says
    return (f"id: {ident}\nname: {ident}\nshape: rounds\n"
            + ("#" + "x" * 78 + "\n") * (padding // 80))


def preset_text(padding: int = 0) -> str:
    return "mode: sand\ntime: 1m\n" + ("#" + "x" * 78 + "\n") * (padding // 80)


def write_templates(folder: Path, count: int, padding: int = 0) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(count):
        path = folder / f"t{i:03d}.yaml"
        path.write_text(template_text(f"t{i:03d}", padding))
        paths.append(path)
    return paths


def write_presets(folder: Path, count: int, padding: int = 0) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(count):
        path = folder / f"p{i:03d}.yaml"
        path.write_text(preset_text(padding))
        paths.append(path)
    return paths


def refused(broken_problems: list[config.Problem]) -> list[tuple[str, str]]:
    return [(Path(p.file).name, EN.message(p.message)) for p in broken_problems]


def test_a_templates_folder_reads_at_most_100_files_and_names_each_one_past(tmp_path):
    write_templates(tmp_path / "pad", ownfolder.MAX_FILES + 3)
    catalogue = templates.load(own_dir=tmp_path / "pad")
    own = [f for f in catalogue.templates if not f.builtin]
    assert [f.path.name for f in own] == [f"t{i:03d}.yaml" for i in range(100)]
    said = "not read: this folder's first 100 files (by name) are all that is read"
    assert [(b.path.name, EN.message(b.problems[0].message)) for b in catalogue.broken] \
        == [(f"t{i:03d}.yaml", said) for i in (100, 101, 102)]


def test_a_templates_folder_reads_at_most_1_mib_and_names_each_file_past(tmp_path):
    # 20 files of 60 KB: the 18th would take the folder past 1 MiB (17 x 60 000 fit)
    paths = write_templates(tmp_path / "pad", 20, padding=60_000)
    sizes = [p.stat().st_size for p in paths]
    fit = next(k for k in range(len(sizes) + 1) if sum(sizes[:k + 1]) > ownfolder.MAX_BYTES)
    catalogue = templates.load(own_dir=tmp_path / "pad")
    assert len([f for f in catalogue.templates if not f.builtin]) == fit
    said = ("not read: the folder's files before it (by name) already take most of the "
            "1024 KiB read from a folder")
    assert [(b.path.name, EN.message(b.problems[0].message)) for b in catalogue.broken] \
        == [(p.name, said) for p in paths[fit:]]


def test_a_presets_folder_is_bounded_by_files_and_bytes_each_file_named(tmp_path):
    folder = tmp_path / "clock"
    write_presets(folder, ownfolder.MAX_FILES + 2)
    found = presets.load_presets(own=folder)
    assert len([p for p in found.presets.values() if p.own]) == 100
    assert [Path(f).name for f in found.broken] == ["p100.yaml", "p101.yaml"]
    assert [Path(p.file).name for p in found.problems] == ["p100.yaml", "p101.yaml"]
    for path in folder.iterdir():
        path.unlink()
    paths = write_presets(folder, 20, padding=60_000)
    found = presets.load_presets(own=folder)
    kept = len([p for p in found.presets.values() if p.own])
    assert sum(p.stat().st_size for p in paths[:kept]) <= ownfolder.MAX_BYTES \
        < sum(p.stat().st_size for p in paths[:kept + 1])
    assert [Path(f).name for f in found.broken] == [p.name for p in paths[kept:]]


def test_check_config_reads_the_folders_with_the_same_bound(tmp_path, capsys):
    user = tmp_path / "config.yaml"
    user.write_text("language: en\n")
    write_templates(tmp_path / "pad", 101)
    write_presets(tmp_path / "clock", 101)
    assert checkconfig.main([str(user)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f"{tmp_path / 'pad' / 't100.yaml'}: -: not read: this folder's first 100 files "
        "(by name) are all that is read",
        f"{tmp_path / 'clock' / 'p100.yaml'}: -: not read: this folder's first 100 files "
        "(by name) are all that is read"]


def counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The name of every file the YAML reader parses (templates and presets)."""
    parsed: list[str] = []
    real = config.read_yaml

    def read(path: Path, *args, **kwargs):
        parsed.append(Path(path).name)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(config, "read_yaml", read)
    monkeypatch.setattr(presets, "read_yaml", read)
    return parsed


def test_an_unchanged_templates_folder_is_not_parsed_again_a_changed_file_is(
        tmp_path, monkeypatch):
    paths = write_templates(tmp_path / "pad", 5)
    parsed = counting(monkeypatch)
    first = templates.load(own_dir=tmp_path / "pad")
    assert sorted(n for n in parsed if n.startswith("t")) == [p.name for p in paths]
    parsed.clear()
    assert templates.load(own_dir=tmp_path / "pad") == first
    assert parsed == []  # built-ins and own: a stat each, no parse
    paths[2].write_text(template_text("t002") + "players: {min: 2, max: 4}\n")
    os.utime(paths[2], ns=(1, 1))  # a new mtime whatever the clock's resolution
    paths[4].unlink()
    again = templates.load(own_dir=tmp_path / "pad")
    assert parsed == ["t002.yaml"]
    assert again.get("t002").players_min == 2
    assert again.get("t004") is None


def test_an_unchanged_presets_folder_is_not_parsed_again_a_changed_file_is(
        tmp_path, monkeypatch):
    paths = write_presets(tmp_path / "clock", 3)
    parsed = counting(monkeypatch)
    presets.load_presets(own=tmp_path / "clock")
    assert [n for n in parsed if n in {p.name for p in paths}] == [p.name for p in paths]
    parsed.clear()
    presets.load_presets(own=tmp_path / "clock")
    assert parsed == []
    paths[1].write_text("mode: sand\ntime: 2m\n")
    os.utime(paths[1], ns=(1, 1))
    found = presets.load_presets(own=tmp_path / "clock")
    assert parsed == ["p001.yaml"]
    assert found.get("p001").params.time_ms == 120_000
