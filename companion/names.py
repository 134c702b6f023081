"""Player names: what the roster and a new game's setup accept.

A name is shown on every screen, in the history, and in exports: it is kept short
(`NAME_MAX` characters, a limit the name keyboard shows while typing) and free of
characters that would hide or reorder text: control characters (NUL included) and the
bidirectional overrides and isolates (U+202A..U+202E, U+2066..U+2069), which can make a
name read backwards next to the others. `check_name` is pure, so a keyboard can call it
on every key press.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

from companion.messages import Message, RuleError, msg

#: the longest name, in characters (after trimming and joining spaces)
NAME_MAX = 24
BIDI_CONTROLS = frozenset(
    [*map(chr, range(0x202A, 0x202F)), *map(chr, range(0x2066, 0x206A))]
)


def clean_name(text: Any) -> str:
    """The name as it is kept: trimmed, inner runs of spaces joined into one."""
    return " ".join(str(text if text is not None else "").split())


def check_name(text: Any) -> Message | None:
    """Why `text` cannot be a player's name, or None when it can (checked as cleaned)."""
    raw = str(text if text is not None else "")
    name = clean_name(raw)
    # letters, digits, punctuation or symbols: a name of zero-width characters is empty
    if not any(unicodedata.category(ch)[0] in "LNPS" for ch in name):
        return msg("core.error.empty_name")
    for ch in raw:
        if ch in BIDI_CONTROLS:
            return msg("core.error.name_bidi", code=f"U+{ord(ch):04X}")
        # Cc: controls (NUL, tab, newline...); Cf besides the bidi ones is allowed
        # (a zero-width joiner belongs in some names)
        if unicodedata.category(ch) == "Cc" or ch in "\u2028\u2029":
            return msg("core.error.name_control", code=f"U+{ord(ch):04X}")
    if len(name) > NAME_MAX:
        return msg("core.error.name_long", n=NAME_MAX, length=len(name))
    return None


def checked_name(text: Any) -> str:
    """The cleaned name, or RuleError saying why it is refused."""
    problem = check_name(text)
    if problem is not None:
        raise RuleError(problem.key, **problem.params)
    return clean_name(text)


def _dropped(ch: str) -> bool:
    """A character that hides or reorders text: a control (NUL, ESC, newline...), a line
    or paragraph separator, a bidi override or isolate."""
    return ch in BIDI_CONTROLS or ch in "\u2028\u2029" or unicodedata.category(ch) == "Cc"


def _tidy(raw: str) -> str:
    if not raw.isprintable():  # (the usual text is: nothing to look at one by one)
        raw = "".join(ch if not _dropped(ch) else " " if ch.isspace() else ""
                      for ch in raw)
    return clean_name(raw)


def tidy_text(text: Any, limit: int | None = None) -> str:
    """Text that did not come from the keyboard (an older journal, a restored backup, an
    import) made safe to show and to write out: control characters, line separators
    and bidi overrides and isolates dropped (a tab or newline becomes a space), runs of
    spaces joined, trimmed; at most `limit` characters. Reads only as far as `limit`
    needs: a legacy name of 10 000 characters costs about what a short one does."""
    raw = str(text if text is not None else "")
    if limit is None:
        return _tidy(raw)
    span = 4 * limit + 16
    while True:
        # the tidied head of the text: enough once it fills the limit or is all of it
        head = _tidy(raw[:span])
        if span >= len(raw) or len(head) > limit:
            return head[:limit].strip()
        span *= 4


def tidy_name(text: Any) -> str:
    """A name from an older journal or a backup made acceptable: control and bidi
    characters dropped, spaces joined, cut to NAME_MAX ("" when nothing is left)."""
    name = tidy_text(text, NAME_MAX)
    return name if check_name(name) is None else ""


def check_setup_names(setup: Mapping[str, Any]) -> None:
    """Refuse a new game whose setup names a player `check_name` refuses.

    Called when a game starts, not when one is replayed: a game already in the journal
    keeps the names it was played with."""
    players = setup.get("players") if isinstance(setup, Mapping) else None
    if not isinstance(players, (list, tuple)):
        return
    for item in players:
        if isinstance(item, Mapping) and "name" in item:
            checked_name(item["name"])


def shown_name(text: Any, fallback: str = "") -> str:
    """A stored name as the screens and exports show it: tidied (`tidy_name`), or
    `fallback` when nothing of it is left. The journal keeps what it holds."""
    return tidy_name(text) or fallback


def display_name(text: Any) -> str:
    """A player's name as a screen shows it: a typed name as it is (the usual case,
    checked at once); an older journal's tidied (`shown_name`), "?" when nothing of
    it is left. Commands keep the name the game holds."""
    if isinstance(text, str) and len(text) <= NAME_MAX and text.isprintable():
        return text
    return shown_name(text, tidy_text(text, NAME_MAX) or "?")
