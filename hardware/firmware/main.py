"""Firmware for the LED ring: a Raspberry Pi Pico running MicroPython, a WS2812 ring.

Copy main.py, ringproto.py and ringpixels.py to the Pico (e.g. `mpremote cp
hardware/firmware/*.py :`; __init__.py is not needed). The Pico speaks the line protocol
of ringproto.py on its USB serial port; see hardware/README.md for the wiring.
"""

import select
import sys
import time

import machine
import micropython
import neopixel
import ringpixels
import ringproto

FIRMWARE = "pico-1.0"
DATA_PIN = 0  # GP0 -> the ring's DIN
PIXELS = 24  # 12 or 24
BRIGHTNESS = 64  # 0..255: a ring at full power dazzles and draws too much from USB
ROTATE = 0  # pixels to turn the picture by, if pixel 0 is not at XII

micropython.kbd_intr(-1)  # a 0x03 byte in the stream must not stop the program
ring = neopixel.NeoPixel(machine.Pin(DATA_PIN), PIXELS)
device = ringproto.Device(PIXELS, FIRMWARE)
poll = select.poll()
poll.register(sys.stdin, select.POLLIN)
out = sys.stdout


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
        frame = (device.frames, now // 50)  # redraw on a new frame and for blinking
        if frame != last:
            show(now)
            last = frame
        time.sleep_ms(5)


main()
