/*
 * cliblcms.c: the only file that calls lcms2. See include/cliblcms.h for the policy.
 */
#include "cliblcms.h"

#include <lcms2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* No fused multiply-adds: the same arithmetic gives the same bits on every CPU (see
 * CThumbKernels; a pragma, since Package.swift takes no unsafe flags). */
#pragma clang fp contract(off)

struct call_state {
    char message[TG_CMS_MESSAGE_SIZE];
};

static void copy_message(char *dst, const char *src) {
    tg_copy_message(dst, TG_CMS_MESSAGE_SIZE, src);
}

/* Keeps the first error of the call: later ones are usually consequences of it. */
static void log_error(cmsContext context, cmsUInt32Number code, const char *text) {
    (void)code;
    struct call_state *state = cmsGetContextUserData(context);
    if (state && state->message[0] == 0) copy_message(state->message, text);
}

static cmsContext new_context(struct call_state *state) {
    cmsContext context = cmsCreateContext(NULL, state);
    if (context) cmsSetLogErrorHandlerTHR(context, log_error);
    return context;
}

static int space_of(cmsColorSpaceSignature space) {
    switch (space) {
    case cmsSigGrayData: return TG_CMS_SPACE_GRAY;
    case cmsSigRgbData: return TG_CMS_SPACE_RGB;
    case cmsSigCmykData: return TG_CMS_SPACE_CMYK;
    default: return TG_CMS_SPACE_OTHER;
    }
}

int tg_cms_profile_space(const uint8_t *icc, size_t icc_size, int *space, char message[TG_CMS_MESSAGE_SIZE]) {
    struct call_state state = {{0}};
    *space = TG_CMS_SPACE_OTHER;
    cmsContext context = new_context(&state);
    if (!context) {
        copy_message(message, "out of memory");
        return TG_CMS_ERR_MEMORY;
    }
    cmsHPROFILE profile = cmsOpenProfileFromMemTHR(context, icc, (cmsUInt32Number)icc_size);
    if (!profile) {
        copy_message(message, state.message[0] ? state.message : "unreadable ICC profile");
        cmsDeleteContext(context);
        return TG_CMS_ERR_PROFILE;
    }
    *space = space_of(cmsGetColorSpace(profile));
    cmsCloseProfile(profile);
    cmsDeleteContext(context);
    return TG_CMS_OK;
}

/* RGBA with alpha as an extra channel; the transform leaves dst's alpha alone (copied below). */
#define FMT_RGBA8 (COLORSPACE_SH(PT_RGB) | CHANNELS_SH(3) | EXTRA_SH(1) | BYTES_SH(1))
#define FMT_RGBA16 (COLORSPACE_SH(PT_RGB) | CHANNELS_SH(3) | EXTRA_SH(1) | BYTES_SH(2))
/* Gray read from the red sample of an RGBA pixel, the other three skipped as extras. */
#define FMT_GRAY_IN_RGBA8 (COLORSPACE_SH(PT_GRAY) | CHANNELS_SH(1) | EXTRA_SH(3) | BYTES_SH(1))
#define FMT_GRAY_IN_RGBA16 (COLORSPACE_SH(PT_GRAY) | CHANNELS_SH(1) | EXTRA_SH(3) | BYTES_SH(2))

/* One conversion from an embedded profile to lcms2's sRGB, in a context of its own: what
 * tg_cms_to_srgb and tg_cms_srgb_deviation share, so both convert exactly alike. */
struct conversion {
    struct call_state state;
    cmsContext context;
    cmsHPROFILE input;
    cmsHPROFILE output;
    cmsHTRANSFORM transform;
};

/* Opens the profile and sRGB; on failure, the message says why. close_conversion is due either way. */
static int open_conversion(struct conversion *c, const uint8_t *icc, size_t icc_size,
                           char message[TG_CMS_MESSAGE_SIZE]) {
    memset(c, 0, sizeof *c);
    c->context = new_context(&c->state);
    if (!c->context) {
        copy_message(message, "out of memory");
        return TG_CMS_ERR_MEMORY;
    }
    c->input = cmsOpenProfileFromMemTHR(c->context, icc, (cmsUInt32Number)icc_size);
    if (!c->input) {
        copy_message(message, c->state.message[0] ? c->state.message : "unreadable ICC profile");
        return TG_CMS_ERR_PROFILE;
    }
    c->output = cmsCreate_sRGBProfileTHR(c->context);
    if (!c->output) {
        copy_message(message, "out of memory");
        return TG_CMS_ERR_MEMORY;
    }
    return TG_CMS_OK;
}

