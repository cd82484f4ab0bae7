/*
 * clibpng.c: the only file that calls libpng. See include/clibpng.h for the policy.
 *
 * Each exported function that calls into libpng sets its own setjmp() point before the first call
 * that can fail; the error callback copies libpng's message and longjmps back there. State that
 * must survive the jump lives in heap structs (never in locals modified after setjmp), which is
 * what the C standard requires for values read after a longjmp.
 */
#include "clibpng.h"

#include <png.h>
#include <png_unfilter.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libdeflate.h>
#include <zlib.h>

/* The image data of every layout but interlaced images and gray or RGB with tRNS (8-bit gray,
 * gray+alpha, RGB, RGBA, 16-bit RGB, RGBA, and palette images at every depth) is read here rather
 * than by libpng: libpng's portable row unfiltering (Paeth a byte at a time) took about a quarter
 * of the time of thumbnailing a PNG photo, and the SSE2 kernels in CThumbKernels do it in a
 * fraction of that. Everything else, headers and metadata first of all, stays with libpng.
 *
 * What this reads from the first IDAT's data on is libpng 1.6's sequential reader ported step for
 * step (png_read_IDAT_data, png_read_finish_IDAT, and png_read_end without an info struct): the
 * same zlib calls on the same pieces of input (8192 bytes of IDAT data at a time, Adler-32 not
 * checked, the window-size check libpng adds), the same CRC checks, and the same messages, so a
 * damaged file fails at the same row with the same words as before. PNGImageDataTests hold the two
 * readers to that against the libpng installed (tg_png_open's rows_by_libpng). The one shortcut is
 * a small image's stream that libdeflate inflates to exactly its rows (own_inflate_whole_by_libdeflate),
 * which zlib, as libpng drives it, inflates to the same bytes. The chunks' CRC-32 is libdeflate's
 * (the same function, computed with carry-less multiplication: on PNG photos, zlib's crc32 took
 * 1.2% of the run). */
#define IDAT_READ_SIZE 8192     /* libpng's PNG_IDAT_READ_SIZE: IDAT data inflated a piece at a time */
#define INFLATE_SCRAP_SIZE 1024 /* libpng's PNG_INFLATE_BUF_SIZE: output thrown away after the last row */
/* An image whose filtered rows take at most this many bytes is inflated whole, in one call to
 * own_inflate_data, instead of a row at a time: zlib's fast loop (inflate_fast) only runs while
 * 258 bytes of output space are left, so the rows of small icons (16-64 pixels, under 258 bytes)
 * were each inflated by its byte-at-a-time state machine; inflating was 14% of thumbnailing the
 * bench's 406 icons (libdeflate, tried first, took a third of zlib's time). The same zlib calls
 * on the same pieces of input give the same bytes, and a stream whose declared window covers the
 * rows (own_window_covers_rows) and inflates whole without a failure inflates row by row without
 * one. A failure is reported at libpng's row, which can differ (zlib decodes on past a full row's
 * end), so a trial that fails is forgotten and the image read again row by row (own_retry_by_rows). */
#define OWN_WHOLE_BYTES ((size_t)1 << 20)

struct own_image_data {
    z_stream z;
    int z_ready;                /* inflateInit2 succeeded: inflateEnd on close */
    int window_checked;         /* the zlib header's window size was checked (libpng's zstream_start) */
    int ended;                  /* the deflate stream ended (or was given up after the last row) */
    uint8_t chunk_name[4];      /* the chunk being read, for messages */
    uint32_t chunk_left;        /* its data bytes not yet read */
    uint32_t crc;               /* CRC-32 of its type and the data read so far */
    uint8_t *input;             /* IDAT_READ_SIZE bytes */
    uint8_t *row;               /* the filter byte, then the row: stored_row_bytes + 1 */
    uint8_t *above;             /* the previous row, unfiltered, same layout (zeros before the first) */
    size_t whole_bytes;         /* the filtered rows' bytes when the image is tried whole, else 0 */
    uint8_t *whole;             /* those rows, inflated whole (NULL: read row by row) */
    int whole_by_libdeflate;    /* libdeflate inflated them (own_inflate_whole_by_libdeflate) */
    tg_source_mark start;       /* the source at the first IDAT's data, to read again from */
    uint32_t first_length;      /* the first IDAT's length */
    size_t stored_row_bytes;    /* bytes of a row as stored */
    size_t pixel_bytes;         /* bytes of a pixel as stored, the filters' look-back */
    int expand_gray;            /* gray (1) or gray+alpha (2) samples spread to RGB(A) */
    int palette_depth;          /* a palette image's bits per index (1, 2, 4 or 8), else 0 */
    int palette_channels;       /* 3 (RGB) or 4 (RGBA: the image has tRNS) bytes per pixel handed out */
    uint8_t colours[256 * 4];   /* each index's RGB(A), as libpng's expansion gives it */
    int swap;                   /* 16-bit samples, big-endian in the file, handed out in native order */
};

struct tg_png_reader {
    png_structp png;
    png_infop info;
    tg_source *source;
    tg_status failure;          /* set before png_error by the callbacks, when more precise than
                                 * libpng's own error; then every later call returns it */
    int saw_first_chunk;        /* the chunk after the signature was read (and was IHDR) */
    uint32_t rows_read;
    int finished;
    tg_png_info summary;
    uint64_t max_xmp_bytes;     /* largest XMP packet kept (inflated size) */
    int saw_xmp;                /* a text chunk with the XMP keyword was seen: later ones are ignored */
    tg_buffer xmp;              /* its packet, empty when it was larger than max_xmp_bytes or damaged */
    uint8_t last_read[8];       /* the bytes of the last 8-byte read: after png_read_info, the first
                                 * IDAT's length and type */
    int last_read_was_8;
    int own;                    /* the image data is read by this file (own_image_data) */
    struct own_image_data data;
};

