/* The benchmark's reference decode: what any program pays to get every row out of libpng. Kept
 * out of CLibPNG so that the library carries no benchmark code, and so that CLibPNG's own choices
 * (expansion to RGBA, skipped Adler-32) do not move the baseline they are measured against. */
#include "bare_decode.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

static void quiet_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

int64_t tg_bare_png_decode(const char *path) {
    FILE *file = fopen(path, "rb");
    if (!file) return -1;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, quiet_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    /* volatile: modified between setjmp and a possible longjmp. */
    png_bytep volatile row = NULL;
    int64_t pixels = -1;
    if (png && info && !setjmp(png_jmpbuf(png))) {
        png_init_io(png, file);
        png_read_info(png, info);
        int passes = png_set_interlace_handling(png);
        png_read_update_info(png, info);
        png_uint_32 height = png_get_image_height(png, info);
        row = malloc(png_get_rowbytes(png, info));
        if (row) {
            for (int pass = 0; pass < passes; pass++)
                for (png_uint_32 y = 0; y < height; y++) png_read_row(png, row, NULL);
            png_read_end(png, NULL);
            pixels = (int64_t)png_get_image_width(png, info) * (int64_t)height;
        }
    }
    free(row);
    png_destroy_read_struct(png ? &png : NULL, info ? &info : NULL, NULL);
    fclose(file);
    return pixels;
}
