"""Pr. Evil's dialogs: placing a treasure (minutes keypad), the power activation, a
treasure's actions, and the manual adjustments (every one a logged command)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from companion.games.evil import commands as c
from companion.games.evil.dice import DICE
from companion.games.evil.instructions import roman
from companion.games.evil.state import EvilState
from ui import theme
from ui.dialogs import Dialog, open_dialog
from ui.names import display_name
from ui.screens.evil.card import Para
from ui.screens.evil.layout import LEFT_SHARE
from ui.widgets.basics import Tap, Text, _follow_scale, find, follow_height, follow_width
from ui.widgets.text_height import text_height

DIE_LABEL = 156  # px at 800x480: "dé du professeur" on two lines at most
#: px at 800x480: the placement's minutes keys (two lines each)
MINUTE_KEY = 56


def _act(dialog: Dialog, command: object) -> None:
    """Send a command; the dialog closes only if the rules accepted it."""
    app = App.get_running_app()
    dialog.dismiss()
    app.send(command)


def _close(dialog: Dialog, state: EvilState) -> None:
    """Close a side trip (adjust, physical dice); a roll that still waits asks again."""
    dialog.dismiss()
    if state.waiting_for_replacement:
        App.get_running_app().root.get_screen("evil_play").after_update(None)


def _undo(dialog: Dialog) -> None:
    dialog.dismiss()
    App.get_running_app().undo()


class SideDialog(Dialog):
    """A dialog over the dial's side of the play screen, leaving the turn card in view
    and undimmed: the card says what the board must look like while this one asks."""

    def __init__(self, title: str, tid: str, why: str) -> None:
        super().__init__(title, tid, size_hint=(None, None), overlay_color=(0, 0, 0, 0))
        self.share = LEFT_SHARE
        heading = find(self, f"{tid}.title")
        if heading is not None:  # room for a two-line title, at any window size
            follow_height(heading, dp(56))
        self.why = self.add(Para(why, size=theme.SIZE_SMALL, tid=f"{tid}.why",
                                 color=theme.MUTED))
        _follow_scale(self.why, theme.SIZE_SMALL)

    def on_open(self) -> None:
        self._align_center()  # ModalView centres itself on opening: dock it now
        self._fit()
        _play_screen().asking(True)

    def _fit(self) -> None:
        """Docked under the header, the dialog may be shorter than what it asks (a full
        table's characters, a difficulty's note): the explanation gives way first (the
        title asks the same question, the turn card beside says why)."""
        box = self.box
        rows = [child for child in box.children if child.size_hint_y is None]
        width = self.width - box.padding[0] - box.padding[2]
        # the explanation as it will wrap (its texture may not be drawn yet)
        heights = [text_height(child, width) if child is self.why else child.height
                   for child in rows]
        needed = (sum(heights) + box.spacing * (len(box.children) - 1)
                  + box.padding[1] + box.padding[3])
        if needed > self.height + 0.5 and self.why.text:
            self.why.text = ""
            self.why.height = 0

    def on_dismiss(self) -> None:
        super().on_dismiss()
        _play_screen().asking(False)

    def _align_center(self, *_args: Any) -> None:
        """Over the dial's side, the whole height, and no further right than the
        header's counts: recovered and lost (and the dice) stay whole in view."""
        window = self._window
        if self._is_open and window is not None:
            counts = _play_screen().recovered_label
            gap = dp(theme.SPACE_S) * float(getattr(App.get_running_app(), "scale", 1.0))
            self.x = window.width * 0.005
            self.width = min(window.width * self.share, counts.to_window(*counts.pos)[0]
                             - gap - self.x)
            self.height = window.height * 0.98
            self.center_y = window.height / 2


