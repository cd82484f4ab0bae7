/*
 * clibjpeg.c: the libjpeg reader and writer (see include/clibjpeg.h for the policy); the memory of
 * whole-image coefficient arrays is coefficient_arrays.c's.
 *
 * Each exported function that calls into libjpeg sets the reader's setjmp() point before its
 * first libjpeg call; error_exit copies libjpeg's message and longjmps back there. State that must
 * survive the jump lives in the heap-allocated reader (never in locals modified after setjmp), as
 * the C standard requires for values read after a longjmp.
 */
#include "clibjpeg.h"
#include "coefficient_arrays.h"

#include <limits.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

/* Drops the scans no output pixel depends on (see enable_scan_filter): the source manager's bytes
 * pass through it on their way to libjpeg. */
enum { FILTER_DATA, FILTER_MARKER, FILTER_LENGTH, FILTER_SEGMENT, FILTER_SCAN_HEADER, FILTER_AFTER_EOI };
#define FILTER_HEADER_MAX (2 + 1 + 2 * 4 + 3)   /* an SOS segment of up to four components */
#define FILTER_SAVED_COEFS 10                   /* coefficients libjpeg's block smoothing looks at */

struct scan_filter {
    int on;
    int state;
    int keeping;                /* the entropy-coded data under way goes to libjpeg */
    uint32_t length;            /* the segment length being read */
    uint32_t left;              /* bytes of the segment still to pass */
    uint8_t header[FILTER_HEADER_MAX];   /* an SOS segment (after its marker), held until judged */
    size_t held;
    int scans;                  /* every scan, dropped or kept */
    int dropped;                /* scans dropped */
    int irregular;              /* a marker no valid file has: the decode is redone unfiltered */
    uint8_t dropped_ids[256];   /* component ids whose AC scans are dropped */
    int index_of_id[256];       /* component index by id, -1 for none */
    /* libjpeg's coef_bits for the first coefficients, as the whole file sets them: -1 never
     * sent, else the last scan's Al (0 = exact). */
    signed char bits[MAX_COMPONENTS][FILTER_SAVED_COEFS];
    uint8_t *out;               /* what libjpeg reads: a chunk, less what was dropped */
};

struct tg_jpeg_reader {
    struct jpeg_decompress_struct cinfo;
    struct jpeg_error_mgr err;
    struct jpeg_progress_mgr progress;
    jmp_buf jump;
    struct jpeg_source_mgr source_manager;
    tg_source *source;
    int created;                /* cinfo was created (needs jpeg_destroy_decompress) */
    tg_status failure;          /* set before longjmp; then every later call returns it */
    int allow_partial;
    int truncated;
    int started;
    int finished;
    int raw_cmyk;
    int convert_cmyk;           /* rows come out as CMYK and are converted to RGBA here */
    int row_channels;           /* 3 (RGB) or 4 (RGBA, or raw CMYK) per output pixel */
    uint8_t *scratch;           /* rows tg_jpeg_finish reads past; freed by close if a jump left it */
    uint8_t *icc;               /* from jpeg_read_icc_profile (malloc) */
    unsigned int icc_size;
    int icc_read;
    tg_jpeg_info summary;
    int warnings;
    int kept;
    char warning_text[TG_JPEG_MAX_WARNINGS][TG_MESSAGE_SIZE];
    struct scan_filter filter;
    struct coefficient_arrays coefficients;
};

/* The reader is the first thing libjpeg's cinfo lives in, so the callbacks get back to it. */
static struct tg_jpeg_reader *reader_of(j_common_ptr cinfo) {
    return (struct tg_jpeg_reader *)((char *)cinfo - offsetof(struct tg_jpeg_reader, cinfo));
}

struct coefficient_arrays *coefficient_arrays_of(j_common_ptr cinfo) { return &reader_of(cinfo)->coefficients; }

/* Fails the libjpeg call under way (the first failure's status and message stay); a NULL text
 * keeps the message already recorded in the source. */
static void fail_jump(struct tg_jpeg_reader *r, tg_status status, const char *text) {
    if (r->failure == TG_OK) r->failure = text ? tg_fail(r->source, status, text) : status;
    longjmp(r->jump, 1);
}

/* The status a call that longjmp'd back to its setjmp returns. */
static tg_status jumped(struct tg_jpeg_reader *r) {
    return r->failure != TG_OK ? r->failure : TG_ERR_CORRUPT;
}

