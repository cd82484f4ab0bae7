#include "tg_codec_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
