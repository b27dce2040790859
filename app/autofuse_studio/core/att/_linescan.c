/*
 * The marked lines of one block of an ATT log (see scanner.py, _native_feed): plain C99 over the bytes,
 * with the GIL released while scanning.
 *
 * marked_lines(block, values=False) -> (items, newlines)
 *   items: a flat list [newlines before the line, line, ...] for every line of the block that
 *          contains one of scanner.MARKERS, in order, each once; the line is its text without the
 *          '\n' and trailing '\r's, decoded as UTF-8 with errors replaced (what the Python path does),
 *          or, with `values` true and when the line is a plain value record (see parse_value), the
 *          tuple (operator, name, value, (graph, result, group, case)) that lines.parse_prof_value
 *          would read from it: a float and strings, the ids as written; for a plain objective record
 *          (operator, value, (graph, result, group, case)).
 *   newlines: the number of '\n' in the whole block.
 *
 * The Python path locates the same lines with a regex and counts newlines with bytes.count: each costs
 * several instructions a byte; here memchr skips to each '[' / 'T' (a vectorised libc routine) and the
 * newline count is a loop compilers vectorise.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Keep in step with scanner.MARKERS (test_att_native_scan checks they agree). */
static const char *const BRACKET_TAILS[] = {"PROF]", "PERF]", "DFX]", "ATT][FINAL_TILING"};
#define N_BRACKET (sizeof(BRACKET_TAILS) / sizeof(BRACKET_TAILS[0]))
static const char OTHER_MARKER[] = "The value of graph";

typedef struct {
    Py_ssize_t *data;
    Py_ssize_t size, capacity;
} vec;

static int vec_push2(vec *v, Py_ssize_t a, Py_ssize_t b)
{
    if (v->size + 2 > v->capacity) {
        Py_ssize_t capacity = v->capacity ? v->capacity * 2 : 1024;
        Py_ssize_t *data = (Py_ssize_t *)realloc(v->data, (size_t)capacity * sizeof(Py_ssize_t));
        if (data == NULL) return -1;
        v->data = data;
        v->capacity = capacity;
    }
    v->data[v->size++] = a;
    v->data[v->size++] = b;
    return 0;
}

static Py_ssize_t line_start(const char *s, Py_ssize_t pos)
{
    while (pos > 0 && s[pos - 1] != '\n') pos--;
    return pos;
}

static Py_ssize_t line_end(const char *s, Py_ssize_t pos, Py_ssize_t n)
{
    const char *nl = (const char *)memchr(s + pos, '\n', (size_t)(n - pos));
    return nl ? (Py_ssize_t)(nl - s) : n;
}

static int is_bracket_marker(const char *s, Py_ssize_t pos, Py_ssize_t n)
{
    /* s[pos] == '[' */
    for (size_t k = 0; k < N_BRACKET; k++) {
        size_t len = strlen(BRACKET_TAILS[k]);
        if ((size_t)(n - pos - 1) >= len && memcmp(s + pos + 1, BRACKET_TAILS[k], len) == 0) return 1;
    }
    return 0;
}

/* (start, end) of every line holding a marker that starts with '['. */
static int bracket_lines(const char *s, Py_ssize_t n, vec *out)
{
    Py_ssize_t pos = 0;
    while (pos < n) {
        const char *hit = (const char *)memchr(s + pos, '[', (size_t)(n - pos));
        if (hit == NULL) break;
        Py_ssize_t at = (Py_ssize_t)(hit - s);
        if (!is_bracket_marker(s, at, n)) {
            pos = at + 1;
            continue;
        }
        Py_ssize_t end = line_end(s, at, n);
        if (vec_push2(out, line_start(s, at), end) < 0) return -1;
        pos = end + 1; /* one entry per line */
    }
    return 0;
}

