/* Steps of a comparison in the collection-wide pass, in C: the same answers as the numpy (or
 * Python) code they stand in for (core/compare.py): the search of shared windows
 * (_shared_mask_prepared), the multiset overlap of the shared items, the aligned pairs cut into
 * counted runs (_aligned_pairs with _match_spans in counts-only form), a prepared document's
 * window hashes (PreparedDocument.windows), the readable Myers diff the passages' local
 * alignments use (myers_blocks), in core/passages.py the chaining of anchors and seeds into
 * passages (_chained_passages), in core/candidates.py the documents a look-up of search rows
 * finds (AnchorPostings.counts), the bounds of the stored bags of units of a document's
 * candidates (compare.stored_bag_bounds), and the pass's unit codes (compare.UnitCodes: a hash
 * table instead of a sort of each document), without the fixed cost of an array operation or of a
 * Python step each. They run for every candidate or region that reaches them: on 10,000 generated copy-heavy
 * documents 72,000 times, where each numpy step costs microseconds on a few hundred items.
 *
 * Arrays come in through the buffer protocol (numpy arrays, contiguous): the Python side checks
 * their types and falls back to numpy for anything else. Tested against the code they stand in
 * for in tests/core/test_kernels_ext.py (the bags' bounds in tests/core/store/test_stored_bags.py).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    Py_buffer view;
    int ok;
} buf_t;

/* Any integers of 4 or 8 bytes (read with ``at``). */
#define INT_4_OR_8 (-1)

/* A read-only contiguous buffer of items of ``size`` bytes (or INT_4_OR_8). */
static int get(PyObject *obj, buf_t *b, Py_ssize_t size, const char *what) {
    b->ok = 0;
    if (PyObject_GetBuffer(obj, &b->view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return -1;
    b->ok = 1;
    Py_ssize_t got = b->view.itemsize;
    if (size == INT_4_OR_8 ? (got != 4 && got != 8) : got != size) {
        PyErr_Format(PyExc_TypeError, "%s: items of %s bytes expected, got %zd", what,
                     size == INT_4_OR_8 ? "4 or 8" : (size == 4 ? "4" : "8"), got);
        return -1;
    }
    return 0;
}

static void release(buf_t *b) {
    if (b->ok) PyBuffer_Release(&b->view);
    b->ok = 0;
}

static inline int64_t at(const buf_t *b, Py_ssize_t i) {
    /* a signed integer array of 4 or 8 bytes */
    return b->view.itemsize == 4 ? ((const int32_t *)b->view.buf)[i] : ((const int64_t *)b->view.buf)[i];
}

static inline Py_ssize_t len_of(const buf_t *b) { return b->view.len / b->view.itemsize; }

/* Units covered by the windows (of k items) whose hash is marked in ``hit``; returns the count. */
static Py_ssize_t cover(const unsigned char *hit, const buf_t *inv, Py_ssize_t n, Py_ssize_t k, unsigned char *mask) {
    Py_ssize_t windows = len_of(inv), end = 0, covered = 0;
    for (Py_ssize_t w = 0; w < windows; w++) {
        if (hit[at(inv, w)]) end = w + k;
        mask[w] = w < end;
    }
    for (Py_ssize_t i = windows; i < n; i++) mask[i] = i < end;
    for (Py_ssize_t i = 0; i < n; i++) covered += mask[i];
    return covered;
}

/* The windows of a document agree with its items: at most one a position, each hash's index and
 * first window in range (what its memory accesses below rely on). */
static int windows_ok(const buf_t *inv, const buf_t *first, Py_ssize_t nh, Py_ssize_t n, Py_ssize_t k) {
    Py_ssize_t windows = len_of(inv);
    if (windows > n || len_of(first) != nh || (windows > 0 && windows != n - k + 1)) return 0;
    for (Py_ssize_t w = 0; w < windows; w++) {
        int64_t h = at(inv, w);
        if (h < 0 || h >= nh) return 0;
    }
    for (Py_ssize_t h = 0; h < nh; h++) {
        int64_t f = at(first, h);
        if (f < 0 || f + k > n) return 0;
    }
    return 1;
}

PyDoc_STRVAR(shared_cover_doc,
"shared_cover(hashes_a, inverse_a, first_a, items_a, hashes_b, inverse_b, first_b, items_b, k, at_least)\n\n"
"The items of A and of B inside a k-window whose hash the other has, as two bytes objects of\n"
"0/1 (numpy bool); None when one of them covers fewer than ``at_least`` > 0 items; False when a\n"
"window pair of equal hash differs item by item (a collision: the caller compares exactly).\n"
"hashes: the distinct window hashes, sorted (uint64); inverse: the index in hashes of every\n"
"window (int32); first: the first window of every hash (int32); items: uint32.");

static PyObject *py_shared_cover(PyObject *self, PyObject *args) {
    PyObject *o[8];
    Py_ssize_t k, at_least;
    if (!PyArg_ParseTuple(args, "OOOOOOOOnn", &o[0], &o[1], &o[2], &o[3], &o[4], &o[5], &o[6], &o[7], &k, &at_least))
        return NULL;
    buf_t ha = {0}, ia = {0}, fa = {0}, xa = {0}, hb = {0}, ib = {0}, fb = {0}, xb = {0};
    PyObject *result = NULL;
    unsigned char *hit_a = NULL, *hit_b = NULL, *mask_a = NULL, *mask_b = NULL;
    Py_ssize_t *pair = NULL;
    if (get(o[0], &ha, 8, "hashes_a") || get(o[1], &ia, 4, "inverse_a") || get(o[2], &fa, 4, "first_a") ||
        get(o[3], &xa, 4, "items_a") || get(o[4], &hb, 8, "hashes_b") || get(o[5], &ib, 4, "inverse_b") ||
        get(o[6], &fb, 4, "first_b") || get(o[7], &xb, 4, "items_b"))
        goto done;
    const uint64_t *HA = ha.view.buf, *HB = hb.view.buf;
    const uint32_t *XA = xa.view.buf, *XB = xb.view.buf;
    Py_ssize_t nha = len_of(&ha), nhb = len_of(&hb), na = len_of(&xa), nb = len_of(&xb);
    if (k < 1 || !windows_ok(&ia, &fa, nha, na, k) || !windows_ok(&ib, &fb, nhb, nb, k)) {
        PyErr_SetString(PyExc_ValueError, "windows inconsistent with their items");
        goto done;
    }
    hit_a = calloc((size_t)nha + 1, 1);
    hit_b = calloc((size_t)nhb + 1, 1);
    pair = malloc(((size_t)nha + 1) * sizeof(Py_ssize_t));
    mask_a = malloc((size_t)na + 1);
    mask_b = malloc((size_t)nb + 1);
    if (!hit_a || !hit_b || !pair || !mask_a || !mask_b) {
        PyErr_NoMemory();
        goto done;
    }
    /* the hashes of A found in B: one walk of the two sorted lists */
    Py_ssize_t hits = 0;
    for (Py_ssize_t x = 0, y = 0; x < nha && y < nhb;) {
        if (HA[x] < HB[y]) {
            x++;
        } else if (HA[x] > HB[y]) {
            y++;
        } else {
            hit_a[x] = hit_b[y] = 1;
            pair[x] = y;
            hits++;
            x++;
            y++;
        }
    }
    Py_ssize_t cov_a = cover(hit_a, &ia, na, k, mask_a);
    Py_ssize_t cov_b = cover(hit_b, &ib, nb, k, mask_b);
    if (at_least > 0 && (cov_a < at_least || cov_b < at_least)) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    /* every window found in both, checked item by item on one window of its hash each */
    for (Py_ssize_t x = 0; hits && x < nha; x++) {
        if (!hit_a[x]) continue;
        int32_t sa = ((const int32_t *)fa.view.buf)[x], sb = ((const int32_t *)fb.view.buf)[pair[x]];
        if (memcmp(XA + sa, XB + sb, (size_t)k * sizeof(uint32_t)) != 0) {
            result = Py_NewRef(Py_False);
            goto done;
        }
    }
    PyObject *ba = PyBytes_FromStringAndSize((const char *)mask_a, na);
    PyObject *bb = ba ? PyBytes_FromStringAndSize((const char *)mask_b, nb) : NULL;
    if (ba && bb) result = PyTuple_Pack(2, ba, bb);
    Py_XDECREF(ba);
    Py_XDECREF(bb);
done:
    free(hit_a);
    free(hit_b);
    free(pair);
    free(mask_a);
    free(mask_b);
    release(&ha), release(&ia), release(&fa), release(&xa);
    release(&hb), release(&ib), release(&fb), release(&xb);
    return result;
}

/* Index of ``value`` in the sorted ``sorted`` (its first place at or after it). */
static Py_ssize_t search(const buf_t *sorted, int64_t value) {
    Py_ssize_t lo = 0, hi = len_of(sorted);
    while (lo < hi) {
        Py_ssize_t mid = lo + (hi - lo) / 2;
        if (at(sorted, mid) < value)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

PyDoc_STRVAR(counted_runs_doc,
"counted_runs(blocks, sel_a, sel_b, unit_a, unit_b, pos_a, pos_b, min_run, whole)\n"
"    -> (runs, common, real_aligned)\n\n"
"The aligned item pairs of ``blocks`` (i, j, n) over the selections sel_a/sel_b (int64 item\n"
"indices), cut into runs consecutive in both; a run counts when it holds at least ``min_run``\n"
"real items (unit >= 0), or exactly ``whole`` > 0. ``runs``: the counted runs' pieces between\n"
"gap items as (i, j, n) in countable coordinates (the index in pos_a/pos_b of their first\n"
"unit); ``common``: the real items counted; ``real_aligned``: the real items aligned.\n"
"unit_a/unit_b: int32 or int64; pos_a/pos_b: int64, sorted.");

static PyObject *py_counted_runs(PyObject *self, PyObject *args) {
    PyObject *blocks, *o[6];
    Py_ssize_t min_run, whole;
    if (!PyArg_ParseTuple(args, "OOOOOOOnn", &blocks, &o[0], &o[1], &o[2], &o[3], &o[4], &o[5], &min_run, &whole))
        return NULL;
    buf_t sa = {0}, sb = {0}, ua = {0}, ub = {0}, pa_ = {0}, pb_ = {0};
    PyObject *result = NULL, *seq = NULL, *runs = NULL;
    int64_t *pa = NULL, *pb = NULL;
    unsigned char *real = NULL;
    if (get(o[0], &sa, 8, "sel_a") || get(o[1], &sb, 8, "sel_b") || get(o[2], &ua, INT_4_OR_8, "unit_a") ||
        get(o[3], &ub, INT_4_OR_8, "unit_b") || get(o[4], &pa_, 8, "pos_a") || get(o[5], &pb_, 8, "pos_b"))
        goto done;
    seq = PySequence_Fast(blocks, "blocks must be a sequence");
    if (!seq) goto done;
    Py_ssize_t nblocks = PySequence_Fast_GET_SIZE(seq), total = 0;
    PyObject **bl = PySequence_Fast_ITEMS(seq);
    for (Py_ssize_t t = 0; t < nblocks; t++) {
        Py_ssize_t n = PyLong_AsSsize_t(PyTuple_GetItem(bl[t], 2));
        if (n < 0) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "negative block length");
            goto done;
        }
        total += n;
    }
    pa = malloc(((size_t)total + 1) * sizeof(int64_t));
    pb = malloc(((size_t)total + 1) * sizeof(int64_t));
    real = malloc((size_t)total + 1);
    if (!pa || !pb || !real) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t nsa = len_of(&sa), nsb = len_of(&sb), nua = len_of(&ua);
    const int64_t *SA = sa.view.buf, *SB = sb.view.buf;
    Py_ssize_t m = 0, real_aligned = 0;
    for (Py_ssize_t t = 0; t < nblocks; t++) {
        Py_ssize_t i = PyLong_AsSsize_t(PyTuple_GetItem(bl[t], 0));
        Py_ssize_t j = PyLong_AsSsize_t(PyTuple_GetItem(bl[t], 1));
        Py_ssize_t n = PyLong_AsSsize_t(PyTuple_GetItem(bl[t], 2));
        if (PyErr_Occurred()) goto done;
        if (i < 0 || j < 0 || i + n > nsa || j + n > nsb) {
            PyErr_SetString(PyExc_IndexError, "block outside the selections");
            goto done;
        }
        for (Py_ssize_t s = 0; s < n; s++, m++) {
            pa[m] = SA[i + s];
            pb[m] = SB[j + s];
            if (pa[m] < 0 || pa[m] >= nua || pb[m] < 0 || pb[m] >= len_of(&ub)) {
                PyErr_SetString(PyExc_IndexError, "selection outside the items");
                goto done;
            }
            real[m] = at(&ua, pa[m]) >= 0;
            real_aligned += real[m];
        }
    }
    /* runs: consecutive in both; counted by their real items */
    Py_ssize_t common = 0;
    runs = PyList_New(0);
    if (!runs) goto done;
    for (Py_ssize_t s = 0; s < m;) {
        Py_ssize_t e = s + 1, reals = real[s];
        while (e < m && pa[e] == pa[e - 1] + 1 && pb[e] == pb[e - 1] + 1) reals += real[e++];
        if (reals >= min_run || (whole > 0 && reals == whole)) {
            common += reals;
            /* its pieces between gap items (the kept items: the real ones) */
            for (Py_ssize_t t = s; t < e;) {
                if (!real[t]) {
                    t++;
                    continue;
                }
                Py_ssize_t u = t + 1;
                while (u < e && real[u]) u++;
                Py_ssize_t first_a = search(&pa_, at(&ua, pa[t])), first_b = search(&pb_, at(&ub, pb[t]));
                PyObject *piece = Py_BuildValue("(nnn)", first_a, first_b, u - t);
                if (!piece || PyList_Append(runs, piece) < 0) {
                    Py_XDECREF(piece);
                    goto done;
                }
                Py_DECREF(piece);
                t = u;
            }
        }
        s = e;
    }
    if (common == 0) Py_SETREF(runs, PyList_New(0));
    if (runs) result = Py_BuildValue("(Onn)", runs, common, real_aligned);
done:
    free(pa);
    free(pb);
    free(real);
    Py_XDECREF(seq);
    Py_XDECREF(runs);
    release(&sa), release(&sb), release(&ua), release(&ub), release(&pa_), release(&pb_);
    return result;
}

/* Counts of codes, zero between calls (grown as codes grow; entries touched are reset). */
static int32_t *scratch = NULL;
static size_t scratch_len = 0;

PyDoc_STRVAR(real_overlap_doc,
"real_overlap(items_a, unit_a, sel_a, items_b, unit_b, sel_b) -> (overlap, gaps_a, gaps_b)\n\n"
"The multiset overlap (sum over codes of the smaller count) of the real items (unit >= 0) among\n"
"the selected ones of A and of B, and how many selected items are gap items in each.\n"
"items: uint32; unit: int32 or int64; sel: int64.");

static PyObject *py_real_overlap(PyObject *self, PyObject *args) {
    PyObject *o[6];
    if (!PyArg_ParseTuple(args, "OOOOOO", &o[0], &o[1], &o[2], &o[3], &o[4], &o[5])) return NULL;
    buf_t xa = {0}, ua = {0}, sa = {0}, xb = {0}, ub = {0}, sb = {0};
    PyObject *result = NULL;
    if (get(o[0], &xa, 4, "items_a") || get(o[1], &ua, INT_4_OR_8, "unit_a") || get(o[2], &sa, 8, "sel_a") ||
        get(o[3], &xb, 4, "items_b") || get(o[4], &ub, INT_4_OR_8, "unit_b") || get(o[5], &sb, 8, "sel_b"))
        goto done;
    const uint32_t *XA = xa.view.buf, *XB = xb.view.buf;
    const int64_t *SA = sa.view.buf, *SB = sb.view.buf;
    Py_ssize_t nsa = len_of(&sa), nsb = len_of(&sb), na = len_of(&xa), nb = len_of(&xb);
    if (len_of(&ua) != na || len_of(&ub) != nb) {
        PyErr_SetString(PyExc_ValueError, "items and units differ in length");
        goto done;
    }
    uint32_t top = 0;
    for (Py_ssize_t t = 0; t < nsa; t++) {
        if (SA[t] < 0 || SA[t] >= na) {
            PyErr_SetString(PyExc_IndexError, "selection outside the items");
            goto done;
        }
        if (XA[SA[t]] > top) top = XA[SA[t]];
    }
    for (Py_ssize_t t = 0; t < nsb; t++)
        if (SB[t] < 0 || SB[t] >= nb) {
            PyErr_SetString(PyExc_IndexError, "selection outside the items");
            goto done;
        }
    if ((size_t)top + 1 > scratch_len) {
        size_t len = (size_t)top + 1 + 1024;
        int32_t *grown = realloc(scratch, len * sizeof(int32_t));
        if (!grown) {
            PyErr_NoMemory();
            goto done;
        }
        memset(grown + scratch_len, 0, (len - scratch_len) * sizeof(int32_t));
        scratch = grown;
        scratch_len = len;
    }
    Py_ssize_t gaps_a = 0, gaps_b = 0, overlap = 0;
    for (Py_ssize_t t = 0; t < nsa; t++) {
        if (at(&ua, SA[t]) < 0)
            gaps_a++;
        else
            scratch[XA[SA[t]]]++;
    }
    for (Py_ssize_t t = 0; t < nsb; t++) {
        if (at(&ub, SB[t]) < 0) {
            gaps_b++;
        } else {
            uint32_t c = XB[SB[t]];
            if (c <= top && scratch[c] > 0) {
                scratch[c]--;
                overlap++;
            }
        }
    }
    for (Py_ssize_t t = 0; t < nsa; t++) scratch[XA[SA[t]]] = 0;
    result = Py_BuildValue("(nnn)", overlap, gaps_a, gaps_b);
done:
    release(&xa), release(&ua), release(&sa), release(&xb), release(&ub), release(&sb);
    return result;
}


PyDoc_STRVAR(windows_doc,
"windows(items, k, multiplier) -> (hashes, first, inverse, collided)\n\n"
"The k-item windows of items (uint32) hashed as PreparedDocument.windows hashes them (h = h *\n"
"multiplier + item + 1 over the window, modulo 2**64), then what np.unique(h, return_index=True,\n"
"return_inverse=True) gives: the distinct hashes ascending (bytearray of uint64), the first window\n"
"of each (int32), the index of every window's hash (int32); and whether two windows of one hash\n"
"differ. The windows are sorted by hash with a stable radix sort (8 passes of 8 bits), so the\n"
"first window of a hash is its earliest, as numpy's stable sort gives it.");

static PyObject *py_windows(PyObject *self, PyObject *args) {
    PyObject *obj;
    Py_ssize_t k;
    unsigned long long mult;
    if (!PyArg_ParseTuple(args, "OnK", &obj, &k, &mult)) return NULL;
    buf_t xb = {0};
    PyObject *result = NULL, *hashes = NULL, *first = NULL, *inverse = NULL;
    uint64_t *h = NULL, *h2 = NULL;
    int32_t *order = NULL, *order2 = NULL;
    if (get(obj, &xb, 4, "items")) goto done;
    const uint32_t *X = xb.view.buf;
    Py_ssize_t n = len_of(&xb);
    if (k < 1 || n < k || n - k + 1 > INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "windows: at least one window of k >= 1 items, fewer than 2**31");
        goto done;
    }
    Py_ssize_t w = n - k + 1;
    h = malloc((size_t)w * sizeof(uint64_t));
    h2 = malloc((size_t)w * sizeof(uint64_t));
    order = malloc((size_t)w * sizeof(int32_t));
    order2 = malloc((size_t)w * sizeof(int32_t));
    if (!h || !h2 || !order || !order2) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < w; i++) {
        uint64_t v = 0;
        for (Py_ssize_t c = 0; c < k; c++) v = v * (uint64_t)mult + (uint64_t)X[i + c] + 1;
        h[i] = v;
        order[i] = (int32_t)i;
    }
    /* LSD radix sort of (hash, window) by hash: stable, so equal hashes keep window order */
    for (int shift = 0; shift < 64; shift += 8) {
        Py_ssize_t count[257] = {0};
        for (Py_ssize_t i = 0; i < w; i++) count[((h[i] >> shift) & 0xFF) + 1]++;
        if (count[((h[0] >> shift) & 0xFF) + 1] == w) continue; /* one digit everywhere: nothing moves */
        for (int d = 0; d < 256; d++) count[d + 1] += count[d];
        for (Py_ssize_t i = 0; i < w; i++) {
            Py_ssize_t at_ = count[(h[i] >> shift) & 0xFF]++;
            h2[at_] = h[i];
            order2[at_] = order[i];
        }
        uint64_t *th = h; h = h2; h2 = th;
        int32_t *to = order; order = order2; order2 = to;
    }
    Py_ssize_t u = 0;
    for (Py_ssize_t i = 0; i < w; i++)
        if (i == 0 || h[i] != h[i - 1]) u++;
    hashes = PyByteArray_FromStringAndSize(NULL, u * 8);
    first = PyByteArray_FromStringAndSize(NULL, u * 4);
    inverse = PyByteArray_FromStringAndSize(NULL, w * 4);
    if (!hashes || !first || !inverse) goto done;
    uint64_t *H = (uint64_t *)PyByteArray_AS_STRING(hashes);
    int32_t *F = (int32_t *)PyByteArray_AS_STRING(first), *I = (int32_t *)PyByteArray_AS_STRING(inverse);
    int collided = 0;
    Py_ssize_t g = -1;
    for (Py_ssize_t i = 0; i < w; i++) {
        if (i == 0 || h[i] != h[i - 1]) {
            g++;
            H[g] = h[i];
            F[g] = order[i];
        } else if (!collided && memcmp(X + order[i], X + F[g], (size_t)k * sizeof(uint32_t)) != 0) {
            collided = 1;
        }
        I[order[i]] = (int32_t)g;
    }
    result = Py_BuildValue("(OOON)", hashes, first, inverse, PyBool_FromLong(collided));
done:
    free(h), free(h2), free(order), free(order2);
    Py_XDECREF(hashes), Py_XDECREF(first), Py_XDECREF(inverse);
    release(&xb);
    return result;
}

