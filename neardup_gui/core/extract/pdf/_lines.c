/* The visual lines of a PDF page in C: extract/pdf/lines.py's _monospaced, _baseline_rows and
 * _split_row without a Python step per glyph.
 *
 * In: the page's glyphs as columns — their texts joined in one str with the offset where each
 * starts (n + 1 int64, the last one the length), x0, x1, y0, y1, base and size (n float64 each),
 * and whether each is hidden (n uint8). Out: the rows of the page, top first, each a list of
 * its lines left to right as (text, x0, x1, y0, y1, base, size, first_word) tuples, rows
 * without a line left out: lines.py's rows before a lone row's cells are joined again.
 *
 * Every rule is lines.py's, step for step (that module is the specification; the kernel is
 * tested equal to it on random and real pages in tests/core/extract/pdf/test_lines.py). Python's
 * round(x, d) is reproduced exactly: rounded here in binary, and asked of Python itself when x
 * lies too near a half for the binary product to decide.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define BASELINE_TOLERANCE 0.45
#define WORD_GAP 0.1
#define SPACE_RUN_SLACK 0.3
#define HIDDEN_START 0xFDD2
#define HIDDEN_END 0xFDD3

typedef struct {
    int kind;
    const void *data;
    const int64_t *starts;
    const double *x0, *x1, *y0, *y1, *base, *size;
    const uint8_t *hidden;
    double cell_gap;
} Page;

/* Python's round(x, digits) for digits 1 or 2. */
static int py_round(double x, int digits, double *out) {
    const double scale = digits == 1 ? 10.0 : 100.0;
    if (fabs(x) >= 4503599627370496.0) { /* 2**52: no fraction to round */
        *out = x;
        return 0;
    }
    double y = x * scale;
    double frac = y - floor(y);
    if (isfinite(y) && fabs(frac - 0.5) > 1e-6) {
        *out = nearbyint(y) / scale;
        return 0;
    }
    PyObject *value = PyFloat_FromDouble(x);
    PyObject *rounded = value ? PyObject_CallMethod(value, "__round__", "i", digits) : NULL;
    Py_XDECREF(value);
    if (!rounded) return -1;
    *out = PyFloat_AsDouble(rounded);
    Py_DECREF(rounded);
    return PyErr_Occurred() ? -1 : 0;
}

static inline Py_UCS4 ch(const Page *p, int64_t at) { return PyUnicode_READ(p->kind, p->data, at); }
static inline int64_t len_of(const Page *p, Py_ssize_t g) { return p->starts[g + 1] - p->starts[g]; }

/* str.isspace() of glyph g's text */
static int is_space(const Page *p, Py_ssize_t g) {
    int64_t n = len_of(p, g);
    if (n == 0) return 0;
    for (int64_t k = p->starts[g]; k < p->starts[g + 1]; k++)
        if (!Py_UNICODE_ISSPACE(ch(p, k))) return 0;
    return 1;
}

/* lines.CJK_CHAR_RE.match(glyph text) */
static int cjk_code(Py_UCS4 c) {
    return (c >= 0x3000 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7af) || (c >= 0xf900 && c <= 0xfaff) ||
           (c >= 0xff00 && c <= 0xffef);
}
static int is_cjk(const Page *p, Py_ssize_t g) { return len_of(p, g) > 0 && cjk_code(ch(p, p->starts[g])); }

/* glyph text in lines._NO_LINE_START (one character of it) */
static int no_line_start(const Page *p, Py_ssize_t g) {
    static const Py_UCS4 set[] = {0xff0c, 0x3002, 0x3001, 0xff1b, 0xff1a, 0xff1f, 0xff01, 0xff09, 0x300d, 0x300f,
                                  0x3011, 0x3009, 0x300b, 0x201d, 0x2019, 0x2026, 0x30fb, ',', '.', ';', ':',
                                  '?', '!', ')', ']', '}', '%'};
    if (len_of(p, g) != 1) return 0;
    Py_UCS4 c = ch(p, p->starts[g]);
    for (size_t k = 0; k < sizeof(set) / sizeof(set[0]); k++)
        if (set[k] == c) return 1;
    return 0;
}

