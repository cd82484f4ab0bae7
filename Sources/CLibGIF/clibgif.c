/*
 * clibgif.c: the only file that calls giflib. See include/clibgif.h for the policy.
 *
 * giflib reports failures as return codes with an error number (no longjmp). Its read callback is
 * the one place bytes come in, so limits on bytes read and truncation are noticed there.
 */
#include "clibgif.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gif_lib.h>

#define TG_GIF_CHUNK 65536

struct tg_gif_reader {
    GifFileType *gif;
    int fd;                     /* the file, or -1 for memory */
    const uint8_t *memory;      /* lent bytes, or NULL while not lent */
    size_t memory_size;
    size_t position;            /* bytes handed to giflib so far */
    uint64_t max_bytes;
    int ran_out;                /* a read found fewer bytes than giflib asked for */
    int over_limit;
    uint8_t *buffer;            /* read-ahead for a file */
    size_t buffer_start, buffer_end;
    tg_gif_info summary;
    int read;
    uint8_t palette[256][4];    /* each index's RGBA as the canvas shows it */
    GifPixelType *line;         /* one line of indexes, for rows */
    uint32_t next_row;          /* the next screen row tg_gif_read_row gives */
    int lines_read;             /* lines of the image read by tg_gif_read_row */
    uint8_t *indexes;           /* an interlaced frame's indexes, frame_width x frame_height */
    char message[TG_GIF_MESSAGE_SIZE];
};

static void copy_message(char *dst, const char *src) {
    tg_copy_message(dst, TG_GIF_MESSAGE_SIZE, src);
}

static size_t read_memory(struct tg_gif_reader *r, GifByteType *dst, size_t length) {
    if (!r->memory || r->position >= r->memory_size) return 0;
    size_t left = r->memory_size - r->position, got = length < left ? length : left;
    memcpy(dst, r->memory + r->position, got);
    return got;
}

static size_t read_file(struct tg_gif_reader *r, GifByteType *dst, size_t length) {
    size_t done = 0;
    while (done < length) {
        if (r->buffer_start == r->buffer_end) {
            ssize_t got;
            do got = read(r->fd, r->buffer, TG_GIF_CHUNK); while (got < 0 && errno == EINTR);
            if (got <= 0) break;
            r->buffer_start = 0;
            r->buffer_end = (size_t)got;
        }
        size_t take = r->buffer_end - r->buffer_start;
        if (take > length - done) take = length - done;
        memcpy(dst + done, r->buffer + r->buffer_start, take);
        r->buffer_start += take;
        done += take;
    }
    return done;
}

static int read_callback(GifFileType *gif, GifByteType *dst, int length) {
    struct tg_gif_reader *r = gif->UserData;
    if (length <= 0) return 0;
    if (r->max_bytes != 0 && r->position + (size_t)length > r->max_bytes) {
        r->over_limit = 1;
        return 0;
    }
    size_t got = r->fd >= 0 ? read_file(r, dst, (size_t)length) : read_memory(r, dst, (size_t)length);
    r->position += got;
    if (got < (size_t)length) r->ran_out = 1;
    return (int)got;
}

/* giflib's error as a status: running out of data is truncation, whatever giflib calls it. */
static int fail(struct tg_gif_reader *r, int error, tg_limit_hit *limit) {
    if (r->over_limit) {
        if (limit) *limit = (tg_limit_hit){TG_LIMIT_FILE_BYTES, 0, 0, r->position + 1, r->max_bytes};
        copy_message(r->message, "file is larger than the byte limit");
        return TG_GIF_ERR_LIMIT;
    }
    if (r->ran_out) {
        copy_message(r->message, "file is truncated");
        return TG_GIF_ERR_TRUNCATED;
    }
    if (error == D_GIF_ERR_NOT_ENOUGH_MEM) {
        copy_message(r->message, "out of memory");
        return TG_GIF_ERR_MEMORY;
    }
    const char *text = GifErrorString(error);
    copy_message(r->message, text ? text : "cannot decode");
    return error == D_GIF_ERR_NOT_GIF_FILE ? TG_GIF_ERR_NOT_GIF : TG_GIF_ERR_CORRUPT;
}

/* Checks the size of the file or bytes, then reads records up to the first image descriptor,
 * noting the Graphic Control Extension before it. */
