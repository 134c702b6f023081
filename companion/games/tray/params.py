"""The dice tray's parameters, read from the `games.tray` config section.

A tray session keeps the parameters it started with (they are in its setup), so a
change of config never changes the rolls of a session already journaled.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.messages import Message, msg

_STANDARD = re.compile(r"^d([1-9][0-9]*)$")
MAX_FACES = 1000
MAX_DICE = 100
MAX_HISTORY = 10_000


@dataclass(frozen=True)
class CustomDie:
    """One of the table's own dice, from the config: its id, label and faces."""

    id: str
    label: str  # shown as written in the config (it is the table's own die)
    faces: tuple[str, ...]


@dataclass(frozen=True)
class TrayParams:
    """What a tray session was set up with: dice offered, most dice, history length."""

    standard: tuple[int, ...]  # sides of the common dice offered
    custom: tuple[CustomDie, ...]
    max_dice: int
    history: int  # rolls kept in the visible history

    @classmethod
    def from_config(cls, section: Mapping[str, Any]) -> TrayParams:
        return cls(
            standard=tuple(int(s) for s in section["standard"]),
            custom=tuple(CustomDie(str(d["id"]), str(d.get("label") or d["id"]),
                                   tuple(str(f) for f in d["faces"]))
                         for d in section["custom"]),
            max_dice=int(section["max_dice"]),
            history=int(section["history"]),
        )

    def to_config(self) -> dict[str, Any]:
        return {
            "standard": list(self.standard),
            "custom": [{"id": d.id, "label": d.label, "faces": list(d.faces)}
                       for d in self.custom],
            "max_dice": self.max_dice,
            "history": self.history,
        }

    @property
    def kinds(self) -> tuple[str, ...]:
        """Every die the tray offers: `d4`... then the custom dice's ids."""
        return tuple(f"d{s}" for s in self.standard) + tuple(d.id for d in self.custom)

    def faces(self, kind: str) -> tuple[str, ...] | None:
        match = _STANDARD.match(kind)
        if match and int(match.group(1)) in self.standard:
            return tuple(str(v) for v in range(1, int(match.group(1)) + 1))
        for die in self.custom:
            if die.id == kind:
                return die.faces
        return None

    def label(self, kind: str) -> str:
        for die in self.custom:
            if die.id == kind:
                return die.label
        return kind

    @staticmethod
    def numeric(kind: str) -> bool:
        return _STANDARD.match(kind) is not None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def validate_config(section: Mapping[str, Any]) -> list[tuple[str, Message]]:
    """Problems in the meaning of `games.tray` (types were checked already)."""
    problems: list[tuple[str, Message]] = []
    standard = section.get("standard", [])
    for i, sides in enumerate(standard):
        if not _is_int(sides) or not 2 <= sides <= MAX_FACES:
            problems.append((f"standard.{i}", msg("night.config.sides", high=MAX_FACES)))
    if len(set(standard)) != len(standard):
        problems.append(("standard", msg("night.config.twice")))
    ids: set[str] = set()
    for i, die in enumerate(section.get("custom", [])):
        if not isinstance(die, Mapping):
            problems.append((f"custom.{i}", msg("night.config.custom")))
            continue
        unknown = set(die) - {"id", "label", "faces"}
        if unknown:
            problems.append((f"custom.{i}.{sorted(unknown)[0]}", msg("core.config.unknown_key",
                                                                      hint="")))
        ident = die.get("id")
        if not isinstance(ident, str) or not ident.strip() or _STANDARD.match(ident):
            problems.append((f"custom.{i}.id", msg("night.config.custom_id")))
        elif ident in ids:
            problems.append((f"custom.{i}.id", msg("night.config.twice")))
        else:
            ids.add(ident)
        if "label" in die and not isinstance(die["label"], str):
            problems.append((f"custom.{i}.label", msg("core.config.wrong_type",
                                                      expected="text", found="other")))
        faces = die.get("faces")
        if not isinstance(faces, list) or not 2 <= len(faces) <= MAX_FACES or any(
                not isinstance(f, (str, int)) or isinstance(f, bool) or not str(f).strip()
                for f in faces):
            problems.append((f"custom.{i}.faces", msg("night.config.faces", high=MAX_FACES)))
    # the tray shows every die and keeps `history` rolls in its state: both bounded
    for key, high in (("max_dice", MAX_DICE), ("history", MAX_HISTORY)):
        if not _is_int(section.get(key)) or not 1 <= section.get(key, 0) <= high:
            problems.append((key, msg("core.config.number_range", low=1, high=high)))
    return problems
