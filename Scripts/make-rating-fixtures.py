#!/usr/bin/env python3
"""Writes Tests/Fixtures/ratings/: small images carrying star ratings in each place a photo keeps
one, XMP sidecars beside some of them, and expected.json with what thumbgen must read from each.

Carriers: XMP in a JPEG APP1 marker, a PNG iTXt (plain and compressed), zTXt or tEXt chunk, a WebP
"XMP " chunk, a TIFF XMLPacket tag (700) and a HEIC mime item (pillow-heif); EXIF Rating (0x4746)
in a JPEG APP1 Exif marker, a WebP EXIF chunk (with JPEG's "Exif\\0\\0" before the TIFF header), a
TIFF's own first directory and a HEIC Exif item. Values: whole and half stars, 0, rejected (-1 in
XMP, 0xFFFF in EXIF's unsigned SHORT), none; XMP bound to an unusual prefix in element form;
malformed XMP and a non-numeric rating (warnings). Sources are an 8x8 gradient, so the files stay
a few hundred bytes. Every byte is written by this script: rerun it after changing it.
"""
import io
import json
import os
import struct
import zlib

from PIL import Image, PngImagePlugin, TiffImagePlugin, TiffTags

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
OUT = os.path.join(ROOT, "Tests", "Fixtures", "ratings")
XAP = "http://ns.adobe.com/xap/1.0/"


def packet(body, wrapper=True):
    """An XMP packet (x:xmpmeta and rdf:RDF around body), with the xpacket wrapper and padding."""
    xml = ('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
           + body + "</rdf:RDF></x:xmpmeta>")
    if wrapper:
        xml = '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>\n' + xml + "\n" + " " * 64 + '\n<?xpacket end="w"?>'
    return xml.encode("utf-8")


def attribute(rating):
    return packet(f'<rdf:Description rdf:about="" xmlns:xmp="{XAP}" xmp:Rating="{rating}"/>')


# An unusual prefix bound to the XMP namespace, element form, and the usual prefix bound to
# another namespace as a decoy: only the namespace counts.
ODD_PREFIX = packet(
    f'<rdf:Description rdf:about="" xmlns:basic="{XAP}" xmlns:xmp="http://example.com/not-xmp/" xmp:Rating="1">'
    "<!-- a comment --><basic:Rating><![CDATA[3]]></basic:Rating></rdf:Description>")
MALFORMED = (f'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
             f'<rdf:Description rdf:about="" xmlns:xmp="{XAP}" xmp:Rating="5"/></x:xmpmeta>').encode()
NOT_A_NUMBER = attribute("four")


def exif(rating, type_=3, big_endian=False):
    """A TIFF structure with one IFD0 entry: Rating (0x4746) of the given TIFF type."""
    e = ">" if big_endian else "<"
    head = b"MM\x00*" if big_endian else b"II*\x00"
    value = struct.pack(e + "H", rating) + b"\x00\x00" if type_ == 3 else struct.pack(e + "I", rating)
    return head + struct.pack(e + "I", 8) + struct.pack(e + "H", 1) + struct.pack(e + "HHI", 0x4746, type_, 1) + value + b"\x00" * 4


def image(mode="RGB"):
    im = Image.new("RGB", (8, 8))
    im.putdata([(x * 32, y * 32, 128) for y in range(8) for x in range(8)])
    return im.convert(mode)


def jpeg(xmp=None, exif_tiff=None):
    buffer = io.BytesIO()
    image().save(buffer, "JPEG", quality=75)
    data = buffer.getvalue()
    segments = b""
    if exif_tiff is not None:
        payload = b"Exif\x00\x00" + exif_tiff
        segments += b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload
    if xmp is not None:
        payload = XAP.encode() + b"\x00" + xmp
        segments += b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload
    # After SOI (and before Pillow's JFIF APP0, which readers do not mind).
    return data[:2] + segments + data[2:]


def png(xmp, chunk):
    info = PngImagePlugin.PngInfo()
    if chunk == "itxt":
        info.add_itxt("XML:com.adobe.xmp", xmp.decode(), zip=False)
    elif chunk == "itxt-zip":
        info.add_itxt("XML:com.adobe.xmp", xmp.decode(), zip=True)
    elif chunk == "ztxt":
        info.add_text("XML:com.adobe.xmp", xmp.decode("latin-1"), zip=True)
    else:
        info.add_text("XML:com.adobe.xmp", xmp.decode("latin-1"))
    buffer = io.BytesIO()
    image().save(buffer, "PNG", pnginfo=info)
    return buffer.getvalue()


def riff_chunk(fourcc, payload):
    return fourcc + struct.pack("<I", len(payload)) + payload + (b"\x00" if len(payload) % 2 else b"")


