/*
 * One tensor of a raw dump file read whole (raw_header.locate_tensor's fast path): plain C99 over the
 * DumpData protobuf header, for the batched comparison of many small pairs.
 *
 * locate(contents, output, index) -> tuple | False | None
 *   tuple: (data_type, format, shape, original_shape, sub_format, offset, size, origin_op, origin_index) of
 *          the index-th output (output true) or input, as raw_header._big_tensor builds it from protobuf's
 *          message: ints as upb gives them (int32 enums, uint32 output_index, uint64 sizes and dims), the
 *          shapes as tuples, origin_op a str or None (inputs, or an output without original_op.name),
 *          origin_index an int or None; offset is where the tensor's bytes start in the file.
 *   False: the header is fine and every size fits the file, but it has no such tensor.
 *   None:  anything this scanner does not settle for certain: a nano dump, a header length past the file,
 *          bytes that are not a well-formed message, a known field with another wire type, a group, a
 *          string that is not ASCII (protobuf checks UTF-8), a repeated singular message on the chosen
 *          tensor (protobuf would merge it), more than MAX_DIMS dims, a size sum past the file or that
 *          overflows. The caller then parses the header with protobuf, whose answer (or error sentence) is
 *          the reference; test_raw_scan checks the two agree on generated and mutated headers.
 *
 * Why: protobuf parses a small header in about 2 us, but building the Python objects of every tensor's
 * fields to find one took 12-15 us more, twice per pair, with the GIL held.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <string.h>

#define MAX_HEADER_BYTES ((uint64_t)64 << 20) /* raw_header.MAX_HEADER_BYTES */
#define MAX_DIMS 64                           /* more: left to protobuf (raw_header marks > 32 as a problem) */

enum { WT_VARINT = 0, WT_I64 = 1, WT_LEN = 2, WT_I32 = 5 };
enum { OK = 0, UNSURE = -1 };

typedef struct {
    const uint8_t *p, *end;
} cursor;

typedef struct {
    uint64_t dims[MAX_DIMS];
    int count;
} shape_t;

/* What the chosen tensor holds (zero where the header leaves a field out, as proto3 reads it). */
typedef struct {
    uint64_t data_type, format, sub_format, size, origin_index;
    shape_t shape, original;
    const uint8_t *origin_name;
    size_t origin_name_len;
    int seen_shape, seen_original, seen_origin;
} tensor_t;

static int read_varint(cursor *c, uint64_t *out)
{
    uint64_t value = 0;
    for (int byte = 0; byte < 10; byte++) {
        if (c->p >= c->end) return UNSURE;
        uint8_t b = *c->p++;
        if (byte == 9 && b > 1) return UNSURE; /* past 64 bits */
        value |= (uint64_t)(b & 0x7F) << (7 * byte);
        if (!(b & 0x80)) {
            *out = value;
            return OK;
        }
    }
    return UNSURE;
}

static int read_tag(cursor *c, uint32_t *field, int *wire)
{
    uint64_t tag;
    if (read_varint(c, &tag) != OK || tag > UINT32_MAX || (tag >> 3) == 0) return UNSURE;
    *field = (uint32_t)(tag >> 3);
    *wire = (int)(tag & 7);
    return OK;
}

/* The payload of a length-delimited field as a cursor of its own. */
static int read_len(cursor *c, cursor *inner)
{
    uint64_t length;
    if (read_varint(c, &length) != OK || length > (uint64_t)(c->end - c->p)) return UNSURE;
    inner->p = c->p;
    inner->end = c->p + length;
    c->p += length;
    return OK;
}

static int skip_field(cursor *c, int wire)
{
    uint64_t ignored;
    cursor inner;
    switch (wire) {
    case WT_VARINT: return read_varint(c, &ignored);
    case WT_I64:
        if (c->end - c->p < 8) return UNSURE;
        c->p += 8;
        return OK;
    case WT_LEN: return read_len(c, &inner);
    case WT_I32:
        if (c->end - c->p < 4) return UNSURE;
        c->p += 4;
        return OK;
    default: return UNSURE; /* groups and reserved wire types */
    }
}

static int ascii(cursor s)
{
    for (const uint8_t *p = s.p; p < s.end; p++)
        if (*p & 0x80) return 0;
    return 1;
}

