# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The engine's compiled kernels: a text's shingle hashes, its MinHash band keys, its line hashes, its
normalised form, the spans the script conversion converts and the fold's screens, each in one pass over the string's code points,
bit-identical to the pure-Python definitions they replace (fingerprint/similarity.py shingle_runs,
fingerprint/minhash.py text_bands, reading/boilerplate.py folded_line_hashes and line_key_hashes,
reading/normalize.py normal_form, script_spans and the fold's searches; tests/core/test_kernels.py compares them). Every constant
comes from those modules.

One pass, no arrays of a text's size for the band keys: each word is hashed (MurmurHash3 x86_32 of its UTF-8, as
mmh3.hash) while it is read, each shingle's hash is folded into the running minimum of every permutation as it is
made (a minimum over all shingles equals the minimum over the unique ones), and the band keys are MurmurHash3
x64_128 of each band's rows (as mmh3.hash64). Built by setup.py with Cython; simdesk/core/compiled.py loads it.
"""

from cpython.bytearray cimport PyByteArray_FromStringAndSize
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.unicode cimport (
    Py_UNICODE_ISALNUM,
    Py_UNICODE_ISALPHA,
    Py_UNICODE_ISDECIMAL,
    Py_UNICODE_ISSPACE,
    PyUnicode_DATA,
    PyUnicode_KIND,
    PyUnicode_READ,
    PyUnicode_READ_CHAR,
)
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.math cimport NAN
from libc.stdlib cimport calloc, free, malloc, qsort, realloc
from libc.string cimport memcmp, memcpy

from array import array

cdef enum:
    MAX_WIDTH = 8  # the widest shingle, in units
    MAX_RANGES = 16  # code point ranges of the character units
    MAX_PERMS = 128


# ---- MurmurHash3 (Austin Appleby's public-domain reference), as the mmh3 package computes it ----

cdef inline uint32_t _rotl32(uint32_t x, int r) noexcept nogil:
    return (x << r) | (x >> (32 - r))


cdef inline uint64_t _rotl64(uint64_t x, int r) noexcept nogil:
    return (x << r) | (x >> (64 - r))


cdef inline uint32_t _fmix32(uint32_t h) noexcept nogil:
    h ^= h >> 16
    h *= 0x85EBCA6BU
    h ^= h >> 13
    h *= 0xC2B2AE35U
    h ^= h >> 16
    return h


cdef inline uint64_t _fmix64(uint64_t k) noexcept nogil:
    k ^= k >> 33
    k *= 0xFF51AFD7ED558CCDULL
    k ^= k >> 33
    k *= 0xC4CEB9FE1A85EC53ULL
    k ^= k >> 33
    return k


cdef struct Murmur32:  # x86_32 fed a byte at a time: a word or a line key hashed as it is read
    uint32_t h
    uint32_t tail
    int tail_bytes
    uint64_t length


cdef inline void _m32_start(Murmur32* m, uint32_t seed) noexcept nogil:
    m.h = seed
    m.tail = 0
    m.tail_bytes = 0
    m.length = 0


cdef inline uint32_t _m32_k(uint32_t k) noexcept nogil:
    k *= 0xCC9E2D51U
    k = _rotl32(k, 15)
    k *= 0x1B873593U
    return k


cdef inline void _m32_byte(Murmur32* m, uint32_t b) noexcept nogil:
    m.tail |= b << (8 * m.tail_bytes)
    m.tail_bytes += 1
    m.length += 1
    if m.tail_bytes == 4:
        m.h ^= _m32_k(m.tail)
        m.h = _rotl32(m.h, 13)
        m.h = m.h * 5 + 0xE6546B64U
        m.tail = 0
        m.tail_bytes = 0


cdef inline void _m32_char(Murmur32* m, uint32_t c) noexcept nogil:
    """The code point's UTF-8 bytes (a lone surrogate as its three bytes)."""
    if c < 0x80:
        _m32_byte(m, c)
    elif c < 0x800:
        _m32_byte(m, 0xC0 | (c >> 6))
        _m32_byte(m, 0x80 | (c & 0x3F))
    elif c < 0x10000:
        _m32_byte(m, 0xE0 | (c >> 12))
        _m32_byte(m, 0x80 | ((c >> 6) & 0x3F))
        _m32_byte(m, 0x80 | (c & 0x3F))
    else:
        _m32_byte(m, 0xF0 | (c >> 18))
        _m32_byte(m, 0x80 | ((c >> 12) & 0x3F))
        _m32_byte(m, 0x80 | ((c >> 6) & 0x3F))
        _m32_byte(m, 0x80 | (c & 0x3F))


cdef inline uint32_t _m32_end(Murmur32* m) noexcept nogil:
    cdef uint32_t h = m.h
    if m.tail_bytes:
        h ^= _m32_k(m.tail)
    h ^= <uint32_t>m.length
    return _fmix32(h)


cdef inline uint64_t _read64(const uint8_t* p) noexcept nogil:
    cdef uint64_t v = 0
    cdef int i
    for i in range(8):
        v |= (<uint64_t>p[i]) << (8 * i)
    return v


cdef uint64_t _murmur64(const uint8_t* data, int length, uint32_t seed) noexcept nogil:
    """The first 64 bits of MurmurHash3 x64_128 (mmh3.hash64(data, seed)[0], as an unsigned value)."""
    cdef uint64_t h1 = seed, h2 = seed, k1, k2
    cdef uint64_t c1 = 0x87C37B91114253D5ULL, c2 = 0x4CF5AD432745937FULL
    cdef int blocks = length // 16, i, rest
    for i in range(blocks):
        k1 = _read64(data + 16 * i)
        k2 = _read64(data + 16 * i + 8)
        k1 *= c1
        k1 = _rotl64(k1, 31)
        k1 *= c2
        h1 ^= k1
        h1 = _rotl64(h1, 27)
        h1 += h2
        h1 = h1 * 5 + 0x52DCE729U
        k2 *= c2
        k2 = _rotl64(k2, 33)
        k2 *= c1
        h2 ^= k2
        h2 = _rotl64(h2, 31)
        h2 += h1
        h2 = h2 * 5 + 0x38495AB5U
    cdef const uint8_t* tail = data + 16 * blocks
    rest = length & 15
    k1 = 0
    k2 = 0
    for i in range(rest - 1, 7, -1):
        k2 ^= (<uint64_t>tail[i]) << (8 * (i - 8))
    if rest > 8:
        k2 *= c2
        k2 = _rotl64(k2, 33)
        k2 *= c1
        h2 ^= k2
    for i in range(min(rest, 8) - 1, -1, -1):
        k1 ^= (<uint64_t>tail[i]) << (8 * i)
    if rest > 0:
        k1 *= c1
        k1 = _rotl64(k1, 31)
        k1 *= c2
        h1 ^= k1
    h1 ^= <uint64_t>length
    h2 ^= <uint64_t>length
    h1 += h2
    h2 += h1
    h1 = _fmix64(h1)
    h2 = _fmix64(h2)
    h1 += h2
    return h1


# ---- shingles ----

cdef struct Units:  # the last units of one kind read, and how many there were
    uint64_t last[MAX_WIDTH]
    int width
    uint64_t count


cdef struct Hashes:  # a growing array of shingle hashes
    uint32_t* data
    Py_ssize_t size
    Py_ssize_t capacity


cdef struct Sink:  # where shingle hashes go: an array per kind (runs), or the running minima (band keys)
    Hashes* arrays[2]
    uint64_t* minima
    const uint64_t* a
    const uint64_t* b
    int perms
    bint found
    bint failed
    uint64_t units[2]  # the units of each kind read


cdef inline uint32_t _shingle(const Units* u, int n, uint64_t step, uint64_t mix) noexcept nogil:
    """The hash of the last n units read (similarity._shingle_hashes)."""
    cdef int start = u.width - n, k
    cdef uint64_t h = u.last[start]
    for k in range(start + 1, u.width):
        h = (h * step) ^ u.last[k]
    return <uint32_t>((h * mix) >> 32)


cdef extern from *:
    """
    #include <stdint.h>
    /* A shingle's hash folded into the running minimum of each permutation, (x a + b) mod 2^64 >> 32: one vector
       operation for several permutations. GCC compiles it for AVX-512 and AVX2 besides the baseline and picks
       the processor's at load time (4.2x and 1.8x faster than the scalar loop on 48 permutations); the same
       integers whichever runs. */
    #if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11 && defined(__x86_64__) && defined(__linux__)
    __attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
    #endif
    static void simdesk_min_permuted(uint64_t x, uint64_t* __restrict minima, const uint64_t* __restrict a,
                                     const uint64_t* __restrict b, int perms) {
        for (int p = 0; p < perms; p++) {
            uint64_t v = (x * a[p] + b[p]) >> 32;
            minima[p] = v < minima[p] ? v : minima[p];
        }
    }
    """
    void simdesk_min_permuted(uint64_t x, uint64_t* minima, const uint64_t* a, const uint64_t* b,
                              int perms) noexcept nogil


cdef inline void _emit(Sink* sink, int kind, uint32_t value) noexcept nogil:
    cdef Hashes* out
    cdef Py_ssize_t capacity
    cdef uint32_t* grown
    sink.found = True
    if sink.minima != NULL:
        simdesk_min_permuted(value, sink.minima, sink.a, sink.b, sink.perms)
        return
    out = sink.arrays[kind]
    if out.size == out.capacity:
        capacity = out.capacity * 2 if out.capacity else 1024
        grown = <uint32_t*>realloc(out.data, capacity * sizeof(uint32_t))
        if grown == NULL:
            sink.failed = True
            return
        out.data = grown
        out.capacity = capacity
    out.data[out.size] = value
    out.size += 1


cdef struct CodeRanges:  # inclusive code point ranges
    uint32_t lo[MAX_RANGES]
    uint32_t hi[MAX_RANGES]
    int count


cdef int _set_ranges(CodeRanges* into, object ranges) except -1:
    ranges = list(ranges)
    if not 0 < len(ranges) <= MAX_RANGES:
        raise ValueError(f"1 to {MAX_RANGES} character ranges, not {len(ranges)}")
    for i, (lo, hi) in enumerate(ranges):
        into.lo[i] = lo
        into.hi[i] = hi
    into.count = len(ranges)
    return 0


cdef inline bint _in_ranges(const CodeRanges* ranges, Py_UCS4 c) noexcept nogil:
    cdef int i
    for i in range(ranges.count):
        if ranges.lo[i] <= c <= ranges.hi[i]:
            return True
    return False


