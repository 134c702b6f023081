"""The passive buzzer: short tunes played on a thread of their own, never blocking.

A new request interrupts the tune being played: the table hears the latest news.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Any

from hardware.tunes import Note, parse_tune

ARTICULATION = 0.9  # a note sounds for 90% of its length, so repeated notes are heard


class TunePlayer:
    def __init__(self, section: Mapping[str, Any], factory: Any,
                 on_note: Callable[[str | None], None] | None = None) -> None:
        from gpiozero import TonalBuzzer
        from gpiozero.tones import Tone

        self._tone = Tone
        self.buzzer = TonalBuzzer(section["pin"], mid_tone=Tone(str(section["mid_tone"])),
                                  octaves=int(section["octaves"]), pin_factory=factory)
        self.tunes: dict[str, list[Note]] = {
            name: parse_tune(str(text))[0] for name, text in section["tunes"].items()}
        self.mute = bool(section["mute"])
        self.volume = float(section["volume"])
        self.tempo = float(section["tempo"])
        self.note: str | None = None  # the note sounding now, for the virtual panel
        self.playing: str | None = None
        self._on_note = on_note
        self._queue: list[str] = []
        self._generation = 0
        self._cond = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="hw-buzzer", daemon=True)
        self._thread.start()

    def play(self, names: list[str]) -> None:
        """Play these tunes one after the other, instead of whatever is playing."""
        names = [n for n in names if n in self.tunes]
        if self.mute or self.volume <= 0 or not names:
            return
        with self._cond:
            self._queue = list(names)
            self._generation += 1
            self._cond.notify()

    def stop(self) -> None:
        with self._cond:
            self._queue = []
            self._generation += 1
            self._cond.notify()

    def set_mute(self, mute: bool) -> None:
        self.mute = mute
        if mute:
            self.stop()

    def _run(self) -> None:
        with self._cond:
            while not self._closed:
                if not self._queue:
                    self._cond.wait()
                    continue
                name = self._queue.pop(0)
                generation = self._generation
                self.playing = name
                for note in self.tunes[name]:
                    length = note.seconds(self.tempo)
                    self._sound(note)
                    if self._cond.wait_for(lambda g=generation: self._closed or
                                           self._generation != g, length * ARTICULATION):
                        break
                    self._sound(None)
                    if self._cond.wait_for(lambda g=generation: self._closed or
                                           self._generation != g, length * (1 - ARTICULATION)):
                        break
                self._sound(None)
                self.playing = None

    def _sound(self, note: Note | None) -> None:
        if note is None or note.midi is None:
            if self.note is not None:
                self.buzzer.stop()
                self._set_note(None)
            return
        tone = self._tone.from_midi(note.midi)
        if self.volume >= 1:
            self.buzzer.play(tone)
        else:  # as TonalBuzzer.play, with a smaller duty: quieter, without a loud blip
            low, high = self.buzzer.min_tone.frequency, self.buzzer.max_tone.frequency
            if not low <= tone.frequency <= high:
                raise ValueError("tone is out of the device's range")
            self.buzzer.pwm_device.pin.frequency = tone.frequency
            self.buzzer.pwm_device.value = 0.5 * self.volume
        self._set_note(tone.note)

    def _set_note(self, note: str | None) -> None:
        self.note = note
        if self._on_note is not None:
            self._on_note(note)

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._generation += 1
            self._cond.notify()
        self._thread.join(timeout=1.0)
        self.buzzer.close()
