"""The LED ring's firmware (MicroPython); importable by CPython for its pure modules."""