/* The policy's transform: relative colorimetric intent with black-point compensation. `extra`
 * adds lcms2 flags that change how it is computed, not what. */
static int build_transform(struct conversion *c, cmsUInt32Number in_format, cmsUInt32Number out_format,
                           cmsUInt32Number extra, char message[TG_CMS_MESSAGE_SIZE]) {
    c->transform = cmsCreateTransformTHR(c->context, c->input, in_format, c->output, out_format,
                                         INTENT_RELATIVE_COLORIMETRIC, cmsFLAGS_BLACKPOINTCOMPENSATION | extra);
    if (c->transform) return TG_CMS_OK;
    copy_message(message, c->state.message[0] ? c->state.message : "lcms2 cannot build a transform from this profile");
    return TG_CMS_ERR_TRANSFORM;
}

static void close_conversion(struct conversion *c) {
    if (c->transform) cmsDeleteTransform(c->transform);
    if (c->input) cmsCloseProfile(c->input);
    if (c->output) cmsCloseProfile(c->output);
    if (c->context) cmsDeleteContext(c->context);
}

struct tg_cms_converter {
    struct conversion c;
    int format;
    int cmyk_pixels;
};

void tg_cms_converter_close(tg_cms_converter *converter) {
    if (!converter) return;
    close_conversion(&converter->c);
    free(converter);
}

int tg_cms_converter_open(const uint8_t *icc, size_t icc_size, int format, tg_cms_converter **out,
                          char message[TG_CMS_MESSAGE_SIZE]) {
    *out = NULL;
    tg_cms_converter *converter = calloc(1, sizeof *converter);
    if (!converter) {
        copy_message(message, "out of memory");
        return TG_CMS_ERR_MEMORY;
    }
    converter->format = format;
    struct conversion *c = &converter->c;
    int status = open_conversion(c, icc, icc_size, message);
    if (status != TG_CMS_OK) goto done;
    int space = space_of(cmsGetColorSpace(c->input));
    cmsUInt32Number in_format = 0, out_format = 0;
    switch (format) {
    case TG_CMS_RGBA8:
        in_format = space == TG_CMS_SPACE_GRAY ? FMT_GRAY_IN_RGBA8 : FMT_RGBA8;
        out_format = FMT_RGBA8;
        break;
    case TG_CMS_RGBA16:
        in_format = space == TG_CMS_SPACE_GRAY ? FMT_GRAY_IN_RGBA16 : FMT_RGBA16;
        out_format = FMT_RGBA16;
        break;
    case TG_CMS_CMYK8:
        in_format = TYPE_CMYK_8;
        out_format = FMT_RGBA8;
        break;
    case TG_CMS_CMYK8_INVERTED:
        in_format = TYPE_CMYK_8_REV;
        out_format = FMT_RGBA8;
        break;
    default:
        copy_message(message, "unknown pixel format");
        status = TG_CMS_ERR_UNSUPPORTED;
        goto done;
    }
    converter->cmyk_pixels = format == TG_CMS_CMYK8 || format == TG_CMS_CMYK8_INVERTED;
    if (converter->cmyk_pixels ? space != TG_CMS_SPACE_CMYK : (space != TG_CMS_SPACE_RGB && space != TG_CMS_SPACE_GRAY)) {
        copy_message(message, converter->cmyk_pixels ? "profile is not a CMYK profile" : "profile is not an RGB or gray profile");
        status = TG_CMS_ERR_UNSUPPORTED;
        goto done;
    }
    status = build_transform(c, in_format, out_format, 0, message);
done:
    if (status != TG_CMS_OK) {
        tg_cms_converter_close(converter);
        return status;
    }
    *out = converter;
    return TG_CMS_OK;
}

