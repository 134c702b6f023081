"""Deterministic tables for the games (the three, and the score pad): what they do next
depends only on the game and the action count, so a process killed mid-game and an
in-memory twin agree.

`next_action(session, seq)` returns "undo", "redo" or a command the rules accept now.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

from companion.games.bond import commands as bc
from companion.games.castor import commands as cc
from companion.messages import RuleError
from companion.session import Session
from tests.helpers import evil_play


def table_setup(kind: str) -> dict[str, Any]:
    """The setup of the deterministic table of `kind` (three players)."""
    from tests.helpers.evil import setup
    from tests.test_night_support import params

    if kind == "evil":
        return setup(seed=99, players=3, treasures={"red": 40, "green": 50, "blue": 55})
    names = ("Ann", "Bob", "Cid")
    if kind == "pad":
        from tests.pad_helpers import setup as pad_setup

        return pad_setup("rounds-highest", 3)
    return {"params": params(kind), "seed": 11, "players": [{"name": n} for n in names]}


def digest(session: Session) -> str:
    """A short fingerprint of the state and the stacks (stable across processes)."""
    history = session._history  # the stacks are what must survive the kill
    text = repr((session.state, history.cursor, len(history.steps),
                 [step.command for step in history.steps]))
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def _castor(state: Any, n: int, rng: random.Random) -> list[Any]:
    def sheet(number: int) -> cc.EnterSheet:
        plan = [rng.randint(0, 6) for _ in range(n)]
        return cc.EnterSheet(number, tuple(plan), tuple(rng.randint(0, 4) for _ in range(n)),
                             tuple(rng.randint(0, 4) for _ in range(n)))

    rounds = len(state.rounds)
    out: list[Any] = [sheet(rounds + 1)]
    if rounds:
        out += [sheet(rng.randint(1, rounds)), cc.DeleteRound(rounds)]
        rng.shuffle(out)
    return out


def _bond(state: Any, n: int, rng: random.Random) -> list[Any]:
    who = rng.randrange(n)
    letters = state.params.letters
    out: list[Any] = [
        bc.Kill(), bc.Answered(), bc.NotAnswered(), bc.Ridicule(rng.choice(letters)),
        bc.AddLairCard(who, rng.randint(1, 4)),
        bc.Attack(who, (rng.randint(1, 5),), by=(who + 1) % n),
        bc.RemoveLairCard(who, rng.randint(1, 4)),
    ]
    rng.shuffle(out)
    return out


def _pad(state: Any, n: int, rng: random.Random) -> list[Any]:
    """The keypad's next cell (most often), a correction or a clear of any cell."""
    from companion.games.pad import commands as pc
    from companion.games.pad.view import sheet_view

    def text() -> str:
        return rng.choice([str(rng.randint(-20, 40)), f"{rng.randint(0, 9)}+{rng.randint(0, 9)}"])

    view = sheet_view(state)
    out: list[Any] = []
    if view.current is not None and view.current_seat is not None:
        out += [pc.SetCell(view.current_seat, *view.current, text())] * 3
    if state.rounds:
        r, seat = rng.randrange(len(state.rounds)), rng.randrange(n)
        out += [pc.SetCell(seat, r, None, text()), pc.ClearCell(seat, r, None)]
    rng.shuffle(out)
    return out


_MOVES = {"castor": _castor, "bond": _bond, "pad": _pad}


def next_action(session: Session, seq: int) -> Any:
    kind = session.rules.kind
    if kind == "evil":
        return evil_play.next_action(session, seq)
    rng = random.Random(f"{kind}:{seq}")
    state = session.state
    if session.rules.summary(state).get("finished"):
        return "undo"
    draw = rng.random()
    if kind == "pad" and draw < 0.4 and session.can_redo():
        return "redo"  # the pad's table thinks twice more often: its redos are played too
    if (back := evil_play.undo_or_redo(session, draw)) is not None:
        return back
    n = len(session.setup["players"])
    for command in _MOVES[kind](state, n, rng):
        try:
            session.rules.apply(state, command)
        except RuleError:
            continue
        return command
    return "undo"


def act(session: Session, action: Any) -> None:
    evil_play.act(session, action)
