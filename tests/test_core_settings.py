"""Settings saved from the screen: the app's own file, layered over the user's config.

The user's config.yaml is never written (its comments stay byte for byte); every
sequence of saved settings reads back, through the loader the app starts with, as the
defaults, then the user's file, then the saved changes merged in order.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import config
from companion.config import ConfigError
from companion.settings import nested, save_settings
from tests.helpers.checked import load

USER = """\
# Your Table Companion settings: every key of config/app.yaml (and of the games and
# hardware files) can be set here. Check this file with `companion check-config`.
display:
  # The kiosk: the whole screen, no mouse cursor.
  fullscreen: true
  show_cursor: false
hardware:
  buzzer: {volume: 0.5}   # flow style, a comment: the app never rewrites this file
"""


@pytest.fixture(autouse=True)
def _own_places(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    monkeypatch.delenv("COMPANION_SETTINGS", raising=False)


def _user(tmp_path: Path, text: str = USER) -> Path:
    path = tmp_path / "config.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_saved_setting_goes_beside_the_journal_and_wins(tmp_path: Path) -> None:
    user = _user(tmp_path)
    cfg = load(user)
    assert cfg.settings_file == tmp_path / "xdg-data" / "table-companion" / "settings.yaml"
    save_settings({"hardware": {"buzzer": {"volume": 0.8}}, "language": "fr"}, cfg)
    # the configuration in use follows at once; the user's file is untouched
    assert cfg.get("hardware.buzzer.volume") == 0.8 and cfg.get("language") == "fr"
    assert user.read_text(encoding="utf-8") == USER
    again = load(user)
    assert again.get("hardware.buzzer.volume") == 0.8  # over config.yaml's 0.5
    assert again.get("display.fullscreen") is True  # config.yaml's, kept
    text = cfg.settings_file.read_text(encoding="utf-8")
    assert text.startswith("# Table Companion: the settings chosen on the screen.")
    assert yaml.safe_load(text) == {"hardware": {"buzzer": {"volume": 0.8}}, "language": "fr"}
    assert not cfg.settings_file.with_name("settings.yaml.tmp").exists()


def test_the_data_dir_moves_the_settings_with_the_journal(tmp_path: Path) -> None:
    user = _user(tmp_path, f"data_dir: {tmp_path / 'elsewhere'}\n")
    cfg = load(user)
    save_settings(nested("display.dim_after", 300), cfg)
    assert (tmp_path / "elsewhere" / "settings.yaml").exists()
    assert load(user).get("display.dim_after") == 300
    # and the start's --data-dir does the same
    moved = load(user, data_dir=str(tmp_path / "other"))
    assert moved.settings_file == tmp_path / "other" / "settings.yaml"
    assert moved.get("display.dim_after") == 0


def test_the_apps_config_checks_a_saved_setting_by_each_sections_own_check(
        tmp_path: Path) -> None:
    """The configuration imports no game and no hardware: the app's start hands it their
    checks (`ui.main.load_config`), and a setting saved later is checked by the same."""
    from ui.main import load_config

    cfg = load_config(_user(tmp_path), data_dir=str(tmp_path / "data"))
    for dotted, value in (("hardware.buzzer.volume", 3.0), ("games.evil.lost_to_lose", 0)):
        with pytest.raises(ConfigError) as err:
            save_settings(nested(dotted, value), cfg)
        assert [p.key for p in err.value.problems] == [dotted]
    unchecked = config.load(_user(tmp_path), data_dir=str(tmp_path / "data"))
    assert unchecked.validators == {}  # nothing handed in: only the app's own keys


def test_a_refused_change_writes_nothing_and_names_the_settings_file(tmp_path: Path) -> None:
    cfg = load(_user(tmp_path))
    save_settings(nested("language", "fr"), cfg)
    before = cfg.settings_file.read_bytes()
    with pytest.raises(ConfigError) as err:
        save_settings(nested("hardware.buzzer.volume", 3.0), cfg)
    [problem] = err.value.problems
    assert (problem.file, problem.key) == (str(cfg.settings_file), "hardware.buzzer.volume")
    assert problem.line is not None
    assert cfg.settings_file.read_bytes() == before
    assert cfg.get("hardware.buzzer.volume") == 0.5
    assert sorted(p.name for p in cfg.settings_file.parent.iterdir()) == ["settings.yaml"]


def test_a_hand_edited_settings_file_is_checked_at_start_with_its_line(tmp_path: Path) -> None:
    user = _user(tmp_path)
    settings_file = config.settings_path()
    settings_file.parent.mkdir(parents=True)
    settings_file.write_text("language: en\ndata_dir: /tmp\ndisplay:\n  widht: 3\n")
    with pytest.raises(ConfigError) as err:
        load(user)
    assert [(p.file, p.line, p.key) for p in err.value.problems] == [
        (str(settings_file), 2, "data_dir"), (str(settings_file), 4, "display.widht")]


def test_a_validator_problem_names_the_layer_that_set_the_value(tmp_path: Path) -> None:
    user = _user(tmp_path, "display:\n  width: 640\n")
    settings_file = config.settings_path()
    settings_file.parent.mkdir(parents=True)
    settings_file.write_text("display:\n  height: 20\n")
    with pytest.raises(ConfigError) as err:
        load(user)
    assert [(p.file, p.line, p.key) for p in err.value.problems] == [
        (str(settings_file), 2, "display.height")]


def test_an_unwritable_place_is_an_oserror_and_changes_nothing(tmp_path: Path) -> None:
    cfg = load(_user(tmp_path))
    cfg.settings_file.parent.parent.mkdir(parents=True)
    cfg.settings_file.parent.write_text("a file where the folder should be")
    with pytest.raises(OSError):
        save_settings(nested("language", "fr"), cfg)
    assert cfg.get("language") == "en"


def test_saves_from_several_threads_all_land(tmp_path: Path) -> None:
    # the screen saves on the main thread; another part of the app may save too
    cfg = load(_user(tmp_path))
    keys = ["display.dim_after", "hardware.buzzer.tempo", "hardware.buzzer.mute",
            "language"]
    values = [120, 360, True, "fr"]
    workers = [threading.Thread(target=save_settings, args=(nested(k, v), cfg))
               for k, v in zip(keys, values, strict=True)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    again = load(cfg.user_file)
    assert [again.get(k) for k in keys] == values


# -- any sequence of saved settings reads back as the merge ------------------------------
VALUES: dict[str, st.SearchStrategy[Any]] = {
    "language": st.sampled_from(["en", "fr"]),
    "display.dim_after": st.sampled_from([0, 60, 120, 300, 600]),
    "display.roll_animation": st.sampled_from([0, 0.3, 0.5]),
    "hardware.buzzer.mute": st.booleans(),
    "hardware.buzzer.volume": st.integers(0, 10).map(lambda n: n / 10),
    "hardware.buzzer.tempo": st.sampled_from([160, 240, 360]),
    "hardware.ring.enabled": st.booleans(),
    "hardware.buttons.enabled": st.booleans(),
    "games.evil.power_spaces": st.sampled_from([[3, 9], [6]]),
}
changes = st.sampled_from(sorted(VALUES)).flatmap(
    lambda key: VALUES[key].map(lambda value: nested(key, value)))
user_files = st.sampled_from([
    "",
    "# only a comment\n",
    USER,
    "language: fr\nhardware:\n  buzzer:\n    mute: true\n",
])


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(user_files, st.lists(changes, min_size=1, max_size=6))
def test_any_sequence_of_saved_settings_reads_back_as_the_merge(
        tmp_path_factory: pytest.TempPathFactory, user_text: str,
        sequence: list[dict[str, Any]]) -> None:
    folder = tmp_path_factory.mktemp("settings")
    user = folder / "config.yaml"
    user.write_text(user_text, encoding="utf-8")
    settings_file = folder / "data" / "settings.yaml"
    cfg = load(user, use_default_user_file=False, settings_file=None)
    cfg.settings_file = settings_file
    expected = cfg.data
    saved: dict[str, Any] = {}
    for change in sequence:
        save_settings(change, cfg)
        expected = config.merge(expected, change)
        saved = config.merge(saved, change)
        # the start path reads the same thing back; the running config agrees
        loaded = load(user, use_default_user_file=False, settings_file=settings_file)
        assert loaded.data == expected == cfg.data
        assert yaml.safe_load(settings_file.read_text(encoding="utf-8")) == saved
    assert user.read_text(encoding="utf-8") == user_text


def test_check_config_checks_both_files(tmp_path: Path, capsys) -> None:
    from ui.commands.cli import main as companion

    user = _user(tmp_path)
    settings_file = config.settings_path()
    settings_file.parent.mkdir(parents=True)
    settings_file.write_text("language: fr\n")
    assert companion(["check-config", str(user)]) == 0
    out = capsys.readouterr().out
    assert str(settings_file) in out
    settings_file.write_text("language: en\nhardware:\n  buzzer:\n    volume: 0.9\n")
    assert companion(["check-config", str(user)]) == 0
    # a saved setting that replaces a value of the user's file is pointed out
    assert capsys.readouterr().err.splitlines() == [
        f"Note: hardware.buzzer.volume is set at {settings_file}:4 (saved from the screen),"
        f" which wins over {user}:8."]
    settings_file.write_text("language: fr\n")
    settings_file.write_text("language: fr\nhardware:\n  buzzer:\n    volume: 7\n")
    assert companion(["check-config", str(user)]) == 1
    assert capsys.readouterr().out.startswith(
        f"{settings_file}:4: hardware.buzzer.volume: ")
    other = tmp_path / "other.yaml"
    other.write_text("display:\n  dim_after: -1\n")
    assert companion(["check-config", str(user), "--settings", str(other)]) == 1
    assert capsys.readouterr().out.startswith(f"{other}:2: display.dim_after: ")
