"""The trick tracker: for each trick, the power cards drawn, a complice card (its note,
trump change and corrections), each player's card in play order (a colour, then its
value; "other" for a number the settings do not list), who is winning, and the plan
card the winner takes. At the round's last trick the rules fill in the score sheet and
the scoreboard shows it.

Pr. Evil's turn card is the model (one instruction rule for every game): the headline
is what the table must do now (who plays, who wins the trick) at the key-figure size;
under it, at `SIZE_ACT` (cap height 20 px), the line the table acts on (who is winning,
the trumps, the plan card to tap) and the trick's own rules (powers drawn, a complice's
trumps); then the cards on the table, each readable from a seat. Everything shown is
read from the committed state, so the screen after a power cut is the screen before.

Fewer taps: a follower's keypad opens on the colour led (a tap on another colour
changes it), so a card that follows the lead is one tap, any other two.

The rules hide the piles ("Tu peux consulter la pile des cartes que tu as gagnées, mais
pas celle des autres joueurs"): this screen shows the trick on the table and who took
the last one, never a player's tally; "Piles" shows one player's own pile to them.
Greying the cards already played is a setting (`games.castor.keypad_marks_played`, off
by default: the physical game leaves card counting to memory)."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.graphics import Color, SmoothRoundedRectangle
from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen

from companion.games.castor import commands as c
from companion.games.castor import events as e
from companion.games.castor import playable_values, trick_view
from companion.games.castor.instructions import colour_chain, instructions
from companion.games.castor.state import CastorState
from companion.games.castor.view import TrickView
from companion.session import Update
from ui import theme
from ui.dialogs import confirm_loss
from ui.names import display_name
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
from ui.widgets.basics import Tap, Text, follow_height
from ui.widgets.components import header
from ui.widgets.fit_name import fit_name
from ui.widgets.text_height import text_height

VALUE_COLUMNS = 10
MARKS_SETTING = "games.castor.keypad_marks_played"
#: the fixed rows of the tracker at 800x480 (they grow with the window): nothing
#: under the finger moves between two taps, whatever the lines say
HEADLINE_HEIGHT = 48
ACT_HEIGHT = 38
NOTE_HEIGHT = 42
CHIP_HEIGHT = 64
CHIP_NAME_HEIGHT = 24
RING = 3  # px: the ring round the seat to play  # the rest of the chip is the card's
#: the events whose news the screen shows otherwise (the headline, the last trick, the
#: powers line): the note says the others (a complice's change, a card to check)
SHOWN_ELSEWHERE = (e.TrickWon, e.RoundStarted, e.PowerDrawn, e.TrumpsSet, e.LeaderChosen)


class Chip(BoxLayout):
    """One seat in the trick: the player's name, then their card (or "to play")."""

    def __init__(self, index: int) -> None:
        super().__init__(orientation="vertical", padding=(dp(4), dp(1)))
        with self.canvas.before:
            # the seat to play: a ring of the selected colour round the panel (a yellow
            # card's chip is filled with a yellow of its own)
            self._ring = Color(*theme.PANEL)
            self._outer = SmoothRoundedRectangle(radius=[theme.RADIUS])
            self._fill = Color(*theme.PANEL)
            self._box = SmoothRoundedRectangle(radius=[theme.RADIUS])
        self.bind(pos=self._place, size=self._place)
        self.name = Text(size=theme.SIZE_BODY, tid=f"tricks.chip.{index}.name",
                         halign="center", font_name=SYMBOL_FONT, size_hint_y=None,
                         height=dp(CHIP_NAME_HEIGHT))
        self.card = Text(size=theme.SIZE_ACT, bold=True, tid=f"tricks.chip.{index}.card",
                         halign="center")
        self.card.acted_on = True  # a card on the table: read from every seat
        self.add_widget(self.name)
        self.add_widget(self.card)
        self._name = ("", "")  # the line and the player's whole name in it
        self.name.bind(width=lambda *_: self._fit_name())

    def _fit_name(self) -> None:
        """One line: a long name (24 characters, five seats) gives up its last letters."""
        text, name = self._name
        label = self.name
        label.text = fit_name(text, name, label.width - 2 * dp(2), label.font_size,
                              font_name=label.font_name)

    def _place(self, *_: Any) -> None:
        ring = dp(RING)
        self._outer.pos = self.pos
        self._outer.size = self.size
        self._box.pos = (self.x + ring, self.y + ring)
        self._box.size = (self.width - 2 * ring, self.height - 2 * ring)

    def show(self, line: str, name: str, card: str, fill: theme.Rgba, colour: theme.Rgba,
             ring: theme.Rgba | None = None) -> None:
        self._name = (line, name)
        self._fit_name()
        self.card.text = card
        self._fill.rgba = fill
        self._ring.rgba = ring or fill
        self.name.color = self.card.color = colour


