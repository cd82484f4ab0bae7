/*
 * clibwebp.c: the only file that calls libwebp. See include/clibwebp.h for the policy.
 *
 * libwebp reports failures as status codes (no longjmp), so every call here simply returns.
 */
#include "clibwebp.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <webp/decode.h>
#include <webp/demux.h>

#define TG_WEBP_CHUNK 65536

static void copy_message(char *dst, const char *src) {
    tg_copy_message(dst, TG_WEBP_MESSAGE_SIZE, src);
}

static uint32_t le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Reads up to size bytes at the current offset, retrying short reads; returns the bytes read,
 * or -1 with errno set. */
static ssize_t read_fully(int fd, uint8_t *dst, size_t size) {
    size_t done = 0;
    while (done < size) {
        size_t want = size - done < TG_WEBP_CHUNK ? size - done : TG_WEBP_CHUNK;
        ssize_t got = read(fd, dst + done, want);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) return -1;
        if (got == 0) break;
        done += (size_t)got;
    }
    return (ssize_t)done;
}

int tg_webp_read_file(const char *path, const tg_webp_limits *limits, tg_buffer *out,
                      char message[TG_WEBP_MESSAGE_SIZE], tg_limit_hit *limit) {
    *out = (tg_buffer){0};
    *limit = (tg_limit_hit){0};
    uint64_t file_size = 0;
    int fd = tg_open_regular_file(path, message, TG_WEBP_MESSAGE_SIZE, &file_size);
    if (fd < 0) return TG_WEBP_ERR_OPEN;
    uint8_t header[12];
    ssize_t got = read_fully(fd, header, sizeof header);
    int status = TG_WEBP_OK;
    if (got < 0) {
        snprintf(message, TG_WEBP_MESSAGE_SIZE, "read error: %s", strerror(errno));
        status = TG_WEBP_ERR_OPEN;
    } else if (got == 0) {
        copy_message(message, "file is empty");
        status = TG_WEBP_ERR_NOT_WEBP;
    } else if ((size_t)got < sizeof header) {
        copy_message(message, "file is truncated");
        status = TG_WEBP_ERR_TRUNCATED;
    } else if (memcmp(header, "RIFF", 4) != 0 || memcmp(header + 8, "WEBP", 4) != 0) {
        copy_message(message, "not a WebP file (no RIFF/WEBP header)");
        status = TG_WEBP_ERR_NOT_WEBP;
    }
    if (status != TG_WEBP_OK) {
        close(fd);
        return status;
    }
    /* The RIFF size covers everything after its own 8 bytes; what follows it is not WebP. */
    uint64_t declared = (uint64_t)le32(header + 4) + 8;
    if (limits->max_file_bytes != 0 && declared > limits->max_file_bytes) {
        *limit = (tg_limit_hit){TG_LIMIT_FILE_BYTES, 0, 0, declared, limits->max_file_bytes};
        copy_message(message, "file is larger than the byte limit");
        close(fd);
        return TG_WEBP_ERR_LIMIT;
    }
    uint64_t wanted = declared < file_size ? declared : file_size;
    if (limits->max_memory != 0 && wanted > limits->max_memory) {
        *limit = (tg_limit_hit){TG_LIMIT_MEMORY, 0, 0, wanted, limits->max_memory};
        copy_message(message, "file is larger than the memory limit");
        close(fd);
        return TG_WEBP_ERR_LIMIT;
    }
    uint8_t *data = malloc(wanted > 12 ? (size_t)wanted : 12);
    if (!data) {
        copy_message(message, "out of memory");
        close(fd);
        return TG_WEBP_ERR_MEMORY;
    }
    memcpy(data, header, sizeof header);
    got = wanted > 12 ? read_fully(fd, data + 12, (size_t)(wanted - 12)) : 0;
    int read_errno = errno;
    close(fd);
    if (got < 0) {
        free(data);
        snprintf(message, TG_WEBP_MESSAGE_SIZE, "read error: %s", strerror(read_errno));
        return TG_WEBP_ERR_OPEN;
    }
    out->data = data;
    out->size = 12 + (size_t)got;
    out->capacity = wanted > 12 ? (size_t)wanted : 12;
    return TG_WEBP_OK;
}

