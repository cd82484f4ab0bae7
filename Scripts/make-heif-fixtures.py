#!/usr/bin/env python3
"""Writes the HEIF conformance fixtures (Tests/Fixtures/heif/) with libheif's own encoder, heif-enc
(Debian libheif-examples: x265 for HEIC, libaom for AVIF), and beside each its reference, the
pixels an independent decoder gives as an RGBA PNG (`NAME.ref.png`):

  - HEIC: pillow-heif (pip), which bundles its own libheif (1.2x) and libde265 builds, not the
    system's libheif 1.15 and libde265 1.0 that thumbgen links;
  - AVIF: Pillow's own AVIF plugin, which decodes through libavif and its bundled AV1 decoder,
    not through libheif at all.

Sources are cut from Tests/Fixtures/photos/cat-rgba8.png (CC-BY-2.0, zaimoku_woodpile), scaled
to 64x48. Rerun after changing this script (`pip install pillow-heif`;
heif-enc from libheif-examples); the tests compare thumbgen's decode with the references within
the tolerance they state.

`irot-90.heic` gets its rotation here: heif-enc 1.15 writes no transforms, so an `irot` property
(90 degrees anticlockwise) is added to the primary item's properties and the item offsets moved
by the bytes added; `nclx-p3.heic` gets its nclx `colr` box the same way (heif-enc 1.15 writes
none for PNG input).
"""
import os
import struct
import subprocess
import tempfile

from PIL import Image, ImageCms

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
FIXTURES = os.path.join(ROOT, "Tests", "Fixtures")
DIRECTORY = os.path.join(FIXTURES, "heif")
SIZE = (64, 48)


# --- ISO BMFF editing, for the irot fixture ---

def boxes(data, start, end):
    """(type, start, header size, end) of each box in data[start:end]."""
    out = []
    while start + 8 <= end:
        size, kind = struct.unpack(">I4s", data[start:start + 8])
        header = 8
        if size == 1:
            size = struct.unpack(">Q", data[start + 8:start + 16])[0]
            header = 16
        elif size == 0:
            size = end - start
        out.append((kind.decode("latin-1"), start, header, start + size))
        start += size
    return out


def child(data, parent, kind, full=False):
    _, start, header, end = parent
    skip = 4 if full else 0
    return next(b for b in boxes(data, start + header + skip, end) if b[0] == kind)


def grow(data, box, delta):
    """data with box's 32-bit size increased by delta."""
    _, start, header, end = box
    assert header == 8
    return data[:start] + struct.pack(">I", end - start + delta) + data[start + 4:]


def add_property(data, prop, essential=True):
    """The file with `prop` (a whole box) added to the primary item's properties (marked essential,
    as transforms must be),
    and every construction-method-0 offset in iloc moved by the bytes added (the media data follows
    the meta box in heif-enc's files)."""
    meta = next(b for b in boxes(data, 0, len(data)) if b[0] == "meta")
    pitm = child(data, meta, "pitm", full=True)
    version = data[pitm[1] + 8]
    primary = struct.unpack(">H" if version == 0 else ">I", data[pitm[1] + 12:pitm[1] + (14 if version == 0 else 16)])[0]
    iprp = child(data, meta, "iprp", full=True)
    ipco = child(data, iprp, "ipco")
    ipma = child(data, iprp, "ipma")
    count = len(boxes(data, ipco[1] + 8, ipco[3]))
    # The association is added to the primary item's ipma entry.
    version, flags = data[ipma[1] + 8], int.from_bytes(data[ipma[1] + 9:ipma[1] + 12], "big")
    wide = flags & 1
    p = ipma[1] + 12
    entries = struct.unpack(">I", data[p:p + 4])[0]
    p += 4
    insert_at = None
    for _ in range(entries):
        item = struct.unpack(">H" if version < 1 else ">I", data[p:p + (2 if version < 1 else 4)])[0]
        p += 2 if version < 1 else 4
        n = data[p]
        if item == primary:
            count_at, insert_at = p, p + 1 + n * (2 if wide else 1)
        p += 1 + n * (2 if wide else 1)
    flag = 0x8000 if wide else 0x80
    association = struct.pack(">H", (flag if essential else 0) | (count + 1)) if wide \
        else bytes([(flag if essential else 0) | (count + 1)])
    delta = len(prop) + len(association)
    iloc = child(data, meta, "iloc", full=True)
    # Edits from the back, so earlier offsets stay valid: the ipma association, then the property.
    assert ipma[1] > ipco[1]
    data = data[:insert_at] + association + data[insert_at:]
    data = data[:count_at] + bytes([data[count_at] + 1]) + data[count_at + 1:]
    data = grow(data, ipma, len(association))
    data = data[:ipco[3]] + prop + data[ipco[3]:]
    data = grow(data, ipco, len(prop))
    data = grow(data, iprp, delta)
    data = grow(data, meta, delta)
    return move_offsets(data, iloc, delta)


