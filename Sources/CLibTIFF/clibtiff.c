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

struct tg_tiff_reader {
    TIFF *tif;
    tg_source *source;
    int failed;                 /* the error handler was called; its first message is in `message` */
    int read;
    uint8_t *icc;
    uint8_t *xmp;
    uint8_t *scanline;          /* one stored row, for gray rows */
    uint32_t next_row;          /* the next row tg_tiff_read_row gives */
    tg_tiff_info summary;
    char message[TG_MESSAGE_SIZE];
};

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
    char why[1024] = "";
    if (!TIFFRGBAImageOK(tif, why)) {
        char text[TG_MESSAGE_SIZE];
        snprintf(text, sizeof text, "unsupported TIFF: %s", why);
        return tg_fail(s, TG_ERR_CORRUPT, text);
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
    r->summary.tiled = TIFFIsTiled(tif) ? 1 : 0;
    r->summary.orientation = orientation >= 1 && orientation <= 8 ? orientation : 1;
    r->summary.strip_bytes = r->summary.tiled ? (uint64_t)TIFFTileSize64(tif) : (uint64_t)TIFFStripSize64(tif);
    uint16_t planar = PLANARCONFIG_CONTIG;
    TIFFGetFieldDefaulted(tif, TIFFTAG_PLANARCONFIG, &planar);
    r->summary.rows_as_stored = !r->summary.tiled && planar == PLANARCONFIG_CONTIG && bits == 8 && extras == 0
        && ((photometric == PHOTOMETRIC_RGB && samples == 3) || (photometric == PHOTOMETRIC_MINISBLACK && samples == 1))
        && (uint64_t)TIFFScanlineSize64(tif) == (uint64_t)width * samples;
    *info = r->summary;
    return TG_OK;
}


/* Row y of an image whose rows are as stored into dst: RGB (3 channels) or RGBA (4), alpha 255,
 * the values libtiff's RGBA reader gives (its 8-bit gray map is the identity). */
static tg_status read_stored_row(struct tg_tiff_reader *r, uint32_t y, uint8_t *dst, int channels) {
    const tg_tiff_info *s = &r->summary;
    int gray = s->samples_per_pixel == 1;
    if (channels == 3 && !gray) {
        if (TIFFReadScanline(r->tif, dst, y, 0) < 0) return failure(r, "cannot decode the image");
        return TG_OK;
    }
    if (!r->scanline) {
        r->scanline = malloc((size_t)s->width * 3);
        if (!r->scanline) return tg_fail(r->source, TG_ERR_MEMORY, "out of memory");
    }
    if (TIFFReadScanline(r->tif, r->scanline, y, 0) < 0) return failure(r, "cannot decode the image");
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