/* (start, end) of every line holding OTHER_MARKER (memmem is not in C99 nor on Windows). */
static int other_lines(const char *s, Py_ssize_t n, vec *out)
{
    const Py_ssize_t len = (Py_ssize_t)(sizeof(OTHER_MARKER) - 1);
    Py_ssize_t pos = 0;
    while (n - pos >= len) {
        const char *hit = (const char *)memchr(s + pos, OTHER_MARKER[0], (size_t)(n - pos - len + 1));
        if (hit == NULL) break;
        Py_ssize_t at = (Py_ssize_t)(hit - s);
        if (memcmp(hit + 1, OTHER_MARKER + 1, (size_t)(len - 1)) != 0) {
            pos = at + 1;
            continue;
        }
        Py_ssize_t end = line_end(s, at, n);
        if (vec_push2(out, line_start(s, at), end) < 0) return -1;
        pos = end + 1;
    }
    return 0;
}

static Py_ssize_t count_newlines(const char *s, Py_ssize_t from, Py_ssize_t to)
{
    /* A byte loop with a narrow counter vectorises well at -O3; flushed before it can wrap. */
    Py_ssize_t total = 0;
    while (from < to) {
        Py_ssize_t stop = to - from > 255 * 16 ? from + 255 * 16 : to;
        uint32_t count = 0;
        for (Py_ssize_t i = from; i < stop; i++) count += (s[i] == '\n');
        total += count;
        from = stop;
    }
    return total;
}

/* Merge the two sorted runs into `merged` as (newlines before the line, start, end) triples. */
static int merge_lines(const char *s, const vec *a, const vec *b, vec *merged, Py_ssize_t *newlines, Py_ssize_t n)
{
    Py_ssize_t i = 0, j = 0, counted_to = 0, before = 0;
    while (i < a->size || j < b->size) {
        Py_ssize_t start, end;
        if (j >= b->size || (i < a->size && a->data[i] <= b->data[j])) {
            start = a->data[i];
            end = a->data[i + 1];
            if (j < b->size && b->data[j] == start) j += 2; /* the same line in both runs */
            i += 2;
        } else {
            start = b->data[j];
            end = b->data[j + 1];
            j += 2;
        }
        before += count_newlines(s, counted_to, start);
        counted_to = start;
        if (vec_push2(merged, before, start) < 0 || vec_push2(merged, end, 0) < 0) return -1;
    }
    *newlines = before + count_newlines(s, counted_to, n);
    return 0;
}


/* Python's str \s on ASCII: \t \n \v \f \r, the separators 0x1c-0x1f and the space. */
static int is_space(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f); }
static int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

typedef struct {
    Py_ssize_t start, end;
} span;

static Py_ssize_t find(const char *s, Py_ssize_t from, Py_ssize_t n, const char *what, Py_ssize_t len)
{
    while (n - from >= len) {
        const char *hit = (const char *)memchr(s + from, what[0], (size_t)(n - from - len + 1));
        if (hit == NULL) return -1;
        if (memcmp(hit, what, (size_t)len) == 0) return (Py_ssize_t)(hit - s);
        from = (Py_ssize_t)(hit - s) + 1;
    }
    return -1;
}

static int expect(const char *s, Py_ssize_t *p, Py_ssize_t n, const char *what)
{
    Py_ssize_t len = (Py_ssize_t)strlen(what);
    if (n - *p < len || memcmp(s + *p, what, (size_t)len) != 0) return 0;
    *p += len;
    return 1;
}

/* Skip \s* (at_least 0) or \s+ (at_least 1). */
static int spaces(const char *s, Py_ssize_t *p, Py_ssize_t n, int at_least)
{
    Py_ssize_t start = *p;
    while (*p < n && is_space((unsigned char)s[*p])) (*p)++;
    return *p - start >= at_least;
}

static Py_ssize_t digits(const char *s, Py_ssize_t p, Py_ssize_t n)
{
    Py_ssize_t start = p;
    while (p < n && is_digit((unsigned char)s[p])) p++;
    return p - start;
}

/* An id (\d+, or -?\d+ for the group) of at most 19 digits (lines.MAX_ID_DIGITS; longer ones are
 * left to Python, which warns). */
static int id(const char *s, Py_ssize_t *p, Py_ssize_t n, int sign, span *out)
{
    out->start = *p;
    if (sign && *p < n && s[*p] == '-') (*p)++;
    Py_ssize_t count = digits(s, *p, n);
    if (count == 0 || count > 19) return 0;
    *p += count;
    out->end = *p;
    return 1;
}

