"""The session: command -> rules -> journal -> observers, with unlimited undo and redo.

Like python-chess's move stack, the session keeps the immutable state before and after
every command, so undo and redo are O(1) and cannot drift from the rules. The journal
records every action (do, undo, redo); replaying it rebuilds exactly the same stacks.
Nothing reaches the observers (screen, LEDs, buzzer) before the journal has committed.

An undo or redo may carry the time it happened at (`at`, journaled as its command
column `{"at": ms}`), for rules whose states hold the time (the clock): their
`landing(state, target, at)` gives the state it lands on, the state before (or after)
the command with what really happened since that no undo can take back (a pause that
ran stays charged to nobody). Without it an undo lands on the state before exactly.
"""

from __future__ import annotations

import gc
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, overload

from companion import snapshot as snapshot_codec
from companion.journal import DamagedRow, Entry, GameRecord, Journal, JournalError, Snapshot
from companion.messages import RuleError
from companion.names import check_setup_names
from companion.records import decode, encode
from companion.rules import Rules
from companion.snapshot import SnapshotError
from companion.snapshot import decode as snapshot_decode
from companion.snapshot import version as snapshot_version
from companion.writer import Derived, Ticket, Writer

log = logging.getLogger(__name__)

#: a snapshot of the state is due every this many actions (see `Session._derived`)
SNAPSHOT_EVERY = 100


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
    """The do/undo/redo stacks, shared by live sessions and journal replay.

    A resumed game starts from a snapshot: it knows the state after its first `base`
    steps but not those steps. They are rebuilt only if the table undoes that far
    (`older` replays the journal up to the snapshot, from the snapshot before it), one
    stretch of the journal at a time. So is its initial state: a resume from a snapshot
    does not build it (`History(None, base=...)`); `initial` rebuilds it if asked."""

    def __init__(self, initial: Any, *, base: int = 0, base_state: Any = None,
                 older: Callable[[], History] | None = None) -> None:
        self._base = base  # steps[:base] are not loaded (yet)
        self._base_state = base_state if base else initial
        self._older = older
        self._steps: list[Step] = []  # steps[base:]
        self.cursor = base  # steps[:cursor] are done, steps[cursor:] can be redone
        #: the state at a cursor position where it is not the step's `after`: an undo
        #: or redo with a time landed there (`Rules.landing`), or an undo to a step's
        #: `before` that is such a landing
        self._landed: dict[int, Any] = {}
        self._landed_saved: dict[int, Any] = {}  # as it was before the last action

    def __len__(self) -> int:
        return self._base + len(self._steps)

    @property
    def initial(self) -> Any:
        """The state before the first step (a resumed game rebuilds the older steps)."""
        while self._base:
            self._load_older()
        return self._base_state

    def step(self, index: int) -> Step:
        """Step `index` (0 the first), rebuilding older stretches if need be."""
        if index < 0:
            raise IndexError(index)
        while index < self._base:
            self._load_older()
        return self._steps[index - self._base]

    @property
    def steps(self) -> StepsView:
        """Every step, done or to redo, oldest first, loaded when read."""
        return StepsView(self, len(self))

    def _load_older(self) -> None:
        if self._older is None:
            raise RuntimeError("the steps before the snapshot cannot be rebuilt")
        older = self._older()
        if older.cursor != self._base or len(older) != self._base:
            raise RuntimeError("the snapshot does not match its journal")
        self._steps = older._steps + self._steps
        self._landed = {**older._landed, **self._landed}
        self._base, self._base_state, self._older = older._base, older._base_state, older._older

    @property
    def state(self) -> Any:
        if self.cursor in self._landed:
            return self._landed[self.cursor]
        if self.cursor == self._base:
            return self._base_state
        return self.step(self.cursor - 1).after

    def can_undo(self) -> bool:
        return self.cursor > 0

    def can_redo(self) -> bool:
        return self.cursor < len(self)

    def do(self, step: Step) -> list[Step]:
        """Push `step`; returns the steps it takes from the redo stack."""
        if self.cursor < self._base:  # a new step after undoing into the older stretch
            self.step(self.cursor)
        dropped = self._steps[self.cursor - self._base :]
        del self._steps[self.cursor - self._base :]
        self._steps.append(step)
        self._landed_saved = dict(self._landed)
        for position in [p for p in self._landed if p > self.cursor]:
            del self._landed[position]  # the redo steps' landings go with them
        self.cursor += 1
        return dropped

    def take_back(self, verb: str, dropped: Sequence[Step] = ()) -> None:
        """Undo the last `do` (giving back the redo steps it took), `undo` or `redo`, as
        if it had never been: its journal commit failed."""
        self._landed = self._landed_saved
        if verb == "do":
            self.cursor -= 1
            del self._steps[self.cursor - self._base :]
            self._steps.extend(dropped)
        elif verb == "undo":
            self.cursor += 1
        else:
            self.cursor -= 1

    def undo(self, landed: Any = None) -> Step:
        """Back one step, to its `before` (or to `landed`: where an undo with a time
        lands, `Rules.landing`)."""
        step = self.peek_undo()
        self._landed_saved = dict(self._landed)
        self.cursor -= 1
        target = step.before if landed is None else landed
        plain = self._base_state if self.cursor == self._base else \
            self.step(self.cursor - 1).after
        if target is plain:
            self._landed.pop(self.cursor, None)
        else:  # a step done from a landing has it as its before
            self._landed[self.cursor] = target
        return step

    def redo(self, landed: Any = None) -> Step:
        """On one step; `landed`: the state it lands on if not the step's `after`."""
        step = self.peek_redo()
        self._landed_saved = dict(self._landed)
        self.cursor += 1
        if landed is None:
            self._landed.pop(self.cursor, None)
        else:
            self._landed[self.cursor] = landed
        return step

    def back(self, rules: Rules, verb: str, payload: Any) -> Step:
        """Replay a journaled undo or redo (`payload`: its command column)."""
        if verb == "undo":
            step = self.peek_undo()
            self.undo(landing(rules, self.state, step.before, payload))
        else:
            step = self.peek_redo()
            self.redo(landing(rules, self.state, step.after, payload))
        return step

    def peek_undo(self) -> Step:
        if not self.can_undo():
            raise RuleError("core.error.nothing_to_undo")
        return self.step(self.cursor - 1)

    def peek_redo(self) -> Step:
        if not self.can_redo():
            raise RuleError("core.error.nothing_to_redo")
        return self.step(self.cursor)


