"""Castor setup: 2-5 players with names and, optionally, their agent."""

from __future__ import annotations

from typing import Any

from kivy.app import App

from companion.games.castor.params import CastorParams
from ui import theme
from ui.screens.game_parts import SetupScreen, edit_seat_name, link_seats
from ui.widgets.basics import Tap, Text
from ui.widgets.components import fill_seats, seat_row


class CastorSetupScreen(SetupScreen):
    kind = "castor"
    params_type = CastorParams

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.players: list[dict[str, Any]] = []

    def on_pre_enter(self, *_: Any) -> None:
        app = App.get_running_app()
        pending = self.take_pending()
        if pending is not None:
            self.players = [{"name": p["name"], "agent": p.get("agent"),
                             **({"roster_id": p["roster_id"]} if p.get("roster_id") else {})}
                            for p in pending]
        else:
            self.players = [{"name": app.tr("core.ui.player_n", n=i + 1), "agent": None}
                            for i in range(self.params.players_min)]
        self.refresh()

    def refresh(self) -> None:
        app = App.get_running_app()
        p = self.params
        seats, options = self.seat_page(app.tr("castor.ui.setup_title"))
        rows = []
        for i, player in enumerate(self.players):
            agent = Tap(self.agent_label(player["agent"]), tid=f"setup.agent.{i}",
                        size=theme.SIZE_SMALL, size_hint_x=1.1,
                        background=theme.SELECTED if player["agent"] else theme.BUTTON)
            agent.bind(on_release=lambda _b, n=i: self.next_agent(n))
            rows.append(seat_row(i, player["name"], self.edit_name, self.remove_player,
                                 len(self.players) > p.players_min, middle=[agent]))
        fill_seats(seats, rows, p.players_max)
        self.seat_options(options, app.tr("castor.ui.add_player"), len(self.players))
        options.add_widget(Text(app.tr("castor.ui.setup_hint"), size=theme.SIZE_SMALL,
                                color=theme.MUTED, tid="setup.hint", valign="top"))

    def agent_label(self, agent: str | None) -> str:
        app = App.get_running_app()
        spec = self.params.agent(agent) if agent else None
        if spec is None:
            return app.tr("castor.ui.no_agent")
        return f"{spec.name}\n{app.tr(f'castor.effect.{spec.effect}')}"

    # -- edits ------------------------------------------------------------------------
    def edit_name(self, index: int) -> None:
        edit_seat_name(self.players, index, self.refresh)

    def next_agent(self, index: int) -> None:
        """Cycle: no agent, then each agent nobody else has taken."""
        choices: list[str | None] = [None, *(a.id for a in self.params.agents)]
        taken = {p["agent"] for j, p in enumerate(self.players) if j != index} - {None}
        current = choices.index(self.players[index]["agent"])
        for k in range(1, len(choices) + 1):
            candidate = choices[(current + k) % len(choices)]
            if candidate not in taken:
                self.players[index]["agent"] = candidate
                break
        self.refresh()

    def add_player(self) -> None:
        app = App.get_running_app()
        if len(self.players) < self.params.players_max:
            self.players.append({"name": app.tr("core.ui.player_n", n=len(self.players) + 1),
                                 "agent": None})
            self.refresh()

    def remove_player(self, index: int) -> None:
        if len(self.players) > self.params.players_min:
            del self.players[index]
            self.refresh()

    def picked(self, players: list[dict[str, Any]]) -> None:
        """Roster players take the seats; agents stay with the seats they were on."""
        agents = [p["agent"] for p in self.players]
        self.players = [{**player, "agent": agents[i] if i < len(agents) else None}
                        for i, player in enumerate(players)]
        self.refresh()

    def start(self) -> None:
        app = App.get_running_app()
        players = [{"name": p["name"], **({"agent": p["agent"]} if p["agent"] else {}),
                    **({"roster_id": p["roster_id"]} if p.get("roster_id") else {})}
                   for p in self.players]
        app.start_game("castor", {"players": players}, done=link_seats)
