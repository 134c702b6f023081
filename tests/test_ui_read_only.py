"""The real app under Xvfb on a read-only card (issue 33, item 6): the start says the
card is read-only and what to do, the games can be looked at (History, a log), and a
write is refused with the same words; in English and in French. The card is a
read-only bind mount when the tests run as root (tests/helpers/read_only.py)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest

from companion.night import history
from tests.helpers.read_only import read_only
from tests.test_night_damaged import a_night


def _digest(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir()}


@pytest.mark.parametrize(("language", "said"), [
    ("en", "is read-only: worn SD cards often turn read-only"),
    ("fr", "est en lecture seule : les cartes SD usées le deviennent souvent"),
])
def test_the_app_on_a_read_only_card_shows_the_games_and_says_what_to_do(
        launch: Any, tmp_path: Path, language: str, said: str) -> None:
    card = tmp_path / "card"
    _, ids = a_night(card)
    before = _digest(card)
    with read_only(card):
        ui = launch(language=language, journal_file=card / "journal.sqlite3")
        assert ui.dialog == "journal_read_only"
        assert said in ui.text("journal_read_only.text")
        assert "journal.sqlite3" in ui.text("journal_read_only.text")
        ui.screenshot(f"journal-read-only-card-{language}-800x480")
        ui.tap("journal_read_only.ok")
        ui.app.leave_game()
        ui.pump(5)
        ui.tap("home.history")  # looking works
        assert len(history.games(ui.app.journal)) == len(ids)
        ui.tap(f"history.game.{ids['castor']}")
        assert ui.text("log.line.0").startswith("1. ")
        ui.screenshot(f"journal-read-only-card-log-{language}-800x480")
        ui.tap("log.back")
        ui.tap("history.back")
        ui.tap(f"home.abandon.{ids['bond']}")  # writing is refused, with the reason
        ui.tap("abandon.yes")
        assert ui.dialog == "error" and said in ui.text("error.text")
        ui.tap("error.ok")
        ui.app.journal.close()  # the card is let go before it is unmounted
        assert _digest(card) == before
    assert _digest(card) == before
