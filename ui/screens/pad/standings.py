"""The standings: every player by rank, totals at the key-figure size (large enough to
read from every seat), who is out, the end condition's state, and End game.

Tags: `standings.rank.<i>`, `standings.name.<i>`, `standings.total.<i>`,
`standings.note.<i>` (the i-th line, best first), `standings.status`, `standings.end`,
`standings.back`, `standings.tie` (how the tie for the win went).
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from ui import theme
from ui.names import display_name
from ui.screens.pad.common import current_state, number, seat_colour
from ui.widgets.basics import Tap, Text, follow_height, follow_width, paint_background
from ui.widgets.components import header

END_WIDTH = 170
SAVE_WIDTH = 150
#: up to this many players in one column, at the display size; more in two columns
ONE_COLUMN = 5


class PadStandingsScreen(Screen):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.box = BoxLayout(orientation="vertical", padding=dp(theme.SPACE_S),
                             spacing=dp(theme.SPACE_S))
        self.add_widget(self.box)

    def on_pre_enter(self, *_: Any) -> None:
        from ui.screens.pad.common import remember

        remember(self.name)  # durable before it is shown: it comes back after a power cut
        self.refresh()

    def on_leave(self, *_: Any) -> None:
        from ui.screens.pad.common import remember

        if App.get_running_app().root.current == "pad_play":
            remember("pad_play")

    def refresh(self) -> None:
        from companion.games.pad.instructions import headline
        from companion.games.pad.view import standings_view

        app = App.get_running_app()
        if app.session is None:
            return
        state = current_state()
        view = standings_view(state)
        box = self.box
        box.clear_widgets()
        end = follow_width(Tap(app.tr("pad.ui.end_game"), size=theme.SIZE_BODY,
                               tid="standings.end", background=theme.SUCCESS
                               if self.ready(state) else theme.BUTTON),
                           END_WIDTH)
        end.bind(on_release=lambda _b: self.end())
        end.disabled = bool(state.finished)
        save = follow_width(Tap(app.tr("pad.ui.save"), size=theme.SIZE_BODY,
                                tid="standings.save"), SAVE_WIDTH)
        save.bind(on_release=lambda _b: self.save())
        bar = header(app.say(headline(state)), "standings", back=self.back,
                     back_text=app.tr("pad.ui.sheet"), extra=[save, end],
                     title_size=theme.SIZE_BODY, title_tid="standings.status")
        box.add_widget(bar)
        entries = list(view.entries)
        cols = 1 if len(entries) <= ONE_COLUMN else 2
        # the display size while four rows a column fit it and, in two columns, its
        # totals are of three characters at most (four digits at the display size are
        # wider than a half-width line leaves them on the 7" screen); the key-figure
        # size beyond
        widest = max((len(number(e.total)) for e in entries), default=0)
        figure = (theme.SIZE_DISPLAY if len(entries) <= 8 and (cols == 1 or widest <= 3)
                  else theme.SIZE_FIGURE)
        # best first down the first column, then down the second
        grid = BoxLayout(spacing=dp(theme.SPACE_L))
        rows = -(-len(entries) // cols)
        for col in range(cols):
            column = BoxLayout(orientation="vertical", spacing=dp(theme.SPACE_XS))
            for i in range(col * rows, (col + 1) * rows):
                column.add_widget(self.line(i, entries[i], figure) if i < len(entries)
                                  else BoxLayout())
            grid.add_widget(column)
        box.add_widget(grid)
        if view.tie is not None:  # why one of the tied is ahead ("on coins, 11 to 9")
            box.add_widget(Text(app.say(view.tie), size=theme.SIZE_BODY, tid="standings.tie",
                                size_hint_y=None, height=dp(28)))
        if view.end is not None and not state.finished:
            box.add_widget(Text(app.say(view.end), size=theme.SIZE_BODY, color=theme.MUTED,
                                tid="standings.end_state", size_hint_y=None, height=dp(28)))

    @staticmethod
    def ready(state: Any) -> bool:
        """The sheet is played out: the end offered, or every cell filled."""
        from companion.games.pad.view import sheet_view

        view = sheet_view(state)
        return not view.finished and (view.end_offered or view.current is None)

    def line(self, i: int, entry: Any, figure: float) -> BoxLayout:
        from companion.games.pad.view import sheet_view
        from ui.screens.pad.play import scored_seats

        app = App.get_running_app()
        state = current_state()
        out = entry.out is not None
        winner = entry.winner
        ink = theme.MUTED if out else (theme.ACCENT if winner else theme.TEXT)
        line = BoxLayout(spacing=dp(theme.SPACE_S))
        rank = "–" if entry.rank is None else str(entry.rank)
        line.add_widget(follow_width(Text(rank, size=figure, bold=True, halign="right",
                                          color=ink, tid=f"standings.rank.{i}"),
                                     64 if figure > theme.SIZE_FIGURE else 44))
        chip = follow_width(BoxLayout(), 12)
        paint_background(chip, seat_colour(state.players[entry.seat], entry.seat))
        line.add_widget(chip)
        names = BoxLayout(orientation="vertical")
        names.add_widget(Text(display_name(entry.name), size=theme.SIZE_BUTTON, bold=winner,
                              color=ink, tid=f"standings.name.{i}", shorten=False))
        note = self.note(entry)
        if note:
            names.add_widget(follow_height(Text(note, size=theme.SIZE_SMALL, color=theme.MUTED,
                                                tid=f"standings.note.{i}"), 24))
        line.add_widget(names)
        # a co-operative game's optional scores: no total where none was typed
        scored = current_state().template.win != "coop" or entry.seat in scored_seats(
            state, sheet_view(state))
        total = Text(number(entry.total) if scored else "", size=figure, bold=True,
                     halign="right", color=ink, tid=f"standings.total.{i}", size_hint_x=0.6)
        total.key_figure = True  # the audit holds it to the key figures' cap height
        line.add_widget(total)
        del app
        return line

    def note(self, entry: Any) -> str:
        app = App.get_running_app()
        parts = []
        if entry.team is not None:
            parts.append(app.tr("pad.ui.team", n=entry.team + 1))
        if entry.out is not None:
            parts.append(app.tr(f"pad.ui.out.{entry.out}"))
        elif entry.winner:
            parts.append(app.tr("pad.ui.winner" if current_state().finished
                                else "pad.ui.leader"))
        return " · ".join(parts)

    def save(self) -> None:
        """This game's sheet kept as the table's own template (an ad-hoc pad's)."""
        from ui.screens.pad.dialogs import save_template

        save_template(current_state())

    def back(self) -> None:
        App.get_running_app().root.current = "pad_play"

    def end(self) -> None:
        """End the game; a co-operative one asks first whether the table won, a game of
        places the order the players finished in."""
        from companion.games.pad import commands as c

        win = current_state().template.win
        if win in ("coop", "places"):
            from ui.screens.pad.dialogs import coop_dialog, places_dialog

            if win == "coop":
                coop_dialog()
            else:
                places_dialog(current_state())
            return
        App.get_running_app().send(c.End())
