"""What several games' screens share: the setup screen's frame (its page, its title, its
rule parameters, the seats a finished game hands over), Back/Start under a setup, and
Undo/Home/New game under a game's end. The page itself is `ui.widgets.components`'."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.night import roster
from companion.session import Session
from ui import theme
from ui.dialogs import NameKeyboard, open_dialog
from ui.widgets.basics import Tap, Text, follow_width
from ui.widgets.components import setup_page
from ui.widgets.roster_picker import pick_players

SEAT_BUTTON = 150  # px at 800x480: Add and From roster in the setup's header


class SetupScreen(Screen):
    """A game's setup page. Subclasses set `kind` and `params_type` (the game's params
    class with `from_config`) and rebuild their page in `refresh`."""

    kind = ""
    params_type: Any = None

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.root_box = BoxLayout(orientation="vertical", padding=dp(8), spacing=dp(6))
        self.add_widget(self.root_box)
        self._section: Any = None
        self._params: Any = None
        #: the seats of a finished game ("New game with the same players"), taken once
        self.pending_players: list[dict[str, Any]] | None = None

    def take_pending(self) -> list[dict[str, Any]] | None:
        """The seats handed over by an end page, if any (then forgotten), at most the
        game's maximum."""
        players, self.pending_players = self.pending_players, None
        if not players:
            return None
        return players[: self.params.players_max]

    @property
    def params(self) -> Any:
        """The game's rule parameters, read again only when the config changed (settings
        replace the config's data rather than edit it)."""
        section = App.get_running_app().settings.get(f"games.{self.kind}")
        if section is not self._section:
            self._params = self.params_type.from_config(section)
            self._section = section
        return self._params

    def new_page(self, title: str) -> BoxLayout:
        """Clear the page and put the title on it; returns the page (a page that lays
        itself out; `seat_page` is the shared one)."""
        self.root_box.clear_widgets()
        self.root_box.add_widget(Text(title, size=theme.SIZE_BUTTON, bold=True,
                                      size_hint_y=None, height=dp(40), tid="setup.title"))
        return self.root_box

    def seat_page(self, title: str, note: str = "") -> tuple[BoxLayout, BoxLayout]:
        """Clear the page and lay out the shared setup page (header with Back, seats,
        options, Start); returns the seats' and the options' columns."""
        return setup_page(self.root_box, title, self.start, note=note)

    def seat_options(self, _options: BoxLayout, add_text: str, seated: int) -> None:
        """Add a player (while a seat is free) and pick players from the roster: in the
        header, right of the title, the same place on every game's setup (a column of
        six seats, or of Pr. Evil's options, has no room left for them at 800x480); for
        a game whose subclass has `add_player` and `picked`."""
        p = self.params
        add = follow_width(Tap(add_text, tid="setup.add", size=theme.SIZE_BODY,
                               disabled=seated >= p.players_max), SEAT_BUTTON)
        add.bind(on_release=lambda _b: self.add_player())
        from_roster = follow_width(Tap(App.get_running_app().tr("night.ui.from_roster"),
                                       tid="setup.roster", size=theme.SIZE_BODY), SEAT_BUTTON)
        from_roster.bind(on_release=lambda _b: pick_players(self.picked, p.players_min,
                                                            p.players_max))
        bar = self.root_box.header_bar
        bar.add_widget(add)
        bar.add_widget(from_roster)

    def add_player(self) -> None:
        raise NotImplementedError

    def picked(self, players: list[dict[str, Any]]) -> None:
        raise NotImplementedError

    def start(self) -> None:
        raise NotImplementedError


def edit_seat_name(players: list[dict[str, Any]], index: int,
                   refresh: Callable[[], None]) -> None:
    """The name keyboard for seat `index`: a new name is no longer that roster player."""
    app = App.get_running_app()

    def done(name: str) -> None:
        if name and name != players[index]["name"]:
            players[index]["name"] = name
            players[index].pop("roster_id", None)  # no longer that roster player
        refresh()

    open_dialog(NameKeyboard(app.tr("core.ui.keyboard_title", n=index + 1),
                             players[index]["name"], done))


def link_seats(session: Session) -> None:
    """A game just opened: its seats count for their roster players' statistics. The
    links are written on the writer thread, before the game's first action."""
    game_id = session.game_id
    App.get_running_app().write(lambda journal: roster.link_game(journal, game_id))


def setup_bar(on_start: Callable[[], None]) -> BoxLayout:
    """Back (to home) and a large Start."""
    app = App.get_running_app()
    bar = BoxLayout(spacing=dp(8), size_hint_y=None, height=theme.touch(60))
    back = Tap(app.tr("core.ui.back"), tid="setup.back", size_hint_x=0.3)
    back.bind(on_release=lambda _b: setattr(app.root, "current", "home"))
    start = Tap(app.tr("core.ui.start"), tid="setup.start", size=24,
                background=theme.SUCCESS, size_hint_x=0.7)
    start.bind(on_release=lambda _b: on_start())
    bar.add_widget(back)
    bar.add_widget(start)
    return bar


def end_bar(kind: str, undo_with: Callable[[], Any] | None = None) -> BoxLayout:
    """Undo (back into the game; `undo_with`: this game's own undo), Home, and New
    game (this game's setup)."""
    app = App.get_running_app()
    bar = BoxLayout(spacing=dp(10), size_hint_y=None, height=theme.touch(64))
    undo = Tap(app.tr("core.ui.undo"), tid="end.undo")
    undo.bind(on_release=lambda _b: (undo_with or app.undo)())
    home = Tap(app.tr("core.ui.home"), tid="end.home")
    home.bind(on_release=lambda _b: app.leave_game())
    again = Tap(app.tr("core.ui.new_game"), tid="end.new", background=theme.SUCCESS)
    again.bind(on_release=lambda _b: new_game(kind))
    for widget in (undo, home, again):
        bar.add_widget(widget)
    return bar


def new_game(kind: str) -> None:
    app = App.get_running_app()
    app.leave_game()
    app.root.current = f"{kind}_setup"
