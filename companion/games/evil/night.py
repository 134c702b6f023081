"""Pr. Evil in the history and the statistics: a co-operative game, won or lost by the
whole table, with a difficulty and treasures."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.game import GameNight
from companion.journal import Entry
from companion.messages import Message, msg
from companion.night.facts import Facts
from companion.session import Step


class EvilNight(GameNight):
    cooperative_kind = True

    def command_name(self, command: Any) -> Message:
        """With the character a command names ("Power activated: Edward Wyre")."""
        name = type(command).__name__
        character = getattr(command, "character", None)
        if isinstance(character, str):
            return msg(f"evil.command.{name}", character=character)
        return msg(f"evil.command.{name}")

    def describe(self, step: Step) -> Sequence[Message]:
        from companion.games.evil.instructions import instructions

        return tuple(instructions(step.events, step.after.params))

    def facts(self, base: dict[str, Any], setup: Mapping[str, Any],
              summary: Mapping[str, Any], entries: Sequence[Entry]) -> Facts:
        n = len(base["names"])
        outcome = summary.get("outcome")
        difficulty = setup.get("difficulty")
        return Facts(**base, scores=(None,) * n,
                     winners=tuple(range(n)) if outcome == "won" else (),
                     outcome=outcome, difficulty=None if difficulty is None else str(difficulty),
                     recovered=summary.get("recovered"), lost=summary.get("lost"),
                     rounds=summary.get("turn"))


NIGHT = EvilNight("evil")
