"""The keypad's expression: "3+6+2" = 11, an explicit minus, bounds, whole numbers, and
every bad input of issue 30 refused with a message naming what is wrong."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.pad.entry import LIMIT, MAX_CHARS, evaluate, shown
from companion.i18n import Translator
from companion.messages import RuleError


@pytest.mark.parametrize(("text", "value"), [
    ("3+6+2", 11), ("-4", -4), ("10-3", 7), ("−5+2", -3), (" 3 + 4 ", 7), ("0", 0),
    ("+3", 3), ("1000000", LIMIT), ("-1000000", -LIMIT), ("007", 7),
])
def test_expressions_add_up_as_on_paper(text, value):
    assert evaluate(text) == value


@pytest.mark.parametrize(("text", "key"), [
    ("abc", "pad.error.entry.character"),  # text in a number cell
    ("3x", "pad.error.entry.character"),
    ("2*3", "pad.error.entry.character"),
    ("３", "pad.error.entry.character"),  # a full-width digit is not read as 3
    ("-", "pad.error.entry.lone_sign"),  # a lone "-"
    ("--3", "pad.error.entry.double_sign"),
    ("3+-2", "pad.error.entry.double_sign"),
    ("3++2", "pad.error.entry.double_sign"),
    ("3+", "pad.error.entry.trailing"),
    ("3-", "pad.error.entry.trailing"),
    ("", "pad.error.entry.empty"),  # a blank is never a zero
    ("   ", "pad.error.entry.empty"),
    ("1" * (MAX_CHARS + 1), "pad.error.entry.too_long"),  # over 64 characters
    ("1000001", "pad.error.entry.bounds"),  # beyond ±1 000 000
    ("-1000001", "pad.error.entry.bounds"),
    ("999999+2", "pad.error.entry.bounds"),
    ("2.5", "pad.error.entry.decimal"),  # a decimal where the template says whole
    ("2,5", "pad.error.entry.decimal"),
])
def test_every_bad_input_is_a_clear_rule_error(text, key):
    with pytest.raises(RuleError) as caught:
        evaluate(text)
    assert caught.value.message.key == key
    for language in ("en", "fr"):  # translated, with its values filled in
        said = Translator(language).message(caught.value.message)
        assert not said.startswith("pad.") and "{" not in said


def test_the_messages_name_what_is_wrong():
    with pytest.raises(RuleError) as caught:
        evaluate("3x")
    assert "x" in Translator("en").message(caught.value.message)
    with pytest.raises(RuleError) as caught:
        evaluate("1" * 70)
    assert "64" in Translator("fr").message(caught.value.message)


def test_64_characters_are_accepted():
    assert evaluate("1+" * 31 + "10") == 41 and len("1+" * 31 + "10") == MAX_CHARS


def test_decimals_when_the_template_allows_them():
    assert evaluate("1.5+0.25", whole=False) == Fraction(7, 4)
    assert evaluate("0.1+0.2", whole=False) == Fraction(3, 10)  # exactly
    assert evaluate("2.50", whole=False) == Fraction(5, 2)
    assert evaluate("1.5+1.5", whole=False) == 3 and isinstance(
        evaluate("1.5+1.5", whole=False), int)
    for text, key in (("1.", "pad.error.entry.decimal_digits"),
                      ("1.234", "pad.error.entry.decimal_places")):
        with pytest.raises(RuleError) as caught:
            evaluate(text, whole=False)
        assert caught.value.message.key == key
    assert shown(Fraction(7, 4)) == "1.75" and shown(-4) == "-4"


@given(st.lists(st.integers(-LIMIT // 40, LIMIT // 40), min_size=1, max_size=6))
def test_any_sum_the_keypad_can_type_is_its_sum(numbers):
    text = str(numbers[0]) + "".join(f"+{n}" if n >= 0 else f"-{-n}" for n in numbers[1:])
    if len(text) <= MAX_CHARS:
        assert evaluate(text) == sum(numbers)


@given(st.text(max_size=80))
def test_any_text_is_a_number_or_a_rule_error(text):
    try:
        value = evaluate(text)
    except RuleError as exc:
        assert exc.message.key.startswith("pad.error.entry.")
    else:
        assert isinstance(value, int) and abs(value) <= LIMIT
