"""The capture flow: the captured spy's value, Kill or Ridicule with a letter, then
"answered" (the spy escapes) or "not answered" (its value doubles), until it is over."""

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
from ui.widgets.basics import Tap, Text, follow_height

DARK_TEXT = (0.1, 0.1, 0.1, 1)


def _act(dialog: Dialog, command: object) -> None:
    """Close, then send: the play screen reopens the flow while the spy is held."""
    dialog.dismiss()
    App.get_running_app().send(command)


def capture_dialog(state: BondState) -> Dialog | None:
    app = App.get_running_app()
    held = view.capture(state)
    if held is None:
        return None
    moves = view.next_moves(state)
    title = f"{app.tr('bond.ui.captured')} " + app.tr(
        "bond.ui.capture_title", player=held.owner_name, power=held.power)
    dialog = Dialog(title, tid="capture")
    dialog.closes_on_update = True  # an undo that frees the spy closes it

    info = follow_height(BoxLayout(spacing=dp(8)), dp(30))
    info.add_widget(Text(app.tr("bond.ui.spies", spies=" + ".join(map(str, held.spies))),
                         size=theme.SIZE_SMALL, color=theme.MUTED, tid="capture.spies"))
    if held.successes:
        info.add_widget(Text(app.tr("bond.ui.ridiculed", letters=", ".join(held.successes)),
                             size=theme.SIZE_SMALL, color=theme.MUTED, tid="capture.ridiculed"))
    dialog.add(info)
    # what the kill scores is this dialog's key figure
    dialog.add(Text(app.tr("bond.ui.value_now", n=held.value), size=theme.SIZE_FIGURE,
                    bold=True, color=theme.ACCENT, tid="capture.value", size_hint_y=None,
                    height=dp(48)))
    dialog.add(Text(app.tr("bond.ui.value_next", value=held.next_value),
                    size=theme.SIZE_SMALL, color=theme.MUTED, tid="capture.next",
                    size_hint_y=None, height=dp(24)))

    if held.pending is None:
        kill = Tap(app.tr("bond.ui.kill_for", points=held.value), size=24, bold=True,
                   tid="capture.kill", background=theme.SUCCESS, size_hint_y=None,
                   height=theme.touch(64), disabled=not moves.kill)
        kill.bind(on_release=lambda _b: _act(dialog, c.Kill()))
        dialog.add(kill)
        dialog.add(Text(app.tr("bond.ui.pick_letter"), size=theme.SIZE_SMALL, color=theme.MUTED,
                        size_hint_y=None, height=dp(26)))
        letters = state.params.letters
        grid = GridLayout(cols=min(len(letters), 9), spacing=dp(5), size_hint_y=None)
        rows = -(-len(letters) // grid.cols)
        follow_height(grid, rows * theme.touch(56) + (rows - 1) * dp(5))  # grows with the window
        for letter in letters:
            # letters already on this spy, or whose two cards are played, are not offered
            tap = Tap(letter, size=24, bold=True, tid=f"capture.letter.{letter}",
                      background=theme.ACCENT, color=DARK_TEXT,
                      disabled=letter not in moves.ridicule)
            tap.bind(on_release=lambda _b, x=letter: _act(dialog, c.Ridicule(x)))
            grid.add_widget(tap)
        dialog.add(grid)
        dialog.default = lambda: _act(dialog, c.Kill())
    else:
        dialog.add(Text(app.tr("bond.ui.pending", letter=held.pending), size=20,
                        tid="capture.pending", size_hint_y=None, height=dp(64)))
        row = follow_height(BoxLayout(spacing=dp(8)), theme.touch(72))
        answered = Tap(app.tr("bond.ui.answered"), size=22, tid="capture.answered",
                       background=theme.DANGER, disabled=not moves.answered)
        answered.bind(on_release=lambda _b: _act(dialog, c.Answered()))
        not_answered = Tap(app.tr("bond.ui.not_answered"), size=22, bold=True,
                           tid="capture.not_answered", background=theme.SUCCESS,
                           disabled=not moves.not_answered)
        not_answered.bind(on_release=lambda _b: _act(dialog, c.NotAnswered()))
        row.add_widget(answered)
        row.add_widget(not_answered)
        dialog.add(row)
    dialog.add(BoxLayout())
    bottom = follow_height(BoxLayout(spacing=dp(8)), theme.touch(50))
    undo = Tap(app.tr("core.ui.undo"), tid="capture.undo")
    undo.bind(on_release=lambda _b: (dialog.dismiss(), app.undo()))
    close = Tap(app.tr("core.ui.close"), tid="capture.close")
    close.bind(on_release=lambda _b: dialog.dismiss())
    bottom.add_widget(undo)
    bottom.add_widget(close)
    dialog.add(bottom)
    return open_dialog(dialog)
