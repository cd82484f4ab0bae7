/*
 * lzw.c: TIFF's LZW, a strip at a time (see tg_tiff_lzw_decode_strip in include/clibtiff.h).
 */
#include "clibtiff.h"

#include <string.h>

enum { LZW_CLEAR = 256, LZW_END = 257, LZW_FIRST_FREE = 258, LZW_TABLE = 4096, LZW_MIN_WIDTH = 9, LZW_MAX_WIDTH = 12 };

/* `count` bytes from `from`, which ends at or before `to` (so what is read is never what was
 * just written), to `to`, cut to `room`. Eight bytes at a time where there is room for the last
 * eight: the bytes past `count` are written over by the next string. */
static inline void copy_string(uint8_t *to, const uint8_t *from, uint32_t count, size_t room) {
    if (count + 7 <= room) {
        for (uint32_t i = 0; i < count; i += 8) {
            uint64_t word;
            memcpy(&word, from + i, 8);
            memcpy(to + i, &word, 8);
        }
    } else {
        size_t n = count < room ? count : room;
        for (size_t i = 0; i < n; i++) to[i] = from[i];
    }
}

/* The `width`-bit code at bit `bit` of `in` (most significant bit first), or UINT32_MAX when the
 * data ends first. */
static inline uint32_t read_code(const uint8_t *in, size_t in_size, size_t bit, int width) {
    size_t byte = bit >> 3;
    if (byte + 8 <= in_size) {
        uint64_t word;
        memcpy(&word, in + byte, 8);
        word = __builtin_bswap64(word);
        return (uint32_t)((word << (bit & 7)) >> (64 - width));
    }
    if (bit + (size_t)width > in_size * 8) return UINT32_MAX;
    uint32_t word = 0;
    for (int k = 0; k < 3; k++) word = word << 8 | (byte + (size_t)k < in_size ? in[byte + (size_t)k] : 0);
    return (word >> (24 - width - (int)(bit & 7))) & ((1u << width) - 1);
}

int tg_tiff_lzw_decode_strip(const uint8_t *in, size_t in_size, uint8_t *out, size_t out_size) {
    /* libtiff reads a strip opening with a 0 byte and an odd second byte with its decoder for
     * old-style codes (least significant bit first). */
    if (in_size >= 2 && in[0] == 0 && (in[1] & 1)) return 0;
    /* Every code's string and its length: the literals in `literals` (with room to read eight
     * bytes from any of them), the rest where they were first written in `out`. Clear and End
     * have length 0, which sends them down the rare path with the codes not yet defined. */
    uint8_t literals[256 + 8];
    const uint8_t *string[LZW_TABLE];
    uint16_t length[LZW_TABLE];
    for (int c = 0; c < 256; c++) {
        literals[c] = (uint8_t)c;
        string[c] = literals + c;
        length[c] = 1;
    }
    memset(literals + 256, 0, 8);
    length[LZW_CLEAR] = length[LZW_END] = 0;
    size_t bit = 0;
    int width = LZW_MIN_WIDTH;
    uint32_t next_code = LZW_FIRST_FREE;
    int cleared = 0;            /* a Clear was read: the stream may go on */
    int have_previous = 0;      /* a string was decoded since the last Clear */
    size_t previous_start = 0;  /* the previous code's string, where it was written */
    uint32_t previous_length = 0;
    size_t position = 0;
    while (position < out_size) {
        uint32_t code = read_code(in, in_size, bit, width);
        if (code == UINT32_MAX) return 0; /* the data ends before the strip is full */
        bit += (size_t)width;
        size_t here = position, room = out_size - position;
        uint32_t string_length;
        if (code < next_code && length[code] != 0) {
            if (!cleared) return 0;
            string_length = length[code];
            copy_string(out + here, string[code], string_length, room);
        } else if (code == LZW_CLEAR) {
            width = LZW_MIN_WIDTH;
            next_code = LZW_FIRST_FREE;
            cleared = 1;
            have_previous = 0;
            continue;
        } else if (code == next_code && have_previous) {
            /* The string being defined: the previous one, then that one's first byte. */
            string_length = previous_length + 1;
            copy_string(out + here, out + previous_start, previous_length, room);
            if (previous_length < room) out[here + previous_length] = out[previous_start];
        } else {
            return 0; /* End before the strip is full, or a code not yet defined */
        }
        if (have_previous) {
            if (next_code >= LZW_TABLE) return 0; /* an encoder that forgot to Clear */
            /* The previous string and this one's first byte, which follows it in `out`. */
            string[next_code] = out + previous_start;
            length[next_code] = (uint16_t)(previous_length + 1);
            next_code++;
            if (next_code >= (1u << width) - 1 && width < LZW_MAX_WIDTH) width++;
        }
        have_previous = 1;
        previous_start = here;
        previous_length = string_length;
        position = here + (string_length < room ? string_length : room);
    }
    return 1;
}
