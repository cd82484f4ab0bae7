#include "clibwebp_encode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <webp/encode.h>
#include <webp/mux.h>

/* No fused multiply-adds: the same arithmetic gives the same bits on every CPU (see
 * CThumbKernels; a pragma, since Package.swift takes no unsafe flags). */
#pragma clang fp contract(off)

static void set_message(char message[TG_MESSAGE_SIZE], const char *text) {
    tg_copy_message(message, TG_MESSAGE_SIZE, text);
}

static const char *picture_error(WebPEncodingError error) {
    switch (error) {
    case VP8_ENC_ERROR_OUT_OF_MEMORY:
    case VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY: return "out of memory";
    case VP8_ENC_ERROR_BAD_DIMENSION: return "the size is beyond WebP's 16383x16383";
    case VP8_ENC_ERROR_PARTITION0_OVERFLOW:
    case VP8_ENC_ERROR_PARTITION_OVERFLOW: return "the image is too complex for one VP8 partition";
    case VP8_ENC_ERROR_FILE_TOO_BIG: return "the encoded data is over 4 GiB";
    default: return "libwebp could not encode the image";
    }
}

/* The bare VP8/VP8L bitstream in its RIFF container becomes an extended (VP8X) file with an
 * ICCP chunk; WebPMux does the chunk layout, so the file is what libwebp's own tools write. */
static tg_status add_profile(const tg_webp_encode_params *p, WebPMemoryWriter *writer, tg_buffer *out, char message[TG_MESSAGE_SIZE]) {
    WebPData image = {writer->mem, writer->size};
    WebPMux *mux = WebPMuxCreate(&image, 0);
    if (!mux) {
        set_message(message, "out of memory");
        return TG_ERR_MEMORY;
    }
    WebPData icc = {p->icc, p->icc_size};
    WebPData assembled = {NULL, 0};
    tg_status status = TG_OK;
    if (WebPMuxSetChunk(mux, "ICCP", &icc, 0) != WEBP_MUX_OK || WebPMuxAssemble(mux, &assembled) != WEBP_MUX_OK) {
        set_message(message, "libwebp's muxer could not add the ICC profile");
        status = TG_ERR_FAILED;
    }
    WebPMuxDelete(mux);
    if (status != TG_OK) return status;
    /* The muxer's bytes come from WebPMalloc; copy them into a tg_buffer (malloc) so the caller
     * frees every encoder's output the same way. */
    *out = (tg_buffer){0};
    if (!tg_buffer_append(out, assembled.bytes, assembled.size)) {
        WebPDataClear(&assembled);
        set_message(message, "out of memory");
        return TG_ERR_MEMORY;
    }
    WebPDataClear(&assembled);
    return TG_OK;
}

tg_status tg_webp_encode(const tg_webp_encode_params *p, tg_buffer *out, char message[TG_MESSAGE_SIZE]) {
    *out = (tg_buffer){0};
    message[0] = 0;
    if (p->quality < 1 || p->quality > 100) {
        set_message(message, "quality must be 1-100");
        return TG_ERR_FAILED;
    }
    if (p->width == 0 || p->height == 0 || p->width > WEBP_MAX_DIMENSION || p->height > WEBP_MAX_DIMENSION) {
        set_message(message, "the size is beyond WebP's 16383x16383");
        return TG_ERR_FAILED;
    }
    WebPConfig config;
    if (!WebPConfigInit(&config)) {
        set_message(message, "libwebp version mismatch");
        return TG_ERR_FAILED;
    }
    config.quality = (float)p->quality;
    config.lossless = p->lossless ? 1 : 0;
    config.method = 4;
    config.thread_level = 0;
    config.exact = p->lossless ? 1 : 0;
    if (!WebPValidateConfig(&config)) {
        set_message(message, "libwebp refused the settings");
        return TG_ERR_FAILED;
    }
    WebPPicture picture;
    if (!WebPPictureInit(&picture)) {
        set_message(message, "libwebp version mismatch");
        return TG_ERR_FAILED;
    }
    /* Lossless wants ARGB; lossy converts to YUV (and an alpha plane when there is alpha). */
    picture.use_argb = config.lossless;
    picture.width = (int)p->width;
    picture.height = (int)p->height;
    int imported = p->has_alpha ? WebPPictureImportRGBA(&picture, p->rgba, (int)p->stride)
                                : WebPPictureImportRGBX(&picture, p->rgba, (int)p->stride);
    if (!imported) {
        WebPPictureFree(&picture);
        set_message(message, "out of memory");
        return TG_ERR_MEMORY;
    }
    WebPMemoryWriter writer;
    WebPMemoryWriterInit(&writer);
    picture.writer = WebPMemoryWrite;
    picture.custom_ptr = &writer;
    int encoded = WebPEncode(&config, &picture);
    WebPEncodingError error = picture.error_code;
    WebPPictureFree(&picture);
    if (!encoded) {
        WebPMemoryWriterClear(&writer);
        set_message(message, picture_error(error));
        return error == VP8_ENC_ERROR_OUT_OF_MEMORY || error == VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY
            ? TG_ERR_MEMORY : TG_ERR_FAILED;
    }
    tg_status status = TG_OK;
    if (p->icc && p->icc_size > 0) {
        status = add_profile(p, &writer, out, message);
    } else if (!tg_buffer_append(out, writer.mem, writer.size)) {
        set_message(message, "out of memory");
        status = TG_ERR_MEMORY;
    }
    WebPMemoryWriterClear(&writer);
    return status;
}

void tg_webp_encoder_version(char out[TG_VERSION_SIZE]) {
    int v = WebPGetEncoderVersion();
    snprintf(out, TG_VERSION_SIZE, "libwebp %d.%d.%d", (v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff);
}
