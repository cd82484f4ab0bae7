/*
 * heif_dav1d.c: the AV1 decoder plugin CLibHEIF gives libheif, over dav1d (see heif_plugins.h for
 * why there is one). It is libheif 1.15's own dav1d plugin with these differences:
 *  - dav1d's log goes to the decoder, not to standard error: its first line is the error's text
 *    (libheif's plugin opens dav1d with its default logger, which prints "Error parsing OBU data",
 *    and gives no way to set another; libaom, which prints nothing, is about twice as slow; Debian
 *    bookworm's libavif 0.11.1 sets no dav1d logger either);
 *  - one thread, no frame delay (thumbgen decodes files in parallel instead, and -j1 is one thread);
 *  - dav1d's frame size limit is the pixel limit of the decode running on the calling thread;
 *  - every error path releases what it holds.
 *
 * The plugin API (libheif/heif_plugin.h, version 3, libheif 1.15): libheif creates a decoder per
 * coded image (the primary one, its alpha plane, each grid tile), pushes the item's data once,
 * asks for the image once, then frees the decoder, on the thread that called heif_decode_image
 * (CLibHEIF asks for no decoding threads). The image handed back is YCbCr planes as dav1d decoded
 * them, with the sequence header's nclx values; libheif converts them to RGB.
 */
#include "heif_plugins.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dav1d/dav1d.h>
#include <libheif/heif.h>
#include <libheif/heif_plugin.h>

#define LOG_SIZE 200

struct decoder {
    Dav1dContext *context;
    Dav1dData data;
    char log[LOG_SIZE];         /* dav1d's first message, without its newline; "" when none */
};

const char *tg_heif_dav1d_version(void) { return dav1d_version(); }

/* An error whose text is dav1d's log, else `fallback`. */
static struct heif_error decode_failure(const struct decoder *d, enum heif_error_code code, const char *fallback) {
    return tg_heif_plugin_failure(code, d && d->log[0] ? d->log : fallback);
}

/* dav1d's log: the first message is kept (later ones are consequences, "Error parsing OBU data"
 * after the header that failed), and nothing is printed. */
static void keep_log(void *cookie, const char *format, va_list arguments) {
    struct decoder *d = cookie;
    if (d->log[0]) return;
    vsnprintf(d->log, sizeof d->log, format, arguments);
    size_t length = strlen(d->log);
    while (length > 0 && (d->log[length - 1] == '\n' || d->log[length - 1] == '\r' || d->log[length - 1] == ' '))
        d->log[--length] = 0;
    for (size_t i = 0; i < length; i++)
        if (d->log[i] == '\n' || d->log[i] == '\r') d->log[i] = ' ';
}

static const char *plugin_name(void) { return "dav1d, one thread, silent (thumbgen)"; }

static int supports(enum heif_compression_format format) { return format == heif_compression_AV1 ? TG_HEIF_PLUGIN_PRIORITY : 0; }

static struct heif_error new_decoder(void **out) {
    *out = NULL;
    struct decoder *d = calloc(1, sizeof *d);
    if (!d) return decode_failure(NULL, heif_error_Memory_allocation_error, "out of memory");
    Dav1dSettings settings;
    dav1d_default_settings(&settings);
    settings.n_threads = 1;
    settings.max_frame_delay = 1;
    settings.all_layers = 0;
    /* A layered AVIF's a1op: that operating point's highest spatial layer, the one its ispe
     * describes (AVIF §4.3.3). */
    settings.operating_point = tg_heif_plugins_operating_point();
    settings.frame_size_limit = (unsigned)tg_heif_plugins_frame_limit();
    settings.logger.cookie = d;
    settings.logger.callback = keep_log;
    if (dav1d_open(&d->context, &settings) != 0) {
        free(d);
        return decode_failure(NULL, heif_error_Memory_allocation_error, "out of memory");
    }
    *out = d;
    return tg_heif_plugin_ok();
}

static void free_decoder(void *raw) {
    struct decoder *d = raw;
    if (!d) return;
    if (d->data.sz) dav1d_data_unref(&d->data);
    if (d->context) dav1d_close(&d->context);
    free(d);
}

/* The item's data is copied: libheif frees its copy when it likes. Its size is bounded by the file,
 * which libheif has already read into memory of that size. */
static struct heif_error push_data(void *raw, const void *data, size_t size) {
    struct decoder *d = raw;
    if (d->data.sz) return decode_failure(d, heif_error_Usage_error, "AV1 data pushed twice");
    if (size == 0) return decode_failure(d, heif_error_Invalid_input, "no AV1 data");
    uint8_t *copy = dav1d_data_create(&d->data, size);
    if (!copy) return decode_failure(NULL, heif_error_Memory_allocation_error, "out of memory");
    memcpy(copy, data, size);
    return tg_heif_plugin_ok();
}