PyDoc_STRVAR(greedy_blocks_doc,
"greedy_blocks(a, b, max_d) -> list of (i, j, n) or None\n\n"
"compare.myers_blocks of two uint32 code arrays, step for step: Myers' greedy diff keeping the\n"
"furthest x of every diagonal for each edit count d, the frontiers walked back from (N, M), the\n"
"blocks merged. None when more than max_d edits are needed (max_d < 0: no limit).");

/* Room for ``need`` items of ``size`` bytes in the growing array ``*v`` of ``*cap`` items (doubled
 * from ``first``); -1 when memory is short (no Python error set). */
static int grow(void **v, Py_ssize_t *cap, Py_ssize_t need, size_t size, Py_ssize_t first) {
    if (need <= *cap) return 0;
    Py_ssize_t c = *cap ? *cap : first;
    while (c < need) c *= 2;
    void *grown = realloc(*v, (size_t)c * size);
    if (!grown) return -1;
    *v = grown;
    *cap = c;
    return 0;
}

/* a growing array of Py_ssize_t */
typedef struct {
    Py_ssize_t *v;
    Py_ssize_t n, cap;
} ivec_t;

static int ivec_push(ivec_t *t, const Py_ssize_t *src, Py_ssize_t count) {
    if (grow((void **)&t->v, &t->cap, t->n + count, sizeof(Py_ssize_t), 64)) return -1;
    memcpy(t->v + t->n, src, (size_t)count * sizeof(Py_ssize_t));
    t->n += count;
    return 0;
}

