/* Myers' O(ND) diff (bisection of the middle snake, linear space), as diff-match-patch computes
 * it without a time limit: the same edit script, edit for edit (core/compare.py, tests in
 * tests/core/test_myers_ext.py compare the two on random and real sequences).
 *
 * Why our own: the compiled diff-match-patch (fast_diff_match_patch) reads the process CPU clock
 * at every step of its search (clock(), a system call here), even without a time limit; on
 * 2,375 copy-heavy copyright files that was 4.1 million calls, about 1.9 s of a 13.9 s pass. And
 * it has no bound on the edit distance: the caller first computed the LCS length (a banded
 * bit-parallel pass, 1.5 s there) to know whether the diff would stay within budget. Here the
 * search stops as soon as the edit distance is proved beyond ``max_d``.
 *
 * The algorithm is E. W. Myers, "An O(ND) difference algorithm and its variations" (1986),
 * section 4b (the middle snake, recursing on both halves), with diff-match-patch's choices kept
 * exactly so that the same LCS is found among equals: the common prefix and suffix are stripped
 * first; a shorter text found whole inside the longer one is taken at its first occurrence;
 * a single unit not found is a deletion and an insertion; at every level the edits between two
 * equalities are merged (deletions first) and common prefixes and suffixes of a merged deletion
 * and insertion factored out, then single edits are shifted sideways over an equality they end
 * or start with (``diff_cleanupMerge``).
 *
 * A diff is a list of (operation, length) items; an item's text is implied by the lengths before
 * it (equal and deleted text from A, inserted text from B), so no text is ever copied.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint32_t unit_t;
enum { DEL = -1, EQ = 0, INS = 1, DEAD = 2 };

typedef struct {
    int op;
    Py_ssize_t len;
} item_t;

typedef struct {
    item_t *v;
    Py_ssize_t n, cap;
} list_t;

typedef struct {
    Py_ssize_t limit; /* the search stops beyond this many steps d of a middle snake */
    int over;         /* set when it did (the edit distance is beyond the budget) */
    int nomem;
} ctx_t;

static int push(list_t *l, int op, Py_ssize_t len) {
    if (l->n == l->cap) {
        Py_ssize_t cap = l->cap ? 2 * l->cap : 16;
        item_t *v = realloc(l->v, (size_t)cap * sizeof(item_t));
        if (!v) return -1;
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n].op = op;
    l->v[l->n].len = len;
    l->n++;
    return 0;
}

static int extend(list_t *l, const list_t *m) {
    for (Py_ssize_t i = 0; i < m->n; i++)
        if (push(l, m->v[i].op, m->v[i].len)) return -1;
    return 0;
}

static Py_ssize_t common_prefix(const unit_t *a, Py_ssize_t na, const unit_t *b, Py_ssize_t nb) {
    Py_ssize_t n = na < nb ? na : nb, i = 0;
    while (i < n && a[i] == b[i]) i++;
    return i;
}

static Py_ssize_t common_suffix(const unit_t *a, Py_ssize_t na, const unit_t *b, Py_ssize_t nb) {
    Py_ssize_t n = na < nb ? na : nb, i = 0;
    while (i < n && a[na - 1 - i] == b[nb - 1 - i]) i++;
    return i;
}

/* First occurrence of s (ns > 0) in t, or -1. */
static Py_ssize_t find(const unit_t *t, Py_ssize_t nt, const unit_t *s, Py_ssize_t ns) {
    for (Py_ssize_t i = 0; i + ns <= nt; i++) {
        if (t[i] == s[0] && memcmp(t + i, s, (size_t)ns * sizeof(unit_t)) == 0) return i;
    }
    return -1;
}

static int same(const unit_t *a, const unit_t *b, Py_ssize_t n) {
    return n == 0 || memcmp(a, b, (size_t)n * sizeof(unit_t)) == 0;
}

/* The text of an item starting at (p1, p2): from A unless it is an insertion. */
static const unit_t *text_of(int op, const unit_t *a, const unit_t *b, Py_ssize_t p1, Py_ssize_t p2) {
    return op == INS ? b + p2 : a + p1;
}

