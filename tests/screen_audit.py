"""The audit of a screen as the table reads it: walks the widgets on show and lists what a
player at arm's length cannot read or touch (issue 12's "How we will know").

Rules (thresholds are for the 800x480 design and grow with `app.scale`, so a larger
window is held to the same proportions):
- fit: a label's text, laid out in its box as Kivy does, is larger than the box (Kivy
  then drops the lines that do not fit, or the texture spills out), or was shortened.
- text: a label's font size (the em, as rendered in px) under 18 px.
- key figure: a key figure's cap height under 26 px. The cap height is estimated as
  0.72 x font size: DejaVu Sans' capitals are 1493/2048 = 0.73 em, Roboto's (Kivy's
  default font) 1456/2048 = 0.71 em. Key figures are widgets with a true `key_figure`
  attribute, or whose screen and test id match `KEY_FIGURES` below (the numbers and the sentence
  a turn depends on). Markup `[size=N]` counts: a die's face drawn at 34 px in a 14 px
  label is a 34 px figure.
- acted-on text: a line the table acts on below a headline (a true `acted_on`
  attribute, or `ACTED_ON`: Pr. Evil's turn card's effects; Castor's trick: who is
  winning, the trumps, the plan card to tap, the powers drawn, each card on the table)
  under a 20 px cap height (issue 29: "at least 20 px capitals for anything the table
  acts on").
- outside its dialog: a widget of an open dialog reaching past the dialog's body (its
  content taller than the dialog spills over its title and the screen).
- moved: a button (by test id) on the same screen as the last step that showed that
  screen without a dialog, in the same app, that is not where it was: no button moves
  between two taps (issue 29: Bond's message pushed every card's buttons up).
- touch: a widget that takes touches (Kivy's ButtonBehavior, toggles, sliders,
  switches, text inputs) under 48 px in either direction, or covered by another one
  at its middle (a finger meant for it lands on the other).
- overlaps: two controls (widgets that take touches, shown and on screen, neither
  inside the other) drawn over each other by more than `OVERLAP` px both ways, or a
  control outside the screen's header drawn over the header (`header` in
  ui/widgets/components.py: a bar with a `back_button`). A control in a list that
  scrolls counts only where the list shows it. Issue 46: the clock set-up's rows
  drawn over each other at 1280x720, its Add over seat 2's colour.
- contrast: text colour against the nearest opaque background under 4.5:1 (WCAG 2
  relative luminance). The background is found by walking from the label up to the
  window: each widget's canvas (and canvas.before) colours that fill a rectangle under
  the label's centre, composited in drawing order over the window's clear colour; a
  textured fill (a dialog's border image) counts as its tint.
- raw key: text that is a translation key (`domain.key`, a `snake_case` word, or a
  key's last part shown untranslated, like "standard" for "Standard").
- english: in French, a word of the English catalog that no French string uses
  (names, game names and shared words are allowed: `ALLOWED_WORDS`).

Text drawn straight on a canvas (the dial's numerals, the dice's pictures) is not a
Label and is not audited here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fnmatch import fnmatch
from functools import lru_cache
from typing import Any

MIN_TEXT = 18.0  # px, font size
MIN_KEY_CAP = 26.0  # px, cap height
MIN_ACT_CAP = 20.0  # px, cap height of what the table acts on
CAP_HEIGHT = 0.72  # cap height / font size (DejaVu Sans 0.73, Roboto 0.71)
MIN_TOUCH = 48.0  # px, both directions
MIN_CONTRAST = 4.5  # WCAG AA
#: px (at 800x480) two controls may share before they overlap: rounded corners and a
#: layout's rounding, never a finger's width
OVERLAP = 2.0

#: key figures, as (screen, test id) patterns: the numbers and the sentence a turn
#: depends on (the screen is the one shown, or behind the dialog)
#: Pr. Evil's treasure buttons: the letter and the minutes are key figures, the unit
#: ("min", "empty") is secondary text (18 px, the text rule) beside them.
#: Castor's and Bond's `play.say` is the last action, said again (not a sentence the turn
#: depends on, like Pr. Evil's): not a key figure, as two lines at key-figure size would
#: take the rows of a full table's scores at 800x480; Bond's headline is `play.turn`.
KEY_FIGURES = (
    ("evil_play", "play.say"), ("evil_play", "play.roll"),  # Pr. Evil
    ("evil_play", "play.treasure.*.letter"), ("evil_play", "play.treasure.*.minutes"),
    ("evil_play", "play.recovered"), ("evil_play", "play.lost"),
    ("castor_*", "board.total.*"), ("castor_*", "board.medals.*"),  # Castor
    ("castor_*", "end.medals"),
    # Castor's tracker: what the table must do now; the round's reveal, figure by figure
    ("castor_tricks", "tricks.status"), ("castor_*", "revealed.plan.*"),
    ("castor_*", "revealed.green.*"), ("castor_*", "revealed.yellow.*"),
    ("castor_*", "revealed.bonus.*"), ("castor_*", "revealed.malus.*"),
    ("castor_*", "revealed.total.*"), ("castor_*", "revealed.medal.*"),
    ("bond_*", "play.player.*.score"), ("bond_*", "end.score.*"),  # Bond
    ("bond_play", "play.turn"),
    ("bond_*", "capture.value"), ("bond_*", "attack.preview"),
    ("tray_play", "play.total"), ("tray_play", "play.die.*"),  # the dice tray
    # the score pad's standings: every total and rank, read from every seat
    ("pad_standings", "standings.total.*"), ("pad_standings", "standings.rank.*"),
    ("pad_end", "end.score.*"),
    ("*_end", "end.title"),  # every game's outcome
)

#: what the table acts on below the headline, as (screen, test id) patterns
ACTED_ON = (
    ("castor_tricks", "tricks.act"), ("castor_tricks", "tricks.chip.*.card"),
    ("evil_play", "play.card.text.*"),
    ("bond_play", "play.turn_hint"), ("bond_play", "play.say"),
)

#: words the French screens may share with the English catalog: names, game names,
#: words French uses too
ALLOWED_WORDS = frozenset((
    "anne", "bob", "chloé", "clémence", "player", "joueur",
    "evil", "bond", "castor", "cavale", "kill", "you", "before", "pr", "mr", "james",
    "ok", "csv", "json", "bgstats", "table", "companion", "min", "max", "pts", "gpio", "led",
    "leds", "fudge", "wifi", "ring", "buzzer",
))

LABEL_TYPES: tuple[type, ...] = ()


@dataclass(frozen=True)
class Violation:
    screen: str
    widget: str
    what: str

    def line(self, lang: str, size: str) -> str:
        return f"{lang}/{size}/{self.screen}/{self.widget}/{self.what}"


# -- colours -------------------------------------------------------------------------------
def luminance(rgb: tuple[float, ...]) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(max(0.0, min(1.0, c))) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def over(top: tuple[float, ...], below: tuple[float, float, float]) -> tuple[float, ...]:
    alpha = top[3] if len(top) > 3 else 1.0
    return tuple(t * alpha + b * (1 - alpha) for t, b in zip(top[:3], below, strict=True))


def _instructions(group: Any) -> list[Any]:
    """A canvas' own instructions, in drawing order (a child widget's canvas, nested in
    its parent's, is the child's)."""
    from kivy.graphics import Canvas, InstructionGroup

    out = []
    for child in group.children:
        if isinstance(child, Canvas):
            continue
        out.append(child)
        if isinstance(child, InstructionGroup):
            out.extend(_instructions(child))
    return out


def _fills(node: Any, point: tuple[float, float], own: bool) -> list[tuple[float, ...]]:
    """The colours `node` paints under `point` (in the space of node.pos), in order."""
    from kivy.graphics import (
        BorderImage,
        Color,
        Rectangle,
        RoundedRectangle,
        SmoothRectangle,
        SmoothRoundedRectangle,
    )

    shapes = (Rectangle, RoundedRectangle, SmoothRectangle, SmoothRoundedRectangle,
              BorderImage)
    groups = [node.canvas.before] if own else [node.canvas.before, node.canvas]
    fills = []
    for group in groups:
        colour = (1.0, 1.0, 1.0, 1.0)
        for ins in _instructions(group):
            if isinstance(ins, Color):
                colour = tuple(ins.rgba)
            elif isinstance(ins, shapes) and not (type(ins) in (Rectangle, RoundedRectangle)
                                                  and ins.texture is not None):
                (x, y), (w, h) = ins.pos, ins.size
                if w > 1 and h > 1 and x <= point[0] <= x + w and y <= point[1] <= y + h \
                        and colour[3] > 0.01:
                    fills.append(colour)
    return fills


def background(widget: Any) -> tuple[float, float, float]:
    """The colour under the middle of `widget` as drawn."""
    from kivy.core.window import Window

    wx, wy = widget.to_window(*widget.center)
    layers: list[list[tuple[float, ...]]] = []
    node, own = widget, True
    while node is not None and node is not Window:
        parent = node.parent
        point = (wx, wy) if parent is None or parent is Window else parent.to_widget(wx, wy)
        layers.append(_fills(node, point, own))
        node, own = parent, False
    colour: tuple[float, ...] = tuple(Window.clearcolor[:3])
    for fills in reversed(layers):  # the window first, the label's own fill last
        for fill in fills:
            colour = over(fill, colour)
    return colour[0], colour[1], colour[2]


# -- text ----------------------------------------------------------------------------------
_SIZE_TAG = re.compile(r"\[size=(\d+(?:\.\d+)?)(?:px|sp|dp)?\]")
_MARKUP = re.compile(r"\[/?[a-z]+(?:=[^\]]*)?\]")


def plain(widget: Any) -> str:
    text = str(widget.text)
    return _MARKUP.sub("", text) if getattr(widget, "markup", False) else text


def figure_size(widget: Any) -> float:
    """The largest font size in the label (markup [size=N] included)."""
    sizes = [float(widget.font_size)]
    if getattr(widget, "markup", False):
        sizes += [float(s) for s in _SIZE_TAG.findall(str(widget.text))]
    return max(sizes)


def overflow(widget: Any) -> str:
    """Why the label's text does not fit its box ('' if it does)."""
    from kivy.core.text import Label as CoreLabel
    from kivy.core.text.markup import MarkupLabel

    width, height = widget.width, widget.height
    core = widget._label
    if core is None or not str(widget.text).strip():
        return ""
    text_size = widget.text_size
    if text_size is None or text_size[0] is None:  # unconstrained: the texture is the text
        tw, th = widget.texture_size
        if tw > width + 1 or th > height + 1:
            return f"text {tw:.0f}x{th:.0f} > box {width:.0f}x{height:.0f}"
        return ""
    options = dict(core.options)
    options.pop("text", None)
    options["text_size"] = (text_size[0], None)
    options["shorten"] = False
    options.pop("max_lines", None)
    probe = (MarkupLabel if isinstance(core, MarkupLabel) else CoreLabel)(**options)
    probe.text = widget.text
    probe.resolve_font_name()
    probe.render()
    needed_w, needed_h = probe._internal_size
    if needed_w > width + 1:
        return f"text {needed_w:.0f} px wide > box {width:.0f}"
    if needed_h > height + 1:
        what = "cut" if not widget.shorten else "shortened"
        return f"text {needed_h:.0f} px high > box {height:.0f} ({what})"
    if widget.shorten and getattr(core, "is_shortened", False):
        return "shortened"
    return ""


