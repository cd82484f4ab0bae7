#!/usr/bin/env python3
"""Writes the WebP conformance fixtures in Tests/Fixtures/webp/ with Pillow (its own libwebp
build, independent of the system's), and beside each its reference: Pillow's decoded pixels as an
RGBA PNG (`NAME.ref.png`). Sources are cut from Tests/Fixtures/photos/cat-rgba8.png (CC-BY-2.0,
zaimoku_woodpile). Rerun after changing this script; the tests compare thumbgen's decode with the
references (exact for lossless images, within a stated tolerance for lossy ones).
"""
import io
import os
import struct

from PIL import Image, ImageCms, features

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
OUT = os.path.join(ROOT, "Tests", "Fixtures", "webp")
CAT = os.path.join(ROOT, "Tests", "Fixtures", "photos", "cat-rgba8.png")


def exif_orientation(value):
    """A little-endian TIFF structure with one IFD entry: Orientation (0x0112) = value."""
    return b"II*\x00" + struct.pack("<I", 8) + struct.pack("<H", 1) + struct.pack("<HHII", 0x0112, 3, 1, value) + b"\x00\x00\x00\x00"


def main():
    os.makedirs(OUT, exist_ok=True)
    cat = Image.open(CAT).convert("RGBA")
    # An ICC profile to carry (lcms2's sRGB, as Pillow builds it), kept beside the file so the
    # tests can check the decoder hands out exactly these bytes.
    icc = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    with open(os.path.join(OUT, "lossless-icc.icc"), "wb") as f:
        f.write(icc)
    small = cat.resize((80, 120), Image.LANCZOS)           # keeps the transparent corners
    opaque = small.convert("RGB")
    files = {
        "lossy.webp": lambda f: opaque.save(f, "WEBP", quality=80, method=4),
        "lossy-alpha.webp": lambda f: small.save(f, "WEBP", quality=80, method=4),
        "lossless.webp": lambda f: small.save(f, "WEBP", lossless=True, method=4),
        "lossless-opaque.webp": lambda f: opaque.save(f, "WEBP", lossless=True),
        "lossy-exif-6.webp": lambda f: opaque.crop((0, 0, 80, 60)).save(f, "WEBP", quality=90, exif=b"Exif\x00\x00" + exif_orientation(6)),
        "lossless-icc.webp": lambda f: opaque.save(f, "WEBP", lossless=True, icc_profile=icc),
    }
    frames = [small.rotate(a, resample=Image.BICUBIC) for a in (0, 30, 60)]
    files["animated.webp"] = lambda f: frames[0].save(f, "WEBP", save_all=True, append_images=frames[1:], duration=100,
                                                      loop=0, lossless=True)
    for name, write in files.items():
        buffer = io.BytesIO()
        write(buffer)
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(buffer.getvalue())
        decoded = Image.open(os.path.join(OUT, name))
        decoded.seek(0)
        decoded.convert("RGBA").save(os.path.join(OUT, name[:-5] + ".ref.png"))
    with open(os.path.join(OUT, "README.md"), "w") as f:
        f.write(
            "# WebP conformance fixtures\n\n"
            "Written by `Scripts/make-webp-fixtures.py` with Pillow (libwebp "
            f"{features.version('webp')}), from `../photos/cat-rgba8.png` (CC-BY-2.0, attribution: "
            "zaimoku_woodpile), scaled to 80×120. `NAME.ref.png` is Pillow's decode of `NAME.webp` "
            "(first frame for the animation) as RGBA: the reference the tests compare thumbgen with, "
            "exactly for lossless files and within a tolerance for lossy ones. "
            "`lossy-exif-6.webp` carries EXIF orientation 6; `animated.webp` has three frames; "
            "`lossless-icc.webp` carries the ICC profile `lossless-icc.icc`.\n")
    print(f"wrote {len(files)} WebP fixtures to {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
