"""Full garbage collections wait for a quiet table (ui/memory.py)."""

from __future__ import annotations

from ui.memory import DUE, IDLE_SECONDS, OVERDUE, THOROUGH_IDLE, IdleCollector


class Table:
    """A fake clock and collector: `pending` young collections since the last full one."""

    def __init__(self) -> None:
        self.now = 100.0
        self.pending = 0
        self.collected = 0
        self.calls: list[str] = []

    def collect(self) -> None:
        self.collected += 1
        self.pending = 0
        self.calls.append("collect")

    def collector(self) -> IdleCollector:
        return IdleCollector(clock=lambda: self.now, collect=self.collect,
                             pending=lambda: self.pending,
                             freeze=lambda: self.calls.append("freeze"),
                             unfreeze=lambda: self.calls.append("unfreeze"))


def test_a_due_collection_waits_until_nobody_has_touched_for_a_while() -> None:
    table = Table()
    collector = table.collector()
    table.pending = DUE
    for _ in range(5):  # a touch every second: the table is busy
        table.now += 1.0
        collector.activity()
        collector.tick()
    assert table.collected == 0
    table.now += IDLE_SECONDS
    collector.tick()
    assert table.collected == 1 and collector.collections == 1
    table.now += 10
    collector.tick()  # nothing new to collect: no second collection while idle
    assert table.collected == 1
    # what it left alive is frozen: the next collection walks only what is newer
    assert table.calls == ["collect", "freeze"]


def test_nothing_due_means_no_collection_even_when_idle() -> None:
    table = Table()
    collector = table.collector()
    table.pending = DUE - 1
    table.now += THOROUGH_IDLE - 1
    collector.tick()
    assert table.collected == 0


def test_a_table_that_never_pauses_still_gets_its_memory_back() -> None:
    table = Table()
    collector = table.collector()
    table.pending = OVERDUE
    collector.activity()
    collector.tick()
    assert table.collected == 1


def test_a_touch_handler_lets_the_touch_through() -> None:
    assert IdleCollector().activity(object(), object()) is False


def test_a_busy_stretch_walks_only_what_is_new_and_a_long_quiet_walks_everything() -> None:
    table = Table()
    collector = table.collector()
    for _ in range(3):  # play that never pauses: each collection freezes its survivors
        table.pending = OVERDUE
        table.now += 1.0
        collector.activity()
        collector.tick()
    assert table.calls == ["collect", "freeze"] * 3 and collector.thorough == 0
    table.calls.clear()
    table.now += THOROUGH_IDLE - 1
    collector.tick()
    assert table.calls == []  # quiet, but not for long enough
    table.now += 1
    collector.tick()  # everything unfrozen and walked once: a dialog frozen open is freed
    assert table.calls == ["unfreeze", "collect", "freeze"] and collector.thorough == 1
    table.now += 600
    collector.tick()  # nothing frozen since: no second walk
    assert table.calls == ["unfreeze", "collect", "freeze"]


def test_what_a_screen_builds_to_keep_is_frozen_at_once_and_walked_when_quiet() -> None:
    table = Table()
    collector = table.collector()
    table.now += THOROUGH_IDLE
    collector.tick()  # an app left idle after start walks nothing
    assert table.calls == []
    collector.keep()  # a play screen's pools, built half a second into a game
    assert table.calls == ["freeze"]
    table.now += THOROUGH_IDLE
    collector.tick()
    assert table.calls == ["freeze", "unfreeze", "collect", "freeze"]
    assert collector.thorough == 1
