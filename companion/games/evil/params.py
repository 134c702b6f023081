"""Pr. Evil's rule parameters, read from the `games.evil` config section.

A game keeps the parameters it started with (they are part of its setup in the
journal), so changing the config never changes a game already played.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.games.evil.dice import DICE, parse_face
from companion.messages import Message, msg


@dataclass(frozen=True)
class EvilParams:
    """The rules a Pr. Evil game was set up with: dial, colours, goals, dice, difficulties."""

    dial_steps: int
    step_minutes: int
    power_spaces: tuple[int, ...]  # dial positions, 0 = XII
    colours: tuple[str, ...]
    recovered_to_win: int
    lost_to_lose: int
    min_minutes: int
    max_minutes: int
    players_min: int
    players_max: int
    characters: tuple[str, ...]
    dice: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]  # professor, colour, clock
    #: difficulty name -> minutes of the treasure tiles left out of the game
    difficulties: tuple[tuple[str, tuple[int, ...]], ...] = ()
    default_difficulty: str = ""

    @classmethod
    def from_config(cls, section: Mapping[str, Any]) -> EvilParams:
        dice = section["dice"]
        steps = int(section["dial_steps"])
        return cls(
            dial_steps=steps,
            step_minutes=int(section["step_minutes"]),
            power_spaces=tuple(int(p) % steps for p in section["power_spaces"]),
            colours=tuple(section["colours"]),
            recovered_to_win=int(section["recovered_to_win"]),
            lost_to_lose=int(section["lost_to_lose"]),
            min_minutes=int(section["treasure_minutes"]["min"]),
            max_minutes=int(section["treasure_minutes"]["max"]),
            players_min=int(section["players"]["min"]),
            players_max=int(section["players"]["max"]),
            characters=tuple(section["characters"]),
            dice=(tuple(dice["professor"]), tuple(dice["colour"]), tuple(dice["clock"])),
            # games saved before difficulties existed have none; sorted because the
            # journal stores the setup with sorted keys and replay must compare equal
            difficulties=tuple(sorted(
                (str(name), tuple(int(m) for m in left_out))
                for name, left_out in section.get("difficulties", {}).items())),
            default_difficulty=str(section.get("default_difficulty", "")),
        )

    def to_config(self) -> dict[str, Any]:
        return {
            "dial_steps": self.dial_steps,
            "step_minutes": self.step_minutes,
            "power_spaces": list(self.power_spaces),
            "colours": list(self.colours),
            "recovered_to_win": self.recovered_to_win,
            "lost_to_lose": self.lost_to_lose,
            "treasure_minutes": {"min": self.min_minutes, "max": self.max_minutes},
            "players": {"min": self.players_min, "max": self.players_max},
            "characters": list(self.characters),
            "dice": dict(zip(DICE, (list(d) for d in self.dice), strict=True)),
            "difficulties": {name: list(left_out) for name, left_out in self.difficulties},
            "default_difficulty": self.default_difficulty,
        }

    def left_out(self, difficulty: str) -> tuple[int, ...]:
        """The minutes of the tiles not in play at this difficulty."""
        return dict(self.difficulties).get(difficulty, ())

    def die_faces(self, die: str) -> tuple[str, ...]:
        return self.dice[DICE.index(die)]

    def minutes_ok(self, minutes: int) -> bool:
        return (
            self.min_minutes <= minutes <= self.max_minutes and minutes % self.step_minutes == 0
        )


def known_colours() -> tuple[str, ...]:
    """The treasure colours the app has names for (in the English catalog, the fallback),
    in the catalog's order (by key)."""
    from companion.i18n import load_domain

    prefix = "evil.colour."
    return tuple(key[len(prefix):] for key in load_domain("en", "evil") if key.startswith(prefix))


MAX_DIAL_STEPS = 60  # a clock face in minutes


def validate_config(section: Mapping[str, Any]) -> list[tuple[str, Message]]:
    """Problems in the meaning of `games.evil` (types were checked already)."""
    problems: list[tuple[str, Message]] = []
    steps = section.get("dial_steps", 0)
    step_minutes = section.get("step_minutes", 0)
    # the dial draws every step and the keypad offers every minute value: both bounded
    if not 4 <= steps <= MAX_DIAL_STEPS:
        problems.append(("dial_steps", msg("core.config.number_range", low=4,
                                           high=MAX_DIAL_STEPS)))
    if not 1 <= step_minutes <= 60:
        problems.append(("step_minutes", msg("core.config.number_range", low=1, high=60)))
    for i, space in enumerate(section.get("power_spaces", [])):
        if not 0 <= space <= max(steps, 1):
            problems.append((f"power_spaces.{i}", msg("evil.config.power_space", steps=steps)))
    colours = section.get("colours", [])
    if len(colours) < 1 or len(set(colours)) != len(colours):
        problems.append(("colours", msg("evil.config.colours")))
    named = known_colours()
    for i, colour in enumerate(colours):
        if colour not in named:
            # the screens, the instructions and the LEDs only know the colours they can name
            problems.append((f"colours.{i}", msg("evil.config.unknown_colour", colour=colour,
                                                  choices=", ".join(named))))
    minutes = section.get("treasure_minutes", {})
    low, high = minutes.get("min", 0), minutes.get("max", 0)
    if step_minutes >= 1 and (low < step_minutes or low % step_minutes):
        problems.append(("treasure_minutes.min",
                         msg("evil.config.minutes_step", step=step_minutes)))
    if step_minutes >= 1 and (high % step_minutes or high >= steps * step_minutes or high < low):
        problems.append(("treasure_minutes.max",
                         msg("evil.config.minutes_max", step=step_minutes,
                             limit=steps * step_minutes)))
    players = section.get("players", {})
    if not 1 <= players.get("min", 0) <= players.get("max", 0):
        problems.append(("players", msg("evil.config.players")))
    characters = section.get("characters", [])
    if len(characters) < players.get("max", 0) or len(set(characters)) != len(characters):
        problems.append(("characters", msg("evil.config.characters")))
    for key, count in (("recovered_to_win", 1), ("lost_to_lose", 1)):
        if section.get(key, 0) < count:
            problems.append((key, msg("core.config.at_least", minimum=count)))
    difficulties = section.get("difficulties", {})
    for name, left_out in difficulties.items():
        for i, minutes in enumerate(left_out):
            if minutes < low or minutes > high or (step_minutes >= 1 and minutes % step_minutes):
                problems.append((f"difficulties.{name}.{i}",
                                 msg("evil.config.left_out", minutes=minutes)))
    if difficulties and section.get("default_difficulty") not in difficulties:
        problems.append(("default_difficulty",
                         msg("evil.config.default_difficulty",
                             names=", ".join(difficulties))))
    dice = section.get("dice", {})
    for die in DICE:
        faces = dice.get(die, [])
        if not faces:
            problems.append((f"dice.{die}", msg("evil.config.no_faces")))
        for i, face in enumerate(faces):
            parsed = parse_face(die, str(face), colours)
            if parsed is None or (parsed.kind == "time" and step_minutes >= 1
                                  and parsed.amount % step_minutes):
                problems.append((f"dice.{die}.{i}", msg("evil.config.bad_face", face=str(face),
                                                        die=die)))
    return problems
