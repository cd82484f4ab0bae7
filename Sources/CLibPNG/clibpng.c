/*
 * clibpng.c: the only file that calls libpng. See include/clibpng.h for the policy.
 *
 * Each exported function that calls into libpng sets its own setjmp() point before the first call
 * that can fail; the error callback copies libpng's message and longjmps back there. State that
 * must survive the jump lives in heap structs (never in locals modified after setjmp), which is
 * what the C standard requires for values read after a longjmp.
 */
#include "clibpng.h"

#include <errno.h>
#include <fcntl.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

struct tg_png_reader {
    png_structp png;
    png_infop info;
    FILE *file;                 /* source, or NULL when reading memory */
    const uint8_t *memory;
    size_t memory_size;
    size_t memory_pos;
    uint64_t bytes_read;
    uint64_t max_bytes;
    int failure;                /* TG_PNG_* code set by the read callback before png_error */
    int saw_first_chunk;        /* the chunk after the signature was read (and was IHDR) */
    uint32_t rows_read;
    int finished;
    tg_limit_hit limit;         /* what a TG_PNG_ERR_LIMIT failure exceeded */
    tg_png_info summary;
    uint64_t max_xmp_bytes;     /* largest XMP packet kept (inflated size) */
    int saw_xmp;                /* a text chunk with the XMP keyword was seen: later ones are ignored */
    tg_buffer xmp;              /* its packet, empty when it was larger than max_xmp_bytes or damaged */
    char message[TG_PNG_MESSAGE_SIZE];
};

static void copy_message(char *dst, const char *src) {
    tg_copy_message(dst, TG_PNG_MESSAGE_SIZE, src);
}

/* ---- reading ---- */

static void reader_error(png_structp png, png_const_charp text) {
    struct tg_png_reader *r = png_get_error_ptr(png);
    if (r->failure == TG_PNG_OK) {
        r->failure = TG_PNG_ERR_LIBPNG;
        copy_message(r->message, text);
    }
    png_longjmp(png, 1);
}

static void reader_warning(png_structp png, png_const_charp text) {
    /* Warnings (a bad ancillary CRC, an sRGB profile libpng dislikes) do not stop decoding. */
    (void)png;
    (void)text;
}

static void fail_in_callback(png_structp png, struct tg_png_reader *r, int code, const char *text) {
    r->failure = code;
    copy_message(r->message, text);
    png_error(png, text);
}

static void read_callback(png_structp png, png_bytep dst, size_t length) {
    struct tg_png_reader *r = png_get_io_ptr(png);
    if (r->max_bytes != 0 && r->bytes_read + length > r->max_bytes) {
        r->limit = (tg_limit_hit){TG_LIMIT_FILE_BYTES, 0, 0, r->bytes_read + length, r->max_bytes};
        fail_in_callback(png, r, TG_PNG_ERR_LIMIT, "file is larger than the byte limit");
    }
    size_t got;
    if (r->file) {
        got = fread(dst, 1, length, r->file);
        if (got < length && ferror(r->file)) {
            char text[TG_PNG_MESSAGE_SIZE];
            snprintf(text, sizeof text, "read error: %s", strerror(errno));
            fail_in_callback(png, r, TG_PNG_ERR_OPEN, text);
        }
    } else {
        if (!r->memory) fail_in_callback(png, r, TG_PNG_ERR_STATE, "internal error: bytes read while not lent");
        size_t left = r->memory_size - r->memory_pos;
        got = length < left ? length : left;
        memcpy(dst, r->memory + r->memory_pos, got);
        r->memory_pos += got;
    }
    r->bytes_read += got;
    if (got < length) fail_in_callback(png, r, TG_PNG_ERR_TRUNCATED, "file is truncated");
    /* The first read after the signature is the first chunk's length and type. The PNG
     * specification requires IHDR there; libpng checks that only for the chunks it handles, and
     * text chunks are skipped unread, so the order is checked here for every chunk. */
    if (!r->saw_first_chunk) {
        r->saw_first_chunk = 1;
        if (length != 8 || memcmp(dst + 4, "IHDR", 4) != 0)
            fail_in_callback(png, r, TG_PNG_ERR_LIBPNG, "IHDR is not the first chunk");
    }
}

