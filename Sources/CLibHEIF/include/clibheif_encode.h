/*
 * clibheif_encode: AVIF files through libheif's AV1 encoder (libaom), behind one call.
 *
 * Policy: fixed settings, so the same pixels and settings always give the same bytes for a given
 * libheif and libaom: libaom's encoder chosen by name (never rav1e or SVT-AV1, which a system may
 * also register), one encoder thread (libaom's row and tile threads change the bitstream), good
 * quality mode (not realtime), 8-bit samples, and no metadata but the ICC profile the caller passes
 * (an untagged image gets the sRGB nclx values). libheif converts RGB to YCbCr (BT.601 matrix, full
 * range, its default); alpha, when the image has any, is a second AV1 image at the same quality.
 */
#ifndef CLIBHEIF_ENCODE_H
#define CLIBHEIF_ENCODE_H

#include <stddef.h>
#include <stdint.h>

#include "tg_codec_support.h"

typedef struct {
    uint32_t width;
    uint32_t height;
    const uint8_t *rgba;        /* straight RGBA, 8 bits per channel, rows of stride bytes */
    size_t stride;
    int has_alpha;              /* 0: every pixel is opaque, so no alpha image is written */
    int quality;                /* 1-100, libheif's lossy quality (mapped onto libaom's quantiser) */
    int speed;                  /* libaom's cpu-used, 0 (slowest, smallest) ... 9 */
    int chroma444;              /* 1: 4:4:4, 0: 4:2:0 */
    const uint8_t *icc;         /* written as a colr 'prof' box; may be NULL */
    size_t icc_size;
} tg_avif_encode_params;

/* 1 when libheif has libaom's AV1 encoder. */
int tg_avif_encoder_available(void);

/* Encodes into out (release with tg_buffer_free). */
tg_status tg_avif_encode(const tg_avif_encode_params *params, tg_buffer *out, char message[TG_MESSAGE_SIZE]);

/* "libaom 3.6.0", from the encoder's own name ("AOMedia Project AV1 Encoder v3.6.0"); "libaom (none)"
 * without it. libheif's own version is already listed with its decoders. */
void tg_avif_encoder_version(char out[TG_VERSION_SIZE]);

#endif
