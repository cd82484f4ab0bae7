/*
 * clibwebp: libwebp behind a small C API that is safe to call from Swift.
 *
 * Policy:
 *  - A file is read through its descriptor, in 64 KiB chunks, into one buffer sized from the RIFF
 *    header (after the caller's limits have been checked), and only as far as the RIFF size says:
 *    what follows the WebP data is never read. libwebp decodes from memory.
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

#ifdef __cplusplus
extern "C" {
#endif

enum {
    TG_WEBP_OK = 0,
    TG_WEBP_ERR_OPEN = 1,       /* the file could not be opened or read; message says why */
    TG_WEBP_ERR_NOT_WEBP = 2,   /* no RIFF/WEBP header */
    TG_WEBP_ERR_CORRUPT = 3,    /* libwebp could not parse or decode the data */
    TG_WEBP_ERR_LIMIT = 4,      /* the image exceeds a limit */
    TG_WEBP_ERR_MEMORY = 5,     /* an allocation failed */
    TG_WEBP_ERR_TRUNCATED = 7   /* the data ends before the image does */
};

#define TG_WEBP_MESSAGE_SIZE 256

typedef struct {
    uint64_t max_pixels;        /* canvas width*height; 0 = no limit */
    uint32_t max_dimension;     /* largest width and height; 0 = no limit */
    uint64_t max_file_bytes;    /* bytes of WebP data; 0 = no limit */
    uint64_t max_memory;        /* bytes the encoded data may take in memory; 0 = no limit */
} tg_webp_limits;

typedef struct {
    uint32_t width;             /* the canvas */
    uint32_t height;
    int has_alpha;
    int animated;
    uint32_t frames;
    int lossless;               /* the first frame is VP8L */
    const uint8_t *icc;         /* ICCP chunk, pointing into the data; NULL if none */
    size_t icc_size;
    const uint8_t *exif;        /* EXIF chunk, pointing into the data; NULL if none */
    size_t exif_size;
    const uint8_t *xmp;         /* "XMP " chunk (the packet), pointing into the data; NULL if none */
    size_t xmp_size;
} tg_webp_info;

/* Reads a WebP file's data (the RIFF chunk, no more) into out, after checking its declared size
 * against the limits. A file shorter than its RIFF size is read as far as it goes. */
int tg_webp_read_file(const char *path, const tg_webp_limits *limits, tg_buffer *out,
                      char message[TG_WEBP_MESSAGE_SIZE], tg_limit_hit *limit);

/* Parses the container and checks the limits. Pointers in *info point into data. */
int tg_webp_probe(const uint8_t *data, size_t size, const tg_webp_limits *limits, tg_webp_info *info,
                  char message[TG_WEBP_MESSAGE_SIZE], tg_limit_hit *limit);

/* Decodes the image (an animation's first frame) into dst, out_width * out_height * 4 bytes of
 * RGBA. An out size other than the canvas (0 x 0 means the canvas) scales a still image down
 * while decoding, with libwebp's rescaler (an area average; the whole canvas maps onto the out
 * size); an animation cannot be scaled. */
int tg_webp_decode(const uint8_t *data, size_t size, const tg_webp_info *info, uint32_t out_width,
                   uint32_t out_height, uint8_t *dst, char message[TG_WEBP_MESSAGE_SIZE]);

/* The libwebp version in use, e.g. "libwebp 1.2.4". */
void tg_webp_version(char out[TG_VERSION_SIZE]);

#ifdef __cplusplus
}
#endif

#endif
