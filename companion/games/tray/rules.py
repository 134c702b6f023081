"""The dice tray as a pure reducer, so it gets the journal, undo and redo for free.

Fairness and replay are those of the Pr. Evil dice (`companion.games.evil.dice.draw`):
a die's face depends only on the session's seed and the draw counter kept in the
state, so replaying the journal gives the same rolls, and undoing a roll then rolling
again gives the same faces (undo cannot fish for a better roll).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from companion.dice import draw
from companion.games.tray import commands as c
from companion.games.tray import events as e
from companion.games.tray.params import TrayParams, validate_config
from companion.games.tray.state import Die, RollRecord, TrayState
from companion.messages import Message, RuleError, msg

Events = list[Any]


class TrayRules:
    kind = "tray"
    commands = c.COMMANDS
    state_type = TrayState

    def initial_state(self, setup: Mapping[str, Any]) -> TrayState:
        section = setup.get("params")
        if not isinstance(section, Mapping):
            raise RuleError("night.error.tray_params", reason="params")
        try:
            problems = validate_config(section)
            params = None if problems else TrayParams.from_config(section)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise RuleError("night.error.tray_params", reason=str(exc)) from exc
        if params is None:
            raise RuleError("night.error.tray_params",
                            reason=", ".join(key for key, _ in problems))
        seed = setup.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise RuleError("night.error.tray_params", reason="seed")
        state = TrayState(params=params, seed=seed, draws=0)
        for kind in setup.get("dice") or []:
            state, _ = _add(state, c.AddDie(kind))
        return state

    def check_resumable(self, setup: Mapping[str, Any]) -> None:
        pass  # one version of these rules so far

    def summary(self, state: TrayState) -> dict[str, Any]:
        return {
            "finished": state.closed,
            "players": [],
            "dice": [d.kind for d in state.dice],
            "rolls": state.rolls,
            "turn": state.rolls,
        }

    def apply(self, state: TrayState, command: Any) -> tuple[TrayState, Events]:
        if state.closed:
            raise RuleError("night.error.tray_closed")
        handler = _HANDLERS.get(type(command))
        if handler is None:
            raise RuleError("core.error.unknown_command", name=type(command).__name__)
        return handler(state, command)


RULES = TrayRules()


def faces_of(state: TrayState, kind: str) -> tuple[str, ...]:
    faces = state.params.faces(kind)
    assert faces is not None  # only known kinds enter the tray
    return faces


def _index(state: TrayState, index: Any) -> int:
    if not isinstance(index, int) or isinstance(index, bool) or not (
            0 <= index < len(state.dice)):
        raise RuleError("night.error.no_such_die", index=str(index))
    return index


def _with_die(state: TrayState, index: int, die: Die) -> TrayState:
    dice = list(state.dice)
    dice[index] = die
    return replace(state, dice=tuple(dice))


def _add(state: TrayState, cmd: c.AddDie) -> tuple[TrayState, Events]:
    kind = cmd.kind
    if not isinstance(kind, str) or state.params.faces(kind) is None:
        raise RuleError("night.error.unknown_die", die=str(kind),
                        dice=", ".join(state.params.kinds))
    if len(state.dice) >= state.params.max_dice:
        raise RuleError("night.error.tray_full", n=state.params.max_dice)
    state = replace(state, dice=(*state.dice, Die(kind)))
    return state, [e.DieAdded(kind, len(state.dice) - 1)]


def _remove(state: TrayState, cmd: c.RemoveDie) -> tuple[TrayState, Events]:
    index = _index(state, cmd.index)
    kind = state.dice[index].kind
    return replace(state, dice=state.dice[:index] + state.dice[index + 1:]), [
        e.DieRemoved(kind, index)]


def _clear(state: TrayState, _: c.ClearDice) -> tuple[TrayState, Events]:
    if not state.dice:
        raise RuleError("night.error.tray_empty")
    return replace(state, dice=()), [e.DiceCleared(len(state.dice))]


def _counted(counts: tuple[tuple[str, tuple[int, ...]], ...], kind: str, face: int,
             size: int) -> tuple[tuple[str, tuple[int, ...]], ...]:
    table = dict(counts)
    row = list(table.get(kind, (0,) * size))
    row[face] += 1
    table[kind] = tuple(row)
    return tuple(sorted(table.items()))


def _roll(state: TrayState, _: c.Roll) -> tuple[TrayState, Events]:
    if not state.dice:
        raise RuleError("night.error.tray_empty")
    if all(d.locked for d in state.dice):
        raise RuleError("night.error.all_locked")
    draws = state.draws
    counts = state.counts
    dice = []
    for die in state.dice:
        if die.locked:
            dice.append(die)
            continue
        faces = faces_of(state, die.kind)
        face = int(draw(state.seed, draws, [str(i) for i in range(len(faces))]))
        draws += 1
        counts = _counted(counts, die.kind, face, len(faces))
        dice.append(replace(die, face=face))
    number = state.rolls + 1
    record = RollRecord(number, tuple(d.kind for d in dice),
                        tuple(d.face for d in dice if d.face is not None),
                        tuple(not d.locked for d in dice))
    recent = (*state.recent, record)[-state.params.history:]
    state = replace(state, dice=tuple(dice), draws=draws, counts=counts, recent=recent,
                    rolls=number)
    faces = tuple(faces_of(state, d.kind)[d.face or 0] for d in dice)
    total = sum(int(f) for f in faces) if all(
        TrayParams.numeric(d.kind) for d in dice) else None
    return state, [e.DiceRolled(number, record.kinds, faces, record.rolled, total)]


def _lock(state: TrayState, cmd: c.Lock) -> tuple[TrayState, Events]:
    index = _index(state, cmd.index)
    die = state.dice[index]
    if die.face is None:
        raise RuleError("night.error.lock_unrolled")
    if die.locked:
        raise RuleError("night.error.already_locked")
    return _with_die(state, index, replace(die, locked=True)), [e.DieLocked(index)]


def _unlock(state: TrayState, cmd: c.Unlock) -> tuple[TrayState, Events]:
    index = _index(state, cmd.index)
    die = state.dice[index]
    if not die.locked:
        raise RuleError("night.error.not_locked")
    return _with_die(state, index, replace(die, locked=False)), [e.DieUnlocked(index)]


def _close(state: TrayState, _: c.Close) -> tuple[TrayState, Events]:
    return replace(state, closed=True), [e.TrayClosed(state.rolls)]


_HANDLERS: dict[type, Any] = {
    c.AddDie: _add,
    c.RemoveDie: _remove,
    c.ClearDice: _clear,
    c.Roll: _roll,
    c.Lock: _lock,
    c.Unlock: _unlock,
    c.Close: _close,
}


def describe(events: Iterable[Any]) -> list[Message]:
    """One line per event, for the log and the screen."""
    out: list[Message] = []
    for event in events:
        match event:
            case e.DiceRolled(number=n, kinds=kinds, faces=faces, total=total):
                shown = ", ".join(f"{k}: {f}" for k, f in zip(kinds, faces, strict=True))
                if total is None:
                    out.append(msg("night.tray.say.rolled", n=n, faces=shown))
                else:
                    out.append(msg("night.tray.say.rolled_total", n=n, faces=shown,
                                   total=total))
            case e.DieAdded(kind=kind):
                out.append(msg("night.tray.say.added", die=kind))
            case e.DieRemoved(kind=kind):
                out.append(msg("night.tray.say.removed", die=kind))
            case e.DiceCleared(count=count):
                out.append(msg("night.tray.say.cleared", n=count))
            case e.DieLocked(index=i):
                out.append(msg("night.tray.say.locked", n=i + 1))
            case e.DieUnlocked(index=i):
                out.append(msg("night.tray.say.unlocked", n=i + 1))
            case e.TrayClosed(rolls=rolls):
                out.append(msg("night.tray.say.closed", n=rolls))
    return out
