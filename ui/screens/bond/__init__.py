"""Mr. Bond's screens."""