static size_t raw_read(struct tg_png_reader *r, uint8_t *dst, size_t length) {
    if (r->file) return fread(dst, 1, length, r->file);
    if (!r->memory) return 0;
    size_t left = r->memory_size - r->memory_pos;
    size_t got = length < left ? length : left;
    memcpy(dst, r->memory + r->memory_pos, got);
    r->memory_pos += got;
    return got;
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

static int finish_open(struct tg_png_reader *r, const tg_png_limits *limits, tg_png_info *info) {
    uint8_t signature[8];
    size_t got = raw_read(r, signature, sizeof signature);
    r->bytes_read = got;
    if (got == 0) {
        copy_message(r->message, "file is empty");
        return TG_PNG_ERR_SIGNATURE;
    }
    if (png_sig_cmp(signature, 0, got) != 0) {
        copy_message(r->message, "not a PNG file (bad signature)");
        return TG_PNG_ERR_SIGNATURE;
    }
    if (got < sizeof signature) {
        copy_message(r->message, "file is truncated");
        return TG_PNG_ERR_TRUNCATED;
    }

    r->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, r, reader_error, reader_warning);
    if (!r->png) {
        copy_message(r->message, "out of memory");
        return TG_PNG_ERR_MEMORY;
    }
    r->info = png_create_info_struct(r->png);
    if (!r->info) {
        copy_message(r->message, "out of memory");
        return TG_PNG_ERR_MEMORY;
    }
    if (setjmp(png_jmpbuf(r->png))) {
        return r->failure != TG_PNG_OK ? r->failure : TG_PNG_ERR_LIBPNG;
    }
    png_set_read_fn(r->png, r, read_callback);
    png_set_sig_bytes(r->png, 8);

    /* libpng's own limits: dimensions before any row allocation, and the memory one ancillary
     * chunk (or its decompressed text/profile) may take, and how many such chunks are kept. */
    png_set_user_limits(r->png, limits->max_width ? limits->max_width : 0x7fffffffU,
                        limits->max_height ? limits->max_height : 0x7fffffffU);
    png_set_chunk_cache_max(r->png, limits->chunk_cache_max);
    png_set_chunk_malloc_max(r->png, (png_alloc_size_t)limits->chunk_malloc_max);
    /* Text is not read by libpng, which would inflate every chunk: the callback keeps the XMP
     * packet alone, bounded by max_xmp_bytes. */
    static const png_byte text_chunks[] = "tEXt\0zTXt\0iTXt";
    png_set_keep_unknown_chunks(r->png, PNG_HANDLE_CHUNK_NEVER, text_chunks, 3);
    r->max_xmp_bytes = limits->max_xmp_bytes;
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
    uint64_t pixels = (uint64_t)width * (uint64_t)height;
    if (limits->max_pixels != 0 && pixels > limits->max_pixels) {
        r->limit = (tg_limit_hit){TG_LIMIT_PIXELS, width, height, pixels, limits->max_pixels};
        copy_message(r->message, "image is above the pixel limit");
        return TG_PNG_ERR_LIMIT;
    }
    int has_trns = png_get_valid(r->png, r->info, PNG_INFO_tRNS) != 0;

    /* Everything becomes RGBA at 8 or 16 bits: palette and low-depth gray expand, tRNS becomes an
     * alpha channel, gray is copied to RGB, and an opaque alpha is added where none exists. */
    png_set_expand(r->png);
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA)
        png_set_gray_to_rgb(r->png);
    /* Opaque images stay RGB: streamed rows are converted from three channels directly, and
     * tg_png_read_image adds the alpha itself. libpng's filler costs about a tenth of a decode. */
    int row_channels = (color_type & PNG_COLOR_MASK_ALPHA) || has_trns ? 4 : 3;
    if (bit_depth == 16) {
        uint16_t probe = 1;
        if (*(uint8_t *)&probe == 1) png_set_swap(r->png); /* PNG is big-endian; hand out native order */
    }
    png_set_interlace_handling(r->png);
    png_read_update_info(r->png, r->info);

    int output_depth = bit_depth == 16 ? 16 : 8;
    size_t row_bytes = (size_t)width * (size_t)row_channels * (size_t)(output_depth / 8);
    if (png_get_rowbytes(r->png, r->info) != row_bytes || png_get_channels(r->png, r->info) != row_channels) {
        copy_message(r->message, "internal error: unexpected row layout after transforms");
        return TG_PNG_ERR_STATE;
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
    *info = r->summary;
    return TG_PNG_OK;
}

