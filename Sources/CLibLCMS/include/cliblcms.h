/*
 * cliblcms: Little CMS 2 behind a small C API for converting decoded pixels to sRGB.
 *
 * Policy:
 *  - Every call runs in its own lcms2 context (cmsCreateContext) whose error handler copies the
 *    message into that call's buffer, so concurrent calls never share the process-global handler.
 *    lcms2 never longjmps; failures come back as TG_CMS_* codes plus lcms2's message.
 *  - Conversions go to sRGB (lcms2's built-in profile) with the relative colorimetric intent and
 *    black-point compensation. Alpha is copied unchanged (straight alpha: colour is converted
 *    independently of coverage).
 *  - 16-bit samples are converted at 16-bit precision (native byte order).
 */
#ifndef CLIBLCMS_H
#define CLIBLCMS_H

#include <stddef.h>
#include <stdint.h>

#include "tg_codec_support.h"

enum {
    TG_CMS_OK = 0,
    TG_CMS_ERR_PROFILE = 1,     /* the profile could not be parsed */
    TG_CMS_ERR_UNSUPPORTED = 2, /* a profile of a colour space or class that does not fit the pixels */
    TG_CMS_ERR_TRANSFORM = 3,   /* lcms2 could not build the transform; message holds its text */
    TG_CMS_ERR_MEMORY = 4
};

#define TG_CMS_MESSAGE_SIZE 256

/* What the source pixels are. */
enum {
    TG_CMS_RGBA8 = 1,           /* 4 bytes per pixel: R, G, B, A → RGBA8 */
    TG_CMS_RGBA16 = 2,          /* 4 uint16 per pixel → RGBA16 */
    TG_CMS_CMYK8 = 3,           /* 4 bytes per pixel, ink amounts (0 = no ink) → RGBA8, alpha 255 */
    TG_CMS_CMYK8_INVERTED = 4   /* 4 bytes per pixel, Adobe's inverted CMYK (255 = no ink) → RGBA8 */
};

/* The data colour space an ICC profile declares. */
enum {
    TG_CMS_SPACE_OTHER = 0,
    TG_CMS_SPACE_GRAY = 1,
    TG_CMS_SPACE_RGB = 2,
    TG_CMS_SPACE_CMYK = 3
};

/* Parses a profile and reports its data colour space (TG_CMS_SPACE_*) in *space.
 * Returns TG_CMS_OK or TG_CMS_ERR_PROFILE with the reason. */
int tg_cms_profile_space(const uint8_t *icc, size_t icc_size, int *space, char message[TG_CMS_MESSAGE_SIZE]);

/* Converts pixel_count pixels of the given format from the profile's colours to sRGB, from src
 * into dst (which may not overlap src; same pixel count, RGBA8 or RGBA16 as the format says).
 * For RGBA formats, a gray profile is applied to the red channel (where gray sources keep their
 * value) and the result written to all three. */
int tg_cms_to_srgb(const uint8_t *icc, size_t icc_size, int format, const void *src, void *dst,
                   size_t pixel_count, char message[TG_CMS_MESSAGE_SIZE]);

/* The conversion tg_cms_to_srgb makes, built once and applied to runs of pixels as they come
 * (rows of a streamed image): open builds it for a format (as tg_cms_to_srgb's) and returns
 * TG_CMS_OK with *out set, or tg_cms_to_srgb's failure and message with *out NULL. apply converts
 * pixel_count pixels from src into dst (which may not overlap), as tg_cms_to_srgb would. Close
 * frees it (NULL is a no-op). One converter is used by one thread at a time. */
typedef struct tg_cms_converter tg_cms_converter;
int tg_cms_converter_open(const uint8_t *icc, size_t icc_size, int format, tg_cms_converter **out,
                          char message[TG_CMS_MESSAGE_SIZE]);
void tg_cms_converter_apply(tg_cms_converter *converter, const void *src, void *dst, size_t pixel_count);
void tg_cms_converter_close(tg_cms_converter *converter);

/* Converts pixel_count CIE L*a*b* (D50) pixels, 3 floats each (L* 0-100, a*, b* about -128-127),
 * to sRGB RGBA8 in dst, alpha 255, by the policy's intent. */
int tg_cms_lab_to_srgb(const float *lab, uint8_t *dst, size_t pixel_count, char message[TG_CMS_MESSAGE_SIZE]);

/* How far an RGB profile is from sRGB, in effect: the largest difference, in 16-bit units, between
 * a probe colour and what converting it from the profile to sRGB (as tg_cms_to_srgb does) gives,
 * over ramps of every 8-bit level on each channel and on gray plus a 9x9x9 grid. A profile that
 * is sRGB under another name (GIMP's, Photoshop's, a camera's) comes out at a few units.
 * Returns TG_CMS_OK, TG_CMS_ERR_PROFILE, or TG_CMS_ERR_UNSUPPORTED for a profile that is not RGB. */
int tg_cms_srgb_deviation(const uint8_t *icc, size_t icc_size, int *deviation, char message[TG_CMS_MESSAGE_SIZE]);


/* Builds an RGB matrix/TRC ICC profile: white point and red, green, blue primaries as CIE xy,
 * and one tone curve for all three channels: either the sRGB curve (srgb_curve = 1) or a pure
 * power law, linear = encoded ^ gamma (srgb_curve = 0). */
int tg_cms_make_rgb_profile(double white_x, double white_y, const double primaries_xy[6], int srgb_curve,
                            double gamma, tg_buffer *out, char message[TG_CMS_MESSAGE_SIZE]);


/* The lcms2 version in use, e.g. "lcms2 2.14". */
void tg_cms_version(char out[TG_VERSION_SIZE]);

#endif
