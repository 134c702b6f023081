"""The attack flow: who plays (optional), the value of each spy played together, the
summed power with the preview "captured" or "escapes", then send."""

from __future__ import annotations

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from companion.games.bond import commands as c
from companion.games.bond import view
from companion.games.bond.state import BondState
from ui import theme
from ui.dialogs import Dialog, open_dialog
from ui.names import display_name
from ui.widgets.basics import Tap, Text, follow_height


class AttackFlow:
    """The choices of one attack, before it is sent (nothing is logged until then)."""

    def __init__(self, state: BondState, target: int) -> None:
        self.state = state
        self.target = target
        self.spies: list[int] = []
        self.by: int | None = None

    @property
    def own_lair_refused(self) -> bool:
        """The domain's decision: several spies on the attacker's own lair (config)."""
        return (self.by == self.target and len(self.spies) > 1
                and not self.state.params.multi_spy_own_lair)

    @property
    def full(self) -> bool:
        return len(self.spies) >= view.spies_left(self.state)

    @property
    def ready(self) -> bool:
        return bool(self.spies) and not self.own_lair_refused

    def command(self) -> c.Attack:
        return c.Attack(self.target, tuple(self.spies), by=self.by)


def attack_dialog(state: BondState, target: int) -> Dialog:
    app = App.get_running_app()
    p = state.params
    player = state.players[target]
    flow = AttackFlow(state, target)
    dialog = Dialog(app.tr("bond.ui.attack_title", player=player.name, size=player.lair_size),
                    tid="attack")

    # who plays the spies: optional, only the own-lair rule needs it
    by_row = follow_height(BoxLayout(spacing=dp(4)), theme.touch())
    by_row.add_widget(Text(app.tr("bond.ui.by"), size=theme.SIZE_SMALL, color=theme.MUTED,
                           size_hint_x=None, width=dp(92)))
    by_buttons: dict[int | None, Tap] = {}
    choices: list[tuple[int | None, str]] = [(None, app.tr("bond.ui.by_unknown"))]
    choices += [(i, display_name(pl.name)) for i, pl in enumerate(state.players)]
    for index, name in choices:
        tap = Tap(name, size=theme.SIZE_SMALL, shorten=True,
                  tid=f"attack.by.{'none' if index is None else index}")
        tap.bind(on_release=lambda _b, i=index: choose_by(i))
        by_buttons[index] = tap
        by_row.add_widget(tap)
    dialog.add(by_row)

    spies_label = dialog.add(Text(size=20, tid="attack.spies", size_hint_y=None,
                                  height=dp(34)))
    values = list(range(p.spy_min, p.spy_max + 1))
    grid = GridLayout(cols=min(len(values) + 1, 8), spacing=dp(6), size_hint_y=None)
    rows = -(-(len(values) + 1) // grid.cols)
    follow_height(grid, rows * theme.touch(56) + (rows - 1) * dp(6))  # grows with the window
    value_buttons = []
    for value in values:
        tap = Tap(str(value), size=26, bold=True, tid=f"attack.spy.{value}")
        tap.bind(on_release=lambda _b, v=value: add_spy(v))
        value_buttons.append(tap)
        grid.add_widget(tap)
    # a spy the settings do not list: typed, accepted with a note (a keypad inside the
    # attack keeps the spies chosen so far)
    other = Tap(app.tr("bond.ui.other_value"), size=18, tid="attack.spy.other")
    other.bind(on_release=lambda _b: other_spy())
    value_buttons.append(other)
    grid.add_widget(other)
    dialog.add(grid)
    # the outcome is a key figure; why an attack is refused is a sentence, in the room left
    preview = dialog.add(Text(size=theme.SIZE_FIGURE, bold=True, halign="center",
                              tid="attack.preview", size_hint_y=None, height=dp(56)))
    note = dialog.add(Text(size=theme.SIZE_BODY, halign="center", valign="top",
                           color=theme.MUTED, tid="attack.note"))
    bottom = follow_height(BoxLayout(spacing=dp(8)), theme.touch(56))
    cancel = Tap(app.tr("core.ui.cancel"), tid="attack.cancel", size_hint_x=0.25)
    cancel.bind(on_release=lambda _b: dialog.dismiss())
    undo_spy = Tap(app.tr("bond.ui.remove_spy"), size=theme.SIZE_SMALL, tid="attack.remove",
                   size_hint_x=0.35)
    undo_spy.bind(on_release=lambda _b: remove_spy())
    send = Tap(app.tr("bond.ui.send_spies"), tid="attack.send", background=theme.DANGER,
               size_hint_x=0.4)
    send.bind(on_release=lambda _b: confirm())
    for widget in (cancel, undo_spy, send):
        bottom.add_widget(widget)
    dialog.add(bottom)

    def redraw() -> None:
        for index, tap in by_buttons.items():
            tap.set_background(theme.ACCENT if index == flow.by else theme.BUTTON)
            tap.color = (0.1, 0.1, 0.1, 1) if index == flow.by else theme.TEXT
        for tap in value_buttons:
            tap.disabled = flow.full
        if not flow.spies:
            spies_label.text = app.tr("bond.ui.no_spies")
            preview.text = note.text = ""
        else:
            power = sum(flow.spies)
            spies_label.text = "   ".join((
                app.tr("bond.ui.spies", spies=" + ".join(str(v) for v in flow.spies)),
                app.tr("bond.ui.power", power=power)))
            note.text = ""
            if flow.own_lair_refused:
                preview.text = ""
                note.text = app.tr("bond.error.multi_spy_own_lair")
            else:
                result = view.attack_result(state, target, tuple(flow.spies))
                captured = result == "captured"
                preview.text = app.tr("bond.ui.will_capture" if captured
                                      else "bond.ui.will_escape")
                preview.color = theme.SUCCESS_TEXT if captured else theme.DANGER_TEXT
        undo_spy.disabled = not flow.spies
        send.disabled = not flow.ready

    def choose_by(index: int | None) -> None:
        flow.by = index
        redraw()

    def add_spy(value: int) -> None:
        if not flow.full:
            flow.spies.append(value)
        redraw()

    typed = Text("", size=24, bold=True, halign="center", tid="attack.typed",
                 size_hint_y=None, height=dp(40))
    other_row = follow_height(BoxLayout(spacing=dp(6)), theme.touch(52))

    def other_spy() -> None:
        """Digits in place of the value buttons; OK adds the spy (the rules refuse a
        number no card prints, with a clear message, when the attack is sent)."""
        typed.text = ""
        other_row.clear_widgets()
        for key in "0123456789":
            tap = Tap(key, size=20, tid=f"attack.digit.{key}")
            tap.bind(on_release=lambda _b, k=key: digit(k))
            other_row.add_widget(tap)
        ok = Tap(app.tr("core.ui.ok"), size=18, tid="attack.digit.ok", background=theme.SUCCESS)
        ok.bind(on_release=lambda _b: typed_done())
        other_row.add_widget(ok)
        if typed.parent is None:  # the digits take the value buttons' place
            index = dialog.box.children.index(grid)
            dialog.box.remove_widget(grid)
            dialog.box.add_widget(typed, index)
            dialog.box.add_widget(other_row, index)

    def digit(key: str) -> None:
        if len(typed.text) < 3:
            typed.text = (typed.text + key).lstrip("0")

    def typed_done() -> None:
        if typed.parent is not None:
            index = dialog.box.children.index(other_row)
            dialog.box.remove_widget(typed)
            dialog.box.remove_widget(other_row)
            dialog.box.add_widget(grid, index)
        if typed.text:
            add_spy(int(typed.text))
        else:
            redraw()

    def remove_spy() -> None:
        if flow.spies:
            flow.spies.pop()
        redraw()

    def confirm() -> None:
        if flow.ready:
            dialog.dismiss()
            app.send(flow.command())

    redraw()
    dialog.default = confirm
    return open_dialog(dialog)
