"""The table clock's set-up: a preset, the players in seat order with their colours
(from the roster, or typed), and the start player, drawn (the seats light in turn on
the screen, the LEDs and the ring, with a flourish on the buzzer) or chosen by a tap.

Starting journals the session and its `Start`, stamped with the moment of the tap.
"""

from __future__ import annotations

import random
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.games import night_for
from companion.night import roster
from companion.session import Session
from hardware.timerview import TimerShown
from ui import theme
from ui.dialogs import Dialog, NameKeyboard, open_dialog
from ui.screens.clock import moment
from ui.screens.game_parts import link_seats
from ui.widgets.basics import Tap, Text, find, follow_height, follow_width
from ui.widgets.charts import PALETTE, hex_rgba
from ui.widgets.components import option_button, seat_row, setup_page
from ui.widgets.roster_picker import pick_players

MAX_SEATS = 8
DEFAULT_PRESET = "chess-5m-3s"  # offered first when it is there (else the first preset)
SEATS_SHARE = 0.74  # of the width: the seats' two columns (the options the rest)
DRAW_STEPS = 14  # seats lit in turn before the draw stops on one
DRAW_STEP_S = 0.07
SEAT_ROW = theme.ROW  # px at 800x480: a seat's row, its name in capitals of 20 px


def near_overtime(code: str) -> bool:
    """A colour a table would take for the clock's overtime red (`theme.DANGER`, the
    play screen's fill once a seat's time is up): the palette's red."""
    rgba = hex_rgba(code)
    return sum((a - b) ** 2 for a, b in zip(rgba[:3], theme.DANGER[:3], strict=True)) < 0.09


#: the colours a seat without one takes, in seat order: the players' palette, less
#: what reads as overtime
SEAT_COLOURS = tuple(code for code in PALETTE if not near_overtime(code))