/* Replaces libjpeg's default, which prints and calls exit(). */
static void error_exit(j_common_ptr cinfo) {
    struct tg_jpeg_reader *r = reader_of(cinfo);
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    tg_status status = TG_ERR_CORRUPT;
    if (cinfo->err->msg_code == JERR_OUT_OF_MEMORY) status = TG_ERR_MEMORY;
    if (cinfo->err->msg_code == JERR_NO_SOI) status = TG_ERR_UNRECOGNISED;
    /* Valid JPEG processes this libjpeg does not decode are unsupported, not corrupt: lossless
     * (SOF3, SOF7, SOF11, SOF15; libjpeg-turbo reads it from 3.0 only), hierarchical, and data
     * precisions other than 8 bits. */
    if (cinfo->err->msg_code == JERR_SOF_UNSUPPORTED || cinfo->err->msg_code == JERR_BAD_PRECISION) {
        status = TG_ERR_UNSUPPORTED;
        int marker = cinfo->err->msg_parm.i[0];
        if (cinfo->err->msg_code == JERR_SOF_UNSUPPORTED && (marker == 0xc3 || marker == 0xc7 || marker == 0xcb || marker == 0xcf))
            snprintf(text, sizeof text, "lossless JPEG (SOF%d), which this libjpeg does not decode", marker - 0xc0);
        else if (cinfo->err->msg_code == JERR_SOF_UNSUPPORTED)
            snprintf(text, sizeof text, "JPEG process SOF%d, which this libjpeg does not decode", marker - 0xc0);
        else
            snprintf(text, sizeof text, "%d-bit JPEG samples, which this libjpeg does not decode", cinfo->err->msg_parm.i[0]);
    }
    fail_jump(r, status, text);
}

/* Replaces libjpeg's default, which prints warnings to stderr. Trace messages (level > 0) are
 * dropped; warnings are kept for the caller. A premature end stops decoding right here unless a
 * partial image was asked for: otherwise libjpeg would go on and fill the rest with grey. */
static void emit_message(j_common_ptr cinfo, int msg_level) {
    if (msg_level >= 0) return;
    struct tg_jpeg_reader *r = reader_of(cinfo);
    r->warnings++;
    cinfo->err->num_warnings++;
    if (cinfo->err->msg_code == JWRN_JPEG_EOF) {
        r->truncated = 1;
        if (!r->allow_partial) fail_jump(r, TG_ERR_TRUNCATED, "file is truncated");
    }
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    for (int i = 0; i < r->kept; i++) {
        if (strcmp(r->warning_text[i], text) == 0) return;
    }
    if (r->kept < TG_JPEG_MAX_WARNINGS) tg_copy_message(r->warning_text[r->kept++], TG_MESSAGE_SIZE, text);
}

/* Counts scans: a hostile progressive file can have thousands of tiny scans, each a full pass
 * over the coefficients (the reason for libjpeg-turbo's djpeg -maxscans). */
static void progress_monitor(j_common_ptr cinfo) {
    struct tg_jpeg_reader *r = reader_of(cinfo);
    j_decompress_ptr d = (j_decompress_ptr)cinfo;
    if (d->input_scan_number > TG_JPEG_MAX_SCANS) {
        tg_fail_limit(r->source, (tg_limit_hit){TG_LIMIT_SCANS, d->image_width, d->image_height,
                                                (uint64_t)d->input_scan_number, TG_JPEG_MAX_SCANS});
        fail_jump(r, TG_ERR_LIMIT, NULL);
    }
}

/* ---- the source manager ---- */

/* libjpeg asks for more data as it needs it: the source hands out a chunk at a time (a
 * descriptor's next TG_SOURCE_CHUNK bytes, or the lent bytes copied a chunk at a time, so that
 * nothing libjpeg holds points into memory that is lent only for a call), and reading stops at
 * EOI. At the end of the data it does what libjpeg's own sources do: warns (JWRN_JPEG_EOF, which
 * emit_message turns into "file is truncated" unless a partial image is allowed) and inserts a
 * fake EOI. */
static void init_source(j_decompress_ptr cinfo) { (void)cinfo; }
static void term_source(j_decompress_ptr cinfo) { (void)cinfo; }

static size_t filter_scans(struct tg_jpeg_reader *r, const uint8_t *in, size_t count);

static boolean fill_input_buffer(j_decompress_ptr cinfo) {
    static const JOCTET fake_eoi[2] = {0xFF, JPEG_EOI};
    struct tg_jpeg_reader *r = reader_of((j_common_ptr)cinfo);
    for (;;) {
        const uint8_t *data = NULL;
        size_t got = tg_source_read_chunk(r->source, &data);
        if (got == 0) {
            tg_status status = tg_source_status(r->source);
            if (status != TG_OK) fail_jump(r, status, NULL);
            WARNMS(cinfo, JWRN_JPEG_EOF);
            data = fake_eoi;
            got = sizeof fake_eoi;
        } else if (r->filter.on) {
            /* A chunk wholly inside dropped scans gives nothing: read on. */
            got = filter_scans(r, data, got);
            if (got == 0) continue;
            data = r->filter.out;
        }
        r->source_manager.next_input_byte = data;
        r->source_manager.bytes_in_buffer = got;
        return TRUE;
    }
}

static void skip_input_data(j_decompress_ptr cinfo, long count) {
    struct jpeg_source_mgr *src = cinfo->src;
    if (count <= 0) return;
    while ((size_t)count > src->bytes_in_buffer) {
        count -= (long)src->bytes_in_buffer;
        (void)fill_input_buffer(cinfo);
    }
    src->next_input_byte += count;
    src->bytes_in_buffer -= (size_t)count;
}

/* ---- scans no output pixel depends on ---- */

