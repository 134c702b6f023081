"""What happened, for the screen, the buzzer and the log. Players are setup indices."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LairCardAdded:
    player: int
    value: int
    size: int  # the lair's size afterwards


@dataclass(frozen=True)
class LairCardRemoved:
    player: int
    value: int
    size: int


@dataclass(frozen=True)
class SpiesPlayed:
    target: int
    spies: tuple[int, ...]
    power: int
    lair_size: int
    by: int | None


@dataclass(frozen=True)
class SpyCaptured:
    owner: int
    power: int


@dataclass(frozen=True)
class SpyEscaped:
    owner: int
    power: int
    reason: str  # "too_strong" (power above the lair's size) or "answered"


@dataclass(frozen=True)
class LairDestroyed:
    owner: int
    cards: tuple[int, ...]  # the lair cards discarded


@dataclass(frozen=True)
class RidiculePlayed:
    owner: int
    letter: str


@dataclass(frozen=True)
class RidiculeAnswered:
    owner: int
    letter: str


@dataclass(frozen=True)
class RidiculeSucceeded:
    owner: int
    letter: str
    value: int  # the spy's value now


@dataclass(frozen=True)
class SpyKilled:
    owner: int
    power: int
    successes: int  # successful ridicules: the power was doubled this many times
    points: int
    score: int  # the owner's score afterwards


@dataclass(frozen=True)
class ScoreCorrected:
    player: int
    delta: int
    score: int


@dataclass(frozen=True)
class GameEnded:
    reason: str  # "target", "agreed" or "last_spy"
    winners: tuple[int, ...]
    score: int  # the winning score
