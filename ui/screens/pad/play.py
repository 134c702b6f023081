"""The score pad's play screen: the sheet (names and totals frozen, a page of rows at a
time) and the keypad beside it. The keypad types into one cell: the next one the sheet
asks for (Enter moves on to the next player in seat order), or any cell tapped, to
correct it; what is typed shows with its value and the player's new total before Enter
commits it. Under the header, the headline says what the table does now and who is
missing, at the key-figure size as every game's instruction; the header has the way to
the standings and End.

The cell typed in is the sheet's own (`sheet_view(state).current`) unless the table
tapped another: a game resumed after a power cut opens on the same cell.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from companion.session import Session, Update
from ui import theme
from ui.names import display_name
from ui.screens.pad import typing
from ui.screens.pad.common import label, number, seat_colour
from ui.screens.pad.keypad import Keypad
from ui.screens.pad.sheet import (
    LABEL_CATEGORIES,
    LABEL_ROUNDS,
    Cell,
    Column,
    Row,
    RowSource,
    Sheet,
)
from ui.screens.play_base import PlayScreen
from ui.widgets.basics import Tap, Text, follow_height, follow_width
from ui.widgets.basics import _follow_scale as follow_scale

#: px at 800x480: three keys of 50, leaving eight columns of 69 px (a bold "1000" at
#: the sheet's figure size is 68)
KEYPAD_WIDTH = 160
HEADER_BUTTON = 104
END_WIDTH = 150  # "Finir la partie"
HEADLINE = 46  # px: a line at the key-figure size
#: commands that change a cell: made on the sheet of a finished game, the sheet stays
CELL_COMMANDS = ("SetCell", "ClearCell")


def team_totals(state: Any, view: Any) -> list[str]:
    """Each seat's team total, a team game's row under the players' totals ([] when not
    in teams, or when each column already shows its team's score: `teams: {score:
    own}`)."""
    from companion.games.pad.outcome import outcome
    from companion.games.pad.scoring import stored, unit_total

    if not state.teams or state.template.team_score == "own":
        return []
    totals = outcome(state).totals
    shown = [""] * len(view.columns)
    for team in state.teams:
        total = number(stored(unit_total(state, team, totals)))
        for seat in team:
            shown[seat] = total
    return shown


def scored_seats(state: Any, view: Any) -> set[int]:
    """The seats whose total means something: every seat, but in a co-operative game
    (its scores optional) only a seat with a score typed ("0" would be one nobody
    made)."""
    seats = set(range(len(view.columns)))
    if state.template.win != "coop":
        return seats
    return {seat for seat in seats
            if any(row.cells[seat].value is not None for row in view.rows)}


class Target:
    """A cell of the sheet: its row (round index or category) and seat."""

    def __init__(self, row: int, seat: int, round_: int | None, category: str | None) -> None:
        self.row, self.seat, self.round, self.category = row, seat, round_, category

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Target) and (self.row, self.seat) == (other.row, other.seat)


class PadPlayScreen(PlayScreen):
    #: the keypad's cell and typed text before an entry drawn early (`draw_early`)
    _before_early: tuple[Any, str] | None = None

    # -- layout -----------------------------------------------------------------------
    def _build(self) -> None:
        app = App.get_running_app()
        root = BoxLayout(orientation="vertical", padding=dp(theme.SPACE_S),
                         spacing=dp(theme.SPACE_XS))
        undo, redo, _home = self.history_buttons()
        for button in (undo, redo):
            follow_scale(button, theme.SIZE_BODY)
            follow_width(button, HEADER_BUTTON)
        self.standings_button = follow_width(
            Tap(app.tr("pad.ui.standings"), size=theme.SIZE_BODY, tid="play.standings"),
            HEADER_BUTTON + 24)
        self.standings_button.bind(on_release=lambda _b: self.open_standings())
        # a clock beside this game: started from here (the set-up takes these players)
        self.clock_button = follow_width(
            Tap(app.tr("pad.ui.clock"), size=theme.SIZE_BODY, tid="play.clock"),
            HEADER_BUTTON)
        self.clock_button.bind(on_release=lambda _b: self.start_clock())
        # End from the sheet itself, as from the standings (green once played out)
        self.end_button = follow_width(
            Tap(app.tr("pad.ui.end_game"), size=theme.SIZE_BODY, tid="play.end"), END_WIDTH)
        self.end_button.bind(on_release=lambda _b: self.end_game())
        top, _room = self.game_header("play.header",
                                      extra=[self.clock_button, undo, redo,
                                             self.standings_button, self.end_button])
        self.header_bar = top
        # the instruction, a line of its own at the key-figure size (Pr. Evil's, Bond's,
        # Castor's tracker's): "Round 5: waiting for Bob, Chloé, Dan"
        self.status = follow_height(Text("", size=theme.SIZE_FIGURE, bold=True,
                                         tid="play.status"), HEADLINE)
        self.status.key_figure = True  # the audit holds it to the key figures' cap height
        self.status.bind(width=self.fit_status, height=self.fit_status)
        body = BoxLayout(spacing=dp(theme.SPACE_S))
        self.sheet = Sheet(self.tap_cell, self.tap_name)
        self.keypad = follow_width(Keypad(self.key, app.tr("pad.ui.enter")), KEYPAD_WIDTH)
        # the clock's strip, while one runs beside, goes over the sheet: the keypad keeps
        # its height
        self.left = BoxLayout(orientation="vertical", spacing=dp(theme.SPACE_XS))
        self.left.add_widget(self.sheet)
        body.add_widget(self.left)
        body.add_widget(self.keypad)
        # the clock beside: whose turn and their time left, in their colour, one tap
        # opens the clock (added only while one runs beside)
        self.strip = follow_height(Tap("", size=theme.SIZE_FIGURE, bold=True,
                                       tid="play.strip"), theme.touch(theme.ROW))
        self.strip.bind(on_release=lambda _b: App.get_running_app().show_beside())
        self.strip_fill: theme.Rgba | None = None
        root.add_widget(top)
        root.add_widget(self.status)
        root.add_widget(body)
        self.root_box = root
        self.add_widget(root)
        self.cursor: Target | None = None  # a cell the table tapped (None: the sheet's)
        self.typed = ""
        # the sheet's rows as last made, by index: (the round's view, what else made
        # it, the row); `refresh` makes again only the rows whose view or selection moved
        self._made: dict[int, tuple[Any, tuple[Any, ...], Row]] = {}

    # -- session ----------------------------------------------------------------------
    def open_session(self, session: Session) -> None:
        super().open_session(session)
        self.show_clock(None)  # a clock beside it shows itself at its next look
        self._opening = True  # the first update shows the screen the game is on
        self.cursor = None
        self.typed = ""
        self._before_early = None
        # the panel's, not the game's: from the config in force (`games.pad`)
        from companion.games.pad.params import debounce

        self.keypad.debounce = debounce(App.get_running_app().settings.get("games.pad"))

    def after_update(self, update: Update | None) -> None:
        """Redraw from the committed state and show the screen the game calls for: the
        end page once the game ends (its questions over it: a tie-breaker's input, the
        table's choice), the sheet again when an undo takes the end back; a correction
        made on the sheet of a finished game stays on the sheet."""
        app = App.get_running_app()
        opening, self._opening = self._opening, False
        if update is not None:
            # an action done, undone or redone: the keypad goes back to the sheet's cell
            self.cursor = None
            self.typed = ""
            if update is not self.early:
                self._before_early = None
        elif self.early is None and self._before_early is not None and \
                self.session is not None and not self.session.in_flight:
            # the entry drawn early was refused (the card cannot be written), not only
            # taken back while it syncs: the keypad is back on its cell with what was
            # typed, for Enter again
            (self.cursor, self.typed), self._before_early = self._before_early, None
        self.refresh()
        manager = app.root
        if self.state.finished:
            end = manager.get_screen("pad_end")
            end.show(self.state)
            cell = update is not None and type(update.command).__name__ in CELL_COMMANDS
            if opening or (update is not None and not cell and manager.current != "pad_end"
                           and update.verb == "do"):
                app.close_dialog()
                manager.current = "pad_end"
            from ui.screens.pad.dialogs import ask_if_needed

            if manager.current == "pad_end":
                ask_if_needed(self.state)
            return
        if opening:
            # the screen the table was on (the standings, a player's menu): the journal
            # holds the game, `common.remember` which of its screens was on show
            self.reopen(manager)
            return
        if manager.current == "pad_end":
            manager.current = self.name
        elif manager.current == "pad_standings":
            manager.get_screen("pad_standings").refresh()
        elif manager.current != self.name:
            manager.current = self.name

    def draw_early(self, update: Update) -> None:
        self._before_early = (self.cursor, self.typed)  # kept for a refused entry
        super().draw_early(update)

    def landed_early(self) -> None:
        super().landed_early()
        self._before_early = None

    def draws_early(self, update: Update) -> bool:
        """A score typed in or cleared on the sheet on show, the game going on: its
        telling is `refresh` alone (the cell, the total, the keypad's next cell), drawn
        while the card syncs (`PlayScreen.draw_early`)."""
        app = App.get_running_app()
        return (update.verb == "do" and not self._opening and app.dialog is None
                and type(update.command).__name__ in CELL_COMMANDS
                and not update.state.finished and app.root.current == self.name)

    def reopen(self, manager: Any) -> None:
        from ui.screens.pad.common import recalled
        from ui.screens.pad.dialogs import reopen

        record = recalled() or {}
        screen = record.get("screen")
        manager.current = screen if screen in ("pad_play", "pad_standings") else self.name
        if record:
            reopen(self.state, record)

    # -- drawing ----------------------------------------------------------------------
    def refresh(self) -> None:
        from companion.games.pad.instructions import headline
        from companion.games.pad.view import CellView, RowView, sheet_view
        from companion.messages import msg

        app = App.get_running_app()
        state = self.state
        view = sheet_view(state)
        self.view = view
        self.statuses = [app.say(headline(state)), *self.short_status(view)]
        self.fit_status()
        target = self.target()
        teams = team_totals(state, view)
        scored = scored_seats(state, view)
        # the start player marked on their head while the game goes on (the end page
        # tells it after)
        start = state.start_player if not state.finished else None
        columns = [Column(display_name(col.name), seat_colour(state.players[seat], seat),
                          number(col.total) if seat in scored else "", col.out is not None,
                          seat == start, teams[seat] if teams else "")
                   for seat, col in enumerate(view.columns)]
        self.shown_rows = list(view.rows)
        if view.current is not None and view.current[0] == len(view.rows):
            # the round to open: a row of blanks where the keypad types
            self.shown_rows.append(RowView(len(view.rows), None,
                                           msg("pad.ui.round", round=len(view.rows) + 1),
                                           tuple(CellView("", None, None, False)
                                                 for _ in view.columns)))
        columns_out = tuple(col.out is not None for col in view.columns)
        made, self._made = self._made, {}

        def make(index: int) -> Row:
            row = self.shown_rows[index]
            selected_seat = target.seat if target is not None and target.row == index \
                else None
            # a round an action did not touch is the same view: its row as made before
            key = (selected_seat, columns_out, app.translator)
            kept = made.get(index)
            if kept is not None and kept[0] is row and kept[1] == key:
                self._made[index] = kept
                return kept[2]
            cells = []
            for seat, cell in enumerate(row.cells):
                selected = selected_seat == seat
                text = number(cell.value)
                short: tuple[str, ...] = ()
                if cell.said is not None:  # a derived category's: what was typed too
                    short = (f"{number(cell.entered)} → {text}", text)
                    text = app.say(cell.said)
                if cell.missing and not text:
                    text = "?"
                cells.append(Cell(text, selected, bool(cell.missing), bool(cell.note),
                                  bool(row.computed) or (columns_out[seat]
                                                         and cell.value is None), short))
            # a round's number alone beside its row (the corner says "Round")
            result = Row(str(row.round + 1) if row.round is not None else label(row.label),
                         tuple(cells))
            self._made[index] = (row, key, result)
            return result

        rows = RowSource(len(self.shown_rows), make)
        categories = state.template.shape == "categories"
        self.sheet.show(columns, rows, None if target is None else target.row,
                        LABEL_CATEGORIES if categories else LABEL_ROUNDS,
                        app.tr("pad.ui.category" if categories else "pad.ui.round_short"),
                        app.tr("pad.ui.total"), app.tr("pad.ui.team_row") if teams else "")
        self.keypad.decimals(not state.template.whole)
        # the way to End: green once the sheet is played out (the end offered, or every
        # cell filled)
        ready = not view.finished and (view.end_offered or view.current is None)
        self.end_button.set_background(theme.SUCCESS if ready else theme.BUTTON)
        self.end_button.disabled = bool(view.finished)
        self.show_typed()
        self.refresh_history_buttons()

    def short_status(self, view: Any) -> list[str]:
        """A shorter headline for when the domain's does not fit the header (eight
        names missing): how many are missing (the sheet shows each as "?")."""
        app = App.get_running_app()
        if not view.missing or view.current is None:
            return []
        round_, category = view.current
        where = app.tr("pad.ui.round_n", round=round_ + 1) if round_ is not None else \
            label(self.state.template.category(category).name)
        return [app.tr("pad.ui.status_missing", where=where, n=len(view.missing))]

    def fit_status(self, *_: Any) -> None:
        """The headline on one line at the key-figure size, else its short form ("Round
        5: 8 scores missing (?)"), else at the acted-on size, else on two lines at the
        smallest size: never cut."""
        from ui.widgets.text_height import surely_taller, text_height

        label, width = self.status, self.status.width
        if not getattr(self, "statuses", None):
            return
        for size in (theme.SIZE_FIGURE, theme.SIZE_ACT, theme.MIN_TEXT):
            follow_scale(label, size)
            for text in self.statuses:
                # the headline naming seven players: measured by the font alone
                if surely_taller(label, text, width, label.height + 0.5):
                    continue
                label.text = text
                if width <= 1 or text_height(label, width) <= label.height + 0.5:
                    return
        label.text = self.statuses[-1]  # (each may have been measured without it)

    def target(self) -> Target | None:
        """The cell the keypad types in."""
        if self.cursor is not None:
            return self.cursor
        current = self.view.current
        if current is None:
            return None
        return self._target(*self._current_cell(current))

    def _current_cell(self, current: tuple[int | None, str | None]) -> tuple[int, int]:
        """(row, seat) of the view's `current`: a round's index is its row (the round
        to open is the row after the last), a category's its place on the sheet."""
        round_, category = current
        seat = self.view.current_seat or 0
        if round_ is not None:
            return round_, seat
        rows = [row.category for row in self.view.rows]
        return rows.index(category), seat

    def _target(self, row: int, seat: int) -> Target:
        if self.state.template.shape == "categories":
            return Target(row, seat, None, self.view.rows[row].category)
        return Target(row, seat, row, None)

    def _row(self, index: int) -> Any:
        """The sheet's row, the round to open included (blank cells, owed by all)."""
        return self.shown_rows[index]

    def show_typed(self, note: str = "") -> None:
        """Whose cell it is, what is typed (with its value when it adds up) and the new
        total, or why it cannot be entered."""
        from companion.games.pad.view import preview

        app = App.get_running_app()
        target = self.target()
        if target is None:
            self.keypad.tell("", "", app.tr("pad.ui.no_cell"))
            return
        state = self.state
        name = display_name(state.players[target.seat].name)
        row = self._row(target.row)
        # the keypad's one line: with the row if it fits (the lit cell shows it too)
        who = (app.tr("pad.ui.cell_who", player=name, row=label(row.label)), name)
        cell = row.cells[target.seat]
        if not self.typed:
            if cell.value is not None:
                typed = typing.shown(cell.text) if typing.adds_up(cell.text) else ""
                value = app.say(cell.said) if cell.said is not None else number(cell.value)
                shown = f"{typed} = {value}" if typed else value
                self.keypad.tell(who, shown, note or app.tr("pad.ui.type_to_correct"))
            else:
                self.keypad.tell(who, "", note or app.tr("pad.ui.type_score"))
            return
        seen = preview(state, target.seat, target.round, target.category, self.typed)
        typed = typing.shown(self.typed)
        if seen.error is not None:
            self.keypad.tell(who, typed, app.say(seen.error), error=True)
            return
        if seen.said is not None:  # a derived category's: "11 coins → 3"
            typed = f"{typed} = {app.say(seen.said)}" if typing.adds_up(self.typed) \
                else app.say(seen.said)
        elif typing.adds_up(self.typed):
            typed = f"{typed} = {number(seen.value)}"
        self.keypad.tell(who, typed, app.tr("pad.ui.new_total", player=name,
                                            total=number(seen.total)))

    # -- touches ----------------------------------------------------------------------
    def tap_cell(self, row: int, seat: int) -> None:
        app = App.get_running_app()
        if app.taps_wait:  # tapped while a score is being saved: in turn, after it
            app.in_turn(lambda: self.tap_cell(row, seat))
            return
        if self._row(row).computed:
            return  # a calculation's result: its inputs are typed
        self.cursor = self._target(row, seat)
        self.typed = ""
        self.refresh()

    def tap_name(self, seat: int) -> None:
        """A player's menu: leaves, is eliminated, wins outright."""
        from ui.screens.pad.dialogs import player_dialog

        if not self.state.finished:
            player_dialog(self.state, seat)

    def key(self, key: str) -> None:
        app = App.get_running_app()
        if app.taps_wait:  # typed while a score is being saved: in turn, after it
            app.in_turn(lambda: self.key(key))
            return
        if self.session is None or self.target() is None:
            return
        if key == "enter":
            self.enter()
            return
        if key == "del" and not self.typed:
            self.clear_cell()
            return
        self.typed = typing.press(self.typed, key, decimals=not self.state.template.whole)
        self.show_typed()

    def enter(self) -> None:
        """Commit what is typed; with nothing typed, a cell that has its value is left
        as it is and the next player's is next (a blank is never a zero)."""
        from companion.games.pad import commands as c

        app = App.get_running_app()
        target = self.target()
        assert target is not None
        if not self.typed:
            cell = self._row(target.row).cells[target.seat]
            if cell.value is None:
                self.show_typed(app.tr("pad.ui.zero_hint"))
                return
            self.cursor = self._next_seat(target)
            self.refresh()
            return
        app.send(c.SetCell(target.seat, target.round, target.category, self.typed))

    def _next_seat(self, target: Target) -> Target | None:
        """Where Enter goes from a cell left as it is: the next player in seat order
        owing a cell on that row, then the next row's first (None: the sheet's own)."""
        from companion.games.pad.view import next_cell

        found = next_cell(self.state, target.seat, target.round, target.category)
        if found is None:
            return None
        seat, round_, category = found
        for index, row in enumerate(self.shown_rows):
            if (row.round, row.category) == (round_, category):
                return self._target(index, seat)
        return None

    def clear_cell(self) -> None:
        """Delete with nothing typed: the cell goes back to blank (undoable)."""
        from companion.games.pad import commands as c

        target = self.target()
        if target is None or self._row(target.row).cells[target.seat].value is None \
                or self._row(target.row).computed:
            return
        App.get_running_app().send(c.ClearCell(target.seat, target.round, target.category))

    def end_game(self) -> None:
        """End, as the standings' End does (a co-operative game asks whether the table
        won, a game of places the order)."""
        App.get_running_app().root.get_screen("pad_standings").end()

    def open_standings(self) -> None:
        app = App.get_running_app()
        screen = app.root.get_screen("pad_standings")
        screen.refresh()
        app.root.current = "pad_standings"

    # -- the clock beside ----------------------------------------------------------------
    def start_clock(self) -> None:
        """The clock's set-up for this game: its players in seat order, beside it."""
        app = App.get_running_app()
        if self.session is None:
            return
        setup = app.root.get_screen("clock_setup")
        setup.pending_players = [
            {k: v for k, v in p.items() if k in ("name", "colour", "roster_id") and v}
            for p in self.session.setup.get("players", []) if isinstance(p, dict)]
        setup.pending_pad = self.session.game_id
        setup.pending_first = self.state.start_player  # the sheet's start player starts
        app.root.current = "clock_setup"

    def show_clock(self, view: Any) -> None:
        """The strip: the clock beside's active player and time left (None: no clock
        beside any more)."""
        from ui.screens.clock.figures import clock_text, elapsed_text
        from ui.screens.clock.play import seat_rgba

        app = App.get_running_app()
        strip, bar = self.strip, self.header_bar
        if view is None:
            if strip.parent is not None:
                self.left.remove_widget(strip)
            if self.clock_button.parent is None:
                # before Undo, Redo, Standings and End
                bar.add_widget(self.clock_button, index=4)
            return
        if strip.parent is None:
            self.left.add_widget(strip, index=len(self.left.children))  # over the sheet
        if self.clock_button.parent is not None:
            bar.remove_widget(self.clock_button)
        active = view.active if 0 <= view.active < len(view.seats) else None
        seat = view.seats[active] if active is not None else None
        if view.mode in ("sand", "phase", "turn") and view.countdown_ms is not None:
            remaining = view.countdown_ms
        else:
            remaining = seat.remaining_ms if seat is not None else 0
        figure = elapsed_text(remaining) if view.mode == "countup" else clock_text(remaining)
        name = display_name(seat.name) if seat is not None else \
            app.tr(f"clockui.mode.{view.mode}")
        key = "pad.ui.strip_paused" if view.status in ("paused", "admin") else "pad.ui.strip"
        text = app.tr(key, player=name, time=figure)
        if strip.text != text:
            strip.text = text
        fill = seat_rgba(seat.colour, seat.index) if seat is not None else theme.BUTTON
        if view.status in ("paused", "admin"):
            fill = theme.PANEL
        elif remaining < 0 and view.mode != "countup":
            fill = theme.DANGER
        if fill != self.strip_fill:
            self.strip_fill = fill
            strip.set_background(fill)

    def hardware_button(self, name: str) -> Tap | None:
        if name == "roll":  # ROLL is the keypad's Enter: the next player's cell
            return self.keypad.keys["enter"]
        return super().hardware_button(name)
