"""What happened at the dice tray, for the screen and the log."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DieAdded:
    """A die of this kind went into the tray at this position."""

    kind: str
    index: int


@dataclass(frozen=True)
class DieRemoved:
    """The die of this kind at this position left the tray."""

    kind: str
    index: int


@dataclass(frozen=True)
class DiceCleared:
    """Every die left the tray; `count` is how many there were."""

    count: int


@dataclass(frozen=True)
class DiceRolled:
    """One roll of the tray: every die's face, which ones rolled, and the total."""

    number: int  # 1 for the session's first roll
    kinds: tuple[str, ...]  # every die in the tray
    faces: tuple[str, ...]  # every die's face after the roll
    rolled: tuple[bool, ...]  # False: locked, kept its face
    total: int | None  # the sum when every die is a common (numbered) die


@dataclass(frozen=True)
class DieLocked:
    """This die keeps its face: rolls leave it as it is."""

    index: int


@dataclass(frozen=True)
class DieUnlocked:
    """This die rolls again with the others."""

    index: int


@dataclass(frozen=True)
class TrayClosed:
    """The tray was put away after this many rolls."""

    rolls: int
