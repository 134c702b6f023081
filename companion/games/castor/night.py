"""Castor in the history and the statistics: totals up to the deciding round, medals,
and a score line per round."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.game import GameNight
from companion.journal import Entry, GameRecord, Journal
from companion.messages import Message
from companion.night.facts import Facts, ints, seats_named
from companion.session import Step


class CastorNight(GameNight):
    has_score_line = True
    def describe(self, step: Step) -> Sequence[Message]:
        from companion.games.castor.instructions import instructions

        return tuple(instructions(step.events))

    def facts(self, base: dict[str, Any], setup: Mapping[str, Any],
              summary: Mapping[str, Any], entries: Sequence[Entry]) -> Facts:
        names = base["names"]
        n = len(names)
        rounds = [r for r in summary.get("rounds") or [] if isinstance(r, list)]
        decided = summary.get("decided_round")
        counted = rounds[:decided] if isinstance(decided, int) else rounds
        totals = tuple(sum(r[i] for r in counted if i < len(r)) for i in range(n))
        return Facts(**base, scores=totals, winners=seats_named(names, summary.get("winners")),
                     medals=tuple(v or 0 for v in ints(summary.get("medals"), n)),
                     rounds=len(counted))

    def score_lines(self, journal: Journal, record: GameRecord, n: int
                    ) -> list[list[int]] | None:
        """The running total after each round."""
        lines: list[list[int]] = [[0] for _ in range(n)]
        for totals in record.summary.get("rounds") or []:
            try:
                points = [int(totals[seat]) for seat in range(n)]
            except (TypeError, ValueError, IndexError, KeyError):
                break  # a round of the wrong shape: the lines stop before it
            for seat in range(n):
                lines[seat].append(lines[seat][-1] + points[seat])
        return lines


NIGHT = CastorNight("castor")