static int open_common(struct tg_gif_reader *r, uint64_t size, const tg_gif_limits *limits, tg_gif_info *info,
                       tg_limit_hit *limit) {
    if (size == 0) {
        copy_message(r->message, "file is empty");
        return TG_GIF_ERR_NOT_GIF;
    }
    if (limits->max_file_bytes != 0 && size > limits->max_file_bytes) {
        *limit = (tg_limit_hit){TG_LIMIT_FILE_BYTES, 0, 0, size, limits->max_file_bytes};
        copy_message(r->message, "file is larger than the byte limit");
        return TG_GIF_ERR_LIMIT;
    }
    int error = 0;
    r->max_bytes = limits->max_file_bytes;
    r->gif = DGifOpen(r, read_callback, &error);
    if (!r->gif) return fail(r, error, limit);
    GifFileType *gif = r->gif;
    uint32_t width = (uint32_t)gif->SWidth, height = (uint32_t)gif->SHeight;
    uint64_t pixels = (uint64_t)width * height;
    if (width == 0 || height == 0) {
        copy_message(r->message, "invalid screen size");
        return TG_GIF_ERR_CORRUPT;
    }
    if (limits->max_pixels != 0 && pixels > limits->max_pixels) {
        *limit = (tg_limit_hit){TG_LIMIT_PIXELS, width, height, pixels, limits->max_pixels};
        copy_message(r->message, "image is above the pixel limit");
        return TG_GIF_ERR_LIMIT;
    }
    if (limits->max_dimension != 0 && (width > limits->max_dimension || height > limits->max_dimension)) {
        *limit = (tg_limit_hit){TG_LIMIT_DIMENSION, width, height, width > height ? width : height, limits->max_dimension};
        copy_message(r->message, "image is above the size limit");
        return TG_GIF_ERR_LIMIT;
    }
    int transparent = -1;
    for (;;) {
        GifRecordType type;
        if (DGifGetRecordType(gif, &type) == GIF_ERROR) return fail(r, gif->Error, limit);
        if (type == IMAGE_DESC_RECORD_TYPE) break;
        if (type == TERMINATE_RECORD_TYPE) {
            copy_message(r->message, "no image in the file");
            return TG_GIF_ERR_CORRUPT;
        }
        if (type != EXTENSION_RECORD_TYPE) continue;
        int code = 0;
        GifByteType *extension = NULL;
        if (DGifGetExtension(gif, &code, &extension) == GIF_ERROR) return fail(r, gif->Error, limit);
        if (code == GRAPHICS_EXT_FUNC_CODE && extension && extension[0] >= 4) {
            GraphicsControlBlock control;
            if (DGifExtensionToGCB(extension[0], extension + 1, &control) == GIF_OK)
                transparent = control.TransparentColor;
        }
        while (extension) {
            if (DGifGetExtensionNext(gif, &extension) == GIF_ERROR) return fail(r, gif->Error, limit);
        }
    }
    if (DGifGetImageDesc(gif) == GIF_ERROR) return fail(r, gif->Error, limit);
    GifImageDesc *desc = &gif->Image;
    if (desc->Width <= 0 || desc->Height <= 0) {
        copy_message(r->message, "invalid image size");
        return TG_GIF_ERR_CORRUPT;
    }
    if (!desc->ColorMap && !gif->SColorMap) {
        copy_message(r->message, "no colour map");
        return TG_GIF_ERR_CORRUPT;
    }
    /* A frame reaching past the screen is clipped to it, as browsers do. */
    uint32_t left = (uint32_t)desc->Left, top = (uint32_t)desc->Top;
    uint32_t fw = left < width ? ((uint32_t)desc->Width < width - left ? (uint32_t)desc->Width : width - left) : 0;
    uint32_t fh = top < height ? ((uint32_t)desc->Height < height - top ? (uint32_t)desc->Height : height - top) : 0;
    r->summary = (tg_gif_info){width, height, left, top, fw, fh, desc->Interlace ? 1 : 0, transparent,
                               transparent >= 0 || left != 0 || top != 0 || fw != width || fh != height};
    *info = r->summary;
    return TG_GIF_OK;
}

static int finish_open(struct tg_gif_reader *r, int status, tg_gif_reader **out, char message[TG_GIF_MESSAGE_SIZE]) {
    if (status != TG_GIF_OK) {
        copy_message(message, r->message);
        tg_gif_close(r);
        return status;
    }
    *out = r;
    return TG_GIF_OK;
}