/* glyph text in lines._NARROW */
static int narrow(const Page *p, Py_ssize_t g) {
    if (len_of(p, g) != 1) return 0;
    Py_UCS4 c = ch(p, p->starts[g]);
    return c && strchr("iIl.,:;'!|", (int)c) != NULL && c < 128;
}

/* glyph text in "\"'" (a substring of it, as Python's ``in`` on strings) */
static int in_quotes(const Page *p, Py_ssize_t g) {
    int64_t n = len_of(p, g), s = p->starts[g];
    if (n == 1) return ch(p, s) == '"' || ch(p, s) == '\'';
    if (n == 2) return ch(p, s) == '"' && ch(p, s + 1) == '\'';
    return n == 0;
}

static int same_text(const Page *p, Py_ssize_t a, Py_ssize_t b) {
    int64_t n = len_of(p, a);
    if (n != len_of(p, b)) return 0;
    for (int64_t k = 0; k < n; k++)
        if (ch(p, p->starts[a] + k) != ch(p, p->starts[b] + k)) return 0;
    return 1;
}

/* Distinct values are few (glyph widths, sizes): counted with a table of the distinct ones. */
typedef struct { double value; Py_ssize_t count, first; } Tally;

static int tally_add(Tally **t, Py_ssize_t *n, Py_ssize_t *cap, double value, Py_ssize_t at) {
    for (Py_ssize_t k = 0; k < *n; k++)
        if ((*t)[k].value == value) { (*t)[k].count++; return 0; }
    if (*n == *cap) {
        Py_ssize_t grown = *cap ? 2 * *cap : 64;
        Tally *more = realloc(*t, (size_t)grown * sizeof(Tally));
        if (!more) {
            PyErr_NoMemory();
            return -1;
        }
        *t = more, *cap = grown;
    }
    (*t)[(*n)++] = (Tally){value, 1, at};
    return 0;
}

/* The most common of ``n`` values, the first seen of those most common (Counter.most_common). */
static int most_common(const double *values, Py_ssize_t n, double *out) {
    Tally *t = NULL;
    Py_ssize_t used = 0, cap = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (tally_add(&t, &used, &cap, values[i], i)) {
            free(t);
            return -1;
        }
    Py_ssize_t best = 0;
    for (Py_ssize_t k = 1; k < used; k++)
        if (t[k].count > t[best].count) best = k;
    *out = used ? t[best].value : 0.0;
    free(t);
    return 0;
}

/* lines._monospaced: 1, 0, or -1 on an error. */
static int monospaced(const Page *p, Py_ssize_t n) {
    Tally *t = NULL;
    Py_ssize_t used = 0, cap = 0, ink = 0;
    int result = 0;
    for (Py_ssize_t g = 0; g < n; g++) {
        if (is_space(p, g) || !(p->size[g] > 0)) continue;
        ink++;
        double w;
        if (py_round((p->x1[g] - p->x0[g]) / p->size[g], 2, &w) || tally_add(&t, &used, &cap, w, g)) {
            result = -1;
            goto done;
        }
    }
    if (ink < 40) goto done;
    Py_ssize_t best = 0;
    for (Py_ssize_t k = 1; k < used; k++)
        if (t[k].count > t[best].count) best = k; /* (the first seen wins a tie: t is in order) */
    double width = t[best].value;
    if (!(0.45 <= width && width <= 0.75) || (double)t[best].count < 0.9 * (double)ink) goto done;
    for (Py_ssize_t g = 0; g < n; g++) {
        if (is_space(p, g) || !(p->size[g] > 0) || !narrow(p, g)) continue;
        double w;
        if (py_round((p->x1[g] - p->x0[g]) / p->size[g], 2, &w)) {
            result = -1;
            goto done;
        }
        if (w == width) { result = 1; break; }
    }
done:
    free(t);
    return result;
}

