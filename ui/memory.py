"""When Python's cyclic garbage collector runs.

Start-up allocates much and frees little, so it runs without the collector; once the
first frame is up, one collection runs and what start-up built is frozen out of later
ones (`settle_memory`).

During play, every Kivy widget and drawing instruction that is dropped (a closed
dialog, a redrawn dial) is a web of cycles that only a full collection frees, and one
walking tens of thousands of objects holds the screen for 30–100 ms (more on a Pi).
So after start the automatic full collections are off: `IdleCollector` runs one when
nobody has touched the table for a moment, at the cadence Python itself would use (ten
young collections), or anyway once three times as much is due, if play never pauses.
What such a collection leaves alive is frozen too, so the next one walks only what was
made since: a collection that lands in a busy stretch of play is short. Something
frozen that dies later in a cycle (a dialog open during a collection) is freed by a
thorough walk of everything, unfrozen, once the table has been quiet for half a
minute. So a roll replaces no drawing instructions (the dial moves its own, a die shows
a kept picture of each face) and nothing holds an ended game in a cycle: play that never
paused grew by ~36 MB every 100 rolls until they did. Young collections stay
automatic: they are short. While game-night work runs on its worker thread (history,
statistics, exports), no full collection runs: it would walk everything the work
holds, and hold every thread meanwhile.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any

IDLE_SECONDS = 2.0  # no touch for this long: nobody is waiting for the screen
DUE = 10  # young collections since the last full one: CPython's own threshold
# ... this many: collect even while the table is busy. It bounds memory, and the pause:
# a full collection costs about as much as the garbage it finds (3x the usual here)
OVERDUE = 30
FULL_OFF = 1 << 30  # a third threshold no count reaches
#: no touch for this long: a full walk of everything, start-up's objects included
THOROUGH_IDLE = 30.0


def settle_memory() -> None:
    """Once the first frame is up: collect start-up's garbage, freeze what lives on,
    and leave full collections to the `IdleCollector`."""
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_OFF)
    gc.enable()


class IdleCollector:
    """Runs the full collections that `settle_memory` took away from Python, when the
    table is idle. Call `activity()` on every touch and action; `tick()` every second."""

    def __init__(self, clock: Callable[[], float] = time.monotonic,
                 collect: Callable[[], Any] = gc.collect,
                 pending: Callable[[], int] = lambda: gc.get_count()[2],
                 hold: Callable[[], bool] = lambda: False,
                 freeze: Callable[[], Any] = gc.freeze,
                 unfreeze: Callable[[], Any] = gc.unfreeze) -> None:
        self.clock = clock
        self.collect = collect
        self.pending = pending
        self.freeze = freeze
        self.unfreeze = unfreeze
        #: true while long work runs beside the screen: what it keeps alive would make a
        #: full collection long, and it mostly frees itself (plain data, no cycles)
        self.hold = hold
        self.last_activity = clock()
        self.collections = 0
        self.thorough = 0
        # what start-up froze (`settle_memory`) lives as long as the app: an idle app
        # walks it only once something else has been frozen since
        self._frozen_since_thorough = False

    def activity(self, *_: Any) -> bool:
        self.last_activity = self.clock()
        return False  # a touch handler: the touch goes on to the screen

    def keep(self) -> None:
        """Long-lived objects were just built (a screen's pools): leave them out of the
        collections to come. Garbage frozen with them goes at the next thorough walk."""
        self.freeze()
        self._frozen_since_thorough = True

    def tick(self, *_: Any) -> None:
        if self.hold():
            return
        due = self.pending()
        quiet = self.clock() - self.last_activity
        if (due >= DUE and quiet >= IDLE_SECONDS) or due >= OVERDUE:
            self.collect()  # what was made since the last freeze
            self.freeze()
            self.collections += 1
            self._frozen_since_thorough = True
        elif self._frozen_since_thorough and quiet >= THOROUGH_IDLE:
            self.unfreeze()
            self.collect()  # everything: what died after being frozen goes now
            self.freeze()
            self.thorough += 1
            self._frozen_since_thorough = False
