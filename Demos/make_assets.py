#!/usr/bin/env python3
"""Draws the demo apps' images as small PNG files (stdlib only: zlib + struct).

    python3 Demos/make_assets.py          # writes Demos/<app>/assets/*.png

Posters are flat-colour compositions (a sky gradient, a sun or moon, hills, a few
shapes), not artwork: enough for the renderer to draw something recognisable per title.
Every file stays under 40 KB and inside the spec's pixel limits (widget images
≤ 718,080 px of area; Live Activity images ≤ their presentation at 3×).
"""
import math
import pathlib
import struct
import zlib

ROOT = pathlib.Path(__file__).resolve().parent
MAX_BYTES = 40 * 1024
WIDGET_MAX_AREA = 718_080


def png(width, height, pixel):
    """An 8-bit RGB PNG; `pixel(x, y)` returns (r, g, b)."""
    rows = bytearray()
    for y in range(height):
        rows.append(0)  # filter: none
        for x in range(width):
            rows.extend(pixel(x, y))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(bytes(rows), 9)) + chunk(b"IEND", b""))


def mix(a, b, t):
    return tuple(int(a[i] + (b[i] - a[i]) * t) for i in range(3))


def poster(width, height, sky_top, sky_bottom, sun, ground, accents, bands=12):
    """A sky in `bands` flat steps, a sun, a hill, and accent discs (cx, cy, r, colour)
    in unit coordinates. Flat bands keep the file small."""
    sun_x, sun_y, sun_r, sun_colour = sun

    def pixel(x, y):
        u, v = x / width, y / height
        for cx, cy, r, colour in accents:
            if (u - cx) ** 2 + ((v - cy) * height / width) ** 2 <= r * r:
                return colour
        hill = 0.72 + 0.06 * math.sin(u * math.pi * 2)
        if v >= hill:
            return ground
        if (u - sun_x) ** 2 + ((v - sun_y) * height / width) ** 2 <= sun_r * sun_r:
            return sun_colour
        return mix(sky_top, sky_bottom, int(v * bands) / bands)

    return png(width, height, pixel)


def avatar(size, skin, hair, shirt):
    """A round face over shoulders on a soft background, for a driver."""
    def pixel(x, y):
        u, v = x / size, y / size
        if (u - 0.5) ** 2 + (v - 1.05) ** 2 <= 0.42 ** 2:
            return shirt
        if (u - 0.5) ** 2 + (v - 0.42) ** 2 <= 0.22 ** 2:
            return hair if v < 0.32 else skin
        return (230, 236, 245)
    return png(size, size, pixel)


PIXAR = {  # 150×225: a poster at 3× of a 50×75-pt thumbnail
    "coco-poster": ((255, 140, 60), (120, 40, 120), (0.7, 0.25, 0.12, (255, 230, 120)), (60, 30, 70),
                    [(0.3, 0.55, 0.08, (250, 250, 250)), (0.5, 0.6, 0.05, (255, 90, 160))]),
    "up-poster": ((120, 200, 255), (220, 240, 255), (0.8, 0.15, 0.1, (255, 250, 200)), (90, 160, 80),
                  [(0.45, 0.3, 0.07, (255, 80, 80)), (0.55, 0.27, 0.07, (255, 220, 60)), (0.5, 0.38, 0.07, (90, 140, 255))]),
    "walle-poster": ((20, 20, 50), (200, 120, 60), (0.25, 0.2, 0.08, (240, 240, 255)), (140, 100, 60),
                     [(0.55, 0.62, 0.1, (230, 180, 40)), (0.72, 0.3, 0.03, (255, 255, 255))]),
    "toy-story-poster": ((90, 170, 255), (170, 215, 255), (0.2, 0.15, 0.07, (255, 255, 255)), (230, 190, 90),
                         [(0.6, 0.2, 0.09, (255, 255, 255)), (0.4, 0.55, 0.08, (230, 60, 50))]),
    "inside-out-poster": ((70, 40, 140), (250, 200, 90), (0.5, 0.3, 0.1, (255, 230, 80)), (60, 90, 200),
                          [(0.25, 0.55, 0.06, (230, 60, 60)), (0.75, 0.55, 0.06, (90, 200, 90))]),
}

MOVIES = {  # 360×360: a systemSmall/medium backdrop (the widget scales it to fill)
    "infinity": ((40, 10, 60), (150, 60, 160), (0.5, 0.35, 0.18, (250, 200, 60)), (30, 20, 40),
                 [(0.2, 0.3, 0.04, (60, 120, 255)), (0.8, 0.3, 0.04, (255, 60, 60)), (0.35, 0.2, 0.03, (80, 220, 120))]),
    "endgame": ((10, 10, 30), (90, 40, 140), (0.5, 0.4, 0.22, (230, 230, 255)), (20, 20, 30),
               [(0.5, 0.4, 0.1, (10, 10, 30))]),
    "gog3": ((250, 120, 180), (60, 200, 230), (0.3, 0.25, 0.12, (255, 255, 150)), (40, 40, 90),
            [(0.7, 0.45, 0.08, (255, 170, 40)), (0.8, 0.2, 0.03, (255, 255, 255))]),
}

DRIVERS = {  # 108×108: 36 pt at 3×, the Lock Screen avatar
    "Tim": ((240, 200, 170), (90, 60, 40), (220, 40, 40)),
    "John": ((200, 150, 110), (30, 30, 30), (40, 110, 220)),
}


def write(path, data, width, height):
    assert len(data) <= MAX_BYTES, f"{path}: {len(data)} bytes"
    assert width * height <= WIDGET_MAX_AREA, f"{path}: {width}×{height}"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    print(f"{path.relative_to(ROOT)}  {width}×{height}  {len(data)} bytes")


def main():
    for name, args in PIXAR.items():
        write(ROOT / "pixar" / "assets" / f"{name}.png", poster(150, 225, *args), 150, 225)
    for name, args in MOVIES.items():
        write(ROOT / "movieplanner" / "assets" / f"{name}.png", poster(360, 360, *args), 360, 360)
    for name, args in DRIVERS.items():
        write(ROOT / "pizza" / "assets" / f"{name.lower()}.png", avatar(108, *args), 108, 108)


if __name__ == "__main__":
    main()