/* Sort keys: by -base then index (the baseline rows), by x0 then position (a row's glyphs). */
static const Page *sort_page;
static int by_base(const void *a, const void *b) {
    Py_ssize_t i = *(const Py_ssize_t *)a, j = *(const Py_ssize_t *)b;
    double ki = -sort_page->base[i], kj = -sort_page->base[j];
    if (ki < kj) return -1;
    if (ki > kj) return 1;
    return (i > j) - (i < j);
}
typedef struct { double x0; Py_ssize_t pos, glyph; } RowItem;
static int by_x0(const void *a, const void *b) {
    const RowItem *i = a, *j = b;
    if (i->x0 < j->x0) return -1;
    if (i->x0 > j->x0) return 1;
    return (i->pos > j->pos) - (i->pos < j->pos);
}

/* A growing buffer of code points: the parts of the line being built. */
typedef struct { Py_UCS4 *buf; Py_ssize_t len, cap; } Text;
static int text_put(Text *t, Py_UCS4 c) {
    if (t->len == t->cap) {
        Py_ssize_t grown = t->cap ? 2 * t->cap : 256;
        Py_UCS4 *more = realloc(t->buf, (size_t)grown * sizeof(Py_UCS4));
        if (!more) {
            PyErr_NoMemory();
            return -1;
        }
        t->buf = more, t->cap = grown;
    }
    t->buf[t->len++] = c;
    return 0;
}

typedef struct {
    Text text;
    int last_is_space; /* parts[-1] == " " */
    Py_UCS4 last_char; /* parts[-1][-1] */
    int has_parts, open_hidden;
    Py_ssize_t first;
    double last_x1, reach, y0, y1, word_end, size;
    int word_state;
} LineState;

/* close() of lines._split_row: the line so far appended to ``lines`` when it has text. */
static int close_line(const Page *p, LineState *s, PyObject *lines) {
    Py_ssize_t a = 0, b = s->text.len;
    while (a < b && Py_UNICODE_ISSPACE(s->text.buf[a])) a++;
    while (b > a && Py_UNICODE_ISSPACE(s->text.buf[b - 1])) b--;
    if (b > a && s->first >= 0) {
        if (s->open_hidden) {
            s->text.len = b;
            if (text_put(&s->text, HIDDEN_END)) return -1;
            b = s->text.len;
        }
        PyObject *str = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, s->text.buf + a, b - a);
        if (!str) return -1;
        Py_ssize_t f = s->first;
        PyObject *line = Py_BuildValue("(Nddddddd)", str, p->x0[f], s->last_x1, s->y0, s->y1, p->base[f], s->size,
                                       s->word_end - p->x0[f]);
        if (!line || PyList_Append(lines, line)) {
            Py_XDECREF(line);
            return -1;
        }
        Py_DECREF(line);
    }
    s->text.len = 0;
    s->has_parts = 0, s->last_is_space = 0, s->open_hidden = 0, s->first = -1;
    return 0;
}

static int put_space(LineState *s) {
    if (text_put(&s->text, ' ')) return -1;
    s->has_parts = 1, s->last_is_space = 1, s->last_char = ' ';
    return 0;
}

static int put_glyph(const Page *p, LineState *s, Py_ssize_t g) {
    int hidden = p->hidden && p->hidden[g];
    if (hidden != s->open_hidden) {
        if (text_put(&s->text, hidden ? HIDDEN_START : HIDDEN_END)) return -1;
        s->open_hidden = hidden;
    }
    for (int64_t k = p->starts[g]; k < p->starts[g + 1]; k++)
        if (text_put(&s->text, ch(p, k))) return -1;
    s->has_parts = 1;
    s->last_is_space = len_of(p, g) == 1 && ch(p, p->starts[g]) == ' ';
    if (len_of(p, g)) s->last_char = ch(p, p->starts[g + 1] - 1);
    return 0;
}

