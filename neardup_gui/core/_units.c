/* The units of a text in C: core/units.py's tokenize without a Python step per unit.
 *
 * In: the text's code points (one byte each for a Latin-1 text, four for any other, as
 * units.text_codes gives them), the class of every code point (units._CLASS: 0 not part of a
 * unit, 1 a unit on its own (CJK), 2 part of a run, 3 a format character: part of a run when run
 * characters stand on both sides of it and its neighbouring format characters, else nothing;
 * 255 not learnt yet) and the seed of unit ids.
 * Out: every unit's [start, end), its id and its kind, and the units' text each followed by a
 * space (Units.spaced), or None when a code point's class is not learnt yet (the caller learns
 * them and asks again).
 *
 * A unit's id is mmh3.hash64 of its normalised token (NFKC, lower-case), the first half. A run
 * of ASCII letters and digits is normalised here (lower-case; NFKC keeps ASCII as it is) and
 * hashed here (MurmurHash3_x64_128, Austin Appleby's public-domain algorithm, as the mmh3
 * package computes it over the token's UTF-8). Any other run (kind 2) and every CJK unit
 * (kind 1) get their ids from the Python side, which caches them per process. Tested against
 * the plain definition in tests/core/test_units_ext.py.
 *
 * Also the sentences of a text (units.sentence_bounds: the ends of _SENTENCE_END_RE's matches
 * found left to right, each piece trimmed of white space) and the hashes of many slices of one
 * buffer in one call (units.slice_hashes: the index's sentence fingerprints and template keys),
 * both checked against the numpy and mmh3 code they stand in for in the same tests.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

static inline uint64_t rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

static inline uint64_t fmix64(uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return k;
}

static inline uint64_t block64(const uint8_t *p) {
    uint64_t k;
    memcpy(&k, p, 8); /* little-endian machines only: checked at import */
    return k;
}

/* The first 64 bits of MurmurHash3_x64_128 of ``data``. */
static uint64_t murmur3_h1(const uint8_t *data, size_t len, uint32_t seed) {
    const uint64_t c1 = 0x87c37b91114253d5ULL, c2 = 0x4cf5ad432745937fULL;
    uint64_t h1 = seed, h2 = seed;
    size_t nblocks = len / 16;
    for (size_t i = 0; i < nblocks; i++) {
        uint64_t k1 = block64(data + 16 * i), k2 = block64(data + 16 * i + 8);
        k1 *= c1; k1 = rotl64(k1, 31); k1 *= c2; h1 ^= k1;
        h1 = rotl64(h1, 27); h1 += h2; h1 = h1 * 5 + 0x52dce729;
        k2 *= c2; k2 = rotl64(k2, 33); k2 *= c1; h2 ^= k2;
        h2 = rotl64(h2, 31); h2 += h1; h2 = h2 * 5 + 0x38495ab5;
    }
    const uint8_t *tail = data + 16 * nblocks;
    uint64_t k1 = 0, k2 = 0;
    switch (len & 15) {
    case 15: k2 ^= (uint64_t)tail[14] << 48; /* fall through */
    case 14: k2 ^= (uint64_t)tail[13] << 40; /* fall through */
    case 13: k2 ^= (uint64_t)tail[12] << 32; /* fall through */
    case 12: k2 ^= (uint64_t)tail[11] << 24; /* fall through */
    case 11: k2 ^= (uint64_t)tail[10] << 16; /* fall through */
    case 10: k2 ^= (uint64_t)tail[9] << 8;   /* fall through */
    case 9:
        k2 ^= (uint64_t)tail[8];
        k2 *= c2; k2 = rotl64(k2, 33); k2 *= c1; h2 ^= k2;
        /* fall through */
    case 8: k1 ^= (uint64_t)tail[7] << 56; /* fall through */
    case 7: k1 ^= (uint64_t)tail[6] << 48; /* fall through */
    case 6: k1 ^= (uint64_t)tail[5] << 40; /* fall through */
    case 5: k1 ^= (uint64_t)tail[4] << 32; /* fall through */
    case 4: k1 ^= (uint64_t)tail[3] << 24; /* fall through */
    case 3: k1 ^= (uint64_t)tail[2] << 16; /* fall through */
    case 2: k1 ^= (uint64_t)tail[1] << 8;  /* fall through */
    case 1:
        k1 ^= (uint64_t)tail[0];
        k1 *= c1; k1 = rotl64(k1, 31); k1 *= c2; h1 ^= k1;
    }
    h1 ^= (uint64_t)len;
    h2 ^= (uint64_t)len;
    h1 += h2;
    h2 += h1;
    h1 = fmix64(h1);
    h2 = fmix64(h2);
    h1 += h2;
    return h1;
}

#define CODE(i) (wide ? ((const uint32_t *)codes)[(i)] : (uint32_t)((const uint8_t *)codes)[(i)])
#define FORMAT_CLASS 3

