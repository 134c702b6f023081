"""The dice tray's screens."""
