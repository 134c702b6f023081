"""One Mr. Bond player card: name, score and points to go, the lair, and its buttons.

Every card stays on screen all game (up to 6 in a 3x2 grid at 800x480)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.graphics import Color, SmoothRoundedRectangle
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from companion.games.bond.view import Moves, PlayerView
from ui import theme
from ui.names import display_name
from ui.widgets.basics import Tap, Text, _follow_scale, follow_height
from ui.widgets.kept_texture import KeptLabel

#: a card holding the captured spy, and a winner's card
HOLDER = (0.42, 0.32, 0.08, 1)
WINNER = (0.12, 0.36, 0.18, 1)


def grid_columns(players: int) -> int:
    """2 players side by side, 4 in 2x2, 3, 5 and 6 in rows of three."""
    return 2 if players in (2, 4) else 3


def one_line(size: float, tid: str, **kwargs: Any) -> KeptLabel:
    """A one-line label as wide as its text (its font follows the app's scale); the
    row's other label takes the rest of the width."""
    label = KeptLabel(size_hint_x=None, **kwargs)
    label.tid = tid
    _follow_scale(label, size)
    label.bind(texture_size=lambda lb, texture: setattr(lb, "width", texture[0] + 2))
    return label


def lair_text(view: PlayerView) -> str:
    app = App.get_running_app()
    if not view.has_lair:
        return app.tr("bond.ui.no_lair")
    if len(view.lair) == 1:
        return app.tr("bond.ui.lair", size=view.lair_size)
    return app.tr("bond.ui.lair_cards", size=view.lair_size,
                  cards="+".join(str(v) for v in view.lair))


class PlayerCard(BoxLayout):
    def __init__(self, index: int, on_lair: Callable[[int], Any],
                 on_attack: Callable[[int], Any], on_correct: Callable[[int], Any],
                 on_capture: Callable[[], Any], **kwargs: Any) -> None:
        # tight (2 px above and below, no spacing): six cards, the headline, its line
        # and two lines of the last action fit 800x480
        super().__init__(orientation="vertical", padding=(dp(theme.SPACE_XS), dp(2)),
                         spacing=0, **kwargs)
        app = App.get_running_app()
        self.index = index
        with self.canvas.before:
            self._colour = Color(*theme.PANEL)
            self._rect = SmoothRoundedRectangle(radius=[10])
        self.bind(pos=self._redraw, size=self._redraw)
        tid = f"play.player.{index}"

        # three rows, so that two rows of cards leave room for the headline, its line
        # and the last action at 800x480: the name and the lair, the score (the card's
        # key figure) and what is still to go, the buttons
        top = follow_height(BoxLayout(spacing=dp(theme.SPACE_XS)), dp(24))
        self.name_label = Text(size=theme.SIZE_BODY, bold=True, tid=f"{tid}.name",
                               shorten=True)
        self.lair_label = one_line(theme.SIZE_BODY, f"{tid}.lair", bold=True)
        top.add_widget(self.name_label)
        top.add_widget(self.lair_label)
        middle = follow_height(BoxLayout(spacing=dp(theme.SPACE_XS)), dp(45))
        self.score_label = one_line(theme.SIZE_FIGURE, f"{tid}.score", bold=True,
                                    color=theme.ACCENT)
        self.to_go_label = Text(size=theme.SIZE_SMALL, color=theme.MUTED, halign="right",
                                tid=f"{tid}.to_go", shorten=True)
        middle.add_widget(self.score_label)
        middle.add_widget(self.to_go_label)

        self.actions = follow_height(BoxLayout(spacing=dp(4)), theme.touch())
        self.add_lair = Tap(app.tr("bond.ui.add_lair"), size=theme.SIZE_SMALL,
                            tid=f"{tid}.add_lair",
                            size_hint_x=0.38)
        self.add_lair.bind(on_release=lambda _b: on_lair(index))
        self.attack = Tap(app.tr("bond.ui.attack"), size=theme.SIZE_SMALL, tid=f"{tid}.attack",
                          background=theme.DANGER, size_hint_x=0.37)
        self.attack.bind(on_release=lambda _b: on_attack(index))
        self.correct = Tap("±", size=22, tid=f"{tid}.correct", size_hint_x=0.25)
        self.correct.bind(on_release=lambda _b: on_correct(index))
        # while the spy waits in this lair, one button reopens the capture flow
        self.capture = Tap(app.tr("bond.ui.holds_spy"), size=theme.SIZE_SMALL, bold=True,
                           tid=f"{tid}.capture", background=theme.SELECTED)
        self.capture.bind(on_release=lambda _b: on_capture())

        self.add_widget(top)
        self.add_widget(middle)
        self.add_widget(BoxLayout())
        self.add_widget(self.actions)

    def _redraw(self, *_: Any) -> None:
        self._rect.pos = self.pos
        self._rect.size = self.size

    def show(self, view: PlayerView, moves: Moves) -> None:
        app = App.get_running_app()
        self.name_label.text = display_name(view.name)
        self.score_label.text = app.tr("bond.ui.score", n=view.score)
        self.lair_label.text = lair_text(view)
        self.lair_label.color = theme.TEXT if view.has_lair else theme.MUTED
        self.to_go_label.text = app.tr("bond.ui.to_target", points=view.to_target)
        self._colour.rgba = WINNER if view.winner else HOLDER if view.holds_capture \
            else theme.PANEL
        # muted reads 4.5:1 on the panel only: on the holder's and the winner's fills
        self.to_go_label.color = theme.TEXT if view.winner or view.holds_capture \
            else theme.MUTED
        # the buttons are swapped only when the row changes: a swap lays the row out
        # and redraws its buttons, at every action, for nothing
        buttons = [self.capture] if view.holds_capture else [
            self.add_lair, self.attack, self.correct]
        if list(reversed(self.actions.children)) != buttons:
            self.actions.clear_widgets()
            for button in buttons:
                self.actions.add_widget(button)
        if view.holds_capture:
            return
        self.add_lair.disabled = not moves.add_lair
        self.attack.disabled = view.index not in moves.attack_targets
        self.correct.disabled = not moves.correct
