/*
 * clibheif.c: the only file that calls libheif. See include/clibheif.h for the policy.
 *
 * libheif reports failures as struct heif_error values (a code, a subcode and a static message);
 * nothing is printed. Bytes come through a heif_reader over the tg_source, so a short file shows up
 * as reads that find nothing (asked_past_end, or the source's ran-out) whatever libheif calls it.
 */
#include "clibheif.h"
#include "heif_plugins.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libheif/heif.h>

struct tg_heif_reader {
    struct heif_context *context;
    struct heif_image_handle *handle;
    tg_source *source;
    int asked_past_end;         /* libheif asked for a box or extent reaching past the end */
    int read;                   /* the image was decoded (or failed to) */
    struct heif_image *image;   /* the decoded image, until its last row is read */
    const uint8_t *planes[4];   /* its R, G, B and alpha planes (alpha NULL when none) */
    int strides[4];
    int bits, alpha_bits;       /* the colour planes' depth, the alpha plane's */
    uint32_t next_row;
    uint64_t max_pixels;        /* the limit coded frames are decoded under */
    uint8_t *icc;
    tg_heif_info summary;
    int operating_point;        /* the a1op property's operating point, 0 without one */
    uint64_t brand_patch;       /* where 'mif1' stands in for a compatible brand of a sequence file (0: nowhere) */
};

/* --- heif_reader over the source --- */

static int64_t get_position(void *user) { return (int64_t)tg_source_position(((struct tg_heif_reader *)user)->source); }

/* libheif reads whole boxes and extents, where the meta box says they are: each read is exactly
 * what it asks for, and one reaching past the end reads nothing. */
static int read_bytes(void *dst, size_t size, void *user) {
    struct tg_heif_reader *r = user;
    tg_source *s = r->source;
    if (size == 0) return 0;
    uint64_t position = tg_source_position(s), total = tg_source_size(s);
    if (position > total || size > total - position) {
        r->asked_past_end = 1;
        return 1;
    }
    /* Short only when the file shrank since it was opened (the source notes it). */
    if (tg_source_read_direct(s, dst, size) != size) return 1;
    if (r->brand_patch && r->brand_patch + 4 > position && r->brand_patch < position + size) {
        for (int i = 0; i < 4; i++) {
            uint64_t at = r->brand_patch + (uint64_t)i;
            if (at >= position && at < position + size) ((uint8_t *)dst)[at - position] = (uint8_t)"mif1"[i];
        }
    }
    return 0;
}

static uint32_t be(const uint8_t *p, int bytes) {
    uint32_t v = 0;
    for (int i = 0; i < bytes; i++) v = v << 8 | p[i];
    return v;
}

/* The item type of the primary item, from the pitm and infe boxes in the file's first 64 KiB
 * (where a meta box is), when libheif names the primary item as missing: libheif 1.15 skips items
 * of types it does not know (such as 'unci', ISO/IEC 23001-17 uncompressed images), so a valid
 * primary image of such a type looks missing to it. Fills type[5]; returns 0 if not found. */
static int primary_item_type(tg_source *s, char type[5]) {
    uint8_t *buffer = malloc(65536);
    if (!buffer) return 0;
    size_t got = tg_source_head(s, buffer, 65536);
    int found = 0;
    uint32_t primary = 0;
    int have_primary = 0;
    for (size_t at = 4; at + 10 <= got && !have_primary; at++) {
        if (memcmp(buffer + at, "pitm", 4) != 0) continue;
        int version = buffer[at + 4];
        if (at + 8 + (version ? 4 : 2) > got) break;
        primary = be(buffer + at + 8, version ? 4 : 2);
        have_primary = 1;
    }
    for (size_t at = 4; have_primary && at + 16 <= got && !found; at++) {
        if (memcmp(buffer + at, "infe", 4) != 0) continue;
        int version = buffer[at + 4];
        if (version < 2) continue;
        int id_bytes = version == 2 ? 2 : 4;
        if (at + 8 + (size_t)id_bytes + 2 + 4 > got) break;
        if (be(buffer + at + 8, id_bytes) != primary) continue;
        memcpy(type, buffer + at + 8 + id_bytes + 2, 4);
        type[4] = 0;
        for (int i = 0; i < 4; i++)
            if (type[i] < 0x20 || type[i] > 0x7e) type[i] = '?';
        found = 1;
    }
    free(buffer);
    return found;
}

