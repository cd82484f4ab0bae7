/*
 * thumbkernels.h: the few hot loops of ThumbKit that need instructions Swift cannot ask for
 * per function (SHA extensions, AVX2), each with a portable path that gives identical results.
 *
 * Policy: every function here computes exactly what its portable path computes, bit for bit, on
 * any x86-64 or other CPU; the fast path is chosen at run time from CPUID. No FMA contraction
 * (`#pragma clang fp contract(off)`), no fast-math, fixed summation order.
 */
#ifndef THUMBKERNELS_H
#define THUMBKERNELS_H

#include <stddef.h>
#include <stdint.h>

/* SHA-256 compression of `blocks` consecutive 64-byte blocks into `state` (FIPS 180-4). */
void tk_sha256_blocks(uint32_t state[8], const uint8_t *data, size_t blocks);

/* 1 when tk_convolve_rgba below runs with AVX2 (otherwise it is not to be called: the Swift
 * loop it mirrors is used instead). */
int tk_convolve_rgba_available(void);

/*
 * Horizontal filter pass over one row of premultiplied float RGBA pixels (`source`, 4 floats a
 * pixel). Output pixel o is the weighted sum of `counts[o]` pixels from `starts[o]`, with the
 * weights at `weights + o * stride`. Taps are summed exactly as ResampleEngine.convolve does:
 * four accumulators a0..a3 take taps k ≡ 0, 1, 2, 3 (mod 4) of the whole groups of four, the
 * remaining taps go into a0, and the result is (a0 + a1) + (a2 + a3), each step a separately
 * rounded float multiply or add.
 */
void tk_convolve_rgba(const float *source, const long *starts, const long *counts, const float *weights,
                      long stride, long output_count, float *destination);

#endif
