/* libheif, as Debian's libheif-dev installs it (pkg-config libheif), with the HEVC decoder it was
 * built with (libde265); AV1 is decoded by CLibHEIF's own dav1d plugin (CDAV1DSystem). */
#include <libheif/heif.h>