static int open_common(struct tg_png_reader *r, const tg_png_limits *limits, tg_png_reader **out,
                       tg_png_info *info, char message[TG_PNG_MESSAGE_SIZE], tg_limit_hit *limit) {
    r->max_bytes = limits->max_file_bytes;
    int status = finish_open(r, limits, info);
    if (status != TG_PNG_OK) {
        copy_message(message, r->message);
        *limit = r->limit;
        tg_png_close(r);
        return status;
    }
    *out = r;
    return TG_PNG_OK;
}

int tg_png_open_file(const char *path, const tg_png_limits *limits, tg_png_reader **out,
                     tg_png_info *info, char message[TG_PNG_MESSAGE_SIZE], tg_limit_hit *limit) {
    *out = NULL;
    *limit = (tg_limit_hit){0};
    uint64_t size = 0;
    int fd = tg_open_regular_file(path, message, TG_PNG_MESSAGE_SIZE, &size);
    if (fd < 0) return TG_PNG_ERR_OPEN;
    /* stdio's buffer is the file's block size: reads are bounded and stop at IEND. */
    FILE *file = fdopen(fd, "rb");
    if (!file) {
        copy_message(message, strerror(errno));
        close(fd);
        return TG_PNG_ERR_OPEN;
    }
    struct tg_png_reader *r = calloc(1, sizeof *r);
    if (!r) {
        fclose(file);
        copy_message(message, "out of memory");
        return TG_PNG_ERR_MEMORY;
    }
    r->file = file;
    return open_common(r, limits, out, info, message, limit);
}

int tg_png_open_memory(const uint8_t *data, size_t size, const tg_png_limits *limits,
                       tg_png_reader **out, tg_png_info *info, char message[TG_PNG_MESSAGE_SIZE],
                       tg_limit_hit *limit) {
    *out = NULL;
    *limit = (tg_limit_hit){0};
    struct tg_png_reader *r = calloc(1, sizeof *r);
    if (!r) {
        copy_message(message, "out of memory");
        return TG_PNG_ERR_MEMORY;
    }
    r->memory = data;
    r->memory_size = size;
    return open_common(r, limits, out, info, message, limit);
}

static int fail_state(struct tg_png_reader *r, const char *text) {
    copy_message(r->message, text);
    r->failure = TG_PNG_ERR_STATE;
    return TG_PNG_ERR_STATE;
}

void tg_png_rebase_memory(tg_png_reader *r, const uint8_t *data) { r->memory = data; }

/* Reads what follows the image data up to IEND, so that a bad CRC or missing end is noticed. */
static void finish_image(struct tg_png_reader *r) {
    png_read_end(r->png, NULL);
    r->finished = 1;
}

