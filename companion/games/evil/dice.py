"""The three professor dice: faces from config, rolled from a seeded source.

Faces are short names: `chevron1..3`, `passage` and `time5`/`time10` on the professor
die, a colour name on the colour die, `clock1`/`clock2` on the clock die. A roll's
randomness depends only on (seed, counter): replaying a game or undoing a roll and
rolling again always gives the same faces, so undo cannot fish for better dice.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

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


_MASK = (1 << 64) - 1


def _splitmix64(x: int) -> int:
    """SplitMix64's finaliser (Steele, Lea, Flood 2014): a well-tested 64-bit mixer.

    A counter-based source: the n-th draw depends on (seed, n) only, with no state to
    carry, and costs a few integer operations (seeding random.Random per die was the
    larger part of replaying a long journal)."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


def draw(seed: int, counter: int, faces: Sequence[str]) -> str:
    """One die roll: the `counter`-th draw of the game seeded by `seed`."""
    value = _splitmix64(_splitmix64(seed & _MASK) ^ (counter & _MASK))
    return faces[(value * len(faces)) >> 64]  # Lemire's multiply-shift: no modulo


def tumble_face(tick: int, index: int, faces: Sequence[str], shown: str | None) -> str:
    """A decorative face for a tumbling die (it reveals nothing of the roll): drawn as a
    roll is, but never the face the die shows already. A tumble whose faces all came
    out as they were changed nothing on screen, so no frame was drawn (two such ticks in
    a row: 106 ms without a frame while a slow card synced)."""
    face = draw(tick, index, faces)
    if face != shown:
        return face
    others = [f for f in faces if f != shown]
    return others[(tick + index) % len(others)] if others else face


#: the counter of the first-player draw: far from the dice's counters (0, 1, 2, ...)
FIRST_PLAYER_DRAW = (1 << 64) - 1


def draw_first_player(seed: int, players: int) -> int:
    """"Décidez au hasard qui sera le premier joueur": the seat (in seating order) that
    starts, drawn from the game's seeded source, so the same seed gives the same seat."""
    return int(draw(seed, FIRST_PLAYER_DRAW, range(players)))
