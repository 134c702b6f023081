"""A score pad template: its records, read and checked from plain data (YAML's).

`parse(data) -> Template` raises `TemplateError` listing every problem as
`(dotted key, Message)`; `problems(data)` gives the list without raising. `to_data`
gives the plain data back (a game's setup keeps it whole, so a later edit of the file
never changes that game). The schema, every key with its default and what is
refused, is in docs/architecture.md ("Score pad templates").

Labels (`name`) are a text or a mapping of language -> text; they are kept as
`(language, text)` pairs and shown through `label(...)`, a Message the translator
resolves in the table's language (English, then the first given, when it lacks one).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.i18n import LANGUAGES
from companion.messages import Message, msg

Label = tuple[tuple[str, str], ...]

SHAPES = ("rounds", "categories")
WINS = ("highest", "lowest", "coop", "places")
TIES = ("shared", "chosen")
TEAM_SCORES = ("sum", "own")
BETTER = ("higher", "lower")
#: the named calculations (`derive: {calc: ...}`) and how many inputs each takes
CALCS = {"science_sets": 3}
#: what a derived category's input counts (`derive: {per: 3, unit: coins}`): the sheet
#: says "11 coins → 3", each unit's words in the catalogs (`pad.unit.<unit>`)
UNITS = ("coins", "cards", "tokens")
ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
LABEL_MAX = 40
MAX_CATEGORIES = 30
MAX_TIEBREAKS = 10
MAX_TABLE = 100
MAX_PLAYERS = 12
VALUE_LIMIT = 1_000_000


@dataclass(frozen=True)
class Derive:
    """How a category's points come from what the table enters (exactly one way)."""

    per: int | None = None  # points = floor(input / per)
    table: tuple[tuple[int, int], ...] = ()  # (input, points), inputs rising
    calc: str | None = None  # a name in CALCS, computed from other categories' inputs
    inputs: tuple[str, ...] = ()  # the calc's input categories
    unit: str | None = None  # a name in UNITS: what the input counts (per, table)


@dataclass(frozen=True)
class Category:
    """A scoring category (a column of a categories sheet)."""

    id: str
    name: Label
    low: int | None = None  # `range`: outside it a value is noted "check", never refused
    high: int | None = None
    derive: Derive | None = None
    points: bool = True  # False: an input only (a calculation's), not added to the total

    @property
    def entered(self) -> bool:
        """The table enters this category (a calculation's result is computed)."""
        return self.derive is None or self.derive.calc is None


@dataclass(frozen=True)
class TieBreak:
    """One tie-breaker: a category's entered value, or a raw input asked when tied."""

    category: str | None
    input: str | None
    name: Label
    better: str = "higher"


@dataclass(frozen=True)
class Template:
    id: str
    name: Label
    check: bool
    bgg_id: int | None
    players_min: int
    players_max: int
    shape: str
    win: str
    rounds_count: int | None  # a fixed number of rounds, or open-ended
    start: int  # every player's score before the first round
    reach: int | None  # the end is offered once a total reaches this
    whole: bool
    categories: tuple[Category, ...]
    tiebreak: tuple[TieBreak, ...]
    ties: str
    team_score: str  # how a team scores when the game is played in teams
    instant_win: bool
    eliminate: bool
    timer: str | None
    replaces: bool

    def category(self, ident: str) -> Category | None:
        for cat in self.categories:
            if cat.id == ident:
                return cat
        return None

    @property
    def scored(self) -> bool:
        """Whether points decide the game (a co-op's scores are optional, places have none)."""
        return self.win in ("highest", "lowest")


class TemplateError(ValueError):
    def __init__(self, problems: list[tuple[str, Message]]) -> None:
        self.problems = problems
        super().__init__("; ".join(f"{k}: {m.key}" for k, m in problems))