void tg_cms_converter_apply(tg_cms_converter *converter, const void *src, void *dst, size_t pixel_count) {
    /* In runs of at most 64k pixels: cmsDoTransform takes a 32-bit count. */
    size_t bytes_per_sample = converter->format == TG_CMS_RGBA16 ? 2 : 1;
    size_t step = 65536;
    for (size_t first = 0; first < pixel_count; first += step) {
        size_t n = pixel_count - first < step ? pixel_count - first : step;
        cmsDoTransform(converter->c.transform, (const uint8_t *)src + first * 4 * bytes_per_sample,
                       (uint8_t *)dst + first * 4 * bytes_per_sample, (cmsUInt32Number)n);
    }
    /* Alpha: copied from the source (straight alpha), or opaque for CMYK. Gray profiles wrote
     * only the colour channels, so that is all that needs filling in. */
    if (converter->format == TG_CMS_RGBA16) {
        const uint16_t *s = src;
        uint16_t *d = dst;
        for (size_t i = 0; i < pixel_count; i++) d[i * 4 + 3] = s[i * 4 + 3];
    } else {
        const uint8_t *s = src;
        uint8_t *d = dst;
        for (size_t i = 0; i < pixel_count; i++) d[i * 4 + 3] = converter->cmyk_pixels ? 255 : s[i * 4 + 3];
    }
}

int tg_cms_to_srgb(const uint8_t *icc, size_t icc_size, int format, const void *src, void *dst,
                   size_t pixel_count, char message[TG_CMS_MESSAGE_SIZE]) {
    tg_cms_converter *converter;
    int status = tg_cms_converter_open(icc, icc_size, format, &converter, message);
    if (status != TG_CMS_OK) return status;
    tg_cms_converter_apply(converter, src, dst, pixel_count);
    tg_cms_converter_close(converter);
    return TG_CMS_OK;
}

int tg_cms_lab_to_srgb(const float *lab, uint8_t *dst, size_t pixel_count, char message[TG_CMS_MESSAGE_SIZE]) {
    struct conversion c;
    memset(&c, 0, sizeof c);
    int status = TG_CMS_OK;
    c.context = new_context(&c.state);
    /* lcms2's own Lab v4 profile with a NULL white point is D50, the ICC connection space's and
     * TIFF's CIELab white (TIFF 6.0 §23); relative colorimetric maps it onto sRGB's D65 white. */
    if (c.context) c.input = cmsCreateLab4ProfileTHR(c.context, NULL);
    if (c.context) c.output = cmsCreate_sRGBProfileTHR(c.context);
    if (!c.context || !c.input || !c.output) {
        copy_message(message, "out of memory");
        status = TG_CMS_ERR_MEMORY;
        goto done;
    }
    status = build_transform(&c, TYPE_Lab_FLT, FMT_RGBA8, 0, message);
    if (status != TG_CMS_OK) goto done;
    size_t step = 65536;
    for (size_t first = 0; first < pixel_count; first += step) {
        size_t n = pixel_count - first < step ? pixel_count - first : step;
        cmsDoTransform(c.transform, lab + first * 3, dst + first * 4, (cmsUInt32Number)n);
    }
    for (size_t i = 0; i < pixel_count; i++) dst[i * 4 + 3] = 255;
done:
    close_conversion(&c);
    return status;
}

int tg_cms_srgb_deviation(const uint8_t *icc, size_t icc_size, int *deviation, char message[TG_CMS_MESSAGE_SIZE]) {
    *deviation = 65535;
    enum { RAMP = 256 * 4, GRID = 9 * 9 * 9, PROBES = RAMP + GRID };
    uint16_t *probes = NULL;
    struct conversion c;
    int status = open_conversion(&c, icc, icc_size, message);
    if (status != TG_CMS_OK) goto done;
    if (space_of(cmsGetColorSpace(c.input)) != TG_CMS_SPACE_RGB) {
        copy_message(message, "profile is not an RGB profile");
        status = TG_CMS_ERR_UNSUPPORTED;
        goto done;
    }
    /* Unoptimised: the optimiser samples the pipeline into tables at far more points than the
     * 1,753 probed here (17 ms a profile against 2 ms, measured), and the probe wants the
     * profile's own curves. Deviations on the benchmark corpus's 15 profiles are the same. */
    status = build_transform(&c, TYPE_RGB_16, TYPE_RGB_16, cmsFLAGS_NOOPTIMIZE | cmsFLAGS_NOCACHE, message);
    if (status != TG_CMS_OK) goto done;
    probes = malloc(sizeof(uint16_t) * 3 * PROBES * 2);
    if (!probes) {
        copy_message(message, "out of memory");
        status = TG_CMS_ERR_MEMORY;
        goto done;
    }
    uint16_t *in = probes, *out = probes + 3 * PROBES;
    size_t n = 0;
    for (int v = 0; v < 256; v++) {
        uint16_t level = (uint16_t)(v * 257);
        for (int ramp = 0; ramp < 4; ramp++, n++) {
            in[n * 3 + 0] = ramp == 0 || ramp == 3 ? level : 0;
            in[n * 3 + 1] = ramp == 1 || ramp == 3 ? level : 0;
            in[n * 3 + 2] = ramp == 2 || ramp == 3 ? level : 0;
        }
    }
    for (int r = 0; r < 9; r++)
        for (int g = 0; g < 9; g++)
            for (int b = 0; b < 9; b++, n++) {
                in[n * 3 + 0] = (uint16_t)(r == 8 ? 65535 : r * 8192);
                in[n * 3 + 1] = (uint16_t)(g == 8 ? 65535 : g * 8192);
                in[n * 3 + 2] = (uint16_t)(b == 8 ? 65535 : b * 8192);
            }
    cmsDoTransform(c.transform, in, out, PROBES);
    int worst = 0;
    for (size_t i = 0; i < 3 * (size_t)PROBES; i++) {
        int d = abs((int)out[i] - (int)in[i]);
        if (d > worst) worst = d;
    }
    *deviation = worst;
done:
    free(probes);
    close_conversion(&c);
    return status;
}

