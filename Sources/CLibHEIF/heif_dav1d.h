/*
 * heif_dav1d: libheif's AV1 decoder as thumbgen registers it, over dav1d. Internal to CLibHEIF.
 *
 * Why a plugin of our own: libheif 1.15's dav1d plugin opens dav1d with its default logger, which
 * prints bitstream errors ("Error parsing OBU data") on standard error, and libheif gives no way to
 * set another; libaom, which prints nothing, decodes AV1 about twice as slowly. libavif 0.11.1
 * (Debian bookworm's) sets no dav1d logger either (libavif 1.4 does). So thumbgen hands libheif a
 * decoder plugin that is libheif's own dav1d plugin with these differences:
 *  - dav1d's log goes to the decoder, not to standard error: its first line is the error's text;
 *  - one thread, no frame delay (thumbgen decodes files in parallel instead, and -j1 is one thread);
 *  - dav1d's frame size limit is the pixel limit of the decode running on the calling thread, so a
 *    frame larger than the limits is refused before dav1d allocates it;
 *  - every error path releases what it holds.
 * It is registered once per process with a priority above libheif's own AV1 decoders, because
 * libheif 1.15 decodes alpha planes and grid tiles with its default options, not the caller's.
 */
#ifndef HEIF_DAV1D_H
#define HEIF_DAV1D_H

#include <stdint.h>

/* Registers the plugin with libheif, once per process; every call after the first waits for the
 * first and does nothing. Call before any other libheif call that decodes or lists decoders. */
void tg_heif_dav1d_register(void);

/* The pixel limit for AV1 frames decoded on the calling thread until the next call (0: libheif's
 * own, 32768 x 32768). */
void tg_heif_dav1d_set_frame_limit(uint64_t max_pixels);

/* dav1d's version, e.g. "1.0.0". */
const char *tg_heif_dav1d_version(void);

#endif