/* The end of the run that starts at i (a class 2 code point): past every run character and every
 * stretch of format characters followed by one. -1 when a code point's class is not learnt yet. */
static Py_ssize_t run_end(const void *codes, int wide, Py_ssize_t n, const uint8_t *cls, Py_ssize_t ntab,
                          Py_ssize_t i) {
    Py_ssize_t j = i + 1;
    while (j < n) {
        uint32_t d = CODE(j);
        uint8_t kd = d < (uint32_t)ntab ? cls[d] : 255;
        if (kd == 255) return -1;
        if (kd == 2) {
            j++;
            continue;
        }
        if (kd != FORMAT_CLASS) break;
        Py_ssize_t m = j + 1; /* the format characters from j on, then what follows them */
        uint8_t km = FORMAT_CLASS;
        while (m < n) {
            uint32_t e = CODE(m);
            km = e < (uint32_t)ntab ? cls[e] : 255;
            if (km != FORMAT_CLASS) break;
            m++;
        }
        if (m < n && km == 255) return -1;
        if (m == n || km != 2) break;
        j = m + 1;
    }
    return j;
}

static PyObject *py_units(PyObject *self, PyObject *args) {
    Py_buffer cv, tv;
    unsigned long seed;
    if (!PyArg_ParseTuple(args, "y*y*k", &cv, &tv, &seed)) return NULL;
    PyObject *out = NULL, *starts = NULL, *ends = NULL, *ids = NULL, *kinds = NULL, *spaced = NULL;
    uint8_t *lower = NULL;
    const void *codes = cv.buf;
    const uint8_t *cls = (const uint8_t *)tv.buf;
    int wide = cv.itemsize == 4;
    Py_ssize_t n = cv.len / (wide ? 4 : 1), ntab = tv.len;
    if (!(cv.itemsize == 1 || cv.itemsize == 4) || tv.itemsize != 1) {
        PyErr_SetString(PyExc_TypeError, "units: code points of 1 or 4 bytes and a table of bytes expected");
        goto done;
    }
    /* First pass: the number of units and of the spaced text's characters (and the classes
     * known). A run is a maximal stretch of class 2; a class 1 code point is a unit alone. */
    Py_ssize_t count = 0, chars = 0, longest = 0;
    for (Py_ssize_t i = 0; i < n;) {
        uint32_t c = CODE(i);
        uint8_t k = c < (uint32_t)ntab ? cls[c] : 255;
        if (k == 255) {
            out = Py_None;
            Py_INCREF(out);
            goto done;
        }
        if (k == 0 || k == FORMAT_CLASS) { i++; continue; }
        Py_ssize_t j = i + 1;
        if (k == 2 && (j = run_end(codes, wide, n, cls, ntab, i)) < 0) {
            out = Py_None;
            Py_INCREF(out);
            goto done;
        }
        count++;
        chars += j - i + 1;
        if (j - i > longest) longest = j - i;
        i = j;
    }
    starts = PyByteArray_FromStringAndSize(NULL, count * 8);
    ends = PyByteArray_FromStringAndSize(NULL, count * 8);
    ids = PyByteArray_FromStringAndSize(NULL, count * 8);
    kinds = PyByteArray_FromStringAndSize(NULL, count);
    spaced = PyBytes_FromStringAndSize(NULL, chars * (wide ? 4 : 1));
    lower = PyMem_Malloc(longest > 0 ? longest : 1);
    if (!starts || !ends || !ids || !kinds || !spaced || !lower) {
        if (!lower) PyErr_NoMemory();
        goto done;
    }
    int64_t *s = (int64_t *)PyByteArray_AS_STRING(starts), *e = (int64_t *)PyByteArray_AS_STRING(ends);
    uint64_t *h = (uint64_t *)PyByteArray_AS_STRING(ids);
    uint8_t *kd = (uint8_t *)PyByteArray_AS_STRING(kinds);
    char *sp = PyBytes_AS_STRING(spaced);
    Py_ssize_t u = 0, w = 0;
    for (Py_ssize_t i = 0; i < n;) {
        uint32_t c = CODE(i);
        uint8_t k = cls[c];
        if (k == 0 || k == FORMAT_CLASS) { i++; continue; }
        Py_ssize_t j = k == 2 ? run_end(codes, wide, n, cls, ntab, i) : i + 1;
        s[u] = i;
        e[u] = j;
        uint8_t kind = k == 1 ? 1 : 0;
        if (k == 2) {
            for (Py_ssize_t m = i; m < j; m++) {
                uint32_t d = CODE(m);
                if (d >= 128) { kind = 2; break; }
                lower[m - i] = (d >= 'A' && d <= 'Z') ? (uint8_t)(d + 32) : (uint8_t)d;
            }
        }
        h[u] = kind == 0 ? murmur3_h1(lower, (size_t)(j - i), (uint32_t)seed) : 0;
        kd[u] = kind;
        if (wide) {
            memcpy(sp + 4 * w, (const uint32_t *)codes + i, 4 * (size_t)(j - i));
            w += j - i;
            uint32_t space = ' ';
            memcpy(sp + 4 * w, &space, 4);
            w++;
        } else {
            memcpy(sp + w, (const uint8_t *)codes + i, (size_t)(j - i));
            w += j - i;
            sp[w++] = ' ';
        }
        u++;
        i = j;
    }
    out = Py_BuildValue("OOOOO", starts, ends, ids, kinds, spaced);
done:
    PyMem_Free(lower);
    Py_XDECREF(starts);
    Py_XDECREF(ends);
    Py_XDECREF(ids);
    Py_XDECREF(kinds);
    Py_XDECREF(spaced);
    PyBuffer_Release(&cv);
    PyBuffer_Release(&tv);
    return out;
}

