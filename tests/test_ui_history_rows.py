"""History's rows at a full table: eight guests' scores and winners fit their row at
800x480 and 1280x720, a name and its score are told apart ("Player 1: 0", not
"Player 1 0"), and two winners are "winners" ("gagnants")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.games import rules_for
from companion.games.pad import commands as pc
from companion.journal import Journal
from companion.night import roster
from companion.session import Session
from tests.test_night_support import EPOCH, set_times

pytestmark = pytest.mark.ui

NBSP = "\u00a0"


def guests_game(journal: Journal, seats: int, template: str = "rounds-highest") -> int:
    """A score pad game of `seats` guests (nobody named), every one scoring 0."""
    from companion.games.pad import templates
    from companion.games.pad.template import to_data

    data = to_data(templates.load(own_dir=templates.BUILTIN_DIR / "none").get(template))
    session = Session.start(rules_for("pad"), journal, {
        "template": data, "players": [{"name": f"Player {s + 1}"} for s in range(seats)],
        "start_player": 0, "start_drawn": False})
    roster.link_game(journal, session.game_id)
    for seat in range(seats):
        session.dispatch(pc.SetCell(seat, 0, None, "0"))
    session.dispatch(pc.End())
    set_times(journal, session.game_id, EPOCH, 40)
    return session.game_id


@pytest.mark.parametrize("language", ["en", "fr"])
def test_eight_guests_fit_their_history_row_named_apart_from_their_scores(
        launch: Any, tmp_path: Path, language: str) -> None:
    from tests.legibility import problems

    path = tmp_path / "night" / "journal.sqlite3"
    path.parent.mkdir()
    journal = Journal(path)
    eight, two = guests_game(journal, 8), guests_game(journal, 2)
    journal.close()
    ui = launch(language=language, journal_file=path)
    ui.tap("home.history")
    guest, winners = {"en": ("Player", "winners: "), "fr": ("Joueur", f"gagnants{NBSP}: ")
                      }[language]
    colon = ":" if language == "en" else f"{NBSP}:"
    for game in (eight, two):
        ui.wait_until(lambda game=game: ui.visible(f"history.game.{game}") is not None)
        row = ui.text(f"history.game.{game}")
        plain = row.replace(NBSP, " ")
        assert f"{guest} 1{colon.replace(NBSP, ' ')} 0" in plain, row
        assert f"{guest} 2{colon.replace(NBSP, ' ')} 0" in plain, row
        assert winners.replace(NBSP, " ") + f"{guest} 1, {guest} 2" in plain, row
    for size in ((800, 480), (1280, 720)):
        ui.resize(*size)
        ui.pump(3)
        assert problems(ui.app.root) == [], size
        ui.screenshot(f"history-eight-guests-{language}-{size[0]}x{size[1]}")
    ui.resize(800, 480)
