#!/usr/bin/env python3
"""Record what an independent decoder (pypng) says every PngSuite image holds.

Writes Tests/Fixtures/pngsuite-reference.json: for each valid image (not x*), its size and the
SHA-256 of its pixels as straight RGBA, both at the source precision (8 bits, or 16 bits
big-endian for 16-bit sources) and at 8 bits (16-bit samples rounded as (v*255+32767)//65535).

pypng does the decompression, unfiltering and de-interlacing; the expansion to RGBA is written
out here, so it follows the PNG spec and not another library's transforms: palette entries are
looked up (tRNS gives their alpha), gray below 8 bits scales by 255/(2^d-1), a tRNS key colour
becomes alpha 0, and images without alpha get an opaque one. sBIT is ignored (as libpng does by
default). Every x* image must fail in pypng too; the script checks that.

Run: pip install pypng && python3 Scripts/pngsuite-reference.py
"""
import hashlib
import json
import os
import sys

import png

HERE = os.path.dirname(os.path.abspath(__file__))
SUITE = os.path.join(HERE, "..", "Tests", "Fixtures", "pngsuite")
OUT = os.path.join(HERE, "..", "Tests", "Fixtures", "pngsuite-reference.json")


def rgba_samples(path):
    reader = png.Reader(filename=path)
    width, height, rows, info = reader.read()
    depth = info["bitdepth"]
    planes = info["planes"]
    palette = info.get("palette")
    key = info.get("transparent")  # tRNS key colour for gray/RGB
    out = []
    out16 = depth == 16
    maxval = (1 << depth) - 1
    for row in rows:
        row = list(row)
        for x in range(width):
            if palette is not None and planes == 1 and not info["greyscale"]:
                entry = palette[row[x]]
                r, g, b = entry[:3]
                a = entry[3] if len(entry) == 4 else 255
            elif planes in (1, 2):
                v = row[x * planes]
                a = row[x * planes + 1] if planes == 2 else None
                if a is None:
                    a = 0 if key is not None and (v,) == tuple(key if isinstance(key, tuple) else (key,)) else maxval
                if depth < 8:
                    v = v * 255 // maxval
                    a = a * 255 // maxval
                r = g = b = v
            else:
                r, g, b = row[x * planes:x * planes + 3]
                a = row[x * planes + 3] if planes == 4 else None
                if a is None:
                    a = 0 if key is not None and (r, g, b) == tuple(key) else maxval
            out.extend((r, g, b, a))
    return width, height, out16, out


def main():
    result = {}
    for name in sorted(os.listdir(SUITE)):
        if not name.endswith(".png") or name == "PngSuite.png":
            continue
        path = os.path.join(SUITE, name)
        if name.startswith("x"):
            try:
                rgba_samples(path)
            except Exception:
                continue
            sys.exit(f"{name}: pypng accepted a file the suite marks invalid")
        width, height, is16, samples = rgba_samples(path)
        if is16:
            native = b"".join(v.to_bytes(2, "big") for v in samples)
            eight = bytes((v * 255 + 32767) // 65535 for v in samples)
        else:
            native = bytes(samples)
            eight = native
        result[name] = {
            "width": width,
            "height": height,
            "depth": 16 if is16 else 8,
            "sha256": hashlib.sha256(native).hexdigest(),
            "sha256_rgba8": hashlib.sha256(eight).hexdigest(),
        }
    with open(OUT, "w") as f:
        json.dump(result, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {len(result)} entries to {os.path.relpath(OUT)}")


if __name__ == "__main__":
    main()