int tg_webp_probe(const uint8_t *data, size_t size, const tg_webp_limits *limits, tg_webp_info *info,
                  char message[TG_WEBP_MESSAGE_SIZE], tg_limit_hit *limit) {
    *info = (tg_webp_info){0};
    *limit = (tg_limit_hit){0};
    if (size == 0) {
        copy_message(message, "file is empty");
        return TG_WEBP_ERR_NOT_WEBP;
    }
    if (size < 12) {
        copy_message(message, "file is truncated");
        return TG_WEBP_ERR_TRUNCATED;
    }
    if (memcmp(data, "RIFF", 4) != 0 || memcmp(data + 8, "WEBP", 4) != 0) {
        copy_message(message, "not a WebP file (no RIFF/WEBP header)");
        return TG_WEBP_ERR_NOT_WEBP;
    }
    uint64_t declared = (uint64_t)le32(data + 4) + 8;
    if (limits->max_file_bytes != 0 && declared > limits->max_file_bytes) {
        *limit = (tg_limit_hit){TG_LIMIT_FILE_BYTES, 0, 0, declared, limits->max_file_bytes};
        copy_message(message, "file is larger than the byte limit");
        return TG_WEBP_ERR_LIMIT;
    }
    /* Bytes past the RIFF chunk are not part of the image. */
    if (declared < size) size = (size_t)declared;
    WebPData webp = {data, size};
    WebPDemuxState state = WEBP_DEMUX_PARSE_ERROR;
    WebPDemuxer *demux = WebPDemuxPartial(&webp, &state);
    if (!demux || state == WEBP_DEMUX_PARSE_ERROR) {
        if (demux) WebPDemuxDelete(demux);
        /* The container parser also fails on a file cut inside its first chunk header. */
        copy_message(message, declared > size ? "file is truncated" : "invalid WebP container");
        return declared > size ? TG_WEBP_ERR_TRUNCATED : TG_WEBP_ERR_CORRUPT;
    }
    uint32_t width = WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH);
    uint32_t height = WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT);
    uint32_t flags = WebPDemuxGetI(demux, WEBP_FF_FORMAT_FLAGS);
    int status = TG_WEBP_OK;
    uint64_t pixels = (uint64_t)width * (uint64_t)height;
    if (width == 0 || height == 0) {
        copy_message(message, state == WEBP_DEMUX_DONE ? "invalid WebP canvas size" : "file is truncated");
        status = state == WEBP_DEMUX_DONE ? TG_WEBP_ERR_CORRUPT : TG_WEBP_ERR_TRUNCATED;
    } else if (limits->max_pixels != 0 && pixels > limits->max_pixels) {
        *limit = (tg_limit_hit){TG_LIMIT_PIXELS, width, height, pixels, limits->max_pixels};
        copy_message(message, "image is above the pixel limit");
        status = TG_WEBP_ERR_LIMIT;
    } else if (limits->max_dimension != 0 && (width > limits->max_dimension || height > limits->max_dimension)) {
        *limit = (tg_limit_hit){TG_LIMIT_DIMENSION, width, height, width > height ? width : height, limits->max_dimension};
        copy_message(message, "image is above the size limit");
        status = TG_WEBP_ERR_LIMIT;
    } else if (state != WEBP_DEMUX_DONE) {
        copy_message(message, "file is truncated");
        status = TG_WEBP_ERR_TRUNCATED;
    }
    WebPIterator frame;
    memset(&frame, 0, sizeof frame);
    if (status == TG_WEBP_OK && !WebPDemuxGetFrame(demux, 1, &frame)) {
        copy_message(message, "no image data");
        status = TG_WEBP_ERR_CORRUPT;
    }
    if (status == TG_WEBP_OK) {
        WebPBitstreamFeatures features;
        if (WebPGetFeatures(frame.fragment.bytes, frame.fragment.size, &features) != VP8_STATUS_OK) {
            copy_message(message, "invalid image data");
            status = TG_WEBP_ERR_CORRUPT;
        } else {
            info->width = width;
            info->height = height;
            info->animated = (flags & ANIMATION_FLAG) != 0;
            info->frames = WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT);
            info->lossless = features.format == 2;
            info->has_alpha = (flags & ALPHA_FLAG) != 0 || features.has_alpha;
            WebPChunkIterator chunk;
            if (WebPDemuxGetChunk(demux, "ICCP", 1, &chunk)) {
                info->icc = chunk.chunk.bytes;
                info->icc_size = chunk.chunk.size;
                WebPDemuxReleaseChunkIterator(&chunk);
            }
            if (WebPDemuxGetChunk(demux, "EXIF", 1, &chunk)) {
                info->exif = chunk.chunk.bytes;
                info->exif_size = chunk.chunk.size;
                WebPDemuxReleaseChunkIterator(&chunk);
            }
            if (WebPDemuxGetChunk(demux, "XMP ", 1, &chunk)) {
                info->xmp = chunk.chunk.bytes;
                info->xmp_size = chunk.chunk.size;
                WebPDemuxReleaseChunkIterator(&chunk);
            }
        }
        WebPDemuxReleaseIterator(&frame);
    }
    WebPDemuxDelete(demux);
    return status;
}

