"""The session: command -> rules -> journal -> observers, with unlimited undo and redo.

Like python-chess's move stack, the session keeps the immutable state before and after
every command, so undo and redo are O(1) and cannot drift from the rules. The journal
records every action (do, undo, redo); replaying it rebuilds exactly the same stacks.
Nothing reaches the observers (screen, LEDs, buzzer) before the journal has committed.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.journal import DamagedRow, Entry, Journal, JournalError
from companion.messages import RuleError
from companion.names import check_setup_names
from companion.records import decode, encode
from companion.rules import Rules


@dataclass(frozen=True)
class Step:
    """One action on the undo stack: the command, its events, the state before and after."""

    command: Any
    events: tuple[Any, ...]
    before: Any
    after: Any


@dataclass(frozen=True)
class Update:
    """What observers are told after an action is durable."""

    verb: str  # "do", "undo" or "redo"
    command: Any
    events: tuple[Any, ...]
    state: Any


Observer = Callable[[Update], None]


class History:
    """The do/undo/redo stacks, shared by live sessions and journal replay."""

    def __init__(self, initial: Any) -> None:
        self.initial = initial
        self.steps: list[Step] = []
        self.cursor = 0  # steps[:cursor] are done, steps[cursor:] can be redone

    @property
    def state(self) -> Any:
        return self.steps[self.cursor - 1].after if self.cursor else self.initial

    def can_undo(self) -> bool:
        return self.cursor > 0

    def can_redo(self) -> bool:
        return self.cursor < len(self.steps)

    def do(self, step: Step) -> None:
        del self.steps[self.cursor :]
        self.steps.append(step)
        self.cursor += 1

    def undo(self) -> Step:
        if not self.can_undo():
            raise RuleError("core.error.nothing_to_undo")
        self.cursor -= 1
        return self.steps[self.cursor]

    def redo(self) -> Step:
        if not self.can_redo():
            raise RuleError("core.error.nothing_to_redo")
        self.cursor += 1
        return self.steps[self.cursor - 1]

    def peek_undo(self) -> Step:
        if not self.can_undo():
            raise RuleError("core.error.nothing_to_undo")
        return self.steps[self.cursor - 1]

    def peek_redo(self) -> Step:
        if not self.can_redo():
            raise RuleError("core.error.nothing_to_redo")
        return self.steps[self.cursor]


def replay(rules: Rules, setup: Mapping[str, Any], entries: Sequence[Entry]) -> History:
    """Rebuild the stacks from journal entries, applying every command again."""
    history = History(rules.initial_state(setup))
    # A long replay allocates tens of thousands of small immutable records while the
    # stacks keep them all alive: the cyclic collector would rescan them again and again
    # for nothing (they hold no cycles), so it waits until the replay is done.
    collecting = gc.isenabled()
    gc.disable()
    try:
        for entry in entries:
            if entry.verb == "do":
                command = decode(rules.commands, entry.command or {})
                after, events = rules.apply(history.state, command)
                history.do(Step(command, tuple(events), history.state, after))
            elif entry.verb == "undo":
                history.undo()
            else:
                history.redo()
    finally:
        if collecting:
            gc.enable()
    return history


class Session:
    def __init__(
        self, rules: Rules, journal: Journal, game_id: int, setup: Mapping[str, Any],
        history: History, seq: int,
    ) -> None:
        self.rules = rules
        self.journal = journal
        self.game_id = game_id
        self.setup = dict(setup)
        self._history = history
        self._seq = seq
        self._observers: list[Observer] = []

    # -- life cycle --------------------------------------------------------------
    @classmethod
    def start(cls, rules: Rules, journal: Journal, setup: Mapping[str, Any]) -> Session:
        check_setup_names(setup)  # a new game only: a replayed one keeps its names
        initial = rules.initial_state(setup)  # refuses a bad setup before writing anything
        game_id = journal.create_game(rules.kind, dict(setup), rules.summary(initial))
        return cls(rules, journal, game_id, setup, History(initial), 0)

    @classmethod
    def resume(cls, rules: Rules, journal: Journal, game_id: int) -> Session:
        record = journal.game(game_id)
        if record.damaged is not None:  # listed in the history, never replayed
            raise DamagedRow("core.error.damaged_game", game=game_id, reason=record.damaged)
        entries = journal.entries(game_id, with_events=False)  # replay recomputes them
        try:
            history = replay(rules, record.setup, entries)
        except RuleError as exc:
            # a journal these rules cannot replay (written by another version, edited):
            # say which game and why, rather than a rule error that makes no sense here
            raise JournalError("core.error.replay", game=game_id, reason=exc.message) from exc
        return cls(rules, journal, game_id, record.setup, history, len(entries))

    # -- reading -----------------------------------------------------------------
    @property
    def state(self) -> Any:
        return self._history.state

    def can_undo(self) -> bool:
        return self._history.can_undo()

    def can_redo(self) -> bool:
        return self._history.can_redo()

    @property
    def steps(self) -> list[Step]:
        """Every command done so far (the redo tail excluded), oldest first."""
        return self._history.steps[: self._history.cursor]

    def next_undo(self) -> Any | None:
        return self._history.peek_undo().command if self.can_undo() else None

    def next_redo(self) -> Any | None:
        return self._history.peek_redo().command if self.can_redo() else None

    def subscribe(self, observer: Observer) -> None:
        self._observers.append(observer)

    def unsubscribe(self, observer: Observer) -> None:
        if observer in self._observers:
            self._observers.remove(observer)

    # -- acting ------------------------------------------------------------------
    def dispatch(self, command: Any) -> tuple[Any, ...]:
        """Apply a command: refused (RuleError) or committed, then shown."""
        before = self.state
        after, events = self.rules.apply(before, command)
        events = tuple(events)
        self._commit("do", encode(command), [encode(e) for e in events], after)
        self._history.do(Step(command, events, before, after))
        self._notify(Update("do", command, events, after))
        return events

    def undo(self) -> Any:
        step = self._history.peek_undo()
        self._commit("undo", None, [], step.before)
        self._history.undo()
        self._notify(Update("undo", step.command, (), step.before))
        return step.command

    def redo(self) -> Any:
        step = self._history.peek_redo()
        self._commit("redo", None, [], step.after)
        self._history.redo()
        self._notify(Update("redo", step.command, step.events, step.after))
        return step.command

    def _commit(
        self, verb: str, command: dict[str, Any] | None, events: list[dict[str, Any]],
        state: Any,
    ) -> None:
        self.journal.append(
            self.game_id, self._seq, verb, command, events, self.rules.summary(state)
        )
        self._seq += 1

    def _notify(self, update: Update) -> None:
        """Every observer hears of every durable action even if one of them fails (a
        serial error must not keep the screen from updating); the first failure is
        raised afterwards, the action staying done."""
        failure: Exception | None = None
        for observer in list(self._observers):
            try:
                observer(update)
            except Exception as exc:
                failure = failure or exc
        if failure is not None:
            raise failure
