/* Rows of a table joined into UTF-8 bytes straight from its columns (CSV lines, xlsx <row> elements).
 *
 * The result writers spell every column's cells in bulk; what is left per row (one join of ~40 cells, the row
 * number put into the xlsx cell references, the encode to UTF-8) took longer in Python than the spelling itself.
 * join_rows does it in one pass over the columns: no per-row string is built.
 *
 * join_rows(columns, start, stop, row_open, row_close, separator, first_number) -> bytes
 *   columns: a sequence of (values, before, after, empty[, number_before, number_after]); values a list or
 *   tuple of cells, each
 *     None or ""       -> `empty`
 *     str              -> `before` + the text + `after`
 *     int              -> `number_before` + str(value) + `number_after` (before/after when not given)
 *     float            -> the same with repr(value) (float.__repr__: PyOS_double_to_string 'r'); NaN/Inf -> `empty`
 *     (str,)           -> that text as it is (a cell spelled whole by the caller)
 *   or values is bytes: msgspec's JSON array of the numbers of rows start..stop-1 (msgspec spells floats 25x
 *   faster than repr), each token written as the number cell it is: `null` -> `empty`, an int as it is, a float
 *   respelled as float.__repr__ spells the same digits (msgspec's are the shortest round trip, as repr's), a word
 *   of ASCII letters, '+' and '-' between quotes ("nan") as a text cell: `before` + the word + `after`.
 *   For each row i in [start, stop): row_open, the columns' cells joined by `separator`, row_close.
 *   In row_open, row_close, before, after, empty and the whole-cell texts, every \x01 becomes the row's number
 *   (first_number + i - start); the plain texts are copied as they are. Text that UTF-8 cannot hold (a lone
 *   surrogate) raises UnicodeEncodeError, as str.encode("utf-8") does.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h> /* T_OBJECT_EX: a __slots__ member's kind */
#include <math.h>
#include <stdint.h>
#include <string.h>

/* Ryu (Ulf Adams; Apache-2.0 or Boost-1.0, see ryu/LICENSE-*), vendored unchanged: a double's shortest round-trip
 * digits, the digits repr() writes, computed without the GIL (CPython's dtoa keeps a free list the GIL guards). */
#include "ryu/d2s.c"

/* The joined bytes, written straight into the bytes object returned (no copy of ~1.6 MB per chunk at the end). */
typedef struct {
    PyObject *bytes; /* NULL until the first reserve */
    char *data;
    Py_ssize_t size;
    Py_ssize_t capacity;
} Buffer;

static int buffer_reserve(Buffer *buffer, Py_ssize_t more) {
    if (buffer->size + more <= buffer->capacity) {
        return 0;
    }
    Py_ssize_t capacity = buffer->capacity ? buffer->capacity : 65536;
    while (capacity < buffer->size + more) {
        capacity *= 2;
    }
    if (buffer->bytes == NULL) {
        buffer->bytes = PyBytes_FromStringAndSize(NULL, capacity);
    } else if (_PyBytes_Resize(&buffer->bytes, capacity) < 0) { /* frees it and sets it NULL on failure */
        return -1;
    }
    if (buffer->bytes == NULL) {
        return -1;
    }
    buffer->data = PyBytes_AS_STRING(buffer->bytes);
    buffer->capacity = capacity;
    return 0;
}

/* The buffer's bytes cut to their size (the buffer gives them up); NULL on failure. */
static PyObject *buffer_finish(Buffer *buffer) {
    PyObject *bytes = buffer->bytes;
    buffer->bytes = NULL;
    if (bytes == NULL) {
        return PyBytes_FromStringAndSize("", 0);
    }
    if (_PyBytes_Resize(&bytes, buffer->size) < 0) {
        return NULL;
    }
    return bytes;
}

static int buffer_add(Buffer *buffer, const char *text, Py_ssize_t length) {
    if (buffer_reserve(buffer, length) < 0) {
        return -1;
    }
    memcpy(buffer->data + buffer->size, text, (size_t)length);
    buffer->size += length;
    return 0;
}

/* `text` with every \x01 replaced by `number` (digits already spelled). */
static int buffer_add_numbered(Buffer *buffer, const char *text, Py_ssize_t length, const char *number,
                               Py_ssize_t number_length) {
    const char *end = text + length;
    while (text < end) {
        const char *mark = memchr(text, 1, (size_t)(end - text));
        if (mark == NULL) {
            return buffer_add(buffer, text, end - text);
        }
        if (buffer_add(buffer, text, mark - text) < 0 || buffer_add(buffer, number, number_length) < 0) {
            return -1;
        }
        text = mark + 1;
    }
    return 0;
}

/* A template's UTF-8 text and whether it holds the row-number mark. */
typedef struct {
    const char *text;
    Py_ssize_t length;
    int numbered;
} Template;

static int template_of(PyObject *object, Template *template) {
    if (!PyUnicode_Check(object)) {
        PyErr_SetString(PyExc_TypeError, "join_rows: templates must be str");
        return -1;
    }
    template->text = PyUnicode_AsUTF8AndSize(object, &template->length);
    if (template->text == NULL) {
        return -1;
    }
    template->numbered = memchr(template->text, 1, (size_t)template->length) != NULL;
    return 0;
}

static int add_template(Buffer *buffer, const Template *template, const char *number, Py_ssize_t number_length) {
    if (template->numbered) {
        return buffer_add_numbered(buffer, template->text, template->length, number, number_length);
    }
    return buffer_add(buffer, template->text, template->length);
}

typedef struct {
    PyObject *values; /* a list or tuple (PySequence_Fast), or bytes (msgspec's JSON array of numbers) */
    const char *cursor, *end; /* the next token of a bytes column */
    Template before, after, empty, number_before, number_after;
    int bare; /* before, after, number_before and number_after empty (CSV): texts and ints copied alone */
} Column;

