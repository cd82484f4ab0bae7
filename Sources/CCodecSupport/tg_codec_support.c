#include "tg_codec_support.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct tg_source {
    int fd;                     /* the caller's descriptor, or -1 for bytes in memory */
    const uint8_t *memory;      /* the lent bytes, or NULL while not lent */
    uint64_t size;              /* of the file when the source was made, or of the bytes */
    uint64_t position;          /* the offset of the next byte handed out */
    uint64_t max_bytes;         /* the byte cap; 0 = none */
    int ran_out;                /* a read found fewer bytes than asked for */
    int over_limit;             /* a read would have passed the cap */
    int read_errno;             /* a read of the descriptor failed with this errno (0: none) */
    int unlent;                 /* memory was read while not lent: a caller's mistake */
    uint8_t *chunk;             /* read ahead of the position (sequential reading of a
                                 * descriptor), or the chunk tg_source_read_chunk handed out */
    size_t chunk_start;         /* the part of chunk not handed out yet */
    size_t chunk_end;
    char message[TG_MESSAGE_SIZE];
    tg_limit_hit limit;
};

static tg_source *new_source(int fd, uint64_t size) {
    tg_source *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->fd = fd;
    s->size = size;
    return s;
}

tg_source *tg_source_new_descriptor(int fd, uint64_t size) { return new_source(fd, size); }

tg_source *tg_source_new_memory(uint64_t size) { return new_source(-1, size); }

void tg_source_lend(tg_source *s, const uint8_t *data) { s->memory = data; }

void tg_source_free(tg_source *s) {
    if (!s) return;
    free(s->chunk);
    free(s);
}

uint64_t tg_source_size(const tg_source *s) { return s->size; }

uint64_t tg_source_position(const tg_source *s) { return s->position; }

const uint8_t *tg_source_memory(const tg_source *s) { return s->fd >= 0 ? NULL : s->memory; }

tg_status tg_source_begin(tg_source *s, const tg_limits *limits) {
    s->max_bytes = limits->max_file_bytes;
    if (s->size == 0) return tg_fail(s, TG_ERR_EMPTY, "file is empty");
    if (s->max_bytes != 0 && s->size > s->max_bytes)
        return tg_fail_limit(s, (tg_limit_hit){TG_LIMIT_FILE_BYTES, 0, 0, s->size, s->max_bytes});
    return TG_OK;
}

/* pread until `length` bytes are read or the file ends; -1 (errno set) when a read fails. */
static ssize_t pread_fully(int fd, uint8_t *dst, size_t length, uint64_t offset) {
    size_t done = 0;
    while (done < length) {
        ssize_t got = pread(fd, dst + done, length - done, (off_t)(offset + done));
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) return -1;
        if (got == 0) break;
        done += (size_t)got;
    }
    return (ssize_t)done;
}

/* Up to `length` lent bytes at `offset`, into dst; the position is the caller's to move. */
static size_t copy_memory(tg_source *s, uint8_t *dst, size_t length, uint64_t offset) {
    if (!s->memory) {
        s->unlent = 1;
        return 0;
    }
    size_t got = offset < s->size ? (s->size - offset < length ? (size_t)(s->size - offset) : length) : 0;
    if (got > 0) memcpy(dst, s->memory + offset, got);
    return got;
}

/* Reads the descriptor at `offset` into dst, noting a failed read; returns the bytes read. */
static size_t read_descriptor(tg_source *s, uint8_t *dst, size_t length, uint64_t offset) {
    ssize_t got = pread_fully(s->fd, dst, length, offset);
    if (got < 0) {
        s->read_errno = errno;
        return 0;
    }
    return (size_t)got;
}

static int has_chunk(tg_source *s) {
    if (!s->chunk) s->chunk = malloc(TG_SOURCE_CHUNK);
    if (!s->chunk) s->read_errno = ENOMEM;
    return s->chunk != NULL;
}

size_t tg_source_head(tg_source *s, void *dst, size_t length) {
    return s->fd >= 0 ? read_descriptor(s, dst, length, 0) : copy_memory(s, dst, length, 0);
}

/* The next bytes of a descriptor from the read-ahead chunk, refilled from the file as it empties. */
static size_t read_ahead(tg_source *s, uint8_t *dst, size_t length) {
    size_t done = 0;
    while (done < length) {
        if (s->chunk_start == s->chunk_end) {
            if (!has_chunk(s)) break;
            size_t got = read_descriptor(s, s->chunk, TG_SOURCE_CHUNK, s->position + done);
            if (got == 0) break;
            s->chunk_start = 0;
            s->chunk_end = got;
        }
        size_t take = s->chunk_end - s->chunk_start;
        if (take > length - done) take = length - done;
        memcpy(dst + done, s->chunk + s->chunk_start, take);
        s->chunk_start += take;
        done += take;
    }
    return done;
}

size_t tg_source_read(tg_source *s, void *dst, size_t length) {
    if (length == 0) return 0;
    if (s->max_bytes != 0 && (s->position > s->max_bytes || length > s->max_bytes - s->position)) {
        s->over_limit = 1;
        s->limit = (tg_limit_hit){TG_LIMIT_FILE_BYTES, 0, 0, s->position + length, s->max_bytes};
        return 0;
    }
    size_t done = s->fd >= 0 ? read_ahead(s, dst, length) : copy_memory(s, dst, length, s->position);
    s->position += done;
    if (done < length) s->ran_out = 1;
    return done;
}