static PyObject *py_hash64(PyObject *self, PyObject *args) {
    Py_buffer b;
    unsigned long seed;
    if (!PyArg_ParseTuple(args, "y*k", &b, &seed)) return NULL;
    uint64_t h = murmur3_h1((const uint8_t *)b.buf, (size_t)b.len, (uint32_t)seed);
    PyBuffer_Release(&b);
    return PyLong_FromUnsignedLongLong(h);
}

/* --- sentences ------------------------------------------------------------------------------ */

/* What a code point is to units.sentence_ends (units._END_PART). */
enum { END_NONE, END_MARK, END_DOT, END_ELLIPSIS, END_LINE_FEED, END_CLOSER };

static inline int end_part(uint32_t c) {
    switch (c) {
    case 0x3002: case 0xFF01: case 0xFF1F: case 0xFF1B: case '!': case '?': case ';': return END_MARK;
    case '.': return END_DOT;
    case 0x2026: return END_ELLIPSIS;
    case '\n': return END_LINE_FEED;
    case 0x201D: case 0x2019: case '"': case '\'': case 0x300D: case 0x300F: case 0xFF09: case ')': case ']':
        return END_CLOSER;
    default: return END_NONE;
    }
}

/* str.isspace() (units._WHITE_SPACE). */
static inline int is_space(uint32_t c) {
    if (c <= 32) return c == 32 || (c >= 9 && c <= 13) || (c >= 28 && c <= 31);
    return c == 133 || c == 160 || c == 5760 || (c >= 8192 && c <= 8202) || c == 8232 || c == 8233 ||
           c == 8239 || c == 8287 || c == 12288;
}

/* The end of a match that ends at x, after the closing quotes and brackets right after it. */
static inline Py_ssize_t closed(const void *codes, int wide, Py_ssize_t n, Py_ssize_t x) {
    while (x < n && end_part(CODE(x)) == END_CLOSER) x++;
    return x;
}

/* Append end x to the ends (grown by doubling); -1 when out of memory. */
static int push_end(int64_t **v, Py_ssize_t *len, Py_ssize_t *cap, Py_ssize_t x) {
    if (*len == *cap) {
        Py_ssize_t grown = *cap ? 2 * *cap : 64;
        int64_t *w = PyMem_Realloc(*v, (size_t)grown * sizeof(int64_t));
        if (!w) return -1;
        *v = w;
        *cap = grown;
    }
    (*v)[(*len)++] = x;
    return 0;
}