/* ---- reading ---- */

/* Records a failure (text NULL: one the source has recorded) unless one is recorded already: the
 * first failure stays, and every later call returns it. Returns 0, for `return note_failure(...)`
 * where this file's own reading fails. */
static int note_failure(struct tg_png_reader *r, tg_status status, const char *text) {
    if (r->failure == TG_OK) r->failure = text ? tg_fail(r->source, status, text) : status;
    return 0;
}

static void reader_error(png_structp png, png_const_charp text) {
    note_failure(png_get_error_ptr(png), TG_ERR_CORRUPT, text);
    png_longjmp(png, 1);
}

static void reader_warning(png_structp png, png_const_charp text) {
    /* Warnings (a bad ancillary CRC, an sRGB profile libpng dislikes) do not stop decoding. */
    (void)png;
    (void)text;
}

/* Fails the libpng call under way with a status of our own (the first failure's stays). */
static void fail_in_callback(png_structp png, struct tg_png_reader *r, tg_status status, const char *text) {
    note_failure(r, status, text);
    png_error(png, tg_source_message(r->source));
}

static void read_callback(png_structp png, png_bytep dst, size_t length) {
    struct tg_png_reader *r = png_get_io_ptr(png);
    if (tg_source_read(r->source, dst, length) < length) fail_in_callback(png, r, tg_source_status(r->source), NULL);
    r->last_read_was_8 = length == 8;
    if (length == 8) memcpy(r->last_read, dst, 8);
    /* The first read after the signature is the first chunk's length and type. The PNG
     * specification requires IHDR there; libpng checks that only for the chunks it handles, and
     * text chunks are skipped unread, so the order is checked here for every chunk. */
    if (!r->saw_first_chunk) {
        r->saw_first_chunk = 1;
        if (length != 8 || memcmp(dst + 4, "IHDR", 4) != 0)
            fail_in_callback(png, r, TG_ERR_CORRUPT, "IHDR is not the first chunk");
    }
}

/* ---- XMP in text chunks ---- */

/* The keyword of the text chunk holding an XMP packet (XMP Specification Part 3, §1.1.5), with its
 * NUL separator. */
static const char xmp_keyword[] = "XML:com.adobe.xmp";

/* Inflates a zlib stream into out, giving up (returning 0) once it would pass max bytes or when
 * the stream is damaged or cut short: a small chunk cannot make a large packet. */
static int inflate_bounded(const uint8_t *in, size_t in_size, uint64_t max, tg_buffer *out) {
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit(&z) != Z_OK) return 0;
    z.next_in = (Bytef *)in;
    z.avail_in = (uInt)in_size; /* a PNG chunk is at most 2^31 - 1 bytes */
    uint8_t piece[16384];
    int ok = 0;
    for (;;) {
        z.next_out = piece;
        z.avail_out = sizeof piece;
        int status = inflate(&z, Z_NO_FLUSH);
        size_t got = sizeof piece - z.avail_out;
        if (got > max - out->size || !tg_buffer_append(out, piece, got)) break;
        if (status == Z_STREAM_END) { ok = 1; break; }
        /* Z_BUF_ERROR: no progress possible, the stream ended before its end. */
        if (status != Z_OK) break;
    }
    inflateEnd(&z);
    return ok;
}

/* Sees every text and unknown chunk libpng reads before IDAT (libpng has copied it, within its
 * chunk_malloc_max). The first tEXt, zTXt or iTXt with the XMP keyword is kept (inflated when
 * compressed, at most max_xmp_bytes); every ancillary chunk is then reported handled, so none is
 * stored or counted against the chunk cache, as when they were skipped unread. A critical chunk
 * libpng does not know is left unhandled, which libpng makes an error as before. */
static int read_chunk_callback(png_structp png, png_unknown_chunkp chunk) {
    struct tg_png_reader *r = png_get_user_chunk_ptr(png);
    int ancillary = (chunk->name[0] & 0x20) != 0;
    int itxt = memcmp(chunk->name, "iTXt", 4) == 0;
    int ztxt = memcmp(chunk->name, "zTXt", 4) == 0;
    int text = memcmp(chunk->name, "tEXt", 4) == 0;
    const size_t keyword = sizeof xmp_keyword; /* with the NUL */
    if (r->saw_xmp || !(itxt || ztxt || text) || chunk->size < keyword || memcmp(chunk->data, xmp_keyword, keyword) != 0)
        return ancillary;
    const uint8_t *p = chunk->data + keyword;
    size_t left = chunk->size - keyword;
    int compressed = ztxt;
    if (itxt) {
        /* compression flag, method, then the language tag and translated keyword, NUL-terminated */
        if (left < 2) return 1;
        compressed = p[0] != 0;
        p += 2;
        left -= 2;
        for (int field = 0; field < 2; field++) {
            const uint8_t *nul = memchr(p, 0, left);
            if (!nul) return 1;
            left -= (size_t)(nul - p) + 1;
            p = nul + 1;
        }
    } else if (ztxt) {
        if (left < 1) return 1;
        p += 1; /* the compression method */
        left -= 1;
    }
    r->saw_xmp = 1;
    int kept = compressed ? inflate_bounded(p, left, r->max_xmp_bytes, &r->xmp)
                          : left <= r->max_xmp_bytes && tg_buffer_append(&r->xmp, p, left);
    if (!kept) tg_buffer_free(&r->xmp);
    return 1;
}

