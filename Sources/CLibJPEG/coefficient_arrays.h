/*
 * Whole-image coefficient arrays for libjpeg, in memory the thread keeps between files (see
 * coefficient_arrays.c). Internal to CLibJPEG.
 */
#ifndef CLIBJPEG_COEFFICIENT_ARRAYS_H
#define CLIBJPEG_COEFFICIENT_ARRAYS_H

#include <stddef.h>
#include <stdio.h>

#include <jpeglib.h>

struct coefficient_block;

/* One decompressor's arrays: the libjpeg methods they wrap, the arrays of the image under way and
 * the memory they live in. Lives inside the reader, zeroed at creation. */
struct coefficient_arrays {
    void (*libjpeg_realize)(j_common_ptr cinfo);
    void (*libjpeg_free_pool)(j_common_ptr cinfo, int pool_id);
    struct jvirt_barray_control *list;   /* the image's arrays (control blocks in JPOOL_IMAGE) */
    int block_in_use;                    /* the image's arrays were laid out in the block */
    struct coefficient_block *block;     /* borrowed from the thread until coefficient_arrays_end */
    size_t kept_at_most;                 /* a larger block is freed at the end, not kept */
};

/* The decompressor's arrays (clibjpeg.c keeps them in its reader). */
struct coefficient_arrays *coefficient_arrays_of(j_common_ptr cinfo);

/* Puts the block-array methods in a created decompressor, after its max_memory_to_use is set. */
void coefficient_arrays_install(j_common_ptr cinfo, struct coefficient_arrays *arrays);

/* Gives the memory back to the thread; call after jpeg_destroy_decompress. */
void coefficient_arrays_end(struct coefficient_arrays *arrays);

#endif
