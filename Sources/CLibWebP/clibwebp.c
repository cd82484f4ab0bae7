/*
 * clibwebp.c: the only file that calls libwebp. See include/clibwebp.h for the policy.
 *
 * libwebp reports failures as status codes (no longjmp), so every call here simply returns.
 */
#include "clibwebp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <webp/decode.h>
#include <webp/demux.h>

struct tg_webp_reader {
    tg_source *source;
    uint8_t *owned;             /* a file's WebP data, read once; NULL for bytes in memory, which
                                 * are decoded where they are lent */
    size_t size;                /* bytes of data: owned's, or all the lent bytes */
    tg_webp_info summary;
    tg_buffer icc, exif, xmp;   /* the header's chunks, copied: the data is lent only for a call */
};

static uint32_t le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The WebP data while it can be read: the reader's own copy of a file's, or the lent bytes. */
static const uint8_t *data_of(const struct tg_webp_reader *r) {
    return r->owned ? r->owned : tg_source_memory(r->source);
}

/* Checks the RIFF header and its declared size against the limits; a file's data (the RIFF
 * chunk, no more: what follows is never read) is read into the reader, in one buffer sized from
 * the header once the memory budget allows it. A file shorter than its RIFF size is read as far as
 * it goes. */
static tg_status read_data(struct tg_webp_reader *r, const tg_limits *limits) {
    tg_source *s = r->source;
    uint64_t size = tg_source_size(s);
    uint8_t header[12];
    if (tg_source_read_direct(s, header, sizeof header) < sizeof header) return tg_source_status(s);
    if (memcmp(header, "RIFF", 4) != 0 || memcmp(header + 8, "WEBP", 4) != 0)
        return tg_fail(s, TG_ERR_UNRECOGNISED, "not a WebP file (no RIFF/WEBP header)");
    /* The RIFF size covers everything after its own 8 bytes; what follows it is not WebP. */
    uint64_t declared = (uint64_t)le32(header + 4) + 8;
    if (limits->max_file_bytes != 0 && declared > limits->max_file_bytes)
        return tg_fail_limit(s, (tg_limit_hit){TG_LIMIT_FILE_BYTES, 0, 0, declared, limits->max_file_bytes});
    if (tg_source_memory(s)) {
        r->size = (size_t)size;
        return TG_OK;
    }
    uint64_t wanted = declared < size ? declared : size;
    if (limits->max_memory != 0 && wanted > limits->max_memory)
        return tg_fail_limit(s, (tg_limit_hit){TG_LIMIT_MEMORY, 0, 0, wanted, limits->max_memory});
    size_t rest = wanted > sizeof header ? (size_t)(wanted - sizeof header) : 0;
    r->owned = malloc(sizeof header + rest);
    if (!r->owned) return tg_fail(s, TG_ERR_MEMORY, "out of memory");
    memcpy(r->owned, header, sizeof header);
    size_t got = tg_source_read_direct(s, r->owned + sizeof header, rest);
    if (got < rest) return tg_source_status(s);
    r->size = sizeof header + got;
    return TG_OK;
}

/* A chunk of the header, copied out of the data; nothing when it is larger than `max` bytes. */
static void keep_chunk(WebPDemuxer *demux, const char *fourcc, size_t max, tg_buffer *out, const uint8_t **data, size_t *size) {
    WebPChunkIterator chunk;
    if (!WebPDemuxGetChunk(demux, fourcc, 1, &chunk)) return;
    if (chunk.chunk.size <= max && tg_buffer_append(out, chunk.chunk.bytes, chunk.chunk.size) && out->size > 0) {
        *data = out->data;
        *size = out->size;
    }
    WebPDemuxReleaseChunkIterator(&chunk);
}