def move_offsets(data, iloc, delta):
    """iloc (read before the edits, which all came after it) with its file offsets moved by delta."""
    data = bytearray(data)
    version = data[iloc[1] + 8]
    p = iloc[1] + 12
    offset_size, length_size = data[p] >> 4, data[p] & 15
    base_size, index_size = data[p + 1] >> 4, (data[p + 1] & 15) if version in (1, 2) else 0
    p += 2
    items = struct.unpack(">H" if version < 2 else ">I", data[p:p + (2 if version < 2 else 4)])[0]
    p += 2 if version < 2 else 4

    def field(at, size):
        return int.from_bytes(data[at:at + size], "big") if size else 0

    for _ in range(items):
        p += 2 if version < 2 else 4
        method = 0
        if version in (1, 2):
            method = struct.unpack(">H", data[p:p + 2])[0] & 15
            p += 2
        p += 2   # data_reference_index
        base_at = p
        p += base_size
        extents = struct.unpack(">H", data[p:p + 2])[0]
        p += 2
        if method == 0 and base_size:
            data[base_at:base_at + base_size] = (field(base_at, base_size) + delta).to_bytes(base_size, "big")
        for _ in range(extents):
            p += index_size
            if method == 0 and not base_size:
                data[p:p + offset_size] = (field(p, offset_size) + delta).to_bytes(offset_size, "big")
            p += offset_size + length_size
    return bytes(data)


# --- sources and encoding ---

def write_png16(path, image16):
    """A 16-bit RGB PNG (Pillow writes 16 bits for gray only): rows of big-endian samples."""
    import zlib
    width, height = image16["size"]
    rows = b"".join(b"\x00" + struct.pack(">%dH" % (width * 3), *image16["rows"][y]) for y in range(height))

    def chunk(kind, payload):
        return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 16, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


def rgb16_source(small):
    """16-bit samples from the 8-bit cut, with low bits that vary across the row (as in the TIFF
    gray16 fixture), so a 10-bit encoding has levels between the 8-bit ones."""
    rgb = small.convert("RGB").tobytes()
    values = [min(65535, v * 257 + (i * 37) % 257) for i, v in enumerate(rgb)]
    width = small.size[0] * 3
    return {"size": small.size, "rows": [values[y * width:(y + 1) * width] for y in range(small.size[1])]}


