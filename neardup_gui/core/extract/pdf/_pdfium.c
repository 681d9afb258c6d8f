/* A PDF page's characters and objects read from PDFium in C: extract/pdf/fium.py's
 * _page_chars and _page_objects without a Python call per character.
 *
 * PDFium is the library pypdfium2 loads; its functions are not linked here but called through
 * the addresses fium.py gives (ctypes knows them), in the order of fium.FUNCTIONS. In: that
 * table of addresses (bytes of uintptr_t), a text page or a page handle (an address). Out: the
 * records fium.CHAR_DTYPE and fium.OBJECT_DTYPE read, as bytes. PDFium is not thread-safe: the GIL
 * is held throughout. Each record holds exactly what
 * the Python path (fium._page_chars_py, _page_objects_py) asks of PDFium for the same
 * character or object; tests/core/extract/pdf/test_readers.py checks the two give the same bytes.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

typedef void *H; /* any PDFium handle */
typedef struct { float a, b, c, d, e, f; } Matrix;

/* fium.FUNCTIONS, in order */
typedef struct {
    int (*CountChars)(H);
    unsigned int (*GetUnicode)(H, int);
    int (*IsGenerated)(H, int);
    int (*HasUnicodeMapError)(H, int);
    int (*IsHyphen)(H, int);
    int (*GetCharOrigin)(H, int, double *, double *);
    int (*GetCharBox)(H, int, double *, double *, double *, double *);
    int (*GetMatrix)(H, int, Matrix *);
    double (*GetFontSize)(H, int);
    H (*GetTextObject)(H, int);
    H (*TextObjGetFont)(H);
    int (*TextObjGetRenderMode)(H);
    int (*GetFillColor)(H, unsigned int *, unsigned int *, unsigned int *, unsigned int *);
    int (*GetStrokeColor)(H, unsigned int *, unsigned int *, unsigned int *, unsigned int *);
    H (*GetClipPath)(H);
    int (*ClipCountPaths)(H);
    int (*ClipCountSegments)(H, int);
    H (*ClipGetSegment)(H, int, int);
    int (*SegmentGetPoint)(H, float *, float *);
    int (*CountObjects)(H);
    H (*GetObject)(H, int);
    int (*ObjGetType)(H);
    int (*ObjGetBounds)(H, float *, float *, float *, float *);
    int (*PathGetDrawMode)(H, int *, int *);
    int (*FormCountObjects)(H);
    H (*FormGetObject)(H, unsigned long);
    int (*ObjGetMatrix)(H, Matrix *);
    int (*TextObjGetFontSize)(H, float *);
} Fn;

#define N_FUNCTIONS (sizeof(Fn) / sizeof(void *))

/* fium.CHAR_DTYPE */
typedef struct {
    double ox, oy, left, right, bottom, top, a, b, c, d, size;
    uint64_t object, font;
    uint32_t unicode;
    int32_t flags, render;
    uint32_t fill, stroke;
    float clip[4];
    uint32_t pad;
} CharRecord;

/* fium.OBJECT_DTYPE */
typedef struct {
    uint64_t object, font;
    float left, bottom, right, top, a, b, c, d, e, f, font_size;
    int32_t type, fill_mode, images, paths;
    uint32_t fill;
} ObjectRecord;

/* 0xRRGGBBAA; opaque black (PDF's initial colour) when PDFium cannot say */
static uint32_t rgba(int ok, unsigned int r, unsigned int g, unsigned int b, unsigned int a) {
    return ok ? (r & 255) << 24 | (g & 255) << 16 | (b & 255) << 8 | (a & 255) : 0x000000FFu;
}

/* The box of the object's clip paths (their points' bounds, the paths' intersection), NaN when
 * it has none: text outside it is not drawn. */
