"""The LEDs, the buzzer and the ring follow a roll in the rulebook's order: nothing moves
on the clock while the roll waits for its replacement; the black die comes after."""

from __future__ import annotations

import pytest
from gpiozero import Device

import hardware
from companion import config
from companion.games import rules_for
from companion.games.evil import commands as c
from companion.games.evil.rules import RULES_VERSION
from companion.journal import Journal
from companion.session import Session
from hardware.clockview import view_of
from hardware.mock import recording_factory
from hardware.tunes import tune_names_for
from tests.test_hw_support import MainThread, section


@pytest.fixture
def factory():
    Device.pin_factory = recording_factory()
    yield Device.pin_factory
    Device.pin_factory.reset()


def session_v2() -> Session:
    setup = {"params": config.load(use_default_user_file=False).get("games.evil"), "seed": 1,
             "players": [{"name": "A", "character": "Irene Elder"},
                         {"name": "B", "character": "Edward Wyre"}],
             "treasures": {"red": 5, "green": 30, "blue": 20},
             "rules_version": RULES_VERSION}
    return Session.start(rules_for("evil"), Journal(":memory:"), setup)


def test_the_outputs_wait_with_the_roll_then_follow_the_black_die(factory):
    # "Mettez en place un nouveau trésor pour le remplacer" ... "Enfin, consultez le dé noir"
    station = hardware.setup(section(ring__enabled=False), MainThread(), pin_factory=factory)
    session = session_v2()
    station.attach(session)
    xii, one = factory.pin(4), factory.pin(17)
    red = factory.pin(25)
    assert red.state and xii.state
    session.dispatch(c.EnterRoll("time5", "red", "clock1"))
    assert session.state.pending_clock == "clock1"
    assert xii.state and not one.state  # the time marker has not moved yet
    assert not red.state  # the lost treasure's slot is empty until it is replaced
    assert view_of(session.state).time == 0
    session.dispatch(c.PlaceTreasure("red", 15))
    assert one.state and not xii.state and red.state
    session.undo()  # back to the waiting roll: the clock goes back too
    assert xii.state and not one.state and not red.state
    station.close()


def test_the_tunes_follow_the_order_of_the_events():
    play = section()["buzzer"]["play"]
    session = session_v2()
    rolled = session.dispatch(c.EnterRoll("time5", "red", "clock1"))
    assert tune_names_for(rolled, play) == [play["roll"], play["treasure_lost"]]
    placed = session.dispatch(c.PlaceTreasure("red", 5))  # taken by the same roll's black die
    assert tune_names_for(placed, play) == [play["treasure_lost"]]
