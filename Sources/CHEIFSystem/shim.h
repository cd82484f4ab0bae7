/* libheif, as Debian's libheif-dev installs it (pkg-config libheif), with the HEVC (libde265) and
 * AV1 (dav1d, libaom) decoders it was built with. */
#include <libheif/heif.h>
