#include "cpu_features.h"

#include <stdatomic.h>

#if defined(__x86_64__) || defined(__i386__)
static int ask_sse41(void) { return __builtin_cpu_supports("sse4.1"); }
static int ask_avx2(void) { return __builtin_cpu_supports("avx2"); }

static int ask_sha(void) {
    /* SHA extensions: CPUID leaf 7, EBX bit 29 (__builtin_cpu_supports does not name them). */
    unsigned int eax, ebx, ecx, edx;
    __asm__ volatile("cpuid" : "=a"(eax), "=b"(ebx), "=c"(ecx), "=d"(edx) : "a"(7), "c"(0));
    return ((ebx >> 29) & 1) && __builtin_cpu_supports("sse4.1") && __builtin_cpu_supports("ssse3");
}

/* `ask`'s answer, asked the first time only. */
static int cached(_Atomic int *answer, int (*ask)(void)) {
    int has = atomic_load_explicit(answer, memory_order_relaxed);
    if (has < 0) {
        __builtin_cpu_init();
        has = ask() ? 1 : 0;
        atomic_store_explicit(answer, has, memory_order_relaxed);
    }
    return has;
}

int tk_cpu_has_sse41(void) { static _Atomic int answer = -1; return cached(&answer, ask_sse41); }
int tk_cpu_has_avx2(void) { static _Atomic int answer = -1; return cached(&answer, ask_avx2); }
int tk_cpu_has_sha(void) { static _Atomic int answer = -1; return cached(&answer, ask_sha); }
#else
int tk_cpu_has_sse41(void) { return 0; }
int tk_cpu_has_avx2(void) { return 0; }
int tk_cpu_has_sha(void) { return 0; }
#endif