cdef class Shingler:
    """A text's shingles as similarity.shingle_runs defines them: `char_ranges`, the inclusive code point ranges
    of the character units; `step` and `mix`, the shingle hash's constants; `word_seed` and `word_tag`, a word's
    code (mmh3.hash of its UTF-8 with that seed, or'ed with the tag); `char_width`, the character shingle's width."""

    cdef CodeRanges units
    cdef uint64_t step, mix, word_tag
    cdef uint32_t word_seed
    cdef int char_width

    def __init__(self, char_ranges, uint64_t step, uint64_t mix, uint32_t word_seed, uint64_t word_tag,
                 int char_width):
        _set_ranges(&self.units, char_ranges)
        if not 0 < char_width <= MAX_WIDTH:
            raise ValueError(f"a shingle is 1 to {MAX_WIDTH} units wide, not {char_width}")
        self.step = step
        self.mix = mix
        self.word_seed = word_seed
        self.word_tag = word_tag
        self.char_width = char_width

    cdef inline bint _is_char_unit(self, Py_UCS4 c) noexcept nogil:
        return _in_ranges(&self.units, c)

    cdef inline void _unit(self, Sink* sink, Units* u, int kind, uint64_t code) noexcept nogil:
        cdef int k
        if u.count >= <uint64_t>u.width:  # keep the last width units: shift the oldest out
            for k in range(1, u.width):
                u.last[k - 1] = u.last[k]
            u.last[u.width - 1] = code
        else:
            u.last[u.count] = code
        u.count += 1
        if u.count >= <uint64_t>u.width:
            _emit(sink, kind, _shingle(u, u.width, self.step, self.mix))

    cdef void _shingles(self, str norm, int word_width, Sink* sink):
        """Every shingle of the text, in text order a kind (characters: kind 0, words: kind 1), into the sink."""
        cdef Units units[2]
        cdef Murmur32 word
        cdef bint in_word = False
        cdef Py_ssize_t i, n = len(norm)
        cdef int kind = PyUnicode_KIND(norm), k, s
        cdef void* data = PyUnicode_DATA(norm)
        cdef Py_UCS4 c
        _m32_start(&word, self.word_seed)
        units[0].width = self.char_width
        units[0].count = 0
        units[1].width = word_width
        units[1].count = 0
        for i in range(n):
            c = PyUnicode_READ(kind, data, i)
            if self._is_char_unit(c):
                if in_word:
                    self._unit(sink, &units[1], 1, _m32_end(&word) | self.word_tag)
                    in_word = False
                self._unit(sink, &units[0], 0, c)
            elif Py_UNICODE_ISSPACE(c):
                if in_word:
                    self._unit(sink, &units[1], 1, _m32_end(&word) | self.word_tag)
                    in_word = False
            else:
                if not in_word:
                    _m32_start(&word, self.word_seed)
                    in_word = True
                _m32_char(&word, c)
        if in_word:
            self._unit(sink, &units[1], 1, _m32_end(&word) | self.word_tag)
        for s in range(2):  # fewer units than the width: each unit alone
            sink.units[s] = units[s].count
            if 0 < units[s].count < <uint64_t>units[s].width:
                for k in range(<int>units[s].count):
                    _emit(sink, s, <uint32_t>((units[s].last[k] * self.mix) >> 32))

    def runs(self, str norm, int word_width):
        """(character shingle hashes, character units, word shingle hashes, words): the hashes as native uint32
        in a bytearray, in text order (similarity.shingle_runs)."""
        if not 0 < word_width <= MAX_WIDTH:
            raise ValueError(f"a shingle is 1 to {MAX_WIDTH} units wide, not {word_width}")
        cdef Hashes chars, words
        cdef Sink sink
        chars.data = NULL
        chars.size = chars.capacity = 0
        words.data = NULL
        words.size = words.capacity = 0
        sink.arrays[0] = &chars
        sink.arrays[1] = &words
        sink.minima = NULL
        sink.found = False
        sink.failed = False
        try:
            self._shingles(norm, word_width, &sink)
            if sink.failed:
                raise MemoryError()
            return (
                PyByteArray_FromStringAndSize(<char*>chars.data, chars.size * sizeof(uint32_t)),
                sink.units[0],
                PyByteArray_FromStringAndSize(<char*>words.data, words.size * sizeof(uint32_t)),
                sink.units[1],
            )
        finally:
            free(chars.data)
            free(words.data)

    def band_keys(self, str norm, int word_width, const uint64_t[:] a, const uint64_t[:] b, int rows):
        """The low 32 bits of each band's key (minhash.band_keys of the signature over permutations a, b, `rows`
        to a band) as native uint32 in a bytearray; empty for a text without shingles (minhash.text_bands)."""
        cdef int perms = a.shape[0], p, band, r
        if not 0 < perms <= MAX_PERMS or b.shape[0] != perms or rows <= 0 or perms % rows:
            raise ValueError(f"{perms} permutations (up to {MAX_PERMS}) in bands of {rows}")
        if not 0 < word_width <= MAX_WIDTH:
            raise ValueError(f"a shingle is 1 to {MAX_WIDTH} units wide, not {word_width}")
        cdef uint64_t minima[MAX_PERMS]
        cdef uint64_t a_[MAX_PERMS]
        cdef uint64_t b_[MAX_PERMS]
        cdef uint8_t row_bytes[8 * MAX_PERMS]
        cdef uint32_t keys[MAX_PERMS]
        cdef Sink sink
        for p in range(perms):
            minima[p] = 0xFFFFFFFFU
            a_[p] = a[p]
            b_[p] = b[p]
        sink.arrays[0] = sink.arrays[1] = NULL
        sink.minima = minima
        sink.a = a_
        sink.b = b_
        sink.perms = perms
        sink.found = False
        sink.failed = False
        self._shingles(norm, word_width, &sink)
        if not sink.found:
            return bytearray()
        for band in range(perms // rows):
            for r in range(rows):
                for p in range(8):  # little-endian rows, as minhash.band_keys hashes them
                    row_bytes[8 * r + p] = (minima[band * rows + r] >> (8 * p)) & 0xFF
            keys[band] = <uint32_t>_murmur64(row_bytes, 8 * rows, band)
        return PyByteArray_FromStringAndSize(<char*>keys, (perms // rows) * sizeof(uint32_t))


# ---- line hashes ----

cdef inline bint _line_break(Py_UCS4 c) noexcept nogil:
    """The line breaks of str.splitlines (\\r\\n is \\r then an empty line's \\n: an empty key is dropped)."""
    return c == 10 or c == 11 or c == 12 or c == 13 or c == 0x1C or c == 0x1D or c == 0x1E or c == 0x85 \
        or c == 0x2028 or c == 0x2029


cdef inline bint _key_char(Py_UCS4 c) noexcept:
    """Whether a line's key keeps the character: a letter (a word character neither a digit nor '_')."""
    return Py_UNICODE_ISALNUM(c) and not Py_UNICODE_ISDECIMAL(c)


cdef inline uint32_t _key_hash(Murmur32* key, Py_ssize_t chars, int max_chars) noexcept nogil:
    """The hash of a line's key fed to `key`, of `chars` characters: its lowest bit set when it has more than
    `max_chars` characters, cleared otherwise."""
    cdef uint32_t h = _m32_end(key)
    return (h | 1) if chars > max_chars else (h & ~(<uint32_t>1))


cdef int _compare32(const void* x, const void* y) noexcept nogil:
    cdef uint32_t a = (<const uint32_t*>x)[0], b = (<const uint32_t*>y)[0]
    return (a > b) - (a < b)


def line_hashes(str text, uint32_t seed, int min_chars, int max_chars):
    """The sorted unique hashes of a text's line keys (boilerplate.folded_line_hashes of a text whose links are
    dropped): a line's key keeps its letters (word characters that are neither digits nor '_'); a key of
    `min_chars` or more is hashed (mmh3.hash of its UTF-8 with `seed`), its lowest bit set when it has more
    than `max_chars` characters and cleared otherwise. Native uint32 in a bytearray."""
    cdef Py_ssize_t i, n = len(text), found = 0, capacity = 64, unique, k
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef Py_UCS4 c
    cdef Murmur32 key
    cdef Py_ssize_t chars = 0
    cdef uint32_t h
    cdef uint32_t* hashes = <uint32_t*>malloc(capacity * sizeof(uint32_t))
    cdef uint32_t* grown
    if hashes == NULL:
        raise MemoryError()
    try:
        _m32_start(&key, seed)
        for i in range(n + 1):
            c = PyUnicode_READ(kind, data, i) if i < n else 10
            if _line_break(c):
                if chars >= min_chars:
                    h = _key_hash(&key, chars, max_chars)
                    if found == capacity:
                        capacity *= 2
                        grown = <uint32_t*>realloc(hashes, capacity * sizeof(uint32_t))
                        if grown == NULL:
                            raise MemoryError()
                        hashes = grown
                    hashes[found] = h
                    found += 1
                _m32_start(&key, seed)
                chars = 0
            elif _key_char(c):
                _m32_char(&key, c)
                chars += 1
        qsort(hashes, found, sizeof(uint32_t), _compare32)
        unique = 0
        for k in range(found):
            if unique == 0 or hashes[k] != hashes[unique - 1]:
                hashes[unique] = hashes[k]
                unique += 1
        return PyByteArray_FromStringAndSize(<char*>hashes, unique * sizeof(uint32_t))
    finally:
        free(hashes)


cdef struct LineKeys:  # the hash and the length of each line's key (line_keys), in text order
    uint32_t* hashes
    Py_ssize_t* lengths
    Py_ssize_t count, capacity


cdef int _line_keys(str text, uint32_t seed, int min_chars, int max_chars, LineKeys* out) except -1:
    """line_keys of a text into `out` (empty at the call; its arrays freed by the caller, also on an error)."""
    cdef Py_ssize_t i = 0, n = len(text), start = 0, chars = 0
    cdef void* data = PyUnicode_DATA(text)
    cdef int kind = PyUnicode_KIND(text)
    cdef Py_UCS4 c
    cdef Murmur32 key
    cdef uint32_t* grown_hashes
    cdef Py_ssize_t* grown_lengths
    _m32_start(&key, seed)
    while i < n or start < n:  # past the end once more for a last line that no break ends
        c = PyUnicode_READ(kind, data, i) if i < n else 10
        i += 1
        if _line_break(c):
            if c == 13 and i < n and PyUnicode_READ(kind, data, i) == 10:
                i += 1  # \r\n: one break
            if out.count == out.capacity:
                out.capacity = 64 if out.capacity == 0 else 2 * out.capacity
                grown_hashes = <uint32_t*>realloc(out.hashes, out.capacity * sizeof(uint32_t))
                if grown_hashes == NULL:
                    raise MemoryError()
                out.hashes = grown_hashes
                grown_lengths = <Py_ssize_t*>realloc(out.lengths, out.capacity * sizeof(Py_ssize_t))
                if grown_lengths == NULL:
                    raise MemoryError()
                out.lengths = grown_lengths
            out.hashes[out.count] = _key_hash(&key, chars, max_chars) if chars >= min_chars else 0
            out.lengths[out.count] = chars
            out.count += 1
            _m32_start(&key, seed)
            chars = 0
            start = i
        elif _key_char(c):
            _m32_char(&key, c)
            chars += 1
    return 0


cdef inline void _line_keys_empty(LineKeys* keys) noexcept:
    keys.hashes = NULL
    keys.lengths = NULL
    keys.count = 0
    keys.capacity = 0


def line_keys(str text, uint32_t seed, int min_chars, int max_chars):
    """The hash and the length of each line's key (boilerplate.line_key_hashes of a text whose links are dropped),
    one of each per line of str.splitlines(): a line's key keeps its letters (as line_hashes); a key of
    `min_chars` or more is hashed as line_hashes hashes it, a shorter one has hash 0. Two lists of ints."""
    cdef LineKeys keys
    cdef Py_ssize_t k
    _line_keys_empty(&keys)
    try:
        _line_keys(text, seed, min_chars, max_chars, &keys)
        return [keys.hashes[k] for k in range(keys.count)], [keys.lengths[k] for k in range(keys.count)]
    finally:
        free(keys.hashes)
        free(keys.lengths)


# ---- normalised text ----

cdef extern from "Python.h":
    object PyUnicode_FromKindAndData(int kind, const void* buffer, Py_ssize_t size)
    int PyUnicode_4BYTE_KIND


cdef class Normaliser:
    """A folded text's characters as normalize.normal_form leaves them, in one pass: each run of characters
    that are not letters or digits (punctuation, symbols, spaces, '_') becomes one space, except a run of spaces
    alone between two characters of `gap_ranges` (normalize.CJK: a line wrap inside Chinese), which goes."""

    cdef CodeRanges gap

    def __init__(self, gap_ranges):
        _set_ranges(&self.gap, gap_ranges)

    def normal(self, str text):
        """The text with its runs of other characters as single spaces and its line wraps inside Chinese gone
        (normalize.normal_form of the text, not stripped)."""
        cdef Py_ssize_t i = 0, j, n = len(text), m = 0
        cdef int kind = PyUnicode_KIND(text)
        cdef void* data = PyUnicode_DATA(text)
        cdef Py_UCS4 c
        cdef bint spaces
        cdef Py_UCS4* out
        if n == 0:
            return ""
        out = <Py_UCS4*>malloc(n * sizeof(Py_UCS4))
        if out == NULL:
            raise MemoryError()
        try:
            while i < n:
                c = PyUnicode_READ(kind, data, i)
                if Py_UNICODE_ISALNUM(c):
                    out[m] = c
                    m += 1
                    i += 1
                    continue
                j, spaces = i, True  # the run of other characters: text[i:j]
                while j < n:
                    c = PyUnicode_READ(kind, data, j)
                    if Py_UNICODE_ISALNUM(c):
                        break
                    spaces = spaces and Py_UNICODE_ISSPACE(c)
                    j += 1
                if not (spaces and i > 0 and j < n and _in_ranges(&self.gap, PyUnicode_READ(kind, data, i - 1))
                        and _in_ranges(&self.gap, PyUnicode_READ(kind, data, j))):
                    out[m] = 32
                    m += 1
                i = j
            return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, out, m)
        finally:
            free(out)


# ---- classes of characters: the fold's screens and the script conversion's spans ----

cdef class CharSet:
    """A class of characters: `codes` of the Basic Multilingual Plane, and every character beyond it when
    `beyond_plane`. `found` is a regex class's search (is any there?), `spans` the script conversion's spans
    (normalize.script_spans) of this class of triggers."""

    cdef uint8_t bits[8192]
    cdef bint beyond

    def __init__(self, codes, bint beyond_plane):
        cdef Py_ssize_t k
        cdef long code
        for k in range(8192):
            self.bits[k] = 0
        for value in codes:
            code = value
            if code < 0 or code >= 0x10000:
                raise ValueError(f"not a code point of the Basic Multilingual Plane: {code}")
            self.bits[code >> 3] |= 1 << (code & 7)
        self.beyond = beyond_plane

    cdef inline bint _has(self, Py_UCS4 ch) noexcept:
        cdef uint32_t c = <uint32_t>ch
        if c >= 0x10000:
            return self.beyond
        return (self.bits[c >> 3] >> (c & 7)) & 1

    cdef inline Py_ssize_t _next(self, int kind, void* data, Py_ssize_t i, Py_ssize_t n) noexcept:
        while i < n:
            if self._has(PyUnicode_READ(kind, data, i)):
                return i
            i += 1
        return -1

    def found(self, str text):
        """Whether `text` holds a character of the class."""
        return self._next(PyUnicode_KIND(text), PyUnicode_DATA(text), 0, len(text)) >= 0

    def spans(self, str text, Py_ssize_t join):
        """[start, end, start, end, ...] of the lines holding a character of the class, a span running on over
        the next lines while their next one is at most `join` characters past its end, in order (none: an
        empty list): the spans normalize.script_spans's regex loop finds."""
        cdef Py_ssize_t n = len(text), hit, k, start, end, done = 0
        cdef int kind = PyUnicode_KIND(text)
        cdef void* data = PyUnicode_DATA(text)
        out = []
        hit = self._next(kind, data, 0, n)
        while hit >= 0:
            k = hit - 1
            while k >= done and PyUnicode_READ(kind, data, k) != 10:
                k -= 1
            start = k + 1 if k >= done else done
            end = hit + 1
            while end < n and PyUnicode_READ(kind, data, end) != 10:
                end += 1
            hit = self._next(kind, data, end, n)
            while hit >= 0 and hit - end <= join:
                end = hit + 1
                while end < n and PyUnicode_READ(kind, data, end) != 10:
                    end += 1
                hit = self._next(kind, data, end, n)
            out.append(start)
            out.append(end)
            done = end
        return out


# ---- the lines of a text a headline reads (reading/headline.py line_screens) ----

cdef inline bint _bit(const uint8_t* bits, uint32_t c) noexcept nogil:
    return (bits[c >> 3] >> (c & 7)) & 1


cdef inline void _set_bit(uint8_t* bits, uint32_t c) noexcept nogil:
    bits[c >> 3] |= 1 << (c & 7)


cdef inline uint32_t _pair_slot(uint32_t a, uint32_t b) noexcept nogil:
    """A word's first two characters' place in a bit table of 4,096."""
    return ((a * 2654435761U) ^ (b * 40503U)) >> 20


cdef class LineScreen:
    """The lines of a text that hold one of `words` (each of one line) or, when `run` > 0, `run` characters in
    a row each a decimal digit of any script (a regular expression's \\d) or one of `run_chars`: the numbers
    (0-based, as str.splitlines counts lines) of the lines where a regular expression of those alternatives,
    searched line by line, finds one. One pass over the text that stops only at the characters that may matter
    (a bit table of the Basic Multilingual Plane: line breaks, the words' first characters, the run's), a word
    compared only where a bit table of the words' first two characters holds the two there."""

    cdef uint8_t marks[8192]  # the characters the pass looks at: stops and the words' first characters
    cdef uint8_t stops[8192]  # the characters the pass stops at: line breaks, the run's, words of one character
    cdef uint8_t first[8192]  # the words' first characters
    cdef uint8_t runs[8192]  # the run's characters
    cdef uint8_t singles[8192]  # the words of one character (of the plane)
    cdef uint8_t pairs[512]  # the words' first two characters (_pair_slot)
    cdef bint first_beyond  # a word starts beyond the Basic Multilingual Plane
    cdef Py_UCS4* chars  # the words' characters, one after another
    cdef Py_ssize_t* ends  # where each word ends in `chars`
    cdef Py_ssize_t count
    cdef int run

    def __cinit__(self):
        self.chars = NULL
        self.ends = NULL

    def __init__(self, words, str run_chars, int run):
        cdef Py_ssize_t k, at = 0, total = 0
        cdef uint32_t c
        words = [str(w) for w in words]
        for w in words:
            if not w or w.splitlines() != [w]:
                raise ValueError(f"not a word of one line: {w!r}")
            total += len(w)
        self.chars = <Py_UCS4*>malloc(max(total, 1) * sizeof(Py_UCS4))
        self.ends = <Py_ssize_t*>malloc(max(len(words), 1) * sizeof(Py_ssize_t))
        if self.chars == NULL or self.ends == NULL:
            raise MemoryError()
        for k in range(8192):
            self.marks[k] = self.stops[k] = self.first[k] = self.runs[k] = self.singles[k] = 0
        for k in range(512):
            self.pairs[k] = 0
        for c in (10, 11, 12, 13, 0x1C, 0x1D, 0x1E, 0x85, 0x2028, 0x2029):  # _line_break's
            _set_bit(self.stops, c)
        self.first_beyond = False
        for k, w in enumerate(words):
            for ch in w:
                self.chars[at] = ord(ch)
                at += 1
            self.ends[k] = at
            c = ord(w[0])
            if c >= 0x10000:
                self.first_beyond = True
            else:
                _set_bit(self.first, c)
            if len(w) > 1:
                _set_bit(self.pairs, _pair_slot(c, ord(w[1])))
            elif c >= 0x10000:
                raise ValueError(f"a word of one character beyond the Basic Multilingual Plane: {w!r}")
            else:
                _set_bit(self.singles, c)
                _set_bit(self.stops, c)
        self.count = len(words)
        self.run = run
        if run > 0:
            for ch in run_chars:
                c = ord(ch)
                if c >= 0x10000:
                    raise ValueError(f"not a character of the Basic Multilingual Plane: {ch!r}")
                _set_bit(self.runs, c)
            for c in range(0x10000):
                if Py_UNICODE_ISDECIMAL(c):
                    _set_bit(self.runs, c)
            for k in range(8192):
                self.stops[k] |= self.runs[k]
        for k in range(8192):
            self.marks[k] = self.stops[k] | self.first[k]

    def __dealloc__(self):
        free(self.chars)
        free(self.ends)

    cdef inline bint _stops_at(self, uint32_t c, uint32_t after) noexcept nogil:
        """Whether the pass stops at a character of the plane marked (`after`: the next character, 0 at the end)."""
        return _bit(self.stops, c) or (_bit(self.first, c) and _bit(self.pairs, _pair_slot(c, after)))

    cdef inline Py_ssize_t _next_mark(self, int kind, const void* data, Py_ssize_t i, Py_ssize_t n) noexcept nogil:
        """The first position from `i` the pass stops at (`n`: none): a stop, a word's first two characters or a
        character beyond the plane."""
        cdef const uint8_t* p1
        cdef const uint16_t* p2
        cdef const uint32_t* p4
        if kind == 1:
            p1 = <const uint8_t*>data
            while i < n and not (_bit(self.marks, p1[i]) and self._stops_at(p1[i], p1[i + 1] if i + 1 < n else 0)):
                i += 1
        elif kind == 2:
            p2 = <const uint16_t*>data
            while i < n and not (_bit(self.marks, p2[i]) and self._stops_at(p2[i], p2[i + 1] if i + 1 < n else 0)):
                i += 1
        else:
            p4 = <const uint32_t*>data
            while i < n and p4[i] < 0x10000 and not (
                _bit(self.marks, p4[i]) and self._stops_at(p4[i], p4[i + 1] if i + 1 < n else 0)
            ):
                i += 1
        return i

    cdef inline bint _word_at(self, int kind, void* data, Py_ssize_t i, Py_ssize_t n) noexcept:
        cdef Py_ssize_t k, j, start = 0, end
        for k in range(self.count):
            end = self.ends[k]
            if end - start <= n - i:
                j = 0
                while start + j < end and PyUnicode_READ(kind, data, i + j) == self.chars[start + j]:
                    j += 1
                if start + j == end:
                    return True
            start = end
        return False

    def rows(self, str text, Py_ssize_t head=0, Py_ssize_t tail=0):
        """The numbers of the lines holding a word or a run, in order: of the lines before `head` and from `tail`
        on (0 and 0: every line)."""
        cdef Py_ssize_t i = 0, n = len(text), line = 0, ran = 0, last = -2
        cdef int kind = PyUnicode_KIND(text)
        cdef void* data = PyUnicode_DATA(text)
        cdef uint32_t c
        cdef bint done = head <= 0 < tail, wide
        out = []
        while True:
            i = self._next_mark(kind, data, i, n)
            if i >= n:
                return out
            c = PyUnicode_READ(kind, data, i)
            if _line_break(c):
                if c == 13 and i + 1 < n and PyUnicode_READ(kind, data, i + 1) == 10:
                    i += 1
                line += 1
                done = head <= line < tail  # a line not asked for
            elif not done:
                wide = c >= 0x10000
                if (self.first_beyond if wide else _bit(self.first, c)) and (
                    (not wide and _bit(self.singles, c))
                    or (i + 1 < n and _bit(self.pairs, _pair_slot(c, PyUnicode_READ(kind, data, i + 1)))
                        and self._word_at(kind, data, i, n))
                ):
                    done = True
                elif self.run > 0 and (Py_UNICODE_ISDECIMAL(c) if wide else _bit(self.runs, c)):
                    ran = ran + 1 if last == i - 1 else 1
                    last = i
                    done = ran >= self.run
                if done:
                    out.append(line)
            i += 1


# ---- vocabulary: a document's token tallies, its TF x IDF weights and their SimHash bit rows ----
# (fingerprint/vocabulary.py; the votes themselves stay numpy's `weights @ rows - weights.sum() / 2`, the
# reference's arithmetic on the same arrays)

from cpython.dict cimport PyDict_GetItemWithError
from cpython.long cimport PyLong_AsSsize_t
from cpython.object cimport PyObject


cdef struct PieceCounts:  # a piece's distinct tokens in first-occurrence order, found through an open-addressed table
    Py_ssize_t* slots  # an index into the entries, or -1
    Py_ssize_t mask
    Py_hash_t* hashes
    PyObject** tokens  # borrowed from the piece's list
    int64_t* counts
    Py_ssize_t size


cdef int _count_piece(list tokens, PieceCounts* piece) except -1:
    """Count the piece's tokens in a table of its own: small enough to stay in the processor's cache, so that
    only its distinct tokens are then looked up in the vocabulary's large dictionary."""
    cdef Py_ssize_t k, slot, e, n = len(tokens)
    cdef Py_hash_t h
    cdef object token
    for k in range(n):
        token = tokens[k]
        h = hash(token)
        slot = h & piece.mask
        while True:
            e = piece.slots[slot]
            if e < 0:
                e = piece.size
                piece.slots[slot] = e
                piece.hashes[e] = h
                piece.tokens[e] = <PyObject*>token
                piece.counts[e] = 1
                piece.size += 1
                break
            if piece.hashes[e] == h and (piece.tokens[e] == <PyObject*>token or <object>piece.tokens[e] == token):
                piece.counts[e] += 1
                break
            slot = (slot + 1) & piece.mask
    return 0


def tally_tokens(list tokens, dict ids, list new, uint32_t[::1] seen, int64_t[::1] counts, int64_t[::1] order,
                 Py_ssize_t found, uint32_t document):
    """Count `tokens` (a piece of a document's, in text order) into the document's tallies: `ids` maps each token
    met so far to its id, and a token not in it gets the next id and is appended to `new`; `seen[id]` is the
    document that last counted the id, `counts[id]` its count there; a document's first occurrence of an id
    appends it to `order` after the `found` already there. Every array holds at least len(ids) + len(tokens)
    entries. Returns the number of ids in `order`."""
    cdef Py_ssize_t k, i, n = len(tokens), size = len(ids), capacity = seen.shape[0], slots = 8
    cdef PyObject* value
    cdef PieceCounts piece
    if counts.shape[0] < capacity or order.shape[0] < capacity or size + n > capacity or not 0 <= found <= size:
        raise ValueError(f"tallies of {capacity} entries for {size} + {n} tokens")
    while slots < 2 * n:
        slots *= 2
    piece.mask = slots - 1
    piece.size = 0
    piece.slots = <Py_ssize_t*>malloc(slots * sizeof(Py_ssize_t))
    piece.hashes = <Py_hash_t*>malloc(n * sizeof(Py_hash_t) + 1)
    piece.tokens = <PyObject**>malloc(n * sizeof(PyObject*) + 1)
    piece.counts = <int64_t*>malloc(n * sizeof(int64_t) + 1)
    try:
        if piece.slots == NULL or piece.hashes == NULL or piece.tokens == NULL or piece.counts == NULL:
            raise MemoryError()
        for k in range(slots):
            piece.slots[k] = -1
        _count_piece(tokens, &piece)
        for k in range(piece.size):
            token = <object>piece.tokens[k]
            value = PyDict_GetItemWithError(ids, token)
            if value == NULL:
                i = size
                ids[token] = i
                new.append(token)
                size += 1
            else:
                i = PyLong_AsSsize_t(<object>value)
                if not 0 <= i < size:
                    raise ValueError(f"token id {i} outside the vocabulary's {size}")
            if seen[i] != document:
                seen[i] = document
                counts[i] = piece.counts[k]
                order[found] = i
                found += 1
            else:
                counts[i] += piece.counts[k]
        return found
    finally:
        free(piece.slots)
        free(piece.hashes)
        free(piece.tokens)
        free(piece.counts)


cdef struct BlockSlot:  # a block kept: where its characters and its token ids are in the table's arenas
    uint64_t hash  # 0: an empty slot
    int64_t chars
    int64_t ids
    int32_t length
    int32_t count  # its token ids; -1: met, not yet encoded
    uint32_t call  # the tally call that last listed it as missing


cdef inline uint64_t _block_hash(int kind, void* data, Py_ssize_t start, Py_ssize_t end) noexcept:
    cdef uint64_t h = 0xCBF29CE484222325ULL
    cdef Py_ssize_t k
    for k in range(start, end):
        h = (h ^ <uint32_t>PyUnicode_READ(kind, data, k)) * 0x100000001B3ULL
    h = _fmix64(h ^ <uint64_t>(end - start))
    return h if h else 1


cdef void* _room(void* data, Py_ssize_t* capacity, Py_ssize_t needed, size_t item) except NULL:
    """`data` (`capacity[0]` items of `item` bytes) with room for `needed` items: itself, or grown (at least
    doubled, `capacity` updated)."""
    cdef Py_ssize_t grown_capacity
    cdef void* grown
    if needed <= capacity[0] and data != NULL:
        return data
    grown_capacity = max(2 * capacity[0], needed, 4096)
    grown = realloc(data, grown_capacity * item)
    if grown == NULL:
        raise MemoryError()
    capacity[0] = grown_capacity
    return grown


cdef class BlockTable:
    """The blocks of normalised text (runs between spaces) met by a thread, each with its token ids in text order,
    in an open-addressed table of their own with the characters and ids in two growing arrays: a block is found
    from the text itself, without a Python string made for it or a dictionary's objects visited
    (fingerprint/vocabulary.py Vocabulary.tally_text)."""

    cdef BlockSlot* slots
    cdef Py_ssize_t capacity, size
    cdef uint32_t* chars
    cdef Py_ssize_t chars_size, chars_capacity
    cdef int32_t* ids
    cdef Py_ssize_t ids_size, ids_capacity
    cdef Py_ssize_t* met  # the slots of a piece's blocks, in order
    cdef Py_ssize_t met_capacity
    cdef Py_ssize_t met_size  # the blocks of the last piece `tally` listed, when `recount` may count them; else -1
    cdef uint32_t calls

    def __cinit__(self):
        self.capacity = 1024
        self.met_size = -1
        self.slots = <BlockSlot*>calloc(self.capacity, sizeof(BlockSlot))
        if self.slots == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.slots)
        free(self.chars)
        free(self.ids)
        free(self.met)

    def __len__(self):
        return self.size

    @property
    def kept_chars(self):
        """The characters of the blocks kept."""
        return self.chars_size

    def clear(self):
        """Forget every block (the arrays keep their room)."""
        cdef Py_ssize_t k
        for k in range(self.capacity):
            self.slots[k].hash = 0
        self.size = self.chars_size = self.ids_size = 0
        self.met_size = -1

    cdef Py_ssize_t _slot(self, int kind, void* data, Py_ssize_t start, Py_ssize_t end, uint64_t h) noexcept:
        """The slot of the block text[start:end] (hash h), or the empty slot where it would go."""
        cdef Py_ssize_t slot = <Py_ssize_t>(h & <uint64_t>(self.capacity - 1)), k, n = end - start
        cdef BlockSlot* e
        cdef const uint32_t* kept
        while True:
            e = &self.slots[slot]
            if e.hash == 0:
                return slot
            if e.hash == h and e.length == n:
                kept = self.chars + e.chars
                k = 0
                while k < n and kept[k] == <uint32_t>PyUnicode_READ(kind, data, start + k):
                    k += 1
                if k == n:
                    return slot
            slot = (slot + 1) & (self.capacity - 1)

    cdef int _grow(self) except -1:
        """Twice the slots, every block placed again by its hash."""
        cdef Py_ssize_t k, slot, capacity = 2 * self.capacity
        cdef BlockSlot* grown = <BlockSlot*>calloc(capacity, sizeof(BlockSlot))
        if grown == NULL:
            raise MemoryError()
        for k in range(self.capacity):
            if self.slots[k].hash:
                slot = <Py_ssize_t>(self.slots[k].hash & <uint64_t>(capacity - 1))
                while grown[slot].hash:
                    slot = (slot + 1) & (capacity - 1)
                grown[slot] = self.slots[k]
        free(self.slots)
        self.slots = grown
        self.capacity = capacity
        return 0

    cdef int _reserve_chars(self, Py_ssize_t n) except -1:
        self.chars = <uint32_t*>_room(self.chars, &self.chars_capacity, self.chars_size + n, sizeof(uint32_t))
        return 0

    cdef int _reserve_ids(self, Py_ssize_t n) except -1:
        self.ids = <int32_t*>_room(self.ids, &self.ids_capacity, self.ids_size + n, sizeof(int32_t))
        return 0

    def tally(self, str piece, list missing, uint32_t[::1] seen, int64_t[::1] counts, int64_t[::1] order,
              Py_ssize_t found, uint32_t document):
        """Count the token ids of `piece`'s blocks (its runs between spaces, in text order) into the document's
        tallies: `seen[id]` is the document that last counted the id, `counts[id]` its count there; a document's
        first occurrence of an id appends it to `order` after the `found` already there. Returns the number of
        ids in `order`; or, when some blocks have no ids yet, appends them (each once, in order) to `missing`,
        counts nothing and returns -1 (`encode` them, then `recount` the piece, or tally it again)."""
        cdef int kind = PyUnicode_KIND(piece)
        cdef void* data = PyUnicode_DATA(piece)
        cdef Py_ssize_t n = len(piece), k = 0, start, slot, blocks = 0, j, capacity = seen.shape[0]
        cdef Py_ssize_t* grown
        cdef uint64_t h
        cdef BlockSlot* e
        cdef bint complete = True, moved = False
        if counts.shape[0] < capacity or order.shape[0] < capacity or not 0 <= found <= capacity:
            raise ValueError(f"tallies of {capacity} entries")
        self.met_size = -1
        self.calls += 1
        if self.calls == 0:  # wrapped: no slot may keep a call number as if it were this one's
            for j in range(self.capacity):
                self.slots[j].call = 0
            self.calls = 1
        while k < n:
            while k < n and <uint32_t>PyUnicode_READ(kind, data, k) == 32:
                k += 1
            if k == n:
                break
            start = k
            while k < n and <uint32_t>PyUnicode_READ(kind, data, k) != 32:
                k += 1
            h = _block_hash(kind, data, start, k)
            slot = self._slot(kind, data, start, k, h)
            e = &self.slots[slot]
            if e.hash == 0:
                if 2 * (self.size + 1) > self.capacity:
                    self._grow()
                    moved = True  # the slots listed so far are not theirs any more: no recount
                    slot = self._slot(kind, data, start, k, h)
                    e = &self.slots[slot]
                self._reserve_chars(k - start)
                e.hash = h
                e.chars = self.chars_size
                e.length = <int32_t>(k - start)
                e.count = -1
                e.ids = 0
                e.call = 0
                for j in range(start, k):
                    self.chars[self.chars_size] = <uint32_t>PyUnicode_READ(kind, data, j)
                    self.chars_size += 1
                self.size += 1
            if e.count < 0:
                complete = False
                if e.call != self.calls:
                    e.call = self.calls
                    missing.append(piece[start:k])
            if blocks == self.met_capacity:
                grown = <Py_ssize_t*>realloc(self.met, max(2 * blocks, 1024) * sizeof(Py_ssize_t))
                if grown == NULL:
                    raise MemoryError()
                self.met = grown
                self.met_capacity = max(2 * blocks, 1024)
            self.met[blocks] = slot
            blocks += 1
        if not complete:
            self.met_size = -1 if moved else blocks
            return -1
        return self._count_met(blocks, seen, counts, order, found, document)

    def recount(self, uint32_t[::1] seen, int64_t[::1] counts, int64_t[::1] order, Py_ssize_t found,
                uint32_t document):
        """`tally` of the piece the last `tally` call listed blocks of `missing`, once `encode` has kept their ids,
        from the blocks it found (no second pass over the piece): the number of ids in `order`; or -1 when it
        cannot (the table grew or was cleared since, or that call counted its piece: tally the piece again)."""
        cdef Py_ssize_t blocks = self.met_size, j
        self.met_size = -1
        if blocks < 0:
            return -1
        for j in range(blocks):
            if self.slots[self.met[j]].count < 0:  # a block still without its ids
                return -1
        return self._count_met(blocks, seen, counts, order, found, document)

    cdef Py_ssize_t _count_met(self, Py_ssize_t blocks, uint32_t[::1] seen, int64_t[::1] counts,
                               int64_t[::1] order, Py_ssize_t found, uint32_t document) except -2:
        """Count the token ids of the first `blocks` slots listed in `met` into the document's tallies (see tally)."""
        cdef Py_ssize_t j, k, capacity = seen.shape[0]
        cdef BlockSlot* e
        cdef const int32_t* block_ids
        cdef int64_t i
        if counts.shape[0] < capacity or order.shape[0] < capacity or not 0 <= found <= capacity:
            raise ValueError(f"tallies of {capacity} entries")
        for j in range(blocks):  # the table does not change while a piece is counted: the slots stay put
            e = &self.slots[self.met[j]]
            block_ids = self.ids + e.ids
            for k in range(e.count):
                i = block_ids[k]
                if not 0 <= i < capacity:
                    raise ValueError(f"token id {i} outside the tallies' {capacity}")
                if seen[i] != document:
                    if found >= capacity:
                        raise ValueError(f"more than {capacity} distinct ids")
                    seen[i] = document
                    counts[i] = 1
                    order[found] = i
                    found += 1
                else:
                    counts[i] += 1
        return found

    def encode(self, list blocks, list tokens, dict ids, list new):
        """Keep the token ids of `blocks` (those `tally` listed as missing). `tokens`: the blocks' tokens in order,
        a " " token between two blocks' and no other (Segmenter.block_tokens); `ids` maps each token met so far
        to its id, and a token not in it gets the next id and is appended to `new`."""
        cdef Py_ssize_t k, i, b = 0, n = len(tokens), size = len(ids), blocks_n = len(blocks), slot
        cdef PyObject* value
        cdef object token
        cdef str block
        cdef BlockSlot* e = NULL
        cdef int kind
        for k in range(n + 1):
            if e == NULL:
                if b >= blocks_n:
                    raise ValueError(f"tokens of more than {blocks_n} blocks")
                block = blocks[b]
                kind = PyUnicode_KIND(block)
                slot = self._slot(kind, PyUnicode_DATA(block), 0, len(block),
                                  _block_hash(kind, PyUnicode_DATA(block), 0, len(block)))
                e = &self.slots[slot]
                if e.hash == 0 or e.count >= 0:
                    raise ValueError(f"block {block!r} is not waiting for its ids")
                e.ids = self.ids_size
                e.count = 0
            if k == n or (len(<str>tokens[k]) == 1 and PyUnicode_READ_CHAR(tokens[k], 0) == 32):
                b += 1
                e = NULL
                continue
            token = tokens[k]
            value = PyDict_GetItemWithError(ids, token)
            if value == NULL:
                i = size
                if i > 0x7FFFFFFF:
                    raise ValueError(f"token id {i} beyond int32")
                ids[token] = i
                new.append(token)
                size += 1
            else:
                i = PyLong_AsSsize_t(<object>value)
            self._reserve_ids(1)
            self.ids[self.ids_size] = <int32_t>i
            self.ids_size += 1
            e.count += 1
        if b != blocks_n:
            raise ValueError(f"tokens of {b} blocks for {blocks_n}")


def weigh_tokens(const int64_t[::1] ids, const int64_t[::1] counts, const uint64_t[::1] hashes,
                 const double[::1] idf, const uint8_t[::1] flags, int mask, double[::1] weights,
                 double[:, ::1] rows):
    """The weights (count x IDF) and SimHash bit rows of the tokens `ids` (occurring `counts` times) whose flags
    share no bit with `mask`, in their order: row k holds bit b of the token's feature hash (`hashes`) at b, as
    0.0 or 1.0 (np.unpackbits of the little-endian hash, little bit order). Returns how many were kept."""
    cdef Py_ssize_t k, i, kept = 0, n = ids.shape[0], size = hashes.shape[0]
    cdef uint64_t h
    cdef int b
    cdef double* row
    if counts.shape[0] < n or weights.shape[0] < n or rows.shape[0] < n or rows.shape[1] != 64 \
            or idf.shape[0] < size or flags.shape[0] < size:
        raise ValueError(f"{n} tokens into {weights.shape[0]} weights and {rows.shape[0]} rows")
    for k in range(n):
        i = ids[k]
        if not 0 <= i < size:
            raise ValueError(f"token id {i} outside the vocabulary's {size}")
        if flags[i] & mask:
            continue
        weights[kept] = <double>counts[k] * idf[i]
        h = hashes[i]
        row = &rows[kept, 0]
        for b in range(64):
            row[b] = <double>((h >> b) & 1)
        kept += 1
    return kept


cdef extern from "Python.h":
    int PyFloat_Pack2(double x, char* p, int le) except -1
    int PyFloat_Pack4(double x, char* p, int le) except -1


def seal_votes(const double[::1] tallies, double tie_share):
    """(fingerprint, packed votes) of 64 SimHash tallies, as simhash.from_votes and simhash.pack_votes make them:
    bit i set where tally i exceeds `tie_share` of the largest magnitude (at least 1e-12); the largest magnitude
    as little-endian float32, then each tally over it as little-endian float16 (rounded to nearest, ties to
    even, as numpy's astype rounds)."""
    cdef Py_ssize_t i, n = tallies.shape[0]
    cdef double largest = 0.0, tie, scale, t
    cdef uint64_t fingerprint = 0
    cdef char packed[4 + 2 * 64]
    if n != 64:
        raise ValueError(f"64 tallies, not {n}")
    for i in range(n):
        t = tallies[i]
        if t < 0:
            t = -t
        if t > largest:
            largest = t
    tie = tie_share * (largest if largest > 1e-12 else 1e-12)
    for i in range(n):
        if tallies[i] > tie:
            fingerprint |= (<uint64_t>1) << i
    scale = largest if largest != 0.0 else 1.0
    PyFloat_Pack4(<float>scale, packed, 1)  # float32 first: a scale beyond its range packs as infinity, as in numpy
    for i in range(n):
        PyFloat_Pack2(tallies[i] / scale, packed + 4 + 2 * i, 1)
    return fingerprint, packed[: 4 + 2 * 64]


# ---- the pairs of fingerprints within a Hamming radius through one block (matching/pairs.py) ----

cdef struct PairBuffer:  # the pairs found: positions in the block's sorted order and their distances
    int64_t* a
    int64_t* b
    int8_t* d
    Py_ssize_t size
    Py_ssize_t capacity


cdef int _keep_pair(PairBuffer* out, int64_t a, int64_t b, int d) noexcept nogil:
    """Append a pair; -1 when memory runs out."""
    cdef Py_ssize_t capacity
    cdef void* grown
    if out.size == out.capacity:
        capacity = out.capacity * 2 if out.capacity else 4096
        grown = realloc(out.a, capacity * sizeof(int64_t))
        if grown == NULL:
            return -1
        out.a = <int64_t*>grown
        grown = realloc(out.b, capacity * sizeof(int64_t))
        if grown == NULL:
            return -1
        out.b = <int64_t*>grown
        grown = realloc(out.d, capacity * sizeof(int8_t))
        if grown == NULL:
            return -1
        out.d = <int8_t*>grown
        out.capacity = capacity
    out.a[out.size] = a
    out.b[out.size] = b
    out.d[out.size] = <int8_t>d
    out.size += 1
    return 0


cdef void _start_pairs(PairBuffer* out) noexcept nogil:
    out.a = NULL
    out.b = NULL
    out.d = NULL
    out.size = 0
    out.capacity = 0


cdef void _free_pairs(PairBuffer* out) noexcept nogil:
    free(out.a)
    free(out.b)
    free(out.d)


cdef tuple _found_pairs(PairBuffer* out, int failed, str kernel):
    """The pairs found as bytes (int64, int64, int8), or MemoryError when they did not fit."""
    if failed:
        raise MemoryError(f"{kernel}: out of memory for the pairs found")
    return (
        PyBytes_FromStringAndSize(<char*>out.a, out.size * sizeof(int64_t)),
        PyBytes_FromStringAndSize(<char*>out.b, out.size * sizeof(int64_t)),
        PyBytes_FromStringAndSize(<char*>out.d, out.size * sizeof(int8_t)),
    )


cdef inline int _check_pair(PairBuffer* out, const uint64_t* fps, int64_t p, int64_t q, int radius,
                            const int64_t* earlier, Py_ssize_t n_earlier) noexcept nogil:
    """Keep (p, q) when their fingerprints lie within `radius` and no earlier block (shift, width, budget
    triples) holds them within its budget; -1 when memory runs out."""
    cdef uint64_t x = fps[p] ^ fps[q]
    cdef int d = __builtin_popcountll(x)
    cdef Py_ssize_t e
    if d > radius:
        return 0
    for e in range(n_earlier):
        if __builtin_popcountll((x >> earlier[3 * e]) & ((<uint64_t>1 << earlier[3 * e + 1]) - 1)) \
                <= earlier[3 * e + 2]:
            return 0
    return _keep_pair(out, p, q, d)


cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil


cdef extern from *:
    """
    /* The positions k (ascending) of a run of fingerprints whose distance d to one lies in lo < d <= hi, with
       those distances: what near_pairs keeps of a row against a block of columns (a few in thousands). With
       AVX-512's popcount, when the processor has it, eight are compared at once and only the positions in
       range are looked at one by one; the same positions and distances either way. Debian's compiler targets
       x86-64 without the POPCNT instruction (its popcount is a library call): a copy compiled for it is chosen
       when the processor has it (processors have had it since 2008). */
    static inline __attribute__((always_inline)) Py_ssize_t simdesk_in_range_run(
            const uint64_t* fps, uint64_t x, Py_ssize_t n, int lo, int hi, int64_t* pos, uint8_t* dist) {
        Py_ssize_t m = 0;
        for (Py_ssize_t k = 0; k < n; k++) {
            int d = __builtin_popcountll(x ^ fps[k]);
            if (lo < d && d <= hi) { pos[m] = k; dist[m] = (uint8_t)d; m++; }
        }
        return m;
    }
    static Py_ssize_t simdesk_in_range_plain(const uint64_t* fps, uint64_t x, Py_ssize_t n, int lo, int hi,
                                             int64_t* pos, uint8_t* dist) {
        return simdesk_in_range_run(fps, x, n, lo, hi, pos, dist);
    }
    #if defined(__GNUC__) && defined(__x86_64__)
    #include <immintrin.h>
    __attribute__((target("popcnt")))
    static Py_ssize_t simdesk_in_range_popcnt(const uint64_t* fps, uint64_t x, Py_ssize_t n, int lo, int hi,
                                              int64_t* pos, uint8_t* dist) {
        return simdesk_in_range_run(fps, x, n, lo, hi, pos, dist);  /* compiled here with POPCNT */
    }
    __attribute__((target("popcnt,avx512f,avx512vpopcntdq")))
    static Py_ssize_t simdesk_in_range_avx512(const uint64_t* fps, uint64_t x, Py_ssize_t n, int lo, int hi,
                                              int64_t* pos, uint8_t* dist) {
        Py_ssize_t m = 0, k = 0;
        const __m512i vx = _mm512_set1_epi64((long long)x);
        const __m512i vlo = _mm512_set1_epi64(lo), vhi = _mm512_set1_epi64(hi);
        for (; k + 8 <= n; k += 8) {
            __m512i d = _mm512_popcnt_epi64(_mm512_xor_si512(_mm512_loadu_si512((const void*)(fps + k)), vx));
            unsigned int hit = (unsigned int)(_mm512_cmpgt_epi64_mask(d, vlo) & _mm512_cmple_epi64_mask(d, vhi));
            while (hit) {
                int b = __builtin_ctz(hit);
                pos[m] = k + b;
                dist[m] = (uint8_t)__builtin_popcountll(x ^ fps[k + b]);
                m++;
                hit &= hit - 1;
            }
        }
        Py_ssize_t rest = simdesk_in_range_popcnt(fps + k, x, n - k, lo, hi, pos + m, dist + m);
        for (Py_ssize_t t = m; t < m + rest; t++) pos[t] += k;
        return m + rest;
    }
    static Py_ssize_t simdesk_in_range(const uint64_t* fps, uint64_t x, Py_ssize_t n, int lo, int hi,
                                       int64_t* pos, uint8_t* dist) {
        static int kind = -1;
        if (kind < 0) {
            __builtin_cpu_init();
            kind = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vpopcntdq") ? 2
                 : __builtin_cpu_supports("popcnt") ? 1 : 0;
        }
        if (kind == 2) return simdesk_in_range_avx512(fps, x, n, lo, hi, pos, dist);
        if (kind == 1) return simdesk_in_range_popcnt(fps, x, n, lo, hi, pos, dist);
        return simdesk_in_range_plain(fps, x, n, lo, hi, pos, dist);
    }
    #else
    #define simdesk_in_range simdesk_in_range_plain
    #endif
    """
    Py_ssize_t simdesk_in_range(const uint64_t* fps, uint64_t x, Py_ssize_t n, int lo, int hi, int64_t* pos,
                                uint8_t* dist) nogil


def block_pairs(const int32_t[::1] sorted_values, const uint64_t[::1] sorted_fps, const int64_t[::1] starts,
                const int64_t[::1] counts, const int32_t[::1] masks, const int64_t[::1] mask_starts, int radius,
                const int64_t[::1] earlier):
    """(a, b, d) as bytes (int64, int64, int8): the pairs within `radius` that one block of the multi-index
    search finds, as pairs._pairs_through_block finds them (the same set, in another order): positions in the
    block's order (`sorted_values` its values ascending, `sorted_fps` the fingerprints in that order, `starts` and
    `counts` each bucket's first position and size), every pair of one bucket and every pair of buckets whose
    values differ by one of `masks` (the flip masks within the block's budget, the empty mask left out, ordered by
    their highest bit: those whose highest bit is h are masks[mask_starts[h]:mask_starts[h + 1]]), checked
    on all 64 bits, those an earlier block finds left out (`earlier`: shift, width, budget of each, flattened).
    The search runs without the GIL."""
    cdef Py_ssize_t n = sorted_values.shape[0], n_masks = masks.shape[0], n_earlier = earlier.shape[0] // 3
    cdef Py_ssize_t buckets = counts.shape[0], p = 0, end, k, h, tops = mask_starts.shape[0] - 1
    cdef int64_t q, r, s, u_start, u_end
    cdef int32_t v, u
    cdef int failed = 0
    cdef PairBuffer out
    cdef const int64_t* shifts = &earlier[0] if n_earlier else NULL
    if sorted_fps.shape[0] != n or starts.shape[0] != buckets or earlier.shape[0] % 3:
        raise ValueError("block_pairs: arrays of mismatched lengths")
    for k in range(n):
        if not 0 <= sorted_values[k] < buckets:
            raise ValueError(f"block value {sorted_values[k]} outside the {buckets} buckets")
    if tops < 0 or mask_starts[0] != 0 or mask_starts[tops] != n_masks:
        raise ValueError("block_pairs: mask_starts must run from 0 to the number of masks")
    for h in range(tops):
        if not mask_starts[h] <= mask_starts[h + 1] <= n_masks:
            raise ValueError("block_pairs: mask_starts must not decrease")
        for k in range(mask_starts[h], mask_starts[h + 1]):
            if masks[k] < (1 << h) or masks[k] >= (2 << h):
                raise ValueError(f"block_pairs: mask {masks[k]} listed under bit {h}, not its highest")
    _start_pairs(&out)
    # which buckets hold a document, a bit each: 2**21 buckets take 256 KB, which stays in the processor's cache
    cdef uint64_t* occupied = <uint64_t*>calloc(buckets // 64 + 1, sizeof(uint64_t))
    if occupied == NULL:
        raise MemoryError("block_pairs: out of memory for the bucket bitmap")
    for k in range(buckets):
        if counts[k]:
            occupied[k >> 6] |= (<uint64_t>1) << (k & 63)
    try:
        with nogil:
            while p < n and not failed:
                v = sorted_values[p]
                end = p + counts[v]
                for q in range(p, end):  # the same bucket
                    for r in range(q + 1, end):
                        if _check_pair(&out, &sorted_fps[0], q, r, radius, shifts, n_earlier) < 0:
                            failed = 1
                # each unordered pair of buckets once: from the value whose bit h, the mask's highest, is clear
                for h in range(tops):
                    if (v >> h) & 1:
                        continue
                    for k in range(mask_starts[h], mask_starts[h + 1]):
                        u = v ^ masks[k]
                        if u >= buckets or not (occupied[u >> 6] >> (u & 63)) & 1:
                            continue
                        u_start = starts[u]
                        u_end = u_start + counts[u]
                        for q in range(p, end):
                            for s in range(u_start, u_end):
                                if _check_pair(&out, &sorted_fps[0], q, s, radius, shifts, n_earlier) < 0:
                                    failed = 1
                p = end
        return _found_pairs(&out, failed, "block_pairs")
    finally:
        free(occupied)
        _free_pairs(&out)


def near_pairs(const uint64_t[::1] fps, const uint8_t[::1] radius, int nearer, Py_ssize_t block_rows,
               Py_ssize_t block_columns):
    """(a, b, d) as bytes (int64, int64, int8): each pair a < b of positions in `fps` whose distance d lies
    above `nearer` and within radius[a] (a < len(radius): the rows compared with every later one), in the
    order analysis.candidate_pairs' numpy blocks find them: blocks of `block_rows` rows, each against blocks
    of `block_columns` columns from its first row, row by row within a block. Runs without the GIL."""
    cdef Py_ssize_t n = fps.shape[0], m = radius.shape[0], r0, r1, c0, c1, a, b0, k, hits
    cdef int failed = 0
    cdef PairBuffer out
    cdef uint8_t* distances
    cdef int64_t* positions
    if m > n or block_rows <= 0 or block_columns <= 0:
        raise ValueError("near_pairs: more rows than fingerprints, or empty blocks")
    distances = <uint8_t*>malloc(block_columns)
    positions = <int64_t*>malloc(block_columns * sizeof(int64_t))
    if distances == NULL or positions == NULL:
        free(distances)
        free(positions)
        raise MemoryError("near_pairs: out of memory for a block's distances")
    _start_pairs(&out)
    try:
        with nogil:
            r0 = 0
            while r0 < m:  # (a range with a step Cython cannot see the sign of needs the GIL)
                r1 = r0 + block_rows if r0 + block_rows < m else m
                c0 = r0
                while c0 < n:
                    c1 = c0 + block_columns if c0 + block_columns < n else n
                    for a in range(r0, r1):
                        b0 = c0 if c0 > a else a + 1
                        if b0 >= c1:
                            continue
                        hits = simdesk_in_range(&fps[b0], fps[a], c1 - b0, nearer, radius[a], positions, distances)
                        for k in range(hits):
                            if _keep_pair(&out, a, b0 + positions[k], distances[k]) < 0:
                                failed = 1
                    c0 = c1
                r0 = r1
        return _found_pairs(&out, failed, "near_pairs")
    finally:
        free(distances)
        free(positions)
        _free_pairs(&out)


# ---- pair scoring: shared shingles, covered units, a text's units and where two texts' units differ ----
# (fingerprint/similarity.py common, _covered_share, _text_units and _fill_kind; every score stays Python's
# arithmetic on the counts these give)

cdef inline Py_ssize_t _lower_bound_ptr(const uint32_t* values, Py_ssize_t n, uint32_t v) noexcept nogil:
    """The first index whose value is v or more (n when none is)."""
    cdef Py_ssize_t lo = 0, hi = n, mid
    while lo < hi:
        mid = (lo + hi) >> 1
        if values[mid] < v:
            lo = mid + 1
        else:
            hi = mid
    return lo


cdef enum:
    MERGE_RATIO = 4  # _common32 merges two arrays up to this many times the other's size


cdef Py_ssize_t _common32(const uint32_t[::1] short, const uint32_t[::1] long) noexcept nogil:
    """How many of `short`'s values `long` holds, both sorted: a merge without branches when the two are
    within a factor of MERGE_RATIO in size, else each looked up from where the last was found, in steps that
    double (a binary search when one is far shorter)."""
    cdef Py_ssize_t ns = short.shape[0], nl = long.shape[0], i = 0, j = 0, lo, hi, step, n = 0
    cdef uint32_t v, w
    if nl <= MERGE_RATIO * ns:
        while i < ns and j < nl:
            v, w = short[i], long[j]
            n += v == w
            i += v <= w
            j += w <= v
        return n
    for i in range(ns):
        if j >= nl:
            break
        v = short[i]
        if long[j] < v:
            lo = j
            step = 1
            hi = j + 1
            while hi < nl and long[hi] < v:
                lo = hi
                step <<= 1
                hi = lo + step
            if hi > nl:
                hi = nl
            j = lo + 1 + _lower_bound_ptr(&long[lo + 1], hi - lo - 1, v)
        if j < nl and long[j] == v:
            n += 1
            j += 1
    return n


def common(const uint32_t[::1] a, const uint32_t[::1] b):
    """How many values two sorted arrays of unique uint32 values share (similarity.common)."""
    if a.shape[0] > b.shape[0]:
        return _common32(b, a)
    return _common32(a, b)


def shingle_score(const uint32_t[::1] a, const uint32_t[::1] b, bint whole, double length_gate,
                  double whole_containment, double whole_gate):
    """similarity.shingle_score of two sorted arrays of unique uint32 values: resemblance, or the larger of it
    and containment within the length gates, each a division of two exact counts (as Python divides them)."""
    return _shingle_score(a, b, whole, length_gate, whole_containment, whole_gate)


cdef double _shingle_score(const uint32_t[::1] a, const uint32_t[::1] b, bint whole, double length_gate,
                           double whole_containment, double whole_gate) noexcept:
    cdef Py_ssize_t na = a.shape[0], nb = b.shape[0], inter, small, large
    cdef double jaccard, containment
    if na == 0 or nb == 0:
        return 0.0
    inter = _common32(b, a) if na > nb else _common32(a, b)
    small, large = (na, nb) if na <= nb else (nb, na)
    jaccard = <double>inter / <double>(na + nb - inter)
    containment = <double>inter / <double>small
    if small >= length_gate * large or (whole and containment >= whole_containment and small >= whole_gate * large):
        return jaccard if jaccard >= containment else containment
    return jaccard


def settled_scores(list left, list right, double length_gate, double whole_containment, double whole_gate,
                   double below):
    """similarity.settled_scores: for pair k (left[k], right[k], similarity.Profile), its similarity when its
    shingle sets alone make it and it is under `below` (no shares measured), else NaN: two long texts' word
    4-grams, or the shingles of two texts neither of which holds a notice or many frequent lines and which are
    not both short (shingle_score's counts and arithmetic)."""
    cdef Py_ssize_t k, n = len(left)
    cdef double score
    out = array("d", bytes(8 * n))
    cdef double[::1] view = out
    if len(right) != n:
        raise ValueError("as many right profiles as left ones")
    for k in range(n):
        a, b = left[k], right[k]
        if a.long is not None and b.long is not None:
            score = _shingle_score(a.long, b.long, True, length_gate, whole_containment, whole_gate)
        elif (a.short and b.short) or a.rest is not None or b.rest is not None or a.own is not None or (
            b.own is not None
        ):
            score = NAN
        else:
            score = _shingle_score(a.shingles, b.shingles, True, length_gate, whole_containment, whole_gate)
        view[k] = score if score < below else NAN
    return out


cdef inline Py_ssize_t _cover(Py_ssize_t k, Py_ssize_t units, Py_ssize_t width, Py_ssize_t* reached) noexcept nogil:
    """How many units a run's shingle k, found, covers that its shingles found before it did not: units
    k..k+width-1, or unit k alone when the run has fewer units than `width` (similarity.Run.covered_by)."""
    cdef Py_ssize_t end
    if units < width:
        return 1
    end = k + width
    k = end - (k if k > reached[0] else reached[0])
    reached[0] = end
    return k


cdef struct Set32:  # sorted unique uint32 values as an open-addressed table (linear probing)
    uint64_t* slots  # 0: empty; else SET_TAG | the value
    uint64_t mask
    int shift


cdef enum:
    SET_TAG_BIT = 32


cdef inline uint64_t _set_at(const Set32* s, uint32_t v) noexcept nogil:
    return ((<uint64_t>v * 0x9E3779B97F4A7C15ULL) >> s.shift) & s.mask


cdef int _set_make(Set32* s, const uint32_t[::1] values) except -1:
    """The table of `values` (unique), twice as many slots as values or more."""
    cdef Py_ssize_t m = values.shape[0], k
    cdef uint64_t at, tag = (<uint64_t>1) << SET_TAG_BIT
    cdef int bits = 4
    while (<Py_ssize_t>1 << bits) < 2 * m:
        bits += 1
    s.mask = ((<uint64_t>1) << bits) - 1
    s.shift = 64 - bits
    s.slots = <uint64_t*>calloc(<size_t>1 << bits, sizeof(uint64_t))
    if s.slots == NULL:
        raise MemoryError()
    for k in range(m):
        at = _set_at(s, values[k])
        while s.slots[at]:
            at = (at + 1) & s.mask
        s.slots[at] = tag | values[k]
    return 0


cdef inline bint _set_has(const Set32* s, uint32_t v) noexcept nogil:
    cdef uint64_t at = _set_at(s, v), want = ((<uint64_t>1) << SET_TAG_BIT) | v
    while s.slots[at]:
        if s.slots[at] == want:
            return True
        at = (at + 1) & s.mask
    return False


cdef Py_ssize_t _covered(const uint32_t[:] hashes, Py_ssize_t units, Py_ssize_t width, const uint32_t[::1] other,
                         const Set32* table):
    """How many of a run's units lie in a shingle of the run found in `other` (sorted; similarity.Run.covered),
    looked up in `table` (other's values) when there is one, else by binary search."""
    cdef Py_ssize_t k, n = hashes.shape[0], m = other.shape[0], at, covered = 0, reached = 0
    cdef uint32_t h
    if units == 0 or m == 0:
        return 0
    for k in range(n):
        h = hashes[k]
        if table != NULL:
            if _set_has(table, h):
                covered += _cover(k, units, width, &reached)
            continue
        at = _lower_bound_ptr(&other[0], m, h)
        if at < m and other[at] == h:
            covered += _cover(k, units, width, &reached)
    return covered


def covered_units(tuple runs, const uint32_t[::1] other):
    """How many units of a text's runs (similarity.Run: hashes, units, width) lie in a shingle found in `other`
    (sorted unique uint32; similarity._covered_share). Looked up in a table of `other` made for the call when
    the runs have more than a few dozen shingles and `other` is not many times as large (a lookup a few
    nanoseconds, against ten steps of a binary search), else by binary search: the same count."""
    cdef Py_ssize_t total = 0, n = 0, m = other.shape[0]
    cdef Set32 table
    table.slots = NULL
    for run in runs:
        n += len(run.hashes)
    try:
        if n >= 32 and m <= 8 * n:
            _set_make(&table, other)
        for run in runs:
            total += _covered(run.hashes, run.units, run.width, other, &table if table.slots != NULL else NULL)
        return total
    finally:
        free(table.slots)


def counted_units(tuple runs, tuple other_runs):
    """How many units of a text's runs lie in a shingle found among the other text's runs' shingles, each of
    those used once (as often as the other text has it), the runs' shingles taken in text order
    (similarity._counted_share): the other's shingles counted in a table (Set32's), each found one taken."""
    cdef Py_ssize_t n = 0, k, covered = 0, reached
    cdef const uint32_t[:] hashes
    cdef uint32_t h
    cdef uint64_t at, want, tag = (<uint64_t>1) << SET_TAG_BIT
    cdef int bits = 4
    cdef Set32 table
    cdef uint32_t* left
    for run in other_runs:
        n += len(run.hashes)
    while (<Py_ssize_t>1 << bits) < 2 * n:
        bits += 1
    table.mask = ((<uint64_t>1) << bits) - 1
    table.shift = 64 - bits
    table.slots = <uint64_t*>calloc(<size_t>1 << bits, sizeof(uint64_t))
    left = <uint32_t*>calloc(<size_t>1 << bits, sizeof(uint32_t))  # the copies of each slot's value not taken
    try:
        if table.slots == NULL or left == NULL:
            raise MemoryError()
        for run in other_runs:
            hashes = run.hashes
            for k in range(hashes.shape[0]):
                want = tag | hashes[k]
                at = _set_at(&table, hashes[k])
                while table.slots[at] and table.slots[at] != want:
                    at = (at + 1) & table.mask
                table.slots[at] = want
                left[at] += 1
        for run in runs:
            hashes = run.hashes
            reached = 0
            for k in range(hashes.shape[0]):
                h = hashes[k]
                want = tag | h
                at = _set_at(&table, h)
                while table.slots[at] and table.slots[at] != want:
                    at = (at + 1) & table.mask
                if table.slots[at] and left[at]:
                    left[at] -= 1
                    covered += _cover(k, run.units, run.width, &reached)
        return covered
    finally:
        free(table.slots)
        free(left)


cdef enum:  # the kinds of a run of changed units (similarity._run_kind), and of a place
    K_NONE = 0  # ""
    K_SAME = 1
    K_NUMBER = 2
    K_NAME = 3
    K_WORD = 4


cdef struct Span:  # a run of changed units: its start and end in each text's units, its kind (-1: not yet)
    Py_ssize_t a0, a1, b0, b1
    int kind


cdef enum:
    MAX_UNIT_CODES = 0x10FFFF + 1 - 0x800  # one code point each, surrogates left out


cdef inline Py_ssize_t _code_slot(const uint64_t* keys, const uint32_t* slots, Py_ssize_t capacity,
                                  uint64_t value) noexcept nogil:
    """Where a value is in a code table, or the empty slot it goes in (linear probing; capacity a power of 2)."""
    cdef Py_ssize_t at = <Py_ssize_t>((value * 0x9E3779B97F4A7C15ULL) >> 20) & (capacity - 1)
    while slots[at] and keys[at] != value:
        at = (at + 1) & (capacity - 1)
    return at


cdef inline Py_ssize_t _code_char(Py_ssize_t code) noexcept nogil:
    """The code point standing for code number `code` (no surrogate; similarity._unit_codes's)."""
    return code if code < 0xD800 else code + 0x800


cdef inline bint _all_alpha_chars(const Py_UCS4* chars, Py_ssize_t n) noexcept:
    """str.isalpha of n characters: letters all, and one at least."""
    cdef Py_ssize_t i
    for i in range(n):
        if not Py_UNICODE_ISALPHA(chars[i]):
            return False
    return n > 0


cdef class TextUnits


cdef class Filler:
    """Where two texts' units differ, as similarity._fill_kind finds it, and a text's units as
    similarity.UNITS.findall gives them: `char_ranges` the code point ranges of the character units, `surnames`
    the family names (one character), `compound` the compound ones, `titles` the titles written after a name,
    `gap` how few equal units apart two changed runs are one place, `address` the forms of address written
    before an English name (None: every run of character units and words is left to run_kind)."""

    cdef CodeRanges ranges
    cdef object surnames, compound, places, address
    cdef tuple titles
    cdef Py_ssize_t gap, shortest_title, name_chars
    cdef dict kinds
    # the unit codes given out (text_units): an open-addressed table of unit values (a character's code point,
    # another unit's hash) and the code of each, 1 + its number (0: an empty slot), emptied when full (a new
    # generation: TextUnits of an older one are coded again when aligned)
    cdef uint64_t* code_keys
    cdef uint32_t* code_slots
    cdef Py_ssize_t code_capacity, code_count, code_limit, generation

    def __init__(self, list char_ranges, surnames, compound, tuple titles, places, Py_ssize_t gap,
                 Py_ssize_t codes=1 << 18, address=None):
        _set_ranges(&self.ranges, char_ranges)
        self.address = address
        self.surnames = surnames
        self.compound = compound
        self.titles = titles
        self.places = places
        self.shortest_title = min([len(title) for title in titles])
        # the longest run a person's name with its title may be (zh_name: a family name of up to two characters,
        # two more, a title)
        self.name_chars = 4 + max([len(title) for title in titles])
        self.gap = gap
        self.kinds = {"": K_NONE, "same": K_SAME, "number": K_NUMBER, "name": K_NAME, "word": K_WORD}
        if not 0 <= codes <= MAX_UNIT_CODES:
            raise ValueError(f"0 to {MAX_UNIT_CODES} unit codes, not {codes}")
        self.code_limit = codes

    def __dealloc__(self):
        free(self.code_keys)
        free(self.code_slots)

    cdef int _grow_codes(self) except -1:
        """Twice the table's slots (1,024 at first), every value given out placed again."""
        cdef Py_ssize_t capacity = self.code_capacity * 2 if self.code_capacity else 1024, k, at
        cdef uint64_t* keys = <uint64_t*>malloc(capacity * sizeof(uint64_t))
        cdef uint32_t* slots = <uint32_t*>calloc(capacity, sizeof(uint32_t))
        if keys == NULL or slots == NULL:
            free(keys)
            free(slots)
            raise MemoryError()
        for k in range(self.code_capacity):
            if self.code_slots[k]:
                at = _code_slot(keys, slots, capacity, self.code_keys[k])
                keys[at] = self.code_keys[k]
                slots[at] = self.code_slots[k]
        free(self.code_keys)
        free(self.code_slots)
        self.code_keys, self.code_slots, self.code_capacity = keys, slots, capacity
        return 0

    cdef int _make_room(self, Py_ssize_t wanted) except -1:
        """Room for `wanted` more codes: the table emptied (a new generation) when code_limit would be passed."""
        cdef Py_ssize_t k
        if self.code_count + wanted > self.code_limit and self.code_count:
            for k in range(self.code_capacity):
                self.code_slots[k] = 0
            self.code_count = 0
            self.generation += 1
        return 0

    cdef Py_ssize_t _code(self, uint64_t value) except -2:
        """The code of a unit value, given out now when it has none; -1 once code_limit codes were given out."""
        cdef Py_ssize_t at
        if 2 * (self.code_count + 1) > self.code_capacity and self.code_count < self.code_limit:
            self._grow_codes()
        if self.code_capacity == 0:
            return -1
        at = _code_slot(self.code_keys, self.code_slots, self.code_capacity, value)
        if self.code_slots[at]:
            return self.code_slots[at] - 1
        if self.code_count >= self.code_limit:
            return -1
        self.code_keys[at] = value
        self.code_slots[at] = <uint32_t>(self.code_count + 1)
        self.code_count += 1
        return self.code_count - 1

    def text_units(self, str text):
        """The text's units (units) as TextUnits: where each starts and its code, no str object made for a
        character unit."""
        cdef Py_ssize_t i, n = len(text), m = 0, start = -1
        cdef int kind = PyUnicode_KIND(text)
        cdef void* data = PyUnicode_DATA(text)
        cdef Py_UCS4 c
        cdef bint unit
        cdef TextUnits out = TextUnits.__new__(TextUnits)
        out.text, out.filler, out.codes, out.generation = text, self, None, -1
        out.starts = <uint32_t*>malloc((n + 1) * sizeof(uint32_t))
        if out.starts == NULL:
            raise MemoryError()
        for i in range(n + 1):
            c = PyUnicode_READ(kind, data, i) if i < n else 32  # a space after the last character
            unit = i < n and _in_ranges(&self.ranges, c)
            if start >= 0 and (unit or Py_UNICODE_ISSPACE(c)):  # a word ends
                out.starts[m] = <uint32_t>start
                m += 1
                start = -1
            if unit:
                out.starts[m] = <uint32_t>i
                m += 1
            elif start < 0 and not Py_UNICODE_ISSPACE(c):
                start = i
        out.n = m
        out._recode()
        return out

    def zh_name(self, str run):
        """Whether a run of Chinese characters is a person's name (similarity._zh_name): a family name and one or
        two characters (a compound family name and one or two), a title after them allowed, or a title with one
        character wrong."""
        return self._zh_name(run)

    cdef bint _zh_name(self, str run) except -1:
        cdef Py_ssize_t n = len(run), size, i, same, given
        cdef int kind = PyUnicode_KIND(run)
        cdef void* data = PyUnicode_DATA(run)
        cdef str title
        if n > self.shortest_title:
            for title in self.titles:
                size = len(title)
                if n <= size:
                    continue
                same = 0
                for i in range(size):
                    same += PyUnicode_READ(kind, data, n - size + i) == PyUnicode_READ_CHAR(title, i)
                if same >= size - 1:
                    n -= size
                    run = run[:n]
                    break
        if run[:2] in self.compound:
            given = 2
        elif run[0] in self.surnames:
            given = 1
        else:
            return False
        return given + 1 <= n <= given + 2

    cdef bint _all_chars_in(self, object units, Py_ssize_t start, Py_ssize_t end) except -1:
        """Whether units start..end-1 (a list of them, or TextUnits) are all made of character units."""
        cdef Py_ssize_t k
        if isinstance(units, TextUnits):
            return (<TextUnits>units)._all_chars(start, end)
        for k in range(start, end):
            if not self._all_chars(units[k]):
                return False
        return True

    cdef bint _all_chars(self, str text):
        cdef Py_ssize_t i, n = len(text)
        cdef int kind = PyUnicode_KIND(text)
        cdef void* data = PyUnicode_DATA(text)
        for i in range(n):
            if not _in_ranges(&self.ranges, PyUnicode_READ(kind, data, i)):
                return False
        return True

    def units(self, str text):
        """The text's units in text order: each character unit, each run of other characters that are not
        spaces (similarity.UNITS.findall)."""
        cdef Py_ssize_t i, n = len(text), start = -1
        cdef int kind = PyUnicode_KIND(text)
        cdef void* data = PyUnicode_DATA(text)
        cdef Py_UCS4 c
        cdef list out = []
        for i in range(n):
            c = PyUnicode_READ(kind, data, i)
            if _in_ranges(&self.ranges, c):
                if start >= 0:
                    out.append(text[start:i])
                    start = -1
                out.append(text[i : i + 1])
            elif Py_UNICODE_ISSPACE(c):
                if start >= 0:
                    out.append(text[start:i])
                    start = -1
            elif start < 0:
                start = i
        if start >= 0:
            out.append(text[start:n])
        return out

    cdef int _kind(self, object ua, object ub, Span* s, run_kind, char_kind) except -1:
        """The run's kind: "same" for a run one text lacks, _char_kind for one character for another standing
        alone (both character units, not both family names: similarity._context_kind; "" read here when one of
        them is a letter, with `address`), else _run_kind."""
        cdef str left, right
        if s.a0 == s.a1 or s.b0 == s.b1:
            return K_SAME
        if s.a1 - s.a0 == 1 and s.b1 - s.b0 == 1:
            left, right = ua[s.a0], ub[s.b0]
            if (
                len(left) + len(right) > 0
                and self._all_chars(left)
                and self._all_chars(right)
                and not (left in self.surnames and right in self.surnames)
            ):
                if self.address is not None and left != right and (
                    Py_UNICODE_ISALPHA(left[0]) or Py_UNICODE_ISALPHA(right[0])
                ):
                    return K_NONE  # _char_kind's rules: a letter (no number), one character (no name), no word
                return self.kinds[char_kind(left, right)]
        if isinstance(ua, TextUnits) and isinstance(ub, TextUnits):
            kind = self._long_chars_kind(<TextUnits>ua, <TextUnits>ub, s)
            if kind < 0:
                kind = self._mixed_kind(<TextUnits>ua, <TextUnits>ub, s)
            if kind >= 0:
                return kind
        return self.kinds[run_kind(ua, ub, (s.a0, s.a1, s.b0, s.b1))]

    cdef int _mixed_kind(self, TextUnits ua, TextUnits ub, Span* s) except -2:
        """_run_kind of a run read in place where its first rules make it "same" or "" (most of the long runs of
        a pair's texts: an unrelated or reordered passage mixing character units and other words): "same" when
        its characters are the same on both sides (a word cut otherwise); else "" when one side is all letters
        (str.isalpha: no number), a character unit stands in it (no word of letters), not all its units are
        character units (no Chinese name) and no form of address stands before it nor begins it on both sides
        (no English name). -1 for _run_kind to say otherwise (and without `address`)."""
        cdef Py_ssize_t na, nb
        cdef Py_UCS4* left
        cdef Py_UCS4* right = NULL
        cdef bint chars_a, chars_b, alpha
        if self.address is None:
            return -1
        left = ua._run_text(s.a0, s.a1, &na)
        try:
            right = ub._run_text(s.b0, s.b1, &nb)
            if na == nb and memcmp(left, right, na * sizeof(Py_UCS4)) == 0:
                return K_SAME
            alpha = _all_alpha_chars(left, na) or _all_alpha_chars(right, nb)
        finally:
            free(left)
            free(right)
        chars_a, chars_b = ua._all_chars(s.a0, s.a1), ub._all_chars(s.b0, s.b1)
        if not alpha or (chars_a and chars_b):
            return -1
        if not (chars_a or chars_b or ua._any_char(s.a0, s.a1) or ub._any_char(s.b0, s.b1)):
            return -1
        if (s.a0 > 0 and ua._unit(s.a0 - 1) in self.address) or (
            ua._unit(s.a0) in self.address and ub._unit(s.b0) in self.address
        ):
            return -1
        return K_NONE

    cdef bint _names_split(self, object ua, object ub, Py_ssize_t a0, Py_ssize_t n1, Py_ssize_t b0, Py_ssize_t m1,
                           names_split) except -1:
        """similarity._names_split of units a0..n1-1 and b0..m1-1, all character units: each a person's name
        (zh_name), read from the TextUnits in place; `names_split` says for lists of units."""
        cdef str left, right
        if not (isinstance(ua, TextUnits) and isinstance(ub, TextUnits)):
            return names_split(ua, ub, a0, n1, b0, m1)
        left, right = (<TextUnits>ua)._chars_str(a0, n1), (<TextUnits>ub)._chars_str(b0, m1)
        return len(left) + len(right) > 0 and self._zh_name(left) and self._zh_name(right)

    cdef int _long_chars_kind(self, TextUnits ua, TextUnits ub, Span* s) except -2:
        """_run_kind of a run of character units on both sides, one side longer than a name with its title
        (name_chars), read in place (a reordered passage of Chinese is most of a pair's runs), or -1 for
        _run_kind to say. Such a run is "same" when its characters are, no number when one side is all letters
        (str.isalpha), no title, family name or person's name (those are both sides'); so a name only before
        a place's kind, else ""."""
        cdef Py_ssize_t la = s.a1 - s.a0, lb = s.b1 - s.b0, k
        if (la <= self.name_chars and lb <= self.name_chars) or not (
            ua._all_chars(s.a0, s.a1) and ub._all_chars(s.b0, s.b1)
        ):
            return -1
        if la == lb:
            for k in range(la):
                if ua._char(s.a0 + k) != ub._char(s.b0 + k):
                    break
            else:
                return K_SAME
        if not (ua._all_alpha(s.a0, s.a1) or ub._all_alpha(s.b0, s.b1)):
            return -1  # digits of another script, marks: _numbers_apart says
        if la >= 2 and lb >= 2 and s.a1 < ua.n and ua._is_char(s.a1) and chr(ua._char(s.a1)) in self.places:
            return K_NAME
        return K_NONE

    def fill_kind(self, ua, ub, list blocks, run_kind, char_kind, names_split):
        """similarity._fill_kind of two texts' units (lists of them, or TextUnits) from their alignment's matching
        blocks (rapidfuzz's as_matching_blocks: a, b, size): "number" or "name" for the first place of that kind,
        else "word" when a place is one, else "". The runs are the stretches between two blocks (the editops
        without an equal unit between them); a run's kind is asked for once the places before it are told
        apart, so a text's slot ends the search. The rules of a run's kind stay the module's: `run_kind(ua, ub,
        span)`, `char_kind(left, right)` (one character for another, standing alone) and `names_split(ua, ub,
        a0, n1, b0, m1)` (two runs one character apart that make a name on each side)."""
        cdef Py_ssize_t n = len(blocks), count = 0, k, start, a, b, size, a_end = 0, b_end = 0
        cdef Py_ssize_t number_units, name_units, changed, units
        cdef Span* spans
        cdef Span* s
        cdef bint word
        cdef int fill = K_NONE, kind
        spans = <Span*>malloc((n + 1) * sizeof(Span))
        if spans == NULL:
            raise MemoryError()
        try:
            for block in blocks:
                a, b, size = block.a, block.b, block.size
                if a > a_end or b > b_end:
                    s = &spans[count]
                    s.a0, s.a1, s.b0, s.b1, s.kind = a_end, a, b_end, b, -1
                    count += 1
                a_end, b_end = a + size, b + size
            if a_end < len(ua) or b_end < len(ub):  # after the last block (rapidfuzz ends with an empty one)
                s = &spans[count]
                s.a0, s.a1, s.b0, s.b1, s.kind = a_end, len(ua), b_end, len(ub), -1
                count += 1
            if count == 0:
                return ""
            start = 0
            for k in range(count):
                if spans[k].kind < 0:
                    spans[k].kind = self._kind(ua, ub, &spans[k], run_kind, char_kind)
                if k + 1 < count:
                    if spans[k + 1].kind < 0:
                        spans[k + 1].kind = self._kind(ua, ub, &spans[k + 1], run_kind, char_kind)
                    if (
                        spans[k + 1].a0 == spans[k].a1 + 1
                        and spans[k].kind != K_NUMBER
                        and spans[k + 1].kind != K_NUMBER
                        and self._all_chars_in(ua, spans[k].a0, spans[k + 1].a1)
                        and self._all_chars_in(ub, spans[k].b0, spans[k + 1].b1)
                        and self._names_split(
                            ua, ub, spans[k].a0, spans[k + 1].a1, spans[k].b0, spans[k + 1].b1, names_split
                        )
                    ):
                        spans[k].kind = spans[k + 1].kind = K_NAME
                    if spans[k + 1].a0 - spans[k].a1 <= self.gap:
                        continue
                if k == start:
                    kind = spans[k].kind if spans[k].kind != K_SAME else K_NONE
                else:
                    number_units = name_units = changed = 0
                    word = False
                    for a in range(start, k + 1):
                        s = &spans[a]
                        units = s.a1 - s.a0 + s.b1 - s.b0
                        if s.kind != K_SAME:
                            changed += units
                        if s.kind == K_NUMBER:
                            number_units += units
                        elif s.kind == K_NAME:
                            name_units += units
                        elif s.kind == K_WORD:
                            word = True
                    if number_units and 2 * (number_units + name_units) >= changed:
                        kind = K_NUMBER
                    elif name_units and 2 * (number_units + name_units) >= changed:
                        kind = K_NAME
                    else:
                        kind = K_WORD if word else K_NONE
                if kind == K_NUMBER:
                    return "number"
                if kind == K_NAME:
                    return "name"
                if fill == K_NONE:
                    fill = kind
                start = k + 1
            return "word" if fill == K_WORD else ""
        finally:
            free(spans)


cdef class TextUnits:
    """A text's units (similarity.UNITS.findall: each character unit, each run of other characters that are
    not spaces) as Filler.text_units reads them: where each starts in the text, and a code each in one str
    (`codes`: one code point a unit, the same for units rapidfuzz takes for equal and different for the others,
    from its filler's table; None for more units than the table holds) for rapidfuzz to align (alignable). Indexing, slicing and
    iterating give the units as the list of them would (str; a list for a slice), each made when asked for.
    Pickled as 0 (a profile's memo of how often its units were asked for): the codes are this process's."""

    cdef readonly str text
    cdef readonly object codes
    cdef readonly Filler filler
    cdef uint32_t* starts
    cdef Py_ssize_t n, generation  # the filler's generation its codes are of

    cdef bint _current(self):
        return self.codes is not None and self.generation == self.filler.generation

    cdef int _recode(self) except -1:
        """The units' codes from the filler's table, unless they are of its generation (None for more units than
        the table holds): a character unit's code point, another unit's hash (its code point when it is one
        character), as rapidfuzz reads a list's items."""
        cdef Filler filler = self.filler
        cdef Py_ssize_t k
        cdef Py_UCS4* codes
        cdef str unit
        if self._current():
            return 0
        self.codes = None
        if self.n > filler.code_limit:
            return 0
        filler._make_room(self.n)
        codes = <Py_UCS4*>malloc((self.n + 1) * sizeof(Py_UCS4))
        if codes == NULL:
            raise MemoryError()
        try:
            for k in range(self.n):
                if self._is_char(k):
                    codes[k] = <Py_UCS4>_code_char(filler._code(self._char(k)))
                else:
                    unit = self._unit(k)
                    codes[k] = <Py_UCS4>_code_char(
                        filler._code(<uint64_t>ord(unit) if len(unit) == 1 else <uint64_t>hash(unit))
                    )
            self.codes = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, codes, self.n)
            self.generation = filler.generation
        finally:
            free(codes)
        return 0

    def __dealloc__(self):
        free(self.starts)

    def __len__(self):
        return self.n

    def __reduce__(self):
        return int, ()

    cdef inline bint _is_char(self, Py_ssize_t k):
        return _in_ranges(&self.filler.ranges, PyUnicode_READ_CHAR(self.text, self.starts[k]))

    cdef inline Py_UCS4 _char(self, Py_ssize_t k):
        """The first character of unit k (a character unit's only one)."""
        return PyUnicode_READ_CHAR(self.text, self.starts[k])

    cdef bint _all_chars(self, Py_ssize_t start, Py_ssize_t end):
        """Whether units start..end-1 are all character units."""
        cdef Py_ssize_t k
        for k in range(start, end):
            if not self._is_char(k):
                return False
        return True

    cdef bint _any_char(self, Py_ssize_t start, Py_ssize_t end):
        """Whether one of units start..end-1 is a character unit."""
        cdef Py_ssize_t k
        for k in range(start, end):
            if self._is_char(k):
                return True
        return False

    cdef Py_ssize_t _end(self, Py_ssize_t k):
        """Where unit k ends in the text (a character unit is one character; a word ends before a space or a
        character unit)."""
        cdef Py_ssize_t end = self.starts[k] + 1, n = len(self.text)
        cdef int kind = PyUnicode_KIND(self.text)
        cdef void* data = PyUnicode_DATA(self.text)
        cdef Py_UCS4 c
        if not _in_ranges(&self.filler.ranges, PyUnicode_READ(kind, data, self.starts[k])):
            while end < n:
                c = PyUnicode_READ(kind, data, end)
                if Py_UNICODE_ISSPACE(c) or _in_ranges(&self.filler.ranges, c):
                    break
                end += 1
        return end

    cdef Py_UCS4* _run_text(self, Py_ssize_t start, Py_ssize_t end, Py_ssize_t* size) except NULL:
        """The characters of units start..end-1 joined (what "".join(units[start:end]) holds), in a buffer the
        caller frees, and how many in `size`."""
        cdef Py_ssize_t k, i, stop, m = 0
        cdef int kind = PyUnicode_KIND(self.text)
        cdef void* data = PyUnicode_DATA(self.text)
        cdef Py_UCS4* out = <Py_UCS4*>malloc((self._end(end - 1) - self.starts[start] + 1) * sizeof(Py_UCS4))
        if out == NULL:
            raise MemoryError()
        for k in range(start, end):
            stop = self._end(k)
            for i in range(self.starts[k], stop):
                out[m] = PyUnicode_READ(kind, data, i)
                m += 1
        size[0] = m
        return out

    cdef str _chars_str(self, Py_ssize_t start, Py_ssize_t end):
        """Character units start..end-1 joined into a str."""
        cdef Py_ssize_t k
        cdef Py_UCS4* out = <Py_UCS4*>malloc((end - start + 1) * sizeof(Py_UCS4))
        if out == NULL:
            raise MemoryError()
        try:
            for k in range(start, end):
                out[k - start] = self._char(k)
            return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, out, end - start)
        finally:
            free(out)

    cdef bint _all_alpha(self, Py_ssize_t start, Py_ssize_t end):
        """Whether units start..end-1, character units all, are letters (their str joined isalpha)."""
        cdef Py_ssize_t k
        for k in range(start, end):
            if not Py_UNICODE_ISALPHA(self._char(k)):
                return False
        return end > start

    cdef str _unit(self, Py_ssize_t k):
        cdef Py_ssize_t start = self.starts[k], end = start + 1, n = len(self.text)
        cdef int kind = PyUnicode_KIND(self.text)
        cdef void* data = PyUnicode_DATA(self.text)
        cdef Py_UCS4 c
        if not _in_ranges(&self.filler.ranges, PyUnicode_READ(kind, data, start)):
            while end < n:
                c = PyUnicode_READ(kind, data, end)
                if Py_UNICODE_ISSPACE(c) or _in_ranges(&self.filler.ranges, c):
                    break
                end += 1
        return self.text[start:end]

    def __getitem__(self, key):
        cdef Py_ssize_t k
        if isinstance(key, slice):
            return [self._unit(k) for k in range(*key.indices(self.n))]
        k = key
        if k < 0:
            k += self.n
        if not 0 <= k < self.n:
            raise IndexError("unit index out of range")
        return self._unit(k)

    def __iter__(self):
        cdef Py_ssize_t k
        for k in range(self.n):
            yield self._unit(k)

    def values(self):
        """What rapidfuzz compares each unit by, as an array('Q'): a character's code point, another unit's hash
        (what aligns two TextUnits whose codes are not of one table)."""
        cdef Py_ssize_t k
        cdef uint64_t[::1] view
        out = array("Q", bytes(8 * self.n))
        view = out
        for k in range(self.n):
            unit = self._unit(k)
            view[k] = <uint64_t>ord(unit) if len(unit) == 1 else <uint64_t>hash(unit)
        return out

    def alignable(self, TextUnits other):
        """(this, other) as rapidfuzz aligns them: their codes of one table and generation (coded again when
        older: the table was emptied since), else their values (two fillers' units, more units than a table)."""
        if self.filler is other.filler and self.n + other.n <= self.filler.code_limit:
            if not (self._current() and other._current()):
                self.filler._make_room(self.n + other.n)
                self._recode()
                other._recode()
            return self.codes, other.codes
        return self.values(), other.values()


