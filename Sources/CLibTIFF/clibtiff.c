/*
 * clibtiff.c: the only file that calls libtiff. See include/clibtiff.h for the policy.
 *
 * libtiff reports failures as return codes and through the per-handle error handler set in the
 * open options, which copies the first message here (and keeps libtiff from printing it).
 */
#include "clibtiff.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tiffio.h>

/* Float samples are scaled here; no fused multiply-adds, so pixels do not depend on the CPU. */
#pragma clang fp contract(off)

struct tg_tiff_reader {
    TIFF *tif;
    tg_source *source;
    int failed;                 /* the error handler was called; its first message is in `message` */
    int read;
    uint8_t *icc;
    uint8_t *xmp;
    uint8_t *scanline;          /* one stored row, for gray rows */
    uint32_t next_row;          /* the next row tg_tiff_read_row gives */
    /* LZW strips of rows as stored, decoded here (lzw.c) until one is irregular; libtiff's
     * scanline reader takes over from that strip on. */
    int own_lzw;
    int horizontal_predictor;   /* Predictor 2: each sample stored as the difference to the one before */
    uint32_t rows_per_strip;
    uint32_t decoded_strip;     /* which strip `strip` holds; UINT32_MAX for none */
    size_t row_bytes;
    uint8_t *strip;             /* one decoded strip (rows_per_strip rows) */
    uint8_t *raw;               /* one strip's LZW data */
    size_t raw_capacity;
    tg_tiff_info summary;
    char message[TG_MESSAGE_SIZE];
};

static void choose_own_lzw(struct tg_tiff_reader *r, uint16_t samples);

/* libtiff seeks (directories and strips may be anywhere): each read is exactly what it asks for. */
static tmsize_t read_proc(thandle_t handle, void *dst, tmsize_t length) {
    struct tg_tiff_reader *r = handle;
    return length > 0 ? (tmsize_t)tg_source_read_direct(r->source, dst, (size_t)length) : 0;
}

static tmsize_t write_proc(thandle_t handle, void *src, tmsize_t length) {
    (void)handle;
    (void)src;
    (void)length;
    return -1;
}

static toff_t seek_proc(thandle_t handle, toff_t offset, int whence) {
    tg_source *s = ((struct tg_tiff_reader *)handle)->source;
    uint64_t base = whence == SEEK_CUR ? tg_source_position(s) : whence == SEEK_END ? tg_source_size(s) : 0;
    tg_source_seek(s, base + offset);
    return tg_source_position(s);
}

static int close_proc(thandle_t handle) { (void)handle; return 0; }
static toff_t size_proc(thandle_t handle) { return tg_source_size(((struct tg_tiff_reader *)handle)->source); }
static int map_proc(thandle_t handle, void **base, toff_t *size) { (void)handle; (void)base; (void)size; return 0; }
static void unmap_proc(thandle_t handle, void *base, toff_t size) { (void)handle; (void)base; (void)size; }

static int error_handler(TIFF *tif, void *user, const char *module, const char *format, va_list ap) {
    (void)tif;
    (void)module;
    struct tg_tiff_reader *r = user;
    if (!r->failed) vsnprintf(r->message, sizeof r->message, format, ap);
    r->failed = 1;
    return 1;
}

static int warning_handler(TIFF *tif, void *user, const char *module, const char *format, va_list ap) {
    (void)tif; (void)user; (void)module; (void)format; (void)ap;
    return 1;
}

/* A failure's status: running out of data is truncation, whatever libtiff says about it. */
static tg_status failure(struct tg_tiff_reader *r, const char *fallback) {
    tg_status status = tg_source_status(r->source);
    if (status != TG_OK) return status;
    return tg_fail_lowercased(r->source, TG_ERR_CORRUPT, r->failed && r->message[0] != 0 ? r->message : fallback);
}

/* EXIF's Rating tag (Microsoft's 0x4746), which Windows writes into a TIFF's first directory.
 * libtiff does not know it, so it keeps it as an anonymous field of the type stored; TIFFFindField
 * (unlike TIFFFieldWithTag) reports nothing when the tag is absent. */
#define TG_TIFFTAG_RATING 0x4746