/* The operating point of an a1op property (AVIF §4.3.3: a full box-less property of one byte)
 * among the properties in the file's first 64 KiB, which libheif 1.15 does not pass to decoders;
 * 0 without one. A file is expected to have at most one layered image. */
static int a1op_operating_point(tg_source *s) {
    uint8_t *buffer = malloc(65536);
    if (!buffer) return 0;
    size_t got = tg_source_head(s, buffer, 65536);
    int point = 0;
    for (size_t at = 4; at + 5 <= got; at++) {
        if (memcmp(buffer + at, "a1op", 4) == 0 && be(buffer + at - 4, 4) == 9) {
            point = buffer[at + 4];
            break;
        }
    }
    free(buffer);
    return point <= 31 ? point : 0;
}

/* A sequence file (avis, msf1) whose ftyp names no brand libheif 1.15 takes (mif1, avif, heic,
 * heix, heim, heis, msf1 alone is not enough) may still hold a still image in a meta box, as
 * Netflix's AVIF sequences do (avis, msf1, miaf, MA1B, iso8, with a primary item): its last
 * compatible brand is read as 'mif1', so libheif looks for that image. A file without one then
 * fails for having no meta box, which is reported as unsupported. Returns the brand's offset, or 0. */
static uint64_t sequence_brand_patch(tg_source *s) {
    uint8_t ftyp[64];
    size_t got = tg_source_head(s, ftyp, sizeof ftyp);
    if (got < 16) return 0;
    uint32_t size = (uint32_t)ftyp[0] << 24 | (uint32_t)ftyp[1] << 16 | (uint32_t)ftyp[2] << 8 | ftyp[3];
    if (size < 20 || size > got || (size - 16) % 4 != 0) return 0;
    if (memcmp(ftyp + 8, "avis", 4) != 0 && memcmp(ftyp + 8, "msf1", 4) != 0) return 0;
    static const char still[][4] = {{'m','i','f','1'}, {'a','v','i','f'}, {'h','e','i','c'}, {'h','e','i','x'}};
    for (uint32_t at = 16; at < size; at += 4)
        for (size_t i = 0; i < sizeof still / sizeof still[0]; i++)
            if (memcmp(ftyp + at, still[i], 4) == 0) return 0;
    return size - 4;
}

static int seek_to(int64_t position, void *user) {
    tg_source *s = ((struct tg_heif_reader *)user)->source;
    if (position < 0 || (uint64_t)position > tg_source_size(s)) return 1;
    tg_source_seek(s, (uint64_t)position);
    return 0;
}

static enum heif_reader_grow_status wait_for_file_size(int64_t target, void *user) {
    struct tg_heif_reader *r = user;
    uint64_t total = tg_source_size(r->source);
    if (target >= 0 && (uint64_t)target <= total) return heif_reader_grow_status_size_reached;
    /* libheif asks before it reads a box or an item's data: from inside the file, a box or extent
     * that runs past the end is a cut file; from the very end, it is only looking for another box. */
    if (tg_source_position(r->source) < total) r->asked_past_end = 1;
    return heif_reader_grow_status_size_beyond_eof;
}

static const struct heif_reader reader_functions = {
    .reader_api_version = 1,
    .get_position = get_position,
    .read = read_bytes,
    .seek = seek_to,
    .wait_for_file_size = wait_for_file_size,
};

/* --- errors --- */

/* Fails with libheif's text on one line: some of its messages end in a newline or hold one. */
static tg_status fail_one_line_as(struct tg_heif_reader *r, tg_status status, const char *text) {
    char line[TG_MESSAGE_SIZE];
    tg_copy_message(line, sizeof line, text && text[0] ? text : "libheif reported an error");
    size_t length = strlen(line);
    for (size_t i = 0; i < length; i++)
        if (line[i] == '\n' || line[i] == '\r') line[i] = ' ';
    while (length > 0 && line[length - 1] == ' ') line[--length] = 0;
    return tg_fail_lowercased(r->source, status, line);
}

