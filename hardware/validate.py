"""Checks of the `hardware` config section (pins, tunes, the serial port). Pure code:
no gpiozero or serial import, so `companion check-config` works anywhere."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from companion.messages import Message, msg
from hardware.tunes import EVENT_KINDS, PER_SEAT, note_midi, parse_tune

HEADER_PINS = range(0, 28)  # BCM GPIO 0..27 are on the 40-pin header
BUS_PINS = {"id_eeprom": (0, 1), "i2c": (2, 3), "spi": (7, 8, 9, 10, 11), "uart": (14, 15)}
NOT_FITTED = -1
PIN_FACTORIES = ("auto", "mock", "lgpio", "rpigpio", "pigpio", "native")
URL_SCHEMES = ("loop", "spy", "hwgrep", "rfc2217", "socket", "alt", "cp2110")

Problems = list[tuple[str, Message]]


def pin_uses(section: Mapping[str, Any]) -> list[tuple[str, int]]:
    """(dotted key, pin) for every pin an enabled part uses."""
    uses: list[tuple[str, int]] = []
    if section["clock_leds"]["enabled"]:
        pins = section["clock_leds"]["pins"]
        uses += [(f"clock_leds.pins.{i}", p) for i, p in enumerate(pins)]
    if section["treasure_leds"]["enabled"]:
        named = section["treasure_leds"]["pins"]
        uses += [(f"treasure_leds.pins.{c}", p) for c, p in named.items()]
    if section["buzzer"]["enabled"]:
        uses.append(("buzzer.pin", section["buzzer"]["pin"]))
    if section["buttons"]["enabled"]:
        uses += [(f"buttons.pins.{n}", p) for n, p in section["buttons"]["pins"].items()
                 if p != NOT_FITTED]
    return uses


def _check_pins(section: Mapping[str, Any]) -> Problems:
    problems: Problems = []
    free = section.get("free_bus_pins", {})
    first: dict[int, str] = {}
    for key, pin in pin_uses(section):
        if pin not in HEADER_PINS:
            problems.append((key, msg("hardware.config.pin_missing", pin=pin)))
            continue
        bus = next((b for b, pins in BUS_PINS.items() if pin in pins), None)
        if bus is not None and not free.get(bus, False):
            problems.append((key, msg("hardware.config.pin_reserved", pin=pin,
                                      bus=msg(f"hardware.bus.{bus}"), flag=bus)))
        if pin in first:
            problems.append((key, msg("hardware.config.pin_twice", pin=pin, other=first[pin])))
        else:
            first[pin] = key
    return problems


def _check_buzzer(buzzer: Mapping[str, Any]) -> Problems:
    problems: Problems = []
    mid = note_midi(str(buzzer["mid_tone"]))
    octaves = buzzer["octaves"]
    if not 1 <= octaves <= 4:
        problems.append(("buzzer.octaves", msg("hardware.config.range", low=1, high=4)))
    if mid is None or not 0 <= mid - 12 * octaves <= mid + 12 * octaves <= 127:
        problems.append(("buzzer.mid_tone", msg("hardware.config.note_bad",
                                                note=str(buzzer["mid_tone"]))))
        mid = None
    if not 0 <= buzzer["volume"] <= 1:
        problems.append(("buzzer.volume", msg("hardware.config.range", low=0, high=1)))
    if not 20 <= buzzer["tempo"] <= 2000:
        problems.append(("buzzer.tempo", msg("hardware.config.range", low=20, high=2000)))
    for name, text in buzzer["tunes"].items():
        notes, bad = parse_tune(str(text))
        for token in bad:
            problems.append((f"buzzer.tunes.{name}", msg("hardware.config.note_bad", note=token)))
        if mid is None:
            continue
        for note in notes:
            if note.midi is not None and abs(note.midi - mid) > 12 * octaves:
                problems.append((f"buzzer.tunes.{name}", msg(
                    "hardware.config.note_range", note=_token(text, note.midi),
                    mid=str(buzzer["mid_tone"]), octaves=octaves)))
                break
    for kind, name in buzzer["play"].items():
        if kind not in EVENT_KINDS:
            continue  # the schema reports unknown keys already
        if kind == PER_SEAT and name:
            name = f"{name}1"  # the first seat's motif at least
        if name and name not in buzzer["tunes"]:
            problems.append((f"buzzer.play.{kind}", msg(
                "hardware.config.tune_unknown", name=name,
                choices=", ".join(buzzer["tunes"]))))
    return problems


def _token(text: str, midi: int) -> str:
    for token in str(text).split():
        head = token.split("/")[0]
        if note_midi(head) == midi:
            return head
    return str(midi)


def check_port(url: str) -> Message | None:
    """Why `url` is not a pyserial port URL, or None when it looks like one."""
    if not url.strip():
        return msg("hardware.config.url_empty")
    if "://" in url:
        parts = urlsplit(url)
        scheme = parts.scheme.lower()
        if scheme not in URL_SCHEMES:
            return msg("hardware.config.url_scheme", url=url, choices=", ".join(URL_SCHEMES))
        rest = url.split("://", 1)[1].split("?", 1)[0]
        if scheme in ("spy", "hwgrep", "alt", "cp2110") and not rest:
            return msg("hardware.config.url_incomplete", url=url)
        if scheme in ("socket", "rfc2217"):
            try:
                port = parts.port
            except ValueError:
                port = None
            if not parts.hostname or port is None:
                return msg("hardware.config.url_host_port", url=url)
        return None
    if url.startswith("/") or url.upper().startswith("COM"):
        return None
    return msg("hardware.config.url_path", url=url)


def validate(section: Mapping[str, Any]) -> Problems:
    problems: Problems = []
    if section["pin_factory"] not in PIN_FACTORIES:
        problems.append(("pin_factory", msg("hardware.config.choice",
                                            choices=", ".join(PIN_FACTORIES))))
    problems += _check_pins(section)
    clock = section["clock_leds"]
    if clock["enabled"] and not clock["pins"]:
        problems.append(("clock_leds.pins", msg("core.config.at_least", minimum=1)))
    treasure = section["treasure_leds"]
    if treasure["kind"] not in ("leds", "rgb"):
        problems.append(("treasure_leds.kind", msg("hardware.config.choice", choices="leds, rgb")))
    if not 1 <= treasure["urgent_steps"] <= treasure["warn_steps"]:
        problems.append(("treasure_leds.warn_steps", msg("hardware.config.warn_steps")))
    for key in ("slow_hz", "fast_hz"):
        if not 0.1 <= treasure[key] <= 20:
            problems.append((f"treasure_leds.{key}",
                             msg("hardware.config.range", low=0.1, high=20)))
    problems += _check_buzzer(section["buzzer"])
    if not 0 <= section["buzzer"]["ticks"] <= 60:
        problems.append(("buzzer.ticks", msg("hardware.config.range", low=0, high=60)))
    if not 0 <= section["buttons"]["debounce"] <= 1:
        problems.append(("buttons.debounce", msg("hardware.config.range", low=0, high=1)))
    if not 0 <= section["buttons"]["min_press"] <= 0.2:  # longer would feel broken
        problems.append(("buttons.min_press", msg("hardware.config.range", low=0, high=0.2)))
    ring = section["ring"]
    if ring["enabled"]:
        reason = check_port(ring["port"])
        if reason is not None:
            problems.append(("ring.port", msg("hardware.config.serial_url", url=ring["port"],
                                              reason=reason)))
    for key in ("ready_timeout", "ack_timeout", "retry_interval", "retry_max", "write_timeout",
                "keepalive"):
        if not 0 < ring[key] <= 60:
            problems.append((f"ring.{key}", msg("hardware.config.range", low=0, high=60)))
    if ring["retries"] < 1:
        problems.append(("ring.retries", msg("core.config.at_least", minimum=1)))
    if ring["baudrate"] < 300:
        problems.append(("ring.baudrate", msg("core.config.at_least", minimum=300)))
    return problems
