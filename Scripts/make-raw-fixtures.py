#!/usr/bin/python3
"""Makes Tests/Fixtures/raw: synthetic camera RAW containers with real-size JPEG previews, hostile
variants of them, and an ordinary TIFF with a JPEG thumbnail (which must stay a TIFF).

Run with /usr/bin/python3 (Pillow and numpy). The exiftool samples beside them are copied from
exiftool's t/images (see Tests/Fixtures/raw/README.md), not made here. Deterministic: the same
bytes on every run.

Each container follows its maker's layout as exiftool, LibRaw and dcraw read it, so those
extractors find the same preview thumbgen should (`RAWPreviewTests` checks it):
- DNG: IFD0 with DNGVersion, a 160x120 JPEG thumbnail (513/514), Orientation, XMP (700) with a
  rating; SubIFD 0 the sensor data (CFA), SubIFD 1 the 1616x1080 JPEG preview (Compression 7, one strip).
- NEF (big-endian): IFD0 with Make NIKON and an uncompressed thumbnail; SubIFD 0 a 1200x800 JPEG
  (513/514), SubIFD 1 the sensor data (CFA, Compression 34713).
- CR2: the "CR" marker at byte 8; IFD0 a 1536x1024 JPEG in one strip (Compression 6); IFD1 a
  160x120 JPEG thumbnail (513/514).
- CR3: ftyp `crx `; moov/uuid(Canon) with CMT1 (IFD0: Orientation 8, Rating 3) and THMB (160x120);
  the top-level preview uuid box with PRVW (1620x1080).
- RAF: the FUJIFILMCCD-RAW header with the 1920x1280 JPEG's offset and length at bytes 84 and 88;
  the JPEG carries the camera's EXIF (Orientation 3).
- ORF ("IIRO"): IFD0 the sensor data (Make OLYMPUS IMAGING CORP.), IFD1 a 160x120 JPEG thumbnail
  (513/514); the 1280x960 preview in the MakerNote ("OLYMPUS\0II", offsets from its start):
  CameraSettings (0x2020) PreviewImageStart/Length (0x101/0x102), exiftool's PreviewImage.
- ARW: IFD0 (Make SONY) the 1616x1080 preview (513/514, exiftool's PreviewImage), its SubIFD the
  sensor data (CFA, Compression 32767); IFD1 a 160x120 JPEG thumbnail.
- PEF (big-endian): IFD0 (Make PENTAX) the sensor data (CFA, Compression 65535); IFD1 a 160x120
  JPEG thumbnail; IFD2 the 1440x960 JpgFromRaw (513/514).
- SRW: IFD0 (Make SAMSUNG) the sensor data (CFA, Compression 32770), its SubIFD the 1024x680
  JpgFromRaw (513/514); IFD1's SubIFD a 160x120 JPEG thumbnail (exiftool's ThumbnailImage).
"""
import io
import json
import os
import struct
import sys

import numpy as np
from PIL import Image

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Fixtures", "raw")


