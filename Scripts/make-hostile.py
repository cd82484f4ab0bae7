#!/usr/bin/env python3
"""Writes the hostile-input fixtures into Tests/Fixtures/hostile/ and their expected outcomes into
Tests/Fixtures/hostile/expected.json.

Python 3 standard library only (zlib, struct, json). Output is deterministic: the same script
writes the same bytes, so the checked-in files can be regenerated and diffed.

Each file is small; inputs that only make sense large (a 16 MiB ancillary chunk, 200,000 tiny
chunks) are generated at test time instead (see HostileFixtureTests.swift).

expected.json maps each file name to "decodes" or to a substring of the one-line error message
that PNGDecoder / Thumbnailer must throw for it (default limits).

Usage: python3 Scripts/make-hostile.py
"""
import json
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "Tests", "Fixtures", "hostile")
SIGNATURE = b"\x89PNG\r\n\x1a\n"


def chunk(kind, data, crc=None):
    """One chunk; `crc` overrides the correct CRC (to corrupt it)."""
    if crc is None:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def ihdr(width, height, depth=8, color=2, interlace=0):
    return chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, color, 0, 0, interlace))


def idat_for(width, height, bytes_per_pixel, fill=None):
    """Filter-type-0 rows of a deterministic pattern (or of `fill`), compressed at level 9."""
    raw = bytearray()
    for y in range(height):
        raw.append(0)
        for x in range(width * bytes_per_pixel):
            raw.append(fill if fill is not None else (x * 7 + y * 13) & 0xFF)
    return chunk(b"IDAT", zlib.compress(bytes(raw), 9))


def iend():
    return chunk(b"IEND", b"")


def good_rgb():
    return SIGNATURE + ihdr(16, 12) + idat_for(16, 12, 3) + iend()


def with_bad_crc(png, kind):
    """The file with the CRC of the first `kind` chunk flipped."""
    at = png.index(kind) - 4
    length = struct.unpack(">I", png[at:at + 4])[0]
    crc_at = at + 8 + length
    out = bytearray(png)
    out[crc_at] ^= 0xFF
    return bytes(out)


def insert_after_ihdr(png, data):
    at = 8 + 25  # signature + IHDR chunk
    return png[:at] + data + png[at:]