/* At 1/8 scale a component whose IDCT is 1x1 (luma, and chroma stored at full resolution) comes
 * out of its DC coefficients alone (jpeg_idct_1x1 reads coef_block[0] only), so a progressive
 * file's AC scans of that component decide nothing in the image: libjpeg would entropy-decode them
 * (most of a progressive photo's time) into coefficients it never reads. The filter drops those
 * scans from the bytes libjpeg reads; every other byte goes through unchanged. The pixels are
 * those of the full decode as long as libjpeg's block smoothing, which estimates missing AC
 * coefficients, stays off: it is switched off here, and it would also have been off in the full
 * decode unless some component's first coefficients were left unsent or unrefined. The filter
 * tracks exactly that (`bits`); when it happens, tg_jpeg_start decodes the file again without the
 * filter, as it does when the filtered pass fails or meets a marker no encoder writes: whatever
 * the filtered decode cannot stand for, the full decode decides. Scans the filter cannot judge (a
 * malformed header) go to libjpeg to judge. A dropped scan is never decoded, so damage inside one
 * is neither reported nor fatal: the pixels, which do not depend on it, are right. */

/* Records the precision a scan (its SOS segment `h`, after the marker) leaves its coefficients at,
 * as libjpeg will; returns whether the scan is dropped. */
static int record_scan(struct tg_jpeg_reader *r, const uint8_t *h, size_t length) {
    struct scan_filter *f = &r->filter;
    int components = h[2];
    if (components < 1 || components > 4 || length != 6 + 2 * (size_t)components) return 0;
    const uint8_t *p = h + 3 + 2 * components;
    int ss = p[0], se = p[1], ah = p[2] >> 4, al = p[2] & 15;
    /* libjpeg's own checks of a progressive scan (jdphuff.c); anything else is its to reject. */
    int valid = ss == 0 ? se == 0 : (ss <= se && se < DCTSIZE2 && components == 1);
    if (!valid || al > 13 || (ah != 0 && al != ah - 1)) return 0;
    for (int i = 0; i < components; i++) {
        int index = f->index_of_id[h[3 + 2 * i]];
        if (index < 0) return 0;
        for (int k = ss; k <= se && k < FILTER_SAVED_COEFS; k++) f->bits[index][k] = (signed char)al;
    }
    return ss > 0 && f->dropped_ids[h[3]];
}

/* Counts a scan, dropped or kept, against the same limit as progress_monitor. */
static void count_scan(struct tg_jpeg_reader *r) {
    if (++r->filter.scans > TG_JPEG_MAX_SCANS) {
        tg_fail_limit(r->source, (tg_limit_hit){TG_LIMIT_SCANS, r->cinfo.image_width, r->cinfo.image_height,
                                                (uint64_t)r->filter.scans, TG_JPEG_MAX_SCANS});
        fail_jump(r, TG_ERR_LIMIT, NULL);
    }
}

/* Copies `count` bytes of the file into filter.out, less the dropped scans (their SOS segment and
 * entropy-coded data). Markers are followed across calls; an SOS segment is held until it is
 * whole. Returns the bytes written, at most count + FILTER_HEADER_MAX + 2. */
