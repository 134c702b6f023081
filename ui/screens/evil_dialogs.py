"""Pr. Evil's dialogs: placing a treasure (minutes keypad), the power activation, a
treasure's actions, and the manual adjustments (every one a logged command)."""

from __future__ import annotations

from collections.abc import Callable

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from companion.games.evil import commands as c
from companion.games.evil.dice import DICE
from companion.games.evil.state import EvilState
from ui import theme
from ui.dialogs import Dialog, open_dialog
from ui.widgets.basics import Tap, Text


def _act(dialog: Dialog, command: object) -> None:
    """Send a command; the dialog closes only if the rules accepted it."""
    app = App.get_running_app()
    dialog.dismiss()
    app.send(command)


def placement_dialog(state: EvilState, colour: str, context: str,
                     on_later: Callable[[], None]) -> Dialog:
    app = App.get_running_app()
    p = state.params
    dialog = Dialog(app.tr("evil.ui.place_title",
                           colour=app.tr(f"evil.colour_upper.{colour}")),
                    tid="place", subtitle=context)
    minutes = [m for m in range(p.min_minutes, p.max_minutes + 1, p.step_minutes)
               if m not in state.left_out]  # tiles left out at this difficulty
    dialog.buttons([(str(m), f"place.{m}", lambda m=m: _act(dialog, c.PlaceTreasure(colour, m)))
                    for m in minutes], cols=6, height=52)

    def later() -> None:
        dialog.dismiss()
        on_later()

    dialog.buttons([(app.tr("core.ui.close"), "place.later", later)])
    return open_dialog(dialog)


def power_dialog(state: EvilState) -> Dialog:
    app = App.get_running_app()
    dialog = Dialog(app.tr("evil.ui.power_title"), tid="power")
    choices = [(f"{pl.name}\n{pl.character}", f"power.{pl.character}",
                lambda ch=pl.character: _act(dialog, c.ActivatePower(ch)))
               for pl in state.players if pl.character not in state.powers_up]
    if choices:
        dialog.buttons(choices, cols=min(3, len(choices)), height=64)
    dialog.buttons([(app.tr("evil.ui.skip"), "power.skip",
                     lambda: _act(dialog, c.SkipPower()))])
    dialog.default = lambda: _act(dialog, c.SkipPower())
    return open_dialog(dialog)


def treasure_dialog(state: EvilState, colour: str) -> Dialog:
    app = App.get_running_app()
    if state.slot(colour) is None:
        screen = app.root.get_screen("evil_play")
        return placement_dialog(state, colour, "", on_later=screen.snooze_placement)
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
    if state.powers_up:
        dialog.buttons([(app.tr("evil.ui.flip_down", character=ch), f"adjust.flip.{ch}",
                         lambda ch=ch: _act(dialog, c.FlipPowerDown(ch)))
                        for ch in state.powers_up], cols=min(3, len(state.powers_up)))
    dialog.add(BoxLayout())
    dialog.buttons([(app.tr("core.ui.close"), "adjust.close", dialog.dismiss)])
    return open_dialog(dialog)


def physical_roll_dialog(state: EvilState) -> Dialog:
    """The table rolled its own dice: tap each die's face, then OK."""
    app = App.get_running_app()
    p = state.params
    dialog = Dialog(app.tr("evil.ui.enter_roll"), tid="enter_roll")
    chosen: dict[str, str] = {}
    buttons: dict[str, list[Tap]] = {}
    for die in DICE:
        row = BoxLayout(spacing=dp(4), size_hint_y=None, height=theme.touch())
        row.add_widget(Text(app.tr(f"evil.die.{die}"), size=14, size_hint_x=0.25))
        buttons[die] = []
        for face in dict.fromkeys(p.die_faces(die)):  # each face once, in die order
            tap = Tap(app.tr(f"evil.face.{face}") if die != "colour"
                      else app.tr(f"evil.colour.{face}"), size=14, tid=f"enter_roll.{die}.{face}")

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
    dialog.buttons([(app.tr("core.ui.cancel"), "enter_roll.cancel", dialog.dismiss),
                    (app.tr("core.ui.ok"), "enter_roll.ok", ok)])
    dialog.default = ok
    return open_dialog(dialog)
