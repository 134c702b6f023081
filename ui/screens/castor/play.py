"""Castor's play screen: the scoreboard (players x rounds, totals, medals), who leads
the next round, and the ways on: the score sheet, the trick tracker, edits, undo/redo.

The app tells this screen about every committed action; it redraws, refreshes the
trick tracker, and moves between the scoreboard, the tracker and the victory screen.
"""

from __future__ import annotations

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from companion.games.castor import events as e
from companion.games.castor import scoreboard
from companion.games.castor.instructions import instructions
from companion.games.castor.state import CastorState
from companion.games.castor.view import RoundColumn, Scoreboard
from companion.session import Session, Update
from ui import theme
from ui.dialogs import confirm_loss
from ui.screens.castor.board import Board, medals_text
from ui.screens.castor.dialogs import check_dialog, revealed_dialog
from ui.screens.play_base import PlayScreen
from ui.widgets.basics import Tap, Text, follow_height

__all__ = ["CastorPlayScreen", "medals_text", "said"]


def said(update: Update | None) -> str:
    """What the table should hear after an action (or what was undone)."""
    app = App.get_running_app()
    if update is None:
        return ""
    if update.verb == "undo":
        return app.tr("core.ui.undo_what",
                      what=app.tr(f"castor.ui.command.{type(update.command).__name__}"))
    return " ".join(app.say(m) for m in instructions(update.events))


