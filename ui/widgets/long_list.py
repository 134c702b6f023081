"""Lists of any length (the roster on the Players screen and in the picker): Kivy's
RecycleView, which builds only the rows in view and re-tells them as the list scrolls,
fed a page of rows a frame.

A row is a `data` item: the name of its view class (`viewclass`), its height at 800x480
(`base`, the list sets `height` from the app's scale) and what the view shows; a view
class re-tells itself in `refresh_view_attrs` (`RecycleDataViewBehavior`). The first
page is shown in the frame the list is fed; each next frame adds one, until the pages
run out or the list is taken off the screen. So the frame that opens a roster of
10 000 players builds the rows a screen holds, not 30 000 widgets.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from kivy.clock import Clock
from kivy.metrics import dp
from kivy.properties import NumericProperty
from kivy.uix.recycleboxlayout import RecycleBoxLayout
from kivy.uix.recycleview import RecycleView

from ui.widgets.basics import _follow

Item = dict[str, Any]


class LongList(RecycleView):
    row_scale = NumericProperty(1.0)  # the app's scale, which the rows' heights follow

    def __init__(self, spacing: float = 4, **kwargs: Any) -> None:
        super().__init__(do_scroll_x=False, bar_width=dp(6), scroll_type=["bars", "content"],
                         **kwargs)
        self.rows = RecycleBoxLayout(orientation="vertical", spacing=dp(spacing),
                                     size_hint_y=None, default_size_hint=(1, None),
                                     default_size=(None, dp(56)), key_viewclass="viewclass")
        self.rows.bind(minimum_height=self.rows.setter("height"))
        self.add_widget(self.rows)
        self._feeding: Iterator[list[Item]] | None = None
        self._next_page = Clock.create_trigger(self._feed_one)
        self.on_complete: Callable[[], None] = lambda: None
        # the rows' heights follow the app's scale (held weakly, as every text size)
        _follow(self, "row_scale", 1.0)

    def feed(self, pages: Iterator[list[Item]]) -> None:
        """Show these rows: the first page now, one more each frame."""
        self.data = []
        self._feeding = pages
        self._feed_one()

    @property
    def complete(self) -> bool:
        """Every page is in `data`."""
        return self._feeding is None

    def _feed_one(self, *_: Any) -> None:
        pages = self._feeding
        if pages is None:
            return
        if self.data and self.get_root_window() is None:  # off the screen: read no more
            self._feeding = None
            return
        page = next(pages, None)
        if page is None:
            self._feeding = None
            self.on_complete()
            return
        for item in page:
            item["height"] = item["base"] * self.row_scale
        self.data.extend(page)
        self._next_page()

    def on_row_scale(self, _list: Any, scale: float) -> None:
        for item in self.data:
            item["height"] = item["base"] * scale
        self.refresh_from_data()

    def update(self, index: int, **changes: Any) -> None:
        """Change what row `index` shows (its view, if built, is re-told)."""
        self.data[index] = {**self.data[index], **changes}
