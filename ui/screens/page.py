"""A screen that is one vertical page, rebuilt by `refresh` each time it is shown."""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen


class PageScreen(Screen):
    """Its content goes in `self.box`; `refresh` (re)builds it before the screen shows."""

    PADDING, SPACING = 8, 6  # dp

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.box = BoxLayout(orientation="vertical", padding=dp(self.PADDING),
                             spacing=dp(self.SPACING))
        self.add_widget(self.box)

    def on_pre_enter(self, *_: Any) -> None:
        self.refresh()

    def refresh(self) -> None:  # pragma: no cover - every page has its own
        raise NotImplementedError