static const char *status_text(VP8StatusCode status) {
    switch (status) {
    case VP8_STATUS_OUT_OF_MEMORY: return "out of memory";
    case VP8_STATUS_INVALID_PARAM: return "image data does not fit its canvas";
    case VP8_STATUS_BITSTREAM_ERROR: return "invalid image data";
    case VP8_STATUS_UNSUPPORTED_FEATURE: return "unsupported WebP feature";
    case VP8_STATUS_NOT_ENOUGH_DATA: return "file is truncated";
    default: return "cannot decode";
    }
}

int tg_webp_decode(const uint8_t *data, size_t size, const tg_webp_info *info, uint32_t out_width,
                   uint32_t out_height, uint8_t *dst, char message[TG_WEBP_MESSAGE_SIZE]) {
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
        copy_message(message, "cannot scale this image while decoding");
        return TG_WEBP_ERR_CORRUPT;
    }
    if (info->animated) {
        /* The first frame as libwebp's animation decoder composes it onto the canvas. */
        WebPAnimDecoderOptions options;
        if (!WebPAnimDecoderOptionsInit(&options)) {
            copy_message(message, "libwebp version mismatch");
            return TG_WEBP_ERR_CORRUPT;
        }
        options.color_mode = MODE_RGBA;
        options.use_threads = 1;   /* see WebPDecode's below */
        WebPData webp = {data, size};
        WebPAnimDecoder *decoder = WebPAnimDecoderNew(&webp, &options);
        if (!decoder) {
            copy_message(message, "invalid animation");
            return TG_WEBP_ERR_CORRUPT;
        }
        WebPAnimInfo anim;
        uint8_t *canvas = NULL;
        int timestamp = 0;
        int status = TG_WEBP_OK;
        if (!WebPAnimDecoderGetInfo(decoder, &anim) || anim.canvas_width != info->width || anim.canvas_height != info->height) {
            copy_message(message, "animation canvas differs from the header");
            status = TG_WEBP_ERR_CORRUPT;
        } else if (!WebPAnimDecoderGetNext(decoder, &canvas, &timestamp) || !canvas) {
            copy_message(message, "cannot decode the first frame");
            status = TG_WEBP_ERR_CORRUPT;
        } else {
            memcpy(dst, canvas, total);
        }
        WebPAnimDecoderDelete(decoder);
        return status;
    }
    WebPDecoderConfig config;
    if (!WebPInitDecoderConfig(&config)) {
        copy_message(message, "libwebp version mismatch");
        return TG_WEBP_ERR_CORRUPT;
    }
    if (scaled) {
        /* libwebp's rescaler: each output pixel is the area average of the W/w x H/h input pixels
         * it covers, so the whole image maps exactly onto the scaled one. */
        config.options.use_scaling = 1;
        config.options.scaled_width = (int)out_width;
        config.options.scaled_height = (int)out_height;
    }
    /* libwebp's one helper thread filters and outputs each macroblock row while the next is
     * parsed (as vipsthumbnail has it decode): a third less wall time on a lossy photo, for a
     * little more CPU. The work is split by rows, not reordered, so the pixels are the same. */
    config.options.use_threads = 1;
    config.output.colorspace = MODE_RGBA;
    config.output.is_external_memory = 1;
    config.output.u.RGBA.rgba = dst;
    config.output.u.RGBA.stride = (int)stride;
    config.output.u.RGBA.size = total;
    VP8StatusCode status = WebPDecode(data, size, &config);
    int width = config.output.width, height = config.output.height;
    WebPFreeDecBuffer(&config.output);
    if (status != VP8_STATUS_OK) {
        copy_message(message, status_text(status));
        if (status == VP8_STATUS_NOT_ENOUGH_DATA) return TG_WEBP_ERR_TRUNCATED;
        return status == VP8_STATUS_OUT_OF_MEMORY ? TG_WEBP_ERR_MEMORY : TG_WEBP_ERR_CORRUPT;
    }
    if ((uint32_t)width != out_width || (uint32_t)height != out_height) {
        copy_message(message, "image data does not fit its canvas");
        return TG_WEBP_ERR_CORRUPT;
    }
    return TG_WEBP_OK;
}

void tg_webp_version(char out[TG_VERSION_SIZE]) {
    int v = WebPGetDecoderVersion();
    snprintf(out, TG_VERSION_SIZE, "libwebp %d.%d.%d", (v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff);
}
