/*
 * thumbkernels.c: see include/thumbkernels.h for the policy (identical results on every path).
 */
#include "thumbkernels.h"
#include "cpu_features.h"

#include <string.h>

#pragma clang fp contract(off)

#if defined(__x86_64__) || defined(__i386__)
#define TK_X86 1
#include <immintrin.h>
#endif

/* ---- SHA-256 ---- */

static const uint32_t K256[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void sha256_portable(uint32_t state[8], const uint8_t *data, size_t blocks) {
    for (; blocks > 0; blocks--, data += 64) {
        uint32_t w[64];
        for (int i = 0; i < 16; i++)
            w[i] = (uint32_t)data[4 * i] << 24 | (uint32_t)data[4 * i + 1] << 16 | (uint32_t)data[4 * i + 2] << 8
                 | (uint32_t)data[4 * i + 3];
        for (int i = 16; i < 64; i++) {
            uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
            uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16] + s0 + w[i - 7] + s1;
        }
        uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
        uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
        for (int i = 0; i < 64; i++) {
            uint32_t t1 = h + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) + ((e & f) ^ (~e & g)) + K256[i] + w[i];
            uint32_t t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
            h = g; g = f; f = e; e = d + t1;
            d = c; c = b; b = a; a = t1 + t2;
        }
        state[0] += a; state[1] += b; state[2] += c; state[3] += d;
        state[4] += e; state[5] += f; state[6] += g; state[7] += h;
    }
}

#ifdef TK_X86
/* The SHA extensions (Intel's published sequence: sha256rnds2 does two rounds on the state held
 * as ABEF/CDGH, sha256msg1/msg2 extend the message schedule). */
__attribute__((target("sha,sse4.1")))
static void sha256_shani(uint32_t state[8], const uint8_t *data, size_t blocks) {
    const __m128i mask = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    __m128i tmp = _mm_loadu_si128((const __m128i *)&state[0]);
    __m128i state1 = _mm_loadu_si128((const __m128i *)&state[4]);
    tmp = _mm_shuffle_epi32(tmp, 0xB1);          /* CDAB */
    state1 = _mm_shuffle_epi32(state1, 0x1B);    /* EFGH */
    __m128i state0 = _mm_alignr_epi8(tmp, state1, 8); /* ABEF */
    state1 = _mm_blend_epi16(state1, tmp, 0xF0);      /* CDGH */

    for (; blocks > 0; blocks--, data += 64) {
        __m128i abef = state0, cdgh = state1;
        __m128i msg[4];
        for (int i = 0; i < 4; i++) msg[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * i)), mask);
        for (int r = 0; r < 16; r++) {
            __m128i m = msg[r & 3];
            __m128i k = _mm_add_epi32(m, _mm_loadu_si128((const __m128i *)&K256[4 * r]));
            state1 = _mm_sha256rnds2_epu32(state1, state0, k);
            if (r < 12) {
                /* Schedule words 16+4r.. from the last four groups. */
                __m128i next = _mm_sha256msg1_epu32(msg[r & 3], msg[(r + 1) & 3]);
                next = _mm_add_epi32(next, _mm_alignr_epi8(msg[(r + 3) & 3], msg[(r + 2) & 3], 4));
                next = _mm_sha256msg2_epu32(next, msg[(r + 3) & 3]);
                msg[r & 3] = next;
            }
            k = _mm_shuffle_epi32(k, 0x0E);
            state0 = _mm_sha256rnds2_epu32(state0, state1, k);
        }
        state0 = _mm_add_epi32(state0, abef);
        state1 = _mm_add_epi32(state1, cdgh);
    }

    tmp = _mm_shuffle_epi32(state0, 0x1B);       /* FEBA */
    state1 = _mm_shuffle_epi32(state1, 0xB1);    /* DCHG */
    state0 = _mm_blend_epi16(tmp, state1, 0xF0); /* DCBA */
    state1 = _mm_alignr_epi8(state1, tmp, 8);    /* ABEF */
    _mm_storeu_si128((__m128i *)&state[0], state0);
    _mm_storeu_si128((__m128i *)&state[4], state1);
}
#endif