def label(name: Label) -> Message:
    """A template's label as a Message: the translator picks the table's language."""
    texts = dict(name)
    first = name[0][1] if name else ""
    fallback = texts.get("en") or texts.get("") or first
    return msg("pad.label", **{lang: texts.get(lang) or fallback for lang in LANGUAGES})


def label_in_sentence(name: Label) -> Message:
    """A label inside a sentence ("wins the tie on coins"): its first letter in lower
    case, unless it starts an acronym."""
    def lower(text: str) -> str:
        return text if text[1:2].isupper() else text[:1].lower() + text[1:]

    return label(tuple((lang, lower(text)) for lang, text in name))


def label_text(name: Label, language: str = "en") -> str:
    texts = dict(name)
    return texts.get(language) or texts.get("en") or texts.get("") or (
        name[0][1] if name else "")


# -- reading plain data ------------------------------------------------------------------
_TOP = {"id", "name", "check", "bgg_id", "players", "shape", "win", "rounds", "whole",
        "categories", "tiebreak", "ties", "teams", "instant_win", "eliminate", "timer",
        "replaces"}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Checker:
    def __init__(self) -> None:
        self.problems: list[tuple[str, Message]] = []

    def add(self, key: str, key_: str, /, **params: Any) -> None:
        self.problems.append((key, msg(key_, **params)))

    def keys(self, data: Mapping[str, Any], allowed: set[str], prefix: str) -> None:
        for key in data:
            if key not in allowed:
                self.add(f"{prefix}{key}", "pad.template.unknown_key",
                         keys=", ".join(sorted(allowed)))

    def mapping(self, value: Any, key: str) -> Mapping[str, Any]:
        if value is None:
            return {}
        if not isinstance(value, Mapping):
            self.add(key, "pad.template.not_mapping")
            return {}
        return value

    def boolean(self, data: Mapping[str, Any], key: str, default: bool, path: str) -> bool:
        value = data.get(key, default)
        if not isinstance(value, bool):
            self.add(path, "pad.template.not_bool")
            return default
        return value

    def integer(self, value: Any, path: str, low: int, high: int) -> int | None:
        if not _is_int(value) or not low <= value <= high:
            self.add(path, "pad.template.number_range", low=low, high=high)
            return None
        return int(value)

    def choice(self, data: Mapping[str, Any], key: str, choices: tuple[str, ...],
               default: str, path: str) -> str:
        value = data.get(key, default)
        if value not in choices:
            self.add(path, "pad.template.one_of", choices=", ".join(choices))
            return default
        return str(value)

    def ident(self, value: Any, path: str) -> str:
        if not isinstance(value, str) or not ID.match(value):
            self.add(path, "pad.template.bad_id")
            return ""
        return value

    def label(self, value: Any, path: str, fallback: str) -> Label:
        if value is None:
            return (("", fallback),)
        if isinstance(value, str):
            if not value.strip() or len(value) > LABEL_MAX:
                self.add(path, "pad.template.bad_label", n=LABEL_MAX)
                return (("", fallback),)
            return (("", value.strip()),)
        if isinstance(value, Mapping) and value:
            pairs = []
            for lang, text in value.items():
                if lang not in LANGUAGES:
                    self.add(f"{path}.{lang}", "pad.template.language",
                             languages=", ".join(LANGUAGES))
                elif not isinstance(text, str) or not text.strip() or len(text) > LABEL_MAX:
                    self.add(f"{path}.{lang}", "pad.template.bad_label", n=LABEL_MAX)
                else:
                    pairs.append((str(lang), text.strip()))
            return tuple(pairs) or (("", fallback),)
        self.add(path, "pad.template.bad_label", n=LABEL_MAX)
        return (("", fallback),)


