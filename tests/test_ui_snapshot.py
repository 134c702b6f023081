"""The real app under Xvfb started on a game whose newest snapshot is damaged (issue 33,
item 3: a seq off by one bit skipped 59 acknowledged actions and the app died at every
start): it resumes the game a full replay gives, plays on, and starts again on it."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from companion.games import rules_for
from companion.journal import FILE_NAME, Journal
from companion.session import Session, replay
from tests.helpers.evil import setup as evil_setup
from tests.test_core_snapshots import _play_one
from tests.test_ui_evil import answer_dialogs

pytestmark = pytest.mark.ui

DAMAGES = {
    "seq off by one bit": "UPDATE snapshots SET seq = (seq | 16) - (seq & 16)",
    "done one more": "UPDATE snapshots SET done = done + 1",
    "state nested 100 000 deep": "UPDATE snapshots SET state = substr(state, 1, 17) ||"
        " replace(hex(zeroblob(50000)), '00', '[') || replace(hex(zeroblob(50000)), '00', ']')",
    "a field of the wrong type": "UPDATE snapshots SET state = replace(state, '\"turn\":',"
        " '\"turn\":\"x\",\"_\":')",
}


def _full(path: Path, game: int) -> Any:
    journal = Journal(path)
    try:
        return replay(rules_for("evil"), journal.game(game).setup, journal.entries(game))
    finally:
        journal.close()


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_the_app_starts_on_a_game_with_a_damaged_snapshot(launch: Any, tmp_path: Path,
                                                         damage: str) -> None:
    path = tmp_path / FILE_NAME
    journal = Journal(path)
    played = Session.start(rules_for("evil"), journal, evil_setup(seed=11, rules_version=2))
    played.snapshot_every = 4
    while played._seq < 15:
        _play_one(played)
    assert played.state.outcome is None  # unfinished: the app resumes it at start
    assert len(journal.read("SELECT seq FROM snapshots")) >= 3
    game, state = played.game_id, played.state
    journal.close()
    db = sqlite3.connect(path)
    db.execute(DAMAGES[damage] + " WHERE seq = (SELECT MAX(seq) FROM snapshots)")
    db.commit()
    db.close()

    ui = launch(journal_file=path)
    assert ui.screen == "evil_play" and ui.dialog is None  # no error, no problem screen
    assert ui.app.session.game_id == game
    full = _full(path, game)
    assert ui.app.session.state == full.state == state
    assert ui.text("play.turn").startswith(f"Turn {state.turn}:")
    ui.screenshot(f"snapshot-damaged-start-{damage.split()[0]}-800x480")
    ui.tap("play.roll")  # plays on: the action lands where it belongs
    answer_dialogs(ui, 30)
    after = ui.app.session.state
    assert after != state and _full(path, game).state == after

    ui = launch(journal_file=path)  # and the next start resumes that
    assert ui.screen == "evil_play" and ui.app.session.state == after