/* Parses the container and checks the canvas against the limits. */
static tg_status probe(struct tg_webp_reader *r, const tg_limits *limits) {
    tg_source *s = r->source;
    const uint8_t *data = data_of(r);
    size_t size = r->size;
    uint64_t declared = (uint64_t)le32(data + 4) + 8;
    /* Bytes past the RIFF chunk are not part of the image. */
    if (declared < size) size = (size_t)declared;
    WebPData webp = {data, size};
    WebPDemuxState state = WEBP_DEMUX_PARSE_ERROR;
    WebPDemuxer *demux = WebPDemuxPartial(&webp, &state);
    if (!demux || state == WEBP_DEMUX_PARSE_ERROR) {
        if (demux) WebPDemuxDelete(demux);
        /* The container parser also fails on a file cut inside its first chunk header. */
        return declared > size ? tg_fail(s, TG_ERR_TRUNCATED, "file is truncated") : tg_fail(s, TG_ERR_CORRUPT, "invalid WebP container");
    }
    uint32_t width = WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH);
    uint32_t height = WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT);
    uint32_t flags = WebPDemuxGetI(demux, WEBP_FF_FORMAT_FLAGS);
    tg_status status = TG_OK;
    if (width == 0 || height == 0) {
        status = state == WEBP_DEMUX_DONE ? tg_fail(s, TG_ERR_CORRUPT, "invalid WebP canvas size") : tg_fail(s, TG_ERR_TRUNCATED, "file is truncated");
    } else {
        status = tg_check_dimensions(s, limits, width, height);
        if (status == TG_OK && state != WEBP_DEMUX_DONE) status = tg_fail(s, TG_ERR_TRUNCATED, "file is truncated");
    }
    WebPIterator frame;
    memset(&frame, 0, sizeof frame);
    if (status == TG_OK && !WebPDemuxGetFrame(demux, 1, &frame)) status = tg_fail(s, TG_ERR_CORRUPT, "no image data");
    if (status == TG_OK) {
        WebPBitstreamFeatures features;
        if (WebPGetFeatures(frame.fragment.bytes, frame.fragment.size, &features) != VP8_STATUS_OK) {
            status = tg_fail(s, TG_ERR_CORRUPT, "invalid image data");
        } else {
            tg_webp_info *info = &r->summary;
            info->width = width;
            info->height = height;
            info->animated = (flags & ANIMATION_FLAG) != 0;
            info->frames = WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT);
            info->lossless = features.format == 2;
            info->has_alpha = (flags & ALPHA_FLAG) != 0 || features.has_alpha;
            info->data_bytes = r->size;
            keep_chunk(demux, "ICCP", SIZE_MAX, &r->icc, &info->icc, &info->icc_size);
            keep_chunk(demux, "EXIF", SIZE_MAX, &r->exif, &info->exif, &info->exif_size);
            keep_chunk(demux, "XMP ", (size_t)limits->max_metadata_bytes, &r->xmp, &info->xmp, &info->xmp_size);
        }
        WebPDemuxReleaseIterator(&frame);
    }
    WebPDemuxDelete(demux);
    return status;
}

tg_status tg_webp_open(tg_source *source, const tg_limits *limits, tg_webp_reader **out, tg_webp_info *info) {
    struct tg_webp_reader *r = *out = calloc(1, sizeof *r);
    if (!r) return tg_fail(source, TG_ERR_MEMORY, "out of memory");
    r->source = source;
    tg_status status = read_data(r, limits);
    if (status == TG_OK) status = probe(r, limits);
    *info = r->summary;
    return status;
}

void tg_webp_close(tg_webp_reader *r) {
    if (!r) return;
    free(r->owned);
    tg_buffer_free(&r->icc);
    tg_buffer_free(&r->exif);
    tg_buffer_free(&r->xmp);
    free(r);
}

static const char *status_text(VP8StatusCode status) {
    switch (status) {
    case VP8_STATUS_OUT_OF_MEMORY: return "out of memory";
    case VP8_STATUS_INVALID_PARAM: return "image data does not fit its canvas";
    case VP8_STATUS_BITSTREAM_ERROR: return "invalid image data";
    case VP8_STATUS_UNSUPPORTED_FEATURE: return "a feature this libwebp does not decode";
    case VP8_STATUS_NOT_ENOUGH_DATA: return "file is truncated";
    default: return "cannot decode";
    }
}