def _derive(ck: _Checker, raw: Any, path: str) -> Derive | None:
    data = ck.mapping(raw, path)
    if not data:
        if raw is not None:
            ck.add(path, "pad.template.derive_one")
        return None
    ck.keys(data, {"per", "table", "calc", "inputs", "unit"}, f"{path}.")
    ways = [k for k in ("per", "table", "calc") if k in data]
    if len(ways) != 1:
        ck.add(path, "pad.template.derive_one")
        return None
    if "inputs" in data and ways[0] != "calc":
        ck.add(f"{path}.inputs", "pad.template.inputs_calc_only")
    unit = data.get("unit")
    if unit is not None and (ways[0] == "calc" or unit not in UNITS):
        ck.add(f"{path}.unit", "pad.template.unit", units=", ".join(UNITS))
        unit = None
    if ways[0] == "per":
        per = data["per"]
        if not _is_int(per) or per < 1 or per > VALUE_LIMIT:
            ck.add(f"{path}.per", "pad.template.per_zero")
            return None
        return Derive(per=int(per), unit=unit)
    if ways[0] == "table":
        table = data["table"]
        if not isinstance(table, Mapping) or not table or len(table) > MAX_TABLE:
            ck.add(f"{path}.table", "pad.template.table", n=MAX_TABLE)
            return None
        pairs = []
        for key, value in table.items():
            try:
                entry = int(str(key))
            except ValueError:
                entry = None
            if entry is None or abs(entry) > VALUE_LIMIT or not _is_int(value) \
                    or abs(value) > VALUE_LIMIT:
                ck.add(f"{path}.table.{key}", "pad.template.table_entry")
                return None
            pairs.append((entry, int(value)))
        return Derive(table=tuple(sorted(pairs)), unit=unit)
    calc = data["calc"]
    if calc not in CALCS:
        ck.add(f"{path}.calc", "pad.template.unknown_calc", calcs=", ".join(sorted(CALCS)))
        return None
    inputs = data.get("inputs")
    if not isinstance(inputs, list) or len(inputs) != CALCS[calc] or not all(
            isinstance(i, str) for i in inputs):
        ck.add(f"{path}.inputs", "pad.template.calc_inputs", calc=calc, n=CALCS[calc])
        return None
    return Derive(calc=str(calc), inputs=tuple(inputs))


