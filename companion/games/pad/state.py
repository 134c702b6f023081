"""The score pad's state: immutable, plain values only (the snapshots decode it by its
annotations), compared by value.

A cell is `None` while blank: a blank is never a zero. Values are whole numbers, or
for a template with `whole: false` a float with at most two decimals (the scoring reads
it back exactly).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.pad.template import Template


@dataclass(frozen=True)
class Player:
    name: str
    roster_id: int | None = None
    colour: str | None = None


@dataclass(frozen=True)
class Cell:
    """What the table typed ("3+6+2") and its value (11)."""

    text: str
    value: int | float


Row = tuple[Cell | None, ...]  # one cell per seat


@dataclass(frozen=True)
class Exit:
    """A player out of the ranking: eliminated or left, after `rounds` rounds."""

    how: str  # "eliminated" | "left"
    rounds: int  # rounds opened when they went out: later rounds need no cell of theirs


@dataclass(frozen=True)
class PadState:
    template: Template
    players: tuple[Player, ...]
    start_player: int
    start_drawn: bool
    teams: tuple[tuple[int, ...], ...] = ()  # seats per team; () when not in teams
    confirmed_count: bool = False
    rounds: tuple[Row, ...] = ()  # rounds shape: one row per round opened
    categories: tuple[Row, ...] = ()  # categories shape: one row per template category
    tie_inputs: tuple[tuple[str, Row], ...] = ()  # raw tie-breaker inputs, by key
    exits: tuple[Exit | None, ...] = ()  # per seat
    settled: tuple[int, ...] = ()  # the table's choice among tied winners (`ties: chosen`)
    settled_among: tuple[int, ...] = ()  # the seats tied when it chose: another tie asks again
    instant: tuple[int, ...] = ()  # seats that won outright
    instant_reason: str = ""
    coop_won: bool | None = None
    places: tuple[tuple[int, ...], ...] = ()  # `win: places`: seats best first, ties grouped
    finished: bool = False
    #: penalty points against each seat (the clock beside the game); () when none
    penalties: tuple[int, ...] = ()

    def tie_row(self, key: str) -> Row:
        for k, row in self.tie_inputs:
            if k == key:
                return row
        return (None,) * len(self.players)

    def active(self, seat: int) -> bool:
        return self.exits[seat] is None