static PyObject *py_sentence_bounds(PyObject *self, PyObject *args) {
    Py_buffer cv;
    if (!PyArg_ParseTuple(args, "y*", &cv)) return NULL;
    PyObject *out = NULL, *starts = NULL, *ends = NULL;
    int64_t *e = NULL;
    Py_ssize_t ne = 0, cap = 0;
    const void *codes = cv.buf;
    int wide = cv.itemsize == 4;
    if (!(cv.itemsize == 1 || cv.itemsize == 4)) {
        PyErr_SetString(PyExc_TypeError, "sentence_bounds: code points of 1 or 4 bytes expected");
        goto done;
    }
    Py_ssize_t n = cv.len / cv.itemsize;
    /* The ends of units.sentence_ends, left to right (they come in order: every kind of match
     * ends on a character of its own). */
    if (push_end(&e, &ne, &cap, 0) < 0) goto nomem;
    for (Py_ssize_t i = 0; i < n;) {
        int part = end_part(CODE(i));
        if (part == END_NONE || part == END_CLOSER) {
            i++;
            continue;
        }
        if (part == END_LINE_FEED) {
            if (push_end(&e, &ne, &cap, i + 1) < 0) goto nomem;
            i++;
            continue;
        }
        Py_ssize_t j = i + 1;
        while (j < n && end_part(CODE(j)) == part) j++;
        if (part == END_DOT) {
            /* a run of full stops: every "..." from its left, the last one with its closers when
             * the run's length is a multiple of three, then a full stop left over when white
             * space or the end of the text follows it */
            Py_ssize_t length = j - i, triples = length / 3;
            for (Py_ssize_t t = 1; t <= triples; t++) {
                Py_ssize_t x = i + 3 * t;
                if (t == triples && length % 3 == 0) x = closed(codes, wide, n, x);
                if (push_end(&e, &ne, &cap, x) < 0) goto nomem;
            }
            if (length % 3 != 0 && (j == n || is_space(CODE(j))))
                if (push_end(&e, &ne, &cap, j) < 0) goto nomem;
        } else { /* a run of marks or of ellipses, with its closers */
            if (push_end(&e, &ne, &cap, closed(codes, wide, n, j)) < 0) goto nomem;
        }
        i = j;
    }
    if (push_end(&e, &ne, &cap, n) < 0) goto nomem;
    /* The pieces between consecutive ends, white space trimmed; empty ones dropped. */
    starts = PyByteArray_FromStringAndSize(NULL, (ne - 1) * 8);
    ends = PyByteArray_FromStringAndSize(NULL, (ne - 1) * 8);
    if (!starts || !ends) goto done;
    int64_t *s = (int64_t *)PyByteArray_AS_STRING(starts), *t = (int64_t *)PyByteArray_AS_STRING(ends);
    Py_ssize_t kept = 0;
    for (Py_ssize_t k = 0; k + 1 < ne; k++) {
        Py_ssize_t a = e[k], b = e[k + 1];
        while (a < b && is_space(CODE(a))) a++;
        while (b > a && is_space(CODE(b - 1))) b--;
        if (a < b) {
            s[kept] = a;
            t[kept] = b;
            kept++;
        }
    }
    if (PyByteArray_Resize(starts, kept * 8) < 0 || PyByteArray_Resize(ends, kept * 8) < 0) goto done;
    out = Py_BuildValue("OO", starts, ends);
    goto done;
nomem:
    PyErr_NoMemory();
done:
    PyMem_Free(e);
    Py_XDECREF(starts);
    Py_XDECREF(ends);
    PyBuffer_Release(&cv);
    return out;
}

static PyObject *py_slice_hashes(PyObject *self, PyObject *args) {
    Py_buffer db, lb, hb;
    unsigned long seed;
    if (!PyArg_ParseTuple(args, "y*y*y*k", &db, &lb, &hb, &seed)) return NULL;
    PyObject *out = NULL;
    if (lb.itemsize != 8 || hb.itemsize != 8 || lb.len != hb.len) {
        PyErr_SetString(PyExc_ValueError, "slice_hashes: int64 starts and ends of the same length expected");
        goto done;
    }
    Py_ssize_t m = lb.len / 8;
    const int64_t *lo = (const int64_t *)lb.buf, *hi = (const int64_t *)hb.buf;
    for (Py_ssize_t k = 0; k < m; k++)
        if (lo[k] < 0 || lo[k] > hi[k] || hi[k] > (int64_t)db.len) {
            PyErr_SetString(PyExc_ValueError, "slice_hashes: a slice outside the data");
            goto done;
        }
    out = PyByteArray_FromStringAndSize(NULL, m * 8);
    if (!out) goto done;
    uint64_t *h = (uint64_t *)PyByteArray_AS_STRING(out);
    const uint8_t *data = (const uint8_t *)db.buf;
    for (Py_ssize_t k = 0; k < m; k++) h[k] = murmur3_h1(data + lo[k], (size_t)(hi[k] - lo[k]), (uint32_t)seed);
done:
    PyBuffer_Release(&db);
    PyBuffer_Release(&lb);
    PyBuffer_Release(&hb);
    return out;
}

/* ------------------------------------------------ fingerprints: k-grams, MinHash, winnowing */