static void clip_box(const Fn *fn, H object, float out[4]) {
    out[0] = out[1] = out[2] = out[3] = NAN;
    H clip = fn->GetClipPath(object);
    if (!clip) return;
    int paths = fn->ClipCountPaths(clip);
    for (int p = 0; p < paths; p++) {
        int segments = fn->ClipCountSegments(clip, p);
        float l = INFINITY, b = INFINITY, r = -INFINITY, t = -INFINITY;
        for (int s = 0; s < segments; s++) {
            float x, y;
            H segment = fn->ClipGetSegment(clip, p, s);
            if (!segment || !fn->SegmentGetPoint(segment, &x, &y)) continue;
            l = fminf(l, x), r = fmaxf(r, x), b = fminf(b, y), t = fmaxf(t, y);
        }
        if (!(l <= r)) continue; /* (no point) */
        if (isnan(out[0])) {
            out[0] = l, out[1] = b, out[2] = r, out[3] = t;
        } else {
            out[0] = fmaxf(out[0], l), out[1] = fmaxf(out[1], b), out[2] = fminf(out[2], r), out[3] = fminf(out[3], t);
        }
    }
}

static int get_table(Py_buffer *view, const Fn **fn) {
    if (view->len != (Py_ssize_t)sizeof(Fn)) {
        PyErr_Format(PyExc_ValueError, "the table must hold %zu function addresses", N_FUNCTIONS);
        return -1;
    }
    const void *const *slots = view->buf;
    for (size_t k = 0; k < N_FUNCTIONS; k++)
        if (!slots[k]) {
            PyErr_Format(PyExc_ValueError, "function %zu of the table is missing", k);
            return -1;
        }
    *fn = view->buf;
    return 0;
}

static PyObject *py_chars(PyObject *self, PyObject *args) {
    Py_buffer table;
    unsigned long long textpage;
    if (!PyArg_ParseTuple(args, "y*K", &table, &textpage)) return NULL;
    const Fn *fn;
    PyObject *out = NULL;
    if (get_table(&table, &fn)) goto done;
    H tp = (H)(uintptr_t)textpage;
    int n = fn->CountChars(tp);
    if (n < 0) n = 0;
    out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)n * (Py_ssize_t)sizeof(CharRecord));
    if (!out) goto done;
    CharRecord *rec = (CharRecord *)PyBytes_AS_STRING(out);
    memset(rec, 0, (size_t)n * sizeof(CharRecord));
    H last = NULL;
    H font = NULL;
    int render = -1;
    uint32_t fill = 0x000000FFu, stroke = 0x000000FFu;
    float clip[4] = {NAN, NAN, NAN, NAN};
    for (int i = 0; i < n; i++) {
        CharRecord *r = &rec[i];
        Matrix m = {0, 0, 0, 0, 0, 0};
        r->unicode = fn->GetUnicode(tp, i);
        r->flags = (fn->IsGenerated(tp, i) == 1 ? 1 : 0) | (fn->HasUnicodeMapError(tp, i) == 1 ? 2 : 0) |
                   (fn->IsHyphen(tp, i) == 1 ? 4 : 0);
        fn->GetCharOrigin(tp, i, &r->ox, &r->oy);
        fn->GetCharBox(tp, i, &r->left, &r->right, &r->bottom, &r->top);
        if (fn->GetMatrix(tp, i, &m)) r->a = m.a, r->b = m.b, r->c = m.c, r->d = m.d;
        r->size = fn->GetFontSize(tp, i);
        H object = fn->GetTextObject(tp, i);
        if (object != last) { /* (a text object's characters come one after another) */
            unsigned int cr = 0, cg = 0, cb = 0, ca = 0;
            last = object;
            font = object ? fn->TextObjGetFont(object) : NULL;
            render = object ? fn->TextObjGetRenderMode(object) : -1;
            int ok = object && fn->GetFillColor(object, &cr, &cg, &cb, &ca);
            fill = rgba(ok, cr, cg, cb, ca);
            ok = object && fn->GetStrokeColor(object, &cr, &cg, &cb, &ca);
            stroke = rgba(ok, cr, cg, cb, ca);
            if (object)
                clip_box(fn, object, clip);
            else
                clip[0] = clip[1] = clip[2] = clip[3] = NAN;
        }
        r->object = (uint64_t)(uintptr_t)object, r->font = (uint64_t)(uintptr_t)font;
        r->render = render, r->fill = fill, r->stroke = stroke;
        memcpy(r->clip, clip, sizeof(clip));
    }
