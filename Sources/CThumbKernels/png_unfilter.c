#include "png_unfilter.h"
#include "png_paeth.h"
#include "cpu_features.h"

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
/* The SSE4.1 path shares the SSE2 path's helpers, so it needs a compiler that targets SSE2. */
#if defined(__SSE2__) && (defined(__x86_64__) || defined(__i386__))
#include <smmintrin.h>
#define UNFILTER_SSE41 1
#endif

/* The predictors as the specification writes them, one byte at a time: the path for pixels of
 * 1 and 2 bytes, for what is left at the end of a row, and without SSE2. */
static void unfilter_bytes(int type, uint8_t *row, const uint8_t *above, size_t start, size_t length, size_t bpp) {
    for (size_t i = start; i < length; i++) {
        int a = i >= bpp ? row[i - bpp] : 0;
        int c = i >= bpp ? above[i - bpp] : 0;
        int b = above[i];
        switch (type) {
        case 1: row[i] = (uint8_t)(row[i] + a); break;
        case 2: row[i] = (uint8_t)(row[i] + b); break;
        case 3: row[i] = (uint8_t)(row[i] + ((a + b) >> 1)); break;
        default: row[i] = (uint8_t)(row[i] + tk_paeth_predictor(a, b, c)); break;
        }
    }
}

#if defined(__SSE2__)
/* Sub, Average and Paeth depend on the pixel just decoded, so they go one pixel at a time; SSE2
 * does a pixel's bytes at once in 16-bit lanes: 3- and 4-byte pixels (8-bit RGB, RGBA) loaded as
 * four bytes, 6- and 8-byte ones (16-bit RGB, RGBA) as eight. The lanes past a pixel are computed
 * and dropped, so the loop stops while a whole load remains. */
static inline __m128i load_pixel(const uint8_t *p, size_t width) {
    if (width == 4) {
        int32_t v;
        memcpy(&v, p, 4);
        return _mm_unpacklo_epi8(_mm_cvtsi32_si128(v), _mm_setzero_si128());
    }
    return _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(const void *)p), _mm_setzero_si128());
}

static inline void store_pixel(uint8_t *p, __m128i lanes, size_t bpp) {
    __m128i bytes = _mm_packus_epi16(lanes, lanes);
    if (bpp <= 4) {
        int32_t v = _mm_cvtsi128_si32(bytes);
        memcpy(p, &v, bpp);
    } else {
        uint8_t v[8];
        _mm_storel_epi64((__m128i *)(void *)v, bytes);
        memcpy(p, v, bpp);
    }
}

static inline __m128i select16(__m128i mask, __m128i yes, __m128i no) {
    return _mm_or_si128(_mm_and_si128(mask, yes), _mm_andnot_si128(mask, no));
}

/* The pixel loop of both paths, written once as a macro because it cannot be one function: the
 * SSE4.1 path's helpers may only be inlined into code compiled for SSE4.1. LOAD(p, width) widens a
 * pixel's bytes to 16-bit lanes, SELECT(mask, yes, no) takes `yes` where the mask is set. The body
 * of a function of (type, row, above, length, bpp) returning the index of the first byte not done. */
#define UNFILTER_PIXELS_BODY(LOAD, SELECT)                                                            \
    const __m128i low_byte = _mm_set1_epi16(0xff);                                                    \
    __m128i a = _mm_setzero_si128(), c = _mm_setzero_si128();                                         \
    const size_t width = bpp <= 4 ? 4 : 8;                                                            \
    size_t i = 0;                                                                                     \
    for (; i + width <= length; i += bpp) {                                                           \
        __m128i x = LOAD(row + i, width), b = LOAD(above + i, width), predicted;                      \
        if (type == 1) {                                                                              \
            predicted = a;                                                                            \
        } else if (type == 3) {                                                                       \
            predicted = _mm_srli_epi16(_mm_add_epi16(a, b), 1);                                       \
        } else {                                                                                      \
            /* The Paeth predictor rewritten as stb_image writes it, equal to the specification's   \
             * for all 2^24 (a, b, c) (checked exhaustively) with a shorter chain from a, the pixel \
             * just decoded: with t = 3c - a - b, lo = min(a, b), hi = max(a, b), it is hi when     \
             * t <= lo, else lo when hi <= t, else c. */                                             \
            __m128i threshold = _mm_sub_epi16(_mm_sub_epi16(_mm_add_epi16(c, _mm_add_epi16(c, c)), b), a); \
            __m128i lo = _mm_min_epi16(a, b), hi = _mm_max_epi16(a, b);                               \
            __m128i lo_or_c = SELECT(_mm_cmpgt_epi16(hi, threshold), c, lo);                          \
            predicted = SELECT(_mm_cmpgt_epi16(threshold, lo), lo_or_c, hi);                          \
            c = b;                                                                                    \
        }                                                                                             \
        a = _mm_and_si128(_mm_add_epi16(x, predicted), low_byte);                                     \
        store_pixel(row + i, a, bpp);                                                                 \
    }                                                                                                 \
    return i

