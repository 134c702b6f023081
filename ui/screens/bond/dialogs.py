"""Mr. Bond's smaller dialogs: a lair card (add, or remove one entered by mistake), the
score correction stepper, the end by agreement, the escape shown to the table, and the
"check your cards" note for a card the settings did not expect."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from companion.games.bond import commands as c
from companion.games.bond import events as e
from companion.games.bond import view
from companion.games.bond.instructions import check_cards
from companion.games.bond.params import widened
from companion.games.bond.state import BondState
from ui import theme
from ui.dialogs import Dialog, open_dialog
from ui.screens.castor.checks import Fix, check_cards_dialog, log_notes
from ui.screens.castor.dialogs import keypad_dialog
from ui.widgets.basics import Tap, Text, follow_height


def _act(dialog: Dialog, command: object) -> None:
    dialog.dismiss()
    App.get_running_app().send(command)


def lair_dialog(state: BondState, player: int) -> Dialog:
    app = App.get_running_app()
    p = state.params
    owner = view.players(state)[player]
    dialog = Dialog(app.tr("bond.ui.lair_title", player=owner.name), tid="lair",
                    subtitle=app.tr("bond.ui.lair_cards", size=owner.lair_size,
                                    cards="+".join(map(str, owner.lair)))
                    if owner.has_lair else app.tr("bond.ui.no_lair"))
    values = range(p.lair_min, p.lair_max + 1)

    def other() -> None:  # a number the settings do not list: noted, never refused
        dialog.dismiss()
        keypad_dialog(app.tr("bond.ui.other_lair_title", player=owner.name), 0,
                      lambda v: app.send(c.AddLairCard(player, v)))

    items = [(str(v), f"lair.add.{v}", lambda v=v: _act(dialog, c.AddLairCard(player, v)))
             for v in values]
    items.append((app.tr("bond.ui.other_value"), "lair.add.other", other))
    dialog.buttons(items, cols=min(len(items), 8), height=72)
    if owner.has_lair:
        dialog.add(Text(app.tr("bond.ui.lair_remove"), size=theme.SIZE_SMALL, color=theme.MUTED,
                        size_hint_y=None, height=dp(28)))
        present = sorted(set(owner.lair))
        dialog.buttons([(f"− {v}", f"lair.remove.{v}",
                         lambda v=v: _act(dialog, c.RemoveLairCard(player, v)))
                        for v in present], cols=max(len(present), 4), height=48)
    dialog.add(BoxLayout())
    dialog.buttons([(app.tr("core.ui.cancel"), "lair.cancel", dialog.dismiss)])
    return open_dialog(dialog)


def correct_dialog(state: BondState, player: int) -> Dialog:
    """A -/+ stepper; OK logs one correction of the chosen size."""
    app = App.get_running_app()
    current = state.players[player].score
    dialog = Dialog(app.tr("bond.ui.correct_title", player=state.players[player].name),
                    tid="correct", size_hint=(0.8, 0.75))
    delta = {"n": 0}
    row = follow_height(BoxLayout(spacing=dp(8)), theme.touch(72))
    minus = Tap("−", size=34, tid="correct.minus", size_hint_x=0.25)
    shown = Text(size=34, bold=True, halign="center", tid="correct.delta", size_hint_x=0.5)
    plus = Tap("+", size=34, tid="correct.plus", size_hint_x=0.25)
    for widget in (minus, shown, plus):
        row.add_widget(widget)
    dialog.add(row)
    preview = dialog.add(Text(size=22, halign="center", tid="correct.value",
                              size_hint_y=None, height=dp(44)))
    dialog.add(BoxLayout())
    cancel = (app.tr("core.ui.cancel"), "correct.cancel", dialog.dismiss)
    grid = dialog.buttons([cancel, (app.tr("core.ui.ok"), "correct.ok", lambda: ok())])
    ok_button = grid.children[0]

    def redraw() -> None:
        shown.text = f"{delta['n']:+d}"
        preview.text = app.tr("bond.ui.correct_preview", score=current,
                              n=current + delta["n"])
        minus.disabled = current + delta["n"] <= 0  # a score never goes below 0
        ok_button.disabled = delta["n"] == 0

    def step(by: int) -> None:
        delta["n"] = max(-current, delta["n"] + by)
        redraw()

    def ok() -> None:
        if delta["n"]:
            _act(dialog, c.CorrectScore(player, delta["n"]))

    minus.bind(on_release=lambda _b: step(-1))
    plus.bind(on_release=lambda _b: step(1))
    redraw()
    dialog.default = ok
    return open_dialog(dialog)


def end_dialog() -> Dialog:
    app = App.get_running_app()
    dialog = Dialog(app.tr("bond.ui.end_game"), tid="end_confirm", size_hint=(0.8, 0.6))
    dialog.add(Text(app.tr("bond.ui.end_confirm"), size=20, tid="end_confirm.text"))
    dialog.buttons([(app.tr("core.ui.cancel"), "end_confirm.cancel", dialog.dismiss),
                    (app.tr("bond.ui.end_game"), "end_confirm.ok",
                     lambda: _act(dialog, c.EndGame()))])
    dialog.default = lambda: _act(dialog, c.EndGame())
    return open_dialog(dialog)


def escaped_dialog(sentences: str) -> Dialog:
    """An escape changes the table (the lair's cards go to the discard): say it big."""
    app = App.get_running_app()
    dialog = Dialog(app.tr("bond.ui.escaped_title"), tid="escaped", size_hint=(0.8, 0.6))
    dialog.closes_on_update = True
    dialog.add(Text(sentences, size=20, tid="escaped.text"))

    def undo() -> None:  # the attack taken back from what it told
        dialog.dismiss()
        app.undo()

    dialog.buttons([(app.tr("core.ui.undo"), "escaped.undo", undo),
                    (app.tr("core.ui.ok"), "escaped.ok", dialog.dismiss)])
    dialog.default = dialog.dismiss
    return open_dialog(dialog)


def check_dialog(events: Sequence[Any], then: Callable[[], Any] | None = None) -> Dialog | None:
    """The note for lair and spy cards outside the game's configured values, offering
    to widen the user's settings for the next games; None when the settings already
    expect them (the game in progress keeps its own settings and its log notes them)."""
    app = App.get_running_app()
    notes = [ev for ev in events if isinstance(ev, e.CheckCards)]
    if not notes:
        return None
    section = app.settings.get("games.bond") or {}
    fixes: dict[str, Fix] = {}
    for note in notes:
        change = widened(section, note.card, note.value)
        if change is None:
            continue
        key, value = change
        if key in fixes:  # several spies off the range: one fix covering them all
            old = fixes[key].value
            value = {"min": min(old["min"], value["min"]), "max": max(old["max"], value["max"])}
        fixes[key] = Fix(app.tr(f"bond.ui.fix_{note.card}", low=value["min"], high=value["max"]),
                         f"games.bond.{key}", value)
    lines = [app.say(check_cards(note)) for note in notes]
    log_notes(lines)
    if not fixes:
        return None
    return check_cards_dialog(app.tr("bond.ui.check_title"), lines,
                              app.tr("bond.ui.check_hint"), list(fixes.values()),
                              app.tr("bond.ui.fix_saved"), then)