/* True when s[a:b] is all of lines.NUMBER: [-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)? */
static int is_number(const char *s, Py_ssize_t a, Py_ssize_t b)
{
    if (a < b && (s[a] == '-' || s[a] == '+')) a++;
    Py_ssize_t whole = digits(s, a, b);
    a += whole;
    if (a < b && s[a] == '.') {
        a++;
        Py_ssize_t fraction = digits(s, a, b);
        if (whole == 0 && fraction == 0) return 0;
        a += fraction;
    } else if (whole == 0) {
        return 0;
    }
    if (a < b && (s[a] == 'e' || s[a] == 'E')) {
        a++;
        if (a < b && (s[a] == '-' || s[a] == '+')) a++;
        Py_ssize_t exponent = digits(s, a, b);
        if (exponent == 0) return 0;
        a += exponent;
    }
    return a == b;
}

/*
 * The fields of an ASCII line that lines.parse_prof_value reads as a TilingValue (VALUE), or that
 * lines.parse_prof reads as an Objective when it holds a single "[PROF]" (OBJECTIVE: _OBJECTIVE's grammar
 * after the tag, no name), in f[0..6]: operator, name, number, graph, result, group, case. 0 when the
 * line is anything else or anything unusual
 * (non-ASCII, "[PERF]", no match right at the tag of the first "[PROF]", an operator named like a
 * marker, a long id): the Python path then reads its text. The grammar is _PROF_VALUE's,
 *   \[([^\[\]]+)\]\s*\[PROF\]\s*The value of\s+(\S+)\s+is\s+(NUMBER)\s+in\s+graph(\d+)_result(\d+)_g(-?\d+)_R?(\d+)
 * matched at the last "[" before the first "[PROF]": a tag holds no brackets, so no match can start
 * earlier, and every field ends where its character class does, so the match there has one split.
 */
enum { VALUE = 1, OBJECTIVE = 2 };

static int parse_value(const char *s, Py_ssize_t n, span f[7])
{
    unsigned char any = 0;
    for (Py_ssize_t k = 0; k < n; k++) any |= (unsigned char)s[k];
    if (any & 0x80) return 0;
    if (find(s, 0, n, "[PERF]", 6) >= 0) return 0;
    Py_ssize_t marker = find(s, 0, n, "[PROF]", 6), p = marker - 1;
    if (marker < 0) return 0;
    while (p >= 0 && s[p] != '[') p--;
    if (p < 0) return 0;
    f[0].start = ++p;
    while (p < n && s[p] != ']' && s[p] != '[') p++;
    if (p == f[0].start || p >= n || s[p] != ']') return 0;
    f[0].end = p++;
    static const char *const NOT_OPERATORS[] = {"PROF", "PERF", "DFX", "ATT"};
    for (size_t k = 0; k < 4; k++) {
        size_t len = strlen(NOT_OPERATORS[k]);
        if ((size_t)(f[0].end - f[0].start) == len && memcmp(s + f[0].start, NOT_OPERATORS[k], len) == 0) return 0;
    }
    spaces(s, &p, n, 0);
    if (!expect(s, &p, n, "[PROF]")) return 0;
    spaces(s, &p, n, 0);
    int kind = VALUE;
    if (expect(s, &p, n, "The objective value of the tiling data is")) {
        /* parse_prof_value must find nothing in the line: with one "[PROF]" it cannot. */
        if (find(s, marker + 1, n, "[PROF]", 6) >= 0) return 0;
        kind = OBJECTIVE;
        f[1] = f[0]; /* no name */
    } else if (!expect(s, &p, n, "The value of")) {
        return 0;
    }
    if (!spaces(s, &p, n, 1)) return 0;
    for (int k = kind == VALUE ? 1 : 2; k <= 2; k++) { /* name, then number: \S+ up to the next space */
        f[k].start = p;
        while (p < n && !is_space((unsigned char)s[p])) p++;
        f[k].end = p;
        if (p == f[k].start || !spaces(s, &p, n, 1)) return 0;
        if (k == 1 && (!expect(s, &p, n, "is") || !spaces(s, &p, n, 1))) return 0;
    }
    if (!is_number(s, f[2].start, f[2].end)) return 0;
    if (!expect(s, &p, n, "in") || !spaces(s, &p, n, 1) || !expect(s, &p, n, "graph")) return 0;
    if (!id(s, &p, n, 0, &f[3]) || !expect(s, &p, n, "_result") || !id(s, &p, n, 0, &f[4])) return 0;
    if (!expect(s, &p, n, "_g") || !id(s, &p, n, 1, &f[5]) || !expect(s, &p, n, "_")) return 0;
    if (p < n && s[p] == 'R') p++;
    return id(s, &p, n, 0, &f[6]) ? kind : 0;
}

