"""The dice tray's state: immutable, compared by value."""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.tray.params import TrayParams


@dataclass(frozen=True)
class Die:
    """A die in the tray: its kind, the face showing, and whether it is locked."""

    kind: str
    face: int | None = None  # index into the die's faces; None before its first roll
    locked: bool = False


@dataclass(frozen=True)
class RollRecord:
    """One past roll: the dice in the tray, their faces, and which ones rolled."""

    number: int
    kinds: tuple[str, ...]
    faces: tuple[int, ...]  # face indices, one per die
    rolled: tuple[bool, ...]


@dataclass(frozen=True)
class TrayState:
    """The tray at one moment: dice, recent rolls, face counts, closed or not."""

    params: TrayParams
    seed: int
    draws: int  # dice drawn so far: the random source's counter
    dice: tuple[Die, ...] = ()
    recent: tuple[RollRecord, ...] = ()  # the last `params.history` rolls, oldest first
    rolls: int = 0  # every roll of the session
    #: per die kind: how many times each face came up, over every roll of the session
    counts: tuple[tuple[str, tuple[int, ...]], ...] = ()
    closed: bool = False
