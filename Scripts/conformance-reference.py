#!/usr/bin/env python3
"""Reference pixels for ConformanceTests, from decoders other than thumbgen's. Run from the
repository root; the values it prints are the ones ConformanceTests asserts.

- CIELab: Pillow reads 8-bit Lab TIFFs, and lcms2 (through Pillow's ImageCms) converts them from
  its D50 Lab profile to sRGB, relative colorimetric with black-point compensation. 16-bit Lab
  (which Pillow cannot read) is read from the uncompressed strips here and converted by the CIE
  formulas with Bradford adaptation from D50 to D65 (checked against lcms2 on the 8-bit files).
- CMYK with a profile: Pillow's ImageCms (lcms2) with the embedded profile, same intent and flags.
- CMYK without a profile, 12-bit gray, 32-bit float RGB: Pillow's or numpy's reading of the
  samples, reduced to 8 bits by the naive rule (R = 255 (1 - C)(1 - K)) or by v * 255 / max.
- GIF: Pillow's decode.
"""
import struct
import subprocess
import tempfile

import numpy as np
from PIL import Image, ImageCms

D = "Tests/Fixtures/conformance/"


def lcms_lab(path, points):
    image = Image.open(D + path)
    assert image.mode == "LAB"
    lab = ImageCms.createProfile("LAB")   # D50 by default (Pillow's colorTemp applies to LAB only)
    srgb = ImageCms.createProfile("sRGB")
    rgb = ImageCms.profileToProfile(image, lab, srgb, renderingIntent=ImageCms.INTENT_RELATIVE_COLORIMETRIC,
                                    outputMode="RGB", flags=ImageCms.FLAGS["BLACKPOINTCOMPENSATION"])
    return [rgb.getpixel(p) for p in points]


M_BRADFORD_D50_TO_D65 = np.array([[0.9555766, -0.0230393, 0.0631636],
                                  [-0.0282895, 1.0099416, 0.0210077],
                                  [0.0122982, -0.0204830, 1.3299098]])
M_XYZ_TO_SRGB = np.array([[3.2404542, -1.5371385, -0.4985314],
                          [-0.9692660, 1.8760108, 0.0415560],
                          [0.0556434, -0.2040259, 1.0572252]])
D50 = np.array([0.9642, 1.0, 0.8249])


def formula_lab(L, a, b):
    fy = (L + 16) / 116
    fx, fz = fy + a / 500, fy - b / 200
    f = lambda t: t ** 3 if t ** 3 > 216 / 24389 else (116 * t - 16) / (24389 / 27)
    xyz = D50 * np.array([f(fx), f(fy), f(fz)])
    rgb = M_XYZ_TO_SRGB @ (M_BRADFORD_D50_TO_D65 @ xyz)
    rgb = np.clip(rgb, 0, 1)
    enc = np.where(rgb <= 0.0031308, 12.92 * rgb, 1.055 * rgb ** (1 / 2.4) - 0.055)
    return tuple(int(v) for v in np.floor(enc * 255 + 0.5))


def lab16(path, points):
    """16-bit CIELab samples (TIFF 6.0 §23: L 0-65535 for 0-100, a and b signed / 256), read
    from an uncompressed copy made by tiffcp."""
    with tempfile.NamedTemporaryFile(suffix=".tif") as flat:
        subprocess.run(["tiffcp", "-c", "none", "-r", "100000", D + path, flat.name], check=True)
        data = open(flat.name, "rb").read()
    assert data[:4] == b"II*\0"
    ifd = struct.unpack("<I", data[4:8])[0]
    tags = {}
    for i in range(struct.unpack("<H", data[ifd:ifd + 2])[0]):
        tag, kind, count, value = struct.unpack("<HHII", data[ifd + 2 + 12 * i: ifd + 14 + 12 * i])
        tags[tag] = (kind, count, value)
    width, height = tags[256][2], tags[257][2]
    assert tags[259][2] == 1 and tags[262][2] == 8 and tags[277][2] == 3
    offset = tags[273][2]
    samples = np.frombuffer(data[offset:offset + width * height * 6], dtype="<u2").reshape(height, width, 3)
    out = []
    for x, y in points:
        L, a, b = samples[y, x]
        out.append(formula_lab(L * 100 / 65535, np.int16(a) / 256, np.int16(b) / 256))
    return out


def flat_strips(path, sample_bytes=1):
    """An uncompressed, unpredicted copy's samples (tiffcp undoes LZW and the predictor), as bytes,
    with the directory's width, height and samples per pixel."""
    with tempfile.NamedTemporaryFile(suffix=".tif") as flat:
        subprocess.run(["tiffcp", "-c", "none", "-r", "100000", D + path, flat.name], check=True)
        data = open(flat.name, "rb").read()
    ifd = struct.unpack("<I", data[4:8])[0]
    tags = {}
    for i in range(struct.unpack("<H", data[ifd:ifd + 2])[0]):
        tag, kind, count, value = struct.unpack("<HHII", data[ifd + 2 + 12 * i: ifd + 14 + 12 * i])
        tags[tag] = value
    width, height, spp = tags[256], tags[257], tags[277]
    return data[tags[273]:tags[273] + width * height * spp * sample_bytes], width, height, spp