static void read_rating(TIFF *tif, tg_tiff_info *info) {
    const TIFFField *field = TIFFFindField(tif, TG_TIFFTAG_RATING, TIFF_ANY);
    uint32_t count = 0;
    void *values = NULL;
    if (!field || !TIFFFieldPassCount(field) || TIFFFieldReadCount(field) != TIFF_VARIABLE2) return;
    if (!TIFFGetField(tif, TG_TIFFTAG_RATING, &count, &values) || !values || count < 1) return;
    switch (TIFFFieldDataType(field)) {
    case TIFF_SHORT: info->rating_raw = ((const uint16_t *)values)[0]; break;
    case TIFF_SSHORT: info->rating_raw = (uint16_t)((const int16_t *)values)[0]; break;
    case TIFF_LONG: info->rating_raw = ((const uint32_t *)values)[0]; break;
    case TIFF_SLONG: info->rating_raw = (uint32_t)((const int32_t *)values)[0]; break;
    default: return;
    }
    info->rating_type = (int)TIFFFieldDataType(field);
}


/* Which images the sample reader (tg_tiff_read_samples) takes rather than libtiff's RGBA reader,
 * which has no D50 white for CIELab, no alpha for CMYK, no 16-bit CMYK and no samples of 12, 24
 * or 32 bits or floating point. */
static int sample_kind(uint16_t photometric, uint16_t samples, uint16_t extras, uint16_t bits,
                       uint16_t sample_format, uint16_t inkset) {
    int colours = (int)samples - (int)extras;
    int integer = sample_format == SAMPLEFORMAT_UINT;
    int floating = sample_format == SAMPLEFORMAT_IEEEFP && (bits == 16 || bits == 32 || bits == 64);
    int wide = integer && bits >= 1 && bits <= 32;
    if (photometric == PHOTOMETRIC_CIELAB && colours == 3 && integer && (bits == 8 || bits == 16))
        return TG_TIFF_SAMPLES_LAB;
    if (photometric == PHOTOMETRIC_SEPARATED && inkset == INKSET_CMYK && colours == 4 && integer && (bits == 8 || bits == 16))
        return TG_TIFF_SAMPLES_CMYK;
    /* Depths libtiff's RGBA reader has (1, 2, 4, 8, 16) stay with it: palettes, YCbCr, old JPEG. */
    int rgba_depth = integer && (bits == 1 || bits == 2 || bits == 4 || bits == 8 || bits == 16);
    if (rgba_depth || !(wide || floating)) return TG_TIFF_SAMPLES_NONE;
    if ((photometric == PHOTOMETRIC_MINISBLACK || photometric == PHOTOMETRIC_MINISWHITE) && colours == 1)
        return photometric == PHOTOMETRIC_MINISWHITE ? TG_TIFF_SAMPLES_GRAY_INVERTED : TG_TIFF_SAMPLES_GRAY;
    if (photometric == PHOTOMETRIC_RGB && colours == 3) return TG_TIFF_SAMPLES_RGB;
    return TG_TIFF_SAMPLES_NONE;
}

/* Why a valid directory is declined, in thumbgen's words where libtiff's say too little. */
static const char *unsupported_reason(const char *why, uint16_t sample_format, uint16_t bits) {
    static __thread char text[TG_MESSAGE_SIZE];
    if (sample_format == SAMPLEFORMAT_INT || sample_format == SAMPLEFORMAT_COMPLEXINT)
        snprintf(text, sizeof text, "signed %u-bit integer samples", (unsigned)bits);
    else if (sample_format == SAMPLEFORMAT_IEEEFP || sample_format == SAMPLEFORMAT_COMPLEXIEEEFP)
        snprintf(text, sizeof text, "%u-bit floating-point samples of this colour space", (unsigned)bits);
    else
        snprintf(text, sizeof text, "%s", why);
    return text;
}

