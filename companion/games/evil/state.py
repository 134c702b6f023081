"""Pr. Evil's table state: immutable, small, compared by value."""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import cache
from typing import Any, TypeVar

from companion.games.evil.params import EvilParams

T = TypeVar("T")


@cache
def _field_names(cls: type) -> frozenset[str]:
    return frozenset(f.name for f in fields(cls))


def evolve(record: T, **changes: Any) -> T:
    """`dataclasses.replace` for these plain frozen records, without running `__init__`
    again: the rules make tens of thousands of them when a long journal is replayed, and
    `replace` was half of the replay time."""
    if not _field_names(type(record)).issuperset(changes):
        unknown = sorted(changes.keys() - _field_names(type(record)))
        raise TypeError(f"{type(record).__name__} has no field {unknown}")
    new = object.__new__(type(record))
    new.__dict__.update(record.__dict__)
    new.__dict__.update(changes)
    return new


@dataclass(frozen=True)
class Treasure:
    """A treasure: its colour, its tile's minutes, and the steps left before the time marker."""

    colour: str
    minutes: int  # read off the physical tile when it was placed
    steps: int  # steps left before the time marker reaches it; 1..dial_steps-1 in play


@dataclass(frozen=True)
class Player:
    """A player at the table and the character they play."""

    name: str
    character: str


@dataclass(frozen=True)
class Roll:
    """The faces of one roll of the three dice, and who rolled them."""

    professor: str
    colour: str
    clock: str
    source: str = "app"  # "app" (digital dice) or "table" (physical dice entered)


@dataclass(frozen=True)
class EvilState:
    """A game of Pr. Evil at one moment: clock, treasures, piles, players, turn, powers."""

    params: EvilParams
    seed: int
    draws: int  # dice drawn so far: the random source's counter
    time: int  # the time marker's dial position, 0 = XII
    slots: tuple[Treasure | None, ...]  # one per colour, in params.colours order
    recovered: tuple[Treasure, ...]
    lost: tuple[Treasure, ...]
    players: tuple[Player, ...]
    active: int  # index of the player whose turn it is
    turn: int  # 1 on the first turn
    last_roll: Roll | None = None
    #: the state just before the last roll, while the roll may still be re-rolled or fixed
    before_roll: EvilState | None = None
    pending_powers: int = 0  # power activations waiting for the table's choice
    powers_up: tuple[str, ...] = ()  # characters whose power tile is face up
    outcome: str | None = None  # "won" or "lost"
    difficulty: str = ""
    left_out: tuple[int, ...] = ()  # minutes of the tiles not in play at this difficulty
    #: 1: the black die resolved before a "time presses" loss was replaced (games set up
    #: before rules versions existed); 2: the seed's order, the roll waits for the replacement
    rules_version: int = 1
    #: the black die's face of a roll waiting for a replacement ("le temps presse"); it is
    #: applied, and the turn passes, once every slot holds a treasure again
    pending_clock: str | None = None

    def slot(self, colour: str) -> Treasure | None:
        return self.slots[self.params.colours.index(colour)]

    def marker_position(self, colour: str) -> int | None:
        """Where a treasure's clock marker stands on the dial."""
        treasure = self.slot(colour)
        if treasure is None:
            return None
        return (self.time + treasure.steps) % self.params.dial_steps

    @property
    def empty_colours(self) -> tuple[str, ...]:
        return tuple(c for c, t in zip(self.params.colours, self.slots, strict=True) if t is None)

    @property
    def waiting_for_replacement(self) -> bool:
        """A roll stopped before its black die until the lost treasure is replaced."""
        return self.pending_clock is not None

    @property
    def current_player(self) -> Player:
        return self.players[self.active]