/* A string field: well-formed and ASCII (protobuf would check UTF-8: anything else is left to it). */
static int check_string(cursor *c, int wire, cursor *text)
{
    cursor local;
    cursor *out = text ? text : &local;
    if (wire != WT_LEN || read_len(c, out) != OK || !ascii(*out)) return UNSURE;
    return OK;
}

/* A message whose fields are varints, length-delimited bytes, or ASCII strings (by field number). */
typedef struct {
    uint32_t varints; /* bit n: field n is a varint */
    uint32_t bytes;   /* bit n: field n is length-delimited bytes */
    uint32_t strings; /* bit n: field n is a string */
} flat_schema;

static int flat_field(cursor *c, uint32_t field, int wire, const flat_schema *schema, uint64_t *varint_out)
{
    uint32_t bit = field < 32 ? (uint32_t)1 << field : 0;
    if (schema->varints & bit) {
        uint64_t value;
        if (wire != WT_VARINT || read_varint(c, &value) != OK) return UNSURE;
        if (varint_out) *varint_out = value;
        return OK;
    }
    if (schema->bytes & bit) {
        cursor ignored;
        return wire == WT_LEN ? read_len(c, &ignored) : UNSURE;
    }
    if (schema->strings & bit) return check_string(c, wire, NULL);
    return skip_field(c, wire);
}

/* A flat message whole; `size_field` (0: none) is the varint whose last value goes to *size. */
static int flat_message(cursor c, const flat_schema *schema, uint32_t size_field, uint64_t *size)
{
    while (c.p < c.end) {
        uint32_t field;
        int wire;
        uint64_t value = 0;
        if (read_tag(&c, &field, &wire) != OK) return UNSURE;
        if (flat_field(&c, field, wire, schema, &value) != OK) return UNSURE;
        if (size_field && field == size_field) *size = value;
    }
    return OK;
}

#define BIT(n) ((uint32_t)1 << (n))
static const flat_schema ORIGINAL_OP = {BIT(2) | BIT(3) | BIT(4), 0, BIT(1)};
static const flat_schema DIM_RANGE = {BIT(1) | BIT(2), 0, 0};
static const flat_schema OP_BUFFER = {BIT(1) | BIT(3), BIT(2), 0};
static const flat_schema OP_ATTR = {0, 0, BIT(1) | BIT(2)};
static const flat_schema WORKSPACE = {BIT(1) | BIT(3) | BIT(4), BIT(2), 0};

static int shape_message(cursor c, shape_t *shape)
{
    while (c.p < c.end) {
        uint32_t field;
        int wire;
        if (read_tag(&c, &field, &wire) != OK) return UNSURE;
        if (field != 1) {
            if (skip_field(&c, wire) != OK) return UNSURE;
            continue;
        }
        cursor packed;
        if (wire == WT_VARINT) {
            packed.p = c.p; /* one dim */
            if (read_varint(&c, &(uint64_t){0}) != OK) return UNSURE;
            packed.end = c.p;
        } else if (wire == WT_LEN) {
            if (read_len(&c, &packed) != OK) return UNSURE; /* packed dims (none at all is fine) */
        } else {
            return UNSURE;
        }
        while (packed.p < packed.end) {
            uint64_t dim;
            if (read_varint(&packed, &dim) != OK) return UNSURE;
            if (shape) {
                if (shape->count >= MAX_DIMS) return UNSURE;
                shape->dims[shape->count++] = dim;
            }
        }
    }
    return OK;
}

/* Field numbers of OpOutput and OpInput (raw_proto._SCHEMA). */
typedef struct {
    uint32_t data_type, format, shape, original_op, data, size, original_shape, sub_format, dim_range;
    uint32_t other_varints; /* bits of the varint fields this scanner does not keep */
} tensor_fields;

static const tensor_fields OUTPUT_FIELDS = {1, 2, 3, 4, 5, 6, 7, 8, 10, BIT(9) | BIT(11) | BIT(12)};
static const tensor_fields INPUT_FIELDS = {1, 2, 3, 0, 4, 5, 6, 7, 0, BIT(8) | BIT(9) | BIT(10) | BIT(11)};