@lru_cache(maxsize=4)
def _catalog(language: str) -> dict[str, str]:
    from companion.i18n import load_catalog

    return load_catalog(language)


_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


def _words(text: str) -> set[str]:
    text = re.sub(r"\{[^}]*\}", " ", text)
    return {w.lower() for w in _WORD.findall(text)}


@lru_cache(maxsize=1)
def english_only() -> frozenset[str]:
    """Words of the English catalog that no French string uses."""
    english: set[str] = set()
    for value in _catalog("en").values():
        english |= _words(value)
    french: set[str] = set()
    for value in _catalog("fr").values():
        french |= _words(value)
    return frozenset(w for w in english - french - ALLOWED_WORDS if len(w) >= 3)


@lru_cache(maxsize=2)
def _leaves(language: str) -> dict[str, set[str]]:
    """A key's last part -> the texts it translates to."""
    out: dict[str, set[str]] = {}
    for key, value in _catalog(language).items():
        out.setdefault(key.rsplit(".", 1)[-1], set()).add(value)
    return out


_DOMAINS = ("core", "evil", "castor", "bond", "night", "hardware", "deploy", "pad")
_DOTTED = re.compile(r"\b(?:" + "|".join(_DOMAINS) + r")(?:\.[a-z0-9_]+)+\b")
_SNAKE = re.compile(r"(?<![\w/.-])[a-z]+(?:_[a-z0-9]+)+(?![\w/.-])")