/* IEEE half to single precision (subnormals, infinities and NaN included). */
static float half_to_float(uint16_t h) {
    uint32_t sign = (uint32_t)(h >> 15) << 31, exponent = (h >> 10) & 31, mantissa = h & 1023;
    uint32_t bits;
    if (exponent == 0) {
        if (mantissa == 0) bits = sign;
        else {
            int e = -1;
            do { e++; mantissa <<= 1; } while (!(mantissa & 1024));
            bits = sign | (uint32_t)(127 - 15 - e) << 23 | (mantissa & 1023) << 13;
        }
    } else if (exponent == 31) bits = sign | 0x7f800000u | mantissa << 13;
    else bits = sign | (exponent + 127 - 15) << 23 | mantissa << 13;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* Sample i of a decoded row (libtiff has already put 16-, 24-, 32- and 64-bit samples in the
 * machine's byte order), as a float: integers over their full range (0-1), floats as stored, and
 * for CIELab the sample's own units: L* 0-100, a* and b* as signed -128-127 (8 bits) or
 * -32768-32767 / 256 (16 bits), TIFF 6.0 §23. Other bit depths are packed big-end first. */
static float sample_at(const uint8_t *row, uint32_t i, int bits, int floating, int lab_channel) {
    if (floating) {
        if (bits == 16) { uint16_t h; memcpy(&h, row + 2 * (size_t)i, 2); return half_to_float(h); }
        if (bits == 32) { float f; memcpy(&f, row + 4 * (size_t)i, 4); return f; }
        double d; memcpy(&d, row + 8 * (size_t)i, 8); return (float)d;
    }
    uint32_t v;
    if (bits == 8) v = row[i];
    else if (bits == 16) { uint16_t w; memcpy(&w, row + 2 * (size_t)i, 2); v = w; }
    else if (bits == 32) memcpy(&v, row + 4 * (size_t)i, 4);
    else if (bits == 24) {
        const uint8_t *p = row + 3 * (size_t)i;
        uint16_t probe = 1;
        v = *(uint8_t *)&probe == 1 ? (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16
                                    : (uint32_t)p[2] | (uint32_t)p[1] << 8 | (uint32_t)p[0] << 16;
    } else {
        uint64_t bit = (uint64_t)i * (uint64_t)bits;
        v = 0;
        for (int b = 0; b < bits; b++, bit++) v = v << 1 | ((row[bit >> 3] >> (7 - (bit & 7))) & 1u);
    }
    if (lab_channel == 0) return (float)v * 100.0f / (bits == 8 ? 255.0f : 65535.0f);
    if (lab_channel > 0) return bits == 8 ? (float)(int8_t)v : (float)(int16_t)v / 256.0f;
    double max = bits == 32 ? 4294967295.0 : (double)((1u << bits) - 1);
    return (float)((double)v / max);
}

tg_status tg_tiff_read_samples(tg_tiff_reader *r, float *dst) {
    const tg_tiff_info *s = &r->summary;
    if (r->read || s->sample_kind == TG_TIFF_SAMPLES_NONE) return tg_fail(r->source, TG_ERR_CORRUPT, "image already read");
    r->read = 1;
    TIFF *tif = r->tif;
    uint32_t spp = (uint32_t)s->samples_per_pixel, w = s->width, h = s->height;
    uint32_t planes = s->planar ? spp : 1, per_pixel = s->planar ? 1 : spp;
    int lab = s->sample_kind == TG_TIFF_SAMPLES_LAB;
    uint32_t tile_w = w, tile_h = 1;
    tmsize_t unit = 0;
    if (s->tiled) {
        if (!TIFFGetField(tif, TIFFTAG_TILEWIDTH, &tile_w) || !TIFFGetField(tif, TIFFTAG_TILELENGTH, &tile_h) || !tile_w || !tile_h)
            return tg_fail(r->source, TG_ERR_CORRUPT, "no tile size");
        unit = TIFFTileSize(tif);
    } else {
        unit = TIFFScanlineSize(tif);
    }
    tmsize_t row_bytes = s->tiled ? TIFFTileRowSize(tif) : unit;
    if (unit <= 0 || row_bytes <= 0) return failure(r, "cannot size the image's rows");
    uint8_t *buffer = malloc((size_t)unit);
    if (!buffer) return tg_fail(r->source, TG_ERR_MEMORY, "out of memory");
    tg_status status = TG_OK;
    for (uint32_t plane = 0; plane < planes && status == TG_OK; plane++) {
        for (uint32_t y0 = 0; y0 < h && status == TG_OK; y0 += tile_h) {
            for (uint32_t x0 = 0; x0 < w && status == TG_OK; x0 += tile_w) {
                int ok = s->tiled ? TIFFReadTile(tif, buffer, x0, y0, 0, (uint16_t)plane) >= 0
                                  : TIFFReadScanline(tif, buffer, y0, (uint16_t)plane) >= 0;
                if (!ok) { status = failure(r, "cannot decode the image"); break; }
                for (uint32_t dy = 0; dy < tile_h && y0 + dy < h; dy++) {
                    const uint8_t *row = buffer + (size_t)dy * (size_t)row_bytes;
                    for (uint32_t dx = 0; dx < tile_w && x0 + dx < w; dx++) {
                        for (uint32_t c = 0; c < per_pixel; c++) {
                            uint32_t channel = s->planar ? plane : c;
                            int lab_channel = lab && channel < 3 ? (int)channel : -1;
                            float v = sample_at(row, dx * per_pixel + c, s->bits_per_sample, s->float_samples, lab_channel);
                            dst[((size_t)(y0 + dy) * w + x0 + dx) * spp + channel] = v;
                        }
                    }
                }
            }
        }
    }
    free(buffer);
    return status;
}

tg_status tg_tiff_open(tg_source *s, const tg_limits *limits, tg_tiff_reader **out, tg_tiff_info *info) {
    struct tg_tiff_reader *r = *out = calloc(1, sizeof *r);
    if (!r) return tg_fail(s, TG_ERR_MEMORY, "out of memory");
    r->source = s;
    uint8_t head[4] = {0};
    size_t head_size = tg_source_head(s, head, sizeof head);
    int classic = head_size >= 4 && ((memcmp(head, "II*\0", 4) == 0) || (memcmp(head, "MM\0*", 4) == 0));
    int big = head_size >= 4 && ((memcmp(head, "II+\0", 4) == 0) || (memcmp(head, "MM\0+", 4) == 0));
    if (!classic && !big) {
        return head_size < 4 ? tg_fail(s, TG_ERR_TRUNCATED, "file is truncated") : tg_fail(s, TG_ERR_UNRECOGNISED, "not a TIFF file");
    }
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    if (!options) return tg_fail(s, TG_ERR_MEMORY, "out of memory");
    if (limits->max_memory != 0) {
        tmsize_t cap = limits->max_memory > (uint64_t)INT64_MAX ? INT64_MAX : (tmsize_t)limits->max_memory;
        TIFFOpenOptionsSetMaxSingleMemAlloc(options, cap);
    }
    TIFFOpenOptionsSetErrorHandlerExtR(options, error_handler, r);
    TIFFOpenOptionsSetWarningHandlerExtR(options, warning_handler, r);
    /* "m": no memory mapping, every byte comes through read_proc. */
    r->tif = TIFFClientOpenExt("image", "rm", r, read_proc, write_proc, seek_proc, close_proc, size_proc,
                               map_proc, unmap_proc, options);
    TIFFOpenOptionsFree(options);
    if (!r->tif) return failure(r, "cannot read the TIFF header");
    TIFF *tif = r->tif;
    uint32_t width = 0, height = 0;
    uint16_t bits = 1, samples = 1, photometric = 0, orientation = ORIENTATION_TOPLEFT, extras = 0;
    uint16_t *extra_types = NULL;
    if (!TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &width) || !TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &height)
        || width == 0 || height == 0)
        return tg_fail(s, TG_ERR_CORRUPT, "no image size in the first directory");
    tg_status status = tg_check_dimensions(s, limits, width, height);
    if (status != TG_OK) return status;
    TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &bits);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &samples);
    TIFFGetFieldDefaulted(tif, TIFFTAG_ORIENTATION, &orientation);
    TIFFGetFieldDefaulted(tif, TIFFTAG_EXTRASAMPLES, &extras, &extra_types);
    if (!TIFFGetField(tif, TIFFTAG_PHOTOMETRIC, &photometric)) photometric = samples >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK;
    uint16_t sample_format = SAMPLEFORMAT_UINT, inkset = INKSET_CMYK, planar = PLANARCONFIG_CONTIG;
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLEFORMAT, &sample_format);
    TIFFGetFieldDefaulted(tif, TIFFTAG_INKSET, &inkset);
    TIFFGetFieldDefaulted(tif, TIFFTAG_PLANARCONFIG, &planar);
    r->summary.sample_kind = sample_kind(photometric, samples, extras, bits, sample_format, inkset);
    r->summary.float_samples = sample_format == SAMPLEFORMAT_IEEEFP;
    r->summary.planar = planar == PLANARCONFIG_SEPARATE;
    char why[1024] = "";
    if (r->summary.sample_kind == TG_TIFF_SAMPLES_NONE && !TIFFRGBAImageOK(tif, why)) {
        /* A valid directory libtiff's RGBA reader declines (and the sample reader does not take):
         * unsupported, not corrupt. */
        char text[TG_MESSAGE_SIZE];
        snprintf(text, sizeof text, "%s", unsupported_reason(why, sample_format, bits));
        return tg_fail_lowercased(s, TG_ERR_UNSUPPORTED, text);
    }
    uint32_t icc_size = 0;
    void *icc = NULL;
    if (TIFFGetField(tif, TIFFTAG_ICCPROFILE, &icc_size, &icc) && icc && icc_size > 0) {
        r->icc = malloc(icc_size);
        if (r->icc) {
            memcpy(r->icc, icc, icc_size);
            r->summary.icc = r->icc;
            r->summary.icc_size = icc_size;
        }
    }
    /* XMLPacket (700): libtiff has read it with the directory, within its own allocation limit;
     * a packet above max_xmp_bytes is not copied. */
    uint32_t xmp_size = 0;
    void *xmp = NULL;
    if (TIFFGetField(tif, TIFFTAG_XMLPACKET, &xmp_size, &xmp) && xmp && xmp_size > 0 && xmp_size <= limits->max_metadata_bytes) {
        r->xmp = malloc(xmp_size);
        if (r->xmp) {
            memcpy(r->xmp, xmp, xmp_size);
            r->summary.xmp = r->xmp;
            r->summary.xmp_size = xmp_size;
        }
    }
    read_rating(tif, &r->summary);
    r->summary.width = width;
    r->summary.height = height;
    r->summary.bits_per_sample = bits;
    r->summary.samples_per_pixel = samples;
    r->summary.photometric = photometric;
    /* As libtiff's RGBA reader sees it: the first extra sample is alpha when marked so, or when
     * unmarked on a colour image with a fourth sample. */
    r->summary.has_alpha = extras >= 1 && extra_types
        && (extra_types[0] != EXTRASAMPLE_UNSPECIFIED || samples > 3);
    r->summary.associated_alpha = r->summary.has_alpha && extra_types[0] == EXTRASAMPLE_ASSOCALPHA;
    r->summary.tiled = TIFFIsTiled(tif) ? 1 : 0;
    r->summary.orientation = orientation >= 1 && orientation <= 8 ? orientation : 1;
    r->summary.strip_bytes = r->summary.tiled ? (uint64_t)TIFFTileSize64(tif) : (uint64_t)TIFFStripSize64(tif);
    if (r->summary.sample_kind != TG_TIFF_SAMPLES_NONE)
        r->summary.sample_bytes = (uint64_t)width * height * samples * sizeof(float);
    r->summary.rows_as_stored = r->summary.sample_kind == TG_TIFF_SAMPLES_NONE && !r->summary.tiled && planar == PLANARCONFIG_CONTIG && bits == 8 && extras == 0
        && ((photometric == PHOTOMETRIC_RGB && samples == 3) || (photometric == PHOTOMETRIC_MINISBLACK && samples == 1))
        && (uint64_t)TIFFScanlineSize64(tif) == (uint64_t)width * samples;
    choose_own_lzw(r, samples);
    *info = r->summary;
    return TG_OK;
}