int tg_gif_open_file(const char *path, const tg_gif_limits *limits, tg_gif_reader **out, tg_gif_info *info,
                     char message[TG_GIF_MESSAGE_SIZE], tg_limit_hit *limit) {
    *out = NULL;
    *limit = (tg_limit_hit){0};
    uint64_t size = 0;
    int fd = tg_open_regular_file(path, message, TG_GIF_MESSAGE_SIZE, &size);
    if (fd < 0) return TG_GIF_ERR_OPEN;
    struct tg_gif_reader *r = calloc(1, sizeof *r);
    uint8_t *buffer = malloc(TG_GIF_CHUNK);
    if (!r || !buffer) {
        free(r);
        free(buffer);
        close(fd);
        copy_message(message, "out of memory");
        return TG_GIF_ERR_MEMORY;
    }
    r->fd = fd;
    r->buffer = buffer;
    return finish_open(r, open_common(r, size, limits, info, limit), out, message);
}

int tg_gif_open_memory(const uint8_t *data, size_t size, const tg_gif_limits *limits, tg_gif_reader **out,
                       tg_gif_info *info, char message[TG_GIF_MESSAGE_SIZE], tg_limit_hit *limit) {
    *out = NULL;
    *limit = (tg_limit_hit){0};
    struct tg_gif_reader *r = calloc(1, sizeof *r);
    if (!r) {
        copy_message(message, "out of memory");
        return TG_GIF_ERR_MEMORY;
    }
    r->fd = -1;
    r->memory = data;
    r->memory_size = size;
    return finish_open(r, open_common(r, size, limits, info, limit), out, message);
}

void tg_gif_rebase_memory(tg_gif_reader *r, const uint8_t *data) { r->memory = data; }

/* Every index's RGBA: the transparent index is (0, 0, 0, 0); an index past the colour map shows as
 * black, as in browsers and Pillow. One lookup a pixel instead of two tests and a copy. */
static void fill_palette(struct tg_gif_reader *r) {
    GifFileType *gif = r->gif;
    const ColorMapObject *map = gif->Image.ColorMap ? gif->Image.ColorMap : gif->SColorMap;
    for (int i = 0; i < 256; i++) {
        uint8_t *p = r->palette[i];
        p[0] = p[1] = p[2] = 0;
        p[3] = 255;
        if (i < map->ColorCount) {
            p[0] = map->Colors[i].Red;
            p[1] = map->Colors[i].Green;
            p[2] = map->Colors[i].Blue;
        }
        if (i == r->summary.transparent_index) memset(p, 0, 4);
    }
}

/* One line of indexes as RGBA (channels 4) or RGB (3) pixels. */
static void expand_line(const struct tg_gif_reader *r, const GifPixelType *line, uint8_t *dst, int channels) {
    uint32_t width = r->summary.frame_width;
    if (channels == 4) {
        for (uint32_t x = 0; x < width; x++) memcpy(dst + (size_t)x * 4, r->palette[line[x]], 4);
    } else {
        for (uint32_t x = 0; x < width; x++) {
            const uint8_t *p = r->palette[line[x]];
            dst[3 * x] = p[0];
            dst[3 * x + 1] = p[1];
            dst[3 * x + 2] = p[2];
        }
    }
}

int tg_gif_read_image(tg_gif_reader *r, uint8_t *dst) {
    if (r->read) {
        copy_message(r->message, "image already read");
        return TG_GIF_ERR_CORRUPT;
    }
    r->read = 1;
    GifFileType *gif = r->gif;
    const tg_gif_info *s = &r->summary;
    fill_palette(r);
    memset(dst, 0, (size_t)s->width * s->height * 4);
    int line_length = gif->Image.Width;
    GifPixelType *line = malloc((size_t)line_length);
    if (!line) {
        copy_message(r->message, "out of memory");
        return TG_GIF_ERR_MEMORY;
    }
    /* Interlaced rows arrive in four passes: every 8th from 0, every 8th from 4, every 4th from 2,
     * every 2nd from 1 (GIF89a appendix E). */
    static const int starts[4] = {0, 4, 2, 1}, steps[4] = {8, 8, 4, 2};
    int passes = s->interlaced ? 4 : 1;
    for (int pass = 0; pass < passes; pass++) {
        int start = s->interlaced ? starts[pass] : 0, step = s->interlaced ? steps[pass] : 1;
        for (int y = start; y < gif->Image.Height; y += step) {
            if (DGifGetLine(gif, line, line_length) == GIF_ERROR) {
                int status = fail(r, gif->Error, NULL);
                free(line);
                return status;
            }
            if ((uint32_t)y >= s->frame_height) continue;
            expand_line(r, line, dst + ((size_t)(s->frame_top + (uint32_t)y) * s->width + s->frame_left) * 4, 4);
        }
    }
    free(line);
    return TG_GIF_OK;
}

