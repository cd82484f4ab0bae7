/*
 * clibwebp: libwebp behind a small C API that is safe to call from Swift.
 *
 * Policy:
 *  - libwebp decodes from memory. A file's data is read from its tg_source into one buffer sized
 *    from the RIFF header (after the caller's limits have been checked), and only as far as the
 *    RIFF size says: what follows the WebP data is never read. Bytes in memory are decoded where
 *    they are lent.
 *  - The header (canvas size, alpha, animation, lossless, ICC profile, EXIF) comes from libwebp's
 *    container parser before any pixel buffer exists, so limits are checked first.
 *  - Decoded pixels are straight (not premultiplied) RGBA, 8 bits per channel. An animation gives
 *    its first frame, composed on its canvas as libwebp's animation decoder does. A still image
 *    can be scaled down while decoding (libwebp's rescaler), for shrink-on-load.
 *  - libwebp may use its one helper thread (filtering beside parsing); the pixels do not depend
 *    on it.
 *  - Limits that are hit come back as data (tg_limit_hit); messages name no option.
 */
#ifndef CLIBWEBP_H
#define CLIBWEBP_H

#include <stddef.h>
#include <stdint.h>

#include "tg_codec_support.h"

typedef struct {
    uint32_t width;             /* the canvas */
    uint32_t height;
    int has_alpha;
    int animated;
    uint32_t frames;
    int lossless;               /* the first frame is VP8L */
    const uint8_t *icc;         /* ICCP chunk, owned by the reader; NULL if none */
    size_t icc_size;
    const uint8_t *exif;        /* EXIF chunk, owned by the reader; NULL if none */
    size_t exif_size;
    const uint8_t *xmp;         /* "XMP " chunk (the packet), owned by the reader; NULL if none or
                                 * larger than max_metadata_bytes */
    size_t xmp_size;
    uint64_t data_bytes;        /* the encoded bytes held in memory while decoding: a file's WebP
                                 * data, or all the bytes lent */
} tg_webp_info;

typedef struct tg_webp_reader tg_webp_reader;

/* Reads the WebP data (a file's RIFF chunk, no more), parses the container and checks the limits
 * (max_file_bytes against the RIFF size; max_memory against a file's data held in memory). The
 * source is one tg_source_begin accepted; the reader is left in *out whatever the status, and is
 * closed before the source is freed. */
tg_status tg_webp_open(tg_source *source, const tg_limits *limits, tg_webp_reader **out, tg_webp_info *info);

/* Decodes the image (an animation's first frame) into dst, out_width * out_height * 4 bytes of
 * RGBA. An out size other than the canvas (0 x 0 means the canvas) scales a still image down
 * while decoding, with libwebp's rescaler (an area average; the whole canvas maps onto the out
 * size); an animation cannot be scaled. */
tg_status tg_webp_decode(tg_webp_reader *reader, uint32_t out_width, uint32_t out_height, uint8_t *dst);

void tg_webp_close(tg_webp_reader *reader);

/* The libwebp version in use, e.g. "libwebp 1.2.4". */
void tg_webp_version(char out[TG_VERSION_SIZE]);

#endif
