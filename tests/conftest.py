"""Shared fixtures. Kivy is kept quiet and away from the user's files in every test."""

from __future__ import annotations

import os
import tempfile

# Before anything imports kivy: no argv parsing, no log files, a throw-away KIVY_HOME.
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")

import pytest

from companion import config


@pytest.fixture(scope="session")
def defaults() -> config.Config:
    return config.load(use_default_user_file=False)
