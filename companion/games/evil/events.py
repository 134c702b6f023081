"""What happened, for the screen, the LEDs, the buzzer and the log."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DiceRolled:
    """The faces of the three dice in a roll, and who rolled them (app or table)."""

    professor: str
    colour: str
    clock: str
    source: str


@dataclass(frozen=True)
class ProfessorMoves:
    """The professor moves this many rooms, through the doors with mats of this colour."""

    rooms: int
    colour: str


@dataclass(frozen=True)
class SecretPassage:
    """The professor goes straight to the room of this colour's treasure."""

    colour: str


@dataclass(frozen=True)
class NoEffect:
    """The colour's slot is empty: the professor die does nothing this roll."""

    colour: str


@dataclass(frozen=True)
class TreasureMoved:
    """A treasure's clock marker moved, by a time die or by hand; with no steps left it is lost."""

    colour: str
    steps: int  # negative: counter-clockwise, towards the time marker
    left: int  # steps left afterwards (0 or less: lost)


@dataclass(frozen=True)
class BlackDieWaits:
    """The white dice lost a treasure: the black die waits until it is replaced."""

    colours: tuple[str, ...]  # the slots to fill before the black die is applied
    clock: str  # the black die's face, applied afterwards


@dataclass(frozen=True)
class BlackDieApplied:
    """Every slot holds a treasure again: the waiting black die is applied now."""

    clock: str


@dataclass(frozen=True)
class TimeMoved:
    """The time marker moved this many steps and now stands at this dial position."""

    steps: int
    position: int


@dataclass(frozen=True)
class TreasureLost:
    """A treasure went to the lost pile: the professor secured it."""

    colour: str
    minutes: int


@dataclass(frozen=True)
class TreasureRecovered:
    """The players took a treasure: it went to the recovered pile."""

    colour: str
    minutes: int


@dataclass(frozen=True)
class TreasurePlaced:
    """A treasure came into play: its tile's minutes and its clock marker's position."""

    colour: str
    minutes: int
    position: int


@dataclass(frozen=True)
class PowerSpaceReached:
    """The time marker reached or passed a power space: one activation is due."""

    position: int


@dataclass(frozen=True)
class PowerActivated:
    """The table picked this character: their power tile is now face up."""

    character: str


@dataclass(frozen=True)
class PowerSkipped:
    """A due power activation was let go: no tile was turned face up."""

    pass


@dataclass(frozen=True)
class PowerFlippedDown:
    """This character's power tile went back face down."""

    character: str


@dataclass(frozen=True)
class TurnPassed:
    """The dice passed on: this player (and character) plays this turn."""

    player: str
    character: str
    turn: int


@dataclass(frozen=True)
class PlayerSet:
    """The table corrected whose turn it is: this player (and character) plays."""

    player: str
    character: str


@dataclass(frozen=True)
class GameWon:
    """The players recovered enough treasures: they won."""

    recovered: int


@dataclass(frozen=True)
class GameLost:
    """The professor secured enough treasures: the players lost."""

    lost: int