def _categories(ck: _Checker, raw: Any) -> tuple[Category, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        ck.add("categories", "pad.template.not_list")
        return ()
    if len(raw) > MAX_CATEGORIES:
        ck.add("categories", "pad.template.too_many", n=MAX_CATEGORIES)
        return ()
    out: list[Category] = []
    seen: set[str] = set()
    for i, item in enumerate(raw):
        path = f"categories.{i}"
        data = ck.mapping(item, path)
        if not data:
            if item is not None and isinstance(item, Mapping):
                ck.add(f"{path}.id", "pad.template.required")
            continue
        ck.keys(data, {"id", "name", "range", "derive", "points"}, f"{path}.")
        ident = ck.ident(data.get("id"), f"{path}.id")
        if ident and ident in seen:
            ck.add(f"{path}.id", "pad.template.duplicate_id", id=ident)
        seen.add(ident)
        name = ck.label(data.get("name"), f"{path}.name", ident)
        low = high = None
        if "range" in data:
            rng = ck.mapping(data["range"], f"{path}.range")
            ck.keys(rng, {"min", "max"}, f"{path}.range.")
            if "min" in rng:
                low = ck.integer(rng["min"], f"{path}.range.min", -VALUE_LIMIT, VALUE_LIMIT)
            if "max" in rng:
                high = ck.integer(rng["max"], f"{path}.range.max", -VALUE_LIMIT, VALUE_LIMIT)
            if low is not None and high is not None and low > high:
                ck.add(f"{path}.range", "pad.template.range_order")
        derive = _derive(ck, data["derive"], f"{path}.derive") if "derive" in data else None
        points = ck.boolean(data, "points", True, f"{path}.points")
        out.append(Category(ident, name, low, high, derive, points))
    for i, cat in enumerate(out):
        if cat.derive is not None and cat.derive.calc is not None:
            for j, ident in enumerate(cat.derive.inputs):
                found = next((c for c in out if c.id == ident), None)
                if found is None or found is cat:
                    ck.add(f"categories.{i}.derive.inputs.{j}", "pad.template.unknown_category",
                           id=ident)
                elif not found.entered:
                    ck.add(f"categories.{i}.derive.inputs.{j}", "pad.template.input_computed",
                           id=ident)
    return tuple(out)


def _tiebreak(ck: _Checker, raw: Any, categories: tuple[Category, ...]) -> tuple[TieBreak, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        ck.add("tiebreak", "pad.template.not_list")
        return ()
    if len(raw) > MAX_TIEBREAKS:
        ck.add("tiebreak", "pad.template.too_many", n=MAX_TIEBREAKS)
        return ()
    out = []
    keys: set[str] = set()
    for i, item in enumerate(raw):
        path = f"tiebreak.{i}"
        data = ck.mapping(item, path)
        ck.keys(data, {"category", "input", "name", "better"}, f"{path}.")
        ways = [k for k in ("category", "input") if k in data]
        if len(ways) != 1:
            ck.add(path, "pad.template.tiebreak_one")
            continue
        better = ck.choice(data, "better", BETTER, "higher", f"{path}.better")
        if ways[0] == "category":
            ident = data["category"]
            cat = next((c for c in categories if c.id == ident), None)
            if cat is None:
                ck.add(f"{path}.category", "pad.template.unknown_category", id=str(ident))
                continue
            if not cat.entered:
                ck.add(f"{path}.category", "pad.template.input_computed", id=str(ident))
                continue
            out.append(TieBreak(cat.id, None, ck.label(data.get("name"), f"{path}.name", "")
                                if "name" in data else cat.name, better))
            continue
        ident = ck.ident(data["input"], f"{path}.input")
        if ident in keys:
            ck.add(f"{path}.input", "pad.template.duplicate_id", id=ident)
        keys.add(ident)
        out.append(TieBreak(None, ident, ck.label(data.get("name"), f"{path}.name", ident),
                            better))
    return tuple(out)


def problems(data: Any) -> list[tuple[str, Message]]:
    try:
        parse(data)
    except TemplateError as exc:
        return exc.problems
    return []


def parse(data: Any) -> Template:
    """The template `data` describes; TemplateError listing every problem."""
    ck = _Checker()
    if not isinstance(data, Mapping):
        raise TemplateError([("", msg("pad.template.not_mapping"))])
    ck.keys(data, _TOP, "")
    ident = ck.ident(data.get("id"), "id")
    name = ck.label(data.get("name"), "name", ident)
    check = ck.boolean(data, "check", False, "check")
    bgg_id = None
    if data.get("bgg_id") is not None:
        bgg_id = ck.integer(data["bgg_id"], "bgg_id", 1, 10**9)
    players = ck.mapping(data.get("players"), "players")
    ck.keys(players, {"min", "max"}, "players.")
    low = ck.integer(players.get("min", 1), "players.min", 1, MAX_PLAYERS) or 1
    high = ck.integer(players.get("max", MAX_PLAYERS), "players.max", 1, MAX_PLAYERS) \
        or MAX_PLAYERS
    if low > high:
        ck.add("players", "pad.template.range_order")
    if "shape" not in data:
        ck.add("shape", "pad.template.required")
    shape = ck.choice(data, "shape", SHAPES, "rounds", "shape")
    win = ck.choice(data, "win", WINS, "highest", "win")
    rounds = ck.mapping(data.get("rounds"), "rounds")
    ck.keys(rounds, {"count", "start", "end"}, "rounds.")
    if rounds and shape != "rounds":
        ck.add("rounds", "pad.template.rounds_only")
    count = None
    if rounds.get("count") is not None:
        count = rounds["count"]
        if not _is_int(count) or count < 1 or count > 1000:
            ck.add("rounds.count", "pad.template.count_zero")
            count = None
    start = ck.integer(rounds.get("start", 0), "rounds.start", -VALUE_LIMIT, VALUE_LIMIT) or 0
    end = ck.mapping(rounds.get("end"), "rounds.end")
    ck.keys(end, {"reach"}, "rounds.end.")
    reach = None
    if end.get("reach") is not None:
        reach = ck.integer(end["reach"], "rounds.end.reach", -VALUE_LIMIT, VALUE_LIMIT)
    whole = ck.boolean(data, "whole", True, "whole")
    categories = _categories(ck, data.get("categories"))
    if shape == "rounds" and categories:
        ck.add("categories", "pad.template.categories_only")
    if shape == "categories" and not any(c.points for c in categories) \
            and win in ("highest", "lowest") and "categories" not in dict(ck.problems):
        ck.add("categories", "pad.template.no_categories")
    tiebreak = _tiebreak(ck, data.get("tiebreak"), categories)
    ties = ck.choice(data, "ties", TIES, "shared", "ties")
    teams = ck.mapping(data.get("teams"), "teams")
    ck.keys(teams, {"score"}, "teams.")
    team_score = ck.choice(teams, "score", TEAM_SCORES, "sum", "teams.score")
    instant = ck.boolean(data, "instant_win", False, "instant_win")
    eliminate = ck.boolean(data, "eliminate", False, "eliminate")
    timer = data.get("timer")
    if timer is not None and not (isinstance(timer, str) and ID.match(timer)):
        ck.add("timer", "pad.template.bad_id")
        timer = None
    replaces = ck.boolean(data, "replaces", False, "replaces")
    if ck.problems:
        raise TemplateError(ck.problems)
    return Template(ident, name, check, bgg_id, low, high, shape, win, count, start, reach,
                    whole, categories, tiebreak, ties, team_score, instant, eliminate,
                    None if timer is None else str(timer), replaces)


def _label_data(name: Label) -> str | dict[str, str]:
    if len(name) == 1 and name[0][0] == "":
        return name[0][1]
    return {lang: text for lang, text in name}


def to_data(t: Template) -> dict[str, Any]:
    """The template as plain data (what `parse` reads back to the same template)."""
    data: dict[str, Any] = {"id": t.id, "name": _label_data(t.name), "check": t.check}
    if t.bgg_id is not None:
        data["bgg_id"] = t.bgg_id
    data["players"] = {"min": t.players_min, "max": t.players_max}
    data["shape"] = t.shape
    data["win"] = t.win
    if t.shape == "rounds":
        rounds: dict[str, Any] = {"count": t.rounds_count, "start": t.start}
        if t.reach is not None:
            rounds["end"] = {"reach": t.reach}
        data["rounds"] = rounds
    data["whole"] = t.whole
    if t.categories:
        cats = []
        for c in t.categories:
            item: dict[str, Any] = {"id": c.id, "name": _label_data(c.name)}
            if c.low is not None or c.high is not None:
                item["range"] = {k: v for k, v in (("min", c.low), ("max", c.high))
                                 if v is not None}
            if c.derive is not None:
                d = c.derive
                item["derive"] = ({"per": d.per} if d.per is not None else
                                  {"table": {k: v for k, v in d.table}} if d.table else
                                  {"calc": d.calc, "inputs": list(d.inputs)})
                if d.unit is not None:
                    item["derive"]["unit"] = d.unit
            if not c.points:
                item["points"] = False
            cats.append(item)
        data["categories"] = cats
    if t.tiebreak:
        data["tiebreak"] = [
            {**({"category": b.category} if b.category else {"input": b.input}),
             "name": _label_data(b.name), "better": b.better} for b in t.tiebreak]
    data["ties"] = t.ties
    data["teams"] = {"score": t.team_score}
    data["instant_win"] = t.instant_win
    data["eliminate"] = t.eliminate
    if t.timer is not None:
        data["timer"] = t.timer
    if t.replaces:
        data["replaces"] = True
    return data
