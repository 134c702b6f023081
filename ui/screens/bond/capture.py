"""The capture flow: the captured spy's value, Kill or Ridicule with a letter, then
"answered" (the spy escapes) or "not answered" (its value doubles), until it is over.

The dialog is built once per play screen and re-told at every opening (`show`): an
attack that captures, and every answer after it, builds no widget. Its two steps (Kill
or a letter; the answer to the letter's question) are two sets of rows swapped in and
out, so that only the step's own buttons can be touched."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from companion.games.bond import commands as c
from companion.games.bond import view
from companion.games.bond.state import BondState
from ui import theme
from ui.dialogs import Dialog, open_dialog
from ui.widgets.basics import Tap, Text, find, follow_height

DARK_TEXT = (0.1, 0.1, 0.1, 1)
LETTER_COLS = 9  # at most this many letters a row
LETTER_SPACING = 5


class CaptureDialog(Dialog):
    """The capture question, its widgets kept from one opening to the next."""

    def __init__(self) -> None:
        app = App.get_running_app()
        super().__init__("", tid="capture")
        self.closes_on_update = True  # an undo that frees the spy closes it
        self.heading = find(self, "capture.title")

        self.info = self.add(follow_height(BoxLayout(spacing=dp(8)), dp(30)))
        self.spies = Text(size=theme.SIZE_SMALL, color=theme.MUTED, tid="capture.spies")
        self.ridiculed = Text(size=theme.SIZE_SMALL, color=theme.MUTED,
                              tid="capture.ridiculed")
        self.info.add_widget(self.spies)
        # what the kill scores is this dialog's key figure
        self.value = self.add(Text(size=theme.SIZE_FIGURE, bold=True, color=theme.ACCENT,
                                   tid="capture.value", size_hint_y=None, height=dp(48)))
        self.next = self.add(Text(size=theme.SIZE_SMALL, color=theme.MUTED,
                                  tid="capture.next", size_hint_y=None, height=dp(24)))

        # the first step: Kill, or a letter to ridicule with
        self.kill = Tap("", size=24, bold=True, tid="capture.kill", background=theme.SUCCESS,
                        size_hint_y=None, height=theme.touch(64))
        self.kill.bind(on_release=lambda _b: self._act(c.Kill()))
        pick = Text(app.tr("bond.ui.pick_letter"), size=theme.SIZE_SMALL, color=theme.MUTED,
                    size_hint_y=None, height=dp(26))
        self.letters = GridLayout(spacing=dp(LETTER_SPACING), size_hint_y=None)
        self.letter_keys: dict[str, Tap] = {}  # by letter, across games
        self.choosing: list[Widget] = [self.kill, pick, self.letters]

        # the second step: was the letter's question answered?
        self.pending = Text(size=20, tid="capture.pending", size_hint_y=None, height=dp(64))
        row = follow_height(BoxLayout(spacing=dp(8)), theme.touch(72))
        self.answered = Tap(app.tr("bond.ui.answered"), size=22, tid="capture.answered",
                            background=theme.DANGER)
        self.answered.bind(on_release=lambda _b: self._act(c.Answered()))
        self.not_answered = Tap(app.tr("bond.ui.not_answered"), size=22, bold=True,
                                tid="capture.not_answered", background=theme.SUCCESS)
        self.not_answered.bind(on_release=lambda _b: self._act(c.NotAnswered()))
        row.add_widget(self.answered)
        row.add_widget(self.not_answered)
        self.answering: list[Widget] = [self.pending, row]

        self.filler = self.add(BoxLayout())
        bottom = self.add(follow_height(BoxLayout(spacing=dp(8)), theme.touch(50)))
        undo = Tap(app.tr("core.ui.undo"), tid="capture.undo")
        undo.bind(on_release=lambda _b: (self.dismiss(), App.get_running_app().undo()))
        close = Tap(app.tr("core.ui.close"), tid="capture.close")
        close.bind(on_release=lambda _b: self.dismiss())
        bottom.add_widget(undo)
        bottom.add_widget(close)

    def _act(self, command: object) -> None:
        """Close, then send: the play screen reopens the flow while the spy is held."""
        self.dismiss()
        App.get_running_app().send(command)

    def _kill(self) -> None:
        self._act(c.Kill())

    def prepare(self, letters: Sequence[str]) -> None:
        """A key for every letter of this game (built ahead, when the game opens)."""
        for letter in letters:
            if letter not in self.letter_keys:
                # DARK_TEXT on the accent's yellow, as the selected state's text
                key = Tap(letter, size=24, bold=True, tid=f"capture.letter.{letter}",
                          background=theme.ACCENT, color=DARK_TEXT)
                key.bind(on_release=lambda _b, x=letter: self._act(c.Ridicule(x)))
                self.letter_keys[letter] = key

    def show(self, state: BondState) -> Dialog | None:
        """Tell the held spy (None, and nothing opened, if no spy is held)."""
        app = App.get_running_app()
        held = view.capture(state)
        if held is None:
            return None
        moves = view.next_moves(state)
        if self.heading is not None:
            self.heading.text = f"{app.tr('bond.ui.captured')} " + app.tr(
                "bond.ui.capture_title", player=held.owner_name, power=held.power)
        self.spies.text = app.tr("bond.ui.spies", spies=" + ".join(map(str, held.spies)))
        if held.successes:
            self.ridiculed.text = app.tr("bond.ui.ridiculed",
                                         letters=", ".join(held.successes))
            if self.ridiculed.parent is None:
                self.info.add_widget(self.ridiculed)
        elif self.ridiculed.parent is not None:
            self.info.remove_widget(self.ridiculed)
        self.value.text = app.tr("bond.ui.value_now", n=held.value)
        self.next.text = app.tr("bond.ui.value_next", value=held.next_value)
        if held.pending is None:
            self._step(self.choosing)
            self.kill.text = app.tr("bond.ui.kill_for", points=held.value)
            self.kill.disabled = not moves.kill
            self._fill_letters(state.params.letters, moves.ridicule)
            self.default = self._kill
        else:
            self._step(self.answering)
            self.pending.text = app.tr("bond.ui.pending", letter=held.pending)
            self.answered.disabled = not moves.answered
            self.not_answered.disabled = not moves.not_answered
            self.default = None
        return open_dialog(self)

    def _step(self, rows: list[Widget]) -> None:
        """This step's rows above the filler, the other step's taken out."""
        if rows[0].parent is not None:
            return
        other = self.answering if rows is self.choosing else self.choosing
        for widget in other:
            self.box.remove_widget(widget)
        index = self.box.children.index(self.filler) + 1  # children run bottom to top
        for widget in rows:
            self.box.add_widget(widget, index=index)

    def _fill_letters(self, letters: Sequence[str], offered: Any) -> None:
        """The game's letters; those already on this spy, or whose two cards are
        played, are not offered."""
        self.prepare(letters)
        keys = [self.letter_keys[letter] for letter in letters]
        grid = self.letters
        if list(reversed(grid.children)) != keys:
            grid.clear_widgets()
            for key in keys:
                grid.add_widget(key)
            grid.cols = max(1, min(len(keys), LETTER_COLS))
            rows = -(-len(keys) // grid.cols)
            # the keys grow with the window: so does their grid
            follow_height(grid, rows * theme.touch(56) + max(0, rows - 1) * dp(LETTER_SPACING))
        for letter, key in zip(letters, keys, strict=True):
            key.disabled = letter not in offered


def capture_dialog(state: BondState) -> Dialog | None:
    """The capture question for the held spy, on the play screen's own dialog."""
    screen = App.get_running_app().root.get_screen("bond_play")
    return screen.capture().show(state)  # type: ignore[no-any-return]
