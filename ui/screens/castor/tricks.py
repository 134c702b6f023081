"""The trick tracker: for each trick, the power cards drawn, a complice card (its note,
trump change and corrections), each player's card in play order (a colour, then its
value; "other" for a number the settings do not list), who is winning, and the plan
card the winner takes. At the round's last trick the rules fill in the score sheet and
the scoreboard shows it.

The rules hide the piles ("Tu peux consulter la pile des cartes que tu as gagnées, mais
pas celle des autres joueurs"): this screen shows the trick on the table and who took
the last one, never a player's tally; "Piles" shows one player's own pile to them.
Greying the cards already played is a setting (`games.castor.keypad_marks_played`, off
by default: the physical game leaves card counting to memory)."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen

from companion.games.castor import commands as c
from companion.games.castor import playable_values, trick_view
from companion.games.castor.instructions import colour_chain
from companion.games.castor.state import CastorState
from companion.games.castor.view import TrickView
from companion.session import Update
from ui import theme
from ui.screens.castor.common import (
    MEDAL,
    SYMBOL_FONT,
    card_text,
    colour_card,
    colour_name,
    current_state,
    ink,
)
from ui.screens.castor.dialogs import (
    complice_dialog,
    drawn_powers,
    extra_plan_dialog,
    keypad_dialog,
    leader_dialog,
    piles_dialog,
    power_dialog,
)
from ui.screens.castor.play import said
from ui.widgets.basics import Tap, Text, follow_height
from ui.widgets.components import header

VALUE_COLUMNS = 10
MARKS_SETTING = "games.castor.keypad_marks_played"


class CastorTricksScreen(Screen):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.colour: str | None = None  # the colour tapped for the card being entered
        self.last_said = ""  # what the last action told the table, kept across redraws
        self._built = False

    def _build(self) -> None:
        app = App.get_running_app()
        root = BoxLayout(orientation="vertical", padding=dp(theme.SPACE_XS),
                         spacing=dp(theme.SPACE_XS))
        # the shared header: the scoreboard is where Back goes from the tracker
        self.trumps_label = Text(size=theme.SIZE_SMALL, tid="tricks.trumps", halign="right",
                                 size_hint_x=0.6)
        top = header("", "tricks", back=lambda: setattr(app.root, "current", "castor_play"),
                     back_text=app.tr("castor.ui.scoreboard"), back_tid="tricks.board",
                     title_size=theme.SIZE_BODY, extra=[self.trumps_label])
        self.title = top.title_label  # type: ignore[attr-defined]
        tools = follow_height(BoxLayout(spacing=dp(6)), theme.touch(48))
        self.power_button = Tap(app.tr("castor.ui.power_button"), tid="tricks.power",
                                size=theme.SIZE_SMALL)
        self.power_button.bind(on_release=lambda _b: power_dialog(current_state()))
        self.complice_button = Tap(app.tr("castor.ui.complice_button"), tid="tricks.complice",
                                   size=theme.SIZE_SMALL)
        self.complice_button.bind(on_release=lambda _b: complice_dialog(current_state()))
        self.leader_button = Tap(app.tr("castor.ui.leader_button"), tid="tricks.leader",
                                 size=theme.SIZE_SMALL)
        self.leader_button.bind(on_release=lambda _b: self.choose_leader())
        self.piles_button = Tap(app.tr("castor.ui.piles_button"), tid="tricks.piles",
                                size=theme.SIZE_SMALL)
        self.piles_button.bind(on_release=lambda _b: piles_dialog(current_state()))
        for widget in (self.power_button, self.complice_button, self.leader_button,
                       self.piles_button):
            tools.add_widget(widget)
        self.chips = follow_height(BoxLayout(spacing=dp(4)), dp(54))
        self.status = Text(size=theme.SIZE_SMALL, bold=True, tid="tricks.status", size_hint_y=None,
                           height=dp(26))
        self.say_label = Text(size=theme.SIZE_SMALL, color=theme.MUTED, tid="tricks.say",
                              valign="top",
                              size_hint_y=None, height=dp(36))
        self.colours = follow_height(BoxLayout(spacing=dp(4)), theme.touch(48))
        self.values = GridLayout(cols=VALUE_COLUMNS, spacing=dp(4))
        bar = follow_height(BoxLayout(spacing=dp(6)), theme.touch(52))
        self.undo_button = Tap(app.tr("core.ui.undo"), tid="tricks.undo")
        self.undo_button.bind(on_release=lambda _b: app.undo())
        self.redo_button = Tap(app.tr("core.ui.redo"), tid="tricks.redo")
        self.redo_button.bind(on_release=lambda _b: app.redo())
        self.cancel_button = Tap(app.tr("castor.ui.stop_tracking"), tid="tricks.cancel",
                                 size=theme.SIZE_SMALL)
        self.cancel_button.bind(on_release=lambda _b: app.send(c.CancelTracking()))
        for widget in (self.undo_button, self.redo_button, self.cancel_button):
            bar.add_widget(widget)
        for widget in (top, tools, self.chips, self.status, self.say_label, self.colours,
                       self.values, bar):
            root.add_widget(widget)
        self.add_widget(root)
        self._built = True

    # -- drawing ----------------------------------------------------------------------
    def hardware_button(self, name: str) -> Tap | None:
        """The button a hardware button presses (`CompanionApp.press`): UNDO's."""
        return self.undo_button if name == "undo" else None

    def refresh(self, update: Update | None) -> None:
        """Redraw from the committed state; ask for the leader when a power says so."""
        if not self._built:
            self._build()
        app = App.get_running_app()
        state = current_state()
        view = trick_view(state)
        if view is None:  # the game is won: nothing to track
            return
        if update is not None and update.verb == "do" and isinstance(update.command,
                                                                     c.PlayCard):
            self.colour = None
        self.title.text = app.tr("castor.ui.tricks_title", round=view.round, trick=view.trick,
                                 tricks=view.tricks_per_round)
        chain = app.say(colour_chain(view.trumps)) if view.trumps else \
            app.tr("castor.ui.trumps_none")
        key = "castor.ui.trumps_this_trick" if view.trumps_overridden else "castor.ui.trumps"
        self.trumps_label.text = app.tr(key, colours=chain)
        self.trumps_label.color = theme.ACCENT if view.trumps_overridden else theme.MUTED
        before_cards = not view.cards
        agents = {p.agent for p in state.players if p.agent} - drawn_powers(state)
        self.power_button.disabled = not before_cards or not agents
        self.leader_button.disabled = not before_cards
        self.leader_button.text = app.tr("castor.ui.leader_button", player=view.leader)
        self.piles_button.disabled = state.tracking is None
        self._draw_chips(view)
        self.status.text = self._status(view)
        if update is not None:
            self.last_said = said(update)
        self.say_label.text = self.last_said or self._powers_text(view)
        if view.complete:
            self._draw_plans(state, view)
        else:
            self._draw_card_entry(state, view)
        session = app.session
        self.undo_button.disabled = session is None or not session.can_undo()
        self.redo_button.disabled = session is None or not session.can_redo()
        self.cancel_button.disabled = state.tracking is None
        if view.choosing and app.root.current == self.name and (
                app.dialog is None or app.dialog.tid != "leader"):
            leader_dialog(state, view.choosing)

    def _status(self, view: TrickView) -> str:
        app = App.get_running_app()
        if view.choosing:
            return app.tr("castor.ui.choosing", player=view.choosing)
        if view.complete:
            return app.tr("castor.ui.trick_complete", player=view.winning)
        parts = [app.tr("castor.ui.to_play", player=view.next_player)]
        if view.winning_card is not None:
            card = view.winning_card
            parts.append(app.tr("castor.ui.winning", player=view.winning,
                                card=card_text(card.colour, card.value)))
        return " · ".join(parts)

    def _powers_text(self, view: TrickView) -> str:
        app = App.get_running_app()
        return " ".join(app.tr("castor.say.power", player=p.player, power=app.tr(p.text))
                        for p in view.powers)

    def _draw_chips(self, view: TrickView) -> None:
        app = App.get_running_app()
        self.chips.clear_widgets()
        played = {card.player: card for card in view.cards}
        order = [card.player for card in view.cards] + list(view.to_play)
        for i, name in enumerate(order):
            card = played.get(name)
            if card is None:
                waiting = name == view.next_player
                text = f"{name}\n{app.tr('castor.ui.next' if waiting else 'castor.ui.waiting')}"
                chip = Tap(text, size=theme.SIZE_SMALL, tid=f"tricks.chip.{i}",
                           font_name=SYMBOL_FONT,
                           background=theme.SELECTED if waiting else theme.PANEL,
                           color=theme.INK if waiting else theme.MUTED)
            else:
                mark = f"{MEDAL} " if name == view.winning else ""
                text = f"{mark}{name}\n{card_text(card.colour, card.value)}"
                chip = Tap(text, size=theme.SIZE_SMALL, tid=f"tricks.chip.{i}",
                           font_name=SYMBOL_FONT,
                           background=theme.colour(card.colour), color=ink(card.colour))
            self.chips.add_widget(chip)

    def _draw_card_entry(self, state: CastorState, view: TrickView) -> None:
        app = App.get_running_app()
        self.colours.clear_widgets()
        self.values.clear_widgets()
        blocked = view.choosing is not None or view.next_player is None
        for colour in state.params.colour_names:
            chosen = colour == self.colour
            text = colour_name(colour).upper() if chosen else colour_name(colour)
            tap = Tap(("▶ " if chosen else "") + text, size=18, bold=chosen,
                      tid=f"tricks.colour.{colour}", font_name=SYMBOL_FONT,
                      background=theme.colour(colour), color=ink(colour), disabled=blocked)
            tap.bind(on_release=lambda _b, col=colour: self.pick_colour(col))
            self.colours.add_widget(tap)
        spec = state.params.colour(self.colour) if self.colour else None
        if spec is None or blocked:
            self.values.add_widget(Text(app.tr("castor.ui.pick_colour", player=view.next_player
                                               or "…"), size=theme.SIZE_SMALL, color=theme.MUTED,
                                        tid="tricks.hint"))
            return
        # a card already played is greyed only if the table asked for it; never refused
        marks = bool(app.settings.get(MARKS_SETTING, False))
        playable = set(playable_values(state, spec.name)) if marks else None
        for value in range(spec.low, spec.high + 1):
            tap = Tap(str(value), size=20, tid=f"tricks.value.{value}",
                      background=theme.PANEL if playable is not None and value not in playable
                      else theme.BUTTON,
                      color=theme.MUTED if playable is not None and value not in playable
                      else theme.TEXT)
            tap.bind(on_release=lambda _b, v=value: self.play(v))
            self.values.add_widget(tap)
        other = Tap(app.tr("castor.ui.other_value"), size=theme.SIZE_SMALL,
                    tid="tricks.value.other")
        other.bind(on_release=lambda _b: self.other_value(view.next_player or "", spec.name))
        self.values.add_widget(other)

    def _draw_plans(self, state: CastorState, view: TrickView) -> None:
        app = App.get_running_app()
        self.colours.clear_widgets()
        self.values.clear_widgets()
        self.colours.add_widget(Text(app.tr("castor.ui.plan_prompt", player=view.winning),
                                     size=theme.SIZE_SMALL, tid="tricks.plan_prompt"))
        # the plan pile is face up for everyone; the listed values are a guess: any
        # value is taken (an unexpected one gets a "check your cards" note)
        for value in sorted(state.params.plan_counts):
            tap = Tap(str(value), size=24, bold=True, tid=f"tricks.plan.{value}",
                      background=theme.SUCCESS)
            tap.bind(on_release=lambda _b, v=value: self.take(v))
            self.values.add_widget(tap)
        other = Tap(app.tr("castor.ui.other_value"), size=theme.SIZE_SMALL, tid="tricks.plan.other")
        other.bind(on_release=lambda _b: keypad_dialog(
            app.tr("castor.ui.plan_prompt", player=view.winning), 0, self.take))
        self.values.add_widget(other)

    # -- actions ----------------------------------------------------------------------
    def pick_colour(self, colour: str) -> None:
        self.colour = colour
        self.refresh(None)

    def play(self, value: int) -> None:
        view = trick_view(current_state())
        if view is None or view.next_player is None or self.colour is None:
            return
        App.get_running_app().send(c.PlayCard(view.next_player, self.colour, value))

    def other_value(self, player: str, colour: str) -> None:
        """A number the settings do not list: the keypad (the rules note it, or refuse
        a number no card prints)."""
        app = App.get_running_app()
        keypad_dialog(app.tr("castor.ui.other_value_title", player=player,
                             card=colour_card(colour)), 0, self.play)

    def take(self, plan: int) -> None:
        state = current_state()
        view = trick_view(state)
        if view is None or view.winning is None:
            return
        if view.extra_plan:
            extra_plan_dialog(state, view.winning, plan, sorted(state.params.plan_counts))
            return
        App.get_running_app().send(c.TakeTrick(plan))

    def choose_leader(self) -> None:
        state = current_state()
        view = trick_view(state)
        leader_dialog(state, view.choosing if view else None)
