#!/usr/bin/env python3
"""Tests/Fixtures/conformance: files from other projects' public test suites, cut down where big,
and a few made here where no small original exists. Run from the repository root after
`fetch`ing the repositories named below (bare git directories under /work/.mirror), with libtiff's
tiffcrop (Debian libtiff-tools), a C compiler with lcms2 (liblcms2-dev) and Pillow:

    python3 Scripts/make-conformance-fixtures.py

What each file is, and the licence of its source, is in Tests/Fixtures/conformance/README.md.
"""
import os
import struct
import subprocess
import tempfile

from PIL import Image

OUT = "Tests/Fixtures/conformance"
MIRROR = "/work/.mirror"

# (repository, path in it, file name here)
COPIED = [
    ("python-pillow+Pillow", "Tests/images/lab.tif", "lab.tif"),
    ("python-pillow+Pillow", "Tests/images/lab-red.tif", "lab-red.tif"),
    ("python-pillow+Pillow", "Tests/images/lab-green.tif", "lab-green.tif"),
    ("python-pillow+Pillow", "Tests/images/12bit.cropped.tif", "12bit.cropped.tif"),
    ("python-pillow+Pillow", "Tests/images/16_bit_binary_pgm.tiff", "16_bit_binary_pgm.tiff"),
    ("python-pillow+Pillow", "Tests/images/no_palette.gif", "no_palette.gif"),
    ("image-rs+image", "tests/bad/tiff/TODO hpredict_cmyk.tiff", "hpredict_cmyk.tiff"),
    ("image-rs+image", "tests/images/tiff/testsuite/rgb32f_color.tiff", "rgb32f_color.tiff"),
    ("image-rs+image", "tests/images/gif/simple/issue_1455_oversized.gif", "issue_1455_oversized.gif"),
    ("webmproject+libwebp-test-data", "bad_palette_index.webp", "bad_palette_index.webp"),
    ("strukturag+libheif", "tests/data/uncompressed_comp_M.heif", "uncompressed_comp_M.heif"),
    ("AOMediaCodec+av1-avif", "testFiles/Xiph/quebec_3layer_op2.avif", "quebec_3layer_op2.avif"),
]

# (repository, path, file name here, tiffcrop arguments): big originals cut to a corner.
CROPPED = [
    ("python-pillow+Pillow", "Tests/images/hopper.Lab.tif", "hopper.Lab-32.tif", ["-U", "px", "-X", "32", "-Y", "32"]),
    ("lovell+sharp", "test/fixtures/cielab-dagams.tiff", "cielab-dagams-64x48.tif",
     ["-U", "px", "-X", "64", "-Y", "48", "-m", "100,150,0,0", "-c", "lzw:2"]),
    ("python-pillow+Pillow", "Tests/images/tiff_strip_cmyk_16l_jpeg.tif", "tiff_strip_cmyk_16l-40.tif",
     ["-U", "px", "-X", "40", "-Y", "40"]),
]


def show(repository, path):
    git_dir = f"{MIRROR}/{repository}/repo"
    return subprocess.run(["git", f"--git-dir={git_dir}", "show", f"HEAD:{path}"], check=True, capture_output=True).stdout