class CastorPlayScreen(PlayScreen):
    # -- layout -----------------------------------------------------------------------
    def _build(self) -> None:
        root = BoxLayout(orientation="vertical", padding=dp(theme.SPACE_S),
                         spacing=dp(theme.SPACE_XS))
        self.goal = Text(size=theme.SIZE_SMALL, color=theme.MUTED, tid="play.goal",
                         halign="right", size_hint_x=0.3)
        top, self.status = self.game_header("play.status", extra=[self.goal])
        self.board = BoxLayout(orientation="vertical", spacing=dp(3))
        self.board_rows = Board(self.board, self.open_sheet)
        # the last action, as body text (not a key figure): it wraps, never cut, and at
        # 38 px its two lines would take the rows of a five-player board
        self.say_label = Text(size=theme.SIZE_BODY, tid="play.say", fit=True,
                              color=theme.MUTED)
        bar = follow_height(BoxLayout(spacing=dp(theme.SPACE_S)), theme.touch(52))
        self.sheet_button = Tap(tid="play.sheet", size=theme.SIZE_SMALL,
                                background=theme.SUCCESS, size_hint_x=1.4)
        self.sheet_button.bind(on_release=lambda _b: self.open_sheet(None))
        self.tricks_button = Tap(tid="play.tricks", size=theme.SIZE_SMALL,
                                 background=theme.SUCCESS, size_hint_x=1.4)
        self.tricks_button.bind(on_release=lambda _b: self.open_tricks())
        undo, redo, _home = self.history_buttons()
        for widget in (self.sheet_button, self.tricks_button, undo, redo):
            bar.add_widget(widget)
        for widget in (top, self.board, self.say_label, bar):
            root.add_widget(widget)
        self.add_widget(root)

    # -- session ----------------------------------------------------------------------
    @property
    def state(self) -> CastorState:
        return super().state  # type: ignore[no-any-return]

    def open_session(self, session: Session) -> None:
        super().open_session(session)
        self._opening = True  # the first update shows the screen the game was on


    def after_update(self, update: Update | None) -> None:
        """Redraw from the committed state, show the screen the game calls for, then the
        "check your cards" note if the action recorded a card the settings did not expect
        and, when a tracked round ends, its piles revealed (only as it is done: undo and
        redo say nothing new)."""
        if update is None and getattr(self, "_opening", False):
            self._opening = False
            if self.state.tracking is not None:
                # a round tracked trick by trick (a power cut, a game resumed): back
                # on the trick being tracked, as the table left it
                self.refresh(scoreboard(self.state))
                self.open_tricks()
                return
        self._show_screen(update)
        if update is not None and getattr(self, "_tricks_after_undo", False):
            self._tricks_after_undo = False
            if update.verb == "undo" and self.state.tracking is not None:
                self.open_tricks()
        if update is None or update.verb != "do":
            return
        # a tracked round just ended: its piles may be seen now ("la pile des cartes que
        # tu as gagnées" is hidden from the others only during the round)
        ended = [ev.round for ev in update.events
                 if isinstance(ev, e.SheetEntered) and ev.source == "tricks"]
        state = self.state

        def reveal() -> None:
            if ended:
                # its Undo takes the last trick back, to the tracker
                revealed_dialog(state, ended[0], undo=self._undo_to_tricks)

        if check_dialog(update.events, then=reveal,
                        command=type(update.command).__name__) is None:
            reveal()

    def _show_screen(self, update: Update | None) -> None:
        app = App.get_running_app()
        board = scoreboard(self.state)
        self.refresh(board, update)
        manager = app.root
        tricks = manager.get_screen("castor_tricks")
        won_now = board.finished and (update is None or (
            update.verb != "undo" and any(isinstance(ev, e.GameWon) for ev in update.events)))
        if won_now:
            app.close_dialog()
            manager.get_screen("castor_end").show(self.state)
            manager.current = "castor_end"
            return
        if manager.current == "castor_end":
            if board.finished:
                manager.get_screen("castor_end").show(self.state)
            else:
                manager.current = self.name
        elif manager.current == "castor_tricks":
            ended = update is not None and update.verb != "undo" and any(
                isinstance(ev, e.TrackingCancelled)
                or (isinstance(ev, e.SheetEntered) and ev.source == "tricks")
                for ev in update.events)
            if ended or board.finished:
                app.close_dialog()
                manager.current = self.name
            else:
                tricks.refresh(update)

    def refresh(self, board: Scoreboard, update: Update | None = None) -> None:
        app = App.get_running_app()
        assert self.session is not None
        tracking = self.state.tracking
        if board.finished:
            key = "castor.ui.status_won" if len(board.winners) == 1 else \
                "castor.ui.status_shared"
            self.status.text = app.tr(key, players=", ".join(board.winners))
        elif tracking is not None:
            self.status.text = app.tr("castor.ui.status_tracking", round=tracking.number,
                                      trick=len(tracking.done) + 1,
                                      tricks=self.state.params.tricks_per_round)
        elif len(board.next_leaders) > 1:
            self.status.text = app.tr("castor.ui.status_tie", round=board.next_round,
                                      player=board.next_leader,
                                      players=", ".join(board.next_leaders))
        else:
            self.status.text = app.tr("castor.ui.status_next", round=board.next_round,
                                      player=board.next_leader)
        self.goal.text = app.tr("castor.ui.goal", n=board.medals_to_win)
        self._draw_board(board)
        hint = "castor.ui.board_hint" if board.rounds else "castor.ui.start_hint"
        self.say_label.text = said(update) or app.tr(hint)
        number = board.next_round or len(board.rounds) + 1
        self.sheet_button.text = app.tr("castor.ui.enter_sheet", round=number)
        self.sheet_button.disabled = board.finished
        # while a round is tracked, going on with its tricks is the way on; its sheet
        # (which would replace them) is a secondary way
        self.sheet_button.set_background(theme.BUTTON if tracking else theme.SUCCESS)
        self.tricks_button.text = app.tr("castor.ui.continue_tricks") if tracking \
            else app.tr("castor.ui.track_tricks")
        self.tricks_button.disabled = board.finished
        self.refresh_history_buttons()

    def _draw_board(self, board: Scoreboard) -> None:
        self.board_rows.show(board, self._round_title)

    def _round_title(self, column: RoundColumn) -> str:
        app = App.get_running_app()
        title = app.tr("castor.ui.round_short", round=column.number)
        if not column.counts:
            return f"{title}\n{app.tr('castor.ui.after_end')}"
        if column.source != "sheet":
            return f"{title}\n{app.tr(f'castor.ui.source.{column.source}')}"
        return title

    # -- ways on ----------------------------------------------------------------------
    def open_sheet(self, round_number: int | None) -> None:
        app = App.get_running_app()
        board = scoreboard(self.state)
        number = round_number or board.next_round
        if number is None:
            return
        tracking = self.state.tracking
        if tracking is not None and number == tracking.number:
            # the sheet would replace the tricks tracked so far: ask first (Cancel is
            # the default, the hardware OK keeps them)
            done = len(tracking.done)
            confirm_loss(app.tr("castor.ui.sheet_confirm_title", round=number),
                         app.tr("castor.ui.sheet_confirm_text", round=number, n=done),
                         app.tr("castor.ui.sheet_confirm_yes"),
                         lambda: self._show_sheet(number), tid="sheet_confirm")
            return
        self._show_sheet(number)

    def _show_sheet(self, number: int) -> None:
        app = App.get_running_app()
        sheet = app.root.get_screen("castor_sheet")
        sheet.open(number)
        app.root.current = "castor_sheet"

    def _undo_to_tricks(self) -> None:
        """The reveal's Undo: the undo that follows (once the action before it is
        saved) takes the last trick back and shows the tracker on it."""
        self._tricks_after_undo = True

    def open_tricks(self) -> None:
        app = App.get_running_app()
        tricks = app.root.get_screen("castor_tricks")
        tricks.colour = None
        tricks.last_said = ""
        tricks.refresh(None)
        app.root.current = "castor_tricks"
