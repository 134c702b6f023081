"""Castor setup: 2-5 players with names and, optionally, their agent."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from companion.games.castor.params import CastorParams
from companion.night import roster
from ui import theme
from ui.dialogs import NameKeyboard, open_dialog
from ui.screens.game_parts import SetupScreen
from ui.widgets.basics import Tap, Text, follow_height
from ui.widgets.roster_picker import pick_players


class CastorSetupScreen(SetupScreen):
    kind = "castor"
    params_type = CastorParams

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.players: list[dict[str, Any]] = []

    def on_pre_enter(self, *_: Any) -> None:
        app = App.get_running_app()
        self.players = [{"name": app.tr("core.ui.player_n", n=i + 1), "agent": None}
                        for i in range(self.params.players_min)]
        self.refresh()

    def refresh(self) -> None:
        app = App.get_running_app()
        p = self.params
        box = self.new_page(app.tr("castor.ui.setup_title"))
        box.add_widget(Text(app.tr("castor.ui.setup_hint"), size=14, color=theme.MUTED,
                            size_hint_y=None, height=dp(24)))
        for i, player in enumerate(self.players):
            row = follow_height(BoxLayout(spacing=dp(6)), theme.touch(48))
            name = Tap(player["name"], tid=f"setup.name.{i}", size_hint_x=0.4)
            name.bind(on_release=lambda _b, n=i: self.edit_name(n))
            agent = Tap(self.agent_label(player["agent"]), tid=f"setup.agent.{i}", size=16,
                        size_hint_x=0.46)
            agent.bind(on_release=lambda _b, n=i: self.next_agent(n))
            remove = Tap("×", tid=f"setup.remove.{i}", size=24, size_hint_x=0.14,
                         disabled=len(self.players) <= p.players_min)
            remove.bind(on_release=lambda _b, n=i: self.remove_player(n))
            for widget in (name, agent, remove):
                row.add_widget(widget)
            box.add_widget(row)
        box.add_widget(BoxLayout())
        # five player rows must leave room: adding a player sits beside Start
        bottom = follow_height(BoxLayout(spacing=dp(8)), theme.touch(60))
        back = Tap(app.tr("core.ui.back"), tid="setup.back", size_hint_x=0.18)
        back.bind(on_release=lambda _b: setattr(app.root, "current", "home"))
        add = Tap(app.tr("castor.ui.add_player"), tid="setup.add", size_hint_x=0.24,
                  disabled=len(self.players) >= p.players_max)
        add.bind(on_release=lambda _b: self.add_player())
        from_roster = Tap(app.tr("night.ui.from_roster"), tid="setup.roster", size_hint_x=0.22)
        from_roster.bind(on_release=lambda _b: pick_players(self.picked, p.players_min,
                                                            p.players_max))
        start = Tap(app.tr("core.ui.start"), tid="setup.start", size=24,
                    background=theme.SUCCESS, size_hint_x=0.36)
        start.bind(on_release=lambda _b: self.start())
        for widget in (back, add, from_roster, start):
            bottom.add_widget(widget)
        box.add_widget(bottom)

    def agent_label(self, agent: str | None) -> str:
        app = App.get_running_app()
        spec = self.params.agent(agent) if agent else None
        if spec is None:
            return app.tr("castor.ui.no_agent")
        return f"{spec.name}\n{app.tr(f'castor.effect.{spec.effect}')}"

    # -- edits ------------------------------------------------------------------------
    def edit_name(self, index: int) -> None:
        app = App.get_running_app()

        def done(name: str) -> None:
            if name and name != self.players[index]["name"]:
                self.players[index]["name"] = name
                self.players[index].pop("roster_id", None)  # no longer that roster player
            self.refresh()

        open_dialog(NameKeyboard(app.tr("core.ui.keyboard_title", n=index + 1),
                                 self.players[index]["name"], done))

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
        session = app.start_game("castor", {"players": players})
        if session is not None:  # the seats count for their roster players' statistics
            roster.link_game(app.journal, session.game_id)
