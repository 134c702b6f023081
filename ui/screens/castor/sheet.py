"""A round's score sheet, entered or corrected by hand: per player the plan points, the
green and the yellow cards, with big -/+ steppers (the value opens a keypad). The
round's result (bonus, malus, medal) is previewed as the numbers change, once any is
filled in; OK sends the sheet, and the rules check it."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.games.castor import commands as c
from companion.games.castor.scoring import score_round
from companion.games.castor.state import Sheet
from ui import theme
from ui.names import display_name
from ui.screens.castor.common import MEDAL, SYMBOL_FONT, colour_cards, current_state
from ui.screens.castor.dialogs import keypad_dialog
from ui.widgets.basics import Tap, Text, follow_height
from ui.widgets.components import header as page_header

FIELDS = ("plan", "green", "yellow")
NAME_WIDTH = 0.15
RESULT_WIDTH = 0.13
FIELD_WIDTH = (1 - NAME_WIDTH - RESULT_WIDTH) / len(FIELDS)
GOLD = (0.93, 0.74, 0.22, 1)
#: the card counts are written in their card's colour (the header names it too)
FIELD_INK = {"green": theme.SUCCESS_TEXT, "yellow": theme.colour("yellow")}


class CastorSheetScreen(Screen):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.round = 1
        self.values: dict[str, list[int]] = {}
        self.value_taps: dict[tuple[str, int], Tap] = {}
        self.results: list[Text] = []
        self.box = BoxLayout(orientation="vertical", padding=dp(6), spacing=dp(4))
        self.add_widget(self.box)

    def open(self, round_number: int) -> None:
        """Fill the sheet: the round's sheet when editing, zeros otherwise. A round being
        tracked starts from zeros too: its piles are hidden until the round ends ("Tu
        peux consulter la pile des cartes que tu as gagnées, mais pas celle des autres
        joueurs"), so each player counts their own pile."""
        state = current_state()
        n = len(state.players)
        if round_number <= len(state.rounds):
            sheet = state.rounds[round_number - 1].sheet
        else:
            sheet = Sheet((0,) * n, (0,) * n, (0,) * n)
        self.round = round_number
        self.values = {field: list(getattr(sheet, field)) for field in FIELDS}
        self.build()

    @property
    def editing(self) -> bool:
        return self.round <= len(current_state().rounds)

    def build(self) -> None:
        app = App.get_running_app()
        state = current_state()
        p = state.params
        box = self.box
        box.clear_widgets()
        title = "castor.ui.sheet_edit_title" if self.editing else "castor.ui.sheet_title"
        # the shared header: Back leaves the sheet unsent (Cancel)
        box.add_widget(page_header(app.tr(title, round=self.round), "sheet", back=self.close,
                              back_text=app.tr("core.ui.cancel"), back_tid="sheet.cancel"))
        size = p.table_size(len(state.players))
        hint = app.tr("castor.ui.sheet_hint", bonus=size.bonus, malus=size.malus,
                      green=colour_cards(p.bonus_colour), yellow=colour_cards(p.malus_colour))
        if state.tracking is not None and not self.editing:
            hint += " " + app.tr("castor.ui.sheet_replaces_tricks")
        # as tall as its lines (three in French with the tracked round's note): never cut
        box.add_widget(Text(hint, size=theme.SIZE_SMALL, color=theme.MUTED, tid="sheet.hint",
                            fit=True))
        header = follow_height(BoxLayout(spacing=dp(4)), dp(26))
        header.add_widget(BoxLayout(size_hint_x=NAME_WIDTH))
        for field in FIELDS:
            header.add_widget(Text(app.tr(f"castor.sheet.{field}"), size=theme.SIZE_SMALL,
                                   halign="center",
                                   color=theme.MUTED, size_hint_x=FIELD_WIDTH))
        header.add_widget(Text(app.tr("castor.ui.round_result"), size=theme.SIZE_SMALL,
                               halign="center",
                               color=theme.MUTED, size_hint_x=RESULT_WIDTH))
        box.add_widget(header)
        self.value_taps = {}
        self.results = []
        for seat, player in enumerate(state.players):
            row = BoxLayout(spacing=dp(4))
            row.add_widget(Text(display_name(player.name), size=theme.SIZE_SMALL, bold=True,
                                size_hint_x=NAME_WIDTH,
                                tid=f"sheet.name.{seat}"))
            for field in FIELDS:
                cell = BoxLayout(spacing=dp(2), size_hint_x=FIELD_WIDTH)
                minus = Tap("−", size=26, tid=f"sheet.{field}.{seat}.minus")
                minus.bind(on_release=lambda _b, f=field, s=seat: self.step(f, s, -1))
                value = Tap(str(self.values[field][seat]), size=22, bold=True,
                            tid=f"sheet.{field}.{seat}", background=theme.PANEL,
                            color=FIELD_INK.get(field, theme.TEXT))
                value.bind(on_release=lambda _b, f=field, s=seat: self.keypad(f, s))
                plus = Tap("+", size=26, tid=f"sheet.{field}.{seat}.plus")
                plus.bind(on_release=lambda _b, f=field, s=seat: self.step(f, s, 1))
                for widget in (minus, value, plus):
                    cell.add_widget(widget)
                self.value_taps[(field, seat)] = value
                row.add_widget(cell)
            result = Text(size=theme.SIZE_BODY, halign="center", font_name=SYMBOL_FONT,
                          tid=f"sheet.result.{seat}", size_hint_x=RESULT_WIDTH)
            self.results.append(result)
            row.add_widget(result)
            box.add_widget(row)
        for _ in range(max(0, 5 - len(state.players))):
            box.add_widget(BoxLayout())
        bottom = follow_height(BoxLayout(spacing=dp(8)), theme.touch(56))
        bottom.add_widget(BoxLayout(size_hint_x=0.3))
        if self.editing and self.round == len(state.rounds) and state.tracking is None:
            delete = Tap(app.tr("castor.ui.delete_round", round=self.round), size=theme.SIZE_SMALL,
                         tid="sheet.delete", background=theme.DANGER, size_hint_x=0.3)
            delete.bind(on_release=lambda _b: self.delete())
            bottom.add_widget(delete)
        ok = Tap(app.tr("core.ui.ok"), tid="sheet.ok", size=24, background=theme.SUCCESS,
                 size_hint_x=0.4)
        ok.bind(on_release=lambda _b: self.submit())
        bottom.add_widget(ok)
        box.add_widget(bottom)
        self.show_values()

    # -- values -----------------------------------------------------------------------
    def show_values(self) -> None:
        """The numbers and the round's result as the rules will score it."""
        for (field, seat), tap in self.value_taps.items():
            tap.text = str(self.values[field][seat])
        sheet = Sheet(*(tuple(self.values[field]) for field in FIELDS))
        if not any(any(values) for values in self.values.values()):
            # nobody filled it in yet: every player tied at zero would preview a medal
            # and the bonus for everyone; there is nothing to preview
            for label in self.results:
                label.text = ""
            return
        score = score_round(current_state().params, sheet)
        for seat, label in enumerate(self.results):
            parts = []
            if score.bonus[seat]:
                parts.append(f"+{score.bonus[seat]}")
            if score.malus[seat]:
                parts.append(f"−{score.malus[seat]}")
            medal = seat in score.winners
            line = f"{MEDAL} {score.totals[seat]}" if medal else str(score.totals[seat])
            label.text = line + ("\n" + " ".join(parts) if parts else "")
            label.color = GOLD if medal else theme.TEXT

    def step(self, field: str, seat: int, direction: int) -> None:
        self.values[field][seat] = max(0, self.values[field][seat] + direction)
        self.show_values()

    def keypad(self, field: str, seat: int) -> None:
        app = App.get_running_app()
        name = current_state().players[seat].name

        def done(value: int) -> None:
            self.values[field][seat] = value
            self.show_values()

        keypad_dialog(app.tr("castor.ui.keypad_title", player=name,
                             what=app.tr(f"castor.sheet.{field}")),
                      self.values[field][seat], done)

    # -- leaving ----------------------------------------------------------------------
    def submit(self) -> None:
        app = App.get_running_app()
        command = c.EnterSheet(self.round, *(tuple(self.values[field]) for field in FIELDS))
        if app.send(command):  # refused: the error dialog shows, the sheet stays as typed
            self.close()

    def delete(self) -> None:
        app = App.get_running_app()
        if app.send(c.DeleteRound(self.round)):
            self.close()

    def close(self) -> None:
        app = App.get_running_app()
        if app.root.current == self.name:
            app.root.current = "castor_play"
