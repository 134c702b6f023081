"""Backups carry the table's own score pad templates (`pad/`) and clock presets
(`clock/`) beside its config file: a round trip restores them byte for byte (a broken
one restored and listed as broken, a different file of the same name kept aside), and
a hostile archive never writes outside those two folders, nor anything at all."""

from __future__ import annotations

import hashlib
import json
import zipfile
from pathlib import Path

import pytest

from companion.games.clock import presets
from companion.games.pad import commands as pc
from companion.games.pad import templates
from companion.journal import Journal
from companion.night import backup, history, jobs, roster
from companion.night.backup import BackupError
from tests.test_night_support import open_journal, pad

OWN = """id: family-golf
name: {en: Family golf, fr: Golf en famille}
players: {min: 2, max: 6}
shape: rounds
win: lowest
"""
BROKEN = "id: broken\nshape: rounds\nwin: sideways\n"
PRESET = "name: Our turns\nmode: turn\ntime: 45s\n"


@pytest.fixture
def source(tmp_path: Path) -> tuple[Journal, Path]:
    config_dir = tmp_path / "config"
    (config_dir / "pad").mkdir(parents=True)
    (config_dir / "clock").mkdir()
    (config_dir / "pad" / "family-golf.yaml").write_text(OWN, encoding="utf-8")
    (config_dir / "pad" / "broken.yaml").write_text(BROKEN, encoding="utf-8")
    (config_dir / "clock" / "our-turns.yaml").write_text(PRESET, encoding="utf-8")
    (config_dir / "pad" / "notes.txt").write_text("not a template", encoding="utf-8")
    j = open_journal(tmp_path / "source")
    a, b = roster.add(j, "Ann").id, roster.add(j, "Bob").id
    own = templates.load(own_dir=config_dir / "pad").get("family-golf")
    assert own is not None
    from companion.games.pad.template import to_data

    pad(j, [a, b], to_data(own), [pc.SetCell(0, 0, None, "4"), pc.SetCell(1, 0, None, "2"),
                                  pc.End()])
    return j, config_dir


def test_round_trip_with_templates_and_presets(source: tuple[Journal, Path],
                                               tmp_path: Path) -> None:
    j, config_dir = source
    file = tmp_path / "backup.zip"
    manifest = backup.create(j, file, config_dir)
    assert manifest.format_version == 2
    assert [name for name, _, _ in manifest.files] == [
        "pad/broken.yaml", "pad/family-golf.yaml", "clock/our-turns.yaml"]  # no notes.txt
    elsewhere = tmp_path / "other-device"
    restored = jobs.run(jobs.restore_backup(file, elsewhere / "journal.sqlite3",
                                            elsewhere / "config"))
    assert restored.kept is None and restored.kept_files == ()
    assert restored.files == ("pad/broken.yaml", "pad/family-golf.yaml",
                              "clock/our-turns.yaml")
    assert restored.broken == ("pad/broken.yaml",)  # restored all the same, listed
    for name in restored.files:
        assert (elsewhere / "config" / name).read_bytes() == (config_dir / name).read_bytes()
    catalogue = templates.load(own_dir=elsewhere / "config" / "pad")
    assert catalogue.get("family-golf") is not None
    assert [b.path.name for b in catalogue.broken] == ["broken.yaml"]
    assert presets.load_presets(own=elsewhere / "config" / "clock").get("our-turns")
    again = Journal(elsewhere / "journal.sqlite3")
    assert history.games(again) == history.games(j)
    assert history.games(again)[0].winners == ("Bob",)  # lowest wins: 2 against 4


def test_a_different_file_of_the_same_name_is_kept_aside(source: tuple[Journal, Path],
                                                         tmp_path: Path) -> None:
    j, config_dir = source
    file = tmp_path / "backup.zip"
    backup.create(j, file, config_dir)
    target = tmp_path / "target"
    (target / "pad").mkdir(parents=True)
    (target / "pad" / "family-golf.yaml").write_text(OWN.replace("Family", "Our"))
    (target / "pad" / "broken.yaml").write_text(BROKEN)  # the same: nothing kept aside
    (target / "pad" / "mine.yaml").write_text("id: mine\n")  # not in the backup: left
    restored = backup.restore_all(file, tmp_path / "j.sqlite3", target)
    assert [p.name.split(".before-restore-")[0] for p in restored.kept_files] == [
        "family-golf.yaml"]
    assert restored.kept_files[0].read_text().startswith("id: family-golf\nname: {en: Our")
    assert (target / "pad" / "family-golf.yaml").read_text() == OWN
    assert (target / "pad" / "mine.yaml").read_text() == "id: mine\n"
    # what was kept aside is never read as a template
    assert [f.template.id for f in templates.load(own_dir=target / "pad").templates
            if not f.builtin] == ["family-golf"]


