"""Mr. Bond setup: 2-6 named players, the deal reminded (it depends on the table size)."""

from __future__ import annotations

from typing import Any

from kivy.app import App

from companion.games.bond.params import BondParams
from companion.games.bond.view import deal_size
from ui import theme
from ui.dialogs import NameKeyboard, open_dialog
from ui.screens.game_parts import SetupScreen, link_seats
from ui.widgets.basics import Text
from ui.widgets.components import fill_seats, seat_row


class BondSetupScreen(SetupScreen):
    kind = "bond"
    params_type = BondParams

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.names: list[str] = []
        self.roster_ids: list[int | None] = []  # the roster player of each seat, if picked

    def on_pre_enter(self, *_: Any) -> None:
        app = App.get_running_app()
        pending = self.take_pending()
        if pending is not None:
            self.names = [p["name"] for p in pending]
            self.roster_ids = [p.get("roster_id") for p in pending]
        else:
            self.names = [app.tr("core.ui.player_n", n=i + 1)
                          for i in range(self.params.players_min)]
            self.roster_ids = [None] * len(self.names)
        self.refresh()

    def refresh(self) -> None:
        app = App.get_running_app()
        p = self.params
        seats, options = self.seat_page(app.tr("bond.ui.setup_title"),
                                       note=app.tr("bond.ui.target", target=p.target_score))
        rows = [seat_row(i, name, self.edit_name, self.remove_player,
                         len(self.names) > p.players_min)
                for i, name in enumerate(self.names)]
        fill_seats(seats, rows, p.players_max)
        self.seat_options(options, app.tr("bond.ui.add_player"), len(self.names))
        options.add_widget(Text(app.tr("bond.deal", cards=deal_size(p, len(self.names))),
                                size=theme.SIZE_BUTTON, bold=True, color=theme.ACCENT,
                                tid="setup.deal", valign="top"))
        # the seed: "Le joueur à la gauche du donneur commence la partie puis le jeu se
        # poursuit dans le sens horaire" (the app's turn starts at seat 1)
        options.add_widget(Text(app.tr("bond.ui.first_seat"), size=theme.SIZE_BODY,
                                tid="setup.first_seat", valign="top"))

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
        app.start_game("bond", {"players": players}, done=link_seats)