void tk_sha256_blocks(uint32_t state[8], const uint8_t *data, size_t blocks) {
#ifdef TK_X86
    if (tk_cpu_has_sha()) { sha256_shani(state, data, blocks); return; }
#endif
    sha256_portable(state, data, blocks);
}

/* ---- horizontal filter pass ---- */

int tk_convolve_available(void) {
    return tk_cpu_has_avx2();
}

#ifdef TK_X86
/* ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7)) for four channels at once: `pairs[j]` holds
 * s(2j) in lanes 0-3 and s(2j+1) in lanes 4-7. */
__attribute__((target("avx2")))
static inline __m128 sum_rgba_partials(__m256 pairs0, __m256 pairs1, __m256 pairs2, __m256 pairs3) {
    __m128 s01 = _mm_add_ps(_mm256_castps256_ps128(pairs0), _mm256_extractf128_ps(pairs0, 1));
    __m128 s23 = _mm_add_ps(_mm256_castps256_ps128(pairs1), _mm256_extractf128_ps(pairs1, 1));
    __m128 s45 = _mm_add_ps(_mm256_castps256_ps128(pairs2), _mm256_extractf128_ps(pairs2, 1));
    __m128 s67 = _mm_add_ps(_mm256_castps256_ps128(pairs3), _mm256_extractf128_ps(pairs3, 1));
    return _mm_add_ps(_mm_add_ps(s01, s23), _mm_add_ps(s45, s67));
}

/* A product as a value of its own. The pragma above keeps clang from fusing a multiply and an add
 * into an FMA, but -ffp-contract=fast ignores pragmas; an empty asm the compiler cannot see through
 * holds under any flag, so the sums stay the portable path's (an FMA rounds once, not twice). It
 * costs nothing: the product is in a register anyway. */
__attribute__((target("avx2")))
static inline __m256 tk_product(__m256 a, __m256 b) {
    __m256 product = _mm256_mul_ps(a, b);
    __asm__("" : "+x"(product));
    return product;
}

__attribute__((target("avx2")))
static void convolve_rgba_avx2(const float *source, const long *starts, const long *blocks, const float *weights,
                               long stride, long output_count, float *destination) {
    /* Each accumulator holds two pixels' worth of partial sums, so each weight is spread over
     * four lanes. */
    const __m256i spread01 = _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1);
    const __m256i spread23 = _mm256_setr_epi32(2, 2, 2, 2, 3, 3, 3, 3);
    const __m256i spread45 = _mm256_setr_epi32(4, 4, 4, 4, 5, 5, 5, 5);
    const __m256i spread67 = _mm256_setr_epi32(6, 6, 6, 6, 7, 7, 7, 7);
    for (long o = 0; o < output_count; o++) {
        const float *p = source + 4 * starts[o];
        const float *w = weights + o * stride;
        __m256 acc0 = _mm256_setzero_ps(), acc1 = _mm256_setzero_ps();
        __m256 acc2 = _mm256_setzero_ps(), acc3 = _mm256_setzero_ps();
        for (long b = 0; b < blocks[o]; b++, p += 32, w += 8) {
            __m256 w8 = _mm256_loadu_ps(w);
            acc0 = _mm256_add_ps(acc0, tk_product(_mm256_loadu_ps(p), _mm256_permutevar8x32_ps(w8, spread01)));
            acc1 = _mm256_add_ps(acc1, tk_product(_mm256_loadu_ps(p + 8), _mm256_permutevar8x32_ps(w8, spread23)));
            acc2 = _mm256_add_ps(acc2, tk_product(_mm256_loadu_ps(p + 16), _mm256_permutevar8x32_ps(w8, spread45)));
            acc3 = _mm256_add_ps(acc3, tk_product(_mm256_loadu_ps(p + 24), _mm256_permutevar8x32_ps(w8, spread67)));
        }
        _mm_storeu_ps(destination + 4 * o, sum_rgba_partials(acc0, acc1, acc2, acc3));
    }
}

/* Lane j of each accumulator is s(j) of its channel. Horizontal adds pair neighbouring lanes
 * (float addition is commutative, so the operand order inside a pair does not matter):
 * [s0+s1, s2+s3, s4+s5, s6+s7] per channel, then the quads, then the halves, which leaves
 * R, G, B in lanes 0-2; lane 3 takes the precomputed alpha. */
