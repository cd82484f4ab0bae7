/*
 * heif_plugins.c: the frame limit, the failure text and the registration both decoder plugins
 * share (see heif_plugins.h).
 */
#include "heif_plugins.h"

#include <pthread.h>
#include <stdio.h>

/* libheif's own limit per side (heif_limits.h, MAX_IMAGE_WIDTH and MAX_IMAGE_HEIGHT in 1.15). */
static const uint64_t default_frame_limit = (uint64_t)32768 * 32768;

/* Set per decode by CLibHEIF; read when libheif creates a decoder, on the same thread (CLibHEIF
 * asks for no decoding threads, so libheif decodes every coded image on the caller's). */
static _Thread_local uint64_t frame_limit;

/* A failed call's message outlives the decoder. */
static _Thread_local char failure_text[256];

static const char success[] = "Success";

void tg_heif_plugins_set_frame_limit(uint64_t max_pixels) { frame_limit = max_pixels; }

static _Thread_local int operating_point;

void tg_heif_plugins_set_operating_point(int point) { operating_point = point >= 0 && point <= 31 ? point : 0; }

int tg_heif_plugins_operating_point(void) { return operating_point; }

uint64_t tg_heif_plugins_frame_limit(void) {
    return frame_limit != 0 && frame_limit < default_frame_limit ? frame_limit : default_frame_limit;
}

struct heif_error tg_heif_plugin_ok(void) { return (struct heif_error){heif_error_Ok, heif_suberror_Unspecified, success}; }

struct heif_error tg_heif_plugin_failure(enum heif_error_code code, const char *text) {
    snprintf(failure_text, sizeof failure_text, "%s", text);
    return (struct heif_error){code, heif_suberror_Unspecified, failure_text};
}

void tg_heif_plugin_ignore_strictness(void *decoder, int flag) {
    (void)decoder;
    (void)flag;
}

static void register_plugins(void) {
    tg_heif_de265_register();
    tg_heif_dav1d_register();
}

void tg_heif_plugins_register(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, register_plugins);
}