def bomb(width, height):
    """A real 1-bit gray image of zeros: width*height pixels in very few bytes."""
    row = b"\x00" + b"\x00" * ((width + 7) // 8)
    compressor = zlib.compressobj(9)
    data = b"".join(compressor.compress(row) for _ in range(height)) + compressor.flush()
    return SIGNATURE + ihdr(width, height, depth=1, color=0) + chunk(b"IDAT", data) + iend()


def files():
    good = good_rgb()
    idat_at = good.index(b"IDAT") - 4
    iend_at = good.index(b"IEND") - 4
    cases = {}

    cases["good-rgb.png"] = (good, "decodes")
    cases["good-palette.png"] = (
        SIGNATURE + ihdr(8, 8, color=3) + chunk(b"PLTE", bytes(range(48))) + idat_for(8, 8, 1, fill=15) + iend(),
        "decodes")
    cases["empty.png"] = (b"", "file is empty")
    cases["truncated-in-signature.png"] = (good[:5], "file is truncated")
    cases["truncated-in-ihdr.png"] = (good[:8 + 14], "file is truncated")
    cases["truncated-in-idat.png"] = (good[:idat_at + 8 + 20], "file is truncated")
    cases["truncated-before-iend.png"] = (good[:iend_at], "file is truncated")
    cases["bad-crc-ihdr.png"] = (with_bad_crc(good, b"IHDR"), "IHDR: CRC error")
    cases["bad-crc-idat.png"] = (with_bad_crc(good, b"IDAT"), "IDAT: CRC error")
    # Ancillary chunks with a bad CRC are dropped and decoding goes on, as browsers do.
    cases["bad-crc-ancillary-gama.png"] = (
        insert_after_ihdr(good, chunk(b"gAMA", struct.pack(">I", 45455), crc=0)), "decodes")
    cases["bad-crc-ancillary-unknown.png"] = (
        insert_after_ihdr(good, chunk(b"ruBy", b"hello", crc=0x12345678)), "decodes")
    cases["zero-width.png"] = (SIGNATURE + ihdr(0, 12) + idat_for(1, 12, 3) + iend(), "Invalid IHDR data")
    cases["zero-height.png"] = (SIGNATURE + ihdr(16, 0) + idat_for(16, 1, 3) + iend(), "Invalid IHDR data")
    # libpng warns "exceeds user limit" (2^24, DecodeLimits.maxDimension), then rejects the header.
    cases["absurd-dimensions.png"] = (
        SIGNATURE + ihdr(2**31 - 1, 2**31 - 1) + idat_for(1, 1, 3) + iend(), "Invalid IHDR data")
    # Declares 100000x100000 (10^10 pixels) in a few dozen bytes: refused from the header.
    cases["bomb-declared.png"] = (
        SIGNATURE + ihdr(100000, 100000, depth=1, color=0) + chunk(b"IDAT", zlib.compress(b"\x00" * 64)) + iend(),
        "above the limit of 250000000 pixels")
    # Really holds 15000x15000 (225 MP, under the default 250 MP limit) in a few tens of KB:
    # decodes, and must do so in bounded memory (the streaming path).
    cases["bomb-real-15000.png"] = (bomb(15000, 15000), "decodes")
    # A chunk length of 2^31-1 (the largest legal) and 2^32-1 (illegal), with no data behind them:
    # the unknown chunk is skipped by reading, which meets the end of the file.
    cases["endless-chunk-ancillary.png"] = (
        insert_after_ihdr(good, struct.pack(">I", 2**31 - 1) + b"ruBy" + b"\x00" * 16), "file is truncated")
    cases["endless-chunk-idat.png"] = (
        SIGNATURE + ihdr(16, 12) + struct.pack(">I", 2**31 - 1) + b"IDAT" + b"\x78\x9c" + b"\x00" * 30,
        "file is truncated")
    cases["chunk-length-over-2-31.png"] = (
        insert_after_ihdr(good, struct.pack(">I", 2**32 - 1) + b"ruBy" + b"\x00" * 16), "out of range")
    # Palette of 2 entries, pixels index 200. libpng maps unknown indices to black (its palette
    # array always has 256 entries) and warns; thumbgen, like browsers, decodes.
    cases["palette-index-out-of-range.png"] = (
        SIGNATURE + ihdr(8, 8, color=3) + chunk(b"PLTE", b"\xff\x00\x00\x00\xff\x00") + idat_for(8, 8, 1, fill=200) + iend(),
        "decodes")
    cases["palette-missing.png"] = (SIGNATURE + ihdr(8, 8, color=3) + idat_for(8, 8, 1, fill=0) + iend(), "PLTE")
    # An iCCP whose zlib stream inflates to 16 MiB (over the 8 MiB limit on a decompressed
    # profile) in about 16 KB: libpng stops inflating at the limit and drops the chunk (a benign
    # error, a warning here); the image decodes, as browsers do.
    profile = struct.pack(">I", 16 << 20) + b"\x00" * ((16 << 20) - 4)
    cases["iccp-inflates-to-16mib.png"] = (
        insert_after_ihdr(good, chunk(b"iCCP", b"bomb\x00\x00" + zlib.compress(profile, 9))), "decodes")
    # Recognised by content, whatever the name says: a broken JPEG is refused as one, a GIF decodes.
    cases["jpeg-bytes.png"] = (b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00\xff\xd9",
                               "corrupt JPEG")
    cases["gif-bytes.png"] = (b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00"
                              b",\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;", "decodes")
    cases["text-bytes.png"] = (b"this is not an image\n", "not a PNG, JPEG, WebP, GIF, TIFF, HEIF or camera RAW file")
    cases["no-idat.png"] = (SIGNATURE + ihdr(16, 12) + iend(), "IEND: out of place")
    cases["idat-garbage.png"] = (SIGNATURE + ihdr(16, 12) + chunk(b"IDAT", b"\x78\x9c" + b"\xff" * 40) + iend(),
                                 "IDAT")
    # The PNG specification puts IHDR first. Text chunks are skipped unread, which must not skip
    # the check; nor may an unknown ancillary chunk, or a known one libpng would catch itself.
    after_signature = good[8:]
    cases["text-before-ihdr.png"] = (
        SIGNATURE + chunk(b"tEXt", b"Comment\x00first") + after_signature, "IHDR is not the first chunk")
    cases["ztxt-before-ihdr.png"] = (
        SIGNATURE + chunk(b"zTXt", b"Comment\x00\x00" + zlib.compress(b"first")) + after_signature,
        "IHDR is not the first chunk")
    cases["unknown-before-ihdr.png"] = (
        SIGNATURE + chunk(b"ruBy", b"hello") + after_signature, "IHDR is not the first chunk")
    cases["gama-before-ihdr.png"] = (
        SIGNATURE + chunk(b"gAMA", struct.pack(">I", 45455)) + after_signature, "IHDR is not the first chunk")
    # Bytes after IEND are never read: the image decodes whatever follows it.
    cases["garbage-after-iend.png"] = (good + b"\x00" * 4096 + b"not png", "decodes")
    return cases


def main():
    os.makedirs(OUT, exist_ok=True)
    expected = {}
    for name, (data, outcome) in sorted(files().items()):
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)
        expected[name] = outcome
    with open(os.path.join(OUT, "expected.json"), "w") as f:
        json.dump(expected, f, indent=2, sort_keys=True)
        f.write("\n")
    total = sum(os.path.getsize(os.path.join(OUT, n)) for n in expected)
    print(f"wrote {len(expected)} files ({total} bytes) to {os.path.normpath(OUT)}")


if __name__ == "__main__":
    main()
