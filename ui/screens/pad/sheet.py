"""The score pad's sheet: a row per round or category, a column per player, the names
frozen at the top and the totals at the bottom, a page of rows at a time.

The rows shown are a window on the sheet (`first`, the rows that fit), moved a page at
a time by the pager's ▲ and ▼ and kept on the cell being typed: no row is ever half in
view, nothing scrolls under the header, and a tap never lands on a row that slid away.
The widgets are built once for a shape (players x rows that fit) and re-told at every
action; every cell is a button (tap: type in it, to enter or correct).

The cells are drawn as a paper sheet's grid: every cell shown is a square of the
panel's colour in one drawing instruction of the sheet's (`_draw_grid`), and a cell
draws a box of its own only while it looks otherwise (typed in, missing, fixed,
pressed). Eight players' page is 48 cells, of which a few look otherwise: some forty
draws fewer at every frame, the most of what a frame of this screen cost.

Tags: `sheet.name.<seat>`, `sheet.label.<k>` and `sheet.cell.<k>.<seat>` (the k-th row
shown: a button keeps its tag where it is, whatever row the page shows there),
`sheet.total.<seat>`, `sheet.up`, `sheet.down`, `sheet.corner`, `sheet.total_label`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, Mesh
from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from ui import theme
from ui.screens.castor.common import SYMBOL_FONT
from ui.screens.pad.common import set_text
from ui.widgets.basics import Tap, Text, TouchesWithin, follow_height, follow_width

GAP = 2  # px between rows and columns
ROW = theme.MIN_TOUCH  # a row's height at 800x480: each cell is a touch target
LABEL_ROUNDS = 52  # the row label column for round numbers
LABEL_CATEGORIES = 128  # for category names (two lines at most)
MISSING = "?"


@dataclass(frozen=True)
class Cell:
    text: str  # what the cell shows ("" blank, "?" missing)
    selected: bool = False
    missing: bool = False
    note: bool = False  # out of its category's range: "check"
    fixed: bool = False  # not typed in: a calculation's result, or a player out
    #: shown instead where `text` is wider than the cell, the first that fits ("11 → 3",
    #: then "3": eight players' cells are narrow; the keypad says it whole)
    short: tuple[str, ...] = ()


@dataclass(frozen=True)
class Row:
    label: str
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class Column:
    name: str
    colour: theme.Rgba
    total: str
    out: bool = False  # left or eliminated: muted


@lru_cache(maxsize=512)
def _text_width(text: str, size: float, bold: bool) -> float:
    from kivy.core.text import Label as CoreLabel

    return float(CoreLabel(font_size=size, bold=bold).get_extents(text)[0])


def _cut(word: str, width: float, size: float, bold: bool) -> str | None:
    """The word's longest start that fits with a full stop ("Clém."), if one does."""
    for end in range(len(word) - 1, 0, -1):
        short = word[:end].rstrip() + "."
        if _text_width(short, size, bold) <= width:
            return short
    return None


def fitted(name: str, width: float, size: float, bold: bool = True) -> str:
    """The name as a column's head shows it in `width`: whole on one line, or on two
    lines at a space ("Player\n7"), the first line cut if need be ("Pla.\n7"), or else
    its longest start that fits with a full stop ("Clém."): eight players' names share
    a sheet's width; the keypad's line and the standings show each whole."""
    if _text_width(name, size, bold) <= width:
        return name
    words = name.split()
    fits = [_text_width(" ".join(words[cut:]), size, bold) <= width
            for cut in range(len(words))]
    for cut in range(len(words) - 1, 0, -1):
        first, second = " ".join(words[:cut]), " ".join(words[cut:])
        if fits[cut] and _text_width(first, size, bold) <= width:
            return f"{first}\n{second}"
    if len(words) > 1 and fits[-1]:
        first = _cut(" ".join(words[:-1]), width, size, bold)
        if first is not None:
            return f"{first}\n{words[-1]}"
    return _cut(name, width, size, bold) or name[:1]


def _fitting(texts: Sequence[str], width: float, scale: float) -> str:
    """The first of a cell's texts that fits its width, else the last."""
    size = sp(theme.SIZE_BUTTON) * scale
    for text in texts[:-1]:
        # the button's text box is 8 px narrower than the button (`Tap`)
        if _text_width(text, size, True) <= width - dp(8) - 2:
            return text
    return texts[-1]


class GridCell(Tap):
    """A cell of the sheet: square, its panel drawn by the sheet's grid; its own box
    is in its canvas only while its look is not the grid's (`look() != PANEL`)."""

    def __init__(self, **kwargs: Any) -> None:
        self._own_box = True  # Tap draws its box: taken out at the first `_redraw`
        super().__init__(background=theme.PANEL, **kwargs)
        self._rect.radius = [0]  # squares, as the grid's
        self.bind(opacity=self._redraw)
        self._redraw()

    def _redraw(self, *_: Any) -> None:
        super()._redraw()
        own = self.opacity > 0 and self.look() != theme.PANEL
        if own == self._own_box:
            return
        self._own_box = own
        before = self.canvas.before
        if own:
            before.add(self._color)
            before.add(self._rect)
        else:
            before.remove(self._color)
            before.remove(self._rect)


