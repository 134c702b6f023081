"""The score pad keypad's keys on the text typed (pure: no window): the ± key, `+`,
delete, and what the rules' reader (`entry.evaluate`) makes of the result."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.pad.entry import evaluate
from companion.messages import RuleError
from ui.screens.pad.typing import adds_up, press, shown


def typed(*keys: str) -> str:
    text = ""
    for key in keys:
        text = press(text, key)
    return text


@pytest.mark.parametrize(("keys", "text"), [
    (("3", "+", "6", "+", "2"), "3+6+2"),
    (("5", "pm"), "-5"),  # ± after the number: the number's sign
    (("pm", "5"), "-5"),  # ± first: a minus, then the digits
    (("5", "pm", "pm"), "5"),
    (("3", "+", "6", "pm"), "3-6"),  # the operator before the number turns
    (("3", "+", "+"), "3+"),  # an operator typed twice is one
    (("3", "+", "pm", "pm"), "3+"),
    (("+",), ""),  # nothing to add to yet
    (("0", "5"), "5"),  # a leading zero goes
    (("1", "2", "del"), "1"),
    ((".", "5"), "5"),  # no decimals unless the template takes them
])
def test_keys(keys: tuple[str, ...], text: str) -> None:
    assert typed(*keys) == text


def test_a_point_only_where_decimals_are_taken() -> None:
    assert press("2", ".", decimals=True) == "2."
    assert press("2.5", ".", decimals=True) == "2.5"
    assert press("", ".", decimals=True) == "0."


def test_shown_with_true_minus_signs() -> None:
    assert shown("-3+6-2") == "\u22123 + 6 \u2212 2"
    assert shown("3+") == "3 +"
    assert adds_up("3+6") and not adds_up("-3")


KEYS = st.sampled_from(["0", "1", "5", "9", "+", "pm", "del"])


@given(st.lists(KEYS, max_size=30))
def test_the_keypad_never_types_a_double_sign(keys: list[str]) -> None:
    """Whatever the keys, the text is one the rules read, or one they refuse only for
    ending on an operator, being empty or past a million (never "--3", "3+-2")."""
    text = typed(*keys)
    try:
        evaluate(text)
    except RuleError as exc:
        assert exc.message.key in ("pad.error.entry.trailing", "pad.error.entry.empty",
                                   "pad.error.entry.lone_sign",
                                   "pad.error.entry.bounds"), (text, exc.message.key)