static tg_status fail_one_line(struct tg_heif_reader *r, const char *text) {
    return fail_one_line_as(r, TG_ERR_CORRUPT, text);
}

/* A sequence brand (ISO/IEC 23008-12 Annex B, AVIF §8.2): image sequences in a track. */
static int sequence_brand(const uint8_t brand[4]) {
    return memcmp(brand, "avis", 4) == 0 || memcmp(brand, "msf1", 4) == 0 || memcmp(brand, "hevc", 4) == 0
        || memcmp(brand, "heis", 4) == 0;
}

/* A failure's status and message: running out of data is truncation, whatever libheif calls it
 * (a box or an item's extent that reaches past the end of the file). */
static tg_status failure(struct tg_heif_reader *r, struct heif_error error) {
    if (error.subcode == heif_suberror_Security_limit_exceeded) {
        /* libheif's own limits (e.g. 32768 pixels a side), worded by libheif, without the "Memory
         * allocation error: " it puts first (nothing was allocated). */
        const char *text = error.message ? strstr(error.message, "Security limit") : NULL;
        return fail_one_line(r, text ? text : error.message);
    }
    tg_status status = tg_source_status(r->source);
    if (status != TG_OK) return status;
    if (r->asked_past_end) return tg_fail(r->source, TG_ERR_TRUNCATED, "file is truncated");
    if (error.code == heif_error_Memory_allocation_error) return tg_fail(r->source, TG_ERR_MEMORY, "out of memory");
    /* What libheif declines rather than rejects (a codec or feature it has not, such as
     * uncompressed images in libheif 1.15) is unsupported, not corrupt; its sub-error names it. */
    if (error.code == heif_error_Unsupported_filetype || error.code == heif_error_Unsupported_feature) {
        const char *text = error.message ? strrchr(error.message, ':') : NULL;
        return fail_one_line_as(r, TG_ERR_UNSUPPORTED, text && text[1] == ' ' ? text + 2 : error.message);
    }
    /* libheif words a decoder plugin's failure "Invalid input: Unspecified: <the plugin's text>";
     * the decoder's own text says it all. */
    const char *plugin_text = error.message ? strstr(error.message, ": Unspecified: ") : NULL;
    return fail_one_line(r, plugin_text ? plugin_text + strlen(": Unspecified: ") : error.message);
}

/* The brands thumbgen takes as HEIF still images (ISO/IEC 23008-12 Annex B; AVIF §8.2), and the
 * sequence brands, whose files carry a primary still image too. */
static int known_brand(const uint8_t brand[4]) {
    static const char brands[][4] = {{'h','e','i','c'}, {'h','e','i','x'}, {'h','e','v','c'}, {'h','e','i','m'},
                                     {'h','e','i','s'}, {'m','i','f','1'}, {'m','s','f','1'}, {'a','v','i','f'},
                                     {'a','v','i','s'}};
    for (size_t i = 0; i < sizeof brands / sizeof brands[0]; i++)
        if (memcmp(brand, brands[i], 4) == 0) return 1;
    return 0;
}