# ---- a vocabulary's new tokens ----

from cpython.set cimport PySet_Contains
from cpython.float cimport PyFloat_AsDouble
from cpython.unicode cimport Py_UNICODE_ISDIGIT


def describe_tokens(list tokens, Py_ssize_t start, dict idf, double median, frozenset stops, uint32_t seed,
                    uint64_t[::1] hashes, double[::1] idfs, uint8_t[::1] flags, int space, int number, int stop):
    """Each token's feature hash, IDF and flags at `start` onwards (fingerprint/vocabulary.py
    Vocabulary._describe): the first 64 bits of MurmurHash3 x64_128 of its UTF-8 with `seed` (simhash.feature_hash),
    its value in `idf` or `median`, and `space` when it is whitespace alone (str.strip() leaves nothing), `number`
    when it is digits (str.isdigit()), `stop` when it is in `stops`."""
    cdef Py_ssize_t k, j, n = len(tokens), length
    cdef object token
    cdef bytes utf8
    cdef PyObject* value
    cdef int kind
    cdef void* data
    cdef Py_UCS4 c
    cdef bint blank, digits
    cdef uint8_t f
    if start < 0 or hashes.shape[0] < start + n or idfs.shape[0] < start + n or flags.shape[0] < start + n:
        raise ValueError(f"{n} tokens at {start} beyond the arrays")
    for k in range(n):
        token = tokens[k]
        if type(token) is not str:
            raise TypeError(f"a token is a str, not {type(token).__name__}")
        utf8 = (<str>token).encode("utf-8")
        hashes[start + k] = _murmur64(<const uint8_t*><char*>utf8, len(utf8), seed)
        value = PyDict_GetItemWithError(idf, token)
        idfs[start + k] = median if value == NULL else PyFloat_AsDouble(<object>value)
        kind = PyUnicode_KIND(token)
        data = PyUnicode_DATA(token)
        length = len(<str>token)
        blank = True
        digits = length > 0
        for j in range(length):
            c = PyUnicode_READ(kind, data, j)
            if not Py_UNICODE_ISSPACE(c):
                blank = False
            if not Py_UNICODE_ISDIGIT(c):
                digits = False
            if not blank and not digits:
                break
        f = 0
        if blank:
            f |= space
        if digits:
            f |= number
        if PySet_Contains(stops, token):
            f |= stop
        flags[start + k] = f


