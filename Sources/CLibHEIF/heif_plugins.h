/*
 * heif_plugins: what thumbgen's two libheif decoder plugins (heif_de265.c for HEVC, heif_dav1d.c
 * for AV1) share. Internal to CLibHEIF.
 *
 * Why plugins of our own: libheif 1.15's own ones print on standard error (dav1d's log), hand back
 * pictures with samples nobody decoded (libde265 on damaged HEVC: the same file gives different
 * pixels from run to run) and allocate frames of whatever size the coded stream claims. Ours keep
 * every message in the one-line error, give the decoders zeroed frames and refuse frames above the
 * pixel limit before they are allocated. Both are registered once per process with a priority above
 * libheif's own, because libheif 1.15 decodes alpha planes and grid tiles with its default options,
 * not the caller's, so a plugin is the only way to reach every coded image of a file.
 */
#ifndef HEIF_PLUGINS_H
#define HEIF_PLUGINS_H

#include <stdint.h>

#include <libheif/heif.h>

/* Above libheif's own decoders (libde265 100, dav1d 150, libaom 100). */
enum { TG_HEIF_PLUGIN_PRIORITY = 200 };

/* Registers both plugins with libheif, once per process; every call after the first waits for the
 * first and does nothing. Call before any other libheif call that decodes or lists decoders. */
void tg_heif_plugins_register(void);

/* The pixel limit for frames decoded on the calling thread until the next call (0: libheif's own,
 * 32768 x 32768). */
void tg_heif_plugins_set_frame_limit(uint64_t max_pixels);
uint64_t tg_heif_plugins_frame_limit(void);

/* The AV1 operating point (0-31; AVIF's a1op property) dav1d decodes on the calling thread until
 * the next call: it then gives the highest spatial layer of that point. */
void tg_heif_plugins_set_operating_point(int point);
int tg_heif_plugins_operating_point(void);

/* libheif's success value, and a failure with `text` (copied: libheif frees the decoder, whose
 * message it would point to, before it copies the text). */
struct heif_error tg_heif_plugin_ok(void);
struct heif_error tg_heif_plugin_failure(enum heif_error_code code, const char *text);

/* libheif's strict-decoding switch, which neither plugin needs: each is as strict as it is. */
void tg_heif_plugin_ignore_strictness(void *decoder, int flag);

/* Each plugin's registration, called by tg_heif_plugins_register. */
void tg_heif_dav1d_register(void);
void tg_heif_de265_register(void);

/* The decoders' versions, e.g. "1.0.0" (dav1d), "1.0.11" (libde265). */
const char *tg_heif_dav1d_version(void);
const char *tg_heif_de265_version(void);

#endif