/* Whether this reader decodes the image's LZW strips itself: rows as stored, LZW, bytes in their
 * usual bit order, no predictor or the horizontal one, and a strip no larger than libtiff's own
 * working buffer (`strip_bytes`, which the memory plan counts) nor 2 GiB. */
static void choose_own_lzw(struct tg_tiff_reader *r, uint16_t samples) {
    TIFF *tif = r->tif;
    uint16_t compression = COMPRESSION_NONE, fill_order = FILLORDER_MSB2LSB, predictor = PREDICTOR_NONE;
    uint32_t rows_per_strip = 0;
    TIFFGetFieldDefaulted(tif, TIFFTAG_COMPRESSION, &compression);
    TIFFGetFieldDefaulted(tif, TIFFTAG_FILLORDER, &fill_order);
    TIFFGetFieldDefaulted(tif, TIFFTAG_PREDICTOR, &predictor);
    TIFFGetFieldDefaulted(tif, TIFFTAG_ROWSPERSTRIP, &rows_per_strip);
    const tg_tiff_info *s = &r->summary;
    if (!s->rows_as_stored || compression != COMPRESSION_LZW || fill_order != FILLORDER_MSB2LSB
        || (predictor != PREDICTOR_NONE && predictor != PREDICTOR_HORIZONTAL) || rows_per_strip == 0)
        return;
    if (rows_per_strip > s->height) rows_per_strip = s->height;
    uint64_t row_bytes = (uint64_t)s->width * samples, strip_bytes = row_bytes * rows_per_strip;
    if (strip_bytes != s->strip_bytes || strip_bytes > ((uint64_t)1 << 31)
        || TIFFNumberOfStrips(tif) != (s->height - 1) / rows_per_strip + 1)
        return;
    r->own_lzw = 1;
    r->horizontal_predictor = predictor == PREDICTOR_HORIZONTAL;
    r->rows_per_strip = rows_per_strip;
    r->row_bytes = (size_t)row_bytes;
    r->decoded_strip = UINT32_MAX;
}

