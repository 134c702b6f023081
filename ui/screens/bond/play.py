"""Mr. Bond's play screen: every player's card, what just happened, undo/redo, the end
by agreement; the capture flow opens by itself while a spy is held."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from companion.games.bond import events as e
from companion.games.bond import view
from companion.games.bond.instructions import command_name, instructions
from companion.games.bond.state import BondState
from companion.session import Session, Update
from ui import theme
from ui.screens.bond.attack import attack_dialog
from ui.screens.bond.capture import capture_dialog
from ui.screens.bond.cards import PlayerCard, grid_columns
from ui.screens.bond.dialogs import (
    check_dialog,
    correct_dialog,
    end_dialog,
    escaped_dialog,
    lair_dialog,
)
from ui.screens.play_base import PlayScreen
from ui.widgets.basics import Tap, follow_width
from ui.widgets.status_line import StatusLine


class BondPlayScreen(PlayScreen):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cards: list[PlayerCard] = []

    # -- layout -----------------------------------------------------------------------
    def _build(self) -> None:
        app = App.get_running_app()
        root = BoxLayout(orientation="vertical", padding=dp(theme.SPACE_XS),
                         spacing=dp(theme.SPACE_XS))
        undo, redo, _home = self.history_buttons()
        self.end_button = Tap(app.tr("bond.ui.end_game"), tid="play.end")
        self.end_button.bind(on_release=lambda _b: end_dialog())
        for button in (undo, redo, self.end_button):
            follow_width(button, 120)
        top, self.info_label = self.game_header("play.info", title_size=theme.SIZE_SMALL,
                                                extra=[undo, redo, self.end_button])
        self.info_label.bold = False
        self.grid = GridLayout(spacing=dp(theme.SPACE_XS))
        # the last action, as body text (not a key figure): at 38 px its lines would
        # squeeze the score cards of six players. Its height is fixed (three lines), so
        # the cards' buttons never move between two taps; the log has the whole text
        self.say_label = StatusLine("play.say")
        for widget in (top, self.grid, self.say_label):
            root.add_widget(widget)
        self.add_widget(root)

    # -- session ----------------------------------------------------------------------
    @property
    def state(self) -> BondState:
        return super().state  # type: ignore[no-any-return]

    def open_session(self, session: Session) -> None:
        super().open_session(session)
        count = len(session.state.players)
        self.grid.clear_widgets()
        self.grid.cols = grid_columns(count)
        self.cards = [
            PlayerCard(i, on_lair=lambda n: lair_dialog(self.state, n),
                       on_attack=lambda n: attack_dialog(self.state, n),
                       on_correct=lambda n: correct_dialog(self.state, n),
                       on_capture=lambda: capture_dialog(self.state))
            for i in range(count)
        ]
        for card in self.cards:
            self.grid.add_widget(card)

    def after_update(self, update: Update | None) -> None:
        """Redraw from the committed state, then open what the rules ask for: first the
        "check your cards" note when a card the settings did not expect was just
        recorded, then (on its OK) the capture or escape."""
        state = self.state
        self.refresh(state, update)
        if self.show_end_or_stay(state.outcome is not None):
            return
        if update is not None and update.verb == "do" and check_dialog(
                update.events, then=lambda: self._follow(update)) is not None:
            return
        self._follow(update)

    def _follow(self, update: Update | None) -> None:
        app = App.get_running_app()
        state = self.state
        if state.capture is not None:
            capture_dialog(state)
        elif update is not None and update.verb != "undo" and any(
                isinstance(ev, e.SpyEscaped) for ev in update.events):
            escaped_dialog(self.say_label.whole)
        elif app.dialog is not None and getattr(app.dialog, "closes_on_update", False):
            app.close_dialog()

    def refresh(self, state: BondState, update: Update | None = None) -> None:
        app = App.get_running_app()
        assert self.session is not None
        moves = view.next_moves(state)
        for card, player in zip(self.cards, view.players(state), strict=True):
            card.show(player, moves)
        # the target is on every card ("12 to go"): the header counts the decks
        self.info_label.text = "\n".join((
            app.tr("bond.ui.spies_left", n=view.spies_left(state)),
            app.tr("bond.ui.lair_cards_left", n=view.lair_cards_left(state)),
        ))
        self.refresh_history_buttons()
        self.end_button.disabled = not moves.end_game
        self.say_label.say(self._saying(state, update))

    def _saying(self, state: BondState, update: Update | None) -> list[str]:
        """The last action's sentences for the table ("Undo: ..." after an undo)."""
        app = App.get_running_app()
        assert self.session is not None
        if update is not None and update.verb == "undo":
            return [app.tr("core.ui.undo_what", what=app.say(command_name(update.command)))]
        steps = self.session.steps
        if not steps:
            return [app.tr("bond.ui.no_event")]
        return [app.say(m) for m in instructions(steps[-1].events, state)]
