/*
 * png_unfilter.h: undoing the PNG row filters (PNG specification, section 9) when reading, the
 * hot loop of decoding a PNG after inflate: libpng's portable C takes about a quarter of the time
 * of thumbnailing a filtered photo (mostly Paeth, one byte at a time).
 */
#ifndef PNG_UNFILTER_H
#define PNG_UNFILTER_H

#include <stddef.h>
#include <stdint.h>

/*
 * Undoes filter `type` (1 Sub, 2 Up, 3 Average, 4 Paeth; 0 None leaves the row) on the `length`
 * bytes at `row`, in place. `above` is the previous row already unfiltered (zeros for the first
 * row); `pixel_bytes` (1-8) is the bytes of one pixel, the distance Sub, Average and Paeth look
 * back. The result is the one the specification defines, byte for byte, whatever the path taken.
 */
void tk_png_unfilter_row(int type, uint8_t *row, const uint8_t *above, size_t length, size_t pixel_bytes);

/* The same without the SSE4.1 path tk_png_unfilter_row takes where the CPU has it (SSE2, or bytes
 * one at a time): what other x86 CPUs run, so that tests check both paths on one machine. */
void tk_png_unfilter_row_baseline(int type, uint8_t *row, const uint8_t *above, size_t length, size_t pixel_bytes);

#endif
