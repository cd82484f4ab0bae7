/*
 * clibdeflate: the only code that calls libdeflate, which compresses the image data and ICC
 * profiles of the PNGs thumbgen writes (libpng and zlib still read PNGs).
 *
 * libdeflate compresses a whole buffer at once: at the same level it is about twice as fast as
 * zlib and its output a little smaller, and thumbnails are always whole in memory when written.
 * The same bytes and level give the same stream for a given libdeflate version.
 */
#ifndef CLIBDEFLATE_H
#define CLIBDEFLATE_H

#include <stddef.h>
#include <stdint.h>
#include "tg_codec_support.h"

/* The lowest and highest compression levels libdeflate takes (0 stores the data uncompressed). */
#define TG_DEFLATE_MIN_LEVEL 0
#define TG_DEFLATE_MAX_LEVEL 12

/* The most bytes tg_zlib_compress can write for `size` bytes of data, at any level. */
size_t tg_zlib_bound(size_t size);

/* `size` bytes at `data` as one zlib stream (RFC 1950) at `level`, into the `capacity` bytes at
 * `out` (at least tg_zlib_bound(size)); *written is its length. TG_ERR_MEMORY when memory runs
 * out, TG_ERR_FAILED for a level outside the range above or a capacity below the bound. */
tg_status tg_zlib_compress(int level, const uint8_t *data, size_t size, uint8_t *out, size_t capacity,
                           size_t *written, char message[TG_MESSAGE_SIZE]);

/* The CRC-32 (ISO 3309, as PNG chunks use it) of `size` bytes, continuing from `crc` (0 to start). */
uint32_t tg_crc32(uint32_t crc, const uint8_t *data, size_t size);

/* The libdeflate version the module was built with, e.g. "libdeflate 1.14" (libdeflate has no
 * run-time version call; the library's soname changes when its interface does). */
void tg_deflate_version(char out[TG_VERSION_SIZE]);

#endif