static inline uint64_t splitmix_fin(uint64_t x) { /* fingerprints._mix */
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

#define KGRAM_POLY 0x9E3779B97F4A7C15ULL /* fingerprints._POLY */

/* sorts v[0..n) (a radix sort, 8 bits a pass, passes where every value has the same byte
   skipped; insertion for a few values: qsort's comparison calls cost more than numpy's sort of
   the shingles of a long text); returns 0, or -1 when out of memory */
static int sort_u64(uint64_t *v, Py_ssize_t n) {
    if (n < 32) {
        for (Py_ssize_t i = 1; i < n; i++) {
            uint64_t x = v[i];
            Py_ssize_t j = i;
            while (j > 0 && v[j - 1] > x) v[j] = v[j - 1], j--;
            v[j] = x;
        }
        return 0;
    }
    uint64_t *tmp = malloc((size_t)n * sizeof(uint64_t));
    if (!tmp) return -1;
    uint64_t *src = v, *dst = tmp;
    for (int shift = 0; shift < 64; shift += 8) {
        Py_ssize_t count[257] = {0};
        for (Py_ssize_t i = 0; i < n; i++) count[((src[i] >> shift) & 0xFF) + 1]++;
        int one = 0;
        for (int b = 1; b <= 256; b++)
            if (count[b] == n) one = 1;
        if (one) continue; /* every value has this byte: the order stands */
        for (int b = 0; b < 256; b++) count[b + 1] += count[b];
        for (Py_ssize_t i = 0; i < n; i++) dst[count[(src[i] >> shift) & 0xFF]++] = src[i];
        uint64_t *t = src;
        src = dst, dst = t;
    }
    if (src != v) memcpy(v, src, (size_t)n * sizeof(uint64_t));
    free(tmp);
    return 0;
}

/* sorts v[0..n) and keeps each value once; returns the count kept (-1: out of memory) */
static Py_ssize_t sort_distinct(uint64_t *v, Py_ssize_t n) {
    if (n < 2) return n;
    if (sort_u64(v, n)) return -1;
    Py_ssize_t m = 1;
    for (Py_ssize_t i = 1; i < n; i++)
        if (v[i] != v[m - 1]) v[m++] = v[i];
    return m;
}

/* fingerprints._kgram_hashes of ids[0..n) into out (n - k' + 1 values, k' = min(k, n)); 0 when n is 0 */
static Py_ssize_t kgrams(const uint64_t *ids, Py_ssize_t n, Py_ssize_t k, uint64_t seed, uint64_t *out) {
    if (n == 0) return 0;
    if (k > n) k = n;
    Py_ssize_t count = n - k + 1;
    for (Py_ssize_t i = 0; i < count; i++) {
        uint64_t h = seed;
        for (Py_ssize_t j = 0; j < k; j++) h = h * KGRAM_POLY + ids[i + j];
        out[i] = splitmix_fin(h ^ (uint64_t)k);
    }
    return count;
}

static PyObject *py_kgram_hashes(PyObject *self, PyObject *args) {
    Py_buffer ib;
    Py_ssize_t k;
    unsigned long long seed;
    int distinct;
    if (!PyArg_ParseTuple(args, "y*nKp", &ib, &k, &seed, &distinct)) return NULL;
    PyObject *out = NULL;
    if (ib.itemsize != 8 || k < 1) {
        PyErr_SetString(PyExc_ValueError, "kgram_hashes: uint64 ids and k >= 1 expected");
        goto done;
    }
    Py_ssize_t n = ib.len / 8;
    uint64_t *h = malloc((size_t)(n ? n : 1) * sizeof(uint64_t));
    if (!h) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t m = kgrams((const uint64_t *)ib.buf, n, k, (uint64_t)seed, h);
    if (distinct) m = sort_distinct(h, m);
    if (m < 0)
        PyErr_NoMemory();
    else
        out = PyByteArray_FromStringAndSize((const char *)h, m * 8);
    free(h);
done:
    PyBuffer_Release(&ib);
    return out;
}

static PyObject *py_oph_signature(PyObject *self, PyObject *args) {
    Py_buffer hb;
    Py_ssize_t count;
    unsigned long long dseed;
    if (!PyArg_ParseTuple(args, "y*nK", &hb, &count, &dseed)) return NULL;
    PyObject *out = NULL;
    unsigned char *filled = NULL;
    if (hb.itemsize != 8 || count < 1 || count > ((Py_ssize_t)1 << 31)) {
        PyErr_SetString(PyExc_ValueError, "oph_signature: uint64 hashes and 1 <= count <= 2^31 expected");
        goto done;
    }
    const uint64_t *H = (const uint64_t *)hb.buf;
    Py_ssize_t n = hb.len / 8;
    for (Py_ssize_t i = 1; i < n; i++)
        if (H[i] <= H[i - 1]) {
            PyErr_SetString(PyExc_ValueError, "oph_signature: the hashes must be sorted and distinct");
            goto done;
        }
    out = PyByteArray_FromStringAndSize(NULL, count * 8);
    filled = calloc((size_t)count, 1);
    if (!out || !filled) {
        Py_CLEAR(out);
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto done;
    }
    uint64_t *sig = (uint64_t *)PyByteArray_AS_STRING(out);
    for (Py_ssize_t b = 0; b < count; b++) sig[b] = UINT64_MAX; /* fingerprints._EMPTY_MIN */
    if (n == 0) goto done;
    for (Py_ssize_t i = 0; i < n; i++) { /* each bin's first hash is its least */
        uint64_t b = ((H[i] >> 32) * (uint64_t)count) >> 32;
        if (!filled[b]) filled[b] = 1, sig[b] = H[i];
    }
    /* an empty bin takes the value of the first filled bin along its probe sequence (filled
       bins are never written here, so the order the empty ones are served in does not matter) */
    for (Py_ssize_t b = 0; b < count; b++) {
        if (filled[b]) continue;
        for (uint64_t t = 0;; t++) {
            uint64_t probe = splitmix_fin(((uint64_t)b << 32) ^ t ^ (uint64_t)dseed) % (uint64_t)count;
            if (filled[probe]) {
                sig[b] = sig[probe];
                break;
            }
        }
    }
done:
    free(filled);
    PyBuffer_Release(&hb);
    return out;
}

/* fingerprints.one_bit_fingerprint: bit i = top bit of splitmix_fin(sig[i] ^ i * ONE_BIT_SALT),
   packed into ceil(k/64) words, bit i % 64 of word i / 64; the padding bits 0 */
#define ONE_BIT_SALT 0xD6E8FEB86659FD93ULL /* fingerprints.one_bit_fingerprint's salt */
static PyObject *py_one_bit(PyObject *self, PyObject *args) {
    Py_buffer sb;
    if (!PyArg_ParseTuple(args, "y*", &sb)) return NULL;
    PyObject *out = NULL;
    if (sb.itemsize != 8) {
        PyErr_SetString(PyExc_ValueError, "one_bit: a uint64 signature expected");
        goto done;
    }
    Py_ssize_t k = sb.len / 8, words = (k + 63) / 64;
    out = PyByteArray_FromStringAndSize(NULL, words * 8);
    if (!out) goto done;
    uint64_t *w = (uint64_t *)PyByteArray_AS_STRING(out);
    const uint64_t *sig = (const uint64_t *)sb.buf;
    for (Py_ssize_t i = 0; i < words; i++) w[i] = 0;
    for (Py_ssize_t i = 0; i < k; i++)
        w[i / 64] |= (splitmix_fin(sig[i] ^ ((uint64_t)i * ONE_BIT_SALT)) >> 63) << (i % 64);
done:
    PyBuffer_Release(&sb);
    return out;
}

/* fingerprints.lsh_band_keys: for band b, h = dseed + b, then h = h * KGRAM_POLY + sig[b * rows + j]
   for each of its rows j; its key is splitmix_fin(h) */
static PyObject *py_band_keys(PyObject *self, PyObject *args) {
    Py_buffer sb;
    Py_ssize_t bands, rows;
    unsigned long long dseed;
    if (!PyArg_ParseTuple(args, "y*nnK", &sb, &bands, &rows, &dseed)) return NULL;
    PyObject *out = NULL;
    if (sb.itemsize != 8 || bands < 0 || rows < 1 || (bands && rows > (sb.len / 8) / bands)) {
        PyErr_SetString(PyExc_ValueError, "band_keys: a uint64 signature of at least bands x rows values expected");
        goto done;
    }
    out = PyByteArray_FromStringAndSize(NULL, bands * 8);
    if (!out) goto done;
    uint64_t *keys = (uint64_t *)PyByteArray_AS_STRING(out);
    const uint64_t *sig = (const uint64_t *)sb.buf;
    for (Py_ssize_t b = 0; b < bands; b++) {
        uint64_t h = (uint64_t)dseed + (uint64_t)b;
        for (Py_ssize_t j = 0; j < rows; j++) h = h * KGRAM_POLY + sig[b * rows + j];
        keys[b] = splitmix_fin(h);
    }
done:
    PyBuffer_Release(&sb);
    return out;
}

static PyObject *py_winnow(PyObject *self, PyObject *args) {
    Py_buffer ib;
    Py_ssize_t k, w;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "y*nKn", &ib, &k, &seed, &w)) return NULL;
    PyObject *out = NULL;
    uint64_t *h = NULL, *minima = NULL;
    Py_ssize_t *dq = NULL;
    if (ib.itemsize != 8 || k < 1 || w < 1) {
        PyErr_SetString(PyExc_ValueError, "winnow: uint64 ids, k >= 1 and w >= 1 expected");
        goto done;
    }
    Py_ssize_t n = ib.len / 8;
    if (n < k) { /* no whole k-gram */
        out = PyByteArray_FromStringAndSize(NULL, 0);
        goto done;
    }
    h = malloc((size_t)n * sizeof(uint64_t));
    minima = malloc((size_t)n * sizeof(uint64_t));
    dq = malloc((size_t)n * sizeof(Py_ssize_t));
    if (!h || !minima || !dq) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t nh = kgrams((const uint64_t *)ib.buf, n, k, (uint64_t)seed, h);
    if (w > nh) w = nh;
    /* the minimum of every window of w hashes: a deque of positions with increasing values */
    Py_ssize_t head = 0, tail = 0, m = 0;
    for (Py_ssize_t i = 0; i < nh; i++) {
        while (tail > head && h[dq[tail - 1]] >= h[i]) tail--;
        dq[tail++] = i;
        if (dq[head] <= i - w) head++;
        /* (a window's minimum is most often the one before it: each kept once in a row) */
        if (i >= w - 1 && (m == 0 || minima[m - 1] != h[dq[head]])) minima[m++] = h[dq[head]];
    }
    m = sort_distinct(minima, m);
    if (m < 0) {
        PyErr_NoMemory();
        goto done;
    }
    out = PyByteArray_FromStringAndSize((const char *)minima, m * 8);
