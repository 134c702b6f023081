"""The clock beside a score pad game names a guest as the sheet does, in the language
on screen: a game set up in English ("Player 5"), reopened in French, shows "Joueur 5"
on the clock's headline and its seats, as on the sheet."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.games import rules_for
from companion.journal import Journal
from companion.session import Session
from tests import test_ui_clock
from tests.test_ui_clock import FakeClock

fake = test_ui_clock.fake  # the fake monotonic clock (a fixture)

pytestmark = [pytest.mark.ui, pytest.mark.usefixtures("instant_release")]


def english_guests_pad(path: Path, seats: int) -> None:
    from companion.games.pad import templates
    from companion.games.pad.template import to_data

    data = to_data(templates.load(own_dir=templates.BUILTIN_DIR / "none").get(
        "rounds-highest"))
    journal = Journal(path)
    Session.start(rules_for("pad"), journal, {
        "template": data, "players": [{"name": f"Player {s + 1}"} for s in range(seats)],
        "start_player": 4, "start_drawn": False})
    journal.close()


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_the_clock_beside_a_pad_names_guests_in_the_language_on_screen(
        launch: Any, fake: FakeClock, tmp_path: Path, size: tuple[int, int]) -> None:
    path = tmp_path / "night" / "journal.sqlite3"
    path.parent.mkdir()
    english_guests_pad(path, 5)
    ui = launch(language="fr", journal_file=path)
    assert ui.screen == "pad_play"
    ui.resize(*size)
    ui.tap("play.clock")
    assert ui.screen == "clock_setup"
    ui.tap("clocksetup.preset")
    ui.tap("clockpresets.chess-5m-3s")
    ui.tap("clocksetup.start")
    assert ui.screen == "clock_play"
    shown = ui.text("play.name")
    assert shown.startswith("Joueur "), shown
    seats = [ui.text(f"play.seat.{i}").split("\n")[0] for i in range(5)]
    assert seats == [f"Joueur {i + 1}" for i in range(5)], seats
    ui.screenshot(f"clock-beside-guests-fr-{size[0]}x{size[1]}")
    ui.resize(800, 480)
