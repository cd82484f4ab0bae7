/*
 * heif_de265.c: the HEVC decoder plugin CLibHEIF gives libheif, over libde265 (see heif_plugins.h
 * for why there is one). It is libheif 1.15's own libde265 plugin, which it replaces for every HEVC
 * image, with these differences:
 *  - Frames are zeroed. On damaged data libde265 can decode a picture only in part without any
 *    error (a slice that ends early, a first slice that is missing: decctx.cc marks the CTBs before
 *    the first slice it sees as done), and the samples nobody decoded were whatever the allocator
 *    left there, so the same file gave different pixels from run to run. Now they are 0.
 *  - Decoding problems are errors, not silence: libde265's warnings (premature end of a slice,
 *    invalid headers, CTBs outside the picture, ...) fail the decode with libde265's own text, and
 *    pictures libde265 itself marks as faulty are not handed out. Warnings about threads, the full
 *    warning queue and SEI messages say nothing about the pixels and are ignored.
 *  - Frames above the pixel limit of the decode running on this thread are refused before they
 *    are allocated (the coded stream's size need not be the one the HEIF boxes promised).
 *  - No worker threads: libde265 decodes on the thread that called heif_decode_image (thumbgen
 *    decodes files in parallel instead, and -j1 is one thread).
 * The image handed back is YCbCr planes as libde265 decoded them, with the stream's nclx values,
 * exactly as libheif's plugin builds it, so libheif's conversion to RGB sees the same image.
 */
#include "heif_plugins.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libde265/de265.h>
#include <libheif/heif.h>
#include <libheif/heif_plugin.h>

struct decoder {
    de265_decoder_context *context;
    int refused;                /* a frame was above the pixel limit */
    int refused_width, refused_height;
};

const char *tg_heif_de265_version(void) { return de265_get_version(); }

/* ---- zeroed frames ---- */

/* libde265 reads up to 16 bytes past a plane's last row with SIMD (image.cc, MEMORY_PADDING). */
enum { PLANE_PADDING = 16, PLANE_ALIGNMENT = 64 };

static void release_planes(de265_decoder_context *context, struct de265_image *image, void *userdata) {
    (void)context;
    (void)userdata;
    for (int c = 0; c < 3; c++) free(de265_get_image_plane_user_data(image, c));
}

/* The planes of one frame, laid out as libde265's default allocator lays them out (rows a multiple
 * of spec->alignment samples, chroma subsampled as the picture is), each zeroed; the block calloc
 * returned is the plane's user data, for release_planes. Returns 0 (libde265 then fails the
 * picture with "out of memory") for a frame above the limit or when memory runs out. */
static int allocate_planes(de265_decoder_context *context, struct de265_image_spec *spec, struct de265_image *image, void *userdata) {
    (void)context;
    struct decoder *d = userdata;
    /* The picture's visible size, as the limits count pixels; the coded size adds at most a CTB
     * (64 samples) to each side. */
    int visible_width = spec->visible_width > 0 ? spec->visible_width : spec->width;
    int visible_height = spec->visible_height > 0 ? spec->visible_height : spec->height;
    uint64_t pixels = (uint64_t)(visible_width > 0 ? visible_width : 0) * (uint64_t)(visible_height > 0 ? visible_height : 0);
    if (spec->width <= 0 || spec->height <= 0 || pixels == 0 || pixels > tg_heif_plugins_frame_limit()) {
        if (d && !d->refused) {
            d->refused = 1;
            d->refused_width = visible_width;
            d->refused_height = visible_height;
        }
        return 0;
    }
    enum de265_chroma chroma = de265_get_chroma_format(image);
    int planes = chroma == de265_chroma_mono ? 1 : 3;
    int alignment = spec->alignment > 0 ? spec->alignment : 1;
    for (int c = 0; c < 3; c++) {
        if (c >= planes) {
            de265_set_image_plane(image, c, NULL, 0, NULL);
            continue;
        }
        size_t w = (size_t)spec->width, h = (size_t)spec->height;
        if (c > 0 && (chroma == de265_chroma_420 || chroma == de265_chroma_422)) w = (w + 1) / 2;
        if (c > 0 && chroma == de265_chroma_420) h = (h + 1) / 2;
        size_t bytes = (size_t)(de265_get_bits_per_pixel(image, c) + 7) / 8;
        size_t stride = (w + (size_t)alignment - 1) / (size_t)alignment * (size_t)alignment * bytes;
        void *block = calloc(1, stride * h + PLANE_PADDING + PLANE_ALIGNMENT - 1);
        if (!block) {
            for (int k = 0; k < c; k++) free(de265_get_image_plane_user_data(image, k));
            return 0;
        }
        uintptr_t start = ((uintptr_t)block + PLANE_ALIGNMENT - 1) & ~(uintptr_t)(PLANE_ALIGNMENT - 1);
        de265_set_image_plane(image, c, (void *)start, (int)stride, block);
    }
    return 1;
}

