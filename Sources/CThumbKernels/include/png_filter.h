/*
 * png_filter.h: the PNG row filters (PNG specification, section 9) applied before compression,
 * the hot loop of writing a PNG: every byte of the image is tried with all five filters.
 */
#ifndef PNG_FILTER_H
#define PNG_FILTER_H

#include <stddef.h>
#include <stdint.h>

/*
 * Filters `height` rows of `row_bytes` bytes each, stored one after another at `rows`, into
 * `out`: for each row its filter type byte, then the row filtered, height * (row_bytes + 1) bytes
 * in all. `pixel_bytes` is the bytes of one pixel (1 for images of under 8 bits a pixel), the
 * distance the Sub, Average and Paeth filters look back.
 *
 * adaptive = 0: every row unfiltered (type 0, None). adaptive = 1: each row takes the filter whose
 * output has the smallest sum of magnitudes, each byte read as a signed value (the heuristic the
 * specification suggests and libpng uses); a tie goes to the first in the order None, Sub, Up,
 * Average, Paeth. The row above the first is taken as zeros, as decoders do.
 *
 * Returns 1, or 0 when memory for a row of zeros runs out (out is then not written).
 */
int tk_png_filter_rows(const uint8_t *rows, size_t row_bytes, size_t height, size_t pixel_bytes,
                       int adaptive, uint8_t *out);

/* tk_png_filter_rows without the AVX2 path (the same bytes, for tests to compare with). */
int tk_png_filter_rows_baseline(const uint8_t *rows, size_t row_bytes, size_t height, size_t pixel_bytes,
                                int adaptive, uint8_t *out);

#endif
