#include "tg_codec_support.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

int tg_open_regular_file(const char *path, char *message, size_t message_size, uint64_t *size) {
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        tg_copy_message(message, message_size, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        tg_copy_message(message, message_size, strerror(errno));
        close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        tg_copy_message(message, message_size, S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file");
        close(fd);
        return -1;
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0) fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    *size = (uint64_t)st.st_size;
    return fd;
}