__attribute__((target("avx2")))
static inline __m128 sum_rgb_partials(__m256 accR, __m256 accG, __m256 accB, float alpha) {
    __m128 pairsR = _mm_hadd_ps(_mm256_castps256_ps128(accR), _mm256_extractf128_ps(accR, 1));
    __m128 pairsG = _mm_hadd_ps(_mm256_castps256_ps128(accG), _mm256_extractf128_ps(accG, 1));
    __m128 pairsB = _mm_hadd_ps(_mm256_castps256_ps128(accB), _mm256_extractf128_ps(accB, 1));
    /* [R0123, R4567, G0123, G4567] and [B0123, B4567, 0, 0] */
    __m128 quadsRG = _mm_hadd_ps(pairsR, pairsG);
    __m128 quadsB = _mm_hadd_ps(pairsB, _mm_setzero_ps());
    __m128 rgb = _mm_hadd_ps(quadsRG, quadsB);
    return _mm_insert_ps(rgb, _mm_set_ss(alpha), 0x30);
}

/* Adds blocks [from, to) of one output's taps into its three sums. */
__attribute__((target("avx2")))
static inline void add_rgb_blocks(const float *r, const float *g, const float *b, const float *w, long from, long to,
                                  __m256 *accR, __m256 *accG, __m256 *accB) {
    for (long k = from; k < to; k++) {
        __m256 w8 = _mm256_loadu_ps(w + 8 * k);
        *accR = _mm256_add_ps(*accR, tk_product(_mm256_loadu_ps(r + 8 * k), w8));
        *accG = _mm256_add_ps(*accG, tk_product(_mm256_loadu_ps(g + 8 * k), w8));
        *accB = _mm256_add_ps(*accB, tk_product(_mm256_loadu_ps(b + 8 * k), w8));
    }
}

/* Two outputs at a time: six independent sums keep the adders busy where one output's three
 * would wait on each add's latency. Each output still sums its own taps in its own order. */
__attribute__((target("avx2")))
static void convolve_rgb_planes_avx2(const float *red, const float *green, const float *blue, const long *starts,
                                     const long *blocks, const float *weights, long stride, const float *alphas,
                                     long output_count, float *destination) {
    long o = 0;
    for (; o + 2 <= output_count; o += 2) {
        const float *r0 = red + starts[o], *g0 = green + starts[o], *b0 = blue + starts[o];
        const float *r1 = red + starts[o + 1], *g1 = green + starts[o + 1], *b1 = blue + starts[o + 1];
        const float *w0 = weights + o * stride, *w1 = w0 + stride;
        long n0 = blocks[o], n1 = blocks[o + 1], common = n0 < n1 ? n0 : n1;
        __m256 accR0 = _mm256_setzero_ps(), accG0 = _mm256_setzero_ps(), accB0 = _mm256_setzero_ps();
        __m256 accR1 = _mm256_setzero_ps(), accG1 = _mm256_setzero_ps(), accB1 = _mm256_setzero_ps();
        for (long k = 0; k < common; k++) {
            __m256 wa = _mm256_loadu_ps(w0 + 8 * k), wb = _mm256_loadu_ps(w1 + 8 * k);
            accR0 = _mm256_add_ps(accR0, tk_product(_mm256_loadu_ps(r0 + 8 * k), wa));
            accR1 = _mm256_add_ps(accR1, tk_product(_mm256_loadu_ps(r1 + 8 * k), wb));
            accG0 = _mm256_add_ps(accG0, tk_product(_mm256_loadu_ps(g0 + 8 * k), wa));
            accG1 = _mm256_add_ps(accG1, tk_product(_mm256_loadu_ps(g1 + 8 * k), wb));
            accB0 = _mm256_add_ps(accB0, tk_product(_mm256_loadu_ps(b0 + 8 * k), wa));
            accB1 = _mm256_add_ps(accB1, tk_product(_mm256_loadu_ps(b1 + 8 * k), wb));
        }
        add_rgb_blocks(r0, g0, b0, w0, common, n0, &accR0, &accG0, &accB0);
        add_rgb_blocks(r1, g1, b1, w1, common, n1, &accR1, &accG1, &accB1);
        _mm_storeu_ps(destination + 4 * o, sum_rgb_partials(accR0, accG0, accB0, alphas[o]));
        _mm_storeu_ps(destination + 4 * o + 4, sum_rgb_partials(accR1, accG1, accB1, alphas[o + 1]));
    }
    if (o < output_count) {
        __m256 accR = _mm256_setzero_ps(), accG = _mm256_setzero_ps(), accB = _mm256_setzero_ps();
        add_rgb_blocks(red + starts[o], green + starts[o], blue + starts[o], weights + o * stride, 0, blocks[o],
                       &accR, &accG, &accB);
        _mm_storeu_ps(destination + 4 * o, sum_rgb_partials(accR, accG, accB, alphas[o]));
    }
}
#endif

