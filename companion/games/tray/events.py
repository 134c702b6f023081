"""What happened at the dice tray, for the screen and the log."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DieAdded:
    kind: str
    index: int


@dataclass(frozen=True)
class DieRemoved:
    kind: str
    index: int


@dataclass(frozen=True)
class DiceCleared:
    count: int


@dataclass(frozen=True)
class DiceRolled:
    number: int  # 1 for the session's first roll
    kinds: tuple[str, ...]  # every die in the tray
    faces: tuple[str, ...]  # every die's face after the roll
    rolled: tuple[bool, ...]  # False: locked, kept its face
    total: int | None  # the sum when every die is a common (numbered) die


@dataclass(frozen=True)
class DieLocked:
    index: int


@dataclass(frozen=True)
class DieUnlocked:
    index: int


@dataclass(frozen=True)
class TrayClosed:
    rolls: int