static void advance(int op, Py_ssize_t len, Py_ssize_t *p1, Py_ssize_t *p2) {
    if (op != INS) *p1 += len;
    if (op != DEL) *p2 += len;
}

/* diff_cleanupMerge of ``l``, a diff of a (na) and b (nb). */
static int cleanup_merge(list_t *l, const unit_t *a, const unit_t *b) {
    for (;;) {
        /* First pass: the edits between two equalities merged into one deletion and one
         * insertion (their common prefix and suffix factored out into the equalities), and
         * equalities next to each other merged. Rebuilt into ``out``. */
        list_t out = {0};
        if (push(l, EQ, 0)) return -1; /* the dummy equality at the end */
        Py_ssize_t p1 = 0, p2 = 0;       /* where the current item starts */
        Py_ssize_t s1 = 0, s2 = 0;       /* where the pending edits start */
        Py_ssize_t count_del = 0, count_ins = 0, len_del = 0, len_ins = 0;
        int prev_equal = 0;              /* the last item pushed is an equality, no edit since */
        Py_ssize_t pending = -1;         /* index in l of a lone pending edit */
        for (Py_ssize_t k = 0; k < l->n; k++) {
            item_t it = l->v[k];
            if (it.op != EQ) {
                if (count_del + count_ins == 0) {
                    s1 = p1;
                    s2 = p2;
                    pending = k;
                }
                if (it.op == INS) {
                    count_ins++;
                    len_ins += it.len;
                } else {
                    count_del++;
                    len_del += it.len;
                }
                prev_equal = 0;
                advance(it.op, it.len, &p1, &p2);
                continue;
            }
            Py_ssize_t eq_len = it.len;
            if (count_del + count_ins > 1) {
                Py_ssize_t d1 = s1, i2 = s2;
                if (count_del != 0 && count_ins != 0) {
                    Py_ssize_t c = common_prefix(b + i2, len_ins, a + d1, len_del);
                    if (c) {
                        if (out.n > 0) {
                            out.v[out.n - 1].len += c; /* (an equality: edits follow one) */
                        } else if (push(&out, EQ, c)) {
                            goto fail;
                        }
                        d1 += c;
                        i2 += c;
                        len_ins -= c;
                        len_del -= c;
                    }
                    c = common_suffix(b + i2, len_ins, a + d1, len_del);
                    if (c) {
                        eq_len += c;
                        len_ins -= c;
                        len_del -= c;
                    }
                }
                if (len_del > 0 && push(&out, DEL, len_del)) goto fail;
                if (len_ins > 0 && push(&out, INS, len_ins)) goto fail;
                if (push(&out, EQ, eq_len)) goto fail;
            } else if (count_del + count_ins == 1) {
                if (push(&out, l->v[pending].op, l->v[pending].len)) goto fail;
                if (push(&out, EQ, eq_len)) goto fail;
            } else if (prev_equal) {
                out.v[out.n - 1].len += eq_len;
            } else if (push(&out, EQ, eq_len)) {
                goto fail;
            }
            prev_equal = 1;
            count_del = count_ins = len_del = len_ins = 0;
            advance(EQ, it.len, &p1, &p2);
        }
        if (out.n > 0 && out.v[out.n - 1].op == EQ && out.v[out.n - 1].len == 0) out.n--; /* the dummy */
        free(l->v);
        *l = out;

        /* Second pass: a single edit between two equalities shifted sideways over one of them
         * when it ends with the one before (A<ins>BA</ins>C → <ins>AB</ins>AC) or starts with
         * the one after. Items removed are marked DEAD; positions follow the walk. */
        int changes = 0;
        if (l->n >= 3) {
            item_t *v = l->v;
            Py_ssize_t prev = 0, cur = 1, next = 2;
            Py_ssize_t q1 = 0, q2 = 0; /* where ``prev`` starts */
            for (;;) {
                Py_ssize_t c1 = q1, c2 = q2;
                advance(v[prev].op, v[prev].len, &c1, &c2); /* where ``cur`` starts */
                if (v[prev].op == EQ && v[next].op == EQ) {
                    Py_ssize_t P = v[prev].len, L = v[cur].len, N = v[next].len;
                    const unit_t *ct = text_of(v[cur].op, a, b, c1, c2);
                    if (L >= P && same(ct + L - P, a + q1, P)) {
                        /* over the previous equality: the edit starts where it did */
                        v[next].len = N + P;
                        v[prev].op = DEAD;
                        changes = 1;
                        /* cur_diff = next_diff; ++next_diff */
                        Py_ssize_t n1 = q1, n2 = q2;
                        advance(v[cur].op, L, &n1, &n2); /* where the old next starts now */
                        cur = next;
                        c1 = n1;
                        c2 = n2;
                        do next++; while (next < l->n && v[next].op == DEAD);
                        if (next >= l->n) break;
                    } else {
                        Py_ssize_t n1 = c1, n2 = c2;
                        advance(v[cur].op, L, &n1, &n2);
                        if (L >= N && same(ct, a + n1, N)) {
                            /* over the next equality */
                            v[prev].len = P + N;
                            v[next].op = DEAD;
                            changes = 1;
                                c1 += N; /* the edit now starts after the grown equality */
                            c2 += N;
                            do next++; while (next < l->n && v[next].op == DEAD);
                            if (next >= l->n) break;
                        }
                    }
                }
                /* prev_diff = cur_diff, cur_diff = next_diff; ++next_diff != end */
                prev = cur;
                q1 = c1;
                q2 = c2;
                cur = next;
                do next++; while (next < l->n && v[next].op == DEAD);
                if (next >= l->n) break;
            }
            if (changes) { /* drop the dead items */
                Py_ssize_t w = 0;
                for (Py_ssize_t r = 0; r < l->n; r++)
                    if (v[r].op != DEAD) v[w++] = v[r];
                l->n = w;
            }
        }
        if (!changes) return 0;
        continue; /* the diff needs reordering and another sweep */
    fail:
        free(out.v);
        return -1;
    }
}

