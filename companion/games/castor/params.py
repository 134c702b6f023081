"""Castor's rule parameters, read from the `games.castor` config section.

A game keeps the parameters it started with (they are part of its setup in the
journal), so changing the config never changes a game already played.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.messages import Message, msg

#: what the app does with an agent's power card
EFFECTS = ("choose_leader", "extra_plan", "none")

#: The seed gives card counts, not the numbers printed on them: the configured values
#: are guesses, and a card outside them is accepted with a "check your cards" note.
#: Only a number no printed card can carry is refused: cards print at most two digits
#: (or the configured maximum, if a table set a higher one), and the config allows 0.
CARD_MIN = 0
CARD_MAX = 99


@dataclass(frozen=True)
class ColourSpec:
    """One colour of action cards: how many are in the deck and their values."""

    name: str
    count: int  # cards of this colour in the deck
    low: int  # lowest value printed
    high: int  # highest value printed

    @property
    def copies(self) -> int:
        """How many cards are thought to carry each value (a guess: the seed gives only
        the count); rounded up when the count does not divide evenly."""
        return -(-self.count // (self.high - self.low + 1))

    def covers(self, value: int) -> bool:
        return self.low <= value <= self.high

    @property
    def plausible_high(self) -> int:
        """The highest value a card of this colour is accepted with."""
        return max(CARD_MAX, self.high)


@dataclass(frozen=True)
class AgentSpec:
    """An agent, and what the app does when their power card is drawn."""

    id: str
    name: str
    effect: str  # one of EFFECTS
    text: str  # translation key of the power's text


@dataclass(frozen=True)
class TableSize:
    """The round bonus and malus, in points, for these numbers of players."""

    players: tuple[int, ...]
    bonus: int
    malus: int


@dataclass(frozen=True)
class CastorParams:
    """The rules a Castor game was set up with: deck, trumps, plan cards, scoring, agents."""

    players_min: int
    players_max: int
    tricks_per_round: int
    medals_to_win: int
    colours: tuple[ColourSpec, ...]
    trumps: tuple[str, ...]
    plan_cards: tuple[int, ...]
    bonus_colour: str
    malus_colour: str
    table_sizes: tuple[TableSize, ...]
    malus_when_none: bool
    agents: tuple[AgentSpec, ...]

    @classmethod
    def from_config(cls, section: Mapping[str, Any]) -> CastorParams:
        return cls(
            players_min=int(section["players"]["min"]),
            players_max=int(section["players"]["max"]),
            tricks_per_round=int(section["tricks_per_round"]),
            medals_to_win=int(section["medals_to_win"]),
            colours=tuple(
                ColourSpec(str(spec["name"]), int(spec["count"]), int(spec["min"]),
                           int(spec["max"]))
                for spec in section["colours"]
            ),
            trumps=tuple(str(t) for t in section["trumps"]),
            plan_cards=tuple(int(v) for v in section["plan_cards"]),
            bonus_colour=str(section["bonus_colour"]),
            malus_colour=str(section["malus_colour"]),
            table_sizes=tuple(
                TableSize(tuple(int(n) for n in item["players"]), int(item["bonus"]),
                          int(item["malus"]))
                for item in section["bonus_malus"]
            ),
            malus_when_none=bool(section["malus_when_none"]),
            agents=tuple(
                AgentSpec(str(a["id"]), str(a["name"]), str(a["effect"]), str(a["text"]))
                for a in section["agents"]
            ),
        )

    def to_config(self) -> dict[str, Any]:
        return {
            "players": {"min": self.players_min, "max": self.players_max},
            "tricks_per_round": self.tricks_per_round,
            "medals_to_win": self.medals_to_win,
            "colours": [{"name": c.name, "count": c.count, "min": c.low, "max": c.high}
                        for c in self.colours],
            "trumps": list(self.trumps),
            "plan_cards": list(self.plan_cards),
            "bonus_colour": self.bonus_colour,
            "malus_colour": self.malus_colour,
            "bonus_malus": [{"players": list(t.players), "bonus": t.bonus, "malus": t.malus}
                            for t in self.table_sizes],
            "malus_when_none": self.malus_when_none,
            "agents": [{"id": a.id, "name": a.name, "effect": a.effect, "text": a.text}
                       for a in self.agents],
        }

    # -- look-ups ------------------------------------------------------------------
    @property
    def colour_names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.colours)

    def colour(self, name: str) -> ColourSpec | None:
        return next((c for c in self.colours if c.name == name), None)

    def agent(self, agent_id: str) -> AgentSpec | None:
        return next((a for a in self.agents if a.id == agent_id), None)

    def table_size(self, players: int) -> TableSize:
        for size in self.table_sizes:
            if players in size.players:
                return size
        raise KeyError(players)  # validate_config guarantees every allowed count

    @property
    def plan_counts(self) -> Counter[int]:
        """How many plan cards carry each value."""
        return Counter(self.plan_cards)

    @property
    def plan_plausible_high(self) -> int:
        """The highest value a plan card is accepted with."""
        return max(CARD_MAX, *self.plan_cards)

    @property
    def plan_total(self) -> int:
        """The most plan points a round can hand out: every plan card once."""
        return sum(self.plan_cards)

    def cards_per_round(self, players: int) -> int:
        return players * self.tricks_per_round


# -- checking the meaning of the section -----------------------------------------------
def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_colours(section: Mapping[str, Any], problems: list[tuple[str, Message]]) -> int:
    """Checks each colour; returns the number of cards in the deck."""
    colours = section.get("colours", [])
    if not colours:
        problems.append(("colours", msg("castor.config.no_colours")))
    total = 0
    names: list[str] = []
    for i, spec in enumerate(colours):
        where = f"colours.{i}"
        if not isinstance(spec, Mapping) or set(spec) != {"name", "count", "min", "max"}:
            problems.append((where, msg("castor.config.colour_item")))
            continue
        if not isinstance(spec["name"], str) or not spec["name"].strip():
            problems.append((f"{where}.name", msg("castor.config.empty_text")))
        names.append(str(spec["name"]))
        count, low, high = spec["count"], spec["min"], spec["max"]
        if not all(_is_int(v) for v in (count, low, high)):
            problems.append((where, msg("castor.config.colour_item")))
            continue
        if count < 1:
            problems.append((f"{where}.count", msg("core.config.at_least", minimum=1)))
            continue
        if low < 0:
            problems.append((f"{where}.min", msg("core.config.at_least", minimum=0)))
        if high < low:
            problems.append((f"{where}.max", msg("castor.config.max_below_min")))
        total += count
    if len(set(names)) != len(names):
        problems.append(("colours", msg("castor.config.duplicates")))
    for key in ("bonus_colour", "malus_colour"):
        if section.get(key) not in names:
            problems.append((key, msg("castor.config.unknown_colour", colour=section.get(key))))
    trumps = section.get("trumps", [])
    for i, trump in enumerate(trumps):
        if trump not in names:
            problems.append((f"trumps.{i}", msg("castor.config.unknown_colour", colour=trump)))
    if len(set(trumps)) != len(trumps):
        problems.append(("trumps", msg("castor.config.duplicates")))
    return total


def _check_table_sizes(section: Mapping[str, Any], low: int, high: int,
                       problems: list[tuple[str, Message]]) -> None:
    seen: Counter[int] = Counter()
    for i, item in enumerate(section.get("bonus_malus", [])):
        where = f"bonus_malus.{i}"
        if not isinstance(item, Mapping) or set(item) != {"players", "bonus", "malus"}:
            problems.append((where, msg("castor.config.bonus_malus_item")))
            continue
        counts = item["players"]
        if not isinstance(counts, list) or not counts or not all(_is_int(n) for n in counts):
            problems.append((f"{where}.players", msg("castor.config.player_counts")))
            continue
        seen.update(counts)
        for key in ("bonus", "malus"):
            if not _is_int(item[key]) or item[key] < 0:
                problems.append((f"{where}.{key}", msg("core.config.at_least", minimum=0)))
    if any(seen[n] != 1 for n in range(low, high + 1)) or any(
            not low <= n <= high for n in seen):
        problems.append(("bonus_malus", msg("castor.config.bonus_malus_cover", low=low,
                                            high=high)))


def _check_agents(section: Mapping[str, Any], players_max: int,
                  problems: list[tuple[str, Message]]) -> None:
    agents = section.get("agents", [])
    ids: list[str] = []
    names: list[str] = []
    for i, agent in enumerate(agents):
        where = f"agents.{i}"
        if not isinstance(agent, Mapping) or set(agent) != {"id", "name", "effect", "text"}:
            problems.append((where, msg("castor.config.agent_item")))
            continue
        for key in ("id", "name", "text"):
            if not isinstance(agent[key], str) or not agent[key].strip():
                problems.append((f"{where}.{key}", msg("castor.config.empty_text")))
        if agent["effect"] not in EFFECTS:
            problems.append((f"{where}.effect",
                             msg("castor.config.effect", choices=", ".join(EFFECTS))))
        ids.append(str(agent["id"]))
        names.append(str(agent["name"]).casefold())
    if len(set(ids)) != len(ids) or len(set(names)) != len(names):
        problems.append(("agents", msg("castor.config.duplicates")))
    if agents and len(agents) < players_max:
        problems.append(("agents", msg("castor.config.agents_count", players=players_max)))


def validate_config(section: Mapping[str, Any]) -> list[tuple[str, Message]]:
    """Problems in the meaning of `games.castor` (types were checked already)."""
    problems: list[tuple[str, Message]] = []
    players = section.get("players", {})
    low, high = players.get("min", 0), players.get("max", 0)
    if not 2 <= low <= high:
        problems.append(("players", msg("castor.config.players")))
    tricks = section.get("tricks_per_round", 0)
    if tricks < 1:
        problems.append(("tricks_per_round", msg("core.config.at_least", minimum=1)))
    if section.get("medals_to_win", 0) < 1:
        problems.append(("medals_to_win", msg("core.config.at_least", minimum=1)))
    deck = _check_colours(section, problems)
    if tricks >= 1 and high * tricks > deck:
        problems.append(("tricks_per_round",
                         msg("castor.config.deck_too_small", cards=deck, players=high,
                             tricks=tricks)))
    plan = section.get("plan_cards", [])
    if not plan:
        problems.append(("plan_cards", msg("castor.config.no_plan_cards")))
    elif tricks >= 1 and len(plan) < tricks:
        problems.append(("plan_cards", msg("castor.config.plan_too_few", tricks=tricks)))
    for i, value in enumerate(plan):
        if value < 0:
            problems.append((f"plan_cards.{i}", msg("core.config.at_least", minimum=0)))
    _check_table_sizes(section, low, high, problems)
    _check_agents(section, high, problems)
    return problems


# -- correcting the settings for the next games -----------------------------------------
def widened(section: Mapping[str, Any], reason: str, value: int,
            colour: str | None = None) -> tuple[str, Any] | None:
    """The change to `games.castor` (dotted key under it, new value) after which a card
    noted with `reason` would be expected, or None when the settings already expect it
    or no single change can say it (how many cards print each value)."""
    if reason == "value":
        colours = [dict(spec) for spec in section.get("colours", [])]
        spec = next((s for s in colours if s.get("name") == colour), None)
        if spec is None or spec["min"] <= value <= spec["max"]:
            return None
        spec["min"], spec["max"] = min(spec["min"], value), max(spec["max"], value)
        return "colours", colours
    if reason == "plan_value":
        plan = list(section.get("plan_cards", []))
        if value in plan:
            return None
        return "plan_cards", sorted([*plan, value])
    return None