tg_status tg_heif_open(tg_source *s, const tg_limits *limits, tg_heif_reader **out, tg_heif_info *info) {
    struct tg_heif_reader *r = *out = calloc(1, sizeof *r);
    if (!r) return tg_fail(s, TG_ERR_MEMORY, "out of memory");
    r->source = s;
    uint8_t head[12] = {0};
    if (tg_source_head(s, head, sizeof head) < sizeof head) return tg_fail(s, TG_ERR_TRUNCATED, "file is truncated");
    if (memcmp(head + 4, "ftyp", 4) != 0 || !known_brand(head + 8)) return tg_fail(s, TG_ERR_UNRECOGNISED, "not a HEIF file");
    r->max_pixels = limits->max_pixels;
    tg_heif_plugins_register();
    r->context = heif_context_alloc();
    if (!r->context) return tg_fail(s, TG_ERR_MEMORY, "out of memory");
    /* libheif's own size limit (heif_context_set_maximum_image_size_limit) stays at its default,
     * which also guards grid tiles and other items thumbgen never sees: thumbgen's limits are
     * checked below, from the primary image, so they come back as limits with the image's size. */
    /* Grid tiles on the calling thread: the reader is not shared between threads, memory is lent
     * for the length of one call, and thumbgen runs files in parallel instead. */
    heif_context_set_max_decoding_threads(r->context, 0);
    r->brand_patch = sequence_brand_patch(s);
    r->operating_point = a1op_operating_point(s);
    struct heif_error error = heif_context_read_from_reader(r->context, &reader_functions, r, NULL);
    /* A sequence file (avis, msf1) need not have a still image besides its track; libheif 1.15
     * reads still images only, so one without is unsupported, not corrupt. */
    if (error.code != heif_error_Ok && error.subcode == heif_suberror_No_meta_box && sequence_brand(head + 8)
        && tg_source_status(s) == TG_OK && !r->asked_past_end)
        return tg_fail(s, TG_ERR_UNSUPPORTED, "an image sequence without a still image (only still images are read)");
    char type[5];
    if (error.code != heif_error_Ok && error.subcode == heif_suberror_Nonexisting_item_referenced
        && tg_source_status(s) == TG_OK && !r->asked_past_end && primary_item_type(s, type)) {
        char text[TG_MESSAGE_SIZE];
        snprintf(text, sizeof text, "a primary image of item type '%s'%s, which libheif %s does not decode", type,
                 strcmp(type, "unci") == 0 ? " (uncompressed)" : "", heif_get_version());
        return tg_fail(s, TG_ERR_UNSUPPORTED, text);
    }
    if (error.code != heif_error_Ok) return failure(r, error);
    error = heif_context_get_primary_image_handle(r->context, &r->handle);
    if (error.code != heif_error_Ok) return failure(r, error);
    /* The boxes were read: a look past the end that did not stop that (bytes after the last box
     * that begin no whole one) says nothing about a failure decoding the image later. */
    r->asked_past_end = 0;
    struct heif_image_handle *h = r->handle;
    int width = heif_image_handle_get_width(h), height = heif_image_handle_get_height(h);
    if (width <= 0 || height <= 0) return tg_fail(s, TG_ERR_CORRUPT, "the primary image has no size");
    tg_status status = tg_check_dimensions(s, limits, (uint32_t)width, (uint32_t)height);
    if (status != TG_OK) return status;
    tg_heif_info *summary = &r->summary;
    summary->width = (uint32_t)width;
    summary->height = (uint32_t)height;
    int bits = heif_image_handle_get_luma_bits_per_pixel(h);
    summary->bit_depth = bits > 0 ? bits : 8;
    summary->has_alpha = heif_image_handle_has_alpha_channel(h) ? 1 : 0;
    summary->premultiplied = summary->has_alpha && heif_image_handle_is_premultiplied_alpha(h) ? 1 : 0;
    memcpy(summary->brand, head + 8, 4);
    summary->brand[4] = 0;
    summary->images = heif_context_get_number_of_top_level_images(r->context);
    summary->thumbnails = heif_image_handle_get_number_of_thumbnails(h);
    summary->file_bytes = tg_source_size(s);
    size_t icc_size = heif_image_handle_get_raw_color_profile_size(h);
    if (icc_size > 0) {
        r->icc = malloc(icc_size);
        if (!r->icc) return tg_fail(s, TG_ERR_MEMORY, "out of memory");
        if (heif_image_handle_get_raw_color_profile(h, r->icc).code == heif_error_Ok) {
            summary->icc = r->icc;
            summary->icc_size = icc_size;
        }
    }
    struct heif_color_profile_nclx *nclx = NULL;
    if (heif_image_handle_get_nclx_color_profile(h, &nclx).code == heif_error_Ok && nclx) {
        summary->has_nclx = 1;
        summary->primaries = (int)nclx->color_primaries;
        summary->transfer = (int)nclx->transfer_characteristics;
        summary->matrix = (int)nclx->matrix_coefficients;
        summary->full_range = nclx->full_range_flag;
    }
    /* Freed whatever the call returned: for values H.273 does not define, libheif 1.15 allocates
     * the profile, then fails (color_profile_nclx::get_nclx_color_profile), and the profile is the
     * caller's. Such a box is ignored, as if absent. */
    heif_nclx_color_profile_free(nclx);
    *info = r->summary;
    return TG_OK;
}