def raw_key(text: str, language: str) -> str:
    if _DOTTED.search(text):
        return _DOTTED.search(text).group(0)  # type: ignore[union-attr]
    if _SNAKE.search(text):
        return _SNAKE.search(text).group(0)  # type: ignore[union-attr]
    stripped = text.strip()
    translations = _leaves(language).get(stripped)
    if re.fullmatch(r"[a-z][a-z0-9]*", stripped) and translations and stripped not in translations:
        return stripped
    return ""


def english_words(text: str) -> list[str]:
    # a path or a file name (journal-backup-2026.zip) is not a sentence
    kept = " ".join(t for t in text.split() if not re.search(r"[/\\]|\w[.-]\w*\d|\.\w+$", t))
    words = _WORD.findall(kept)
    return sorted({w for w in words if w.lower() in english_only()})


# -- the walk ------------------------------------------------------------------------------
def _shown(widget: Any) -> bool:
    from kivy.core.window import Window

    node = widget
    while node is not None and node is not Window:
        if node.opacity <= 0.01:
            return False
        node = node.parent
    return widget.width > 1 and widget.height > 1


def _takes_touches(widget: Any) -> bool:
    from kivy.uix.behaviors import ButtonBehavior
    from kivy.uix.slider import Slider
    from kivy.uix.switch import Switch
    from kivy.uix.textinput import TextInput

    return isinstance(widget, ButtonBehavior | Slider | Switch | TextInput)


