/* libFuzzer's driver, called from thumbgen-fuzz's main when built with -sanitize=fuzzer. Only
 * declared here: the symbol comes from libclang_rt.fuzzer, linked by `make fuzz` alone. */
#ifndef FUZZ_DRIVER_H
#define FUZZ_DRIVER_H
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
#endif
