/* Declarations only: see include/fuzz_driver.h. */
