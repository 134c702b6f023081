"""The pieces every game's screens share, so they look and behave the same:

- `header`: Back at the top left (the same place and size on every screen), the title,
  then the screen's own buttons;
- `setup_page`: a game's setup (players in seating order on the left, in rows that
  never move when a player is added; options on the right; Start at the bottom right);
- `EndPage`: a game's end (the outcome large, the final scores as key figures, the
  game's story in a few lines, and "New game with the same players").

Sizes and colours come from `ui.theme`; rows follow the app's scale.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from ui import theme
from ui.widgets.basics import Tap, Text, follow_height, follow_width


def go_home() -> None:
    App.get_running_app().root.current = "home"


def header(title: str, tid: str, back: Callable[[], Any] | None = None,
           extra: Sequence[Widget] = (), back_text: str | None = None,
           title_size: float = theme.SIZE_TITLE, title_tid: str | None = None,
           back_tid: str | None = None) -> BoxLayout:
    """Back (top left, `BACK_WIDTH` x `HEADER`), the title, then `extra` on the right.
    Tags: `<tid>.back`, `<tid>.title` (or `back_tid`, `title_tid`). A title smaller
    than `SIZE_TITLE` (a game's status) may take two lines; a screen's title is cut."""
    app = App.get_running_app()
    bar = follow_height(BoxLayout(spacing=dp(theme.SPACE_S)), theme.touch(theme.HEADER))
    go_back = follow_width(Tap(back_text or app.tr("core.ui.back"), size=theme.SIZE_BUTTON,
                               tid=back_tid or f"{tid}.back"), theme.BACK_WIDTH)
    go_back.bind(on_release=lambda _b: (back or go_home)())
    bar.add_widget(go_back)
    title_label = Text(title, size=title_size, bold=True, tid=title_tid or f"{tid}.title",
                       shorten=title_size >= theme.SIZE_TITLE, shorten_from="right")
    bar.add_widget(title_label)
    for widget in extra:
        bar.add_widget(widget)
    bar.title_label = title_label  # type: ignore[attr-defined]
    bar.back_button = go_back  # type: ignore[attr-defined]
    return bar


# -- setup ---------------------------------------------------------------------------
def setup_page(root: BoxLayout, title: str, on_start: Callable[[], Any], *,
               tid: str = "setup", start_text: str | None = None,
               start_tid: str | None = None, start_disabled: bool = False,
               note: str = "", split: float = 0.62) -> tuple[BoxLayout, BoxLayout]:
    """Clear `root` and lay a setup page in it; returns (players column, options
    column) for the caller to fill. Start sits at the bottom right, under the options,
    with `note` (the deal, the target...) beside it."""
    app = App.get_running_app()
    root.clear_widgets()
    root.padding = dp(theme.SPACE_S)
    root.spacing = dp(theme.SPACE_S)
    root.header_bar = header(title, tid)  # a setup's Add and From roster go in it
    root.add_widget(root.header_bar)
    body = BoxLayout(spacing=dp(theme.SPACE_M))
    players = BoxLayout(orientation="vertical", spacing=dp(theme.SPACE_XS), size_hint_x=split)
    options = BoxLayout(orientation="vertical", spacing=dp(theme.SPACE_S),
                        size_hint_x=1 - split)
    body.add_widget(players)
    body.add_widget(options)
    root.add_widget(body)
    bottom = follow_height(BoxLayout(spacing=dp(theme.SPACE_M)), theme.touch(theme.ROW + 4))
    bottom.add_widget(Text(note, size=theme.SIZE_BODY, tid=f"{tid}.note", size_hint_x=split))
    start = Tap(start_text or app.tr("core.ui.start"), tid=start_tid or f"{tid}.start",
                size=theme.SIZE_TITLE, bold=True, background=theme.SUCCESS,
                size_hint_x=1 - split, disabled=start_disabled)
    start.bind(on_release=lambda _b: on_start())
    bottom.add_widget(start)
    root.add_widget(bottom)
    return players, options


def seat_row(index: int, name: str, on_name: Callable[[int], Any],
             on_remove: Callable[[int], Any] | None, removable: bool,
             middle: Sequence[Widget] = (), name_size: float = theme.SIZE_BUTTON,
             height: float = theme.MIN_TOUCH) -> BoxLayout:
    """One seat of a setup: its number, the name (tap to change it), `middle` (an
    agent...), and × to take the seat away. Tags `setup.name.<i>`, `setup.remove.<i>`."""
    row = follow_height(BoxLayout(spacing=dp(theme.SPACE_XS)), theme.touch(height))
    row.add_widget(follow_width(Text(f"{index + 1}", size=theme.SIZE_BODY, halign="center",
                                     color=theme.MUTED, tid=f"setup.seat.{index}"), 28))
    name_tap = Tap(name, size=name_size, tid=f"setup.name.{index}", shorten=True,
                   shorten_from="right")
    name_tap.bind(on_release=lambda _b: on_name(index))
    row.add_widget(name_tap)
    for widget in middle:
        row.add_widget(widget)
    if on_remove is not None:
        remove = follow_width(Tap("×", size=theme.SIZE_TITLE, tid=f"setup.remove.{index}",
                                  disabled=not removable), theme.MIN_TOUCH + 8)
        remove.bind(on_release=lambda _b: on_remove(index))
        row.add_widget(remove)
    return row


def fill_seats(column: BoxLayout, rows: Sequence[Widget], seats: int) -> None:
    """The rows, then room for the seats not taken yet: a player added appears in the
    room kept for them, and nothing already on screen moves under the finger."""
    for row in rows:
        column.add_widget(row)
    for _ in range(max(0, seats - len(rows))):
        column.add_widget(follow_height(Widget(), theme.touch(theme.MIN_TOUCH)))
    column.add_widget(Widget())


def option_button(text: str, tid: str, on_release: Callable[[], Any],
                  disabled: bool = False, selected: bool = False) -> Tap:
    """A button of a setup's options column (the selected state: INK on SELECTED)."""
    tap = Tap(text, size=theme.SIZE_BUTTON, tid=tid, disabled=disabled,
              background=theme.SELECTED if selected else theme.BUTTON)
    follow_height(tap, theme.touch(theme.MIN_TOUCH + 4))
    tap.bind(on_release=lambda _b: on_release())
    return tap


# -- end -----------------------------------------------------------------------------
@dataclass(frozen=True)
class ScoreLine:
    """One player on an end page: the name, the key figure (score, medals), a detail."""

    name: str
    figure: str
    detail: str = ""
    winner: bool = False
    font_name: str | None = None  # the medal star needs a font that has it


class EndPage(BoxLayout):
    """A game's end. Tags: `end.title`, `end.text`, `end.name.<i>`, `end.score.<i>`,
    `end.detail.<i>`, `end.story.<k>`, `end.undo`, `end.home`, `end.again`.

    Built once, on the first `show` (or `build`), and re-told by every later one: the
    action that ends a game builds no page, and its story lines come from a pool."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(orientation="vertical", padding=dp(theme.SPACE_L),
                         spacing=dp(theme.SPACE_S), **kwargs)
        self.story_labels: list[Text] = []  # the pool; the first len(story) are shown
        self._built = False

    def build(self, story_lines: int = 0) -> None:
        """The page's widgets, and `story_lines` story lines ahead."""
        if not self._built:
            self._build()
            self._built = True
        while len(self.story_labels) < story_lines:
            k = len(self.story_labels)
            # a long line (the best kill, doubled) takes the rows it needs
            self.story_labels.append(Text("", size=theme.SIZE_BODY, tid=f"end.story.{k}",
                                          fit=True))

    def _build(self) -> None:
        app = App.get_running_app()
        self.title_label = Text("", size=theme.SIZE_DISPLAY, bold=True, halign="center",
                                tid="end.title", size_hint_y=None, height=dp(68))
        self.add_widget(self.title_label)
        self.text_label = Text("", size=theme.SIZE_BODY, halign="center", tid="end.text",
                               size_hint_y=None, height=dp(52))
        self.add_widget(self.text_label)
        body = BoxLayout(spacing=dp(theme.SPACE_XL))
        self.left = BoxLayout(orientation="vertical", spacing=dp(theme.SPACE_XS),
                              size_hint_x=0.58)
        self.caption_label = Text("", size=theme.SIZE_SMALL, bold=True, color=theme.MUTED,
                                  tid="end.caption", size_hint_y=None, height=dp(24))
        self.left.add_widget(self.caption_label)
        self.scores_widget: Widget | None = None
        body.add_widget(self.left)
        self.story_column = BoxLayout(orientation="vertical", spacing=dp(theme.SPACE_XS),
                                      size_hint_x=0.42)
        self.story_column.add_widget(Text(app.tr("core.ui.story"), size=theme.SIZE_SMALL,
                                          bold=True, color=theme.MUTED, tid="end.story",
                                          size_hint_y=None, height=dp(24)))
        self.story_end = Widget()
        self.story_column.add_widget(self.story_end)
        body.add_widget(self.story_column)
        self.add_widget(body)
        self.bar = follow_height(BoxLayout(spacing=dp(theme.SPACE_S)),
                                 theme.touch(theme.ROW + 4))
        self.undo_button = Tap(app.tr("core.ui.undo"), size=theme.SIZE_BUTTON, tid="end.undo",
                               size_hint_x=0.7)
        self.undo_button.bind(on_release=lambda _b: app.undo())
        self.home_button = Tap(app.tr("core.ui.home"), size=theme.SIZE_BUTTON, tid="end.home",
                               size_hint_x=0.7)
        self.home_button.bind(on_release=lambda _b: app.leave_game())
        self.again_button = Tap(app.tr("core.ui.same_players"), size=theme.SIZE_BUTTON,
                                bold=True, tid="end.again", background=theme.SUCCESS,
                                size_hint_x=1.6)
        self.again_button.bind(on_release=lambda _b: self._again())
        self._again: Callable[[], Any] = lambda: None
        self._extra: tuple[Tap, ...] = ()
        self.add_widget(self.bar)

    def show(self, title: str, title_colour: theme.Rgba, text: str,
             scores: Sequence[ScoreLine], story: Sequence[str],
             again: Callable[[], Any], extra: Sequence[Tap] = (), caption: str = "") -> None:
        self.build(len(story))
        self.title_label.text, self.title_label.color = title, title_colour
        self.text_label.text = text
        self.caption_label.text = caption
        scores_widget = self._scores(scores)
        if scores_widget is not self.scores_widget:
            if self.scores_widget is not None:
                self.left.remove_widget(self.scores_widget)
            if scores_widget.parent is not None:
                scores_widget.parent.remove_widget(scores_widget)
            self.left.add_widget(scores_widget)
            self.scores_widget = scores_widget
        for label in self.story_labels:
            if label.parent is not None:
                self.story_column.remove_widget(label)
        for label, line in zip(self.story_labels, story, strict=False):
            label.text = line
            self.story_column.add_widget(label, index=1)  # above the column's filler
        self._again = again
        if not self.bar.children or tuple(extra) != self._extra:
            self._extra = tuple(extra)
            self.bar.clear_widgets()
            for widget in (self.undo_button, *extra, self.home_button, self.again_button):
                self.bar.add_widget(widget)

    def shown_story(self) -> list[Text]:
        """The story lines on the page now, top to bottom."""
        return [label for label in self.story_labels if label.parent is not None]

    def _scores(self, scores: Sequence[ScoreLine]) -> GridLayout:
        """Name, key figure and detail per player, best first; two columns past five
        (a row must keep the key figure's height)."""
        cols = 2 if len(scores) > 5 else 1
        # in two columns a figure of four characters or more (a score pad's 9981) takes
        # width from the name and the detail
        wide = cols == 2 and max((len(line.figure) for line in scores), default=0) > 3
        hints = (0.36, 0.42, 0.22) if wide else (0.45, 0.3, 0.25)
        # ... and the scores take width from the story beside them (its lines wrap)
        self.left.size_hint_x, self.story_column.size_hint_x = (
            (0.7, 0.3) if wide else (0.58, 0.42))
        grid = GridLayout(cols=cols * 3, spacing=(dp(theme.SPACE_S), 0))
        for i, line in enumerate(scores):
            ink = theme.ACCENT if line.winner else theme.TEXT
            grid.add_widget(Text(line.name, size=theme.SIZE_BODY, bold=line.winner,
                                 color=ink, tid=f"end.name.{i}", shorten=True,
                                 shorten_from="right", size_hint_x=hints[0]))
            figure = Text(line.figure, size=theme.SIZE_FIGURE, bold=True, halign="right",
                          color=ink, tid=f"end.score.{i}", size_hint_x=hints[1])
            if line.font_name:
                figure.font_name = line.font_name
            grid.add_widget(figure)
            grid.add_widget(Text(line.detail, size=theme.SIZE_SMALL, color=theme.MUTED,
                                 tid=f"end.detail.{i}", size_hint_x=hints[2]))
        return grid


def same_players(kind: str, players: Sequence[dict[str, Any]]) -> None:
    """Leave the finished game and open its setup with the same seats (names, roster
    players, agents), in the same order."""
    app = App.get_running_app()
    app.leave_game()
    setup = app.root.get_screen(f"{kind}_setup")
    setup.pending_players = [dict(p) for p in players]
    app.root.current = setup.name
