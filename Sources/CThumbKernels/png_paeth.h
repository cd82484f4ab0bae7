/*
 * png_paeth.h: the Paeth predictor, shared by the PNG filter (png_filter.c) and its undoing
 * (png_unfilter.c). Private to CThumbKernels.
 */
#ifndef PNG_PAETH_H
#define PNG_PAETH_H

#include <stdlib.h>

/* Whichever of left (a), above (b) and upper-left (c) is closest to a + b - c, ties in that order
 * (PNG specification, 9.4). Written without branches so the loops that use it vectorize. */
static inline int tk_paeth_predictor(int a, int b, int c) {
    int pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c);
    int not_a = pa > pb || pa > pc;
    int b_or_c = pb <= pc ? b : c;
    return not_a ? b_or_c : a;
}

#endif