def coloured(players: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every seat in a colour of its own, written in the seat, so the set-up and the
    play screen show the same one: a seat without a colour (a guest, a score pad
    game's player, a roster player who chose none) takes its roster colour by number
    if no other seat shows it, else the first seat colour no other seat shows. A
    colour a player chose is kept."""
    used = {p["colour"] for p in players if p.get("colour")}
    out = []
    for player in players:
        if not player.get("colour"):
            rid = player.get("roster_id")
            by_number = PALETTE[(rid - 1) % len(PALETTE)] if isinstance(rid, int) else ""
            wanted = [by_number] if by_number and not near_overtime(by_number) else []
            code = next((c for c in (*wanted, *SEAT_COLOURS) if c not in used),
                        SEAT_COLOURS[len(out) % len(SEAT_COLOURS)])
            player = {**player, "colour": code}
            used.add(code)
        out.append(player)
    return out


def presets() -> list[Any]:
    """The presets offered: the project's, then the table's own beside the user's
    config file (a broken file is left out here; `companion check-config` names it).
    What is known now: they are read on a worker thread (`ui.ownfolders`), none
    before the first read arrives."""
    from ui.ownfolders import folders

    known = folders().presets
    return list(known.presets.values()) if known is not None else []


class ClockSetupScreen(Screen):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.root_box = BoxLayout(orientation="vertical")
        self.add_widget(self.root_box)
        self.players: list[dict[str, Any]] = []
        self.preset_id: str | None = None
        self.first: int | None = None  # the start player's seat, once drawn or chosen
        self.pad_game: int | None = None  # the score pad game the clock runs beside
        self.custom: Any = None  # a clock of the table's own, made here and not saved
        self._drawing: Any = None
        self.lit: int | None = None  # the seat lit during a draw

    @property
    def choices(self) -> list[Any]:
        return presets()

    def preset(self) -> Any:
        choices = self.choices
        wanted = self.preset_id or DEFAULT_PRESET
        if self.custom is not None and wanted == self.custom.id:
            return self.custom
        for p in choices:
            if p.id == wanted:
                return p
        return choices[0] if choices else None

    def title(self, preset: Any) -> str:
        app = App.get_running_app()
        return str(preset.title(app.tr, app.translator.language))

    def on_pre_enter(self, *_: Any) -> None:
        pending = getattr(self, "pending_players", None)
        self.pending_players = None
        if pending:
            self.players = coloured([dict(p) for p in pending][:MAX_SEATS])
        elif not self.players:
            for i in range(2):
                self.players.append(self._guest(i))
        preset = self.preset()
        self.preset_id = preset.id if preset is not None else None
        self._shown = preset  # what the page shows, until the presets are read again
        from ui.ownfolders import folders

        folders().refresh(self.presets_read)  # off the UI thread; shown when read
        # a clock asked for from a score pad game's sheet: beside it, with its players,
        # its start player the game's
        first, self.pending_first = getattr(self, "pending_first", None), None
        self.first = first if first is not None and 0 <= first < len(self.players) else None
        self.pad_game, self.pending_pad = getattr(self, "pending_pad", None), None
        self.refresh()

    def presets_read(self) -> None:
        """The presets have been read (the built-ins, then the table's own)."""
        if self.manager is None or self.manager.current != self.name:
            return
        shown = self.preset_id
        preset = self.preset()
        self.preset_id = preset.id if preset is not None else None
        if shown is None or preset is None or preset.id != shown or \
                preset is not self._shown:  # else the page is right
            self.refresh()
        self._shown = preset

    def _guest(self, index: int) -> dict[str, Any]:
        app = App.get_running_app()
        n = index + 1
        names = {p["name"] for p in self.players}
        while app.tr("core.ui.player_n", n=n) in names:
            n += 1
        return coloured([*self.players, {"name": app.tr("core.ui.player_n", n=n)}])[-1]

    # -- the page -------------------------------------------------------------------------
    def refresh(self) -> None:
        app = App.get_running_app()
        preset = self.preset()
        first = self.players[self.first]["name"] if self.first is not None else \
            app.tr("clockui.first_unset")
        seats, options = setup_page(self.root_box, app.tr("clockui.setup_title"), self.start,
                                    tid="clocksetup",
                                    start_disabled=preset is None,
                                    note=app.tr("clockui.first_is", name=first),
                                    split=SEATS_SHARE)
        # two columns of four seats, the free ones kept: a seat added takes its place
        # and nothing on screen moves under the finger. Kivy's grid lays the rows out
        # at the height each row follows (the app's scale), never over each other.
        grid = GridLayout(cols=2, rows=MAX_SEATS // 2, spacing=dp(theme.SPACE_XS),
                          size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        for i, player in enumerate(self.players):
            grid.add_widget(self._seat(i, player))
        for _ in range(MAX_SEATS - len(self.players)):
            grid.add_widget(follow_height(Widget(), theme.touch(SEAT_ROW)))
        seats.add_widget(grid)
        seats.add_widget(Widget())
        bar = self.root_box.header_bar
        add = follow_width(Tap(app.tr("clockui.add_player"), tid="clocksetup.add",
                               size=theme.SIZE_BODY,
                               disabled=len(self.players) >= MAX_SEATS), 150)
        add.bind(on_release=lambda _b: self.add_player())
        from_roster = follow_width(Tap(app.tr("night.ui.from_roster"), tid="clocksetup.roster",
                                       size=theme.SIZE_BODY), 150)
        from_roster.bind(on_release=lambda _b: pick_players(self.picked, 1, MAX_SEATS))
        bar.add_widget(add)
        bar.add_widget(from_roster)
        name = self.title(preset) if preset is not None else app.tr(
            "clockui.presets_loading" if self.loading() else "clockui.no_preset")
        options.add_widget(option_button(name, "clocksetup.preset", self.open_presets))
        options.add_widget(option_button(app.tr("clockui.draw"), "clocksetup.draw", self.draw,
                                         disabled=self._drawing is not None))
        pads = self.pad_games()
        if pads:  # a clock beside an unfinished score pad game: its players, its History
            beside = next((r for r in pads if r.id == self.pad_game), None)
            text = app.tr("clockui.beside_none") if beside is None else app.tr(
                "clockui.beside", n=len(beside.summary.get("players", [])))
            options.add_widget(option_button(text, "clocksetup.beside", self.next_pad_game,
                                             selected=beside is not None))
        options.add_widget(Text(app.tr("clockui.setup_hint"), size=theme.SIZE_SMALL,
                                color=theme.MUTED, tid="clocksetup.hint", valign="top"))

    def _seat(self, i: int, player: dict[str, Any]) -> Any:
        """A seat's row: its number, the name (tap: type another), its colour (tap:
        this seat starts, marked on it) and × (the seat taken away)."""
        app = App.get_running_app()
        chosen = i in (self.first, self.lit)
        chip = follow_width(Tap(app.tr("clockui.first_short") if chosen else "",
                                size=theme.SIZE_SMALL, bold=True,
                                tid=f"clocksetup.first.{i}",
                                background=self._rgba(player)), theme.MIN_TOUCH + 8)
        chip.bind(on_release=lambda _b, k=i: self.choose_first(k))
        row = seat_row(i, player["name"], self.edit_name, self.remove_player,
                       len(self.players) > 1, middle=[chip], name_size=theme.SIZE_ACT,
                       height=SEAT_ROW)
        find(row, f"setup.name.{i}").acted_on = True  # read from every seat
        return row

    @staticmethod
    def _rgba(player: dict[str, Any]) -> theme.Rgba:
        return hex_rgba(player.get("colour", ""))

    # -- edits ----------------------------------------------------------------------------
    def add_player(self) -> None:
        if len(self.players) < MAX_SEATS:
            self.players.append(self._guest(len(self.players)))
            self.first = None
            self.refresh()

    def remove_player(self, index: int) -> None:
        if len(self.players) > 1:
            del self.players[index]
            self.first = None
            self.refresh()

    def edit_name(self, index: int) -> None:
        app = App.get_running_app()

        def done(name: str) -> None:
            if name and name != self.players[index]["name"]:
                self.players[index] = {"name": name,
                                       "colour": self.players[index].get("colour", "")}
            self.refresh()

        open_dialog(NameKeyboard(app.tr("core.ui.keyboard_title", n=index + 1),
                                 self.players[index]["name"], done))

    def picked(self, players: list[dict[str, Any]]) -> None:
        """Roster players in seat order, each in the colour the roster gives (one of
        their own when it gives none: `coloured`)."""
        app = App.get_running_app()
        chosen = []
        for entry in players:
            colour = roster.get(app.journal, entry["roster_id"]).colour
            chosen.append({**entry, "colour": colour or ""})
        self.players = coloured(chosen)
        self.first = None
        self.refresh()

    # -- beside a score pad game -------------------------------------------------------
    def pad_games(self) -> list[Any]:
        """The unfinished score pad games a clock can run beside (newest first)."""
        app = App.get_running_app()
        return [r for r in app.journal.unfinished()
                if night_for(r.kind).clock_beside and r.damaged is None]

    def next_pad_game(self) -> None:
        """None, then each unfinished score pad game in turn: the clock takes its
        players (seat order, colours) and History adds the clock's times to its line."""
        ids = [None, *(r.id for r in self.pad_games())]
        self.pad_game = ids[(ids.index(self.pad_game) + 1) % len(ids)] \
            if self.pad_game in ids else None
        if self.pad_game is not None:
            record = next(r for r in self.pad_games() if r.id == self.pad_game)
            players = [p for p in record.setup.get("players", []) if isinstance(p, dict)]
            if players:
                self.players = coloured([
                    {k: p[k] for k in ("name", "colour", "roster_id") if k in p}
                    for p in players[:MAX_SEATS]])
                self.first = None
        self.refresh()

    # -- the start player -------------------------------------------------------------------
    def choose_first(self, index: int) -> None:
        self.first = index
        self.refresh()

    def draw(self) -> None:
        """Draw the start player: the seats light in turn, faster then slower, on the
        screen, the clock LEDs and the ring, to the buzzer's flourish; the seat drawn
        stays lit."""
        app = App.get_running_app()
        seats = len(self.players)
        rng = random.Random(app.new_seed())
        winner = rng.randrange(seats)
        # the lit seat runs round the table and stops on the winner
        path = [(winner - DRAW_STEPS + 1 + k) % seats for k in range(DRAW_STEPS)]
        if app.hardware is not None:
            app.hardware.sound("clock_draw")
        self.first = None
        steps = iter(path)

        def step(_dt: float) -> bool:
            seat = next(steps, None)
            if seat is None:
                self._drawing = None
                self.lit = None
                self.first = winner
                self._light(winner)
                self.refresh()
                return False
            self.lit = seat
            self._light(seat)
            self.refresh()
            return True

        self._drawing = Clock.schedule_interval(step, DRAW_STEP_S)
        self.refresh()

    def _light(self, seat: int) -> None:
        hardware = App.get_running_app().hardware
        if hardware is not None and hasattr(hardware, "show_timer"):
            hardware.show_timer(TimerShown(seats=len(self.players), active=seat,
                                           remaining_ms=1, full_ms=1, level="ok",
                                           running=True, drain=False))

    def on_leave(self, *_: Any) -> None:
        if self._drawing is not None:
            self._drawing.cancel()
            self._drawing = None
            self.lit = None

    # -- presets ---------------------------------------------------------------------------
    def open_presets(self) -> None:
        app = App.get_running_app()
        dialog = Dialog(app.tr("clockui.preset_title"), "clockpresets")
        items = [(self.title(p), f"clockpresets.{p.id}", lambda p=p: self._pick(dialog, p.id))
                 for p in self.choices]
        if self.loading():  # the table's own are still being read: said, not hidden
            items.append((app.tr("clockui.presets_loading"), "clockpresets.loading",
                          lambda: None))
        items.append((app.tr("clockui.custom.open"), "clockpresets.custom",
                      lambda: self._custom(dialog)))
        items.append((app.tr("core.ui.cancel"), "clockpresets.cancel", dialog.dismiss))
        dialog.buttons(items, cols=3)
        dialog.default = dialog.dismiss
        open_dialog(dialog)

    @staticmethod
    def loading() -> bool:
        from ui.ownfolders import folders

        return bool(folders().loading)

    def _custom(self, dialog: Dialog) -> None:
        from ui.screens.clock.custom import custom_dialog

        dialog.dismiss()

        def use(preset: Any) -> None:
            self.custom, self.preset_id = preset, preset.id
            self.refresh()

        def saved(preset: Any) -> None:
            from ui.ownfolders import folders

            # shown at once; the list has it once the folders are read again
            self.custom, self.preset_id = preset, preset.id
            folders().refresh(self.presets_read)
            self.refresh()

        custom_dialog(use, saved, App.get_running_app().settings.user_file)

    def _pick(self, dialog: Dialog, preset_id: str) -> None:
        dialog.dismiss()
        self.preset_id = preset_id
        self.refresh()

    # -- start ----------------------------------------------------------------------------
    def start(self) -> None:
        from companion.games.clock import commands as c
        from companion.games.clock.presets import setup_for

        at = moment.now()  # the tap's moment: the clock starts from it
        app = App.get_running_app()
        preset = self.preset()
        if self._drawing is not None or preset is None:
            return
        players = [{k: v for k, v in p.items() if k in ("name", "colour", "roster_id")}
                   for p in self.players]
        setup = setup_for(preset, players, seed=app.new_seed(),
                          start=self.first if self.first is not None else 0,
                          pad_game=self.pad_game)

        def opened(session: Session) -> None:
            link_seats(session)
            app.send(c.Start(at=at))  # from the tap's moment, however long the row took

        app.start_game("clock", setup, beside=self.pad_game, done=opened)