class PlacementDialog(SideDialog):
    """The minutes keypad for a new treasure, built once per play screen and re-told at
    each opening (`show`): a roll that asks for a treasure builds no widget. It keeps a
    key per minutes value the game's parameters allow (`prepare`, when a game opens)
    and shows those in play, each with where it lands from the time marker now."""

    def __init__(self) -> None:
        super().__init__("", "place", "")
        app = App.get_running_app()
        self.heading = find(self, "place.title")
        self.state: EvilState | None = None
        self.colour = ""
        self.on_later: Callable[[], None] | None = None
        self.keys = self.add(GridLayout(cols=4, spacing=dp(8), size_hint_y=None))
        self.minute_keys: dict[int, Tap] = {}
        self.add(BoxLayout())
        self.bottom = self.add(GridLayout(cols=1, spacing=dp(8), size_hint_y=None))
        follow_height(self.bottom, theme.touch(56))
        self.undo_key = _key("", "place.undo", self._undo)
        self.dice_key = _key(app.tr("evil.ui.fix_dice"), "place.dice", self._fix_dice)
        self.later_key = _key(app.tr("core.ui.close"), "place.later", self._later)

    def prepare(self, state: EvilState) -> None:
        """A key for every minutes value of this game (built when the game opens)."""
        p = state.params
        for m in range(p.min_minutes, p.max_minutes + 1, p.step_minutes):
            if m not in self.minute_keys:
                self.minute_keys[m] = _key("", f"place.{m}",
                                           lambda m=m: self._place(m), height=MINUTE_KEY)

    def show(self, state: EvilState, colour: str,
             on_later: Callable[[], None] | None) -> Dialog:
        app = App.get_running_app()
        p = state.params
        self.prepare(state)
        self.state, self.colour, self.on_later = state, colour, on_later
        name = app.tr(f"evil.colour_upper.{colour}")
        here = roman(state.time, p.dial_steps)
        if state.waiting_for_replacement:
            title = app.tr("evil.ui.place_title_waiting", colour=name)
            why = app.tr("evil.ui.place_why_waiting", position=here,
                         clock=app.tr(f"evil.face.{state.pending_clock}"))
        else:
            title = app.tr("evil.ui.place_title", colour=name)
            why = app.tr("evil.ui.place_why", position=here)
        left_out = [m for m in state.left_out if p.minutes_ok(m)]
        if left_out:  # a tile not in play at this difficulty: say so rather than hide it
            why += "\n" + app.tr("evil.ui.left_out_note",
                                  minutes=", ".join(map(str, left_out)))
        if self.heading is not None:
            self.heading.text = title
        self.why.text = why
        minutes = [m for m in range(p.min_minutes, p.max_minutes + 1, p.step_minutes)
                   if m not in state.left_out]
        keys = []
        for m in minutes:
            lands = roman(state.time + m // p.step_minutes, p.dial_steps)
            key = self.minute_keys[m]
            key.text = f"{m}\n{app.tr('evil.ui.place_to', position=lands)}"
            keys.append(key)
        _fill(self.keys, keys, cols=4, height=MINUTE_KEY)
        if state.waiting_for_replacement:
            # a power or card may re-roll a die of this roll, or the table corrects one:
            # the roll is resolved again from before it (and waits again if it still
            # loses one)
            self.undo_key.text = app.tr("evil.ui.undo_roll")
            bottom = [self.undo_key, self.dice_key]
        else:
            self.undo_key.text = app.tr("evil.ui.undo_last")
            bottom = [self.undo_key] if on_later is None else [self.undo_key, self.later_key]
        _fill(self.bottom, bottom, cols=len(bottom), height=56)
        return open_dialog(self)

    def _place(self, minutes: int) -> None:
        _act(self, c.PlaceTreasure(self.colour, minutes))

    def _undo(self) -> None:
        _undo(self)

    def _fix_dice(self) -> None:
        assert self.state is not None
        adjust_dialog(self.state)

    def _later(self) -> None:
        self.dismiss()
        if self.on_later is not None:
            self.on_later()


def placement_dialog(state: EvilState, colour: str,
                     on_later: Callable[[], None] | None = None) -> Dialog:
    """The minutes keypad for a new treasure. While a roll waits for it, the keypad is the
    only way on and undoing the roll the only way back: nothing closes it into a state
    where the table could roll."""
    return _play_screen().placement().show(state, colour, on_later)


class PowerDialog(SideDialog):
    """Who turns their power tile face up, built once per play screen and re-told at
    each opening: a button per seat whose tile is still down (a pool as large as the
    game's most players), the one to turn up first selected."""

    def __init__(self) -> None:
        app = App.get_running_app()
        super().__init__(app.tr("evil.ui.power_title"), "power", app.tr("evil.ui.power_why"))
        self.characters = GridLayout(cols=1, spacing=dp(8), size_hint_y=None)
        self.toggles: list[Tap] = []
        self.filler = self.add(BoxLayout())
        row = self.add(GridLayout(cols=2, spacing=dp(8), size_hint_y=None))
        follow_height(row, theme.touch(72))
        self.choose = _key("", "power.choose", self._confirm, height=72)
        self.skip = _key(app.tr("evil.ui.skip"), "power.skip",
                         lambda: _act(self, c.SkipPower()), height=72)
        row.add_widget(self.choose)
        row.add_widget(self.skip)
        # the way back from the question itself: the roll (or placement) that asked it
        self.undo_key = self.add(_key("", "power.undo", lambda: _undo(self)))
        self.chosen: str | None = None
        self.default = self._confirm

    def prepare(self, state: EvilState) -> None:
        """A button per seat the game can have (built when the game opens)."""
        while len(self.toggles) < max(state.params.players_max, len(state.players)):
            toggle = Tap("", size_hint_y=None, height=theme.touch(70))
            toggle.character = ""
            toggle.bind(on_release=lambda b: self._select(b.character))
            self.toggles.append(toggle)

    def show(self, state: EvilState) -> Dialog:
        app = App.get_running_app()
        self.prepare(state)
        seats = len(state.players)
        free = [state.players[(state.active + i) % seats] for i in range(seats)]
        free = [pl for pl in free if pl.character not in state.powers_up]
        toggles = self.toggles[:len(free)]
        for toggle, pl in zip(toggles, free, strict=True):
            toggle.text = f"{display_name(pl.name)}\n{pl.character}"
            toggle.tid = f"power.{pl.character}"
            toggle.character = pl.character
        _fill(self.characters, toggles, cols=min(2, len(free)) or 1, height=70)
        self.why.text = App.get_running_app().tr("evil.ui.power_why")
        if free and self.characters.parent is None:  # above the filler
            self.box.add_widget(self.characters, index=self.box.children.index(self.filler) + 1)
        elif not free and self.characters.parent is not None:
            self.box.remove_widget(self.characters)
        self.chosen = None
        rolled = bool(state.last_roll) and state.before_roll is not None
        self.undo_key.text = app.tr("evil.ui.undo_roll" if rolled else "evil.ui.undo_last")
        self.choose.text = app.tr("evil.ui.choose", character="")
        self.choose.disabled = not free  # every tile is up already: skipping is all there is
        if free:
            self._select(free[0].character)
        return open_dialog(self)

    def _select(self, character: str) -> None:
        self.chosen = character
        for toggle in self.characters.children:
            toggle.set_background(theme.ACCENT if toggle.character == character
                                  else theme.BUTTON)
        self.choose.text = App.get_running_app().tr("evil.ui.choose", character=character)

    def _confirm(self) -> None:
        if self.chosen is not None:
            _act(self, c.ActivatePower(self.chosen))


def power_dialog(state: EvilState) -> Dialog:
    """Who turns their power tile face up. A character is selected from the start, so the
    OK button (and Enter) chooses; letting the activation go is its own button."""
    return _play_screen().power().show(state)


def _play_screen() -> Any:
    return App.get_running_app().root.get_screen("evil_play")


def _key(text: str, tid: str, action: Callable[[], Any], height: float = 56) -> Tap:
    """A button of a reused dialog (as `Dialog.buttons` makes them), its action bound once."""
    tap = Tap(text, tid=tid, size_hint_y=None, height=theme.touch(height))
    tap.bind(on_release=lambda _b: action())
    return tap


def _fill(grid: GridLayout, keys: list[Tap], cols: int, height: float) -> None:
    """Put these (pooled) buttons in the grid, which takes their rows' height."""
    if list(reversed(grid.children)) != keys:
        grid.clear_widgets()
        for key in keys:
            grid.add_widget(key)
    grid.cols = max(1, cols)
    rows = -(-len(keys) // grid.cols)
    # the buttons grow with the window (follow_height): so does their grid
    follow_height(grid, rows * theme.touch(height) + max(0, rows - 1) * dp(8))


def treasure_dialog(state: EvilState, colour: str) -> Dialog:
    app = App.get_running_app()
    if state.slot(colour) is None:
        screen = app.root.get_screen("evil_play")
        return placement_dialog(state, colour, on_later=None if state.waiting_for_replacement
                                else screen.snooze_placement)
    name = app.tr(f"evil.colour_upper.{colour}")
    dialog = Dialog(name, tid="treasure", size_hint=(0.8, 0.7))
    dialog.buttons([(app.tr("evil.ui.recovered_button"), "treasure.recovered",
                     lambda: _act(dialog, c.Recover(colour)))], height=64)
    dialog.buttons([
        (app.tr("evil.ui.treasure_back", colour=name), "treasure.back",
         lambda: _act(dialog, c.MoveTreasure(colour, -1))),
        (app.tr("evil.ui.treasure_forward", colour=name), "treasure.forward",
         lambda: _act(dialog, c.MoveTreasure(colour, 1))),
        (app.tr("evil.ui.mark_lost", colour=name), "treasure.lost",
         lambda: _act(dialog, c.MarkLost(colour))),
    ])
    dialog.buttons([(app.tr("core.ui.close"), "treasure.close", dialog.dismiss)])
    return open_dialog(dialog)


def adjust_dialog(state: EvilState) -> Dialog:
    app = App.get_running_app()
    dialog = Dialog(app.tr("evil.ui.adjust_title"), tid="adjust")
    dialog.buttons([
        (app.tr("evil.ui.time_back"), "adjust.time_back", lambda: _act(dialog, c.MoveTime(-1))),
        (app.tr("evil.ui.time_forward"), "adjust.time_forward",
         lambda: _act(dialog, c.MoveTime(1))),
        (app.tr("evil.ui.enter_roll"), "adjust.enter_roll",
         lambda: physical_roll_dialog(state)),
    ])
    if state.before_roll is not None:
        dialog.buttons([(app.tr("evil.ui.reroll", die=app.tr(f"evil.die.{die}")),
                         f"adjust.reroll.{die}", lambda d=die: _act(dialog, c.Reroll(d)))
                        for die in DICE])
    others = [pl.name for pl in state.players if pl.name != state.current_player.name]
    dialog.buttons([(app.tr("evil.ui.set_player", player=name), f"adjust.player.{name}",
                     lambda name=name: _act(dialog, c.SetPlayer(name))) for name in others],
                   cols=min(3, len(others)), height=48)
    if state.powers_up:
        dialog.buttons([(app.tr("evil.ui.flip_down", character=ch), f"adjust.flip.{ch}",
                         lambda ch=ch: _act(dialog, c.FlipPowerDown(ch)))
                        for ch in state.powers_up], cols=min(3, len(state.powers_up)))
    dialog.add(BoxLayout())
    dialog.buttons([(app.tr("core.ui.close"), "adjust.close", lambda: _close(dialog, state))])
    return open_dialog(dialog)


def physical_roll_dialog(state: EvilState) -> Dialog:
    """The table rolled its own dice: tap each die's face, then OK."""
    app = App.get_running_app()
    p = state.params
    dialog = Dialog(app.tr("evil.ui.enter_roll"), tid="enter_roll")
    chosen: dict[str, str] = {}
    buttons: dict[str, list[Tap]] = {}
    for die in DICE:
        row = follow_height(BoxLayout(spacing=dp(theme.SPACE_XS)), theme.touch(theme.ROW))
        # the die's name in a column of its own width: never squeezed by its faces
        row.add_widget(follow_width(Text(app.tr(f"evil.die.{die}"), size=theme.SIZE_SMALL,
                                         bold=True, tid=f"enter_roll.{die}"), DIE_LABEL))
        buttons[die] = []
        for face in dict.fromkeys(p.die_faces(die)):  # each face once, in die order
            tap = Tap(app.tr(f"evil.face.{face}") if die != "colour"
                      else app.tr(f"evil.colour.{face}"), size=theme.SIZE_SMALL,
                      tid=f"enter_roll.{die}.{face}")

            def pick(_b: Tap, d: str = die, f: str = face) -> None:
                chosen[d] = f
                for other in buttons[d]:
                    other.set_background(theme.ACCENT if other is _b else theme.BUTTON)

            tap.bind(on_release=pick)
            buttons[die].append(tap)
            row.add_widget(tap)
        dialog.add(row)

    def ok() -> None:
        if len(chosen) == len(DICE):
            _act(dialog, c.EnterRoll(chosen["professor"], chosen["colour"], chosen["clock"]))

    dialog.add(BoxLayout())
    dialog.buttons([(app.tr("core.ui.cancel"), "enter_roll.cancel",
                     lambda: _close(dialog, state)),
                    (app.tr("core.ui.ok"), "enter_roll.ok", ok)])
    dialog.default = ok
    return open_dialog(dialog)
