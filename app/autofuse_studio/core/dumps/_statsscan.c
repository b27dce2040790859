/* A statistics CSV's plain data lines read in one C pass (stats_rows.RowReader's pattern, field by field).
 *
 * A statistics-mode dump is one small CSV per op dump, 100k+ per rank. In Python each data line cost a regex
 * match, its groups, a lazy row object and a dict entry (~8 us), the file's loop around them as much again. Here
 * every line after the header is checked and converted at once; the first line that is not plain (quotes,
 * spaces, a bad value, another field count, no statistic at all, too many dims, a repeated header) makes the
 * call answer None and the caller reads the whole file the general way, whose answer (and sentences) stand.
 *
 * plain_rows(lines, start, roles, items, extra, max_line, max_dims, max_rows) -> dict | None
 *   lines: list of bytes (the file's bytes.splitlines()); lines[start:] are read, line numbers start + 1 ...
 *   roles: bytes, one role per field up to the header's last named one:
 *     'k' kind  (?i:input|output)                     -> "input" / "output"
 *     'i' index [0-9]{1,19}                             -> int
 *     't' text  [!-+\--~]*  (printable ASCII, no space) -> str (maybe "")
 *     's' shape [0-9]{1,19}([xX][0-9]{1,19})* | missing -> tuple of ints | None
 *     'f' float [+-]?(digits[.digits*]|.digits)([eE][+-]?digits)? | [+-]?(inf|infinity|nan) | missing -> float | None
 *     'w' whole \+?[0-9]{1,19}(\.0*)? | missing         -> int | None
 *     'a' any   [^,]*                                   -> (not kept)
 *   missing: an empty field, NA, N/A or - (any case).
 *   items: bytes, 1 where the field is a statistic: a line whose statistics are all missing is not plain.
 *   extra: fields allowed after the named ones (any content); max_line: the longest plain line; max_dims: a
 *   shape with this many 'x' or more is not plain; max_rows: more distinct tensors than this is not plain.
 *   The answer maps (kind, index) to (line number, the values of the 't', 's', 'f', 'w' fields in order); a later
 *   line of the same tensor replaces an earlier one (as read_stats_csv keeps it). Blank lines (spaces, tabs, \v,
 *   \f only, or empty) are skipped.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define MAX_FIELDS 512 /* a header with more named fields than this is read the general way */

static PyObject *input_text, *output_text;

static int is_digit(char c) { return c >= '0' && c <= '9'; }

static char lower(char c) { return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c; }

/* True when field[0:length] equals `word` (lower case) ignoring ASCII case. */
static int same_word(const char *field, Py_ssize_t length, const char *word) {
    Py_ssize_t size = (Py_ssize_t)strlen(word);
    if (length != size) {
        return 0;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        if (lower(field[i]) != word[i]) {
            return 0;
        }
    }
    return 1;
}

static int is_missing(const char *field, Py_ssize_t length) {
    return length == 0 || same_word(field, length, "na") || same_word(field, length, "n/a") ||
           same_word(field, length, "-");
}

/* 1-19 digits as an int (new reference), NULL with no error set when they are not that. */
static PyObject *digits_value(const char *field, Py_ssize_t length) {
    if (length < 1 || length > 19) {
        return NULL;
    }
    unsigned long long value = 0;
    for (Py_ssize_t i = 0; i < length; i++) {
        if (!is_digit(field[i])) {
            return NULL;
        }
        value = value * 10 + (unsigned long long)(field[i] - '0');
    }
    return PyLong_FromUnsignedLongLong(value);
}

static Py_ssize_t digit_run(const char *text, Py_ssize_t at, Py_ssize_t length) {
    Py_ssize_t start = at;
    while (at < length && is_digit(text[at])) {
        at++;
    }
    return at - start;
}

/* The float grammar (see the top); 1 when the whole field is one. */
static int float_grammar(const char *field, Py_ssize_t length) {
    Py_ssize_t at = 0;
    if (at < length && (field[at] == '+' || field[at] == '-')) {
        at++;
    }
    const char *rest = field + at;
    Py_ssize_t left = length - at;
    if (same_word(rest, left, "inf") || same_word(rest, left, "infinity") || same_word(rest, left, "nan")) {
        return 1;
    }
    Py_ssize_t run = digit_run(field, at, length);
    if (run > 0) {
        at += run;
        if (at < length && field[at] == '.') {
            at++;
            at += digit_run(field, at, length);
        }
    } else if (at < length && field[at] == '.') {
        at++;
        run = digit_run(field, at, length);
        if (run == 0) {
            return 0;
        }
        at += run;
    } else {
        return 0;
    }
    if (at < length && (field[at] == 'e' || field[at] == 'E')) {
        at++;
        if (at < length && (field[at] == '+' || field[at] == '-')) {
            at++;
        }
        run = digit_run(field, at, length);
        if (run == 0) {
            return 0;
        }
        at += run;
    }
    return at == length;
}

/* float(field) as Python's float() spells it (PyOS_string_to_double, overflow to +-inf); NULL, no error set,
 * when the field is not the grammar's (or the parser would stop early). */
