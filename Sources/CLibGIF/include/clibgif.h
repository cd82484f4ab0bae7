/*
 * clibgif: giflib behind a small C API that is safe to call from Swift.
 *
 * Policy:
 *  - A file is read through its descriptor in 64 KiB chunks (giflib's read callback), bytes in
 *    memory in place; reading stops after the first image, so nothing after it is read.
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

#ifdef __cplusplus
extern "C" {
#endif

enum {
    TG_GIF_OK = 0,
    TG_GIF_ERR_OPEN = 1,        /* the file could not be opened or read */
    TG_GIF_ERR_NOT_GIF = 2,     /* no GIF87a/GIF89a signature */
    TG_GIF_ERR_CORRUPT = 3,     /* giflib reported an error; message holds its text */
    TG_GIF_ERR_LIMIT = 4,       /* the image exceeds a limit */
    TG_GIF_ERR_MEMORY = 5,      /* an allocation failed */
    TG_GIF_ERR_TRUNCATED = 7    /* the data ends before the first image does */
};

#define TG_GIF_MESSAGE_SIZE 256

typedef struct {
    uint64_t max_pixels;        /* canvas width*height; 0 = no limit */
    uint32_t max_dimension;     /* 0 = no limit */
    uint64_t max_file_bytes;    /* bytes read; 0 = no limit */
} tg_gif_limits;

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

/* Opens a GIF and reads up to the first image's descriptor. */
int tg_gif_open_file(const char *path, const tg_gif_limits *limits, tg_gif_reader **out, tg_gif_info *info,
                     char message[TG_GIF_MESSAGE_SIZE], tg_limit_hit *limit);
/* The same over bytes in memory (not copied). */
int tg_gif_open_memory(const uint8_t *data, size_t size, const tg_gif_limits *limits, tg_gif_reader **out,
                       tg_gif_info *info, char message[TG_GIF_MESSAGE_SIZE], tg_limit_hit *limit);

/* Points a reader opened by tg_gif_open_memory at where its bytes are now, or NULL while they are
 * not lent (as tg_png_rebase_memory: a Swift array lends its storage for each call that reads). */
void tg_gif_rebase_memory(tg_gif_reader *reader, const uint8_t *data);

/* Decodes the first image onto dst (width * height * 4 bytes of RGBA), once. */
int tg_gif_read_image(tg_gif_reader *reader, uint8_t *dst);

/* Instead of tg_gif_read_image: the next row of the screen, top to bottom, into dst
 * (width * channels bytes): RGBA (channels 4), or RGB (3) when the image has no alpha. Rows
 * outside the frame are transparent. An interlaced frame's indexes are all read by the first call
 * and kept (frame_width * frame_height bytes); other frames are read a line at a time. */
int tg_gif_read_row(tg_gif_reader *reader, uint8_t *dst, int channels);

/* After tg_gif_read_row: reads the image's remaining lines, so damage there is found as
 * tg_gif_read_image would find it. */
int tg_gif_finish_rows(tg_gif_reader *reader);

const char *tg_gif_reader_message(const tg_gif_reader *reader);

void tg_gif_close(tg_gif_reader *reader);

/* "giflib 5.2.1". */
void tg_gif_version(char out[TG_VERSION_SIZE]);

#ifdef __cplusplus
}
#endif

#endif
