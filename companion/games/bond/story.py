"""A finished game's story in a few lines, for its end screen: spies captured and
killed, the best kill, the lairs destroyed. Read from the events of the actions done
(`Session.steps`), so an undone kill is not in the story."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from companion.games.bond import events as e
from companion.games.bond.state import BondState
from companion.messages import Message, msg


def story(state: BondState, events: Iterable[Sequence[object]]) -> list[Message]:
    captured = killed = destroyed = 0
    best: e.SpyKilled | None = None
    for step in events:
        for event in step:
            if isinstance(event, e.SpyCaptured):
                captured += 1
            elif isinstance(event, e.SpyKilled):
                killed += 1
                if best is None or event.points > best.points:
                    best = event
            elif isinstance(event, e.LairDestroyed):
                destroyed += 1
    lines = [msg("bond.story.captures", n=captured), msg("bond.story.kills", n=killed)]
    if best is not None:
        key = "bond.story.best_kill_doubled" if best.successes else "bond.story.best_kill"
        lines.append(msg(key, player=state.players[best.owner].name, n=best.points,
                         power=best.power, times=best.successes))
    if destroyed:
        lines.append(msg("bond.story.lairs_destroyed", n=destroyed))
    return lines
