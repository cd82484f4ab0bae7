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
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

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
};

/* ---- reading ---- */

static void reader_error(png_structp png, png_const_charp text) {
    struct tg_png_reader *r = png_get_error_ptr(png);
    if (r->failure == TG_OK) r->failure = tg_fail(r->source, TG_ERR_CORRUPT, text);
    png_longjmp(png, 1);
}

static void reader_warning(png_structp png, png_const_charp text) {
    /* Warnings (a bad ancillary CRC, an sRGB profile libpng dislikes) do not stop decoding. */
    (void)png;
    (void)text;
}

/* Fails the libpng call under way with a status of our own (the first failure's stays). */
static void fail_in_callback(png_structp png, struct tg_png_reader *r, tg_status status, const char *text) {
    if (r->failure == TG_OK) r->failure = text ? tg_fail(r->source, status, text) : status;
    png_error(png, tg_source_message(r->source));
}

static void read_callback(png_structp png, png_bytep dst, size_t length) {
    struct tg_png_reader *r = png_get_io_ptr(png);
    if (tg_source_read(r->source, dst, length) < length) fail_in_callback(png, r, tg_source_status(r->source), NULL);
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

tg_status tg_png_open(tg_source *source, const tg_limits *limits, tg_png_reader **out, tg_png_info *info) {
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
    *info = r->summary;
    *info = r->summary;
    return TG_OK;
}


static tg_status fail_state(struct tg_png_reader *r, const char *text) {
    return r->failure = tg_fail(r->source, TG_ERR_FAILED, text);
}

/* Reads what follows the image data up to IEND, so that a bad CRC or missing end is noticed. */
static void finish_image(struct tg_png_reader *r) {
    png_read_end(r->png, NULL);
    r->finished = 1;
}

tg_status tg_png_read_rows(tg_png_reader *r, void *dst, uint32_t count) {
    if (r->failure != TG_OK) return r->failure;
    if (r->summary.interlaced) return fail_state(r, "interlaced images must be read whole");
    if (count > r->summary.height - r->rows_read) return fail_state(r, "read past the last row");
    if (setjmp(png_jmpbuf(r->png))) {
        return r->failure;
    }
    for (uint32_t i = 0; i < count; i++) {
        png_read_row(r->png, (uint8_t *)dst + (size_t)i * r->summary.row_bytes, NULL);
        r->rows_read++;
    }
    if (r->rows_read == r->summary.height && !r->finished) finish_image(r);
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

tg_status tg_png_read_image(tg_png_reader *r, void *dst) {
    if (r->failure != TG_OK) return r->failure;
    if (r->rows_read != 0) return fail_state(r, "image already partly read");
    png_bytep *rows = malloc(sizeof(png_bytep) * (size_t)r->summary.height);
    if (!rows) return tg_fail(r->source, TG_ERR_MEMORY, "out of memory");
    size_t rgba_row_bytes = (size_t)r->summary.width * 4 * (size_t)(r->summary.output_depth / 8);
    for (uint32_t y = 0; y < r->summary.height; y++) rows[y] = (uint8_t *)dst + (size_t)y * rgba_row_bytes;
    /* `rows` is not modified after setjmp, so it is valid after a longjmp. */
    if (setjmp(png_jmpbuf(r->png))) {
        free(rows);
        return r->failure;
    }
    png_read_image(r->png, rows);
    r->rows_read = r->summary.height;
    finish_image(r);
    free(rows);
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
    free(r);
}

void tg_png_versions(char out[TG_VERSION_SIZE]) {
    snprintf(out, TG_VERSION_SIZE, "libpng %s, zlib %s", png_get_libpng_ver(NULL), zlibVersion());
}