/* Decodes strip `index` into r->strip; 0 when it is not a regular LZW stream wholly inside the
 * file (then libtiff reads it, with its own checks and messages). Only bytes the strip's offset
 * and count name are read, so nothing here reaches libtiff's error handler or marks the source
 * as run out. */
static int decode_own_strip(struct tg_tiff_reader *r, uint32_t index) {
    uint64_t offset = TIFFGetStrileOffset(r->tif, index), count = TIFFGetStrileByteCount(r->tif, index);
    uint64_t file_size = tg_source_size(r->source);
    /* LZW's codes are at most 12 bits a byte: a count past 1.5 times the strip (and some slack)
     * is not a regular stream. */
    uint64_t largest = r->summary.strip_bytes + r->summary.strip_bytes / 2 + 4096;
    if (count == 0 || count > largest || offset > file_size || count > file_size - offset) return 0;
    if (!r->strip && !(r->strip = malloc(r->summary.strip_bytes))) return 0;
    if (count > r->raw_capacity) {
        uint8_t *grown = realloc(r->raw, (size_t)count);
        if (!grown) return 0;
        r->raw = grown;
        r->raw_capacity = (size_t)count;
    }
    tg_source_seek(r->source, offset);
    if (tg_source_read_direct(r->source, r->raw, (size_t)count) != count) return 0;
    uint32_t first_row = index * r->rows_per_strip;
    uint32_t rows = r->summary.height - first_row < r->rows_per_strip ? r->summary.height - first_row : r->rows_per_strip;
    if (!tg_tiff_lzw_decode_strip(r->raw, (size_t)count, r->strip, (size_t)rows * r->row_bytes)) return 0;
    if (r->horizontal_predictor) {
        /* As libtiff's horAcc8: each sample plus the same sample of the pixel before, modulo 256. */
        size_t stride = r->summary.samples_per_pixel;
        for (uint32_t y = 0; y < rows; y++) {
            uint8_t *row = r->strip + (size_t)y * r->row_bytes;
            for (size_t i = stride; i < r->row_bytes; i++) row[i] = (uint8_t)(row[i] + row[i - stride]);
        }
    }
    return 1;
}

