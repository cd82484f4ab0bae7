/*
 * cpu_features.h: what the CPU offers the kernels, probed once per process. Private to
 * CThumbKernels. Each answer is cached atomically (relaxed is enough: every thread computes the
 * same value), which keeps the probes free of data races when worker threads ask at once
 * (ThreadSanitizer). On CPUs other than x86 every answer is 0.
 */
#ifndef TK_CPU_FEATURES_H
#define TK_CPU_FEATURES_H

int tk_cpu_has_sse41(void);
int tk_cpu_has_avx2(void);
/* The SHA extensions, with the SSE4.1 and SSSE3 their sequence also uses. */
int tk_cpu_has_sha(void);

#endif
