"""What the keypad's keys do to the text being typed in a cell (pure: no Kivy).

The text is what `companion.games.pad.entry.evaluate` reads: whole numbers (decimals
when the template allows them) joined by `+` and `-`, a leading `-` for a negative
value. The ± key turns the sign of the number being typed (the operator before it, or
a leading minus); `+` starts the next number to add up in the cell; an operator typed
twice replaces the first, so the text never holds "3+-2", which the rules refuse.
"""

from __future__ import annotations

OPERATORS = "+-"
MAX_CHARS = 64  # the rules' own limit (entry.MAX_CHARS): a key past it does nothing


def _last_term_start(text: str) -> int:
    """Where the number being typed starts (after the last operator)."""
    cut = max(text.rfind("+"), text.rfind("-"))
    return cut + 1


def press(text: str, key: str, *, decimals: bool = False) -> str:
    """`text` after `key`: a digit, ".", "+", "pm" (±) or "del"."""
    if key == "del":
        return text[:-1]
    if key == "pm":
        return _toggle_sign(text)
    if len(text) >= MAX_CHARS:
        return text
    if key == "+":
        if not text or text == "-":
            return text  # nothing to add to yet
        if text[-1] in OPERATORS:
            return text[:-1] + "+"
        return text + "+"
    if key == ".":
        term = text[_last_term_start(text):]
        if not decimals or "." in term:
            return text
        return text + ("0." if not term else ".")
    if key.isdigit() and len(key) == 1:
        term = text[_last_term_start(text):]
        if term == "0":  # "05" is 5: the leading zero goes
            return text[:-1] + key
        return text + key
    return text


def _toggle_sign(text: str) -> str:
    start = _last_term_start(text)
    if start == 0:  # the first number: a leading minus or none
        return text[1:] if text.startswith("-") else "-" + text
    before = text[start - 1]
    if start == 1:  # "-3": the leading minus itself
        return text[1:]
    return text[:start - 1] + ("-" if before == "+" else "+") + text[start:]


def shown(text: str) -> str:
    """The text as the table reads it: true minus signs, spaces around operators."""
    out = []
    for i, ch in enumerate(text):
        if ch == "+":
            out.append(" + ")
        elif ch == "-":
            out.append("\u2212" if i == 0 else " \u2212 ")
        else:
            out.append(ch)
    return "".join(out).strip()


def adds_up(text: str) -> bool:
    """The text is more than one number (its value is worth showing beside it)."""
    return any(ch in OPERATORS for ch in text[1:])
