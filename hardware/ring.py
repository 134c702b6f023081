"""The serial LED ring: whole-state frames to a Pico over USB, acknowledged, resent.

`RingLink.send(view)` only records the latest clock and wakes the link's worker thread,
so the UI never waits on the port. The worker opens the pyserial URL, waits for the
device's READY (opening resets some boards; HELLO is repeated meanwhile), sends the
current frame, waits for its ACK (resending on NAK or timeout), and resends the whole
state after any reconnect or device reboot. A reader thread per connection parses what
comes back; garbage is counted and ignored. A pulled cable shows up as a read or write
error (or silence): the port is closed and reopened every `retry_interval` seconds.
With `loop://` the frames come straight back: the echoed frame, decoded by the
firmware's own parser, counts as the acknowledgement.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.i18n import Translator
from companion.messages import Message, msg
from hardware.clockview import IDLE, ClockView
from hardware.firmware import ringproto

log = logging.getLogger(__name__)
HELLO_INTERVAL = 0.5  # seconds between HELLOs while waiting for READY
READ_TIMEOUT = 0.1  # the reader's poll of the port; only bounds how fast it stops
PRESS_GAP = 0.25  # s: one seat's reports closer than this are one press (a flood)

# statuses, for the panel and the doctor
DISABLED, CONNECTING, CONNECTED, LOOPBACK, DISCONNECTED, SILENT, INCOMPATIBLE = (
    "disabled", "connecting", "connected", "loopback", "disconnected", "silent",
    "incompatible")


def frame_of(seq: int, view: ClockView) -> str:
    return ringproto.encode_state(seq, view.dial, view.time, view.mode, view.pending,
                                  list(view.treasures))


# what a line from the device starts with: where a real line may begin after a half one
_STARTS = (b"READY ", b"ACK ", b"NAK ", b"PRESS ", b"STATE ", b"HELLO ")


def _unseal_tail(raw: bytes) -> str | None:
    """The body of the sealed line that ends a damaged one: a half line the device never
    finished (a reset, a glitch) runs into the next, which still counts. Only a known
    start is tried, so the checksum is not given 200 chances to pass."""
    starts = [raw.rfind(start) for start in _STARTS]
    for at in sorted((i for i in starts if i > 0), reverse=True):
        body = ringproto.unseal(raw[at:])
        if body is not None:
            return body
    return None


class _Dead(Exception):
    """This connection is over; `message` says why."""

    def __init__(self, message: Message, status: str = DISCONNECTED) -> None:
        super().__init__(message.key)
        self.message = message
        self.status = status


@dataclass
class _Connection:
    port: Any
    alive: bool = True
    broken: BaseException | None = None
    ready: tuple[int, int, str] | None = None
    readies: int = 0  # READY lines seen: a new one while connected means a device reboot
    loopback: bool = False
    nak: bool = False
    hello: bytes = b""
    garbage_said: bool = False  # the journal hears of a noisy device once per connection
    reader: threading.Thread | None = field(default=None, repr=False)


class RingLink:
    def __init__(self, section: Mapping[str, Any],
                 on_change: Callable[[], None] | None = None,
                 opener: Callable[..., Any] | None = None,
                 on_press: Callable[[int], None] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """`on_press(seat)`: a seat button's report (on the reader's thread); a seat's
        reports closer than `PRESS_GAP` on `clock` are one press (a flooding device is
        counted in `stats["presses_dropped"]`, never handed on)."""
        self._on_press = on_press
        self._press_clock = clock
        self._last_press: dict[int, float] = {}
        self.url = str(section["port"])
        self.baudrate = int(section["baudrate"])
        self.ready_timeout = float(section["ready_timeout"])
        self.ack_timeout = float(section["ack_timeout"])
        self.retries = int(section["retries"])
        self.retry_interval = float(section["retry_interval"])
        self.retry_max = max(float(section["retry_max"]), self.retry_interval)
        self.write_timeout = float(section["write_timeout"])
        self.keepalive = float(section["keepalive"])
        self._opener = opener
        self._on_change = on_change
        self._cond = threading.Condition()
        self._closed = False
        self._view = IDLE
        self._seq = 0
        self._line = frame_of(0, IDLE)
        self._acked = -1
        self.status = CONNECTING
        self.problem: Message | None = None
        self._logged: Message | None = None
        self.handshake: dict[str, Any] | None = None
        self.last_frame: str | None = None  # the last frame written, without its newline
        self.acked_at: float | None = None  # time.monotonic() of the last ACK
        self.stats = {"frames": 0, "acks": 0, "naks": 0, "garbage": 0, "connects": 0,
                      "presses": 0, "presses_dropped": 0}
        self._ack_listeners: list[Callable[[int], None]] = []
        self._thread = threading.Thread(target=self._run, name="hw-ring", daemon=True)
        self._thread.start()

    # -- the app's side ------------------------------------------------------------------
    def send(self, view: ClockView) -> int:
        """Show this clock on the ring (latest wins). Returns the frame's seq."""
        with self._cond:
            if view != self._view or self._seq == 0:
                self._view = view
                self._seq += 1
                self._line = frame_of(self._seq, view)
                self._cond.notify_all()
            return self._seq

    @property
    def view(self) -> ClockView:
        return self._view

    @property
    def acked(self) -> bool:
        """The device shows the latest state."""
        return self._acked == self._seq

    def on_ack(self, listener: Callable[[int], None]) -> None:
        """Call `listener(seq)` (on the link's thread) for every ACK: for benchmarks."""
        self._ack_listeners.append(listener)

    def wait_acked(self, timeout: float) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: self._acked == self._seq, timeout)

    def snapshot(self) -> dict[str, Any]:
        with self._cond:
            return {"port": self.url, "status": self.status, "problem": self.problem,
                    "handshake": dict(self.handshake) if self.handshake else None,
                    "last_frame": self.last_frame, "acked": self._acked == self._seq,
                    "stats": dict(self.stats)}

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        self._thread.join(timeout=2.0)

    # -- the worker ----------------------------------------------------------------------
    def _set_status(self, status: str, problem: Message | None = None) -> None:
        changed = False
        with self._cond:
            if (self.status, self.problem) != (status, problem):
                self.status, self.problem, changed = status, problem, True
        if changed:
            if problem is not None and problem != self._logged and not self._closed:
                # the journal is read by whoever maintains the Pi: plain English
                log.info("LED ring %s: %s: %s", self.url, status,
                         Translator("en").message(problem))
                self._logged = problem  # a missing device retried forever is said once
            self._changed()

    def _changed(self) -> None:
        if self._on_change is not None:
            try:
                self._on_change()
            except Exception:  # a listener's bug must not kill the link
                log.exception("ring listener failed")

    def _open(self) -> Any:
        opener = self._opener
        if opener is None:
            import serial

            opener = serial.serial_for_url
        return opener(self.url, baudrate=self.baudrate, timeout=READ_TIMEOUT,
                      write_timeout=self.write_timeout)

    def _run(self) -> None:
        missing = 0  # failed opens in a row: the wait doubles up to retry_max
        while True:
            with self._cond:
                if self._closed:
                    return
            try:
                port = self._open()
            except Exception as exc:  # no device, wrong URL, permissions: retry later
                self._set_status(DISCONNECTED, msg("hardware.ring.open_failed", port=self.url,
                                                   reason=str(exc)))
                self._pause(min(self.retry_interval * 2 ** min(missing, 16), self.retry_max))
                missing += 1
                continue
            missing = 0
            self._set_status(CONNECTING, None)
            conn = _Connection(port)
            conn.reader = threading.Thread(target=self._read, args=(conn,), name="hw-ring-read",
                                           daemon=True)
            conn.reader.start()
            pause = self.retry_interval
            try:
                self._serve(conn)
            except _Dead as dead:
                self._set_status(dead.status, dead.message)
                if dead.status == INCOMPATIBLE:
                    pause = max(pause, 5.0)
            except Exception as exc:  # a write failed: the cable was pulled
                self._set_status(DISCONNECTED, msg("hardware.ring.lost", port=self.url,
                                                   reason=str(exc) or type(exc).__name__))
            finally:
                self._drop(conn)
            self._pause(pause)

    def _pause(self, seconds: float) -> None:
        with self._cond:
            self._cond.wait_for(lambda: self._closed, seconds)

    def _drop(self, conn: _Connection) -> None:
        conn.alive = False
        cancel = getattr(conn.port, "cancel_read", None)
        if cancel is not None:
            with contextlib.suppress(Exception):
                cancel()
        if conn.reader is not None:
            conn.reader.join(timeout=READ_TIMEOUT * 5)
        with contextlib.suppress(Exception):
            conn.port.close()

    def _write(self, conn: _Connection, line: str) -> None:
        conn.port.write(line.encode("ascii"))
        conn.port.flush()

    def _serve(self, conn: _Connection) -> None:
        conn.hello = ringproto.seal(f"HELLO {ringproto.PROTOCOL}").encode()
        deadline = time.monotonic() + self.ready_timeout
        while True:  # the handshake
            with self._cond:
                self._check(conn)
                if conn.ready or conn.loopback:
                    break
                now = time.monotonic()
                if now >= deadline:
                    raise _Dead(msg("hardware.ring.no_ready", port=self.url,
                                    seconds=self.ready_timeout), SILENT)
            self._write(conn, conn.hello.decode())
            with self._cond:
                self._cond.wait_for(lambda: bool(conn.ready or conn.loopback or conn.broken
                                                 or self._closed),
                                    min(HELLO_INTERVAL, max(deadline - time.monotonic(), 0)))
        with self._cond:
            if conn.ready and conn.ready[0] != ringproto.PROTOCOL:
                raise _Dead(msg("hardware.ring.incompatible", port=self.url,
                                theirs=conn.ready[0], ours=ringproto.PROTOCOL), INCOMPATIBLE)
            if conn.loopback:
                self.handshake = {"loopback": True}
            else:
                assert conn.ready is not None
                self.handshake = {"protocol": conn.ready[0], "pixels": conn.ready[1],
                                  "firmware": conn.ready[2]}
            self.stats["connects"] += 1
            self._acked = -1  # a new connection gets the whole state again
            readies = conn.readies
        self._set_status(LOOPBACK if conn.loopback else CONNECTED, None)
        inflight: tuple[int, float] | None = None  # (seq, ACK deadline)
        unanswered = 0
        last_io = time.monotonic()
        while True:
            with self._cond:
                self._check(conn)
                now = time.monotonic()
                if conn.readies != readies:  # the device rebooted: it lost the state
                    readies, self._acked, inflight = conn.readies, -1, None
                if self._acked == self._seq:
                    inflight, unanswered = None, 0
                    if now - last_io >= self.keepalive:
                        self._acked = -1  # prove the device is still there
                line = None
                if self._acked != self._seq:
                    if inflight is not None and inflight[0] == self._seq and not conn.nak:
                        if now >= inflight[1]:
                            unanswered += 1
                            if unanswered >= self.retries:
                                raise _Dead(msg("hardware.ring.silent", port=self.url,
                                                count=unanswered), SILENT)
                            line = self._line
                    else:
                        line = self._line
                if line is None:
                    wake = last_io + self.keepalive
                    if inflight is not None:
                        wake = min(wake, inflight[1])
                    self._cond.wait(max(wake - now, 0.001))
                    continue
                conn.nak = False
                inflight = (self._seq, now + self.ack_timeout)
                self.last_frame = line.rstrip("\n")
                self.stats["frames"] += 1
            self._write(conn, line)
            last_io = time.monotonic()

    def _check(self, conn: _Connection) -> None:
        if self._closed:
            raise _Dead(msg("hardware.ring.closed"), DISCONNECTED)
        if conn.broken is not None:
            raise _Dead(msg("hardware.ring.lost", port=self.url,
                            reason=str(conn.broken) or type(conn.broken).__name__))

    # -- the reader ----------------------------------------------------------------------
    def _read(self, conn: _Connection) -> None:
        lines = ringproto.LineBuffer()
        while conn.alive:
            try:
                data = conn.port.read(max(1, conn.port.in_waiting))
            except Exception as exc:
                with self._cond:
                    if conn.alive:
                        conn.broken = exc
                        self._cond.notify_all()
                return
            for line in lines.feed(data):
                self._on_line(conn, line)

    def _on_line(self, conn: _Connection, raw: bytes) -> None:
        with self._cond:
            garbage = self.stats["garbage"]
        self._handle(conn, raw)
        with self._cond:
            say = self.stats["garbage"] != garbage and not conn.garbage_said
            conn.garbage_said = conn.garbage_said or say
        if say:
            log.info("LED ring %s: ignoring what is not a line of protocol %d (%r); "
                     "later ones are only counted", self.url, ringproto.PROTOCOL, raw[:40])

    def _handle(self, conn: _Connection, raw: bytes) -> None:
        acked = None
        pressed = None
        with self._cond:
            body = ringproto.unseal(raw)
            if body is None:
                self.stats["garbage"] += 1  # the whole line, or the half line before a real one
                body = _unseal_tail(raw)
                if body is None:
                    return
            if raw + b"\n" == conn.hello:
                conn.loopback = True  # our own HELLO came back: loop:// or a wired loop
            elif body.startswith("READY"):
                try:
                    conn.ready = ringproto.parse_ready(body)
                    conn.readies += 1
                except ValueError:
                    self.stats["garbage"] += 1
            elif body.startswith("ACK "):
                try:
                    seq = int(body[4:])
                except ValueError:
                    self.stats["garbage"] += 1
                    return
                acked = self._ack(seq)
            elif body.startswith("NAK"):
                self.stats["naks"] += 1
                conn.nak = True
            elif body.startswith("PRESS "):
                pressed = self._press(body)
            elif conn.loopback and body.startswith("STATE"):
                try:
                    acked = self._ack(ringproto.parse_state(body)["seq"])
                except ValueError:
                    self.stats["garbage"] += 1
            else:
                self.stats["garbage"] += 1
            self._cond.notify_all()
        if pressed is not None and self._on_press is not None:
            try:
                self._on_press(pressed)
            except Exception:  # a listener's bug must not kill the reader
                log.exception("seat press listener failed")
        if acked is not None:
            for listener in self._ack_listeners:
                listener(acked)
            self._changed()

    def _press(self, body: str) -> int | None:
        try:
            seat = ringproto.parse_press(body)
        except ValueError:
            self.stats["garbage"] += 1
            return None
        now = self._press_clock()
        if now - self._last_press.get(seat, float("-inf")) < PRESS_GAP:
            self.stats["presses_dropped"] += 1
            return None
        self._last_press[seat] = now
        self.stats["presses"] += 1
        return seat

    def _ack(self, seq: int) -> int | None:
        self.stats["acks"] += 1
        if seq != self._seq:
            return None  # an older frame: the newer one is on its way
        self._acked = seq
        self.acked_at = time.monotonic()
        return seq
