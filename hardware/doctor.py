"""`companion doctor`: the builder's first check of the wiring.

Lights each LED in turn, plays a scale, reports button presses for a few seconds, finds
the LED ring and prints its handshake. `--report` prints what a maintainer needs to know
about the machine instead (hardware/report.py). Runs on mock pins where there is no GPIO (or with
`--mock`), so it can be tried, and tested, anywhere.
"""

from __future__ import annotations

import argparse
import queue
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from companion.messages import Message, msg

SCALE = (0, 2, 4, 5, 7, 9, 11, 12)  # a major scale, in semitones from the buzzer's mid tone


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion doctor",
                                     description="Check the LEDs, buzzer, buttons and LED ring.")
    parser.add_argument("--mock", action="store_true", help="use mock pins even on a Pi")
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="how long to wait for button presses (default 10)")
    parser.add_argument("--step", type=float, default=0.4,
                        help="seconds each LED stays lit and each note lasts (default 0.4)")
    parser.add_argument("--port", help="the LED ring's port, instead of the config's")
    parser.add_argument("--no-ring", action="store_true", help="skip the LED ring")
    parser.add_argument("--config", type=Path, help="a config file (default: the user's)")
    parser.add_argument("--report", action="store_true",
                        help="print what a maintainer needs to know about this machine "
                             "(model, OS, kernel, GPIO chips, input devices, display, "
                             "units) and stop; nothing is lit, played or changed")
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    import hardware
    from companion import config as cfg
    from companion.i18n import Translator

    args = _parser().parse_args(list(argv or []))
    out = out or sys.stdout
    try:
        # the doctor checks the hardware section only: the games' are not its business
        conf = (cfg.load(args.config, validators=hardware.VALIDATORS) if args.config
                else cfg.load(validators=hardware.VALIDATORS))
    except cfg.ConfigError as exc:
        tr = Translator()
        for problem in exc.problems:
            print(problem.format(tr.message), file=out)
        return 2
    tr = Translator(conf.get("language", "en"))
    if args.report:
        from hardware.report import report

        report(out, tr)
        return 0

    def say(message: Message) -> None:
        print(tr.message(message), file=out, flush=True)

    section = conf.get("hardware")
    if args.port:
        section = {**section, "ring": {**section["ring"], "enabled": True, "port": args.port}}
    ring_section = section["ring"]
    section = {**section, "ring": {**ring_section, "enabled": False}}  # checked below
    factory = None
    if args.mock:
        from hardware.pins import mock_factory

        factory = mock_factory()
    presses: queue.Queue[Callable[[], None]] = queue.Queue()
    station = hardware.setup(section, presses.put, pin_factory=factory)
    problems = list(station.problems)
    try:
        say(msg("hardware.doctor.title"))
        if station.factory is not None:
            say(msg("hardware.doctor.mocked") if station.mocked else
                msg("hardware.doctor.real", factory=type(station.factory).__name__))
        for problem in station.problems:
            say(msg("hardware.doctor.problem", problem=problem))
        _leds(station, section, args.step, say)
        _scale(station, section, args.step, say)
        _buttons(station, section, args.seconds, presses, say)
        if ring_section["enabled"] and not args.no_ring:
            problems += _ring(ring_section, say)
        else:
            say(msg("hardware.doctor.part_off", part=msg("hardware.part.ring")))
    finally:
        station.close()
    if problems:
        say(msg("hardware.doctor.done_problems", count=len(problems)))
        return 1
    say(msg("hardware.doctor.done_ok"))
    return 0


def _part(station: Any, section: Any, key: str, attr: str, say: Any) -> Any:
    if not section[key]["enabled"]:
        say(msg("hardware.doctor.part_off", part=msg(f"hardware.part.{key}")))
        return None
    part = getattr(station, attr)
    if part is None:
        say(msg("hardware.doctor.part_missing", part=msg(f"hardware.part.{key}")))
    return part


