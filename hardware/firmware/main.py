"""Firmware for the LED ring: a Raspberry Pi Pico running MicroPython, a WS2812 ring.

Copy main.py, ringproto.py, ringpixels.py and seatbuttons.py to the Pico (e.g. `mpremote cp
hardware/firmware/*.py :`; __init__.py is not needed). The Pico speaks the line protocol
of ringproto.py on its USB serial port; see hardware/README.md for the wiring.

Updating it: once running, the program ignores Ctrl-C (a 0x03 byte in the stream must
not stop it), so it leaves two ways in for `mpremote`: hold the button on GP15 (to GND)
while plugging the Pico in, or run `mpremote` within GRACE_MS of plugging it in (its
Ctrl-C stops the program before it starts). Either way the REPL stays, and
`mpremote cp ...` works as on a fresh Pico.
"""

import select
import sys
import time

import machine
import micropython
import neopixel
import ringpixels
import ringproto
import seatbuttons

FIRMWARE = "pico-1.0"
DATA_PIN = 0  # GP0 -> the ring's DIN
PIXELS = 24  # 12 or 24
BRIGHTNESS = 64  # 0..255: a ring at full power dazzles and draws too much from USB
ROTATE = 0  # pixels to turn the picture by, if pixel 0 is not at XII
UPDATE_PIN = 15  # GP15 (pin 20) held to GND at power-up: stay in the REPL, to update
GRACE_MS = 2000  # after power-up, a Ctrl-C (mpremote) this soon stays in the REPL too
#: optional seat buttons, seat 1 first: each between its pin and GND (pull-up on). A
#: seat without a button reads released forever; an empty list reads none
SEAT_PINS = [2, 3, 4, 5, 6, 7, 8, 9]  # GP2..GP9 (pins 4-7, 9-12)

ring = neopixel.NeoPixel(machine.Pin(DATA_PIN), PIXELS)
device = ringproto.Device(PIXELS, FIRMWARE)
poll = select.poll()
poll.register(sys.stdin, select.POLLIN)
out = sys.stdout
seats = [machine.Pin(p, machine.Pin.IN, machine.Pin.PULL_UP) for p in SEAT_PINS]
buttons = seatbuttons.SeatButtons(len(seats), diff=time.ticks_diff)


def wants_update():
    """The button held, or a Ctrl-C during the grace time: leave the REPL to mpremote."""
    if machine.Pin(UPDATE_PIN, machine.Pin.IN, machine.Pin.PULL_UP).value() == 0:
        return True
    try:
        time.sleep_ms(GRACE_MS)  # Ctrl-C arrives here as KeyboardInterrupt
    except KeyboardInterrupt:
        return True
    return False


def show(now):
    pixels = ringpixels.render(device.state, PIXELS, now, BRIGHTNESS)
    for i, colour in enumerate(pixels):
        ring[(i + ROTATE) % PIXELS] = colour
    ring.write()


def main():
    out.write(device.boot())
    show(time.ticks_ms())
    last = None
    while True:
        while poll.poll(0):
            for reply in device.feed(sys.stdin.buffer.read(1)):
                out.write(reply)
        now = time.ticks_ms()
        for seat in buttons.sample([pin.value() == 0 for pin in seats], now):
            out.write(ringproto.press_line(seat))
        frame = (device.frames, now // 50)  # redraw on a new frame and for blinking
        if frame != last:
            show(now)
            last = frame
        time.sleep_ms(5)


if wants_update():
    ring.fill((0, 0, 16))  # dim blue: waiting for an update
    ring.write()
    print("ring firmware: update mode, the REPL is yours (mpremote cp ...; then reset)")
else:
    micropython.kbd_intr(-1)  # from now on a 0x03 byte in the stream must not stop us
    main()
