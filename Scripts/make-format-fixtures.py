#!/usr/bin/env python3
"""Writes the conformance fixtures of the formats beside PNG and JPEG with Pillow, and beside each
its reference: Pillow's decoded pixels as an RGBA PNG (`NAME.ref.png`). Pillow is independent of
the decoders thumbgen uses: it bundles its own libwebp build, and decodes GIF with its own code
(thumbgen uses giflib). Sources are cut from Tests/Fixtures/photos/cat-rgba8.png (CC-BY-2.0,
zaimoku_woodpile). Rerun after changing this script; the tests compare thumbgen's decode with the
references (exact for lossless images, within a stated tolerance for lossy ones).

    Tests/Fixtures/webp/   lossy, lossless, alpha, EXIF orientation, ICC profile, animation
    Tests/Fixtures/gif/    opaque, interlaced, transparent index, animation (first frame)
    Tests/Fixtures/tiff/   RGB, RGBA, gray, 16-bit gray, palette, CMYK, tiles, LZW/Deflate/JPEG,
                           Orientation tag, ICC profile, two pages (first page)
"""
import io
import os
import struct
import subprocess

from PIL import Image, ImageCms, features

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
FIXTURES = os.path.join(ROOT, "Tests", "Fixtures")
CAT = os.path.join(FIXTURES, "photos", "cat-rgba8.png")
LICENCE = "`../photos/cat-rgba8.png` (CC-BY-2.0, attribution: zaimoku_woodpile), scaled to 80×120"


def exif_orientation(value):
    """A little-endian TIFF structure with one IFD entry: Orientation (0x0112) = value."""
    return b"II*\x00" + struct.pack("<I", 8) + struct.pack("<H", 1) + struct.pack("<HHII", 0x0112, 3, 1, value) + b"\x00\x00\x00\x00"


def write_all(directory, files, extension, readme):
    """Writes each file, Pillow's decode of it (first frame) as NAME.ref.png, and the README."""
    os.makedirs(directory, exist_ok=True)
    for name, write in files.items():
        buffer = io.BytesIO()
        write(buffer)
        with open(os.path.join(directory, name), "wb") as f:
            f.write(buffer.getvalue())
        decoded = Image.open(os.path.join(directory, name))
        decoded.seek(0)
        decoded.convert("RGBA").save(os.path.join(directory, name[: -len(extension)] + ".ref.png"))
    with open(os.path.join(directory, "README.md"), "w") as f:
        f.write(readme)
    return len(files)


def webps(small):
    opaque = small.convert("RGB")
    # An ICC profile to carry (lcms2's sRGB, as Pillow builds it), kept beside the file so the
    # tests can check the decoder hands out exactly these bytes.
    icc = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    icc = icc[:24] + bytes(12) + icc[36:]   # the creation date, zeroed: same script, same bytes
    directory = os.path.join(FIXTURES, "webp")
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "lossless-icc.icc"), "wb") as f:
        f.write(icc)
    frames = [small.rotate(a, resample=Image.BICUBIC) for a in (0, 30, 60)]
    files = {
        "lossy.webp": lambda f: opaque.save(f, "WEBP", quality=80, method=4),
        "lossy-alpha.webp": lambda f: small.save(f, "WEBP", quality=80, method=4),
        "lossless.webp": lambda f: small.save(f, "WEBP", lossless=True, method=4),
        "lossless-opaque.webp": lambda f: opaque.save(f, "WEBP", lossless=True),
        "lossy-exif-6.webp": lambda f: opaque.crop((0, 0, 80, 60)).save(
            f, "WEBP", quality=90, exif=b"Exif\x00\x00" + exif_orientation(6)),
        "lossless-icc.webp": lambda f: opaque.save(f, "WEBP", lossless=True, icc_profile=icc),
        "animated.webp": lambda f: frames[0].save(f, "WEBP", save_all=True, append_images=frames[1:], duration=100,
                                                  loop=0, lossless=True),
    }
    return write_all(directory, files, ".webp", (
        "# WebP conformance fixtures\n\n"
        f"Written by `Scripts/make-format-fixtures.py` with Pillow (libwebp {features.version('webp')}) from "
        f"{LICENCE}. `NAME.ref.png` is Pillow's decode of `NAME.webp` (first frame for the animation) as RGBA: "
        "the reference the tests compare thumbgen with, exactly for lossless files and within a tolerance for "
        "lossy ones. `lossy-exif-6.webp` carries EXIF orientation 6; `animated.webp` has three frames; "
        "`lossless-icc.webp` carries the ICC profile `lossless-icc.icc`.\n"))


def gifs(small):
    """Full-screen first frames only: where a frame leaves the screen bare, Pillow shows the
    background colour and browsers (and thumbgen) transparency, so there is no shared reference."""
    opaque = small.convert("RGB").quantize(64)
    transparent = opaque.copy()
    transparent.putpalette(opaque.getpalette()[: 63 * 3] + [0, 0, 0])
    transparent.paste(63, mask=small.getchannel("A").point(lambda a: 255 if a < 128 else 0))
    frames = [small.convert("RGB").rotate(a, resample=Image.BICUBIC).quantize(64) for a in (0, 30, 60)]
    files = {
        "opaque.gif": lambda f: opaque.save(f, "GIF", interlace=False),
        "interlaced.gif": lambda f: opaque.save(f, "GIF", interlace=True),
        "transparent.gif": lambda f: transparent.save(f, "GIF", interlace=False, transparency=63),
        "animated.gif": lambda f: frames[0].save(f, "GIF", save_all=True, append_images=frames[1:], duration=100,
                                                 loop=0, interlace=False),
    }
    return write_all(os.path.join(FIXTURES, "gif"), files, ".gif", (
        "# GIF conformance fixtures\n\n"
        f"Written by `Scripts/make-format-fixtures.py` with Pillow from {LICENCE} and quantised to 64 "
        "colours. `NAME.ref.png` is Pillow's own decode (not giflib's) of the first frame as RGBA, the "
        "reference the tests compare thumbgen with exactly. `transparent.gif` makes index 63 transparent "
        "where the photo was; `animated.gif` has three frames.\n"))


