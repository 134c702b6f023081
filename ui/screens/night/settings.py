"""Settings on screen, no keyboard: language, sound and volume, dimming, hardware parts,
the dice faces in use, about. Each change is saved at once to the app's settings file
(`companion.settings`, layered over the user's config, which is never written),
checked first: a refused change shows why and keeps the file as it was.

Sound and volume apply at once to the buzzer, the language at once (every screen is
built again); the hardware parts apply at the next start (parts are wired at
start), and the screen says so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

import companion
from companion.config import ConfigError
from companion.i18n import LANGUAGES
from companion.settings import nested, path_for, save_settings
from ui import theme
from ui.dialogs import message
from ui.screens.night import prefs as night_prefs
from ui.screens.night.common import scroll_list, top_bar
from ui.screens.page import PageScreen
from ui.widgets.basics import Tap, Text, follow_height

PARTS = ("clock_leds", "treasure_leds", "buzzer", "buttons", "ring")
DIM_CHOICES = (0, 60, 120, 300, 600)  # seconds without a touch
# config keys (joined, so they are not mistaken for translation keys)
MUTE = ".".join(("hardware", "buzzer", "mute"))
VOLUME = ".".join(("hardware", "buzzer", "volume"))
TEMPO = ".".join(("hardware", "buzzer", "tempo"))
# Tune speeds offered on screen, quarter notes per minute (normal: the shipped default);
# any other value set in the file is shown as it is
TEMPOS = {160: "night.ui.tempo_slow", 240: "night.ui.tempo_normal", 360: "night.ui.tempo_fast"}


def next_choice(choices: Sequence[float], current: float) -> Any:
    """The first choice above `current`, or back to the first (a value set by hand in
    the file, between two choices, goes to the next one up)."""
    return next((choice for choice in choices if choice > current), choices[0])


class NightSettingsScreen(PageScreen):
    # -- saving ------------------------------------------------------------------------
    def change(self, dotted: str, value: Any,
               then: Callable[[], None] | None = None) -> None:
        """Save one setting off the UI thread (on the journal's writer, in order with
        everything else saved), then `then()` and the screen drawn again once the file
        is durable; a refused value or a file that cannot be written is said, and the
        screen drawn again as it was."""
        app = App.get_running_app()

        def save(_journal: Any) -> Exception | None:
            try:
                save_settings(nested(dotted, value), app.settings)
            except (ConfigError, OSError) as exc:
                return exc
            return None

        def saved(error: Exception | None) -> None:
            if isinstance(error, ConfigError):
                lines = [p.format(app.say) for p in error.problems]
                message(app.tr("night.ui.settings_refused"), "\n".join(lines), tid="error")
            elif isinstance(error, OSError):
                message(app.tr("night.ui.settings_refused"),
                        app.tr("night.ui.settings_unwritable",
                               path=str(path_for(app.settings)),
                               reason=error.strerror or str(error)), tid="error")
            elif then is not None:
                then()
                return
            self.refresh()

        app.write(save, saved)

    # -- the screen ------------------------------------------------------------------
    def refresh(self) -> None:
        app = App.get_running_app()
        s = app.settings
        self.box.clear_widgets()
        self.box.add_widget(top_bar(app.tr("night.ui.settings_title"), "settings"))
        columns = BoxLayout(spacing=dp(10))
        left_scroll, left = scroll_list(6)
        right_scroll, right = scroll_list(6)

        # language: saved, then every screen is built again in it
        left.add_widget(self.heading(app.tr("night.ui.language")))
        row = self.row()
        chosen = s.get("language", "en")
        for lang in LANGUAGES:
            button = Tap(app.tr(f"night.ui.lang.{lang}"), tid=f"settings.lang.{lang}",
                         background=theme.ACCENT if lang == chosen else theme.BUTTON,
                         color=theme.BACKGROUND if lang == chosen else theme.TEXT)
            button.bind(on_release=lambda _b, lg=lang: self.set_language(lg))
            row.add_widget(button)
        left.add_widget(row)

        # sound: straight to the buzzer
        left.add_widget(self.heading(app.tr("night.ui.sound")))
        buzzer = s.get("hardware.buzzer", {}) or {}
        muted = bool(buzzer.get("mute", False))
        volume = float(buzzer.get("volume", 1.0))
        row = self.row()
        sound = Tap(app.tr("night.ui.sound_off" if muted else "night.ui.sound_on"),
                    tid="settings.sound", background=theme.BUTTON if muted else theme.SELECTED)
        sound.bind(on_release=lambda _b: self.set_mute(not muted))
        row.add_widget(sound)
        tempo = float(buzzer.get("tempo", 240))
        speed = Tap(app.tr(TEMPOS[int(tempo)]) if tempo in TEMPOS else
                    app.tr("night.ui.tempo_value", n=round(tempo)), tid="settings.tempo")
        speed.bind(on_release=lambda _b: self.cycle_tempo(tempo))
        row.add_widget(speed)
        left.add_widget(row)
        row = self.row()
        minus = Tap("−", tid="settings.volume.minus", size=24, size_hint_x=0.25,
                    disabled=volume <= 0)
        minus.bind(on_release=lambda _b: self.set_volume(volume - 0.1))
        shown = Text(app.tr("night.ui.volume", n=round(volume * 100)), size=18,
                     halign="center", tid="settings.volume", size_hint_x=0.5)
        plus = Tap("+", tid="settings.volume.plus", size=24, size_hint_x=0.25,
                   disabled=volume >= 1)
        plus.bind(on_release=lambda _b: self.set_volume(volume + 0.1))
        for widget in (minus, shown, plus):
            row.add_widget(widget)
        left.add_widget(row)

        # dimming: only where a backlight can be dimmed and the config can keep it
        left.add_widget(self.heading(app.tr("night.ui.dimming")))
        if night_prefs.dimming_available(s):
            seconds = int(s.get(night_prefs.DIM_KEY, 0))
            label = app.tr("night.ui.dim_never") if seconds <= 0 else \
                app.tr("night.ui.dim_after", n=seconds // 60)
            dim = Tap(label, tid="settings.dim", size_hint_y=None, height=theme.touch())
            dim.bind(on_release=lambda _b: self.cycle_dim(seconds))
            left.add_widget(dim)
        else:
            left.add_widget(self.note(app.tr("night.ui.dim_unavailable"), "settings.dim"))

        # hardware parts: wired at start
        right.add_widget(self.heading(app.tr("night.ui.parts")))
        for part in PARTS:
            on = bool(s.get(f"hardware.{part}.enabled", False))
            text = app.tr("night.ui.part_state", part=app.tr(f"hardware.part.{part}"),
                          state=app.tr("night.ui.on" if on else "night.ui.off"))
            text = text[:1].upper() + text[1:]
            button = Tap(text, tid=f"settings.part.{part}", size=theme.SIZE_SMALL, size_hint_y=None,
                         height=theme.touch(), background=theme.SELECTED if on else theme.BUTTON)
            button.bind(on_release=lambda _b, p=part, v=on: self.set_value(
                f"hardware.{p}.enabled", not v))
            right.add_widget(button)
        right.add_widget(self.note(app.tr("night.ui.parts_note"), "settings.parts.note"))

        # Castor's card keypad greys the cards already played only if the table wants it
        marks = bool(s.get("games.castor.keypad_marks_played", False))
        button = Tap(app.tr("castor.ui.setting_marks",
                            state=app.tr("night.ui.on" if marks else "night.ui.off")),
                     tid="settings.castor.marks", size=theme.SIZE_SMALL, size_hint_y=None,
                     height=theme.touch(), background=theme.SELECTED if marks else theme.BUTTON)
        button.bind(on_release=lambda _b: self.set_value("games.castor.keypad_marks_played",
                                                         not marks))
        right.add_widget(button)

        # dice faces in use (read-only: they are checked against the physical dice)
        right.add_widget(self.heading(app.tr("night.ui.dice_faces")))
        for die, faces in (s.get("games.evil.dice", {}) or {}).items():
            # the colour die's faces are colour names: "rouge", not "red", in French
            names = [app.tr(key) if app.translator.has(key) else str(f) for f in faces
                     for key in (f"evil.face.{f}" if app.translator.has(f"evil.face.{f}")
                                 else f"evil.colour.{f}",)]
            die_name = app.tr(f"evil.die.{die}") if app.translator.has(f"evil.die.{die}") \
                else str(die)
            text = f"{die_name}: {', '.join(names)}"
            right.add_widget(self.note(text, f"settings.dice.{die}", lines=2, muted=False))

        right.add_widget(self.heading(app.tr("night.ui.about")))
        right.add_widget(self.note(app.tr("night.ui.version", version=companion.__version__,
                                          path=str(path_for(s))),
                                   "settings.about", lines=3))
        columns.add_widget(left_scroll)
        columns.add_widget(right_scroll)
        self.box.add_widget(columns)

    @staticmethod
    def row() -> BoxLayout:
        return follow_height(BoxLayout(spacing=dp(6)), theme.touch())

    @staticmethod
    def heading(text: str) -> Text:
        return Text(text, size=theme.SIZE_SMALL, bold=True, color=theme.ACCENT, size_hint_y=None,
                    height=dp(30))

    @staticmethod
    def note(text: str, tid: str, lines: int = 2, muted: bool = True) -> Text:
        label = Text(text, size=theme.SIZE_SMALL, tid=tid,
                     color=theme.MUTED if muted else theme.TEXT)
        return follow_height(label, dp(22) * lines)

    # -- changes -----------------------------------------------------------------------
    def set_value(self, dotted: str, value: Any) -> None:
        self.change(dotted, value, self.refresh)

    def set_language(self, language: str) -> None:
        app = App.get_running_app()
        # every screen rebuilt, this one included
        self.change("language", language, lambda: app.set_language(language))

    def _then_hardware(self, apply: Callable[[Any], None]) -> Callable[[], None]:
        """Once saved: `apply(station)` where there is one, and the screen drawn again."""
        def then() -> None:
            hardware = App.get_running_app().hardware
            if hardware is not None:
                apply(hardware)
            self.refresh()
        return then

    def set_mute(self, mute: bool) -> None:
        self.change(MUTE, mute, self._then_hardware(lambda h: h.set_mute(mute)))

    def set_volume(self, volume: float) -> None:
        volume = round(min(max(volume, 0.0), 1.0), 1)
        self.change(VOLUME, volume, self._then_hardware(lambda h: h.set_volume(volume)))

    def cycle_tempo(self, tempo: float) -> None:
        value = next_choice(sorted(TEMPOS), tempo)
        self.change(TEMPO, value, self._then_hardware(lambda h: h.set_tempo(value)))

    def cycle_dim(self, seconds: int) -> None:
        app = App.get_running_app()
        value = next_choice(DIM_CHOICES, seconds)

        def then() -> None:
            dimmer = app.night_dimmer
            if dimmer is not None:
                dimmer.seconds = value
            self.refresh()

        self.change(night_prefs.DIM_KEY, value, then)