def test_a_journal_only_restore_leaves_the_files(source: tuple[Journal, Path],
                                                 tmp_path: Path) -> None:
    j, config_dir = source
    file = tmp_path / "backup.zip"
    backup.create(j, file, config_dir)
    assert backup.restore(file, tmp_path / "j.sqlite3") is None
    assert not (tmp_path / "j.sqlite3").with_name("pad").exists()


def _rezip(file: Path, out: Path, extra: dict[str, bytes], listed: dict[str, bytes],
           **manifest_changes: object) -> Path:
    """The backup's entries with `extra` entries added and the manifest listing
    `listed` as the table's files (as a hostile tool would write them)."""
    with zipfile.ZipFile(file) as zf:
        manifest = json.loads(zf.read(backup.MANIFEST))
        database = zf.read(backup.DATABASE)
    manifest["files"] = [[name, len(data), hashlib.sha256(data).hexdigest()]
                         for name, data in listed.items()]
    manifest.update(manifest_changes)
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(backup.MANIFEST, json.dumps(manifest))
        zf.writestr(backup.DATABASE, database)
        for name, data in extra.items():
            zf.writestr(name, data)
    return out


HOSTILE = {
    # a name that climbs out of the folder, listed as the manifest says
    "climbs": ({"pad/../../evil.yaml": b"x"}, {"pad/../../evil.yaml": b"x"}),
    "absolute": ({"/etc/evil.yaml": b"x"}, {"/etc/evil.yaml": b"x"}),
    "sub folder": ({"clock/deep/evil.yaml": b"x"}, {"clock/deep/evil.yaml": b"x"}),
    "other folder": ({"config.yaml": b"x"}, {"config.yaml": b"x"}),
    "backslash": ({"pad\\..\\evil.yaml": b"x"}, {"pad\\..\\evil.yaml": b"x"}),
    "not listed": ({"pad/sneaky.yaml": b"id: sneaky\n"}, {}),
    "listed, absent": ({}, {"pad/ghost.yaml": b"id: ghost\n"}),
    "checksum": ({"pad/x.yaml": b"id: x\n"}, {"pad/x.yaml": b"id: y\n"}),
    "too big": ({"pad/big.yaml": b"#" * (backup.MAX_OWN_SIZE + 1)},
                {"pad/big.yaml": b"#" * (backup.MAX_OWN_SIZE + 1)}),
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_hostile_archive_writes_nothing(source: tuple[Journal, Path], tmp_path: Path,
                                          case: str) -> None:
    j, _ = source
    good = tmp_path / "good.zip"
    backup.create(j, good, tmp_path / "no-config")
    extra, listed = HOSTILE[case]
    file = _rezip(good, tmp_path / "hostile.zip", extra, listed)
    current = tmp_path / "current" / "journal.sqlite3"
    current.parent.mkdir()
    kept = open_journal(current.parent)
    roster.add(kept, "Kept")
    kept.close()
    before = current.read_bytes()
    target = tmp_path / "deep" / "er" / "config"
    with pytest.raises(BackupError) as caught:
        backup.restore_all(file, current, target)
    assert caught.value.message.key in ("night.backup.refused", "night.backup.damaged")
    assert current.read_bytes() == before  # the journal untouched
    assert not (tmp_path / "deep").exists()  # nothing written where files would go
    assert not (tmp_path / "evil.yaml").exists() and not (tmp_path / "deep" / "evil.yaml"
                                                          ).exists()


def test_a_version_1_backup_restores_the_journal(source: tuple[Journal, Path],
                                                 tmp_path: Path) -> None:
    j, _ = source
    good = tmp_path / "good.zip"
    backup.create(j, good, tmp_path / "no-config")
    with zipfile.ZipFile(good) as zf:
        manifest = json.loads(zf.read(backup.MANIFEST))
        database = zf.read(backup.DATABASE)
    del manifest["files"]
    manifest["format_version"] = 1
    old = tmp_path / "old.zip"
    with zipfile.ZipFile(old, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(backup.MANIFEST, json.dumps(manifest))
        zf.writestr(backup.DATABASE, database)
    restored = backup.restore_all(old, tmp_path / "r.sqlite3", tmp_path / "cfg")
    assert restored.files == () and not (tmp_path / "cfg").exists()
    assert len(Journal(tmp_path / "r.sqlite3").games()) == 1
