/*
 * clibgif.c: the only file that calls giflib. See include/clibgif.h for the policy.
 *
 * giflib reports failures as return codes with an error number (no longjmp). Its read callback is
 * the one place bytes come in, from the tg_source, which notices the byte cap and truncation.
 */
#include "clibgif.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gif_lib.h>

struct tg_gif_reader {
    GifFileType *gif;
    tg_source *source;
    tg_gif_info summary;
    int read;
    uint8_t palette[256][4];    /* each index's RGBA as the canvas shows it */
    GifPixelType *line;         /* one line of indexes, for rows */
    uint32_t next_row;          /* the next screen row tg_gif_read_row gives */
    int lines_read;             /* lines of the image read by tg_gif_read_row */
    uint8_t *indexes;           /* an interlaced frame's indexes, frame_width x frame_height */
};

static int read_callback(GifFileType *gif, GifByteType *dst, int length) {
    struct tg_gif_reader *r = gif->UserData;
    return length > 0 ? (int)tg_source_read(r->source, dst, (size_t)length) : 0;
}

/* giflib's error as a status: running out of data is truncation, whatever giflib calls it. */
static tg_status fail(struct tg_gif_reader *r, int error) {
    tg_status status = tg_source_status(r->source);
    if (status != TG_OK) return status;
    if (error == D_GIF_ERR_NOT_ENOUGH_MEM) return tg_fail(r->source, TG_ERR_MEMORY, "out of memory");
    /* With data still to come, giflib's only other "read failed" is DGifSetupDecompress declining
     * an LZW minimum code size above 8 (GIF89a §22 allows up to 11 with 12-bit codes). */
    if (error == D_GIF_ERR_READ_FAILED)
        return tg_fail(r->source, TG_ERR_UNSUPPORTED, "LZW minimum code size above 8 bits");
    const char *text = GifErrorString(error);
    return tg_fail_lowercased(r->source, error == D_GIF_ERR_NOT_GIF_FILE ? TG_ERR_UNRECOGNISED : TG_ERR_CORRUPT,
                              text ? text : "cannot decode");
}

/* Reads records up to the first image descriptor, noting the Graphic Control Extension before it. */
tg_status tg_gif_open(tg_source *s, const tg_limits *limits, tg_gif_reader **out, tg_gif_info *info) {
    struct tg_gif_reader *r = *out = calloc(1, sizeof *r);
    if (!r) return tg_fail(s, TG_ERR_MEMORY, "out of memory");
    r->source = s;
    int error = 0;
    r->gif = DGifOpen(r, read_callback, &error);
    if (!r->gif) return fail(r, error);
    GifFileType *gif = r->gif;
    uint32_t width = (uint32_t)gif->SWidth, height = (uint32_t)gif->SHeight;
    if (width == 0 || height == 0) return tg_fail(s, TG_ERR_CORRUPT, "invalid screen size");
    tg_status status = tg_check_dimensions(s, limits, width, height);
    if (status != TG_OK) return status;
    int transparent = -1;
    for (;;) {
        GifRecordType type;
        if (DGifGetRecordType(gif, &type) == GIF_ERROR) return fail(r, gif->Error);
        if (type == IMAGE_DESC_RECORD_TYPE) break;
        if (type == TERMINATE_RECORD_TYPE) return tg_fail(s, TG_ERR_CORRUPT, "no image in the file");
        if (type != EXTENSION_RECORD_TYPE) continue;
        int code = 0;
        GifByteType *extension = NULL;
        if (DGifGetExtension(gif, &code, &extension) == GIF_ERROR) return fail(r, gif->Error);
        if (code == GRAPHICS_EXT_FUNC_CODE && extension && extension[0] >= 4) {
            GraphicsControlBlock control;
            if (DGifExtensionToGCB(extension[0], extension + 1, &control) == GIF_OK)
                transparent = control.TransparentColor;
        }
        while (extension) {
            if (DGifGetExtensionNext(gif, &extension) == GIF_ERROR) return fail(r, gif->Error);
        }
    }
    if (DGifGetImageDesc(gif) == GIF_ERROR) return fail(r, gif->Error);
    GifImageDesc *desc = &gif->Image;
    if (desc->Width <= 0 || desc->Height <= 0) return tg_fail(s, TG_ERR_CORRUPT, "invalid image size");
    /* A first image wider or taller than the logical screen replaces the screen's size and is
     * placed at (0, 0), as Firefox (nsGIFDecoder2) and Chromium (GIFImageReader) "work around
     * broken GIF files"; they do the same for every GIF87a file, which thumbgen does not. */
    uint32_t left = (uint32_t)desc->Left, top = (uint32_t)desc->Top;
    if ((uint32_t)desc->Width > width || (uint32_t)desc->Height > height) {
        width = (uint32_t)desc->Width;
        height = (uint32_t)desc->Height;
        left = top = 0;
        status = tg_check_dimensions(s, limits, width, height);
        if (status != TG_OK) return status;
    }
    /* A frame reaching past the screen is clipped to it, as browsers do. */
    uint32_t fw = left < width ? ((uint32_t)desc->Width < width - left ? (uint32_t)desc->Width : width - left) : 0;
    uint32_t fh = top < height ? ((uint32_t)desc->Height < height - top ? (uint32_t)desc->Height : height - top) : 0;
    r->summary = (tg_gif_info){width, height, left, top, fw, fh, desc->Interlace ? 1 : 0, transparent,
                               transparent >= 0 || left != 0 || top != 0 || fw != width || fh != height};
    *info = r->summary;
    return TG_OK;
}