def lzw_code_size_11_gif(path):
    """A 2x1 GIF whose LZW minimum code size is 11 (12-bit codes from the start), as image-rs's
    issue 2811 file has: valid LZW that giflib declines. Colours: index 1 blue, index 0 red."""
    codes = [2048, 1, 0, 2049]   # clear, index 1, index 0, end of information
    bits = 0
    for i, code in enumerate(codes):
        bits |= code << (12 * i)
    data = bits.to_bytes((12 * len(codes) + 7) // 8, "little")
    gif = b"GIF89a" + struct.pack("<HHBBB", 2, 1, 0x80, 0, 0) + bytes([255, 0, 0, 0, 0, 255])
    gif += b"," + struct.pack("<HHHHB", 0, 0, 2, 1, 0) + bytes([11, len(data)]) + data + b"\x00;"
    open(path, "wb").write(gif)


def lossless_jpeg(path):
    """ITU T.81 Annex H: an 8x8 gray lossless (SOF3) JPEG, every sample 128. Predictor 1; the
    first sample is predicted as 2^(P-Pt-1) = 128 and every other from a neighbour, so every
    difference is 0: category 0, Huffman code '0' (one code of length 1), 64 zero bits."""
    def segment(marker, body):
        return struct.pack(">BBH", 0xFF, marker, len(body) + 2) + body
    sof3 = struct.pack(">BHHB", 8, 8, 8, 1) + bytes([1, 0x11, 0])
    dht = bytes([0x00]) + bytes([1] + [0] * 15) + bytes([0])
    sos = bytes([1, 1, 0x00, 1, 0, 0])   # 1 component on table 0; predictor 1, Se 0, Ah/Al 0
    open(path, "wb").write(b"\xff\xd8" + segment(0xC3, sof3) + segment(0xC4, dht) + segment(0xDA, sos) + bytes(8) + b"\xff\xd9")


def sequence_brands_avif(path):
    """Tests/Fixtures/heif/opaque.avif with its ftyp rewritten in place (same size, so no offset
    moves) as Netflix's AVIF sequences have it: major brand avis, compatible avis, msf1, miaf, and
    no still-image brand (mif1, avif), though a still primary image is there."""
    data = bytearray(open("Tests/Fixtures/heif/opaque.avif", "rb").read())
    assert data[4:8] == b"ftyp" and struct.unpack(">I", data[:4])[0] == 28
    data[8:28] = b"avis" + bytes(4) + b"avis" + b"msf1" + b"miaf"
    open(path, "wb").write(bytes(data))


def sequence_only_avif(path):
    """An AVIF sequence's top level without any still image: ftyp (avis; avis, msf1, miaf, iso8),
    a moov with only its movie header (ISO/IEC 14496-12 §8.2.2, version 0, timescale 1000, no
    tracks of interest), an empty mdat; no meta box."""
    def box(kind, body):
        return struct.pack(">I", len(body) + 8) + kind + body
    ftyp = box(b"ftyp", b"avis" + bytes(4) + b"avis" + b"msf1" + b"miaf" + b"iso8")
    matrix = struct.pack(">9I", 0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000)
    mvhd = box(b"mvhd", bytes(4) + struct.pack(">IIII", 0, 0, 1000, 0) + struct.pack(">IH", 0x10000, 0x100)
               + bytes(10) + matrix + bytes(24) + struct.pack(">I", 1))
    open(path, "wb").write(ftyp + box(b"moov", mvhd) + box(b"mdat", b""))


CMYK_PATCHES = [(0, 255, 255, 0), (255, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 255), (128, 64, 0, 32), (20, 200, 120, 60)]


def cmyk_profile_tiff(path, profile):
    """Six 8x8 CMYK patches in a row (CMYK_PATCHES), LZW, with `profile` embedded."""
    image = Image.new("CMYK", (8 * len(CMYK_PATCHES), 8))
    for i, ink in enumerate(CMYK_PATCHES):
        image.paste(ink, (8 * i, 0, 8 * i + 8, 8))
    image.save(path, compression="tiff_lzw", icc_profile=open(profile, "rb").read())


def main():
    os.makedirs(OUT, exist_ok=True)
    for repository, path, name in COPIED:
        open(f"{OUT}/{name}", "wb").write(show(repository, path))
    with tempfile.TemporaryDirectory() as scratch:
        for repository, path, name, arguments in CROPPED:
            original = f"{scratch}/original.tif"
            open(original, "wb").write(show(repository, path))
            subprocess.run(["tiffcrop", *arguments, original, f"{OUT}/{name}"], check=True)
        tool = f"{scratch}/make-cmyk-profile"
        subprocess.run(["cc", "Scripts/make-cmyk-profile.c", "-llcms2", "-lm", "-o", tool], check=True)
        subprocess.run([tool, f"{OUT}/test-cmyk.icc"], check=True)
    # lcms2 stamps the profile header with the time it was written (bytes 24-35, ICC.1 §7.2.8):
    # zeroed, so the files come out the same on every run.
    icc = bytearray(open(f"{OUT}/test-cmyk.icc", "rb").read())
    icc[24:36] = bytes(12)
    open(f"{OUT}/test-cmyk.icc", "wb").write(bytes(icc))
    cmyk_profile_tiff(f"{OUT}/cmyk-profile.tif", f"{OUT}/test-cmyk.icc")
    lzw_code_size_11_gif(f"{OUT}/lzw-code-size-11.gif")
    lossless_jpeg(f"{OUT}/lossless-sof3.jpg")
    sequence_brands_avif(f"{OUT}/sequence-brands.avif")
    sequence_only_avif(f"{OUT}/sequence-only.avif")


if __name__ == "__main__":
    main()
