"""Pr. Evil's turn card on the play screen: the turn's phases, the instruction for now
(large), and one line per effect with its die face (or symbol) and colour chip.

It shows `companion.games.evil.card.turn_card` for the state on screen, so it is right
after a roll, an adjustment, an undo or a redo alike. Every text wraps in its width and
the card shrinks its type (never under the legibility floor) rather than cut a line off.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.graphics import Color, SmoothRoundedRectangle
from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from companion.games.evil.card import Card, Line
from companion.games.evil.dice import DICE, parse_face
from ui import theme
from ui.widgets.dice import DieFace, ink_on
from ui.widgets.kept_texture import KeptLabel
from ui.widgets.text_height import text_height

#: the instruction is a key figure (26 px cap height: 37 px of Roboto at the least)
HEADLINE_SP = (theme.SIZE_FIGURE, 37)
#: each effect: what the table acts on, 20 px capitals at the least (`theme.SIZE_ACT`)
LINE_SP = (theme.SIZE_ACT + 2, theme.SIZE_ACT + 1, theme.SIZE_ACT)
DETAIL_SP = theme.SIZE_SMALL  # a line's reminder of the rule (what it is, not what to do)
PHASE_SP = theme.SIZE_SMALL
PHASE_DP = 34  # the phase strip's height
ICON_DP = 40
#: when the card cannot fit at the smallest type, lines go in this order (higher first)
DROP_FIRST = {"turn": 4, "power": 3, "place": 3, "recovered": 2, "lost": 2, "board": 0}
PHASE_KEYS = ("evil.ui.phase1", "evil.ui.phase2", "evil.ui.phase3")
#: the pool's rows (`TurnCard.warm`), shared by the card shown and the one prepared for
#: the next roll: more than two usual cards say together (a roll says three to six
#: lines; its longest: its die, a loss per treasure, the waiting black die, a placement
#: per treasure, the clock, the power space and the choice, the next turn); a longer
#: pair adds rows, once
POOL = 16


class Para(KeptLabel):
    """A paragraph: wraps in its width and is exactly as tall as its text."""

    def __init__(self, text: str = "", size: float = 18, tid: str = "", **kwargs: Any) -> None:
        kwargs.setdefault("color", theme.TEXT)
        super().__init__(text=text, halign="left", valign="middle", size_hint_y=None,
                         height=0, **kwargs)
        self.tid = tid
        self.base = size
        app = App.get_running_app()
        self.font_size = sp(size) * float(getattr(app, "scale", 1.0))
        self.bind(width=self._wrap, texture_size=self._fit_height)

    def set_size(self, size: float, scale: float) -> None:
        self.base = size
        self.font_size = sp(size) * scale

    def _wrap(self, *_: Any) -> None:
        self.text_size = (self.width, None)

    def _fit_height(self, *_: Any) -> None:
        self.height = self.texture_size[1] if self.text else 0


class Badge(Widget):
    """A rounded square with a short text (a colour's letter, a symbol). `paint` gives
    it another text and fill: a pooled badge is re-told, never built again."""

    def __init__(self, text: str, fill: tuple[float, float, float, float], tid: str = "",
                 font_name: str = "Roboto", **kwargs: Any) -> None:
        super().__init__(size_hint=(None, None), **kwargs)
        self.tid = tid
        self.fill = fill
        with self.canvas.before:
            self._colour = Color(*fill)
            self._rect = SmoothRoundedRectangle(radius=[dp(6)])
        self.label = KeptLabel(text=text, bold=True, color=ink_on(fill), font_name=font_name,
                               halign="center", valign="middle")
        self.add_widget(self.label)
        self.bind(pos=self._layout, size=self._layout)

    def paint(self, text: str, fill: tuple[float, float, float, float]) -> None:
        self.fill = fill
        self._colour.rgba = fill
        self.label.text = text
        self.label.color = ink_on(fill)

    def _layout(self, *_: Any) -> None:
        self._rect.pos, self._rect.size = self.pos, self.size
        self.label.pos, self.label.size = self.pos, self.size
        self.label.font_size = self.height * 0.55


# symbols for the effects that are not a die face (DejaVu Sans has them all)
SYMBOLS: dict[str, tuple[str, tuple[float, float, float, float]]] = {
    "lost": ("✗", theme.DANGER),
    "recovered": ("✓", theme.SUCCESS),
    "place": ("+", theme.ACCENT),
    "power": ("★", theme.ACCENT),
    "board": ("⟲", theme.BUTTON),
    "turn": ("»", theme.BUTTON),
}


class TurnCard(BoxLayout):
    """The card. `show(card)` replaces its content; it then fits itself to its height."""

    def __init__(self, pool: list[CardRow] | None = None, **kwargs: Any) -> None:
        """`pool`: the rows of another card, shared (the play screen's card prepared
        for the next roll): each card takes the rows the other does not show."""
        # no width until its screen lays it out (not Kivy's default 100 px): the card is
        # fitted once it has its own
        kwargs.setdefault("size", (0, 0))
        super().__init__(orientation="vertical", spacing=dp(4), **kwargs)
        self.tid = "play.card"
        app = App.get_running_app()
        self.phase_row = BoxLayout(spacing=dp(4), size_hint_y=None, height=dp(PHASE_DP))
        self.phase_chips: list[KeptLabel] = []
        for n, key in enumerate(PHASE_KEYS, 1):
            # DejaVu Sans: the done phases' check mark
            chip = KeptLabel(text=app.tr(key), color=theme.TEXT, bold=True, halign="center",
                             valign="middle", font_name="DejaVuSans")
            chip.tid = f"play.card.phase{n}"
            chip.phase_state = "next"
            with chip.canvas.before:
                chip._paint = Color(*theme.PANEL)
                chip._rect = SmoothRoundedRectangle(radius=[dp(6)])
            chip.bind(pos=self._chip_layout, size=self._chip_layout)
            self.phase_chips.append(chip)
            self.phase_row.add_widget(chip)
        self.add_widget(self.phase_row)
        self.headline = Para(size=HEADLINE_SP[0], tid="play.say", bold=True)
        self.add_widget(self.headline)
        self.lines_box = RowStack(spacing=dp(4))
        self.add_widget(self.lines_box)
        self.add_widget(Widget())  # the rest of the card's height, empty
        # the lines' widgets, re-told by each card: the first card builds the rows it
        # needs (the first frame waits for no more), `warm` the rest of the pool while
        # the table plays, so that a roll builds none
        self.pool: list[CardRow] = [] if pool is None else pool
        self.lines: list[Para] = []
        self._rows: list[CardRow] = []
        self._shown: list[Line] = []
        self.card: Card | None = None
        self._colours: tuple[str, ...] = ()
        self._scale_shown = 0.0  # the type scale the card was last laid out at
        # fitting sets the rows' and texts' heights, never the card's own size: neither
        # trigger can set off itself, and each runs once per frame at most
        self._fit_soon = Clock.create_trigger(self._fit, -1)
        self._rebuild_soon = Clock.create_trigger(lambda _dt: self._rebuild(), -1)
        self.bind(size=self._rebuild_soon)

    # nothing on the card takes a touch: a touch need not visit its few dozen widgets
    # (every tap on the screen did, ROLL's included)
    def on_touch_down(self, touch: Any) -> bool:
        return False

    def on_touch_move(self, touch: Any) -> bool:
        return False

    def on_touch_up(self, touch: Any) -> bool:
        return False

    def warm(self, rows: int) -> bool:
        """Build up to `rows` more rows of the pool (while the table plays); True while
        the pool is not full."""
        for _ in range(min(rows, POOL - len(self.pool))):
            self.pool.append(CardRow())
        return len(self.pool) < POOL

    @staticmethod
    def _chip_layout(chip: KeptLabel, *_: Any) -> None:
        chip._rect.pos, chip._rect.size = chip.pos, chip.size
        chip.text_size = chip.size

    def _scale(self) -> float:
        return float(getattr(App.get_running_app(), "scale", 1.0))

    def show(self, card: Card, colours: tuple[str, ...]) -> None:
        if card == self.card:
            return
        self.card, self._colours = card, colours
        self._rebuild()

    def shows(self, card: Card, colours: tuple[str, ...], like: TurnCard) -> bool:
        """This card shows `card` as `like` would: the same content at the same size,
        place and type scale (a card prepared away from the screen, see the play screen)."""
        return (self.card == card and self._colours == colours
                and self._scale_shown == self._scale()
                and tuple(self.size) == tuple(like.size) and tuple(self.pos) == tuple(like.pos))

    def _rebuild(self) -> None:
        """Lay the card out again at its largest type, then fit it to the height."""
        card, colours = self.card, self._colours
        if card is None or self.width <= 1:
            return  # told once its screen gives it a width (its size calls this again)
        self._scale_shown = self._scale()
        # the fit is asked for before any text changes: it runs before the texts' own
        # updates in this frame, which then render each text once, at the size it
        # settles on (not first at the largest)
        self._fit_soon()
        app = App.get_running_app()
        scale = self._scale()
        for n, chip in enumerate(self.phase_chips, 1):
            # one phase is current (INK on ACCENT); the ones before it are done (a check
            # mark, muted); the ones after it are to come (plain, on a button's fill)
            state = "current" if n == card.phase else "done" if n < card.phase else "next"
            chip.phase_state = state
            fill = {"current": theme.ACCENT, "done": theme.PANEL, "next": theme.BUTTON}[state]
            chip._paint.rgba = fill
            chip.color = theme.MUTED if state == "done" else theme.text_on(fill)
            chip.bold = state == "current"
            label = app.tr(PHASE_KEYS[n - 1])
            chip.text = f"✓ {label}" if state == "done" else label
            chip.font_size = sp(PHASE_SP) * scale
        self.headline.text = app.say(card.headline)
        self.lines_box.clear_widgets()  # the pooled rows, taken out to be re-told
        self.lines = []
        self._rows = []
        self._shown = []
        side = dp(ICON_DP) * scale
        free = [row for row in self.pool if row.parent is None]  # not on the other card
        while len(free) < len(card.lines):
            free.append(CardRow())
            self.pool.append(free[-1])
        for index, line in enumerate(card.lines):
            row = free[index]
            # a row new to the card takes its width now, not from the stack's next pass:
            # its text would be wrapped (and rendered) at a row's default width first
            row.width = self.lines_box.width
            row.show(line, index, colours, side)
            self.lines_box.add_widget(row)
            self.lines.append(row.text)
            self._rows.append(row)
            self._shown.append(line)
        # a text asked to render before the fit was (a row just built for the pool, in
        # this same tick) renders after it all the same: once, at the size it settles on
        for text in (self.headline, *self.lines, *(row.detail for row in self._rows)):
            pending = text._trigger_texture
            if pending.is_triggered:
                pending.cancel()
                pending()
        self._refit()

    # -- fitting ------------------------------------------------------------------------
    def _refit(self) -> None:
        scale = self._scale()
        self.phase_row.opacity, self.phase_row.height = 1, dp(PHASE_DP) * scale
        self.headline.set_size(HEADLINE_SP[0], scale)
        for text in self.lines:
            text.set_size(LINE_SP[0], scale)
        for row in self._rows:
            row.detail.set_size(DETAIL_SP, scale)

    def needed_height(self) -> float:
        """The height the card's content takes now."""
        rows = self.lines_box.children
        return (self.phase_row.height + self.headline.height + sum(r.height for r in rows)
                + self.spacing * 3 + self.lines_box.spacing * max(0, len(rows) - 1))

    def fits(self) -> bool:
        return self.needed_height() <= self.height + 1

    def _measure(self) -> None:
        """Each text's height at the card's width (rows not laid out yet included), from
        Kivy's layout alone: the textures are drawn once, at the size the fit settles on."""
        self.headline.text_size = (self.width, None)
        self.headline.height = text_height(self.headline, self.width)
        for row, text in zip(self._rows, self.lines, strict=True):
            width = row.text_width(self.width)
            text.text_size = (width, None)
            text.height = text_height(text, width)
            detail = row.detail
            detail.text_size = (width, None)
            detail.height = text_height(detail, width)
            row.height = max(row.side, text.height + detail.height)

    def _fit(self, *_: Any) -> None:
        """One size smaller at a time, lines first, until the content fits; at the floor
        the phase strip goes, then the rules' reminders under the lines, then the least
        needed lines. Done at once: the card is
        never shown cut off, not even for a frame."""
        if self.width <= 1:
            return
        scale = self._scale()
        head, line = 0, 0
        while True:
            self._measure()
            if self.fits():
                return
            if line + 1 < len(LINE_SP):
                line += 1
            elif head + 1 < len(HEADLINE_SP):
                head += 1
            elif self.phase_row.opacity:
                self.phase_row.opacity, self.phase_row.height = 0, 0
                continue
            elif any(row.detail.text for row in self._rows):
                # the rules' reminders go before any line: the least needed line's first
                ranks = [DROP_FIRST.get(line.icon, 1) if row.detail.text else -1
                         for row, line in zip(self._rows, self._shown, strict=True)]
                self._rows[ranks.index(max(ranks))].drop_detail()
                continue
            elif len(self.lines) > 1:
                index = self._least_needed()
                self.lines_box.remove_widget(self._rows.pop(index))
                self.lines.pop(index)
                self._shown.pop(index)
                continue
            else:
                return
            self.headline.set_size(HEADLINE_SP[head], scale)
            for text in self.lines:
                text.set_size(LINE_SP[line], scale)

    def _least_needed(self) -> int:
        """The shown line to give up first: a power or placement note (the dialogs and
        the dial say them too) before the dice's own effects; the board line last."""
        ranks = [DROP_FIRST.get(line.icon, 1) for line in self._shown]
        return ranks.index(max(ranks))

    def texts(self) -> list[str]:
        """What the card says, top to bottom (tests read it)."""
        return [self.headline.text, *(
            f"{row.text.text} {row.detail.text}".strip() for row in self._rows)]


class RowStack(Widget):
    """The card's lines, top to bottom, as tall as they are together. It stacks them
    itself, once a frame: a box layout laid them out three times a roll, each of its
    rows' heights setting it off again."""

    def __init__(self, spacing: float) -> None:
        super().__init__(size_hint_y=None, height=0)
        self.spacing = spacing
        self.rows: list[Widget] = []  # top first
        self._stack_soon = Clock.create_trigger(self._stack, -1)
        self.bind(pos=self._stack_soon, width=self._stack_soon)

    def add_widget(self, widget: Widget, *args: Any, **kwargs: Any) -> None:
        super().add_widget(widget, *args, **kwargs)
        self.rows.append(widget)
        widget.fbind("height", self._stack_soon)
        self._stack_soon()

    def remove_widget(self, widget: Widget, *args: Any, **kwargs: Any) -> None:
        if widget in self.rows:
            self.rows.remove(widget)
            widget.funbind("height", self._stack_soon)
        super().remove_widget(widget, *args, **kwargs)
        self._stack_soon()

    def clear_widgets(self, children: Any = None) -> None:
        for row in list(self.rows if children is None else children):
            self.remove_widget(row)

    def _stack(self, *_: Any) -> None:
        rows = self.rows
        self.height = sum(r.height for r in rows) + self.spacing * max(0, len(rows) - 1)
        top = self.top
        for row in rows:
            row.width = self.width
            row.pos = (self.x, top - row.height)
            top -= row.height + self.spacing


class CardRow(Widget):
    """One line of the card: its die face or symbol, its colour chip, its text. The
    card keeps a pool of them and `show` re-tells one for another line.

    It places its few children itself (the icons at its top left, the text beside
    them, centred): nested box layouts each took two or three passes a roll, as every
    text's height set off its parents' layouts again."""

    GAP = dp(3)  # between the icons
    SPACING = dp(6)  # between the icons and the text

    def __init__(self) -> None:
        super().__init__(size_hint_y=None, height=0)
        self.face = DieFace("professor", size_hint=(None, None))
        # DejaVu Sans has every symbol
        self.symbol = Badge("", theme.BUTTON, font_name="DejaVuSans")
        self.chip = Badge("", theme.BUTTON)
        self.text = Para(size=LINE_SP[0])
        self.add_widget(self.text)
        # the rule's reminder under it, smaller and muted: the first to give way
        self.detail = Para(size=DETAIL_SP, color=theme.MUTED)
        self.add_widget(self.detail)
        self.icons: list[Widget] = []
        self.side = 0.0  # the icons' height
        self.icons_width = 0.0
        self.text.bind(height=self._height)
        self.detail.bind(height=self._height)
        # placed once a frame, after the fit has set every height (not at each of them)
        self._place_soon = Clock.create_trigger(self._place, -1)
        self.bind(pos=self._place_soon, size=self._place_soon)

    def text_width(self, width: float) -> float:
        """The text's width in a row `width` wide."""
        return max(1.0, width - self.icons_width - self.SPACING)

    def _height(self, *_: Any) -> None:
        self.height = max(self.side, self.text.height + self.detail.height)
        self._place_soon()

    def drop_detail(self) -> bool:
        """Give up the reminder for room; False if there was none to give."""
        if not self.detail.text:
            return False
        self.detail.text = ""
        self.detail.height = 0
        return True

    def _place(self, *_: Any) -> None:
        x = self.x
        for icon in self.icons:
            icon.pos = (x, self.top - icon.height)
            x += icon.width + self.GAP
        text, detail = self.text, self.detail
        text.width = detail.width = self.text_width(self.width)
        top = self.center_y + (text.height + detail.height) / 2
        text.pos = (self.right - text.width, top - text.height)
        detail.pos = (text.x, text.y - detail.height)

    def show(self, line: Line, index: int, colours: tuple[str, ...], side: float) -> None:
        app = App.get_running_app()
        self.tid = f"play.card.line.{index}"
        self.side = side
        icons: list[Widget] = []
        die = _die_of(line.icon, colours)
        if die is not None:
            self.face.cast(die, white=die != "clock")
            self.face.size = (side, side)
            self.face.tid = f"play.card.icon.{index}"
            self.face.show(line.icon)
            icons.append(self.face)
        elif line.icon in SYMBOLS:
            symbol, fill = SYMBOLS[line.icon]
            self.symbol.paint(symbol, fill)
            self.symbol.size = (side, side)
            self.symbol.tid = f"play.card.icon.{index}"
            icons.append(self.symbol)
        if line.colour is not None:
            self.chip.paint(app.tr(f"evil.letter.{line.colour}"), theme.colour(line.colour))
            self.chip.size = (side * 0.8, side)
            self.chip.tid = f"play.card.chip.{index}"
            icons.append(self.chip)
        if icons != self.icons:
            for icon in self.icons:
                if icon not in icons:
                    self.remove_widget(icon)
            for icon in icons:
                if icon.parent is None:
                    self.add_widget(icon)
            self.icons = icons
        self.icons_width = sum(w.width for w in icons) + self.GAP * max(0, len(icons) - 1)
        said = app.say(line.text)
        if line.parts:
            said = f"{said} {' · '.join(app.say(part) for part in line.parts)}"
        self.text.text = said
        self.text.tid = f"play.card.text.{index}"
        self.detail.text = app.say(line.detail) if line.detail is not None else ""
        self.detail.tid = f"play.card.detail.{index}"
        self._height()


def _die_of(icon: str, colours: tuple[str, ...]) -> str | None:
    """Which die shows this face, if it is a die face."""
    for die in DICE:
        if die != "colour" and parse_face(die, icon, colours) is not None:
            return die
    return None