/* `whole` in decimal as "%lld" writes it (snprintf's format parsing cost more than the digits); returns the length. */
static Py_ssize_t spell_integer(long long whole, char *out) {
    char reversed[24];
    int count = 0;
    unsigned long long magnitude = whole < 0 ? 0ULL - (unsigned long long)whole : (unsigned long long)whole;
    do {
        reversed[count++] = (char)('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude);
    Py_ssize_t used = 0;
    if (whole < 0) {
        out[used++] = '-';
    }
    while (count) {
        out[used++] = reversed[--count];
    }
    return used;
}

/* before + text + after, the templates numbered. */
static int add_wrapped(Buffer *buffer, const Template *before, const char *text, Py_ssize_t length,
                       const Template *after, const char *number, Py_ssize_t number_length) {
    if (add_template(buffer, before, number, number_length) < 0 || buffer_add(buffer, text, length) < 0) {
        return -1;
    }
    return add_template(buffer, after, number, number_length);
}

static int add_cell(Buffer *buffer, const Column *column, PyObject *value, const char *number,
                    Py_ssize_t number_length) {
    Py_ssize_t length;
    const char *text;
    if (value == Py_None) {
        return add_template(buffer, &column->empty, number, number_length);
    }
    if (PyUnicode_CheckExact(value)) {
        if (PyUnicode_GET_LENGTH(value) == 0) { /* "" is an empty cell too (xlsx: no cell at all) */
            return add_template(buffer, &column->empty, number, number_length);
        }
        if (PyUnicode_IS_COMPACT_ASCII(value)) { /* the common case: the UTF-8 is the text itself */
            text = (const char *)PyUnicode_DATA(value);
            length = PyUnicode_GET_LENGTH(value);
        } else {
            text = PyUnicode_AsUTF8AndSize(value, &length);
            if (text == NULL) {
                return -1;
            }
        }
        if (column->bare) {
            return buffer_add(buffer, text, length);
        }
        return add_wrapped(buffer, &column->before, text, length, &column->after, number, number_length);
    }
    if (PyFloat_CheckExact(value)) {
        double real = PyFloat_AS_DOUBLE(value);
        if (!Py_IS_FINITE(real)) {
            return add_template(buffer, &column->empty, number, number_length);
        }
        /* Exactly float.__repr__ (and so json.dumps and csv.writer): shortest round trip, '.0' kept. */
        char *spelled = PyOS_double_to_string(real, 'r', 0, Py_DTSF_ADD_DOT_0, NULL);
        if (spelled == NULL) {
            return -1;
        }
        int failed = add_wrapped(buffer, &column->number_before, spelled, (Py_ssize_t)strlen(spelled),
                                 &column->number_after, number, number_length);
        PyMem_Free(spelled);
        return failed;
    }
    if (PyLong_CheckExact(value)) {
        int overflow = 0;
        long long whole = PyLong_AsLongLongAndOverflow(value, &overflow);
        if (whole == -1 && PyErr_Occurred()) {
            return -1;
        }
        if (!overflow) {
            char digits[24];
            Py_ssize_t written = spell_integer(whole, digits);
            if (column->bare) {
                return buffer_add(buffer, digits, written);
            }
            return add_wrapped(buffer, &column->number_before, digits, written, &column->number_after,
                               number, number_length);
        }
        PyObject *decimal = PyObject_Str(value); /* beyond 64 bits: Python spells it */
        if (decimal == NULL) {
            return -1;
        }
        text = PyUnicode_AsUTF8AndSize(decimal, &length);
        int failed = text == NULL ? -1 : add_wrapped(buffer, &column->number_before, text, length,
                                                     &column->number_after, number, number_length);
        Py_DECREF(decimal);
        return failed;
    }
    if (PyTuple_CheckExact(value) && PyTuple_GET_SIZE(value) == 1 && PyUnicode_CheckExact(PyTuple_GET_ITEM(value, 0))) {
        text = PyUnicode_AsUTF8AndSize(PyTuple_GET_ITEM(value, 0), &length);
        if (text == NULL) {
            return -1;
        }
        return buffer_add_numbered(buffer, text, length, number, number_length);
    }
    PyErr_Format(PyExc_TypeError, "join_rows: a cell must be None, str, int, float or (str,), not %.100s", Py_TYPE(value)->tp_name);
    return -1;
}

/* A finite float's JSON token (sign, digits, optional point, optional exponent) as float.__repr__ writes it:
 * fixed notation for decimal exponents -4..15 ('.0' added), else d.ddde+XX / d.ddde-XX (two exponent digits). */
/* Whether a float token already reads as repr: fixed notation, 1 to 16 integer digits, not below 0.0001 (msgspec
 * writes 1e-05 as 0.00001, repr does not). Most do; those are copied as they are. */
enum { RESPELLED_MAX = 128 }; /* a respelled float's longest text, with room to spare */

/* token_is_repr once the token's point (NULL: none) and whether it has an exponent are known. */
static int scanned_is_repr(const char *token, Py_ssize_t length, const char *point, int exponent) {
    const char *digits_at = token + (length > 0 && token[0] == '-');
    return point != NULL && point > digits_at && point - digits_at <= 16 && point + 1 < token + length && !exponent &&
           !(point - digits_at == 1 && digits_at[0] == '0' && token + length - (point + 1) >= 4 &&
             memcmp(point + 1, "0000", 4) == 0);
}

static int token_is_repr(const char *token, Py_ssize_t length) {
    const char *digits_at = token + (length > 0 && token[0] == '-');
    return scanned_is_repr(token, length, memchr(digits_at, '.', (size_t)(token + length - digits_at)),
                           memchr(token, 'e', (size_t)length) != NULL || memchr(token, 'E', (size_t)length) != NULL);
}

/* Digits `shown` (shown_count of them, the first not 0, the last not 0 unless alone) whose first digit stands for
 * 10^decimal, written at out + used as repr() spells them: its new `used`, or -1 with *error set. */
static int spell_repr_digits(const char *shown, int shown_count, int decimal, char *out, int used, const char **error) {
    if (decimal >= -4 && decimal < 16) {
        if (decimal >= 0) {
            for (int k = 0; k <= decimal; k++) {
                out[used++] = k < shown_count ? shown[k] : '0';
            }
            out[used++] = '.';
            if (shown_count > decimal + 1) {
                memcpy(out + used, shown + decimal + 1, (size_t)(shown_count - decimal - 1));
                used += shown_count - decimal - 1;
            } else {
                out[used++] = '0';
            }
        } else {
            out[used++] = '0';
            out[used++] = '.';
            for (int k = 0; k < -decimal - 1; k++) {
                out[used++] = '0';
            }
            memcpy(out + used, shown, (size_t)shown_count);
            used += shown_count;
        }
    } else {
        out[used++] = shown[0];
        if (shown_count > 1) {
            out[used++] = '.';
            memcpy(out + used, shown + 1, (size_t)(shown_count - 1));
            used += shown_count - 1;
        }
        /* "e%c%02d" spelled by hand (snprintf's format parsing cost 6% of a join of small floats) */
        int power = decimal < 0 ? -decimal : decimal;
        if (power > 99999 || used + 8 > RESPELLED_MAX) {
            *error = "join_rows: not a JSON number";
            return -1;
        }
        out[used++] = 'e';
        out[used++] = decimal < 0 ? '-' : '+';
        if (power < 10) { /* at least two digits, as %02d */
            out[used++] = '0';
        }
        used += (int)spell_integer(power, out + used);
    }
    return used;
}

/* A float token (not token_is_repr) respelled as repr at `out` (128 bytes): its length, or -1 with *error set to
 * the message (no Python call: the released join respells without the GIL). */
static int respell_float(const char *token, Py_ssize_t length, char *out, const char **error) {
    char digits[64];
    int count = 0, before_point = 0, seen_point = 0, exponent = 0, exponent_negative = 0, used = 0;
    Py_ssize_t at = 0;
    if (at < length && token[at] == '-') {
        out[used++] = '-';
        at++;
    }
    for (; at < length && token[at] != 'e' && token[at] != 'E'; at++) {
        char letter = token[at];
        if (letter == '.') {
            seen_point = 1;
        } else if (letter >= '0' && letter <= '9' && count < (int)sizeof digits) {
            digits[count++] = letter;
            before_point += !seen_point;
        } else {
            *error = "join_rows: not a JSON number";
            return -1;
        }
    }
    if (at < length) { /* the exponent */
        at++;
        if (at < length && (token[at] == '-' || token[at] == '+')) {
            exponent_negative = token[at] == '-';
            at++;
        }
        if (at == length) {
            *error = "join_rows: not a JSON number";
            return -1;
        }
        for (; at < length; at++) {
            if (token[at] < '0' || token[at] > '9' || exponent > 100000) {
                *error = "join_rows: not a JSON number";
                return -1;
            }
            exponent = exponent * 10 + (token[at] - '0');
        }
    }
    if (exponent_negative) {
        exponent = -exponent;
    }
    int lead = 0;
    while (lead < count && digits[lead] == '0') {
        lead++;
    }
    if (lead == count) { /* 0.0 or -0.0 */
        memcpy(out + used, "0.0", 3);
        return used + 3;
    }
    while (count > lead + 1 && digits[count - 1] == '0') {
        count--;
    }
    const char *shown = digits + lead;
    int shown_count = count - lead;
    int decimal = before_point + exponent - lead - 1; /* the first digit's power of ten */
    return spell_repr_digits(shown, shown_count, decimal, out, used, error);
}

static int add_repr_float(Buffer *buffer, const char *token, Py_ssize_t length) {
    if (token_is_repr(token, length)) {
        return buffer_add(buffer, token, length);
    }
    char out[RESPELLED_MAX];
    const char *error = NULL;
    int used = respell_float(token, length, out, &error);
    if (used < 0) {
        PyErr_SetString(PyExc_ValueError, error);
        return -1;
    }
    return buffer_add(buffer, out, used);
}

/* A numbers column's text token (a word of one or more ASCII letters, '+' and '-' between quotes: "nan", "inf",
 * "-inf", written as a text cell): the text's length (it starts after the quote), or -1 for any other token starting
 * with a quote. */
#define TOKEN_TEXT_ERROR "join_rows: a numbers column's text is a word of ASCII letters, '+' and '-'"

/* A word of ASCII letters, '+' and '-' (a numbers column's text, between quotes in its token). */
static int is_word(const char *text, Py_ssize_t length) {
    for (Py_ssize_t at = 0; at < length; at++) {
        char letter = text[at];
        if (!((letter >= 'a' && letter <= 'z') || (letter >= 'A' && letter <= 'Z') || letter == '+' || letter == '-')) {
            return 0;
        }
    }
    return 1;
}

static Py_ssize_t token_text(const char *token, Py_ssize_t length) {
    if (length < 3 || token[0] != '"' || token[length - 1] != '"' || !is_word(token + 1, length - 2)) {
        return -1;
    }
    return length - 2;
}

/* The next token of a bytes column (cursor moved past it and its comma), written as its cell. */
static int add_number_token(Buffer *buffer, const Column *column, const char **cursor, const char *end,
                            const char *number, Py_ssize_t number_length) {
    const char *token = *cursor;
    if (token >= end) {
        PyErr_SetString(PyExc_ValueError, "join_rows: a numbers column holds fewer numbers than rows");
        return -1;
    }
    const char *comma = memchr(token, ',', (size_t)(end - token));
    const char *stop = comma ? comma : end;
    Py_ssize_t length = stop - token;
    *cursor = comma ? comma + 1 : end;
    if (length == 4 && memcmp(token, "null", 4) == 0) {
        return add_template(buffer, &column->empty, number, number_length);
    }
    if (length == 0) {
        PyErr_SetString(PyExc_ValueError, "join_rows: an empty number");
        return -1;
    }
    if (token[0] == '"') {
        Py_ssize_t text_length = token_text(token, length);
        if (text_length < 0) {
            PyErr_SetString(PyExc_ValueError, TOKEN_TEXT_ERROR);
            return -1;
        }
        return add_wrapped(buffer, &column->before, token + 1, text_length, &column->after, number, number_length);
    }
    if (add_template(buffer, &column->number_before, number, number_length) < 0) {
        return -1;
    }
    int is_float = memchr(token, '.', (size_t)length) != NULL || memchr(token, 'e', (size_t)length) != NULL ||
                   memchr(token, 'E', (size_t)length) != NULL;
    if (is_float ? add_repr_float(buffer, token, length) < 0 : buffer_add(buffer, token, length) < 0) {
        return -1;
    }
    return add_template(buffer, &column->number_after, number, number_length);
}

/* A column spec (values, before, after, empty[, number_before, number_after]) read into `column` (its values held:
 * released by the caller, also on failure). */
static int column_of(PyObject *spec, Py_ssize_t stop, Column *column) {
    if (!PyTuple_Check(spec) || (PyTuple_GET_SIZE(spec) != 4 && PyTuple_GET_SIZE(spec) != 6)) {
        PyErr_SetString(PyExc_TypeError,
                        "join_rows: a column is (values, before, after, empty[, number_before, number_after])");
        return -1;
    }
    PyObject *values = PyTuple_GET_ITEM(spec, 0);
    if (PyBytes_Check(values)) {
        Py_ssize_t size = PyBytes_GET_SIZE(values);
        const char *text = PyBytes_AS_STRING(values);
        if (size < 2 || text[0] != '[' || text[size - 1] != ']') {
            PyErr_SetString(PyExc_ValueError, "join_rows: a numbers column is a JSON array");
            return -1;
        }
        column->values = Py_NewRef(values);
        column->cursor = text + 1;
        column->end = text + size - 1;
    } else {
        column->values = PySequence_Fast(values, "join_rows: values must be a sequence or bytes");
        if (column->values == NULL) {
            return -1;
        }
        if (PySequence_Fast_GET_SIZE(column->values) < stop) {
            PyErr_SetString(PyExc_ValueError, "join_rows: a column is shorter than stop");
            return -1;
        }
    }
    if (template_of(PyTuple_GET_ITEM(spec, 1), &column->before) < 0 ||
        template_of(PyTuple_GET_ITEM(spec, 2), &column->after) < 0 ||
        template_of(PyTuple_GET_ITEM(spec, 3), &column->empty) < 0) {
        return -1;
    }
    column->number_before = column->before;
    column->number_after = column->after;
    if (PyTuple_GET_SIZE(spec) == 6 && (template_of(PyTuple_GET_ITEM(spec, 4), &column->number_before) < 0 ||
                                        template_of(PyTuple_GET_ITEM(spec, 5), &column->number_after) < 0)) {
        return -1;
    }
    return 0;
}

/* The row templates and the `width` column specs of a join read into `templates` (row_open, row_close, separator)
 * and `columns` (their values held: released by the caller, also on failure). */
static int read_specs(PyObject *const templates_args[3], Template templates[3], PyObject *const *specs,
                      Py_ssize_t width, Py_ssize_t stop, Column *columns) {
    for (int k = 0; k < 3; k++) {
        if (template_of(templates_args[k], &templates[k]) < 0) {
            return -1;
        }
    }
    for (Py_ssize_t j = 0; j < width; j++) {
        if (column_of(specs[j], stop, &columns[j]) < 0) {
            return -1;
        }
    }
    return 0;
}

static Py_ssize_t bytes_per_row = 0; /* the last join's bytes per row (the GIL guards it) */

static PyObject *join_rows(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *columns_arg, *row_open_arg, *row_close_arg, *separator_arg;
    Py_ssize_t start, stop, first_number;
    if (!PyArg_ParseTuple(args, "OnnUUUn:join_rows", &columns_arg, &start, &stop, &row_open_arg, &row_close_arg,
                          &separator_arg, &first_number)) {
        return NULL;
    }
    PyObject *columns_seq = PySequence_Fast(columns_arg, "join_rows: columns must be a sequence");
    if (columns_seq == NULL) {
        return NULL;
    }
    Py_ssize_t width = PySequence_Fast_GET_SIZE(columns_seq);
    Column *columns = PyMem_Calloc((size_t)(width ? width : 1), sizeof(Column));
    Buffer buffer = {NULL, NULL, 0, 0};
    PyObject *result = NULL;
    Template row_templates[3];
    const Template *row_open = &row_templates[0], *row_close = &row_templates[1], *separator = &row_templates[2];
    PyObject *const templates_args[3] = {row_open_arg, row_close_arg, separator_arg};
    if (columns == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if (start < 0 || stop < start) {
        PyErr_SetString(PyExc_ValueError, "join_rows: need 0 <= start <= stop");
        goto done;
    }
    if (read_specs(templates_args, row_templates, PySequence_Fast_ITEMS(columns_seq), width, stop, columns) < 0) {
        goto done;
    }
    for (Py_ssize_t j = 0; j < width; j++) {
        columns[j].bare = columns[j].before.length == 0 && columns[j].after.length == 0 &&
                          columns[j].number_before.length == 0 && columns[j].number_after.length == 0;
    }
    /* Sized from the last call's rows: one allocation, not a doubling series of copies (a wrong guess only
     * grows the buffer or leaves untouched room; capped, so that one call of huge rows cannot ask for GBs). */
    if (stop > start && bytes_per_row > 0) {
        Py_ssize_t guess = bytes_per_row + bytes_per_row / 8;
        guess = guess > ((Py_ssize_t)1 << 24) / (stop - start) ? ((Py_ssize_t)1 << 24) : guess * (stop - start);
        if (buffer_reserve(&buffer, guess) < 0) {
            goto done;
        }
    }
    for (Py_ssize_t row = start; row < stop; row++) {
        char number[32];
        Py_ssize_t number_length = (Py_ssize_t)snprintf(number, sizeof number, "%zd", first_number + row - start);
        if (add_template(&buffer, row_open, number, number_length) < 0) {
            goto done;
        }
        for (Py_ssize_t j = 0; j < width; j++) {
            if (j > 0 && add_template(&buffer, separator, number, number_length) < 0) {
                goto done;
            }
            if (columns[j].end != NULL) {
                if (add_number_token(&buffer, &columns[j], &columns[j].cursor, columns[j].end, number,
                                     number_length) < 0) {
                    goto done;
                }
                continue;
            }
            /* The list is re-read each row: the GIL is held throughout, nothing else can shrink it meanwhile. */
            PyObject *value = PySequence_Fast_GET_ITEM(columns[j].values, row);
            if (add_cell(&buffer, &columns[j], value, number, number_length) < 0) {
                goto done;
            }
        }
        if (add_template(&buffer, row_close, number, number_length) < 0) {
            goto done;
        }
    }
    for (Py_ssize_t j = 0; j < width; j++) {
        if (columns[j].end != NULL && columns[j].cursor < columns[j].end) {
            PyErr_SetString(PyExc_ValueError, "join_rows: a numbers column holds more numbers than rows");
            goto done;
        }
    }
    bytes_per_row = stop > start ? buffer.size / (stop - start) + 1 : bytes_per_row;
    result = buffer_finish(&buffer);
done:
    if (columns != NULL) {
        for (Py_ssize_t j = 0; j < width; j++) {
            Py_XDECREF(columns[j].values);
        }
        PyMem_Free(columns);
    }
    Py_XDECREF(buffer.bytes);
    Py_DECREF(columns_seq);
    return result;
}

/* join_rows_released(columns, start, stop, row_open, row_close, separator, first_number) -> bytes: join_rows' bytes,
 * most of it made with the GIL released (the xlsx sheet: the deflate thread, and Python, run meanwhile on the other
 * core). Without the GIL, the list columns' plain cells (None, ASCII texts, 64-bit ints, ASCII whole cells) are read
 * into Parts, pointing into the texts (the caller keeps the columns unchanged until the call returns: nothing is
 * held), and the numbers columns' tokens (in the bytes the columns hold) are read, respelled where repr differs;
 * when no cell needs the GIL, the rows are written then too, into a bytes object made ahead at the last joins' size
 * (or raw memory, copied). Else, with the GIL, the other cells (floats spelled, non-ASCII texts' UTF-8, big ints)
 * are read and their texts held, the bytes object is made of the exact size added up, and the rows are written
 * without it, no object touched. A numbers column's text token ("nan") is a text cell. With `into` (a bytearray the
 * caller keeps from join to join: the JSON file's writer) the rows are written into it, resized to them, and it is
 * returned: a new bytes object each join (10 MB) faulted every page in again, ~65k faults a 254 MB file. */

/* A template, how many row-number marks it holds and where the first is (most hold none or one: no search). */
typedef struct {
    const char *text;
    Py_ssize_t length, marks, first;
} Marked;

static Marked marked(const char *text, Py_ssize_t length) {
    Marked found = {text, length, 0, 0};
    for (const char *at = text, *end = text + length; (at = memchr(at, 1, (size_t)(end - at))) != NULL; at++) {
        found.first = found.marks++ ? found.first : at - text;
    }
    return found;
}

enum { PART_EMPTY, PART_TEXT, PART_NUMBER, PART_SPELLED, PART_RESPELLED, PART_INTEGER, PART_WHOLE, PART_DEFERRED };

/* One cell: its kind, its column and its text (PART_SPELLED / PART_RESPELLED: an offset into the floats spelled
 * with / respelled without the GIL, which may still move; PART_INTEGER: the value, spelled when written). */
typedef struct {
    union {
        const char *text;
        Py_ssize_t offset;
        long long whole;
    } at;
    Py_ssize_t length;
    int kind, column;
} Part;

typedef struct {
    Marked before, after, empty, number_before, number_after;
} ColumnMarks;

/* `length` bytes of `text` at `out` (another buffer); returns the end. Most pieces of a cell (templates, numbers,
 * short names) are under 33 bytes: copied by a few fixed-size moves, where a call to memcpy cost more than the
 * copy. */
static inline char *copy_bytes(char *out, const char *text, Py_ssize_t length) {
    size_t n = (size_t)length;
    if (n > 32) {
        memcpy(out, text, n);
    } else if (n > 16) {
        uint64_t a, b, c, d;
        memcpy(&a, text, 8);
        memcpy(&b, text + 8, 8);
        memcpy(&c, text + n - 16, 8);
        memcpy(&d, text + n - 8, 8);
        memcpy(out, &a, 8);
        memcpy(out + 8, &b, 8);
        memcpy(out + n - 16, &c, 8);
        memcpy(out + n - 8, &d, 8);
    } else if (n >= 8) {
        uint64_t head, tail;
        memcpy(&head, text, 8);
        memcpy(&tail, text + n - 8, 8);
        memcpy(out, &head, 8);
        memcpy(out + n - 8, &tail, 8);
    } else if (n >= 4) {
        uint32_t head, tail;
        memcpy(&head, text, 4);
        memcpy(&tail, text + n - 4, 4);
        memcpy(out, &head, 4);
        memcpy(out + n - 4, &tail, 4);
    } else if (n > 0) {
        out[0] = text[0];
        out[n / 2] = text[n / 2];
        out[n - 1] = text[n - 1];
    }
    return out + n;
}

/* `text` with every mark replaced by the row number, at `out`; returns the end. */
static char *put_marked(char *out, const char *text, Py_ssize_t length, const char *number, Py_ssize_t digits) {
    const char *end = text + length;
    const char *mark;
    while ((mark = memchr(text, 1, (size_t)(end - text))) != NULL) {
        out = copy_bytes(out, text, mark - text);
        out = copy_bytes(out, number, digits);
        text = mark + 1;
    }
    return copy_bytes(out, text, end - text);
}

static inline char *put(char *out, const Marked *template, const char *number, Py_ssize_t digits) {
    if (template->marks == 0) {
        return copy_bytes(out, template->text, template->length);
    }
    if (template->marks == 1) { /* an xlsx cell's `<c r="B\x01"><v>` */
        out = copy_bytes(out, template->text, template->first);
        out = copy_bytes(out, number, digits);
        return copy_bytes(out, template->text + template->first + 1, template->length - template->first - 1);
    }
    return put_marked(out, template->text, template->length, number, digits);
}

/* The UTF-8 of an exact str (NULL with the error set). */
static const char *utf8_of(PyObject *value, Py_ssize_t *length) {
    if (PyUnicode_IS_COMPACT_ASCII(value)) {
        *length = PyUnicode_GET_LENGTH(value);
        return (const char *)PyUnicode_DATA(value);
    }
    return PyUnicode_AsUTF8AndSize(value, length);
}

/* A cell of a list column read into `part` (the object held in `held` when the part points into it); the size
 * it adds without its marks' digits in *size, its marks in *marks. -1 with the error set. */
static int part_of(PyObject *value, const ColumnMarks *marks, Part *part, Buffer *spelled,
                   PyObject **held, Py_ssize_t *size, Py_ssize_t *mark_count) {
    const Marked *before = &marks->number_before, *after = &marks->number_after;
    part->kind = PART_EMPTY;
    if (value == Py_None || (PyUnicode_CheckExact(value) && PyUnicode_GET_LENGTH(value) == 0) ||
        (PyFloat_CheckExact(value) && !Py_IS_FINITE(PyFloat_AS_DOUBLE(value)))) {
        *size += marks->empty.length - marks->empty.marks;
        *mark_count += marks->empty.marks;
        return 0;
    }
    if (PyUnicode_CheckExact(value)) {
        part->at.text = utf8_of(value, &part->length);
        if (part->at.text == NULL) {
            return -1;
        }
        part->kind = PART_TEXT;
        *held = Py_NewRef(value);
        before = &marks->before;
        after = &marks->after;
    } else if (PyFloat_CheckExact(value)) {
        char *digits = PyOS_double_to_string(PyFloat_AS_DOUBLE(value), 'r', 0, Py_DTSF_ADD_DOT_0, NULL);
        if (digits == NULL) {
            return -1;
        }
        part->kind = PART_SPELLED;
        part->at.offset = spelled->size;
        part->length = (Py_ssize_t)strlen(digits);
        int failed = buffer_add(spelled, digits, part->length);
        PyMem_Free(digits);
        if (failed < 0) {
            return -1;
        }
    } else if (PyLong_CheckExact(value)) {
        int overflow = 0;
        long long whole = PyLong_AsLongLongAndOverflow(value, &overflow);
        if (whole == -1 && PyErr_Occurred()) {
            return -1;
        }
        if (!overflow) {
            char digits[24];
            part->kind = PART_INTEGER;
            part->at.whole = whole;
            *size += spell_integer(whole, digits);
        } else {
            PyObject *decimal = PyObject_Str(value); /* beyond 64 bits: Python spells it */
            if (decimal == NULL) {
                return -1;
            }
            part->at.text = utf8_of(decimal, &part->length);
            if (part->at.text == NULL) {
                Py_DECREF(decimal);
                return -1;
            }
            part->kind = PART_NUMBER; /* its text held, written between the number templates */
            *held = decimal;
        }
    } else if (PyTuple_CheckExact(value) && PyTuple_GET_SIZE(value) == 1 &&
               PyUnicode_CheckExact(PyTuple_GET_ITEM(value, 0))) {
        part->at.text = utf8_of(PyTuple_GET_ITEM(value, 0), &part->length);
        if (part->at.text == NULL) {
            return -1;
        }
        part->kind = PART_WHOLE;
        *held = Py_NewRef(value);
        Marked whole = marked(part->at.text, part->length);
        *size += whole.length - whole.marks;
        *mark_count += whole.marks;
        return 0;
    } else {
        PyErr_Format(PyExc_TypeError, "join_rows: a cell must be None, str, int, float or (str,), not %.100s",
                     Py_TYPE(value)->tp_name);
        return -1;
    }
    if (part->kind != PART_INTEGER) {
        *size += part->length;
    }
    *size += before->length - before->marks + after->length - after->marks;
    *mark_count += before->marks + after->marks;
    return 0;
}

/* part_of without the GIL, for the cells whose reading makes, changes and holds no object: None, "", NaN/Inf, an
 * ASCII str, an exact int of 64 bits, a 1-tuple of an ASCII str (only type tags, lengths, digits and the text are
 * read; the caller keeps the columns unchanged meanwhile). Any other cell (a float to spell, a non-ASCII text,
 * a big int, a wrong type: the error) is left PART_DEFERRED for part_of with the GIL: returns 1 then, else 0. */
static int part_unlocked(PyObject *value, const ColumnMarks *marks, Part *part, Py_ssize_t *size,
                         Py_ssize_t *mark_count) {
    const Marked *before = &marks->number_before, *after = &marks->number_after;
    if (value == Py_None || (PyUnicode_CheckExact(value) && PyUnicode_GET_LENGTH(value) == 0) ||
        (PyFloat_CheckExact(value) && !Py_IS_FINITE(PyFloat_AS_DOUBLE(value)))) {
        part->kind = PART_EMPTY;
        *size += marks->empty.length - marks->empty.marks;
        *mark_count += marks->empty.marks;
        return 0;
    }
    if (PyUnicode_CheckExact(value) && PyUnicode_IS_COMPACT_ASCII(value)) {
        part->kind = PART_TEXT;
        part->at.text = (const char *)PyUnicode_DATA(value);
        part->length = PyUnicode_GET_LENGTH(value);
        before = &marks->before;
        after = &marks->after;
    } else if (PyLong_CheckExact(value)) {
        int overflow = 0;
        /* An exact int: digits read, no error possible, no object made (PyErr_Occurred would read the GIL
         * holder's thread state: not called here). */
        long long whole = PyLong_AsLongLongAndOverflow(value, &overflow);
        if (overflow) {
            part->kind = PART_DEFERRED;
            return 1;
        }
        char digits[24];
        part->kind = PART_INTEGER;
        part->at.whole = whole;
        *size += spell_integer(whole, digits);
    } else if (PyTuple_CheckExact(value) && PyTuple_GET_SIZE(value) == 1 &&
               PyUnicode_CheckExact(PyTuple_GET_ITEM(value, 0)) &&
               PyUnicode_IS_COMPACT_ASCII(PyTuple_GET_ITEM(value, 0))) {
        PyObject *text = PyTuple_GET_ITEM(value, 0);
        part->kind = PART_WHOLE;
        part->at.text = (const char *)PyUnicode_DATA(text);
        part->length = PyUnicode_GET_LENGTH(text);
        Marked whole = marked(part->at.text, part->length);
        *size += whole.length - whole.marks;
        *mark_count += whole.marks;
        return 0;
    } else {
        part->kind = PART_DEFERRED;
        return 1;
    }
    if (part->kind != PART_INTEGER) {
        *size += part->length;
    }
    *size += before->length - before->marks + after->length - after->marks;
    *mark_count += before->marks + after->marks;
    return 0;
}

/* Floats respelled without the GIL (PyMem_Raw: no Python object, no GIL needed). */
typedef struct {
    char *data;
    Py_ssize_t size, capacity;
} RawBuffer;

static int raw_add(RawBuffer *buffer, const char *text, Py_ssize_t length) {
    if (buffer->size + length > buffer->capacity) {
        Py_ssize_t capacity = buffer->capacity ? buffer->capacity : 65536;
        while (capacity < buffer->size + length) {
            capacity *= 2;
        }
        char *data = PyMem_RawRealloc(buffer->data, (size_t)capacity);
        if (data == NULL) {
            return -1;
        }
        buffer->data = data;
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->size, text, (size_t)length);
    buffer->size += length;
    return 0;
}

/* The next token of a bytes column read into `part` (the token itself, or respelled into `respelled`), without
 * the GIL: -1 with *error the ValueError's message, or NULL when memory ran out. */
static int token_part(Column *column, const ColumnMarks *marks, Part *part, RawBuffer *respelled, Py_ssize_t *size,
                      Py_ssize_t *mark_count, const char **error) {
    const char *token = column->cursor, *end = column->end, *stop = token;
    if (token >= end) {
        *error = "join_rows: a numbers column holds fewer numbers than rows";
        return -1;
    }
    const char *point = NULL; /* the first point and whether an exponent follows, seen in the one scan for the comma */
    int exponent = 0;
    for (; stop < end && *stop != ','; stop++) {
        if (*stop == '.' && point == NULL) {
            point = stop;
        }
        exponent |= *stop == 'e' || *stop == 'E';
    }
    int is_float = point != NULL || exponent;
    Py_ssize_t length = stop - token;
    column->cursor = stop < end ? stop + 1 : end;
    if (length == 4 && memcmp(token, "null", 4) == 0) {
        part->kind = PART_EMPTY;
        *size += marks->empty.length - marks->empty.marks;
        *mark_count += marks->empty.marks;
        return 0;
    }
    if (length == 0) {
        *error = "join_rows: an empty number";
        return -1;
    }
    if (token[0] == '"') {
        Py_ssize_t text_length = token_text(token, length);
        if (text_length < 0) {
            *error = TOKEN_TEXT_ERROR;
            return -1;
        }
        part->kind = PART_TEXT; /* between the text templates, as a str of a list column */
        part->at.text = token + 1;
        part->length = text_length;
        *size += text_length + marks->before.length - marks->before.marks + marks->after.length - marks->after.marks;
        *mark_count += marks->before.marks + marks->after.marks;
        return 0;
    }
    if (is_float && !scanned_is_repr(token, length, point, exponent)) {
        char out[RESPELLED_MAX];
        int used = respell_float(token, length, out, error);
        if (used < 0) {
            return -1;
        }
        part->kind = PART_RESPELLED;
        part->at.offset = respelled->size;
        part->length = used;
        if (raw_add(respelled, out, used) < 0) {
            *error = NULL;
            return -1;
        }
    } else {
        part->kind = PART_NUMBER; /* the token as it is (the bytes are held by the columns) */
        part->at.text = token;
        part->length = length;
    }
    const Marked *before = &marks->number_before, *after = &marks->number_after;
    *size += part->length + before->length - before->marks + after->length - after->marks;
    *mark_count += before->marks + after->marks;
    return 0;
}

/* Rows start..stop-1 written at `out` from their parts (no object touched: the GIL may be released). */
static char *put_rows(char *out, const Part *parts, const ColumnMarks *marks, Py_ssize_t width,
                      Py_ssize_t start, Py_ssize_t stop, Py_ssize_t first_number, const Marked *row_open,
                      const Marked *row_close, const Marked *separator, const char *spelled,
                      const char *respelled) {
    for (Py_ssize_t row = start; row < stop; row++) {
        char number[24];
        Py_ssize_t digits = spell_integer((long long)(first_number + row - start), number);
        out = put(out, row_open, number, digits);
        for (Py_ssize_t j = 0; j < width; j++, parts++) {
            if (j > 0) {
                out = put(out, separator, number, digits);
            }
            const ColumnMarks *templates = &marks[parts->column];
            const Marked *before = &templates->number_before, *after = &templates->number_after;
            switch (parts->kind) {
            case PART_EMPTY:
                out = put(out, &templates->empty, number, digits);
                continue;
            case PART_WHOLE:
                out = put_marked(out, parts->at.text, parts->length, number, digits);
                continue;
            case PART_TEXT:
                before = &templates->before;
                after = &templates->after;
                break;
            default:
                break;
            }
            out = put(out, before, number, digits);
            if (parts->kind == PART_INTEGER) {
                out += spell_integer(parts->at.whole, out);
            } else {
                const char *text = parts->kind == PART_SPELLED     ? spelled + parts->at.offset
                                   : parts->kind == PART_RESPELLED ? respelled + parts->at.offset
                                                                   : parts->at.text;
                out = copy_bytes(out, text, parts->length);
            }
            out = put(out, after, number, digits);
        }
        out = put(out, row_close, number, digits);
    }
    return out;
}

static ColumnMarks column_marks(const Column *column) {
    ColumnMarks found = {marked(column->before.text, column->before.length),
                         marked(column->after.text, column->after.length),
                         marked(column->empty.text, column->empty.length),
                         marked(column->number_before.text, column->number_before.length),
                         marked(column->number_after.text, column->number_after.length)};
    return found;
}

/* The cells of the list columns of rows start..stop-1 read into `parts` (row by row, `width` a row) without the
 * GIL (part_unlocked; every part's column set); each row's bytes without its marks' digits added to row_sizes,
 * its marks to row_marks (both start at the row templates' and separators' own). Returns how many cells were
 * left PART_DEFERRED. */
static Py_ssize_t read_list_parts_unlocked(const Column *columns, const ColumnMarks *marks, Py_ssize_t width,
                                           Py_ssize_t start, Py_ssize_t stop, Part *parts, Py_ssize_t *row_sizes,
                                           Py_ssize_t *row_marks) {
    Py_ssize_t deferred = 0;
    for (Py_ssize_t row = start; row < stop; row++, row_sizes++, row_marks++) {
        for (Py_ssize_t j = 0; j < width; j++, parts++) {
            parts->column = (int)j;
            if (columns[j].end == NULL) {
                deferred += part_unlocked(PySequence_Fast_ITEMS(columns[j].values)[row], &marks[j], parts, row_sizes,
                                          row_marks);
            }
        }
    }
    return deferred;
}

/* The PART_DEFERRED cells of rows start..stop-1 read with the GIL (part_of: the texts it points into held in
 * `held`, floats spelled into `spelled`), in row order: the first error is the first bad cell's. */
static int read_deferred_parts(const Column *columns, const ColumnMarks *marks, Py_ssize_t width, Py_ssize_t start,
                               Py_ssize_t stop, Part *parts, PyObject **held, Buffer *spelled, Py_ssize_t *row_sizes,
                               Py_ssize_t *row_marks) {
    for (Py_ssize_t row = start; row < stop; row++, row_sizes++, row_marks++) {
        for (Py_ssize_t j = 0; j < width; j++, parts++, held++) {
            if (columns[j].end == NULL && parts->kind == PART_DEFERRED &&
                part_of(PySequence_Fast_GET_ITEM(columns[j].values, row), &marks[j], parts, spelled, held,
                        row_sizes, row_marks) < 0) {
                return -1;
            }
        }
    }
    return 0;
}

/* The numbers columns' tokens of `rows` rows read into `parts`, without the GIL (token_part's errors); their sizes
 * and marks added to row_sizes and row_marks. */
static int read_token_parts(Column *columns, const ColumnMarks *marks, Py_ssize_t width, Py_ssize_t rows, Part *parts,
                            RawBuffer *respelled, Py_ssize_t *row_sizes, Py_ssize_t *row_marks, const char **error) {
    for (Py_ssize_t row = 0; row < rows; row++) {
        for (Py_ssize_t j = 0; j < width; j++, parts++) {
            if (columns[j].end != NULL &&
                token_part(&columns[j], &marks[j], parts, respelled, &row_sizes[row], &row_marks[row], error) < 0) {
                return -1;
            }
        }
    }
    for (Py_ssize_t j = 0; j < width; j++) {
        if (columns[j].end != NULL && columns[j].cursor < columns[j].end) {
            *error = "join_rows: a numbers column holds more numbers than rows";
            return -1;
        }
    }
    return 0;
}

/* The exact size of `rows` rows from their sizes and marks (each mark becomes the row's number). */
static Py_ssize_t rows_size(const Py_ssize_t *row_sizes, const Py_ssize_t *row_marks, Py_ssize_t rows,
                            Py_ssize_t first_number) {
    Py_ssize_t size = 0;
    for (Py_ssize_t row = 0; row < rows; row++) {
        char number[24];
        size += row_sizes[row] + row_marks[row] * spell_integer((long long)(first_number + row), number);
    }
    return size;
}

static Py_ssize_t released_bytes_per_row = 0; /* the last released join's bytes per row (the GIL guards it) */

static PyObject *join_rows_released(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *columns_arg, *row_open_arg, *row_close_arg, *separator_arg, *into = NULL;
    Py_ssize_t start, stop, first_number;
    if (!PyArg_ParseTuple(args, "OnnUUUn|O:join_rows_released", &columns_arg, &start, &stop, &row_open_arg,
                          &row_close_arg, &separator_arg, &first_number, &into)) {
        return NULL;
    }
    if (start < 0 || stop < start) {
        PyErr_SetString(PyExc_ValueError, "join_rows: need 0 <= start <= stop");
        return NULL;
    }
    if (into == Py_None) {
        into = NULL;
    } else if (into != NULL && !PyByteArray_CheckExact(into)) {
        PyErr_SetString(PyExc_TypeError, "join_rows_released: into must be a bytearray or None");
        return NULL;
    }
    PyObject *specs = PySequence_Tuple(columns_arg); /* a tuple: nothing can drop a column's templates meanwhile */
    if (specs == NULL) {
        return NULL;
    }
    Py_ssize_t width = PyTuple_GET_SIZE(specs), rows = stop - start, cells = 0;
    Column *columns = PyMem_Calloc((size_t)(width ? width : 1), sizeof(Column));
    ColumnMarks *marks = PyMem_Calloc((size_t)(width ? width : 1), sizeof(ColumnMarks));
    Py_ssize_t *row_sizes = PyMem_Calloc((size_t)(rows ? 2 * rows : 1), sizeof(Py_ssize_t));
    Py_ssize_t *row_marks = row_sizes + rows;
    Part *parts = NULL;
    PyObject **held = NULL;
    Buffer spelled = {NULL, NULL, 0, 0};
    RawBuffer respelled = {NULL, 0, 0};
    PyObject *result = NULL;
    Template templates[3];
    PyObject *const templates_args[3] = {row_open_arg, row_close_arg, separator_arg};
    Marked row_templates[3];
    Py_ssize_t size = 0, deferred = 0;
    char *raw = NULL, *raw_end = NULL; /* the rows written without the GIL when no cell needed it */
    int tokens = 0, failed = 0;
    const char *error = NULL;
    char *data, *end;
    Py_buffer into_view; /* `into` exported while the rows are written into it without the GIL: none can resize it */
    int exported = 0;
    if (columns == NULL || marks == NULL || row_sizes == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if (read_specs(templates_args, templates, PySequence_Fast_ITEMS(specs), width, stop, columns) < 0) {
        goto done;
    }
    for (Py_ssize_t j = 0; j < width; j++) {
        marks[j] = column_marks(&columns[j]);
        tokens |= columns[j].end != NULL;
    }
    if (width > 0 && rows > PY_SSIZE_T_MAX / (Py_ssize_t)sizeof(Part) / width) {
        PyErr_NoMemory();
        goto done;
    }
    cells = rows * width;
    parts = PyMem_Malloc((size_t)(cells ? cells : 1) * sizeof(Part));
    held = PyMem_Calloc((size_t)(cells ? cells : 1), sizeof(PyObject *));
    if (parts == NULL || held == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (int k = 0; k < 3; k++) {
        row_templates[k] = marked(templates[k].text, templates[k].length);
    }
    Py_ssize_t fixed = row_templates[0].length - row_templates[0].marks + row_templates[1].length -
                       row_templates[1].marks;
    Py_ssize_t fixed_marks = row_templates[0].marks + row_templates[1].marks;
    if (width > 1) {
        fixed += (width - 1) * (row_templates[2].length - row_templates[2].marks);
        fixed_marks += (width - 1) * row_templates[2].marks;
    }
    for (Py_ssize_t row = 0; row < rows; row++) {
        row_sizes[row] = fixed;
        row_marks[row] = fixed_marks;
    }
    /* Without the GIL: the list columns' plain cells, then the numbers columns' tokens (only the bytes the columns
     * hold are touched), and when no cell needs Python, the rows themselves, into raw memory: one release of the
     * GIL a join (taking it back waits for the thread holding it to let go, up to the switch interval, each time).
     * The cells that need Python (floats to spell ...) are read with it, after: their errors come first, as the
     * cells come before the tokens; the rows are then written into the bytes object, the GIL released again. */
    /* The bytes object made ahead at the size the last joins' rows suggest: written in place when the rows fit, cut
     * to their size after (raw memory, then a copy, when they do not). */
    Py_ssize_t room = rows > 0 && released_bytes_per_row > 0 && released_bytes_per_row < PY_SSIZE_T_MAX / 2 / rows
                          ? released_bytes_per_row * rows + released_bytes_per_row * rows / 8
                          : 0;
    char *ahead = NULL;
    if (into != NULL && room > 0) { /* the caller's buffer, kept from join to join: its pages are not new each time */
        if (PyByteArray_Resize(into, room) == 0 && PyObject_GetBuffer(into, &into_view, PyBUF_WRITABLE) == 0) {
            exported = 1;
            ahead = into_view.buf;
        } else {
            PyErr_Clear(); /* no room ahead: raw memory then */
            room = 0;
        }
    } else {
        result = room > 0 ? PyBytes_FromStringAndSize(NULL, room) : NULL;
        if (room > 0 && result == NULL) {
            PyErr_Clear(); /* no room ahead: raw memory then */
            room = 0;
        }
        ahead = result != NULL ? PyBytes_AS_STRING(result) : NULL;
    }
    int in_place = 0; /* the rows written into the bytes object made ahead */
    Py_BEGIN_ALLOW_THREADS
    deferred = read_list_parts_unlocked(columns, marks, width, start, stop, parts, row_sizes, row_marks);
    if (tokens) {
        failed = read_token_parts(columns, marks, width, rows, parts, &respelled, row_sizes, row_marks, &error);
    }
    if (deferred == 0 && failed == 0) {
        size = rows_size(row_sizes, row_marks, rows, first_number);
        in_place = ahead != NULL && size <= room;
        char *into = in_place ? ahead : (raw = PyMem_RawMalloc((size_t)(size ? size : 1)));
        raw_end = into == NULL ? NULL
                               : put_rows(into, parts, marks, width, start, stop, first_number, &row_templates[0],
                                          &row_templates[1], &row_templates[2], NULL, respelled.data);
    }
    Py_END_ALLOW_THREADS
    if (exported) {
        PyBuffer_Release(&into_view);
        exported = 0;
    }
    if (in_place) {
        if (raw_end != ahead + size) {
            Py_CLEAR(result);
            PyErr_SetString(PyExc_SystemError, "join_rows_released: the rows' size was miscounted");
        } else if (into != NULL) {
            if (PyByteArray_Resize(into, size) == 0) { /* a smaller size: the buffer keeps its memory */
                result = Py_NewRef(into);
                released_bytes_per_row = rows > 0 ? size / rows + 1 : released_bytes_per_row;
            }
        } else if (_PyBytes_Resize(&result, size) == 0) { /* on failure result is NULL, the error set */
            released_bytes_per_row = rows > 0 ? size / rows + 1 : released_bytes_per_row;
        }
        goto done;
    }
    Py_CLEAR(result); /* not written into (a bigger size, or cells that need the GIL) */
    if (deferred > 0 &&
        read_deferred_parts(columns, marks, width, start, stop, parts, held, &spelled, row_sizes, row_marks) < 0) {
        goto done;
    }
    if (failed < 0) {
        if (error != NULL) {
            PyErr_SetString(PyExc_ValueError, error);
        } else {
            PyErr_NoMemory();
        }
        goto done;
    }
    if (deferred == 0) {
        if (raw == NULL) {
            PyErr_NoMemory();
        } else if (raw_end != raw + size) {
            PyErr_SetString(PyExc_SystemError, "join_rows_released: the rows' size was miscounted");
        } else {
            result = PyBytes_FromStringAndSize(raw, size);
            released_bytes_per_row = rows > 0 ? size / rows + 1 : released_bytes_per_row;
        }
        goto done;
    }
    size = rows_size(row_sizes, row_marks, rows, first_number);
    result = PyBytes_FromStringAndSize(NULL, size);
    if (result == NULL) {
        goto done;
    }
    data = PyBytes_AS_STRING(result);
    Py_BEGIN_ALLOW_THREADS
    end = put_rows(data, parts, marks, width, start, stop, first_number, &row_templates[0], &row_templates[1],
                   &row_templates[2], spelled.data, respelled.data);
    Py_END_ALLOW_THREADS
    if (end != data + size) {
        Py_CLEAR(result);
        PyErr_SetString(PyExc_SystemError, "join_rows_released: the rows' size was miscounted");
    }
done:
    if (exported) {
        PyBuffer_Release(&into_view);
    }
    if (into != NULL && result != NULL && result != into) { /* rows that did not fit, or needed the GIL: copied */
        Py_ssize_t length = PyBytes_GET_SIZE(result);
        if (PyByteArray_Resize(into, length) == 0) {
            memcpy(PyByteArray_AS_STRING(into), PyBytes_AS_STRING(result), (size_t)length);
            Py_SETREF(result, Py_NewRef(into));
        } else {
            Py_CLEAR(result);
        }
    }
    PyMem_RawFree(raw);
    if (held != NULL) {
        for (Py_ssize_t k = 0; k < cells; k++) {
            Py_XDECREF(held[k]);
        }
        PyMem_Free(held);
    }
    PyMem_Free(parts);
    if (columns != NULL) {
        for (Py_ssize_t j = 0; j < width; j++) {
            Py_XDECREF(columns[j].values);
        }
        PyMem_Free(columns);
    }
    PyMem_Free(marks);
    PyMem_Free(row_sizes);
    PyMem_RawFree(respelled.data);
    Py_XDECREF(spelled.bytes);
    Py_DECREF(specs);
    return result;
}

/* How an attribute of one type's objects is read: straight from its __slots__ member's place when that is what
 * PyObject_GetAttr would read (the type's own getattr is object's, and the first of the name along its MRO is a
 * member descriptor of an object slot), else by PyObject_GetAttr. Valid while the type keeps the version tag it had
 * when planned (any change to the type or a base gives it another). */
typedef struct {
    PyTypeObject *type; /* borrowed: compared by identity only, while an object of it is held */
    unsigned int version;
    Py_ssize_t offset; /* -1: PyObject_GetAttr */
} SlotPlan;

static void plan_slot(SlotPlan *plan, PyTypeObject *type, PyObject *name) {
    plan->type = type;
    plan->version = 0;
    plan->offset = -1;
    if (!PyType_HasFeature(type, Py_TPFLAGS_VALID_VERSION_TAG)) {
        plan->type = NULL; /* planned again at the next object: its type has a tag once PyObject_GetAttr looked up */
        return;
    }
    if (type->tp_getattro != PyObject_GenericGetAttr || type->tp_mro == NULL || !PyTuple_Check(type->tp_mro)) {
        return;
    }
    unsigned int version = type->tp_version_tag;
    PyObject *found = NULL;
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(type->tp_mro) && found == NULL; k++) {
        PyObject *base = PyTuple_GET_ITEM(type->tp_mro, k);
        PyObject *dict = PyType_Check(base) ? ((PyTypeObject *)base)->tp_dict : NULL;
        if (dict == NULL || !PyDict_CheckExact(dict)) {
            return; /* a base whose attributes are not in its dict here: PyObject_GetAttr knows */
        }
        found = PyDict_GetItemWithError(dict, name); /* borrowed; the name's hash is cached, no Python code runs */
        if (found == NULL && PyErr_Occurred()) {
            PyErr_Clear();
            return;
        }
    }
    if (found == NULL || !Py_IS_TYPE(found, &PyMemberDescr_Type)) {
        return;
    }
    PyMemberDef *member = ((PyMemberDescrObject *)found)->d_member;
    PyTypeObject *owner = ((PyDescrObject *)found)->d_type;
    if (member->type != T_OBJECT_EX || member->offset <= 0 || !PyType_IsSubtype(type, owner) ||
        type->tp_version_tag != version || !PyType_HasFeature(type, Py_TPFLAGS_VALID_VERSION_TAG)) {
        return;
    }
    plan->version = version;
    plan->offset = member->offset;
}

/* getattr(object, name), new reference (NULL with the error set), by `plan` when it holds for the object's type. */
static inline PyObject *planned_attribute(SlotPlan *plan, PyObject *object, PyObject *name) {
    PyTypeObject *type = Py_TYPE(object);
    if (type != plan->type || (plan->offset >= 0 && (type->tp_version_tag != plan->version ||
                                                     !PyType_HasFeature(type, Py_TPFLAGS_VALID_VERSION_TAG)))) {
        plan_slot(plan, type, name);
    }
    if (plan->offset >= 0) {
        PyObject *value = *(PyObject **)((char *)object + plan->offset);
        if (value != NULL) {
            return Py_NewRef(value);
        }
    }
    return PyObject_GetAttr(object, name); /* unset slot (its AttributeError), or not a slot */
}

/* attribute_columns(objects, names, items, start, stop, into) -> None: into[j][i] = getattr(objects[i], names[j])
 * for i in [start, stop) (None for a None object: a row without metrics has none of theirs; with items true
 * objects[i][names[j]], for dicts), in one pass over the objects (each object's attributes read while it is in
 * cache; attrgetter per column walks 100k objects once per name). `into` holds one list per name, made by the
 * caller at full length: filled in place, chunk after chunk, no chunk lists built, extended and freed (that
 * touched every value twice more). Lists are re-checked on every access: a property's Python code may change
 * them meanwhile. */
enum { ATTRIBUTE_PLANS = 64 }; /* names read by plan; any after them by PyObject_GetAttr */

static PyObject *attribute_columns(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *objects, *names, *into;
    int items = 0;
    Py_ssize_t start, stop;
    if (!PyArg_ParseTuple(args, "O!O!pnnO!:attribute_columns", &PyList_Type, &objects, &PyTuple_Type, &names,
                          &items, &start, &stop, &PyList_Type, &into)) {
        return NULL;
    }
    Py_ssize_t width = PyTuple_GET_SIZE(names);
    if (PyList_GET_SIZE(into) != width) {
        PyErr_SetString(PyExc_ValueError, "attribute_columns: one list in `into` per name");
        return NULL;
    }
    for (Py_ssize_t j = 0; j < width; j++) {
        if (!PyUnicode_Check(PyTuple_GET_ITEM(names, j))) {
            PyErr_SetString(PyExc_TypeError, "attribute_columns: names must be str");
            return NULL;
        }
    }
    if (start < 0) {
        PyErr_SetString(PyExc_ValueError, "attribute_columns: start must not be negative");
        return NULL;
    }
    SlotPlan plans[ATTRIBUTE_PLANS];
    for (Py_ssize_t j = 0; j < width && j < ATTRIBUTE_PLANS; j++) {
        plans[j].type = NULL;
        plans[j].offset = -1;
    }
    for (Py_ssize_t i = start; i < stop; i++) {
        if (i >= PyList_GET_SIZE(objects)) {
            PyErr_SetString(PyExc_IndexError, "attribute_columns: objects shorter than stop");
            return NULL;
        }
        PyObject *object = Py_NewRef(PyList_GET_ITEM(objects, i)); /* held: a property may drop it from the list */
        for (Py_ssize_t j = 0; j < width; j++) {
            PyObject *name = PyTuple_GET_ITEM(names, j);
            PyObject *value = object == Py_None        ? Py_NewRef(Py_None)
                              : items                  ? PyObject_GetItem(object, name)
                              : j < ATTRIBUTE_PLANS    ? planned_attribute(&plans[j], object, name)
                                                       : PyObject_GetAttr(object, name);
            if (value == NULL) {
                Py_DECREF(object);
                return NULL;
            }
            PyObject *column = j < PyList_GET_SIZE(into) ? PyList_GET_ITEM(into, j) : NULL;
            if (column == NULL || !PyList_Check(column) || i >= PyList_GET_SIZE(column)) {
                Py_DECREF(value);
                Py_DECREF(object);
                PyErr_SetString(PyExc_ValueError, "attribute_columns: `into` lists must hold stop values");
                return NULL;
            }
            PyObject *previous = PyList_GET_ITEM(column, i);
            PyList_SET_ITEM(column, i, value);
            Py_XDECREF(previous); /* the caller's placeholder (None): its release runs no Python code */
        }
        Py_DECREF(object);
    }
    Py_RETURN_NONE;
}

/* item_values(groups, width, names, into, numbers, start, stop) -> flags: for each group i in [start, stop) (a
 * tuple of `width` objects: a row's ItemComparisons) and each object k of it, into[j][i * width + k] =
 * getattr(object, names[j]), and for j >= 1 numbers[(j - 1) * len(groups) * width + i * width + k] = that value
 * as a double (a writable float64 buffer). One pass over the objects where attribute_columns over the flattened
 * items, then numpy's conversion of each list, took three. The flags: 1 when a value of names[1:] is not exactly
 * an int or a float (its double is NaN), 2 when an int is among them, 4 when an int is beyond 2**53 (its double
 * would round). With `kinds` (a writable buffer of one byte a double), each double's byte says 1 when the value was
 * an int, else 0 (spell_numbers' kinds). */
static PyObject *item_values(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *groups, *names, *into;
    Py_ssize_t width, start, stop;
    Py_buffer numbers, kinds = {0};
    if (!PyArg_ParseTuple(args, "O!nO!O!w*nn|w*:item_values", &PyList_Type, &groups, &width, &PyTuple_Type, &names,
                          &PyList_Type, &into, &numbers, &start, &stop, &kinds)) {
        return NULL;
    }
    PyObject *result = NULL;
    Py_ssize_t parts = PyTuple_GET_SIZE(names), total = PyList_GET_SIZE(groups) * width;
    long flags = 0;
    uint8_t *kind_of = kinds.buf;
    if (width < 1 || start < 0 || stop > PyList_GET_SIZE(groups) || PyList_GET_SIZE(into) != parts || parts < 1 ||
        numbers.len < (Py_ssize_t)sizeof(double) * (parts - 1) * total ||
        (kind_of != NULL && kinds.len < (parts - 1) * total)) {
        PyErr_SetString(PyExc_ValueError, "item_values: sizes do not agree");
        goto done;
    }
    for (Py_ssize_t j = 0; j < parts; j++) {
        PyObject *column = PyList_GET_ITEM(into, j);
        if (!PyUnicode_Check(PyTuple_GET_ITEM(names, j)) || !PyList_Check(column) || PyList_GET_SIZE(column) != total) {
            PyErr_SetString(PyExc_ValueError, "item_values: one str name and one full-length list per part");
            goto done;
        }
    }
    double *out = numbers.buf;
    SlotPlan plans[ATTRIBUTE_PLANS];
    for (Py_ssize_t j = 0; j < parts && j < ATTRIBUTE_PLANS; j++) {
        plans[j].type = NULL;
        plans[j].offset = -1;
    }
    for (Py_ssize_t i = start; i < stop; i++) {
        if (i >= PyList_GET_SIZE(groups)) {
            PyErr_SetString(PyExc_IndexError, "item_values: groups shorter than stop");
            goto done;
        }
        PyObject *group = Py_NewRef(PyList_GET_ITEM(groups, i)); /* held: a property may drop it from the list */
        if (!PyTuple_Check(group) || PyTuple_GET_SIZE(group) != width) {
            Py_DECREF(group);
            PyErr_SetString(PyExc_ValueError, "item_values: every group is a tuple of `width` objects");
            goto done;
        }
        for (Py_ssize_t k = 0; k < width; k++) {
            PyObject *object = PyTuple_GET_ITEM(group, k);
            Py_ssize_t at = i * width + k;
            for (Py_ssize_t j = 0; j < parts; j++) {
                PyObject *name = PyTuple_GET_ITEM(names, j);
                PyObject *value = j < ATTRIBUTE_PLANS ? planned_attribute(&plans[j], object, name)
                                                      : PyObject_GetAttr(object, name);
                if (value == NULL) {
                    Py_DECREF(group);
                    goto done;
                }
                if (j > 0) {
                    double number = NAN;
                    uint8_t whole_number = 0;
                    if (PyFloat_CheckExact(value)) {
                        number = PyFloat_AS_DOUBLE(value);
                    } else if (PyLong_CheckExact(value)) {
                        int overflow = 0;
                        long long whole = PyLong_AsLongLongAndOverflow(value, &overflow);
                        flags |= 2;
                        whole_number = 1;
                        if (overflow || whole > (1LL << 53) || whole < -(1LL << 53)) {
                            flags |= 4;
                        } else {
                            number = (double)whole;
                        }
                    } else {
                        flags |= 1;
                    }
                    out[(j - 1) * total + at] = number;
                    if (kind_of != NULL) {
                        kind_of[(j - 1) * total + at] = whole_number;
                    }
                }
                PyObject *column = j < PyList_GET_SIZE(into) ? PyList_GET_ITEM(into, j) : NULL;
                if (column == NULL || !PyList_Check(column) || at >= PyList_GET_SIZE(column)) {
                    Py_DECREF(value);
                    Py_DECREF(group);
                    PyErr_SetString(PyExc_ValueError, "item_values: `into` changed meanwhile");
                    goto done;
                }
                PyObject *previous = PyList_GET_ITEM(column, at);
                PyList_SET_ITEM(column, at, value);
                Py_XDECREF(previous);
            }
        }
        Py_DECREF(group);
    }
    result = PyLong_FromLong(flags);
done:
    PyBuffer_Release(&numbers);
    if (kinds.obj != NULL) {
        PyBuffer_Release(&kinds);
    }
    return result;
}

/* Whether code point `letter` is one of `set`'s (a short str: a linear look-up). */
static int among(Py_UCS4 letter, PyObject *set) {
    Py_ssize_t size = PyUnicode_GET_LENGTH(set);
    int kind = PyUnicode_KIND(set);
    const void *data = PyUnicode_DATA(set);
    for (Py_ssize_t k = 0; k < size; k++) {
        if (PyUnicode_READ(kind, data, k) == letter) {
            return 1;
        }
    }
    return 0;
}

/* The ASCII characters of `inner` as a byte table (unsafe[c] is 1 for each); -1 with ValueError for a non-ASCII one. */
static int unsafe_table(PyObject *inner, unsigned char unsafe[128], const char *caller) {
    memset(unsafe, 0, 128);
    for (Py_ssize_t k = 0; k < PyUnicode_GET_LENGTH(inner); k++) {
        Py_UCS4 letter = PyUnicode_READ_CHAR(inner, k);
        if (letter >= 128) {
            PyErr_Format(PyExc_ValueError, "%s: inner characters must be ASCII", caller);
            return -1;
        }
        unsafe[letter] = 1;
    }
    return 0;
}

/* Whether a non-empty exact str needs work: a character of `unsafe`, a lead of `leads`, edge whitespace (when
 * edge_space) or more than max_length characters. */
static int text_needs_work(PyObject *value, const unsigned char unsafe[128], PyObject *leads, int edge_space,
                           Py_ssize_t max_length) {
    Py_ssize_t length = PyUnicode_GET_LENGTH(value);
    int kind = PyUnicode_KIND(value);
    const void *data = PyUnicode_DATA(value);
    Py_UCS4 first = PyUnicode_READ(kind, data, 0), last = PyUnicode_READ(kind, data, length - 1);
    if (length > max_length || among(first, leads) ||
        (edge_space && (Py_UNICODE_ISSPACE(first) || Py_UNICODE_ISSPACE(last)))) {
        return 1;
    }
    if (kind == PyUnicode_1BYTE_KIND) { /* the common case: a byte table look-up per character */
        const Py_UCS1 *text = data;
        for (Py_ssize_t k = 0; k < length; k++) {
            if (text[k] < 128 && unsafe[text[k]]) {
                return 1;
            }
        }
        return 0;
    }
    for (Py_ssize_t k = 0; k < length; k++) {
        Py_UCS4 letter = PyUnicode_READ(kind, data, k);
        if (letter < 128 && unsafe[letter]) {
            return 1;
        }
    }
    return 0;
}

/* plain_texts(values, inner, leads, edge_space, max_length) -> bool: True when no non-empty str among `values`
 * holds a character of `inner` (ASCII only), starts with one of `leads`, starts or ends with whitespace
 * (str.isspace(), when edge_space) or is longer than max_length: the writer then copies the column as it is.
 * Other values (None, numbers) are skipped. One scan of the texts instead of a set, a join and regexes. */
static PyObject *plain_texts(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *values_arg, *inner, *leads;
    int edge_space;
    Py_ssize_t max_length;
    if (!PyArg_ParseTuple(args, "OUUpn:plain_texts", &values_arg, &inner, &leads, &edge_space, &max_length)) {
        return NULL;
    }
    unsigned char unsafe[128];
    if (unsafe_table(inner, unsafe, "plain_texts") < 0) {
        return NULL;
    }
    PyObject *values = PySequence_Fast(values_arg, "plain_texts: values must be a sequence");
    if (values == NULL) {
        return NULL;
    }
    int plain = 1;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(values);
    for (Py_ssize_t i = 0; plain && i < count; i++) {
        PyObject *value = PySequence_Fast_GET_ITEM(values, i);
        if (PyUnicode_CheckExact(value) && PyUnicode_GET_LENGTH(value) > 0 &&
            text_needs_work(value, unsafe, leads, edge_space, max_length)) {
            plain = 0;
        }
    }
    Py_DECREF(values);
    return PyBool_FromLong(plain);
}

/* One column's survey without the GIL: the distinct types met (at most SURVEY_TYPES, in `kinds`; count -1 when
 * there are more), whether every float is finite and every text plain. Only the values' immutable parts are read (type,
 * float value, str length and characters): the caller holds the sequence, and nothing changes it meanwhile. */
enum { SURVEY_TYPES = 16 };

typedef struct {
    PyTypeObject *kinds[SURVEY_TYPES];
    int count, finite, plain;
} Survey;

static void survey_values(PyObject *const *items, Py_ssize_t count, const unsigned char unsafe[128], PyObject *leads,
                          int edge_space, Py_ssize_t max_length, Survey *found) {
    PyTypeObject *last = NULL; /* runs of one type are the rule: the list is searched once per change */
    found->count = 0;
    found->finite = found->plain = 1;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *value = items[i];
        PyTypeObject *kind = Py_TYPE(value);
        if (kind == &PyFloat_Type) {
            found->finite &= Py_IS_FINITE(PyFloat_AS_DOUBLE(value)) != 0;
        } else if (kind == &PyUnicode_Type && found->plain && PyUnicode_GET_LENGTH(value) > 0) {
            found->plain = !text_needs_work(value, unsafe, leads, edge_space, max_length);
        }
        if (kind != last && found->count >= 0) {
            last = kind;
            int known = 0;
            for (int k = 0; k < found->count && !known; k++) {
                known = found->kinds[k] == kind;
            }
            if (!known && found->count == SURVEY_TYPES) {
                found->count = -1; /* more types than the list holds: the caller collects them with the GIL */
            } else if (!known) {
                found->kinds[found->count++] = kind;
            }
        }
    }
}

/* A survey's answer (kinds, finite, plain), the types collected again with the GIL when there were too many. */
static PyObject *survey_answer(const Survey *found, PyObject *const *items, Py_ssize_t count) {
    PyObject *kinds = PySet_New(NULL);
    if (kinds != NULL && found->count < 0) { /* many types: the set itself holds them */
        for (Py_ssize_t i = 0; i < count; i++) {
            if (PySet_Add(kinds, (PyObject *)Py_TYPE(items[i])) < 0) {
                Py_CLEAR(kinds);
                break;
            }
        }
    }
    for (int k = 0; kinds != NULL && k < found->count; k++) {
        if (PySet_Add(kinds, (PyObject *)found->kinds[k]) < 0) {
            Py_CLEAR(kinds);
        }
    }
    if (kinds == NULL) {
        return NULL;
    }
    return Py_BuildValue("(NOO)", kinds, found->finite ? Py_True : Py_False, found->plain ? Py_True : Py_False);
}

/* column_surveys(columns, inner, leads, edge_space, max_length) -> [(set of types, all floats finite, plain texts)]:
 * column_kinds and plain_texts of every column, one pass over each (the texts checked while their cells are in
 * cache), all with the GIL released once: the xlsx writer surveys its columns while its other threads run Python
 * (a release per column waited up to a switch interval for the GIL again, each time). The caller keeps the
 * columns (lists or tuples it made) unchanged until the call returns. */
static PyObject *column_surveys(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *columns_arg, *inner, *leads;
    int edge_space;
    Py_ssize_t max_length;
    if (!PyArg_ParseTuple(args, "OUUpn:column_surveys", &columns_arg, &inner, &leads, &edge_space, &max_length)) {
        return NULL;
    }
    unsigned char unsafe[128];
    if (unsafe_table(inner, unsafe, "column_surveys") < 0) {
        return NULL;
    }
    PyObject *columns = PySequence_Tuple(columns_arg);
    if (columns == NULL) {
        return NULL;
    }
    Py_ssize_t width = PyTuple_GET_SIZE(columns);
    PyObject **held = PyMem_Calloc((size_t)(width ? width : 1), sizeof(PyObject *));
    Survey *found = PyMem_Calloc((size_t)(width ? width : 1), sizeof(Survey));
    PyObject *answers = NULL;
    if (held == NULL || found == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t j = 0; j < width; j++) {
        held[j] = PySequence_Fast(PyTuple_GET_ITEM(columns, j), "column_surveys: a column must be a sequence");
        if (held[j] == NULL) {
            goto done;
        }
    }
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t j = 0; j < width; j++) {
        survey_values(PySequence_Fast_ITEMS(held[j]), PySequence_Fast_GET_SIZE(held[j]), unsafe, leads, edge_space,
                      max_length, &found[j]);
    }
    Py_END_ALLOW_THREADS
    answers = PyList_New(width);
    for (Py_ssize_t j = 0; answers != NULL && j < width; j++) {
        PyObject *answer = survey_answer(&found[j], PySequence_Fast_ITEMS(held[j]), PySequence_Fast_GET_SIZE(held[j]));
        if (answer == NULL) {
            Py_CLEAR(answers);
        } else {
            PyList_SET_ITEM(answers, j, answer);
        }
    }
done:
    if (held != NULL) {
        for (Py_ssize_t j = 0; j < width; j++) {
            Py_XDECREF(held[j]);
        }
        PyMem_Free(held);
    }
    PyMem_Free(found);
    Py_DECREF(columns);
    return answers;
}

/* column_survey(values, inner, leads, edge_space, max_length) -> (set of types, all floats finite, plain texts):
 * column_surveys of one column. */
static PyObject *column_survey(PyObject *self, PyObject *args) {
    PyObject *values, *inner, *leads;
    int edge_space;
    Py_ssize_t max_length;
    if (!PyArg_ParseTuple(args, "OUUpn:column_survey", &values, &inner, &leads, &edge_space, &max_length)) {
        return NULL;
    }
    PyObject *surveys_args = Py_BuildValue("((O)OOin)", values, inner, leads, edge_space, max_length);
    if (surveys_args == NULL) {
        return NULL;
    }
    PyObject *answers = column_surveys(self, surveys_args);
    Py_DECREF(surveys_args);
    if (answers == NULL) {
        return NULL;
    }
    PyObject *answer = Py_NewRef(PyList_GET_ITEM(answers, 0));
    Py_DECREF(answers);
    return answer;
}

/* column_kinds(values) -> (set of the values' types, True when no float among them is NaN or ±Inf): one pass over
 * a column (set(map(type, values)) and a finiteness scan were two passes of Python calls per cell). */
static PyObject *column_kinds(PyObject *self, PyObject *values_arg) {
    (void)self;
    PyObject *values = PySequence_Fast(values_arg, "column_kinds: values must be a sequence");
    if (values == NULL) {
        return NULL;
    }
    PyObject *kinds = PySet_New(NULL);
    PyTypeObject *last = NULL; /* runs of one type are the rule: the set is touched once per change */
    int finite = 1;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(values);
    for (Py_ssize_t i = 0; kinds != NULL && i < count; i++) {
        PyObject *value = PySequence_Fast_GET_ITEM(values, i);
        PyTypeObject *kind = Py_TYPE(value);
        if (kind == &PyFloat_Type && !Py_IS_FINITE(PyFloat_AS_DOUBLE(value))) {
            finite = 0;
        }
        if (kind != last) {
            last = kind;
            if (PySet_Add(kinds, (PyObject *)kind) < 0) {
                Py_CLEAR(kinds);
            }
        }
    }
    Py_DECREF(values);
    if (kinds == NULL) {
        return NULL;
    }
    return Py_BuildValue("(NO)", kinds, finite ? Py_True : Py_False);
}

/* 1 when `value` needs no respelling before msgspec writes it as json.dumps did (json_spelling.fixed would
 * change nothing but copy it): every float met is 0 or of magnitude in [1e-4, 1e16) (so finite), every dict key
 * a str; walks exactly what fixed() walks (exact dicts, lists and tuples). 0 otherwise, -1 on error. No Python
 * code runs meanwhile, so the containers cannot change under the walk. */
static int nested_plain(PyObject *value) {
    if (PyFloat_CheckExact(value)) {
        double magnitude = fabs(PyFloat_AS_DOUBLE(value));
        return magnitude == 0.0 || (magnitude >= 1e-4 && magnitude < 1e16);
    }
    int dict = PyDict_CheckExact(value), list = PyList_CheckExact(value), tuple = PyTuple_CheckExact(value);
    if (!dict && !list && !tuple) {
        return 1;
    }
    if (Py_EnterRecursiveCall(" in nested_plain")) {
        return -1;
    }
    int plain = 1;
    if (dict) {
        Py_ssize_t at = 0;
        PyObject *key, *item;
        while (plain == 1 && PyDict_Next(value, &at, &key, &item)) {
            plain = PyUnicode_CheckExact(key) ? nested_plain(item) : 0;
        }
    } else {
        Py_ssize_t size = list ? PyList_GET_SIZE(value) : PyTuple_GET_SIZE(value);
        for (Py_ssize_t at = 0; plain == 1 && at < size; at++) {
            plain = nested_plain(list ? PyList_GET_ITEM(value, at) : PyTuple_GET_ITEM(value, at));
        }
    }
    Py_LeaveRecursiveCall();
    return plain;
}

static PyObject *nested_plain_py(PyObject *self, PyObject *value) {
    (void)self;
    int plain = nested_plain(value);
    if (plain < 0) {
        return NULL;
    }
    return PyBool_FromLong(plain);
}

/* int_tuples(values) -> bool: every value is None or a tuple of ints (exact types). The JSON writers spell each
 * distinct shape once, found by a dict look-up: (True, 16) or (1.0, 16) equals (1, 16) there and would take its
 * spelling, so a column is spelled that way only when no such value is in it. */
static PyObject *int_tuples(PyObject *self, PyObject *values_arg) {
    (void)self;
    PyObject *values = PySequence_Fast(values_arg, "int_tuples: values must be a sequence");
    if (values == NULL) {
        return NULL;
    }
    int exact = 1;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(values);
    for (Py_ssize_t i = 0; exact && i < count; i++) {
        PyObject *value = PySequence_Fast_GET_ITEM(values, i);
        if (value == Py_None) {
            continue;
        }
        if (!PyTuple_CheckExact(value)) {
            exact = 0;
            break;
        }
        for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(value); k++) {
            if (!PyLong_CheckExact(PyTuple_GET_ITEM(value, k))) {
                exact = 0;
                break;
            }
        }
    }
    Py_DECREF(values);
    return PyBool_FromLong(exact);
}

/* nonfinite_places(values) -> [int]: the places of the floats in `values` that are NaN or +-Inf (the CSV writer
 * spells those as repr() does, the rest of their column through msgspec: a Python pass over 100k cells to find the
 * few took longer than the column's spelling). */
static PyObject *nonfinite_places(PyObject *self, PyObject *values_arg) {
    (void)self;
    PyObject *values = PySequence_Fast(values_arg, "nonfinite_places: values must be a sequence");
    if (values == NULL) {
        return NULL;
    }
    PyObject *places = PyList_New(0);
    Py_ssize_t count = PySequence_Fast_GET_SIZE(values);
    for (Py_ssize_t i = 0; places != NULL && i < count; i++) {
        PyObject *value = PySequence_Fast_GET_ITEM(values, i);
        if (Py_TYPE(value) == &PyFloat_Type && !Py_IS_FINITE(PyFloat_AS_DOUBLE(value))) {
            PyObject *place = PyLong_FromSsize_t(i);
            if (place == NULL || PyList_Append(places, place) < 0) {
                Py_CLEAR(places);
            }
            Py_XDECREF(place);
        }
    }
    Py_DECREF(values);
    return places;
}

/* spread_values(values, at) -> list: values[at[i]] for each int64 `at[i]` (native byte order), None where at[i] is
 * not a place in `values` (a block's regular rows' values at their rows: StatsTable.spread). */
static PyObject *spread_values(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *values;
    Py_buffer at;
    if (!PyArg_ParseTuple(args, "O!y*:spread_values", &PyList_Type, &values, &at)) {
        return NULL;
    }
    if (at.len % (Py_ssize_t)sizeof(int64_t) != 0) {
        PyBuffer_Release(&at);
        PyErr_SetString(PyExc_ValueError, "spread_values: at must hold int64 places");
        return NULL;
    }
    Py_ssize_t size = at.len / (Py_ssize_t)sizeof(int64_t), count = PyList_GET_SIZE(values);
    PyObject *spread = PyList_New(size);
    if (spread != NULL) {
        const char *places = (const char *)at.buf;
        for (Py_ssize_t i = 0; i < size; i++) {
            int64_t place;
            memcpy(&place, places + i * (Py_ssize_t)sizeof place, sizeof place); /* the buffer may be unaligned */
            PyObject *value = place >= 0 && place < count ? PyList_GET_ITEM(values, (Py_ssize_t)place) : Py_None;
            PyList_SET_ITEM(spread, i, Py_NewRef(value));
        }
    }
    PyBuffer_Release(&at);
    return spread;
}

/* A finite double as ±digits × 10^power with the fewest digits that read back as it (Ryu's, which are repr's):
 * the digits, *power set; 0 for ±0.0. */
static uint64_t shortest_digits(double value, int32_t *power) {
    const uint64_t bits = double_to_bits(value);
    const uint64_t mantissa = bits & ((1ull << DOUBLE_MANTISSA_BITS) - 1);
    const uint32_t exponent = (uint32_t)((bits >> DOUBLE_MANTISSA_BITS) & ((1u << DOUBLE_EXPONENT_BITS) - 1));
    *power = 0;
    if (exponent == 0 && mantissa == 0) {
        return 0;
    }
    floating_decimal_64 decimal;
    if (d2d_small_int(mantissa, exponent, &decimal)) { /* an integer below 2**53: its own digits are the shortest */
        while (decimal.mantissa % 10 == 0) {
            decimal.mantissa /= 10;
            decimal.exponent++;
        }
    } else {
        decimal = d2d(mantissa, exponent);
    }
    *power = decimal.exponent;
    return decimal.mantissa;
}

enum { NUMBER_FLOAT = 0, NUMBER_INT = 1, NUMBER_EMPTY = 2 };
enum { SPELLED_NUMBER_MAX = 32 }; /* "-" 17 digits "e-324", or a 64-bit int, with room to spare */

/* One cell of spell_numbers at `out` (room for SPELLED_NUMBER_MAX bytes or the longest text + 2); its length. */
static Py_ssize_t spell_number(double value, uint8_t kind, const char *const texts[3], const Py_ssize_t lengths[3],
                               char *out) {
    if (kind == NUMBER_EMPTY) {
        memcpy(out, "null", 4);
        return 4;
    }
    if (!isfinite(value)) { /* as_dict's words, which join_rows writes as text cells */
        int which = isnan(value) ? 0 : value > 0 ? 1 : 2;
        out[0] = '"';
        memcpy(out + 1, texts[which], (size_t)lengths[which]);
        out[lengths[which] + 1] = '"';
        return lengths[which] + 2;
    }
    if (kind == NUMBER_INT && value == trunc(value) && fabs(value) <= 9007199254740992.0) { /* ±2**53: exact */
        return spell_integer((long long)value, out);
    }
    /* as repr(): join_rows copies such a token as it is (token_is_repr) */
    int used = 0;
    if (signbit(value)) {
        out[used++] = '-';
    }
    int32_t power;
    uint64_t digits = shortest_digits(value, &power);
    if (digits == 0) {
        memcpy(out + used, "0.0", 3);
        return used + 3;
    }
    char shown[24];
    int count = (int)spell_integer((long long)digits, shown); /* at most 17 digits */
    int decimal = count + power - 1; /* the first digit's power of ten */
    while (count > 1 && shown[count - 1] == '0') {
        count--;
    }
    const char *error = NULL;
    return spell_repr_digits(shown, count, decimal, out, used, &error); /* no error: |decimal| <= 324 */
}

/* One FloatNumbers column of spell_numbers: its buffers, texts and the bytes object it is spelled into. */
typedef struct {
    Py_buffer numbers, kinds;
    const char *texts[3];
    Py_ssize_t lengths[3], count;
    PyObject *spelled;
    char *out;
    Py_ssize_t used;
} NumbersSpec;

/* A (numbers, kinds, texts) tuple read into `spec` (its buffers held: released by the caller, also on failure) and
 * its bytes object made at the largest size it can need. */
static int numbers_spec(PyObject *item, NumbersSpec *spec) {
    PyObject *words;
    if (!PyTuple_Check(item) || !PyArg_ParseTuple(item, "y*y*O!:spell_numbers", &spec->numbers, &spec->kinds,
                                                  &PyTuple_Type, &words)) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError, "spell_numbers: each column is (numbers, kinds, texts)");
        }
        return -1;
    }
    Py_ssize_t widest = SPELLED_NUMBER_MAX;
    spec->count = spec->numbers.len / (Py_ssize_t)sizeof(double);
    if (spec->numbers.len % (Py_ssize_t)sizeof(double) != 0 || spec->kinds.len != spec->count ||
        PyTuple_GET_SIZE(words) != 3) {
        PyErr_SetString(PyExc_ValueError, "spell_numbers: one kind byte per float64, and three texts");
        return -1;
    }
    for (int which = 0; which < 3; which++) {
        PyObject *word = PyTuple_GET_ITEM(words, which);
        spec->texts[which] = PyUnicode_Check(word) ? PyUnicode_AsUTF8AndSize(word, &spec->lengths[which]) : NULL;
        if (spec->texts[which] == NULL) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_TypeError, "spell_numbers: the texts are str");
            }
            return -1;
        }
        if (spec->lengths[which] < 1 || spec->lengths[which] > 64 ||
            !is_word(spec->texts[which], spec->lengths[which])) {
            PyErr_SetString(PyExc_ValueError, TOKEN_TEXT_ERROR);
            return -1;
        }
        widest = spec->lengths[which] + 2 > widest ? spec->lengths[which] + 2 : widest;
    }
    for (Py_ssize_t at = 0; at < spec->count; at++) {
        if (((const uint8_t *)spec->kinds.buf)[at] > NUMBER_EMPTY) {
            PyErr_SetString(PyExc_ValueError, "spell_numbers: a kind is 0 (float), 1 (int) or 2 (empty)");
            return -1;
        }
    }
    if (spec->count > (PY_SSIZE_T_MAX - 2) / (widest + 1)) {
        PyErr_NoMemory();
        return -1;
    }
    spec->spelled = PyBytes_FromStringAndSize(NULL, 2 + spec->count * (widest + 1));
    if (spec->spelled == NULL) {
        return -1;
    }
    spec->out = PyBytes_AS_STRING(spec->spelled);
    return 0;
}