static size_t filter_scans(struct tg_jpeg_reader *r, const uint8_t *in, size_t count) {
    struct scan_filter *f = &r->filter;
    uint8_t *out = f->out;
    size_t o = 0;
    for (size_t i = 0; i < count;) {
        switch (f->state) {
        case FILTER_DATA: {
            const uint8_t *ff = memchr(in + i, 0xFF, count - i);
            size_t run = ff ? (size_t)(ff - (in + i)) : count - i;
            if (f->keeping) {
                memcpy(out + o, in + i, run);
                o += run;
            }
            i += run;
            if (ff) {
                i++;
                f->state = FILTER_MARKER;
            }
            break;
        }
        case FILTER_MARKER: {
            uint8_t m = in[i++];
            if ((m > 0x01 && m < 0xC0) || m == 0xC8 || (m >= 0xF0 && m <= 0xFD)) {
                /* Reserved or junk: libjpeg's restart resync may skip it inside a scan it reads,
                 * or stop there; which, depends on data the filter does not decode. It goes on as
                 * it came, and the decode is redone with every scan read. */
                f->irregular = 1;
            }
            if (m == 0xFF) {                    /* a fill byte: the held 0xFF goes, this one is held */
                if (f->keeping) out[o++] = 0xFF;
            } else if (m == 0x00 || (m >= JPEG_RST0 && m <= JPEG_RST0 + 7)) {
                if (f->keeping) {              /* a stuffed byte or restart marker: the data goes on */
                    out[o++] = 0xFF;
                    out[o++] = m;
                }
                f->state = FILTER_DATA;
            } else if (m == 0xDA) {             /* SOS: held until its scan is judged */
                f->keeping = 1;
                f->held = 0;
                f->state = FILTER_SCAN_HEADER;
            } else {
                f->keeping = 1;
                out[o++] = 0xFF;
                out[o++] = m;
                /* SOI, EOI and TEM have no segment; libjpeg reads nothing after EOI, so neither
                 * does the filter (its record of the scans must be libjpeg's). */
                f->state = m == JPEG_EOI ? FILTER_AFTER_EOI : m == 0xD8 || m == 0x01 ? FILTER_DATA : FILTER_LENGTH;
                f->length = 0;
                f->held = 0;
            }
            break;
        }
        case FILTER_LENGTH:
            f->length = f->length << 8 | in[i];
            out[o++] = in[i++];
            if (++f->held == 2) {
                f->left = f->length > 2 ? f->length - 2 : 0;
                f->state = f->left ? FILTER_SEGMENT : FILTER_DATA;
            }
            break;
        case FILTER_SEGMENT: {
            size_t run = count - i < f->left ? count - i : f->left;
            memcpy(out + o, in + i, run);
            o += run;
            i += run;
            f->left -= (uint32_t)run;
            if (f->left == 0) f->state = FILTER_DATA;
            break;
        }
        case FILTER_AFTER_EOI:
            memcpy(out + o, in + i, count - i);
            o += count - i;
            i = count;
            break;
        case FILTER_SCAN_HEADER: {
            f->header[f->held++] = in[i++];
            if (f->held < 2) break;
            size_t length = (size_t)f->header[0] << 8 | f->header[1];
            if (length < 3 || length > FILTER_HEADER_MAX) {
                /* Not a header the filter reads: it goes to libjpeg as it is. */
                out[o++] = 0xFF;
                out[o++] = 0xDA;
                memcpy(out + o, f->header, f->held);
                o += f->held;
                f->left = length > f->held ? (uint32_t)(length - f->held) : 0;
                f->state = f->left ? FILTER_SEGMENT : FILTER_DATA;
                count_scan(r);
                break;
            }
            if (f->held < length) break;
            count_scan(r);
            f->keeping = !record_scan(r, f->header, length);
            if (f->keeping) {
                out[o++] = 0xFF;
                out[o++] = 0xDA;
                memcpy(out + o, f->header, length);
                o += length;
            } else {
                f->dropped++;
            }
            f->state = FILTER_DATA;
            break;
        }
        }
    }
    return o;
}

/* Called between jpeg_calc_output_dimensions and jpeg_start_decompress, with libjpeg stopped just
 * after the first scan's header: switches the filter on when some component of a progressive
 * file comes out of DC alone, and filters what libjpeg has buffered but not read. Returns whether
 * it is on. */
static int enable_scan_filter(struct tg_jpeg_reader *r) {
    struct scan_filter *f = &r->filter;
    j_decompress_ptr c = &r->cinfo;
    if (!c->progressive_mode || r->allow_partial) return 0;
    int dropping = 0;
    memset(f->index_of_id, -1, sizeof f->index_of_id);
    memset(f->dropped_ids, 0, sizeof f->dropped_ids);
    memset(f->bits, -1, sizeof f->bits);
    for (int ci = 0; ci < c->num_components; ci++) {
        jpeg_component_info *comp = &c->comp_info[ci];
#if JPEG_LIB_VERSION >= 70
        int dc_only = comp->DCT_h_scaled_size == 1 && comp->DCT_v_scaled_size == 1;
#else
        int dc_only = comp->DCT_scaled_size == 1;
#endif
        if (f->index_of_id[comp->component_id] >= 0) return 0;   /* two components, one id */
        f->index_of_id[comp->component_id] = ci;
        f->dropped_ids[comp->component_id] = (uint8_t)dc_only;
        dropping |= dc_only;
    }
    if (!dropping) return 0;
    f->out = malloc(TG_SOURCE_CHUNK + FILTER_HEADER_MAX + 2);
    if (!f->out) return 0;
    /* The first scan, read with the header: its entropy-coded data comes next, and always goes
     * (a component's first scan is its DC). */
    for (int i = 0; i < c->comps_in_scan; i++) {
        for (int k = c->Ss; k <= c->Se && k < FILTER_SAVED_COEFS; k++)
            f->bits[c->cur_comp_info[i]->component_index][k] = (signed char)c->Al;
    }
    f->scans = 1;
    f->on = 1;
    f->keeping = 1;
    f->state = FILTER_DATA;
    size_t n = filter_scans(r, r->source_manager.next_input_byte, r->source_manager.bytes_in_buffer);
    r->source_manager.next_input_byte = f->out;
    r->source_manager.bytes_in_buffer = n;
    return 1;
}

/* Whether libjpeg's block smoothing would have acted in a full decode: some component's first
 * coefficients not sent, or not refined to the last bit (smoothing_ok in jdcoefct.c). */
static int full_decode_smooths(const struct tg_jpeg_reader *r) {
    for (int ci = 0; ci < r->cinfo.num_components; ci++) {
        for (int k = 1; k < FILTER_SAVED_COEFS; k++) {
            if (r->filter.bits[ci][k] != 0) return 1;
        }
    }
    return 0;
}