class StepsView(Sequence[Step]):
    """The first `length` steps of a history, read lazily (newest first is cheap)."""

    def __init__(self, history: History, length: int) -> None:
        self._history = history
        self._length = length

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> Step: ...

    @overload
    def __getitem__(self, index: slice) -> list[Step]: ...

    def __getitem__(self, index: int | slice) -> Step | list[Step]:
        if isinstance(index, slice):
            return [self._history.step(i) for i in range(*index.indices(self._length))]
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError(index)
        return self._history.step(index)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]


def landing(rules: Rules, state: Any, target: Any, payload: Any) -> Any:
    """The state an undo or redo journaled with `payload` (`{"at": ms}`, or None) lands
    on, from `state` towards `target`; None: the target itself."""
    at = payload.get("at") if isinstance(payload, Mapping) else None
    land = getattr(rules, "landing", None)
    if land is None or not isinstance(at, int) or isinstance(at, bool):
        return None
    landed = land(state, target, at)
    return None if landed is target else landed


def replay(rules: Rules, setup: Mapping[str, Any], entries: Sequence[Entry]) -> History:
    """Rebuild the stacks from journal entries, applying every command again."""
    return replay_onto(History(rules.initial_state(setup)), rules, entries)


def replay_onto(history: History, rules: Rules, entries: Sequence[Entry]) -> History:
    """Apply journal entries to `history` (from the start, or from a snapshot)."""
    # A long replay allocates tens of thousands of small immutable records while the
    # stacks keep them all alive: the cyclic collector would rescan them again and again
    # for nothing (they hold no cycles), so it waits until the replay is done.
    collecting = gc.isenabled()
    gc.disable()
    try:
        for entry in entries:
            if entry.verb == "do":
                command = decode(rules.commands, entry.command or {})
                state = history.state
                after, events = rules.apply(state, command)
                history.do(Step(command, tuple(events), state, after))
            else:
                history.back(rules, entry.verb, entry.command)
    finally:
        if collecting:
            gc.enable()
    return history