int tg_png_read_rows(tg_png_reader *r, uint8_t *dst, uint32_t count) {
    if (r->failure != TG_PNG_OK) return r->failure;
    if (r->summary.interlaced) return fail_state(r, "interlaced images must be read whole");
    if (count > r->summary.height - r->rows_read) return fail_state(r, "read past the last row");
    if (setjmp(png_jmpbuf(r->png))) {
        return r->failure != TG_PNG_OK ? r->failure : TG_PNG_ERR_LIBPNG;
    }
    for (uint32_t i = 0; i < count; i++) {
        png_read_row(r->png, dst + (size_t)i * r->summary.row_bytes, NULL);
        r->rows_read++;
    }
    if (r->rows_read == r->summary.height && !r->finished) finish_image(r);
    return TG_PNG_OK;
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

int tg_png_read_image(tg_png_reader *r, uint8_t *dst) {
    if (r->failure != TG_PNG_OK) return r->failure;
    if (r->rows_read != 0) return fail_state(r, "image already partly read");
    png_bytep *rows = malloc(sizeof(png_bytep) * (size_t)r->summary.height);
    if (!rows) {
        copy_message(r->message, "out of memory");
        return TG_PNG_ERR_MEMORY;
    }
    size_t rgba_row_bytes = (size_t)r->summary.width * 4 * (size_t)(r->summary.output_depth / 8);
    for (uint32_t y = 0; y < r->summary.height; y++) rows[y] = dst + (size_t)y * rgba_row_bytes;
    /* `rows` is not modified after setjmp, so it is valid after a longjmp. */
    if (setjmp(png_jmpbuf(r->png))) {
        free(rows);
        return r->failure != TG_PNG_OK ? r->failure : TG_PNG_ERR_LIBPNG;
    }
    png_read_image(r->png, rows);
    r->rows_read = r->summary.height;
    finish_image(r);
    free(rows);
    if (r->summary.row_channels == 3) add_opaque_alpha(dst, r->summary.width, r->summary.height, r->summary.output_depth);
    return TG_PNG_OK;
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

const tg_limit_hit *tg_png_reader_limit(const tg_png_reader *r) { return &r->limit; }

const char *tg_png_reader_message(const tg_png_reader *r) { return r->message; }

void tg_png_close(tg_png_reader *r) {
    if (!r) return;
    if (r->png) png_destroy_read_struct(&r->png, r->info ? &r->info : NULL, NULL);
    if (r->file) fclose(r->file);
    tg_buffer_free(&r->xmp);
    free(r);
}

/* ---- encoding ---- */

struct encode_state {
    tg_buffer *out;
    char message[TG_PNG_MESSAGE_SIZE];
};

static void writer_error(png_structp png, png_const_charp text) {
    struct encode_state *s = png_get_error_ptr(png);
    copy_message(s->message, text);
    png_longjmp(png, 1);
}

static void writer_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static void write_callback(png_structp png, png_bytep data, size_t length) {
    struct encode_state *s = png_get_io_ptr(png);
    if (!tg_buffer_append(s->out, data, length)) png_error(png, "out of memory");
}

static void flush_callback(png_structp png) { (void)png; }

int tg_png_encode(const tg_png_encode_params *p, tg_buffer *out, char message[TG_PNG_MESSAGE_SIZE]) {
    memset(out, 0, sizeof *out);
    struct encode_state *s = calloc(1, sizeof *s);
    if (!s) {
        copy_message(message, "out of memory");
        return TG_PNG_ERR_MEMORY;
    }
    s->out = out;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, s, writer_error, writer_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        if (png) png_destroy_write_struct(&png, NULL);
        free(s);
        copy_message(message, "out of memory");
        return TG_PNG_ERR_MEMORY;
    }
    /* png and info are not modified after this point, so they are valid after a longjmp. */
    if (setjmp(png_jmpbuf(png))) {
        copy_message(message, s->message);
        png_destroy_write_struct(&png, &info);
        tg_buffer_free(out);
        free(s);
        return TG_PNG_ERR_LIBPNG;
    }
    png_set_write_fn(png, s, write_callback, flush_callback);
    /* Fixed settings so the same pixels always give the same bytes (for a given zlib). */
    png_set_compression_level(png, p->compression_level);
    png_set_compression_mem_level(png, 8);
    png_set_compression_strategy(png, Z_DEFAULT_STRATEGY);
    png_set_compression_window_bits(png, 15);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, p->filter_mask);
    png_set_IHDR(png, info, p->width, p->height, p->bit_depth, p->color_type, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    if (p->color_type == PNG_COLOR_TYPE_PALETTE) {
        png_color palette[256];
        for (int i = 0; i < p->palette_count && i < 256; i++) {
            palette[i].red = p->palette[i * 3];
            palette[i].green = p->palette[i * 3 + 1];
            palette[i].blue = p->palette[i * 3 + 2];
        }
        png_set_PLTE(png, info, palette, p->palette_count);
        if (p->trns && p->trns_count > 0) png_set_tRNS(png, info, p->trns, p->trns_count, NULL);
    }
    if (p->icc && p->icc_size > 0) {
        /* A profile libpng finds unfit (e.g. RGB on a gray image) is dropped with a warning rather
         * than failing the write: the pixels are still right, only unlabelled. */
        png_set_benign_errors(png, 1);
        png_set_iCCP(png, info, "icc", PNG_COMPRESSION_TYPE_BASE, p->icc, (png_uint_32)p->icc_size);
    } else if (p->write_srgb) {
        png_set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
    }
    png_write_info(png, info);
    if (p->bit_depth < 8) png_set_packing(png);
    for (uint32_t y = 0; y < p->height; y++) {
        png_write_row(png, p->pixels + (size_t)y * p->stride);
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    free(s);
    return TG_PNG_OK;
}


void tg_png_versions(char out[TG_VERSION_SIZE]) {
    snprintf(out, TG_VERSION_SIZE, "libpng %s, zlib %s", png_get_libpng_ver(NULL), zlibVersion());
}
