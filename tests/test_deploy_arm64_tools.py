"""The helper of `make test-arm64` (tests/arm64.sh) that keeps the emulated Pi's first
frame: Xvfb's screen file (XWD) to PNG, checked on a screen made here pixel by pixel."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

from tests.xwd_png import main, png, xwd_to_rgb


def xwd(width: int, height: int, pixels: list[int]) -> bytes:
    """An XWD file as Xvfb -fbdir writes it: 32 bits a pixel, little-endian, 0xRRGGBB."""
    name = b"Xvfb\x00"
    header_size = 25 * 4 + len(name)
    fields = [header_size, 7, 2, 24, width, height, 0, 0, 32, 0, 32, 32, width * 4, 4,
              0xFF0000, 0x00FF00, 0x0000FF, 8, 256, 0, width, height, 0, 0, 0]
    body = struct.pack(f"<{len(pixels)}I", *pixels)
    return struct.pack(">25I", *fields) + name + body


def test_a_screen_file_becomes_the_same_pixels_in_a_png(tmp_path: Path) -> None:
    red, green, blue, white = 0xFF0000, 0x00FF00, 0x0000FF, 0xFFFFFF
    data = xwd(2, 2, [red, green, blue, white])
    width, height, raw = xwd_to_rgb(data)
    assert (width, height) == (2, 2)
    assert raw == bytes([0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 255, 255, 255])
    source, target = tmp_path / "Xvfb_screen0", tmp_path / "frame.png"
    source.write_bytes(data)
    assert main([str(source), str(target)]) == 0
    written = target.read_bytes()
    assert written == png(2, 2, raw) and written.startswith(b"\x89PNG\r\n\x1a\n")
    # IHDR then IDAT: the rows come back out of the PNG unchanged
    idat = written.index(b"IDAT")
    length = struct.unpack(">I", written[idat - 4: idat])[0]
    assert zlib.decompress(written[idat + 4: idat + 4 + length]) == raw
