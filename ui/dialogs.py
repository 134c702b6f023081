"""Modal dialogs: opaque, titled with why the table is asked, big buttons. One dialog is
open at a time; the hardware OK button (and Enter) triggers its default action.

A destructive action (abandon a game, retire a player, restore a backup) goes through
`confirm_loss`, which says what will be lost before anything is done. Names are typed
on `NameKeyboard`: Kivy's own `VKeyboard`, or a plugged-in keyboard."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.core.window import Window
from kivy.graphics import BorderImage, Color, Line, Rectangle
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.modalview import ModalView
from kivy.uix.vkeyboard import VKeyboard

from companion.names import NAME_MAX  # the roster's own limit, shown while typing
from companion.night.facts import is_placeholder
from ui import theme
from ui.widgets.basics import Tap, Text, follow_height, paint_background

Action = Callable[[], Any]


class Dialog(ModalView):
    """A titled dialog. `default` is what the OK button does."""

    def __init__(self, title: str, tid: str, subtitle: str = "", **kwargs: Any) -> None:
        kwargs.setdefault("size_hint", (0.92, 0.9))
        # around the dialog the screen is dimmed, unless a dialog keeps it in view
        kwargs.setdefault("overlay_color", theme.OVERLAY)
        # the body is opaque: nothing of the screen behind shows through it (the
        # ModalView's own see-through image is not drawn)
        super().__init__(auto_dismiss=False, background="", background_color=(0, 0, 0, 0),
                         **kwargs)
        self._drop_unseen_style()
        self.tid = tid
        self.default: Action | None = None
        self._dismissing = False
        self._share: float | None = None  # set when the dialog fits its rows
        self.box = BoxLayout(orientation="vertical", padding=dp(theme.SPACE_M),
                             spacing=dp(theme.SPACE_S))
        paint_background(self.box, theme.PANEL)
        with self.box.canvas.before:
            Color(*theme.OUTLINE)
            frame = Line(rectangle=(0, 0, 0, 0), width=dp(1.5))
        self.box.bind(pos=lambda *_: self._frame(frame), size=lambda *_: self._frame(frame))
        self.box.add_widget(Text(title, size=theme.SIZE_BUTTON, tid=f"{tid}.title",
                                 size_hint_y=None, height=dp(44), bold=True))
        if subtitle:
            self.box.add_widget(Text(subtitle, size=theme.SIZE_SMALL, tid=f"{tid}.subtitle",
                                     size_hint_y=None, height=dp(56), color=theme.MUTED))
        self.add_widget(self.box)

    def _drop_unseen_style(self) -> None:
        """Kivy's rule for a modal view draws a rectangle over the whole window (the
        dimming) and its background image, even where they are transparent: here the
        image always (the body is painted opaque), the dimming when a dialog keeps the
        screen in view. A software renderer fills each, every frame: the window's
        rectangle alone is ~1.2 ms at 800x480. What cannot show is taken out."""
        dims = self.overlay_color[-1] > 0
        for instruction in list(self.canvas.children):
            if isinstance(instruction, BorderImage) or (
                    isinstance(instruction, Rectangle) and not dims):
                self.canvas.remove(instruction)

    def on_pre_open(self) -> None:
        # a dialog of fixed rows only (title, rows of buttons) is as tall as they are,
        # rather than leaving an empty band above its title
        if self.size_hint_y is not None and all(
                child.size_hint_y is None for child in self.box.children):
            self._share = self.size_hint_y  # never taller than the hint allowed
            self.size_hint_y = None
            self.box.bind(minimum_height=self._fit_rows)
        if self._share is not None:
            Window.bind(height=self._fit_rows)  # taken back on dismiss
            self._fit_rows()

    def on_dismiss(self) -> None:
        if self._share is not None:
            Window.unbind(height=self._fit_rows)

    def _fit_rows(self, *_: Any) -> None:
        assert self._share is not None
        self.height = min(self.box.minimum_height, self._share * Window.height)

    def _frame(self, frame: Line) -> None:
        frame.rectangle = (*self.box.pos, *self.box.size)

    def add(self, widget: Any) -> Any:
        self.box.add_widget(widget)
        return widget

    def buttons(self, items: Sequence[tuple[str, str, Action]], cols: int = 0,
                height: float = 56) -> GridLayout:
        grid = GridLayout(cols=cols or len(items), spacing=dp(8), size_hint_y=None)
        rows = -(-len(items) // grid.cols)
        # the buttons grow with the window (follow_height): so does their row
        follow_height(grid, rows * theme.touch(height) + (rows - 1) * dp(8))
        for text, tid, action in items:
            button = Tap(text, tid=tid, size_hint_y=None, height=theme.touch(height))
            button.bind(on_release=lambda _b, a=action: a())
            grid.add_widget(button)
        return self.add(grid)

    def open(self, *args: Any, **kwargs: Any) -> None:
        if not self._is_open:
            # ModalView binds these at each opening and never unbinds them: a dialog
            # opened again (a roll's) would run them once more per opening
            self.funbind("center", self._align_center)
            self.funbind("size", self._align_center)
        super().open(*args, **kwargs)

    def confirm(self) -> None:
        if self.default is not None:
            self.default()

    def dismiss(self, *args: Any, **kwargs: Any) -> None:
        # a handler of this very dismissal may close it again (the app closing "the
        # open dialog"): ModalView counts it open until the end, so that would recurse
        if self._dismissing:
            return
        self._dismissing = True
        try:
            # no fade-out: a closing dialog must not swallow the next touch
            kwargs["animation"] = False
            super().dismiss(*args, **kwargs)
        finally:
            self._dismissing = False


def open_dialog(dialog: Dialog) -> Dialog:
    app = App.get_running_app()
    app.open_dialog(dialog)
    return dialog


def message(title: str, text: str, tid: str = "message",
            size_hint: tuple[float, float] = (0.8, 0.6)) -> Dialog:
    app = App.get_running_app()
    dialog = Dialog(title, tid, size_hint=size_hint)
    dialog.add(Text(text, size=18, tid=f"{tid}.text"))
    dialog.buttons([(app.tr("core.ui.ok"), f"{tid}.ok", dialog.dismiss)])
    dialog.default = dialog.dismiss
    return open_dialog(dialog)


def confirm_loss(title: str, loss: str, action: str, on_yes: Action,
                 tid: str = "confirm") -> Dialog:
    """Ask before a destructive action. `title` says what is asked, `loss` what will be
    lost; the red button (`action`) does it, Cancel (the default) keeps everything."""
    app = App.get_running_app()
    dialog = Dialog(title, tid, size_hint=(0.84, 0.7))
    dialog.add(Text(loss, size=theme.SIZE_BODY, tid=f"{tid}.text", valign="top"))

    def yes() -> None:
        dialog.dismiss()
        on_yes()

    row = dialog.buttons([(app.tr("core.ui.cancel"), f"{tid}.cancel", dialog.dismiss),
                          (action, f"{tid}.yes", yes)])
    row.children[0].set_background(theme.DANGER)
    dialog.default = dialog.dismiss  # the hardware OK never destroys anything
    return open_dialog(dialog)


# -- names -------------------------------------------------------------------------
_KEYBOARDS = Path(VKeyboard.layout_path.defaultvalue)
LATCH = -2  # `active_keys`' entry for a latched shift (Kivy uses -1 for capslock)


#: keys a name never needs, turned into letters names do need (mode -> row -> swaps):
#: AZERTY keeps é è ç à ù ' - where a French keyboard has them
_FRENCH_SWAPS = {
    "normal": {1: {"@": "ê", "&": "ë", '"': "ï", "[": "ô", "_": "â", "]": "î", "=": "ü"},
               2: {"\u21b9": "œ", "^": "û", "$": "ÿ"}, 3: {"*": "ä"}, 4: {"<": "ö"}},
    "shift": {2: {"\u21b9": "Œ"}},
}
#: QWERTY with the accents of names typed in English (Zoë, José, Chloé, Søren) on the
#: digits' row; the digits under shift
_ENGLISH_SWAPS = {
    "normal": {1: {"`": "é", "1": "è", "2": "ê", "3": "ë", "4": "á", "5": "à", "6": "ä",
                   "7": "í", "8": "ï", "9": "ó", "0": "ö", "=": "ü"},
               2: {"\u21b9": "ñ", "[": "å", "]": "ø", "\\": "ç"}},
    "shift": {1: {"~": "Ñ", "!": "1", "@": "2", "#": "3", "$": "4", "%": "5", "^": "6",
                  "&": "7", "*": "8", "(": "9", ")": "0", "+": "Ç"},
              2: {"\u21b9": "Ñ", "{": "Å", "}": "Ø", "|": "Ç"}},
}


def _names_layout(base: str, title: str,
                  swaps: dict[str, dict[int, dict[str, str]]]) -> dict[str, Any]:
    """One of Kivy's own layouts with the swaps above: every letter a name needs is one
    tap away, in the order the table's own keyboards have them."""
    layout = json.loads((_KEYBOARDS / f"{base}.json").read_text(encoding="utf-8"))
    for mode, rows in swaps.items():
        for row, swap in rows.items():
            for key in layout[f"{mode}_{row}"]:
                if key[0] in swap:
                    key[0] = key[1] = key[2] = swap[key[0]]
    layout["title"] = title
    return layout