# ---- the lines a text's parts keep (boilerplate.frequent_rows) ----

def frequent_rows(str text, Py_ssize_t lines, uint32_t seed, int min_chars, int max_chars, boilerplate,
                  double crowd_share, Py_ssize_t min_rest):
    """boilerplate.frequent_rows of a text of `lines` lines (str.splitlines) from its folded text without links
    (`text`), keyed as line_keys keys it: None when the text is left whole (its keys are not as many as its lines,
    or no key of `min_chars` or more hashes into `boilerplate`), else the rows of each part (stripped, rest,
    frequent: lists of line numbers or None) and the numbers of the dropped lines (a frozenset), by that
    function's rules: a frequent line of at most `max_chars` key characters is dropped unless fewer than
    `min_chars` would remain; the frequent rows when they hold `crowd_share` of the key characters; the rest
    without notices (frequent lines of more than `max_chars`) when it keeps `min_rest` key characters."""
    cdef Py_ssize_t k, found, total = 0, dropped_chars = 0, frequent_chars = 0, rest_chars = 0
    cdef bint any_frequent = False, any_drop = False, any_notice = False
    cdef LineKeys keys
    cdef uint8_t* frequent = NULL
    cdef Py_ssize_t* lengths
    _line_keys_empty(&keys)
    try:
        _line_keys(text, seed, min_chars, max_chars, &keys)
        found = keys.count
        if found != lines:
            return None
        frequent = <uint8_t*>malloc(found + 1)
        if frequent == NULL:
            raise MemoryError()
        lengths = keys.lengths
        for k in range(found):
            frequent[k] = lengths[k] >= min_chars and keys.hashes[k] in boilerplate
            any_frequent = any_frequent or frequent[k]
            total += lengths[k]
        if not any_frequent:
            return None
        for k in range(found):
            if frequent[k]:
                frequent_chars += lengths[k]
                if lengths[k] <= max_chars:
                    any_drop = True
                    dropped_chars += lengths[k]
                else:
                    any_notice = True
        if any_drop and total - dropped_chars < min_chars:  # nothing else would remain: nothing dropped
            any_drop = False
        stripped = [k for k in range(found) if not (frequent[k] and lengths[k] <= max_chars)] if any_drop else None
        dropped = frozenset([k for k in range(found) if frequent[k] and lengths[k] <= max_chars]) if any_drop \
            else frozenset()
        common = None
        if frequent_chars and frequent_chars >= crowd_share * <double>total:
            common = [k for k in range(found) if frequent[k]]
        rest = None
        if any_notice:  # a notice is never dropped: the rest is the kept lines but the notices
            rest = []
            for k in range(found):
                if not frequent[k] or (not any_drop and lengths[k] <= max_chars):
                    rest.append(k)
                    rest_chars += lengths[k]
            if rest_chars < min_rest:
                rest = None
        return stripped, rest, common, dropped
    finally:
        free(keys.hashes)
        free(keys.lengths)
        free(frequent)