static int diff_main(ctx_t *cx, const unit_t *a, Py_ssize_t na, const unit_t *b, Py_ssize_t nb, list_t *out);

static int bisect_split(ctx_t *cx, const unit_t *a, Py_ssize_t na, const unit_t *b, Py_ssize_t nb,
                        Py_ssize_t x, Py_ssize_t y, list_t *out) {
    list_t first = {0}, second = {0};
    int r = diff_main(cx, a, x, b, y, &first);
    if (r == 0) r = diff_main(cx, a + x, na - x, b + y, nb - y, &second);
    if (r == 0) r = extend(out, &first) || extend(out, &second) ? -1 : 0;
    free(first.v);
    free(second.v);
    return r;
}

/* One step of a path on diagonal k at distance d (``reverse``: the path from the end, on the
 * mirrored texts): the furthest x it reaches, snake followed, recorded in v. */
static inline Py_ssize_t furthest(Py_ssize_t *v, Py_ssize_t off, Py_ssize_t k, Py_ssize_t d, const unit_t *a,
                                  Py_ssize_t na, const unit_t *b, Py_ssize_t nb, const int reverse) {
    const Py_ssize_t ko = off + k;
    Py_ssize_t x = (k == -d || (k != d && v[ko - 1] < v[ko + 1])) ? v[ko + 1] : v[ko - 1] + 1;
    Py_ssize_t y = x - k;
    if (reverse) {
        while (x < na && y < nb && a[na - x - 1] == b[nb - y - 1]) x++, y++;
    } else {
        while (x < na && y < nb && a[x] == b[y]) x++, y++;
    }
    v[ko] = x;
    return x;
}

