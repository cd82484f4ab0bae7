#ifndef BARE_DECODE_H
#define BARE_DECODE_H

#include <stdint.h>

/* Decodes the PNG at `path` with libpng's default settings (CRC and Adler-32 checked, no
 * transformations, rows read one at a time into one buffer) and discards the pixels: the floor a
 * thumbnailer is measured against. Returns the pixel count, or -1 if the file does not decode. */
int64_t tg_bare_png_decode(const char *path);

#endif
