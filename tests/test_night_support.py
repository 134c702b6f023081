"""Builders for the game-night tests: small real games played through Session.

(This module holds no tests; the test_night_* modules import it.)
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion import config
from companion.games import rules_for
from companion.games.bond import commands as bc
from companion.games.castor import commands as cc
from companion.games.evil import commands as ec
from companion.journal import Journal
from companion.night import roster
from companion.session import Session

_CONFIG: dict[str, Any] | None = None
CHARACTERS = ("Nathan Goodspeed", "Edward Wyre", "Irene Elder", "Leroy Johnson",
              "Destiny Bradshaw")
DAY = 86400.0
#: 2024-03-01 20:00:00 UTC: every fixture game starts a day after the previous one
EPOCH = 1709323200.0


def params(kind: str, **override: Any) -> dict[str, Any]:
    global _CONFIG
    if _CONFIG is None:
        _CONFIG = config.load(use_default_user_file=False).data
    return config.merge(_CONFIG["games"][kind], override)


def open_journal(path: Path) -> Journal:
    return Journal(path / "journal.sqlite3")


def set_times(journal: Journal, game_id: int, started: float, minutes: float) -> None:
    """Fixture games get fixed dates, so files and durations are reproducible."""
    with journal.writing() as db:
        db.execute("UPDATE games SET started = ?, updated = ? WHERE id = ?",
                   (started, started + minutes * 60, game_id))


def start(journal: Journal, kind: str, players: Sequence[int],
          extra: Sequence[dict[str, Any]] | None = None, **setup: Any) -> Session:
    over = setup.pop("params", {})
    full = {"params": params(kind, **over), "seed": 11,
            "players": roster.setup_players(journal, players, extra), **setup}
    session = Session.start(rules_for(kind), journal, full)
    roster.link_game(journal, session.game_id)
    return session


def evil(journal: Journal, players: Sequence[int], won: bool, difficulty: str | None = None,
         day: int = 0) -> int:
    extra = [{"character": CHARACTERS[i]} for i in range(len(players))]
    setup: dict[str, Any] = {"treasures": {"red": 45},
                             "params": {"recovered_to_win": 1, "lost_to_lose": 1}}
    if difficulty is not None:
        setup["difficulty"] = difficulty
    session = start(journal, "evil", players, extra, **setup)
    session.dispatch(ec.Roll())
    session.dispatch(ec.Recover("red") if won else ec.MarkLost("red"))
    set_times(journal, session.game_id, EPOCH + day * DAY, 30)
    return session.game_id


def castor(journal: Journal, players: Sequence[int], rounds: Sequence[dict[str, Sequence[int]]],
           day: int = 0) -> int:
    """Rounds as {"plan": ..., "green": ..., "yellow": ...}, one number per seat."""
    session = start(journal, "castor", players)
    for number, sheet in enumerate(rounds, start=1):
        session.dispatch(cc.EnterSheet(number, tuple(sheet["plan"]), tuple(sheet["green"]),
                                       tuple(sheet["yellow"])))
    set_times(journal, session.game_id, EPOCH + day * DAY, 45)
    return session.game_id


def bond(journal: Journal, players: Sequence[int], kills: Sequence[tuple[int, int]],
         end: bool = True, day: int = 0, undo_last: bool = False) -> int:
    """Each kill (seat, power): a lair card of 4 in front of the seat, a spy of `power`
    captured there and killed. `undo_last` undoes the last kill (it must not count)."""
    session = start(journal, "bond", players)
    for seat, power in kills:
        session.dispatch(bc.AddLairCard(seat, 4))
        session.dispatch(bc.Attack(seat, (power,)))
        session.dispatch(bc.Kill())
    if undo_last:
        session.undo()
        session.undo()
        session.undo()
    if end:
        session.dispatch(bc.EndGame())
    set_times(journal, session.game_id, EPOCH + day * DAY, 20)
    return session.game_id


def sheet(plan: Sequence[int], green: Sequence[int], yellow: Sequence[int]) -> dict[str, Any]:
    return {"plan": plan, "green": green, "yellow": yellow}


def pad(journal: Journal, players: Sequence[int], template: str | dict[str, Any],
        commands: Sequence[Any], day: int = 0, minutes: float = 40,
        **setup: Any) -> int:
    """A score pad game from a built-in template (or one as plain data), played through
    Session with these `companion.games.pad.commands`."""
    from companion.games.pad import templates
    from companion.games.pad.template import to_data

    data = template if isinstance(template, dict) else to_data(
        templates.load(own_dir=templates.BUILTIN_DIR / "none").get(template))
    full = {"template": data, "players": roster.setup_players(journal, players),
            "start_player": 0, "start_drawn": False, **setup}
    session = Session.start(rules_for("pad"), journal, full)
    roster.link_game(journal, session.game_id)
    for command in commands:
        session.dispatch(command)
    set_times(journal, session.game_id, EPOCH + day * DAY, minutes)
    return session.game_id


def clock(journal: Journal, players: Sequence[int], turns: Sequence[int],
          pad_game: int | None = None, pause_ms: int = 0, day: int = 0) -> int:
    """A count-up clock: seat 0 starts; each number of `turns` is a turn's length in ms
    (turns go round the table), then a pause of `pause_ms`, then Close."""
    from companion.games.clock import commands as kc
    from companion.games.clock.params import ClockParams

    names = [{"name": roster.get(journal, pid).name} for pid in players]
    params_ = ClockParams.from_setup({"mode": "countup"}).to_setup()
    session = Session.start(rules_for("clock"), journal, {
        "preset": "count-up", "params": params_, "players": names, "start": 0,
        "pad_game": pad_game})
    at = 1000
    session.dispatch(kc.Start(at))
    for length in turns:
        at += length
        session.dispatch(kc.Switch(at))
    if pause_ms:
        session.dispatch(kc.Pause(at))
        at += pause_ms
        session.dispatch(kc.Resume(at))
    session.dispatch(kc.Close(at))
    set_times(journal, session.game_id, EPOCH + day * DAY, 50)
    return session.game_id
