"""Every action at the dice tray. Each one is logged and undoable."""

from __future__ import annotations

from dataclasses import dataclass

from companion.records import registry


@dataclass(frozen=True)
class AddDie:
    """Put one more die of this kind in the tray."""

    kind: str  # "d6", "d20"... or a custom die's id


@dataclass(frozen=True)
class RemoveDie:
    """Take this die out of the tray."""

    index: int


@dataclass(frozen=True)
class ClearDice:
    """Take every die out of the tray (the history and the distribution stay)."""


@dataclass(frozen=True)
class Roll:
    """Roll every die that is not locked (all of them the first time)."""


@dataclass(frozen=True)
class Lock:
    """Keep this die's face: the next rolls leave it as it is."""

    index: int


@dataclass(frozen=True)
class Unlock:
    """Roll this die again with the others."""

    index: int


@dataclass(frozen=True)
class Close:
    """Put the tray away: the session is finished."""


COMMANDS = registry([AddDie, RemoveDie, ClearDice, Roll, Lock, Unlock, Close])