/* Divides premultiplied colours by their alpha, in place, in `pixels` RGBA pixels. */
static void unpremultiply(size_t pixels, void *dst, int sixteen) {
    if (!sixteen) {
        uint8_t *out = dst;
        for (size_t i = 0; i < pixels; i++) {
            uint8_t *p = out + i * 4;
            unsigned a = p[3];
            if (a == 0 || a == 255) continue;
            for (int c = 0; c < 3; c++) {
                unsigned v = (p[c] * 255u + a / 2) / a;
                p[c] = (uint8_t)(v > 255 ? 255 : v);
            }
        }
        return;
    }
    uint16_t *out = dst;
    for (size_t i = 0; i < pixels; i++) {
        uint16_t *p = out + i * 4;
        uint32_t a = p[3];
        if (a == 0 || a == 65535) continue;
        for (int c = 0; c < 3; c++) {
            uint32_t v = (p[c] * 65535u + a / 2) / a;
            p[c] = (uint16_t)(v > 65535 ? 65535 : v);
        }
    }
}

/* A deep sample scaled from [0, max] to [0, 65535], rounding to nearest. */
static inline uint16_t widen(uint32_t v, uint32_t max) {
    if (v > max) v = max;
    return (uint16_t)((v * 65535u + max / 2) / max);
}

/* Row y of the decoded planes, interleaved into dst as libheif's own planar to interleaved step
 * does: R, G, B and (for 4 channels) alpha, else the maximum; 8-bit samples as they are, deeper
 * ones (native uint16_t) scaled to 16 bits; premultiplied alpha divided out. */
static void interleave_row(const tg_heif_reader *r, size_t y, void *dst, int channels, int sixteen) {
    size_t w = r->summary.width;
    const uint8_t *const *planes = r->planes;
    const int *strides = r->strides;
    if (!sixteen) {
        const uint8_t *red = planes[0] + y * (size_t)strides[0], *green = planes[1] + y * (size_t)strides[1],
                      *blue = planes[2] + y * (size_t)strides[2], *alpha = planes[3] ? planes[3] + y * (size_t)strides[3] : NULL;
        uint8_t *row = dst;
        if (channels == 3) {
            for (size_t x = 0; x < w; x++) {
                row[3 * x] = red[x];
                row[3 * x + 1] = green[x];
                row[3 * x + 2] = blue[x];
            }
            return;
        }
        for (size_t x = 0; x < w; x++) {
            row[4 * x] = red[x];
            row[4 * x + 1] = green[x];
            row[4 * x + 2] = blue[x];
            row[4 * x + 3] = alpha ? alpha[x] : 255;
        }
    } else {
        uint32_t max = r->bits >= 16 ? 65535u : (1u << r->bits) - 1u;
        uint32_t alpha_max = r->alpha_bits >= 16 ? 65535u : (1u << r->alpha_bits) - 1u;
        const uint16_t *red = (const uint16_t *)(planes[0] + y * (size_t)strides[0]),
                       *green = (const uint16_t *)(planes[1] + y * (size_t)strides[1]),
                       *blue = (const uint16_t *)(planes[2] + y * (size_t)strides[2]),
                       *alpha = planes[3] ? (const uint16_t *)(planes[3] + y * (size_t)strides[3]) : NULL;
        uint16_t *row = dst;
        for (size_t x = 0; x < w; x++) {
            row[channels * x] = widen(red[x], max);
            row[channels * x + 1] = widen(green[x], max);
            row[channels * x + 2] = widen(blue[x], max);
            if (channels == 4) row[4 * x + 3] = alpha ? widen(alpha[x], alpha_max) : 65535;
        }
    }
    if (channels == 4 && r->summary.premultiplied) unpremultiply(w, dst, sixteen);
}

