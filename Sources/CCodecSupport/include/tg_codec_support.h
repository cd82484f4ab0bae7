/*
 * tg_codec_support: what the C codec modules (clibpng, clibjpeg, clibwebp, clibgif, clibtiff,
 * clibheif, cliblcms) share, so that each of them holds only its library's glue.
 *
 *  - One status for every call that can fail (tg_status), and one place its details go: the
 *    source the reader reads (tg_source_message, tg_source_limit), so the Swift side maps a
 *    failure to its error once for every format.
 *  - One byte source (tg_source): a file's descriptor, read in chunks or exactly where a library
 *    seeks, or bytes in memory that the caller lends for each call; it knows its size and
 *    position, holds reads to the byte cap, and notes when data ran out or the cap was reached.
 *  - One set of limits (tg_limits) and one check of an image's size against them. Limits are
 *    reported as data, not as text: which limit an input hit and the values involved, so the
 *    Swift side words the message once and the command line adds its own option names. The C
 *    modules never mention a command-line flag.
 */
#ifndef TG_CODEC_SUPPORT_H
#define TG_CODEC_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

/* What a call reports, whatever the format. */
typedef enum tg_status {
    TG_OK = 0,
    TG_ERR_UNREADABLE = 1,      /* the file could not be read; the message says why */
    TG_ERR_EMPTY = 2,           /* there are no bytes at all */
    TG_ERR_UNRECOGNISED = 3,    /* the bytes are not in this reader's format */
    TG_ERR_CORRUPT = 4,         /* the library rejected the data; the message holds its text */
    TG_ERR_LIMIT = 5,           /* the input exceeds a limit; tg_source_limit says which */
    TG_ERR_MEMORY = 6,          /* an allocation failed */
    TG_ERR_TRUNCATED = 7,       /* the data ends before the image does */
    TG_ERR_FAILED = 8,          /* anything else: a setting the library refused, a call out of order */
    TG_ERR_UNSUPPORTED = 9      /* valid data of a kind the library declines; the message says which */
} tg_status;

/* The size of every message buffer; longer text is cut. */
#define TG_MESSAGE_SIZE 256

/* Which limit an input exceeded. */
enum {
    TG_LIMIT_NONE = 0,
    TG_LIMIT_PIXELS = 1,        /* width * height above max_pixels; width, height, actual = pixels */
    TG_LIMIT_DIMENSION = 2,     /* a side above max_dimension; width, height, actual = longer side */
    TG_LIMIT_FILE_BYTES = 3,    /* more encoded bytes than max_file_bytes; actual = bytes seen so far */
    TG_LIMIT_SCANS = 4,         /* more progressive scans than a JPEG may have; actual = scans seen */
    TG_LIMIT_MEMORY = 5         /* more bytes to hold than max_memory; actual = bytes needed */
};

typedef struct {
    int kind;                   /* TG_LIMIT_* */
    uint32_t width;             /* the image's size, when known (0 otherwise) */
    uint32_t height;
    uint64_t actual;
    uint64_t allowed;
} tg_limit_hit;

/* The limits every reader is opened with; each uses those its library has a use for. */
typedef struct {
    uint64_t max_pixels;        /* width * height; 0 = no limit */
    uint32_t max_dimension;     /* largest width and height; 0 = no limit */
    uint64_t max_file_bytes;    /* bytes of encoded data read; 0 = no limit */
    uint64_t max_memory;        /* bytes the library may allocate (libjpeg, libtiff's largest single
                                 * allocation) or the encoded data may take in memory (libwebp); 0 = no limit */
    uint64_t max_chunk_bytes;   /* one ancillary chunk, or its inflated text or profile (libpng); 0 = no limit */
    uint32_t max_chunks;        /* ancillary chunks kept (libpng); 0 = no limit */
    uint64_t max_metadata_bytes; /* largest XMP or EXIF block handed up; a larger one is left out */
} tg_limits;

/* ---- the byte source ---- */

/* Where a reader's bytes come from: a descriptor or lent memory, with the report of the reader's
 * last failure. Opaque: readers go through the functions below. */
typedef struct tg_source tg_source;

/* A source over a regular file's descriptor, `size` bytes long when it was opened. The descriptor
 * stays the caller's (it is neither moved nor closed: reads go by offset, so several sources may
 * read one descriptor). NULL when memory runs out. */
tg_source *tg_source_new_descriptor(int fd, uint64_t size);

/* A source over `size` bytes in memory, which the caller lends with tg_source_lend for the length
 * of each call that reads (a Swift array may move between calls, so it is lent, not copied). */
tg_source *tg_source_new_memory(uint64_t size);

/* Points a memory source at its bytes, or at NULL while they are not lent. */
void tg_source_lend(tg_source *source, const uint8_t *data);

void tg_source_free(tg_source *source);

/* The size the source had when it was made (a file's, from fstat), and the offset of the next
 * byte it hands out. */
uint64_t tg_source_size(const tg_source *source);
uint64_t tg_source_position(const tg_source *source);

