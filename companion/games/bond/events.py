"""What happened, for the screen, the buzzer and the log. Players are setup indices."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LairCardAdded:
    """A player added a lair card to their lair; `size` is the lair's new size."""

    player: int
    value: int
    size: int  # the lair's size afterwards


@dataclass(frozen=True)
class CheckCards:
    """A card was accepted although the game's settings do not print that value: the
    table should check its cards (and may widen the settings for the next games).
    `card`: "lair" or "spy"; `low`..`high`: the game's configured range."""

    card: str
    value: int
    low: int
    high: int


@dataclass(frozen=True)
class LairCardRemoved:
    """A lair card entered by mistake was taken back; `size` is the new size."""

    player: int
    value: int
    size: int


@dataclass(frozen=True)
class SpiesPlayed:
    """Spies were played together on a lair: their summed power against its size."""

    target: int
    spies: tuple[int, ...]
    power: int
    lair_size: int
    by: int | None


@dataclass(frozen=True)
class SpyCaptured:
    """The spy's power did not exceed the lair's size: the owner captured it."""

    owner: int
    power: int


@dataclass(frozen=True)
class SpyEscaped:
    """A spy escaped a lair: too strong for it, or a ridicule was answered."""

    owner: int
    power: int
    reason: str  # "too_strong" (power above the lair's size) or "answered"


@dataclass(frozen=True)
class LairDestroyed:
    """An escaping spy destroyed a lair: all its lair cards were discarded."""

    owner: int
    cards: tuple[int, ...]  # the lair cards discarded


@dataclass(frozen=True)
class RidiculePlayed:
    """The lair's owner played a doubler card of this letter on the captured spy."""

    owner: int
    letter: str


@dataclass(frozen=True)
class RidiculeAnswered:
    """Another player played the twin doubler card: the spy escapes."""

    owner: int
    letter: str


@dataclass(frozen=True)
class RidiculeSucceeded:
    """Nobody answered the ridicule: the spy's value doubled."""

    owner: int
    letter: str
    value: int  # the spy's value now


@dataclass(frozen=True)
class SpyKilled:
    """The lair's owner killed the captured spy and scored its value."""

    owner: int
    power: int
    successes: int  # successful ridicules: the power was doubled this many times
    points: int
    score: int  # the owner's score afterwards


@dataclass(frozen=True)
class ScoreCorrected:
    """The table fixed a player's score by hand."""

    player: int
    delta: int
    score: int


@dataclass(frozen=True)
class GameEnded:
    """The game is over: why, who won, and the winning score."""

    reason: str  # "target", "agreed" or "last_spy"
    winners: tuple[int, ...]
    score: int  # the winning score


@dataclass(frozen=True)
class TurnBegan:
    """A player's turn begins: they draw a card (none when the pile is empty)."""

    player: int
