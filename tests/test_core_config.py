"""Configuration: defaults load, user files merge, every problem names file, line and key."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

from companion import config
from companion.games.evil import EvilParams
from companion.i18n import Translator
from companion.messages import msg
from tests.helpers.checked import load


def write(tmp_path: Path, text: str, name: str = "config.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def problems(path: Path, config_dir: Path = config.CONFIG_DIR) -> list[config.Problem]:
    with pytest.raises(config.ConfigError) as caught:
        load(path, config_dir)
    return caught.value.problems


def only(path: Path) -> config.Problem:
    found = problems(path)
    assert len(found) == 1, found
    return found[0]


def test_defaults_load_cleanly(defaults):
    assert defaults.get("language") in ("en", "fr")
    evil = defaults.get("games.evil")
    params = EvilParams.from_config(evil)
    assert params.power_spaces == (3, 9) and params.dial_steps == 12
    assert params.dice[0] == ("chevron1", "chevron2", "chevron3", "passage", "time5", "time10")
    assert params.dice[1] == ("red", "red", "green", "green", "blue", "blue")
    assert sorted(params.dice[2]) == ["clock1"] * 5 + ["clock2"]
    assert EvilParams.from_config(params.to_config()) == params
    assert defaults.get("no.such.key", "fallback") == "fallback"


def test_an_empty_user_file_gives_the_defaults(tmp_path, defaults):
    assert load(write(tmp_path, "")).data == defaults.data
    assert load(write(tmp_path, "# only a comment\n")).data == defaults.data


def test_user_override_merges_into_the_defaults(tmp_path, defaults):
    path = write(tmp_path, """
        language: fr
        games:
          evil:
            power_spaces: [6]
            dice:
              clock: [clock1, clock2]
        """)
    loaded = load(path)
    assert loaded.user_file == path
    assert loaded.get("language") == "fr"
    assert loaded.get("games.evil.power_spaces") == [6]
    assert loaded.get("games.evil.dice.clock") == ["clock1", "clock2"]
    assert loaded.get("games.evil.dice.professor") == defaults.get("games.evil.dice.professor")
    assert loaded.get("games.evil.colours") == defaults.get("games.evil.colours")
    assert loaded.get("display") == defaults.get("display")


def test_unknown_key_names_file_line_key_and_suggests(tmp_path):
    path = write(tmp_path, """
        language: en
        langauge: fr
        """)
    problem = only(path)
    assert (problem.file, problem.line, problem.key) == (str(path), 2, "langauge")
    assert problem.message == msg("core.config.unknown_key",
                                  hint=msg("core.config.did_you_mean", key="language"))
    text = problem.format(Translator("en").message)
    assert text == f"{path}:2: langauge: unknown key (did you mean 'language'?)"


def test_nested_unknown_key_without_a_close_match(tmp_path):
    path = write(tmp_path, """
        display:
          width: 1024
          zzzzzz: 1
        """)
    problem = only(path)
    assert (problem.line, problem.key) == (3, "display.zzzzzz")
    assert problem.message == msg("core.config.unknown_key", hint="")


def test_an_unknown_key_holding_a_mapping_is_reported_on_its_own_line(tmp_path):
    path = write(tmp_path, """
        games:
          evil:
            dice:
              loaded:
                faces: [six]
        """)
    problem = only(path)
    assert (problem.line, problem.key) == (4, "games.evil.dice.loaded")


def test_wrong_type_names_the_expected_type(tmp_path):
    path = write(tmp_path, """
        display:
          width: wide
        """)
    problem = only(path)
    assert (problem.line, problem.key) == (2, "display.width")
    assert problem.message == msg("core.config.wrong_type", expected="integer", found="text")


def test_wrong_type_of_a_list_item(tmp_path):
    path = write(tmp_path, """
        games:
          evil:
            power_spaces:
              - 3
              - nine
        """)
    problem = only(path)
    assert (problem.line, problem.key) == (5, "games.evil.power_spaces.1")
    assert problem.message.key == "core.config.wrong_type"


@pytest.mark.parametrize("text,key", [
    ("display: 3\n", "display"),
    ("display:\n  fullscreen: 1\n", "display.fullscreen"),
    ("games:\n  evil:\n    colours: red\n", "games.evil.colours"),
    ("games:\n  evil:\n    dial_steps: twelve\n", "games.evil.dial_steps"),
])
def test_more_wrong_types(tmp_path, text, key):
    problem = only(write(tmp_path, text))
    assert problem.key == key and problem.message.key == "core.config.wrong_type"


def test_a_bad_face_names_the_die_and_the_line(tmp_path):
    path = write(tmp_path, """
        games:
          evil:
            dice:
              clock: [clock1, clock1, seven]
        """)
    problem = only(path)
    assert (problem.file, problem.line, problem.key) == (str(path), 4,
                                                         "games.evil.dice.clock.2")
    assert problem.message == msg("evil.config.bad_face", face="seven", die="clock")


@pytest.mark.parametrize("die,faces", [
    ("professor", ["chevron1", "time7"]),   # not a whole number of steps
    ("professor", ["clock1"]),              # a clock face on the white die
    ("colour", ["red", "purple"]),          # a colour that is not in play
    ("clock", ["chevron2"]),
])
def test_faces_that_cannot_be_on_a_die(tmp_path, die, faces):
    path = write(tmp_path, f"games:\n  evil:\n    dice:\n      {die}: {faces}\n")
    found = problems(path)
    assert [p.message.key for p in found] == ["evil.config.bad_face"]
    assert found[0].key == f"games.evil.dice.{die}.{len(faces) - 1}"


def test_a_die_without_faces(tmp_path):
    problem = only(write(tmp_path, "games:\n  evil:\n    dice:\n      clock: []\n"))
    assert problem.key == "games.evil.dice.clock" and problem.line == 4
    assert problem.message.key == "evil.config.no_faces"


def test_a_bad_power_space(tmp_path):
    path = write(tmp_path, """
        games:
          evil:
            power_spaces: [3, 13]
        """)
    problem = only(path)
    assert (problem.line, problem.key) == (3, "games.evil.power_spaces.1")
    assert problem.message == msg("evil.config.power_space", steps=12)


def test_power_spaces_follow_a_changed_dial(tmp_path):
    loaded = load(write(tmp_path, """
        games:
          evil:
            dial_steps: 16
            power_spaces: [4, 8, 16]
        """))
    assert EvilParams.from_config(loaded.get("games.evil")).power_spaces == (4, 8, 0)


@pytest.mark.parametrize("text,key,message", [
    ("games:\n  evil:\n    treasure_minutes: {min: 5, max: 60}\n",
     "games.evil.treasure_minutes.max", "evil.config.minutes_max"),
    ("games:\n  evil:\n    treasure_minutes: {min: 7}\n",
     "games.evil.treasure_minutes.min", "evil.config.minutes_step"),
    ("games:\n  evil:\n    players: {min: 6}\n", "games.evil.players", "evil.config.players"),
    ("games:\n  evil:\n    colours: [red, red]\n", "games.evil.colours", "evil.config.colours"),
    ("games:\n  evil:\n    characters: [A, B]\n", "games.evil.characters",
     "evil.config.characters"),
    ("games:\n  evil:\n    lost_to_lose: 0\n", "games.evil.lost_to_lose",
     "core.config.at_least"),
    ("language: de\n", "language", "core.config.language"),
    ("display:\n  roll_animation: 0.9\n", "display.roll_animation", "core.config.bad_value"),
    ("display:\n  multisamples: 3\n", "display.multisamples", "core.config.bad_value"),
])
def test_meaning_problems(tmp_path, text, key, message):
    found = problems(write(tmp_path, text))
    assert (found[0].key, found[0].message.key) == (key, message)
    assert found[0].line is not None and found[0].file.endswith("config.yaml")


def test_broken_yaml_names_its_line(tmp_path):
    path = write(tmp_path, """
        language: en
        display:
          width: 800
         height: [480
        """)
    problem = only(path)
    assert problem.file == str(path) and problem.line in (4, 5)
    assert problem.message.key == "core.config.syntax"
    assert "\n" not in Translator("en").message(problem.message)


def test_a_tab_is_broken_yaml_with_its_line(tmp_path):
    path = write(tmp_path, "language: en\ndisplay:\n\twidth: 800\n")
    problem = only(path)
    assert problem.line == 3 and problem.message.key == "core.config.syntax"


def test_duplicate_key_names_the_second_line(tmp_path):
    path = write(tmp_path, """
        display:
          width: 800
          height: 480
          width: 1024
        """)
    problem = only(path)
    assert (problem.line, problem.key) == (4, "display.width")
    assert problem.message.key == "core.config.duplicate_key"


def test_every_problem_is_listed_at_once(tmp_path):
    path = write(tmp_path, """
        langauge: fr
        display:
          width: wide
        """)
    assert [(p.line, p.key) for p in problems(path)] == [(1, "langauge"), (3, "display.width")]


def test_missing_and_non_mapping_user_files(tmp_path):
    problem = only(tmp_path / "nowhere.yaml")
    assert problem.message.key == "core.config.missing_file"
    assert problem.file == str(tmp_path / "nowhere.yaml")
    problem = only(write(tmp_path, "- a\n- b\n"))
    assert problem.message.key == "core.config.not_mapping"


def test_a_broken_default_file_names_itself(tmp_path):
    copy = tmp_path / "config"
    shutil.copytree(config.CONFIG_DIR, copy)
    (copy / "games" / "evil.yaml").write_text(
        (copy / "games" / "evil.yaml").read_text().replace("dial_steps: 12", "dial_steps: 2"))
    with pytest.raises(config.ConfigError) as caught:
        load(None, copy, use_default_user_file=False, check_defaults=True)
    found = caught.value.problems
    assert {problem.file for problem in found} == {str(copy / "games" / "evil.yaml")}
    assert (found[0].key, found[0].line) == ("games.evil.dial_steps", 12)
    # what the smaller dial breaks is reported too
    assert "games.evil.power_spaces.1" in {problem.key for problem in found}


def test_a_start_checks_the_sections_the_user_sets(tmp_path):
    # the shipped defaults are checked by `companion check-config` and the tests; a start
    # checks the sections the user's file changes, so it imports only what it plays
    copy = tmp_path / "config"
    shutil.copytree(config.CONFIG_DIR, copy)
    (copy / "games" / "evil.yaml").write_text(
        (copy / "games" / "evil.yaml").read_text().replace("dial_steps: 12", "dial_steps: 2"))
    assert load(None, copy, use_default_user_file=False).get("games.evil.dial_steps") == 2
    user = write(tmp_path, "games:\n  evil:\n    recovered_to_win: 3\n")
    found = problems(user, copy)
    assert "games.evil.dial_steps" in {problem.key for problem in found}
    # a section the user sets is checked whole, defaults included
    assert load(write(tmp_path, "games:\n  castor: {}\n"), copy).get("language")


def test_the_user_file_comes_from_the_environment(tmp_path, monkeypatch):
    path = write(tmp_path, "language: fr\n")
    monkeypatch.setenv("COMPANION_CONFIG", str(path))
    assert config.user_config_path() == path
    assert load().get("language") == "fr"
    monkeypatch.delenv("COMPANION_CONFIG")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    (tmp_path / "xdg" / "table-companion").mkdir(parents=True)
    write(tmp_path / "xdg" / "table-companion", "language: fr\n")
    assert config.user_config_path() == tmp_path / "xdg" / "table-companion" / "config.yaml"


def test_a_colour_the_app_cannot_show_is_refused(tmp_path):
    path = write(tmp_path, """
        games:
          evil:
            colours: [red, green, yellow]
            dice:
              colour: [red, green, yellow]
        """)
    problem = only(path)
    assert (problem.line, problem.key) == (3, "games.evil.colours.2")
    assert problem.message == msg("evil.config.unknown_colour", colour="yellow",
                                  choices="blue, green, red")


@pytest.mark.parametrize("value", [-100, 0, 10_001])
def test_snapshot_every_out_of_its_range_is_refused_with_the_range(tmp_path, value):
    """Issue 33: `snapshot_every: -100` or 0 was quietly made 1."""
    path = write(tmp_path, f"language: fr\nsnapshot_every: {value}\n")
    problem = only(path)
    assert (problem.line, problem.key) == (2, "snapshot_every")
    assert problem.message == msg("core.config.number_range", low=1, high=10_000)
    assert problem.format(Translator("en").message) == (
        f"{path}:2: snapshot_every: out of range: 1 .. 10000")
    for fine in (1, 10_000):
        write(tmp_path, f"snapshot_every: {fine}\n")
        assert load(path, use_default_user_file=False).get("snapshot_every") == fine