/* What the size alone says, before a reader is opened over the source: a source without a byte is
 * TG_ERR_EMPTY, one larger than limits->max_file_bytes is TG_ERR_LIMIT. From here on sequential
 * reads are held to that cap too (a file may grow while it is read). Every reader's open function
 * takes a source this accepted, and leaves the reader in *out whatever it returns: the caller
 * closes it either way. */
tg_status tg_source_begin(tg_source *source, const tg_limits *limits);

/* Up to `length` bytes at the start, into dst, without moving the position (for a signature).
 * Returns how many there were. */
size_t tg_source_head(tg_source *source, void *dst, size_t length);

/* Sequential reading, for libraries that ask for a few bytes at a time (libpng, giflib): the next
 * `length` bytes into dst, a descriptor being read ahead TG_SOURCE_CHUNK bytes at a time. A read
 * that would pass the cap reads nothing and sets over-limit; fewer bytes than asked (the data
 * ended, or a read failed) sets ran-out. Returns how many bytes were read. */
size_t tg_source_read(tg_source *source, void *dst, size_t length);

/* Sequential reading a chunk at a time, for libraries that take whatever comes (libjpeg's source
 * manager): the next TG_SOURCE_CHUNK bytes at most, in the source's own buffer (valid until the
 * next read), *data pointing at them. Returns 0 at the end of the data, or when a read failed or
 * passed the cap (see tg_source_status). */
size_t tg_source_read_chunk(tg_source *source, const uint8_t **data);

/* Random access, for libraries that seek (libtiff, libheif) or read one known extent (libwebp):
 * exactly the bytes asked for at the position, nothing ahead, within the source's size; fewer
 * than asked sets ran-out. The cap was checked against the size by tg_source_begin. */
size_t tg_source_read_direct(tg_source *source, void *dst, size_t length);
void tg_source_seek(tg_source *source, uint64_t position);

/* Where a source stands and what its reads have met (ran out, passed the cap, failed, the message
 * recorded): a reader that reads ahead on trial goes back to it as if the trial never happened. */
typedef struct {
    uint64_t position;
    int ran_out, over_limit, read_errno;
    tg_limit_hit limit;
    char message[TG_MESSAGE_SIZE];
} tg_source_mark;
void tg_source_mark_here(const tg_source *source, tg_source_mark *mark);
void tg_source_return(tg_source *source, const tg_source_mark *mark);

/* The lent bytes of a memory source (NULL for a descriptor, or while not lent), for a library
 * that decodes from memory. */
const uint8_t *tg_source_memory(const tg_source *source);

/* Bytes a sequential read takes from a descriptor at once: large enough that system calls cost
 * nothing next to decoding, small enough that what follows the image data is barely read. */
#define TG_SOURCE_CHUNK 65536

/* ---- failures ---- */

/* Why reads came up short, with its message recorded: the cap (TG_ERR_LIMIT), a failed read
 * (TG_ERR_UNREADABLE), the data running out (TG_ERR_TRUNCATED); TG_OK for none of these. Running
 * out of data is truncation whatever a library calls the failure it causes, so readers ask this
 * first when their library fails. */
tg_status tg_source_status(tg_source *source);

/* Records a failure's message in the source and returns `status`, for `return tg_fail(...)`. */
tg_status tg_fail(tg_source *source, tg_status status, const char *message);

/* The same for a library's own sentence as the middle of thumbgen's ("corrupt GIF: image is
 * defective"): its first letter lower-cased, unless it begins an acronym ("CTB outside of image
 * area" stays). For libraries that capitalise their messages (giflib, libtiff, libheif). */
tg_status tg_fail_lowercased(tg_source *source, tg_status status, const char *message);

/* Records a limit that was hit (and a message naming it) and returns TG_ERR_LIMIT. */
tg_status tg_fail_limit(tg_source *source, tg_limit_hit hit);

/* The message and limit of the last failure recorded (empty and TG_LIMIT_NONE if none). */
const char *tg_source_message(const tg_source *source);
tg_limit_hit tg_source_limit(const tg_source *source);

/* Checks an image's size against limits->max_pixels, then limits->max_dimension, before anything
 * image-sized is allocated: TG_OK, or TG_ERR_LIMIT with the hit recorded. */
tg_status tg_check_dimensions(tg_source *source, const tg_limits *limits, uint32_t width, uint32_t height);

/* ---- text and bytes ---- */

/* Copies a NUL-terminated message into dst (size bytes), truncating; NULL reads as "". */
void tg_copy_message(char *dst, size_t size, const char *src);

/* Bytes a C module hands to its caller (an encoded file, a profile): malloc'd, owned by the
 * caller once returned, released with tg_buffer_free. */
typedef struct {
    uint8_t *data;
    size_t size;
    size_t capacity;
} tg_buffer;

/* Appends length bytes, growing the storage by doubling. Returns 0, leaving the buffer as it was,
 * when the size would overflow or memory runs out. */
int tg_buffer_append(tg_buffer *buffer, const uint8_t *data, size_t length);

/* Frees the bytes and empties the buffer (NULL is ignored). */
void tg_buffer_free(tg_buffer *buffer);

/* Library versions are written into the caller's buffer (no static text that threads rewrite);
 * this size holds any of them. */
#define TG_VERSION_SIZE 96

#endif