done:
    free(h), free(minima), free(dq);
    PyBuffer_Release(&ib);
    return out;
}

/* arrays.distinct_first_counts of uint64 values: the distinct values (sorted), the index of each
 * one's first occurrence and its count. A hash table counts them in one pass (numpy sorted every
 * value: a long copyright file's 10,000 word ids, 0.27 ms), then only the distinct are sorted. */
static PyObject *py_distinct_first_counts(PyObject *self, PyObject *args) {
    Py_buffer ib;
    if (!PyArg_ParseTuple(args, "y*", &ib)) return NULL;
    PyObject *result = NULL, *ou = NULL, *of = NULL, *oc = NULL;
    uint64_t *keys = NULL, *uniq = NULL;
    int64_t *first = NULL, *count = NULL;
    if (ib.itemsize != 8) {
        PyErr_SetString(PyExc_ValueError, "distinct_first_counts: uint64 values expected");
        goto done;
    }
    const uint64_t *v = (const uint64_t *)ib.buf;
    const Py_ssize_t n = ib.len / 8;
    Py_ssize_t size = 16;
    while (size < 2 * n) size *= 2;
    const Py_ssize_t mask = size - 1;
    keys = malloc((size_t)size * sizeof(uint64_t));
    first = malloc((size_t)size * sizeof(int64_t));
    count = calloc((size_t)size, sizeof(int64_t)); /* 0: a free slot */
    uniq = malloc((size_t)(n ? n : 1) * sizeof(uint64_t));
    if (!keys || !first || !count || !uniq) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t m = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t h = (Py_ssize_t)(splitmix_fin(v[i]) & (uint64_t)mask); /* (every bit of the id counts) */
        while (count[h] && keys[h] != v[i]) h = (h + 1) & mask;
        if (!count[h]) keys[h] = v[i], first[h] = i, uniq[m++] = v[i];
        count[h]++;
    }
    if (sort_u64(uniq, m)) {
        PyErr_NoMemory();
        goto done;
    }
    ou = PyByteArray_FromStringAndSize((const char *)uniq, m * 8);
    of = PyByteArray_FromStringAndSize(NULL, m * 8);
    oc = PyByteArray_FromStringAndSize(NULL, m * 8);
    if (!ou || !of || !oc) goto done;
    int64_t *f = (int64_t *)PyByteArray_AS_STRING(of), *c = (int64_t *)PyByteArray_AS_STRING(oc);
    for (Py_ssize_t j = 0; j < m; j++) {
        Py_ssize_t h = (Py_ssize_t)(splitmix_fin(uniq[j]) & (uint64_t)mask);
        while (keys[h] != uniq[j]) h = (h + 1) & mask;
        f[j] = first[h];
        c[j] = count[h];
    }
    result = PyTuple_Pack(3, ou, of, oc);
