"""systemd's notify protocol, so the service manager knows the app is up and alive.

The unit is `Type=notify` with `WatchdogSec=`: the app says READY=1 once its first
screen is built, then sends WATCHDOG=1 from the UI main loop (the Kivy clock). If the
loop freezes, the pings stop and systemd restarts the app. Outside systemd (a desktop,
the tests) NOTIFY_SOCKET is absent and every method does nothing.

No libsystemd binding: the protocol is one datagram on an AF_UNIX socket.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Callable, Mapping
from typing import Any

log = logging.getLogger(__name__)

# Kivy's `Clock.schedule_interval(callback, seconds)`; the callback gets the elapsed time.
ScheduleInterval = Callable[[Callable[[float], Any], float], Any]

# Ping three times per watchdog period: a late frame or two never trips it.
PINGS_PER_PERIOD = 3


def socket_address(value: str) -> str | bytes:
    """NOTIFY_SOCKET is a path, or '@name' for Linux's abstract namespace."""
    if value.startswith("@"):
        return b"\0" + value[1:].encode()
    return value


class Watchdog:
    def __init__(self, address: str | None, interval: float | None = None) -> None:
        """`address`: NOTIFY_SOCKET (None: not under systemd); `interval`: the
        watchdog period in seconds (None: no watchdog configured)."""
        self.address = address
        self.interval = interval
        self._event: Any = None

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> Watchdog:
        env = os.environ if environ is None else environ
        address = env.get("NOTIFY_SOCKET") or None
        interval = None
        usec = env.get("WATCHDOG_USEC", "")
        pid = env.get("WATCHDOG_PID", "")
        # WATCHDOG_PID names the process the watchdog is meant for (not a child).
        if usec.isdigit() and int(usec) > 0 and (not pid or pid == str(os.getpid())):
            interval = int(usec) / 1_000_000
        return cls(address, interval)

    @property
    def enabled(self) -> bool:
        return self.address is not None

    @property
    def ping_every(self) -> float | None:
        return self.interval / PINGS_PER_PERIOD if self.interval else None

    def notify(self, *fields: str) -> bool:
        """Send `KEY=value` lines; False (and a log line) if it could not be sent."""
        if self.address is None:
            return False
        payload = "\n".join(fields).encode()
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                sock.sendto(payload, socket_address(self.address))
        except OSError as exc:
            # Never take the app down for this: systemd will notice the missing pings.
            log.warning("sd_notify to %s failed: %s", self.address, exc)
            return False
        return True

    def ready(self) -> bool:
        return self.notify("READY=1", f"MAINPID={os.getpid()}")

    def status(self, text: str) -> bool:
        # One line only: a newline would start another field.
        return self.notify("STATUS=" + " ".join(text.split()))

    def ping(self, _dt: float = 0.0) -> None:
        self.notify("WATCHDOG=1")

    def start(self, schedule_interval: ScheduleInterval) -> bool:
        """Ping from the UI loop; True if a watchdog is configured and now fed."""
        every = self.ping_every
        if self.address is None or every is None:
            return False
        if self._event is None:
            self.ping()
            self._event = schedule_interval(self.ping, every)
        return True

    def stopping(self) -> bool:
        cancel = getattr(self._event, "cancel", None)
        if callable(cancel):
            cancel()
        self._event = None
        return self.notify("STOPPING=1")
