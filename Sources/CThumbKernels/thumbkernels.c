/*
 * thumbkernels.c: see include/thumbkernels.h for the policy (identical results on every path).
 */
#include <stdatomic.h>
#include "thumbkernels.h"

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
    /* Worker threads hash at once: the probe result is cached atomically (relaxed is enough, every
     * thread computes the same value), which keeps it free of data races (ThreadSanitizer). */
    static _Atomic int cached = -1;
    int has_sha = atomic_load_explicit(&cached, memory_order_relaxed);
    if (has_sha < 0) {
        __builtin_cpu_init();
        /* SHA extensions: CPUID leaf 7, EBX bit 29; SSE4.1 and SSSE3 come with every CPU that has them. */
        unsigned int eax, ebx, ecx, edx;
        int sha = 0;
        __asm__ volatile("cpuid" : "=a"(eax), "=b"(ebx), "=c"(ecx), "=d"(edx) : "a"(7), "c"(0));
        sha = (ebx >> 29) & 1;
        has_sha = sha && __builtin_cpu_supports("sse4.1") && __builtin_cpu_supports("ssse3");
        atomic_store_explicit(&cached, has_sha, memory_order_relaxed);
    }
    if (has_sha) { sha256_shani(state, data, blocks); return; }
#endif
    sha256_portable(state, data, blocks);
}

/* ---- horizontal filter pass ---- */

int tk_convolve_rgba_available(void) {
#ifdef TK_X86
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
#else
    return 0;
#endif
}

#ifdef TK_X86
__attribute__((target("avx2")))
static void convolve_avx2(const float *source, const long *starts, const long *counts, const float *weights,
                          long stride, long output_count, float *destination) {
    /* Lanes 0-3 of acc01 are a0, lanes 4-7 a1; acc23 likewise holds a2 and a3. Every lane sees
     * the same multiplies and adds in the same order as the scalar SIMD4 loop. */
    const __m256i lo = _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1);
    const __m256i hi = _mm256_setr_epi32(2, 2, 2, 2, 3, 3, 3, 3);
    for (long o = 0; o < output_count; o++) {
        const float *p = source + 4 * starts[o];
        const float *w = weights + o * stride;
        long n = counts[o];
        __m256 acc01 = _mm256_setzero_ps(), acc23 = _mm256_setzero_ps();
        long k = 0;
        for (; k + 4 <= n; k += 4) {
            __m256 w4 = _mm256_castps128_ps256(_mm_loadu_ps(w + k));
            __m256 w01 = _mm256_permutevar8x32_ps(w4, lo);
            __m256 w23 = _mm256_permutevar8x32_ps(w4, hi);
            acc01 = _mm256_add_ps(acc01, _mm256_mul_ps(_mm256_loadu_ps(p + 4 * k), w01));
            acc23 = _mm256_add_ps(acc23, _mm256_mul_ps(_mm256_loadu_ps(p + 4 * k + 8), w23));
        }
        __m128 a0 = _mm256_castps256_ps128(acc01), a1 = _mm256_extractf128_ps(acc01, 1);
        __m128 a2 = _mm256_castps256_ps128(acc23), a3 = _mm256_extractf128_ps(acc23, 1);
        for (; k < n; k++) a0 = _mm_add_ps(a0, _mm_mul_ps(_mm_loadu_ps(p + 4 * k), _mm_set1_ps(w[k])));
        _mm_storeu_ps(destination + 4 * o, _mm_add_ps(_mm_add_ps(a0, a1), _mm_add_ps(a2, a3)));
    }
}
#endif

void tk_convolve_rgba(const float *source, const long *starts, const long *counts, const float *weights,
                      long stride, long output_count, float *destination) {
#ifdef TK_X86
    convolve_avx2(source, starts, counts, weights, stride, output_count, destination);
#else
    (void)source; (void)starts; (void)counts; (void)weights; (void)stride; (void)output_count; (void)destination;
#endif
}