done:
    Py_XDECREF(ou), Py_XDECREF(of), Py_XDECREF(oc);
    free(keys), free(first), free(count), free(uniq);
    PyBuffer_Release(&ib);
    return result;
}

/* store.search_rows: one search table's keys as the JSON array its rows are inserted from, as
 * json.dumps of the signed 64-bit integers writes it ("[1, -2]"). With ``distinct`` the uint64
 * values are first sorted (as unsigned) and each kept once, and with ``drop_zero`` a 0 (an empty
 * sentence bucket) is left out: what json.dumps(to_signed(distinct(values))) gives, without
 * a Python int a key (an index build's extraction worker writes five such arrays a document). */
static char *put_int64(char *o, int64_t value) {
    char digits[24];
    int n = 0;
    uint64_t u = value < 0 ? (uint64_t)0 - (uint64_t)value : (uint64_t)value;
    do {
        digits[n++] = (char)('0' + (int)(u % 10));
        u /= 10;
    } while (u);
    if (value < 0) *o++ = '-';
    while (n) *o++ = digits[--n];
    return o;
}

static PyObject *py_json_keys(PyObject *self, PyObject *args) {
    Py_buffer ib;
    int distinct, drop_zero;
    if (!PyArg_ParseTuple(args, "y*pp", &ib, &distinct, &drop_zero)) return NULL;
    PyObject *out = NULL;
    uint64_t *v = NULL;
    char *text = NULL;
    if (ib.itemsize != 8 || ib.len % 8) {
        PyErr_SetString(PyExc_ValueError, "json_keys: 64-bit integers expected");
        goto done;
    }
    Py_ssize_t n = ib.len / 8;
    v = malloc((size_t)(n ? n : 1) * sizeof(uint64_t));
    text = malloc((size_t)n * 22 + 3); /* "-9223372036854775808, " at most a value */
    if (!v || !text) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t m = 0;
    const uint64_t *in = (const uint64_t *)ib.buf;
    for (Py_ssize_t i = 0; i < n; i++)
        if (!drop_zero || in[i]) v[m++] = in[i];
    if (distinct) {
        m = sort_distinct(v, m);
        if (m < 0) {
            PyErr_NoMemory();
            goto done;
        }
    }
    char *o = text;
    *o++ = '[';
    for (Py_ssize_t i = 0; i < m; i++) {
        if (i) *o++ = ',', *o++ = ' ';
        o = put_int64(o, (int64_t)v[i]);
    }
    *o++ = ']';
    out = PyUnicode_New(o - text, 127);
    if (out) memcpy(PyUnicode_1BYTE_DATA(out), text, (size_t)(o - text));
done:
    free(v), free(text);
    PyBuffer_Release(&ib);
    return out;
}

