/*
 * clibgif: giflib behind a small C API that is safe to call from Swift.
 *
 * Policy:
 *  - Bytes come from a tg_source through giflib's read callback (a descriptor read ahead in
 *    chunks, or lent memory); reading stops after the first image, so nothing after it is read.
 *  - The first image is decoded onto the logical screen (canvas) as browsers show it: pixels the
 *    frame does not cover, and the Graphic Control Extension's transparent index, are transparent;
 *    a frame reaching past the canvas is clipped; interlaced rows are put in their places.
 *  - Pixels are straight RGBA, 8 bits per channel. Limits are checked from the screen descriptor
 *    before the canvas is allocated and come back as data (tg_limit_hit).
 */
#ifndef CLIBGIF_H
#define CLIBGIF_H

#include <stddef.h>
#include <stdint.h>

#include "tg_codec_support.h"

typedef struct {
    uint32_t width;             /* the logical screen */
    uint32_t height;
    uint32_t frame_left;        /* the first image's rectangle, clipped to the screen */
    uint32_t frame_top;
    uint32_t frame_width;
    uint32_t frame_height;
    int interlaced;
    int transparent_index;      /* -1 if none */
    int has_alpha;              /* a transparent index, or a frame that leaves part of the screen bare */
} tg_gif_info;

typedef struct tg_gif_reader tg_gif_reader;

/* Reads the source up to the first image's descriptor, under max_pixels and max_dimension (of
 * the screen). The source is one tg_source_begin accepted; the reader is left in
 * *out whatever the status, and is closed before the source is freed. */
tg_status tg_gif_open(tg_source *source, const tg_limits *limits, tg_gif_reader **out, tg_gif_info *info);

/* Decodes the first image onto dst (width * height * 4 bytes of RGBA), once. */
tg_status tg_gif_read_image(tg_gif_reader *reader, uint8_t *dst);

/* Instead of tg_gif_read_image: the next row of the screen, top to bottom, into dst
 * (width * channels bytes): RGBA (channels 4), or RGB (3) when the image has no alpha. Rows
 * outside the frame are transparent. An interlaced frame's indexes are all read by the first call
 * and kept (frame_width * frame_height bytes); other frames are read a line at a time. */
tg_status tg_gif_read_row(tg_gif_reader *reader, uint8_t *dst, int channels);

/* After tg_gif_read_row: reads the image's remaining lines, so damage there is found as
 * tg_gif_read_image would find it. */
tg_status tg_gif_finish_rows(tg_gif_reader *reader);

void tg_gif_close(tg_gif_reader *reader);

/* "giflib 5.2.1". */
void tg_gif_version(char out[TG_VERSION_SIZE]);

#endif
