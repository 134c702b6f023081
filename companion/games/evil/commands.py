"""Every action the table can take in Pr. Evil. Each one is logged and undoable."""

from __future__ import annotations

from dataclasses import dataclass

from companion.records import registry


@dataclass(frozen=True)
class Roll:
    """Roll the three dice with the app's seeded source, resolve them, pass the dice on."""


@dataclass(frozen=True)
class EnterRoll:
    """The table rolled physical dice: resolve the faces it reports."""

    professor: str
    colour: str
    clock: str


@dataclass(frozen=True)
class Reroll:
    """A power or card re-rolls one die of the last roll; the roll is resolved again."""

    die: str


@dataclass(frozen=True)
class SetDie:
    """Correct one die of the last roll to the face the table says."""

    die: str
    face: str


@dataclass(frozen=True)
class PlaceTreasure:
    """Put a new treasure in this colour's slot, with the minutes on its tile."""

    colour: str
    minutes: int


@dataclass(frozen=True)
class Recover:
    """The players took this colour's treasure: it goes to the recovered pile."""

    colour: str


@dataclass(frozen=True)
class MarkLost:
    """The table says this colour's treasure is lost: it goes to the lost pile."""

    colour: str


@dataclass(frozen=True)
class MoveTime:
    """Move the time marker one step by hand, clockwise or back."""

    delta: int  # +1 clockwise, -1 counter-clockwise


@dataclass(frozen=True)
class MoveTreasure:
    """Move a treasure's clock marker one step by hand, clockwise or back."""

    colour: str
    delta: int  # +1 clockwise (more time), -1 counter-clockwise


@dataclass(frozen=True)
class SetPlayer:
    """The table says whose turn it is (the dice went to another seat)."""

    player: str


@dataclass(frozen=True)
class ActivatePower:
    """The table picks this character for a due activation: their tile goes face up."""

    character: str


@dataclass(frozen=True)
class SkipPower:
    """Let a due power activation go without turning any tile face up."""

    pass


@dataclass(frozen=True)
class FlipPowerDown:
    """A character used their one-shot bonus (or the tile was flipped by mistake)."""

    character: str


COMMANDS = registry(
    [Roll, EnterRoll, Reroll, SetDie, PlaceTreasure, Recover, MarkLost, MoveTime,
     MoveTreasure, SetPlayer, ActivatePower, SkipPower, FlipPowerDown]
)
