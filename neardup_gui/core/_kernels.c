/* Steps of a comparison in the collection-wide pass, in C: the same answers as the numpy (or
 * Python) code they stand in for (core/compare.py): the search of shared windows
 * (_shared_mask_prepared), the multiset overlap of the shared items, the aligned pairs cut into
 * counted runs (_aligned_pairs with _match_spans in counts-only form), a prepared document's
 * window hashes (PreparedDocument.windows), the readable Myers diff the passages' local
 * alignments use (myers_blocks), and in core/candidates.py the documents a look-up of search rows
 * finds (AnchorPostings.counts), without the fixed cost of an array operation or of a Python step
 * each. They run for every candidate or region that reaches them: on 10,000 generated copy-heavy
 * documents 72,000 times, where each numpy step costs microseconds on a few hundred items.
 *
 * Arrays come in through the buffer protocol (numpy arrays, contiguous): the Python side checks
 * their types and falls back to numpy for anything else. Tested against the code they stand in
 * for in tests/core/test_kernels_ext.py.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
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

/* a growing array of Py_ssize_t */
typedef struct {
    Py_ssize_t *v;
    Py_ssize_t n, cap;
} ivec_t;

static int ivec_push(ivec_t *t, const Py_ssize_t *src, Py_ssize_t count) {
    if (t->n + count > t->cap) {
        Py_ssize_t cap = t->cap ? t->cap : 64;
        while (cap < t->n + count) cap *= 2;
        Py_ssize_t *grown = realloc(t->v, (size_t)cap * sizeof(Py_ssize_t));
        if (!grown) return -1;
        t->v = grown;
        t->cap = cap;
    }
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
            if ((size_t)d >= doc_counts_len) {
                size_t len = (size_t)d + 1 + 4096;
                int64_t *grown = realloc(doc_counts, len * sizeof(int64_t));
                if (!grown) {
                    PyErr_NoMemory();
                    goto done;
                }
                memset(grown + doc_counts_len, 0, (len - doc_counts_len) * sizeof(int64_t));
                doc_counts = grown;
                doc_counts_len = len;
            }
            if (doc_counts[d]++ == 0) {
                if (nt == cap) {
                    cap = cap ? 2 * cap : 256;
                    int64_t *grown = realloc(touched, (size_t)cap * sizeof(int64_t));
                    if (!grown) {
                        PyErr_NoMemory();
                        goto done;
                    }
                    touched = grown;
                }
                touched[nt++] = d;
            }
        }
    }
    qsort(touched, (size_t)nt, sizeof(int64_t), cmp_int64);
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

static PyMethodDef methods[] = {
    {"posting_counts", py_posting_counts, METH_VARARGS, posting_counts_doc},
    {"greedy_blocks", py_greedy_blocks, METH_VARARGS, greedy_blocks_doc},
    {"windows", py_windows, METH_VARARGS, windows_doc},
    {"real_overlap", py_real_overlap, METH_VARARGS, real_overlap_doc},
    {"shared_cover", py_shared_cover, METH_VARARGS, shared_cover_doc},
    {"counted_runs", py_counted_runs, METH_VARARGS, counted_runs_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_kernels", "Steps of a comparison in C.", -1, methods};

PyMODINIT_FUNC PyInit__kernels(void) { return PyModule_Create(&module); }