static PyObject *float_value(const char *field, Py_ssize_t length) {
    if (!float_grammar(field, length)) {
        return NULL;
    }
    char buffer[400];
    char *text = length < (Py_ssize_t)sizeof(buffer) ? buffer : PyMem_Malloc((size_t)length + 1);
    if (text == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    memcpy(text, field, (size_t)length);
    text[length] = '\0';
    char *end = NULL;
    double value = PyOS_string_to_double(text, &end, NULL);
    int whole = end == text + length;
    if (text != buffer) {
        PyMem_Free(text);
    }
    if (value == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        return NULL;
    }
    return whole ? PyFloat_FromDouble(value) : NULL;
}

/* \+?[0-9]{1,19}(\.0*)? as an int; NULL (no error set) when not. */
static PyObject *whole_value(const char *field, Py_ssize_t length) {
    Py_ssize_t at = (length > 0 && field[0] == '+') ? 1 : 0;
    Py_ssize_t run = digit_run(field, at, length);
    Py_ssize_t stop = at + run;
    if (stop < length) {
        if (field[stop] != '.') {
            return NULL;
        }
        for (Py_ssize_t i = stop + 1; i < length; i++) {
            if (field[i] != '0') {
                return NULL;
            }
        }
    }
    return digits_value(field + at, run);
}

/* [0-9]{1,19}([xX][0-9]{1,19})* as a tuple of ints, NULL (no error set) when not or with max_dims 'x' or more. */
static PyObject *shape_value(const char *field, Py_ssize_t length, Py_ssize_t max_dims) {
    Py_ssize_t dims = 1;
    for (Py_ssize_t i = 0; i < length; i++) {
        if (field[i] == 'x' || field[i] == 'X') {
            dims++;
        }
    }
    if (dims - 1 >= max_dims) {
        return NULL;
    }
    PyObject *shape = PyTuple_New(dims);
    if (shape == NULL) {
        return NULL;
    }
    Py_ssize_t start = 0;
    for (Py_ssize_t dim = 0; dim < dims; dim++) {
        Py_ssize_t stop = start;
        while (stop < length && field[stop] != 'x' && field[stop] != 'X') {
            stop++;
        }
        PyObject *value = digits_value(field + start, stop - start);
        if (value == NULL) {
            Py_DECREF(shape);
            return NULL;
        }
        PyTuple_SET_ITEM(shape, dim, value);
        start = stop + 1;
    }
    return shape;
}

static int is_text(const char *field, Py_ssize_t length) {
    for (Py_ssize_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)field[i];
        if (c < 0x21 || c > 0x7E || c == ',') {
            return 0;
        }
    }
    return 1;
}

static int is_blank(const char *line, Py_ssize_t length) {
    for (Py_ssize_t i = 0; i < length; i++) {
        char c = line[i];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\v' && c != '\f') {
            return 0;
        }
    }
    return 1;
}

typedef struct {
    const char *roles;
    const char *items;
    Py_ssize_t named;
    Py_ssize_t extra;
    Py_ssize_t max_line;
    Py_ssize_t max_dims;
    Py_ssize_t values; /* fields of roles t, s, f, w */
} Program;

/* One line's (kind, index) key and its row (number, values...): 1 when plain, 0 when not (no error), -1 on error. */
static int plain_line(const Program *program, const char *line, Py_ssize_t length, long number, PyObject **key,
                      PyObject **row) {
    if (length > program->max_line) {
        return 0;
    }
    for (Py_ssize_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)line[i];
        if (c >= 0x80 || c == '"' || c == '\0') {
            return 0;
        }
    }
    const char *starts[MAX_FIELDS];
    Py_ssize_t lengths[MAX_FIELDS];
    Py_ssize_t fields = 0, start = 0;
    for (Py_ssize_t i = 0; i <= length; i++) {
        if (i == length || line[i] == ',') {
            if (fields < program->named) {
                starts[fields] = line + start;
                lengths[fields] = i - start;
            }
            fields++;
            start = i + 1;
        }
    }
    if (fields < program->named || fields > program->named + program->extra) {
        return 0;
    }
    PyObject *values = PyTuple_New(program->values + 1);
    if (values == NULL) {
        return -1;
    }
    PyObject *kind = NULL, *index = NULL;
    Py_ssize_t filled = 1;
    int statistics = 0;
    for (Py_ssize_t j = 0; j < program->named; j++) {
        const char *field = starts[j];
        Py_ssize_t size = lengths[j];
        char role = program->roles[j];
        PyObject *value = NULL;
        if (role == 'a') {
            continue;
        }
        if (role == 'k') {
            if (kind != NULL) {
                goto not_plain;
            }
            kind = same_word(field, size, "input") ? input_text : same_word(field, size, "output") ? output_text : NULL;
            if (kind == NULL) {
                goto not_plain;
            }
            continue;
        }
        if (role == 'i') {
            if (index != NULL) {
                goto not_plain;
            }
            index = digits_value(field, size);
            if (index == NULL) {
                goto failed_or_not_plain;
            }
            continue;
        }
        if (role == 't') {
            if (!is_text(field, size)) {
                goto not_plain;
            }
            value = PyUnicode_DecodeASCII(field, size, NULL);
        } else if (is_missing(field, size)) {
            value = Py_NewRef(Py_None);
        } else {
            if (role == 's') {
                value = shape_value(field, size, program->max_dims);
            } else if (role == 'f') {
                value = float_value(field, size);
            } else if (role == 'w') {
                value = whole_value(field, size);
            }
            if (value == NULL) {
                goto failed_or_not_plain;
            }
        }
        if (value == NULL) {
            goto failed;
        }
        if (filled > program->values) {
            Py_DECREF(value);
            goto not_plain;
        }
        if (program->items[j] && value != Py_None) {
            statistics = 1;
        }
        PyTuple_SET_ITEM(values, filled++, value);
    }
    if (kind == NULL || index == NULL || !statistics || filled != program->values + 1) {
        goto not_plain;
    }
    PyObject *line_number = PyLong_FromLong(number);
    if (line_number == NULL) {
        goto failed;
    }
    PyTuple_SET_ITEM(values, 0, line_number);
    *key = PyTuple_Pack(2, kind, index);
    if (*key == NULL) {
        goto failed;
    }
    Py_DECREF(index);
    *row = values;
    return 1;
