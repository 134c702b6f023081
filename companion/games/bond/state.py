"""Mr. Bond's table state: immutable, small, compared by value."""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.bond.params import DOUBLERS_PER_LETTER, BondParams


@dataclass(frozen=True)
class Player:
    """A player: the lair cards in front of them and their score."""

    name: str
    lair: tuple[int, ...] = ()  # values of the lair cards in front of the player
    score: int = 0

    @property
    def lair_size(self) -> int:
        return sum(self.lair)

    @property
    def has_lair(self) -> bool:
        """Rulebook: no lair card, no lair (no spy can be played there)."""
        return bool(self.lair)


@dataclass(frozen=True)
class Capture:
    """A spy (or several played together, counting as one) held in a lair."""

    owner: int  # index of the player whose lair holds it
    spies: tuple[int, ...]  # the card values played together
    attacker: int | None  # who played them, when the table said so
    successes: tuple[str, ...] = ()  # letters of the ridicules that were not answered
    pending: str | None = None  # letter just played: answered or not, still to be said

    @property
    def power(self) -> int:
        """The spies' summed power, also their base value when killed."""
        return sum(self.spies)

    @property
    def value(self) -> int:
        """Points for killing it now: doubled by every successful ridicule."""
        return self.power * 2 ** len(self.successes)

    @property
    def letters(self) -> tuple[str, ...]:
        """Letters already played on this spy: none of them may be played on it again."""
        return self.successes if self.pending is None else (*self.successes, self.pending)


@dataclass(frozen=True)
class Outcome:
    """How the game ended and who won."""

    reason: str  # "target", "agreed" or "last_spy"
    winners: tuple[int, ...]  # player indices; several when tied


@dataclass(frozen=True)
class BondState:
    """A game of Mr. Bond at one moment: players, captured spy, cards played, outcome."""

    params: BondParams
    players: tuple[Player, ...]
    capture: Capture | None = None
    lair_cards_played: int = 0  # discards are never reused: at most the deck's count
    spies_played: int = 0
    doublers_played: tuple[str, ...] = ()  # every doubler card played, by letter
    outcome: Outcome | None = None
    turn: int = 0  # whose turn it is (the first seat starts: the dealer's left)
    turn_lair: bool = False  # a lair card was played this turn
    turn_spies: bool = False  # spies were sent this turn (when the turn goes on after)

    @property
    def finished(self) -> bool:
        return self.outcome is not None

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(p.score for p in self.players)

    def doublers_left(self, letter: str) -> int:
        """Cards of this letter not yet played in the game (two per letter)."""
        return DOUBLERS_PER_LETTER - self.doublers_played.count(letter)
