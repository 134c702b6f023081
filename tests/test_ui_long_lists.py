"""Long rosters in the real app: an earlier version's 10 000-character names and a club's
10 000 players open the Players screen and the roster picker with the rows a screen
holds, not one widget per player, and every name as a typed one would read.

Counted, not timed (the time is `bench/long_lists.py`'s): the rows built, the rows
read in the frame that opens a list, the longest text drawn."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pytest

from companion.journal import Journal, fold_name
from companion.names import NAME_MAX, check_name
from companion.night import roster

pytestmark = pytest.mark.ui

#: rows of 56 px under a 56 px header at 800x480: 7 in view, and as many kept aside by
#: the RecycleView for reuse after a jump; never one per player
MOST_ROWS = 16


def legacy_roster(path: Path, names: list[str]) -> None:
    """Roster rows as an earlier version (or a restored backup of one) left them."""
    journal = Journal(path)
    with journal.writing() as db:
        db.executemany("INSERT INTO players(name, folded, created) VALUES (?, ?, ?)",
                       [(n, fold_name(n), 0.0) for n in names])
    journal.close()


LONG = [f"{chr(65 + i % 26)}\u202e\x00{i:02d}" + "x" * 10_000 + "\x1b[31m" for i in range(30)]
CLUB = [f"Player {i:05d}" for i in range(10_000)]


def built(kind: type) -> int:
    """Every live widget of this class, shown or kept aside for reuse."""
    gc.collect()
    return sum(type(o) is kind for o in gc.get_objects())


def open_players(ui: Any) -> Any:
    ui.tap("home.players")
    assert ui.screen == "night_roster"
    return ui.app.root.get_screen("night_roster").players_list


def feed_all(ui: Any, long_list: Any) -> None:
    ui.wait_until(lambda: long_list.complete, timeout=60)
    ui.pump(3)


def shown_names(ui: Any) -> list[str]:
    from ui.screens.night.roster import PlayerRow

    rows = [w for w in ui.app.root.walk() if isinstance(w, PlayerRow)
            and w.get_root_window() is not None]
    return [row.name_button.text for row in rows]


def test_thirty_legacy_names_of_10000_characters(launch: Any, tmp_path: Path) -> None:
    from ui.screens.night.roster import PlayerRow

    path = tmp_path / "journal.sqlite3"
    legacy_roster(path, LONG)
    ui = launch(journal_file=path)
    players = open_players(ui)
    feed_all(ui, players)
    assert len(players.data) == 30
    names = shown_names(ui)
    assert names and all(check_name(n) is None and len(n) <= NAME_MAX for n in names)
    assert ui.text("players.0.name") == ("A00" + "x" * 10_000)[:NAME_MAX]
    assert built(PlayerRow) <= MOST_ROWS
    # every text the screen draws is one line of a name, not 10 000 characters wrapped
    from kivy.core.window import Window

    for row in (w for w in ui.app.root.walk() if isinstance(w, PlayerRow)):
        assert row.name_button.texture_size[1] < Window.height / 4
    ui.screenshot("night-players-legacy-names-800x480")
    # renamed from the row's tidied name; the others are kept as they are
    ui.tap("players.0.name")
    assert ui.text("keyboard.value") == names[0]
    ui.tap("keyboard.cancel")
    # the roster picker: the same names, the same few buttons
    ui.tap("players.back")
    ui.tap("home.game.bond")
    ui.tap("setup.roster")
    assert ui.dialog == "roster"
    from ui.widgets.roster_picker import PickRow

    feed_all(ui, ui.app.dialog.players_list)
    ui.tap("roster.pick.0")
    ui.tap("roster.pick.1")
    assert ui.text("roster.pick.1") == "2. " + names[1]  # "A26xxx...", as listed
    assert built(PickRow) <= MOST_ROWS
    ui.tap("roster.ok")
    assert ui.text("setup.name.0") == ("A00" + "x" * 10_000)[:NAME_MAX]
    ui.tap("setup.start")  # the tidied names start a game: none is refused
    assert ui.screen == "bond_play"


def test_ten_thousand_players(launch: Any, tmp_path: Path) -> None:
    from ui.screens.night.roster import PlayerRow
    from ui.widgets.roster_picker import PickRow

    path = tmp_path / "journal.sqlite3"
    legacy_roster(path, CLUB)
    journal = Journal(path)
    roster.retire(journal, roster.players(journal)[-1].id)  # the last one retired
    journal.close()
    ui = launch(journal_file=path)
    read: list[int] = []
    pages = roster.pages

    def counted(*args: Any, **kwargs: Any) -> Any:
        for page in pages(*args, **kwargs):
            read.append(len(page))
            yield page

    from ui.screens.night import roster as roster_screen

    roster_screen.roster.pages = counted  # type: ignore[attr-defined]
    try:
        ui.app.root.current = "night_roster"  # the frame that opens the screen
        players = ui.app.root.get_screen("night_roster").players_list
        assert read == [roster.PAGE]  # one page read in it, the rest a page a frame
        assert len(players.data) == roster.PAGE
    finally:
        roster_screen.roster.pages = pages  # type: ignore[attr-defined]
    feed_all(ui, players)
    assert len(players.data) == 10_001  # every player and the retired heading
    assert ui.text("players.0.name") == "Player 00000"
    assert built(PlayerRow) <= MOST_ROWS
    players.scroll_y = 0  # to the end: the retired player, under its heading
    ui.pump(4)
    assert shown_names(ui)[-1] == "Player 09999"
    assert ui.text("players.9999.retire") == "Bring back"
    assert built(PlayerRow) <= MOST_ROWS
    ui.screenshot("night-players-10000-end-800x480")
    ui.tap("players.9999.retire")  # brought back: the list is read again, in order
    feed_all(ui, ui.app.root.get_screen("night_roster").players_list)
    assert roster.players(ui.app.journal)[-1].retired is False
    ui.tap("players.back")
    ui.tap("home.game.bond")
    ui.tap("setup.roster")
    picker = ui.app.dialog.players_list
    feed_all(ui, picker)
    assert len(picker.data) == 3334  # rows of three
    assert built(PickRow) <= MOST_ROWS
    picker.scroll_y = 0
    ui.pump(4)
    ui.tap("roster.pick.9999")
    ui.tap("roster.pick.9998")
    assert ui.text("roster.pick.9999") == "1. Player 09999"
    ui.tap("roster.pick.9999")  # out again: the other takes the first seat
    assert ui.text("roster.pick.9998") == "1. Player 09998"
    assert ui.text("roster.pick.9999") == "Player 09999"


def test_an_older_game_with_such_names_plays_with_them_tidied(launch: Any,
                                                              tmp_path: Path) -> None:
    """A Bond game an earlier version started with a 10 000-character name and one
    with NUL and a tab: reopened, every text names them as typed names read, and the
    game plays on (its commands keep the names the game holds)."""
    from companion.games import rules_for
    from companion.session import Session
    from tests.test_night_support import params

    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    long, hidden = "Eve\u202e\x1b[31m" + "y" * 10_000, "Nul\x00l\tTab"
    game = journal.create_game("bond", {"params": params("bond"), "seed": 1,
                                        "players": [{"name": long}, {"name": hidden}]}, {})
    Session.resume(rules_for("bond"), journal, game)
    journal.close()
    ui = launch(journal_file=path)
    ui.wait_until(lambda: ui.screen == "bond_play")
    tidy = ("Eve[31m" + "y" * 10_000)[:NAME_MAX]
    assert ui.text("play.player.0.name") == tidy
    assert ui.text("play.player.1.name") == "Null Tab"
    ui.tap("play.player.1.add_lair")
    assert ui.dialog == "lair" and "Null Tab" in ui.text("lair.title")
    ui.tap("lair.add.3")
    ui.tap("play.player.1.attack")
    assert ui.text("attack.by.0") == tidy
    ui.screenshot("bond-legacy-names-attack-800x480")
    ui.tap("attack.by.0")
    ui.tap("attack.spy.3")
    ui.tap("attack.send")
    ui.tap("capture.kill")
    ui.tap("play.end")
    ui.tap("end_confirm.ok")
    assert ui.screen == "bond_end"
    assert ui.app.session.state.players[0].name == long  # the game keeps its own
    shown = {ui.text("end.name.0"), ui.text("end.name.1")}
    assert shown == {tidy, "Null Tab"}