def _box(widget: Any) -> tuple[float, float, float, float]:
    x0, y0 = widget.to_window(widget.x, widget.y)
    x1, y1 = widget.to_window(widget.right, widget.top)
    return x0, y0, x1, y1


def covering(root: Any, target: Any) -> Any:
    """The touchable widget drawn over the middle of `target`, if another one is: the
    finger meant for `target` lands on it (a dialog whose rows overflow, say)."""
    x, y = target.to_window(*target.center)
    top = None
    for widget in root.walk(restrict=True):  # in drawing order: the last is on top
        if widget is target or (_takes_touches(widget) and _shown(widget)):
            x0, y0, x1, y1 = _box(widget)
            if x0 <= x <= x1 and y0 <= y <= y1:
                top = widget
    if top is None or top is target:
        return None
    from kivy.core.window import Window

    node = target.parent
    while node is not None and node is not Window:  # a button in a button gets it first
        if node is top:
            return None
        node = node.parent
    return top


def _visible_box(widget: Any) -> tuple[float, float, float, float] | None:
    """Where `widget` shows, in window pixels: its box cut to the window and to every
    list that scrolls it (None if none of it shows)."""
    from kivy.core.window import Window
    from kivy.uix.scrollview import ScrollView

    x0, y0, x1, y1 = _box(widget)
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, Window.width), min(y1, Window.height)
    node = widget.parent
    while node is not None and node is not Window:
        if isinstance(node, ScrollView):
            sx0, sy0, sx1, sy1 = _box(node)
            x0, y0, x1, y1 = max(x0, sx0), max(y0, sy0), min(x1, sx1), min(y1, sy1)
        node = node.parent
    return (x0, y0, x1, y1) if x1 - x0 > 1 and y1 - y0 > 1 else None


def _shared(a: tuple[float, ...], b: tuple[float, ...]) -> tuple[float, float]:
    """How far two boxes share ground, across and up (either <= 0: they do not)."""
    return min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1])


def _inside(widget: Any, outer: Any) -> bool:
    from kivy.core.window import Window

    node = widget.parent
    while node is not None and node is not Window:
        if node is outer:
            return True
        node = node.parent
    return False