tg_status tg_webp_decode(tg_webp_reader *r, uint32_t out_width, uint32_t out_height, uint8_t *dst) {
    tg_source *s = r->source;
    const tg_webp_info *info = &r->summary;
    const uint8_t *data = data_of(r);
    size_t size = r->size;
    if (!data) return tg_fail(s, TG_ERR_FAILED, "internal error: bytes read while not lent");
    uint64_t declared = size >= 8 ? (uint64_t)le32(data + 4) + 8 : 0;
    if (declared < size) size = (size_t)declared;
    int scaled = out_width != 0 && out_height != 0 && (out_width != info->width || out_height != info->height);
    if (!scaled) {
        out_width = info->width;
        out_height = info->height;
    }
    size_t stride = (size_t)out_width * 4, total = stride * out_height;
    if (scaled && (info->animated || out_width > info->width || out_height > info->height)) {
        /* libwebp's animation decoder has no scaler; and the scaler is for reducing only. */
        return tg_fail(s, TG_ERR_CORRUPT, "cannot scale this image while decoding");
    }
    if (info->animated) {
        /* The first frame as libwebp's animation decoder composes it onto the canvas. */
        WebPAnimDecoderOptions options;
        if (!WebPAnimDecoderOptionsInit(&options)) return tg_fail(s, TG_ERR_CORRUPT, "libwebp version mismatch");
        options.color_mode = MODE_RGBA;
        options.use_threads = 0;   /* see WebPDecode's below */
        WebPData webp = {data, size};
        WebPAnimDecoder *decoder = WebPAnimDecoderNew(&webp, &options);
        if (!decoder) return tg_fail(s, TG_ERR_CORRUPT, "invalid animation");
        WebPAnimInfo anim;
        uint8_t *canvas = NULL;
        int timestamp = 0;
        tg_status status = TG_OK;
        if (!WebPAnimDecoderGetInfo(decoder, &anim) || anim.canvas_width != info->width || anim.canvas_height != info->height) {
            status = tg_fail(s, TG_ERR_CORRUPT, "animation canvas differs from the header");
        } else if (!WebPAnimDecoderGetNext(decoder, &canvas, &timestamp) || !canvas) {
            status = tg_fail(s, TG_ERR_CORRUPT, "cannot decode the first frame");
        } else {
            memcpy(dst, canvas, total);
        }
        WebPAnimDecoderDelete(decoder);
        return status;
    }
    WebPDecoderConfig config;
    if (!WebPInitDecoderConfig(&config)) return tg_fail(s, TG_ERR_CORRUPT, "libwebp version mismatch");
    if (scaled) {
        /* libwebp's rescaler: each output pixel is the area average of the W/w x H/h input pixels
         * it covers, so the whole image maps exactly onto the scaled one. */
        config.options.use_scaling = 1;
        config.options.scaled_width = (int)out_width;
        config.options.scaled_height = (int)out_height;
    }
    /* No helper thread, as every decoder here runs on the calling thread only: thumbgen decodes
     * files in parallel instead, and -j1 is one thread. libwebp's helper (filtering and output of
     * one macroblock row while the next is parsed) takes a third off one decode's wall time but
     * costs 12% more CPU in handing rows over, which a batch on every core, or a scheduler slot of
     * one core, pays for nothing. The work is split by rows, not reordered: the pixels are the
     * same either way. */
    config.options.use_threads = 0;
    config.output.colorspace = MODE_RGBA;
    config.output.is_external_memory = 1;
    config.output.u.RGBA.rgba = dst;
    config.output.u.RGBA.stride = (int)stride;
    config.output.u.RGBA.size = total;
    VP8StatusCode status = WebPDecode(data, size, &config);
    int width = config.output.width, height = config.output.height;
    WebPFreeDecBuffer(&config.output);
    if (status != VP8_STATUS_OK) {
        tg_status failure = status == VP8_STATUS_NOT_ENOUGH_DATA ? TG_ERR_TRUNCATED
                          : status == VP8_STATUS_OUT_OF_MEMORY ? TG_ERR_MEMORY
                          : status == VP8_STATUS_UNSUPPORTED_FEATURE ? TG_ERR_UNSUPPORTED : TG_ERR_CORRUPT;
        return tg_fail(s, failure, status_text(status));
    }
    if ((uint32_t)width != out_width || (uint32_t)height != out_height)
        return tg_fail(s, TG_ERR_CORRUPT, "image data does not fit its canvas");
    /* A still image whose header says it is opaque is opaque, as `info` reports it and dwebp,
     * Pillow and libvips decode it (as RGB): a lossless image can still hold alpha below 255,
     * e.g. a colour index past its palette, which VP8L decodes as transparent black. */
    if (!info->has_alpha) {
        for (size_t i = 3; i < total; i += 4) dst[i] = 255;
    }
    return TG_OK;
}

void tg_webp_version(char out[TG_VERSION_SIZE]) {
    int v = WebPGetDecoderVersion();
    snprintf(out, TG_VERSION_SIZE, "libwebp %d.%d.%d", (v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff);
}
