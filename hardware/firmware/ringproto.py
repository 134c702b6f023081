"""The LED ring's line protocol, version 1: shared by the app and the Pico's firmware.

This file runs unchanged on MicroPython (copied to the Pico beside main.py) and on
CPython (the app encodes with it, the tests decode with it). So: no typing, no
dataclasses, no f-strings, only str/bytes/dict/list.

Every line is ASCII, ends with "\\n" and is sealed: `BODY*CCCC` where CCCC is the
CRC-16/CCITT-FALSE of BODY in upper-case hex. Lines that fail the check are ignored
by both sides (the device answers NAK so the host resends at once).

host -> device
    HELLO 1                                   who are you? (the host speaks version 1)
    STATE 1 <seq> <dial> <time> <mode> <pending> [<colour>=<steps>|- ...]
        the whole clock, idempotent: sending it twice changes nothing.
        dial = positions on the dial (0: no game), time = time marker (0 = XII),
        mode = play|won|lost|idle, pending = power activations waiting,
        steps = steps left before the time marker reaches that treasure, - = empty slot.
device -> host
    READY 1 <pixels> <firmware>               after boot, and in answer to HELLO
    ACK <seq>                                 the STATE with that seq is shown
    NAK <seq|-> <reason>                      refused (bad checksum, bad frame, ...)
    PRESS <seat>                              a seat button (0-based) was pressed
        (optional seat buttons on the Pico, debounced there: `seatbuttons.py`). A host
        that does not know PRESS counts it as garbage and goes on, so both sides of
        version 1 keep working with and without the buttons.
"""

PROTOCOL = 1
MAX_LINE = 200  # longer lines are garbage: dropped without growing the buffer
MODES = ("play", "won", "lost", "idle")


def crc16(data):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF), as binascii.crc_hqx(data, 0xFFFF)."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
            crc &= 0xFFFF
    return crc


def seal(body):
    """One line ready to write: the body, its checksum and the newline."""
    return "%s*%04X\n" % (body, crc16(body.encode()))  # noqa: UP031 (older MicroPython lacks f-strings)


def unseal(line):
    """The body of a sealed line, or None when the line is damaged."""
    if isinstance(line, (bytes, bytearray)):
        try:
            line = bytes(line).decode()
        except (UnicodeError, ValueError):
            return None
    line = line.strip()
    star = line.rfind("*")
    if star < 0 or len(line) - star != 5:
        return None
    body, check = line[:star], line[star + 1:]
    try:
        value = int(check, 16)
    except ValueError:
        return None
    if value != crc16(body.encode()):
        return None
    return body


def encode_state(seq, dial, time, mode, pending, treasures):
    """A STATE line. `treasures` is a list of (colour, steps or None), in slot order."""
    parts = ["STATE", str(PROTOCOL), str(seq), str(dial), str(time), mode, str(pending)]
    for colour, steps in treasures:
        parts.append("%s=%s" % (colour, "-" if steps is None else str(steps)))  # noqa: UP031 (older MicroPython lacks f-strings)
    return seal(" ".join(parts))


def parse_state(body):
    """Decode a STATE body into a dict; raises ValueError when it is malformed."""
    parts = body.split(" ")
    if len(parts) < 7 or parts[0] != "STATE":
        raise ValueError("not a state")
    if parts[1] != str(PROTOCOL):
        raise ValueError("version")
    seq, dial, time, pending = int(parts[2]), int(parts[3]), int(parts[4]), int(parts[6])
    mode = parts[5]
    if mode not in MODES or seq < 0 or dial < 0 or pending < 0:
        raise ValueError("range")
    if dial and not 0 <= time < dial:
        raise ValueError("time")
    treasures = []
    for item in parts[7:]:
        colour, eq, steps = item.partition("=")
        if not eq or not colour:
            raise ValueError("treasure")
        value = None if steps == "-" else int(steps)
        if value is not None and not 0 < value < max(dial, 1):
            raise ValueError("steps")
        treasures.append((colour, value))
    return {"seq": seq, "dial": dial, "time": time, "mode": mode, "pending": pending,
            "treasures": treasures}


def ready_line(pixels, firmware):
    return seal("READY %d %d %s" % (PROTOCOL, pixels, firmware))  # noqa: UP031 (older MicroPython lacks f-strings)


def parse_ready(body):
    """(protocol, pixels, firmware) from a READY body; raises ValueError."""
    parts = body.split(" ")
    if len(parts) != 4 or parts[0] != "READY":
        raise ValueError("not ready")
    return int(parts[1]), int(parts[2]), parts[3]


MAX_SEATS = 8


def press_line(seat):
    return seal("PRESS %d" % seat)  # noqa: UP031 (older MicroPython lacks f-strings)


def parse_press(body):
    """The seat of a PRESS body; raises ValueError when it is not one."""
    parts = body.split(" ")
    if len(parts) != 2 or parts[0] != "PRESS":
        raise ValueError("not a press")
    seat = int(parts[1])
    if not 0 <= seat < MAX_SEATS:
        raise ValueError("seat")
    return seat


class LineBuffer:
    """Cuts a byte stream into lines; drops over-long garbage and non-ASCII bytes."""

    def __init__(self):
        self._buf = bytearray()
        self.dropped = 0

    def feed(self, data):
        lines = []
        for byte in data:
            if byte == 10:  # "\n"
                if self._buf:
                    lines.append(bytes(self._buf))
                self._buf = bytearray()
            elif byte == 13 or byte > 126 or (byte < 32 and byte != 9):
                continue  # "\r" and binary noise never belong to a line
            elif len(self._buf) >= MAX_LINE:
                self.dropped += 1
                self._buf = bytearray()
            else:
                self._buf.append(byte)
        return lines


class Device:
    """The device side: feed it bytes from the host, write back what it returns.

    `state` holds the last frame accepted (None before the first one); `frames`
    counts accepted frames. The firmware only adds the serial port and the pixels.
    """

    def __init__(self, pixels, firmware):
        self.pixels = pixels
        self.firmware = firmware
        self.state = None
        self.frames = 0
        self.rejected = 0
        self._lines = LineBuffer()

    def boot(self):
        return ready_line(self.pixels, self.firmware)

    def feed(self, data):
        """Bytes in, reply lines (str) out; `state` changes when a frame is accepted."""
        replies = []
        for line in self._lines.feed(data):
            reply = self.handle(line)
            if reply:
                replies.append(reply)
        return replies

    def handle(self, line):
        body = unseal(line)
        if body is None:
            self.rejected += 1
            return seal("NAK - checksum")
        if body.startswith("HELLO"):
            return self.boot()
        if body.startswith("STATE"):
            try:
                state = parse_state(body)
            except ValueError as exc:
                self.rejected += 1
                return seal("NAK - %s" % (exc.args[0] if exc.args else "frame"))
            self.state = state
            self.frames += 1
            return seal("ACK %d" % state["seq"])  # noqa: UP031 (older MicroPython lacks f-strings)
        self.rejected += 1
        return seal("NAK - unknown")