void tk_convolve_rgba(const float *source, const long *starts, const long *blocks, const float *weights,
                      long stride, long output_count, float *destination) {
#ifdef TK_X86
    convolve_rgba_avx2(source, starts, blocks, weights, stride, output_count, destination);
#else
    (void)source; (void)starts; (void)blocks; (void)weights; (void)stride; (void)output_count; (void)destination;
#endif
}

void tk_convolve_rgb_planes(const float *red, const float *green, const float *blue, const long *starts,
                            const long *blocks, const float *weights, long stride, const float *alphas,
                            long output_count, float *destination) {
#ifdef TK_X86
    convolve_rgb_planes_avx2(red, green, blue, starts, blocks, weights, stride, alphas, output_count, destination);
#else
    (void)red; (void)green; (void)blue; (void)starts; (void)blocks; (void)weights; (void)stride; (void)alphas;
    (void)output_count; (void)destination;
#endif
}


/* ---- 8-bit samples to float planes ---- */

/* Four pixels a step: their bytes read as two 64-bit words (rather than a load a sample), and each
 * plane's four floats stored at once (rather than a store a sample). The scalar loop was bound by
 * its six loads and three stores a pixel: 0.98 -> 0.76 ns a pixel for RGB on a 2560-pixel row. */
void tk_samples_to_planes(const uint8_t *samples, size_t count, size_t channels, const float *table,
                          float *red, float *green, float *blue) {
    size_t x = 0;
#ifdef TK_X86
    if (channels == 3) {
        /* 16 bytes from the step's first sample: 12 are its pixels, so the last steps stop short. */
        for (; x + 6 <= count; x += 4) {
            uint64_t w0, w1;
            memcpy(&w0, samples + 3 * x, 8);
            memcpy(&w1, samples + 3 * x + 8, 8);
            _mm_storeu_ps(red + x, _mm_set_ps(table[(w1 >> 8) & 255], table[(w0 >> 48) & 255], table[(w0 >> 24) & 255], table[w0 & 255]));
            _mm_storeu_ps(green + x, _mm_set_ps(table[(w1 >> 16) & 255], table[w0 >> 56], table[(w0 >> 32) & 255], table[(w0 >> 8) & 255]));
            _mm_storeu_ps(blue + x, _mm_set_ps(table[(w1 >> 24) & 255], table[w1 & 255], table[(w0 >> 40) & 255], table[(w0 >> 16) & 255]));
        }
    } else if (channels == 4) {
        for (; x + 4 <= count; x += 4) {
            uint64_t w0, w1;
            memcpy(&w0, samples + 4 * x, 8);
            memcpy(&w1, samples + 4 * x + 8, 8);
            _mm_storeu_ps(red + x, _mm_set_ps(table[(w1 >> 32) & 255], table[w1 & 255], table[(w0 >> 32) & 255], table[w0 & 255]));
            _mm_storeu_ps(green + x, _mm_set_ps(table[(w1 >> 40) & 255], table[(w1 >> 8) & 255], table[(w0 >> 40) & 255], table[(w0 >> 8) & 255]));
            _mm_storeu_ps(blue + x, _mm_set_ps(table[(w1 >> 48) & 255], table[(w1 >> 16) & 255], table[(w0 >> 48) & 255], table[(w0 >> 16) & 255]));
        }
    }
#endif
    for (; x < count; x++) {
        const uint8_t *pixel = samples + channels * x;
        red[x] = table[pixel[0]];
        green[x] = table[pixel[1]];
        blue[x] = table[pixel[2]];
    }
}
