/* jpeglib.h needs size_t and FILE declared before it. */
#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>
#include <jerror.h>