def rebuild(rules: Rules, journal: Journal, game_id: int, setup: Mapping[str, Any],
            end: int | None = None, below: int | None = None) -> tuple[History, int, int]:
    """The stacks after the game's first `end` actions (all if None), from the newest
    snapshot before `below` that this code can read; the number of actions they cover,
    and where the snapshot used was taken (0: none, the initial state).
    A snapshot of another version, or one that does not decode, is passed over; the
    initial state is built only when no snapshot is used."""
    version = snapshot_version(rules.state_type)
    limit = below
    if end is not None:
        limit = end + 1 if limit is None else min(limit, end + 1)
    snap = journal.latest_snapshot(game_id, version, limit)
    return _rebuild_from(rules, journal, game_id, setup, snap, end)


def _rebuild_from(rules: Rules, journal: Journal, game_id: int, setup: Mapping[str, Any],
                  snap: Snapshot | None, end: int | None) -> tuple[History, int, int]:
    """`rebuild` from `snap`, the newest snapshot it may use (or an older one if that
    one does not decode, or the whole journal if the actions after it cannot be
    applied to it: a snapshot is never trusted more than the journal)."""
    root = rules.state_type
    while snap is not None:
        try:
            state = snapshot_decode(root, snap.state)
        except SnapshotError as exc:
            log.warning("game %s: snapshot at %s ignored: %s", game_id, snap.seq, exc)
            snap = journal.latest_snapshot(game_id, snap.version, snap.seq)
            continue
        seq = snap.seq

        def older(seq: int = seq) -> History:
            return rebuild(rules, journal, game_id, setup, end=seq, below=seq)[0]

        history = History(None, base=snap.done, base_state=state, older=older)
        entries = journal.entries_between(game_id, seq, end)
        try:
            replay_onto(history, rules, entries)
        except (DamagedRow, JournalError):
            raise  # the journal's own damage: a full replay would meet it too
        except Exception as exc:
            # the actions after it do not apply to the snapshot's state: it is not
            # the state they were played on; the whole journal says what is
            log.warning("game %s: snapshot at %s ignored: the actions after it do not"
                        " apply (%s)", game_id, seq, _why(exc))
            snap = None
            break
        return history, seq + len(entries), seq
    history = History(rules.initial_state(setup))
    entries = journal.entries_between(game_id, 0, end)
    replay_onto(history, rules, entries)
    return history, len(entries), 0


def _encoded(game_id: int, seq: int, done: int, state: Any) -> Snapshot | None:
    """The snapshot of `state` after the game's first `seq` actions, or None (logged)
    if it cannot be encoded: a snapshot never keeps an action from being played."""
    try:
        text = snapshot_codec.encode(state)
    except SnapshotError as exc:
        log.warning("game %s: no snapshot: %s", game_id, exc)
        return None
    return Snapshot(seq, done, snapshot_version(type(state)), text)


def _why(exc: Exception) -> str:
    message = getattr(exc, "message", None)
    return str(getattr(message, "key", "")) or f"{type(exc).__name__}: {str(exc)[:80]}"


@dataclass(frozen=True)
class _Held:
    """An action written but not yet committed, and what it takes to take it back."""

    verb: str
    command: Any
    counters: tuple[int, int]  # the session's action and snapshot counters before it
    dropped: tuple[Step, ...]  # the redo steps a "do" took


@dataclass(frozen=True)
class _InFlight:
    """An action handed to the writer thread, not known durable yet: the session's
    stacks and its observers get it only once it is (`settle`)."""

    verb: str
    command: Any
    events: tuple[Any, ...]
    state: Any  # the state after it
    step: Step | None  # a "do"'s new step
    counters: tuple[int, int]  # the session's action and snapshot counters before it
    ticket: Ticket
    landed: Any = None  # an undo's or redo's landing (`Rules.landing`), if any


