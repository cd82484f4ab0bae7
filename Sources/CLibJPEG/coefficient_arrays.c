/*
 * libjpeg keeps a progressive file's coefficients for the whole image in "virtual block arrays",
 * which its memory manager mallocs for each file and zeroes as rows are first touched. For a
 * 24-megapixel photo that is 72 MB of fresh pages per file, each one a page fault: most of a JPEG
 * batch's system time, and with two workers their faults queue on the process's one memory map.
 * These methods replace libjpeg's for block arrays (sample arrays stay libjpeg's): an image's
 * arrays share one block of memory, which goes back to the thread when the reader closes and
 * serves the thread's next file, so its pages fault in once per worker rather than once per file.
 * A thread keeps its largest block until it ends (batch workers end with their batch), and only a
 * block within a quarter of the decode's memory budget (max_memory_to_use): what is kept stays
 * inside the headroom the budget leaves beside each job's plan.
 *
 * Rows, zeroing and errors follow libjpeg's jmemmgr.c with jmemnobs.c, which has no backing
 * store: arrays larger than max_memory_to_use are refused with JERR_NO_BACKING_STORE.
 */
#define _GNU_SOURCE
#include "coefficient_arrays.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <jerror.h>

struct coefficient_block {
    char *base;
    size_t capacity;
};

struct jvirt_barray_control {
    JBLOCKARRAY rows;                 /* rows_in_array row pointers into the block; NULL until realized */
    JDIMENSION rows_in_array;
    JDIMENSION blocks_per_row;
    JDIMENSION max_access;            /* the most rows one access may ask for */
    JDIMENSION first_undefined_row;   /* rows from here on were never written */
    boolean pre_zero;                 /* rows touched before being written read as zeros */
    struct jvirt_barray_control *next;
};

/* ---- the thread's block ---- */

static pthread_key_t thread_block_key;
static pthread_once_t thread_block_once = PTHREAD_ONCE_INIT;
static int thread_block_ready;

static size_t page_size(void) {
    long size = sysconf(_SC_PAGESIZE);
    return size > 0 ? (size_t)size : 4096;
}

static void block_free(struct coefficient_block *block) {
    if (!block) return;
    if (block->base) munmap(block->base, block->capacity);
    free(block);
}

static void thread_block_destructor(void *block) { block_free(block); }

static void thread_block_key_create(void) {
    thread_block_ready = pthread_key_create(&thread_block_key, thread_block_destructor) == 0;
}

/* The thread's block, now the caller's (a second reader open on the thread starts without). */
static struct coefficient_block *thread_block_take(void) {
    pthread_once(&thread_block_once, thread_block_key_create);
    if (!thread_block_ready) return NULL;
    struct coefficient_block *block = pthread_getspecific(thread_block_key);
    if (block) pthread_setspecific(thread_block_key, NULL);
    return block;
}

/* The thread keeps the larger of this block and one it holds. */
static void thread_block_give(struct coefficient_block *block) {
    pthread_once(&thread_block_once, thread_block_key_create);
    if (!thread_block_ready) {
        block_free(block);
        return;
    }
    struct coefficient_block *held = pthread_getspecific(thread_block_key);
    if (held && held->capacity >= block->capacity) {
        block_free(block);
    } else if (pthread_setspecific(thread_block_key, block) == 0) {
        block_free(held);
    } else {
        block_free(block);
    }
}

/* ---- libjpeg's methods ---- */

static size_t round_up(size_t size, size_t alignment) { return (size + alignment - 1) / alignment * alignment; }

static jvirt_barray_ptr request_virt_barray(j_common_ptr cinfo, int pool_id, boolean pre_zero,
                                            JDIMENSION blocks_per_row, JDIMENSION rows, JDIMENSION max_access) {
    struct coefficient_arrays *arrays = coefficient_arrays_of(cinfo);
    if (pool_id != JPOOL_IMAGE) ERREXIT1(cinfo, JERR_BAD_POOL_ID, pool_id);
    struct jvirt_barray_control *array = (*cinfo->mem->alloc_small)(cinfo, JPOOL_IMAGE, sizeof *array);
    *array = (struct jvirt_barray_control){
        .rows_in_array = rows, .blocks_per_row = blocks_per_row, .max_access = max_access,
        .pre_zero = pre_zero, .next = arrays->list,
    };
    arrays->list = array;
    return array;
}

