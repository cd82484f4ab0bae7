/*
 * clibjpeg: libjpeg(-turbo) behind a small C API that is safe to call from Swift.
 *
 * Policy:
 *  - libjpeg reports fatal errors through error_exit, which here copies the message and longjmps
 *    back to a setjmp() inside this file; nothing ever calls exit() and no longjmp crosses into
 *    the caller. Failures come back as a tg_status, with libjpeg's message text in the source.
 *  - Warnings (corrupt data, extraneous bytes, premature end) are collected, not printed: the
 *    caller reads them with tg_jpeg_warning(). A premature end is an error (TG_ERR_TRUNCATED)
 *    unless the caller allows partial images.
 *  - Decoded rows are straight RGBA, 8 bits per channel (alpha always 255), or the stored CMYK
 *    samples when asked for (so a CMYK ICC profile can be applied by the caller).
 *  - Limits are checked from the header, before any image-sized allocation; a limit that is hit
 *    comes back as data (tg_limit_hit), so the caller words it and names its own options.
 *  - Rows can be read a few at a time (tg_jpeg_read_rows), so a caller can stream them into a
 *    resampler instead of holding the decoded image.
 *  - Decoding reads a tg_source a chunk at a time (TG_SOURCE_CHUNK) and stops at EOI: what
 *    follows is never read. A progressive file decoded at 1/8 scale skips the scans its pixels
 *    do not depend on (see tg_jpeg_dropped_scans); the pixels are those of the full decode.
 *    Encoding (meant for tests) writes memory only.
 */
#ifndef CLIBJPEG_H
#define CLIBJPEG_H

#include <stddef.h>
#include <stdint.h>

#include "tg_codec_support.h"

/* At most this many distinct warnings are kept per image; later ones are counted only. */
#define TG_JPEG_MAX_WARNINGS 8

/* The colour space of the stored samples (libjpeg's jpeg_color_space). */
enum {
    TG_JPEG_CS_UNKNOWN = 0,
    TG_JPEG_CS_GRAY = 1,
    TG_JPEG_CS_RGB = 2,
    TG_JPEG_CS_YCBCR = 3,
    TG_JPEG_CS_CMYK = 4,
    TG_JPEG_CS_YCCK = 5
};

/* Progressive scans allowed per image: a hostile progressive file can have thousands of tiny
 * scans, each a full pass over the coefficients; libjpeg-turbo's own advice for untrusted files
 * (djpeg -maxscans) is a few hundred, and a real encoder writes about ten. */
#define TG_JPEG_MAX_SCANS 1000

typedef struct {
    uint32_t width;             /* full-size image, as stored (before any EXIF orientation) */
    uint32_t height;
    int components;             /* 1, 3 or 4 */
    int color_space;            /* TG_JPEG_CS_* */
    int progressive;            /* 1 for a progressive (SOF2) file */
    int adobe_marker;           /* an Adobe APP14 marker is present */
    int inverted_cmyk;          /* CMYK/YCCK samples are stored inverted (Adobe's convention) */
} tg_jpeg_info;

typedef struct tg_jpeg_reader tg_jpeg_reader;

/* Reads the header from the source, saving APP1 (EXIF, XMP) and APP2 markers, under the limits
 * (max_dimension: libjpeg's own 65500 when 0; max_memory: libjpeg's max_memory_to_use). The source
 * is one tg_source_begin accepted; the reader is left in *out whatever the status, and is closed
 * before the source is freed. */
tg_status tg_jpeg_open(tg_source *source, const tg_limits *limits, tg_jpeg_reader **out, tg_jpeg_info *info);

/* The first APP1 Exif payload after its 6-byte identifier (a TIFF structure). Returns 1 and
 * sets data and size when there is one (owned by the reader), else 0. */
int tg_jpeg_exif(const tg_jpeg_reader *reader, const uint8_t **data, size_t *size);

/* The first APP1 XMP packet after its identifier ("http://ns.adobe.com/xap/1.0/" and a NUL).
 * Returns 1 and sets data and size when there is one (owned by the reader), else 0. Extended XMP
 * (later APP1 markers continuing it) is not joined: the main packet holds xmp:Rating. */
