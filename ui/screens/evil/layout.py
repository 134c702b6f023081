"""The play screen's split, which Pr. Evil's dialogs follow too: they open over the
dial's side, so they take its share of the width."""

LEFT_SHARE = 0.44  # of the width: the dial's side, where the dialogs open
