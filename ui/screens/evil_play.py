"""Pr. Evil's play screen: the dial, the dice, ROLL, what the table must do, whose turn
it is, recovered and lost, undo/redo, and the dialogs the rules call for."""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Any

from kivy.app import App
from kivy.clock import Clock
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from companion.games.evil import commands as c
from companion.games.evil import events as e
from companion.games.evil.dice import DICE, draw
from companion.games.evil.instructions import instructions
from companion.games.evil.state import EvilState
from companion.session import Session, Update
from ui import theme
from ui.screens.play_base import PlayScreen
from ui.widgets.basics import Tap, Text, follow_height
from ui.widgets.dial import Dial, DialView
from ui.widgets.dice import DieFace

if TYPE_CHECKING:
    from ui.widgets.pin_panel import PinPanel

ANIMATION_FPS = 12


def dialogs() -> ModuleType:
    """The dialogs open after the first frame: their widgets are imported then."""
    from ui.screens import evil_dialogs

    return evil_dialogs


class EvilPlayScreen(PlayScreen):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.placement_snoozed = False
        self._animation: Any = None
        self._prompt_event: Any = None

    # -- layout -----------------------------------------------------------------------
    def _build(self) -> None:
        app = App.get_running_app()
        root = BoxLayout(padding=dp(6), spacing=dp(8))

        left = BoxLayout(orientation="vertical", spacing=dp(6), size_hint_x=0.47)
        self.dial = Dial()
        left.add_widget(self.dial)
        self.treasure_row = follow_height(BoxLayout(spacing=dp(6)), theme.touch(56))
        left.add_widget(self.treasure_row)
        root.add_widget(left)

        right = BoxLayout(orientation="vertical", spacing=dp(6), size_hint_x=0.53)
        self.turn_label = Text(size=20, bold=True, tid="play.turn", size_hint_y=None,
                               height=dp(34))
        self.character_label = Text(size=15, color=theme.MUTED, tid="play.character",
                                    size_hint_y=None, height=dp(24))
        counts = follow_height(BoxLayout(), dp(30))
        self.recovered_label = Text(size=18, color=theme.SUCCESS, tid="play.recovered")
        self.lost_label = Text(size=18, color=theme.DANGER, tid="play.lost")
        counts.add_widget(self.recovered_label)
        counts.add_widget(self.lost_label)
        dice_row = follow_height(BoxLayout(spacing=dp(8)), dp(84))
        self.dice = {die: DieFace(die, white=(die != "clock")) for die in DICE}
        for die in DICE:
            dice_row.add_widget(self.dice[die])
        self.say_label = Text(size=16, tid="play.say", valign="top")
        self.roll_button = Tap(app.tr("evil.ui.roll"), size=30, bold=True, tid="play.roll",
                               background=theme.ACCENT, color=(0.1, 0.1, 0.1, 1),
                               size_hint_y=None, height=theme.touch(76))
        self.roll_button.bind(on_release=lambda _b: app.send(c.Roll()))
        bar = follow_height(BoxLayout(spacing=dp(6)), theme.touch(52))
        undo, redo, home = self.history_buttons()
        adjust = Tap(app.tr("evil.ui.adjust"), tid="play.adjust")
        adjust.bind(on_release=lambda _b: dialogs().adjust_dialog(self.state))
        for widget in (undo, redo, adjust, home):
            bar.add_widget(widget)
        self.bar = bar
        self.pins_button: Tap | None = None
        self.pin_panel: PinPanel | None = None
        self.offer_pins()
        for widget in (self.turn_label, self.character_label, counts, dice_row,
                       self.say_label, self.roll_button, bar):
            right.add_widget(widget)
        root.add_widget(right)
        self.add_widget(root)

    def offer_pins(self) -> None:
        """A Pins button when the hardware runs on mock pins (a desktop): the app sets
        up the hardware after the first frame, so this may come after the screen."""
        app = App.get_running_app()
        if self.pins_button is not None or app.hardware is None or not app.hardware.mocked:
            return
        self.pins_button = Tap(app.tr("core.ui.pins"), tid="play.pins")
        self.pins_button.bind(on_release=lambda _b: self.toggle_pins())
        self.bar.add_widget(self.pins_button)

    def toggle_pins(self) -> None:
        """Show or hide the simulated LEDs, buzzer and ring over the dial."""
        if self.pin_panel is not None:
            self.pin_panel.close()
            self.remove_widget(self.pin_panel)
            self.pin_panel = None
            return
        from ui.widgets.pin_panel import PinPanel

        app = App.get_running_app()
        panel = PinPanel(app.hardware, size_hint=(None, None))
        panel.pos_hint = {"x": 0.01, "top": 0.99}
        self.pin_panel = panel
        self.add_widget(panel)

    # -- session ----------------------------------------------------------------------
    @property
    def state(self) -> EvilState:
        return super().state  # type: ignore[no-any-return]

    def open_session(self, session: Session) -> None:
        super().open_session(session)
        self.placement_snoozed = False
        colours = session.state.params.colours
        self.treasure_row.clear_widgets()
        self.treasure_buttons = {}
        for colour in colours:
            button = Tap(tid=f"play.treasure.{colour}", size=17, background=theme.colour(colour))
            button.bind(on_release=lambda _b, col=colour:
                        dialogs().treasure_dialog(self.state, col))
            self.treasure_buttons[colour] = button
            self.treasure_row.add_widget(button)

    def after_update(self, update: Update | None) -> None:
        """Redraw from the committed state, then open what the rules ask for."""
        state = self.state
        if update is not None and any(isinstance(ev, (e.TreasureLost, e.TreasureRecovered))
                                      for ev in update.events):
            self.placement_snoozed = False
        self.refresh(state, update)
        if self.show_end_or_stay(state.outcome is not None):
            return
        # the new state is on screen now; the question it raises opens on the next frame
        if self._prompt_event is not None:
            self._prompt_event.cancel()
        self._prompt_event = Clock.schedule_once(self._prompt)

    def _prompt(self, _dt: float = 0) -> None:
        """Open what the rules ask for: the power choice, then a new treasure."""
        self._prompt_event = None
        app = App.get_running_app()
        if self.session is None or app.session is not self.session:
            return
        state = self.state
        if state.outcome is not None or app.root.current != self.name:
            return
        if state.pending_powers:
            self._power_dialog(state)
        elif state.empty_colours and not self.placement_snoozed:
            self._placement_dialog(state, state.empty_colours[0], self._last_sayings())

    # both dialogs are built once per shape (their buttons) and opened again after
    def _power_dialog(self, state: EvilState) -> None:
        free = tuple((p.name, p.character) for p in state.players
                     if p.character not in state.powers_up)
        self.open_reused(("power", free), lambda: dialogs().power_dialog(state))

    def _placement_dialog(self, state: EvilState, colour: str, sayings: str) -> None:
        p = state.params
        shape = ("place", colour, bool(sayings), state.left_out, p.min_minutes,
                 p.max_minutes, p.step_minutes)
        self.open_reused(shape, lambda: dialogs().placement_dialog(
            state, colour, sayings, on_later=self.snooze_placement),
            texts={"place.subtitle": sayings})

    def warm_dialogs(self) -> None:
        app = App.get_running_app()
        state = self.state
        if state.outcome is not None:
            return
        self._power_dialog(state)
        app.close_dialog()
        for colour in state.params.colours:
            self._placement_dialog(state, colour, " ")  # its text is set when it opens
            app.close_dialog()

    def snooze_placement(self) -> None:
        self.placement_snoozed = True

    def _last_sayings(self) -> str:
        """What the table must do since the last roll (the roll and what followed it)."""
        assert self.session is not None
        steps = self.session.steps
        since = len(steps) - 1
        while since > 0 and not any(isinstance(ev, e.DiceRolled) for ev in steps[since].events):
            since -= 1
        app = App.get_running_app()
        events = [ev for step in steps[max(since, 0):] for ev in step.events]
        return " ".join(app.say(m) for m in instructions(events, self.state.params))

    def refresh(self, state: EvilState, update: Update | None = None) -> None:
        app = App.get_running_app()
        p = state.params
        player = state.current_player
        self.turn_label.text = app.tr("evil.ui.turn", turn=state.turn, player=player.name)
        up = ", ".join(state.powers_up)
        self.character_label.text = player.character + (
            f"  ·  {app.tr('evil.ui.powers_up', names=up)}" if up else "")
        self.recovered_label.text = app.tr("evil.ui.recovered", n=len(state.recovered),
                                           total=p.recovered_to_win)
        self.lost_label.text = app.tr("evil.ui.lost", n=len(state.lost), total=p.lost_to_lose)
        markers = []
        for colour in p.colours:
            treasure = state.slot(colour)
            letter = app.tr(f"evil.letter.{colour}")
            button = self.treasure_buttons[colour]
            if treasure is None:
                button.text = f"{letter}  {app.tr('evil.ui.empty_slot')}"
            else:
                minutes = treasure.steps * p.step_minutes
                button.text = f"{letter}  {app.tr('evil.ui.minutes_left', minutes=minutes)}"
                markers.append((colour, letter, state.marker_position(colour) or 0,
                                treasure.steps))
        self.dial.show(DialView(p.dial_steps, state.time, p.power_spaces, tuple(markers)))
        self.refresh_history_buttons()
        self.roll_button.disabled = state.outcome is not None
        if update is not None and update.verb == "undo":
            self.say_label.text = app.tr("core.ui.undo_what",
                                         what=app.tr(f"evil.command.{type(update.command).__name__}"))
        else:
            text = self._last_sayings()
            self.say_label.text = text or app.tr("evil.ui.no_roll")
        rolled = update is not None and update.verb == "do" and any(
            isinstance(ev, e.DiceRolled) and ev.source == "app" for ev in update.events)
        self._show_dice(state, animate=rolled)

    # -- dice ---------------------------------------------------------------------------
    def _show_final_dice(self, state: EvilState) -> None:
        app = App.get_running_app()
        roll = state.last_roll
        for die in DICE:
            face = getattr(roll, die) if roll else None
            letter = app.tr(f"evil.letter.{face}") if die == "colour" and face else ""
            self.dice[die].show(face, letter)

    def _show_dice(self, state: EvilState, animate: bool) -> None:
        if self._animation is not None:
            self._animation.cancel()
            self._animation = None
        duration = float(App.get_running_app().settings.get("display.roll_animation", 0))
        if not animate or duration <= 0:
            self._show_final_dice(state)
            return
        # a short tumble of decorative faces; the result is already committed and shown
        frames = max(1, int(duration * ANIMATION_FPS))
        tick = {"n": 0}

        def tumble(_dt: float) -> bool:
            tick["n"] += 1
            if tick["n"] >= frames:
                self._animation = None
                self._show_final_dice(self.state)
                return False
            for i, die in enumerate(DICE):
                faces = state.params.die_faces(die)
                face = draw(tick["n"], i, faces)
                letter = App.get_running_app().tr(f"evil.letter.{face}") if die == "colour" \
                    else ""
                self.dice[die].show(face, letter)
            return True

        self._animation = Clock.schedule_interval(tumble, 1 / ANIMATION_FPS)

    @property
    def animating(self) -> bool:
        return self._animation is not None
