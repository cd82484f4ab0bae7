/* dav1d, as Debian's libdav1d-dev installs it (pkg-config dav1d): the AV1 decoder CLibHEIF's
 * plugin runs for libheif (see Sources/CLibHEIF/heif_dav1d.h). */
#include <dav1d/dav1d.h>