@dataclass(frozen=True)
class NewGame:
    """A new game checked on the UI thread (its names, its setup, its initial state and
    summary), its row not written yet: `write` is the one commit (a writer job, so the
    UI thread never waits for the card), `open` the session once that row is durable."""

    rules: Rules
    setup: dict[str, Any]
    initial: Any
    summary: dict[str, Any]

    def write(self, journal: Journal) -> int:
        """The game's row (one commit, on whichever connection is given): its id."""
        return journal.create_game(self.rules.kind, dict(self.setup), self.summary)

    def open(self, journal: Journal, game_id: int) -> Session:
        """The game's session, its row `game_id` written (`journal`: the UI thread's)."""
        return Session(self.rules, journal, game_id, self.setup, History(self.initial), 0)


class Session:
    def __init__(
        self, rules: Rules, journal: Journal, game_id: int, setup: Mapping[str, Any],
        history: History, seq: int, snapshot_seq: int = 0,
    ) -> None:
        self.rules = rules
        self.journal = journal
        self.game_id = game_id
        self.setup = dict(setup)
        self._history = history
        self._seq = seq
        #: the journal holds a snapshot after this many actions (0: the initial state)
        self._snapshot_seq = snapshot_seq
        self.snapshot_every = SNAPSHOT_EVERY
        #: leave each action's transaction open until `settle` (the app settles just
        #: before swapping the frame that shows it): the frame is drawn while the disk
        #: syncs, and nothing is shown before it is durable
        self.hold_commits = False
        self._held: _Held | None = None
        #: the thread that makes actions durable (the app's): when set, an action is
        #: computed here, written there, and reaches the stacks and the observers only
        #: once its commit has ended (`settle`); `hold_commits` is then not used
        self.writer: Writer | None = None
        self._in_flight: _InFlight | None = None
        self._observers: list[Observer] = []

    # -- life cycle --------------------------------------------------------------
    @staticmethod
    def prepare(rules: Rules, setup: Mapping[str, Any]) -> NewGame:
        """A new game's pure part: a bad setup is refused here, before anything is
        written (RuleError, a name refused)."""
        check_setup_names(setup)  # a new game only: a replayed one keeps its names
        initial = rules.initial_state(setup)
        return NewGame(rules, dict(setup), initial, rules.summary(initial))

    @classmethod
    def start(cls, rules: Rules, journal: Journal, setup: Mapping[str, Any]) -> Session:
        """A new game, its row written here (the app writes it on its writer thread:
        `prepare`, then `NewGame.write` as a job)."""
        new = cls.prepare(rules, setup)
        return new.open(journal, new.write(journal))

    @classmethod
    def resume(cls, rules: Rules, journal: Journal, game_id: int,
               listed: GameRecord | None = None) -> Session:
        """The game as it was: its newest readable snapshot and the actions after it.
        A damaged game row, or a damaged action among those replayed, refuses the game
        (`DamagedRow`); a damaged action older than the snapshot is met only if the
        table undoes that far (the undo is then refused with that message). `listed` is
        the game's row as this journal gave it (`unfinished`, `game`): a start that has
        just listed the games does not read the row again (a setup never changes)."""
        def version() -> str:
            return snapshot_version(rules.state_type)

        # a damaged game row raises DamagedRow: listed in the history, never replayed
        if listed is None:
            setup, snap = journal.resume_point(game_id, version)
        else:
            if listed.id != game_id:
                raise ValueError(f"the row of game {listed.id} given to resume game {game_id}")
            if listed.damaged is not None:
                raise DamagedRow("core.error.damaged_game", game=game_id,
                                 reason=listed.damaged)
            setup, snap = listed.setup, journal.newest_snapshot(game_id, version)
        try:
            rules.check_resumable(setup)  # a snapshot spares the initial state
            history, seq, snapshot_seq = _rebuild_from(rules, journal, game_id, setup,
                                                       snap, None)
        except RuleError as exc:
            # a journal these rules cannot replay (written by another version, edited):
            # say which game and why, rather than a rule error that makes no sense here
            raise JournalError("core.error.replay", game=game_id, reason=exc.message) from exc
        return cls(rules, journal, game_id, setup, history, seq, snapshot_seq)

    # -- reading -----------------------------------------------------------------
    @property
    def state(self) -> Any:
        return self._history.state

    def can_undo(self) -> bool:
        return self._history.can_undo()

    def can_redo(self) -> bool:
        return self._history.can_redo()

    @property
    def steps(self) -> StepsView:
        """Every command done so far (the redo tail excluded), oldest first; read the
        newest ones, not all: those before a resumed game's snapshot are rebuilt when
        read."""
        return StepsView(self._history, self._history.cursor)

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
        self.settle()
        before = self.state
        after, events = self.rules.apply(before, command)
        events = tuple(events)
        if self.writer is not None:
            self._send("do", command, events, after, Step(command, events, before, after))
            return events
        counters = self._commit("do", encode(command), [encode(e) for e in events], after)
        dropped = self._history.do(Step(command, events, before, after))
        self._hold("do", command, counters, dropped)
        self._notify(Update("do", command, events, after))
        return events

    def undo(self, at: int | None = None) -> Any:
        """Back one step; `at`: when the table asked (rules with `landing` land the
        state on what really happened since, see the module)."""
        self.settle()
        step = self._history.peek_undo()
        payload = None if at is None else {"at": at}
        landed = landing(self.rules, self.state, step.before, payload)
        state = step.before if landed is None else landed
        if self.writer is not None:
            self._send("undo", step.command, (), state, landed=landed, payload=payload)
            return step.command
        counters = self._commit("undo", payload, [], state)
        self._history.undo(landed)
        self._hold("undo", step.command, counters)
        self._notify(Update("undo", step.command, (), state))
        return step.command

    def redo(self, at: int | None = None) -> Any:
        self.settle()
        step = self._history.peek_redo()
        payload = None if at is None else {"at": at}
        landed = landing(self.rules, self.state, step.after, payload)
        state = step.after if landed is None else landed
        if self.writer is not None:
            self._send("redo", step.command, step.events, state, landed=landed,
                       payload=payload)
            return step.command
        counters = self._commit("redo", payload, [], state)
        self._history.redo(landed)
        self._hold("redo", step.command, counters)
        self._notify(Update("redo", step.command, step.events, state))
        return step.command

    # -- holding a commit for its frame ---------------------------------------------
    def _hold(self, verb: str, command: Any, counters: tuple[int, int],
              dropped: Sequence[Step] = ()) -> None:
        if self.hold_commits:
            self._held = _Held(verb, command, counters, tuple(dropped))

    @property
    def holding(self) -> bool:
        """An action is written and waits for `settle`."""
        return self._held is not None

    # -- an action on the writer thread ----------------------------------------------
    def _send(self, verb: str, command: Any, events: tuple[Any, ...], state: Any,
              step: Step | None = None, *, landed: Any = None,
              payload: dict[str, Any] | None = None) -> None:
        """Hand the action's write to the writer thread; the stacks wait for its end."""
        assert self.writer is not None
        counters = (self._seq, self._snapshot_seq)
        derived = self._derived(state) if verb == "do" else None
        row = (self.game_id, self._seq, verb, encode(command) if verb == "do" else payload,
               [encode(e) for e in events] if verb == "do" else [],
               self.rules.summary(state), None)
        ticket = self.writer.submit(lambda journal: journal.append(*row), derived)
        self._seq += 1
        if derived is not None and derived.due:
            self._snapshot_seq = self._seq
        self._in_flight = _InFlight(verb, command, events, state, step, counters, ticket,
                                    landed)

    @property
    def in_flight(self) -> bool:
        """An action is with the writer and not yet settled (shown)."""
        return self._in_flight is not None

    @property
    def in_flight_command(self) -> Any | None:
        """The command of the action with the writer, if any."""
        return None if self._in_flight is None else self._in_flight.command

    @property
    def pending(self) -> tuple[str, Any] | None:
        """The verb and command of the action not settled yet (with the writer, or
        held open), if any: what a failed `settle` failed to save."""
        flight = self._in_flight
        if flight is not None:
            return flight.verb, flight.command
        held = self._held
        return None if held is None else (held.verb, held.command)

    @property
    def committed(self) -> bool:
        """The action with the writer has ended (durable or failed): `settle` will not
        wait."""
        return self._in_flight is not None and self._in_flight.ticket.done

    @property
    def in_flight_update(self) -> Update | None:
        """What the observers will be told once the action with the writer is durable
        (a screen may draw it meanwhile, and show it only then)."""
        flight = self._in_flight
        if flight is None:
            return None
        return Update(flight.verb, flight.command, flight.events, flight.state)

    def wait_for_sync(self, timeout: float) -> bool:
        """Wait up to `timeout` s for the action with the writer to be written with only
        its commit's sync left (or ended); True if it is."""
        flight = self._in_flight
        return flight is not None and flight.ticket.wait_syncing(timeout)

    def wait_for_commit(self, timeout: float) -> bool:
        """Wait up to `timeout` s for the action with the writer to end; True if it has
        (then `settle` will not wait)."""
        flight = self._in_flight
        return flight is not None and flight.ticket.wait(timeout)

    def _settle_flight(self, flight: _InFlight) -> None:
        flight.ticket.wait()
        self._in_flight = None
        if flight.ticket.error is not None:
            # never on the stacks nor shown: only the counters go back
            self._seq, self._snapshot_seq = flight.counters
            raise flight.ticket.error
        if flight.verb == "do":
            assert flight.step is not None
            self._history.do(flight.step)
        elif flight.verb == "undo":
            self._history.undo(flight.landed)
        else:
            self._history.redo(flight.landed)
        self._notify(Update(flight.verb, flight.command, flight.events, flight.state))

    def settle(self) -> None:
        """End the action in progress. With a `writer`: wait for its commit, then put it
        on the stacks and tell the observers; if the commit failed, the action was never
        there (nothing was shown) and the JournalError is raised.
        Without (`hold_commits`): commit the action held open. If the commit fails, the
        action is taken back as if never done, the observers are told (as the inverse
        action: "undo" for a "do" or a "redo", "redo" for an "undo", with no events) and
        the JournalError is raised."""
        if self._in_flight is not None:
            self._settle_flight(self._in_flight)
            return
        held, self._held = self._held, None
        if held is None:
            return
        try:
            self.journal.release()
        except JournalError:
            self._history.take_back(held.verb, held.dropped)
            self._seq, self._snapshot_seq = held.counters
            inverse = "redo" if held.verb == "undo" else "undo"
            self._notify(Update(inverse, held.command, (), self.state))
            raise

    def _commit(
        self, verb: str, command: dict[str, Any] | None, events: list[dict[str, Any]],
        state: Any,
    ) -> tuple[int, int]:
        """Write the action (held open if `hold_commits`); returns the counters as they
        were before it, to take it back."""
        before = (self._seq, self._snapshot_seq)
        snapshot = self._snapshot(state) if verb == "do" else None
        self.journal.append(
            self.game_id, self._seq, verb, command, events, self.rules.summary(state),
            snapshot, hold=self.hold_commits,
        )
        self._seq += 1
        if snapshot is not None:
            self._snapshot_seq = snapshot.seq
        return before

    def _derived(self, after: Any) -> Derived:
        """The snapshot of the state after this "do", for the writer: the state itself
        (immutable), encoded on the writer's thread once the action has committed, in a
        transaction of its own. Due every `snapshot_every` actions (taken when the table
        is quiet, or a tenth of a stride later if it never is); otherwise kept only for
        the game left and the close. After a "do"
        nothing is left to redo, so the snapshot needs only the state and the undo
        depth."""
        game_id, seq, done = self.game_id, self._seq + 1, self._history.cursor + 1

        def write(journal: Journal) -> None:
            snap = _encoded(game_id, seq, done, after)
            if snap is not None:
                journal.write_snapshot(game_id, snap)

        every = self.snapshot_every
        due = seq - self._snapshot_seq >= every
        # a table that has not paused since the last one was due: taken now, so a power
        # cut leaves a tail of a stride and a tenth at most to replay
        urgent = seq - self._snapshot_seq == max(1, every // 10)
        return Derived(("snapshot", game_id), write, due, urgent)

    def _snapshot(self, after: Any) -> Snapshot | None:
        """Without a writer (tools, tests, the app before its first frame: no other
        thread), the snapshot due goes with the "do" in its transaction."""
        if self._seq + 1 - self._snapshot_seq < self.snapshot_every:
            return None
        return _encoded(self.game_id, self._seq + 1, self._history.cursor + 1, after)

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
