"""The domain of Table Companion: rules, dice, session, journal, config. Pure Python.

Nothing in this package imports kivy, gpiozero or serial, so it runs and is tested
without a display and without pins.
"""

__version__ = "0.1.0"
