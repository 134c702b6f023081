"""The score pad's sheet read from a seat (issue 46, items 11 and 12), through the real
app under Xvfb by simulated touches: eight players with four-digit scores at 800x480
and 1280x720, the headline at the key-figure size, cells and totals at 20 px capitals
on one line, names told apart; the drawn start player marked and the clock added from
the sheet starting with them; a team game's team totals; a co-operative sheet without
meaningless zeros; the standings and the sheet one tap apart, End on the sheet."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.uidriver import Driver

pytestmark = [pytest.mark.ui, pytest.mark.usefixtures("instant_release")]

EIGHT = ("Christophe", "Christine", "Anne", "Bob", "Chloé", "Dan", "Élodie", "Maximilien")
START = 4  # Chloé, drawn


def _eight(tmp_path: Path) -> tuple[Path, int]:
    """A journal with eight players four rounds into a highest-wins pad, every total in
    four digits, round 5 waiting for Bob, Chloé and Dan."""
    from companion.games.pad import commands as c
    from companion.games.pad.rules import RULES
    from companion.journal import Journal
    from companion.session import Session
    from tests.pad_helpers import template

    path = tmp_path / "eight" / "journal.sqlite3"
    path.parent.mkdir()
    journal = Journal(path)
    setup = {"template": template("rounds-highest"),
             "players": [{"name": name} for name in EIGHT],
             "start_player": START, "start_drawn": True}
    session = Session.start(RULES, journal, setup)
    for r in range(4):
        for seat in range(8):
            session.dispatch(c.SetCell(seat, r, None, str(250 + 37 * seat + 11 * r)))
    for seat in (0, 1, 2, 6, 7):
        session.dispatch(c.SetCell(seat, 4, None, str(1000 + seat)))
    game = session.game_id
    journal.close()
    return path, game


def _resume(launch: Any, tmp_path: Path, language: str = "en") -> tuple[Driver, int]:
    path, game = _eight(tmp_path)
    ui = launch(language=language, journal_file=path)
    assert ui.screen == "pad_play"  # the unfinished game opens as it was left
    return ui, game


def _one_line(widget: Any) -> bool:
    """The widget's text drawn on one line, whole: as wide as the text needs at its font,
    and no taller than one line of it."""
    from kivy.core.text import Label as CoreLabel

    needed = CoreLabel(font_size=widget.font_size, bold=widget.bold,
                       font_name=widget.font_name).get_extents(widget.text)
    widget.texture_update()
    return needed[0] <= widget.width + 0.5 and widget.texture_size[1] < needed[1] * 1.5


def _figures(ui: Driver) -> list[Any]:
    """Every cell and total the sheet shows now."""
    from ui.widgets.basics import find

    root = ui.app.root
    found = [find(root, f"sheet.total.{seat}") for seat in range(8)]
    for k in range(20):
        for seat in range(8):
            cell = find(root, f"sheet.cell.{k}.{seat}")
            if cell is not None and cell.opacity > 0 and cell.text:
                found.append(cell)
    return found


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_eight_players_four_digit_scores_read_from_a_seat(launch: Any, tmp_path: Path,
                                                          size: tuple[int, int]) -> None:
    """Issue 46, item 11: at 800x480 and 1280x720 with eight players and four-digit
    totals, every cell and total at 20 px capitals or more on one line ("1000", not "100"
    over "0"), the headline whole at the key-figure size (26 px capitals), the newest
    round on the page, Christophe's and Christine's columns headed differently, and
    nothing on the screen too small, cut or out of reach."""
    from tests.legibility import problems
    from ui import theme

    ui, _game = _resume(launch, tmp_path)
    ui.resize(*size)
    scale = ui.app.scale
    status = ui.find("play.status")
    assert status.text == "Round 5: waiting for Bob, Chloé, Dan"
    assert status.font_size * theme.CAP_RATIO >= theme.KEY_FIGURE_CAP * scale - 0.01
    assert _one_line(status)
    figures = _figures(ui)
    assert "1000" in {f.text for f in figures} and len(figures) > 8 * 3
    for figure in figures:
        cap = figure.font_size * theme.CAP_RATIO
        assert cap >= theme.ACT_CAP * scale - 0.01, (figure.tid, figure.text, cap)
        assert _one_line(figure), (figure.tid, figure.text, figure.width)
    assert [ui.text(f"sheet.total.{seat}") for seat in range(3)] == ["2066", "2215", "2364"]
    shown_rows = [ui.visible(f"sheet.label.{k}") for k in range(20)]
    assert "5" in [label.text for label in shown_rows if label is not None]
    heads = [ui.text(f"sheet.name.{seat}") for seat in range(8)]
    assert len(set(heads)) == 8, heads
    assert problems(ui.app.root) == []
    ui.screenshot(f"pad-sheet-eight-en-{size[0]}x{size[1]}")


def test_the_french_sheet_keeps_its_headline_whole(launch: Any, tmp_path: Path) -> None:
    from tests.legibility import problems
    from ui import theme

    ui, _game = _resume(launch, tmp_path, "fr")
    status = ui.find("play.status")
    assert status.text == "Manche 5 : en attente de Bob, Chloé, Dan"
    assert status.font_size * theme.CAP_RATIO >= theme.KEY_FIGURE_CAP - 0.01
    assert problems(ui.app.root) == []
    ui.screenshot("pad-sheet-eight-fr-800x480")
    ui.resize(1280, 720)
    assert problems(ui.app.root) == []
    ui.screenshot("pad-sheet-eight-fr-1280x720")


def test_names_alike_are_headed_apart() -> None:
    """"Christophe" and "Christine" in a column too narrow for either on one line: each
    whole on two lines, never both "Chris."."""
    from ui import theme
    from ui.screens.pad.sheet import told_apart

    heads = told_apart(["Christophe", "Christine", "Bob", "Player 7"], 61,
                       theme.SIZE_SMALL)
    assert heads[0] != heads[1]
    assert heads[0].replace("\n", "") == "Christophe"
    assert heads[1].replace("\n", "") == "Christine"
    assert heads[2] == "Bob" and heads[3] == "Player\n7"


def test_the_drawn_start_player_is_marked_and_the_clock_starts_with_them(
        launch: Any, tmp_path: Path) -> None:
    """Issue 46, item 12: the drawn start player (Chloé) is marked on their column's
    head during play, no one else is; a clock added from the sheet starts with them."""
    ui, _game = _resume(launch, tmp_path)
    marked = [seat for seat in range(8) if "▶" in ui.text(f"sheet.name.{seat}")]
    assert marked == [START]
    ui.tap("play.clock")
    assert ui.screen == "clock_setup"
    assert ui.text("clocksetup.note") == "Starts: Chloé"
    ui.tap("clocksetup.start")
    assert ui.screen == "clock_play"
    clock = ui.app.session.state
    assert clock.active == START and clock.seats[START].name == "Chloé"
    ui.tap("play.sheet")  # back to the sheet, the clock's strip under the header
    assert ui.screen == "pad_play" and ui.has("play.strip")
    assert "Chloé" in ui.text("play.strip")
    from tests.legibility import problems

    assert problems(ui.app.root) == []
    ui.screenshot("pad-sheet-eight-clock-en-800x480")


def test_a_team_game_shows_its_team_totals(launch: Any) -> None:
    """Issue 46, item 12: four players as two teams, 1+3 against 2+4: the sheet shows
    each team's total under its members (55 to 39), not only each player's."""
    from tests.test_ui_pad_rounds import NAMES, enter, type_name

    ui = launch()
    ui.tap("home.game.pad")
    ui.tap("setup.add")
    ui.tap("setup.add")
    for seat, name in enumerate(NAMES):
        type_name(ui, seat, name)
    ui.tap("setup.teams")
    ui.tap("setup.start")
    for value in ("30", "20", "25", "19"):
        enter(ui, value)
    assert [ui.text(f"sheet.total.{seat}") for seat in range(4)] == ["30", "20", "25", "19"]
    assert [ui.text(f"sheet.team.{seat}") for seat in range(4)] == ["55", "39", "55", "39"]
    assert ui.text("sheet.team_label") == "Team"
    from tests.legibility import problems

    assert problems(ui.app.root) == []
    ui.screenshot("pad-sheet-teams-en-800x480")
    ui.resize(1280, 720)
    assert [ui.text(f"sheet.team.{seat}") for seat in range(4)] == ["55", "39", "55", "39"]
    assert problems(ui.app.root) == []
    ui.screenshot("pad-sheet-teams-en-1280x720")


def test_a_co_operative_sheet_shows_no_meaningless_zeros(launch: Any) -> None:
    """Issue 46, item 12: a co-operative sheet's optional scores: a player with none
    typed has no total ("0" would be a score nobody made), on the sheet and in the
    standings; a score typed is totalled."""
    from tests.test_ui_pad_categories import choose
    from tests.test_ui_pad_rounds import enter

    ui = launch()
    ui.tap("home.game.pad")
    ui.tap("setup.add")
    choose(ui, "coop")
    ui.tap("setup.start")
    assert [ui.text(f"sheet.total.{seat}") for seat in range(3)] == ["", "", ""]
    enter(ui, "4")
    assert [ui.text(f"sheet.total.{seat}") for seat in range(3)] == ["4", "", ""]
    ui.tap("play.standings")
    totals = sorted(ui.text(f"standings.total.{i}") for i in range(3))
    assert totals == ["", "", "4"]
    assert "0" not in [ui.text(f"standings.rank.{i}") for i in range(3)]


def test_standings_and_sheet_one_tap_apart_and_end_on_the_sheet(launch: Any) -> None:
    """Issue 46, item 12's Must: the standings one tap from the sheet, the sheet one
    tap from the standings, and End reachable from the sheet itself."""
    from tests.test_ui_pad_rounds import enter

    ui = launch()
    ui.tap("home.game.pad")
    ui.tap("setup.start")
    enter(ui, "12")
    enter(ui, "7")
    ui.resize(1280, 720)
    ui.tap("play.standings")
    assert ui.screen == "pad_standings"
    ui.tap("standings.back")
    assert ui.screen == "pad_play"
    ui.resize(800, 480)
    ui.tap("play.end")
    assert ui.screen == "pad_end"
    assert ui.app.session.state.finished


def _ink_height(widget: Any, first_glyph: bool = False) -> int:
    """The height in pixels of the text drawn in the widget's box, on the frame: the
    rows holding a pixel far lighter than the fill (light text on a dark fill), all
    together (one line); `first_glyph`: only the columns of its first letter (a capital
    "R": no accent or descender)."""
    from kivy.core.window import Window
    from kivy.graphics.opengl import GL_RGBA, GL_UNSIGNED_BYTE, glReadPixels

    Window.canvas.ask_update()
    Window.dispatch("on_draw")
    x, y = (int(v) for v in widget.to_window(widget.x, widget.y))
    w, h = int(widget.width), int(widget.height)
    data = bytes(glReadPixels(x, y, w, h, GL_RGBA, GL_UNSIGNED_BYTE))

    def light(col: int, row: int) -> bool:
        i = 4 * (row * w + col)
        return sum(data[i:i + 3]) > 3 * 160

    columns = range(w)
    if first_glyph:
        inked = [c for c in range(w) if any(light(c, r) for r in range(h))]
        start = inked[0]
        end = next(c for c in range(start, w) if not any(light(c, r) for r in range(h)))
        columns = range(start, end)
    rows = [r for r in range(h) if any(light(c, r) for c in columns)]
    assert rows, f"no text drawn in {widget.tid}"
    # one band of ink: one line ("100" over "0" leaves blank rows between its lines)
    assert rows == list(range(rows[0], rows[-1] + 1)), f"{widget.tid}: more than one line"
    return rows[-1] - rows[0] + 1


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_capitals_measured_on_the_drawn_frame(launch: Any, tmp_path: Path,
                                             size: tuple[int, int]) -> None:
    """The pixels drawn, not the font sizes asked: a "1000" cell and a four-digit total
    at 20 px capitals or more (Roboto's digits are its capitals' height), the headline's
    "R" at the key figure's 26 px (times the window's scale)."""
    from ui import theme

    ui, _game = _resume(launch, tmp_path)
    ui.resize(*size)
    scale = ui.app.scale
    cell = next(f for f in _figures(ui) if f.text == "1000")
    total = ui.find("sheet.total.0")
    status = ui.find("play.status")
    measured = (_ink_height(cell), _ink_height(total), _ink_height(status, first_glyph=True))
    print(f"{size}: cell 1000 {measured[0]} px, total {total.text} {measured[1]} px, "
          f"headline R {measured[2]} px")
    assert measured[0] >= int(theme.ACT_CAP * scale), measured
    assert measured[1] >= int(theme.ACT_CAP * scale), measured
    assert measured[2] >= int(theme.KEY_FIGURE_CAP * scale), measured