def write_references():
    """Whole-image references, as PNGs next to the fixtures (NAME.ref.png)."""
    gif = Image.open(D + "issue_1455_oversized.gif").convert("RGBA")
    gif.save(D + "issue_1455_oversized.ref.png")
    Image.open(D + "bad_palette_index.webp").convert("RGBA").save(D + "bad_palette_index.ref.png")
    twelve = np.asarray(Image.open(D + "12bit.cropped.tif"), dtype=np.float64)
    gray = np.floor(twelve * 255 / 4095 + 0.5).astype(np.uint8)
    Image.fromarray(gray, "L").convert("RGBA").save(D + "12bit.cropped.ref.png")
    raw = open(D + "rgb32f_color.tiff", "rb").read()
    floats = np.frombuffer(raw[8:8 + 32 * 32 * 3 * 4], dtype="<f4").reshape(32, 32, 3)
    rgb = np.floor(np.clip(floats, 0, 1) * 255 + 0.5).astype(np.uint8)
    Image.fromarray(rgb, "RGB").convert("RGBA").save(D + "rgb32f_color.ref.png")
    # CMYK + unassociated alpha, naive rule: R = 255 (1 - C/255)(1 - K/255), alpha as stored.
    data, width, height, spp = flat_strips("hpredict_cmyk.tiff")
    ink = np.frombuffer(data, dtype=np.uint8).reshape(height, width, spp).astype(np.float64) / 255
    out = np.zeros((height, width, 4), dtype=np.uint8)
    for c in range(3):
        out[..., c] = np.floor(255 * (1 - ink[..., c]) * (1 - ink[..., 3]) + 0.5)
    out[..., 3] = np.floor(ink[..., 4] * 255 + 0.5)
    Image.fromarray(out, "RGBA").save(D + "hpredict_cmyk.ref.png")
    data, width, height, spp = flat_strips("tiff_strip_cmyk_16l-40.tif", 2)
    ink = np.frombuffer(data, dtype="<u2").reshape(height, width, spp).astype(np.float64) / 65535
    out = np.full((height, width, 4), 255, dtype=np.uint8)
    for c in range(3):
        # 16-bit inks to 8 bits first, then the naive rule on those, as thumbgen does.
        c8, k8 = np.floor(ink[..., c] * 255 + 0.5), np.floor(ink[..., 3] * 255 + 0.5)
        out[..., c] = np.floor(((255 - c8) * (255 - k8) + 127) / 255)
    Image.fromarray(out, "RGBA").save(D + "tiff_strip_cmyk_16l-40.ref.png")


def main():
    write_references()
    points = [(0, 0), (5, 5), (9, 9)]
    for name in ["lab.tif", "lab-red.tif", "lab-green.tif"]:
        print(name, lcms_lab(name, points))
    hopper_points = [(0, 0), (10, 20), (31, 31), (16, 8)]
    print("hopper.Lab-32.tif lcms2", lcms_lab("hopper.Lab-32.tif", hopper_points))
    image = Image.open(D + "hopper.Lab-32.tif")
    print("hopper.Lab-32.tif formula", [formula_lab(image.getpixel(p)[0] * 100 / 255, image.getpixel(p)[1] - 128,
                                                    image.getpixel(p)[2] - 128) for p in hopper_points])
    print("lab.tif formula white", formula_lab(100, 0, 0))
    print("cielab-dagams-64x48.tif", lab16("cielab-dagams-64x48.tif", [(0, 0), (32, 24), (63, 47), (10, 40)]))

    cmyk = Image.open(D + "cmyk-profile.tif")
    profile = ImageCms.ImageCmsProfile(D + "test-cmyk.icc")
    rgb = ImageCms.profileToProfile(cmyk, profile, ImageCms.createProfile("sRGB"),
                                    renderingIntent=ImageCms.INTENT_RELATIVE_COLORIMETRIC, outputMode="RGB",
                                    flags=ImageCms.FLAGS["BLACKPOINTCOMPENSATION"])
    print("cmyk-profile.tif", [rgb.getpixel((8 * i + 4, 4)) for i in range(6)])

    def naive(c, m, y, k, full=255):
        return tuple(int(np.floor(255 * (1 - v / full) * (1 - k / full) + 0.5)) for v in (c, m, y))
    c16 = np.frombuffer(Image.open(D + "tiff_strip_cmyk_16l-40.tif").tobytes(), dtype=np.uint8)
    sixteen = Image.open(D + "tiff_strip_cmyk_16l-40.tif")
    print("tiff_strip_cmyk_16l-40.tif (Pillow, 8-bit CMYK)", sixteen.mode,
          [naive(*sixteen.getpixel(p)) for p in [(0, 0), (20, 20), (39, 39)]])

    twelve = Image.open(D + "12bit.cropped.tif")
    print("12bit.cropped.tif", [round(twelve.getpixel(p) * 255 / 4095) for p in [(0, 0), (50, 50), (99, 99)]],
          twelve.getextrema())

    raw = open(D + "rgb32f_color.tiff", "rb").read()
    floats = np.frombuffer(raw[8:8 + 32 * 32 * 3 * 4], dtype="<f4").reshape(32, 32, 3)
    print("rgb32f_color.tiff", [tuple(int(v) for v in np.floor(np.clip(floats[y, x], 0, 1) * 255 + 0.5))
                                for x, y in [(0, 0), (16, 16), (31, 31)]], floats.min(), floats.max())

    for name in ["no_palette.gif", "issue_1455_oversized.gif", "lzw-code-size-11.gif"]:
        image = Image.open(D + name)
        print(name, image.mode, image.size, list(image.convert("RGBA").getdata())[:4])
    webp = Image.open(D + "bad_palette_index.webp")
    print("bad_palette_index.webp", webp.mode, webp.size, [webp.getpixel(p) for p in [(0, 0), (64, 64), (127, 127)]])


if __name__ == "__main__":
    main()
