"""What each pixel of the ring shows for a decoded STATE: pure, shared like ringproto.

Runs on MicroPython and CPython. Pixel 0 sits at XII and the ring runs clockwise (turn
the ring or set ROTATE in main.py if yours starts elsewhere). With more pixels than dial
positions, each position gets a run of pixels and only the first of the run is drawn.
"""

COLOURS = {
    "red": (255, 0, 0), "green": (0, 200, 0), "blue": (0, 0, 255),
    "yellow": (255, 160, 0), "purple": (150, 0, 200), "white": (255, 255, 255),
}
TIME = (255, 255, 255)
POWER = (40, 0, 60)  # a pending power activation: the whole ring glows faintly
WON = (0, 120, 0)
LOST = (120, 0, 0)
IDLE = (0, 0, 8)


def scale(colour, brightness):
    return (colour[0] * brightness // 255, colour[1] * brightness // 255,
            colour[2] * brightness // 255)


def pixel_of(position, dial, pixels):
    return position * pixels // dial


def render(state, pixels, now_ms=0, brightness=64):
    """A list of (r, g, b) for every pixel. Treasures 2 steps or fewer from the time
    marker blink (faster at 1), like the treasure LEDs."""
    if state is None or state["dial"] == 0 or state["mode"] == "idle":
        return [scale(IDLE, 255)] * pixels
    if state["mode"] in ("won", "lost"):
        return [scale(WON if state["mode"] == "won" else LOST, brightness)] * pixels
    dial, time = state["dial"], state["time"]
    base = scale(POWER, brightness) if state["pending"] else (0, 0, 0)
    out = [base] * pixels
    for colour, steps in state["treasures"]:
        if steps is None:
            continue
        if steps == 1 and (now_ms // 150) % 2:
            continue
        if steps == 2 and (now_ms // 400) % 2:
            continue
        out[pixel_of((time + steps) % dial, dial, pixels)] = scale(
            COLOURS.get(colour, COLOURS["white"]), brightness)
    out[pixel_of(time, dial, pixels)] = scale(TIME, brightness)
    return out
