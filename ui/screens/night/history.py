"""History: every game, newest first, a page at a time, filtered by kind of game.

Tap a game to read its log; an unfinished game can be resumed or abandoned here.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from companion.night import history, jobs
from companion.night.facts import as_guests, placeholder_number
from companion.night.history import GameLine, LogLine, Seat
from ui import theme
from ui.background import Running, in_steps, run_in
from ui.dialogs import Dialog, open_dialog
from ui.screens.night.common import (
    HISTORY_KINDS,
    clock_time,
    go,
    kind_filter,
    minutes,
    scroll_list,
    short_game_name,
    top_bar,
    when,
)
from ui.screens.night.games import screens_for
from ui.screens.page import PageScreen
from ui.widgets.basics import Tap, Text

PAGE = 30  # games drawn at once: years of history stay quick to open


def difficulty_name(difficulty: str, short: bool = False) -> str:
    """A Pr. Evil difficulty as the setup names it ("" is a game without one: standard);
    `short` drops the parenthesis, for a chart's label."""
    app = App.get_running_app()
    key = f"evil.difficulty.{difficulty or 'standard'}"
    name = app.tr(key) if app.translator.has(key) else difficulty
    return name.split(" (")[0] if short else name


def guest(n: int) -> str:
    """A seat nobody named, as the set-up and the play screen name it ("Player 2")."""
    return str(App.get_running_app().tr("core.ui.player_n", n=n))


def guest_name(name: str) -> str:
    """A seat's name, a placeholder said in the language on screen ("Joueur 3")."""
    number = placeholder_number(name)
    return name if number is None else guest(number)


def seat_name(seat: Seat) -> str:
    """A seat nobody named ("Player 2") is a guest, not a person of the roster: named
    as in play, in the language on screen."""
    number = placeholder_number(seat.name) if seat.player_id is None else None
    return seat.name if number is None else guest(number)


def seat_score(seat: Seat) -> str:
    """A seat and its score told apart ("Player 1: 0", not "Player 1 0")."""
    name = seat_name(seat)
    if seat.score is None:
        return name
    return str(App.get_running_app().tr("night.ui.seat_score", player=name,
                                        score=seat.score))


def pad_seat(seat: Seat) -> str:
    """A score pad seat: "1. Ann 39", a player out of the ranking "Cy 5 (eliminated)"."""
    app = App.get_running_app()
    text = seat_score(seat)
    if seat.out is not None:
        return app.tr(f"night.ui.out.{seat.out}", player=text)
    return text if seat.rank is None else app.tr("night.ui.ranked", rank=seat.rank,
                                                  player=text)


def winners_text(winners: list[str]) -> str:
    """ "winner: Ann", "winners: Ann, Bob" (a label, not a count: two keys, not a plural)."""
    key = "night.ui.winner" if len(winners) == 1 else "night.ui.winners"
    return str(App.get_running_app().tr(key, names=", ".join(winners)))


def pad_outcome(line: GameLine) -> list[str]:
    """A score pad game: the seats by rank (the co-op outcome first), then the winners."""
    app = App.get_running_app()
    parts: list[str] = []
    if line.win == "coop":
        if line.outcome in ("won", "lost"):
            parts.append(app.tr(f"night.outcome.{line.outcome}"))
        parts.append(", ".join(seat_name(s) for s in line.seats))
        return parts
    seats = sorted(line.seats, key=lambda s: (s.out is not None, s.rank or 99, s.seat))
    parts.append(", ".join(pad_seat(s) for s in seats))
    winners = [seat_name(s) for s in line.seats if s.winner]
    if winners:
        parts.append(app.tr("night.ui.won_outright", names=", ".join(winners))
                     if line.instant else winners_text(winners))
    return parts


def clock_lines(line: GameLine) -> list[str]:
    """Each seat's clock: time, turns, average and longest turn, overtime."""
    app = App.get_running_app()
    out = []
    for seat in line.seats:
        if seat.time_ms is None:
            continue
        text = app.tr("night.ui.clock_seat", player=seat_name(seat),
                      time=clock_time(seat.time_ms),
                      turns=app.tr("night.ui.n_turns", n=seat.turns or 0),
                      average=clock_time(seat.average_ms), longest=clock_time(seat.longest_ms))
        if seat.overtime_ms:
            text += " · " + app.tr("night.ui.clock_overtime", time=clock_time(seat.overtime_ms))
        out.append(text)
    return out


def outcome_text(line: GameLine) -> str:
    """The second line of a game: who played, scores or outcome, winners."""
    app = App.get_running_app()
    own = screens_for(line.kind).outcome_parts(line)
    parts: list[str] = [] if own is None else own
    if own is None:
        seats = []
        for seat in line.seats:
            text = seat_score(seat)
            if seat.medals:
                text += " " + app.tr("night.ui.medals_short", n=seat.medals)
            seats.append(text)
        parts.append(", ".join(seats))
        winners = [seat_name(s) for s in line.seats if s.winner]
        if winners:
            parts.append(winners_text(winners))
    return " · ".join(parts)


