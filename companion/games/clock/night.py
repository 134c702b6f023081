"""The clock in the history: each seat's time, turns, longest turn and overtime. A
clock session has no winners: the statistics and the export never count it; its times
join the score pad game it ran beside (its summary's `pad_game`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from companion.game import GameNight, OwnFileRefused
from companion.journal import Entry
from companion.messages import Message, msg
from companion.night.facts import Facts, int_or_none, ms
from companion.session import Step


class ClockNight(GameNight):
    ranked = False
    own_folder = "clock"  # the table's own presets

    def command_name(self, command: Any) -> Message:
        return msg(f"clock.command.{type(command).__name__}")

    def describe(self, step: Step) -> Sequence[Message]:
        from companion.games.clock.rules import describe

        return tuple(describe(step.events, step.after))

    def broken_own(self, folder: Path) -> set[str]:
        from companion.games.clock import presets

        bad = set()
        for file in sorted(folder.glob("*.yaml")):
            try:
                preset, _, _ = presets.read_file(file, own=True)
            except Exception as exc:  # the clock's setup would fail on it as well
                raise OwnFileRefused(f"clock/{file.name[:60]}", exc) from exc
            if preset is None:
                bad.add(file.name)
        return bad

    def facts(self, base: dict[str, Any], setup: Mapping[str, Any],
              summary: Mapping[str, Any], entries: Sequence[Entry]) -> Facts:
        n = len(base["names"])
        return Facts(**base, scores=(None,) * n, winners=(),
                     times_ms=ms(summary.get("times_ms"), n),
                     turns=ms(summary.get("turns"), n),
                     longest_ms=ms(summary.get("longest_ms"), n),
                     overtime_ms=ms(summary.get("overtime_ms"), n),
                     duration_ms=int_or_none(summary.get("duration_ms")),
                     pause_ms=int_or_none(summary.get("pause_ms")),
                     pad_game=int_or_none(summary.get("pad_game")),
                     rounds=int_or_none(summary.get("turn")))


NIGHT = ClockNight("clock")