static int bisect(ctx_t *cx, const unit_t *a, Py_ssize_t na, const unit_t *b, Py_ssize_t nb, list_t *out) {
    const Py_ssize_t max_d = (na + nb + 1) / 2;
    const Py_ssize_t off = max_d, vlen = 2 * max_d;
    Py_ssize_t *v1 = malloc((size_t)vlen * sizeof(Py_ssize_t));
    Py_ssize_t *v2 = malloc((size_t)vlen * sizeof(Py_ssize_t));
    if (!v1 || !v2) {
        free(v1);
        free(v2);
        return -1;
    }
    /* diff-match-patch fills both arrays with -1. Step d reads and writes only the cells
     * off - d - 1 .. off + d + 1, so they are filled as d grows: [lo, hi] is the part filled, and
     * a cell outside it reads as -1 (never written). The arrays span every possible d, but a pair
     * of near-duplicates stops at a small one: filling them whole cost more than the search (two
     * 6,000-unit texts at D = 40: 190 KB written, and as many page faults, per bisection). */
    Py_ssize_t lo = off, hi = off - 1;
    v1[off + 1] = 0;
    v2[off + 1] = 0;
    const Py_ssize_t delta = na - nb;
    const int front = (delta % 2 != 0);
    Py_ssize_t k1start = 0, k1end = 0, k2start = 0, k2end = 0;
    for (Py_ssize_t d = 0; d < max_d; d++) {
        if (d > cx->limit) {
            cx->over = 1;
            free(v1);
            free(v2);
            return 1;
        }
        const Py_ssize_t want_lo = off - d - 1 < 0 ? 0 : off - d - 1;
        const Py_ssize_t want_hi = off + d + 1 >= vlen ? vlen - 1 : off + d + 1;
        for (; lo > want_lo; lo--)
            if (lo - 1 != off + 1) v1[lo - 1] = v2[lo - 1] = -1;
        for (; hi < want_hi; hi++)
            if (hi + 1 != off + 1) v1[hi + 1] = v2[hi + 1] = -1;
        for (Py_ssize_t k1 = -d + k1start; k1 <= d - k1end; k1 += 2) {
            const Py_ssize_t x1 = furthest(v1, off, k1, d, a, na, b, nb, 0), y1 = x1 - k1;
            if (x1 > na) {
                k1end += 2;
            } else if (y1 > nb) {
                k1start += 2;
            } else if (front) {
                Py_ssize_t k2o = off + delta - k1;
                if (k2o >= lo && k2o <= hi && v2[k2o] != -1) {
                    Py_ssize_t x2 = na - v2[k2o];
                    if (x1 >= x2) {
                        free(v1);
                        free(v2);
                        return bisect_split(cx, a, na, b, nb, x1, y1, out);
                    }
                }
            }
        }
        for (Py_ssize_t k2 = -d + k2start; k2 <= d - k2end; k2 += 2) {
            Py_ssize_t x2 = furthest(v2, off, k2, d, a, na, b, nb, 1);
            const Py_ssize_t y2 = x2 - k2;
            if (x2 > na) {
                k2end += 2;
            } else if (y2 > nb) {
                k2start += 2;
            } else if (!front) {
                Py_ssize_t k1o = off + delta - k2;
                if (k1o >= lo && k1o <= hi && v1[k1o] != -1) {
                    Py_ssize_t x1 = v1[k1o];
                    Py_ssize_t y1 = off + x1 - k1o;
                    x2 = na - x2;
                    if (x1 >= x2) {
                        free(v1);
                        free(v2);
                        return bisect_split(cx, a, na, b, nb, x1, y1, out);
                    }
                }
            }
        }
    }
    free(v1);
    free(v2);
    /* no commonality at all */
    if (push(out, DEL, na) || push(out, INS, nb)) return -1;
    return 0;
}

static int compute(ctx_t *cx, const unit_t *a, Py_ssize_t na, const unit_t *b, Py_ssize_t nb, list_t *out) {
    if (na == 0) return push(out, INS, nb);
    if (nb == 0) return push(out, DEL, na);
    const int a_longer = na > nb;
    const unit_t *lt = a_longer ? a : b, *st = a_longer ? b : a;
    const Py_ssize_t nl = a_longer ? na : nb, ns = a_longer ? nb : na;
    Py_ssize_t i = find(lt, nl, st, ns);
    if (i >= 0) { /* the shorter text inside the longer one */
        const int op = a_longer ? DEL : INS;
        if (push(out, op, i) || push(out, EQ, ns) || push(out, op, nl - i - ns)) return -1;
        return 0;
    }
    if (ns == 1) { /* a single unit, not found: no equality */
        if (push(out, DEL, na) || push(out, INS, nb)) return -1;
        return 0;
    }
    return bisect(cx, a, na, b, nb, out);
}

