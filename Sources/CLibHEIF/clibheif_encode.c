/*
 * clibheif_encode.c: AVIF output through libheif and libaom. See include/clibheif_encode.h.
 */
#include "clibheif_encode.h"
#include "heif_plugins.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libheif/heif.h>

/* libaom's encoder, by the id libheif gives it; NULL when libheif was built without it. */
static const struct heif_encoder_descriptor *aom_descriptor(void) {
    const struct heif_encoder_descriptor *descriptors[8];
    int count = heif_context_get_encoder_descriptors(NULL, heif_compression_AV1, "aom", descriptors, 8);
    return count > 0 ? descriptors[0] : NULL;
}

int tg_avif_encoder_available(void) { return aom_descriptor() != NULL; }

void tg_avif_encoder_version(char out[TG_VERSION_SIZE]) {
    const struct heif_encoder_descriptor *d = aom_descriptor();
    const char *name = d ? heif_encoder_descriptor_get_name(d) : NULL;
    /* "AOMedia Project AV1 Encoder v3.6.0" -> "3.6.0" (the text after the last " v"). */
    const char *version = name ? strrchr(name, ' ') : NULL;
    if (version && version[1] == 'v') version += 2; else if (version) version += 1;
    snprintf(out, TG_VERSION_SIZE, "libaom %s", version ? version : "(none)");
}

static tg_status fail(char message[TG_MESSAGE_SIZE], const char *what, struct heif_error error) {
    snprintf(message, TG_MESSAGE_SIZE, "%s: %s", what, error.message ? error.message : "unknown error");
    return error.code == heif_error_Memory_allocation_error ? TG_ERR_MEMORY : TG_ERR_FAILED;
}

static struct heif_error write_bytes(struct heif_context *ctx, const void *data, size_t size, void *user) {
    (void)ctx;
    struct heif_error result = {heif_error_Ok, heif_suberror_Unspecified, "Success"};
    if (!tg_buffer_append(user, data, size)) {
        result.code = heif_error_Memory_allocation_error;
        result.message = "out of memory";
    }
    return result;
}

tg_status tg_avif_encode(const tg_avif_encode_params *p, tg_buffer *out, char message[TG_MESSAGE_SIZE]) {
    *out = (tg_buffer){0};
    message[0] = 0;
    tg_heif_plugins_register();
    const struct heif_encoder_descriptor *descriptor = aom_descriptor();
    if (!descriptor) {
        snprintf(message, TG_MESSAGE_SIZE, "libheif %s has no libaom AV1 encoder (install libheif with libaom)", heif_get_version());
        return TG_ERR_FAILED;
    }
    tg_status status = TG_OK;
    struct heif_context *ctx = heif_context_alloc();
    struct heif_encoder *encoder = NULL;
    struct heif_image *image = NULL;
    struct heif_image_handle *handle = NULL;
    struct heif_encoding_options *options = NULL;
    if (!ctx) return TG_ERR_MEMORY;
    struct heif_error e = heif_context_get_encoder(ctx, descriptor, &encoder);
    if (e.code) { status = fail(message, "no encoder", e); goto done; }
    /* Fixed settings: one thread (libaom's threads split rows and tiles differently by count),
     * good-quality mode, the caller's speed and subsampling. */
    if ((e = heif_encoder_set_lossy_quality(encoder, p->quality)).code ||
        (e = heif_encoder_set_lossless(encoder, 0)).code ||
        (e = heif_encoder_set_parameter_integer(encoder, "threads", 1)).code ||
        (e = heif_encoder_set_parameter_boolean(encoder, "realtime", 0)).code ||
        (e = heif_encoder_set_parameter_integer(encoder, "speed", p->speed)).code ||
        (e = heif_encoder_set_parameter_string(encoder, "chroma", p->chroma444 ? "444" : "420")).code) {
        status = fail(message, "encoder setting refused", e);
        goto done;
    }
    e = heif_image_create((int)p->width, (int)p->height, heif_colorspace_RGB,
                          p->has_alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, &image);
    if (e.code) { status = fail(message, "image", e); goto done; }
    e = heif_image_add_plane(image, heif_channel_interleaved, (int)p->width, (int)p->height, 8);
    if (e.code) { status = fail(message, "image plane", e); goto done; }
    int stride = 0;
    uint8_t *plane = heif_image_get_plane(image, heif_channel_interleaved, &stride);
    const int channels = p->has_alpha ? 4 : 3;
    for (uint32_t y = 0; y < p->height; y++) {
        const uint8_t *src = p->rgba + (size_t)y * p->stride;
        uint8_t *dst = plane + (size_t)y * (size_t)stride;
        if (channels == 4) {
            memcpy(dst, src, (size_t)p->width * 4);
        } else {
            for (uint32_t x = 0; x < p->width; x++) memcpy(dst + x * 3, src + x * 4, 3);
        }
    }
    if (p->icc && p->icc_size > 0) {
        e = heif_image_set_raw_color_profile(image, "prof", p->icc, p->icc_size);
        if (e.code) { status = fail(message, "colour profile", e); goto done; }
    } else {
        /* sRGB, said outright: BT.709 primaries, the sRGB transfer, BT.601 matrix, full range
         * (what browsers assume of an untagged AVIF too, but a reader need not guess). */
        struct heif_color_profile_nclx *nclx = heif_nclx_color_profile_alloc();
        if (!nclx) { status = TG_ERR_MEMORY; goto done; }
        nclx->color_primaries = heif_color_primaries_ITU_R_BT_709_5;
        nclx->transfer_characteristics = heif_transfer_characteristic_IEC_61966_2_1;
        nclx->matrix_coefficients = heif_matrix_coefficients_ITU_R_BT_601_6;
        nclx->full_range_flag = 1;
        e = heif_image_set_nclx_color_profile(image, nclx);
        heif_nclx_color_profile_free(nclx);
        if (e.code) { status = fail(message, "colour values", e); goto done; }
    }
    options = heif_encoding_options_alloc();
    if (!options) { status = TG_ERR_MEMORY; goto done; }
    options->save_alpha_channel = p->has_alpha ? 1 : 0;
    e = heif_context_encode_image(ctx, image, encoder, options, &handle);
    if (e.code) { status = fail(message, "libaom", e); goto done; }
    struct heif_writer writer = {.writer_api_version = 1, .write = write_bytes};
    e = heif_context_write(ctx, &writer, out);
    if (e.code) { status = fail(message, "writing", e); tg_buffer_free(out); goto done; }
done:
    if (options) heif_encoding_options_free(options);
    if (handle) heif_image_handle_release(handle);
    if (image) heif_image_release(image);
    if (encoder) heif_encoder_release(encoder);
    heif_context_free(ctx);
    return status;
}