/* A column's numbers spelled at spec->out (no object touched: without the GIL). */
static void spell_spec(NumbersSpec *spec) {
    char *out = spec->out;
    Py_ssize_t used = 0;
    out[used++] = '[';
    for (Py_ssize_t at = 0; at < spec->count; at++) {
        double value;
        memcpy(&value, (const char *)spec->numbers.buf + at * (Py_ssize_t)sizeof value, sizeof value); /* unaligned */
        if (at) {
            out[used++] = ',';
        }
        used += spell_number(value, ((const uint8_t *)spec->kinds.buf)[at], spec->texts, spec->lengths, out + used);
    }
    out[used++] = ']';
    spec->used = used;
}

/* spell_numbers(columns) -> [bytes]: for each (numbers, kinds, texts) of `columns`, a JSON array join_rows takes as
 * a numbers column, all spelled with the GIL released once: for each double of `numbers` (float64) and byte of
 * `kinds`, kind 2 -> null, a NaN, +Inf or -Inf -> texts[0], [1] or [2] between quotes (words of ASCII letters, '+'
 * and '-'), kind 1 -> the int the double holds (within ±2**53; another double is spelled as kind 0), kind 0 ->
 * repr() of the double (Ryu's shortest digits). */
static PyObject *spell_numbers(PyObject *self, PyObject *columns) {
    (void)self;
    if (!PyList_Check(columns)) {
        PyErr_SetString(PyExc_TypeError, "spell_numbers: a list of (numbers, kinds, texts)");
        return NULL;
    }
    Py_ssize_t count = PyList_GET_SIZE(columns), ready = 0;
    NumbersSpec *specs = PyMem_Calloc(count ? (size_t)count : 1, sizeof *specs);
    if (specs == NULL) {
        return PyErr_NoMemory();
    }
    PyObject *result = NULL;
    for (; ready < count; ready++) {
        if (numbers_spec(PyList_GET_ITEM(columns, ready), &specs[ready]) < 0) {
            ready++; /* its buffers may be held: released below */
            goto done;
        }
    }
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t j = 0; j < count; j++) {
        spell_spec(&specs[j]);
    }
    Py_END_ALLOW_THREADS
    result = PyList_New(count);
    for (Py_ssize_t j = 0; result != NULL && j < count; j++) {
        if (_PyBytes_Resize(&specs[j].spelled, specs[j].used) < 0) { /* sets it NULL on failure */
            Py_CLEAR(result);
            break;
        }
        PyList_SET_ITEM(result, j, specs[j].spelled);
        specs[j].spelled = NULL;
    }