PyDoc_STRVAR(json_keys_doc,
"json_keys(values, distinct, drop_zero) -> str\n\n"
"The 64-bit integers of ``values`` as json.dumps writes a list of them, each read as a signed\n"
"integer (uint64 above 2**63 - 1 negative, as SQLite stores them); with ``distinct`` sorted as\n"
"unsigned and each once first, with ``drop_zero`` without the zeros.");

PyDoc_STRVAR(distinct_first_counts_doc,
"distinct_first_counts(values) -> (bytearray of uint64, bytearray of int64, bytearray of int64)\n\n"
"arrays.distinct_first_counts of uint64 values: the distinct values in ascending order, the\n"
"index of each one's first occurrence, and how many times it occurs.");

PyDoc_STRVAR(kgram_hashes_doc,
"kgram_hashes(ids, k, seed, distinct) -> bytearray of uint64\n\n"
"fingerprints._kgram_hashes of the uint64 unit ids (every run of k, or one of all when fewer),\n"
"sorted and each once with ``distinct``.");
PyDoc_STRVAR(oph_signature_doc,
"oph_signature(hashes, count, dseed) -> bytearray of uint64\n\n"
"fingerprints.one_permutation_signature of sorted, distinct uint64 hashes: each bin's least\n"
"hash, an empty bin the value of the first filled bin along its probe sequence.");
PyDoc_STRVAR(winnow_doc,
"winnow(ids, k, seed, w) -> bytearray of uint64\n\n"
"fingerprints.anchors: the distinct minima (sorted) of every window of w k-gram hashes of the\n"
"uint64 unit ids (w at most the number of k-grams; nothing when there is no whole k-gram).");

PyDoc_STRVAR(units_doc,
"units(codes, classes, seed) -> (starts, ends, ids, kinds, spaced) or None\n\n"
"The units of a text from its code points (1 or 4 bytes each) and the class of every code\n"
"point: bytearrays of int64 starts and ends, uint64 ids (0 unless kind 0), uint8 kinds (0 an\n"
"ASCII run hashed here, 1 a CJK unit, 2 another run), and the units each followed by a space,\n"
"in the code points' width. None when a class is not learnt yet (255).");
PyDoc_STRVAR(hash64_doc, "hash64(data, seed) -> the first 64 bits of MurmurHash3_x64_128 (mmh3.hash64(...)[0]).");
PyDoc_STRVAR(sentence_bounds_doc,
"sentence_bounds(codes) -> (starts, ends)\n\n"
"units.sentence_bounds from the text's code points (1 or 4 bytes each): bytearrays of int64\n"
"[start, end) of every sentence, white space trimmed, empty ones left out.");
PyDoc_STRVAR(slice_hashes_doc,
"slice_hashes(data, starts, ends, seed) -> bytearray of uint64\n\n"
"hash64(data[starts[k]:ends[k]], seed) of every slice (int64 byte offsets).");

static PyMethodDef methods[] = {
    {"units", py_units, METH_VARARGS, units_doc},
    {"hash64", py_hash64, METH_VARARGS, hash64_doc},
    {"sentence_bounds", py_sentence_bounds, METH_VARARGS, sentence_bounds_doc},
    {"slice_hashes", py_slice_hashes, METH_VARARGS, slice_hashes_doc},
    {"kgram_hashes", py_kgram_hashes, METH_VARARGS, kgram_hashes_doc},
    {"oph_signature", py_oph_signature, METH_VARARGS, oph_signature_doc},
    {"winnow", py_winnow, METH_VARARGS, winnow_doc},
    {"one_bit", py_one_bit, METH_VARARGS, "one_bit(signature) -> bytearray of uint64: fingerprints.one_bit_fingerprint."},
    {"band_keys", py_band_keys, METH_VARARGS,
     "band_keys(signature, bands, rows, seed) -> bytearray of uint64: fingerprints.lsh_band_keys."},
    {"distinct_first_counts", py_distinct_first_counts, METH_VARARGS, distinct_first_counts_doc},
    {"json_keys", py_json_keys, METH_VARARGS, json_keys_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_units", "The units of a text in C.", -1, methods};

PyMODINIT_FUNC PyInit__units(void) {
    uint16_t probe = 1;
    if (*(uint8_t *)&probe != 1) {
        PyErr_SetString(PyExc_ImportError, "_units: little-endian machines only");
        return NULL;
    }
    return PyModule_Create(&module);
}
