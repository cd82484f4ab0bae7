/* libwebp's decoder and its container parser (demux), as Debian's libwebp-dev installs them. */
#include <webp/decode.h>
#include <webp/demux.h>