done:
    PyBuffer_Release(&table);
    return out;
}

/* One object's record; a form's images and paths counted through the forms it holds. */
static void object_record(const Fn *fn, H object, ObjectRecord *r) {
    Matrix m = {0, 0, 0, 0, 0, 0};
    unsigned int cr = 0, cg = 0, cb = 0, ca = 0;
    r->object = (uint64_t)(uintptr_t)object;
    r->type = fn->ObjGetType(object);
    if (!fn->ObjGetBounds(object, &r->left, &r->bottom, &r->right, &r->top))
        r->left = r->bottom = r->right = r->top = NAN;
    if (fn->ObjGetMatrix(object, &m)) r->a = m.a, r->b = m.b, r->c = m.c, r->d = m.d, r->e = m.e, r->f = m.f;
    int ok = fn->GetFillColor(object, &cr, &cg, &cb, &ca);
    r->fill = rgba(ok, cr, cg, cb, ca);
    r->fill_mode = -1;
    if (r->type == 2) { /* a path: how it is filled (0 not at all) */
        int mode = 0, stroke = 0;
        if (fn->PathGetDrawMode(object, &mode, &stroke)) r->fill_mode = mode;
    } else if (r->type == 1) {
        H font = fn->TextObjGetFont(object);
        float size = 0;
        r->font = (uint64_t)(uintptr_t)font;
        if (fn->TextObjGetFontSize(object, &size)) r->font_size = size;
    } else if (r->type == 3) {
        r->images = 1;
    } else if (r->type == 5) {
        int inner = fn->FormCountObjects(object);
        for (int k = 0; k < inner; k++) {
            H child = fn->FormGetObject(object, (unsigned long)k);
            if (!child) continue;
            ObjectRecord c = {0};
            object_record(fn, child, &c);
            r->images += c.images;
            r->paths += c.paths + (c.type == 2 && c.fill_mode > 0);
        }
    }
}

static PyObject *py_objects(PyObject *self, PyObject *args) {
    Py_buffer table;
    unsigned long long page;
    if (!PyArg_ParseTuple(args, "y*K", &table, &page)) return NULL;
    const Fn *fn;
    PyObject *out = NULL;
    if (get_table(&table, &fn)) goto done;
    H pg = (H)(uintptr_t)page;
    int n = fn->CountObjects(pg);
    if (n < 0) n = 0;
    out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)n * (Py_ssize_t)sizeof(ObjectRecord));
    if (!out) goto done;
    ObjectRecord *rec = (ObjectRecord *)PyBytes_AS_STRING(out);
    memset(rec, 0, (size_t)n * sizeof(ObjectRecord));
    for (int i = 0; i < n; i++) {
        H object = fn->GetObject(pg, i);
        if (object) object_record(fn, object, &rec[i]);
    }
done:
    PyBuffer_Release(&table);
    return out;
}

static PyObject *py_sizes(PyObject *self, PyObject *noargs) {
    return Py_BuildValue("(nnn)", (Py_ssize_t)sizeof(CharRecord), (Py_ssize_t)sizeof(ObjectRecord),
                         (Py_ssize_t)N_FUNCTIONS);
}

static PyMethodDef methods[] = {
    {"chars", py_chars, METH_VARARGS,
     "chars(table, textpage) -> bytes: a record (fium.CHAR_DTYPE) for each character of the text page."},
    {"objects", py_objects, METH_VARARGS,
     "objects(table, page) -> bytes: a record (fium.OBJECT_DTYPE) for each object of the page."},
    {"sizes", py_sizes, METH_NOARGS, "sizes() -> (char record size, object record size, functions in the table)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_pdfium", "A PDF page's characters from PDFium in C.", -1,
                                    methods};

PyMODINIT_FUNC PyInit__pdfium(void) { return PyModule_Create(&module); }
