#!/usr/bin/env python3
"""Writes Tests/Fixtures/icons/: masters for `thumbgen icons` and its tests, drawn with Pillow.

- master.png: 1024x1024, opaque (full-bleed art: a blue gradient with a white "T" and a yellow dot).
- logo.png: 1024x1024, transparent but for an orange disc with a white star (art that needs a
  background where a platform forbids alpha, and that --fit-content trims).
- dark.png: the "T" alone, light blue on transparency (the iOS dark appearance).
- small16.png: a hand-drawn 16x16 version of master.png (a --size-source).
- layer.png: 432x432, an Android adaptive foreground layer designed full bleed: a green ring whose
  outer edge reaches 40 dp of the 108 dp layer, past the 66 dp safe circle.
Rerun after changing this script: every byte is written here.
"""
import os

from PIL import Image, ImageDraw

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
OUT = os.path.join(ROOT, "Tests", "Fixtures", "icons")
W = 1024


def master():
    image = Image.new("RGB", (W, W))
    pixels = image.load()
    for y in range(W):
        for x in range(W):
            t = (x + y) / (2 * W)
            pixels[x, y] = (int(30 + 40 * t), int(90 + 120 * t), int(200 + 30 * t))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((262, 232, 762, 352), radius=40, fill=(255, 255, 255))
    draw.rounded_rectangle((452, 232, 572, 792), radius=40, fill=(255, 255, 255))
    draw.ellipse((640, 640, 840, 840), fill=(255, 200, 40))
    return image


def logo():
    image = Image.new("RGBA", (W, W), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.ellipse((212, 212, 812, 812), fill=(255, 120, 30, 255))
    star = [(512, 300), (560, 460), (720, 460), (590, 560), (640, 720), (512, 620), (384, 720), (434, 560), (304, 460), (464, 460)]
    draw.polygon(star, fill=(255, 255, 255, 255))
    return image


def dark():
    image = Image.new("RGBA", (W, W), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((262, 232, 762, 352), radius=40, fill=(120, 200, 255, 255))
    draw.rounded_rectangle((452, 232, 572, 792), radius=40, fill=(120, 200, 255, 255))
    return image


def small16():
    image = Image.new("RGBA", (16, 16), (40, 120, 220, 255))
    draw = ImageDraw.Draw(image)
    draw.rectangle((3, 3, 12, 5), fill=(255, 255, 255, 255))
    draw.rectangle((7, 3, 8, 13), fill=(255, 255, 255, 255))
    draw.point((12, 12), fill=(255, 200, 40, 255))
    return image


def layer():
    side = 432
    image = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    r = 40 * side / 108
    c = side / 2
    draw.ellipse((c - r, c - r, c + r, c + r), fill=(40, 180, 90, 255))
    inner = 20 * side / 108
    draw.ellipse((c - inner, c - inner, c + inner, c + inner), fill=(0, 0, 0, 0))
    return image


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    master().save(os.path.join(OUT, "master.png"), optimize=True)
    logo().save(os.path.join(OUT, "logo.png"), optimize=True)
    dark().save(os.path.join(OUT, "dark.png"), optimize=True)
    small16().save(os.path.join(OUT, "small16.png"), optimize=True)
    layer().save(os.path.join(OUT, "layer.png"), optimize=True)