/* One OpOutput / OpInput: checked whole; its size always, its other fields when `keep` is given. */
static int tensor_message(cursor c, const tensor_fields *f, uint64_t *size, tensor_t *keep)
{
    *size = 0;
    while (c.p < c.end) {
        uint32_t field;
        int wire;
        if (read_tag(&c, &field, &wire) != OK) return UNSURE;
        uint64_t value;
        cursor inner;
        if (field == f->data_type || field == f->format || field == f->size || field == f->sub_format
            || (field < 32 && (f->other_varints & BIT(field)))) {
            if (wire != WT_VARINT || read_varint(&c, &value) != OK) return UNSURE;
            if (field == f->size) *size = value;
            if (keep) {
                if (field == f->data_type) keep->data_type = value;
                else if (field == f->format) keep->format = value;
                else if (field == f->sub_format) keep->sub_format = value;
                else if (field == f->size) keep->size = value;
            }
        } else if (field == f->shape || field == f->original_shape) {
            if (wire != WT_LEN || read_len(&c, &inner) != OK) return UNSURE;
            shape_t *target = NULL;
            if (keep) {
                int *seen = field == f->shape ? &keep->seen_shape : &keep->seen_original;
                if ((*seen)++) return UNSURE; /* protobuf merges a repeated singular message */
                target = field == f->shape ? &keep->shape : &keep->original;
            }
            if (shape_message(inner, target) != OK) return UNSURE;
        } else if (f->original_op && field == f->original_op) {
            if (wire != WT_LEN || read_len(&c, &inner) != OK) return UNSURE;
            if (keep && keep->seen_origin++) return UNSURE;
            cursor message = inner;
            while (message.p < message.end) { /* ORIGINAL_OP, keeping name and output_index */
                uint32_t sub;
                int sub_wire;
                if (read_tag(&message, &sub, &sub_wire) != OK) return UNSURE;
                if (sub == 1) {
                    cursor name;
                    if (check_string(&message, sub_wire, &name) != OK) return UNSURE;
                    if (keep) {
                        keep->origin_name = name.p;
                        keep->origin_name_len = (size_t)(name.end - name.p);
                    }
                } else {
                    if (flat_field(&message, sub, sub_wire, &ORIGINAL_OP, &value) != OK) return UNSURE;
                    if (keep && sub == 2) keep->origin_index = value;
                }
            }
        } else if (field == f->data) {
            if (wire != WT_LEN || read_len(&c, &inner) != OK) return UNSURE;
        } else if (f->dim_range && field == f->dim_range) {
            if (wire != WT_LEN || read_len(&c, &inner) != OK) return UNSURE;
            if (flat_message(inner, &DIM_RANGE, 0, NULL) != OK) return UNSURE;
        } else if (skip_field(&c, wire) != OK) {
            return UNSURE;
        }
    }
    return OK;
}

static int add(uint64_t *sum, uint64_t value)
{
    if (*sum + value < *sum) return UNSURE;
    *sum += value;
    return OK;
}

/* The DumpData message: every field checked, sizes summed per kind, the chosen tensor kept. */
typedef struct {
    int output; /* the chosen kind */
    uint64_t index;
    uint64_t inputs, outputs, rest;  /* bytes of every input, output, buffer and workspace */
    uint64_t before;                 /* bytes of the chosen kind's tensors before the chosen one */
    uint64_t seen;                   /* tensors of the chosen kind so far */
    int found;
    tensor_t tensor;
} scan_t;

static int dump_data(cursor c, scan_t *scan)
{
    static const flat_schema TOP_SCALARS = {BIT(2), 0, BIT(1) | BIT(6) | BIT(9)};
    while (c.p < c.end) {
        uint32_t field;
        int wire;
        if (read_tag(&c, &field, &wire) != OK) return UNSURE;
        cursor inner;
        uint64_t size = 0;
        if (field == 3 || field == 4) {
            int output = field == 3;
            if (wire != WT_LEN || read_len(&c, &inner) != OK) return UNSURE;
            int chosen = output == scan->output && scan->seen == scan->index;
            if (tensor_message(inner, output ? &OUTPUT_FIELDS : &INPUT_FIELDS, &size,
                               chosen ? &scan->tensor : NULL) != OK)
                return UNSURE;
            if (add(output ? &scan->outputs : &scan->inputs, size) != OK) return UNSURE;
            if (output == scan->output) {
                if (chosen) scan->found = 1;
                else if (!scan->found && add(&scan->before, size) != OK) return UNSURE;
                scan->seen++;
            }
        } else if (field == 5 || field == 8 || field == 7) {
            if (wire != WT_LEN || read_len(&c, &inner) != OK) return UNSURE;
            const flat_schema *schema = field == 5 ? &OP_BUFFER : field == 8 ? &WORKSPACE : &OP_ATTR;
            if (flat_message(inner, schema, field == 7 ? 0 : 3, &size) != OK) return UNSURE;
            if (add(&scan->rest, size) != OK) return UNSURE;
        } else if (flat_field(&c, field, wire, &TOP_SCALARS, NULL) != OK) {
            return UNSURE;
        }
    }
    return OK;
}