def overlaps(root: Any, screen: str, scale: float = 1.0) -> list[Violation]:
    """Controls drawn over each other, or over the header they are not part of."""
    tolerance = OVERLAP * scale
    controls = []
    headers = []
    for widget in root.walk(restrict=True):
        if not _shown(widget):
            continue
        if getattr(widget, "back_button", None) is not None:  # `components.header`
            headers.append(widget)
        if _takes_touches(widget):
            box = _visible_box(widget)
            if box is not None:
                controls.append((widget, box))
    found = []
    for i, (a, box_a) in enumerate(controls):
        for b, box_b in controls[i + 1:]:
            if _inside(a, b) or _inside(b, a):
                continue  # a button in a button: the inner one gets the touch
            across, up = _shared(box_a, box_b)
            if across > tolerance and up > tolerance:
                found.append(Violation(screen, name_of(a), f"overlaps {name_of(b)} by "
                                                           f"{across:.0f}x{up:.0f} px"))
    for bar in headers:
        bar_box = _box(bar)
        for widget, box in controls:
            if _inside(widget, bar):
                continue
            across, up = _shared(box, bar_box)
            if across > tolerance and up > tolerance:
                found.append(Violation(screen, name_of(widget),
                                       f"overlaps the header by {across:.0f}x{up:.0f} px"))
    return found


def name_of(widget: Any) -> str:
    tid = getattr(widget, "tid", "")
    if tid:
        return str(tid)
    text = " ".join(plain(widget).split())[:24] if hasattr(widget, "text") else ""
    return f"{type(widget).__name__}({text!r})" if text else type(widget).__name__


def is_key_figure(widget: Any, screen: str) -> bool:
    if getattr(widget, "key_figure", False):
        return True
    tid = str(getattr(widget, "tid", "") or "")
    return bool(tid) and any(fnmatch(screen, where) and fnmatch(tid, pattern)
                             for where, pattern in KEY_FIGURES)


def outside_button(widget: Any) -> str:
    """How far the label's drawn text reaches outside the button it is part of ('' if
    it stays inside): a label can fit its own box while that box overflows the button
    (a treasure's "min" past its button's edge)."""
    from kivy.core.window import Window
    from kivy.uix.behaviors import ButtonBehavior

    node = widget.parent
    while node is not None and node is not Window and not isinstance(node, ButtonBehavior):
        node = node.parent
    if node is None or node is Window or not widget.texture_size[0]:
        return ""
    tw, th = widget.texture_size
    cx, cy = widget.to_window(*widget.center)
    bx0, by0, bx1, by1 = _box(node)
    past = max(bx0 - (cx - tw / 2), (cx + tw / 2) - bx1,
               by0 - (cy - th / 2), (cy + th / 2) - by1)
    if past > 0.5:
        return f"text reaches {past:.0f} px outside its button {name_of(node)}"
    return ""


