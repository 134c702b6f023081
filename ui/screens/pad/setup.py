"""The score pad's set-up: the template (a list of the built-ins and the table's own,
a broken one shown as broken with why), the players in seat order (typed, or picked
from the roster in the order tapped, each with a colour), and the start player, drawn
by the app or chosen. Two players and the ad-hoc pad are ready as the page opens:
Start is the second tap from home.

A player count outside the template's range is said beside Start and asked about on
Start: allowed once confirmed (recorded as `confirmed_count`).
"""

from __future__ import annotations

import random
from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen

from companion.night import roster
from companion.session import Session
from ui import theme
from ui.dialogs import confirm_loss
from ui.names import display_name
from ui.screens.game_parts import SEAT_BUTTON, edit_seat_name, link_seats
from ui.screens.pad.common import label, seat_colour
from ui.widgets.basics import Tap, Text, follow_height, follow_width
from ui.widgets.charts import PALETTE
from ui.widgets.components import option_button, setup_page
from ui.widgets.roster_picker import pick_players

SEATS_PER_COLUMN = 6
ADHOC = "rounds-highest"  # the built-in the page opens on
#: the ad-hoc pad should the table's files have replaced or broken that built-in
ADHOC_DATA = {"id": "adhoc", "name": {"en": "Score pad", "fr": "Bloc de score"},
              "players": {"min": 1, "max": 12}, "shape": "rounds", "win": "highest"}
MAX_SEATS = 12  # the rules' own limit (template.MAX_PLAYERS)


def team_ways(n: int) -> list[list[list[int]] | None]:
    """The ways the set-up offers to group `n` seats (seat indexes): none; two teams of
    partners sitting opposite (every other seat: 1+3 against 2+4, as at a card table);
    pairs side by side (1+2, 3+4...); from six seats, a count of three or more teams of
    three: trios side by side (1+2+3, 4+5+6...) and three teams of every third seat
    (1+4 · 2+5 · 3+6). Seats in the order they sit; no grouping offered twice."""
    ways: list[list[list[int]] | None] = [None]
    if n >= 4 and n % 2 == 0:
        ways.append([list(range(0, n, 2)), list(range(1, n, 2))])
        if n >= 6:
            ways.append([[s, s + 1] for s in range(0, n, 2)])
    if n >= 6 and n % 3 == 0:
        for way in ([[s, s + 1, s + 2] for s in range(0, n, 3)],
                    [list(range(k, n, 3)) for k in range(3)]):
            if way not in ways:
                ways.append(way)
    return ways