#: the app's language -> (its layout's name, Kivy's layout it starts from, the swaps)
LAYOUTS = {"fr": ("fr_names", "azerty", _FRENCH_SWAPS),
           "en": ("en_names", "qwerty", _ENGLISH_SWAPS)}


def _app_scale() -> float:
    return float(getattr(App.get_running_app(), "scale", 1.0))


class NameKeys(VKeyboard):
    """Kivy's on-screen keyboard, fixed in place inside the dialog (no dragging,
    turning or zooming), its keys drawn in the app's colours."""

    def __init__(self, language: str, **kwargs: Any) -> None:
        super().__init__(size_hint=(1, 1), do_translation=False, do_rotation=False,
                         do_scale=False, margin_hint=[0, 0, 0, 0], key_margin=[3, 1, 3, 1],
                         background_color=theme.PANEL,
                         # tints Kivy's light key image dark: white labels at ~6:1
                         key_background_color=(0.42, 0.45, 0.52, 1),
                         font_size=dp(theme.SIZE_BUTTON) * _app_scale(), **kwargs)
        name, base, swaps = LAYOUTS.get(language, LAYOUTS["en"])
        self.available_layouts[name] = _names_layout(base, name, swaps)
        self.layout = name
        self.shift_latched = False  # shift tapped once: the next key only
        self.bind(size=lambda *_: self.layout in self.available_layouts
                  and self.refresh(True))

    # -- shift, a single tap -------------------------------------------------------------
    # Kivy's shift holds only while pressed (a second finger types the capital); on a
    # table's screen one tap on shift makes the next key a capital, a second tap undoes
    # it. Capslock keeps Kivy's own behaviour.
    def _key_at(self, touch: Any) -> Any:
        return self.get_key_at_pos(*self.to_local(*touch.pos)) if touch else None

    def process_key_on(self, touch: Any) -> None:
        key = self._key_at(touch)
        if key and key[0][2] == "shift" and self.shift_latched:
            self._unlatch()  # tapped again: back to small letters
            return
        super().process_key_on(touch)

    def process_key_up(self, touch: Any) -> None:
        pressed = touch.ud.get(self.uid)
        special = pressed["key"][0][2] if pressed else None
        if special == "shift":
            self.active_keys.pop(touch.uid, None)
            self.active_keys[LATCH] = pressed["key"][1]  # drawn pressed meanwhile
            self.shift_latched = True  # have_shift stays: the shift layer shows
            self.refresh_active_keys_layer()
            return
        super().process_key_up(touch)
        if pressed and self.shift_latched and special not in ("capslock", "layout"):
            self._unlatch()

    def _unlatch(self) -> None:
        self.shift_latched = False
        self.have_shift = False
        self.active_keys.pop(LATCH, None)
        self.refresh_active_keys_layer()

    def key_center(self, char: str) -> tuple[float, float] | None:
        """Where a finger touches to type `char`, or the key named `char` ("shift",
        "backspace"), in window coordinates; None if there is none."""
        layout = self.available_layouts.get(self.layout)
        if layout is None or "LINE_1" not in self.layout_geometry:
            return None
        for line in range(1, layout["rows"] + 1):
            for index, key in enumerate(layout[f"{self.layout_mode}_{line}"]):
                named = len(char) > 1 and key[1] is None and key[2] == char
                if named or (key[1] is not None and key[1].lower() == char.lower()):
                    (x, y), (w, h) = self.layout_geometry[f"LINE_{line}"][index]
                    # the keyboard is a Scatter: its own transform, then its parents'
                    return self.parent.to_window(*self.to_parent(x + w / 2, y + h / 2))
        return None


