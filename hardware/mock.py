"""Stand-ins for the physical parts, for desktops, tests, benchmarks and the doctor.

- `ToneRecordingPin`: gpiozero's MockPWMPin that also keeps every frequency set, so
  the tunes can be checked note by note (the mock pin only keeps its duty history).
- `FakeRing`: a ring device on a pseudo-terminal, running the firmware's own parser
  (`hardware.firmware.ringproto.Device`). The app opens `fake.path`, a symlink like the
  ones udev makes in /dev/serial/by-id; `unplug()` and `plug()` pull and put back the
  cable (the pty behind the symlink changes, as a real device's node would).
"""

from __future__ import annotations

import os
import select
import threading
import time
import tty
from pathlib import Path
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPWMPin

from hardware.firmware import ringproto


class ToneRecordingPin(MockPWMPin):
    def __init__(self, factory: Any, info: Any) -> None:
        super().__init__(factory, info)
        self.frequencies: list[tuple[float, float | None]] = []  # (monotonic time, Hz)

    def _set_frequency(self, value: float | None) -> None:
        super()._set_frequency(value)
        self.frequencies.append((time.monotonic(), value))

    def tones(self) -> list[float]:
        """The frequencies set, in order (silences left out)."""
        return [f for _, f in self.frequencies if f is not None]


def recording_factory() -> MockFactory:
    return MockFactory(pin_class=ToneRecordingPin)


class FakeRing:
    def __init__(self, directory: str | Path, *, pixels: int = 24, firmware: str = "fake-1",
                 answer: bool = True, protocol: int = ringproto.PROTOCOL) -> None:
        self.path = Path(directory) / "ttyRING"
        self.pixels = pixels
        self.firmware = firmware
        self.answer = answer  # False: a silent device (reads, never replies)
        self.protocol = protocol
        self.device = ringproto.Device(pixels, firmware)
        self.history: list[dict[str, Any]] = []  # every state accepted, in order
        self.received = bytearray()
        self._lock = threading.Lock()
        self._master: int | None = None
        self._slave: int | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.plugged = False

    @property
    def state(self) -> dict[str, Any] | None:
        with self._lock:
            return self.device.state

    def plug(self, boot: bool = True) -> None:
        """Connect the cable: a fresh pty, a freshly booted device saying READY."""
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no line editing: a raw byte pipe like USB CDC
        self._master, self._slave = master, slave
        if self.path.is_symlink() or self.path.exists():
            self.path.unlink()
        self.path.symlink_to(os.ttyname(slave))
        self.device = ringproto.Device(self.pixels, self.firmware)
        self._stop.clear()
        self._thread = threading.Thread(target=self._serve, name="fake-ring", daemon=True)
        self._thread.start()
        self.plugged = True
        if boot and self.answer:
            self.write(self._ready())

    def _ready(self) -> bytes:
        return ringproto.seal(f"READY {self.protocol} {self.pixels} {self.firmware}").encode()

    def unplug(self) -> None:
        """Pull the cable: the host's next read or write fails."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=1.0)
        for fd in (self._master, self._slave):
            if fd is not None:
                os.close(fd)
        self._master = self._slave = None
        if self.path.is_symlink():
            self.path.unlink()
        self.plugged = False

    def write(self, data: bytes) -> None:
        """Bytes from the device to the host (replies, or garbage for tests)."""
        if self._master is not None:
            os.write(self._master, data)

    def _serve(self) -> None:
        master = self._master
        assert master is not None
        while not self._stop.is_set():
            ready, _, _ = select.select([master], [], [], 0.05)
            if not ready:
                continue
            try:
                data = os.read(master, 4096)
            except OSError:
                continue  # no host has the port open yet
            with self._lock:
                self.received += data
                before = self.device.frames
                replies = self.device.feed(data)
                if self.device.frames != before:
                    self.history.append(self.device.state)
            if not self.answer:
                continue
            for reply in replies:
                if reply.startswith("READY"):
                    reply = self._ready().decode()
                self.write(reply.encode())

    def wait_for(self, predicate: Any, timeout: float = 2.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if predicate(self.state):
                return True
            time.sleep(0.005)
        return predicate(self.state)

    def close(self) -> None:
        if self.plugged:
            self.unplug()
