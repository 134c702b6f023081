"""Full garbage collections wait for a quiet table (ui/memory.py)."""

from __future__ import annotations

from ui.memory import DUE, IDLE_SECONDS, OVERDUE, IdleCollector


class Table:
    """A fake clock and collector: `pending` young collections since the last full one."""

    def __init__(self) -> None:
        self.now = 100.0
        self.pending = 0
        self.collected = 0

    def collect(self) -> None:
        self.collected += 1
        self.pending = 0

    def collector(self) -> IdleCollector:
        return IdleCollector(clock=lambda: self.now, collect=self.collect,
                             pending=lambda: self.pending)


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


def test_nothing_due_means_no_collection_even_when_idle() -> None:
    table = Table()
    collector = table.collector()
    table.pending = DUE - 1
    table.now += 60
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