def webp(xmp=None, exif_block=None):
    """An extended (VP8X) WebP: Pillow's lossless image, then the metadata chunks, flags set."""
    buffer = io.BytesIO()
    image().save(buffer, "WEBP", lossless=True)
    data = buffer.getvalue()
    assert data[12:16] == b"VP8L"
    image_chunk = data[12:]
    flags = (0x08 if exif_block is not None else 0) | (0x04 if xmp is not None else 0)
    width, height = 8, 8
    vp8x = riff_chunk(b"VP8X", bytes([flags, 0, 0, 0]) + (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little"))
    body = b"WEBP" + vp8x + image_chunk
    if exif_block is not None:
        body += riff_chunk(b"EXIF", exif_block)
    if xmp is not None:
        body += riff_chunk(b"XMP ", xmp)
    return b"RIFF" + struct.pack("<I", len(body)) + body


def tiff(xmp=None, rating=None):
    ifd = TiffImagePlugin.ImageFileDirectory_v2()
    if xmp is not None:
        ifd[700] = xmp
        ifd.tagtype[700] = TiffTags.BYTE
    if rating is not None:
        ifd[0x4746] = rating
        ifd.tagtype[0x4746] = TiffTags.SHORT
    buffer = io.BytesIO()
    image().save(buffer, "TIFF", tiffinfo=ifd)
    return buffer.getvalue()


def heic(xmp=None, exif_tiff=None):
    import pillow_heif
    pillow_heif.register_heif_opener()
    buffer = io.BytesIO()
    options = {}
    if xmp is not None:
        options["xmp"] = xmp
    if exif_tiff is not None:
        options["exif"] = b"Exif\x00\x00" + exif_tiff
    image().save(buffer, "HEIF", quality=50, **options)
    return buffer.getvalue()


def main():
    os.makedirs(OUT, exist_ok=True)
    # name -> (bytes, expected rating or None, origin or None, warning substring or None)
    files = {
        "xmp-attribute.jpg": (jpeg(xmp=attribute(4)), 4, "xmp", None),
        "xmp-over-exif.jpg": (jpeg(xmp=attribute(2), exif_tiff=exif(5)), 2, "xmp", None),
        "xmp-zero.jpg": (jpeg(xmp=attribute(0)), 0, "xmp", None),
        "xmp-rejected.jpg": (jpeg(xmp=attribute(-1)), -1, "xmp", None),
        "exif.jpg": (jpeg(exif_tiff=exif(3)), 3, "exif", None),
        "exif-big-endian-long.jpg": (jpeg(exif_tiff=exif(5, type_=4, big_endian=True)), 5, "exif", None),
        "exif-rejected.jpg": (jpeg(exif_tiff=exif(0xFFFF)), -1, "exif", None),
        "missing.jpg": (jpeg(), None, None, None),
        "malformed-xmp.jpg": (jpeg(xmp=MALFORMED, exif_tiff=exif(2)), 2, "exif", "malformed XMP"),
        "not-a-number.jpg": (jpeg(xmp=NOT_A_NUMBER), None, None, "xmp:Rating 'four' is not a number"),
        "xmp-half.png": (png(attribute(4.5), "itxt"), 4.5, "xmp", None),
        "xmp-compressed.png": (png(attribute(2), "itxt-zip"), 2, "xmp", None),
        "xmp-text.png": (png(attribute(1), "text"), 1, "xmp", None),
        "xmp-ztxt.png": (png(attribute(3.5), "ztxt"), 3.5, "xmp", None),
        "odd-prefix.png": (png(ODD_PREFIX, "itxt"), 3, "xmp", None),
        # A compressed packet that inflates past the 1 MiB metadata limit (2 KiB in the file): the
        # decoder drops it unread, and the image is still fine.
        "xmp-inflates-too-large.png": (png(attribute(4) + b" " * (2 << 20), "itxt-zip"), None, None, None),
        "xmp.webp": (webp(xmp=attribute(5), exif_block=b"Exif\x00\x00" + exif(1)), 5, "xmp", None),
        "exif.webp": (webp(exif_block=b"Exif\x00\x00" + exif(3)), 3, "exif", None),
        "xmp-rejected.tif": (tiff(xmp=attribute(-1)), -1, "xmp", None),
        "exif.tif": (tiff(rating=2), 2, "exif", None),
        "xmp.heic": (heic(xmp=attribute(3)), 3, "xmp", None),
        "exif.heic": (heic(exif_tiff=exif(4)), 4, "exif", None),
        # Sidecars: photo.jpg.xmp beats photo.xmp beats the file's own XMP.
        "sidecar-both.jpg": (jpeg(xmp=attribute(2)), 5, "sidecar", None),
        "sidecar-stem.jpg": (jpeg(xmp=attribute(2)), -1, "sidecar", None),
        "sidecar-malformed.jpg": (jpeg(exif_tiff=exif(3)), 3, "exif", "sidecar"),
    }
    sidecars = {
        "sidecar-both.jpg.xmp": attribute(5),
        "sidecar-both.xmp": attribute(1),
        "sidecar-stem.xmp": packet(f'<rdf:Description rdf:about="" xmlns:xmp="{XAP}"><xmp:Rating>-1</xmp:Rating></rdf:Description>', wrapper=False),
        "sidecar-malformed.jpg.xmp": MALFORMED,
    }
    expected = {}
    for name, (data, rating, origin, warning) in files.items():
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)
        expected[name] = {"rating": rating, "origin": origin, "warning": warning}
    for name, data in sidecars.items():
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)
    with open(os.path.join(OUT, "expected.json"), "w") as f:
        json.dump(expected, f, indent=2, sort_keys=True)
        f.write("\n")
    print(f"wrote {len(files)} images and {len(sidecars)} sidecars to {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
