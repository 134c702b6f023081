"""The GPIO chips of this machine, and the one wired to the 40-pin header, found by label.

Chip numbers are not stable: a Pi 5's header (the RP1's `pinctrl-rp1`) was
/dev/gpiochip4 on early kernels, /dev/gpiochip0 from 6.6.47, and elsewhere again on
some 2026 kernels (among gpiochip10-15). gpiozero 2.0.1's LGPIOFactory guesses 4 or 0
from the board's revision, so the app finds the chip by its label instead and hands its
number to the pin factory (`LGPIOFactory(chip=N)`).

A chip's label comes from the kernel, first from the chip itself (the
GPIO_GET_CHIPINFO ioctl on /dev/gpiochipN, what `gpiodetect` and lgpio read), else from
sysfs, readable without the device's permission: /sys/class/gpio/chipN/label (kernels
from 6.17) or the legacy /sys/class/gpio/gpiochipBASE/label of the same parent device.
"""

from __future__ import annotations

import fcntl
import os
import re
import struct
from dataclasses import dataclass
from pathlib import Path

# Where the kernel shows them; tests point these at a made-up tree.
DEV = Path("/dev")
SYS = Path("/sys")

# The header's chip, by label, best first, with the boards that have it.
HEADER_LABELS = {
    "pinctrl-rp1": "Raspberry Pi 5, 500, CM5",
    "pinctrl-bcm2711": "Raspberry Pi 4, 400, CM4",
    "pinctrl-bcm2835": "Raspberry Pi 3, Zero 2 W and older",
}

# struct gpiochip_info { char name[32]; char label[32]; __u32 lines; } (linux/gpio.h)
_CHIPINFO = struct.Struct("32s32sI")
_GET_CHIPINFO = (2 << 30) | (_CHIPINFO.size << 16) | (0xB4 << 8) | 0x01  # _IOR(0xB4, 1)


@dataclass(frozen=True)
class Chip:
    number: int
    path: Path
    label: str | None  # None: neither the chip nor sysfs said
    lines: int | None = None

    def describe(self, lines: bool = True) -> str:
        """`gpiochip4 (pinctrl-rp1, 54 lines)` for reports; `gpiochip4 (pinctrl-rp1)`
        without `lines`, for the screen."""
        if not lines:
            return f"{self.path.name} ({self.label or '?'})"
        parts = [self.label or "label unknown"]
        if self.lines is not None:
            parts.append(f"{self.lines} lines")
        return f"{self.path.name} ({', '.join(parts)})"


def chips(dev: Path | None = None, sys: Path | None = None) -> list[Chip]:
    """Every /dev/gpiochipN, by number, with its label where the kernel tells it."""
    dev, sys = dev or DEV, sys or SYS
    found = []
    for path in dev.glob("gpiochip*"):
        number = re.fullmatch(r"gpiochip(\d+)", path.name)
        if number is None:
            continue
        label, lines = _from_chip(path)
        if label is None:
            label, lines = _from_sysfs(sys, int(number.group(1)))
        found.append(Chip(int(number.group(1)), path, label, lines))
    return sorted(found, key=lambda chip: chip.number)


def header_chip(found: list[Chip]) -> Chip | None:
    """The chip wired to the 40-pin header, or None if no chip has a known label."""
    for label in HEADER_LABELS:
        for chip in found:
            if chip.label == label:
                return chip
    return None


class NoHeaderChip(Exception):
    """No chip here has a header's label (`pins.gpio_problem` names the chips seen)."""

    def __init__(self, found: list[Chip]) -> None:
        self.found = found
        super().__init__("no chip with the 40-pin header's label")


def _from_chip(path: Path) -> tuple[str | None, int | None]:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK)
    except OSError:
        return None, None
    try:
        raw = fcntl.ioctl(fd, _GET_CHIPINFO, bytes(_CHIPINFO.size))
    except OSError:  # not a GPIO character device (a made-up tree), or an old kernel
        return None, None
    finally:
        os.close(fd)
    _name, label, lines = _CHIPINFO.unpack(raw)
    return label.split(b"\0", 1)[0].decode(errors="replace") or None, lines


def _from_sysfs(sys: Path, number: int) -> tuple[str | None, int | None]:
    # kernels from 6.17: a class device named after the chip's own number
    label = _read(sys / "class/gpio" / f"chip{number}" / "label")
    if label is not None:
        return label, _lines(sys / "class/gpio" / f"chip{number}")
    # the legacy class device (named after the chip's first global GPIO number) sits
    # under the chip's parent device, or under the chip's own device if it has none
    try:
        device = (sys / "bus/gpio/devices" / f"gpiochip{number}").resolve(strict=True)
    except OSError:
        return None, None
    owners = {device, device.parent}
    legacy = [entry for entry in (sys / "class/gpio").glob("gpiochip*")
              if _parent_device(entry) in owners]
    under_own = [entry for entry in legacy if _parent_device(entry) == device]
    matches = under_own or legacy
    if len(matches) != 1:  # several chips of one device: which is which is not known
        return None, None
    return _read(matches[0] / "label"), _lines(matches[0])


def _parent_device(entry: Path) -> Path | None:
    try:
        return entry.resolve(strict=True).parent.parent  # <device>/gpio/gpiochipBASE
    except OSError:
        return None


def _lines(folder: Path) -> int | None:
    text = _read(folder / "ngpio")
    return int(text) if text and text.isdigit() else None


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8").strip() or None
    except OSError:
        return None
