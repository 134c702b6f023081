"""The table clock's screens: set-up, play (the time, the seats' banks) and the end."""