static PyObject *py_greedy_blocks(PyObject *self, PyObject *args) {
    PyObject *oa, *ob;
    Py_ssize_t max_d;
    if (!PyArg_ParseTuple(args, "OOn", &oa, &ob, &max_d)) return NULL;
    buf_t ba = {0}, bb = {0};
    PyObject *result = NULL;
    Py_ssize_t *v = NULL, *found = NULL;
    ivec_t trace = {0};
    if (get(oa, &ba, 4, "a") || get(ob, &bb, 4, "b")) goto done;
    const uint32_t *A = ba.view.buf, *B = bb.view.buf;
    const Py_ssize_t n = len_of(&ba), m = len_of(&bb);
    if (n == 0 || m == 0) {
        result = PyList_New(0);
        goto done;
    }
    const Py_ssize_t limit = max_d < 0 ? n + m : (max_d < n + m ? max_d : n + m);
    const Py_ssize_t offset = limit + 1;
    v = calloc((size_t)(2 * limit + 3), sizeof(Py_ssize_t));
    if (!v) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t steps = -1; /* the d at which (n, m) was reached */
    for (Py_ssize_t d = 0; d <= limit && steps < 0; d++) {
        if (ivec_push(&trace, v + offset - d - 1, 2 * d + 3)) {
            PyErr_NoMemory();
            goto done;
        }
        for (Py_ssize_t k = -d; k <= d; k += 2) {
            Py_ssize_t x;
            if (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]))
                x = v[offset + k + 1];
            else
                x = v[offset + k - 1] + 1;
            Py_ssize_t y = x - k;
            while (x < n && y >= 0 && y < m && A[x] == B[y]) x++, y++;
            v[offset + k] = x;
            if (x >= n && x - k >= m) {
                steps = d;
                break;
            }
        }
    }
    if (steps < 0) {
        result = Py_None;
        Py_INCREF(result);
        goto done;
    }
    /* walk back: frontier d starts at d*d + 2*d in trace (the frontiers before it hold 2e + 3 each) */
    found = malloc((size_t)(3 * (steps + 1)) * sizeof(Py_ssize_t));
    if (!found) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t nb = 0, x = n, y = m;
    for (Py_ssize_t d = steps; d >= 0; d--) {
        const Py_ssize_t *frontier = trace.v + d * d + 2 * d;
        Py_ssize_t k = x - y, prev_x, prev_y;
        if (d == 0) {
            prev_x = prev_y = 0;
        } else {
            Py_ssize_t prev_k;
            if (k == -d || (k != d && frontier[k + d] < frontier[k + d + 2]))
                prev_k = k + 1;
            else
                prev_k = k - 1;
            prev_x = frontier[prev_k + d + 1];
            prev_y = prev_x - prev_k;
        }
        Py_ssize_t run = x - prev_x < y - prev_y ? x - prev_x : y - prev_y;
        if (run > 0) {
            found[3 * nb] = x - run, found[3 * nb + 1] = y - run, found[3 * nb + 2] = run;
            nb++;
        }
        x = prev_x, y = prev_y;
    }
    /* in order, adjacent blocks merged (compare._merge_blocks) */
    result = PyList_New(0);
    if (!result) goto done;
    Py_ssize_t ci = 0, cj = 0, cn = -1;
    for (Py_ssize_t t = nb - 1; t >= -1; t--) {
        if (t >= 0 && cn >= 0 && ci + cn == found[3 * t] && cj + cn == found[3 * t + 1]) {
            cn += found[3 * t + 2];
            continue;
        }
        if (cn >= 0) {
            PyObject *block = Py_BuildValue("(nnn)", ci, cj, cn);
            if (!block || PyList_Append(result, block)) {
                Py_XDECREF(block);
                Py_CLEAR(result);
                goto done;
            }
            Py_DECREF(block);
        }
        if (t >= 0) ci = found[3 * t], cj = found[3 * t + 1], cn = found[3 * t + 2];
    }
done:
    free(v), free(found), free(trace.v);
    release(&ba), release(&bb);
    return result;
}

PyDoc_STRVAR(posting_counts_doc,
"posting_counts(hashes, doc_ids, keys) -> (ids, counts)\n\n"
"candidates.AnchorPostings.counts: for the distinct keys (uint64, compared as int64), the documents\n"
"of the postings (hashes: int64 ascending, doc_ids: int64 non-negative, one per posting) holding\n"
"any of them, ascending, and how many of the keys each holds (bytearrays of int64).");

static int64_t *doc_counts = NULL; /* per document id, zero between calls */
static size_t doc_counts_len = 0;

static int cmp_int64(const void *x, const void *y) {
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

/* doc_counts[d] += 1, d listed in ``touched`` the first time (the caller zeroes the counts of
   ``touched`` again, whatever happens); -1 when out of memory (the error set) */
static int count_once_more(int64_t d, int64_t **touched, Py_ssize_t *nt, Py_ssize_t *cap) {
    if ((size_t)d >= doc_counts_len) {
        size_t len = (size_t)d + 1 + 4096;
        int64_t *grown = realloc(doc_counts, len * sizeof(int64_t));
        if (!grown) {
            PyErr_NoMemory();
            return -1;
        }
        memset(grown + doc_counts_len, 0, (len - doc_counts_len) * sizeof(int64_t));
        doc_counts = grown;
        doc_counts_len = len;
    }
    if (doc_counts[d]++ == 0) {
        if (*nt == *cap) {
            *cap = *cap ? 2 * *cap : 256;
            int64_t *grown = realloc(*touched, (size_t)*cap * sizeof(int64_t));
            if (!grown) {
                PyErr_NoMemory();
                return -1;
            }
            *touched = grown;
        }
        (*touched)[(*nt)++] = d;
    }
    return 0;
}

static PyObject *py_posting_counts(PyObject *self, PyObject *args) {
    PyObject *oh, *od, *ok;
    if (!PyArg_ParseTuple(args, "OOO", &oh, &od, &ok)) return NULL;
    buf_t bh = {0}, bd = {0}, bk = {0};
    PyObject *result = NULL, *ids = NULL, *counts = NULL;
    int64_t *keys = NULL, *touched = NULL;
    Py_ssize_t nt = 0;
    if (get(oh, &bh, 8, "hashes") || get(od, &bd, 8, "doc_ids") || get(ok, &bk, 8, "keys")) goto done;
    const int64_t *H = bh.view.buf, *D = bd.view.buf;
    const Py_ssize_t nh = len_of(&bh), nk = len_of(&bk);
    if (len_of(&bd) != nh) {
        PyErr_SetString(PyExc_ValueError, "hashes and doc_ids differ in length");
        goto done;
    }
    keys = malloc((size_t)(nk ? nk : 1) * sizeof(int64_t));
    if (!keys) {
        PyErr_NoMemory();
        goto done;
    }
    memcpy(keys, bk.view.buf, (size_t)nk * sizeof(int64_t));
    qsort(keys, (size_t)nk, sizeof(int64_t), cmp_int64);
    Py_ssize_t cap = 0;
    for (Py_ssize_t t = 0; t < nk; t++) {
        if (t > 0 && keys[t] == keys[t - 1]) continue; /* each distinct key once */
        Py_ssize_t lo = 0, hi = nh; /* first posting >= key */
        while (lo < hi) {
            Py_ssize_t mid = lo + (hi - lo) / 2;
            if (H[mid] < keys[t]) lo = mid + 1; else hi = mid;
        }
        for (Py_ssize_t p = lo; p < nh && H[p] == keys[t]; p++) {
            int64_t d = D[p];
            if (d < 0) {
                PyErr_SetString(PyExc_ValueError, "a negative document id");
                goto done;
            }
            if (count_once_more(d, &touched, &nt, &cap)) goto done;
        }
    }
    if (nt > 256 && (size_t)nt * 16 > doc_counts_len) {
        /* many documents (a licence's anchors, held by thousands): in id order by one scan of the
           counts, not a sort (16,000 of 54,000 at 50,000 generated documents: 1 ms -> 0.1 ms) */
        Py_ssize_t k = 0;
        for (size_t d = 0; d < doc_counts_len && k < nt; d++)
            if (doc_counts[d]) touched[k++] = (int64_t)d;
    } else {
        qsort(touched, (size_t)nt, sizeof(int64_t), cmp_int64);
    }
    ids = PyByteArray_FromStringAndSize(NULL, nt * 8);
    counts = PyByteArray_FromStringAndSize(NULL, nt * 8);
    if (!ids || !counts) goto done;
    int64_t *I = (int64_t *)PyByteArray_AS_STRING(ids), *C = (int64_t *)PyByteArray_AS_STRING(counts);
    for (Py_ssize_t t = 0; t < nt; t++) I[t] = touched[t], C[t] = doc_counts[touched[t]];
    result = Py_BuildValue("(OO)", ids, counts);
done:
    for (Py_ssize_t t = 0; t < nt; t++) doc_counts[touched[t]] = 0; /* (zero again, whatever happened) */
    free(keys), free(touched);
    Py_XDECREF(ids), Py_XDECREF(counts);
    release(&bh), release(&bd), release(&bk);
    return result;
}

PyDoc_STRVAR(group_hits_doc,
"group_hits(postings, offsets, keys, need, rows) -> rows\n\n"
"search.grouped.GroupedSearch._candidate_rows: the rows (postings: int32 or int64, each below\n"
"``rows``, listed per key y between offsets[y] and offsets[y + 1], int64) found under at least\n"
"``need`` of ``keys`` (int64; a key listed twice counts twice), ascending (a bytearray of int64).");

static PyObject *py_group_hits(PyObject *self, PyObject *args) {
    PyObject *op, *oo, *ok;
    Py_ssize_t need, nrows;
    if (!PyArg_ParseTuple(args, "OOOnn", &op, &oo, &ok, &need, &nrows)) return NULL;
    buf_t bp = {0}, bo = {0}, bk = {0};
    PyObject *result = NULL;
    int64_t *touched = NULL, *kept = NULL;
    Py_ssize_t nt = 0, cap = 0, nkept = 0;
    if (get(op, &bp, INT_4_OR_8, "postings") || get(oo, &bo, 8, "offsets") || get(ok, &bk, 8, "keys")) goto done;
    const int64_t *O = bo.view.buf, *K = bk.view.buf;
    const Py_ssize_t np_ = len_of(&bp), no = len_of(&bo), nk = len_of(&bk);
    if (need < 1) need = 1;
    for (Py_ssize_t t = 0; t < nk; t++) {
        int64_t y = K[t];
        if (y < 0 || y + 1 >= no) {
            PyErr_SetString(PyExc_ValueError, "a key outside the offsets");
            goto done;
        }
        int64_t lo = O[y], hi = O[y + 1];
        if (lo < 0 || hi > np_ || lo > hi) {
            PyErr_SetString(PyExc_ValueError, "offsets outside the postings");
            goto done;
        }
        for (int64_t p = lo; p < hi; p++) {
            int64_t r = at(&bp, p);
            if (r < 0 || r >= nrows) { /* (a damaged stored table: never a huge counter array) */
                PyErr_SetString(PyExc_ValueError, "group_hits: a row outside the table");
                goto done;
            }
            if (count_once_more(r, &touched, &nt, &cap)) goto done;
        }
    }
    kept = malloc((size_t)(nt ? nt : 1) * sizeof(int64_t));
    if (!kept) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t t = 0; t < nt; t++)
        if (doc_counts[touched[t]] >= need) kept[nkept++] = touched[t];
    qsort(kept, (size_t)nkept, sizeof(int64_t), cmp_int64);
    result = PyByteArray_FromStringAndSize((const char *)kept, nkept * 8);
done:
    for (Py_ssize_t t = 0; t < nt; t++) doc_counts[touched[t]] = 0; /* (zero again, whatever happened) */
    free(touched), free(kept);
    release(&bp), release(&bo), release(&bk);
    return result;
}

PyDoc_STRVAR(table_hits_doc,
"table_hits(keys, offsets, order, queries) -> rows\n\n"
"search.permuted.PermutedSearch._candidate_rows: table t's keys (uint64, ascending) lie between\n"
"offsets[t] and offsets[t + 1] (int64) of ``keys``, ``order`` (int64) gives each key's row; the\n"
"distinct rows whose key in table t equals queries[t] (uint64, one per table), ascending (a\n"
"bytearray of int64).");

static PyObject *py_table_hits(PyObject *self, PyObject *args) {
    PyObject *ok, *oo, *or_, *oq;
    if (!PyArg_ParseTuple(args, "OOOO", &ok, &oo, &or_, &oq)) return NULL;
    buf_t bk = {0}, bo = {0}, br = {0}, bq = {0};
    PyObject *result = NULL;
    int64_t *rows = NULL;
    Py_ssize_t n = 0, cap = 0;
    if (get(ok, &bk, 8, "keys") || get(oo, &bo, 8, "offsets") || get(or_, &br, 8, "order") ||
        get(oq, &bq, 8, "queries")) goto done;
    const uint64_t *K = bk.view.buf, *Q = bq.view.buf;
    const int64_t *O = bo.view.buf, *R = br.view.buf;
    const Py_ssize_t nk = len_of(&bk), nq = len_of(&bq);
    if (len_of(&br) != nk || len_of(&bo) != nq + 1) {
        PyErr_SetString(PyExc_ValueError, "table_hits: keys, offsets, order and queries disagree");
        goto done;
    }
    for (Py_ssize_t t = 0; t < nq; t++) {
        int64_t lo = O[t], end = O[t + 1];
        if (lo < 0 || end > nk || lo > end) {
            PyErr_SetString(PyExc_ValueError, "table_hits: offsets outside the keys");
            goto done;
        }
        int64_t hi = end;
        while (lo < hi) { /* first key >= the query */
            int64_t mid = lo + (hi - lo) / 2;
            if (K[mid] < Q[t]) lo = mid + 1; else hi = mid;
        }
        for (int64_t p = lo; p < end && K[p] == Q[t]; p++) {
            if (n == cap) {
                cap = cap ? 2 * cap : 64;
                int64_t *grown = realloc(rows, (size_t)cap * sizeof(int64_t));
                if (!grown) {
                    PyErr_NoMemory();
                    goto done;
                }
                rows = grown;
            }
            rows[n++] = R[p];
        }
    }
    if (n) qsort(rows, (size_t)n, sizeof(int64_t), cmp_int64);
    Py_ssize_t m = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (m == 0 || rows[i] != rows[m - 1]) rows[m++] = rows[i];
    result = PyByteArray_FromStringAndSize((const char *)rows, m * 8);
done:
    free(rows);
    release(&bk), release(&bo), release(&br), release(&bq);
    return result;
}