static int space_of(J_COLOR_SPACE space) {
    switch (space) {
    case JCS_GRAYSCALE: return TG_JPEG_CS_GRAY;
    case JCS_RGB: return TG_JPEG_CS_RGB;
    case JCS_YCbCr: return TG_JPEG_CS_YCBCR;
    case JCS_CMYK: return TG_JPEG_CS_CMYK;
    case JCS_YCCK: return TG_JPEG_CS_YCCK;
    default: return TG_JPEG_CS_UNKNOWN;
    }
}

/* Checks the start-of-image marker, then sets up libjpeg and reads the header. */
tg_status tg_jpeg_open(tg_source *source, const tg_limits *limits, tg_jpeg_reader **out, tg_jpeg_info *info) {
    struct tg_jpeg_reader *r = *out = calloc(1, sizeof *r);
    if (!r) return tg_fail(source, TG_ERR_MEMORY, "out of memory");
    r->source = source;
    uint8_t head[2] = {0, 0};
    if (tg_source_head(r->source, head, sizeof head) < 2 || head[0] != 0xFF || head[1] != 0xD8)
        return tg_fail(r->source, TG_ERR_UNRECOGNISED, "not a JPEG file (no start-of-image marker)");
    r->cinfo.err = jpeg_std_error(&r->err);
    r->err.error_exit = error_exit;
    r->err.emit_message = emit_message;
    if (setjmp(r->jump)) {
        return jumped(r);
    }
    jpeg_create_decompress(&r->cinfo);
    r->created = 1;
    /* libjpeg refuses (JERR_NO_BACKING_STORE, "out of memory") rather than allocate more than
     * the budget, e.g. a progressive image's coefficient buffer. */
    if (limits->max_memory != 0) r->cinfo.mem->max_memory_to_use = (long)(limits->max_memory > (uint64_t)LONG_MAX ? LONG_MAX : limits->max_memory);
    coefficient_arrays_install((j_common_ptr)&r->cinfo, &r->coefficients);
    r->progress.progress_monitor = progress_monitor;
    r->cinfo.progress = &r->progress;
    r->source_manager.init_source = init_source;
    r->source_manager.fill_input_buffer = fill_input_buffer;
    r->source_manager.skip_input_data = skip_input_data;
    r->source_manager.resync_to_restart = jpeg_resync_to_restart;
    r->source_manager.term_source = term_source;
    r->cinfo.src = &r->source_manager;
    /* EXIF and XMP (APP1) and ICC (APP2) are kept whole; a marker holds at most 65533 bytes. */
    jpeg_save_markers(&r->cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_save_markers(&r->cinfo, JPEG_APP0 + 2, 0xFFFF);
    jpeg_read_header(&r->cinfo, TRUE);

    uint32_t width = r->cinfo.image_width, height = r->cinfo.image_height;
    tg_status status = tg_check_dimensions(r->source, limits, width, height);
    if (status != TG_OK) return status;
    r->summary.width = width;
    r->summary.height = height;
    r->summary.components = r->cinfo.num_components;
    r->summary.color_space = space_of(r->cinfo.jpeg_color_space);
    r->summary.progressive = r->cinfo.progressive_mode ? 1 : 0;
    r->summary.adobe_marker = r->cinfo.saw_Adobe_marker ? 1 : 0;
    /* Adobe's applications write CMYK inverted (0 = full ink) and mark it with APP14; libjpeg
     * leaves the samples as stored. Without the marker, plain CMYK is taken as ink amounts. */
    r->summary.inverted_cmyk = r->cinfo.saw_Adobe_marker ? 1 : 0;
    if (r->summary.color_space == TG_JPEG_CS_UNKNOWN) return tg_fail(r->source, TG_ERR_UNSUPPORTED, "a colour space this libjpeg does not convert");
    *info = r->summary;
    return TG_OK;
}


int tg_jpeg_exif(const tg_jpeg_reader *r, const uint8_t **data, size_t *size) {
    static const uint8_t ident[6] = {'E', 'x', 'i', 'f', 0, 0};
    for (jpeg_saved_marker_ptr m = r->cinfo.marker_list; m; m = m->next) {
        if (m->marker == JPEG_APP0 + 1 && m->data_length >= 6 && memcmp(m->data, ident, 6) == 0) {
            *data = m->data + 6;
            *size = m->data_length - 6;
            return 1;
        }
    }
    return 0;
}

int tg_jpeg_xmp(const tg_jpeg_reader *r, const uint8_t **data, size_t *size) {
    /* XMP Specification Part 3, §1.1.3: the namespace URI and a NUL, then the packet. */
    static const char ident[] = "http://ns.adobe.com/xap/1.0/";
    const size_t length = sizeof ident; /* with its NUL */
    for (jpeg_saved_marker_ptr m = r->cinfo.marker_list; m; m = m->next) {
        if (m->marker == JPEG_APP0 + 1 && m->data_length >= length && memcmp(m->data, ident, length) == 0) {
            *data = m->data + length;
            *size = m->data_length - length;
            return 1;
        }
    }
    return 0;
}

int tg_jpeg_icc(tg_jpeg_reader *r, const uint8_t **data, size_t *size) {
    if (!r->icc_read) {
        r->icc_read = 1;
        if (setjmp(r->jump)) return 0;
        JOCTET *icc = NULL;
        unsigned int length = 0;
        /* Reassembles the numbered chunks; a missing or duplicated chunk is a warning and FALSE. */
        if (jpeg_read_icc_profile(&r->cinfo, &icc, &length) && icc) {
            r->icc = icc;
            r->icc_size = length;
        }
    }
    if (!r->icc) return 0;
    *data = r->icc;
    *size = r->icc_size;
    return 1;
}

/* The output settings, on a header just read (jpeg_read_header resets them). */
static void configure_output(struct tg_jpeg_reader *r, int scale_denom, int rgb_rows) {
    r->cinfo.scale_num = 1;
    r->cinfo.scale_denom = (unsigned int)scale_denom;
    /* Accurate integer IDCT and fancy upsampling: libjpeg's defaults, deterministic on every
     * machine (the integer paths of libjpeg-turbo give the same results with or without SIMD). */
    r->cinfo.dct_method = JDCT_ISLOW;
    r->cinfo.do_fancy_upsampling = TRUE;
    int cmyk = r->summary.color_space == TG_JPEG_CS_CMYK || r->summary.color_space == TG_JPEG_CS_YCCK;
    if (cmyk) {
        /* libjpeg converts YCCK to CMYK but not CMYK to RGB; that is done here or by the caller. */
        r->cinfo.out_color_space = JCS_CMYK;
        r->row_channels = 4;
    } else {
        r->cinfo.out_color_space = rgb_rows ? JCS_EXT_RGB : JCS_EXT_RGBA;
        r->row_channels = rgb_rows ? 3 : 4;
    }
    jpeg_calc_output_dimensions(&r->cinfo);
}

/* The output size, once libjpeg has started decompressing. */
static tg_status started(struct tg_jpeg_reader *r, uint32_t *out_width, uint32_t *out_height, int *out_channels) {
    *out_width = r->cinfo.output_width;
    *out_height = r->cinfo.output_height;
    *out_channels = r->row_channels;
    r->started = 1;
    if (r->cinfo.output_components != r->row_channels)
        return r->failure = tg_fail(r->source, TG_ERR_FAILED, "internal error: unexpected output layout");
    return TG_OK;
}

/* Decodes again from the first byte with every scan read, after a filtered pass that cannot stand
 * for the full decode. Called behind the caller's setjmp. */
static void restart_unfiltered(struct tg_jpeg_reader *r, int scale_denom, int rgb_rows) {
    jpeg_abort_decompress(&r->cinfo);
    r->filter.on = 0;
    r->filter.dropped = 0;
    r->failure = TG_OK;
    r->warnings = r->kept = r->truncated = 0;
    tg_source_seek(r->source, 0);
    r->source_manager.next_input_byte = NULL;
    r->source_manager.bytes_in_buffer = 0;
    jpeg_read_header(&r->cinfo, TRUE);
    configure_output(r, scale_denom, rgb_rows);
    jpeg_start_decompress(&r->cinfo);
}

tg_status tg_jpeg_start(tg_jpeg_reader *r, int scale_denom, int raw_cmyk, int allow_partial, int rgb_rows,
                  uint32_t *out_width, uint32_t *out_height, int *out_channels) {
    if (r->failure != TG_OK) return r->failure;
    if (r->started) return r->failure = tg_fail(r->source, TG_ERR_FAILED, "decompression already started");
    if (scale_denom != 1 && scale_denom != 2 && scale_denom != 4 && scale_denom != 8)
        return r->failure = tg_fail(r->source, TG_ERR_FAILED, "scale must be 1/1, 1/2, 1/4 or 1/8");
    r->allow_partial = allow_partial;
    if (setjmp(r->jump)) {
        if (!r->filter.on) return jumped(r);
        /* The filtered pass failed: what the file is, the decode that reads every scan says. */
        if (setjmp(r->jump)) return jumped(r);
        restart_unfiltered(r, scale_denom, rgb_rows);
        return started(r, out_width, out_height, out_channels);
    }
    int cmyk = r->summary.color_space == TG_JPEG_CS_CMYK || r->summary.color_space == TG_JPEG_CS_YCCK;
    r->raw_cmyk = cmyk && raw_cmyk;
    r->convert_cmyk = cmyk && !raw_cmyk;
    configure_output(r, scale_denom, rgb_rows);
    /* A progressive file reads all its scans here. */
    if (enable_scan_filter(r)) {
        r->cinfo.do_block_smoothing = FALSE;
        jpeg_start_decompress(&r->cinfo);
        /* Rare: the full decode would smooth blocks with AC coefficients the filter dropped, or
         * the file has markers no encoder writes. Start again, every scan read, with the
         * warnings that decode gives. */
        if (full_decode_smooths(r) || r->filter.irregular) restart_unfiltered(r, scale_denom, rgb_rows);
    } else {
        jpeg_start_decompress(&r->cinfo);
    }
    return started(r, out_width, out_height, out_channels);
}

/* Naive CMYK → RGB, as every viewer without a profile does: each ink removes its share of light.
 * Inverted (Adobe) samples already are "1 - ink", so R = C'·K'; plain ones are R = (1-C)(1-K). */
static void cmyk_row_to_rgba(uint8_t *row, uint32_t width, int inverted) {
    for (uint32_t x = 0; x < width; x++) {
        uint8_t *p = row + (size_t)x * 4;
        unsigned c = p[0], m = p[1], y = p[2], k = p[3];
        if (!inverted) {
            c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k;
        }
        p[0] = (uint8_t)((c * k + 127) / 255);
        p[1] = (uint8_t)((m * k + 127) / 255);
        p[2] = (uint8_t)((y * k + 127) / 255);
        p[3] = 255;
    }
}

/* Reads up to `count` rows, a few at a time as libjpeg hands them out (up to four per call for
 * 2x2 subsampling). Called behind the caller's setjmp. */
static void read_rows(struct tg_jpeg_reader *r, uint8_t *dst, uint32_t count) {
    size_t row_bytes = (size_t)r->cinfo.output_width * (size_t)r->row_channels;
    JDIMENSION end = r->cinfo.output_scanline + count;
    while (r->cinfo.output_scanline < end) {
        JSAMPROW rows[4];
        JDIMENSION first = r->cinfo.output_scanline;
        int n = 0;
        for (; n < 4 && first + (JDIMENSION)n < end; n++)
            rows[n] = dst + (size_t)(first + (JDIMENSION)n - (end - count)) * row_bytes;
        JDIMENSION got = jpeg_read_scanlines(&r->cinfo, rows, (JDIMENSION)n);
        if (r->convert_cmyk) {
            for (JDIMENSION i = 0; i < got; i++) cmyk_row_to_rgba(rows[i], r->cinfo.output_width, r->summary.inverted_cmyk);
        }
        if (got == 0) fail_jump(r, TG_ERR_CORRUPT, "libjpeg returned no rows");
    }
}

static tg_status check_reading(struct tg_jpeg_reader *r, uint32_t count) {
    if (r->failure != TG_OK) return r->failure;
    if (!r->started || r->finished) return r->failure = tg_fail(r->source, TG_ERR_FAILED, "read without start, or after the end");
    if (count > r->cinfo.output_height - r->cinfo.output_scanline)
        return r->failure = tg_fail(r->source, TG_ERR_FAILED, "read past the last row");
    return TG_OK;
}

tg_status tg_jpeg_read_rows(tg_jpeg_reader *r, uint8_t *dst, uint32_t count) {
    tg_status status = check_reading(r, count);
    if (status != TG_OK) return status;
    if (setjmp(r->jump)) {
        return jumped(r);
    }
    read_rows(r, dst, count);
    return TG_OK;
}

tg_status tg_jpeg_finish(tg_jpeg_reader *r) {
    tg_status status = check_reading(r, 0);
    if (status != TG_OK) return status;
    if (setjmp(r->jump)) {
        return jumped(r);
    }
    if (r->cinfo.output_scanline < r->cinfo.output_height) {
        /* Rows nobody needs are still decoded: the data up to EOI is checked the same way whether
         * the image was read whole or streamed, so a truncated tail fails either way. */
        size_t row_bytes = (size_t)r->cinfo.output_width * (size_t)r->row_channels;
        uint8_t *scratch = malloc(row_bytes * 4);
        if (!scratch) return r->failure = tg_fail(r->source, TG_ERR_MEMORY, "out of memory");
        r->scratch = scratch;
        while (r->cinfo.output_scanline < r->cinfo.output_height) {
            JDIMENSION left = r->cinfo.output_height - r->cinfo.output_scanline;
            read_rows(r, scratch, left < 4 ? left : 4);
        }
        r->scratch = NULL;
        free(scratch);
    }
    jpeg_finish_decompress(&r->cinfo);
    r->finished = 1;
    return TG_OK;
}

tg_status tg_jpeg_read_image(tg_jpeg_reader *r, uint8_t *dst) {
    tg_status status = tg_jpeg_read_rows(r, dst, r->started ? r->cinfo.output_height - r->cinfo.output_scanline : 0);
    return status != TG_OK ? status : tg_jpeg_finish(r);
}

int tg_jpeg_warning_count(const tg_jpeg_reader *r) { return r->warnings; }
int tg_jpeg_kept_warning_count(const tg_jpeg_reader *r) { return r->kept; }
const char *tg_jpeg_warning(const tg_jpeg_reader *r, int index) {
    return index >= 0 && index < r->kept ? r->warning_text[index] : "";
}
int tg_jpeg_was_truncated(const tg_jpeg_reader *r) { return r->truncated; }
int tg_jpeg_dropped_scans(const tg_jpeg_reader *r) { return r->filter.dropped; }
int tg_jpeg_is_raw_cmyk(const tg_jpeg_reader *r) { return r->started && r->raw_cmyk; }

void tg_jpeg_close(tg_jpeg_reader *r) {
    if (!r) return;
    if (r->created) jpeg_destroy_decompress(&r->cinfo);
    coefficient_arrays_end(&r->coefficients);
    free(r->filter.out);
    free(r->scratch);
    free(r->icc);
    free(r);
}

/* ---- encoding ---- */

struct encode_state {
    struct jpeg_compress_struct cinfo;
    struct jpeg_error_mgr err;
    jmp_buf jump;
    unsigned char *buffer;
    unsigned long size;
    char message[TG_MESSAGE_SIZE];
};

static void encode_error_exit(j_common_ptr cinfo) {
    struct encode_state *s = (struct encode_state *)((char *)cinfo - offsetof(struct encode_state, cinfo));
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    tg_copy_message(s->message, sizeof s->message, text);
    longjmp(s->jump, 1);
}

static void encode_emit_message(j_common_ptr cinfo, int msg_level) {
    (void)cinfo;
    (void)msg_level;
}

tg_status tg_jpeg_encode(const tg_jpeg_encode_params *p, tg_buffer *out, char message[TG_MESSAGE_SIZE]) {
    *out = (tg_buffer){0};
    if (p->components != 1 && p->components != 3 && p->components != 4) {
        tg_copy_message(message, TG_MESSAGE_SIZE, "components must be 1, 3 or 4");
        return TG_ERR_FAILED;
    }
    struct encode_state *s = calloc(1, sizeof *s);
    if (!s) {
        tg_copy_message(message, TG_MESSAGE_SIZE, "out of memory");
        return TG_ERR_MEMORY;
    }
    s->cinfo.err = jpeg_std_error(&s->err);
    s->err.error_exit = encode_error_exit;
    s->err.emit_message = encode_emit_message;
    if (setjmp(s->jump)) {
        tg_copy_message(message, TG_MESSAGE_SIZE, s->message);
        jpeg_destroy_compress(&s->cinfo);
        free(s->buffer);
        free(s);
        return TG_ERR_FAILED;
    }
    jpeg_create_compress(&s->cinfo);
    jpeg_mem_dest(&s->cinfo, &s->buffer, &s->size);
    s->cinfo.image_width = p->width;
    s->cinfo.image_height = p->height;
    s->cinfo.input_components = p->components;
    s->cinfo.in_color_space = p->components == 1 ? JCS_GRAYSCALE : p->components == 3 ? JCS_RGB : JCS_CMYK;
    jpeg_set_defaults(&s->cinfo);
    if (p->components == 4) jpeg_set_colorspace(&s->cinfo, p->ycck ? JCS_YCCK : JCS_CMYK);
    jpeg_set_quality(&s->cinfo, p->quality, TRUE);
    /* Fixed settings: optimised Huffman tables and the accurate DCT, so the same input always
     * gives the same bytes. */
    s->cinfo.optimize_coding = TRUE;
    s->cinfo.dct_method = JDCT_ISLOW;
    if (p->components >= 3) {
        int h = p->subsampling == 0 ? 1 : 2;
        int v = p->subsampling == 2 ? 2 : 1;
        s->cinfo.comp_info[0].h_samp_factor = h;
        s->cinfo.comp_info[0].v_samp_factor = v;
        for (int c = 1; c < s->cinfo.num_components; c++) {
            s->cinfo.comp_info[c].h_samp_factor = 1;
            s->cinfo.comp_info[c].v_samp_factor = 1;
        }
        if (p->components == 4 && !p->ycck) {
            /* Plain CMYK has no luma; subsampling its K would make no sense. */
            s->cinfo.comp_info[0].h_samp_factor = 1;
            s->cinfo.comp_info[0].v_samp_factor = 1;
        }
    }
    if (p->progressive) jpeg_simple_progression(&s->cinfo);
    jpeg_start_compress(&s->cinfo, TRUE);
    if (p->app1 && p->app1_size > 0) jpeg_write_marker(&s->cinfo, JPEG_APP0 + 1, p->app1, (unsigned int)p->app1_size);
    if (p->icc && p->icc_size > 0) jpeg_write_icc_profile(&s->cinfo, p->icc, (unsigned int)p->icc_size);
    while (s->cinfo.next_scanline < s->cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(p->pixels + (size_t)s->cinfo.next_scanline * p->stride);
        jpeg_write_scanlines(&s->cinfo, &row, 1);
    }
    jpeg_finish_compress(&s->cinfo);
    /* libjpeg's memory destination mallocs the bytes; the caller frees them with tg_buffer_free. */
    *out = (tg_buffer){s->buffer, s->size, s->size};
    jpeg_destroy_compress(&s->cinfo);
    free(s);
    return TG_OK;
}

#define TG_STR2(x) #x
#define TG_STR(x) TG_STR2(x)

void tg_jpeg_version(char out[TG_VERSION_SIZE]) {
#ifdef LIBJPEG_TURBO_VERSION
    snprintf(out, TG_VERSION_SIZE, "libjpeg-turbo %s (API %d)", TG_STR(LIBJPEG_TURBO_VERSION), JPEG_LIB_VERSION);
#else
    snprintf(out, TG_VERSION_SIZE, "libjpeg (API %d)", JPEG_LIB_VERSION);
#endif
}