def audit(root: Any, screen: str, language: str, scale: float = 1.0,
          shown: str = "") -> list[Violation]:
    """Every rule on every widget shown under `root`; `screen` names the picture in the
    report, `shown` is the app's screen (for `KEY_FIGURES`)."""
    from kivy.uix.label import Label

    found: list[Violation] = []

    def report(widget: Any, what: str) -> None:
        found.append(Violation(screen, name_of(widget), what))

    for widget in root.walk(restrict=True):
        if not _shown(widget):
            continue
        if _takes_touches(widget):
            w, h = widget.size
            if min(w, h) < MIN_TOUCH * scale - 0.5:
                report(widget, f"touch target {w:.0f}x{h:.0f} px < {MIN_TOUCH * scale:.0f}")
            over_it = covering(root, widget)
            if over_it is not None:
                report(widget, f"touch target covered by {name_of(over_it)}")
        if not isinstance(widget, Label) or not plain(widget).strip():
            continue
        text = plain(widget)
        why = overflow(widget) or outside_button(widget)
        if why:
            report(widget, f"does not fit: {why}")
        size = float(widget.font_size)
        if size < MIN_TEXT * scale - 0.5:
            report(widget, f"text {size:.0f} px < {MIN_TEXT * scale:.0f}")
        if getattr(widget, "acted_on", False) or any(
                fnmatch(shown or screen, where) and fnmatch(str(getattr(widget, "tid", "")), what)
                for where, what in ACTED_ON):
            cap = figure_size(widget) * CAP_HEIGHT
            if cap < MIN_ACT_CAP * scale - 0.5:
                report(widget, f"acted-on text cap height {cap:.0f} px < "
                               f"{MIN_ACT_CAP * scale:.0f}")
        if is_key_figure(widget, shown or screen):
            cap = figure_size(widget) * CAP_HEIGHT
            if cap < MIN_KEY_CAP * scale - 0.5:
                report(widget, f"key figure cap height {cap:.0f} px < "
                               f"{MIN_KEY_CAP * scale:.0f}")
        colour = widget.disabled_color if widget.disabled else widget.color
        ground = background(widget)
        ratio = contrast(over(tuple(colour), ground), ground)
        if ratio < MIN_CONTRAST:
            state = " (disabled)" if widget.disabled else ""
            report(widget, f"contrast {ratio:.1f}:1 < {MIN_CONTRAST}{state}")
        key = raw_key(text, language)
        if key:
            report(widget, f"raw translation key {key!r}")
        if language == "fr":
            words = english_words(text)
            if words:
                report(widget, f"English in French: {', '.join(words)}")
    return found + overlaps(root, screen, scale)


def outside_dialog(dialog: Any, screen: str) -> list[Violation]:
    """What a dialog shows outside its own body (content taller than the dialog spills
    over its title and the screen: Pr. Evil's power choice at 1280x720)."""
    from kivy.uix.scrollview import ScrollView

    body = getattr(dialog, "box", dialog)
    bx0, by0, bx1, by1 = _box(body)
    # a list that scrolls clips its rows: only the list itself must lie inside
    scrolled = {id(inner) for view in body.walk(restrict=True) if isinstance(view, ScrollView)
                for inner in view.walk(restrict=True) if inner is not view}
    found = []
    for widget in body.walk(restrict=True):
        if widget is body or id(widget) in scrolled or not _shown(widget):
            continue
        x0, y0, x1, y1 = _box(widget)
        past = max(bx0 - x0, y1 - by1, by0 - y0, x1 - bx1)
        if past > 1:
            found.append(Violation(screen, name_of(widget),
                                   f"does not fit: {past:.0f} px outside its dialog"))
    return found


def button_places(root: Any) -> dict[str, tuple[float, float, float, float]]:
    """Where each shown button (by test id) is, in window pixels."""
    from kivy.uix.behaviors import ButtonBehavior

    places = {}
    for widget in root.walk(restrict=True):
        tid = getattr(widget, "tid", "")
        if tid and isinstance(widget, ButtonBehavior) and _shown(widget):
            places[str(tid)] = tuple(round(v, 1) for v in _box(widget))
    return places


def moved(before: dict[str, tuple[float, ...]], after: dict[str, tuple[float, ...]],
          screen: str) -> list[Violation]:
    """The buttons shown in both that are not where they were."""
    return [Violation(screen, tid, f"moved between two steps: {before[tid]} -> {place}")
            for tid, place in after.items() if tid in before and before[tid] != place]


class Auditor:
    """A tour's `capture`: audits the dialog on show, or else the screen; and, from one
    step to the next on the same screen (no dialog in either), that no button moved."""

    def __init__(self, language: str) -> None:
        self.language = language
        self.violations: list[Violation] = []
        self._last: tuple[Any, str, dict[str, tuple[float, ...]]] | None = None

    def __call__(self, ui: Any, step: Any) -> None:
        app = ui.app
        root = app.dialog if app.dialog is not None else app.root.current_screen
        self.violations += audit(root, step.name, self.language, float(app.scale),
                                 shown=str(app.root.current))
        if app.dialog is not None:
            self.violations += outside_dialog(app.dialog, step.name)
            return  # the screen behind a dialog is compared when it is shown again
        places = button_places(root)
        last = self._last
        if last is not None and last[0] is app and last[1] == app.root.current:
            self.violations += moved(last[2], places, step.name)
        self._last = (app, str(app.root.current), places)