/* An interlaced frame's lines, all four passes, into r->indexes (clipped to the screen). */
static int read_interlaced(struct tg_gif_reader *r) {
    GifFileType *gif = r->gif;
    const tg_gif_info *s = &r->summary;
    r->indexes = malloc((size_t)s->frame_width * s->frame_height + 1);
    if (!r->indexes) {
        copy_message(r->message, "out of memory");
        return TG_GIF_ERR_MEMORY;
    }
    static const int starts[4] = {0, 4, 2, 1}, steps[4] = {8, 8, 4, 2};
    for (int pass = 0; pass < 4; pass++) {
        for (int y = starts[pass]; y < gif->Image.Height; y += steps[pass]) {
            if (DGifGetLine(gif, r->line, gif->Image.Width) == GIF_ERROR) return fail(r, gif->Error, NULL);
            r->lines_read++;
            if ((uint32_t)y < s->frame_height)
                memcpy(r->indexes + (size_t)y * s->frame_width, r->line, s->frame_width);
        }
    }
    return TG_GIF_OK;
}

int tg_gif_read_row(tg_gif_reader *r, uint8_t *dst, int channels) {
    const tg_gif_info *s = &r->summary;
    GifFileType *gif = r->gif;
    if ((r->read && !r->line) || r->next_row >= s->height || (channels != 3 && channels != 4)
        || (channels == 3 && s->has_alpha)) {
        copy_message(r->message, "no such row");
        return TG_GIF_ERR_CORRUPT;
    }
    if (!r->read) {
        r->read = 1;
        fill_palette(r);
        r->line = malloc((size_t)gif->Image.Width);
        if (!r->line) {
            copy_message(r->message, "out of memory");
            return TG_GIF_ERR_MEMORY;
        }
        /* Interlaced rows are final only after the last pass: the indexes are kept (a byte a
         * pixel, a quarter of the RGBA image) and rows made from them. */
        if (s->interlaced) {
            int status = read_interlaced(r);
            if (status != TG_GIF_OK) return status;
        }
    }
    uint32_t y = r->next_row++;
    size_t length = (size_t)s->width * (size_t)channels;
    if (y < s->frame_top || y >= s->frame_top + s->frame_height) {
        memset(dst, 0, length);   /* outside the frame: transparent (has_alpha, so RGBA) */
        return TG_GIF_OK;
    }
    const GifPixelType *line = r->line;
    if (s->interlaced) {
        line = r->indexes + (size_t)(y - s->frame_top) * s->frame_width;
    } else {
        if (DGifGetLine(gif, r->line, gif->Image.Width) == GIF_ERROR) return fail(r, gif->Error, NULL);
        r->lines_read++;
    }
    if (s->frame_width != s->width) memset(dst, 0, length);
    expand_line(r, line, dst + (size_t)s->frame_left * (size_t)channels, channels);
    return TG_GIF_OK;
}

int tg_gif_finish_rows(tg_gif_reader *r) {
    GifFileType *gif = r->gif;
    if (!r->line) return TG_GIF_OK;
    /* The lines tg_gif_read_row did not need, clipped ones included, as tg_gif_read_image reads them. */
    while (r->lines_read < gif->Image.Height) {
        if (DGifGetLine(gif, r->line, gif->Image.Width) == GIF_ERROR) return fail(r, gif->Error, NULL);
        r->lines_read++;
    }
    return TG_GIF_OK;
}

const char *tg_gif_reader_message(const tg_gif_reader *r) { return r->message; }

void tg_gif_close(tg_gif_reader *r) {
    if (!r) return;
    if (r->gif) {
        int error = 0;
        DGifCloseFile(r->gif, &error);
    }
    if (r->fd >= 0) close(r->fd);
    free(r->buffer);
    free(r->line);
    free(r->indexes);
    free(r);
}

void tg_gif_version(char out[TG_VERSION_SIZE]) {
    snprintf(out, TG_VERSION_SIZE, "giflib %d.%d.%d", GIFLIB_MAJOR, GIFLIB_MINOR, GIFLIB_RELEASE);
}
