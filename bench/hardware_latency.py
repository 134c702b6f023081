"""Latency of the physical outputs, on gpiozero's mock pins and a pseudo-terminal ring.

    python bench/hardware_latency.py [--events 500]

Prints, for real Pr. Evil updates from a seeded session:
- event to all GPIO outputs updated: from the session notifying its observers to the
  station's observer returning (clock and treasure LEDs are written synchronously);
- event to first buzzer note: the tune thread's reaction to a roll (the roll tune
  starting; measured by polling every 0.2 ms, so an upper bound);
- event to ring frame acknowledged: from `RingLink.send` to the ACK from a fake device
  on a pty running the firmware's parser (target p99 under 10 ms).
On a Pi the GPIO writes go through lgpio instead of the mock: run it there too.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import hardware
import hardware.tunes
from companion import config
from companion.games import rules_for
from companion.games.evil.commands import Roll, SkipPower
from companion.journal import Journal
from companion.session import Session
from hardware.clockview import view_of
from hardware.mock import FakeRing, recording_factory
from hardware.ring import RingLink


def summary(name: str, samples: list[float]) -> str:
    ms = sorted(s * 1000 for s in samples)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    return (f"{name:<40} n={len(ms):4d}  median {statistics.median(ms):7.3f} ms  "
            f"p99 {p99:7.3f} ms  max {ms[-1]:7.3f} ms")


def new_session(seed: int) -> Session:
    cfg = config.load(use_default_user_file=False)
    setup = {"params": cfg.get("games.evil"), "seed": seed,
             "players": [{"name": "A", "character": "Irene Elder"},
                         {"name": "B", "character": "Edward Wyre"}],
             "treasures": {"red": 45, "green": 30, "blue": 20}}
    return Session.start(rules_for("evil"), Journal(":memory:"), setup)


def step(session: Session) -> None:
    if session.state.pending_powers:
        session.dispatch(SkipPower())
    elif session.can_undo() and session.state.outcome is not None:
        session.undo()
    else:
        session.dispatch(Roll())


def gpio(events: int) -> tuple[list[float], list[float]]:
    cfg = config.load(use_default_user_file=False)
    section = {**cfg.get("hardware"), "ring": {**cfg.get("hardware.ring"), "enabled": False}}
    factory = recording_factory()
    station = hardware.setup(section, lambda fn: None, pin_factory=factory)
    buzzer_pin = factory.pin(section["buzzer"]["pin"])
    outputs, notes = [], []
    session = new_session(seed=7)
    started = [0.0]
    session.subscribe(lambda _u: started.__setitem__(0, time.perf_counter()))
    station.attach(session)
    session.subscribe(lambda _u: outputs.append(time.perf_counter() - started[0]))
    first = hardware.tunes.parse_tune(section["buzzer"]["tunes"]["roll"])[0][0].frequency
    for _ in range(events):
        before = len(buzzer_pin.frequencies)
        rolled = not session.state.pending_powers and session.state.outcome is None
        step(session)
        t0 = started[0]
        if not rolled:
            continue  # only a roll is sure to start a tune (the roll tune)

        def heard(since: int = before) -> bool:
            return any(f == first for _, f in buzzer_pin.frequencies[since:])

        deadline = time.monotonic() + 0.5
        while not heard() and time.monotonic() < deadline:
            time.sleep(0.0002)
        if heard():
            notes.append(time.perf_counter() - t0)
    station.close()
    return outputs, notes


def ring(events: int) -> list[float]:
    cfg = config.load(use_default_user_file=False)
    with tempfile.TemporaryDirectory() as directory:
        fake = FakeRing(directory)
        fake.plug()
        link = RingLink({**cfg.get("hardware.ring"), "port": str(fake.path)})
        acked = threading.Event()
        waiting = [-1]
        link.on_ack(lambda seq: acked.set() if seq == waiting[0] else None)
        session = new_session(seed=11)
        link.send(view_of(session.state))
        link.wait_acked(3.0)
        samples = []
        for _ in range(events):
            step(session)
            acked.clear()
            t0 = time.perf_counter()
            waiting[0] = link.send(view_of(session.state))
            if link.acked or acked.wait(1.0):
                samples.append(time.perf_counter() - t0)
        link.close()
        fake.close()
    return samples


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=500)
    args = parser.parse_args()
    outputs, notes = gpio(args.events)
    print(summary("event -> all GPIO outputs updated", outputs))
    print(summary("event -> first buzzer note", notes))
    print(summary("event -> ring frame acknowledged (pty)", ring(args.events)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