/* lines._split_row of the glyphs ``row`` (in baseline order): its lines appended to ``lines``. */
static int split_row(const Page *p, const Py_ssize_t *row, Py_ssize_t n, PyObject *lines, RowItem *items,
                     double *sizes) {
    for (Py_ssize_t k = 0; k < n; k++) items[k] = (RowItem){p->x0[row[k]], k, row[k]};
    qsort(items, (size_t)n, sizeof(RowItem), by_x0);
    Py_ssize_t ink = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        Py_ssize_t g = items[k].glyph;
        if (is_space(p, g)) continue;
        if (py_round(p->size[g], 1, &sizes[ink])) return -1;
        ink++;
    }
    if (!ink) return 0;
    LineState s = {0};
    s.first = -1;
    if (most_common(sizes, ink, &s.size)) return -1;
    Py_ssize_t previous = -1;
    int status = -1;
    for (Py_ssize_t k = 0; k < n; k++) {
        Py_ssize_t g = items[k].glyph;
        if (previous >= 0 && same_text(p, g, previous) && fabs(p->x0[g] - p->x0[previous]) < 0.15 * p->size[g])
            continue; /* a glyph drawn twice, slightly offset (fake bold): read once */
        previous = g;
        if (is_space(p, g)) {
            if (s.has_parts && !s.last_is_space && put_space(&s)) goto done;
            if (s.first >= 0) {
                s.word_state = 2;
                if (p->x0[g] <= s.reach + SPACE_RUN_SLACK * s.size && p->x1[g] > s.reach) s.reach = p->x1[g];
            }
            continue;
        }
        if (s.first >= 0) {
            double gap = p->x0[g] - s.reach;
            double width = p->x1[g] - p->x0[g];
            if (gap > p->cell_gap * s.size) {
                if (close_line(p, &s, lines)) goto done;
            } else if (gap > WORD_GAP * (width > p->size[g] ? width : p->size[g]) && !s.last_is_space &&
                       !is_cjk(p, g) && !cjk_code(s.last_char)) {
                if (put_space(&s)) goto done;
                s.word_state = 2;
            }
        }
        if (s.first < 0) {
            s.first = g, s.last_x1 = p->x1[g], s.reach = p->x1[g], s.y0 = p->y0[g], s.y1 = p->y1[g];
            s.word_end = p->x1[g], s.word_state = is_cjk(p, g) ? 1 : 0;
            if (put_glyph(p, &s, g)) goto done;
            continue;
        }
        if (s.word_state == 0) {
            if (is_cjk(p, g) && !no_line_start(p, g))
                s.word_state = 2;
            else
                s.word_end = p->x1[g];
        } else if (s.word_state == 1) {
            if (no_line_start(p, g))
                s.word_end = p->x1[g];
            else if (in_quotes(p, g))
                s.word_end = p->x1[g], s.word_state = 0;
            else
                s.word_state = 2;
        }
        if (put_glyph(p, &s, g)) goto done;
        if (p->x1[g] > s.last_x1) s.last_x1 = p->x1[g];
        if (s.last_x1 > s.reach) s.reach = s.last_x1;
        if (p->y0[g] < s.y0) s.y0 = p->y0[g];
        if (p->y1[g] > s.y1) s.y1 = p->y1[g];
    }
    status = close_line(p, &s, lines);
done:
    free(s.text.buf);
    return status;
}

