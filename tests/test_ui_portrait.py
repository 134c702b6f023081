"""A portrait panel left at rotation 0 (a 720x1280 Touch Display 2 not turned): the
home screen says how to turn the app (issue 29). Real window sizes."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.ui


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_portrait_window_says_to_set_display_rotation(launch: Any, language: str) -> None:
    from tests import screen_audit

    ui = launch(language=language)
    assert ui.visible("home.portrait") is None  # landscape: nothing to say
    ui.resize(480, 800)
    try:
        assert ui.screen == "home"
        hint = ui.text("home.portrait")
        assert "display.rotation" in hint and "90" in hint and "config.yaml" in hint
        screen = ui.app.root.get_screen("home")
        found = [v for v in screen_audit.audit(screen, "home", language, ui.app.scale)
                 if v.widget == "home.portrait"]
        assert found == [], found  # whole, readable
        ui.screenshot(f"home-portrait-{language}")
    finally:
        ui.resize(800, 480)
    assert ui.visible("home.portrait") is None