/* Stored row y into dst: from this reader's own decoded strip while its strips are regular, else
 * libtiff's scanline reader (rows are asked for in order, so libtiff starts at a strip's first
 * row). */
static tg_status read_scanline(struct tg_tiff_reader *r, uint32_t y, uint8_t *dst) {
    if (r->own_lzw) {
        uint32_t index = y / r->rows_per_strip;
        if (index == r->decoded_strip || decode_own_strip(r, index)) {
            r->decoded_strip = index;
            memcpy(dst, r->strip + (size_t)(y - index * r->rows_per_strip) * r->row_bytes, r->row_bytes);
            return TG_OK;
        }
        r->own_lzw = 0;
        /* libtiff keeps the decoder the first strip it reads calls for: a later strip that
         * announces old-style codes is read with that one. So it reads strip 0 first, as it did
         * when it read every strip (strip 0 was regular, so this succeeds as it did then). */
        if (index > 0 && TIFFReadScanline(r->tif, r->strip, 0, 0) < 0) return failure(r, "cannot decode the image");
    }
    if (TIFFReadScanline(r->tif, dst, y, 0) < 0) return failure(r, "cannot decode the image");
    return TG_OK;
}

/* Row y of an image whose rows are as stored into dst: RGB (3 channels) or RGBA (4), alpha 255,
 * the values libtiff's RGBA reader gives (its 8-bit gray map is the identity). */