def heif_enc(source, out, *options):
    subprocess.run(["heif-enc", *options, "-o", out, source], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def reference(path, out):
    """The independent decoder's pixels as RGBA (8-bit: the reference decoders reduce deeper
    samples themselves)."""
    if path.endswith(".heic"):
        import pillow_heif
        heif = pillow_heif.open_heif(path, convert_hdr_to_8bit=True)
        image = heif.to_pillow()
    else:
        image = Image.open(path)   # Pillow's AVIF plugin (libavif)
        image.load()
        assert image.format == "AVIF"
    image.convert("RGBA").save(out)


def main():
    os.makedirs(DIRECTORY, exist_ok=True)
    cat = Image.open(os.path.join(FIXTURES, "photos", "cat-rgba8.png")).convert("RGBA")
    # 320x480 upright; the top 320x240 cut to 64x48 keeps the transparent corners.
    small = cat.crop((0, 0, 320, 240)).resize(SIZE, Image.LANCZOS)
    icc = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    icc = icc[:24] + bytes(12) + icc[36:]   # the creation date, zeroed: same script, same bytes
    with open(os.path.join(DIRECTORY, "icc.icc"), "wb") as f:
        f.write(icc)
    with tempfile.TemporaryDirectory() as tmp:
        rgba, rgb, with_icc, deep = (os.path.join(tmp, n) for n in ("rgba.png", "rgb.png", "icc.png", "deep.png"))
        small.save(rgba)
        # The same pixels with their colours multiplied by alpha, for --premultiplied-alpha.
        premultiplied = os.path.join(tmp, "premultiplied.png")
        samples = small.tobytes()
        Image.frombytes("RGBA", SIZE, bytes(
            (samples[i] * samples[i - i % 4 + 3] + 127) // 255 if i % 4 != 3 else samples[i] for i in range(len(samples))
        )).save(premultiplied)
        small.convert("RGB").save(rgb)
        small.convert("RGB").save(with_icc, icc_profile=icc)
        write_png16(deep, rgb16_source(small))
        # 4:4:4 where the reference is compared closely (no chroma upsampling to differ in).
        full = ("-p", "chroma=444")
        files = {
            "opaque-420.heic": (rgb, ("-q", "80")),
            "opaque.heic": (rgb, ("-q", "90", *full)),
            "alpha.heic": (rgba, ("-q", "90", *full)),
            "premultiplied.heic": (premultiplied, ("-q", "90", *full, "--premultiplied-alpha")),
            "irot-90.heic": (rgb, ("-q", "90", *full)),
            "icc.heic": (with_icc, ("-q", "90", *full)),
            "nclx-p3.heic": (rgb, ("-q", "90", *full)),
            "10bit.heic": (deep, ("-q", "90", *full, "-b", "10")),
            "thumbnail.heic": (rgb, ("-q", "90", *full, "-t", "32")),
            "opaque-420.avif": (rgb, ("-q", "80")),
            "opaque.avif": (rgb, ("-q", "90", *full)),
            "alpha.avif": (rgba, ("-q", "90", *full)),
            # libaom 3.6 through heif-enc 1.15 fails on 10-bit 4:2:0 (an assertion) and 4:4:4 (a crash).
            "10bit.avif": (deep, ("-q", "90", "-p", "chroma=422", "-b", "10")),
        }
        for name, (source, options) in files.items():
            path = os.path.join(DIRECTORY, name)
            heif_enc(source, path, *options)
            if name == "irot-90.heic":
                data = open(path, "rb").read()
                with open(path, "wb") as f:
                    f.write(add_property(data, struct.pack(">I4sB", 9, b"irot", 1)))
            if name == "nclx-p3.heic":
                # heif-enc 1.15 writes no colr box for PNG input, whatever its nclx options say:
                # Display P3 primaries (12), sRGB transfer (13), BT.601 matrix (6, heif-enc's
                # default, which the samples were coded with), full range.
                data = open(path, "rb").read()
                with open(path, "wb") as f:
                    f.write(add_property(data, struct.pack(">I4s4sHHHB", 19, b"colr", b"nclx", 12, 13, 6, 0x80), essential=False))
            reference(path, os.path.join(DIRECTORY, name.rsplit(".", 1)[0] + "-" + name.rsplit(".", 1)[1] + ".ref.png"))
    banner = subprocess.run(["heif-enc", "--help"], capture_output=True, text=True)
    version = (banner.stdout + banner.stderr).split("libheif version:")[-1].split()[0]
    with open(os.path.join(DIRECTORY, "README.md"), "w") as f:
        f.write(
            "# HEIF conformance fixtures\n\n"
            f"Written by `Scripts/make-heif-fixtures.py` with heif-enc (libheif {version}: x265 for "
            ".heic, libaom for .avif) from `../photos/cat-rgba8.png` (CC-BY-2.0, attribution: zaimoku_woodpile), "
            "cut and scaled to 64x48. `NAME-heic.ref.png` / `NAME-avif.ref.png` "
            "is an independent decode as RGBA: pillow-heif (its own libheif and libde265 builds) for HEIC, "
            "Pillow's AVIF plugin (libavif) for AVIF; 10-bit files reduced to 8 bits by those decoders.\n\n"
            "Files: `opaque` (4:4:4) and `opaque-420` (4:2:0); `alpha` (an alpha image); `premultiplied.heic` (its colours premultiplied by alpha, marked so); `irot-90.heic` (an irot "
            "of 90 degrees anticlockwise added by the script: displayed 48x64); `icc.heic` carries `icc.icc`; "
            "`nclx-p3.heic` has an nclx colr box (added by the script) with Display P3 primaries (12), sRGB transfer (13); `10bit` "
            "(10 bits a sample, 4:2:2 for AVIF: the 8-bit cut widened to 16 bits with varying low bits); `thumbnail.heic` stores a 32-pixel thumbnail image.\n")
    print(f"wrote {len(files)} HEIF fixtures")


if __name__ == "__main__":
    main()