/* Every index's RGBA: the transparent index is (0, 0, 0, 0); an index past the colour map shows as
 * black, as in browsers and Pillow. One lookup a pixel instead of two tests and a copy. */
static void fill_palette(struct tg_gif_reader *r) {
    GifFileType *gif = r->gif;
    const ColorMapObject *map = gif->Image.ColorMap ? gif->Image.ColorMap : gif->SColorMap;
    for (int i = 0; i < 256; i++) {
        uint8_t *p = r->palette[i];
        p[0] = p[1] = p[2] = 0;
        p[3] = 255;
        /* No colour table at all: GIF89a §19 leaves the table to the decoder; a gray ramp
         * (index i is gray level i), as Pillow uses. */
        if (!map) p[0] = p[1] = p[2] = (uint8_t)i;
        else if (i < map->ColorCount) {
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

tg_status tg_gif_read_image(tg_gif_reader *r, uint8_t *dst) {
    if (r->read) return tg_fail(r->source, TG_ERR_CORRUPT, "image already read");
    r->read = 1;
    GifFileType *gif = r->gif;
    const tg_gif_info *s = &r->summary;
    fill_palette(r);
    memset(dst, 0, (size_t)s->width * s->height * 4);
    int line_length = gif->Image.Width;
    GifPixelType *line = malloc((size_t)line_length);
    if (!line) return tg_fail(r->source, TG_ERR_MEMORY, "out of memory");
    /* Interlaced rows arrive in four passes: every 8th from 0, every 8th from 4, every 4th from 2,
     * every 2nd from 1 (GIF89a appendix E). */
    static const int starts[4] = {0, 4, 2, 1}, steps[4] = {8, 8, 4, 2};
    int passes = s->interlaced ? 4 : 1;
    for (int pass = 0; pass < passes; pass++) {
        int start = s->interlaced ? starts[pass] : 0, step = s->interlaced ? steps[pass] : 1;
        for (int y = start; y < gif->Image.Height; y += step) {
            if (DGifGetLine(gif, line, line_length) == GIF_ERROR) {
                tg_status status = fail(r, gif->Error);
                free(line);
                return status;
            }
            if ((uint32_t)y >= s->frame_height) continue;
            expand_line(r, line, dst + ((size_t)(s->frame_top + (uint32_t)y) * s->width + s->frame_left) * 4, 4);
        }
    }
    free(line);
    return TG_OK;
}

/* An interlaced frame's lines, all four passes, into r->indexes (clipped to the screen). */
static tg_status read_interlaced(struct tg_gif_reader *r) {
    GifFileType *gif = r->gif;
    const tg_gif_info *s = &r->summary;
    r->indexes = malloc((size_t)s->frame_width * s->frame_height + 1);
    if (!r->indexes) return tg_fail(r->source, TG_ERR_MEMORY, "out of memory");
    static const int starts[4] = {0, 4, 2, 1}, steps[4] = {8, 8, 4, 2};
    for (int pass = 0; pass < 4; pass++) {
        for (int y = starts[pass]; y < gif->Image.Height; y += steps[pass]) {
            if (DGifGetLine(gif, r->line, gif->Image.Width) == GIF_ERROR) return fail(r, gif->Error);
            r->lines_read++;
            if ((uint32_t)y < s->frame_height)
                memcpy(r->indexes + (size_t)y * s->frame_width, r->line, s->frame_width);
        }
    }
    return TG_OK;
}

tg_status tg_gif_read_row(tg_gif_reader *r, uint8_t *dst, int channels) {
    const tg_gif_info *s = &r->summary;
    GifFileType *gif = r->gif;
    if ((r->read && !r->line) || r->next_row >= s->height || (channels != 3 && channels != 4)
        || (channels == 3 && s->has_alpha))
        return tg_fail(r->source, TG_ERR_CORRUPT, "no such row");
    if (!r->read) {
        r->read = 1;
        fill_palette(r);
        r->line = malloc((size_t)gif->Image.Width);
        if (!r->line) return tg_fail(r->source, TG_ERR_MEMORY, "out of memory");
        /* Interlaced rows are final only after the last pass: the indexes are kept (a byte a
         * pixel, a quarter of the RGBA image) and rows made from them. */
        if (s->interlaced) {
            tg_status status = read_interlaced(r);
            if (status != TG_OK) return status;
        }
    }
    uint32_t y = r->next_row++;
    size_t length = (size_t)s->width * (size_t)channels;
    if (y < s->frame_top || y >= s->frame_top + s->frame_height) {
        memset(dst, 0, length);   /* outside the frame: transparent (has_alpha, so RGBA) */
        return TG_OK;
    }
    const GifPixelType *line = r->line;
    if (s->interlaced) {
        line = r->indexes + (size_t)(y - s->frame_top) * s->frame_width;
    } else {
        if (DGifGetLine(gif, r->line, gif->Image.Width) == GIF_ERROR) return fail(r, gif->Error);
        r->lines_read++;
    }
    if (s->frame_width != s->width) memset(dst, 0, length);
    expand_line(r, line, dst + (size_t)s->frame_left * (size_t)channels, channels);
    return TG_OK;
}

tg_status tg_gif_finish_rows(tg_gif_reader *r) {
    GifFileType *gif = r->gif;
    if (!r->line) return TG_OK;
    /* The lines tg_gif_read_row did not need, clipped ones included, as tg_gif_read_image reads them. */
    while (r->lines_read < gif->Image.Height) {
        if (DGifGetLine(gif, r->line, gif->Image.Width) == GIF_ERROR) return fail(r, gif->Error);
        r->lines_read++;
    }
    return TG_OK;
}

void tg_gif_close(tg_gif_reader *r) {
    if (!r) return;
    if (r->gif) {
        int error = 0;
        DGifCloseFile(r->gif, &error);
    }
    free(r->line);
    free(r->indexes);
    free(r);
}

void tg_gif_version(char out[TG_VERSION_SIZE]) {
    snprintf(out, TG_VERSION_SIZE, "giflib %d.%d.%d", GIFLIB_MAJOR, GIFLIB_MINOR, GIFLIB_RELEASE);
}
