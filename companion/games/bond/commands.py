"""Every action the table can take in Mr. Bond. Each one is logged and undoable.

Players are named by their index in the setup's player list (the journal's setup
holds the names), so a command stays valid whatever the names are.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.records import registry


@dataclass(frozen=True)
class AddLairCard:
    """A player adds a lair card of this value to their lair."""

    player: int
    value: int


@dataclass(frozen=True)
class Attack:
    """One or more spies played together on a lair: they count as one, powers summed."""

    target: int
    spies: tuple[int, ...]
    by: int | None = None  # who played them, when the table says so (for the log)

    def __post_init__(self) -> None:
        # a screen may pass a list: keep a tuple so the command equals its journal replay
        if isinstance(self.spies, list):
            object.__setattr__(self, "spies", tuple(self.spies))


@dataclass(frozen=True)
class Kill:
    """The lair's owner kills the captured spy and scores its (doubled) value."""


@dataclass(frozen=True)
class Ridicule:
    """The lair's owner plays a doubler card of this letter on the captured spy."""

    letter: str


@dataclass(frozen=True)
class Answered:
    """Another player played the twin doubler card: the spy escapes, the lair is destroyed."""


@dataclass(frozen=True)
class NotAnswered:
    """Nobody played the twin doubler card: the spy's value is doubled."""


@dataclass(frozen=True)
class EndGame:
    """The players agree nobody can or will play: the highest score wins (ties shared)."""


@dataclass(frozen=True)
class NextTurn:
    """The player whose turn it is is done: the next player (clockwise) draws."""


@dataclass(frozen=True)
class CorrectScore:
    """The table fixes a score by hand; logged like any other action."""

    player: int
    delta: int


@dataclass(frozen=True)
class RemoveLairCard:
    """The table fixes a lair card entered by mistake (not a rule action)."""

    player: int
    value: int


COMMANDS = registry(
    [AddLairCard, Attack, Kill, Ridicule, Answered, NotAnswered, EndGame, CorrectScore,
     RemoveLairCard, NextTurn]
)
