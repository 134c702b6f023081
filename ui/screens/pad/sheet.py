"""The score pad's sheet: a row per round or category, a column per player, the names
frozen at the top and the totals at the bottom, a page of rows at a time.

Read from a seat: cells and totals at `FIGURE` (20.6 px capitals, what the table reads
and corrects), a four-digit score whole on one line in an eighth of an 800x480 sheet;
the names' heads told apart (`told_apart`: "Christophe" and "Christine" each whole on
two lines, never both "Chris."), the start player's marked with `START`; a team game's
team totals in a row under the players' (`team_label`).

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
`sheet.total.<seat>`, `sheet.team.<seat>` (the seat's team total), `sheet.up`,
`sheet.down`, `sheet.corner`, `sheet.total_label`, `sheet.team_label`.
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
from kivy.utils import escape_markup

from ui import theme
from ui.screens.castor.common import SYMBOL_FONT
from ui.screens.pad.common import ARROW, set_text
from ui.widgets.basics import (
    Tap,
    Text,
    TouchesWithin,
    follow_height,
    follow_width,
    paint_background,
)
from ui.widgets.basics import _follow_scale as follow_scale

GAP = 2  # px between rows and columns
ROW = theme.MIN_TOUCH  # a row's height at 800x480: each cell is a touch target
#: the row label column for round numbers: as wide as the pager's ▲ and ▼ need
LABEL_ROUNDS = theme.MIN_TOUCH
LABEL_CATEGORIES = 128  # for category names (two lines at most)
MISSING = "?"
#: cells and totals: what the table reads and corrects from a seat, 20.6 px capitals
#: ("1000" in bold is 68 px: an eighth of the sheet beside the keypad at 800x480)
FIGURE = theme.SIZE_ACT
#: with fewer players, the key-figure size where a bold "0000" fits the column
BIG_FIGURE = theme.SIZE_FIGURE
NAME = theme.SIZE_SMALL  # a column's head: up to two lines in a row's height
#: with fewer players, every name whole on one line at the largest of these that fits
BIG_NAMES = (theme.SIZE_ACT, theme.SIZE_BUTTON)
#: the start player's head begins with it (DejaVu's: Roboto has no triangles)
START = "▶"


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
    start: bool = False  # the start player: marked on the head
    team: str = ""  # the seat's team total (a team game's row under the totals)


@lru_cache(maxsize=1024)
def _text_width(text: str, size: float, bold: bool, font: str = "Roboto") -> float:
    from kivy.core.text import Label as CoreLabel

    return float(CoreLabel(font_size=size, bold=bold, font_name=font).get_extents(text)[0])


def _shown_width(text: str, size: float, bold: bool) -> float:
    """The width `set_text` draws `text` at: its arrows in the symbol font."""
    parts = text.split(ARROW)
    width = sum(_text_width(part, size, bold) for part in parts if part)
    if len(parts) > 1:
        width += (len(parts) - 1) * _text_width(ARROW, size, bold, SYMBOL_FONT)
    return width


def _cut(word: str, width: float, size: float, bold: bool) -> str | None:
    """The word's longest start that fits with a full stop ("Clém."), if one does."""
    for end in range(len(word) - 1, 0, -1):
        short = word[:end].rstrip() + "."
        if _text_width(short, size, bold) <= width:
            return short
    return None


def _heads(name: str, width: float, size: float, bold: bool, lead: float) -> list[str]:
    """The ways a name can head a column `width` wide, best first: whole on one line;
    on two lines at a space or hyphen ("Player\n7"); whole on two lines cut inside the
    word, as evenly as they fit ("Chris\ntophe"); then cut short with a full stop
    ("Pla.\n7", "Clém."). `lead`: what the first line gives up (the start's mark)."""
    first_width = width - lead

    def fits(text: str, room: float) -> bool:
        return _text_width(text, size, bold) <= room

    found: list[str] = []
    if fits(name, first_width):
        found.append(name)
    if lead and fits(name, width):  # the mark on a line of its own, the name whole
        found.append(f"\n{name}")
    breaks = [i + 1 for i, ch in enumerate(name) if ch in " -" and 0 < i < len(name) - 1]
    # cut inside the word only for a name of one word ("Joue\nur 1" reads worse than
    # "Jou.\n1")
    inside = range(2, len(name) - 1) if not breaks else range(0)
    for at in reversed(breaks):  # the longest first line first
        first, second = name[:at].rstrip(), name[at:].lstrip()
        if fits(first, first_width) and fits(second, width):
            found.append(f"{first}\n{second}")
            break
    evenly = [(abs(_text_width(name[:at], size, bold) - _text_width(name[at:], size, bold)),
               name[:at], name[at:]) for at in inside
              if name[at - 1] not in " -" and name[at] not in " -"
              and fits(name[:at], first_width) and fits(name[at:], width)]
    if evenly:
        _gap, first, second = min(evenly)
        found.append(f"{first}\n{second}")
    words = name.split()
    if len(words) > 1 and fits(words[-1], width):
        cut = _cut(" ".join(words[:-1]), first_width, size, bold)
        if cut is not None:
            found.append(f"{cut}\n{words[-1]}")
    found.append(_cut(name, first_width, size, bold) or name[:1])
    return list(dict.fromkeys(found))


