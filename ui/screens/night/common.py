"""What the game-night screens share: the top bar, the players' colours, dates."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView

from ui import theme
from ui.widgets.basics import Tap
from ui.widgets.charts import PALETTE, hex_rgba, player_rgba  # noqa: F401 (for the screens)
from ui.widgets.components import header

RGBA = tuple[float, float, float, float]

#: the kinds of game the history and the statistics know
KINDS = ("evil", "castor", "bond")
#: History also lists score pad games and clock sessions (the statistics group the
#: score pad by template: sections "pad:<id>", and leave the clock out)
HISTORY_KINDS = (*KINDS, "pad", "clock")


def top_bar(title: str, tid: str, back: Callable[[], Any] | None = None,
            extra: Sequence[Tap] = ()) -> BoxLayout:
    """The shared header: Back, the title, then the screen's own buttons on the right."""
    return header(title, tid, back=back, extra=extra)


def kind_filter(kind: str | None, tid: str, cycle: Callable[[], None],
                label: str | None = None) -> Tap:
    """The button that shows which kind of game a page lists and goes to the next one
    (`label`: what it is called, when not a kind's short name)."""
    app = App.get_running_app()
    if label is None:
        label = app.tr("night.ui.all_games") if kind is None else short_game_name(kind)
    button = Tap(app.tr("night.ui.filter", what=label), tid=tid, size=theme.SIZE_SMALL,
                 size_hint_x=None, width=dp(260))
    button.bind(on_release=lambda _b: cycle())
    return button


def go(screen: str) -> None:
    App.get_running_app().root.current = screen


def scroll_list(spacing: float = 4) -> tuple[ScrollView, GridLayout]:
    """A vertical list that scrolls with a finger (rows need a fixed height)."""
    scroller = ScrollView(do_scroll_x=False, bar_width=dp(6), scroll_type=["bars", "content"])
    rows = GridLayout(cols=1, spacing=dp(spacing), size_hint_y=None)
    rows.bind(minimum_height=rows.setter("height"))
    scroller.add_widget(rows)
    return scroller, rows


def when(ts: float) -> str:
    """A date and time as the table reads them, in its language (local time)."""
    return str(App.get_running_app().translator.when(ts))


def minutes(seconds: float) -> str:
    app = App.get_running_app()
    total = round(seconds / 60)
    if total < 60:
        return app.tr("night.ui.minutes", n=total)
    return app.tr("night.ui.hours", h=total // 60, m=f"{total % 60:02d}")


def percent(rate: float | None) -> str:
    return "–" if rate is None else f"{round(rate * 100)} %"


def number(value: float | None, digits: int = 0) -> str:
    if value is None:
        return "–"
    return f"{value:.{digits}f}" if digits else str(round(value))


def game_name(kind: str) -> str:
    app = App.get_running_app()
    key = f"core.games.{kind}"
    return app.tr(key) if app.translator.has(key) else kind


def short_game_name(kind: str) -> str:
    app = App.get_running_app()
    key = f"{kind}.short"
    return app.tr(key) if app.translator.has(key) else game_name(kind)


def template_name(name: dict[str, str] | None, fallback: str = "") -> str:
    """A score pad template's name in the language on screen (its own, else English,
    else the one it has)."""
    if not name:
        return fallback
    language = App.get_running_app().translator.language
    return name.get(language) or name.get("en") or name.get("") or next(iter(name.values()))


def clock_time(ms: int | None) -> str:
    """A clock's time as the clock shows it: m:ss, or h:mm:ss from an hour."""
    if ms is None:
        return "–"
    sign = "-" if ms < 0 else ""
    seconds = abs(ms) // 1000
    hours, rest = divmod(seconds, 3600)
    if hours:
        return f"{sign}{hours}:{rest // 60:02d}:{rest % 60:02d}"
    return f"{sign}{rest // 60}:{rest % 60:02d}"
