/*
 * clibtiff: libtiff behind a small C API that is safe to call from Swift.
 *
 * Policy:
 *  - Bytes come from a tg_source, read exactly where libtiff seeks (directories and strips may be
 *    anywhere), nothing ahead; only what the first directory points at is read.
 *  - The first page (directory) is read: strips or tiles, 1-16 bits, gray, RGB, palette, CMYK,
 *    YCbCr, with or without alpha, through libtiff's RGBA interface, which reduces samples to 8
 *    bits; CIELab, CMYK (8 or 16 bits, with alpha) and gray or RGB of other integer depths (up to
 *    32) or floating point are read as samples instead (tg_tiff_read_samples), for the caller to
 *    convert. A valid directory neither takes is TG_ERR_UNSUPPORTED. Pixels come out straight RGBA in the order stored (the Orientation tag is reported, not
 *    applied). libtiff premultiplies alpha; it is divided out again here.
 *  - libtiff's messages go to a per-handle handler (never to standard error); limits are checked
 *    from the directory before the raster exists, and libtiff's own allocations are capped by the
 *    memory budget (TIFFOpenOptionsSetMaxSingleMemAlloc).
 */
#ifndef CLIBTIFF_H
#define CLIBTIFF_H

#include <stddef.h>
#include <stdint.h>

#include "tg_codec_support.h"

/* Images the sample reader takes (tg_tiff_read_samples), by their colours. */
enum {
    TG_TIFF_SAMPLES_NONE = 0,           /* libtiff's RGBA reader takes it */
    TG_TIFF_SAMPLES_GRAY = 1,           /* 1 colour sample, black is zero */
    TG_TIFF_SAMPLES_GRAY_INVERTED = 2,  /* 1 colour sample, white is zero */
    TG_TIFF_SAMPLES_RGB = 3,
    TG_TIFF_SAMPLES_CMYK = 4,           /* InkSet CMYK, 4 inks, 0 = no ink */
    TG_TIFF_SAMPLES_LAB = 5             /* CIE L*a*b* (PhotometricInterpretation 8), D50 */
};

typedef struct {
    uint32_t width;
    uint32_t height;
    int bits_per_sample;
    int samples_per_pixel;
    int photometric;            /* PHOTOMETRIC_* */
    int has_alpha;
    int tiled;
    int orientation;            /* the Orientation tag, 1-8 (1 if absent) */
    uint32_t pages;
    uint64_t strip_bytes;       /* one strip or tile, decoded: libtiff's working buffer */
    int rows_as_stored;         /* 8-bit RGB or gray (black is zero) in contiguous strips, no extra
                                 * samples: scanlines are the pixels, and stream (tg_tiff_read_row) */
    const uint8_t *icc;         /* owned by the reader; NULL if none */
    size_t icc_size;
    const uint8_t *xmp;         /* XMLPacket (tag 700), owned by the reader; NULL if none or too large */
    size_t xmp_size;
    int rating_type;            /* EXIF Rating (0x4746) in the first directory: its TIFF type (3 SHORT,
                                 * 4 LONG, 8 SSHORT, 9 SLONG), 0 if absent */
    uint32_t rating_raw;        /* its first value's bits, zero-extended */
    int sample_kind;            /* TG_TIFF_SAMPLES_*: NONE for libtiff's RGBA reader */
    int float_samples;          /* SampleFormat is IEEE floating point */
    int planar;                 /* samples in separate planes */
    int associated_alpha;       /* the alpha sample is premultiplied (ExtraSamples 1) */
    uint64_t sample_bytes;      /* the float samples tg_tiff_read_samples fills, for a sample kind */
} tg_tiff_info;

typedef struct tg_tiff_reader tg_tiff_reader;

/* Reads the first directory, under max_pixels, max_dimension, max_memory (libtiff's largest single
 * allocation) and max_metadata_bytes (the XMLPacket copied out). The source is one
 * tg_source_begin accepted; the reader is left in *out whatever the status, and is closed before
 * the source is freed. */
tg_status tg_tiff_open(tg_source *source, const tg_limits *limits, tg_tiff_reader **out, tg_tiff_info *info);

/* Decodes the first page into dst (width * height * 4 bytes of straight RGBA), once. */
tg_status tg_tiff_read_image(tg_tiff_reader *reader, uint8_t *dst);

/* Instead of tg_tiff_read_image, when info.rows_as_stored: the next row, top to bottom as stored,
 * into dst as width * 3 bytes of RGB (gray repeated), the same pixels tg_tiff_read_image gives. */
tg_status tg_tiff_read_row(tg_tiff_reader *reader, uint8_t *dst);

/* After tg_tiff_read_row: decodes the remaining rows, so damage there is found as
 * tg_tiff_read_image would find it. */
tg_status tg_tiff_finish_rows(tg_tiff_reader *reader);

/* Instead of tg_tiff_read_image, for a sample kind: every sample of the first page into dst
 * (width * height * samples_per_pixel floats, pixels interleaved whatever the planar layout):
 * integers over their full range as 0-1, floats as stored (unclamped), CIELab as L* 0-100 and
 * a*, b* signed. Extra samples (alpha first) follow the colour samples, in the same 0-1 terms. */
tg_status tg_tiff_read_samples(tg_tiff_reader *reader, float *dst);

void tg_tiff_close(tg_tiff_reader *reader);

/*
 * One LZW strip as TIFF 6.0 writes it (codes most significant bit first, Clear 256, End of
 * Information 257, the code width growing one code early, at most 12 bits) into exactly
 * `out_size` bytes; the reader takes 8-bit RGB and gray rows in LZW strips through it rather than
 * libtiff. Returns 1 when a regular stream filled `out`. Returns 0 for anything else: old-style
 * (pre-6.0) codes, a first code that is not Clear, a code not yet defined, a table past 4096
 * entries, or data or codes that end before the strip is full. The reader leaves such a strip to
 * libtiff, whose pixels and messages for irregular streams stay the reference.
 *
 * libtiff follows each code's string back through its table a byte at a time; here a string is
 * where it was first written in `out` and its length, so a code is one forward copy (a quarter
 * less time than libtiff on the bench's photos).
 */
int tg_tiff_lzw_decode_strip(const uint8_t *in, size_t in_size, uint8_t *out, size_t out_size);

/* e.g. "libtiff 4.5.0". */
void tg_tiff_version(char out[TG_VERSION_SIZE]);

#endif
