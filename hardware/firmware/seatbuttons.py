"""Optional seat buttons on the ring's Pico: one arcade button per seat, between a GPIO
and ground (the pin's pull-up on), read by polling and debounced here. Pure and shared
like ringproto: runs on MicroPython (main.py) and CPython (the host tests).

The rules are the Pi's buttons' (hardware/buttons.py), on sampled levels:
- a press counts once the button has read pressed for `press_ms` without a break (a
  spike on a long cable is not a press); it is reported then, once;
- after a release, a press starting within `quiet_ms` is the contacts bouncing.
"""

PRESS_MS = 5
QUIET_MS = 60


def _minus(a, b):
    return a - b


class SeatButtons:
    def __init__(self, seats, press_ms=PRESS_MS, quiet_ms=QUIET_MS, diff=_minus):
        """`diff(a, b)`: a - b in ms (MicroPython: time.ticks_diff, which wraps)."""
        self.seats = seats
        self.press_ms = press_ms
        self.quiet_ms = quiet_ms
        self._diff = diff
        self._since = [None] * seats  # when an unbroken press started
        self._down = [False] * seats  # a press reported, not yet released
        self._released = [None] * seats  # when the last reported press was let go
        self.reported = 0
        self.ignored = 0

    def sample(self, pressed, now):
        """`pressed[i]`: seat i's button reads pressed now (time `now`, ms). Returns the
        seats whose press counts from this sample, in seat order."""
        out = []
        for seat in range(self.seats):
            if pressed[seat]:
                if self._down[seat]:
                    continue
                since = self._since[seat]
                if since is None:
                    released = self._released[seat]
                    if released is not None and self._diff(now, released) < self.quiet_ms:
                        continue  # bouncing after a release: never the start of a press
                    self._since[seat] = since = now
                if self._diff(now, since) >= self.press_ms:
                    self._down[seat] = True
                    self._since[seat] = None
                    self.reported += 1
                    out.append(seat)
            else:
                if self._since[seat] is not None:
                    self.ignored += 1  # let go too soon: a spike
                    self._since[seat] = None
                if self._down[seat]:
                    self._down[seat] = False
                    self._released[seat] = now
        return out
