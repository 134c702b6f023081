"""The seeded dice every game rolls: Pr. Evil's, the tray's and the clock's draws.

A roll's randomness depends only on (seed, counter): replaying a game or undoing a roll
and rolling again always gives the same faces, so undo cannot fish for better dice. A
game's own dice (which faces, what they mean) stay in its folder.
"""

from __future__ import annotations

from collections.abc import Sequence

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