static struct de265_image_allocation zeroed_frames = {allocate_planes, release_planes};

/* libde265 allocates the picture that SAO then filters with its default allocator whatever the
 * caller sets (decctx.cc: dpb.new_image(..., isOutputImage) with isOutputImage false when SAO is
 * on), and its default allocator does not zero. Its table of default functions is a plain global
 * that every image copies when it is allocated, and the only place that reaches those pictures, so
 * it is pointed at the zeroing allocator once, before anything is decoded (libheif's own plugin
 * only calls de265_init, which allocates no image). */
static void zero_default_frames(void) {
    struct de265_image_allocation *defaults = (struct de265_image_allocation *)de265_get_default_image_allocation_functions();
    if (defaults) *defaults = zeroed_frames;
}

/* ---- errors ---- */

static struct heif_error failure(enum heif_error_code code, const char *text) { return tg_heif_plugin_failure(code, text); }

/* Warnings that say nothing about the decoded pixels. */
static int harmless(de265_error warning) {
    switch (warning) {
    case DE265_WARNING_NO_WPP_CANNOT_USE_MULTITHREADING:
    case DE265_WARNING_WARNING_BUFFER_FULL:
    case DE265_WARNING_NUMBER_OF_THREADS_LIMITED_TO_MAXIMUM:
    case DE265_WARNING_SPS_MISSING_CANNOT_DECODE_SEI:
        return 1;
    default:
        return 0;
    }
}

/* The first warning libde265 has queued that affects the pixels, or DE265_OK; the queue is emptied. */
static de265_error first_damage(struct decoder *d) {
    de265_error found = DE265_OK;
    for (de265_error w = de265_get_warning(d->context); w != DE265_OK; w = de265_get_warning(d->context))
        if (found == DE265_OK && !harmless(w)) found = w;
    return found;
}

/* An error from de265_decode, in words: a refused frame is the pixel limit's doing. */
static struct heif_error decode_failure(const struct decoder *d, de265_error error) {
    if (d->refused) {
        char text[128];
        snprintf(text, sizeof text, "the HEVC stream's frame is %dx%d, above the pixel limit of %llu", d->refused_width, d->refused_height,
                 (unsigned long long)tg_heif_plugins_frame_limit());
        return failure(heif_error_Invalid_input, text);
    }
    if (error == DE265_ERROR_OUT_OF_MEMORY) return failure(heif_error_Memory_allocation_error, "out of memory");
    return failure(heif_error_Invalid_input, de265_get_error_text(error));
}

/* ---- the plugin ---- */

static const char *plugin_name(void) { return "libde265, one thread, zeroed frames, strict (thumbgen)"; }

static int supports(enum heif_compression_format format) { return format == heif_compression_HEVC ? TG_HEIF_PLUGIN_PRIORITY : 0; }

static struct heif_error new_decoder(void **out) {
    *out = NULL;
    struct decoder *d = calloc(1, sizeof *d);
    if (!d) return failure(heif_error_Memory_allocation_error, "out of memory");
    d->context = de265_new_decoder();
    if (!d->context) {
        free(d);
        return failure(heif_error_Memory_allocation_error, "out of memory");
    }
    de265_set_image_allocation_functions(d->context, &zeroed_frames, d);
    de265_set_parameter_bool(d->context, DE265_DECODER_PARAM_SUPPRESS_FAULTY_PICTURES, 1);
    *out = d;
    return tg_heif_plugin_ok();
}

static void free_decoder(void *raw) {
    struct decoder *d = raw;
    if (!d) return;
    if (d->context) de265_free_decoder(d->context);
    free(d);
}

/* The item's data as libheif hands it over: NAL units, each after its size in 4 bytes, big-endian
 * (libheif writes the hvcC parameter sets the same way). libde265 copies each unit. */
static struct heif_error push_data(void *raw, const void *data, size_t size) {
    struct decoder *d = raw;
    const uint8_t *bytes = data;
    size_t at = 0;
    while (at < size) {
        if (size - at < 4) return failure(heif_error_Invalid_input, "HEVC data ends inside a NAL unit's size");
        uint32_t length = (uint32_t)bytes[at] << 24 | (uint32_t)bytes[at + 1] << 16 | (uint32_t)bytes[at + 2] << 8 | bytes[at + 3];
        at += 4;
        if (length > size - at) return failure(heif_error_Invalid_input, "HEVC NAL unit runs past the end of its data");
        if (length > INT_MAX) return failure(heif_error_Invalid_input, "HEVC NAL unit is larger than libde265 takes");
        de265_error error = de265_push_NAL(d->context, bytes + at, (int)length, 0, NULL);
        if (error != DE265_OK) return decode_failure(d, error);
        at += length;
    }
    return tg_heif_plugin_ok();
}

