"""Every game's setup page alike (issue 29): the same kind of title, Add and From
roster in the same place; Pr. Evil's drawn first player stays drawn as seats come.
Real touches only."""

from __future__ import annotations

from typing import Any

import pytest

from tests.uidriver import Driver

pytestmark = pytest.mark.ui


def place(ui: Driver, tid: str) -> tuple[float, float, float, float]:
    widget = ui.find(tid)
    x, y = widget.to_window(*widget.pos)
    return round(x), round(y), round(widget.width), round(widget.height)


@pytest.mark.parametrize(("language", "ending"), [("en", ": new game"),
                                                  ("fr", " : nouvelle partie")])
def test_every_setup_page_is_laid_out_alike(launch: Any, language: str, ending: str) -> None:
    ui = launch(language=language)
    places = {}
    for game in ("evil", "castor", "bond"):
        ui.tap(f"home.game.{game}")
        assert ui.text("setup.title").endswith(ending), ui.text("setup.title")
        # the first seat's name starts in the same place (its width leaves room for
        # the game's own choice: a character, an agent)
        places[game] = (place(ui, "setup.add"), place(ui, "setup.roster"),
                        place(ui, "setup.name.0")[:2], place(ui, "setup.start"))
        ui.screenshot(f"setup-{game}-{language}")
        ui.tap("setup.back")
    assert places["evil"] == places["castor"] == places["bond"], places


def test_adding_a_seat_keeps_the_first_player_drawn(launch: Any) -> None:
    ui = launch(seed=7)
    ui.tap("home.game.evil")
    drawn = ui.text("setup.first")
    assert "drawn at random" in drawn
    for _ in range(3):
        ui.tap("setup.add")
        assert ui.text("setup.first") == drawn  # no new draw at each tap
    ui.tap("setup.start")
    first = drawn.rsplit(": ", 1)[1]
    assert ui.app.session.state.current_player.name == first


SETUPS = {"evil": "setup", "castor": "setup", "bond": "setup", "pad": "setup",
          "clock": "clocksetup"}


@pytest.mark.parametrize(("language", "ending", "add"), [
    ("en", ": new game", "Add a player"), ("fr", " : nouvelle partie", "Ajouter un joueur")])
@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_every_game_s_setup_has_the_same_title_and_buttons(
        launch: Any, language: str, ending: str, add: str, size: tuple[int, int]) -> None:
    """The score pad's and the clock's set-ups too: "<game>: new game", the same Add a
    player, From roster and Start, every label whole."""
    from tests.legibility import problems

    ui = launch(language=language)
    ui.resize(*size)
    said: dict[str, tuple[str, str, str]] = {}
    for game, tid in SETUPS.items():
        ui.tap(f"home.game.{game}")
        assert ui.text(f"{tid}.title").endswith(ending), ui.text(f"{tid}.title")
        ui.pump(2)
        assert not ui.find(f"{tid}.title").is_shortened, ui.text(f"{tid}.title")  # whole
        said[game] = (ui.text(f"{tid}.add"), ui.text(f"{tid}.roster"), ui.text(f"{tid}.start"))
        assert problems(ui.app.root) == [], (game, size)
        ui.screenshot(f"setup-buttons-{game}-{language}-{size[0]}x{size[1]}")
        ui.tap(f"{tid}.back")
    assert said["evil"][0] == add, said
    assert len(set(said.values())) == 1, said
    ui.resize(800, 480)
