"""A clock preset as a frozen record, read from a preset file's data.

A clock session keeps the parameters it started with (in its setup, as plain numbers:
`to_setup`), so a preset edited later never changes a clock already journaled.

A preset file (`config/clock/<id>.yaml`, or the table's own) holds:

    name: {en: "Chess 5 min + 3 s", fr: "Échecs 5 min + 3 s"}   # or one text
    mode: bank            # sand, turn, bank, phase, countup
    time: 5m              # sand/phase: the countdown; turn: each turn; bank: the bank
    increment: 3s         # bank: Fischer increment, credited when a turn ends
    increment_first: after  # or before: one increment ahead, from Start (DGT, FIDE)
    delay: 5s             # bank: a delay per turn...
    delay_kind: bronstein # ...simple (the bank waits) or bronstein (credited back)
    allowance: 30s        # bank: a per-turn allowance spent before the bank
    stages:               # bank, instead of time: the time control in stages
      - {moves: 40, time: 90m}          # the first stage's time is the starting bank
      - {moves: 0, time: 30m, increment: 30s}   # 0 moves: the rest of the game (last)
    carry: true           # turn: leftover time (and debt) carried to the next turn
    at_zero: overtime     # overtime, next, penalty, out
    penalty: {points: 1, every: 1m}   # at_zero penalty: points per started interval
                          # of overtime (bank: the player's whole; turn: the turn's)
    warn: 1m              # the level turns "warn", then "danger", at these times left
    danger: 10s
    checkpoint: 10s       # a running clock is journaled at least this often
    round_start: rotate   # after everyone passed: rotate, same, first_passed

Durations are written as `companion.games.clock.durations` reads them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.config import type_name
from companion.games.clock.durations import DurationError, parse_duration
from companion.messages import Message, msg

MODES = ("sand", "turn", "bank", "phase", "countup")
AT_ZERO = ("overtime", "next", "penalty", "out")
DELAY_KINDS = ("simple", "bronstein")
INCREMENT_FIRST = ("after", "before")
ROUND_START = ("rotate", "same", "first_passed")
#: seats each mode takes (a sand timer or a phase may run with nobody named)
SEATS = {"sand": (0, 8), "phase": (0, 8), "turn": (1, 8), "countup": (1, 8),
         "bank": (2, 8)}
MAX_SEATS = 8
MAX_MOVES = 1000
MAX_POINTS = 100
MAX_STAGES = 10
DEFAULT_CHECKPOINT_MS = 10_000
CHECKPOINT_RANGE_MS = (1_000, 600_000)
KEYS = ("name", "mode", "time", "increment", "increment_first", "delay", "delay_kind",
        "allowance", "stages", "carry", "at_zero", "penalty", "warn", "danger",
        "checkpoint", "round_start")
#: keys that mean something only in some modes (the others are refused there)
ONLY_IN = {"increment": ("bank",), "increment_first": ("bank",), "delay": ("bank",),
           "delay_kind": ("bank",), "allowance": ("bank",), "stages": ("bank",),
           "carry": ("turn",), "round_start": ("turn", "bank", "countup"),
           "penalty": ("turn", "bank"), "at_zero": ("turn", "bank")}


@dataclass(frozen=True)
class Stage:
    """One stage of a bank's time control: `time_ms` is added to the bank when it
    begins (the first stage's is the starting bank), `increment_ms` is credited for
    each turn in it (at the turn's end; `increment_first: before`: ahead, at the end of
    the turn before, or at Start), and it lasts `moves` turns (0: the rest of the game; a last
    stage of n moves repeats every n moves)."""

    moves: int
    time_ms: int
    increment_ms: int = 0


@dataclass(frozen=True)
class ClockParams:
    """What a clock session was set up with (times in milliseconds)."""

    mode: str
    time_ms: int = 0  # sand/phase: the countdown; turn: each turn; bank: stage 1's time
    stages: tuple[Stage, ...] = ()  # bank only: never empty there
    increment_first: str = "after"
    delay_ms: int = 0
    delay_kind: str = "simple"
    allowance_ms: int = 0
    carry: bool = False
    at_zero: str = "overtime"
    penalty_points: int = 1
    penalty_every_ms: int = 60_000
    warn_ms: int = 0
    danger_ms: int = 0
    checkpoint_ms: int = DEFAULT_CHECKPOINT_MS
    round_start: str = "rotate"

    @property
    def seats(self) -> tuple[int, int]:
        return SEATS[self.mode]

    @property
    def free_ms(self) -> int:
        """Time each turn spends before the bank: the allowance and a simple delay."""
        return self.allowance_ms + (self.delay_ms if self.delay_kind == "simple" else 0)

    @property
    def bronstein_ms(self) -> int:
        return self.delay_ms if self.delay_kind == "bronstein" else 0

    def to_setup(self) -> dict[str, Any]:
        return {"mode": self.mode, "time_ms": self.time_ms,
                "stages": [[s.moves, s.time_ms, s.increment_ms] for s in self.stages],
                "increment_first": self.increment_first, "delay_ms": self.delay_ms,
                "delay_kind": self.delay_kind, "allowance_ms": self.allowance_ms,
                "carry": self.carry, "at_zero": self.at_zero,
                "penalty_points": self.penalty_points,
                "penalty_every_ms": self.penalty_every_ms, "warn_ms": self.warn_ms,
                "danger_ms": self.danger_ms, "checkpoint_ms": self.checkpoint_ms,
                "round_start": self.round_start}

    @classmethod
    def from_setup(cls, data: Mapping[str, Any]) -> ClockParams:
        """The parameters a setup holds; ValueError when they do not make a clock."""
        if not isinstance(data, Mapping) or set(data) - set(cls.__dataclass_fields__):
            raise ValueError("params")
        fields = dict(data)
        fields["stages"] = tuple(Stage(*(_int(v) for v in s)) for s in data.get("stages", ()))
        for key, value in fields.items():
            default = cls.__dataclass_fields__[key].default
            if key == "stages":
                continue
            if isinstance(default, bool) or key == "carry":
                if not isinstance(value, bool):
                    raise ValueError(key)
            elif key.endswith("_ms") or key == "penalty_points":
                fields[key] = _int(value)
            elif not isinstance(value, str):
                raise ValueError(key)
        params = cls(**fields)
        problems = check(params)
        if problems:
            raise ValueError(problems[0][0])
        return params


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(str(value)[:20])
    return value


def check(p: ClockParams) -> list[tuple[str, Message]]:
    """What makes these parameters no clock (ranges a preset file cannot write wrong,
    but a setup handed to the rules might)."""
    problems: list[tuple[str, Message]] = []
    day = 24 * 3600 * 1000
    if p.mode not in MODES:
        problems.append(("mode", msg("clock.config.choice", choices=", ".join(MODES))))
        return problems
    for key, value, choices in (("at_zero", p.at_zero, AT_ZERO),
                                ("delay_kind", p.delay_kind, DELAY_KINDS),
                                ("increment_first", p.increment_first, INCREMENT_FIRST),
                                ("round_start", p.round_start, ROUND_START)):
        if value not in choices:
            problems.append((key, msg("clock.config.choice", choices=", ".join(choices))))
    if p.mode != "countup" and not 0 < p.time_ms <= day:
        problems.append(("time", msg("clock.config.time_needed")))
    for key, value in (("delay", p.delay_ms), ("allowance", p.allowance_ms),
                       ("warn", p.warn_ms), ("danger", p.danger_ms)):
        if not 0 <= value <= day:
            problems.append((key, msg("clock.config.duration_long", found=str(value))))
    if p.mode == "bank":
        if not 1 <= len(p.stages) <= MAX_STAGES or p.stages[0].time_ms != p.time_ms:
            problems.append(("stages", msg("clock.config.stages_count", n=MAX_STAGES)))
        for i, stage in enumerate(p.stages):
            if not 0 <= stage.moves <= MAX_MOVES:
                problems.append((f"stages.{i}.moves", msg("clock.config.moves",
                                                          high=MAX_MOVES)))
            elif stage.moves == 0 and i != len(p.stages) - 1:
                problems.append((f"stages.{i}.moves", msg("clock.config.stage_zero")))
            if not 0 < stage.time_ms <= day:
                problems.append((f"stages.{i}.time", msg("clock.config.time_needed")))
            if not 0 <= stage.increment_ms <= day:
                problems.append((f"stages.{i}.increment",
                                 msg("clock.config.duration_negative", found="")))
    elif p.stages:
        problems.append(("stages", msg("clock.config.not_in_mode", mode=p.mode)))
    if not 1 <= p.penalty_points <= MAX_POINTS:
        problems.append(("penalty.points", msg("core.config.number_range", low=1,
                                               high=MAX_POINTS)))
    if not 1000 <= p.penalty_every_ms <= day:
        problems.append(("penalty.every", msg("clock.config.duration_zero", found="")))
    if p.danger_ms and p.warn_ms and p.danger_ms >= p.warn_ms:
        problems.append(("danger", msg("clock.config.danger_order")))
    low, high = CHECKPOINT_RANGE_MS
    if not low <= p.checkpoint_ms <= high:
        problems.append(("checkpoint", msg("clock.config.checkpoint", low=low // 1000,
                                           high=high // 1000)))
    return problems


# -- a preset file's data ---------------------------------------------------------------
@dataclass(frozen=True)
class Read:
    """What a preset file's data says: the parameters (None when refused), its name,
    the problems and the warnings, each with its dotted key."""

    params: ClockParams | None
    names: dict[str, str]
    problems: list[tuple[str, Message]]
    warnings: list[tuple[str, Message]]


def read_preset(data: Any) -> Read:
    """The parameters a preset file's data describes, or every problem in it."""
    problems: list[tuple[str, Message]] = []
    warnings: list[tuple[str, Message]] = []
    if not isinstance(data, Mapping):
        return Read(None, {}, [("", msg("core.config.not_mapping"))], [])

    def wrong(key: str, expected: str, value: Any) -> None:
        problems.append((key, msg("core.config.wrong_type", expected=expected,
                                  found=type_name(value))))

    def duration(key: str, value: Any) -> int:
        try:
            return parse_duration(value)
        except DurationError as exc:
            problems.append((key, exc.message))
            return 0

    def choice(key: str, choices: tuple[str, ...], default: str) -> str:
        value = data.get(key, default)
        if value not in choices:
            problems.append((key, msg("clock.config.choice", choices=", ".join(choices))))
            return default
        return str(value)

    for key in data:
        if key not in KEYS:
            import difflib  # only to suggest a key for a typo

            close = difflib.get_close_matches(str(key), KEYS, n=1)
            hint = msg("core.config.did_you_mean", key=close[0]) if close else ""
            problems.append((str(key), msg("core.config.unknown_key", hint=hint)))
    names = _names(data.get("name"), problems)
    mode = data.get("mode")
    if mode not in MODES:
        problems.append(("mode", msg("clock.config.choice", choices=", ".join(MODES))))
        return Read(None, names, problems, warnings)
    for key, modes in ONLY_IN.items():
        if key in data and mode not in modes:
            problems.append((key, msg("clock.config.not_in_mode", mode=mode)))
    fields: dict[str, Any] = {"mode": mode}
    if mode == "countup":
        if "time" in data:
            problems.append(("time", msg("clock.config.not_in_mode", mode=mode)))
    elif mode == "bank" and "stages" in data:
        if "time" in data:
            problems.append(("time", msg("clock.config.time_and_stages")))
    elif "time" not in data:
        problems.append(("time", msg("clock.config.time_needed")))
    else:
        fields["time_ms"] = duration("time", data["time"])
    increment = duration("increment", data["increment"]) if "increment" in data else 0
    if mode == "bank":
        fields["stages"] = _stages(data, fields.get("time_ms", 0), increment, problems,
                                   duration)
        fields["time_ms"] = fields["stages"][0].time_ms if fields["stages"] else 0
        fields["increment_first"] = choice("increment_first", INCREMENT_FIRST, "after")
        if "delay" in data:
            fields["delay_ms"] = duration("delay", data["delay"])
        elif "delay_kind" in data:
            problems.append(("delay_kind", msg("clock.config.delay_needed")))
        fields["delay_kind"] = choice("delay_kind", DELAY_KINDS, "simple")
        if "allowance" in data:
            fields["allowance_ms"] = duration("allowance", data["allowance"])
    if mode == "turn" and "carry" in data:
        if isinstance(data["carry"], bool):
            fields["carry"] = data["carry"]
        else:
            wrong("carry", "boolean", data["carry"])
    if mode in ("turn", "bank"):
        fields["at_zero"] = choice("at_zero", AT_ZERO, "overtime")
        _penalty(data, fields, problems, duration, wrong)
    if mode in ("turn", "bank", "countup"):
        fields["round_start"] = choice("round_start", ROUND_START, "rotate")
    for key in ("warn", "danger"):
        if key in data:
            fields[f"{key}_ms"] = duration(key, data[key])
    if "checkpoint" in data:
        fields["checkpoint_ms"] = duration("checkpoint", data["checkpoint"])
    if problems:
        return Read(None, names, problems, warnings)
    params = ClockParams(**fields)
    problems.extend(check(params))
    if problems:
        return Read(None, names, problems, warnings)
    if mode == "bank" and params.delay_ms + params.allowance_ms >= params.time_ms:
        warnings.append(("delay" if params.delay_ms else "allowance",
                         msg("clock.config.delay_long")))
    return Read(params, names, [], warnings)


NAME_MAX = 40  # characters of a preset's name, as a score pad's label (a button's line)


def _names(value: Any, problems: list[tuple[str, Message]]) -> dict[str, str]:
    """The preset's name: one text for every language, or one per language."""
    if value is None:
        return {}

    def fits(text: Any) -> bool:
        return isinstance(text, str) and 0 < len(text.strip()) <= NAME_MAX

    if fits(value):
        return {"": value.strip()}
    if isinstance(value, Mapping) and value and all(
            isinstance(k, str) and fits(v) for k, v in value.items()):
        return {str(k): str(v).strip() for k, v in value.items()}
    problems.append(("name", msg("clock.config.name", n=NAME_MAX)))
    return {}


def _stages(data: Mapping[str, Any], time_ms: int, increment: int,
            problems: list[tuple[str, Message]], duration: Any) -> tuple[Stage, ...]:
    raw = data.get("stages")
    if raw is None:
        return (Stage(0, time_ms, increment),)
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_STAGES:
        problems.append(("stages", msg("clock.config.stages_count", n=MAX_STAGES)))
        return ()
    stages = []
    for i, item in enumerate(raw):
        if not isinstance(item, Mapping):
            problems.append((f"stages.{i}", msg("clock.config.stage_form")))
            continue
        for key in item:
            if key not in ("moves", "time", "increment"):
                problems.append((f"stages.{i}.{key}", msg("core.config.unknown_key",
                                                          hint="")))
        moves = item.get("moves")
        if isinstance(moves, bool) or not isinstance(moves, int) or not (
                0 <= moves <= MAX_MOVES):
            problems.append((f"stages.{i}.moves", msg("clock.config.moves", high=MAX_MOVES)))
            moves = 1
        elif moves == 0 and i != len(raw) - 1:
            problems.append((f"stages.{i}.moves", msg("clock.config.stage_zero")))
        if "time" not in item:
            problems.append((f"stages.{i}.time", msg("clock.config.time_needed")))
        time = duration(f"stages.{i}.time", item["time"]) if "time" in item else 0
        inc = duration(f"stages.{i}.increment", item["increment"]) \
            if "increment" in item else increment
        stages.append(Stage(moves, time, inc))
    return tuple(stages)


def _penalty(data: Mapping[str, Any], fields: dict[str, Any],
             problems: list[tuple[str, Message]], duration: Any, wrong: Any) -> None:
    raw = data.get("penalty")
    if raw is None:
        return
    if fields.get("at_zero") != "penalty":
        problems.append(("penalty", msg("clock.config.penalty_unused")))
        return
    if not isinstance(raw, Mapping):
        wrong("penalty", "mapping", raw)
        return
    for key in raw:
        if key not in ("points", "every"):
            problems.append((f"penalty.{key}", msg("core.config.unknown_key", hint="")))
    points = raw.get("points", 1)
    if isinstance(points, bool) or not isinstance(points, int) or not (
            1 <= points <= MAX_POINTS):
        problems.append(("penalty.points", msg("core.config.number_range", low=1,
                                               high=MAX_POINTS)))
    else:
        fields["penalty_points"] = points
    if "every" in raw:
        fields["penalty_every_ms"] = duration("penalty.every", raw["every"])


# -- the games.clock config section ------------------------------------------------------
def validate_config(section: Mapping[str, Any]) -> list[tuple[str, Message]]:
    """The clock has no `games.clock` section (its presets are files, checked by
    `presets.load_presets`): nothing to check here."""
    return []
