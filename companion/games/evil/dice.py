"""The three professor dice: faces from config, rolled from a seeded source.

Faces are short names: `chevron1..3`, `passage` and `time5`/`time10` on the professor
die, a colour name on the colour die, `clock1`/`clock2` on the clock die. They are
rolled with the seeded source every game shares (`companion.dice`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from companion.dice import draw

DICE = ("professor", "colour", "clock")
_FACE = re.compile(r"^(chevron|time|clock)([1-9][0-9]*)$")


@dataclass(frozen=True)
class Face:
    """What a die face means: its kind, with an amount or a colour."""

    kind: str  # chevron, passage, time, clock, colour
    amount: int = 0
    colour: str = ""


def parse_face(die: str, name: str, colours: Sequence[str]) -> Face | None:
    """The meaning of a face name on a die, or None if it does not belong there."""
    return _parse_face(die, name, tuple(colours))


@lru_cache(maxsize=512)  # every roll parses its faces again: a replay does it thousands of times
def _parse_face(die: str, name: str, colours: tuple[str, ...]) -> Face | None:
    if die == "colour":
        return Face("colour", colour=name) if name in colours else None
    if die == "professor" and name == "passage":
        return Face("passage")
    match = _FACE.match(name)
    if not match:
        return None
    kind, amount = match.group(1), int(match.group(2))
    if die == "professor" and kind == "chevron":
        return Face("chevron", amount)
    if die == "professor" and kind == "time":
        return Face("time", amount)
    if die == "clock" and kind == "clock":
        return Face("clock", amount)
    return None


#: the counter of the first-player draw: far from the dice's counters (0, 1, 2, ...)
FIRST_PLAYER_DRAW = (1 << 64) - 1


def draw_first_player(seed: int, players: int) -> int:
    """"Décidez au hasard qui sera le premier joueur": the seat (in seating order) that
    starts, drawn from the game's seeded source, so the same seed gives the same seat."""
    return int(draw(seed, FIRST_PLAYER_DRAW, range(players)))