PyDoc_STRVAR(near_rows_doc,
"near_rows(rows, candidates, fp, radius, ids) -> (ids, distances)\n\n"
"search.base.HammingBase.query, its exact check: of the ``candidates`` (int64 row numbers) of\n"
"``rows`` (uint64, ``len(fp)`` words a row), those within Hamming distance ``radius`` of ``fp``:\n"
"their ``ids`` (int64, one per row) and distances, by distance, then id (bytearrays of int64).");

typedef struct {
    int64_t dist, id;
} near_t;

static int cmp_near(const void *x, const void *y) {
    const near_t *a = x, *b = y;
    if (a->dist != b->dist) return (a->dist > b->dist) - (a->dist < b->dist);
    return (a->id > b->id) - (a->id < b->id);
}

static PyObject *py_near_rows(PyObject *self, PyObject *args) {
    PyObject *orows, *oc, *of, *oi;
    Py_ssize_t radius;
    if (!PyArg_ParseTuple(args, "OOOnO", &orows, &oc, &of, &radius, &oi)) return NULL;
    buf_t brw = {0}, bc = {0}, bf = {0}, bi = {0};
    PyObject *result = NULL, *ids = NULL, *dists = NULL;
    near_t *hits = NULL;
    Py_ssize_t n = 0;
    if (get(orows, &brw, 8, "rows") || get(oc, &bc, 8, "candidates") || get(of, &bf, 8, "fp") ||
        get(oi, &bi, 8, "ids")) goto done;
    const uint64_t *W = brw.view.buf, *F = bf.view.buf;
    const int64_t *C = bc.view.buf, *I = bi.view.buf;
    const Py_ssize_t width = len_of(&bf), nc = len_of(&bc), nrows = len_of(&bi);
    if (width < 1 || len_of(&brw) != nrows * width) {
        PyErr_SetString(PyExc_ValueError, "near_rows: rows, fp and ids disagree");
        goto done;
    }
    hits = malloc((size_t)(nc ? nc : 1) * sizeof(near_t));
    if (!hits) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t c = 0; c < nc; c++) {
        int64_t r = C[c];
        if (r < 0 || r >= nrows) {
            PyErr_SetString(PyExc_ValueError, "near_rows: a candidate outside the rows");
            goto done;
        }
        int64_t d = 0;
        const uint64_t *row = W + (size_t)r * (size_t)width;
        for (Py_ssize_t w = 0; w < width; w++) d += __builtin_popcountll(row[w] ^ F[w]);
        if (d <= radius) hits[n].dist = d, hits[n].id = I[r], n++;
    }
    qsort(hits, (size_t)n, sizeof(near_t), cmp_near);
    ids = PyByteArray_FromStringAndSize(NULL, n * 8);
    dists = PyByteArray_FromStringAndSize(NULL, n * 8);
    if (!ids || !dists) goto done;
    int64_t *OI = (int64_t *)PyByteArray_AS_STRING(ids), *OD = (int64_t *)PyByteArray_AS_STRING(dists);
    for (Py_ssize_t t = 0; t < n; t++) OI[t] = hits[t].id, OD[t] = hits[t].dist;
    result = Py_BuildValue("(OO)", ids, dists);
done:
    free(hits);
    Py_XDECREF(ids), Py_XDECREF(dists);
    release(&brw), release(&bc), release(&bf), release(&bi);
    return result;
}

/* ------------------------------------------------------------- passages: chains of seeds */

PyDoc_STRVAR(chained_passages_doc,
"chained_passages(runs, codes_a, codes_b, jumps_a, jumps_b, align, cjk_a, cjk_b, short_run,\n"
"                 word_weight, max_hole, window, min_density, min_anchor_share, gap_share,\n"
"                 word_pairs) -> list of (start_a, end_a, start_b, end_b, seeds)\n\n"
"passages._chained_passages in Python, step for step: the anchors chained across small edits with the\n"
"seeds of local alignments (``align(x, y)``, called on slices of the code arrays), the chains\n"
"joined across small gaps and tested for density. ``jumps_*`` and ``cjk_*`` are bool arrays\n"
"(``cjk_*`` may be None). The anchors of the result are the objects of ``runs``.");

/* A chain's item: an exact run (``src``: its index in the caller's sequence, or -1 for a seed
 * found here). */
typedef struct {
    int64_t i, j, n;
    Py_ssize_t src;
} item_t;

typedef struct {
    item_t *v;
    Py_ssize_t n, cap;
} chain_t;