static PyObject *text(const char *s, span f) { return PyUnicode_DecodeASCII(s + f.start, f.end - f.start, NULL); }

/* (operator, name, value, (graph, result, group, case)) of a value line parse_value read, or
 * (operator, value, (graph, result, group, case)) of an objective line. */
static PyObject *value_record(const char *s, const span f[7], int kind)
{
    PyObject *number = text(s, f[2]);
    if (number == NULL) return NULL;
    PyObject *value = PyFloat_FromString(number); /* exactly float(str) */
    Py_DECREF(number);
    if (value == NULL) return NULL;
    PyObject *key = Py_BuildValue("(NNNN)", text(s, f[3]), text(s, f[4]), text(s, f[5]), text(s, f[6]));
    if (key == NULL) {
        Py_DECREF(value);
        return NULL;
    }
    if (kind == OBJECTIVE) return Py_BuildValue("(NNN)", text(s, f[0]), value, key);
    return Py_BuildValue("(NNNN)", text(s, f[0]), text(s, f[1]), value, key);
}

static PyObject *build_items(const char *s, const vec *merged, int values)
{
    Py_ssize_t count = merged->size / 4;
    PyObject *items = PyList_New(2 * count);
    if (items == NULL) return NULL;
    for (Py_ssize_t k = 0; k < count; k++) {
        const Py_ssize_t *entry = merged->data + 4 * k;
        Py_ssize_t start = entry[1], end = entry[2];
        while (end > start && s[end - 1] == '\r') end--; /* '\r' never ends a UTF-8 sequence: same as rstrip */
        PyObject *before = PyLong_FromSsize_t(entry[0]);
        span fields[7];
        PyObject *text;
        int kind = values ? parse_value(s + start, end - start, fields) : 0;
        if (kind)
            text = value_record(s + start, fields, kind);
        else
            text = PyUnicode_DecodeUTF8(s + start, end - start, "replace");
        if (before == NULL || text == NULL) {
            Py_XDECREF(before);
            Py_XDECREF(text);
            Py_DECREF(items);
            return NULL;
        }
        PyList_SET_ITEM(items, 2 * k, before);
        PyList_SET_ITEM(items, 2 * k + 1, text);
    }
    return items;
}

static PyObject *marked_lines(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *arg;
    int values = 0;
    if (!PyArg_ParseTuple(args, "O|p:marked_lines", &arg, &values)) return NULL;
    if (!PyBytes_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "marked_lines() takes bytes");
        return NULL;
    }
    /* bytes are immutable and we hold a reference: safe to read without the GIL. */
    const char *s = PyBytes_AS_STRING(arg);
    Py_ssize_t n = PyBytes_GET_SIZE(arg), newlines = 0;
    vec a = {NULL, 0, 0}, b = {NULL, 0, 0}, merged = {NULL, 0, 0};
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = bracket_lines(s, n, &a);
    if (status == 0) status = other_lines(s, n, &b);
    if (status == 0) status = merge_lines(s, &a, &b, &merged, &newlines, n);
    Py_END_ALLOW_THREADS
    free(a.data);
    free(b.data);
    PyObject *result = NULL;
    if (status != 0) {
        PyErr_NoMemory();
    } else {
        PyObject *items = build_items(s, &merged, values);
        if (items != NULL) result = Py_BuildValue("(Nn)", items, newlines);
    }
    free(merged.data);
    return result;
}

static PyMethodDef linescan_methods[] = {
    {"marked_lines", marked_lines, METH_VARARGS,
     "(flat [newlines before, text or value record, ...], newlines) of a block's marked lines."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef linescan_module = {
    PyModuleDef_HEAD_INIT, "_linescan", "Marked lines of ATT log blocks in C.", -1, linescan_methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__linescan(void) { return PyModule_Create(&linescan_module); }