/* Plane sizes of a w x h image in the dav1d layout (chroma rounded up). */
static void plane_size(enum Dav1dPixelLayout layout, int plane, int w, int h, int *pw, int *ph) {
    *pw = w;
    *ph = h;
    if (plane == 0) return;
    if (layout == DAV1D_PIXEL_LAYOUT_I420 || layout == DAV1D_PIXEL_LAYOUT_I422) *pw = (w + 1) / 2;
    if (layout == DAV1D_PIXEL_LAYOUT_I420) *ph = (h + 1) / 2;
}

/* The picture's planes as a heif_image, with the sequence header's nclx values. */
static struct heif_error copy_picture(const struct decoder *d, const Dav1dPicture *picture, struct heif_image **out) {
    enum heif_chroma chroma;
    enum heif_colorspace colorspace = heif_colorspace_YCbCr;
    switch (picture->p.layout) {
    case DAV1D_PIXEL_LAYOUT_I420: chroma = heif_chroma_420; break;
    case DAV1D_PIXEL_LAYOUT_I422: chroma = heif_chroma_422; break;
    case DAV1D_PIXEL_LAYOUT_I444: chroma = heif_chroma_444; break;
    case DAV1D_PIXEL_LAYOUT_I400:
        chroma = heif_chroma_monochrome;
        colorspace = heif_colorspace_monochrome;
        break;
    default: return decode_failure(d, heif_error_Invalid_input, "unknown AV1 pixel layout");
    }
    struct heif_image *image = NULL;
    struct heif_error error = heif_image_create(picture->p.w, picture->p.h, colorspace, chroma, &image);
    if (error.code != heif_error_Ok) return error;
    struct heif_color_profile_nclx *nclx = heif_nclx_color_profile_alloc();
    if (nclx) {
        /* Values H.273 reserves are refused by the setters and stay "unspecified". */
        heif_nclx_color_profile_set_color_primaries(nclx, (uint16_t)picture->seq_hdr->pri);
        heif_nclx_color_profile_set_transfer_characteristics(nclx, (uint16_t)picture->seq_hdr->trc);
        heif_nclx_color_profile_set_matrix_coefficients(nclx, (uint16_t)picture->seq_hdr->mtrx);
        nclx->full_range_flag = picture->seq_hdr->color_range != 0;
        heif_image_set_nclx_color_profile(image, nclx);
        heif_nclx_color_profile_free(nclx);
    }
    static const enum heif_channel channels[3] = {heif_channel_Y, heif_channel_Cb, heif_channel_Cr};
    int planes = chroma == heif_chroma_monochrome ? 1 : 3;
    size_t sample_bytes = picture->p.bpc > 8 ? 2 : 1;
    for (int c = 0; c < planes; c++) {
        int w, h;
        plane_size(picture->p.layout, c, picture->p.w, picture->p.h, &w, &h);
        error = heif_image_add_plane(image, channels[c], w, h, picture->p.bpc);
        if (error.code != heif_error_Ok) {
            heif_image_release(image);
            return error;
        }
        int stride = 0;
        uint8_t *dst = heif_image_get_plane(image, channels[c], &stride);
        const uint8_t *src = picture->data[c];
        ptrdiff_t src_stride = picture->stride[c > 0 ? 1 : 0];
        for (int y = 0; y < h; y++) memcpy(dst + (size_t)y * (size_t)stride, src + y * src_stride, (size_t)w * sample_bytes);
    }
    *out = image;
    return tg_heif_plugin_ok();
}

static struct heif_error decode_image(void *raw, struct heif_image **out) {
    struct decoder *d = raw;
    *out = NULL;
    Dav1dPicture picture;
    memset(&picture, 0, sizeof picture);
    /* One thread, no frame delay: a picture comes out as soon as its data has gone in; data dav1d
     * has not taken yet (EAGAIN from send) goes in after the next picture request. */
    int result;
    do {
        if (d->data.sz) {
            result = dav1d_send_data(d->context, &d->data);
            if (result < 0 && result != DAV1D_ERR(EAGAIN))
                return decode_failure(d, result == DAV1D_ERR(ENOMEM) ? heif_error_Memory_allocation_error : heif_error_Invalid_input,
                                      "AV1 data rejected by dav1d");
        }
        result = dav1d_get_picture(d->context, &picture);
    } while (result == DAV1D_ERR(EAGAIN) && d->data.sz);
    if (result < 0) {
        if (result == DAV1D_ERR(ENOMEM)) return decode_failure(d, heif_error_Memory_allocation_error, "out of memory");
        return decode_failure(d, heif_error_Invalid_input, result == DAV1D_ERR(EAGAIN) ? "no picture in the AV1 data"
                                                                                        : "AV1 data rejected by dav1d");
    }
    struct heif_error error = copy_picture(d, &picture, out);
    dav1d_picture_unref(&picture);
    return error;
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
    .id_name = "thumbgen-dav1d",
};

void tg_heif_dav1d_register(void) { heif_register_decoder_plugin(&plugin); }
