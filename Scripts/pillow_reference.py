#!/usr/bin/env python3
"""Golden thumbnails from Pillow, an independent implementation of the same geometry.

Pillow's Resample.c uses the convention thumbgen documents: output pixel i centred at
box0 + (i + 0.5) * scale (pixel x centred at x + 0.5, i.e. thumbgen's "- 0.5" with centres at
integers), the kernel stretched by max(scale, 1), out-of-image taps dropped and weights
renormalised, double-precision weights and sums for 32-bit float ('F') images.

Pillow filters 8-bit images in sRGB with straight alpha, so this script feeds it premultiplied
linear-light channels as separate 'F' images and does the rest (un-premultiply, clamp, sRGB
encode, round half up) in numpy, matching thumbgen's rules. Run from the repository root:

    python3 Scripts/pillow_reference.py

It writes Tests/Reference/pillow/<name>.png; ThumbKitTests compares thumbgen with them (±1).
"""
import numpy as np
from PIL import Image

CASES = [
    # name, source, output size, box (x0, y0, x1, y1) or None
    ("cat-64x96", "Tests/Fixtures/photos/cat-rgba8.png", (64, 96), None),
    ("cat-cover-100x100", "Tests/Fixtures/photos/cat-rgba8.png", (100, 100), (0, 80, 320, 400)),
    ("cat-crop-up-90x70", "Tests/Fixtures/photos/cat-rgba8.png", (90, 70), (100.25, 150.5, 160.25, 197.0)),
]


def decode(v):
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


def encode(v):
    return np.where(v <= 0.0031308, v * 12.92, 1.055 * v ** (1 / 2.4) - 0.055)


def main():
    for name, path, size, box in CASES:
        src = np.asarray(Image.open(path).convert("RGBA")).astype(np.float64) / 255
        alpha = src[..., 3]
        planes = [decode(src[..., c]) * alpha for c in range(3)] + [alpha]
        out = []
        for plane in planes:
            img = Image.fromarray(plane.astype(np.float32), mode="F")
            out.append(np.asarray(img.resize(size, Image.Resampling.LANCZOS, box=box), dtype=np.float64))
        a = np.clip(out[3], 0, 1)
        a8 = np.floor(a * 255 + 0.5)
        rgba = np.zeros(a.shape + (4,), dtype=np.uint8)
        with np.errstate(divide="ignore", invalid="ignore"):
            for c in range(3):
                straight = np.clip(np.where(a > 0, out[c] / a, 0), 0, 1)
                rgba[..., c] = np.floor(encode(straight) * 255 + 0.5)
        rgba[..., 3] = a8
        rgba[a8 == 0] = 0
        Image.fromarray(rgba, mode="RGBA").save(f"Tests/Reference/pillow/{name}.png")
        print(name, size, box)


if __name__ == "__main__":
    main()
