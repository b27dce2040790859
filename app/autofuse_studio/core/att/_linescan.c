/*
 * The marked lines of one block of an ATT log (see scanner.py, _feed_native): plain C99 over the bytes,
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
 * store_lines(block, first_line, sink) -> newlines
 *   the same lines, with the plain [PROF] records among them (values, objectives, template selections, best
 *   results, schedule results' values) stored into the scan here and every other line handed to the Python
 *   feed, in line order (see store_items below and scanner._FileScanner._feed_native).
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
    /* Back eight bytes at a time while none is '\n' (a word holds one when a byte of word ^ "\n\n..." is
     * zero; the test below is exact): the markers of long lines sit far from their line's start. */
    const uint64_t newlines = 0x0a0a0a0a0a0a0a0aULL, ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    while (pos >= 8) {
        uint64_t word;
        memcpy(&word, s + pos - 8, 8);
        word ^= newlines;
        if (((word - ones) & ~word & highs) != 0) break;
        pos -= 8;
    }
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

#define LANES 32
static Py_ssize_t count_newlines(const char *s, Py_ssize_t from, Py_ssize_t to)
{
    /* Byte counters in LANES lanes (compilers vectorise this into compare-and-subtract on whole registers),
     * summed before any can wrap (255 rounds); the tail byte by byte. */
    Py_ssize_t total = 0;
    while (to - from >= LANES) {
        Py_ssize_t rounds = (to - from) / LANES;
        if (rounds > 255) rounds = 255;
        uint8_t lanes[LANES] = {0};
        for (Py_ssize_t r = 0; r < rounds; r++, from += LANES)
            for (int k = 0; k < LANES; k++) lanes[k] += (uint8_t)(s[from + k] == '\n');
        for (int k = 0; k < LANES; k++) total += lanes[k];
    }
    for (; from < to; from++) total += (s[from] == '\n');
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
enum { VALUE = 1, OBJECTIVE = 2, TEMPLATE = 3, BEST = 4, RESULT_PERF = 5 };

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

static int is_ascii(const char *s, Py_ssize_t n)
{
    unsigned char any = 0;
    for (Py_ssize_t k = 0; k < n; k++) any |= (unsigned char)s[k];
    return !(any & 0x80);
}

static int not_operator(const char *s, span tag)
{
    static const char *const NOT_OPERATORS[] = {"PROF", "PERF", "DFX", "ATT"};
    for (size_t k = 0; k < 4; k++) {
        size_t len = strlen(NOT_OPERATORS[k]);
        if ((size_t)(tag.end - tag.start) == len && memcmp(s + tag.start, NOT_OPERATORS[k], len) == 0) return 1;
    }
    return 0;
}

/* The `[tag]` that ends (after \s*) right before s[at]: the last '[' before it, no bracket inside. */
static int tag_before(const char *s, Py_ssize_t at, span *tag)
{
    Py_ssize_t p = at - 1;
    while (p >= 0 && is_space((unsigned char)s[p])) p--;
    if (p < 0 || s[p] != ']') return 0;
    tag->end = p--;
    while (p >= 0 && s[p] != '[' && s[p] != ']') p--;
    if (p < 0 || s[p] != '[' || p + 1 == tag->end) return 0;
    tag->start = p + 1;
    return 1;
}

/* End of the longest NUMBER at s[a:] (re's greedy match when nothing follows it), or -1. */
static Py_ssize_t number_end(const char *s, Py_ssize_t a, Py_ssize_t n)
{
    Py_ssize_t p = a;
    if (p < n && (s[p] == '-' || s[p] == '+')) p++;
    Py_ssize_t whole = digits(s, p, n);
    p += whole;
    if (p < n && s[p] == '.' && (whole > 0 || digits(s, p + 1, n) > 0)) {
        p++;
        p += digits(s, p, n);
    } else if (whole == 0) {
        return -1;
    }
    if (p < n && (s[p] == 'e' || s[p] == 'E')) {
        Py_ssize_t q = p + 1;
        if (q < n && (s[q] == '-' || s[q] == '+')) q++;
        Py_ssize_t exponent = digits(s, q, n);
        if (exponent > 0) p = q + exponent;
    }
    return p;
}

/* After `[PROF]\s*`: _TEMPLATE's or _BEST's grammar (lines.py) in f[3..6] (graph, result, group, case). */
static int parse_choice(const char *s, Py_ssize_t p, Py_ssize_t n, span f[7])
{
    if (expect(s, &p, n, "Among all schedule results,")) {
        spaces(s, &p, n, 0);
        if (!expect(s, &p, n, "graph") || !id(s, &p, n, 0, &f[3]) || !expect(s, &p, n, "_result") ||
            !id(s, &p, n, 0, &f[4]))
            return 0;
        return spaces(s, &p, n, 1) && expect(s, &p, n, "is the best choice") ? BEST : 0;
    }
    if (!expect(s, &p, n, "Among the templates,")) return 0;
    spaces(s, &p, n, 0);
    if (!expect(s, &p, n, "tiling case") || !spaces(s, &p, n, 1)) return 0;
    if (p < n && s[p] == 'R') p++;
    if (!id(s, &p, n, 0, &f[6]) || !spaces(s, &p, n, 1) || !expect(s, &p, n, "of") || !spaces(s, &p, n, 1)) return 0;
    if (!expect(s, &p, n, "graph") || !id(s, &p, n, 0, &f[3]) || !expect(s, &p, n, "_result") ||
        !id(s, &p, n, 0, &f[4]) || !expect(s, &p, n, "_g") || !id(s, &p, n, 1, &f[5]))
        return 0;
    if (p < n && s[p] == '_') { /* (?:_R?\d+)? : when it does not match, neither can \s+ */
        Py_ssize_t q = p + 1;
        if (q < n && s[q] == 'R') q++;
        Py_ssize_t count = digits(s, q, n);
        if (count == 0) return 0;
        p = q + count;
    }
    return spaces(s, &p, n, 1) && expect(s, &p, n, "is the best choice") ? TEMPLATE : 0;
}

/*
 * The other plain [PROF] kinds, for store_lines: a template selection or best result (TEMPLATE, BEST: f[0]
 * the tag, ids in f[3..6]) of a line with a single "[PROF]" (so parse_prof_value cannot match later in it,
 * and _PROF's first match is at that tag), or a schedule result's value (RESULT_PERF: f[0], f[2] the number,
 * f[3..4]) of a line without "[PROF]", "[DFX]" or "[ATT][FINAL_TILING" (feed_line's other branches) and with a
 * single "The value of" (so _RESULT_PERF's first match is at it). 0 for anything else or unusual.
 */
static int parse_other(const char *s, Py_ssize_t n, span f[7])
{
    if (!is_ascii(s, n) || find(s, 0, n, "[PERF]", 6) >= 0) return 0;
    Py_ssize_t marker = find(s, 0, n, "[PROF]", 6);
    if (marker >= 0) {
        if (find(s, marker + 1, n, "[PROF]", 6) >= 0 || !tag_before(s, marker, &f[0]) || not_operator(s, f[0]))
            return 0;
        Py_ssize_t p = marker + 6;
        spaces(s, &p, n, 0);
        return parse_choice(s, p, n, f);
    }
    if (find(s, 0, n, "[DFX]", 5) >= 0 || find(s, 0, n, "[ATT][FINAL_TILING", 18) >= 0) return 0;
    static const char VALUE_OF[] = "The value of";
    Py_ssize_t at = find(s, 0, n, VALUE_OF, 12);
    if (at < 0 || find(s, at + 1, n, VALUE_OF, 12) >= 0 || !tag_before(s, at, &f[0]) || not_operator(s, f[0]))
        return 0;
    Py_ssize_t p = at + 12;
    if (!spaces(s, &p, n, 1) || !expect(s, &p, n, "graph") || !id(s, &p, n, 0, &f[3]) ||
        !expect(s, &p, n, "_result") || !id(s, &p, n, 0, &f[4]))
        return 0;
    if (!spaces(s, &p, n, 1) || !expect(s, &p, n, "is") || !spaces(s, &p, n, 1)) return 0;
    f[2].start = p;
    f[2].end = number_end(s, p, n);
    return f[2].end < 0 ? 0 : RESULT_PERF;
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

/*
 * store_lines: the plain [PROF] records of a block stored straight into the scan, in C.
 *
 * What scanner._FileScanner did per record in Python (a tuple from marked_lines, then SourceRef, CaseKey,
 * TilingValue and four dict updates: ~1.7 us a record; 15 us for a template or result line of 1 KB, which
 * the grammars' regexes search several times) done here with the same objects in the same order; every other
 * marked line goes to the Python feed, in line order, so records stored here and there interleave as before.
 */
typedef struct {
    PyObject *path, *operators, *new_operator, *keys, *names, *case_key, *feed, *value_type, *objective_type,
        *template_type, *best_type, *result_perf_type, *source_type;
} sink;

/* Attribute names, interned once. */
static PyObject *S_PROF_LINES, *S_FIRST_MENTIONS, *S_VALUES, *S_OBJECTIVES, *S_SELECTIONS, *S_RESULT_PERFS,
    *S_BEST_RESULT, *S_OPERATOR, *S_KEY, *S_NAME, *S_VALUE, *S_SOURCE, *S_GRAPH, *S_RESULT, *EMPTY;
/* Labels and names cached per scan, bounded as lines._KEY_CACHE is. */
#define MAX_CACHED_KEYS 100000

/* SourceRef(path, line) as tuple.__new__(SourceRef, ...) makes it (the scanner's NamedTuple, without __new__). */
static PyObject *source_ref(const sink *k, PyObject *line)
{
    PyTypeObject *type = (PyTypeObject *)k->source_type;
    PyObject *source = type->tp_alloc(type, 2);
    if (source == NULL) return NULL;
    Py_INCREF(k->path);
    Py_INCREF(line);
    PyTuple_SET_ITEM(source, 0, k->path);
    PyTuple_SET_ITEM(source, 1, line);
    return source;
}

/* object.__new__(type) with its fields set (the record dataclasses' __init__ only assigns them). */
static PyObject *record(PyObject *type, PyObject *const *names, PyObject *const *values, int count)
{
    PyObject *obj = PyBaseObject_Type.tp_new((PyTypeObject *)type, EMPTY, NULL);
    if (obj == NULL) return NULL;
    for (int k = 0; k < count; k++) {
        if (PyObject_SetAttr(obj, names[k], values[k]) < 0) {
            Py_DECREF(obj);
            return NULL;
        }
    }
    return obj;
}

/* The CaseKey of the label a record names (cached by its text; lines.case_key on a miss). */
static PyObject *case_key_of(const sink *k, const char *s, const span f[7])
{
    span label = {f[3].start - 5, f[6].end}; /* from "graph" to the case id */
    PyObject *text_key = text(s, label);
    if (text_key == NULL) return NULL;
    PyObject *key = PyDict_GetItemWithError(k->keys, text_key);
    if (key != NULL) {
        Py_INCREF(key);
        Py_DECREF(text_key);
        return key;
    }
    if (PyErr_Occurred()) goto fail;
    PyObject *ids = Py_BuildValue("(NNNN)", text(s, f[3]), text(s, f[4]), text(s, f[5]), text(s, f[6]));
    if (ids == NULL) goto fail;
    key = PyObject_CallOneArg(k->case_key, ids);
    Py_DECREF(ids);
    if (key == NULL) goto fail;
    if (PyDict_GET_SIZE(k->keys) >= MAX_CACHED_KEYS) PyDict_Clear(k->keys);
    if (PyDict_SetItem(k->keys, text_key, key) < 0) {
        Py_DECREF(key);
        goto fail;
    }
    Py_DECREF(text_key);
    return key;
fail:
    Py_DECREF(text_key);
    return NULL;
}

/* One str object per distinct text of a field (value names repeat on most lines): the records share it. */
static PyObject *shared_text(PyObject *cache, const char *s, span f)
{
    PyObject *fresh = text(s, f);
    if (fresh == NULL) return NULL;
    PyObject *known = PyDict_GetItemWithError(cache, fresh);
    if (known != NULL) {
        Py_INCREF(known);
        Py_DECREF(fresh);
        return known;
    }
    if (PyErr_Occurred()) {
        Py_DECREF(fresh);
        return NULL;
    }
    if (PyDict_GET_SIZE(cache) >= MAX_CACHED_KEYS) PyDict_Clear(cache);
    if (PyDict_SetItem(cache, fresh, fresh) < 0) {
        Py_DECREF(fresh);
        return NULL;
    }
    return fresh;
}

/* op.prof_lines += 1 */
static int count_prof_line(PyObject *op)
{
    PyObject *count = PyObject_GetAttr(op, S_PROF_LINES);
    if (count == NULL) return -1;
    Py_ssize_t n = PyLong_AsSsize_t(count);
    Py_DECREF(count);
    if (n == -1 && PyErr_Occurred()) return -1;
    PyObject *more = PyLong_FromSsize_t(n + 1);
    if (more == NULL) return -1;
    int status = PyObject_SetAttr(op, S_PROF_LINES, more);
    Py_DECREF(more);
    return status;
}

/* target[key] = item for op.<attribute>[key] (VALUE: op.values.setdefault(key, {})[name] = item). */
static int put(PyObject *op, PyObject *attribute, PyObject *key, PyObject *name, PyObject *item)
{
    PyObject *table = PyObject_GetAttr(op, attribute);
    if (table == NULL) return -1;
    int status;
    if (name == NULL) {
        status = PyDict_SetItem(table, key, item);
    } else {
        PyObject *fresh = PyDict_New();
        PyObject *values = fresh ? PyDict_SetDefault(table, key, fresh) : NULL; /* borrowed */
        status = values ? PyDict_SetItem(values, name, item) : -1;
        Py_XDECREF(fresh);
    }
    Py_DECREF(table);
    return status;
}

/* The scan's OperatorLog of a record, made by new_operator(name, source) on its first record (new reference). */
static PyObject *operator_of(const sink *k, PyObject *name, PyObject *source)
{
    PyObject *op = PyDict_GetItemWithError(k->operators, name);
    if (op != NULL) {
        Py_INCREF(op);
        return op;
    }
    return PyErr_Occurred() ? NULL : PyObject_CallFunctionObjArgs(k->new_operator, name, source, NULL);
}

/* The CaseKey of a template line's ids (lines.case_key of graph, result, group, case as written). */
static PyObject *template_key(const sink *k, const char *s, const span f[7])
{
    PyObject *ids = Py_BuildValue("(NNNN)", text(s, f[3]), text(s, f[4]), text(s, f[5]), text(s, f[6]));
    if (ids == NULL) return NULL;
    PyObject *key = PyObject_CallOneArg(k->case_key, ids);
    Py_DECREF(ids);
    return key;
}

/* An id as int() reads it (at most 19 digits: see id()). */
static PyObject *number_of(const char *s, span f)
{
    PyObject *digits_text = text(s, f);
    if (digits_text == NULL) return NULL;
    PyObject *number = PyLong_FromUnicodeObject(digits_text, 10);
    Py_DECREF(digits_text);
    return number;
}

/* A value, objective or template selection: prof_lines, first_mentions, then its table (see _store). */
static int store_case_record(PyObject *op, PyObject *key, PyObject *name, PyObject *item,
                             PyObject *line, int kind)
{
    if (count_prof_line(op) < 0) return -1;
    PyObject *mentions = PyObject_GetAttr(op, S_FIRST_MENTIONS);
    int status = mentions != NULL && PyDict_SetDefault(mentions, key, line) != NULL ? 0 : -1;
    Py_XDECREF(mentions);
    if (status < 0) return -1;
    if (kind == VALUE) return put(op, S_VALUES, key, name, item);
    if (kind == OBJECTIVE) return put(op, S_OBJECTIVES, key, NULL, item);
    PyObject *group = PyTuple_GetSlice(key, 0, 3); /* (graph, result, group) */
    status = group ? put(op, S_SELECTIONS, group, NULL, item) : -1;
    Py_XDECREF(group);
    return status;
}

/* Store one record parse_value or parse_other read, as _FileScanner._store_value / _store would. */
static int store_record(const sink *k, const char *s, const span f[7], int kind, PyObject *line)
{
    PyObject *op_name = text(s, f[0]), *source = source_ref(k, line), *op = NULL, *key = NULL, *name = NULL;
    PyObject *value = NULL, *item = NULL, *graph = NULL, *result = NULL;
    int status = -1;
    if (op_name == NULL || source == NULL || (op = operator_of(k, op_name, source)) == NULL) goto done;
    Py_SETREF(op_name, PyObject_GetAttr(op, S_NAME)); /* the same text; one str for all of the operator's records */
    if (op_name == NULL) goto done;
    if (kind == VALUE || kind == OBJECTIVE || kind == RESULT_PERF) {
        PyObject *number = text(s, f[2]);
        value = number ? PyFloat_FromString(number) : NULL; /* exactly float(str) */
        Py_XDECREF(number);
        if (value == NULL) goto done;
    }
    if (kind == VALUE || kind == OBJECTIVE) {
        if ((key = case_key_of(k, s, f)) == NULL) goto done;
    } else if (kind == TEMPLATE) {
        if ((key = template_key(k, s, f)) == NULL) goto done;
    } else if ((graph = number_of(s, f[3])) == NULL || (result = number_of(s, f[4])) == NULL) {
        goto done;
    }
    if (kind == VALUE) {
        if ((name = shared_text(k->names, s, f[1])) == NULL) goto done;
        PyObject *names[] = {S_OPERATOR, S_KEY, S_NAME, S_VALUE, S_SOURCE};
        PyObject *fields[] = {op_name, key, name, value, source};
        item = record(k->value_type, names, fields, 5);
    } else if (kind == OBJECTIVE) {
        PyObject *names[] = {S_OPERATOR, S_KEY, S_VALUE, S_SOURCE};
        PyObject *fields[] = {op_name, key, value, source};
        item = record(k->objective_type, names, fields, 4);
    } else if (kind == TEMPLATE) {
        PyObject *names[] = {S_OPERATOR, S_KEY, S_SOURCE};
        PyObject *fields[] = {op_name, key, source};
        item = record(k->template_type, names, fields, 3);
    } else if (kind == BEST) {
        PyObject *names[] = {S_OPERATOR, S_GRAPH, S_RESULT, S_SOURCE};
        PyObject *fields[] = {op_name, graph, result, source};
        item = record(k->best_type, names, fields, 4);
    } else {
        PyObject *names[] = {S_OPERATOR, S_GRAPH, S_RESULT, S_VALUE, S_SOURCE};
        PyObject *fields[] = {op_name, graph, result, value, source};
        item = record(k->result_perf_type, names, fields, 5);
    }
    if (item == NULL) goto done;
    if (kind == RESULT_PERF) { /* op.result_perfs[(graph, result)] = record; not a [PROF] line */
        PyObject *pair = PyTuple_Pack(2, graph, result);
        status = pair ? put(op, S_RESULT_PERFS, pair, NULL, item) : -1;
        Py_XDECREF(pair);
    } else if (kind == BEST) {
        status = count_prof_line(op) < 0 ? -1 : PyObject_SetAttr(op, S_BEST_RESULT, item);
    } else {
        status = store_case_record(op, key, name, item, line, kind);
    }
done:
    Py_XDECREF(op_name);
    Py_XDECREF(source);
    Py_XDECREF(op);
    Py_XDECREF(key);
    Py_XDECREF(name);
    Py_XDECREF(value);
    Py_XDECREF(item);
    Py_XDECREF(graph);
    Py_XDECREF(result);
    return status;
}

/* Every marked line in order: a plain record stored, any other line handed to feed(text, path, line). */
static int store_items(const sink *k, const char *s, const vec *merged, Py_ssize_t first_line)
{
    for (Py_ssize_t i = 0; i < merged->size; i += 4) {
        const Py_ssize_t *entry = merged->data + i;
        Py_ssize_t start = entry[1], end = entry[2];
        while (end > start && s[end - 1] == '\r') end--;
        span fields[7];
        int kind = parse_value(s + start, end - start, fields);
        if (!kind) kind = parse_other(s + start, end - start, fields);
        PyObject *line = PyLong_FromSsize_t(first_line + entry[0]);
        if (line == NULL) return -1;
        int status;
        if (kind) {
            status = store_record(k, s + start, fields, kind, line);
        } else {
            PyObject *decoded = PyUnicode_DecodeUTF8(s + start, end - start, "replace");
            PyObject *result = decoded ? PyObject_CallFunctionObjArgs(k->feed, decoded, k->path, line, NULL) : NULL;
            status = result ? 0 : -1;
            Py_XDECREF(decoded);
            Py_XDECREF(result);
        }
        Py_DECREF(line);
        if (status < 0) return -1;
    }
    return 0;
}

/* The marked lines of a block located with the GIL released (see marked_lines); -1 and MemoryError on failure. */
static int locate(const char *s, Py_ssize_t n, vec *merged, Py_ssize_t *newlines)
{
    vec a = {NULL, 0, 0}, b = {NULL, 0, 0};
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = bracket_lines(s, n, &a);
    if (status == 0) status = other_lines(s, n, &b);
    if (status == 0) status = merge_lines(s, &a, &b, merged, newlines, n);
    Py_END_ALLOW_THREADS
    free(a.data);
    free(b.data);
    if (status != 0) PyErr_NoMemory();
    return status;
}

static PyObject *store_lines(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *block;
    Py_ssize_t first_line;
    sink k;
    if (!PyArg_ParseTuple(args, "Sn(UO!OO!O!OOOOOOOO):store_lines", &block, &first_line, &k.path, &PyDict_Type,
                          &k.operators, &k.new_operator, &PyDict_Type, &k.keys, &PyDict_Type, &k.names, &k.case_key,
                          &k.feed,
                          &k.value_type, &k.objective_type, &k.template_type, &k.best_type, &k.result_perf_type,
                          &k.source_type))
        return NULL;
    PyObject *types[] = {k.value_type, k.objective_type, k.template_type, k.best_type, k.result_perf_type};
    int typed = PyType_Check(k.source_type) && PyType_IsSubtype((PyTypeObject *)k.source_type, &PyTuple_Type);
    for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++) /* classes object.__new__ may make */
        typed = typed && PyType_Check(types[t]) && ((PyTypeObject *)types[t])->tp_new == PyBaseObject_Type.tp_new;
    if (!typed) {
        PyErr_SetString(PyExc_TypeError, "store_lines() needs the record types and a tuple type for sources");
        return NULL;
    }
    /* The block is held by the args tuple for the whole call, even if feed drops its own references. */
    const char *s = PyBytes_AS_STRING(block);
    Py_ssize_t n = PyBytes_GET_SIZE(block), newlines = 0;
    vec merged = {NULL, 0, 0};
    PyObject *result = NULL;
    if (locate(s, n, &merged, &newlines) == 0 && store_items(&k, s, &merged, first_line) == 0)
        result = PyLong_FromSsize_t(newlines);
    free(merged.data);
    return result;
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
    vec merged = {NULL, 0, 0};
    PyObject *result = NULL;
    if (locate(s, n, &merged, &newlines) == 0) {
        PyObject *items = build_items(s, &merged, values);
        if (items != NULL) result = Py_BuildValue("(Nn)", items, newlines);
    }
    free(merged.data);
    return result;
}

static PyMethodDef linescan_methods[] = {
    {"marked_lines", marked_lines, METH_VARARGS,
     "(flat [newlines before, text or value record, ...], newlines) of a block's marked lines."},
    {"store_lines", store_lines, METH_VARARGS,
     "store_lines(block, first_line, (path, operators, new_operator, keys, names, case_key, feed, TilingValue, Objective, "
     "TemplateSelection, BestResult, ResultPerf, SourceRef)) -> newlines: plain records stored into the scan, "
     "other marked lines fed."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef linescan_module = {
    PyModuleDef_HEAD_INIT, "_linescan", "Marked lines of ATT log blocks in C.", -1, linescan_methods,
    NULL, NULL, NULL, NULL,
};

static int intern_names(void)
{
    PyObject **slots[] = {&S_PROF_LINES, &S_FIRST_MENTIONS, &S_VALUES, &S_OBJECTIVES, &S_SELECTIONS,
                          &S_RESULT_PERFS, &S_BEST_RESULT, &S_OPERATOR, &S_KEY, &S_NAME, &S_VALUE, &S_SOURCE,
                          &S_GRAPH, &S_RESULT};
    const char *names[] = {"prof_lines", "first_mentions", "values", "objectives", "selections", "result_perfs",
                           "best_result", "operator", "key", "name", "value", "source", "graph", "result"};
    for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
        if (*slots[k] == NULL && (*slots[k] = PyUnicode_InternFromString(names[k])) == NULL) return -1;
    }
    if (EMPTY == NULL && (EMPTY = PyTuple_New(0)) == NULL) return -1;
    return 0;
}

PyMODINIT_FUNC PyInit__linescan(void)
{
    if (intern_names() < 0) return NULL;
    return PyModule_Create(&linescan_module);
}
