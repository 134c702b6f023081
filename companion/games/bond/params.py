"""Mr. Bond's rule parameters, read from the `games.bond` config section.

A game keeps the parameters it started with (they are part of its setup in the
journal), so changing the config never changes a game already played.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.messages import Message, msg

#: rulebook: "il y a 2 cartes par lettre": a ridicule is answered by the twin card
DOUBLERS_PER_LETTER = 2

#: The seed gives the card counts, not the values printed: the configured ranges are
#: guesses, and a card outside them is accepted with a "check your cards" note. Only a
#: number no card can print is refused: cards print at least 1 (the config's floor)
#: and at most two digits (or the configured maximum, if a table set a higher one).
CARD_MIN = 1
CARD_MAX = 99


@dataclass(frozen=True)
class BondParams:
    """The rules a Mr. Bond game was set up with: deal, deck, card values, target."""

    players_min: int
    players_max: int
    hand_cards: int
    small_table_players: int  # up to this many players, each gets `small_table_cards`
    small_table_cards: int
    lair_cards: int  # lair cards in the deck
    spy_cards: int  # spy cards in the deck
    lair_min: int
    lair_max: int
    spy_min: int
    spy_max: int
    letters: tuple[str, ...]
    target_score: int
    multi_spy_own_lair: bool
    #: rulebook: spies are a turn's third and last step, so the turn passes once they
    #: are dealt with; false: the player may send more, "Next player" ends the turn
    turn_ends_after_spies: bool = True

    @classmethod
    def from_config(cls, section: Mapping[str, Any]) -> BondParams:
        deal = section["deal"]
        return cls(
            players_min=int(section["players"]["min"]),
            players_max=int(section["players"]["max"]),
            hand_cards=int(deal["cards"]),
            small_table_players=int(deal["small_table"]["players"]),
            small_table_cards=int(deal["small_table"]["cards"]),
            lair_cards=int(section["deck"]["lair"]),
            spy_cards=int(section["deck"]["spy"]),
            lair_min=int(section["lair_values"]["min"]),
            lair_max=int(section["lair_values"]["max"]),
            spy_min=int(section["spy_values"]["min"]),
            spy_max=int(section["spy_values"]["max"]),
            letters=tuple(str(letter) for letter in section["doubler_letters"]),
            target_score=int(section["target_score"]),
            multi_spy_own_lair=bool(section["multi_spy_own_lair"]),
            # a game set up before the app followed the turns: the rulebook's turn
            turn_ends_after_spies=bool(section.get("turn_ends_after_spies", True)),
        )

    def to_config(self) -> dict[str, Any]:
        return {
            "players": {"min": self.players_min, "max": self.players_max},
            "deal": {
                "cards": self.hand_cards,
                "small_table": {"players": self.small_table_players,
                                "cards": self.small_table_cards},
            },
            "deck": {"lair": self.lair_cards, "spy": self.spy_cards},
            "lair_values": {"min": self.lair_min, "max": self.lair_max},
            "spy_values": {"min": self.spy_min, "max": self.spy_max},
            "doubler_letters": list(self.letters),
            "target_score": self.target_score,
            "multi_spy_own_lair": self.multi_spy_own_lair,
            "turn_ends_after_spies": self.turn_ends_after_spies,
        }

    def deal_size(self, players: int) -> int:
        """Cards dealt to each player at the start (the app reminds the dealer)."""
        return self.small_table_cards if players <= self.small_table_players else self.hand_cards

    def plausible_high(self, card: str) -> int:
        """The highest value a `card` ("lair" or "spy") is accepted with."""
        return max(CARD_MAX, self.lair_max if card == "lair" else self.spy_max)

    @property
    def doubler_cards(self) -> int:
        return DOUBLERS_PER_LETTER * len(self.letters)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _range(section: Mapping[str, Any], key: str, problems: list[tuple[str, Message]]) -> None:
    node = section.get(key)
    if not isinstance(node, Mapping) or not all(_is_int(node.get(k)) for k in ("min", "max")):
        problems.append((key, msg("bond.config.range")))
        return
    if not CARD_MIN <= node["min"] <= node["max"]:
        problems.append((key, msg("bond.config.range")))


def validate_config(section: Mapping[str, Any]) -> list[tuple[str, Message]]:
    """Problems in the meaning of `games.bond` (types were checked already)."""
    problems: list[tuple[str, Message]] = []
    players = section.get("players", {})
    low, high = players.get("min", 0), players.get("max", 0)
    if not (_is_int(low) and _is_int(high) and 2 <= low <= high):
        problems.append(("players", msg("bond.config.players")))
    deal = section.get("deal", {})
    if not _is_int(deal.get("cards")) or deal.get("cards", 0) < 1:
        problems.append(("deal.cards", msg("core.config.at_least", minimum=1)))
    small = deal.get("small_table", {})
    if not _is_int(small.get("players")) or small.get("players", -1) < 0:
        problems.append(("deal.small_table.players", msg("core.config.at_least", minimum=0)))
    if not _is_int(small.get("cards")) or small.get("cards", 0) < 1:
        problems.append(("deal.small_table.cards", msg("core.config.at_least", minimum=1)))
    deck = section.get("deck", {})
    for key in ("lair", "spy"):
        if not _is_int(deck.get(key)) or deck.get(key, 0) < 1:
            problems.append((f"deck.{key}", msg("core.config.at_least", minimum=1)))
    _range(section, "lair_values", problems)
    _range(section, "spy_values", problems)
    letters = section.get("doubler_letters", [])
    texts = [str(letter).strip() for letter in letters]
    if not letters or any(not t for t in texts) or len(set(texts)) != len(texts):
        problems.append(("doubler_letters", msg("bond.config.letters")))
    target = section.get("target_score", 0)
    if not _is_int(target) or target < 1:
        problems.append(("target_score", msg("core.config.at_least", minimum=1)))
    if not problems:
        # every hand can be dealt from the whole deck, even at the largest table
        params = BondParams.from_config(section)
        total = params.lair_cards + params.spy_cards + params.doubler_cards
        # the most cards dealt: the largest table, or the largest small table
        most = params.deal_size(high) * high
        if low <= params.small_table_players:
            small = min(high, params.small_table_players)
            most = max(most, params.deal_size(small) * small)
        if most > total:
            problems.append(("deal", msg("bond.config.deal_too_big", needed=most, total=total)))
    return problems


# -- correcting the settings for the next games -----------------------------------------
def widened(section: Mapping[str, Any], card: str, value: int) -> tuple[str, Any] | None:
    """The change to `games.bond` (dotted key under it, new value) after which a `card`
    ("lair" or "spy") of this value is expected, or None when it already is."""
    key = f"{card}_values"
    node = section.get(key)
    if not isinstance(node, Mapping) or node["min"] <= value <= node["max"]:
        return None
    return key, {"min": min(node["min"], value), "max": max(node["max"], value)}
