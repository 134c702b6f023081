"""Software rendering's threads kept one per core.

Without a GPU (a desktop or a Pi without its GL driver, the test machines) Mesa's
llvmpipe draws: at each flush it wakes its rasterising threads ("llvmpipe-0",
"llvmpipe-1", ... one per core) and each takes tiles of the frame. Linux often wakes
them on the same core and keeps them there, one process in two on a 2-core machine:
the frame then takes as long as if one thread drew it all (the play screen: 2.0-2.8 ms
to rasterise against 1.3-1.4 ms). Thread N pinned to the Nth core the process may use
keeps them apart. A GPU's driver has no such threads: nothing is done.
"""

from __future__ import annotations

import os
from pathlib import Path

PREFIX = "llvmpipe-"  # Mesa names each rasterising thread so


def spread_renderer_threads(tasks: Path = Path("/proc/self/task")) -> int:
    """Pin each llvmpipe thread of this process to a core of its own (round robin over
    the cores the process may use); returns how many threads were pinned."""
    try:
        cores = sorted(os.sched_getaffinity(0))
        entries = list(tasks.iterdir())
    except (AttributeError, OSError):  # not Linux: no /proc, no affinity
        return 0
    if len(cores) < 2:
        return 0
    pinned = 0
    for task in entries:
        try:
            name = (task / "comm").read_text(encoding="utf-8").strip()
        except OSError:  # the thread ended meanwhile
            continue
        number = name.removeprefix(PREFIX)
        if number == name or not number.isdigit():
            continue
        try:
            os.sched_setaffinity(int(task.name), {cores[int(number) % len(cores)]})
        except (OSError, ValueError):
            continue
        pinned += 1
    return pinned