static int get_doubles(PyObject *obj, Py_buffer *view, Py_ssize_t n, const char *name) {
    if (PyObject_GetBuffer(obj, view, PyBUF_SIMPLE)) return -1;
    if (view->len != n * (Py_ssize_t)sizeof(double)) {
        PyErr_Format(PyExc_ValueError, "rows: %s must hold %zd float64", name, n);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static PyObject *py_rows(PyObject *self, PyObject *args) {
    PyObject *text, *ostarts, *cols[6], *ohidden;
    if (!PyArg_ParseTuple(args, "UOOOOOOOO", &text, &ostarts, &cols[0], &cols[1], &cols[2], &cols[3], &cols[4],
                          &cols[5], &ohidden))
        return NULL;
    static const char *names[6] = {"x0", "x1", "y0", "y1", "base", "size"};
    Py_buffer vs = {0}, vh = {0}, vc[6] = {{0}};
    int got = 0, got_hidden = 0;
    PyObject *result = NULL;
    Py_ssize_t *order = NULL, *row = NULL;
    RowItem *items = NULL;
    double *sizes = NULL;
    if (PyObject_GetBuffer(ostarts, &vs, PyBUF_SIMPLE)) return NULL;
    Py_ssize_t n = vs.len / 8 - 1;
    if (n < 0 || vs.len % 8) {
        PyErr_SetString(PyExc_ValueError, "rows: starts must hold n + 1 int64");
        goto done;
    }
    for (; got < 6; got++)
        if (get_doubles(cols[got], &vc[got], n, names[got])) goto done;
    Page p = {PyUnicode_KIND(text), PyUnicode_DATA(text), (const int64_t *)vs.buf, vc[0].buf, vc[1].buf, vc[2].buf,
              vc[3].buf, vc[4].buf, vc[5].buf, NULL, 0.0};
    if (ohidden != Py_None) {
        if (PyObject_GetBuffer(ohidden, &vh, PyBUF_SIMPLE)) goto done;
        got_hidden = 1;
        if (vh.len != n) {
            PyErr_SetString(PyExc_ValueError, "rows: hidden must hold n uint8");
            goto done;
        }
        p.hidden = vh.buf;
    }
    if (n > 0 && (p.starts[0] != 0 || p.starts[n] != PyUnicode_GET_LENGTH(text))) {
        PyErr_SetString(PyExc_ValueError, "rows: starts do not cover the text");
        goto done;
    }
    for (Py_ssize_t g = 0; g < n; g++)
        if (p.starts[g + 1] < p.starts[g]) {
            PyErr_SetString(PyExc_ValueError, "rows: starts must not decrease");
            goto done;
        }
    int mono = monospaced(&p, n);
    if (mono < 0) goto done;
    p.cell_gap = mono ? INFINITY : 1.2;
    order = malloc((size_t)(n ? n : 1) * sizeof(Py_ssize_t));
    row = malloc((size_t)(n ? n : 1) * sizeof(Py_ssize_t));
    items = malloc((size_t)(n ? n : 1) * sizeof(RowItem));
    sizes = malloc((size_t)(n ? n : 1) * sizeof(double));
    result = PyList_New(0);
    if (!order || !row || !items || !sizes || !result) {
        if (result) Py_CLEAR(result);
        else PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t g = 0; g < n; g++) order[g] = g;
    sort_page = &p;
    qsort(order, (size_t)n, sizeof(Py_ssize_t), by_base);
    Py_ssize_t k = 0;
    while (k < n) {
        /* one baseline row: _baseline_rows */
        Py_ssize_t m = 0, g = order[k];
        double ref = p.base[g], ref_size = p.size[g];
        row[m++] = g;
        for (k++; k < n; k++) {
            g = order[k];
            double tol = BASELINE_TOLERANCE * (ref_size > p.size[g] ? ref_size : p.size[g]);
            if (!(ref - p.base[g] <= tol)) break;
            row[m++] = g;
            if (!is_space(&p, g) && p.size[g] > ref_size) ref_size = p.size[g];
        }
        PyObject *lines = PyList_New(0);
        if (!lines || split_row(&p, row, m, lines, items, sizes) ||
            (PyList_GET_SIZE(lines) && PyList_Append(result, lines))) {
            Py_XDECREF(lines);
            Py_CLEAR(result);
            goto done;
        }
        Py_DECREF(lines);
    }
done:
    PyBuffer_Release(&vs);
    for (int c = 0; c < got; c++) PyBuffer_Release(&vc[c]);
    if (got_hidden) PyBuffer_Release(&vh);
    free(order), free(row), free(items), free(sizes);
    return result;
}

PyDoc_STRVAR(rows_doc,
"rows(text, starts, x0, x1, y0, y1, base, size, hidden) -> list of rows of line tuples\n\n"
"lines.py's rows of a page's glyphs (their texts joined in ``text``, each starting at\n"
"``starts``: n + 1 int64; the rest n float64 each; ``hidden`` n uint8 or None): top first,\n"
"each row's lines left to right as (text, x0, x1, y0, y1, base, size, first_word).");

static PyMethodDef methods[] = {
    {"rows", py_rows, METH_VARARGS, rows_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_lines", "The visual lines of a PDF page in C.", -1,
                                    methods};

PyMODINIT_FUNC PyInit__lines(void) { return PyModule_Create(&module); }