class RowSource:
    """The sheet's rows by index, each made when asked for (`make(index)`)."""

    def __init__(self, count: int, make: Callable[[int], Row]) -> None:
        self.count, self.make = count, make

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, index: int) -> Row:
        if not 0 <= index < self.count:
            raise IndexError(index)
        return self.make(index)


class Sheet(TouchesWithin, BoxLayout):
    """The sheet's grid and its pager. `on_cell(row, seat)` is a tap on a cell (`row`:
    the sheet's own index), `on_name(seat)` a tap on a player's name."""

    def __init__(self, on_cell: Callable[[int, int], Any], on_name: Callable[[int], Any],
                 **kwargs: Any) -> None:
        super().__init__(orientation="vertical", spacing=dp(GAP), **kwargs)
        self.on_cell = on_cell
        self.on_name = on_name
        self.first = 0  # the first row shown
        self.rows: RowSource = RowSource(0, lambda _i: Row("", ()))
        self.columns: tuple[Column, ...] = ()
        self.focus: int | None = None  # the row kept in view (the cell being typed)
        self._shape: tuple[int, int, float] | None = None  # players, rows, label width
        self.label_width = LABEL_ROUNDS
        self.corner_text = ""
        self.total_text = ""
        self.up: Tap | None = None
        self.down: Tap | None = None
        self.row_widgets: list[tuple[Text, list[GridCell]]] = []
        with self.canvas.before:
            Color(*theme.PANEL)
            self._grid = Mesh(mode="triangles")
        self._grid_later = Clock.create_trigger(self._draw_grid, -1)  # before the frame
        self.bind(size=lambda *_: self._draw())

    # -- what it shows -----------------------------------------------------------------
    def show(self, columns: Sequence[Column], rows: RowSource, focus: int | None,
             label_width: float, corner: str, total: str) -> None:
        """`rows`: the sheet's rows, each made only when its page shows it (a sheet of
        200 rounds shows six)."""
        self.columns, self.rows = tuple(columns), rows
        self.focus = focus
        self.label_width = label_width
        self.corner_text, self.total_text = corner, total
        self._draw()

    def page(self, direction: int) -> None:
        """A page up (-1) or down (+1): the rows that fit, less one kept for context."""
        step = max(1, self.fits() - 1)
        self.first = max(0, min(self.first + direction * step, len(self.rows) - self.fits()))
        self.focus = None  # the table looks elsewhere: the row typed in may leave view
        self._draw()

    def fits(self) -> int:
        """How many rows fit between the names and the totals (one at the least)."""
        scale = self._scale()
        row = dp(ROW) * scale + dp(GAP)
        return max(1, int((self.height - 2 * row) // row))

    @staticmethod
    def _scale() -> float:
        from kivy.app import App

        return float(getattr(App.get_running_app(), "scale", 1.0))

    def _draw(self) -> None:
        if self.height <= 1 or not self.columns:
            return
        fits = self.fits()
        shape = (len(self.columns), fits, self.label_width)
        if shape != self._shape:
            self._build(*shape)
            self._shape = shape
        last_first = max(0, len(self.rows) - fits)
        if self.focus is not None:
            if self.focus < self.first:
                self.first = self.focus
            elif self.focus >= self.first + fits:
                self.first = self.focus - fits + 1
        self.first = max(0, min(self.first, last_first))
        self._tell(fits)

    # -- widgets -----------------------------------------------------------------------
    def _build(self, players: int, fits: int, label_width: float) -> None:
        self.clear_widgets()
        # Roboto has no triangles: the DejaVu font Kivy ships has
        self.up = follow_width(Tap("▲", size=theme.SIZE_BUTTON, tid="sheet.up",
                                   font_name=SYMBOL_FONT), label_width)
        self.up.bind(on_release=lambda _b: self.page(-1))
        self.down = follow_width(Tap("▼", size=theme.SIZE_BUTTON, tid="sheet.down",
                                     font_name=SYMBOL_FONT), label_width)
        self.down.bind(on_release=lambda _b: self.page(1))
        names = follow_height(BoxLayout(spacing=dp(GAP)), dp(ROW))
        self.names_corner = follow_width(BoxLayout(), label_width)
        self.corner_label = Text("", size=theme.SIZE_SMALL, bold=True, halign="right",
                                 color=theme.MUTED, tid="sheet.corner")
        names.add_widget(self.names_corner)
        self.name_labels = []
        for seat in range(players):
            label = Tap("", size=theme.SIZE_SMALL, bold=True, tid=f"sheet.name.{seat}")
            label._told = None  # what it was last told (`_tell`)
            label.bind(on_release=lambda _b, s=seat: self.on_name(s))
            self.name_labels.append(label)
            names.add_widget(label)
        self.add_widget(names)
        self.row_widgets = []
        for k in range(fits):
            line = BoxLayout(spacing=dp(GAP))
            label = follow_width(Text("", size=theme.SIZE_SMALL, halign="right",
                                      color=theme.MUTED, tid=f"sheet.label.{k}"), label_width)
            line.add_widget(label)
            cells = []
            for seat in range(players):
                cell = GridCell(text="", size=theme.SIZE_BUTTON, bold=True)
                cell._told = None  # the Cell it was last told (`_tell`)
                cell.bind(on_release=lambda _b, k=k, s=seat: self._tapped(k, s),
                          pos=self._grid_later, size=self._grid_later,
                          opacity=self._grid_later)
                cells.append(cell)
                line.add_widget(cell)
            self.row_widgets.append((label, cells))
            self.add_widget(line)
        self._grid_later()
        self.add_widget(Widget(size_hint_y=0.001))  # the rows left take what is over
        totals = follow_height(BoxLayout(spacing=dp(GAP)), dp(ROW))
        self.totals_corner = follow_width(BoxLayout(), label_width)
        totals.add_widget(self.totals_corner)
        self.total_label = Text("", size=theme.SIZE_SMALL, bold=True, halign="right",
                                tid="sheet.total_label")
        self.total_labels = []
        for seat in range(players):
            label = Text("", size=theme.SIZE_BUTTON, bold=True, halign="center",
                         tid=f"sheet.total.{seat}")
            self.total_labels.append(label)
            totals.add_widget(label)
        self.add_widget(totals)

    def _draw_grid(self, *_: Any) -> None:
        """The panel under every cell shown, as one drawing instruction: two triangles
        a cell, where the layout put it (the gaps between show the background)."""
        vertices: list[float] = []
        indices: list[int] = []
        for _label, cells in self.row_widgets:
            for cell in cells:
                if cell.opacity == 0:
                    continue
                x, y = cell.pos
                w, h = cell.size
                n = len(vertices) // 4
                vertices += (x, y, 0, 0, x + w, y, 1, 0, x + w, y + h, 1, 1, x, y + h, 0, 1)
                indices += (n, n + 1, n + 2, n, n + 2, n + 3)
        self._grid.vertices = vertices
        self._grid.indices = indices

    def _tell(self, fits: int) -> None:
        app_scale = self._scale()
        # the pager: ▲ in the names' corner, ▼ under the last row shown, in the totals
        # row's corner, only where there are rows that way (else the corner's words)
        has_up = self.first > 0
        has_down = self.first + fits < len(self.rows)
        self._corner(has_up, has_down)
        width = (self.width - self.label_width * app_scale) / max(1, len(self.columns)) \
            - dp(GAP)
        for seat, column in enumerate(self.columns):
            label = self.name_labels[seat]
            told = (column, width, app_scale)
            if label._told == told:  # re-told only where it changed (an entry changes
                continue  # one total and a cell or two)
            label._told = told
            # the button's text box is 8 px narrower than the button (`Tap`)
            label.text = fitted(column.name, width - dp(8) - 2,
                                sp(theme.SIZE_SMALL) * app_scale)
            fill = theme.blend(column.colour, theme.PANEL, 0.55) if column.out \
                else column.colour
            if fill != label._fill:
                label.set_background(fill)
            total = self.total_labels[seat]
            total.text = column.total
            total.color = theme.MUTED if column.out else theme.TEXT
        on_panel = theme.text_on(theme.PANEL)
        for k, (label, cells) in enumerate(self.row_widgets):
            index = self.first + k
            row = self.rows[index] if index < len(self.rows) else None
            label.text = "" if row is None else row.label
            for seat, tap in enumerate(cells):
                cell = row.cells[seat] if row is not None else None
                told = (cell, width, app_scale) if cell is not None and cell.short \
                    else (cell,)
                if tap._told == told:
                    continue
                tap._told = told
                tap.tid = "" if cell is None else f"sheet.cell.{k}.{seat}"
                tap.opacity = 0 if cell is None else 1
                tap.disabled = cell is None or cell.fixed
                if cell is None:
                    tap.text = ""
                    continue
                set_text(tap, _fitting((cell.text, *cell.short), width, app_scale))
                fill = theme.SELECTED if cell.selected else (
                    theme.BUTTON if cell.missing else theme.PANEL)
                if fill != tap._fill:  # re-told only where it changed
                    tap.set_background(fill)
                if not cell.selected:
                    tap.color = theme.ACCENT if cell.note or cell.missing else on_panel

    def _corner(self, has_up: bool, has_down: bool) -> None:
        """▲ where rows hide above, else the rows' name ("Round"); ▼ likewise below,
        else "Total"."""
        for box, button, label, text, shown in (
                (self.names_corner, self.up, self.corner_label, self.corner_text, has_up),
                (self.totals_corner, self.down, self.total_label, self.total_text,
                 has_down)):
            label.text = text
            wanted = button if shown else label
            if wanted.parent is not box:
                box.clear_widgets()
                box.add_widget(wanted)

    def _tapped(self, k: int, seat: int) -> None:
        index = self.first + k
        if index < len(self.rows):
            self.on_cell(index, seat)