def _leds(station: Any, section: Any, step: float, say: Any) -> None:
    clock = _part(station, section, "clock_leds", "clock", say)
    if clock is not None:
        for index, pin in enumerate(clock.pins):
            clock.board.value = tuple(i == index for i in range(len(clock.pins)))
            say(msg("hardware.doctor.clock_led", index=index, pin=pin))
            time.sleep(step)
        clock.board.off()
    treasures = _part(station, section, "treasure_leds", "treasures", say)
    if treasures is not None and station.blinker is not None:
        pins = section["treasure_leds"]["pins"]
        for colour in treasures.colours:
            station.blinker.set(f"treasure.{colour}", True)
            say(msg("hardware.doctor.treasure_led", colour=msg(f"evil.colour.{colour}"),
                    pin=pins[colour]))
            time.sleep(step)
            station.blinker.set(f"treasure.{colour}", False)


def _scale(station: Any, section: Any, step: float, say: Any) -> None:
    player = _part(station, section, "buzzer", "buzzer", say)
    if player is None:
        return
    from gpiozero.tones import Tone

    say(msg("hardware.doctor.scale", pin=section["buzzer"]["pin"]))
    mid = Tone(str(section["buzzer"]["mid_tone"])).midi
    for offset in SCALE:
        tone = Tone.from_midi(mid + offset)
        player.buzzer.play(tone)
        say(msg("hardware.doctor.note", note=tone.note, frequency=round(tone.frequency, 1)))
        time.sleep(step)
    player.buzzer.stop()


def _buttons(station: Any, section: Any, seconds: float, presses: Any, say: Any) -> None:
    buttons = _part(station, section, "buttons", "buttons", say)
    if buttons is None or not buttons.pins:
        return
    seen: set[str] = set()
    for name, pin in buttons.pins.items():
        station.bind(name, lambda n=name, p=pin: (seen.add(n), say(
            msg("hardware.doctor.pressed", button=n.upper(), pin=p))))
    say(msg("hardware.doctor.buttons", seconds=seconds))
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            action = presses.get(timeout=min(0.05, max(deadline - time.monotonic(), 0.001)))
        except queue.Empty:
            continue
        action()  # this thread plays the UI's main thread
    for name, pin in buttons.pins.items():
        if name not in seen:
            say(msg("hardware.doctor.no_press", button=name.upper(), pin=pin))


def _ring(section: Any, say: Any) -> list[Message]:
    from hardware.clockview import ClockView
    from hardware.ring import CONNECTED, LOOPBACK, RingLink

    say(msg("hardware.doctor.ring_search", port=section["port"]))
    link = RingLink(section)
    try:
        deadline = time.monotonic() + section["ready_timeout"] + 1.0
        while time.monotonic() < deadline and link.status not in (CONNECTED, LOOPBACK):
            time.sleep(0.02)
        snapshot = link.snapshot()
        if snapshot["status"] not in (CONNECTED, LOOPBACK):
            reason = snapshot["problem"] or msg(f"hardware.ring.status.{snapshot['status']}")
            say(msg("hardware.doctor.ring_fail", reason=reason))
            return [reason]
        if snapshot["status"] == LOOPBACK:
            say(msg("hardware.doctor.ring_loop"))
        else:
            say(msg("hardware.doctor.ring_ok", **snapshot["handshake"]))
        # a test picture: the time marker at XII, a treasure at III, VI and IX
        link.send(ClockView(12, 0, (("red", 3), ("green", 6), ("blue", 9)), "play", 0))
        if not link.wait_acked(section["ack_timeout"] * section["retries"] + 0.5):
            reason = link.snapshot()["problem"] or msg("hardware.ring.status.silent")
            say(msg("hardware.doctor.ring_fail", reason=reason))
            return [reason]
        say(msg("hardware.doctor.ring_frame"))
        return []
    finally:
        link.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