class CastorTricksScreen(Screen):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.colour: str | None = None  # a colour tapped for the card being entered
        self.last_said = ""  # what the last action told the table, kept across redraws
        self._built = False
        self._fit_note = Clock.create_trigger(self._fit_note_size)

    def _build(self) -> None:
        app = App.get_running_app()
        root = BoxLayout(orientation="vertical", padding=dp(theme.SPACE_XS),
                         spacing=dp(theme.SPACE_XS))
        # the shared header: the scoreboard is where Back goes from the tracker; the
        # tools a trick may need sit on its right, out of the way of the keypad
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
        top = header("", "tricks", back=lambda: setattr(app.root, "current", "castor_play"),
                     back_text=app.tr("castor.ui.scoreboard"), back_tid="tricks.board",
                     title_size=theme.SIZE_BODY,
                     extra=[self.power_button, self.complice_button, self.leader_button,
                            self.piles_button])
        self.title = top.title_label  # type: ignore[attr-defined]
        self.title.size_hint_x = 1.5
        # the headline: what the table must do now, at the key-figure size
        self.status = Text(size=theme.SIZE_FIGURE, bold=True, tid="tricks.status",
                           size_hint_y=None, height=dp(HEADLINE_HEIGHT))
        self.status.key_figure = True
        self._status = ("", "")
        self.status.bind(width=lambda *_: self._fit_status())
        # the line the table acts on: who is winning, the trumps, the plan card to tap
        self.act = Text(size=theme.SIZE_ACT, tid="tricks.act", size_hint_y=None,
                        height=dp(ACT_HEIGHT))
        self.act.acted_on = True
        self._act = ("", "")
        self.act.bind(width=lambda *_: self._fit_act())
        # the trick's own rules (powers, a complice's trumps: acted on, at SIZE_ACT), or
        # the news of the last action (smaller when it needs two lines)
        self.say_label = Text(size=theme.SIZE_ACT, tid="tricks.say", size_hint_y=None,
                              height=dp(NOTE_HEIGHT))
        self.say_label.bind(width=lambda *_: self._fit_note())
        self.chips = follow_height(BoxLayout(spacing=dp(theme.SPACE_XS)), dp(CHIP_HEIGHT))
        self.chip_pool: list[Chip] = []  # one per seat, built once, told each trick
        self.colours = follow_height(BoxLayout(spacing=dp(theme.SPACE_XS)), theme.touch(48))
        self.values = GridLayout(cols=VALUE_COLUMNS, spacing=dp(theme.SPACE_XS))
        self._colour_taps: dict[str, Tap] = {}
        self._value_keys: list[Tap] = []
        self._plan_keys: list[Tap] = []
        self.hint = Text(size=theme.SIZE_BODY, color=theme.MUTED, tid="tricks.hint")
        self.other_card = Tap(app.tr("castor.ui.other_value"), size=theme.SIZE_SMALL,
                              tid="tricks.value.other")
        self.other_card.bind(on_release=lambda _b: self.other_value())
        self.other_plan = Tap(app.tr("castor.ui.other_value"), size=theme.SIZE_SMALL,
                              tid="tricks.plan.other")
        self.other_plan.bind(on_release=lambda _b: self.other_plan_value())
        bar = follow_height(BoxLayout(spacing=dp(6)), theme.touch(48))
        self.undo_button = Tap(app.tr("core.ui.undo"), tid="tricks.undo")
        self.undo_button.bind(on_release=lambda _b: self.act_on(app.undo))
        self.redo_button = Tap(app.tr("core.ui.redo"), tid="tricks.redo")
        self.redo_button.bind(on_release=lambda _b: self.act_on(app.redo))
        # dropping the round's tricks is destructive: it looks so, and asks first
        self.cancel_button = Tap(app.tr("castor.ui.stop_tracking"), tid="tricks.cancel",
                                 size=theme.SIZE_SMALL, background=theme.DANGER)
        self.cancel_button.bind(on_release=lambda _b: self.stop_tracking())
        for widget in (self.undo_button, self.redo_button, self.cancel_button):
            bar.add_widget(widget)
        for widget in (top, self.status, self.act, self.say_label, self.chips,
                       self.colours, self.values, bar):
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
        if update is not None:
            self.last_said = self._news(update)
        self.title.text = app.tr("castor.ui.tricks_title", round=view.round, trick=view.trick,
                                 tricks=view.tricks_per_round)
        before_cards = not view.cards
        agents = {p.agent for p in state.players if p.agent} - drawn_powers(state)
        self.power_button.disabled = not before_cards or not agents
        self.leader_button.disabled = not before_cards
        self.piles_button.disabled = state.tracking is None
        self._draw_chips(view)
        self._status = self._headline(view)
        self._fit_status()
        act, overridden = self._act_line(view)
        self._act = (act, display_name(view.winning) if view.winning else "")
        self._fit_act()
        self.act.color = theme.ACCENT if overridden else theme.TEXT
        rules = self._rules_line(view)
        self.say_label.acted_on = bool(rules)
        self.say_label.text = rules or self.last_said or self._last_trick(state)
        self.say_label.color = theme.TEXT if rules else theme.MUTED
        self._fit_note()
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

    def _headline(self, view: TrickView) -> tuple[str, str]:
        """The headline and the name in it (cut to fit if it must: `_fit_status`)."""
        app = App.get_running_app()
        if view.choosing:
            key, player = "castor.ui.choosing", view.choosing
        elif view.complete:
            key, player = "castor.ui.trick_complete", view.winning
        else:
            key, player = "castor.ui.to_play", view.next_player
        return app.tr(key, player=player), display_name(player) if player else ""

    def _fit_act(self) -> None:
        """The line under the headline on one line, a long winner's name cut to fit."""
        text, name = self._act
        label = self.act
        label.text = fit_name(text, name, label.width - 4, label.font_size)

    def _fit_status(self) -> None:
        """The headline on one line at the key-figure size: a long name (24 characters)
        gives up its last letters, never what the table must do."""
        text, name = self._status
        label = self.status
        label.text = fit_name(text, name, label.width - 4, label.font_size, bold=True)

    def _trumps(self, view: TrickView) -> str:
        app = App.get_running_app()
        chain = app.say(colour_chain(view.trumps)) if view.trumps else \
            app.tr("castor.ui.trumps_none")
        key = "castor.ui.trumps_this_trick" if view.trumps_overridden else "castor.ui.trumps"
        return app.tr(key, colours=chain)

    def _act_line(self, view: TrickView) -> tuple[str, bool]:
        """The line under the headline, and whether it is a complice's one-trick rule."""
        app = App.get_running_app()
        if view.complete:
            return app.tr("castor.ui.plan_prompt", player=view.winning), False
        if view.winning_card is not None:
            card = view.winning_card
            return app.tr("castor.ui.winning", player=view.winning,
                          card=card_text(card.colour, card.value)), False
        return self._trumps(view), view.trumps_overridden

    def _rules_line(self, view: TrickView) -> str:
        """This trick's own rules: the powers drawn, and a complice's trumps once the
        line above says who is winning."""
        app = App.get_running_app()
        parts = [app.tr("castor.ui.power_line", agent=p.agent_name, player=p.player,
                        effect=app.tr(f"castor.effect.{p.effect}")) for p in view.powers]
        if view.trumps_overridden and view.cards and not view.complete:
            parts.append(self._trumps(view))
        return " · ".join(parts)

    def _news(self, update: Update) -> str:
        """What the last action told the table that the screen does not show otherwise
        (an undo, a complice's change, a card to check)."""
        app = App.get_running_app()
        if update.verb == "undo":
            return app.tr("core.ui.undo_what",
                          what=app.tr(f"castor.ui.command.{type(update.command).__name__}"))
        events = [ev for ev in update.events if not isinstance(ev, SHOWN_ELSEWHERE)]
        return " ".join(app.say(m) for m in instructions(events))

    def _last_trick(self, state: CastorState) -> str:
        """Who took the last trick and its plan points (the table saw it: no tally)."""
        app = App.get_running_app()
        tracking = state.tracking
        if tracking is None or not tracking.done:
            return ""
        last = tracking.done[-1]
        if last.winner is None:
            return ""
        return app.tr("castor.ui.last_trick", trick=len(tracking.done),
                      player=state.players[last.winner].name,
                      n=(last.plan or 0) + (last.extra_plan or 0))

    def _fit_note_size(self, *_: Any) -> None:
        """The note at SIZE_ACT on one line; news too long for it, smaller on two (never
        under SIZE_SMALL). The trick's own rules are short: they stay at SIZE_ACT."""
        label = self.say_label
        scale = float(getattr(App.get_running_app(), "scale", 1.0))
        if label.width <= 1:
            return
        # measured at the width with no height limit: a label's texture is its box's
        # height, whatever its lines need (`ui.widgets.text_height`)
        base = dp(NOTE_HEIGHT) * scale
        for size in (theme.SIZE_ACT, theme.SIZE_BODY, theme.SIZE_SMALL):
            label.font_size = sp(size) * scale
            needed = text_height(label, label.width)
            if needed <= base + 1:
                label.height = base
                return
        # a long note ("check your cards") takes the lines it needs, from the keys below
        label.height = max(base, needed)

    def _draw_chips(self, view: TrickView) -> None:
        app = App.get_running_app()
        self.chips.clear_widgets()
        played = {card.player: card for card in view.cards}
        order = [card.player for card in view.cards] + list(view.to_play)
        while len(self.chip_pool) < len(order):
            self.chip_pool.append(Chip(len(self.chip_pool)))
        for i, name in enumerate(order):
            chip = self.chip_pool[i]
            card = played.get(name)
            if card is None:
                waiting = name == view.next_player
                shown = display_name(name)
                chip.show(shown, shown,
                          app.tr("castor.ui.next" if waiting else "castor.ui.waiting"),
                          theme.PANEL, theme.ACCENT if waiting else theme.MUTED,
                          ring=theme.ACCENT if waiting else None)
            else:
                mark = f"{MEDAL} " if name == view.winning else ""
                shown = display_name(name)
                chip.show(f"{mark}{shown}", shown, card_text(card.colour, card.value),
                          theme.colour(card.colour), ink(card.colour))
            self.chips.add_widget(chip)

    def entry_colour(self, view: TrickView) -> str | None:
        """The colour the keypad shows: the one tapped, else the colour led."""
        if self.colour is not None:
            return self.colour
        return view.cards[0].colour if view.cards else None

    # the keypads' buttons are built once and re-told at every action (a tap that built
    # two dozen widgets left cycles for the collector to walk during play)
    def _colour_tap(self, colour: str) -> Tap:
        tap = self._colour_taps.get(colour)
        if tap is None:
            tap = Tap(size=theme.SIZE_SMALL, tid=f"tricks.colour.{colour}",
                      font_name=SYMBOL_FONT, background=theme.colour(colour),
                      color=ink(colour))
            tap.bind(on_release=lambda _b, col=colour: self.pick_colour(col))
            self._colour_taps[colour] = tap
        return tap

    def _key(self, pool: list[Tap], index: int, size: float, pressed: Any) -> Tap:
        """The `index`th key of a keypad's pool; `pressed(key)` when it is tapped."""
        while len(pool) <= index:
            tap = Tap(size=size, bold=True)
            tap.bind(on_release=pressed)
            pool.append(tap)
        return pool[index]

    def _tell(self, tap: Tap, text: str, tid: str, fill: theme.Rgba,
              colour: theme.Rgba | None = None) -> Tap:
        tap.text = text
        tap.tid = tid
        tap.set_background(fill)
        tap.color = colour or theme.text_on(fill)
        return tap

    def _draw_card_entry(self, state: CastorState, view: TrickView) -> None:
        app = App.get_running_app()
        self.colours.clear_widgets()
        self.values.clear_widgets()
        follow_height(self.colours, theme.touch(48))
        self.colours.opacity = 1
        self.values.cols = VALUE_COLUMNS
        blocked = view.choosing is not None or view.next_player is None
        chosen_colour = None if blocked else self.entry_colour(view)
        for colour in state.params.colour_names:
            chosen = colour == chosen_colour
            tap = self._colour_tap(colour)
            text = colour_name(colour).upper() if chosen else colour_name(colour)
            tap.text = ("▶ " if chosen else "") + text
            tap.bold = chosen
            tap.disabled = blocked
            self.colours.add_widget(tap)
        spec = state.params.colour(chosen_colour) if chosen_colour else None
        if spec is None:
            self.hint.text = app.tr("castor.ui.pick_colour", player=view.next_player or "…")
            self.values.add_widget(self.hint)
            return
        # a card already played is greyed only if the table asked for it; never refused
        marks = bool(app.settings.get(MARKS_SETTING, False))
        playable = set(playable_values(state, spec.name)) if marks else None
        fill = theme.colour(spec.name)
        for index, value in enumerate(range(spec.low, spec.high + 1)):
            greyed = playable is not None and value not in playable
            key = self._key(self._value_keys, index, theme.SIZE_BUTTON,
                            lambda key: self.play(key.value))
            key.value = value
            self.values.add_widget(self._tell(
                key, str(value), f"tricks.value.{value}", theme.PANEL if greyed else fill,
                theme.MUTED if greyed else ink(spec.name)))
        self.values.add_widget(self.other_card)

    def _draw_plans(self, state: CastorState, view: TrickView) -> None:
        self.colours.clear_widgets()
        self.values.clear_widgets()
        # no colour to pick: the plan keys take the colours' row too (no empty band),
        # the bar under them stays where it is
        follow_height(self.colours, 0)
        self.colours.opacity = 0
        # the plan pile is face up for everyone; the listed values are a guess: any
        # value is taken (an unexpected one gets a "check your cards" note)
        values = sorted(state.params.plan_counts)
        self.values.cols = len(values) + 1
        for index, value in enumerate(values):
            key = self._key(self._plan_keys, index, theme.SIZE_FIGURE,
                            lambda key: self.take(key.value))
            key.value = value
            self.values.add_widget(self._tell(key, str(value), f"tricks.plan.{value}",
                                              theme.SUCCESS))
        self.values.add_widget(self.other_plan)

    # -- actions ----------------------------------------------------------------------
    def pick_colour(self, colour: str) -> None:
        self.colour = colour
        self.refresh(None)

    def stop_tracking(self) -> None:
        app = App.get_running_app()
        tracking = current_state().tracking
        if tracking is None:
            return
        confirm_loss(app.tr("castor.ui.stop_confirm_title", round=tracking.number),
                     app.tr("castor.ui.stop_confirm_text", round=tracking.number,
                            n=len(tracking.done)),
                     app.tr("castor.ui.stop_tracking"),
                     lambda: self.act_on(lambda: app.send(c.CancelTracking())),
                     tid="stop_confirm")

    def act_on(self, action: Any) -> None:
        """An action from the tracker: the next card's keypad opens on the colour led
        again (reset at the tap: an update may come after the next colour tapped)."""
        self.colour = None
        action()

    def play(self, value: int) -> None:
        view = trick_view(current_state())
        colour = None if view is None else self.entry_colour(view)
        if view is None or view.next_player is None or colour is None:
            return
        app = App.get_running_app()
        self.act_on(lambda: app.send(c.PlayCard(view.next_player, colour, value)))

    def other_value(self) -> None:
        """A number the settings do not list: the keypad (the rules note it, or refuse
        a number no card prints)."""
        app = App.get_running_app()
        view = trick_view(current_state())
        colour = None if view is None else self.entry_colour(view)
        if view is None or view.next_player is None or colour is None:
            return
        player = view.next_player

        def played(value: int) -> None:
            view = trick_view(current_state())
            if view is not None and view.next_player == player:
                self.act_on(lambda: app.send(c.PlayCard(player, colour, value)))

        keypad_dialog(app.tr("castor.ui.other_value_title", player=player,
                             card=colour_card(colour)), 0, played)

    def other_plan_value(self) -> None:
        app = App.get_running_app()
        view = trick_view(current_state())
        if view is not None and view.winning is not None:
            keypad_dialog(app.tr("castor.ui.plan_prompt", player=view.winning), 0, self.take)

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
