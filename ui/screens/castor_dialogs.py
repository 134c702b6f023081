"""Castor's dialogs: a number keypad for the score sheet, and the trick tracker's
power card, leader, one-trick trumps and bottom plan card (each a logged command)."""

from __future__ import annotations

from collections.abc import Callable

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from companion.games.castor import commands as c
from companion.games.castor.instructions import colour_chain
from companion.games.castor.state import CastorState
from ui.dialogs import Dialog, open_dialog
from ui.widgets.basics import Text

KEYPAD_DIGITS = 3  # no sheet value needs more


def _act(dialog: Dialog, command: object) -> None:
    dialog.dismiss()
    App.get_running_app().send(command)


def keypad_dialog(title: str, initial: int, on_done: Callable[[int], None]) -> Dialog:
    """Digits for a number too far for the steppers."""
    app = App.get_running_app()
    dialog = Dialog(title, tid="keypad", size_hint=(0.6, 0.94))
    typed = {"text": str(initial) if initial else ""}
    shown = dialog.add(Text(typed["text"] or "0", size=28, bold=True, halign="center",
                            tid="keypad.value", size_hint_y=None, height=dp(44)))

    def press(key: str) -> None:
        if key == "del":
            typed["text"] = typed["text"][:-1]
        elif len(typed["text"]) < KEYPAD_DIGITS:
            typed["text"] = (typed["text"] + key).lstrip("0")
        shown.text = typed["text"] or "0"

    def ok() -> None:
        dialog.dismiss()
        on_done(int(typed["text"] or 0))

    keys = [(d, f"keypad.{d}", lambda d=d: press(d)) for d in "123456789"]
    keys += [(app.tr("core.ui.delete"), "keypad.del", lambda: press("del")),
             ("0", "keypad.0", lambda: press("0")),
             (app.tr("core.ui.ok"), "keypad.ok", ok)]
    dialog.buttons(keys, cols=3, height=50)
    dialog.add(BoxLayout())
    dialog.buttons([(app.tr("core.ui.cancel"), "keypad.cancel", dialog.dismiss)], height=48)
    dialog.default = ok
    return open_dialog(dialog)


def drawn_powers(state: CastorState) -> set[str]:
    tracking = state.tracking
    if tracking is None:
        return set()
    return {agent for trick in (*tracking.done, tracking.current) for agent in trick.powers}


def power_dialog(state: CastorState) -> Dialog:
    """A power card is on top of the plan pile: whose agent is it?"""
    app = App.get_running_app()
    dialog = Dialog(app.tr("castor.ui.power_title"), tid="power",
                    subtitle=app.tr("castor.ui.power_hint"))
    drawn = drawn_powers(state)
    choices = []
    for player in state.players:
        spec = state.params.agent(player.agent) if player.agent else None
        if spec is None or spec.id in drawn:
            continue
        choices.append((f"{spec.name}\n({player.name})", f"power.{spec.id}",
                        lambda a=spec.id: _act(dialog, c.DrawPower(a))))
    if choices:
        dialog.buttons(choices, cols=min(3, len(choices)), height=64)
    else:
        dialog.add(Text(app.tr("castor.ui.no_power_left"), size=17, tid="power.none"))
    dialog.add(BoxLayout())
    dialog.buttons([(app.tr("core.ui.close"), "power.close", dialog.dismiss)])
    return open_dialog(dialog)


def leader_dialog(state: CastorState, chooser: str | None) -> Dialog:
    """Who leads this trick: a Belton-like power's choice, or a correction."""
    app = App.get_running_app()
    title = app.tr("castor.ui.leader_power_title", player=chooser) if chooser \
        else app.tr("castor.ui.leader_title")
    dialog = Dialog(title, tid="leader", size_hint=(0.8, 0.8))
    dialog.buttons([(p.name, f"leader.{i}", lambda name=p.name: _act(dialog, c.ChooseLeader(name)))
                    for i, p in enumerate(state.players)], cols=min(3, len(state.players)),
                   height=64)
    dialog.add(BoxLayout())
    dialog.buttons([(app.tr("core.ui.close"), "leader.close", dialog.dismiss)])
    return open_dialog(dialog)


def trumps_dialog(state: CastorState) -> Dialog:
    """A "complice" card changes the trumps for one trick: usual, none, or another
    colour before the usual trumps."""
    app = App.get_running_app()
    usual = state.params.trumps
    dialog = Dialog(app.tr("castor.ui.trumps_title"), tid="trumps",
                    subtitle=app.tr("castor.ui.trumps_hint"))
    items = [(app.tr("castor.ui.trumps_usual", colours=app.say(colour_chain(usual)))
              if usual else app.tr("castor.ui.trumps_none"), "trumps.usual",
              lambda: _act(dialog, c.SetTrumps(None)))]
    if usual:
        items.append((app.tr("castor.ui.trumps_none"), "trumps.none",
                      lambda: _act(dialog, c.SetTrumps(()))))
    for colour in state.params.colour_names:
        if colour in usual:
            continue
        order = (colour, *usual)
        items.append((app.say(colour_chain(order)), f"trumps.{colour}",
                      lambda o=order: _act(dialog, c.SetTrumps(o))))
    dialog.buttons(items, cols=2, height=60)
    dialog.add(BoxLayout())
    dialog.buttons([(app.tr("core.ui.close"), "trumps.close", dialog.dismiss)])
    return open_dialog(dialog)


def extra_plan_dialog(state: CastorState, player: str, plan: int,
                      values: list[int]) -> Dialog:
    """Martha-like power: the winner also takes the bottom plan card; its value?"""
    app = App.get_running_app()
    dialog = Dialog(app.tr("castor.ui.extra_title", player=player), tid="extra",
                    size_hint=(0.8, 0.7))
    dialog.buttons([(str(v), f"extra.{v}", lambda v=v: _act(dialog, c.TakeTrick(plan, v)))
                    for v in values], cols=min(6, max(len(values), 1)), height=64)
    dialog.add(BoxLayout())
    dialog.buttons([(app.tr("core.ui.cancel"), "extra.cancel", dialog.dismiss)])
    return open_dialog(dialog)
