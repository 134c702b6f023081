"""The score pad's fairness (issue 46, items 9 and 10) through the real app under Xvfb,
by simulated touches only, at 800x480 and 1280x720, in English and French: a derived
cell says what was typed and what it scores, a tie won on a tie-breaker says so, a
blank in an earlier round keeps the game from ending."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.test_ui_pad_categories import choose
from tests.test_ui_pad_rounds import cell, enter, totals
from tests.uidriver import Driver

pytestmark = [pytest.mark.ui, pytest.mark.usefixtures("instant_release")]

SIZES = [(800, 480), (1280, 720)]
#: two players tied at 51, Player 1 with 11 coins, Player 2 with 9 (by hand:
#: 3 + 11//3=3 + 5 + 23 + 0 + 7 + (1+1+1 + 7) = 51; 5 + 9//3=3 + 10 + 20 + 3 + 0 + 10 = 51)
TIED_51 = {"military": (3, 5), "coins": (11, 9), "wonder": (5, 10), "civilian": (23, 20),
           "commerce": (0, 3), "guilds": (7, 0), "gear": (1, 1), "tablet": (1, 1),
           "compass": (1, 1)}
SAID = {
    "en": {"treasury": "Treasury (coins)", "coins": ("11 coins → 3", "9 coins → 3"),
           "ahead": "Player 1 is ahead on coins, 11 to 9",
           "won": "Player 1 wins the tie on coins, 11 to 9", "title": "Player 1 wins"},
    "fr": {"treasury": "Trésor (pièces)", "coins": ("11 pièces → 3", "9 pièces → 3"),
           "ahead": "Joueur 1 passe devant à égalité (pièces, 11 à 9)",
           "won": "Joueur 1 remporte l’égalité (pièces, 11 à 9)", "title": "Joueur 1 gagne"},
}


def started(launch: Any, language: str, size: tuple[int, int]) -> Driver:
    ui = launch(language=language)
    if size != (800, 480):
        ui.resize(*size)
    return ui


def audit(ui: Driver, language: str, size: tuple[int, int]) -> list[str]:
    """What the screen audit (tests/screen_audit.py) finds on the screen on show."""
    from tests import screen_audit

    screen = ui.app.root.current_screen
    found = screen_audit.audit(screen, ui.screen, language, scale=ui.app.scale,
                               shown=ui.screen)
    return [v.line(language, f"{size[0]}x{size[1]}") for v in found]


def plain(ui: Driver, tid: str) -> str:
    """A label's text as read on the screen: its markup (the arrow's font) taken out."""
    widget = ui.find(tid)
    if not widget.markup:
        return str(widget.text)
    text = re.sub(r"\[/?font[^\]]*\]", "", widget.text)
    return text.replace("&bl;", "[").replace("&br;", "]").replace("&amp;", "&")


def on_page(ui: Driver, row: str, seat: int) -> str:
    """The cell of the row labelled `row`, paging up to it if need be."""
    for _ in range(5):
        try:
            return cell(ui, row, seat)
        except AssertionError:
            if not ui.has("sheet.up") or ui.visible("sheet.up") is None:
                raise
            ui.tap("sheet.up")
    return cell(ui, row, seat)


@pytest.mark.parametrize("size", SIZES, ids=["800x480", "1280x720"])
@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_treasury_cell_shows_the_coins_and_the_tie_on_coins_is_said(
        launch: Any, language: str, size: tuple[int, int]) -> None:
    """7 Wonders' rules: Treasury, "1 victory point per full 3 coins"; "In case of a
    tie, the player with the most coins in his or her treasury is the winner". Issue 46:
    "9 coins and 11 coins both read 3 ... Two players tie at 51, one is first, and no
    screen, end page or log line says why"."""
    said = SAID[language]
    ui = started(launch, language, size)
    ui.tap("home.game.pad")
    choose(ui, "7-wonders")
    ui.tap("setup.start")
    assert ui.screen == "pad_play", ui.dialog
    for values in TIED_51.values():
        for value in values:
            enter(ui, str(value))
    assert totals(ui, 2) == ["51", "51"]
    first = on_page(ui, said["treasury"], 0)
    second = on_page(ui, said["treasury"], 1)
    assert (plain(ui, first), plain(ui, second)) == said["coins"]
    # tapped, the keypad says the coins too: a correction types coins
    ui.tap(first)
    assert plain(ui, "keypad.typed") == said["coins"][0]
    assert ui.text("keypad.preview") == ui.app.tr("pad.ui.type_to_correct")
    assert audit(ui, language, size) == []
    ui.screenshot(f"pad-treasury-{language}-{size[0]}x{size[1]}")
    ui.tap("play.standings")
    assert [ui.text(f"standings.rank.{i}") for i in range(2)] == ["1", "2"]
    assert [ui.text(f"standings.total.{i}") for i in range(2)] == ["51", "51"]
    assert ui.text("standings.name.0") == ("Joueur 1" if language == "fr" else "Player 1")
    assert ui.text("standings.tie") == said["ahead"]
    assert audit(ui, language, size) == []
    ui.screenshot(f"pad-tie-standings-{language}-{size[0]}x{size[1]}")
    ui.tap("standings.end")
    assert ui.screen == "pad_end" and ui.dialog is None
    assert ui.text("end.title") == said["title"]
    assert ui.text("end.story.0") == said["won"]
    ui.screenshot(f"pad-tie-end-{language}-{size[0]}x{size[1]}")
    ui.tap("end.sheet")
    ui.tap("play.standings")
    assert ui.text("standings.tie") == said["won"]
    ui.screenshot(f"pad-tie-standings-ended-{language}-{size[0]}x{size[1]}")


@pytest.mark.parametrize("size", SIZES, ids=["800x480", "1280x720"])
def test_a_blank_in_round_1_keeps_the_game_from_ending(launch: Any,
                                                       size: tuple[int, int]) -> None:
    """Issue 46, item 10: "clear one cell of round 1 after three complete rounds; End
    is accepted, the winner changes". A blank is never a zero: End names it."""
    ui = started(launch, "en", size)
    ui.tap("home.game.pad")
    ui.tap("setup.start")  # the ad-hoc pad: two players, rounds, the highest wins
    for value in ("9", "1", "2", "3", "2", "3"):
        enter(ui, value)
    assert totals(ui, 2) == ["13", "7"]
    ui.tap(on_page(ui, "1", 0))
    ui.tap("keypad.del")  # nothing typed: the cell goes back to blank
    assert ui.text(on_page(ui, "1", 0)) == "?"
    ui.tap("play.standings")
    assert ui.text("standings.status") == \
        "No score yet in round 1: Player 1 (a blank is not a zero)"
    ui.tap("standings.end")
    assert ui.dialog == "error"
    assert ui.text("error.text").startswith(
        "Round 1 is not complete; no score yet for Player 1")
    ui.tap("error.ok")
    assert not ui.app.session.state.finished