done:
    for (Py_ssize_t j = 0; j < ready; j++) {
        if (specs[j].numbers.obj != NULL) {
            PyBuffer_Release(&specs[j].numbers);
        }
        if (specs[j].kinds.obj != NULL) {
            PyBuffer_Release(&specs[j].kinds);
        }
        Py_XDECREF(specs[j].spelled);
    }
    PyMem_Free(specs);
    return result;
}

static PyMethodDef methods[] = {
    {"spell_numbers", spell_numbers, METH_O,
     "spell_numbers(columns) -> [bytes]: each (numbers, kinds, texts)'s float64 numbers as a JSON array join_rows "
     "takes as a numbers column (kind 0 float, 1 int, 2 null; NaN, +Inf, -Inf as texts[0..2]), spelled without the "
     "GIL (released once for all)."},
    {"spread_values", spread_values, METH_VARARGS,
     "spread_values(values, at) -> list: values[at[i]] for each int64 at[i], None where it is not a place."},
    {"int_tuples", int_tuples, METH_O,
     "int_tuples(values) -> bool: every value is None or a tuple of ints (exact types)."},
    {"nonfinite_places", nonfinite_places, METH_O,
     "nonfinite_places(values) -> [int]: where the floats that are NaN or +-Inf are."},
    {"item_values", item_values, METH_VARARGS,
     "item_values(groups, width, names, into, numbers, start, stop, kinds=None) -> flags: every group's objects' "
     "attributes into the caller's lists, those after the first as doubles too (and in `kinds` 1 for an int)."},
    {"attribute_columns", attribute_columns, METH_VARARGS,
     "attribute_columns(objects, names, items, start, stop, into) -> None: each name's attribute (item) of objects "
     "start..stop-1 (None of None) into the caller's lists."},
    {"plain_texts", plain_texts, METH_VARARGS,
     "plain_texts(values, inner, leads, edge_space, max_length) -> bool: no text needs work."},
    {"column_surveys", column_surveys, METH_VARARGS,
     "column_surveys(columns, inner, leads, edge_space, max_length) -> [(types, all floats finite, plain texts)]"},
    {"column_survey", column_survey, METH_VARARGS,
     "column_survey(values, inner, leads, edge_space, max_length) -> (set of types, bool, bool): column_kinds and "
     "plain_texts in one pass."},
    {"column_kinds", column_kinds, METH_O,
     "column_kinds(values) -> (set of types, bool): the values' types and whether every float is finite."},
    {"nested_plain", nested_plain_py, METH_O,
     "nested_plain(value) -> bool: no float outside [1e-4, 1e16) but 0 and no non-str key within its dicts, lists "
     "and tuples (json_spelling.fixed would change nothing)."},
    {"join_rows_released", join_rows_released, METH_VARARGS,
     "join_rows_released(columns, start, stop, row_open, row_close, separator, first_number, into=None) -> bytes "
     "(or `into`, a bytearray written over): join_rows' bytes, written with the GIL released."},
    {"join_rows", join_rows, METH_VARARGS,
     "join_rows(columns, start, stop, row_open, row_close, separator, first_number) -> bytes: rows of column "
     "cells joined into UTF-8."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_rowjoin",
                                    "Table rows joined into UTF-8 bytes straight from their columns.", -1, methods};

PyMODINIT_FUNC PyInit__rowjoin(void) { return PyModule_Create(&module); }
