/*
 * clibpng: libpng behind a small C API that is safe to call from Swift.
 *
 * Policy:
 *  - Every libpng call that can png_error() runs behind a setjmp() inside this file; a failure
 *    comes back as a tg_status, with libpng's message text in the source. No longjmp ever crosses
 *    into the caller.
 *  - Bytes come from a tg_source (read ahead in chunks from a descriptor, or lent memory): libpng
 *    asks for a few bytes at a time, and reading stops at IEND.
 *  - The image data of the common layouts is inflated and unfiltered here (CThumbKernels' row
 *    kernels), following libpng's sequential reader step for step (a small image's stream that
 *    libdeflate reads exactly is inflated by it in one call); libpng reads the rest.
 *  - Decoded rows are straight RGBA, 8 or 16 bits per channel (16-bit samples in native byte
 *    order). Gamma, chromaticity and ICC data are not applied: samples are taken as sRGB.
 *  - Limits are checked from the header, before libpng allocates anything large; a limit that is
 *    hit comes back as data (tg_limit_hit), so the caller words it and names its own options.
 *  - Only reading: PNGs are written by ThumbKit's PNGEncoder, which compresses with libdeflate.
 */
#ifndef CLIBPNG_H
#define CLIBPNG_H

#include <stddef.h>
#include <stdint.h>

#include "tg_codec_support.h"

typedef struct {
    uint32_t width;
    uint32_t height;
    int bit_depth;              /* as stored: 1, 2, 4, 8 or 16 */
    int color_type;             /* as stored: 0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA */
    int interlaced;             /* 1 for Adam7 */
    int has_trns;               /* a tRNS chunk is present */
    int output_depth;           /* 8 or 16: bits per channel of the rows this reader returns */
    int row_channels;           /* 3 (RGB: the image has no transparency) or 4 (RGBA) */
    size_t row_bytes;           /* bytes of one row from tg_png_read_rows: width * row_channels * output_depth / 8 */
    int rows_by_libpng;         /* 1: libpng reads the image data; 0: this reader does (the common
                                 * layouts: 8-bit gray, gray+alpha, RGB, RGBA and 16-bit RGB, RGBA,
                                 * not interlaced, no tRNS), with libpng's pixels and messages */
    uint64_t working_bytes;     /* what this reader holds beyond libpng's own state */
} tg_png_info;

typedef struct tg_png_reader tg_png_reader;

/* Reads the source up to the first IDAT, under the limits: max_dimension through libpng's user
 * limits, max_chunk_bytes and max_chunks as libpng's chunk limits, max_metadata_bytes for the XMP
 * packet. The source is one tg_source_begin accepted; the reader is left in *out whatever the
 * status, and is closed before the source is freed. rows_by_libpng = 1 has libpng read the image
 * data of every layout: the reference the tests hold this reader's own reading to. */
tg_status tg_png_open(tg_source *source, const tg_limits *limits, int rows_by_libpng, tg_png_reader **out,
                      tg_png_info *info);

/* Reads the next `count` rows of a non-interlaced image into dst (count * row_bytes bytes), with
 * row_channels channels: an opaque image's rows are RGB, saving libpng's filler pass. */
tg_status tg_png_read_rows(tg_png_reader *reader, void *dst, uint32_t count);

/* Reads the whole image (any interlace) into dst as RGBA (height * width * 4 samples of
 * output_depth bits; opaque images get alpha at the maximum). Call it instead of, not after,
 * tg_png_read_rows. */
tg_status tg_png_read_image(tg_png_reader *reader, void *dst);

/* Colour, orientation and XMP metadata seen before the first IDAT (what png_read_info read). Pointers
 * are owned by the reader. cICP is not reported: libpng before 1.6.45 does not read it. */
typedef struct {
    const uint8_t *icc;         /* iCCP profile, decompressed; NULL if none */
    size_t icc_size;
    int has_srgb;               /* an sRGB chunk */
    int has_gama;               /* a gAMA chunk (or one implied by sRGB) */
    double gamma;               /* file gamma, e.g. 0.45455 */
    int has_chrm;               /* a cHRM chunk (or one implied by sRGB) */
    double chrm[8];             /* white x, y, red x, y, green x, y, blue x, y */
    const uint8_t *exif;        /* eXIf payload (a TIFF structure); NULL if none */
    size_t exif_size;
    const uint8_t *xmp;         /* the packet of the first iTXt, zTXt or tEXt chunk with keyword
                                 * "XML:com.adobe.xmp", inflated; NULL if none or too large */
    size_t xmp_size;
} tg_png_metadata;

/* Fills *metadata from the chunks read so far (those before IDAT). */
void tg_png_get_metadata(const tg_png_reader *reader, tg_png_metadata *metadata);

void tg_png_close(tg_png_reader *reader);

/* 1 when the image data read so far was inflated whole by libdeflate rather than by zlib (tests). */
int tg_png_inflated_by_libdeflate(const tg_png_reader *reader);

/* The libpng and zlib versions that read PNGs, e.g. "libpng 1.6.39, zlib 1.2.13". */
void tg_png_versions(char out[TG_VERSION_SIZE]);

#endif