def game_title(line: GameLine) -> str:
    """What the game was: its kind, a score pad game with its template."""
    return screens_for(line.kind).title(line) or short_game_name(line.kind)


def when_of(line: GameLine) -> str:
    """When a game was played, and how long: the clock's played time where one ran."""
    duration = line.clock_ms / 1000 if line.clock_ms is not None else line.duration
    return f"{when(line.started)} · {minutes(duration)}"


def title_text(line: GameLine) -> str:
    app = App.get_running_app()
    parts = [game_title(line), when_of(line)]
    if line.status != "finished":
        parts.append(app.tr(f"night.status.{line.status}"))
    return " · ".join(parts)


class NightHistoryScreen(PageScreen):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.kind: str | None = None
        self.shown = PAGE
        self.job: Running | None = None

    def on_pre_enter(self, *_: Any) -> None:
        self.shown = PAGE
        self.refresh()

    def on_leave(self, *_: Any) -> None:
        if self.job is not None:
            self.job.cancel()

    def cycle_kind(self) -> None:
        choices: list[str | None] = [None, *HISTORY_KINDS]
        self.kind = choices[(choices.index(self.kind) + 1) % len(choices)]
        self.shown = PAGE
        self.refresh()

    def refresh(self) -> None:
        app = App.get_running_app()
        self.box.clear_widgets()
        kind = kind_filter(self.kind, "history.filter", self.cycle_kind)
        self.box.add_widget(top_bar(app.tr("night.ui.history_title"), "history", extra=[kind]))
        # one more than the page tells whether a "more" button is needed; read on a
        # worker thread: years of games take longer than a frame
        if self.job is not None:
            self.job.cancel()
        self.waiting = Widget()  # keeps the bar at the top until the list comes
        self.box.add_widget(self.waiting)
        kind_, limit = self.kind, self.shown + 1
        self.job = run_in(self, "history.progress",
                          lambda journal: jobs.history_page(journal, kind_, limit),
                          self.show_lines)

    def show_lines(self, lines: list[GameLine]) -> None:
        app = App.get_running_app()
        self.job = None
        self.box.remove_widget(self.waiting)
        scroller, rows = scroll_list(6)
        if not lines:
            rows.add_widget(Text(app.tr("night.ui.no_games"), size=18, color=theme.MUTED,
                                 tid="history.empty", size_hint_y=None, height=dp(60)))
        items: list[Any] = list(lines[:self.shown])
        if len(lines) > self.shown:
            more = Tap(app.tr("night.ui.more"), tid="history.more", size_hint_y=None,
                       height=theme.touch())
            more.bind(on_release=lambda _b: self.more())
            items.append(more)
        self.box.add_widget(scroller)
        # a few rows a frame: a page at once would hold the screen for a long frame
        in_steps(items, lambda item: rows.add_widget(
            item if isinstance(item, Tap) else self.row(item)),
            alive=lambda: scroller.parent is not None, per_frame=3)

    def row(self, line: GameLine) -> BoxLayout:
        app = App.get_running_app()
        row = BoxLayout(spacing=dp(6), size_hint_y=None, height=theme.touch(68) * app.scale)
        background = theme.BUTTON if line.status == "finished" else theme.PANEL
        game = Tap(f"{title_text(line)}\n{outcome_text(line)}", tid=f"history.game.{line.id}",
                   size=theme.SIZE_SMALL, background=background, halign="left")

        def fit(*_: Any) -> None:  # a full table's scores and winners take more lines
            row.height = max(theme.touch(68) * app.scale,
                             game.texture_size[1] + dp(8) * app.scale)
        game.bind(texture_size=fit)
        game.bind(on_release=lambda _b: self.open_log(line.id))
        row.add_widget(game)
        if line.status == "unfinished":
            resume = Tap(app.tr("core.ui.resume_short"), tid=f"history.resume.{line.id}",
                         size=theme.SIZE_SMALL, background=theme.SUCCESS, size_hint_x=None,
                         width=dp(110))
            resume.bind(on_release=lambda _b: self.resume(line.id))
            abandon = Tap(app.tr("core.ui.abandon"), tid=f"history.abandon.{line.id}",
                          size=theme.SIZE_SMALL, size_hint_x=None, width=dp(110))
            abandon.bind(on_release=lambda _b: self.confirm_abandon(line.id))
            row.add_widget(resume)
            row.add_widget(abandon)
        return row

    def more(self) -> None:
        self.shown += PAGE
        self.refresh()

    def open_log(self, game_id: int) -> None:
        app = App.get_running_app()
        app.root.get_screen("night_log").game_id = game_id
        go("night_log")

    def resume(self, game_id: int) -> None:
        app = App.get_running_app()
        record = app.journal.game(game_id)
        if not app.playable(record.kind):
            return
        app.resume(game_id, record)

    def confirm_abandon(self, game_id: int) -> None:
        app = App.get_running_app()
        dialog = Dialog(app.tr("night.ui.abandon_title", game=game_id), "abandon",
                        size_hint=(0.7, 0.5))
        dialog.add(Text(app.tr("night.ui.abandon_text"), size=18, tid="abandon.text"))

        def abandon() -> None:
            dialog.dismiss()
            # shown once durable; a journal that cannot be written now says why
            app.write(lambda journal: history.abandon(journal, game_id),
                      lambda _none: self.refresh())

        dialog.buttons([(app.tr("core.ui.cancel"), "abandon.cancel", dialog.dismiss),
                        (app.tr("core.ui.abandon"), "abandon.ok", abandon)])
        dialog.default = dialog.dismiss
        open_dialog(dialog)


