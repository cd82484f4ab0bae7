/* libtiff, as Debian's libtiff-dev installs it (pkg-config libtiff-4). */
#include <tiffio.h>
