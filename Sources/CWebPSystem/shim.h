/* libwebp's decoder, encoder, container parser (demux) and muxer, as Debian's libwebp-dev
 * installs them. */
#include <webp/decode.h>
#include <webp/demux.h>
#include <webp/encode.h>
#include <webp/mux.h>
