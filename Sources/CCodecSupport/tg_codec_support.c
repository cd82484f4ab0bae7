#include "tg_codec_support.h"

#include <stdio.h>

void tg_copy_message(char *dst, size_t size, const char *src) {
    if (size == 0) return;
    snprintf(dst, size, "%s", src ? src : "");
}
