"""What a roll triggers allocates no widget: the power and placement dialogs are built
once per shape (their buttons), while the table plays, and opened again; the end screen
is built once, the same way."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest

from companion.games.evil import commands as c
from companion.messages import RuleError
from tests.test_ui_evil import new_game

pytestmark = pytest.mark.ui


def test_rolls_and_the_dialogs_they_open_allocate_no_widget(launch: Any,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    from kivy.uix.widget import Widget

    created: list[str] = []
    original = Widget.__init__

    def counting(self: Any, **kwargs: Any) -> None:
        created.append(type(self).__name__)
        original(self, **kwargs)

    ui = launch(seed=3)
    new_game(ui, minutes=55)  # far from the clock: a long game with many dialogs
    ui.wait(1.0)  # the end screen is built meanwhile, while nobody waits for it
    assert ui.app.root.built("evil_end") is not None
    monkeypatch.setattr(Widget, "__init__", counting)
    seen: dict[Any, Any] = {}  # dialog shape -> the dialog object opened for it
    reopened = 0
    ends = 0
    for _ in range(80):
        if ui.app.session.state.outcome is not None:
            assert ui.screen == "evil_end"  # shown by that roll, without a widget made
            ends += 1
            ui.app.undo()  # and the table plays on: the clock pushed back by hand
            for _ in range(4):
                with contextlib.suppress(RuleError):  # not before XII
                    ui.app.session.dispatch(c.MoveTime(-1))
            ui.pump(2)
        before = len(created)
        ui.tap("play.roll")
        ui.pump(2)
        if ui.app.dialog is None:
            assert created[before:] == [], "a roll made widgets"
        while ui.app.dialog is not None:  # the roll's questions, one after the other
            dialog = ui.app.dialog
            state = ui.app.session.state
            shape = (dialog.tid, tuple(p.character for p in state.players
                                       if p.character not in state.powers_up),
                     state.empty_colours[:1])
            # built while the table played (a few seconds in), so never by a roll
            assert created[before:] == [], f"{dialog.tid} made {created[before:]}"
            if shape in seen:  # opened before: the same dialog again
                assert seen[shape] is dialog
                reopened += 1
            seen[shape] = dialog
            before = len(created)
            if dialog.tid == "power":
                ui.tap("power.skip")
            else:
                assert dialog.tid == "place"
                assert ui.text("place.subtitle")  # what this roll asks of the table
                ui.tap("place.55")
            ui.pump(2)
    assert reopened >= 5 and ends >= 1
