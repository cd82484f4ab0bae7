/*
 * clibheif: libheif behind a small C API that is safe to call from Swift.
 *
 * Policy:
 *  - Bytes come from a tg_source through a heif_reader, read exactly where libheif seeks (the meta
 *    box says where each item's data is), nothing ahead; libheif reads the boxes when the file is
 *    opened and the primary image's coded data when it is decoded, nothing else.
 *  - The primary image is decoded (HEVC through libde265; AV1 through dav1d, by a decoder plugin
 *    of CLibHEIF's own, heif_dav1d.c, which keeps dav1d's log off standard error and runs it on one
 *    thread under the file's pixel limit), with its transformative properties applied by libheif (clean aperture, rotation, mirroring: HEIF makes
 *    them part of the image, ISO/IEC 23008-12 §6.5.10, so they are not metadata to ignore), hence the
 *    size reported is the displayed size. EXIF orientation inside the file is not read.
 *  - Pixels come out straight RGBA, 8 bits per channel, or 16 for images coded with more than 8 bits
 *    (10 and 12-bit samples scaled to the full 16-bit range). Premultiplied alpha is divided out.
 *  - The colour profile: the ICC profile (colr 'prof'/'rICC') as bytes, else the nclx values of a
 *    colr box, reported as they are (the Swift side decides what they mean).
 *  - Limits are checked from the primary image's header (ispe and transforms) before anything is
 *    decoded; libheif keeps its own limits too (32768 pixels a side in 1.15, for every item). libheif
 *    prints nothing; its errors come back as its message text, on one line.
 */
#ifndef CLIBHEIF_H
#define CLIBHEIF_H

#include <stddef.h>
#include <stdint.h>

#include "tg_codec_support.h"

typedef struct {
    uint32_t width;             /* the displayed size: after libheif's transforms */
    uint32_t height;
    int bit_depth;              /* luma bits per sample as coded: 8, 10, 12 */
    int has_alpha;
    int premultiplied;          /* the alpha image is marked premultiplied (prem reference) */
    char brand[5];              /* the ftyp box's major brand, e.g. "heic", "avif", "mif1" */
    int images;                 /* top-level images; the primary one is decoded */
    int thumbnails;             /* thumbnail images of the primary one */
    int has_nclx;               /* a colr box with nclx values */
    int primaries;              /* ITU-T H.273 colour primaries, transfer, matrix (nclx only) */
    int transfer;
    int matrix;
    int full_range;
    const uint8_t *icc;         /* owned by the reader; NULL if none */
    size_t icc_size;
    uint64_t file_bytes;        /* of the file or the bytes: libheif holds the coded data it reads */
} tg_heif_info;

typedef struct tg_heif_reader tg_heif_reader;

/* Reads the boxes and the primary image's header, under max_pixels (also the limit its coded frames
 * are decoded under) and max_dimension. The source is one tg_source_begin accepted; the reader is
 * left in *out whatever the status, and is closed before the source is freed. */
tg_status tg_heif_open(tg_source *source, const tg_limits *limits, tg_heif_reader **out, tg_heif_info *info);

/* Decodes the primary image, once, into dst: width * height * 4 samples of straight RGBA, bytes
 * when sixteen is 0, else uint16_t values (0-65535). */
tg_status tg_heif_read_image(tg_heif_reader *reader, void *dst, int sixteen);

/* The next row of the primary image into dst: width * channels samples, straight RGBA (channels
 * 4) or RGB (3, for opaque images), as tg_heif_read_image gives them. The first call decodes the
 * image (libheif decodes whole images only); its planes are released after the last row, so the
 * caller never holds a second full-size copy. Use either this or tg_heif_read_image, not both. */
tg_status tg_heif_read_row(tg_heif_reader *reader, void *dst, int channels, int sixteen);

/* Metadata blocks of the primary image: XMP is an item of type "mime" with content type
 * "application/rdf+xml", EXIF one of type "Exif", handed out from its TIFF header on. */
enum {
    TG_HEIF_METADATA_XMP = 1,
    TG_HEIF_METADATA_EXIF = 2
};

/* Copies the first block of that kind into out (release with tg_buffer_free) and returns 1, or
 * returns 0 when there is none, or it is larger than max_bytes (nothing is allocated for it) or
 * unreadable. */
int tg_heif_metadata(tg_heif_reader *reader, int kind, size_t max_bytes, tg_buffer *out);

void tg_heif_close(tg_heif_reader *reader);

/* e.g. "libheif 1.15.1, libde265 1.0.11, dav1d 1.0.0": the library and the decoder that runs for
 * each format. */
void tg_heif_version(char out[TG_VERSION_SIZE]);

#endif
