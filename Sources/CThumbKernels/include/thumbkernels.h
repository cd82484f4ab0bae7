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

/* The first three samples of each of `count` pixels (`channels` bytes apart, 3 or more) looked up
 * in `table` (256 floats) into three planes: red[x] = table[samples[channels * x]], and so on. */
void tk_samples_to_planes(const uint8_t *samples, size_t count, size_t channels, const float *table,
                          float *red, float *green, float *blue);

/* 1 when the horizontal passes below run with AVX2 (otherwise they are not to be called: the
 * Swift loop they mirror is used instead). */
int tk_convolve_available(void);

/*
 * The horizontal filter pass over one row. Output pixel o is the weighted sum of the source pixels
 * from `starts[o]`, with the weights at `weights + o * stride`, in blocks of eight taps: `blocks[o]`
 * of them (the weights past the real taps are zero, and the source must be readable that far).
 * Every channel is summed exactly as ResampleEngine.convolve does: eight partial sums s0..s7 take
 * the taps at positions 0..7 of each block, and the result is ((s0 + s1) + (s2 + s3)) +
 * ((s4 + s5) + (s6 + s7)), each step a separately rounded float multiply or add.
 * `destination` receives 4 floats (premultiplied RGBA) a pixel.
 */

/* `source`: premultiplied float RGBA, 4 floats a pixel. */
void tk_convolve_rgba(const float *source, const long *starts, const long *blocks, const float *weights,
                      long stride, long output_count, float *destination);

/* Opaque pixels held as three planes of floats, one per colour channel. Alpha is 1 everywhere, so
 * each output's alpha is the sum of its weights taken in the same order: the same for every row,
 * it is passed in (`alphas[o]`) rather than summed again. */
void tk_convolve_rgb_planes(const float *red, const float *green, const float *blue, const long *starts,
                            const long *blocks, const float *weights, long stride, const float *alphas,
                            long output_count, float *destination);

#endif