/* Lays the unrealized arrays out in the block: their row pointers, then their rows. */
static void realize_virt_arrays(j_common_ptr cinfo) {
    struct coefficient_arrays *arrays = coefficient_arrays_of(cinfo);
    arrays->libjpeg_realize(cinfo);
    size_t pointer_bytes = 0, coefficient_bytes = 0;
    for (struct jvirt_barray_control *a = arrays->list; a; a = a->next) {
        if (a->rows) continue;
        size_t row_bytes = (size_t)a->blocks_per_row * sizeof(JBLOCK);
        if (a->rows_in_array != 0 && row_bytes > (SIZE_MAX / 2 - coefficient_bytes) / a->rows_in_array)
            ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 11);
        coefficient_bytes += row_bytes * a->rows_in_array;
        pointer_bytes += (size_t)a->rows_in_array * sizeof(JBLOCKROW);
    }
    if (pointer_bytes == 0) return;
    if (cinfo->mem->max_memory_to_use > 0 && coefficient_bytes > (size_t)cinfo->mem->max_memory_to_use)
        ERREXIT(cinfo, JERR_NO_BACKING_STORE);

    size_t bytes = round_up(pointer_bytes, 64) + coefficient_bytes;
    char *base;
    if (arrays->block_in_use) {
        /* Arrays realized after others of the same image (libjpeg's decoder never asks): libjpeg's
         * own memory, freed with the image. */
        base = (*cinfo->mem->alloc_large)(cinfo, JPOOL_IMAGE, bytes);
    } else {
        if (!arrays->block) arrays->block = thread_block_take();
        if (!arrays->block && !(arrays->block = calloc(1, sizeof *arrays->block)))
            ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 12);
        struct coefficient_block *block = arrays->block;
        if (block->capacity < bytes) {
            size_t capacity = round_up(bytes, page_size());
            void *grown = block->base ? mremap(block->base, block->capacity, capacity, MREMAP_MAYMOVE)
                                      : mmap(NULL, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (grown == MAP_FAILED) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 12);
            block->base = grown;
            block->capacity = capacity;
        }
        base = block->base;
        arrays->block_in_use = 1;
    }

    JBLOCKROW *pointers = (JBLOCKROW *)base;
    char *rows = base + round_up(pointer_bytes, 64);
    for (struct jvirt_barray_control *a = arrays->list; a; a = a->next) {
        if (a->rows) continue;
        size_t row_bytes = (size_t)a->blocks_per_row * sizeof(JBLOCK);
        a->rows = pointers;
        for (JDIMENSION row = 0; row < a->rows_in_array; row++, rows += row_bytes) pointers[row] = (JBLOCKROW)rows;
        pointers += a->rows_in_array;
        a->first_undefined_row = 0;
    }
}

static JBLOCKARRAY access_virt_barray(j_common_ptr cinfo, jvirt_barray_ptr array, JDIMENSION start_row,
                                      JDIMENSION rows, boolean writable) {
    if (!array->rows || start_row > array->rows_in_array || rows > array->rows_in_array - start_row ||
        rows > array->max_access)
        ERREXIT(cinfo, JERR_BAD_VIRTUAL_ACCESS);
    JDIMENSION end_row = start_row + rows;
    if (array->first_undefined_row < end_row) {
        JDIMENSION undefined_row = array->first_undefined_row;
        if (undefined_row < start_row) {
            /* A writer skipped rows; a reader may read ahead. */
            if (writable) ERREXIT(cinfo, JERR_BAD_VIRTUAL_ACCESS);
            undefined_row = start_row;
        }
        if (writable) array->first_undefined_row = end_row;
        if (array->pre_zero) {
            /* The rows are contiguous in the block. */
            memset(array->rows[undefined_row], 0, (size_t)(end_row - undefined_row) * array->blocks_per_row * sizeof(JBLOCK));
        } else if (!writable) {
            ERREXIT(cinfo, JERR_BAD_VIRTUAL_ACCESS);
        }
    }
    return array->rows + start_row;
}

/* Freeing the image pool frees the arrays' control blocks: the next image starts a new list. */
static void free_pool(j_common_ptr cinfo, int pool_id) {
    struct coefficient_arrays *arrays = coefficient_arrays_of(cinfo);
    if (pool_id == JPOOL_IMAGE) {
        arrays->list = NULL;
        arrays->block_in_use = 0;
    }
    arrays->libjpeg_free_pool(cinfo, pool_id);
}

void coefficient_arrays_install(j_common_ptr cinfo, struct coefficient_arrays *arrays) {
    long budget = cinfo->mem->max_memory_to_use;
    arrays->kept_at_most = budget > 0 ? (size_t)budget / 4 : SIZE_MAX;
    arrays->libjpeg_realize = cinfo->mem->realize_virt_arrays;
    arrays->libjpeg_free_pool = cinfo->mem->free_pool;
    cinfo->mem->request_virt_barray = request_virt_barray;
    cinfo->mem->realize_virt_arrays = realize_virt_arrays;
    cinfo->mem->access_virt_barray = access_virt_barray;
    cinfo->mem->free_pool = free_pool;
}

void coefficient_arrays_end(struct coefficient_arrays *arrays) {
    if (arrays->block && arrays->block->capacity <= arrays->kept_at_most) thread_block_give(arrays->block);
    else block_free(arrays->block);
    arrays->block = NULL;
    arrays->list = NULL;
    arrays->block_in_use = 0;
}