static tg_status read_stored_row(struct tg_tiff_reader *r, uint32_t y, uint8_t *dst, int channels) {
    const tg_tiff_info *s = &r->summary;
    int gray = s->samples_per_pixel == 1;
    if (channels == 3 && !gray) return read_scanline(r, y, dst);
    if (!r->scanline) {
        r->scanline = malloc((size_t)s->width * 3);
        if (!r->scanline) return tg_fail(r->source, TG_ERR_MEMORY, "out of memory");
    }
    tg_status status = read_scanline(r, y, r->scanline);
    if (status != TG_OK) return status;
    const uint8_t *p = r->scanline;
    for (uint32_t x = 0; x < s->width; x++, dst += channels) {
        uint8_t red = gray ? p[x] : p[3 * x], green = gray ? p[x] : p[3 * x + 1], blue = gray ? p[x] : p[3 * x + 2];
        dst[0] = red;
        dst[1] = green;
        dst[2] = blue;
        if (channels == 4) dst[3] = 255;
    }
    return TG_OK;
}

tg_status tg_tiff_read_row(tg_tiff_reader *r, uint8_t *dst) {
    if (!r->summary.rows_as_stored || (r->read && r->next_row == 0) || r->next_row >= r->summary.height)
        return tg_fail(r->source, TG_ERR_CORRUPT, "no such row");
    r->read = 1;
    return read_stored_row(r, r->next_row++, dst, 3);
}

tg_status tg_tiff_finish_rows(tg_tiff_reader *r) {
    uint8_t *row = NULL;
    while (r->next_row != 0 && r->next_row < r->summary.height) {
        if (!row && !(row = malloc((size_t)r->summary.width * 3))) return tg_fail(r->source, TG_ERR_MEMORY, "out of memory");
        tg_status status = read_stored_row(r, r->next_row++, row, 3);
        if (status != TG_OK) {
            free(row);
            return status;
        }
    }
    free(row);
    return TG_OK;
}

tg_status tg_tiff_read_image(tg_tiff_reader *r, uint8_t *dst) {
    if (r->read) return tg_fail(r->source, TG_ERR_CORRUPT, "image already read");
    r->read = 1;
    const tg_tiff_info *s = &r->summary;
    if (s->rows_as_stored) {
        /* Scanlines straight into place: none of the RGBA reader's packing, nor its raster's
         * second pass below. */
        for (uint32_t y = 0; y < s->height; y++) {
            tg_status status = read_stored_row(r, y, dst + (size_t)y * s->width * 4, 4);
            if (status != TG_OK) return status;
        }
        return TG_OK;
    }
    /* Asking for the file's own orientation makes libtiff flip nothing: rows come as stored.
     * Its packed ABGR words are R, G, B, A in memory on a little-endian machine. */
    if (!TIFFReadRGBAImageOriented(r->tif, s->width, s->height, (uint32_t *)(void *)dst, s->orientation, 1))
        return failure(r, "cannot decode the image");
    uint16_t probe = 1;
    size_t count = (size_t)s->width * s->height;
    for (size_t i = 0; i < count; i++) {
        uint8_t *p = dst + i * 4;
        if (*(uint8_t *)&probe != 1) {
            uint8_t a = p[0], b = p[1], g = p[2], red = p[3];
            p[0] = red; p[1] = g; p[2] = b; p[3] = a;
        }
        unsigned a = p[3];
        if (a != 0 && a != 255) {
            for (int c = 0; c < 3; c++) {
                unsigned v = (p[c] * 255u + a / 2) / a;
                p[c] = (uint8_t)(v > 255 ? 255 : v);
            }
        }
    }
    return TG_OK;
}

void tg_tiff_close(tg_tiff_reader *r) {
    if (!r) return;
    if (r->tif) TIFFClose(r->tif);
    free(r->icc);
    free(r->xmp);
    free(r->scanline);
    free(r->strip);
    free(r->raw);
    free(r);
}

void tg_tiff_version(char out[TG_VERSION_SIZE]) {
    /* TIFFGetVersion() is a multi-line banner: "LIBTIFF, Version 4.5.0\nCopyright ...". */
    const char *banner = TIFFGetVersion();
    const char *version = banner ? strstr(banner, "Version ") : NULL;
    int length = 0;
    if (version) {
        version += 8;
        while (version[length] && version[length] != '\n' && version[length] != ' ') length++;
    }
    snprintf(out, TG_VERSION_SIZE, "libtiff %.*s", length, version ? version : "");
}