class NightLogScreen(PageScreen):
    """One game: what it was, then every action as the log tells it."""

    LIMIT = 400  # lines drawn; a longer game shows its latest ones

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.game_id = 0
        self.job: Running | None = None

    def on_leave(self, *_: Any) -> None:
        if self.job is not None:
            self.job.cancel()

    def refresh(self) -> None:
        """The log is a replay of the whole game: on a worker thread."""
        app = App.get_running_app()
        self.box.clear_widgets()
        self.box.add_widget(top_bar(app.tr("night.ui.log_title", game=self.game_id), "log",
                                    back=lambda: go("night_history")))
        self.waiting = Widget()  # keeps the bar at the top until the log comes
        self.box.add_widget(self.waiting)
        if self.job is not None:
            self.job.cancel()
        game_id = self.game_id
        self.job = run_in(self, "log.progress", lambda journal: jobs.game_log(journal, game_id),
                          self.show_log, on_error=self.show_error)

    def show_error(self, message: Any) -> None:
        app = App.get_running_app()
        self.job = None
        self.box.remove_widget(self.waiting)
        self.box.add_widget(Text(app.say(message), size=18, tid="log.error"))

    def show_log(self, result: tuple[GameLine, list[LogLine]]) -> None:
        app = App.get_running_app()
        self.job = None
        line, entries = result
        self.box.clear_widgets()
        self.box.add_widget(top_bar(
            app.tr("night.ui.log_title", game=self.game_id) + " · " + game_title(line),
            "log", back=lambda: go("night_history")))
        self.box.add_widget(Text(title_text(line), size=theme.SIZE_SMALL, color=theme.MUTED,
                                 tid="log.when",
                                 size_hint_y=None, height=dp(24)))
        self.box.add_widget(Text(self.details(line), size=theme.SIZE_SMALL, tid="log.summary",
                                 size_hint_y=None, height=dp(48)))
        scroller, rows = scroll_list(2)
        # a clock session's (or the clock beside a score pad game's) times, a line a
        # seat, at the head of the list: eight seats scroll with the log
        for k, text in enumerate(clock_lines(line)):
            rows.add_widget(Text(text, size=theme.SIZE_SMALL, tid=f"log.clock.{k}",
                                 size_hint_y=None, height=dp(26)))
        if len(entries) > self.LIMIT:
            rows.add_widget(Text(app.tr("night.ui.log_cut", n=len(entries) - self.LIMIT),
                                 size=theme.SIZE_SMALL, color=theme.MUTED, size_hint_y=None,
                                 height=dp(26)))
            entries = entries[-self.LIMIT:]
        for k, entry in enumerate(entries):
            details = [app.say(as_guests(d, guest)) for d in entry.details]
            text = f"{entry.seq + 1}. {app.say(as_guests(entry.title, guest))}"  # from 1
            if details:
                text += "\n    " + "\n    ".join(details)
            lines = sum(1 + len(t) // 80 for t in [text.split("\n")[0], *details])
            colour = theme.MUTED if entry.verb != "do" else theme.TEXT
            rows.add_widget(Text(text, size=theme.SIZE_SMALL, color=colour, tid=f"log.line.{k}",
                                 valign="top", size_hint_y=None, height=dp(24) * lines + dp(4)))
        self.box.add_widget(scroller)

    @staticmethod
    def details(line: GameLine) -> str:
        app = App.get_running_app()
        text = outcome_text(line)
        kills = [app.tr("night.ui.seat_score", player=seat_name(s), score=s.best_kill)
                 for s in line.seats if s.best_kill]
        if kills:
            text += " · " + app.tr("night.ui.best_kills", kills=", ".join(kills))
        return text
