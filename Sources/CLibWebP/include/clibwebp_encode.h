/*
 * clibwebp_encode: libwebp's encoder (and its muxer, for an ICC profile) behind one call.
 *
 * Policy: fixed settings, so the same pixels and settings always give the same bytes for a given
 * libwebp: one thread, method 4 (libwebp's default trade of time for size), no metadata but the
 * ICC profile the caller passes. Lossless output keeps the colour of fully transparent pixels
 * (`exact`), so it decodes to exactly the pixels given.
 */
#ifndef CLIBWEBP_ENCODE_H
#define CLIBWEBP_ENCODE_H

#include <stddef.h>
#include <stdint.h>

#include "tg_codec_support.h"

typedef struct {
    uint32_t width;
    uint32_t height;
    const uint8_t *rgba;        /* straight RGBA, 8 bits per channel, rows of stride bytes */
    size_t stride;
    int has_alpha;              /* 0: every pixel is opaque, so no alpha plane is written */
    int quality;                /* 1-100: lossy quality, or lossless effort */
    int lossless;
    const uint8_t *icc;         /* written as an ICCP chunk; may be NULL */
    size_t icc_size;
} tg_webp_encode_params;

/* Encodes into out (release with tg_buffer_free). */
tg_status tg_webp_encode(const tg_webp_encode_params *params, tg_buffer *out, char message[TG_MESSAGE_SIZE]);

/* "libwebp 1.2.4": the encoder's run-time version. */
void tg_webp_encoder_version(char out[TG_VERSION_SIZE]);

#endif
