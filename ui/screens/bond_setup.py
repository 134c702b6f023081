"""Mr. Bond setup: 2-6 named players, the deal reminded (it depends on the table size)."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from companion.games.bond.params import BondParams
from companion.games.bond.view import deal_size
from companion.night import roster
from ui import theme
from ui.dialogs import NameKeyboard, open_dialog
from ui.screens.game_parts import SetupScreen, setup_bar
from ui.widgets.basics import Tap, Text
from ui.widgets.roster_picker import pick_players


class BondSetupScreen(SetupScreen):
    kind = "bond"
    params_type = BondParams

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.names: list[str] = []
        self.roster_ids: list[int | None] = []  # the roster player of each seat, if picked

    def on_pre_enter(self, *_: Any) -> None:
        app = App.get_running_app()
        self.names = [app.tr("core.ui.player_n", n=i + 1)
                      for i in range(self.params.players_min)]
        self.roster_ids = [None] * len(self.names)
        self.refresh()

    def refresh(self) -> None:
        app = App.get_running_app()
        p = self.params
        box = self.new_page(app.tr("bond.ui.setup_title"))
        columns = BoxLayout(spacing=dp(10))
        box.add_widget(columns)

        left = BoxLayout(orientation="vertical", spacing=dp(4), size_hint_x=0.58)
        for i, name in enumerate(self.names):
            row = BoxLayout(spacing=dp(4), size_hint_y=None, height=theme.touch())
            tap = Tap(name, tid=f"setup.name.{i}", size_hint_x=0.8)
            tap.bind(on_release=lambda _b, n=i: self.edit_name(n))
            remove = Tap("×", tid=f"setup.remove.{i}", size=24, size_hint_x=0.2,
                         disabled=len(self.names) <= p.players_min)
            remove.bind(on_release=lambda _b, n=i: self.remove_player(n))
            row.add_widget(tap)
            row.add_widget(remove)
            left.add_widget(row)
        left.add_widget(BoxLayout())
        columns.add_widget(left)

        right = BoxLayout(orientation="vertical", spacing=dp(8), size_hint_x=0.42)
        add = Tap(app.tr("bond.ui.add_player"), tid="setup.add", size_hint_y=None,
                  height=theme.touch(), disabled=len(self.names) >= p.players_max)
        add.bind(on_release=lambda _b: self.add_player())
        right.add_widget(add)
        from_roster = Tap(app.tr("night.ui.from_roster"), tid="setup.roster", size_hint_y=None,
                          height=theme.touch())
        from_roster.bind(on_release=lambda _b: pick_players(self.picked, p.players_min,
                                                            p.players_max))
        right.add_widget(from_roster)
        right.add_widget(Text(app.tr("bond.deal", cards=deal_size(p, len(self.names))),
                              size=20, bold=True, color=theme.ACCENT, tid="setup.deal",
                              size_hint_y=None, height=dp(90)))
        right.add_widget(Text(app.tr("bond.ui.target", target=p.target_score), size=18,
                              tid="setup.target", size_hint_y=None, height=dp(32)))
        right.add_widget(BoxLayout())
        columns.add_widget(right)

        box.add_widget(setup_bar(self.start))

    # -- edits ------------------------------------------------------------------------
    def edit_name(self, index: int) -> None:
        app = App.get_running_app()

        def done(name: str) -> None:
            if name and name != self.names[index]:
                self.names[index] = name
                self.roster_ids[index] = None
            self.refresh()

        open_dialog(NameKeyboard(app.tr("core.ui.keyboard_title", n=index + 1),
                                 self.names[index], done))

    def add_player(self) -> None:
        app = App.get_running_app()
        if len(self.names) < self.params.players_max:
            # the first "Player n" nobody has yet, so a removal never leaves a duplicate
            n = len(self.names) + 1
            while app.tr("core.ui.player_n", n=n) in self.names:
                n += 1
            self.names.append(app.tr("core.ui.player_n", n=n))
            self.roster_ids.append(None)
            self.refresh()

    def remove_player(self, index: int) -> None:
        if len(self.names) > self.params.players_min:
            del self.names[index]
            del self.roster_ids[index]
            self.refresh()

    def picked(self, players: list[dict[str, Any]]) -> None:
        self.names = [p["name"] for p in players]
        self.roster_ids = [p["roster_id"] for p in players]
        self.refresh()

    def start(self) -> None:
        app = App.get_running_app()
        players = [{"name": n} if rid is None else {"name": n, "roster_id": rid}
                   for n, rid in zip(self.names, self.roster_ids, strict=True)]
        session = app.start_game("bond", {"players": players})
        if session is not None:  # the seats count for their roster players' statistics
            roster.link_game(app.journal, session.game_id)