/* ---- the image data of the common layouts, read here (see struct own_image_data) ---- */

/* PNG's 16-bit samples are big-endian; rows are handed out in the host's order. */
static int host_is_little_endian(void) {
    uint16_t probe = 1;
    return *(uint8_t *)&probe == 1;
}

static uint32_t big_endian_32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* A byte a chunk type may hold: an ASCII letter (png_check_chunk_name). */
static int is_chunk_letter(int c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

/* libpng's png_chunk_error wording: the chunk's name (a byte that is not a letter as [XX]), a
 * colon, the text. */
static int own_chunk_failure(struct tg_png_reader *r, const char *text) {
    static const char digits[] = "0123456789ABCDEF";
    char message[256];
    size_t n = 0;
    for (int i = 0; i < 4; i++) {
        int c = r->data.chunk_name[i];
        if (!is_chunk_letter(c)) {
            message[n++] = '[';
            message[n++] = digits[c >> 4];
            message[n++] = digits[c & 15];
            message[n++] = ']';
        } else {
            message[n++] = (char)c;
        }
    }
    snprintf(message + n, sizeof message - n, ": %s", text);
    return note_failure(r, TG_ERR_CORRUPT, message);
}

static int own_read(struct tg_png_reader *r, uint8_t *dst, size_t length) {
    if (tg_source_read(r->source, dst, length) == length) return 1;
    return note_failure(r, tg_source_status(r->source), NULL);
}

static int chunk_is_critical(const struct own_image_data *d) {
    return (d->chunk_name[0] & 0x20) == 0;
}

/* png_crc_read: data of the current chunk, counted into its CRC when the CRC is checked. */
static int own_crc_read(struct tg_png_reader *r, uint8_t *dst, uint32_t length) {
    if (!own_read(r, dst, length)) return 0;
    if (chunk_is_critical(&r->data)) r->data.crc = libdeflate_crc32(r->data.crc, dst, length);
    return 1;
}

/* png_crc_finish: skips the rest of the chunk and checks its CRC. A bad CRC fails a critical chunk
 * and is a warning (nothing) for an ancillary one, as PNG_CRC_DEFAULT asks. */
static int own_crc_finish(struct tg_png_reader *r, uint32_t skip) {
    uint8_t scrap[INFLATE_SCRAP_SIZE];
    while (skip > 0) {
        uint32_t length = skip < sizeof scrap ? skip : (uint32_t)sizeof scrap;
        skip -= length;
        if (!own_crc_read(r, scrap, length)) return 0;
    }
    uint8_t stored[4];
    if (!own_read(r, stored, sizeof stored)) return 0;
    if (chunk_is_critical(&r->data) && big_endian_32(stored) != r->data.crc) return own_chunk_failure(r, "CRC error");
    return 1;
}

/* png_read_chunk_header: the length (at most 2^31 - 1) and a type of four letters. libpng's limit
 * on a chunk's length is a benign error, a warning when reading, so it is not checked. */
static int own_read_chunk_header(struct tg_png_reader *r, uint32_t *length) {
    uint8_t header[8];
    if (!own_read(r, header, sizeof header)) return 0;
    *length = big_endian_32(header);
    if (*length > 0x7fffffffU) return note_failure(r, TG_ERR_CORRUPT, "PNG unsigned integer out of range");
    memcpy(r->data.chunk_name, header + 4, 4);
    r->data.crc = libdeflate_crc32(0, header + 4, 4);
    for (int i = 0; i < 4; i++)
        if (!is_chunk_letter(header[4 + i])) return own_chunk_failure(r, "invalid chunk type");
    return 1;
}

/* png_zlib_inflate: libpng refuses a zlib header whose window is over 32 KiB with words of its own. */
static int own_inflate_step(struct own_image_data *d) {
    if (!d->window_checked && d->z.avail_in > 0) {
        if ((*d->z.next_in >> 4) > 7) {
            d->z.msg = (char *)"invalid window size (libpng)";
            return Z_DATA_ERROR;
        }
        d->window_checked = 1;
    }
    return inflate(&d->z, Z_NO_FLUSH);
}

/* png_zstream_error: zlib's message, or libpng's words for the code when zlib gave none. */
static const char *own_zlib_message(const struct own_image_data *d, int code) {
    if (d->z.msg) return d->z.msg;
    switch (code) {
    case Z_STREAM_END: return "unexpected end of LZ stream";
    case Z_NEED_DICT: return "missing LZ dictionary";
    case Z_ERRNO: return "zlib IO error";
    case Z_STREAM_ERROR: return "bad parameters to zlib";
    case Z_DATA_ERROR: return "damaged LZ stream";
    case Z_MEM_ERROR: return "insufficient memory";
    case Z_BUF_ERROR: return "truncated";
    case Z_VERSION_ERROR: return "unsupported zlib version";
    default: return "unexpected zlib return code";
    }
}

/* png_read_IDAT_data: inflates IDAT data into output[0, avail_out), reading the next IDAT when a
 * chunk runs out; with output NULL (after the last row), inflates what is left of the stream into
 * scrap, where a damaged stream is only a warning. Extra data after the stream's end is a warning. */
static int own_inflate_data(struct tg_png_reader *r, uint8_t *output, size_t avail_out) {
    struct own_image_data *d = &r->data;
    d->z.next_out = output;
    d->z.avail_out = 0;
    if (!output) avail_out = 0;
    do {
        uint8_t scrap[INFLATE_SCRAP_SIZE];
        if (d->z.avail_in == 0) {
            while (d->chunk_left == 0) {
                if (!own_crc_finish(r, 0)) return 0;
                uint32_t length;
                if (!own_read_chunk_header(r, &length)) return 0;
                d->chunk_left = length;
                /* An error even after the last row: a header that is not IDAT has been consumed. */
                if (memcmp(d->chunk_name, "IDAT", 4) != 0) return note_failure(r, TG_ERR_CORRUPT, "Not enough image data");
            }
            uint32_t piece = d->chunk_left < IDAT_READ_SIZE ? d->chunk_left : IDAT_READ_SIZE;
            if (!own_crc_read(r, d->input, piece)) return 0;
            d->chunk_left -= piece;
            d->z.next_in = d->input;
            d->z.avail_in = piece;
        }
        if (output) {
            uInt out = avail_out < (uInt)-1 ? (uInt)avail_out : (uInt)-1;
            avail_out -= out;
            d->z.avail_out = out;
        } else {
            d->z.next_out = scrap;
            d->z.avail_out = sizeof scrap;
        }
        int code = own_inflate_step(d);
        avail_out += output ? d->z.avail_out : sizeof scrap - d->z.avail_out;
        d->z.avail_out = 0;
        if (code == Z_STREAM_END) {
            d->z.next_out = NULL;
            d->ended = 1;
            break;
        }
        if (code != Z_OK) {
            if (output) return own_chunk_failure(r, own_zlib_message(d, code));
            return 1;
        }
    } while (avail_out > 0);
    /* With output NULL, what is left counts extra bytes of image data: a warning. */
    if (avail_out > 0 && output) return note_failure(r, TG_ERR_CORRUPT, "Not enough image data");
    return 1;
}

/* png_read_finish_IDAT, then png_read_end without an info struct: the rest of the stream, the
 * rest of the last IDAT read and its CRC, then every chunk up to IEND, each CRC checked. */
static int own_finish(struct tg_png_reader *r) {
    struct own_image_data *d = &r->data;
    if (!d->ended) {
        if (!own_inflate_data(r, NULL, 0)) return 0;
        d->ended = 1;
    }
    d->z.next_in = NULL;
    d->z.avail_in = 0;
    uint32_t rest = d->chunk_left;
    d->chunk_left = 0;
    if (!own_crc_finish(r, rest)) return 0;
    for (;;) {
        uint32_t length;
        if (!own_read_chunk_header(r, &length)) return 0;
        /* IEND's length should be 0; libpng only warns. */
        if (memcmp(d->chunk_name, "IEND", 4) == 0) return own_crc_finish(r, length);
        if (memcmp(d->chunk_name, "IHDR", 4) == 0) return own_chunk_failure(r, "out of place");
        if (!own_crc_finish(r, length)) return 0;
    }
}

/* The palette index of pixel x in a row of `depth`-bit indexes, packed from each byte's most
 * significant bit. */
static inline unsigned own_palette_index(const uint8_t *row, uint32_t x, int depth) {
    if (depth == 8) return row[x];
    size_t bit = (size_t)x * (size_t)depth;
    return (unsigned)(row[bit >> 3] >> (8 - depth - (int)(bit & 7))) & ((1U << depth) - 1);
}

/* Hands a row out as libpng's transforms would: palette indexes looked up, gray spread to RGB,
 * 16-bit samples in native order. */
static void own_copy_row(const struct own_image_data *d, const uint8_t *row, uint8_t *dst, uint32_t width) {
    if (d->palette_depth) {
        int depth = d->palette_depth;
        const uint8_t *colours = d->colours;
        if (d->palette_channels == 4) {
            for (uint32_t x = 0; x < width; x++) {
                uint32_t rgba;
                memcpy(&rgba, colours + 4 * own_palette_index(row, x, depth), 4);
                memcpy(dst + 4 * (size_t)x, &rgba, 4);
            }
        } else {
            for (uint32_t x = 0; x < width; x++) {
                const uint8_t *colour = colours + 4 * own_palette_index(row, x, depth);
                dst[3 * x] = colour[0];
                dst[3 * x + 1] = colour[1];
                dst[3 * x + 2] = colour[2];
            }
        }
    } else if (d->expand_gray == 1) {
        for (uint32_t x = 0; x < width; x++) dst[3 * x] = dst[3 * x + 1] = dst[3 * x + 2] = row[x];
    } else if (d->expand_gray == 2) {
        for (uint32_t x = 0; x < width; x++) {
            dst[4 * x] = dst[4 * x + 1] = dst[4 * x + 2] = row[2 * x];
            dst[4 * x + 3] = row[2 * x + 1];
        }
    } else if (d->swap) {
        for (size_t i = 0; i + 1 < d->stored_row_bytes; i += 2) {
            dst[i] = row[i + 1];
            dst[i + 1] = row[i];
        }
    } else {
        memcpy(dst, row, d->stored_row_bytes);
    }
}

/* The reading at the first IDAT's data: that chunk named, its CRC begun, all its data left. */
static void own_at_first_idat(struct own_image_data *d) {
    memcpy(d->chunk_name, "IDAT", 4);
    d->crc = libdeflate_crc32(0, (const uint8_t *)"IDAT", 4);
    d->chunk_left = d->first_length;
}

/* Puts the image data back where own_start left it: the source at the first IDAT's data (with
 * no failure recorded by the trial), zlib at the stream's start. */
static void own_retry_by_rows(struct tg_png_reader *r) {
    struct own_image_data *d = &r->data;
    tg_source_return(r->source, &d->start);
    r->failure = TG_OK;
    inflateReset(&d->z);
    d->z.next_in = NULL;
    d->z.avail_in = 0;
    d->window_checked = 0;
    d->ended = 0;
    own_at_first_idat(d);
}

/* The most IDAT data inflated by libdeflate for rows of `whole_bytes`: encoders' streams stay
 * under the rows' size plus an eighth (9-bit literals at worst); a longer one is left to zlib, so
 * what is held stays bounded by the image's size. */
static size_t own_run_capacity(size_t whole_bytes) {
    return whole_bytes + whole_bytes / 8 + 64;
}

/* The IDAT run from the first IDAT's data on, each chunk's CRC checked, inflated by libdeflate into
 * d->whole in one call. It succeeds only when zlib, as libpng drives it, would read the same bytes
 * to the same end: the run's data is one zlib stream, without a byte after it, that inflates to
 * exactly the filtered rows with its Adler-32 right. The source is then left where the zlib path
 * leaves it once the stream has ended: after the last IDAT's data, its CRC not yet read (the CRC
 * itself was checked here), so own_finish reads on exactly as before. Anything else (a bad CRC, a
 * damaged or short stream, data after its end, a wrong Adler-32, which libpng is told to ignore)
 * returns 0 with the source back at the first IDAT's data, and zlib reads the image as libpng
 * would, with its messages. On the bench's icons libdeflate took a third of zlib's time. */
static int own_inflate_whole_by_libdeflate(struct tg_png_reader *r) {
    struct own_image_data *d = &r->data;
    size_t capacity = own_run_capacity(d->whole_bytes);
    uint8_t *run = malloc(capacity);
    struct libdeflate_decompressor *decompressor = run ? libdeflate_alloc_decompressor() : NULL;
    int taken = 0;
    if (decompressor) {
        size_t size = 0;
        uint32_t length = d->first_length;
        uint32_t crc = 0;
        tg_source_mark before_crc;
        for (;;) {
            if (length > capacity - size || tg_source_read(r->source, run + size, length) != length) break;
            crc = libdeflate_crc32(libdeflate_crc32(0, (const uint8_t *)"IDAT", 4), run + size, length);
            size += length;
            tg_source_mark_here(r->source, &before_crc);
            uint8_t stored[4], header[8];
            if (tg_source_read(r->source, stored, 4) != 4 || big_endian_32(stored) != crc) break;
            if (tg_source_read(r->source, header, 8) == 8 && memcmp(header + 4, "IDAT", 4) == 0
                && big_endian_32(header) <= 0x7fffffffU) {
                length = big_endian_32(header);
                continue;
            }
            /* The run ended (at another chunk, or where zlib's reading will fail as before). */
            size_t used = 0, produced = 0;
            taken = libdeflate_zlib_decompress_ex(decompressor, run, size, d->whole, d->whole_bytes, &used, &produced)
                        == LIBDEFLATE_SUCCESS
                    && used == size && produced == d->whole_bytes;
            break;
        }
        if (taken) {
            d->whole_by_libdeflate = 1;
            tg_source_return(r->source, &before_crc);
            d->crc = crc;
            d->chunk_left = 0;
            d->ended = 1;
        }
    }
    libdeflate_free_decompressor(decompressor);
    free(run);
    if (!taken) own_retry_by_rows(r);
    return taken;
}

/* Whether the zlib header's window (libpng passes none, so zlib takes the header's) covers the
 * filtered rows. zlib checks a match's distance against the window and the output of the call
 * under way: inflated whole, a stream declaring a window smaller than its rows could reach
 * further back than libpng's reading, a row at a time, lets it ("invalid distance too far back").
 * Such a stream, or one whose first IDAT is empty, is read row by row, as libpng reads it. */
static int own_window_covers_rows(struct tg_png_reader *r) {
    struct own_image_data *d = &r->data;
    uint8_t cmf;
    if (d->first_length == 0 || tg_source_read(r->source, &cmf, 1) != 1) return 0;
    tg_source_return(r->source, &d->start);
    int window_bits = (cmf >> 4) + 8;
    return window_bits >= 15 || d->whole_bytes <= ((size_t)1 << window_bits);
}

/* At the first row of an image small enough: every row inflated at once, or on failure nothing
 * changed (the rows are then read one at a time). */
static void own_try_whole(struct tg_png_reader *r) {
    struct own_image_data *d = &r->data;
    if (!own_window_covers_rows(r)) {
        own_retry_by_rows(r);
        return;
    }
    d->whole = malloc(d->whole_bytes);
    if (d->whole && (own_inflate_whole_by_libdeflate(r) || own_inflate_data(r, d->whole, d->whole_bytes))) return;
    free(d->whole);
    d->whole = NULL;
    own_retry_by_rows(r);
}

/* png_read_row for a non-interlaced image without transforms that change the stored bytes. */
static int own_read_row(struct tg_png_reader *r, uint8_t *dst) {
    struct own_image_data *d = &r->data;
    if (d->whole_bytes && r->rows_read == 0) own_try_whole(r);
    uint8_t *row;
    const uint8_t *above;
    if (d->whole) {
        /* Unfiltered in place, under the row above it (already unfiltered) or the zeros. */
        size_t stride = d->stored_row_bytes + 1;
        row = d->whole + (size_t)r->rows_read * stride;
        above = r->rows_read == 0 ? d->above : row - stride;
    } else {
        d->row[0] = 255; /* libpng's guard: a row that inflate left unwritten fails the filter check */
        if (!own_inflate_data(r, d->row, d->stored_row_bytes + 1)) return 0;
        row = d->row;
        above = d->above;
    }
    int filter = row[0];
    if (filter > 4) return note_failure(r, TG_ERR_CORRUPT, "bad adaptive filter value");
    tk_png_unfilter_row(filter, row + 1, above + 1, d->stored_row_bytes, d->pixel_bytes);
    own_copy_row(d, row + 1, dst, r->summary.width);
    if (!d->whole) {
        /* This row is the next one's above. */
        d->row = d->above;
        d->above = row;
    }
    return 1;
}

/* A palette image's colours as png_do_expand_palette gives them: PLTE's entries, black for an
 * index past them (libpng keeps 256 entries, zeroed), tRNS's alpha for the indexes it covers and
 * opaque for the rest. Taken before png_read_update_info, after which libpng's getters describe
 * the expanded (RGBA) image and no longer hand out tRNS's alpha values. */
static void own_take_palette(struct tg_png_reader *r, int has_trns) {
    struct own_image_data *d = &r->data;
    png_colorp palette = NULL;
    int entries = 0;
    png_bytep alpha = NULL;
    int alphas = 0;
    png_get_PLTE(r->png, r->info, &palette, &entries);
    if (has_trns) png_get_tRNS(r->png, r->info, &alpha, &alphas, NULL);
    memset(d->colours, 0, sizeof d->colours);
    for (int i = 0; i < 256; i++) {
        if (palette && i < entries) {
            d->colours[4 * i] = palette[i].red;
            d->colours[4 * i + 1] = palette[i].green;
            d->colours[4 * i + 2] = palette[i].blue;
        }
        d->colours[4 * i + 3] = alpha && i < alphas ? alpha[i] : 255;
    }
}

/* Takes the image data over from libpng when the layout is one own_copy_row hands out and
 * png_read_info stopped, as it does, right after reading the first IDAT's length and type. */
static tg_status own_start(struct tg_png_reader *r, int bit_depth, int color_type, int has_trns) {
    /* (A palette's colours were taken by own_take_palette.) */
    struct own_image_data *d = &r->data;
    if (color_type == PNG_COLOR_TYPE_PALETTE) {
        /* Filters look one byte back at any depth below 8. */
        d->palette_depth = bit_depth;
        d->pixel_bytes = 1;
        d->stored_row_bytes = ((size_t)r->summary.width * (size_t)bit_depth + 7) / 8;
        d->palette_channels = has_trns ? 4 : 3;
    } else {
        int channels = color_type == PNG_COLOR_TYPE_GRAY ? 1 : color_type == PNG_COLOR_TYPE_GRAY_ALPHA ? 2
                     : color_type == PNG_COLOR_TYPE_RGB ? 3 : 4;
        d->pixel_bytes = (size_t)channels * (size_t)(bit_depth / 8);
        d->stored_row_bytes = (size_t)r->summary.width * d->pixel_bytes;
    }
    d->expand_gray = color_type == PNG_COLOR_TYPE_GRAY ? 1 : color_type == PNG_COLOR_TYPE_GRAY_ALPHA ? 2 : 0;
    d->swap = bit_depth == 16 && host_is_little_endian();
    d->input = malloc(IDAT_READ_SIZE);
    d->row = malloc(d->stored_row_bytes + 1);
    d->above = calloc(1, d->stored_row_bytes + 1);
    if (!d->input || !d->row || !d->above) return tg_fail(r->source, TG_ERR_MEMORY, "out of memory");
    /* As png_inflate_claim: the window from the zlib header, Adler-32 not checked when libpng
     * was told not to check it. */
    if (inflateInit2(&d->z, 0) != Z_OK) return tg_fail(r->source, TG_ERR_MEMORY, "out of memory");
    d->z_ready = 1;
#if defined(PNG_IGNORE_ADLER32) && ZLIB_VERNUM >= 0x1290
    inflateValidate(&d->z, 0);
#endif
    d->first_length = big_endian_32(r->last_read);
    own_at_first_idat(d);
    tg_source_mark_here(r->source, &d->start);
    uint64_t filtered_bytes = (uint64_t)r->summary.height * ((uint64_t)d->stored_row_bytes + 1);
    d->whole_bytes = filtered_bytes <= OWN_WHOLE_BYTES ? (size_t)filtered_bytes : 0;
    r->own = 1;
    r->summary.working_bytes = IDAT_READ_SIZE + 2 * ((uint64_t)d->stored_row_bytes + 1) + d->whole_bytes
                               + (d->whole_bytes ? own_run_capacity(d->whole_bytes) : 0);
    return TG_OK;
}

static void own_free(struct own_image_data *d) {
    if (d->z_ready) inflateEnd(&d->z);
    free(d->input);
    free(d->row);
    free(d->above);
    free(d->whole);
}

tg_status tg_png_open(tg_source *source, const tg_limits *limits, int rows_by_libpng, tg_png_reader **out,
                      tg_png_info *info) {
    struct tg_png_reader *r = *out = calloc(1, sizeof *r);
    if (!r) return tg_fail(source, TG_ERR_MEMORY, "out of memory");
    r->source = source;
    uint8_t signature[8];
    size_t got = tg_source_read(r->source, signature, sizeof signature);
    if (got > 0 && png_sig_cmp(signature, 0, got) != 0) return tg_fail(r->source, TG_ERR_UNRECOGNISED, "not a PNG file (bad signature)");
    if (got < sizeof signature) return tg_source_status(r->source);

    r->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, r, reader_error, reader_warning);
    if (!r->png) return tg_fail(r->source, TG_ERR_MEMORY, "out of memory");
    r->info = png_create_info_struct(r->png);
    if (!r->info) return tg_fail(r->source, TG_ERR_MEMORY, "out of memory");
    if (setjmp(png_jmpbuf(r->png))) {
        return r->failure;
    }
    png_set_read_fn(r->png, r, read_callback);
    png_set_sig_bytes(r->png, 8);

    /* libpng's own limits: dimensions before any row allocation, and the memory one ancillary
     * chunk (or its decompressed text/profile) may take, and how many such chunks are kept. */
    png_set_user_limits(r->png, limits->max_dimension ? limits->max_dimension : 0x7fffffffU,
                        limits->max_dimension ? limits->max_dimension : 0x7fffffffU);
    png_set_chunk_cache_max(r->png, limits->max_chunks);
    png_set_chunk_malloc_max(r->png, (png_alloc_size_t)limits->max_chunk_bytes);
    /* Text is not read by libpng, which would inflate every chunk: the callback keeps the XMP
     * packet alone, bounded by max_xmp_bytes. */
    static const png_byte text_chunks[] = "tEXt\0zTXt\0iTXt";
    png_set_keep_unknown_chunks(r->png, PNG_HANDLE_CHUNK_NEVER, text_chunks, 3);
    r->max_xmp_bytes = limits->max_metadata_bytes;
    png_set_read_user_chunk_fn(r->png, r, read_chunk_callback);
    /* CRC errors: critical chunks fail; ancillary chunks are dropped with a warning, as browsers do. */
    png_set_crc_action(r->png, PNG_CRC_DEFAULT, PNG_CRC_DEFAULT);
#ifdef PNG_IGNORE_ADLER32
    /* Each IDAT's CRC-32 already guards the compressed bytes, so the zlib stream's Adler-32 over
     * the inflated bytes protects against nothing the CRC misses in a damaged file, and costs
     * about a tenth of the decode time on large images. Chromium and libspng skip it too. */
    png_set_option(r->png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif

    png_read_info(r->png, r->info);

    png_uint_32 width = 0, height = 0;
    int bit_depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(r->png, r->info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
    /* The sides were held to max_dimension by libpng, with its own message. */
    tg_status status = tg_check_dimensions(r->source, limits, width, height);
    if (status != TG_OK) return status;
    int has_trns = png_get_valid(r->png, r->info, PNG_INFO_tRNS) != 0;
    if (color_type == PNG_COLOR_TYPE_PALETTE && !rows_by_libpng) own_take_palette(r, has_trns);
    /* Everything becomes RGBA at 8 or 16 bits: palette and low-depth gray expand, tRNS becomes an
     * alpha channel, gray is copied to RGB, and an opaque alpha is added where none exists. */
    png_set_expand(r->png);
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA)
        png_set_gray_to_rgb(r->png);
    /* Opaque images stay RGB: streamed rows are converted from three channels directly, and
     * tg_png_read_image adds the alpha itself. libpng's filler costs about a tenth of a decode. */
    int row_channels = (color_type & PNG_COLOR_MASK_ALPHA) || has_trns ? 4 : 3;
    if (bit_depth == 16 && host_is_little_endian()) png_set_swap(r->png);
    png_set_interlace_handling(r->png);
    png_read_update_info(r->png, r->info);

    int output_depth = bit_depth == 16 ? 16 : 8;
    size_t row_bytes = (size_t)width * (size_t)row_channels * (size_t)(output_depth / 8);
    if (png_get_rowbytes(r->png, r->info) != row_bytes || png_get_channels(r->png, r->info) != row_channels) {
        return tg_fail(r->source, TG_ERR_FAILED, "internal error: unexpected row layout after transforms");
    }

    r->summary.width = width;
    r->summary.height = height;
    r->summary.bit_depth = bit_depth;
    r->summary.color_type = color_type;
    r->summary.interlaced = interlace == PNG_INTERLACE_ADAM7;
    r->summary.has_trns = has_trns;
    r->summary.output_depth = output_depth;
    r->summary.row_channels = row_channels;
    r->summary.row_bytes = row_bytes;
    int own_layout = interlace == PNG_INTERLACE_NONE
        && (color_type == PNG_COLOR_TYPE_PALETTE
            || (!has_trns && (bit_depth == 8
                              || (bit_depth == 16 && (color_type == PNG_COLOR_TYPE_RGB || color_type == PNG_COLOR_TYPE_RGB_ALPHA)))));
    if (!rows_by_libpng && own_layout && r->last_read_was_8 && memcmp(r->last_read + 4, "IDAT", 4) == 0) {
        status = own_start(r, bit_depth, color_type, has_trns);
        if (status != TG_OK) return status;
    }
    r->summary.rows_by_libpng = !r->own;
    *info = r->summary;
    return TG_OK;
}


static tg_status fail_state(struct tg_png_reader *r, const char *text) {
    return r->failure = tg_fail(r->source, TG_ERR_FAILED, text);
}

/* One row through libpng, behind a setjmp point of its own. */
static int libpng_read_row(struct tg_png_reader *r, uint8_t *dst) {
    if (setjmp(png_jmpbuf(r->png))) return 0;
    png_read_row(r->png, dst, NULL);
    return 1;
}

/* Reads what follows the image data up to IEND, so that a bad CRC or missing end is noticed. */
static int finish_image(struct tg_png_reader *r) {
    if (r->own) {
        if (!own_finish(r)) return 0;
    } else {
        if (setjmp(png_jmpbuf(r->png))) return 0;
        png_read_end(r->png, NULL);
    }
    r->finished = 1;
    return 1;
}

tg_status tg_png_read_rows(tg_png_reader *r, void *dst, uint32_t count) {
    if (r->failure != TG_OK) return r->failure;
    if (r->summary.interlaced) return fail_state(r, "interlaced images must be read whole");
    if (count > r->summary.height - r->rows_read) return fail_state(r, "read past the last row");
    for (uint32_t i = 0; i < count; i++) {
        uint8_t *row = (uint8_t *)dst + (size_t)i * r->summary.row_bytes;
        if (!(r->own ? own_read_row(r, row) : libpng_read_row(r, row))) return r->failure;
        r->rows_read++;
    }
    if (r->rows_read == r->summary.height && !r->finished && !finish_image(r)) return r->failure;
    return TG_OK;
}

/* Spreads each row's RGB samples (at the start of its RGBA-sized slot) out to RGBA with opaque
 * alpha, last pixel first so that nothing is overwritten before it is moved. */
static void add_opaque_alpha(uint8_t *dst, uint32_t width, uint32_t height, int depth) {
    for (uint32_t y = 0; y < height; y++) {
        if (depth == 16) {
            uint16_t *row = (uint16_t *)(void *)(dst + (size_t)y * width * 8);
            for (size_t x = width; x-- > 0;) {
                row[x * 4 + 3] = 0xffff;
                row[x * 4 + 2] = row[x * 3 + 2];
                row[x * 4 + 1] = row[x * 3 + 1];
                row[x * 4 + 0] = row[x * 3 + 0];
            }
        } else {
            uint8_t *row = dst + (size_t)y * width * 4;
            for (size_t x = width; x-- > 0;) {
                row[x * 4 + 3] = 0xff;
                row[x * 4 + 2] = row[x * 3 + 2];
                row[x * 4 + 1] = row[x * 3 + 1];
                row[x * 4 + 0] = row[x * 3 + 0];
            }
        }
    }
}

/* Every pass of every row through libpng (interlaced images too), rows `stride` bytes apart. */
static int libpng_read_image(struct tg_png_reader *r, uint8_t *dst, size_t stride) {
    png_bytep *rows = malloc(sizeof(png_bytep) * (size_t)r->summary.height);
    if (!rows) return note_failure(r, TG_ERR_MEMORY, "out of memory");
    for (uint32_t y = 0; y < r->summary.height; y++) rows[y] = dst + (size_t)y * stride;
    /* `rows` is not modified after setjmp, so it is valid after a longjmp. */
    if (setjmp(png_jmpbuf(r->png))) {
        free(rows);
        return 0;
    }
    png_read_image(r->png, rows);
    free(rows);
    return 1;
}

tg_status tg_png_read_image(tg_png_reader *r, void *dst) {
    if (r->failure != TG_OK) return r->failure;
    if (r->rows_read != 0) return fail_state(r, "image already partly read");
    size_t rgba_row_bytes = (size_t)r->summary.width * 4 * (size_t)(r->summary.output_depth / 8);
    if (r->own) {
        for (; r->rows_read < r->summary.height; r->rows_read++)
            if (!own_read_row(r, (uint8_t *)dst + (size_t)r->rows_read * rgba_row_bytes)) return r->failure;
    } else {
        if (!libpng_read_image(r, dst, rgba_row_bytes)) return r->failure;
        r->rows_read = r->summary.height;
    }
    if (!finish_image(r)) return r->failure;
    if (r->summary.row_channels == 3) add_opaque_alpha(dst, r->summary.width, r->summary.height, r->summary.output_depth);
    return TG_OK;
}

/* Getters only: none of these can png_error, so no setjmp is needed. */
void tg_png_get_metadata(const tg_png_reader *r, tg_png_metadata *m) {
    memset(m, 0, sizeof *m);
    png_charp name = NULL;
    int compression = 0;
    png_bytep profile = NULL;
    png_uint_32 profile_size = 0;
    if (png_get_iCCP(r->png, r->info, &name, &compression, &profile, &profile_size) && profile) {
        m->icc = profile;
        m->icc_size = profile_size;
    }
    int intent = 0;
    m->has_srgb = png_get_sRGB(r->png, r->info, &intent) != 0;
    m->has_gama = png_get_gAMA(r->png, r->info, &m->gamma) != 0;
    m->has_chrm = png_get_cHRM(r->png, r->info, &m->chrm[0], &m->chrm[1], &m->chrm[2], &m->chrm[3],
                               &m->chrm[4], &m->chrm[5], &m->chrm[6], &m->chrm[7]) != 0;
    png_uint_32 exif_size = 0;
    png_bytep exif = NULL;
    if (png_get_eXIf_1(r->png, r->info, &exif_size, &exif) && exif) {
        m->exif = exif;
        m->exif_size = exif_size;
    }
    if (r->xmp.size > 0) {
        m->xmp = r->xmp.data;
        m->xmp_size = r->xmp.size;
    }
}

void tg_png_close(tg_png_reader *r) {
    if (!r) return;
    if (r->png) png_destroy_read_struct(&r->png, r->info ? &r->info : NULL, NULL);
    tg_buffer_free(&r->xmp);
    own_free(&r->data);
    free(r);
}

int tg_png_inflated_by_libdeflate(const tg_png_reader *r) {
    return r->data.whole_by_libdeflate;
}

void tg_png_versions(char out[TG_VERSION_SIZE]) {
    snprintf(out, TG_VERSION_SIZE, "libpng %s, zlib %s", png_get_libpng_ver(NULL), zlibVersion());
}