/* The picture's planes as a heif_image, as libheif's plugin copies them. */
static struct heif_error copy_picture(const struct de265_image *picture, struct heif_image **out) {
    int mono = de265_get_chroma_format(picture) == de265_chroma_mono;
    struct heif_image *image = NULL;
    struct heif_error error = heif_image_create(de265_get_image_width(picture, 0), de265_get_image_height(picture, 0),
                                                mono ? heif_colorspace_monochrome : heif_colorspace_YCbCr,
                                                (enum heif_chroma)de265_get_chroma_format(picture), &image);
    if (error.code != heif_error_Ok) return error;
    static const enum heif_channel channels[3] = {heif_channel_Y, heif_channel_Cb, heif_channel_Cr};
    int bits = de265_get_bits_per_pixel(picture, 0);
    for (int c = 0; c < (mono ? 1 : 3); c++) {
        int w = de265_get_image_width(picture, c), h = de265_get_image_height(picture, c);
        if (de265_get_bits_per_pixel(picture, c) != bits) error = failure(heif_error_Unsupported_feature, "HEVC planes of different depths");
        else if (w <= 0 || h <= 0) error = failure(heif_error_Invalid_input, "HEVC picture has no size");
        else error = heif_image_add_plane(image, channels[c], w, h, bits);
        if (error.code != heif_error_Ok) {
            heif_image_release(image);
            return error;
        }
        int stride = 0, dst_stride = 0;
        const uint8_t *src = de265_get_image_plane(picture, c, &stride);
        uint8_t *dst = heif_image_get_plane(image, channels[c], &dst_stride);
        size_t row = (size_t)w * (size_t)((bits + 7) / 8);
        for (int y = 0; y < h; y++) memcpy(dst + (size_t)y * (size_t)dst_stride, src + (size_t)y * (size_t)stride, row);
    }
    /* The same setters in the same order as libheif's plugin: values H.273 reserves are refused and
     * the profile keeps its default for them. */
    struct heif_color_profile_nclx *nclx = heif_nclx_color_profile_alloc();
    if (nclx) {
        heif_nclx_color_profile_set_color_primaries(nclx, (uint16_t)de265_get_image_colour_primaries(picture));
        heif_nclx_color_profile_set_transfer_characteristics(nclx, (uint16_t)de265_get_image_transfer_characteristics(picture));
        heif_nclx_color_profile_set_matrix_coefficients(nclx, (uint16_t)de265_get_image_matrix_coefficients(picture));
        nclx->full_range_flag = (uint8_t)(de265_get_image_full_range_flag(picture) != 0);
        heif_image_set_nclx_color_profile(image, nclx);
        heif_nclx_color_profile_free(nclx);
    }
    *out = image;
    return tg_heif_plugin_ok();
}

static struct heif_error decode_image(void *raw, struct heif_image **out) {
    struct decoder *d = raw;
    *out = NULL;
    de265_flush_data(d->context);
    struct heif_image *image = NULL;
    int more;
    do {
        more = 0;
        de265_error error = de265_decode(d->context, &more);
        /* A full picture buffer only asks for the pictures to be taken out, below. */
        if (error != DE265_OK && error != DE265_ERROR_IMAGE_BUFFER_FULL && error != DE265_ERROR_WAITING_FOR_INPUT_DATA) {
            if (image) heif_image_release(image);
            return decode_failure(d, error);
        }
        de265_error damage = first_damage(d);
        if (damage != DE265_OK) {
            if (image) heif_image_release(image);
            return failure(heif_error_Invalid_input, de265_get_error_text(damage));
        }
        const struct de265_image *picture = de265_get_next_picture(d->context);
        /* A full buffer with nothing to take out would ask for the same again forever. */
        if (!picture && error == DE265_ERROR_IMAGE_BUFFER_FULL) {
            if (image) heif_image_release(image);
            return failure(heif_error_Invalid_input, "libde265's picture buffer is full");
        }
        if (picture) {
            /* An image item codes one picture; any after the first are not looked at. */
            struct heif_error copied = image ? tg_heif_plugin_ok() : copy_picture(picture, &image);
            de265_release_next_picture(d->context);
            if (copied.code != heif_error_Ok) return copied;
        }
        if (error == DE265_ERROR_WAITING_FOR_INPUT_DATA) break;
    } while (more);
    if (!image) return d->refused ? decode_failure(d, DE265_OK) : failure(heif_error_Invalid_input, "no intact picture in the HEVC data");
    *out = image;
    return tg_heif_plugin_ok();
}

static const struct heif_decoder_plugin plugin = {
    .plugin_api_version = 3,
    .get_plugin_name = plugin_name,
    .init_plugin = NULL,
    .deinit_plugin = NULL,
    .does_support_format = supports,
    .new_decoder = new_decoder,
    .free_decoder = free_decoder,
    .push_data = push_data,
    .decode_image = decode_image,
    .set_strict_decoding = tg_heif_plugin_ignore_strictness,
    .id_name = "thumbgen-libde265",
};

void tg_heif_de265_register(void) {
    zero_default_frames();
    heif_register_decoder_plugin(&plugin);
}