int tg_jpeg_xmp(const tg_jpeg_reader *reader, const uint8_t **data, size_t *size);

/* The ICC profile reassembled from APP2 "ICC_PROFILE" markers. Returns 1 and sets data and size
 * when there is a complete one (owned by the reader), else 0. */
int tg_jpeg_icc(tg_jpeg_reader *reader, const uint8_t **data, size_t *size);

/* Starts decompression at 1/scale_denom of the size (1, 2, 4 or 8) and reports the output size
 * and channels per pixel. raw_cmyk: for CMYK/YCCK images, hand out the stored CMYK samples (YCCK
 * converted to CMYK, still inverted if inverted_cmyk) instead of RGBA. rgb_rows: rows of images
 * that are not CMYK come out as RGB (3 channels) instead of RGBA. allow_partial: a premature end
 * is a warning and the rest of the image is filled by libjpeg, instead of an error. */
tg_status tg_jpeg_start(tg_jpeg_reader *reader, int scale_denom, int raw_cmyk, int allow_partial, int rgb_rows,
                  uint32_t *out_width, uint32_t *out_height, int *out_channels);

/* Reads the next `count` rows after tg_jpeg_start into dst (count * out_width * out_channels
 * bytes). */
tg_status tg_jpeg_read_rows(tg_jpeg_reader *reader, uint8_t *dst, uint32_t count);

/* Decodes any rows not read yet (discarding them) and reads on to the end of the image, so that a
 * truncated tail is noticed whether the image was read whole or streamed. */
tg_status tg_jpeg_finish(tg_jpeg_reader *reader);

/* Reads every remaining row into dst, then finishes: the whole image in one call. */
tg_status tg_jpeg_read_image(tg_jpeg_reader *reader, uint8_t *dst);

/* How many warnings libjpeg emitted (may exceed the number kept), and the i-th kept one. */
int tg_jpeg_warning_count(const tg_jpeg_reader *reader);
int tg_jpeg_kept_warning_count(const tg_jpeg_reader *reader);
const char *tg_jpeg_warning(const tg_jpeg_reader *reader, int index);
/* 1 when the data ended before the image did (only possible with allow_partial). */
int tg_jpeg_was_truncated(const tg_jpeg_reader *reader);
/* Scans of a progressive file left unread because no output pixel depends on them (at 1/8 scale,
 * the AC scans of a component that comes out of its DC coefficients alone), in the decode that
 * made the pixels. */
int tg_jpeg_dropped_scans(const tg_jpeg_reader *reader);
/* 1 when the reader was started to hand out a CMYK image's raw ink samples. */
int tg_jpeg_is_raw_cmyk(const tg_jpeg_reader *reader);

void tg_jpeg_close(tg_jpeg_reader *reader);

/* ---- encoding (used by the tests to make their own JPEGs) ---- */

typedef struct {
    uint32_t width;
    uint32_t height;
    int components;             /* 1 gray, 3 RGB, 4 CMYK (stored as given, written with Adobe APP14) */
    const uint8_t *pixels;      /* rows of width * components bytes */
    size_t stride;
    int quality;                /* 1-100 */
    int progressive;            /* 1: progressive scans (jpeg_simple_progression) */
    int subsampling;            /* chroma: 0 = 4:4:4, 1 = 4:2:2, 2 = 4:2:0 */
    int ycck;                   /* CMYK only: 1 stores YCCK instead of plain CMYK */
    const uint8_t *app1;        /* written as one APP1 marker (starting with the Exif identifier); may be NULL */
    size_t app1_size;
    const uint8_t *icc;         /* written with jpeg_write_icc_profile; may be NULL */
    size_t icc_size;
} tg_jpeg_encode_params;


/* Encodes into out (release with tg_buffer_free). */
tg_status tg_jpeg_encode(const tg_jpeg_encode_params *params, tg_buffer *out, char message[TG_MESSAGE_SIZE]);


/* The libjpeg version in use, e.g. "libjpeg-turbo 2.1.5 (API 62)". */
void tg_jpeg_version(char out[TG_VERSION_SIZE]);

#endif
