"""Statistics: per player, per game, and as pictures (wins per player, a game's scores).

Everything comes from one `stats.statistics` call when the screen opens (the domain
reads the cached facts of every game in one pass); the tabs and the kind filter only
redraw from that result, so the screen stays quick with thousands of games.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget
from kivy.utils import escape_markup

from companion.games import KINDS as ALL_KINDS
from companion.games import night_for
from companion.messages import CompanionError
from companion.night import history, jobs, roster, stats
from companion.night.stats import KindStats, Record, Statistics
from ui import theme
from ui.background import Running, in_steps, run_in
from ui.screens.night.common import (
    KINDS,
    kind_filter,
    minutes,
    number,
    percent,
    player_rgba,
    scroll_list,
    short_game_name,
    template_name,
    top_bar,
)
from ui.screens.night.games import screens_for
from ui.screens.night.history import difficulty_name, guest_name, when_of
from ui.screens.page import PageScreen
from ui.widgets.basics import Tap, Text, follow_height, paint_background
from ui.widgets.charts import BarChart, LineChart, guest_colours

TABS = ("players", "games", "charts")
TITLE_CHARS = 26  # a game's name above its chart, on one line of the two it has
#: games with a score line over rounds
LINE_KINDS = tuple(k for k in ALL_KINDS if night_for(k).has_score_line)
LINE_GAMES = 12  # recent games offered for the line chart


def line_title(line: history.GameLine) -> str:
    """The game whose lines are drawn, in the two lines above the chart: its name (a
    score pad template's, cut to one line), then when and how long."""
    name = screens_for(line.kind).short_title(line) or short_game_name(line.kind)
    if len(name) > TITLE_CHARS:
        name = name[:TITLE_CHARS - 1].rstrip() + "…"
    return f"{name}\n{when_of(line)}"


class NightStatsScreen(PageScreen):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.kind: str | None = None
        self.tab = "players"
        self.data: Statistics | None = None
        self.line_games: list[history.GameLine] | None = None
        self.line_index = 0
        self.recent: dict[str, list[history.GameLine]] = {}
        self.job: Running | None = None

    def on_pre_enter(self, *_: Any) -> None:
        self.load()

    def on_leave(self, *_: Any) -> None:
        if self.job is not None:
            self.job.cancel()

    def load(self) -> None:
        """Everything the tabs show, computed on a worker thread (a club's years of
        games take seconds); the screen shows its frame and the progress meanwhile."""
        if self.job is not None:
            self.job.cancel()
        self.data = None
        self.refresh()
        self.job = run_in(self, "stats.progress",
                          lambda journal: jobs.statistics(journal, LINE_KINDS, LINE_GAMES),
                          self.loaded)

    def loaded(self, result: jobs.StatsScreenData) -> None:
        self.job = None
        self.data, self.recent = result.statistics, result.recent
        self.line_games = None  # chosen again from `recent` when the charts tab opens
        self.line_index = 0
        self.refresh()

    # -- the frame -------------------------------------------------------------------
    def refresh(self) -> None:
        app = App.get_running_app()
        self.box.clear_widgets()
        kind = kind_filter(self.kind, "stats.filter", self.cycle_kind,
                           None if self.kind is None else self.section_name(self.kind))
        self.box.add_widget(top_bar(app.tr("night.ui.stats_title"), "stats", extra=[kind]))
        tabs = follow_height(BoxLayout(spacing=dp(6)), theme.touch())
        for tab in TABS:
            button = Tap(app.tr(f"night.ui.tab.{tab}"), tid=f"stats.tab.{tab}",
                         size=theme.SIZE_BODY,
                         background=theme.SELECTED if tab == self.tab else theme.BUTTON)
            button.bind(on_release=lambda _b, t=tab: self.show_tab(t))
            tabs.add_widget(button)
        self.box.add_widget(tabs)
        if self.data is None:  # still computing: the progress panel says so
            self.box.add_widget(Widget())  # keeps the bars at the top
            return
        body = {"players": self.players_tab, "games": self.games_tab,
                "charts": self.charts_tab}[self.tab]()
        self.box.add_widget(body)

    def sections(self) -> list[str]:
        """The kinds of game, then each score pad template played (by name)."""
        pads = [k for k in (self.data.kinds if self.data else {}) if k.startswith("pad:")]
        return [*KINDS, *sorted(pads, key=lambda k: self.section_name(k).casefold())]

    def section_name(self, section: str) -> str:
        """A kind's short name; a score pad template's name."""
        if not section.startswith("pad:"):
            return short_game_name(section)
        ks = self.data.kinds.get(section) if self.data else None
        return template_name(ks.name if ks else None, section[4:])

    def section_win(self, section: str) -> str | None:
        ks = self.data.kinds.get(section) if self.data else None
        return ks.win if ks else None

    def cycle_kind(self) -> None:
        choices: list[str | None] = [None, *self.sections()]
        current = choices.index(self.kind) if self.kind in choices else 0
        self.kind = choices[(current + 1) % len(choices)]
        self.line_games = None
        self.line_index = 0
        self.refresh()

    def show_tab(self, tab: str) -> None:
        self.tab = tab
        self.refresh()

    # -- players ---------------------------------------------------------------------
    def columns(self) -> list[str]:
        if self.kind is None:
            return ["games", "wins", "rate", "streak"]
        if self.kind.startswith("pad:"):
            win = self.section_win(self.kind)
            if win == "coop":
                return ["games", "wins", "rate", "coop"]
            return ["games", "wins", "rate"] + ([] if win == "places" else ["best", "average"])
        extra = {"castor": ["best", "average", "medals"], "bond": ["best", "average", "kill"],
                 "evil": ["coop"]}[self.kind]
        return ["games", "wins", "rate", *extra]

    def cell(self, record: Record | None, column: str) -> str:
        app = App.get_running_app()
        if record is None:
            return "–" if column not in ("games", "wins") else "0"
        if column == "games":
            return str(record.games)
        if column == "wins":
            return str(record.wins)
        if column == "rate":
            return percent(record.win_rate)
        if column == "streak":
            return app.tr("night.ui.streak_value", now=record.current_streak,
                          best=record.longest_streak)
        if column == "best":
            return number(record.best_score)
        if column == "average":
            return number(record.average_score, 1)
        if column == "medals":
            return str(record.medals)
        if column == "kill":
            return number(record.best_kill)
        return self.coop_text(record.coop)

    def coop_text(self, coop: dict[str, tuple[int, int]]) -> str:
        app = App.get_running_app()
        if not coop:
            return "–"
        if self.kind is not None and self.kind.startswith("pad:"):  # no difficulty
            won, lost = coop.get("", (0, 0))
            return app.tr("night.ui.coop_record", won=app.tr("night.ui.n_won", n=won),
                          lost=app.tr("night.ui.n_lost_games", n=lost))
        parts = []
        for difficulty in sorted(coop):
            won, lost = coop[difficulty]
            name = difficulty_name(difficulty)
            parts.append(app.tr("night.ui.coop", difficulty=name,
                                won=app.tr("night.ui.n_won", n=won),
                                lost=app.tr("night.ui.n_lost_games", n=lost)))
        return "; ".join(parts)

    def players_tab(self) -> BoxLayout:
        app = App.get_running_app()
        assert self.data is not None
        outer = BoxLayout(orientation="vertical", spacing=dp(4))
        columns = self.columns()
        wide = {"coop": 3.0, "streak": 1.3}
        # the column names may take two lines ("Série actuelle/record")
        header = follow_height(BoxLayout(spacing=dp(4)), dp(46))
        header.add_widget(Widget(size_hint_x=None, width=dp(10)))  # the colour chips
        header.add_widget(Text(app.tr("night.ui.col.player"), size=theme.SIZE_SMALL,
                               color=theme.MUTED, size_hint_x=2.2))
        for column in columns:
            header.add_widget(Text(app.tr(f"night.ui.col.{column}"), size=theme.SIZE_SMALL,
                                   color=theme.MUTED,
                                   halign="center", size_hint_x=wide.get(column, 1.0)))
        outer.add_widget(header)
        scroller, rows = scroll_list(4)
        listed = [p for p in self.data.players
                  if (p.overall if self.kind is None else p.by_kind.get(self.kind)) is not None]
        # players who played first, most wins first
        def order(p: stats.PlayerStats) -> tuple[int, int, str]:
            record = p.overall if self.kind is None else p.by_kind.get(self.kind)
            return (-(record.wins if record else 0), -(record.games if record else 0),
                    p.player.name.casefold())

        def add_row(numbered: tuple[int, stats.PlayerStats]) -> None:
            i, p = numbered
            record = p.overall if self.kind is None else p.by_kind.get(self.kind)
            row = follow_height(BoxLayout(spacing=dp(4)), dp(40))
            paint_background(row, theme.PANEL)
            name = p.player.name + (" " + app.tr("night.ui.retired_mark")
                                    if p.player.retired else "")
            # the player's colour as a chip: as the colour of their name, a mid-tone
            # colour on the panel would be under 4.5:1
            chip = Widget(size_hint_x=None, width=dp(10))
            paint_background(chip, player_rgba(p.player.id, p.player.colour))
            row.add_widget(chip)
            row.add_widget(Text(name, size=theme.SIZE_SMALL, bold=True,
                                tid=f"stats.player.{i}.name", size_hint_x=2.2, shorten=True))
            for column in columns:
                row.add_widget(Text(self.cell(record, column), size=theme.SIZE_SMALL,
                                    halign="center",
                                    tid=f"stats.player.{i}.{column}",
                                    size_hint_x=wide.get(column, 1.0)))
            rows.add_widget(row)

        # a few players a frame: each row is half a dozen texts to draw
        in_steps(list(enumerate(sorted(listed, key=order))), add_row,
                 alive=lambda: outer.parent is not None, per_frame=2)
        if not listed:
            rows.add_widget(Text(app.tr("night.ui.no_players"), size=18, color=theme.MUTED,
                                 size_hint_y=None, height=dp(60), tid="stats.empty"))
        outer.add_widget(scroller)
        return outer

    # -- games -------------------------------------------------------------------------
    def games_tab(self) -> Any:
        app = App.get_running_app()
        assert self.data is not None
        scroller, rows = scroll_list(6)
        kinds = [self.kind] if self.kind else self.sections()
        shown = 0
        for kind in kinds:
            ks = self.data.kinds.get(kind)
            if ks is None:
                continue
            shown += 1
            lines = self.kind_lines(ks)
            block = Text("\n".join(lines), size=theme.SIZE_SMALL, tid=f"stats.kind.{kind}",
                         valign="top", padding=(dp(theme.SPACE_S), dp(theme.SPACE_XS)),
                         markup=True, size_hint_y=None, height=dp(26) * len(lines) + dp(8))
            paint_background(block, theme.PANEL)
            rows.add_widget(block)
        if not shown:
            rows.add_widget(Text(app.tr("night.ui.no_games"), size=18, color=theme.MUTED,
                                 size_hint_y=None, height=dp(60), tid="stats.empty"))
        if self.data.damaged:  # counted nowhere, but not silently
            rows.add_widget(Text(app.tr("night.ui.damaged_games", n=len(self.data.damaged)),
                                 size=theme.SIZE_SMALL, color=theme.MUTED, size_hint_y=None,
                                 height=dp(48), tid="stats.damaged"))
        return scroller

    def holders(self, ids: tuple[int, ...]) -> str:
        assert self.data is not None
        names = {p.player.id: p.player.name for p in self.data.players}
        return ", ".join(names.get(i, "?") for i in ids)

    def kind_lines(self, ks: KindStats) -> list[str]:
        app = App.get_running_app()
        if ks.kind.startswith("pad:"):
            return self.pad_lines(ks)
        lines = [f"[b]{short_game_name(ks.kind)}[/b]",
                 app.tr("night.ui.kind_games",
                        finished=app.tr("night.ui.games_finished", n=ks.games),
                        abandoned=app.tr("night.ui.games_abandoned", n=ks.abandoned),
                        unfinished=app.tr("night.ui.games_unfinished", n=ks.unfinished))]
        if ks.average_minutes is not None:
            lines.append(app.tr("night.ui.kind_minutes", time=minutes(ks.average_minutes * 60)))
        # co-operative: the table wins or loses together; wins per player say nothing
        coop = night_for(ks.kind).cooperative_kind
        if ks.best_score is not None and not coop:
            lines.append(app.tr("night.ui.kind_best", score=ks.best_score[0],
                                who=self.holders(ks.best_score[1])))
        lines += screens_for(ks.kind).stat_lines(self, ks)
        if coop:
            return lines
        if ks.shared_victories:
            lines.append(app.tr("night.ui.kind_shared", n=ks.shared_victories))
        if ks.wins:
            best = sorted(ks.wins.items(), key=lambda kv: -kv[1])[:3]
            lines.append(app.tr("night.ui.kind_wins", who=", ".join(
                f"{self.holders((pid,))} {n}" for pid, n in best)))
        return lines

    def pad_lines(self, ks: KindStats) -> list[str]:
        """A score pad template: its games, time, best score (the lowest, for a
        lowest-wins one), shared victories and most wins, or the table's co-op record."""
        app = App.get_running_app()
        title = app.tr("night.ui.pad_title", template=self.section_name(ks.kind))
        lines = [f"[b]{escape_markup(title)}[/b]",
                 app.tr("night.ui.kind_games",
                        finished=app.tr("night.ui.games_finished", n=ks.games),
                        abandoned=app.tr("night.ui.games_abandoned", n=ks.abandoned),
                        unfinished=app.tr("night.ui.games_unfinished", n=ks.unfinished))]
        if ks.average_minutes is not None:
            lines.append(app.tr("night.ui.kind_minutes", time=minutes(ks.average_minutes * 60)))
        if ks.win == "coop":
            lines.append(app.tr("night.ui.kind_table_record", record=self.coop_text_pad(ks)))
            return lines
        if ks.best_score is not None and ks.win != "places":
            key = "night.ui.kind_best_lowest" if ks.win == "lowest" else "night.ui.kind_best"
            lines.append(app.tr(key, score=ks.best_score[0],
                                who=escape_markup(self.holders(ks.best_score[1]))))
        if ks.shared_victories:
            lines.append(app.tr("night.ui.kind_shared", n=ks.shared_victories))
        if ks.wins:
            best = sorted(ks.wins.items(), key=lambda kv: -kv[1])[:3]
            lines.append(app.tr("night.ui.kind_wins", who=escape_markup(", ".join(
                f"{self.holders((pid,))} {n}" for pid, n in best))))
        return lines

    def coop_text_pad(self, ks: KindStats) -> str:
        app = App.get_running_app()
        won, lost = ks.coop.get("", (0, 0))
        return app.tr("night.ui.coop_record", won=app.tr("night.ui.n_won", n=won),
                      lost=app.tr("night.ui.n_lost_games", n=lost))

    # -- charts ------------------------------------------------------------------------
    def charts_tab(self) -> BoxLayout:
        app = App.get_running_app()
        assert self.data is not None
        body = BoxLayout(spacing=dp(10))
        left = BoxLayout(orientation="vertical", spacing=dp(4))
        if self.kind is not None and night_for(self.kind).cooperative_kind:
            return self.coop_charts(body)
        if self.kind is not None and self.section_win(self.kind) == "coop":
            return self.pad_coop_chart(body)
        left.add_widget(Text(app.tr("night.ui.wins_chart"), size=theme.SIZE_SMALL,
                             color=theme.MUTED, size_hint_y=None, height=dp(26),
                             tid="stats.bars.title"))
        bars = sorted((b for b in stats.bars(self.data, self.kind) if b.games),
                      key=lambda b: (-b.wins, -b.games, b.name.casefold()))[:6]
        chart = BarChart(tid="stats.bars")
        chart.show([(b.name, b.wins, player_rgba(b.player_id, b.colour)) for b in bars],
                   app.tr("night.ui.no_games"))
        left.add_widget(chart)
        body.add_widget(left)

        right = BoxLayout(orientation="vertical", spacing=dp(4))
        games = self.recent_line_games()
        chooser = follow_height(BoxLayout(spacing=dp(4)), theme.touch())
        prev = Tap("‹", tid="stats.line.prev", size=theme.SIZE_FIGURE, size_hint_x=None,
                   width=dp(56),
                   disabled=self.line_index + 1 >= len(games))
        prev.bind(on_release=lambda _b: self.step_line(1))
        following = Tap("›", tid="stats.line.next", size=theme.SIZE_FIGURE,
                        size_hint_x=None, width=dp(56),
                        disabled=self.line_index == 0)
        following.bind(on_release=lambda _b: self.step_line(-1))
        shown = line_title(games[self.line_index]) if games else app.tr("night.ui.no_line")
        chooser.add_widget(prev)
        chooser.add_widget(Text(shown, size=theme.SIZE_SMALL, halign="center",
                                tid="stats.line.game"))  # two lines fit the row
        chooser.add_widget(following)
        right.add_widget(chooser)
        lines = LineChart(tid="stats.lines")
        series = []
        if games:
            try:
                data = stats.score_lines(app.journal, games[self.line_index].id)
            except CompanionError as exc:
                app.show_error(exc.message)
            else:
                # a player's colour in every chart; guests one each, named as in play
                colours = [player_rgba(pid, self.colour_of(pid)) if pid is not None
                           else None for pid in data.player_ids]
                spare = guest_colours(c for c in colours if c is not None)
                series = [(name if pid is not None else guest_name(name), points,
                           colour or next(spare))
                          for name, pid, points, colour in zip(
                              data.names, data.player_ids, data.points, colours,
                              strict=True)]
        lines.show(series, app.tr("night.ui.no_line"))
        right.add_widget(lines)
        body.add_widget(right)
        return body

    def coop_charts(self, body: BoxLayout) -> BoxLayout:
        """Pr. Evil is co-operative: the table's games won and lost by difficulty, and
        the treasures recovered and lost, rather than wins per player."""
        app = App.get_running_app()
        assert self.data is not None
        ks = self.data.kinds.get("evil")
        coop = ks.coop if ks is not None else {}
        won_lost = []
        for difficulty in sorted(coop):
            won, lost = coop[difficulty]
            name = difficulty_name(difficulty, short=True)
            won_lost += [(app.tr("night.ui.bar_won", difficulty=name), won, theme.SUCCESS),
                         (app.tr("night.ui.bar_lost", difficulty=name), lost, theme.DANGER)]
        for title, tid, items in (
                (app.tr("night.ui.coop_chart"), "stats.bars", won_lost[:6]),
                (app.tr("night.ui.treasure_chart"), "stats.treasures",
                 [(app.tr("night.ui.bar_recovered"), ks.recovered, theme.SUCCESS),
                  (app.tr("night.ui.bar_lost_treasures"), ks.lost, theme.DANGER)]
                 if ks is not None and ks.games else [])):
            column = BoxLayout(orientation="vertical", spacing=dp(4))
            column.add_widget(Text(title, size=theme.SIZE_SMALL, color=theme.MUTED,
                                   size_hint_y=None, height=dp(26), tid=f"{tid}.title"))
            chart = BarChart(tid=tid, label_lines=2)
            chart.show(items, app.tr("night.ui.no_games"))
            column.add_widget(chart)
            body.add_widget(column)
        return body

    def pad_coop_chart(self, body: BoxLayout) -> BoxLayout:
        """A co-operative score pad template: the table's games won and lost."""
        app = App.get_running_app()
        assert self.data is not None and self.kind is not None
        ks = self.data.kinds[self.kind]
        won, lost = ks.coop.get("", (0, 0))
        column = BoxLayout(orientation="vertical", spacing=dp(4))
        column.add_widget(Text(app.tr("night.ui.table_chart"), size=theme.SIZE_SMALL,
                               color=theme.MUTED, size_hint_y=None, height=dp(26),
                               tid="stats.bars.title"))
        chart = BarChart(tid="stats.bars")
        chart.show([(app.tr("night.ui.bar_table_won"), won, theme.SUCCESS),
                    (app.tr("night.ui.bar_table_lost"), lost, theme.DANGER)]
                   if ks.games else [], app.tr("night.ui.no_games"))
        column.add_widget(chart)
        body.add_widget(column)
        return body

    def colour_of(self, player_id: int | None) -> str:
        """The roster colour of a player, the same in every chart (one the statistics
        shown leave out included)."""
        assert self.data is not None
        for p in self.data.players:
            if p.player.id == player_id:
                return p.player.colour
        if player_id is None:
            return ""
        try:
            return roster.get(App.get_running_app().journal, player_id).colour
        except CompanionError:
            return ""

    def recent_line_games(self) -> list[history.GameLine]:
        if self.line_games is None:
            found: list[history.GameLine] = []
            for kind in LINE_KINDS:
                night = night_for(kind)
                # a game won without points (co-op, places) has no score line worth drawing
                found += [g for g in self.recent.get(kind, [])
                          if self.kind in (None, kind, night.section(g))
                          and not night.no_points(g)]
            found.sort(key=lambda g: -g.started)
            self.line_games = found[:LINE_GAMES]
        return self.line_games

    def step_line(self, step: int) -> None:
        games = self.recent_line_games()
        self.line_index = min(max(self.line_index + step, 0), max(len(games) - 1, 0))
        self.refresh()
