/*
 * A libm that is one ulp off: loaded with LD_PRELOAD, every transcendental function below returns
 * the real result moved one ulp up or down, at random (seeded by ULP_SHIM_SEED). A process whose
 * output does not change under it takes none of its pixels from the platform's libm.
 * Exact functions (sqrt, floor, round, fabs, nextafter) are left alone: IEEE 754 fixes them.
 * Built by PlatformMathTests with `cc -shared -fPIC`. ULP_SHIM_COUNT=FILE appends two numbers to
 * FILE at exit: the calls it moved, and how many of them the program itself made (its return
 * address in the main executable, not in a shared library such as lcms2 or libwebp).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t seed;
static uint64_t calls;
static uint64_t own_calls;
/* The main executable's loaded segments: [start, end) pairs. */
static uintptr_t own_start[16], own_end[16];
static int own_count;

static int find_main(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    (void)data;
    /* The first object listed is the main program. */
    for (int i = 0; i < info->dlpi_phnum && own_count < 16; i++) {
        if (info->dlpi_phdr[i].p_type != PT_LOAD) continue;
        own_start[own_count] = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
        own_end[own_count] = own_start[own_count] + info->dlpi_phdr[i].p_memsz;
        own_count++;
    }
    return 1;
}

static void note_caller(const void *address) {
    uintptr_t a = (uintptr_t)address;
    for (int i = 0; i < own_count; i++) {
        if (a >= own_start[i] && a < own_end[i]) {
            __atomic_add_fetch(&own_calls, 1, __ATOMIC_RELAXED);
            return;
        }
    }
}

__attribute__((constructor)) static void shim_start(void) {
    const char *text = getenv("ULP_SHIM_SEED");
    seed = text ? strtoull(text, NULL, 10) : 1;
    dl_iterate_phdr(find_main, NULL);
}

__attribute__((destructor)) static void shim_end(void) {
    const char *path = getenv("ULP_SHIM_COUNT");
    if (!path) return;
    FILE *file = fopen(path, "a");
    if (!file) return;
    fprintf(file, "%llu %llu\n", (unsigned long long)__atomic_load_n(&calls, __ATOMIC_RELAXED),
            (unsigned long long)__atomic_load_n(&own_calls, __ATOMIC_RELAXED));
    fclose(file);
}

/* splitmix64 of a per-call counter: thread-safe, and random enough to pick a direction. */
static int upward(void) {
    uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (__atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED));
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return (int)((z ^ (z >> 31)) & 1);
}

static double move(double v) { return isfinite(v) ? nextafter(v, upward() ? INFINITY : -INFINITY) : v; }
static float movef(float v) { return isfinite(v) ? nextafterf(v, upward() ? INFINITY : -INFINITY) : v; }

#define ONE(name)                                                                        \
    double name(double x) {                                                              \
        static double (*real)(double);                                                   \
        if (!real) real = (double (*)(double))dlsym(RTLD_NEXT, #name);                   \
        note_caller(__builtin_return_address(0));                                        \
        return move(real(x));                                                            \
    }                                                                                    \
    float name##f(float x) {                                                             \
        static float (*real)(float);                                                     \
        if (!real) real = (float (*)(float))dlsym(RTLD_NEXT, #name "f");                 \
        note_caller(__builtin_return_address(0));                                        \
        return movef(real(x));                                                           \
    }
#define TWO(name)                                                                        \
    double name(double x, double y) {                                                    \
        static double (*real)(double, double);                                           \
        if (!real) real = (double (*)(double, double))dlsym(RTLD_NEXT, #name);           \
        note_caller(__builtin_return_address(0));                                        \
        return move(real(x, y));                                                         \
    }                                                                                    \
    float name##f(float x, float y) {                                                    \
        static float (*real)(float, float);                                              \
        if (!real) real = (float (*)(float, float))dlsym(RTLD_NEXT, #name "f");          \
        note_caller(__builtin_return_address(0));                                        \
        return movef(real(x, y));                                                        \
    }

ONE(sin) ONE(cos) ONE(tan) ONE(asin) ONE(acos) ONE(atan)
ONE(sinh) ONE(cosh) ONE(tanh)
ONE(exp) ONE(exp2) ONE(expm1) ONE(log) ONE(log2) ONE(log10) ONE(log1p)
ONE(cbrt) ONE(erf) ONE(erfc) ONE(tgamma) ONE(lgamma)
TWO(pow) TWO(atan2) TWO(hypot)
