"""Pr. Evil's dialogs: placing a treasure (minutes keypad), the power activation, a
treasure's actions, and the manual adjustments (every one a logged command)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from companion.games.evil import commands as c
from companion.games.evil.dice import DICE
from companion.games.evil.instructions import roman
from companion.games.evil.state import EvilState
from ui import theme
from ui.dialogs import Dialog, open_dialog
from ui.screens.evil.card import Para
from ui.widgets.basics import Tap, Text, _follow_scale, find, follow_height, follow_width

DIE_LABEL = 156  # px at 800x480: "dé du professeur" on two lines at most


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
        from ui.screens.evil.play import LEFT_SHARE

        super().__init__(title, tid, size_hint=(LEFT_SHARE, 0.98), overlay_color=(0, 0, 0, 0))
        heading = find(self, f"{tid}.title")
        if heading is not None:  # room for a two-line title, at any window size
            follow_height(heading, dp(56))
        self.why = self.add(Para(why, size=theme.SIZE_SMALL, tid=f"{tid}.why",
                                 color=theme.MUTED))
        _follow_scale(self.why, theme.SIZE_SMALL)

    def on_open(self) -> None:
        self._align_center()  # ModalView centres itself on opening: dock it now

    def _align_center(self, *_args: Any) -> None:
        window = self._window
        if self._is_open and window is not None:
            self.x = window.width * 0.005
            self.center_y = window.height / 2


def placement_dialog(state: EvilState, colour: str,
                     on_later: Callable[[], None] | None = None) -> Dialog:
    """The minutes keypad for a new treasure. While a roll waits for it, the keypad is the
    only way on and undoing the roll the only way back: nothing closes it into a state
    where the table could roll."""
    app = App.get_running_app()
    p = state.params
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
        why += "\n" + app.tr("evil.ui.left_out_note", minutes=", ".join(map(str, left_out)))
    dialog = SideDialog(title, "place", why)
    minutes = [m for m in range(p.min_minutes, p.max_minutes + 1, p.step_minutes)
               if m not in state.left_out]
    keys = []
    for m in minutes:
        lands = roman(state.time + m // p.step_minutes, p.dial_steps)
        label = f"{m}\n{app.tr('evil.ui.place_to', position=lands)}"
        keys.append((label, f"place.{m}", lambda m=m: _act(dialog, c.PlaceTreasure(colour, m))))
    dialog.buttons(keys, cols=4, height=56)
    dialog.add(BoxLayout())
    if state.waiting_for_replacement:
        # a power or card may re-roll a die of this roll, or the table corrects one: the
        # roll is resolved again from before it (and waits again if it still loses one)
        dialog.buttons([(app.tr("evil.ui.undo_roll"), "place.undo", lambda: _undo(dialog)),
                        (app.tr("evil.ui.fix_dice"), "place.dice",
                         lambda: adjust_dialog(state))])
    elif on_later is None:
        dialog.buttons([(app.tr("evil.ui.undo_last"), "place.undo", lambda: _undo(dialog))])
    else:
        def later() -> None:
            dialog.dismiss()
            on_later()

        dialog.buttons([(app.tr("evil.ui.undo_last"), "place.undo", lambda: _undo(dialog)),
                        (app.tr("core.ui.close"), "place.later", later)])
    return open_dialog(dialog)


def power_dialog(state: EvilState) -> Dialog:
    """Who turns their power tile face up. A character is selected from the start, so the
    OK button (and Enter) chooses; letting the activation go is its own button."""
    app = App.get_running_app()
    dialog = SideDialog(app.tr("evil.ui.power_title"), "power", app.tr("evil.ui.power_why"))
    seats = len(state.players)
    free = [state.players[(state.active + i) % seats] for i in range(seats)]
    free = [pl for pl in free if pl.character not in state.powers_up]
    chosen: dict[str, str] = {}
    toggles: dict[str, Tap] = {}
    choose: list[Tap] = []

    def select(character: str) -> None:
        chosen["character"] = character
        for ch, toggle in toggles.items():
            toggle.set_background(theme.ACCENT if ch == character else theme.BUTTON)
        if choose:
            choose[0].text = app.tr("evil.ui.choose", character=character)

    def confirm() -> None:
        if "character" in chosen:
            _act(dialog, c.ActivatePower(chosen["character"]))

    if free:
        grid = dialog.buttons([(f"{pl.name}\n{pl.character}", f"power.{pl.character}",
                                lambda ch=pl.character: select(ch)) for pl in free],
                              cols=min(2, len(free)), height=70)
        toggles.update({pl.character: find(grid, f"power.{pl.character}") for pl in free})
    dialog.add(BoxLayout())
    row = dialog.buttons([(app.tr("evil.ui.choose", character=""), "power.choose", confirm),
                          (app.tr("evil.ui.skip"), "power.skip",
                           lambda: _act(dialog, c.SkipPower()))], height=72)
    choose.append(find(row, "power.choose"))
    if free:
        select(free[0].character)
    else:
        choose[0].disabled = True  # every tile is up already: skipping is all there is
    dialog.default = confirm
    return open_dialog(dialog)


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