int tg_cms_make_rgb_profile(double white_x, double white_y, const double xy[6], int srgb_curve,
                            double gamma, tg_buffer *out, char message[TG_CMS_MESSAGE_SIZE]) {
    *out = (tg_buffer){0};
    struct call_state state = {{0}};
    cmsContext context = new_context(&state);
    if (!context) {
        copy_message(message, "out of memory");
        return TG_CMS_ERR_MEMORY;
    }
    cmsCIExyY white = {white_x, white_y, 1.0};
    cmsCIExyYTRIPLE primaries = {{xy[0], xy[1], 1.0}, {xy[2], xy[3], 1.0}, {xy[4], xy[5], 1.0}};
    cmsToneCurve *curve;
    if (srgb_curve) {
        /* IEC 61966-2-1 as lcms2's parametric type 4: Y = ((aX + b)^g) for X >= d, else cX. */
        static const cmsFloat64Number params[5] = {2.4, 1.0 / 1.055, 0.055 / 1.055, 1.0 / 12.92, 0.04045};
        curve = cmsBuildParametricToneCurve(context, 4, params);
    } else {
        curve = cmsBuildGamma(context, gamma);
    }
    int status = TG_CMS_OK;
    cmsHPROFILE profile = NULL;
    if (!curve) {
        copy_message(message, state.message[0] ? state.message : "cannot build the tone curve");
        status = TG_CMS_ERR_PROFILE;
        goto done;
    }
    cmsToneCurve *curves[3] = {curve, curve, curve};
    profile = cmsCreateRGBProfileTHR(context, &white, &primaries, curves);
    cmsUInt32Number size = 0;
    if (!profile || !cmsSaveProfileToMem(profile, NULL, &size) || size < 128) {
        copy_message(message, state.message[0] ? state.message : "cannot build the profile");
        status = TG_CMS_ERR_PROFILE;
        goto done;
    }
    out->data = malloc(size);
    if (!out->data) {
        copy_message(message, "out of memory");
        status = TG_CMS_ERR_MEMORY;
        goto done;
    }
    if (!cmsSaveProfileToMem(profile, out->data, &size)) {
        free(out->data);
        out->data = NULL;
        copy_message(message, state.message[0] ? state.message : "cannot write the profile");
        status = TG_CMS_ERR_PROFILE;
        goto done;
    }
    /* lcms2 stamps a new profile's header with the time it was made (bytes 24-35, dateTimeNumber),
     * which made the profile, and every output that keeps it (`--keep-profile` on a HEIF with nclx
     * primaries), differ from one second to the next, and made each gAMA image miss the
     * converter pool. The profile has no ID (its MD5) to keep in step, so the date is zeroed. */
    memset(out->data + 24, 0, 12);
    out->size = size;
    out->capacity = size;
done:
    if (profile) cmsCloseProfile(profile);
    if (curve) cmsFreeToneCurve(curve);
    cmsDeleteContext(context);
    return status;
}

void tg_cms_version(char out[TG_VERSION_SIZE]) {
    snprintf(out, TG_VERSION_SIZE, "lcms2 %d.%d", LCMS_VERSION / 1000, (LCMS_VERSION % 1000) / 10);
}