class PadSetupScreen(Screen):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.root_box = BoxLayout(orientation="vertical")
        self.add_widget(self.root_box)
        self.players: list[dict[str, Any]] = []
        self.template: dict[str, Any] | None = None  # the chosen template's plain data
        self.start_seat: int | None = None  # None: drawn by the app at Start
        self.teams_way = 0  # an index in `team_ways`: 0 no teams
        #: a finished game's seats and template ("New game with the same players")
        self.pending_players: list[dict[str, Any]] | None = None
        self.pending_template: dict[str, Any] | None = None

    # -- opening ----------------------------------------------------------------------
    def on_pre_enter(self, *_: Any) -> None:
        app = App.get_running_app()
        pending, self.pending_players = self.pending_players, None
        template, self.pending_template = self.pending_template, None
        self.template = template or self.default_template()
        self.chose = template is not None  # else the default, replaced once read
        from ui.ownfolders import folders

        folders().refresh(self.templates_read)  # off the UI thread; shown when read
        if pending:
            self.players = [{k: p[k] for k in ("name", "roster_id", "colour") if p.get(k)}
                            for p in pending[:MAX_SEATS]]
        else:
            self.players = [{"name": app.tr("core.ui.player_n", n=i + 1)} for i in range(2)]
        self.start_seat = None
        self.teams_way = 0
        self.refresh()

    @staticmethod
    def default_template() -> dict[str, Any]:
        """The ad-hoc pad: rounds, the highest total wins, any number of players (the
        built-in's file once read, on a worker thread: `ui.ownfolders`)."""
        from companion.games.pad.template import to_data
        from ui.ownfolders import folders

        catalogue = folders().templates
        found = catalogue.get(ADHOC) if catalogue is not None else None
        return to_data(found) if found is not None else dict(ADHOC_DATA)

    def templates_read(self) -> None:
        """The templates and presets have been read (the built-ins, then the table's
        own): the default is the file's, and the template's clock is known."""
        if self.manager is None or self.manager.current != self.name:
            return
        before = self.template, self.clock_preset()
        if not getattr(self, "chose", False):
            self.template = self.default_template()
        if (self.template, self.clock_preset()) != before:  # else the page is right
            self.refresh()

    def range(self) -> tuple[int, int]:
        players = (self.template or {}).get("players") or {}
        return int(players.get("min", 1)), int(players.get("max", MAX_SEATS))

    # -- the page ---------------------------------------------------------------------
    def refresh(self) -> None:
        app = App.get_running_app()
        low, high = self.range()
        n = len(self.players)
        note = "" if low <= n <= high else app.tr("pad.ui.count_outside", n=n, low=low,
                                                   high=high)
        seats, options = setup_page(self.root_box, app.tr("pad.ui.setup_title"), self.start,
                                    note=note, split=0.6)
        bar = self.root_box.header_bar
        add = follow_width(Tap(app.tr("pad.ui.add_player"), tid="setup.add",
                               size=theme.SIZE_BODY, disabled=n >= MAX_SEATS), SEAT_BUTTON)
        add.bind(on_release=lambda _b: self.add_player())
        bar.add_widget(add)
        pick = follow_width(Tap(app.tr("night.ui.from_roster"), tid="setup.roster",
                                size=theme.SIZE_BODY), SEAT_BUTTON)
        pick.bind(on_release=lambda _b: pick_players(self.picked, 1, MAX_SEATS))
        bar.add_widget(pick)
        grid = GridLayout(cols=2, spacing=(dp(theme.SPACE_S), dp(theme.SPACE_XS)))
        for column in range(2):
            box = BoxLayout(orientation="vertical", spacing=dp(theme.SPACE_XS))
            for seat in range(column * SEATS_PER_COLUMN, (column + 1) * SEATS_PER_COLUMN):
                box.add_widget(self.seat(seat) if seat < n else
                               follow_height(BoxLayout(), theme.touch()))
            grid.add_widget(box)
        seats.add_widget(grid)
        template = option_button(self.template_text(), "setup.template", self.choose_template)
        template.font_size = template.font_size  # (kept)
        follow_height(template, theme.touch(theme.ROW + 24))
        options.add_widget(template)
        options.add_widget(option_button(self.start_text(), "setup.start_player",
                                         self.next_start))
        ways = team_ways(n)
        options.add_widget(option_button(self.teams_text(), "setup.teams", self.next_teams,
                                         disabled=len(ways) < 2,
                                         selected=self.teams() is not None))
        preset = self.clock_preset()
        if preset is not None:  # the template names a clock: offered, on unless declined
            text = app.tr("pad.ui.with_clock", preset=preset.title(
                app.tr, app.translator.language)) if self.with_clock else \
                app.tr("pad.ui.without_clock")
            options.add_widget(option_button(text, "setup.clock", self.toggle_clock,
                                             selected=self.with_clock))
        options.add_widget(Text(self.hint(), size=theme.SIZE_SMALL, color=theme.MUTED,
                                tid="setup.hint", valign="top"))

    # -- the template's clock (`timer: <preset id>`) ------------------------------------
    def clock_preset(self) -> Any:
        """The clock preset the template names, if there is one by that id."""
        ident = self.template.get("timer") if isinstance(self.template, dict) else None
        if not ident:
            return None
        from ui.screens.clock.setup import presets

        return next((p for p in presets() if p.id == ident), None)

    def toggle_clock(self) -> None:
        self.with_clock = not getattr(self, "with_clock", True)
        self.refresh()

    def start_clock(self, pad_game: int, players: list[dict[str, Any]], first: int,
                    at: int) -> None:
        """The template's clock, beside the game just started: the same players in the
        same seat order, the same start player, started at the tap's moment."""
        from companion.games.clock import commands as c
        from companion.games.clock.presets import setup_for

        app = App.get_running_app()
        preset = self.clock_preset()
        seats = [{k: v for k, v in p.items() if v is not None} for p in players]

        def opened(session: Session) -> None:
            link_seats(session)
            app.send(c.Start(at=at))

        app.start_game("clock", setup_for(preset, seats, seed=app.new_seed(), start=first,
                                          pad_game=pad_game),
                       beside=pad_game, done=opened)

    def seat(self, index: int) -> BoxLayout:
        player = self.players[index]
        row = follow_height(BoxLayout(spacing=dp(theme.SPACE_XS)), theme.touch())
        row.add_widget(follow_width(Text(f"{index + 1}", size=theme.SIZE_BODY,
                                         halign="center", color=theme.MUTED,
                                         tid=f"setup.seat.{index}"), 24))
        colour = follow_width(Tap("", tid=f"setup.colour.{index}",
                                  background=seat_colour(player, index)), theme.MIN_TOUCH)
        colour.bind(on_release=lambda _b: self.next_colour(index))
        row.add_widget(colour)
        name = Tap(display_name(player["name"]), size=theme.SIZE_BODY,
                   tid=f"setup.name.{index}", shorten=True, shorten_from="right")
        name.bind(on_release=lambda _b: self.edit_name(index))
        row.add_widget(name)
        remove = follow_width(Tap("×", size=theme.SIZE_TITLE, tid=f"setup.remove.{index}",
                                  disabled=len(self.players) <= 1), theme.MIN_TOUCH)
        remove.bind(on_release=lambda _b: self.remove_player(index))
        row.add_widget(remove)
        return row

    def template_text(self) -> str:
        app = App.get_running_app()
        low, high = self.range()
        return app.tr("pad.ui.template_button", name=label(self.template.get("name", "")),
                      low=low, high=high)

    def start_text(self) -> str:
        app = App.get_running_app()
        if self.start_seat is None or self.start_seat >= len(self.players):
            return app.tr("pad.ui.start_drawn")
        return app.tr("pad.ui.start_chosen",
                      player=display_name(self.players[self.start_seat]["name"]))

    def teams(self) -> list[list[int]] | None:
        ways = team_ways(len(self.players))
        return ways[self.teams_way] if self.teams_way < len(ways) else None

    def teams_text(self) -> str:
        app = App.get_running_app()
        teams = self.teams()
        if teams is None:
            return app.tr("pad.ui.no_teams")
        return app.tr("pad.ui.teams", teams=" · ".join(
            "+".join(str(seat + 1) for seat in team) for team in teams))

    def next_teams(self) -> None:
        """No teams, then each way of grouping the seats this table can use."""
        self.teams_way = (self.teams_way + 1) % len(team_ways(len(self.players)))
        self.refresh()

    def hint(self) -> str:
        app = App.get_running_app()
        parts = [app.tr(f"pad.ui.win.{self.template.get('win', 'highest')}")]
        if self.template.get("check"):
            parts.append(app.tr("pad.ui.check_box"))
        return " ".join(parts)

    # -- edits ------------------------------------------------------------------------
    def add_player(self) -> None:
        app = App.get_running_app()
        if len(self.players) < MAX_SEATS:
            self.players.append({"name": app.tr("core.ui.player_n", n=len(self.players) + 1)})
            self.teams_way = 0  # the ways change with the count
            self.refresh()

    def remove_player(self, index: int) -> None:
        if len(self.players) > 1:
            del self.players[index]
            self.teams_way = 0
            if self.start_seat is not None and self.start_seat >= len(self.players):
                self.start_seat = None
            self.refresh()

    def edit_name(self, index: int) -> None:
        edit_seat_name(self.players, index, self.refresh)

    def next_colour(self, index: int) -> None:
        """The palette's next colour no other seat shows."""
        taken = {p.get("colour") for j, p in enumerate(self.players) if j != index}
        now = self.players[index].get("colour")
        start = PALETTE.index(now) + 1 if now in PALETTE else 0
        for k in range(len(PALETTE)):
            code = PALETTE[(start + k) % len(PALETTE)]
            if code not in taken:
                self.players[index]["colour"] = code
                break
        self.refresh()

    def picked(self, players: list[dict[str, Any]]) -> None:
        """Roster players take the seats in the order tapped, with their colours."""
        app = App.get_running_app()
        seated = []
        for entry in players:
            found = roster.get(app.journal, entry["roster_id"])
            seated.append({"name": entry["name"], "roster_id": entry["roster_id"],
                           **({"colour": found.colour} if found.colour else {})})
        self.players = seated
        self.start_seat = None
        self.teams_way = 0
        self.refresh()

    def next_start(self) -> None:
        """Drawn, then each seat in turn."""
        if self.start_seat is None:
            self.start_seat = 0
        elif self.start_seat + 1 < len(self.players):
            self.start_seat += 1
        else:
            self.start_seat = None
        self.refresh()

    def choose_template(self) -> None:
        from ui.screens.pad.dialogs import template_dialog

        template_dialog(self.chosen)

    def chosen(self, template: dict[str, Any]) -> None:
        self.template = template
        self.chose = True
        self.with_clock = True
        self.refresh()

    # -- starting ---------------------------------------------------------------------
    def start(self, confirmed: bool = False) -> None:
        app = App.get_running_app()
        low, high = self.range()
        n = len(self.players)
        if not low <= n <= high and not confirmed:
            confirm_loss(app.tr("pad.ui.count_title"),
                         app.tr("pad.ui.count_text", n=n, low=low, high=high,
                                name=label(self.template.get("name", ""))),
                         app.tr("pad.ui.count_yes"), lambda: self.start(True), tid="count")
            return
        drawn = self.start_seat is None or self.start_seat >= n
        first = random.Random(app.new_seed()).randrange(n) if drawn else self.start_seat
        players = [{"name": p["name"], "roster_id": p.get("roster_id"),
                    "colour": p.get("colour")} for p in self.players]
        setup = {"template": self.template, "players": players, "start_player": first,
                 "start_drawn": drawn, "teams": self.teams(),
                 "confirmed_count": not low <= n <= high}
        from ui.screens.clock import moment

        at = moment.now()  # the tap's moment: a clock beside starts from it
        # decided at the tap: the set-up stays touchable while a slow card writes the row
        with_clock = self.clock_preset() is not None and getattr(self, "with_clock", True)

        def opened(session: Session) -> None:
            link_seats(session)
            if with_clock:
                self.start_clock(session.game_id, players, first, at)

        app.start_game("pad", setup, done=opened)
