"""Pr. Evil's play screen: the dial, the dice, ROLL, the turn card (what the table must
do), whose turn it is, recovered and lost, undo/redo, and the dialogs the rules call for.

The dialogs open over the dial's half of the screen, never over the turn card: the card
says what the board must look like while the dialog asks its question."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import TYPE_CHECKING, Any

from kivy.app import App
from kivy.clock import Clock
from kivy.graphics import Color, SmoothRoundedRectangle
from kivy.metrics import dp
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout

from companion.dice import tumble_face
from companion.games.evil import commands as c
from companion.games.evil import events as e
from companion.games.evil.card import Card, next_roll_card, turn_card
from companion.games.evil.dice import DICE
from companion.games.evil.state import EvilState
from companion.session import Session, Update
from ui import theme
from ui.screens.evil.card import Para, TurnCard
from ui.screens.evil.layout import LEFT_SHARE
from ui.screens.play_base import PlayScreen
from ui.widgets.basics import Tap, _follow_scale, follow_height, follow_width
from ui.widgets.dial import Dial, DialView
from ui.widgets.dice import DieFace
from ui.widgets.kept_texture import KeptLabel

if TYPE_CHECKING:
    from ui.widgets.pin_panel import PinPanel

#: the tumble's faces a second: while a roll is being saved they are the only thing the
#: screen changes, so this is how often a frame is drawn then (at 12 a second the frames
#: came 83-100 ms apart, over issue 32's 100 ms once the machine was busy)
ANIMATION_FPS = 20
#: the tumble's clock, in seconds: a test holds it still, so a tumble lasts exactly as
#: long as the test needs whatever the machine's speed (the roll guard keeps real time)
tumble_clock: Callable[[], float] = time.monotonic
TREASURE_ROW = 64  # px at 800x480: the treasure buttons, their minutes a key figure
TREASURE_GAP = 3  # px between a treasure's letter, minutes and unit, when they fit
TREASURE_EDGE = 3  # px kept clear inside each edge of a treasure button


def dialogs() -> ModuleType:
    """The dialogs open after the first frame: their widgets are imported then."""
    from ui.screens.evil import dialogs as evil_dialogs

    return evil_dialogs


class EvilPlayScreen(PlayScreen):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.placement_snoozed = False
        self._verb = "do"  # how the state on screen came: do, undo or redo
        self._old_order_note = False
        self._animation: Any = None
        #: when the dice's tumble ends (None: at the roll's result, not known yet)
        self._tumble_until: float | None = None
        self._tumble_started = 0.0
        self._tumble_ticks = 0
        self._tumble_shown: dict[str, str] = {}  # each die's face in the tumble so far
        self._press_tumbles = False  # this touch on ROLL started the tumble
        self._prompt_event: Any = None
        # the dialogs a roll opens, built once (`warm_steps`) and re-told at each opening
        self._placement: Any = None
        self._power: Any = None
        self._treasure_pool: dict[str, TreasureButton] = {}  # by colour, across games
        #: the card the next ROLL will show, laid out off screen while the table plays
        #: (`_prepare_roll`); the roll swaps it in for the card shown
        self._next_card: TurnCard | None = None

    # -- layout -----------------------------------------------------------------------
    def _build(self) -> None:
        """At 800x480: the shared header (Home, whose turn, recovered and lost, the three
        dice) over the dial with the treasure buttons (the dialogs open over this side)
        and the turn card with Undo, Redo, Adjust and ROLL under it."""
        app = App.get_running_app()
        page = BoxLayout(orientation="vertical", padding=dp(theme.SPACE_S),
                         spacing=dp(theme.SPACE_S))
        self.recovered_label = Count(app.tr("evil.ui.recovered_caption"), theme.SUCCESS_TEXT,
                                     tid="play.recovered")
        self.lost_label = Count(app.tr("evil.ui.lost_caption"), theme.DANGER_TEXT,
                                tid="play.lost")
        self.dice = {die: DieFace(die, white=(die != "clock"), size_hint_x=None)
                     for die in DICE}
        for face in self.dice.values():
            follow_width(face, theme.HEADER)
            face.tid = f"play.die.{face.die}"
        top, self.turn_label = self.game_header(
            "play.turn", extra=[self.recovered_label, self.lost_label, *self.dice.values()],
            title_size=theme.SIZE_BUTTON)
        self.turn_label.bold = True
        self.header_bar = top  # the side dialogs dock under it
        page.add_widget(top)

        body = BoxLayout(spacing=dp(theme.SPACE_S))
        # the dial's side: the dialogs open over it (`LEFT_SHARE` of the width)
        left = BoxLayout(orientation="vertical", spacing=dp(theme.SPACE_S),
                         size_hint_x=LEFT_SHARE)
        self.dial = Dial()
        left.add_widget(self.dial)
        # the buttons closer than the rest (SPACE_XS): each holds two key figures and a unit
        self.treasure_row = follow_height(BoxLayout(spacing=dp(theme.SPACE_XS)),
                                          theme.touch(TREASURE_ROW))
        left.add_widget(self.treasure_row)
        body.add_widget(left)

        right = BoxLayout(orientation="vertical", spacing=dp(theme.SPACE_S),
                          size_hint_x=1 - LEFT_SHARE)
        self.card = TurnCard()
        right.add_widget(self.card)
        self.character_label = Para(size=theme.SIZE_SMALL, color=theme.MUTED,
                                    tid="play.character")
        right.add_widget(self.character_label)
        bar = follow_height(BoxLayout(spacing=dp(theme.SPACE_S)), theme.touch(theme.ROW))
        undo, redo, _home = self.history_buttons()
        adjust = self.adjust_button = Tap(app.tr("evil.ui.adjust"), tid="play.adjust")
        adjust.bind(on_release=lambda _b: dialogs().adjust_dialog(self.state))
        for button in (undo, redo, adjust):
            bar.add_widget(button)
        self.roll_button = Tap(app.tr("evil.ui.roll"), size=theme.SIZE_FIGURE, bold=True,
                               tid="play.roll", background=theme.ACCENT, size_hint_x=2.0)
        self.roll_button.rolls = True  # guarded against a double tap (`app.may_roll`)
        self.roll_button.bind(on_press=self._roll_pressed, on_release=self._roll_released)
        bar.add_widget(self.roll_button)
        self.bar = bar
        right.add_widget(bar)
        self.pins_button: Tap | None = None
        self.pin_panel: PinPanel | None = None
        self.offer_pins()
        body.add_widget(right)
        page.add_widget(body)
        self.add_widget(page)

    def hardware_button(self, name: str) -> Tap | None:
        return self.roll_button if name == "roll" else super().hardware_button(name)

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
        # over the dial, under the header: Home and the counts stay in view
        gap = dp(theme.SPACE_XS) * app.scale
        panel.pos_hint = {"x": 0.01, "top": (self.header_bar.y - gap) / max(1, self.height)}
        self.pin_panel = panel
        self.add_widget(panel)

    # -- session ----------------------------------------------------------------------
    @property
    def state(self) -> EvilState:
        return super().state  # type: ignore[no-any-return]

    def open_session(self, session: Session) -> None:
        super().open_session(session)
        app = App.get_running_app()
        self.placement_snoozed = False
        self._verb = "do"
        colours = session.state.params.colours
        self.treasure_row.clear_widgets()
        self.treasure_buttons = {}
        for colour in colours:
            # a colour's button is built once and kept for the next games: a game is
            # short work for the table, and a widget dropped is a web of cycles
            button = self._treasure_pool.get(colour)
            if button is None:
                button = TreasureButton(colour, tid=f"play.treasure.{colour}")
                button.bind(on_release=lambda _b, col=colour:
                            dialogs().treasure_dialog(self.state, col))
                self._treasure_pool[colour] = button
            button.letter.text = app.tr(f"evil.letter.{colour}")
            self.treasure_buttons[colour] = button
            self.treasure_row.add_widget(button)
        # a game started before the rulebook's roll order keeps the order it was played
        # with (its journal replays the same): say so once, when it is opened
        self._old_order_note = (session.state.rules_version < 2 and bool(session.steps)
                                and session.state.outcome is None)

    def after_update(self, update: Update | None) -> None:
        """Redraw from the committed state, then open what the rules ask for."""
        state = self.state
        if update is not None:
            self._verb = update.verb
            if any(isinstance(ev, (e.TreasureLost, e.TreasureRecovered)) for ev in update.events):
                self.placement_snoozed = False
        self.refresh(state, update)
        if self._prompt_event is not None:
            self._prompt_event.cancel()
            self._prompt_event = None
        finished = state.outcome is not None
        if finished and update is None:  # a finished game opened: its end at once
            self.show_end_or_stay(True)
            return
        if not finished:
            self.show_end_or_stay(False)
        # what the action opens (the end screen, a power, a new treasure) comes in the
        # next frame: the roll's result (its dice, the clock) is on screen first, without
        # waiting for the dialog's drawing. The clock runs it before the loop reads the
        # next touches, so no touch comes between; ROLL is disabled meanwhile.
        self._prompt_event = Clock.schedule_once(self._prompt)

    def _prompt(self, _dt: float = 0) -> None:
        """Open what the rules ask for: the end screen of a finished game; else a
        replacement the roll waits for, the power choice, then a new treasure."""
        self._prompt_event = None
        app = App.get_running_app()
        if self.session is None or app.session is not self.session:
            return
        state = self.state
        if state.outcome is not None:
            self.show_end_or_stay(True)
            return
        if app.root.current != self.name or app.dialog is not None:
            return
        if self._old_order_note:
            self._old_order_note = False
            from ui.dialogs import message

            note = message(app.tr("evil.ui.old_order_title"), app.tr("evil.ui.old_order"),
                           tid="old_order")
            note.bind(on_dismiss=lambda *_: self.after_update(None))  # then what is due
            return
        if state.waiting_for_replacement and state.empty_colours:
            dialogs().placement_dialog(state, state.empty_colours[0])
        elif state.pending_powers:
            dialogs().power_dialog(state)
        elif state.empty_colours and not self.placement_snoozed:
            dialogs().placement_dialog(state, state.empty_colours[0],
                                       on_later=self.snooze_placement)
        else:
            self._prepare_roll()

    def _prepare_roll(self) -> None:
        """Lay out, off screen, the card the next ROLL will show (a roll's dice follow
        from the state): the roll then swaps it in, its texts measured and drawn. Done
        in the frame after the one that showed the last action, while the table plays."""
        spare = self._next_card
        if spare is None or self.session is None or self.roll_button.disabled:
            return
        if tuple(spare.size) != tuple(self.card.size) or tuple(spare.pos) != tuple(self.card.pos):
            # laid out at the card's size and place in this frame, told in the next: a
            # text is then rendered once, at its width and the size the card fits at
            spare.size, spare.pos = self.card.size, self.card.pos
            Clock.schedule_once(lambda _dt: self._prepare_roll())
            return
        card = next_roll_card(self.session.rules, self.state)
        if card is not None:
            spare.show(card, self.state.params.colours)

    def _show_card(self, card: Card, colours: tuple[str, ...]) -> None:
        spare = self._next_card
        if spare is None or not spare.shows(card, colours, like=self.card):
            self.card.show(card, colours)
            return
        shown = self.card
        parent = shown.parent
        index = parent.children.index(shown)
        due = parent._trigger_layout.is_triggered  # by another change: it still runs
        parent.remove_widget(shown)
        parent.add_widget(spare, index=index)
        # the swap sets off layouts that would change nothing: the card shown is laid
        # out at this size and place already, the one taken out is laid out again when
        # prepared, and its column's children keep their sizes and places
        spare._trigger_layout.cancel()
        shown._trigger_layout.cancel()
        if not due:
            parent._trigger_layout.cancel()
        self.card, self._next_card = spare, shown

    def warm_steps(self) -> Iterator[None]:
        """Then the turn card's rows and the power and placement dialogs, sized for this
        game (its minutes keys, its seats): the roll that opens one builds nothing."""
        yield from super().warm_steps()
        if self._next_card is None:
            self._next_card = TurnCard(pool=self.card.pool)  # the two share their rows
            yield
        more = True
        while more:
            more = self.card.warm(rows=4)
            yield
        self._prepare_roll()
        yield
        self.placement().prepare(self.state)
        yield
        self.power().prepare(self.state)
        yield

    def placement(self) -> Any:
        if self._placement is None:
            self._placement = dialogs().PlacementDialog()
        return self._placement

    def power(self) -> Any:
        if self._power is None:
            self._power = dialogs().PowerDialog()
        return self._power

    def asking(self, open_: bool) -> None:
        """A question is open beside the card: the buttons it takes touches from
        (Undo, Redo, Adjust) look disabled meanwhile; the question has its own Undo."""
        if open_:
            self.undo_button.disabled = self.redo_button.disabled = True
            self.adjust_button.disabled = True
        elif self.session is not None:
            self.refresh_history_buttons()
            self.adjust_button.disabled = False

    def snooze_placement(self) -> None:
        self.placement_snoozed = True

    def refresh(self, state: EvilState, update: Update | None = None) -> None:
        app = App.get_running_app()
        p = state.params
        player = state.current_player
        self.turn_label.text = app.tr("evil.ui.turn", turn=state.turn, player=player.name)
        up = ", ".join(state.powers_up)
        # said only while a tile is face up: the turn card keeps the room otherwise
        self.character_label.text = app.tr("evil.ui.powers_up", names=up) if up else ""
        if not up:
            self.character_label.height = 0
        self.recovered_label.show(app.tr("evil.ui.count", n=len(state.recovered),
                                         total=p.recovered_to_win))
        self.lost_label.show(app.tr("evil.ui.count", n=len(state.lost), total=p.lost_to_lose))
        markers = []
        for colour in p.colours:
            treasure = state.slot(colour)
            letter = app.tr(f"evil.letter.{colour}")
            button = self.treasure_buttons[colour]
            if treasure is None:
                button.show("", app.tr("evil.ui.empty_slot"))
            else:
                minutes = treasure.steps * p.step_minutes
                button.show(str(minutes), app.tr("evil.ui.minutes_unit"))
                markers.append((colour, letter, state.marker_position(colour) or 0,
                                treasure.steps))
        self.dial.show(DialView(p.dial_steps, state.time, p.power_spaces, tuple(markers)))
        self.refresh_history_buttons()
        # by the rules a slot is never empty when the dice are rolled (rules version 2)
        unsettled = state.rules_version >= 2 and bool(
            state.empty_colours or state.pending_powers or state.waiting_for_replacement)
        self.roll_button.disabled = state.outcome is not None or unsettled
        assert self.session is not None
        self._show_card(turn_card(state, self.session.steps, self._verb), p.colours)
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

    def _roll_pressed(self, _button: Any) -> None:
        """The dice tumble from touch-down (faces that reveal nothing): the table sees at
        once that the roll is under way while it is made durable; its result is shown
        only once it is."""
        self._press_tumbles = App.get_running_app().may_roll()
        if not self._press_tumbles:
            return
        if self._animation is not None and self._tumble_until is not None:
            # the last roll's tumble is still ending: it goes on until this roll's
            # result (ending on its own time, it left the screen still while a slow
            # card synced this one: 107-118 ms without a frame)
            self._tumble_until = None
            self._tumble_started = tumble_clock()
        elif self._animation is None:
            self._tumble(None)

    def _roll_released(self, _button: Any) -> None:
        sent = App.get_running_app().send(c.Roll())
        if not sent and self._press_tumbles and self._tumble_until is None \
                and self._animation is not None:
            self._end_tumble()  # no roll came of it: the rules refused it
        self._press_tumbles = False

    def _show_dice(self, state: EvilState, animate: bool) -> None:
        duration = float(App.get_running_app().settings.get("display.roll_animation", 0))
        if animate and duration > 0 and self._animation is not None \
                and self._tumble_until is None:
            # tumbling since the touch: the rest of its time, then the result
            self._tumble_until = self._tumble_started + duration
            return
        if self._animation is not None:
            self._animation.cancel()
            self._animation = None
        if not animate or duration <= 0:
            self._show_final_dice(state)
            return
        # a short tumble of decorative faces; the result is already committed and shown
        self._tumble(tumble_clock() + duration)

    def _tumble(self, until: float | None) -> None:
        """Decorative faces until `until` (None: until the roll's result is shown)."""
        self._tumble_until = until
        self._tumble_started = tumble_clock()
        self._tumble_ticks = 0
        self._tumble_shown = {}
        self._tumble_step(0)
        self._animation = Clock.schedule_interval(self._tumble_step, 1 / ANIMATION_FPS)

    def _tumble_step(self, _dt: float) -> bool:
        until = self._tumble_until
        if until is None:
            app = App.get_running_app()
            if not app.busy and self.roll_button.state == "normal":
                # the press made no roll (the finger slid off, the rules or the disk
                # refused it): the dice as they were
                self._end_tumble()
                return False
        elif tumble_clock() >= until:
            self._end_tumble()
            return False
        self._tumble_ticks += 1
        app = App.get_running_app()
        params = self.state.params
        for i, die in enumerate(DICE):
            face = tumble_face(self._tumble_ticks, i, params.die_faces(die),
                               self._tumble_shown.get(die))
            self._tumble_shown[die] = face
            self.dice[die].show(face, app.tr(f"evil.letter.{face}") if die == "colour"
                                else "")
        return True

    def _end_tumble(self) -> None:
        if self._animation is not None:
            self._animation.cancel()
            self._animation = None
        self._tumble_until = None
        self._show_final_dice(self.state)

    @property
    def animating(self) -> bool:
        return self._animation is not None


def fit_text(text: str, size: float, ink: theme.Rgba, tid: str, bold: bool = True) -> KeptLabel:
    """A one-line label as wide as its text (a `Text` wraps in a width it is given):
    its font follows the app's scale, its width its texture."""
    label = KeptLabel(text=text, bold=bold, color=ink, size_hint_x=None, halign="center",
                      valign="middle")
    label.tid = tid
    _follow_scale(label, size)
    return label


class Count(BoxLayout):
    """Recovered or lost in the header: a caption, then the count as a key figure
    ("Recovered 1/4"). As wide as its texts."""

    def __init__(self, caption: str, ink: theme.Rgba, tid: str) -> None:
        super().__init__(spacing=dp(theme.SPACE_XS), size_hint_x=None)
        self.tid = tid
        self.caption = fit_text(caption, theme.SIZE_SMALL, ink, f"{tid}.caption")
        self.figure = fit_text("", theme.SIZE_FIGURE, ink, f"{tid}.figure")
        for label in (self.caption, self.figure):
            label.bind(texture_size=self._fit)
            self.add_widget(label)

    def _fit(self, *_: Any) -> None:
        for label in (self.caption, self.figure):
            label.width = label.texture_size[0] + 2
        self.width = self.caption.width + self.figure.width + self.spacing

    def show(self, figure: str) -> None:
        self.figure.text = figure

    @property
    def text(self) -> str:
        return f"{self.caption.text} {self.figure.text}"


class TreasureButton(ButtonBehavior, BoxLayout):
    """A treasure in play, on its colour: its letter and the minutes left as key figures,
    the unit as secondary text ("R 30 min"); "R empty" when the slot waits for a tile.
    Opens its dialog."""

    def __init__(self, colour: str, tid: str) -> None:
        super().__init__()
        self.tid = tid
        self.fill = theme.colour(colour)
        ink = theme.text_on(self.fill)
        with self.canvas.before:
            self._paint = Color(*self.fill)
            self._rect = SmoothRoundedRectangle(radius=[dp(theme.RADIUS)])
        self.bind(pos=self._redraw, size=self._redraw, state=self._redraw)
        self.letter = fit_text("", theme.SIZE_FIGURE, ink, f"{tid}.letter")
        self.minutes = fit_text("", theme.SIZE_FIGURE, ink, f"{tid}.minutes")
        self.unit = fit_text("", theme.SIZE_SMALL, ink, f"{tid}.unit", bold=False)
        for label in (self.letter, self.minutes, self.unit):
            label.bind(texture_size=self._fit)
            self.add_widget(label)
        self.bind(width=self._fit)

    def _fit(self, *_: Any) -> None:
        """Centred, and always inside the button: the gaps go first, then the unit (the
        letter and the minutes are key figures, kept at their size)."""
        labels = (self.letter, self.minutes, self.unit)
        widths = [label.texture_size[0] + 1 if label.text else 0 for label in labels]
        room = self.width - 2 * dp(TREASURE_EDGE)
        gap = dp(TREASURE_GAP)
        if sum(widths) + 2 * gap > room:
            gap = 0.0  # the glyphs' own side bearings keep the letter and figure apart
        if sum(widths) > room and widths[2]:
            widths[2] = 0  # a narrow button (many colours, a small window): "R45"
        # set once: a hidden unit set visible and hidden again would redraw each time
        self.unit.opacity = 1.0 if widths[2] or not self.unit.text else 0.0
        for label, width in zip(labels, widths, strict=True):
            label.width = width
        side = max(0.0, (self.width - sum(widths) - 2 * gap) / 2)
        self.spacing = gap
        self.padding = (side, 0, side, 0)

    def _redraw(self, *_: Any) -> None:
        self._rect.pos, self._rect.size = self.pos, self.size
        self._paint.rgba = theme.pressed(self.fill) if self.state == "down" else self.fill

    def show(self, minutes: str, unit: str) -> None:
        self.minutes.text, self.unit.text = minutes, unit
        self._fit()

    @property
    def text(self) -> str:
        """What the button shows ("R 45 min"; "G 45" where the unit did not fit)."""
        shown = (self.letter, self.minutes, self.unit) if self.unit.opacity else (
            self.letter, self.minutes)
        return " ".join(label.text for label in shown if label.text)