/* Decodes the primary image, once, and keeps libheif's planes for interleave_row. */
static tg_status decode(tg_heif_reader *r, int sixteen) {
    if (r->image) return TG_OK;
    if (r->read) return tg_fail(r->source, TG_ERR_CORRUPT, "image already read");
    r->read = 1;
    struct heif_decoding_options *options = heif_decoding_options_alloc();
    if (!options) return tg_fail(r->source, TG_ERR_MEMORY, "out of memory");
    options->ignore_transformations = 0;
    /* HEVC and AV1 go to CLibHEIF's plugins (registered when the file was opened, chosen by their
     * priority), on this thread, under this file's pixel limit. */
    tg_heif_plugins_set_frame_limit(r->max_pixels);
    tg_heif_plugins_set_operating_point(r->operating_point);
    struct heif_image *image = NULL;
    /* Planar RGB, interleaved by thumbgen row by row: libheif 1.15 converts every coded image to
     * planar RGB (decode_image_planar, Op_YCbCr_to_RGB) and would then interleave that into an
     * image of its own, a second full-size pass and allocation (about a sixth of an AVIF photo's
     * decode). */
    struct heif_error error = heif_decode_image(r->handle, &image, heif_colorspace_RGB, heif_chroma_444, options);
    heif_decoding_options_free(options);
    tg_heif_plugins_set_frame_limit(0);
    tg_heif_plugins_set_operating_point(0);
    if (error.code != heif_error_Ok) {
        if (image) heif_image_release(image);
        return failure(r, error);
    }
    static const enum heif_channel channels[4] = {heif_channel_R, heif_channel_G, heif_channel_B, heif_channel_Alpha};
    int width = heif_image_get_width(image, heif_channel_R);
    int height = heif_image_get_height(image, heif_channel_R);
    int bits = heif_image_get_bits_per_pixel_range(image, heif_channel_R);
    int complete = 1;
    r->alpha_bits = bits;
    for (int c = 0; c < 4; c++) {
        enum heif_channel channel = channels[c];
        r->planes[c] = NULL;
        if (channel == heif_channel_Alpha && !heif_image_has_channel(image, channel)) continue;
        r->planes[c] = heif_image_get_plane_readonly(image, channel, &r->strides[c]);
        /* Every plane the size of the image, its rows as long as promised; the colour planes at one
         * depth, the alpha plane at its own on the same side of 8 bits (its samples' size). */
        int sample = sixteen ? 2 : 1;
        int depth = heif_image_get_bits_per_pixel_range(image, channel);
        if (channel == heif_channel_Alpha) r->alpha_bits = depth;
        if (!r->planes[c] || heif_image_get_width(image, channel) != width || heif_image_get_height(image, channel) != height
            || r->strides[c] < width * sample || (depth > 8) != (bits > 8) || depth > 16
            || (channel != heif_channel_Alpha && depth != bits))
            complete = 0;
    }
    /* The coded image must be what the header promised: the caller's rows were sized from it. */
    if (!complete || width != (int)r->summary.width || height != (int)r->summary.height || (sixteen && (bits <= 8 || bits > 16))
        || (!sixteen && bits != 8)) {
        char text[TG_MESSAGE_SIZE];
        snprintf(text, sizeof text, "decoded image is %dx%d, the header says %ux%u", width, height, r->summary.width,
                 r->summary.height);
        heif_image_release(image);
        return tg_fail(r->source, TG_ERR_CORRUPT, text);
    }
    r->image = image;
    r->bits = bits;
    return TG_OK;
}

static void release_image(tg_heif_reader *r) {
    if (r->image) heif_image_release(r->image);
    r->image = NULL;
}