def fitted(name: str, width: float, size: float, bold: bool = True) -> str:
    """The name as a column's head shows it in `width`, on its own (`told_apart`)."""
    return _heads(name, width, size, bold, 0)[0]


def told_apart(names: Sequence[str], width: float, size: float, bold: bool = True,
               leads: Sequence[float] = ()) -> list[str]:
    """Every column's head (`_heads`), no two the same where their names differ: a
    head shared ("Chris." for Christophe and Christine) gives way to each name's next
    way, until they differ or none is left. The keypad's line and the standings show
    each name whole."""
    ways = [_heads(name, width, size, bold, leads[i] if i < len(leads) else 0)
            for i, name in enumerate(names)]
    chosen = [0] * len(names)
    for _ in range(8):
        shown = [way[k] for way, k in zip(ways, chosen, strict=True)]
        moved = False
        for i, head in enumerate(shown):
            alike = [j for j, other in enumerate(shown) if other == head
                     and names[j] != names[i]]
            if alike and chosen[i] + 1 < len(ways[i]):
                chosen[i] += 1
                moved = True
        if not moved:
            return shown
    return [way[k] for way, k in zip(ways, chosen, strict=True)]


def _fitting(texts: Sequence[str], width: float, size: float, scale: float) -> str:
    """The first of a cell's texts ("11 coins → 3", "11 → 3", "3") that fits its
    width on one line at `size`, else the last (drawn smaller by `one_line`)."""
    font = sp(size) * scale
    for text in texts[:-1]:
        if _shown_width(text, font, True) <= width - 2:
            return text
    return texts[-1]


class GridCell(Tap):
    """A cell of the sheet: square, its panel drawn by the sheet's grid; its own box
    is in its canvas only while its look is not the grid's (`look() != PANEL`)."""

    def __init__(self, **kwargs: Any) -> None:
        self._own_box = True  # Tap draws its box: taken out at the first `_redraw`
        super().__init__(background=theme.PANEL, **kwargs)
        self._rect.radius = [0]  # squares, as the grid's
        # never wrapped ("100" over "0"): a figure on one line, centred in the cell
        self.bind(opacity=self._redraw, size=lambda *_: setattr(self, "text_size",
                                                                (None, None)))
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