def tiffs(small):
    """Pillow writes these through libtiff; its decode of them is its own for uncompressed strips
    and libtiff's otherwise, so the 16-bit reference is worked out here instead (the rounding
    thumbgen documents: libtiff's 16-to-8-bit reduction)."""
    directory = os.path.join(FIXTURES, "tiff")
    os.makedirs(directory, exist_ok=True)
    opaque = small.convert("RGB")
    samples16 = [min(65535, v * 257 + (x * 37) % 257) for x, v in enumerate(small.convert("L").tobytes())]
    gray16 = Image.frombytes("I;16", small.size, struct.pack("<%dH" % len(samples16), *samples16))
    icc = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    icc = icc[:24] + bytes(12) + icc[36:]
    files = {
        "rgb.tif": lambda f: opaque.save(f, "TIFF"),
        "rgba-lzw.tif": lambda f: small.save(f, "TIFF", compression="tiff_lzw"),
        "gray-deflate.tif": lambda f: small.convert("L").save(f, "TIFF", compression="tiff_adobe_deflate"),
        "palette.tif": lambda f: opaque.quantize(32).save(f, "TIFF"),
        "cmyk.tif": lambda f: opaque.convert("CMYK").save(f, "TIFF"),
        "jpeg-ycbcr.tif": lambda f: opaque.save(f, "TIFF", compression="jpeg", quality=90),
        "orientation-6.tif": lambda f: opaque.crop((0, 0, 80, 60)).save(f, "TIFF", tiffinfo={274: 6}),
        "icc.tif": lambda f: opaque.save(f, "TIFF", icc_profile=icc),
        "two-pages.tif": lambda f: opaque.save(f, "TIFF", save_all=True, append_images=[small.rotate(90)]),
        "gray16.tif": lambda f: gray16.save(f, "TIFF"),
    }
    readme = (
        "# TIFF conformance fixtures\n\n"
        f"Written by `Scripts/make-format-fixtures.py` with Pillow from {LICENCE}. `NAME.ref.png` is Pillow's "
        "decode of the first page as RGBA, except `gray16.ref.png`, which is the 16-bit samples reduced to 8 "
        "bits by rounding (Pillow clips 16-bit gray instead of scaling it). `orientation-6.tif` has "
        "Orientation 6; `icc.tif` carries `icc.icc`; `two-pages.tif` has two pages; `tiles.tif` is `rgb.tif` "
        "in 32x32 LZW tiles, made by libtiff's `tiffcp` (Debian libtiff-tools).\n")
    count = write_all(directory, files, ".tif", readme)
    with open(os.path.join(directory, "icc.icc"), "wb") as f:
        f.write(icc)
    reduced = Image.frombytes("L", small.size, bytes((v * 255 + 32767) // 65535 for v in samples16))
    reduced.convert("RGBA").save(os.path.join(directory, "gray16.ref.png"))
    # Pillow writes strips only; libtiff's own tiffcp makes the tiled copy (32x32 tiles, LZW).
    tiles = os.path.join(directory, "tiles.tif")
    subprocess.run(["tiffcp", "-t", "-w", "32", "-l", "32", "-c", "lzw", os.path.join(directory, "rgb.tif"), tiles], check=True)
    Image.open(tiles).convert("RGBA").save(os.path.join(directory, "tiles.ref.png"))
    return count + 1


def shrink_webps():
    """Full-size (320x480) WebPs of the photo for the shrink-on-load tests, which compare thumbgen's
    reduced decode with its own full decode (no reference needed)."""
    cat = Image.open(CAT).convert("RGBA")
    directory = os.path.join(FIXTURES, "webp-shrink")
    os.makedirs(directory, exist_ok=True)
    files = {
        "lossy.webp": lambda f: cat.convert("RGB").save(f, "WEBP", quality=80, method=4),
        "lossy-alpha.webp": lambda f: cat.save(f, "WEBP", quality=80, method=4),
        "lossless.webp": lambda f: cat.save(f, "WEBP", lossless=True, method=4),
        "lossy-exif-6.webp": lambda f: cat.convert("RGB").save(f, "WEBP", quality=80, method=4,
                                                             exif=b"Exif\x00\x00" + exif_orientation(6)),
    }
    for name, write in files.items():
        with open(os.path.join(directory, name), "wb") as f:
            write(f)
    with open(os.path.join(directory, "README.md"), "w") as f:
        f.write("# WebP shrink-on-load fixtures\n\n"
                f"Written by `Scripts/make-format-fixtures.py` with Pillow (libwebp {features.version('webp')}) from "
                "`../photos/cat-rgba8.png` (CC-BY-2.0, attribution: zaimoku_woodpile) at its full 320×480: lossy, "
                "lossy with alpha, lossless with alpha, and lossy with EXIF orientation 6. The shrink-on-load tests "
                "compare thumbnails decoded reduced by libwebp's scaler with those of the full decode.\n")
    return len(files)


def main():
    small = Image.open(CAT).convert("RGBA").resize((80, 120), Image.LANCZOS)   # keeps the transparent corners
    print(f"wrote {webps(small)} WebP, {gifs(small)} GIF and {tiffs(small)} TIFF fixtures")
    print(f"wrote {shrink_webps()} WebP shrink-on-load fixtures")


if __name__ == "__main__":
    main()
