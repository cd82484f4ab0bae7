/* giflib, as Debian's libgif-dev installs it (no pkg-config file). */
#include <gif_lib.h>