static int chain_reserve(chain_t *c, Py_ssize_t more) {
    if (grow((void **)&c->v, &c->cap, c->n + more, sizeof(item_t), 8)) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static int chain_extend(chain_t *c, const item_t *src, Py_ssize_t count) {
    if (count <= 0) return 0;
    if (chain_reserve(c, count)) return -1;
    memcpy(c->v + c->n, src, (size_t)count * sizeof(item_t));
    c->n += count;
    return 0;
}

static int chain_push(chain_t *c, item_t it) { return chain_extend(c, &it, 1); }

/* ``src`` at the front of ``c`` */
static int chain_prepend(chain_t *c, const item_t *src, Py_ssize_t count) {
    if (count <= 0) return 0;
    if (chain_reserve(c, count)) return -1;
    memmove(c->v + count, c->v, (size_t)c->n * sizeof(item_t));
    memcpy(c->v, src, (size_t)count * sizeof(item_t));
    c->n += count;
    return 0;
}

static void chain_free(chain_t *c) {
    free(c->v);
    c->v = NULL;
    c->n = c->cap = 0;
}

typedef struct {
    PyObject *codes_a, *codes_b, *align;
    const item_t *runs; /* the anchors, sorted as tuples are */
    Py_ssize_t nruns;
    int64_t na, nb;
    int64_t *cut_a, *cut_b; /* countable units after which removed text lies */
    Py_ssize_t ncut_a, ncut_b;
    double *cum;            /* seed weights as prefix sums over A, or NULL */
    int64_t *csa, *csb;     /* CJK counts as prefix sums, or NULL */
    int64_t min_units, sure_units, s, w, h, max_region;
    double min_density, min_anchor_share, gap_share;
} ctx_t;

static Py_ssize_t lower_bound(const int64_t *v, Py_ssize_t n, int64_t x) {
    Py_ssize_t lo = 0, hi = n;
    while (lo < hi) {
        Py_ssize_t mid = lo + (hi - lo) / 2;
        if (v[mid] < x) lo = mid + 1; else hi = mid;
    }
    return lo;
}

/* largest end <= limit such that [pos, end) crosses no removed text */
static int64_t free_after(const int64_t *cuts, Py_ssize_t n, int64_t pos, int64_t limit) {
    Py_ssize_t k = lower_bound(cuts, n, pos - 1);
    return k < n ? (cuts[k] + 1 < limit ? cuts[k] + 1 : limit) : limit;
}

/* smallest start >= limit such that [start, pos) crosses no removed text */
static int64_t free_before(const int64_t *cuts, Py_ssize_t n, int64_t pos, int64_t limit) {
    Py_ssize_t k = lower_bound(cuts, n, pos) - 1;
    return k >= 0 ? (cuts[k] + 1 > limit ? cuts[k] + 1 : limit) : limit;
}

/* removed text anywhere between unit end - 1 and unit start */
static int crosses(const int64_t *cuts, Py_ssize_t n, int64_t end, int64_t start) {
    Py_ssize_t k = lower_bound(cuts, n, end - 1);
    return k < n && cuts[k] <= start - 1;
}

static int in_range(const ctx_t *c, int64_t a0, int64_t a1, int64_t b0, int64_t b1) {
    if (a0 < 0 || a1 > c->na || b0 < 0 || b1 > c->nb) {
        PyErr_SetString(PyExc_IndexError, "chained_passages: a region outside the texts");
        return 0;
    }
    return 1;
}

/* CJK on one side and words on the other: 1; not: 0; an error: -1 */
static int translated(const ctx_t *c, int64_t a0, int64_t a1, int64_t b0, int64_t b1) {
    if (!c->csa || !c->csb || a1 - a0 < 3 || b1 - b0 < 3) return 0;
    if (!in_range(c, a0, a1, b0, b1)) return -1;
    double share_a = (double)(c->csa[a1] - c->csa[a0]) / (double)(a1 - a0);
    double share_b = (double)(c->csb[b1] - c->csb[b0]) / (double)(b1 - b0);
    return (share_a >= 0.75 && share_b <= 0.25) || (share_b >= 0.75 && share_a <= 0.25);
}

static int64_t block_field(PyObject *block, Py_ssize_t k) {
    PyObject *v = PySequence_GetItem(block, k);
    if (!v) return -1;
    int64_t x = PyLong_AsLongLong(v);
    Py_DECREF(v);
    return x;
}

/* The seeds of the local alignment of A[a0:a1] and B[b0:b1], appended to ``out`` */
static int seeds_between(const ctx_t *c, int64_t a0, int64_t a1, int64_t b0, int64_t b1, chain_t *out) {
    if (a1 - a0 < c->min_units || b1 - b0 < c->min_units) return 0;
    if (!in_range(c, a0, a1, b0, b1)) return -1;
    PyObject *x = PySequence_GetSlice(c->codes_a, (Py_ssize_t)a0, (Py_ssize_t)a1);
    PyObject *y = x ? PySequence_GetSlice(c->codes_b, (Py_ssize_t)b0, (Py_ssize_t)b1) : NULL;
    PyObject *blocks = y ? PyObject_CallFunctionObjArgs(c->align, x, y, NULL) : NULL;
    Py_XDECREF(x);
    Py_XDECREF(y);
    PyObject *seq = blocks ? PySequence_Fast(blocks, "align: a sequence of blocks expected") : NULL;
    Py_XDECREF(blocks);
    if (!seq) return -1;
    int rc = 0;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    for (Py_ssize_t t = 0; t < count && rc == 0; t++) {
        PyObject *block = PySequence_Fast_GET_ITEM(seq, t);
        int64_t i = block_field(block, 0), j = block_field(block, 1), n = block_field(block, 2);
        if (PyErr_Occurred()) {
            rc = -1;
            break;
        }
        int keep;
        if (!c->cum) {
            keep = n >= c->min_units;
        } else {
            if (n >= c->min_units && (a0 + i < 0 || a0 + i + n > c->na)) {
                PyErr_SetString(PyExc_IndexError, "chained_passages: a block outside its region");
                rc = -1;
                break;
            }
            keep = n >= c->sure_units ||
                   (n >= c->min_units && c->cum[a0 + i + n] - c->cum[a0 + i] >= (double)c->s - 1e-9);
        }
        if (keep) rc = chain_push(out, (item_t){a0 + i, b0 + j, n, -1});
    }
    Py_DECREF(seq);
    return rc;
}

/* seeds chained forward from (ea, eb), appended to ``out`` */
static int chain_forward(const ctx_t *c, const chain_t *seeds, int64_t ea, int64_t eb, chain_t *out) {
    for (Py_ssize_t t = 0; t < seeds->n; t++) {
        const item_t *r = &seeds->v[t];
        if (r->i < ea || r->j < eb) continue;
        if (r->i - ea > c->h || r->j - eb > c->h) break;
        int tr = translated(c, ea, r->i, eb, r->j);
        if (tr < 0) return -1;
        if (tr) break;
        if (chain_push(out, *r)) return -1;
        ea = r->i + r->n, eb = r->j + r->n;
    }
    return 0;
}

/* seeds chained backward from (sa, sb), in order, appended to ``out`` */
static int chain_backward(const ctx_t *c, const chain_t *seeds, int64_t sa, int64_t sb, chain_t *out) {
    Py_ssize_t first = out->n;
    for (Py_ssize_t t = seeds->n - 1; t >= 0; t--) {
        const item_t *r = &seeds->v[t];
        if (r->i + r->n > sa || r->j + r->n > sb) continue;
        if (sa - (r->i + r->n) > c->h || sb - (r->j + r->n) > c->h) break;
        int tr = translated(c, r->i + r->n, sa, r->j + r->n, sb);
        if (tr < 0) return -1;
        if (tr) break;
        if (chain_push(out, *r)) return -1;
        sa = r->i, sb = r->j;
    }
    for (Py_ssize_t lo = first, hi = out->n - 1; lo < hi; lo++, hi--) {
        item_t t = out->v[lo];
        out->v[lo] = out->v[hi];
        out->v[hi] = t;
    }
    return 0;
}

/* seeds chained from (ea, eb) towards (lim_a, lim_b), a window at a time, appended to ``out`` */
static int extend_forward(const ctx_t *c, int64_t ea, int64_t eb, int64_t lim_a, int64_t lim_b, chain_t *out) {
    chain_t seeds = {0}, more = {0};
    int rc = 0;
    for (;;) {
        int64_t wa = lim_a < ea + c->w ? lim_a : ea + c->w, wb = lim_b < eb + c->w ? lim_b : eb + c->w;
        seeds.n = more.n = 0;
        if ((rc = seeds_between(c, ea, wa, eb, wb, &seeds)) || (rc = chain_forward(c, &seeds, ea, eb, &more))) break;
        if (!more.n) break;
        if ((rc = chain_extend(out, more.v, more.n))) break;
        const item_t *last = &more.v[more.n - 1];
        ea = last->i + last->n, eb = last->j + last->n;
        if ((wa == lim_a && wb == lim_b) || (wa - ea > c->h && wb - eb > c->h)) break;
    }
    chain_free(&seeds), chain_free(&more);
    return rc;
}

/* seeds chained from (sa, sb) back towards (lim_a, lim_b), a window at a time, in order,
 * appended to ``out`` */
static int extend_backward(const ctx_t *c, int64_t sa, int64_t sb, int64_t lim_a, int64_t lim_b, chain_t *out) {
    chain_t seeds = {0}, more = {0}, taken = {0};
    int rc = 0;
    for (;;) {
        int64_t wa = lim_a > sa - c->w ? lim_a : sa - c->w, wb = lim_b > sb - c->w ? lim_b : sb - c->w;
        seeds.n = more.n = 0;
        if ((rc = seeds_between(c, wa, sa, wb, sb, &seeds)) || (rc = chain_backward(c, &seeds, sa, sb, &more))) break;
        if (!more.n) break;
        if ((rc = chain_prepend(&taken, more.v, more.n))) break;
        sa = more.v[0].i, sb = more.v[0].j;
        if ((wa == lim_a && wb == lim_b) || (sa - wa > c->h && sb - wb > c->h)) break;
    }
    if (!rc) rc = chain_extend(out, taken.v, taken.n);
    chain_free(&seeds), chain_free(&more), chain_free(&taken);
    return rc;
}

static int item_cmp(const item_t *x, const item_t *y) {
    if (x->i != y->i) return x->i < y->i ? -1 : 1;
    if (x->j != y->j) return x->j < y->j ? -1 : 1;
    if (x->n != y->n) return x->n < y->n ? -1 : 1;
    return 0;
}

static int item_qsort_cmp(const void *x, const void *y) {
    int r = item_cmp(x, y);
    if (r) return r;
    Py_ssize_t a = ((const item_t *)x)->src, b = ((const item_t *)y)->src;
    return (a > b) - (a < b); /* equal runs keep their order, as sorted() does */
}

/* whether the item equals an anchor (``r in anchor_set``) */
static int is_anchor(const ctx_t *c, const item_t *r) {
    Py_ssize_t lo = 0, hi = c->nruns;
    while (lo < hi) {
        Py_ssize_t mid = lo + (hi - lo) / 2;
        if (item_cmp(&c->runs[mid], r) < 0) lo = mid + 1; else hi = mid;
    }
    return lo < c->nruns && item_cmp(&c->runs[lo], r) == 0;
}

static void sums_of(const ctx_t *c, const chain_t *g, int64_t *matched, int64_t *anchored) {
    int64_t m = 0, a = 0;
    for (Py_ssize_t t = 0; t < g->n; t++) {
        m += g->v[t].n;
        if (is_anchor(c, &g->v[t])) a += g->v[t].n;
    }
    *matched = m, *anchored = a;
}

static int dense(const ctx_t *c, const item_t *first, const item_t *last, int64_t matched, int64_t anchored) {
    int64_t la = last->i + last->n - first->i, lb = last->j + last->n - first->j;
    double length = (double)(la > lb ? la : lb);
    return (double)matched >= c->min_density * length && (double)anchored >= c->min_anchor_share * length;
}

static PyObject *item_object(const item_t *r, PyObject *runs_seq) {
    if (r->src >= 0) {
        PyObject *o = PySequence_Fast_GET_ITEM(runs_seq, r->src);
        Py_INCREF(o);
        return o;
    }
    return Py_BuildValue("(LLL)", (long long)r->i, (long long)r->j, (long long)r->n);
}

/* (start_a, end_a, start_b, end_b, seeds) of items v[0..n) appended to ``out`` */
static int emit(PyObject *out, const item_t *v, Py_ssize_t n, PyObject *runs_seq) {
    PyObject *seeds = PyTuple_New(n);
    if (!seeds) return -1;
    for (Py_ssize_t t = 0; t < n; t++) {
        PyObject *o = item_object(&v[t], runs_seq);
        if (!o) {
            Py_DECREF(seeds);
            return -1;
        }
        PyTuple_SET_ITEM(seeds, t, o);
    }
    const item_t *f = &v[0], *l = &v[n - 1];
    PyObject *p = Py_BuildValue("(LLLLN)", (long long)f->i, (long long)(l->i + l->n), (long long)f->j,
                                (long long)(l->j + l->n), seeds);
    if (!p) return -1;
    int rc = PyList_Append(out, p);
    Py_DECREF(p);
    return rc;
}

/* a bool array's items, or NULL for None; ``len`` set */
static int bools(PyObject *obj, buf_t *b, const unsigned char **v, Py_ssize_t *len, const char *what) {
    *v = NULL, *len = 0;
    if (obj == Py_None) return 0;
    if (get(obj, b, 1, what)) return -1;
    *v = b->view.buf, *len = len_of(b);
    return 0;
}

static int cuts_of(const unsigned char *jumps, Py_ssize_t n, int64_t **cuts, Py_ssize_t *ncut) {
    Py_ssize_t k = 0;
    for (Py_ssize_t t = 0; t < n; t++) k += jumps[t] != 0;
    *cuts = malloc((size_t)(k ? k : 1) * sizeof(int64_t));
    if (!*cuts) {
        PyErr_NoMemory();
        return -1;
    }
    k = 0;
    for (Py_ssize_t t = 0; t < n; t++)
        if (jumps[t]) (*cuts)[k++] = t;
    *ncut = k;
    return 0;
}

static PyObject *py_chained_passages(PyObject *self, PyObject *args) {
    PyObject *runs_obj, *codes_a, *codes_b, *jumps_a_obj, *jumps_b_obj, *align, *cjk_a_obj, *cjk_b_obj;
    long long short_run, max_hole, window;
    double word_weight, min_density, min_anchor_share, gap_share;
    int word_pairs;
    if (!PyArg_ParseTuple(args, "OOOOOOOOLdLLdddp", &runs_obj, &codes_a, &codes_b, &jumps_a_obj, &jumps_b_obj,
                          &align, &cjk_a_obj, &cjk_b_obj, &short_run, &word_weight, &max_hole, &window,
                          &min_density, &min_anchor_share, &gap_share, &word_pairs))
        return NULL;
    PyObject *result = NULL, *runs_seq = NULL;
    buf_t bja = {0}, bjb = {0}, bca = {0}, bcb = {0};
    item_t *runs = NULL;
    unsigned char *joins = NULL, *quick = NULL, *opened = NULL;
    chain_t *groups = NULL;
    int64_t *sums = NULL;
    Py_ssize_t ngroups = 0;
    ctx_t c = {0};
    chain_t tmp = {0}, seeds = {0}, fwd = {0};

    runs_seq = PySequence_Fast(runs_obj, "runs: a sequence expected");
    if (!runs_seq) goto done;
    const Py_ssize_t nruns = PySequence_Fast_GET_SIZE(runs_seq);
    result = PyList_New(0);
    if (!result || nruns == 0) goto done;
    const unsigned char *ja, *jb, *cjk_a, *cjk_b;
    Py_ssize_t nja, njb, ncja, ncjb;
    if (bools(jumps_a_obj, &bja, &ja, &nja, "jumps_a") || bools(jumps_b_obj, &bjb, &jb, &njb, "jumps_b") ||
        bools(cjk_a_obj, &bca, &cjk_a, &ncja, "cjk_a") || bools(cjk_b_obj, &bcb, &cjk_b, &ncjb, "cjk_b"))
        goto fail;
    c.na = PyObject_Length(codes_a);
    c.nb = PyObject_Length(codes_b);
    if (c.na < 0 || c.nb < 0) goto fail;
    if ((cjk_a && ncja != c.na) || (cjk_b && ncjb != c.nb) || jumps_a_obj == Py_None || jumps_b_obj == Py_None) {
        PyErr_SetString(PyExc_ValueError, "chained_passages: a mask whose length is not its text's");
        goto fail;
    }
    runs = malloc((size_t)nruns * sizeof(item_t));
    if (!runs) {
        PyErr_NoMemory();
        goto fail;
    }
    for (Py_ssize_t t = 0; t < nruns; t++) {
        PyObject *r = PySequence_Fast_GET_ITEM(runs_seq, t);
        runs[t] = (item_t){block_field(r, 0), block_field(r, 1), block_field(r, 2), t};
        if (PyErr_Occurred()) goto fail;
    }
    qsort(runs, (size_t)nruns, sizeof(item_t), item_qsort_cmp);
    c.codes_a = codes_a, c.codes_b = codes_b, c.align = align, c.runs = runs, c.nruns = nruns;
    c.s = c.sure_units = short_run, c.w = window, c.h = max_hole, c.max_region = 2 * window;
    c.min_density = min_density, c.min_anchor_share = min_anchor_share, c.gap_share = gap_share;

    /* seed weights, as _chained_passages sets them */
    int has_a = 0, only_a = 1, has_b = 0, only_b = 1;
    for (Py_ssize_t t = 0; cjk_a && t < ncja; t++) cjk_a[t] ? (has_a = 1) : (only_a = 0);
    for (Py_ssize_t t = 0; cjk_b && t < ncjb; t++) cjk_b[t] ? (has_b = 1) : (only_b = 0);
    if (!word_pairs || !cjk_a || only_a) {
        c.min_units = short_run;
    } else {
        double m = ceil((double)short_run / (has_a ? (word_weight > 1.0 ? word_weight : 1.0) : word_weight) - 1e-9);
        c.min_units = m > 1 ? (int64_t)m : 1;
        if (has_a) {
            c.cum = malloc((size_t)(c.na + 1) * sizeof(double));
            if (!c.cum) {
                PyErr_NoMemory();
                goto fail;
            }
            c.cum[0] = 0.0;
            for (Py_ssize_t t = 0; t < c.na; t++) c.cum[t + 1] = c.cum[t] + (cjk_a[t] ? 1.0 : word_weight);
        }
    }
    if (cjk_a && cjk_b && ((has_a && !only_b) || (has_b && !only_a))) {
        c.csa = malloc((size_t)(c.na + 1) * sizeof(int64_t));
        c.csb = malloc((size_t)(c.nb + 1) * sizeof(int64_t));
        if (!c.csa || !c.csb) {
            PyErr_NoMemory();
            goto fail;
        }
        c.csa[0] = c.csb[0] = 0;
        for (Py_ssize_t t = 0; t < c.na; t++) c.csa[t + 1] = c.csa[t] + (cjk_a[t] != 0);
        for (Py_ssize_t t = 0; t < c.nb; t++) c.csb[t + 1] = c.csb[t] + (cjk_b[t] != 0);
    }
    if (cuts_of(ja, nja, &c.cut_a, &c.ncut_a) || cuts_of(jb, njb, &c.cut_b, &c.ncut_b)) goto fail;
    const int64_t *CA = c.cut_a, *CB = c.cut_b;
    const Py_ssize_t NA = c.ncut_a, NB = c.ncut_b;
    const int64_t h = c.h;

    /* groups: at most one per anchor */
    groups = calloc((size_t)nruns, sizeof(chain_t));
    if (!groups) {
        PyErr_NoMemory();
        goto fail;
    }
    /* the left edge of the first anchor */
    const item_t *first = &runs[0];
    ngroups = 1;
    if (extend_backward(&c, first->i, first->j, free_before(CA, NA, first->i, 0), free_before(CB, NB, first->j, 0),
                        &groups[0]) ||
        chain_push(&groups[0], *first))
        goto fail;
    Py_ssize_t placed = 0;
    if (nruns > 1) {
        joins = malloc((size_t)nruns), quick = malloc((size_t)nruns), opened = malloc((size_t)nruns);
        if (!joins || !quick || !opened) {
            PyErr_NoMemory();
            goto fail;
        }
        for (Py_ssize_t k = 0; k + 1 < nruns; k++) {
            const item_t *p = &runs[k], *q = &runs[k + 1];
            int64_t end_a = p->i + p->n, end_b = p->j + p->n, gap_a = q->i - end_a, gap_b = q->j - end_b;
            opened[k] = !crosses(CA, NA, end_a, q->i) && !crosses(CB, NB, end_b, q->j);
            quick[k] = gap_a >= 0 && gap_b >= 0 && (gap_a < c.min_units || gap_b < c.min_units);
            joins[k] = quick[k] && opened[k] && gap_a <= h && gap_b <= h;
            if (joins[k] && c.csa) {
                int tr = translated(&c, end_a, q->i, end_b, q->j);
                if (tr < 0) goto fail;
                joins[k] = !tr;
            }
        }
        for (Py_ssize_t k = 0; k + 1 < nruns; k++) {
            if (joins[k]) continue;
            chain_t *g = &groups[ngroups - 1];
            if (chain_extend(g, runs + placed + 1, k - placed)) goto fail; /* regions placed..k-1 joined */
            placed = k + 1;
            const item_t *nxt = &runs[k + 1], *prev = &runs[k];
            if (quick[k]) {
                if (chain_push(&groups[ngroups++], *nxt)) goto fail;
                continue;
            }
            int64_t ea = prev->i + prev->n, eb = prev->j + prev->n, sa = nxt->i, sb = nxt->j;
            int open_between = opened[k];
            seeds.n = fwd.n = 0;
            if (open_between && sa - ea <= c.max_region && sb - eb <= c.max_region) {
                if (seeds_between(&c, ea, sa, eb, sb, &seeds) || chain_forward(&c, &seeds, ea, eb, &fwd)) goto fail;
            } else if (extend_forward(&c, ea, eb, free_after(CA, NA, ea, sa), free_after(CB, NB, eb, sb), &fwd)) {
                goto fail;
            }
            if (chain_extend(g, fwd.v, fwd.n)) goto fail;
            int64_t end_a = ea, end_b = eb;
            if (fwd.n) end_a = fwd.v[fwd.n - 1].i + fwd.v[fwd.n - 1].n, end_b = fwd.v[fwd.n - 1].j + fwd.v[fwd.n - 1].n;
            if (sa - end_a <= h && sb - end_b <= h && open_between) {
                int tr = translated(&c, end_a, sa, end_b, sb);
                if (tr < 0) goto fail;
                if (!tr) {
                    if (chain_push(g, *nxt)) goto fail; /* the chain reached the next anchor: one passage */
                    continue;
                }
            }
            chain_t *back = &groups[ngroups++];
            if (seeds.n) {
                tmp.n = 0;
                if (chain_backward(&c, &seeds, sa, sb, &tmp)) goto fail;
                for (Py_ssize_t t = 0; t < tmp.n; t++)
                    if (tmp.v[t].i >= end_a && tmp.v[t].j >= end_b && chain_push(back, tmp.v[t])) goto fail;
            } else {
                int64_t la = free_before(CA, NA, sa, end_a), lb = free_before(CB, NB, sb, end_b);
                if (extend_backward(&c, sa, sb, la > end_a ? la : end_a, lb > end_b ? lb : end_b, back)) goto fail;
            }
            if (chain_push(back, *nxt)) goto fail;
        }
    }
    if (chain_extend(&groups[ngroups - 1], runs + placed + 1, nruns - placed - 1)) goto fail;
    {
        const item_t *last = &runs[nruns - 1];
        int64_t ea = last->i + last->n, eb = last->j + last->n;
        if (extend_forward(&c, ea, eb, free_after(CA, NA, ea, c.na), free_after(CB, NB, eb, c.nb),
                           &groups[ngroups - 1]))
            goto fail;
    }

    /* chains that stopped short of each other joined across small gaps (merged in place: chain m
     * of the merged ones is groups[m]) */
    sums = malloc((size_t)ngroups * 2 * sizeof(int64_t));
    if (!sums) {
        PyErr_NoMemory();
        goto fail;
    }
    for (Py_ssize_t g = 0; g < ngroups; g++) sums_of(&c, &groups[g], &sums[2 * g], &sums[2 * g + 1]);
    Py_ssize_t nmerged = 1;
    for (Py_ssize_t g = 1; g < ngroups; g++) {
        chain_t *prev = &groups[nmerged - 1], *group = &groups[g];
        int64_t matched = sums[2 * g], anchored = sums[2 * g + 1];
        int64_t *psum = &sums[2 * (nmerged - 1)];
        const item_t *pl = &prev->v[prev->n - 1];
        int64_t ea = pl->i + pl->n, eb = pl->j + pl->n, sa = group->v[0].i, sb = group->v[0].j;
        const item_t *gl = &group->v[group->n - 1];
        int64_t joint = (ea - prev->v[0].i) + (gl->i + gl->n - sa);
        int64_t share = (int64_t)(gap_share * (double)joint), allowed = h > share ? h : share;
        int64_t jm = psum[0] + matched, ja_ = psum[1] + anchored;
        int join = sa - ea <= allowed && sb - eb <= allowed && !crosses(CA, NA, ea, sa) && !crosses(CB, NB, eb, sb);
        if (join) {
            int tr = translated(&c, ea, sa, eb, sb);
            if (tr < 0) goto fail;
            join = !tr;
        }
        if (join && dense(&c, &prev->v[0], gl, jm, ja_)) {
            if (chain_extend(prev, group->v, group->n)) goto fail;
            chain_free(group);
            psum[0] = jm, psum[1] = ja_;
            continue;
        }
        /* a chain of its own */
        chain_t moved = *group;
        *group = (chain_t){0};
        groups[nmerged] = moved;
        sums[2 * nmerged] = matched, sums[2 * nmerged + 1] = anchored;
        nmerged++;
    }
    for (Py_ssize_t g = nmerged; g < ngroups; g++) chain_free(&groups[g]);
    ngroups = nmerged;

    for (Py_ssize_t g = 0; g < ngroups; g++) {
        chain_t *ch = &groups[g];
        int64_t matched = sums[2 * g], anchored = sums[2 * g + 1];
        if (!dense(&c, &ch->v[0], &ch->v[ch->n - 1], matched, anchored)) {
            /* too thin: first without what lies beyond the outer anchors, then the anchors alone */
            Py_ssize_t lo = -1, hi = -1;
            for (Py_ssize_t t = 0; t < ch->n; t++)
                if (is_anchor(&c, &ch->v[t])) {
                    if (lo < 0) lo = t;
                    hi = t;
                }
            int64_t m2, a2;
            chain_t inner = {ch->v + lo, hi - lo + 1, 0};
            sums_of(&c, &inner, &m2, &a2);
            if (!dense(&c, &ch->v[lo], &ch->v[hi], m2, a2)) {
                for (Py_ssize_t t = lo; t <= hi; t++)
                    if (is_anchor(&c, &ch->v[t]) && emit(result, &ch->v[t], 1, runs_seq)) goto fail;
                continue;
            }
            if (emit(result, ch->v + lo, hi - lo + 1, runs_seq)) goto fail;
            continue;
        }
        if (emit(result, ch->v, ch->n, runs_seq)) goto fail;
    }
    goto done;
fail:
    Py_CLEAR(result);
done:
    for (Py_ssize_t g = 0; groups && g < ngroups; g++) chain_free(&groups[g]);
    free(groups), free(sums), free(runs), free(joins), free(quick), free(opened);
    free(c.cut_a), free(c.cut_b), free(c.cum), free(c.csa), free(c.csb);
    chain_free(&tmp), chain_free(&seeds), chain_free(&fwd);
    release(&bja), release(&bjb), release(&bca), release(&bcb);
    Py_XDECREF(runs_seq);
    return result;
}

PyDoc_STRVAR(bag_bounds_doc,
"bag_bounds(bag, stored, rows) -> bytearray of int64\n\n"
"compare.stored_bag_bounds of the given rows: for each index r of ``rows`` (int64), the sum over\n"
"the buckets j of min(bag[j], stored[r, j]), a full bucket (0xFFFF) standing for any count\n"
"(``bag``: int64, one per bucket; ``stored``: uint16, the rows' buckets one after the other).");

static PyObject *py_bag_bounds(PyObject *self, PyObject *args) {
    PyObject *ob, *os, *orow;
    if (!PyArg_ParseTuple(args, "OOO", &ob, &os, &orow)) return NULL;
    buf_t bb = {0}, bs = {0}, br = {0};
    PyObject *out = NULL;
    if (get(ob, &bb, 8, "bag") || get(os, &bs, 2, "stored") || get(orow, &br, 8, "rows")) goto done;
    const int64_t *bag = bb.view.buf, *rows = br.view.buf;
    const uint16_t *stored = bs.view.buf;
    const Py_ssize_t width = len_of(&bb), n_rows = len_of(&br);
    const Py_ssize_t held = width ? len_of(&bs) / width : 0;
    if (width == 0 || len_of(&bs) % width) {
        PyErr_SetString(PyExc_ValueError, "bag_bounds: stored rows of the bag's width expected");
        goto done;
    }
    for (Py_ssize_t k = 0; k < n_rows; k++)
        if (rows[k] < 0 || rows[k] >= held) {
            PyErr_SetString(PyExc_IndexError, "bag_bounds: a row outside the stored bags");
            goto done;
        }
    out = PyByteArray_FromStringAndSize(NULL, n_rows * 8);
    if (!out) goto done;
    int64_t *o = (int64_t *)PyByteArray_AS_STRING(out);
    for (Py_ssize_t k = 0; k < n_rows; k++) {
        const uint16_t *row = stored + rows[k] * width;
        int64_t sum = 0;
        for (Py_ssize_t j = 0; j < width; j++) {
            const int64_t c = row[j] == 0xFFFF ? bag[j] : (row[j] < bag[j] ? row[j] : bag[j]);
            sum += c;
        }
        o[k] = sum;
    }
done:
    release(&bb);
    release(&bs);
    release(&br);
    return out;
}

/* --- a pass's unit codes (compare.UnitCodes) ----------------------------------------------- */

#define CODE_EMPTY 0xFFFFFFFFu   /* a free slot of the table */
#define CODE_PENDING 0xFFFFFFFEu /* a unit first seen in this call, its code not given yet */

/* The slot of ``id`` in an open-addressing table of ``mask + 1`` slots (linear probing): its own,
 * or the free one where it goes. Unit ids are hashes already; they are mixed again (splitmix64's
 * finaliser) so that ids differing in a few bits only, whichever, still spread. */
static inline Py_ssize_t code_slot(const uint64_t *keys, const uint32_t *vals, Py_ssize_t mask, uint64_t id) {
    uint64_t z = (id ^ (id >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    Py_ssize_t h = (Py_ssize_t)((z ^ (z >> 31)) & (uint64_t)mask);
    for (Py_ssize_t probes = 0; vals[h] != CODE_EMPTY && keys[h] != id; probes++) {
        if (probes > mask) return -1; /* full (the caller keeps it half empty) */
        h = (h + 1) & mask;
    }
    return h;
}

static int cmp_u64(const void *x, const void *y) {
    const uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

/* A writable table (keys uint64, vals uint32, the same power-of-two length); 0, or -1 with an error. */
static int get_table(PyObject *ok, PyObject *ov, Py_buffer *kv, Py_buffer *vv, int *held) {
    *held = 0;
    if (PyObject_GetBuffer(ok, kv, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) < 0) return -1;
    *held = 1;
    if (PyObject_GetBuffer(ov, vv, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) < 0) return -1;
    *held = 2;
    const Py_ssize_t n = kv->len / 8;
    if (kv->itemsize != 8 || vv->itemsize != 4 || vv->len / 4 != n || n == 0 || (n & (n - 1))) {
        PyErr_SetString(PyExc_ValueError, "unit codes: a table of 2**k uint64 keys and as many uint32 values expected");
        return -1;
    }
    return 0;
}

static void release_table(Py_buffer *kv, Py_buffer *vv, int held) {
    if (held > 1) PyBuffer_Release(vv);
    if (held > 0) PyBuffer_Release(kv);
}

PyDoc_STRVAR(unit_codes_doc,
"unit_codes(keys, vals, ids, next_code) -> (bytearray of uint32, int)\n\n"
"compare.UnitCodes.encode: the code of every unit id of ``ids`` (uint64) in the table ``keys``\n"
"(uint64) / ``vals`` (uint32, 0xFFFFFFFF in a free slot), updated in place; the ids not in it\n"
"are given the codes next_code, next_code + 1, ... in ascending order of id. Returns the codes\n"
"and the next free code. The caller keeps the table at most half full (a full one is a\n"
"ValueError, the table unchanged).");

static PyObject *py_unit_codes(PyObject *self, PyObject *args) {
    PyObject *ok, *ov, *oi;
    Py_ssize_t next;
    if (!PyArg_ParseTuple(args, "OOOn", &ok, &ov, &oi, &next)) return NULL;
    Py_buffer kv, vv;
    int held;
    buf_t bi = {0};
    PyObject *out = NULL, *result = NULL;
    uint64_t *fresh = NULL;
    Py_ssize_t *slots = NULL;
    if (get_table(ok, ov, &kv, &vv, &held) || get(oi, &bi, 8, "ids")) goto done;
    uint64_t *keys = kv.buf;
    uint32_t *vals = vv.buf;
    const Py_ssize_t mask = kv.len / 8 - 1, n = len_of(&bi);
    const uint64_t *ids = bi.view.buf;
    if (next < 0 || next + n > (Py_ssize_t)CODE_PENDING) { /* the codes given stay below CODE_PENDING */
        PyErr_SetString(PyExc_OverflowError, "unit codes: more distinct units than 32-bit codes");
        goto done;
    }
    out = PyByteArray_FromStringAndSize(NULL, n * 4);
    fresh = malloc((size_t)(n ? n : 1) * sizeof(uint64_t));
    slots = malloc((size_t)(n ? n : 1) * sizeof(Py_ssize_t));
    if (!out || !fresh || !slots) {
        if (out) PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t m = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        const Py_ssize_t h = code_slot(keys, vals, mask, ids[i]);
        if (h < 0) goto full;
        if (vals[h] == CODE_EMPTY) {
            keys[h] = ids[i];
            vals[h] = CODE_PENDING;
            fresh[m++] = ids[i];
        }
        slots[i] = h;
    }
    qsort(fresh, (size_t)m, sizeof(uint64_t), cmp_u64);
    for (Py_ssize_t j = 0; j < m; j++) vals[code_slot(keys, vals, mask, fresh[j])] = (uint32_t)(next + j);
    uint32_t *codes = (uint32_t *)PyByteArray_AS_STRING(out);
    for (Py_ssize_t i = 0; i < n; i++) codes[i] = vals[slots[i]];
    result = Py_BuildValue("(On)", out, next + m);
    goto done;
full:
    /* the ids of this call given a slot so far are taken out again, the last first (so that the
     * probe sequence of each still leads to it): the table stays as it was */
    for (Py_ssize_t j = m - 1; j >= 0; j--) {
        const Py_ssize_t h = code_slot(keys, vals, mask, fresh[j]);
        if (h >= 0) keys[h] = 0, vals[h] = CODE_EMPTY;
    }
    PyErr_SetString(PyExc_ValueError, "unit codes: the table is full");
done:
    free(fresh);
    free(slots);
    Py_XDECREF(out);
    release(&bi);
    release_table(&kv, &vv, held);
    return result;
}

PyDoc_STRVAR(code_table_put_doc,
"code_table_put(keys, vals, ids, codes)\n\n"
"Puts each distinct unit id of ``ids`` (uint64) with its code (``codes``, uint32) into the empty or\n"
"larger table of unit_codes (a table grown: every entry of the old one put into the new).");

static PyObject *py_code_table_put(PyObject *self, PyObject *args) {
    PyObject *ok, *ov, *oi, *oc;
    if (!PyArg_ParseTuple(args, "OOOO", &ok, &ov, &oi, &oc)) return NULL;
    Py_buffer kv, vv;
    int held;
    buf_t bi = {0}, bc = {0};
    PyObject *result = NULL;
    if (get_table(ok, ov, &kv, &vv, &held) || get(oi, &bi, 8, "ids") || get(oc, &bc, 4, "codes")) goto done;
    uint64_t *keys = kv.buf;
    uint32_t *vals = vv.buf;
    const Py_ssize_t mask = kv.len / 8 - 1, n = len_of(&bi);
    const uint64_t *ids = bi.view.buf;
    const uint32_t *codes = bc.view.buf;
    if (len_of(&bc) != n) {
        PyErr_SetString(PyExc_ValueError, "code_table_put: as many codes as ids expected");
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (codes[i] >= CODE_PENDING) {
            PyErr_SetString(PyExc_ValueError, "code_table_put: a code out of range");
            goto done;
        }
        const Py_ssize_t h = code_slot(keys, vals, mask, ids[i]);
        if (h < 0) {
            PyErr_SetString(PyExc_ValueError, "code_table_put: the table is full");
            goto done;
        }
        keys[h] = ids[i];
        vals[h] = codes[i];
    }
    result = Py_None;
    Py_INCREF(result);
done:
    release(&bi);
    release(&bc);
    release_table(&kv, &vv, held);
    return result;
}

/* --- whether a revised passage can exist at all (compare._revised_passages) ---------------- */

PyDoc_STRVAR(chain_bound_doc,
"chain_bound(codes_a, codes_b, weight_a, k, seed_weight, max_hole, min_seeds, max_points) -> (seeds, weight) or None\n\n"
"Upper bounds of the seeds and of the weight of any chain _revised_passages can build of two\n"
"texts: codes (int64, countable units, a negative code where a unit is in a passage: it matches\n"
"nothing), the weight of A's units (float64). A seed is a common run of at least k units whose\n"
"weight reaches seed_weight; two seeds in a chain lie at most max_hole units apart in both texts.\n"
"The bounds are those of the longest and the heaviest path through every pair (i, j) of equal\n"
"k-unit windows: along a diagonal (the seed goes on) or from a window to one that starts 3 to\n"
"max_hole + 3 units on in both texts (a new seed, which must start with a run weighing\n"
"seed_weight). Every chain of seeds is such a path, so no chain holds more. The seeds are counted\n"
"up to min_seeds, and the weight computed only where they reach it (0.0 otherwise). None when the\n"
"pairs exceed max_points (no bound: the caller searches).");

/* a k-window of codes holding no negative (a unit in a passage) */
static inline int window_open(const int64_t *c, Py_ssize_t i, Py_ssize_t k) {
    for (Py_ssize_t t = 0; t < k; t++)
        if (c[i + t] < 0) return 0;
    return 1;
}

static inline int windows_equal(const int64_t *x, const int64_t *y, Py_ssize_t k) {
    for (Py_ssize_t t = 0; t < k; t++)
        if (x[t] != y[t]) return 0;
    return 1;
}

static inline uint64_t window_hash(const int64_t *c, Py_ssize_t i, Py_ssize_t k) {
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (Py_ssize_t t = 0; t < k; t++) {
        h ^= (uint64_t)c[i + t] + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
        h *= 0xBF58476D1CE4E5B9ULL;
    }
    return h ^ (h >> 31);
}

/* a seed may start at (i, j): its first units, k or more, weigh seed_weight and are equal */
static inline int seed_starts(const int64_t *A, const int64_t *B, const double *cw, Py_ssize_t na, Py_ssize_t nb,
                              Py_ssize_t i, Py_ssize_t j, Py_ssize_t k, double seed_weight) {
    Py_ssize_t m = k;
    while (i + m <= na && cw[i + m] - cw[i] < seed_weight - 1e-9) m++;
    if (i + m > na || j + m > nb) return 0;
    for (Py_ssize_t t = k; t < m; t++)
        if (A[i + t] < 0 || A[i + t] != B[j + t]) return 0;
    return 1;
}

/* The open k-windows of X in a hash table of ``size`` (a power of two) slots: each slot holds the
 * first window of its run of equal windows and their hash (compared before the windows: a probe
 * reads the text only where the hashes agree), the others chained through ``next`` in ascending
 * order (``last_of``: scratch of ``size``). */
static void table_fill(const int64_t *X, Py_ssize_t n, Py_ssize_t k, Py_ssize_t size, uint64_t *keys, int32_t *first,
                       int32_t *next, int32_t *last_of) {
    const Py_ssize_t mask = size - 1;
    for (Py_ssize_t s = 0; s < size; s++) first[s] = -1;
    for (Py_ssize_t j = 0; j <= n - k; j++) {
        next[j] = -1;
        if (!window_open(X, j, k)) continue;
        const uint64_t key = window_hash(X, j, k);
        Py_ssize_t h = (Py_ssize_t)(key & (uint64_t)mask);
        while (first[h] >= 0 && (keys[h] != key || !windows_equal(X + first[h], X + j, k))) h = (h + 1) & mask;
        if (first[h] < 0) {
            first[h] = (int32_t)j;
            keys[h] = key;
        } else {
            next[last_of[h]] = (int32_t)j;
        }
        last_of[h] = (int32_t)j;
    }
}

static Py_ssize_t table_size(Py_ssize_t windows) {
    Py_ssize_t size = 16;
    while (size < 2 * windows) size *= 2;
    return size;
}

static PyObject *py_chain_bound(PyObject *self, PyObject *args) {
    PyObject *oa, *ob, *ow;
    Py_ssize_t k, max_hole, min_seeds, max_points;
    double seed_weight;
    if (!PyArg_ParseTuple(args, "OOOndnnn", &oa, &ob, &ow, &k, &seed_weight, &max_hole, &min_seeds, &max_points))
        return NULL;
    buf_t ba = {0}, bb = {0}, bw = {0};
    PyObject *result = NULL;
    int32_t *slot_first = NULL, *pj = NULL, *cnt = NULL;
    uint64_t *own_keys = NULL;
    int32_t *last = NULL, *cur_c = NULL, *prev_c = NULL, *stamp_cur = NULL, *stamp_prev = NULL;
    Py_ssize_t *row = NULL;
    double *wt = NULL, *cw = NULL;
    if (get(oa, &ba, 8, "codes_a") || get(ob, &bb, 8, "codes_b") || get(ow, &bw, 8, "weight_a")) goto done;
    const int64_t *A = ba.view.buf, *B = bb.view.buf;
    const double *W = bw.view.buf;
    const Py_ssize_t na = len_of(&ba), nb = len_of(&bb);
    if (len_of(&bw) != na || k < 1 || max_hole < 0 || na >= INT32_MAX || nb >= INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "chain_bound: one weight per unit of A, k >= 1, max_hole >= 0");
        goto done;
    }
    if (na < k || nb < k) {
        result = Py_BuildValue("(nd)", (Py_ssize_t)0, 0.0);
        goto done;
    }
    row = malloc((size_t)(na - k + 2) * sizeof(Py_ssize_t));
    cw = malloc((size_t)(na + 1) * sizeof(double));
    if (!row || !cw) {
        PyErr_NoMemory();
        goto done;
    }
    cw[0] = 0.0;
    for (Py_ssize_t i = 0; i < na; i++) cw[i + 1] = cw[i] + W[i];
    Py_ssize_t np_ = 0, cap = 0;
    /* B's open windows in a hash table, A's looked up row by row */
    const Py_ssize_t size = table_size(nb - k + 1);
    own_keys = malloc((size_t)size * sizeof(uint64_t));
    slot_first = malloc((size_t)(size + nb - k + 1) * sizeof(int32_t));
    int32_t *last_of = malloc((size_t)size * sizeof(int32_t));
    if (!own_keys || !slot_first || !last_of) {
        free(last_of);
        PyErr_NoMemory();
        goto done;
    }
    table_fill(B, nb, k, size, own_keys, slot_first, slot_first + size, last_of);
    free(last_of);
    const uint64_t *keys = own_keys;
    const int32_t *first = slot_first, *next = first + size;
    for (Py_ssize_t i = 0; i <= na - k; i++) {
        row[i] = np_;
        if (!window_open(A, i, k)) continue;
        const uint64_t key = window_hash(A, i, k);
        Py_ssize_t h = (Py_ssize_t)(key & (uint64_t)(size - 1));
        while (first[h] >= 0 && (keys[h] != key || !windows_equal(B + first[h], A + i, k))) h = (h + 1) & (size - 1);
        for (int32_t j = first[h]; j >= 0; j = next[j]) {
            if (np_ >= max_points) {
                result = Py_None;
                Py_INCREF(result);
                goto done;
            }
            if (grow((void **)&pj, &cap, np_ + 1, sizeof(int32_t), 1024)) {
                PyErr_NoMemory();
                goto done;
            }
            pj[np_++] = j;
        }
    }
    row[na - k + 1] = np_;
    cnt = malloc((size_t)(np_ ? np_ : 1) * sizeof(int32_t));
    wt = malloc((size_t)(np_ ? np_ : 1) * sizeof(double));
    if (!cnt || !wt) {
        PyErr_NoMemory();
        goto done;
    }
    /* the seeds first, counted up to min_seeds: a point's count is at least c + 1 where, in a
     * column of the window before it, a point of count > c lies in a row of the window. The
     * latest such row of every count and column is kept (level by level, the columns side by
     * side: a window's columns are read as one short array), rows entering 3 rows late as the
     * window starts 3 rows back; the window rarely holds any point, read at the first level. */
    const Py_ssize_t cap_c = min_seeds < 1 ? 1 : min_seeds;
    last = malloc((size_t)nb * (size_t)cap_c * sizeof(int32_t));
    cur_c = malloc((size_t)nb * sizeof(int32_t));
    prev_c = malloc((size_t)nb * sizeof(int32_t));
    stamp_cur = malloc((size_t)nb * sizeof(int32_t));
    stamp_prev = malloc((size_t)nb * sizeof(int32_t));
    if (!last || !cur_c || !prev_c || !stamp_cur || !stamp_prev) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t t = 0; t < nb * cap_c; t++) last[t] = INT32_MIN / 2;
    for (Py_ssize_t t = 0; t < nb; t++) stamp_cur[t] = stamp_prev[t] = -1;
    Py_ssize_t best_c = 0, entered = 0; /* rows below ``entered`` are in ``last`` */
    for (Py_ssize_t i = 0; i <= na - k && best_c < cap_c; i++) {
        for (; entered <= i - k; entered++)
            for (Py_ssize_t p = row[entered]; p < row[entered + 1]; p++)
                for (Py_ssize_t c = 0; c < cnt[p]; c++) last[c * nb + pj[p]] = (int32_t)entered;
        { int32_t *t = prev_c; prev_c = cur_c; cur_c = t; t = stamp_prev; stamp_prev = stamp_cur; stamp_cur = t; }
        for (Py_ssize_t p = row[i]; p < row[i + 1]; p++) {
            const Py_ssize_t j = pj[p];
            int32_t c = -1;
            if (i > 0 && j > 0 && stamp_prev[j - 1] == i - 1) c = prev_c[j - 1];
            if (seed_starts(A, B, cw, na, nb, i, j, k, seed_weight)) {
                int32_t pc = 0;
                const Py_ssize_t j0 = j - max_hole - k > 0 ? j - max_hole - k : 0, r0 = i - max_hole - k;
                for (Py_ssize_t l = 0; l < cap_c - 1; l++) {
                    const int32_t *level = last + l * nb;
                    int any = 0;
                    for (Py_ssize_t q = j0; q <= j - k; q++) any |= level[q] >= r0;
                    if (!any) break;
                    pc = (int32_t)l + 1;
                }
                if (pc + 1 > c) c = pc + 1;
            }
            if (c > cap_c) c = (int32_t)cap_c;
            cnt[p] = c;
            cur_c[j] = c;
            stamp_cur[j] = (int32_t)i;
            if (c > best_c) best_c = c;
        }
    }
    /* the weight, where the seeds reach min_seeds: the heaviest path, the window read point by point
     * (at most 4 * max_points points read: a text repeating one short phrase, against another,
     * has up to 31 in every row of a window; then no bound) */
    double best_w = 0.0;
    Py_ssize_t reads = 4 * max_points;
    for (Py_ssize_t i = 0; best_c >= cap_c && i <= na - k; i++) {
        for (Py_ssize_t p = row[i]; p < row[i + 1]; p++) {
            const Py_ssize_t j = pj[p];
            double w = -1.0;
            if (i > 0 && j > 0) { /* the same seed going on: (i - 1, j - 1) */
                Py_ssize_t lo = row[i - 1], hi = row[i];
                while (lo < hi) {
                    Py_ssize_t mid = (lo + hi) / 2;
                    if (pj[mid] < j - 1) lo = mid + 1;
                    else hi = mid;
                }
                if (lo < row[i] && pj[lo] == j - 1 && wt[lo] >= 0) w = wt[lo] + W[i + k - 1];
            }
            if (seed_starts(A, B, cw, na, nb, i, j, k, seed_weight)) {
                double pw = 0.0;
                const Py_ssize_t r0 = i - max_hole - k > 0 ? i - max_hole - k : 0;
                for (Py_ssize_t r = r0; r <= i - k; r++) {
                    Py_ssize_t lo = row[r], hi = row[r + 1];
                    while (lo < hi) {
                        Py_ssize_t mid = (lo + hi) / 2;
                        if (pj[mid] < j - max_hole - k) lo = mid + 1;
                        else hi = mid;
                    }
                    Py_ssize_t q = lo;
                    for (; q < row[r + 1] && pj[q] <= j - k; q++)
                        if (wt[q] > pw) pw = wt[q];
                    reads -= q - lo + 1;
                }
                if (reads < 0) {
                    result = Py_None;
                    Py_INCREF(result);
                    goto done;
                }
                if (pw + cw[i + k] - cw[i] > w) w = pw + cw[i + k] - cw[i];
            }
            wt[p] = w;
            if (w > best_w) best_w = w;
        }
    }
    result = Py_BuildValue("(nd)", best_c, best_w);
done:
    free(own_keys), free(slot_first), free(pj), free(cnt), free(row), free(wt), free(cw);
    free(last), free(cur_c), free(prev_c), free(stamp_cur), free(stamp_prev);
    release(&ba), release(&bb), release(&bw);
    return result;
}

PyDoc_STRVAR(free_stretches_doc,
"free_stretches(used, jumps, k)\n\n"
"The maximal stretches of units not ``used`` (numpy bool, one a unit), each cut after unit i\n"
"where ``jumps[i]`` (numpy bool, one fewer than the units; None: nowhere), of at least ``k``\n"
"units: a list of (start, end), ascending (compare._free_stretches, as its caller keeps them).");

static PyObject *py_free_stretches(PyObject *self, PyObject *args) {
    PyObject *ou, *oj;
    Py_ssize_t k;
    if (!PyArg_ParseTuple(args, "OOn", &ou, &oj, &k)) return NULL;
    buf_t bu = {0}, bj = {0};
    PyObject *result = NULL;
    if (get(ou, &bu, 1, "used")) goto done;
    const Py_ssize_t n = len_of(&bu);
    const unsigned char *U = bu.view.buf, *J = NULL;
    if (oj != Py_None) {
        if (get(oj, &bj, 1, "jumps")) goto done;
        if (len_of(&bj) != (n > 0 ? n - 1 : 0)) {
            PyErr_SetString(PyExc_ValueError, "free_stretches: one jump fewer than the units");
            goto done;
        }
        J = bj.view.buf;
    }
    if (!(result = PyList_New(0))) goto done;
    Py_ssize_t start = -1;
    for (Py_ssize_t i = 0; i <= n; i++) {
        int open_ = i < n && !U[i];
        if (open_ && start < 0) start = i;
        /* the stretch ends at i when unit i is taken or the text ends, or after i - 1 at a jump */
        int end = start >= 0 && (!open_ || (J && i > start && J[i - 1]));
        if (end) {
            if (i - start >= k) {
                PyObject *t = Py_BuildValue("(nn)", start, i);
                if (!t || PyList_Append(result, t) < 0) {
                    Py_XDECREF(t);
                    Py_CLEAR(result);
                    goto done;
                }
                Py_DECREF(t);
            }
            start = open_ ? i : -1;
        }
    }
done:
    release(&bu), release(&bj);
    return result;
}

PyDoc_STRVAR(open_runs_doc,
"open_runs(sel, index, used, short, k)\n\n"
"Of a text's items ``sel`` (ascending, int64) those open: a gap item (``index``, the countable\n"
"unit of every item, int64: -1) or one whose unit is not ``used`` or is ``short`` (numpy bool,\n"
"one a unit). (whether ``k`` open items lie in a row in the text, whether such a stretch holds\n"
"an item of a short unit): compare._open_runs of that open mask, in one pass over ``sel``.");

static PyObject *py_open_runs(PyObject *self, PyObject *args) {
    PyObject *os_, *oi, *ou, *oh;
    Py_ssize_t k;
    if (!PyArg_ParseTuple(args, "OOOOn", &os_, &oi, &ou, &oh, &k)) return NULL;
    buf_t bs = {0}, bi = {0}, bu = {0}, bh = {0};
    PyObject *result = NULL;
    if (get(os_, &bs, 8, "sel") || get(oi, &bi, 8, "index") || get(ou, &bu, 1, "used") || get(oh, &bh, 1, "short"))
        goto done;
    const int64_t *S = bs.view.buf, *I = bi.view.buf;
    const unsigned char *U = bu.view.buf, *H = bh.view.buf;
    const Py_ssize_t ns = len_of(&bs), ni = len_of(&bi), nu = len_of(&bu);
    if (len_of(&bh) != nu) {
        PyErr_SetString(PyExc_ValueError, "open_runs: one used and one short flag per unit");
        goto done;
    }
    int any_long = 0, long_short = 0;
    Py_ssize_t run = 0;  /* open items in a row, ending at the previous one */
    int run_short = 0;
    int64_t last = -2;
    for (Py_ssize_t q = 0; q <= ns; q++) {
        int open_ = 0, is_short = 0;
        int64_t item = -2;
        if (q < ns) {
            item = S[q];
            if (item < 0 || item >= ni || (q > 0 && item <= S[q - 1])) {
                PyErr_SetString(PyExc_ValueError, "open_runs: items ascending, within the text");
                goto done;
            }
            int64_t u = I[item];
            if (u >= nu) {
                PyErr_SetString(PyExc_ValueError, "open_runs: a unit beyond the flags");
                goto done;
            }
            is_short = u >= 0 && H[u];
            open_ = u < 0 || !U[u] || is_short;
        }
        if (!open_ || item != last + 1) {  /* the stretch before ends */
            if (run >= k) {
                any_long = 1;
                if (run_short) long_short = 1;
            }
            run = 0, run_short = 0;
        }
        if (open_) {
            run++;
            run_short |= is_short;
        }
        last = item;
        if (any_long && long_short) break;
    }
    result = Py_BuildValue("(OO)", any_long ? Py_True : Py_False, long_short ? Py_True : Py_False);
done:
    release(&bs), release(&bi), release(&bu), release(&bh);
    return result;
}

static PyMethodDef methods[] = {
    {"open_runs", py_open_runs, METH_VARARGS, open_runs_doc},
    {"free_stretches", py_free_stretches, METH_VARARGS, free_stretches_doc},
    {"chain_bound", py_chain_bound, METH_VARARGS, chain_bound_doc},
    {"chained_passages", py_chained_passages, METH_VARARGS, chained_passages_doc},
    {"posting_counts", py_posting_counts, METH_VARARGS, posting_counts_doc},
    {"group_hits", py_group_hits, METH_VARARGS, group_hits_doc},
    {"table_hits", py_table_hits, METH_VARARGS, table_hits_doc},
    {"near_rows", py_near_rows, METH_VARARGS, near_rows_doc},
    {"greedy_blocks", py_greedy_blocks, METH_VARARGS, greedy_blocks_doc},
    {"windows", py_windows, METH_VARARGS, windows_doc},
    {"real_overlap", py_real_overlap, METH_VARARGS, real_overlap_doc},
    {"shared_cover", py_shared_cover, METH_VARARGS, shared_cover_doc},
    {"counted_runs", py_counted_runs, METH_VARARGS, counted_runs_doc},
    {"bag_bounds", py_bag_bounds, METH_VARARGS, bag_bounds_doc},
    {"unit_codes", py_unit_codes, METH_VARARGS, unit_codes_doc},
    {"code_table_put", py_code_table_put, METH_VARARGS, code_table_put_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_kernels", "Steps of a comparison in C.", -1, methods};

PyMODINIT_FUNC PyInit__kernels(void) { return PyModule_Create(&module); }
