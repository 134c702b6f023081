"""Pr. Evil setup: 2-5 players in seating order with names and characters, the first
player (drawn at random from the game's seed, changeable), the first treasures' minutes."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from companion.games.evil.dice import draw_first_player
from companion.games.evil.params import EvilParams
from companion.games.evil.rules import RULES_VERSION
from ui import theme
from ui.screens.game_parts import SetupScreen, edit_seat_name, link_seats
from ui.widgets.basics import Tap, Text, follow_height
from ui.widgets.components import fill_seats, seat_row


def _option(text: str, tid: str, on_release: Any) -> Tap:
    """An options-column button whose text may take two lines (a name in it): at the
    smallest size, as high as the shared option buttons."""
    tap = Tap(text, size=theme.SIZE_SMALL, tid=tid)
    follow_height(tap, theme.touch(theme.MIN_TOUCH + 4))
    tap.bind(on_release=lambda _b: on_release())
    return tap


class EvilSetupScreen(SetupScreen):
    kind = "evil"
    params_type = EvilParams

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.players: list[dict[str, Any]] = []
        self.minutes: dict[str, int] = {}
        self.seed = 0
        self.first: int | None = None  # None: the seat drawn from the seed
        self.next_difficulty_after: str | None = None

    def on_pre_enter(self, *_: Any) -> None:
        app = App.get_running_app()
        p = self.params
        pending = self.take_pending()  # "New game with the same players": same seats
        if pending is not None and len(pending) >= p.players_min:
            self.players = []
            for player in pending:
                taken = {pl["character"] for pl in self.players}
                character = player.get("character")
                if character not in p.characters or character in taken:
                    character = next(ch for ch in p.characters if ch not in taken)
                self.players.append({"name": player["name"], "character": character,
                                     **({"roster_id": player["roster_id"]}
                                        if player.get("roster_id") else {})})
        else:
            self.players = [
                {"name": app.tr("core.ui.player_n", n=i + 1), "character": p.characters[i]}
                for i in range(p.players_min)
            ]
        default = p.min_minutes + (p.max_minutes - p.min_minutes) // 2 // p.step_minutes \
            * p.step_minutes
        self.minutes = dict.fromkeys(p.colours, default)
        self.difficulty = self.next_difficulty_after or p.default_difficulty
        self.next_difficulty_after = None
        # the game's seed is drawn now, so the first player it draws can be shown
        self.seed = int(app.new_seed())
        self.first = None
        self.drawn = draw_first_player(self.seed, len(self.players))
        self.refresh()

    def first_player(self) -> int:
        """"Décidez au hasard qui sera le premier joueur": drawn unless the table chose.
        Drawn once: adding a seat keeps the seat drawn (a draw again at each seat was a
        new first player at each tap); only a seat that is no more is drawn again."""
        if self.first is not None and self.first < len(self.players):
            return self.first
        if self.drawn >= len(self.players):
            self.drawn = draw_first_player(self.seed, len(self.players))
        return self.drawn

    def refresh(self) -> None:
        """The shared setup page: seats (name, character, ×) in seating order on the
        left, Add and From roster under them; the first treasures, the first player and
        the difficulty on the right; the seating rule beside Start."""
        app = App.get_running_app()
        p = self.params
        seats, options = self.seat_page(app.tr("evil.ui.setup_title"),
                                        note=app.tr("evil.ui.seating"))
        rows = []
        for i, player in enumerate(self.players):
            character = Tap(player["character"], tid=f"setup.character.{i}",
                            size=theme.SIZE_BODY)
            character.bind(on_release=lambda _b, n=i: self.next_character(n))
            rows.append(seat_row(i, player["name"], self.edit_name, self.remove_player,
                                 len(self.players) > p.players_min, middle=[character]))
        fill_seats(seats, rows, p.players_max)
        self.seat_options(options, app.tr("evil.ui.add_player"), len(self.players))

        options.spacing = dp(theme.SPACE_XS)
        options.add_widget(Text(app.tr("evil.ui.first_treasures"), size=theme.SIZE_SMALL,
                                color=theme.MUTED, tid="setup.treasures", size_hint_y=None,
                                height=dp(24)))
        for colour in p.colours:
            row = follow_height(BoxLayout(spacing=dp(theme.SPACE_XS)), theme.touch())
            minus = Tap("−", tid=f"setup.minutes.{colour}.minus", size=theme.SIZE_TITLE,
                        size_hint_x=0.26)
            minus.bind(on_release=lambda _b, c=colour: self.step_minutes(c, -1))
            value = Tap(f"{app.tr(f'evil.letter.{colour}')}  {self.minutes[colour]} min",
                        tid=f"setup.minutes.{colour}", size=theme.SIZE_BUTTON, bold=True,
                        background=theme.colour(colour), size_hint_x=0.48)
            plus = Tap("+", tid=f"setup.minutes.{colour}.plus", size=theme.SIZE_TITLE,
                       size_hint_x=0.26)
            plus.bind(on_release=lambda _b, c=colour: self.step_minutes(c, 1))
            for widget in (minus, value, plus):
                row.add_widget(widget)
            options.add_widget(row)
        first = self.players[self.first_player()]["name"]
        key = "evil.ui.first_drawn" if self.first is None else "evil.ui.first_chosen"
        options.add_widget(_option(app.tr(key, player=first), "setup.first", self.next_first))
        if p.difficulties:
            options.add_widget(_option(
                app.tr("evil.ui.difficulty", name=app.tr(f"evil.difficulty.{self.difficulty}")),
                "setup.difficulty", self.next_difficulty))
        options.add_widget(Widget())

    # -- edits ------------------------------------------------------------------------
    def edit_name(self, index: int) -> None:
        edit_seat_name(self.players, index, self.refresh)

    def next_character(self, index: int) -> None:
        """Cycle to the next character nobody else has taken."""
        characters = self.params.characters
        taken = {p["character"] for j, p in enumerate(self.players) if j != index}
        current = characters.index(self.players[index]["character"])
        for k in range(1, len(characters) + 1):
            candidate = characters[(current + k) % len(characters)]
            if candidate not in taken:
                self.players[index]["character"] = candidate
                break
        self.refresh()

    def next_first(self) -> None:
        """The table overrides the draw: the next seat starts."""
        self.first = (self.first_player() + 1) % len(self.players)
        self.refresh()

    def add_player(self) -> None:
        app = App.get_running_app()
        p = self.params
        if len(self.players) >= p.players_max:
            return
        taken = {pl["character"] for pl in self.players}
        free = next(c for c in p.characters if c not in taken)
        self.players.append({"name": app.tr("core.ui.player_n", n=len(self.players) + 1),
                             "character": free})
        self.refresh()

    def remove_player(self, index: int) -> None:
        if len(self.players) > self.params.players_min:
            del self.players[index]
            self.refresh()

    def allowed_minutes(self) -> list[int]:
        """The tile minutes in play at the chosen difficulty."""
        p = self.params
        left_out = p.left_out(self.difficulty)
        return [m for m in range(p.min_minutes, p.max_minutes + 1, p.step_minutes)
                if m not in left_out]

    def step_minutes(self, colour: str, direction: int) -> None:
        allowed = self.allowed_minutes()
        current = self.minutes[colour]
        further = [m for m in allowed if (m - current) * direction > 0]
        if further:
            self.minutes[colour] = min(further) if direction > 0 else max(further)
        self.refresh()

    def next_difficulty(self) -> None:
        names = [name for name, _ in self.params.difficulties]
        self.difficulty = names[(names.index(self.difficulty) + 1) % len(names)] \
            if self.difficulty in names else names[0]
        allowed = self.allowed_minutes()
        for colour, minutes in self.minutes.items():  # a tile left out: the nearest in play
            if minutes not in allowed:
                self.minutes[colour] = min(allowed, key=lambda m, ref=minutes: abs(m - ref))
        self.refresh()

    def picked(self, players: list[dict[str, Any]]) -> None:
        """Roster players take the seats; each keeps a character nobody else has."""
        characters = self.params.characters
        kept = [p["character"] for p in self.players]
        chosen: list[dict[str, Any]] = []
        for i, player in enumerate(players):
            taken = {c["character"] for c in chosen}
            wanted = kept[i] if i < len(kept) and kept[i] not in taken else None
            character = wanted or next(c for c in characters if c not in taken)
            chosen.append({"name": player["name"], "roster_id": player["roster_id"],
                           "character": character})
        self.players = chosen
        self.refresh()

    def start(self) -> None:
        app = App.get_running_app()
        app.start_game("evil", {"players": [dict(p) for p in self.players],
                                "treasures": dict(self.minutes),
                                "difficulty": self.difficulty,
                                "seed": self.seed,
                                "first_player": self.first_player(),
                                "rules_version": RULES_VERSION}, done=link_seats)
