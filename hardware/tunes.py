"""Tunes for the buzzer: a small text notation, parsed without gpiozero. Pure code.

A tune is notes separated by spaces: `NOTE/LEN`, where NOTE is a letter A..G, an
optional `#` or `b` and an octave (C5, F#4, Bb5), or `R` for a rest, and LEN the note
value (4 = a quarter note, 8 = an eighth, 16; a trailing `.` makes it 1.5 times longer).
The tempo (quarter notes per minute) comes from the settings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_NOTE = re.compile(r"^(?:(?P<letter>[A-Ga-g])(?P<accidental>[#b]?)(?P<octave>-?\d)|(?P<rest>[Rr]))"
                   r"/(?P<value>1|2|4|8|16|32)(?P<dot>\.?)$")
_SEMITONES = {"C": 0, "D": 2, "E": 4, "F": 5, "G": 7, "A": 9, "B": 11}

#: the game events that have a tune, in the order they are announced
EVENT_KINDS = ("roll", "treasure_lost", "treasure_recovered", "power_space", "victory", "defeat",
               "clock_tick", "clock_no", "clock_zero", "clock_draw", "clock_turn")
#: the kind whose tune is a prefix: the seat's number is added (seat1, seat2...)
PER_SEAT = "clock_turn"
#: event class name -> event kind
EVENT_CLASSES = {
    "DiceRolled": "roll",
    "TreasureLost": "treasure_lost",
    "TreasureRecovered": "treasure_recovered",
    "PowerSpaceReached": "power_space",
    "GameWon": "victory",
    "GameLost": "defeat",
}


@dataclass(frozen=True)
class Note:
    midi: int | None  # None: a rest
    beats: float  # in quarter notes

    @property
    def frequency(self) -> float | None:
        return None if self.midi is None else midi_frequency(self.midi)

    def seconds(self, tempo: float) -> float:
        return self.beats * 60.0 / tempo


def midi_frequency(midi: int) -> float:
    return 440.0 * 2 ** ((midi - 69) / 12)


def note_midi(name: str) -> int | None:
    """MIDI number of a note name like A4 or C#5; None when it is not one."""
    match = _NOTE.match(f"{name}/4")
    if match is None or match["rest"]:
        return None
    semitone = _SEMITONES[match["letter"].upper()]
    semitone += {"#": 1, "b": -1, "": 0}[match["accidental"]]
    return (int(match["octave"]) + 1) * 12 + semitone


def parse_note(token: str) -> Note | None:
    match = _NOTE.match(token)
    if match is None:
        return None
    beats = 4 / int(match["value"]) * (1.5 if match["dot"] else 1.0)
    if match["rest"]:
        return Note(None, beats)
    midi = note_midi(f"{match['letter']}{match['accidental']}{match['octave']}")
    return None if midi is None or not 0 <= midi <= 127 else Note(midi, beats)


def parse_tune(text: str) -> tuple[list[Note], list[str]]:
    """The notes of a tune and the tokens that are not notes."""
    notes, bad = [], []
    for token in text.split():
        note = parse_note(token)
        if note is None:
            bad.append(token)
        else:
            notes.append(note)
    return notes, bad


def tune_names_for(events: tuple[object, ...] | list[object], play: dict[str, str]) -> list[str]:
    """The tunes an update's events call for, in event order, each once."""
    names: list[str] = []
    for event in events:
        kind = EVENT_CLASSES.get(type(event).__name__)
        name = play.get(kind, "") if kind else ""
        if name and name not in names:
            names.append(name)
    return names
