#include "clibdeflate.h"

#include <libdeflate.h>
#include <stdio.h>

size_t tg_zlib_bound(size_t size) {
    /* With no compressor the bound holds for every level. */
    return libdeflate_zlib_compress_bound(NULL, size);
}

tg_status tg_zlib_compress(int level, const uint8_t *data, size_t size, uint8_t *out, size_t capacity,
                           size_t *written, char message[TG_MESSAGE_SIZE]) {
    *written = 0;
    if (level < TG_DEFLATE_MIN_LEVEL || level > TG_DEFLATE_MAX_LEVEL) {
        snprintf(message, TG_MESSAGE_SIZE, "compression level %d is not %d…%d", level,
                 TG_DEFLATE_MIN_LEVEL, TG_DEFLATE_MAX_LEVEL);
        return TG_ERR_FAILED;
    }
    if (capacity < tg_zlib_bound(size)) {
        tg_copy_message(message, TG_MESSAGE_SIZE, "the output buffer is smaller than the bound");
        return TG_ERR_FAILED;
    }
    struct libdeflate_compressor *compressor = libdeflate_alloc_compressor(level);
    if (!compressor) {
        tg_copy_message(message, TG_MESSAGE_SIZE, "out of memory");
        return TG_ERR_MEMORY;
    }
    *written = libdeflate_zlib_compress(compressor, data, size, out, capacity);
    libdeflate_free_compressor(compressor);
    /* 0 means the stream did not fit, which the bound rules out; an error, not an empty stream. */
    if (*written == 0) {
        tg_copy_message(message, TG_MESSAGE_SIZE, "the compressed data did not fit its bound");
        return TG_ERR_FAILED;
    }
    return TG_OK;
}

uint32_t tg_crc32(uint32_t crc, const uint8_t *data, size_t size) {
    return libdeflate_crc32(crc, data, size);
}

void tg_deflate_version(char out[TG_VERSION_SIZE]) {
    snprintf(out, TG_VERSION_SIZE, "libdeflate %s", LIBDEFLATE_VERSION_STRING);
}
