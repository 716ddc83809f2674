"""Draw prefscore's icons: a white spade on the card table's felt (static/icons/).

Run once, output committed: ``python tools/make_icons.py``. Pure Python (zlib), so it
needs nothing installed; each pixel is the mean of 4×4 samples of the shape.
The maskable icon keeps the spade inside the safe zone (the middle 80%), filled to the
edge; the others are a rounded square. The favicon is an ICO holding 16, 32 and 48 px
PNGs (every browser since 2007 reads PNGs inside an ICO).
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "static" / "icons"
FELT = (11, 93, 59)  # --felt in static/css/prefscore.css
WHITE = (255, 255, 255)
SAMPLES = 4


def in_spade(x: float, y: float) -> bool:
    """The spade in a unit square (0..1, y down): a heart upside down and a stem."""
    # Two lobes, the point at the top: the region above two circles' tangents.
    for cx in (0.36, 0.64):
        if (x - cx) ** 2 + (y - 0.56) ** 2 <= 0.145**2:
            return True
    # The upper body: a triangle from the top point to the lobes' outer sides.
    if 0.18 <= y <= 0.6:
        half = 0.32 * (y - 0.18) / 0.42
        if abs(x - 0.5) <= half:
            return True
    # The stem, widening to its foot.
    if 0.56 <= y <= 0.84:
        half = 0.03 + 0.11 * ((y - 0.56) / 0.28) ** 2
        return abs(x - 0.5) <= half
    return False


def in_rounded_square(x: float, y: float, radius: float) -> bool:
    dx = max(radius - x, 0.0, x - (1 - radius))
    dy = max(radius - y, 0.0, y - (1 - radius))
    return dx * dx + dy * dy <= radius * radius


def draw(size: int, *, maskable: bool) -> bytes:
    """RGBA rows of the icon at ``size`` pixels."""
    scale = 0.62 if maskable else 0.8  # the spade's share of the side
    rows = bytearray()
    for py in range(size):
        rows.append(0)  # PNG filter: none
        for px in range(size):
            felt = spade = 0
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    x = (px + (sx + 0.5) / SAMPLES) / size
                    y = (py + (sy + 0.5) / SAMPLES) / size
                    if maskable or in_rounded_square(x, y, 0.18):
                        felt += 1
                        u = (x - 0.5) / scale + 0.5
                        v = (y - 0.5) / scale + 0.5
                        spade += in_spade(u, v)
            total = SAMPLES * SAMPLES
            alpha = felt / total
            share = spade / felt if felt else 0.0
            colour = [round(f + (w - f) * share) for f, w in zip(FELT, WHITE, strict=True)]
            rows.extend((*colour, round(alpha * 255)))
    return bytes(rows)


def png(size: int, *, maskable: bool = False) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    raw = draw(size, maskable=maskable)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def ico(sizes: tuple[int, ...]) -> bytes:
    images = [png(size) for size in sizes]
    out = struct.pack("<HHH", 0, 1, len(images))
    offset = 6 + 16 * len(images)
    for size, image in zip(sizes, images, strict=True):
        out += struct.pack("<BBBBHHII", size % 256, size % 256, 0, 0, 1, 32, len(image), offset)
        offset += len(image)
    return out + b"".join(images)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "icon-192.png").write_bytes(png(192))
    (OUT / "icon-512.png").write_bytes(png(512))
    (OUT / "maskable-512.png").write_bytes(png(512, maskable=True))
    (OUT / "apple-touch-icon.png").write_bytes(png(180, maskable=True))  # iOS rounds it
    (OUT / "favicon.ico").write_bytes(ico((16, 32, 48)))


if __name__ == "__main__":
    main()
