"""Entering a value on the score pad to the player's new total on screen, through the
real app, on a sheet of 8 players and 50 rounds, beside the bare Kivy app's label update
(issue 30: p99 within 1.5x the bare app's).

The harness is ROLL's (`bench.roll_ui`): child processes per app (three each by default,
interleaved: ours, bare, bare with our window settings, ours, ...; the samples pooled),
Kivy's frame pacing off, window-level touches. The game (the ad-hoc pad, 8 players, 50
complete rounds) is written to the journal first and reopened by the app, as after a
power cut. Each sample types a digit on the keypad (not timed), then runs from the
release of the touch on Enter to the end of the first buffer swap after the session told
its observers (once the journal committed the `SetCell`) with the player's new total on
the sheet's label. The sheet draws the entry while the card syncs it
(`CompanionApp._draw_early`) and the session tells its observers just before that
frame's swap, once the commit has ended: a frame never shows the entry before it is
durable.
The bare app is `roll_ui.run_bare`: a Button that sets a Label's text, in Kivy's
default window and with our window settings (no multisampling: like for like).

    xvfb-run -a .venv/bin/python bench/pad_enter.py [--entries 300] [--parts 3]
(`make bench` runs it with 900 entries per app, in three processes each: a p99 of 150
samples is their second-highest, decided by two stray frames; of 900, the ninth.)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import label_update  # noqa: E402
from bench.roll_ui import WARMUP_ROLLS, Timing, _prepare_kivy, press  # noqa: E402

PLAYERS, ROUNDS = 8, 50


def prepare(path: Path) -> int:
    """The game in the journal: 8 players, 50 complete rounds (some cells added up)."""
    from companion.games.pad import commands as c
    from companion.games.pad.rules import RULES
    from companion.games.pad.template import to_data
    from companion.games.pad.templates import load
    from companion.journal import Journal
    from companion.session import Session

    template = load(own_dir=Path("/nonexistent")).get("rounds-highest")
    assert template is not None
    journal = Journal(path)
    session = Session.start(RULES, journal, {
        "template": to_data(template), "start_player": 0,
        "players": [{"name": f"Player {i + 1}"} for i in range(PLAYERS)]})
    for r in range(ROUNDS):
        for seat in range(PLAYERS):
            text = f"{(r * 7 + seat * 3) % 40}+{seat}" if (r + seat) % 3 else str(r % 9)
            session.dispatch(c.SetCell(seat, r, None, text))
    journal.close()
    return session.game_id


def run_ours(entries: int, data_dir: Path) -> dict[str, Any]:
    cfg = _prepare_kivy(ours=True)
    from kivy.base import EventLoop

    from bench.apps import FlipProbe
    from companion.games.pad import commands as c
    from companion.games.pad.outcome import outcome
    from companion.journal import Journal
    from tests.uidriver import Driver
    from ui.app import CompanionApp
    from ui.memory import settle_memory
    from ui.screens.pad.common import number
    from ui.widgets.basics import find

    syncs = _time_syncs()
    game = prepare(data_dir / "journal.sqlite3")
    journal = Journal(data_dir / "journal.sqlite3")
    app = CompanionApp(cfg, journal, new_seed=lambda: 1)
    app._run_prepare()  # reopens the unfinished game on its sheet
    ui = Driver(app)
    ui.pump(2)
    ui.wait_until(lambda: app.writer is not None)
    settle_memory()  # as `companion` does after its first frame
    session = app.session
    assert session is not None and session.game_id == game
    screen = app.root.get_screen("pad_play")
    enter = find(screen, "keypad.enter")
    marks = Timing()
    probe = FlipProbe(marks.frame, clock=time.perf_counter)
    probe.install()

    seen: dict[str, Any] = {}

    def observe(update: Any) -> None:
        if update.verb == "do" and isinstance(update.command, c.SetCell):
            seat = update.command.seat
            # what the sheet shows once laid out: the player's total on its label, checked
            # against the state's once the sample is taken (the check is not the app's
            # work: a bare Label's is a comparison)
            seen.update(text=screen.sheet.total_labels[seat].text, state=update.state,
                        seat=seat)
            marks.update(True)

    session.subscribe(observe)  # after the app's own observer: the labels are set
    shown: list[float] = []
    commit: list[float] = []
    wrong = 0
    for n in range(entries + WARMUP_ROLLS):
        ui.wait_until(lambda: not app.busy)
        ui.tap(f"keypad.{n % 10}", settle=False)
        ui.pump(1)
        seen.clear()
        to_update, to_frame = press(enter, marks, EventLoop)
        if n >= WARMUP_ROLLS:
            commit.append(to_update)
            shown.append(to_frame)
            total = number(outcome(seen["state"]).totals[seen["seat"]]) if seen else None
            wrong += not seen or seen["text"] != total
    journaled = len(journal.entries(session.game_id))
    app.close_dialog()
    return {"commit_s": commit, "shown_s": shown, "labels_wrong": wrong,
            "journaled": journaled, "sync_s": syncs[-entries:]}


def _time_syncs() -> list[float]:
    """The seconds of each commit's COMMIT on the writer thread, in order: from its
    statements written to its end, i.e. the disk's sync and then the wait for the
    interpreter's lock (held by the UI thread while it draws the entry); its tail is
    the disk's stalls."""
    from companion.writer import Ticket

    syncs: list[float] = []
    begun: dict[int, float] = {}
    begin, finish = Ticket._begin_sync, Ticket._finish

    def timed_begin(ticket: Ticket) -> None:
        begun[id(ticket)] = time.perf_counter()
        begin(ticket)

    def timed_finish(ticket: Ticket, error: BaseException | None) -> None:
        start = begun.pop(id(ticket), None)
        if start is not None:
            syncs.append(time.perf_counter() - start)
        finish(ticket, error)

    Ticket._begin_sync = timed_begin  # type: ignore[method-assign]
    Ticket._finish = timed_finish  # type: ignore[method-assign]
    return syncs


def main(argv: list[str] | None = None) -> int:
    return label_update.main(
        __file__, argv, run_ours=run_ours, description=__doc__, option="entries", default=900,
        heading=f"a value entered to its total shown, {PLAYERS} players x {ROUNDS} rounds, "
                "{n} each",
        ours_rows=(("our app: Enter, SetCell journaled, the new total shown", "shown_s"),
                   ("our app: Enter to the observers told (journaled, labels set)",
                    "commit_s"),
                   ("the writer's COMMIT: its sync, then the interpreter's lock back",
                    "sync_s")))


if __name__ == "__main__":
    sys.exit(main())
