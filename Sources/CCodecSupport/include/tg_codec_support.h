/*
 * tg_codec_support: what the C codec modules (clibpng, clibjpeg, cliblcms) share.
 *
 * Limits are reported as data, not as text: which limit an input hit and the values involved,
 * so the Swift side words the message once for every format and the command line adds its own
 * option names. The C modules never mention a command-line flag.
 */
#ifndef TG_CODEC_SUPPORT_H
#define TG_CODEC_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Which limit an input exceeded. */
enum {
    TG_LIMIT_NONE = 0,
    TG_LIMIT_PIXELS = 1,        /* width * height above max_pixels; width, height, actual = pixels */
    TG_LIMIT_DIMENSION = 2,     /* a side above max_dimension; width, height, actual = longer side */
    TG_LIMIT_FILE_BYTES = 3,    /* more encoded bytes than max_file_bytes; actual = bytes seen so far */
    TG_LIMIT_SCANS = 4,         /* more progressive scans than max_scans; actual = scans seen */
    TG_LIMIT_MEMORY = 5         /* more bytes to hold than max_memory; actual = bytes needed */
};

typedef struct {
    int kind;                   /* TG_LIMIT_* */
    uint32_t width;             /* the image's size, when known (0 otherwise) */
    uint32_t height;
    uint64_t actual;
    uint64_t allowed;
} tg_limit_hit;

/* Copies a NUL-terminated message into dst (size bytes), truncating; NULL reads as "". */
void tg_copy_message(char *dst, size_t size, const char *src);

/* Bytes a C module hands to its caller (an encoded file, a profile): malloc'd, owned by the
 * caller once returned, released with tg_buffer_free. */
typedef struct {
    uint8_t *data;
    size_t size;
    size_t capacity;
} tg_buffer;

/* Appends length bytes, growing the storage by doubling. Returns 0, leaving the buffer as it was,
 * when the size would overflow or memory runs out. */
int tg_buffer_append(tg_buffer *buffer, const uint8_t *data, size_t length);

/* Frees the bytes and empties the buffer (NULL is ignored). */
void tg_buffer_free(tg_buffer *buffer);

/* Opens path for reading if it is a regular file, and returns the descriptor (-1 on failure, with
 * the reason in message). It is opened with O_NONBLOCK so that a FIFO cannot hang the open, checked
 * with fstat on the open descriptor (so a file swapped in after a directory walk is checked too),
 * then made blocking again. *size receives the file's size. */
int tg_open_regular_file(const char *path, char *message, size_t message_size, uint64_t *size);

/* Library versions are written into the caller's buffer (no static text that threads rewrite);
 * this size holds any of them. */
#define TG_VERSION_SIZE 96

#ifdef __cplusplus
}
#endif

#endif
