"""Mr. Bond's play screen: what the table must do now (whose turn and its step, at the
key-figure size, with Next player beside it and the step's line under it), every
player's card, what just happened, undo/redo, the end by agreement; the capture flow
opens by itself while a spy is held."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from companion.games.bond import commands as c
from companion.games.bond import events as e
from companion.games.bond import view
from companion.games.bond.instructions import command_name, headline, instructions, turn_hint
from companion.games.bond.state import BondState
from companion.session import Session, Update
from ui import theme
from ui.names import display_name
from ui.screens.bond.attack import attack_dialog
from ui.screens.bond.capture import CaptureDialog, capture_dialog
from ui.screens.bond.cards import PlayerCard, grid_columns
from ui.screens.bond.dialogs import (
    check_dialog,
    correct_dialog,
    end_dialog,
    escaped_dialog,
    lair_dialog,
)
from ui.screens.play_base import PlayScreen
from ui.widgets.basics import Tap, Text, follow_height, follow_width
from ui.widgets.fit_name import fit_name
from ui.widgets.status_line import StatusLine


class BondPlayScreen(PlayScreen):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cards: list[PlayerCard] = []
        #: the capture question, built once (`warm_steps`) and re-told at each opening
        self._capture: CaptureDialog | None = None

    # -- layout -----------------------------------------------------------------------
    def _build(self) -> None:
        app = App.get_running_app()
        root = BoxLayout(orientation="vertical", padding=dp(theme.SPACE_XS), spacing=dp(2))
        undo, redo, _home = self.history_buttons()
        self.end_button = Tap(app.tr("bond.ui.end_game"), tid="play.end")
        self.end_button.bind(on_release=lambda _b: end_dialog())
        for button in (undo, redo, self.end_button):
            follow_width(button, 120)
        top, self.info_label = self.game_header("play.info", title_size=theme.SIZE_SMALL,
                                                extra=[undo, redo, self.end_button])
        self.info_label.bold = False
        # the headline: what the table must do now, at the key-figure size (the one
        # instruction rule of every game); Next player beside it, the step's line under
        row = follow_height(BoxLayout(spacing=dp(theme.SPACE_XS)), theme.touch())
        self.turn_label = Text(size=theme.SIZE_FIGURE, bold=True, tid="play.turn",
                               color=theme.ACCENT)
        self.next_button = Tap(app.tr("bond.ui.next_turn"), size=theme.SIZE_BUTTON,
                               bold=True, tid="play.next_turn", background=theme.SUCCESS)
        follow_width(self.next_button, 190)
        self.next_button.bind(on_release=lambda _b: app.send(c.NextTurn()))
        row.add_widget(self.turn_label)
        row.add_widget(self.next_button)
        self.turn_label.bind(width=lambda *_: self._fit_headline())
        self.hint_label = Text(size=theme.SIZE_ACT, tid="play.turn_hint", shorten=True)
        self.hint_label.acted_on = True
        follow_height(self.hint_label, 37)
        self.grid = GridLayout(spacing=(dp(theme.SPACE_XS), dp(2)))
        # the last action, at the size of what the table acts on ("discard its lair
        # cards"), two lines in a box of fixed height, so the cards' buttons never move
        # between two taps (the log has the whole text, an escape's dialog too)
        self.say_label = StatusLine("play.say", size=theme.SIZE_ACT, lines=2,
                                    smallest=theme.SIZE_ACT)
        self.say_label.acted_on = True
        self._headline = ("", "")  # the headline's text with the player's whole name
        for widget in (top, row, self.hint_label, self.grid, self.say_label):
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

    def capture(self) -> CaptureDialog:
        if self._capture is None:
            self._capture = CaptureDialog()
        return self._capture

    def warm_steps(self) -> Iterator[None]:
        """Then the capture question with this game's letters: the attack that
        captures builds nothing."""
        yield from super().warm_steps()
        dialog = self.capture()
        yield
        dialog.prepare(self.state.params.letters)
        yield

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
        self.next_button.disabled = not moves.next_turn
        now = view.turn(state)
        said = headline(state)
        self._headline = ("", "") if said is None or now is None else (
            app.say(said), display_name(now.name))
        self._fit_headline()
        hint = turn_hint(state)
        self.hint_label.text = "" if hint is None else app.say(hint)
        self.say_label.say(self._saying(state, update))

    def _fit_headline(self) -> None:
        """The headline on one line at the key-figure size: a long name is cut (with
        "…") rather than what the player must do."""
        text, name = self._headline
        label = self.turn_label
        label.text = fit_name(text, name, label.width - 4, label.font_size, bold=True)

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