/* 0: done; 1: stopped beyond the budget; -1: out of memory. */
static int diff_main(ctx_t *cx, const unit_t *a, Py_ssize_t na, const unit_t *b, Py_ssize_t nb, list_t *out) {
    out->n = 0;
    if (na == nb && same(a, b, na)) {
        if (na > 0 && push(out, EQ, na)) return -1;
        return 0;
    }
    Py_ssize_t pre = common_prefix(a, na, b, nb);
    Py_ssize_t suf = common_suffix(a + pre, na - pre, b + pre, nb - pre);
    list_t mid = {0};
    int r = compute(cx, a + pre, na - pre - suf, b + pre, nb - pre - suf, &mid);
    if (r != 0) {
        free(mid.v);
        return r;
    }
    if (pre && push(out, EQ, pre)) r = -1;
    if (r == 0 && extend(out, &mid)) r = -1;
    if (r == 0 && suf && push(out, EQ, suf)) r = -1;
    free(mid.v);
    if (r == 0 && cleanup_merge(out, a, b)) r = -1;
    return r;
}

static unit_t *units_of(PyObject *s, Py_ssize_t *n) {
    *n = PyUnicode_GET_LENGTH(s);
    unit_t *u = malloc((size_t)(*n ? *n : 1) * sizeof(unit_t));
    if (!u) {
        PyErr_NoMemory();
        return NULL;
    }
    int kind = PyUnicode_KIND(s);
    const void *data = PyUnicode_DATA(s);
    for (Py_ssize_t i = 0; i < *n; i++) u[i] = (unit_t)PyUnicode_READ(kind, data, i);
    return u;
}

PyDoc_STRVAR(blocks_doc,
"blocks(a, b, max_d) -> list[(i, j, n)] | None\n\n"
"The matching blocks of diff-match-patch's diff of two strings (no time limit, no line mode,\n"
"no cleanup beyond its merge), or None when their edit distance (insertions + deletions) is\n"
"beyond ``max_d``.");

static PyObject *py_blocks(PyObject *self, PyObject *args) {
    PyObject *sa, *sb;
    Py_ssize_t max_d;
    if (!PyArg_ParseTuple(args, "UUn", &sa, &sb, &max_d)) return NULL;
    Py_ssize_t na, nb;
    unit_t *a = units_of(sa, &na);
    if (!a) return NULL;
    unit_t *b = units_of(sb, &nb);
    if (!b) {
        free(a);
        return NULL;
    }
    ctx_t cx = {max_d < 0 ? 0 : (max_d + 1) / 2 + 1, 0, 0};
    list_t out = {0};
    int r;
    Py_BEGIN_ALLOW_THREADS
    r = diff_main(&cx, a, na, b, nb, &out);
    Py_END_ALLOW_THREADS
    free(a);
    free(b);
    if (r < 0) {
        free(out.v);
        return PyErr_NoMemory();
    }
    if (r > 0) {
        free(out.v);
        Py_RETURN_NONE;
    }
    Py_ssize_t edits = 0;
    for (Py_ssize_t k = 0; k < out.n; k++)
        if (out.v[k].op != EQ) edits += out.v[k].len;
    if (edits > max_d) {
        free(out.v);
        Py_RETURN_NONE;
    }
    PyObject *list = PyList_New(0);
    Py_ssize_t i = 0, j = 0;
    for (Py_ssize_t k = 0; list && k < out.n; k++) {
        Py_ssize_t len = out.v[k].len;
        if (out.v[k].op == EQ) {
            if (len > 0) {
                PyObject *t = Py_BuildValue("(nnn)", i, j, len);
                if (!t || PyList_Append(list, t) < 0) {
                    Py_XDECREF(t);
                    Py_CLEAR(list);
                    break;
                }
                Py_DECREF(t);
            }
            i += len;
            j += len;
        } else if (out.v[k].op == DEL) {
            i += len;
        } else {
            j += len;
        }
    }
    free(out.v);
    return list;
}

static PyMethodDef methods[] = {
    {"blocks", py_blocks, METH_VARARGS, blocks_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_myers", "Myers' diff as diff-match-patch computes it.", -1, methods};

PyMODINIT_FUNC PyInit__myers(void) { return PyModule_Create(&module); }
