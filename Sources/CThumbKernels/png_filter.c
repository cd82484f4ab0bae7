#include "png_filter.h"
#include "png_paeth.h"

#include <stdlib.h>
#include <string.h>

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

/* The filter the heuristic picks for `row`. Each filter's sum is its own loop over the row (which
 * stays in the L1 cache), the first `bpp` bytes apart: simple loops the compiler vectorizes, a
 * quarter of the time of one loop trying all five a byte at a time. */
static int choose_filter(const uint8_t *row, const uint8_t *above, size_t row_bytes, size_t bpp) {
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
    const size_t block = (size_t)1 << 16;
    for (size_t start = head; start < row_bytes; start += block) {
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

int tk_png_filter_rows(const uint8_t *rows, size_t row_bytes, size_t height, size_t pixel_bytes,
                       int adaptive, uint8_t *out) {
    /* The row above the first is zeros: a real row of them keeps the loops free of that case. */
    uint8_t *zeros = calloc(row_bytes ? row_bytes : 1, 1);
    if (!zeros) return 0;
    const uint8_t *above = zeros;
    for (size_t y = 0; y < height; y++) {
        const uint8_t *row = rows + y * row_bytes;
        uint8_t *line = out + y * (row_bytes + 1);
        int type = adaptive ? choose_filter(row, above, row_bytes, pixel_bytes) : 0;
        line[0] = (uint8_t)type;
        filter_row(type, row, above, row_bytes, pixel_bytes, line + 1);
        above = row;
    }
    free(zeros);
    return 1;
}
