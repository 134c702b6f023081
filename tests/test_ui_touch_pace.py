"""The loop passes faster while a finger is on the glass (its release is read within a
few ms, not up to a frame later), and only then: with no touch down it is back at its
pace, so an idle table costs what it did."""

from __future__ import annotations

from typing import Any

from ui.touch_pace import FAST_FPS, TouchPace


class FakeClock:
    """What TouchPace uses of Kivy's clock: the pace, and one timer it can cancel."""

    def __init__(self, fps: float) -> None:
        self._max_fps = fps
        self.timers: list[list[Any]] = []

    def schedule_once(self, callback: Any, timeout: float) -> Any:
        timer = [callback, timeout, False]
        self.timers.append(timer)

        class Handle:
            def cancel(self) -> None:
                timer[2] = True

        return Handle()

    def fire(self) -> None:
        for callback, _timeout, cancelled in list(self.timers):
            if not cancelled:
                callback(0)


class Touch:
    def __init__(self, uid: int) -> None:
        self.uid = uid


def test_a_finger_down_hurries_the_loop_and_its_release_brings_the_pace_back() -> None:
    clock = FakeClock(60.0)
    pace = TouchPace(clock)
    pace.down(None, Touch(1))
    assert clock._max_fps == FAST_FPS and pace.quick
    pace.up(None, Touch(1))
    assert clock._max_fps == 60.0 and not pace.quick
    assert all(cancelled for *_rest, cancelled in clock.timers)  # no expiry left behind


def test_with_two_fingers_the_pace_comes_back_when_the_last_one_lifts() -> None:
    clock = FakeClock(60.0)
    pace = TouchPace(clock)
    pace.down(None, Touch(1))
    pace.down(None, Touch(2))
    pace.up(None, Touch(1))
    assert clock._max_fps == FAST_FPS
    pace.up(None, Touch(2))
    assert clock._max_fps == 60.0


def test_a_touch_whose_release_never_comes_stops_hurrying_the_loop_after_the_limit() -> None:
    clock = FakeClock(60.0)
    pace = TouchPace(clock, limit=10.0)
    pace.down(None, Touch(1))
    assert clock.timers[0][1] == 10.0
    clock.fire()  # ten seconds later, no release seen (another handler took it)
    assert clock._max_fps == 60.0 and not pace.quick
    pace.down(None, Touch(2))  # the next tap hurries it again
    assert clock._max_fps == FAST_FPS


def test_an_unpaced_loop_and_a_release_without_its_touch_change_nothing() -> None:
    unpaced = FakeClock(0.0)  # maxfps 0: the loop never sleeps (benchmarks)
    TouchPace(unpaced).down(None, Touch(1))
    assert unpaced._max_fps == 0.0 and unpaced.timers == []
    clock = FakeClock(60.0)
    TouchPace(clock).up(None, Touch(9))  # a touch that began before the app listened
    assert clock._max_fps == 60.0


def test_the_real_app_hurries_its_loop_only_while_a_finger_rests_on_a_button(launch) -> None:
    from kivy.clock import Clock
    from kivy.tests.common import UnitTestTouch

    ui = launch()
    ui.wait_until(lambda: ui.app.touch_pace is not None)
    pace = Clock._max_fps
    assert 0 < pace < FAST_FPS
    button = ui.find("home.game.evil")
    touch = UnitTestTouch(*button.to_window(*button.center))
    touch.touch_down()
    ui.pump(1)
    assert Clock._max_fps == FAST_FPS
    assert ui.screen == "home"  # nothing done yet: a tap acts on its release
    touch.touch_up()
    ui.pump(1)
    assert Clock._max_fps == pace
    ui.wait_until(lambda: ui.screen == "evil_setup")  # the tap did what it always did


def test_a_stopped_app_no_longer_hurries_the_loop(launch) -> None:
    from kivy.clock import Clock
    from kivy.tests.common import UnitTestTouch

    ui = launch()
    ui.wait_until(lambda: ui.app.touch_pace is not None)
    pace = Clock._max_fps
    ui.app.stop_touch_pace()
    assert ui.app.touch_pace is None
    button = ui.find("home.game.evil")
    touch = UnitTestTouch(*button.to_window(*button.center))
    touch.touch_down()
    ui.pump(1)
    assert Clock._max_fps == pace
    touch.touch_up()
    ui.pump(1)
    assert Clock._max_fps == pace
