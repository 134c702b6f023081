"""What happened, for the screen, the LEDs, the buzzer and the log."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DiceRolled:
    professor: str
    colour: str
    clock: str
    source: str


@dataclass(frozen=True)
class ProfessorMoves:
    rooms: int
    colour: str


@dataclass(frozen=True)
class SecretPassage:
    colour: str


@dataclass(frozen=True)
class NoEffect:
    """The colour's slot is empty: the professor die does nothing this roll."""

    colour: str


@dataclass(frozen=True)
class TreasureMoved:
    colour: str
    steps: int  # negative: counter-clockwise, towards the time marker
    left: int  # steps left afterwards (0 or less: lost)


@dataclass(frozen=True)
class TimeMoved:
    steps: int
    position: int


@dataclass(frozen=True)
class TreasureLost:
    colour: str
    minutes: int


@dataclass(frozen=True)
class TreasureRecovered:
    colour: str
    minutes: int


@dataclass(frozen=True)
class TreasurePlaced:
    colour: str
    minutes: int
    position: int


@dataclass(frozen=True)
class PowerSpaceReached:
    position: int


@dataclass(frozen=True)
class PowerActivated:
    character: str


@dataclass(frozen=True)
class PowerSkipped:
    pass


@dataclass(frozen=True)
class PowerFlippedDown:
    character: str


@dataclass(frozen=True)
class TurnPassed:
    player: str
    character: str
    turn: int


@dataclass(frozen=True)
class GameWon:
    recovered: int


@dataclass(frozen=True)
class GameLost:
    lost: int
