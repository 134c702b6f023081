"""Home speaks the language on screen: an unfinished score pad game is named by its
template's own name in that language ("Manches : le plus haut gagne"), not by the
English one its summary keeps."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.journal import Journal
from companion.night import roster
from tests.test_night_pad import rounds
from tests.test_night_support import pad

pytestmark = pytest.mark.ui


@pytest.mark.parametrize(("language", "name", "other"), [
    ("fr", "Manches : le plus haut gagne", "Rounds: highest wins"),
    ("en", "Rounds: highest wins", "Manches : le plus haut gagne"),
])
def test_home_names_an_unfinished_pad_game_by_its_translated_template(
        launch: Any, tmp_path: Path, language: str, name: str, other: str) -> None:
    from tests.legibility import problems

    path = tmp_path / "night" / "journal.sqlite3"
    path.parent.mkdir()
    journal = Journal(path)
    ids = [roster.add(journal, n).id for n in ("Anne", "Hélène")]
    game = pad(journal, ids, "rounds-highest", rounds((3, 5), end=False))
    journal.close()
    ui = launch(language=language, journal_file=path)
    assert ui.screen == "pad_play"  # the start reopens the game left open
    ui.tap("play.home")
    assert ui.screen == "home"
    text = ui.text(f"home.resume.{game}")
    assert name in text and other not in text, text
    for size in ((800, 480), (1280, 720)):
        ui.resize(*size)
        assert problems(ui.app.root) == [], size
        ui.screenshot(f"home-pad-template-{language}-{size[0]}x{size[1]}")
    ui.resize(800, 480)
