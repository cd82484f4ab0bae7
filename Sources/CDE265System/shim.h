/* libde265, as Debian's libde265-dev installs it (pkg-config libde265): the HEVC decoder CLibHEIF's
 * plugin runs for libheif (see Sources/CLibHEIF/heif_plugins.h). */
#include <libde265/de265.h>