class NameKeyboard(Dialog):
    """A player's name: typed on Kivy's `VKeyboard` (AZERTY in French, QWERTY with
    accents in English, after the app's language; shift is one tap), or on a plugged-in
    keyboard, which then hides the on-screen one. A placeholder name is a hint the first
    key replaces; a name starts with a capital by itself. The counter shows the length
    against NAME_MAX; Cancel keeps the old name, OK with nothing typed too."""

    def __init__(self, title: str, initial: str, on_done: Callable[[str], None]) -> None:
        super().__init__(title, "keyboard", size_hint=(0.98, 0.98))
        app = App.get_running_app()
        # a seat nobody named shows its placeholder ("Player 2") as a hint, which the
        # first key replaces: typing never gives "Player 2a"
        self.hint = initial if is_placeholder(initial) else ""
        self.value = "" if self.hint else initial[:NAME_MAX]
        self.on_done = on_done
        top = follow_height(BoxLayout(spacing=dp(theme.SPACE_S)), theme.touch(52))
        self.shown = Text(self.value, size=theme.SIZE_TITLE, tid="keyboard.value",
                          halign="center", bold=True)
        paint_background(self.shown, theme.BACKGROUND)
        self.counter = Text("", size=theme.SIZE_SMALL, tid="keyboard.count", halign="center",
                            color=theme.MUTED, size_hint_x=None, width=dp(70))
        clear = Tap(app.tr("core.ui.clear"), tid="keyboard.clear", size_hint_x=None,
                    width=dp(110))
        clear.bind(on_release=lambda _b: self.clear())
        for widget in (self.shown, self.counter, clear):
            top.add_widget(widget)
        self.add(top)
        self.keys = self.add(NameKeys(app.translator.language))
        self.keys.bind(on_textinput=lambda _k, text: self.type(text),
                       on_key_down=self._virtual_key)
        self.buttons([
            (app.tr("core.ui.cancel"), "keyboard.cancel", self.dismiss),
            (app.tr("core.ui.ok"), "keyboard.ok", self.done),
        ], height=52)
        self.default = self.done
        self._show()
        Window.bind(on_textinput=self._physical_text, on_key_down=self._physical_key)

    # -- typing ------------------------------------------------------------------------
    def type(self, text: str) -> None:
        for ch in text:
            if not ch.isprintable() or len(self.value) >= NAME_MAX:
                continue
            # names read best capitalised: a word starts with a capital
            starts_word = not self.value or self.value.endswith((" ", "-", "'"))
            self.value += ch.upper() if starts_word else ch
        self._show()

    def backspace(self) -> None:
        self.value = self.value[:-1]
        self._show()

    def clear(self) -> None:
        self.value = ""
        self._show()

    def _show(self) -> None:
        self.shown.text = self.value or self.hint
        self.shown.color = theme.TEXT if self.value else theme.MUTED
        self.counter.text = f"{len(self.value)}/{NAME_MAX}"
        self.counter.color = theme.ACCENT if len(self.value) >= NAME_MAX else theme.MUTED

    def _virtual_key(self, _keys: Any, keycode: str | None, internal: str | None,
                     _modifiers: Any) -> None:
        if keycode == "backspace":
            self.backspace()
        elif keycode == "enter":
            self.done()
        elif keycode == "escape":
            self.dismiss()
        elif internal and keycode not in ("shift", "capslock", "special", "layout"):
            self.type(internal)  # a window without text input events (not SDL2)

    # -- a physical keyboard ------------------------------------------------------------
    def _physical_text(self, _window: Any, text: str) -> None:
        self._hide_keys()
        self.type(text)

    def _physical_key(self, _window: Any, key: int, *_: Any) -> None:
        if key == 8:  # Backspace (Enter and Escape are the app's OK and Cancel)
            self._hide_keys()
            self.backspace()

    def _hide_keys(self) -> None:
        """Someone types on a real keyboard: the on-screen one only takes room."""
        if self.keys.parent is not None:
            self.box.remove_widget(self.keys)
            self.size_hint = (0.9, 0.5)

    def done(self) -> None:
        self.dismiss()
        self.on_done(self.value.strip())

    def dismiss(self, *args: Any, **kwargs: Any) -> None:
        Window.unbind(on_textinput=self._physical_text, on_key_down=self._physical_key)
        super().dismiss(*args, **kwargs)

    def locate(self, tid: str) -> tuple[float, float] | None:
        """Where a finger touches `keyboard.<char>` (the keys are drawn, not widgets)."""
        prefix = "keyboard."
        if not tid.startswith(prefix) or (len(tid) != len(prefix) + 1 and tid[len(prefix):]
                                          not in ("shift", "capslock", "backspace")):
            return None
        return self.keys.key_center(tid[len(prefix):])