def picture(width, height):
    """A picture whose corners differ (so a turn is visible): red top left, green top right, blue
    bottom left, white bottom right, over a smooth gradient."""
    y, x = np.mgrid[0:height, 0:width]
    rgb = np.zeros((height, width, 3), np.uint8)
    rgb[..., 0] = (x * 200 // max(width - 1, 1)).astype(np.uint8)
    rgb[..., 1] = (y * 200 // max(height - 1, 1)).astype(np.uint8)
    rgb[..., 2] = 90
    qw, qh = width // 4, height // 4
    rgb[:qh, :qw] = (230, 20, 20)
    rgb[:qh, -qw:] = (20, 230, 20)
    rgb[-qh:, :qw] = (20, 20, 230)
    rgb[-qh:, -qw:] = (240, 240, 240)
    return Image.fromarray(rgb, "RGB")


def jpeg(width, height, orientation=None):
    """A baseline JPEG of `picture`, with an EXIF orientation when given."""
    buffer = io.BytesIO()
    extra = {}
    if orientation is not None:
        exif = Image.Exif()
        exif[274] = orientation
        extra["exif"] = exif.tobytes()
    picture(width, height).save(buffer, "JPEG", quality=85, **extra)
    return buffer.getvalue()


def xmp(rating):
    return ('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
            '<rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="%d"/></rdf:RDF></x:xmpmeta>' % rating).encode()


# --- a small TIFF writer: IFDs with entries, out-of-line values and blobs laid out in order ---

SHORT, LONG, ASCII, BYTE, UNDEFINED, IFDTYPE = 3, 4, 2, 1, 7, 13
SIZES = {SHORT: 2, LONG: 4, ASCII: 1, BYTE: 1, UNDEFINED: 1, IFDTYPE: 4}


class Blob:
    """Bytes laid out after the directories. `build`, when given, makes them once every offset is
    known (a MakerNote that points at a preview): it is called with the blob and must return
    `size` bytes."""
    def __init__(self, data=None, size=None, build=None):
        self.data = data if build is None else bytes(size)
        self.build = build
        self.offset = None


class IFD:
    """entries: (tag, type, value); value is a list of ints, bytes, ("offset", Blob),
    ("length", Blob), ("ifds", [IFD, ...]) or ("data", Blob) (the blob is the entry's own data: its
    count is the blob's length, its field the blob's offset)."""
    def __init__(self, entries):
        self.entries = sorted(entries, key=lambda e: e[0])
        self.offset = None
        self.next = None


def tiff(ifd0_chain, little=True, magic=42, cr2=False, trailing=()):
    """The file: header, directories (IFD0's chain, each followed by its SubIFDs) with their
    out-of-line values, then the blobs in the order first met, then `trailing` blobs (data only a
    blob points at, such as a MakerNote's preview)."""
    e = "<" if little else ">"
    ifds, blobs = [], []

    def collect(ifd):
        ifds.append(ifd)
        for _, _, value in ifd.entries:
            if isinstance(value, tuple) and value[0] in ("offset", "length", "data") and value[1] not in blobs:
                blobs.append(value[1])
        for _, _, value in ifd.entries:
            if isinstance(value, tuple) and value[0] == "ifds":
                for sub in value[1]:
                    collect(sub)

    for ifd in ifd0_chain:
        collect(ifd)
    blobs.extend(blob for blob in trailing if blob not in blobs)
    for a, b in zip(ifd0_chain, ifd0_chain[1:]):
        a.next = b

    def payload(type_, value):
        if isinstance(value, bytes):
            return value
        if isinstance(value, tuple):
            kind, target = value
            if kind in ("offset", "data"):
                ints = [target.offset]
            elif kind == "length":
                ints = [len(target.data)]
            else:
                ints = [sub.offset for sub in target]
        else:
            ints = value
        return b"".join(struct.pack(e + ("H" if type_ == SHORT else "I"), v) for v in ints)

    def payload_size(type_, value):
        if isinstance(value, bytes):
            return len(value)
        if isinstance(value, tuple):
            return 4 * len(value[1]) if value[0] == "ifds" else 4
        return SIZES[type_] * len(value)

    def count_of(type_, value, data):
        if isinstance(value, tuple) and value[0] == "data":
            return len(value[1].data) // SIZES[type_]
        return len(data) // SIZES[type_]

    header = 16 if cr2 else 8
    # Pass 1: offsets (payload sizes do not depend on offsets).
    position = header
    for ifd in ifds:
        ifd.offset = position
        position += 2 + 12 * len(ifd.entries) + 4
        for tag, type_, value in ifd.entries:
            size = payload_size(type_, value)
            if size > 4:
                position += size + (size & 1)
    for blob in blobs:
        blob.offset = position
        position += len(blob.data) + (len(blob.data) & 1)
    # Pass 2: bytes.
    out = bytearray(b"II" if little else b"MM")
    out += struct.pack(e + "HI", magic, ifd0_chain[0].offset)
    if cr2:
        out += b"CR\x02\x00" + struct.pack(e + "I", 0)
    for ifd in ifds:
        assert len(out) == ifd.offset
        table, extra = bytearray(), bytearray()
        data_at = ifd.offset + 2 + 12 * len(ifd.entries) + 4
        for tag, type_, value in ifd.entries:
            data = payload(type_, value)
            count = count_of(type_, value, data)
            if len(data) <= 4:
                field = data + b"\0" * (4 - len(data))
            else:
                field = struct.pack(e + "I", data_at + len(extra))
                extra += data + (b"\0" if len(data) & 1 else b"")
            table += struct.pack(e + "HHI", tag, type_, count) + field
        out += struct.pack(e + "H", len(ifd.entries)) + table
        out += struct.pack(e + "I", ifd.next.offset if ifd.next else 0) + extra
    for blob in blobs:
        assert len(out) == blob.offset
        if blob.build:
            built = blob.build(blob)
            assert len(built) == len(blob.data)
            blob.data = built
        out += blob.data + (b"\0" if len(blob.data) & 1 else b"")
    return bytes(out)


def cfa_ifd(width, height, compression=1):
    sensor = Blob(bytes(32))
    return IFD([(254, LONG, [0]), (256, LONG, [width]), (257, LONG, [height]), (258, SHORT, [16]),
                (259, SHORT, [compression]), (262, SHORT, [32803]), (273, LONG, ("offset", sensor)),
                (277, SHORT, [1]), (279, LONG, ("length", sensor))])


def dng(preview_size=(1616, 1080), orientation=6, rating=4):
    thumbnail = Blob(jpeg(160, 120))
    entries = [(254, LONG, [1]), (256, LONG, [160]), (257, LONG, [120]), (259, SHORT, [6]), (262, SHORT, [6]),
               (271, ASCII, b"Synthetic\0"), (274, SHORT, [orientation]), (513, LONG, ("offset", thumbnail)),
               (514, LONG, ("length", thumbnail)), (700, BYTE, xmp(rating)), (50706, BYTE, bytes([1, 4, 0, 0]))]
    subs = [cfa_ifd(4032, 2688, compression=7)]
    if preview_size:
        preview = Blob(jpeg(*preview_size))
        subs.append(IFD([(254, LONG, [1]), (256, LONG, [preview_size[0]]), (257, LONG, [preview_size[1]]),
                         (259, SHORT, [7]), (262, SHORT, [6]), (273, LONG, ("offset", preview)),
                         (277, SHORT, [3]), (279, LONG, ("length", preview))]))
    entries.append((330, LONG, ("ifds", subs)))
    return tiff([IFD(entries)])


def nef():
    strip = Blob(bytes(160 * 120 * 3))
    preview = Blob(jpeg(1200, 800))
    ifd0 = IFD([(254, LONG, [1]), (256, LONG, [160]), (257, LONG, [120]), (258, SHORT, [8, 8, 8]), (259, SHORT, [1]),
                (262, SHORT, [2]), (271, ASCII, b"NIKON CORPORATION\0"), (273, LONG, ("offset", strip)),
                (274, SHORT, [1]), (277, SHORT, [3]), (279, LONG, ("length", strip)),
                (330, LONG, ("ifds", [IFD([(259, SHORT, [6]), (513, LONG, ("offset", preview)), (514, LONG, ("length", preview))]),
                                      cfa_ifd(6048, 4032, compression=34713)]))])
    return tiff([ifd0], little=False)


def cr2():
    preview = Blob(jpeg(1536, 1024))
    thumbnail = Blob(jpeg(160, 120))
    ifd0 = IFD([(256, LONG, [1536]), (257, LONG, [1024]), (259, SHORT, [6]), (271, ASCII, b"Canon\0"),
                (273, LONG, ("offset", preview)), (274, SHORT, [1]), (279, LONG, ("length", preview))])
    ifd1 = IFD([(259, SHORT, [6]), (513, LONG, ("offset", thumbnail)), (514, LONG, ("length", thumbnail))])
    return tiff([ifd0, ifd1], cr2=True)


def box(kind, payload):
    return struct.pack(">I", 8 + len(payload)) + kind + payload


def cr3():
    prvw_jpeg, thmb_jpeg = jpeg(1620, 1080), jpeg(160, 120)
    cmt1 = tiff([IFD([(271, ASCII, b"Canon\0"), (274, SHORT, [8]), (0x4746, SHORT, [3])])])
    thmb = box(b"THMB", struct.pack(">IHHIHH", 0, 160, 120, len(thmb_jpeg), 1, 0) + thmb_jpeg)
    canon = box(b"uuid", bytes.fromhex("85c0b687820f11e08111f4ce462b6a48") + box(b"CNCV", b"CanonCR3_001/00.09.00/00.00.00")
                + box(b"CMT1", cmt1) + thmb)
    moov = box(b"moov", canon)
    prvw = box(b"PRVW", struct.pack(">IHHHHI", 0, 1, 1620, 1080, 1, len(prvw_jpeg)) + prvw_jpeg)
    preview = box(b"uuid", bytes.fromhex("eaf42b5e1c984b88b9fbb7dc406e4d16") + struct.pack(">II", 0, 1) + prvw)
    ftyp = box(b"ftyp", b"crx " + struct.pack(">I", 1) + b"crx isom")
    return ftyp + moov + preview + box(b"mdat", bytes(16))


def raf():
    preview = jpeg(1920, 1280, orientation=3)
    header = bytearray(b"FUJIFILMCCD-RAW 0201FF383501" + b"SyntheticX-T".ljust(32, b"\0") + b"0100")
    header += bytes(84 - len(header))
    header += struct.pack(">II", 148, len(preview)) + struct.pack(">II", 0, 0) + struct.pack(">II", 0, 0)
    header += bytes(148 - len(header))
    return bytes(header) + preview


def orf():
    """Olympus ORF ("IIRO"): IFD0 the sensor data, IFD1 a 160x120 JPEG thumbnail (513/514); the
    1280x960 preview is where Olympus keeps it, in the MakerNote: ExifIFD's MakerNote ("OLYMPUS\0",
    "II", version 3, its IFD at byte 12, every offset in it counted from the MakerNote's start)
    has CameraSettings (0x2020, an IFD) with PreviewImageValid, PreviewImageStart and
    PreviewImageLength (0x100-0x102)."""
    thumbnail = Blob(jpeg(160, 120))
    preview = Blob(jpeg(1280, 960))

    def makernote(blob):
        ifd = lambda entries: struct.pack("<H", len(entries)) + b"".join(
            struct.pack("<HHI", tag, type_, count) + field for tag, type_, count, field in entries) + struct.pack("<I", 0)
        main_size = 2 + 12 * 2 + 4
        settings = ifd([(0x0000, UNDEFINED, 4, b"0100"), (0x0100, LONG, 1, struct.pack("<I", 1)),
                        (0x0101, LONG, 1, struct.pack("<I", preview.offset - blob.offset)),
                        (0x0102, LONG, 1, struct.pack("<I", len(preview.data)))])
        main = ifd([(0x0000, UNDEFINED, 4, b"0100"), (0x2020, IFDTYPE, 1, struct.pack("<I", 12 + main_size))])
        return b"OLYMPUS\0II" + struct.pack("<H", 3) + main + settings

    note = Blob(size=12 + (2 + 12 * 2 + 4) + (2 + 12 * 4 + 4), build=makernote)
    exif = IFD([(0x927C, UNDEFINED, ("data", note))])
    sensor = Blob(bytes(32))
    ifd0 = IFD([(254, LONG, [0]), (256, LONG, [4640]), (257, LONG, [3472]), (258, SHORT, [16]), (259, SHORT, [1]),
                (262, SHORT, [32803]), (271, ASCII, b"OLYMPUS IMAGING CORP.  \0"), (272, ASCII, b"E-M5\0"),
                (273, LONG, ("offset", sensor)), (274, SHORT, [1]), (277, SHORT, [1]), (279, LONG, ("length", sensor)),
                (34665, LONG, ("ifds", [exif]))])
    ifd1 = IFD([(254, LONG, [1]), (259, SHORT, [6]), (513, LONG, ("offset", thumbnail)), (514, LONG, ("length", thumbnail))])
    return tiff([ifd0, ifd1], magic=0x4F52, trailing=[preview])


def arw():
    """Sony ARW (2.x): IFD0 the 1616x1080 preview (513/514, Compression 6) with Make SONY, its
    SubIFD 0 the sensor data (CFA, Compression 32767); IFD1 a 160x120 JPEG thumbnail."""
    preview = Blob(jpeg(1616, 1080))
    thumbnail = Blob(jpeg(160, 120))
    ifd0 = IFD([(254, LONG, [1]), (259, SHORT, [6]), (271, ASCII, b"SONY\0"), (272, ASCII, b"ILCE-7M3\0"),
                (274, SHORT, [1]), (330, LONG, ("ifds", [cfa_ifd(6048, 4024, compression=32767)])),
                (513, LONG, ("offset", preview)), (514, LONG, ("length", preview))])
    ifd1 = IFD([(254, LONG, [1]), (259, SHORT, [6]), (513, LONG, ("offset", thumbnail)), (514, LONG, ("length", thumbnail))])
    return tiff([ifd0, ifd1])


def pef():
    """Pentax PEF (big-endian): IFD0 the sensor data (CFA, Compression 65535) with Make PENTAX;
    IFD1 a 160x120 JPEG thumbnail; IFD2 the 1440x960 JpgFromRaw (513/514)."""
    thumbnail = Blob(jpeg(160, 120))
    big = Blob(jpeg(1440, 960))
    sensor = Blob(bytes(32))
    ifd0 = IFD([(256, LONG, [4928]), (257, LONG, [3264]), (258, SHORT, [12]), (259, SHORT, [65535]), (262, SHORT, [32803]),
                (271, ASCII, b"PENTAX Corporation \0"), (272, ASCII, b"PENTAX K-5\0"), (273, LONG, ("offset", sensor)),
                (274, SHORT, [1]), (277, SHORT, [1]), (279, LONG, ("length", sensor))])
    ifd1 = IFD([(259, SHORT, [6]), (513, LONG, ("offset", thumbnail)), (514, LONG, ("length", thumbnail))])
    ifd2 = IFD([(259, SHORT, [6]), (513, LONG, ("offset", big)), (514, LONG, ("length", big))])
    return tiff([ifd0, ifd1, ifd2], little=False)


def srw():
    """Samsung SRW: IFD0 the sensor data (CFA, Compression 32770, "Samsung SRW Compressed") with Make SAMSUNG, its SubIFD 0
    the 1024x680 JpgFromRaw (513/514); IFD1's SubIFD a 160x120 JPEG thumbnail."""
    big = Blob(jpeg(1024, 680))
    thumbnail = Blob(jpeg(160, 120))
    sensor = Blob(bytes(32))
    ifd0 = IFD([(254, LONG, [0]), (256, LONG, [4592]), (257, LONG, [3056]), (258, SHORT, [12]), (259, SHORT, [32770]),
                (262, SHORT, [32803]), (271, ASCII, b"SAMSUNG\0"), (272, ASCII, b"NX300\0"), (273, LONG, ("offset", sensor)),
                (274, SHORT, [1]), (277, SHORT, [1]), (279, LONG, ("length", sensor)),
                (330, LONG, ("ifds", [IFD([(254, LONG, [1]), (259, SHORT, [6]), (513, LONG, ("offset", big)),
                                           (514, LONG, ("length", big))])]))])
    ifd1 = IFD([(254, LONG, [1]), (330, LONG, ("ifds", [IFD([(254, LONG, [1]), (259, SHORT, [6]),
                                                             (513, LONG, ("offset", thumbnail)),
                                                             (514, LONG, ("length", thumbnail))])]))])
    return tiff([ifd0, ifd1])


def tiff_with_thumbnail():
    """An ordinary RGB TIFF (64x48, uncompressed) whose IFD1 is a JPEG thumbnail: a TIFF, not a RAW."""
    pixels = np.asarray(picture(64, 48)).tobytes()
    strip, thumbnail = Blob(pixels), Blob(jpeg(32, 24))
    ifd0 = IFD([(256, LONG, [64]), (257, LONG, [48]), (258, SHORT, [8, 8, 8]), (259, SHORT, [1]), (262, SHORT, [2]),
                (273, LONG, ("offset", strip)), (277, SHORT, [3]), (278, LONG, [48]), (279, LONG, ("length", strip))])
    ifd1 = IFD([(259, SHORT, [6]), (513, LONG, ("offset", thumbnail)), (514, LONG, ("length", thumbnail))])
    return tiff([ifd0, ifd1])


def patched(data, offset, value, little=True):
    out = bytearray(data)
    out[offset:offset + 4] = struct.pack("<I" if little else ">I", value)
    return bytes(out)


def entry_field(data, tag, directory_offsets):
    """The offset of the value field of the entry with `tag` in the last of the little-endian
    directories at `directory_offsets` that has one (for the hostile variants)."""
    found = None
    for offset in directory_offsets:
        count, = struct.unpack("<H", data[offset:offset + 2])
        for i in range(count):
            at = offset + 2 + 12 * i
            if struct.unpack("<H", data[at:at + 2])[0] == tag:
                found = at + 8
    if found is None:
        raise SystemExit("no tag %d" % tag)
    return found


def subifd_offsets(data):
    """IFD0's SubIFD offsets in a little-endian file written by `tiff`."""
    ifd0, = struct.unpack("<I", data[4:8])
    count, = struct.unpack("<H", data[ifd0:ifd0 + 2])
    for i in range(count):
        at = ifd0 + 2 + 12 * i
        tag, _, n, field = struct.unpack("<HHII", data[at:at + 12])
        if tag == 330:
            return list(struct.unpack("<%dI" % n, data[field:field + 4 * n])) if n > 1 else [field]
    return []


def main():
    os.makedirs(os.path.join(OUT, "hostile"), exist_ok=True)
    files = {
        "synthetic.dng": dng(),
        "synthetic-small-preview.dng": dng(preview_size=None, orientation=1, rating=2),
        "synthetic.nef": nef(),
        "synthetic.cr2": cr2(),
        "synthetic.cr3": cr3(),
        "synthetic.raf": raf(),
        "synthetic.orf": orf(),
        "synthetic.arw": arw(),
        "synthetic.pef": pef(),
        "synthetic.srw": srw(),
        "tiff-with-jpeg-thumbnail.tif": tiff_with_thumbnail(),
    }
    for name, data in files.items():
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)

    base = files["synthetic.dng"]
    ifd0 = struct.unpack("<I", base[4:8])[0]
    count = struct.unpack("<H", base[ifd0:ifd0 + 2])[0]
    next_field = ifd0 + 2 + 12 * count
    preview_ifd = subifd_offsets(base)[-1]
    strip_field = entry_field(base, 273, [preview_ifd])
    length_field = entry_field(base, 279, [preview_ifd])
    flipped = bytearray(base)
    for i in range(len(flipped) // 2, len(flipped) - 2, 97):
        flipped[i] ^= 0x5A
    hostile = {
        # Cut in the middle of the big preview: its strip now runs past the end; the thumbnail is still whole.
        "truncated-in-preview.dng": base[:len(base) - 4000],
        # Cut inside IFD0's entries.
        "truncated-in-ifd0.dng": base[:ifd0 + 40],
        # IFD0 points past the end of the file.
        "ifd0-past-end.dng": patched(base, 4, 0x7FFF_FFF0),
        # IFD0's next pointer points back at IFD0: a loop the walk must end.
        "ifd-loop.dng": patched(base, next_field, ifd0),
        # The big preview's strip offset points past the end.
        "preview-offset-past-end.dng": patched(base, strip_field, 0xFFFF_FF00),
        # The big preview's length is 4 GiB: more than the file has.
        "preview-huge-length.dng": patched(base, length_field, 0xFFFF_FFF0),
        # Bytes flipped through the second half (the big preview's entropy-coded data).
        "flipped-bytes.dng": bytes(flipped),
        # A RAF header whose preview offset and length are past the end.
        "raf-offset-past-end.raf": patched(files["synthetic.raf"], 84, 0x7FFF_0000, little=False),
        # A RAF cut in its header.
        "raf-truncated-header.raf": files["synthetic.raf"][:60],
        # A CR3 whose PRVW box claims more than the file has.
        "cr3-box-too-long.cr3": files["synthetic.cr3"][:-200],
    }
    for name, data in hostile.items():
        with open(os.path.join(OUT, "hostile", name), "wb") as f:
            f.write(data)
    print("made %d fixtures and %d hostile files in %s" % (len(files), len(hostile), os.path.normpath(OUT)))


if __name__ == "__main__":
    main()
