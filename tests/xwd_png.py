"""Xvfb's screen file (`-fbdir`, X's XWD format) to a PNG, with the standard library only:
`python3 tests/xwd_png.py Xvfb_screen0 out.png` (tests/arm64.sh keeps the arm64 root's
first frame this way, on the host, where Kivy is not needed)."""

from __future__ import annotations

import struct
import sys
import zlib
from pathlib import Path

HEADER_FIELDS = 25  # CARD32 each, big-endian, before the window name


def _shift(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def xwd_to_rgb(data: bytes) -> tuple[int, int, bytes]:
    fields = struct.unpack(f">{HEADER_FIELDS}I", data[: HEADER_FIELDS * 4])
    header_size, _version, _format, _depth, width, height = fields[:6]
    byte_order, bits_per_pixel, bytes_per_line = fields[7], fields[11], fields[12]
    red_mask, green_mask, blue_mask, ncolors = fields[14], fields[15], fields[16], fields[19]
    if bits_per_pixel != 32:
        raise ValueError(f"{bits_per_pixel} bits per pixel: only Xvfb's 32 are read")
    start = header_size + 12 * ncolors
    order = "<" if byte_order == 0 else ">"
    masks = [(m, _shift(m)) for m in (red_mask, green_mask, blue_mask)]
    rows = []
    for y in range(height):
        line = data[start + y * bytes_per_line: start + y * bytes_per_line + width * 4]
        pixels = struct.unpack(f"{order}{width}I", line)
        row = bytearray([0])  # PNG filter: none
        for p in pixels:
            row += bytes((p & m) >> s for m, s in masks)
        rows.append(bytes(row))
    return width, height, b"".join(rows)


def png(width: int, height: int, raw: bytes) -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))

    head = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head)
            + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))


def main(argv: list[str]) -> int:
    source, target = Path(argv[0]), Path(argv[1])
    width, height, raw = xwd_to_rgb(source.read_bytes())
    target.write_bytes(png(width, height, raw))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