/* Runs PIXELS, an unfilter_pixels function, with the filter type and pixel size as constants, so
 * that each instance loses its per-pixel branches and its 3- or 4-byte store is a move, not a
 * call. Returns the index of the first byte not done: 0 for pixel sizes it has no loop for. */
#define UNFILTER_BY_TYPE(PIXELS, n)                                                                   \
    (type == 1 ? PIXELS(1, row, above, length, n)                                                     \
     : type == 3 ? PIXELS(3, row, above, length, n) : PIXELS(4, row, above, length, n))
#define UNFILTER_BY_PIXEL_SIZE(PIXELS)                                                                \
    switch (bpp) {                                                                                    \
    case 3: return UNFILTER_BY_TYPE(PIXELS, 3);                                                       \
    case 4: return UNFILTER_BY_TYPE(PIXELS, 4);                                                       \
    case 6: return UNFILTER_BY_TYPE(PIXELS, 6);                                                       \
    case 8: return UNFILTER_BY_TYPE(PIXELS, 8);                                                       \
    default: return 0;                                                                                \
    }

__attribute__((always_inline))
static inline size_t unfilter_pixels(int type, uint8_t *row, const uint8_t *above, size_t length, size_t bpp) {
    UNFILTER_PIXELS_BODY(load_pixel, select16);
}

/* Sub (1), Average (3) or Paeth (4) over the whole pixels of a row, with SSE2. */
static size_t unfilter_sse2(int type, uint8_t *row, const uint8_t *above, size_t length, size_t bpp) {
    UNFILTER_BY_PIXEL_SIZE(unfilter_pixels)
}

static void unfilter_up(uint8_t *row, const uint8_t *above, size_t length) {
    size_t i = 0;
    for (; i + 16 <= length; i += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(row + i));
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(above + i));
        _mm_storeu_si128((__m128i *)(void *)(row + i), _mm_add_epi8(x, b));
    }
    for (; i < length; i++) row[i] = (uint8_t)(row[i] + above[i]);
}
#endif

#if UNFILTER_SSE41
/* The same loop with SSE4.1, chosen at run time where the CPU has it: the pixel widened by one
 * pmovzxbw, and each of Paeth's two selections one pblendvb instead of three logic operations.
 * Both shorten the chain from one pixel to the next: on a 2560-pixel row, Paeth 3.3 -> 2.6 ns a
 * pixel, 3-byte Sub 1.6 -> 0.8. Same arithmetic, same bytes (the tests run both paths). */
__attribute__((always_inline, target("sse4.1")))
static inline __m128i load_pixel_sse41(const uint8_t *p, size_t width) {
    if (width == 4) {
        int32_t v;
        memcpy(&v, p, 4);
        return _mm_cvtepu8_epi16(_mm_cvtsi32_si128(v));
    }
    return _mm_cvtepu8_epi16(_mm_loadl_epi64((const __m128i *)(const void *)p));
}

/* blendv takes its second operand where the mask is set: one instruction for select16's three. */
__attribute__((always_inline, target("sse4.1")))
static inline __m128i select16_sse41(__m128i mask, __m128i yes, __m128i no) {
    return _mm_blendv_epi8(no, yes, mask);
}

__attribute__((always_inline, target("sse4.1")))
static inline size_t unfilter_pixels_sse41(int type, uint8_t *row, const uint8_t *above, size_t length, size_t bpp) {
    UNFILTER_PIXELS_BODY(load_pixel_sse41, select16_sse41);
}

__attribute__((target("sse4.1")))
static size_t unfilter_sse41(int type, uint8_t *row, const uint8_t *above, size_t length, size_t bpp) {
    UNFILTER_BY_PIXEL_SIZE(unfilter_pixels_sse41)
}

#endif

void tk_png_unfilter_row(int type, uint8_t *row, const uint8_t *above, size_t length, size_t bpp) {
#if UNFILTER_SSE41
    if ((type == 1 || type == 3 || type == 4) && tk_cpu_has_sse41()) {
        unfilter_bytes(type, row, above, unfilter_sse41(type, row, above, length, bpp), length, bpp);
        return;
    }
#endif
    tk_png_unfilter_row_baseline(type, row, above, length, bpp);
}

void tk_png_unfilter_row_baseline(int type, uint8_t *row, const uint8_t *above, size_t length, size_t bpp) {
    if (type < 1 || type > 4) return;
#if defined(__SSE2__)
    if (type == 2) {
        unfilter_up(row, above, length);
        return;
    }
    unfilter_bytes(type, row, above, unfilter_sse2(type, row, above, length, bpp), length, bpp);
#else
    unfilter_bytes(type, row, above, 0, length, bpp);
#endif
}
