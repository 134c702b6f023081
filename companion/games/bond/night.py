"""Mr. Bond in the history and the statistics: each seat's best kill (read from its
actions, undo and redo taken into account) and a score line per scoring action."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.game import GameNight
from companion.journal import Entry, GameRecord, Journal
from companion.messages import Message, msg
from companion.night.facts import Facts, effective, ints, seats_named
from companion.session import Step


class BondNight(GameNight):
    has_score_line = True
    reads_actions = True

    def command_name(self, command: Any) -> Message:
        name = type(command).__name__
        character = getattr(command, "character", None)
        if isinstance(character, str):
            return msg(f"bond.command.{name}", character=character)
        return msg(f"bond.command.{name}")

    def describe(self, step: Step) -> Sequence[Message]:
        from companion.games.bond.instructions import instructions

        return tuple(instructions(step.events, step.after))

    def facts(self, base: dict[str, Any], setup: Mapping[str, Any],
              summary: Mapping[str, Any], entries: Sequence[Entry]) -> Facts:
        names = base["names"]
        n = len(names)
        kills: list[int | None] = [None] * n
        for entry in effective(entries):
            for event in entry.events:
                if event.get("type") == "SpyKilled":
                    owner, points = event.get("owner"), event.get("points")
                    if isinstance(owner, int) and 0 <= owner < n and isinstance(points, int):
                        kills[owner] = max(kills[owner] or 0, points)
        return Facts(**base, scores=ints(summary.get("scores"), n),
                     winners=seats_named(names, summary.get("winners")),
                     best_kills=tuple(kills))

    def score_lines(self, journal: Journal, record: GameRecord, n: int
                    ) -> list[list[int]] | None:
        """The score after each scoring action."""
        lines: list[list[int]] = [[0] for _ in range(n)]
        for entry in effective(journal.readable_entries(record.id)[0]):
            changed = False
            scores = [line[-1] for line in lines]
            for event in entry.events:
                who = event.get("owner", event.get("player"))
                if event.get("type") in ("SpyKilled", "ScoreCorrected") and isinstance(
                        who, int) and 0 <= who < n and isinstance(event.get("score"), int):
                    scores[who] = int(event["score"])
                    changed = True
            if changed:
                for seat in range(n):
                    lines[seat].append(scores[seat])
        return lines


NIGHT = BondNight("bond")