tg_status tg_heif_read_row(tg_heif_reader *r, void *dst, int channels, int sixteen) {
    tg_status status = decode(r, sixteen);
    if (status != TG_OK) return status;
    if (r->next_row >= r->summary.height) return tg_fail(r->source, TG_ERR_CORRUPT, "no rows left");
    interleave_row(r, r->next_row++, dst, channels, sixteen);
    /* The last row: libheif's planes are not needed any more. */
    if (r->next_row == r->summary.height) release_image(r);
    return TG_OK;
}

tg_status tg_heif_read_image(tg_heif_reader *r, void *dst, int sixteen) {
    tg_status status = decode(r, sixteen);
    if (status != TG_OK) return status;
    size_t row_bytes = (size_t)r->summary.width * 4 * (sixteen ? 2 : 1);
    for (size_t y = 0; y < r->summary.height; y++) interleave_row(r, y, (uint8_t *)dst + y * row_bytes, 4, sixteen);
    release_image(r);
    return TG_OK;
}

void tg_heif_close(tg_heif_reader *r) {
    if (!r) return;
    release_image(r);
    if (r->handle) heif_image_handle_release(r->handle);
    if (r->context) heif_context_free(r->context);
    free(r->icc);
    free(r);
}

void tg_heif_version(char out[TG_VERSION_SIZE]) {
    /* The decoders that run: CLibHEIF's own plugins, which outrank libheif's (libde265 for HEVC,
     * dav1d for AV1). A flat "name version" list, as a settings description's `libraries` field
     * holds it, so `thumbgen check` can name the one that changed. */
    snprintf(out, TG_VERSION_SIZE, "libheif %s, libde265 %s, dav1d %s", heif_get_version(), tg_heif_de265_version(),
             tg_heif_dav1d_version());
}

/* ---- metadata blocks (XMP, EXIF) ---- */

/* Looked at per image: a photo has one XMP and one EXIF block, a few more are tolerated. */
#define TG_HEIF_MAX_METADATA_BLOCKS 16

int tg_heif_metadata(tg_heif_reader *r, int kind, size_t max_bytes, tg_buffer *out) {
    *out = (tg_buffer){0};
    if (!r || !r->handle) return 0;
    const char *type = kind == TG_HEIF_METADATA_EXIF ? "Exif" : "mime";
    heif_item_id ids[TG_HEIF_MAX_METADATA_BLOCKS];
    int count = heif_image_handle_get_list_of_metadata_block_IDs(r->handle, type, ids, TG_HEIF_MAX_METADATA_BLOCKS);
    for (int i = 0; i < count; i++) {
        if (kind == TG_HEIF_METADATA_XMP) {
            const char *content = heif_image_handle_get_metadata_content_type(r->handle, ids[i]);
            if (!content || strcmp(content, "application/rdf+xml") != 0) continue;
        }
        size_t size = heif_image_handle_get_metadata_size(r->handle, ids[i]);
        /* An Exif block starts with a 4-byte big-endian offset to the TIFF header (ISO/IEC
         * 23008-12 Annex A.2.1), usually 6 for JPEG's "Exif\0\0"; a packet too large is skipped
         * before anything is allocated for it. */
        if (size == 0 || size > max_bytes + (kind == TG_HEIF_METADATA_EXIF ? 4 + 6 : 0)) continue;
        uint8_t *data = malloc(size);
        if (!data) return 0;
        if (heif_image_handle_get_metadata(r->handle, ids[i], data).code != heif_error_Ok) {
            free(data);
            continue;
        }
        size_t start = 0;
        if (kind == TG_HEIF_METADATA_EXIF) {
            if (size < 4) { free(data); continue; }
            uint64_t offset = (uint64_t)data[0] << 24 | (uint64_t)data[1] << 16 | (uint64_t)data[2] << 8 | data[3];
            if (offset > size - 4) { free(data); continue; }
            start = 4 + (size_t)offset;
        }
        int kept = size - start <= max_bytes && tg_buffer_append(out, data + start, size - start);
        free(data);
        if (!kept) tg_buffer_free(out);
        return kept;
    }
    return 0;
}