size_t tg_source_read_chunk(tg_source *s, const uint8_t **data) {
    *data = NULL;
    if (!has_chunk(s)) return 0;
    size_t got = s->fd >= 0 ? read_descriptor(s, s->chunk, TG_SOURCE_CHUNK, s->position)
                            : copy_memory(s, s->chunk, TG_SOURCE_CHUNK, s->position);
    s->chunk_start = s->chunk_end = 0;
    s->position += got;
    if (s->max_bytes != 0 && s->position > s->max_bytes) {
        s->over_limit = 1;
        s->limit = (tg_limit_hit){TG_LIMIT_FILE_BYTES, 0, 0, s->position, s->max_bytes};
        return 0;
    }
    *data = s->chunk;
    return got;
}

size_t tg_source_read_direct(tg_source *s, void *dst, size_t length) {
    s->chunk_start = s->chunk_end = 0;
    size_t want = s->position < s->size ? (s->size - s->position < length ? (size_t)(s->size - s->position) : length) : 0;
    size_t done = s->fd >= 0 ? read_descriptor(s, dst, want, s->position) : copy_memory(s, dst, want, s->position);
    s->position += done;
    if (done < length) s->ran_out = 1;
    return done;
}

void tg_source_seek(tg_source *s, uint64_t position) {
    s->chunk_start = s->chunk_end = 0;
    s->position = position;
}

void tg_source_mark_here(const tg_source *s, tg_source_mark *mark) {
    mark->position = s->position;
    mark->ran_out = s->ran_out;
    mark->over_limit = s->over_limit;
    mark->read_errno = s->read_errno;
    mark->limit = s->limit;
    memcpy(mark->message, s->message, sizeof mark->message);
}

void tg_source_return(tg_source *s, const tg_source_mark *mark) {
    tg_source_seek(s, mark->position);
    s->ran_out = mark->ran_out;
    s->over_limit = mark->over_limit;
    s->read_errno = mark->read_errno;
    s->limit = mark->limit;
    memcpy(s->message, mark->message, sizeof s->message);
}

tg_status tg_source_status(tg_source *s) {
    if (s->over_limit) return tg_fail_limit(s, s->limit);
    if (s->read_errno) {
        char text[TG_MESSAGE_SIZE];
        snprintf(text, sizeof text, "read error: %s", strerror(s->read_errno));
        return tg_fail(s, TG_ERR_UNREADABLE, text);
    }
    if (s->unlent) return tg_fail(s, TG_ERR_FAILED, "internal error: bytes read while not lent");
    if (s->ran_out) return tg_fail(s, TG_ERR_TRUNCATED, "file is truncated");
    return TG_OK;
}

tg_status tg_fail(tg_source *s, tg_status status, const char *message) {
    tg_copy_message(s->message, sizeof s->message, message);
    return status;
}

tg_status tg_fail_lowercased(tg_source *s, tg_status status, const char *message) {
    tg_fail(s, status, message);
    char *m = s->message;
    if (m[0] >= 'A' && m[0] <= 'Z' && !(m[1] >= 'A' && m[1] <= 'Z')) m[0] = (char)(m[0] - 'A' + 'a');
    return status;
}

tg_status tg_fail_limit(tg_source *s, tg_limit_hit hit) {
    static const char *const names[] = {"", "image is above the pixel limit", "image is above the size limit",
                                        "file is larger than the byte limit", "too many progressive scans",
                                        "file is larger than the memory limit"};
    s->limit = hit;
    return tg_fail(s, TG_ERR_LIMIT, hit.kind >= 0 && hit.kind <= TG_LIMIT_MEMORY ? names[hit.kind] : "limit exceeded");
}

const char *tg_source_message(const tg_source *s) { return s->message; }

tg_limit_hit tg_source_limit(const tg_source *s) { return s->limit; }

tg_status tg_check_dimensions(tg_source *s, const tg_limits *limits, uint32_t width, uint32_t height) {
    uint64_t pixels = (uint64_t)width * height;
    if (limits->max_pixels != 0 && pixels > limits->max_pixels)
        return tg_fail_limit(s, (tg_limit_hit){TG_LIMIT_PIXELS, width, height, pixels, limits->max_pixels});
    if (limits->max_dimension != 0 && (width > limits->max_dimension || height > limits->max_dimension))
        return tg_fail_limit(s, (tg_limit_hit){TG_LIMIT_DIMENSION, width, height, width > height ? width : height,
                                               limits->max_dimension});
    return TG_OK;
}

void tg_copy_message(char *dst, size_t size, const char *src) {
    if (size == 0) return;
    snprintf(dst, size, "%s", src ? src : "");
}

int tg_buffer_append(tg_buffer *b, const uint8_t *data, size_t length) {
    if (length > SIZE_MAX - b->size) return 0;
    if (b->size + length > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 4096;
        while (capacity < b->size + length) {
            if (capacity > SIZE_MAX / 2) return 0;
            capacity *= 2;
        }
        uint8_t *grown = realloc(b->data, capacity);
        if (!grown) return 0;
        b->data = grown;
        b->capacity = capacity;
    }
    if (length > 0) memcpy(b->data + b->size, data, length);
    b->size += length;
    return 1;
}

void tg_buffer_free(tg_buffer *b) {
    if (!b) return;
    free(b->data);
    b->data = NULL;
    b->size = 0;
    b->capacity = 0;
}