def one_line(label: Any, text: str, size: float, scale: float, width: float) -> None:
    """`text` on one line at `size` (scaled), or at the size that fits `width` (the
    label's share of the row) when it is wider (a five-digit score), never under
    `MIN_TEXT`."""
    base = sp(size) * scale
    need = _shown_width(text, base, bool(label.bold)) if text else 0
    # a markup label (the arrow, `set_text`) shortens past its width less Kivy's own
    # margin and a whole pixel
    room = width - (4 if ARROW in text else 2)
    font = base if need <= room or room <= 1 else max(sp(theme.MIN_TEXT) * scale,
                                                      base * room / need)
    if label.font_size != font:
        label.font_size = font
    set_text(label, text)


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
        #: players, rows, label width, a team row
        self._shape: tuple[int, int, float, bool] | None = None
        self.label_width = LABEL_ROUNDS
        self.corner_text = ""
        self.total_text = ""
        self.team_text = ""  # the team row's label ("" : no team row)
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
             label_width: float, corner: str, total: str, team: str = "") -> None:
        """`rows`: the sheet's rows, each made only when its page shows it (a sheet of
        200 rounds shows five). `team`: the team row's label, "" for none."""
        self.columns, self.rows = tuple(columns), rows
        self.focus = focus
        self.label_width = label_width
        self.corner_text, self.total_text, self.team_text = corner, total, team
        self._draw()

    def page(self, direction: int) -> None:
        """A page up (-1) or down (+1): the rows that fit, less one kept for context."""
        step = max(1, self.fits() - 1)
        self.first = max(0, min(self.first + direction * step, len(self.rows) - self.fits()))
        self.focus = None  # the table looks elsewhere: the row typed in may leave view
        self._draw()

    def fits(self) -> int:
        """How many rows fit between the names and the totals (and the team row), one
        at the least."""
        scale = self._scale()
        row = dp(ROW) * scale + dp(GAP)
        frozen = 3 if self.team_text else 2
        return max(1, int((self.height - frozen * row) // row))

    @staticmethod
    def _scale() -> float:
        from kivy.app import App

        return float(getattr(App.get_running_app(), "scale", 1.0))

    def _draw(self) -> None:
        if self.height <= 1 or not self.columns:
            return
        fits = self.fits()
        shape = (len(self.columns), fits, self.label_width, bool(self.team_text))
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
    def _build(self, players: int, fits: int, label_width: float, teams: bool) -> None:
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
            label = Tap("", size=NAME, bold=True, tid=f"sheet.name.{seat}", markup=True)
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
                cell = GridCell(text="", size=FIGURE, bold=True)
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
            label = Text("", size=FIGURE, bold=True, halign="center",
                         tid=f"sheet.total.{seat}")
            paint_background(label, theme.BUTTON)  # told from the rows, and apart
            self.total_labels.append(label)
            totals.add_widget(label)
        self.add_widget(totals)
        self.team_labels = []
        if teams:  # each seat's team total under its own: the score that decides
            line = follow_height(BoxLayout(spacing=dp(GAP)), dp(ROW))
            self.team_label = follow_width(Text("", size=theme.SIZE_SMALL, bold=True,
                                                halign="right", tid="sheet.team_label"),
                                           label_width)
            line.add_widget(self.team_label)
            for seat in range(players):
                label = Text("", size=FIGURE, bold=True, halign="center",
                             color=theme.ACCENT, tid=f"sheet.team.{seat}")
                self.team_labels.append(label)
                line.add_widget(label)
            self.add_widget(line)

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
        heads, name_size = self._heads(width, app_scale)
        figure = BIG_FIGURE if _text_width("0000", sp(BIG_FIGURE) * app_scale, True) \
            <= width - 2 else FIGURE
        for seat, column in enumerate(self.columns):
            label = self.name_labels[seat]
            told = (column, width, app_scale, heads[seat])
            if label._told == told:  # re-told only where it changed (an entry changes
                continue  # one total and a cell or two)
            label._told = told
            head = escape_markup(heads[seat])
            follow_scale(label, name_size)
            label.text = f"[font={SYMBOL_FONT}]{START}[/font] {head}" if column.start \
                else head
            fill = theme.blend(column.colour, theme.PANEL, 0.55) if column.out \
                else column.colour
            if fill != label._fill:
                label.set_background(fill)
            total = self.total_labels[seat]
            one_line(total, column.total, figure, app_scale, width)
            total.color = theme.MUTED if column.out else theme.TEXT
            if self.team_labels:
                one_line(self.team_labels[seat], column.team, figure, app_scale,
                         width)
        if self.team_labels:
            self.team_label.text = self.team_text
        on_panel = theme.text_on(theme.PANEL)
        for k, (label, cells) in enumerate(self.row_widgets):
            index = self.first + k
            row = self.rows[index] if index < len(self.rows) else None
            label.text = "" if row is None else row.label
            for seat, tap in enumerate(cells):
                cell = row.cells[seat] if row is not None else None
                if tap._told == (cell, width, app_scale):
                    continue
                tap._told = (cell, width, app_scale)
                tap.tid = "" if cell is None else f"sheet.cell.{k}.{seat}"
                tap.opacity = 0 if cell is None else 1
                tap.disabled = cell is None or cell.fixed
                if cell is None:
                    tap.text = ""
                    continue
                shown = _fitting((cell.text, *cell.short), width, figure, app_scale)
                one_line(tap, shown, figure, app_scale, width)
                fill = theme.SELECTED if cell.selected else (
                    theme.BUTTON if cell.missing else theme.PANEL)
                if fill != tap._fill:  # re-told only where it changed
                    tap.set_background(fill)
                if not cell.selected:
                    tap.color = theme.ACCENT if cell.note or cell.missing else on_panel

    def _heads(self, width: float, scale: float) -> tuple[list[str], float]:
        """Every column's head in `width` (the button's text box is 8 px narrower than
        the button, `Tap`), told apart, and their size: every name whole on one line at
        a size of `BIG_NAMES` if one fits, else `NAME`. Kept while the names and the
        width stay."""
        names = tuple((c.name, c.start) for c in self.columns)
        key = (names, width, scale)
        if getattr(self, "_heads_for", (None,))[0] != key:
            room = width - dp(8) - 2
            for base in (*BIG_NAMES, NAME):
                size = sp(base) * scale
                lead = _text_width(START + " ", size, True, SYMBOL_FONT)
                heads = told_apart([c.name for c in self.columns], room, size,
                                   leads=[lead if c.start else 0 for c in self.columns])
                if base == NAME or all(head == c.name for head, c
                                       in zip(heads, self.columns, strict=True)):
                    break
            self._heads_for = (key, (heads, base))
        heads, base = self._heads_for[1]
        return list(heads), base

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

