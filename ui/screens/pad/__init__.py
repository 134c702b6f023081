"""The score pad's screens: set-up, the sheet with its keypad, the standings, the end."""
