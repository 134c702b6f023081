"""The keypad's expression: what the table types in a cell, evaluated without `eval`.

A cell takes whole numbers added up or taken away, as on paper: `"3+6+2"` is 11,
`"-4"` is minus four, `"10-3"` is 7. A minus sign may lead the expression (the ± key)
and stands between numbers; it never doubles (`"--3"`, `"3+-2"` are refused: a
"minus minus" is a slip of the finger far more often than a wish). Spaces are
ignored; the Unicode minus (−) counts as `-`. Each number and every running sum stay
within ±`LIMIT`; the text is at most `MAX_CHARS` characters. A template with `whole:
false` takes decimals (a point or a comma, at most `DECIMALS` places); their values
are kept as `Fraction`s so 0.1 + 0.2 is 0.3 exactly.

Every refusal is a `RuleError` under `pad.error.entry.*` naming what is wrong.
"""

from __future__ import annotations

import re
from fractions import Fraction

from companion.messages import RuleError

MAX_CHARS = 64
LIMIT = 1_000_000
DECIMALS = 2
_NUMBER = re.compile(r"[0-9]+(?:[.,][0-9]*)?")
_MINUS = "-\u2212"

Number = int | Fraction


def _number(token: str, whole: bool) -> Number:
    if "." not in token and "," not in token:
        return int(token)
    if whole:
        raise RuleError("pad.error.entry.decimal", text=token)
    head, _, tail = token.replace(",", ".").partition(".")
    if not tail:
        raise RuleError("pad.error.entry.decimal_digits", text=token)
    if len(tail) > DECIMALS:
        raise RuleError("pad.error.entry.decimal_places", text=token, n=DECIMALS)
    return Fraction(int(head + tail), 10 ** len(tail))


def evaluate(text: str, *, whole: bool = True) -> Number:
    """The value of a cell's text; RuleError naming the first problem."""
    if not isinstance(text, str):
        raise RuleError("pad.error.entry.not_text")
    if len(text) > MAX_CHARS:
        raise RuleError("pad.error.entry.too_long", n=MAX_CHARS, length=len(text))
    compact = "".join(text.split())
    if not compact:
        raise RuleError("pad.error.entry.empty")
    total: Number = 0
    sign = 1
    position = 0
    expect_number = True
    while position < len(compact):
        ch = compact[position]
        if expect_number:
            if ch in _MINUS or ch == "+":
                if position > 0:  # "--3", "3+-2", "3++2": a sign right after another
                    raise RuleError("pad.error.entry.double_sign", text=text)
                sign = -1 if ch in _MINUS else 1  # the ± key's leading sign
                position += 1
                continue
            found = _NUMBER.match(compact, position)
            if found is None:
                raise RuleError("pad.error.entry.character", char=ch, text=text)
            value = _number(found.group(), whole)
            total += sign * value
            if value > LIMIT or abs(total) > LIMIT:
                raise RuleError("pad.error.entry.bounds", limit=LIMIT, text=text)
            position = found.end()
            expect_number = False
            continue
        if ch == "+":
            sign = 1
        elif ch in _MINUS:
            sign = -1
        else:  # a letter, a "*", a digit no ASCII reader takes ("３")
            raise RuleError("pad.error.entry.character", char=ch, text=text)
        position += 1
        expect_number = True
    if expect_number:
        if len(compact) == 1:  # a lone "-" (or "+")
            raise RuleError("pad.error.entry.lone_sign", text=text)
        raise RuleError("pad.error.entry.trailing", text=text)
    if isinstance(total, Fraction) and total.denominator == 1:
        return int(total)
    return total


def shown(value: Number) -> str:
    """A value as the sheet writes it: `11`, `-4`, `2.5` (decimals without trailing
    zeros; the screen's translator may localise the point)."""
    if isinstance(value, int):
        return str(value)
    if value.denominator == 1:
        return str(value.numerator)
    text = f"{float(value):.{DECIMALS}f}".rstrip("0").rstrip(".")
    return text
