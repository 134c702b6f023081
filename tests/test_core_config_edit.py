"""A setting saved from the screen keeps the comments and layout of the user's file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from hypothesis import given
from hypothesis import strategies as st

from companion import config
from companion.config_edit import scalar, set_value, set_values
from ui.screens import night_prefs

INSTALLED = """\
# Your Table Companion settings: every key of config/app.yaml (and of the games and
# hardware files) can be set here. Check this file with `companion check-config`.
display:
  # The kiosk: the whole screen, no mouse cursor.
  fullscreen: true
  show_cursor: false
"""


def test_a_value_is_replaced_and_every_comment_stays() -> None:
    edited = set_value(INSTALLED, ("display", "show_cursor"), True)
    assert edited == INSTALLED.replace("show_cursor: false", "show_cursor: true")


def test_a_missing_key_joins_its_section_with_the_sections_indentation() -> None:
    text = "display:\n    fullscreen: true  # kiosk\n# games follow\n"
    edited = set_value(text, ("display", "dim_after"), 300)
    assert edited == "display:\n    fullscreen: true  # kiosk\n    dim_after: 300\n" \
                     "# games follow\n"


def test_a_missing_section_is_added_at_the_end() -> None:
    edited = set_values(INSTALLED, {"hardware": {"buzzer": {"volume": 0.8}}, "language": "fr"})
    assert edited is not None and edited.startswith(INSTALLED)
    assert edited[len(INSTALLED):] == "hardware:\n  buzzer:\n    volume: 0.8\nlanguage: fr\n"


def test_an_empty_or_comment_only_file_and_no_final_newline() -> None:
    assert set_value("", ("language",), "fr") == "language: fr\n"
    assert set_value("# mine", ("language",), "fr") == "# mine\nlanguage: fr\n"
    assert set_value("language: en", ("language",), "fr") == "language: fr"


def test_words_that_would_change_meaning_are_quoted() -> None:
    assert scalar("yes") == "'yes'" and scalar("3") == "'3'" and scalar("fr") == "fr"
    assert scalar(True) == "true" and scalar(0.5) == "0.5" and scalar("é") == "é"


def test_what_cannot_be_edited_safely_is_declined() -> None:
    assert set_value("display: {fullscreen: true}\n", ("display", "fullscreen"), False) is None
    assert set_value(INSTALLED, ("display",), 3) is None  # a section replaced by a value
    assert set_value(INSTALLED, ("display", "fullscreen"), {"a": 1}) is None
    assert set_value("a: |\n  text\n", ("a",), "b") is None
    assert set_value("[1, 2]\n", ("a",), 1) is None
    assert set_value("a: [unclosed\n", ("a",), 1) is None


keys = st.sampled_from(["a", "b", "c"])
scalars = st.one_of(st.booleans(), st.integers(-5, 500), st.sampled_from(["en", "yes", "x y"]),
                    st.floats(0, 1, allow_nan=False).map(lambda f: round(f, 2)))
trees = st.recursive(scalars, lambda inner: st.dictionaries(keys, inner, min_size=1),
                     max_leaves=8)


@given(st.dictionaries(keys, trees, min_size=1), st.lists(st.tuples(
    st.lists(keys, min_size=1, max_size=3).map(tuple), scalars), min_size=1, max_size=4))
def test_an_edit_reads_back_as_the_merge_or_is_declined(start: dict[str, Any],
                                                         changes: list[Any]) -> None:
    text = "# top\n" + yaml.safe_dump(start, sort_keys=False) + "# end\n"
    expected: Any = start
    for path, value in changes:
        edited = set_value(text, path, value)
        nested: dict[str, Any] = {}
        node = nested
        for part in path[:-1]:
            node = node.setdefault(part, {})
        node[path[-1]] = value
        if edited is None:
            continue  # declined: the caller writes the file anew
        expected = config.merge(expected, nested)
        assert yaml.safe_load(edited) == expected
        assert edited.startswith("# top\n") and "# end\n" in edited
        text = edited


def test_saving_a_setting_keeps_the_installers_comments(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text(INSTALLED, encoding="utf-8")
    night_prefs.save(path, night_prefs.nested("hardware.buzzer.volume", 0.8))
    night_prefs.save(path, night_prefs.nested("display.show_cursor", True))
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# Your Table Companion settings")
    assert "  # The kiosk: the whole screen, no mouse cursor.\n" in text
    assert yaml.safe_load(text) == {"display": {"fullscreen": True, "show_cursor": True},
                                    "hardware": {"buzzer": {"volume": 0.8}}}


def test_a_file_that_cannot_be_edited_in_place_is_written_anew(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("# flow style\ndisplay: {fullscreen: true}\n", encoding="utf-8")
    night_prefs.save(path, night_prefs.nested("display.show_cursor", False))
    assert yaml.safe_load(path.read_text(encoding="utf-8")) == {
        "display": {"fullscreen": True, "show_cursor": False}}
