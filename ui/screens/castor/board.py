"""Castor's scoreboard (players x rounds, totals, medals), its widgets kept from one
action to the next.

Every action (an undo, a redo, a sheet) redraws the board. It used to be built anew
each time: some thirty widgets whose Kivy properties, observers and bound callbacks are
cycles, ~1 700 such objects a tap, which only a full collection frees. During play the
memory's overdue collection (`ui/memory.py`) then ran every ~30 taps over ~250 000 of
them: 150-1 000 ms inside an undo or redo. Here every row, cell and label is made once
and told its new text, colours and size; a round column that goes (an undone sheet)
keeps its cell for when it comes back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from companion.games.castor.view import RoundColumn, Scoreboard
from ui import theme
from ui.names import display_name
from ui.screens.castor.common import DARK_INK, MEDAL, SYMBOL_FONT
from ui.widgets.basics import Tap, Text, _follow_scale, follow_height

NAME_WIDTH = 0.18
TOTAL_WIDTH = 0.13
MEDALS_WIDTH = 0.17
#: up to this many rounds a round's cell shows its score at the key-figure size
FIGURE_ROUNDS = 4
GOLD = (0.93, 0.74, 0.22, 1)
#: rows keep their touch height whatever the number of players
ROWS = 5


def medals_text(count: int) -> str:
    """Stars and the number: readable without telling colours apart."""
    return f"{MEDAL * count} {count}".strip() if count else "0"


def _show(box: BoxLayout, widgets: Sequence[Widget]) -> None:
    """`box` holds exactly `widgets`, in order (moved only if they differ)."""
    if list(reversed(box.children)) == list(widgets):
        return
    box.clear_widgets()
    for widget in widgets:
        box.add_widget(widget)


def _pooled(pool: list[Any], count: int, make: Callable[[], Any]) -> list[Any]:
    while len(pool) < count:
        pool.append(make())
    return pool[:count]


class _Row:
    """One player's row: name, a cell per round, total, medals."""

    def __init__(self, seat: int, open_round: Callable[[Any], None]) -> None:
        self.seat = seat
        self.open_round = open_round
        self.box = BoxLayout(spacing=dp(3))
        self.name = Text(size=theme.SIZE_BODY, tid=f"board.name.{seat}",
                         size_hint_x=NAME_WIDTH)
        self.cells: list[Tap] = []
        self.blank = BoxLayout()
        self.total = Text(size=theme.SIZE_FIGURE, bold=True, halign="center",
                          tid=f"board.total.{seat}", size_hint_x=TOTAL_WIDTH)
        self.medals = Text(size=theme.SIZE_FIGURE, halign="center", font_name=SYMBOL_FONT,
                           tid=f"board.medals.{seat}", size_hint_x=MEDALS_WIDTH)

    def _cell(self) -> Tap:
        tap = Tap(size=theme.SIZE_FIGURE, font_name=SYMBOL_FONT, background=theme.PANEL,
                  color=theme.TEXT)
        tap.bind(on_release=self.open_round)
        return tap

    def show(self, player: Any, rounds: Sequence[RoundColumn], share: float,
             cell_size: float) -> None:
        self.name.text = display_name(player.name) + (
            f"\n{player.agent_name}" if player.agent_name else "")
        _follow_scale(self.name, theme.SIZE_SMALL if player.agent_name else theme.SIZE_BODY)
        self.name.bold = player.winner
        self.name.color = GOLD if player.winner else theme.TEXT
        total = 0
        cells = _pooled(self.cells, len(rounds), self._cell)
        for tap, column in zip(cells, rounds, strict=True):
            cell = column.cells[self.seat]
            medal = cell.medal and column.counts
            total += cell.total if column.counts else 0
            # the star and the gold fill say "medal" (no colour needed to read it)
            tap.text = f"{MEDAL} {cell.total}" if medal else str(cell.total)
            tap.tid = f"board.cell.{self.seat}.{column.number}"
            tap.round_number = column.number
            tap.size_hint_x = share
            _follow_scale(tap, cell_size)
            tap.color = DARK_INK if medal else (theme.TEXT if column.counts else theme.MUTED)
            tap.set_background(GOLD if medal else theme.PANEL)
        self.blank.size_hint_x = share
        self.total.text = str(total)
        self.medals.text = medals_text(player.medals)
        self.medals.color = GOLD if player.medals else theme.TEXT
        _show(self.box, [self.name, *(cells or [self.blank]), self.total, self.medals])


class Board:
    """The scoreboard in `box` (a vertical BoxLayout); `open_round(n)` opens a round's
    sheet (a round's title or cell tapped)."""

    def __init__(self, box: BoxLayout, open_round: Callable[[int], None]) -> None:
        app = App.get_running_app()
        self.box = box
        self.open_round = open_round
        self.header = follow_height(BoxLayout(spacing=dp(3)), theme.touch())  # round taps
        self.players = Text(app.tr("core.ui.players"), size=theme.SIZE_SMALL,
                            color=theme.MUTED, size_hint_x=NAME_WIDTH)
        self.heads: list[Tap] = []
        self.no_round = Text(app.tr("castor.ui.no_round"), size=theme.SIZE_SMALL,
                             color=theme.MUTED, tid="board.empty")
        self.total = Text(app.tr("castor.ui.total"), size=theme.SIZE_SMALL,
                          color=theme.MUTED, size_hint_x=TOTAL_WIDTH, halign="center")
        self.medals = Text(app.tr("castor.ui.medals"), size=theme.SIZE_SMALL,
                           color=theme.MUTED, size_hint_x=MEDALS_WIDTH, halign="center")
        self.rows: list[_Row] = []
        self.spares: list[BoxLayout] = []

    def _opened(self, tap: Any) -> None:
        self.open_round(tap.round_number)

    def _head(self) -> Tap:
        tap = Tap(size=theme.SIZE_SMALL)
        tap.bind(on_release=self._opened)
        return tap

    def show(self, board: Scoreboard, title: Callable[[RoundColumn], str]) -> None:
        share = (1 - NAME_WIDTH - TOTAL_WIDTH - MEDALS_WIDTH) / max(len(board.rounds), 1)
        cell_size = theme.SIZE_FIGURE if len(board.rounds) <= FIGURE_ROUNDS \
            else theme.SIZE_TITLE
        heads = _pooled(self.heads, len(board.rounds), self._head)
        for head, column in zip(heads, board.rounds, strict=True):
            head.text = title(column)
            head.tid = f"board.round.{column.number}"
            head.round_number = column.number
            head.size_hint_x = share
        self.no_round.size_hint_x = share
        _show(self.header, [self.players, *(heads or [self.no_round]), self.total,
                            self.medals])
        rows = _pooled(self.rows, len(board.players),
                       lambda: _Row(len(self.rows), self._opened))
        for row, player in zip(rows, board.players, strict=True):
            row.show(player, board.rounds, share, cell_size)
        spares = _pooled(self.spares, max(0, ROWS - len(board.players)), BoxLayout)
        _show(self.box, [self.header, *(row.box for row in rows), *spares])