static PyObject *shape_tuple(const shape_t *shape)
{
    PyObject *tuple = PyTuple_New(shape->count);
    if (tuple == NULL) return NULL;
    for (int i = 0; i < shape->count; i++) {
        PyObject *dim = PyLong_FromUnsignedLongLong(shape->dims[i]);
        if (dim == NULL) {
            Py_DECREF(tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, i, dim);
    }
    return tuple;
}

static PyObject *answer(const scan_t *scan, uint64_t offset)
{
    const tensor_t *t = &scan->tensor;
    PyObject *shape = shape_tuple(&t->shape), *original = shape_tuple(&t->original);
    PyObject *origin_op = NULL, *origin_index = NULL;
    if (scan->output && t->origin_name_len > 0) {
        origin_op = PyUnicode_DecodeASCII((const char *)t->origin_name, (Py_ssize_t)t->origin_name_len, NULL);
        origin_index = PyLong_FromUnsignedLong((unsigned long)(uint32_t)t->origin_index);
    } else {
        origin_op = Py_NewRef(Py_None);
        origin_index = Py_NewRef(Py_None);
    }
    PyObject *result = NULL;
    if (shape && original && origin_op && origin_index)
        result = Py_BuildValue("(iiOOiKKOO)", (int)(int32_t)(uint32_t)t->data_type,
                               (int)(int32_t)(uint32_t)t->format, shape, original,
                               (int)(int32_t)(uint32_t)t->sub_format, (unsigned long long)offset,
                               (unsigned long long)t->size, origin_op, origin_index);
    Py_XDECREF(shape);
    Py_XDECREF(original);
    Py_XDECREF(origin_op);
    Py_XDECREF(origin_index);
    return result;
}

static PyObject *locate(PyObject *self, PyObject *args)
{
    Py_buffer view;
    int output;
    Py_ssize_t index;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*pn", &view, &output, &index)) return NULL;
    const uint8_t *data = (const uint8_t *)view.buf;
    uint64_t size = (uint64_t)view.len, length = 0;
    PyObject *result = Py_None;
    scan_t scan;
    memset(&scan, 0, sizeof scan);
    scan.output = output;
    scan.index = (uint64_t)(index < 0 ? 0 : index);
    if (size < 12 || index < 0) goto done; /* a short file's sentence, or a nonsense index: protobuf's path */
    for (int i = 0; i < 8; i++) length |= (uint64_t)data[i] << (8 * i);
    if (length > size - 8 || length > MAX_HEADER_BYTES || memcmp(data + 8, "ZZZZ", 4) == 0) goto done;
    cursor header = {data + 8, data + 8 + length};
    if (dump_data(header, &scan) != OK) goto done;
    uint64_t total = scan.inputs;
    if (add(&total, scan.outputs) != OK || add(&total, scan.rest) != OK || add(&total, 8 + length) != OK
        || total > size)
        goto done; /* protobuf's path names the tensor that runs past the end */
    if (!scan.found) {
        result = Py_False;
        goto done;
    }
    result = answer(&scan, 8 + length + (output ? scan.inputs : 0) + scan.before);
    PyBuffer_Release(&view);
    return result;
done:
    PyBuffer_Release(&view);
    return Py_NewRef(result);
}

static PyMethodDef methods[] = {
    {"locate", locate, METH_VARARGS, "(contents, output, index) -> the tensor's fields, False, or None: see the C."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_rawscan", "Raw dump headers located in C.", -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__rawscan(void) { return PyModule_Create(&module); }