failed_or_not_plain:
    if (PyErr_Occurred()) {
        goto failed;
    }
not_plain:
    Py_XDECREF(index);
    Py_DECREF(values);
    return 0;
failed:
    Py_XDECREF(index);
    Py_DECREF(values);
    return -1;
}

static PyObject *plain_rows(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *lines;
    Py_ssize_t start, roles_size, items_size;
    Program program;
    Py_ssize_t max_rows;
    if (!PyArg_ParseTuple(args, "O!ny#y#nnnn:plain_rows", &PyList_Type, &lines, &start, &program.roles, &roles_size,
                          &program.items, &items_size, &program.extra, &program.max_line, &program.max_dims,
                          &max_rows)) {
        return NULL;
    }
    if (roles_size != items_size || start < 0 || program.extra < 0) {
        PyErr_SetString(PyExc_ValueError, "plain_rows: roles and items differ in size, or a negative count");
        return NULL;
    }
    if (roles_size > MAX_FIELDS) {
        Py_RETURN_NONE;
    }
    program.named = roles_size;
    program.values = 0;
    for (Py_ssize_t j = 0; j < roles_size; j++) {
        char role = program.roles[j];
        if (strchr("kitsfwa", role) == NULL || role == '\0') {
            PyErr_SetString(PyExc_ValueError, "plain_rows: an unknown role");
            return NULL;
        }
        program.values += role == 't' || role == 's' || role == 'f' || role == 'w';
    }
    PyObject *rows = PyDict_New();
    if (rows == NULL) {
        return NULL;
    }
    Py_ssize_t count = PyList_GET_SIZE(lines);
    for (Py_ssize_t i = start; i < count; i++) {
        PyObject *item = PyList_GET_ITEM(lines, i);
        if (!PyBytes_Check(item)) {
            Py_DECREF(rows);
            PyErr_SetString(PyExc_TypeError, "plain_rows: lines must be bytes");
            return NULL;
        }
        const char *line = PyBytes_AS_STRING(item);
        Py_ssize_t length = PyBytes_GET_SIZE(item);
        PyObject *key = NULL, *row = NULL;
        int found = plain_line(&program, line, length, (long)(i + 1), &key, &row);
        if (found < 0) {
            Py_DECREF(rows);
            return NULL;
        }
        if (found == 0) {
            if (is_blank(line, length)) {
                continue;
            }
            Py_DECREF(rows);
            Py_RETURN_NONE; /* the general path reads this file */
        }
        int known = PyDict_Contains(rows, key);
        if (known < 0 || (!known && PyDict_GET_SIZE(rows) >= max_rows)) {
            Py_DECREF(key);
            Py_DECREF(row);
            Py_DECREF(rows);
            if (known < 0) {
                return NULL;
            }
            Py_RETURN_NONE; /* too many tensors: the general path says so */
        }
        int failed = PyDict_SetItem(rows, key, row);
        Py_DECREF(key);
        Py_DECREF(row);
        if (failed < 0) {
            Py_DECREF(rows);
            return NULL;
        }
    }
    return rows;
}

static PyMethodDef methods[] = {
    {"plain_rows", plain_rows, METH_VARARGS,
     "plain_rows(lines, start, roles, items, extra, max_line, max_dims, max_rows) -> {(kind, index): (line, "
     "values...)} or None when a line is not plain."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_statsscan",
                                    "Plain data lines of statistics CSVs, read in C.", -1, methods};

PyMODINIT_FUNC PyInit__statsscan(void) {
    input_text = PyUnicode_InternFromString("input");
    output_text = PyUnicode_InternFromString("output");
    if (input_text == NULL || output_text == NULL) {
        return NULL;
    }
    return PyModule_Create(&module);
}
