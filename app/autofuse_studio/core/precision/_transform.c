/* The named transforms of signature check 4 (layout_permutation) tested in C, each stopping at its first wrong
 * element: which simple transform maps the origin onto the fused tensor.
 *
 * find(x, y, c1, c2, single) -> None | (kind, a, b, perm, exact)
 *   x (fused) and y (origin): C-contiguous arrays of one shape (1 to 32 axes, at least 2 elements) of float16,
 *   float32 or float64 (buffer formats 'e', 'f', 'd'). x[p] matches a value v when
 *       |x[p] - v| <= tol[p],  tol[p] = c1 * max(|x[p]|, |y[p]|) + c2   (NaN in either: no match)
 *   computed in float32 when `single` (the values and c1, c2 rounded to float32, as numpy's float32 arrays do)
 *   and in float64 otherwise: exactly the arithmetic of signature._permutation's numpy arrays.
 *   The candidates in numpy's order (signature._named_transform), the first that matches everywhere wins:
 *     reverse of each axis longer than 1          -> ("reverse", axis, 0, None, exact)
 *     two axes of one length > 1 swapped          -> ("swap_axes", first, second, None, exact)
 *     a roll by s (1..n-1) along each axis        -> ("shift", axis, s, None, exact)
 *     C0 blocks exchanged (signature._c0_blocks)  -> ("c0_blocks", axis, c0, perm tuple, exact)
 *   None when none matches. A candidate is tried on PROBES positions first, then on every element in chunks,
 *   stopping at the first chunk holding a mismatch (a wrong candidate costs a few elements). A chunk is first
 *   compared as stored bits (x and y of one dtype): equal finite values match (|x - v| = 0 <= tol, unless tol
 *   is NaN: a NaN in y, which no winner leaves, as every candidate is a bijection reading finite y values only),
 *   and only a chunk with another value is computed; `exact`: every element of the winner was such a
 *   bitwise-equal finite value (the two tensors then hold the same multiset of values).
 *   The bits are compared in place (no gather), in integer passes the compiler vectorises (built for AVX2 too on
 *   x86, picked at import); a candidate whose pieces all read y ascending is first compared as runs, the pieces
 *   whose y continues the previous one's merged (a C0 layout's short rows, a row's unmoved blocks).
 *   The GIL is released during the search.
 *
 * flushed(x, y, below[, grids]) -> bool
 *   Whether some element has x = +-0 and 0 < |y| < below, magnitudes compared as stored bits (x and y of one
 *   itemsize, `below` the bits of a magnitude): a superset of signature check 3's underflow elements when below
 *   is the fused dtype's smallest normal as stored (rounded up). Vectorised integer passes in blocks of
 *   FLUSH_BLOCK over the whole arrays, or with grids (as grid_differs's) over the grid's points only: the trailing
 *   axes it keeps whole as one run per point of the others.
 *
 * grid_differs(x, y, grids, c1, c2, cap) -> bool
 *   Whether one of the first `cap` points of the grid (grids: one int64 index array per axis; points in C order)
 *   has finite x and y with |x - y| > c1 * max(|x|, |y|) + c2 in float64: an element signature._classify counts as
 *   bad there (its tol, op by op). Stops at the first.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* x86 with GCC or Clang: the bit comparisons are built for AVX2 too, picked at run time (no -march flags). */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define TRANSFORM_X86_DISPATCH 1
#else
#define TRANSFORM_X86_DISPATCH 0
#endif

#define MAX_AXES 32
#define CHUNK 256
#define PROBES 16
#define MAX_BLOCKS 512
#define BLOCK_ROWS 4

enum { T_HALF, T_FLOAT, T_DOUBLE };
enum { FOUND_NONE, FOUND_REVERSE, FOUND_SWAP, FOUND_SHIFT, FOUND_C0, FOUND_NO_MEMORY };

static float half_table[65536];

static float half_to_float(uint16_t half) {
    uint32_t exponent = (half >> 10) & 0x1f, mantissa = half & 0x3ff;
    float value;
    if (exponent == 0) {
        value = ldexpf((float)mantissa, -24);
    } else if (exponent == 31) {
        value = mantissa ? NAN : INFINITY;
    } else {
        value = ldexpf((float)(mantissa | 0x400), (int)exponent - 25);
    }
    return (half & 0x8000) ? -value : value;
}

typedef struct {
    const char *data;
    int type;
} Array;

typedef struct {
    int64_t start, length, source, step; /* last-axis indices [start, start+length) read y at source + k*step */
} Segment;

/* A candidate as a view of the arrays: y's offset for x's multi-index is the sum of the tables of the leading
 * axes (index * steps[axis] where an axis has no table) plus the last axis's segment. */
typedef struct {
    int axes;
    int64_t dims[MAX_AXES];
    const int64_t *tables[MAX_AXES];
    int64_t steps[MAX_AXES];
    const Segment *segments;
    int segment_count;
} Plan;

typedef struct {
    Array x, y;
    int single;
    double c1, c2;
    float c1f, c2f;
    int64_t size;
    int axes;
    int64_t shape[MAX_AXES];
    int64_t strides[MAX_AXES]; /* in elements, C order */
    int64_t probes[PROBES];
    int raw;   /* x and y of one dtype: chunks are compared as bits first */
    int exact; /* the last whole check met only bitwise-equal finite values */
    size_t itemsize;
} Search;

static inline double load(const Array *array, int64_t index) {
    switch (array->type) {
    case T_HALF:
        return half_table[((const uint16_t *)array->data)[index]];
    case T_FLOAT:
        return ((const float *)array->data)[index];
    default:
        return ((const double *)array->data)[index];
    }
}

/* numpy's maximum (NaN wins), then tol and the comparison, in the search's precision. */
static inline int close_double(double x, double y, double moved, double c1, double c2) {
    double ax = fabs(x), ay = fabs(y);
    double big = ax > ay ? ax : ay;
    if (ax != ax) {
        big = ax;
    }
    double tol = c1 * big;
    tol += c2;
    return fabs(x - moved) <= tol;
}

static inline int close_float(float x, float y, float moved, float c1, float c2) {
    float ax = fabsf(x), ay = fabsf(y);
    float big = ax > ay ? ax : ay;
    if (ax != ax) {
        big = ax;
    }
    float tol = big * c1;
    tol += c2;
    return fabsf(x - moved) <= tol;
}

static int close_at(const Search *s, int64_t at, int64_t source) {
    double x = load(&s->x, at), y = load(&s->y, at), moved = load(&s->y, source);
    if (s->single) {
        return close_float((float)x, (float)y, (float)moved, s->c1f, s->c2f);
    }
    return close_double(x, y, moved, s->c1, s->c2);
}

static inline int64_t table_at(const Plan *plan, int axis, int64_t index) {
    return plan->tables[axis] ? plan->tables[axis][index] : index * plan->steps[axis];
}

/* y's offset for x's flat position under plan. */
static int64_t source_of(const Plan *plan, int64_t position) {
    int64_t length = plan->dims[plan->axes - 1];
    int64_t row = position / length, index = position % length, offset = 0;
    for (int axis = plan->axes - 2; axis >= 0; axis--) {
        offset += table_at(plan, axis, row % plan->dims[axis]);
        row /= plan->dims[axis];
    }
    for (int k = 0; k < plan->segment_count; k++) {
        const Segment *segment = &plan->segments[k];
        if (index >= segment->start && index < segment->start + segment->length) {
            return offset + segment->source + (index - segment->start) * segment->step;
        }
    }
    return offset; /* unreachable: the segments cover the last axis */
}

#define DEFINE_RUN(NAME, T)                                                                                        \
    static void NAME(const Array *array, int64_t start, int64_t step, int64_t count, T *out) {                     \
        if (array->type == T_FLOAT && step == 1) {                                                                 \
            const float *values = (const float *)array->data + start;                                              \
            for (int64_t k = 0; k < count; k++) out[k] = (T)values[k];                                             \
        } else if (array->type == T_HALF && step == 1) {                                                           \
            const uint16_t *values = (const uint16_t *)array->data + start;                                        \
            for (int64_t k = 0; k < count; k++) out[k] = (T)half_table[values[k]];                                 \
        } else {                                                                                                   \
            for (int64_t k = 0; k < count; k++) out[k] = (T)load(array, start + k * step);                         \
        }                                                                                                          \
    }
DEFINE_RUN(run_float, float)
DEFINE_RUN(run_double, double)

/* The moved values of last-axis indices [first, first+count) of a row whose leading tables sum to base. */
#define DEFINE_GATHER(NAME, T, RUN)                                                                                \
    static void NAME(const Search *s, const Plan *plan, int64_t base, int64_t first, int64_t count, T *out) {      \
        for (int k = 0; k < plan->segment_count; k++) {                                                            \
            const Segment *segment = &plan->segments[k];                                                           \
            int64_t from = first > segment->start ? first : segment->start;                                        \
            int64_t end = segment->start + segment->length;                                                        \
            if (end > first + count) end = first + count;                                                          \
            if (segment->start >= first + count) break; /* sorted by start */                                      \
            if (from >= end) continue;                                                                             \
            RUN(&s->y, base + segment->source + (from - segment->start) * segment->step, segment->step,            \
                end - from, out + (from - first));                                                                 \
        }                                                                                                          \
    }
DEFINE_GATHER(gather_float, float, run_float)
DEFINE_GATHER(gather_double, double, run_double)

/* 1 when every element of one chunk matches. */
#define DEFINE_CHUNK(NAME, T, CLOSE, C1, C2)                                                                       \
    static int NAME(const Search *s, const T *x, const T *y, const T *moved, int64_t count) {                      \
        int bad = 0;                                                                                               \
        for (int64_t k = 0; k < count; k++) bad |= !CLOSE(x[k], y[k], moved[k], s->C1, s->C2);                     \
        return !bad;                                                                                               \
    }
DEFINE_CHUNK(chunk_float, float, close_float, c1f, c2f)
DEFINE_CHUNK(chunk_double, double, close_double, c1, c2)

/* 1 when count stored values x[k] equal y[k * step] bit for bit and none is NaN or Inf (all exponent bits set).
 * One pass of integer operations the compiler vectorises (no gather, no branch): the bits that differ are ORed,
 * and so is magnitude + (lowest exponent bit), whose sign bit is set exactly when the magnitude reaches the
 * all-ones exponent (NaN or Inf). Built twice on x86 (baseline and AVX2, picked at import); one build elsewhere. */
#define SAME_RUN_BODY(U, MAGNITUDE, EXPONENT_LOW, SIGN)                                                            \
    {                                                                                                              \
        U differ = 0, special = 0;                                                                                 \
        if (step == 1) {                                                                                           \
            for (int64_t k = 0; k < count; k++) {                                                                  \
                differ |= (U)(x[k] ^ y[k]);                                                                        \
                special |= (U)((x[k] & MAGNITUDE) + EXPONENT_LOW);                                                 \
            }                                                                                                      \
        } else if (step == -1) {                                                                                   \
            for (int64_t k = 0; k < count; k++) {                                                                  \
                differ |= (U)(x[k] ^ y[-k]);                                                                       \
                special |= (U)((x[k] & MAGNITUDE) + EXPONENT_LOW);                                                 \
            }                                                                                                      \
        } else {                                                                                                   \
            for (int64_t k = 0; k < count; k++) {                                                                  \
                differ |= (U)(x[k] ^ y[k * step]);                                                                 \
                special |= (U)((x[k] & MAGNITUDE) + EXPONENT_LOW);                                                 \
            }                                                                                                      \
        }                                                                                                          \
        return differ == 0 && (special & SIGN) == 0;                                                               \
    }
#define DEFINE_SAME_RUNS(SUFFIX, ATTRIBUTE)                                                                        \
    ATTRIBUTE static int same_run16##SUFFIX(const uint16_t *x, const uint16_t *y, int64_t step, int64_t count)     \
        SAME_RUN_BODY(uint16_t, 0x7fffu, 0x0400u, 0x8000u)                                                         \
    ATTRIBUTE static int same_run32##SUFFIX(const uint32_t *x, const uint32_t *y, int64_t step, int64_t count)     \
        SAME_RUN_BODY(uint32_t, 0x7fffffffu, 0x00800000u, 0x80000000u)                                             \
    ATTRIBUTE static int same_run64##SUFFIX(const uint64_t *x, const uint64_t *y, int64_t step, int64_t count)     \
        SAME_RUN_BODY(uint64_t, 0x7fffffffffffffffull, 0x0010000000000000ull, 0x8000000000000000ull)
DEFINE_SAME_RUNS(_baseline, )
#if TRANSFORM_X86_DISPATCH
DEFINE_SAME_RUNS(_avx2, __attribute__((target("avx2"))))
#endif

/* The build of same_run* this machine runs (set at import by pick_builds). */
static int (*same_run16)(const uint16_t *, const uint16_t *, int64_t, int64_t) = same_run16_baseline;
static int (*same_run32)(const uint32_t *, const uint32_t *, int64_t, int64_t) = same_run32_baseline;
static int (*same_run64)(const uint64_t *, const uint64_t *, int64_t, int64_t) = same_run64_baseline;


/* 1 when a chunk's x (last-axis indices [first, first+count) of a row whose leading tables sum to base, at x's
 * flat position at) equals its moved values bit for bit and is finite: each matches (|x - moved| = 0 <= tol).
 * Compared segment by segment in place, as stored. */
static int same_bits(const Search *s, const Plan *plan, int64_t base, int64_t at, int64_t first, int64_t count) {
    for (int k = 0; k < plan->segment_count; k++) {
        const Segment *segment = &plan->segments[k];
        if (segment->start >= first + count) break; /* sorted by start */
        int64_t from = first > segment->start ? first : segment->start;
        int64_t end = segment->start + segment->length;
        if (end > first + count) end = first + count;
        if (from >= end) continue;
        int64_t source = base + segment->source + (from - segment->start) * segment->step;
        int64_t into = at + (from - first);
        int same;
        if (s->itemsize == 2) {
            same = same_run16((const uint16_t *)s->x.data + into, (const uint16_t *)s->y.data + source, segment->step,
                              end - from);
        } else if (s->itemsize == 4) {
            same = same_run32((const uint32_t *)s->x.data + into, (const uint32_t *)s->y.data + source, segment->step,
                              end - from);
        } else {
            same = same_run64((const uint64_t *)s->x.data + into, (const uint64_t *)s->y.data + source, segment->step,
                              end - from);
        }
        if (!same) {
            return 0;
        }
    }
    return 1;
}

/* Every element under plan, row by row (an odometer over the leading axes), in chunks of the last axis. */
#define DEFINE_WHOLE(NAME, T, RUN, GATHER, CHUNK_FN)                                                               \
    static int NAME(Search *s, const Plan *plan) {                                                                 \
        T xs[CHUNK], ys[CHUNK], moved[CHUNK];                                                                      \
        int64_t length = plan->dims[plan->axes - 1], rows = s->size / length;                                      \
        int64_t index[MAX_AXES] = {0}, base = 0;                                                                   \
        for (int axis = 0; axis < plan->axes - 1; axis++) base += table_at(plan, axis, 0);                           \
        s->exact = s->raw;                                                                                         \
        for (int64_t row = 0; row < rows; row++) {                                                                 \
            for (int64_t first = 0; first < length; first += CHUNK) {                                              \
                int64_t count = length - first < CHUNK ? length - first : CHUNK;                                   \
                if (s->raw && same_bits(s, plan, base, row * length + first, first, count)) continue;              \
                s->exact = 0;                                                                                      \
                RUN(&s->x, row * length + first, 1, count, xs);                                                    \
                RUN(&s->y, row * length + first, 1, count, ys);                                                    \
                GATHER(s, plan, base, first, count, moved);                                                        \
                if (!CHUNK_FN(s, xs, ys, moved, count)) return 0;                                                  \
            }                                                                                                      \
            for (int axis = plan->axes - 2; axis >= 0; axis--) {                                                   \
                base -= table_at(plan, axis, index[axis]);                                                         \
                if (++index[axis] < plan->dims[axis]) {                                                            \
                    base += table_at(plan, axis, index[axis]);                                                     \
                    break;                                                                                         \
                }                                                                                                  \
                index[axis] = 0;                                                                                   \
                base += table_at(plan, axis, 0);                                                                   \
            }                                                                                                      \
        }                                                                                                          \
        return 1;                                                                                                  \
    }
DEFINE_WHOLE(whole_float, float, run_float, gather_float, chunk_float)
DEFINE_WHOLE(whole_double, double, run_double, gather_double, chunk_double)

/* 1 when one run of count stored values of x (from x_at) equals y's (from y_at) bit for bit, all finite. */
static int same_run_at(const Search *s, int64_t x_at, int64_t y_at, int64_t count) {
    if (s->itemsize == 2) {
        return same_run16((const uint16_t *)s->x.data + x_at, (const uint16_t *)s->y.data + y_at, 1, count);
    }
    if (s->itemsize == 4) {
        return same_run32((const uint32_t *)s->x.data + x_at, (const uint32_t *)s->y.data + y_at, 1, count);
    }
    return same_run64((const uint64_t *)s->x.data + x_at, (const uint64_t *)s->y.data + y_at, 1, count);
}

/* 1 when the stored bits of x equal y's under plan everywhere, finite: what whole_float/whole_double find with
 * every chunk bit for bit (exact), for a plan whose segments all read y ascending (step 1). x is read in order;
 * the pieces (a segment of a row) whose y continues the previous piece's are compared as one run: short rows
 * (a C0 layout's rows of C0 elements) and the unmoved blocks of a row cost no call and bookkeeping each. 0 at
 * the first run that differs: then the row by row check decides, with the float comparison. */
static int whole_bits_merged(Search *s, const Plan *plan) {
    int64_t length = plan->dims[plan->axes - 1], rows = s->size / length;
    /* The rows of the innermost leading axis in a tight loop (its table or step), the others by an odometer. */
    int inner_axis = plan->axes - 2;
    int64_t inner_rows = inner_axis >= 0 ? plan->dims[inner_axis] : 1;
    const int64_t *inner_table = inner_axis >= 0 ? plan->tables[inner_axis] : NULL;
    int64_t inner_step = inner_axis >= 0 ? plan->steps[inner_axis] : 0;
    int64_t index[MAX_AXES] = {0}, base = 0, run_x = 0, run_y = 0, run_length = 0, row = 0;
    for (int axis = 0; axis < inner_axis; axis++) base += table_at(plan, axis, 0);
    while (row < rows) {
        for (int64_t i = 0; i < inner_rows; i++, row++) {
            int64_t row_base = base + (inner_table ? inner_table[i] : i * inner_step);
            for (int k = 0; k < plan->segment_count; k++) {
                const Segment *segment = &plan->segments[k];
                int64_t y_at = row_base + segment->source;
                if (run_length && y_at == run_y + run_length) { /* x's pieces always continue one another */
                    run_length += segment->length;
                    continue;
                }
                if (run_length && !same_run_at(s, run_x, run_y, run_length)) {
                    return 0;
                }
                run_x = row * length + segment->start;
                run_y = y_at;
                run_length = segment->length;
            }
        }
        for (int axis = inner_axis - 1; axis >= 0; axis--) {
            base -= table_at(plan, axis, index[axis]);
            if (++index[axis] < plan->dims[axis]) {
                base += table_at(plan, axis, index[axis]);
                break;
            }
            index[axis] = 0;
            base += table_at(plan, axis, 0);
        }
    }
    if (run_length && !same_run_at(s, run_x, run_y, run_length)) {
        return 0;
    }
    s->exact = 1;
    return 1;
}

/* 1 when every segment of plan reads y ascending, one element after another. */
static int ascending(const Plan *plan) {
    for (int k = 0; k < plan->segment_count; k++) {
        if (plan->segments[k].step != 1) {
            return 0;
        }
    }
    return 1;
}

static int matches(Search *s, const Plan *plan) {
    for (int k = 0; k < PROBES; k++) {
        if (!close_at(s, s->probes[k], source_of(plan, s->probes[k]))) {
            return 0;
        }
    }
    if (s->raw && ascending(plan) && whole_bits_merged(s, plan)) {
        return 1;
    }
    return s->single ? whole_float(s, plan) : whole_double(s, plan);
}

/* How x's axes read y: source[a] (y's axis), kind 0 as is, 1 reversed, 2 rolled by shift. */
typedef struct {
    int source[MAX_AXES];
    int kind[MAX_AXES];
    int64_t shift[MAX_AXES];
} AxisMap;

static void identity_map(const Search *s, AxisMap *map) {
    for (int axis = 0; axis < s->axes; axis++) {
        map->source[axis] = axis;
        map->kind[axis] = 0;
        map->shift[axis] = 0;
    }
}

static int64_t mapped_index(const AxisMap *map, int axis, int64_t index, int64_t length) {
    if (map->kind[axis] == 1) {
        return length - 1 - index;
    }
    if (map->kind[axis] == 2) { /* 0 < shift < length */
        return index < map->shift[axis] ? index - map->shift[axis] + length : index - map->shift[axis];
    }
    return index;
}

/* plan of an axis map; tables hold sum(shape) int64s, segments 2. */
static void affine_plan(const Search *s, const AxisMap *map, int64_t *tables, Segment *segments, Plan *plan) {
    int last = s->axes - 1;
    plan->axes = s->axes;
    for (int axis = 0; axis < s->axes; axis++) {
        int64_t length = s->shape[axis], stride = s->strides[map->source[axis]];
        plan->dims[axis] = length;
        if (axis < last) {
            plan->steps[axis] = stride;
            if (map->kind[axis] == 0) { /* as is: index * stride, no table */
                continue;
            }
            for (int64_t i = 0; i < length; i++) tables[i] = stride * mapped_index(map, axis, i, length);
            plan->tables[axis] = tables;
            tables += length;
            continue;
        }
        plan->segments = segments;
        plan->segment_count = 1;
        if (map->kind[axis] == 1) {
            segments[0] = (Segment){0, length, stride * (length - 1), -stride};
        } else if (map->kind[axis] == 2) {
            int64_t shift = map->shift[axis];
            segments[0] = (Segment){0, shift, stride * (length - shift), stride};
            segments[1] = (Segment){shift, length - shift, 0, stride};
            plan->segment_count = 2;
        } else {
            segments[0] = (Segment){0, length, 0, stride};
        }
    }
}

static int try_map(Search *s, const AxisMap *map, int64_t *tables) {
    Segment segments[2];
    Plan plan;
    memset(&plan, 0, sizeof(plan));
    affine_plan(s, map, tables, segments, &plan);
    return matches(s, &plan);
}

/* The first roll along axis that matches: each step first on the probes (their sources computed directly, no
 * plan: with many equal values a wrong step may pass a few), then whole. */
static int find_shift(Search *s, int axis, int64_t *tables, int64_t *step_found) {
    int64_t length = s->shape[axis], stride = s->strides[axis];
    int64_t index[PROBES];
    for (int k = 0; k < PROBES; k++) index[k] = (s->probes[k] / stride) % length;
    AxisMap map;
    identity_map(s, &map);
    map.kind[axis] = 2;
    for (int64_t step = 1; step < length; step++) {
        int ok = 1;
        for (int k = 0; k < PROBES && ok; k++) {
            int64_t source = index[k] - step < 0 ? index[k] - step + length : index[k] - step;
            ok = close_at(s, s->probes[k], s->probes[k] + (source - index[k]) * stride);
        }
        if (!ok) {
            continue;
        }
        map.shift[axis] = step;
        if (try_map(s, &map, tables)) {
            *step_found = step;
            return 1;
        }
    }
    return 0;
}

/* signature._block_perm on the view (outer, blocks, inner): the candidate perm from BLOCK_ROWS rows and the first
 * two elements of each block (the block itself first, else the first matching one), then the whole check. */
static int block_perm(Search *s, int64_t outer, int64_t blocks, int64_t inner, int64_t *perm, int64_t *tables) {
    if (blocks < 2 || blocks > MAX_BLOCKS || s->size == 0) {
        return 0;
    }
    int64_t rows[BLOCK_ROWS];
    int row_count = outer < BLOCK_ROWS ? (int)outer : BLOCK_ROWS;
    for (int k = 0; k < row_count; k++) { /* np.linspace(0, outer-1, row_count).round(): never a half */
        rows[k] = row_count == 1 ? 0
                  : k == row_count - 1 ? outer - 1
                                       : (int64_t)llround((double)k * ((double)(outer - 1) / (row_count - 1)));
    }
    int64_t width = inner < 2 ? inner : 2;
    int identity = 1;
    for (int64_t j = 0; j < blocks; j++) {
        int64_t found = -1;
        for (int64_t candidate = -1; candidate < blocks && found < 0; candidate++) {
            int64_t i = candidate < 0 ? j : candidate;
            int ok = 1;
            for (int r = 0; r < row_count && ok; r++) {
                for (int64_t k = 0; k < width && ok; k++) {
                    int64_t at = (rows[r] * blocks + j) * inner + k;
                    ok = close_at(s, at, (rows[r] * blocks + i) * inner + k);
                }
            }
            if (ok) {
                found = i;
            }
        }
        if (found < 0) {
            return 0;
        }
        perm[j] = found;
        identity &= found == j;
    }
    if (identity) {
        return 0;
    }
    char seen[MAX_BLOCKS] = {0};
    for (int64_t j = 0; j < blocks; j++) {
        if (seen[perm[j]]++) {
            return 0;
        }
    }
    Plan plan;
    Segment segments[MAX_BLOCKS];
    memset(&plan, 0, sizeof(plan));
    plan.dims[0] = outer;
    plan.steps[0] = blocks * inner; /* the outer index moves whole rows: no table */
    if (blocks * inner == s->shape[s->axes - 1]) {
        /* the last axis split into blocks: one row per outer index, a segment per block */
        plan.axes = 2;
        plan.dims[1] = blocks * inner;
        for (int64_t j = 0; j < blocks; j++) segments[j] = (Segment){j * inner, inner, perm[j] * inner, 1};
        plan.segments = segments;
        plan.segment_count = (int)blocks;
    } else {
        plan.axes = 3;
        plan.dims[1] = blocks;
        plan.dims[2] = inner;
        for (int64_t j = 0; j < blocks; j++) tables[j] = perm[j] * inner;
        plan.tables[1] = tables;
        segments[0] = (Segment){0, inner, 0, 1};
        plan.segments = segments;
        plan.segment_count = 1;
    }
    return matches(s, &plan);
}

static const int64_t C0_SIZES[] = {32, 16, 8};

/* signature._c0_blocks: the last axis's blocks, then (a C0-long last axis) the C0 vectors along another axis. */
static int find_c0(Search *s, int64_t *perm, int64_t *tables, int *axis_found, int64_t *c0_found,
                   int64_t *count_found) {
    int64_t last = s->shape[s->axes - 1];
    for (int k = 0; k < 3; k++) {
        int64_t c0 = C0_SIZES[k];
        if (last % c0 == 0 && last / c0 >= 2 && block_perm(s, s->size / last, last / c0, c0, perm, tables)) {
            *axis_found = s->axes - 1;
            *c0_found = c0;
            *count_found = last / c0;
            return 1;
        }
    }
    if ((last == 32 || last == 16 || last == 8) && s->axes >= 2) {
        for (int axis = 0; axis < s->axes - 1; axis++) {
            if (s->shape[axis] < 2) {
                continue;
            }
            int64_t outer = 1;
            for (int a = 0; a < axis; a++) outer *= s->shape[a];
            int64_t inner = s->size / (outer * s->shape[axis]);
            if (block_perm(s, outer, s->shape[axis], inner, perm, tables)) {
                *axis_found = axis;
                *c0_found = last;
                *count_found = s->shape[axis];
                return 1;
            }
        }
    }
    return 0;
}

/* The candidates in numpy's order; result[0..2]: a, b, count (c0 blocks). */
static int search(Search *s, int64_t *tables, int64_t *perm, int64_t *result) {
    AxisMap map;
    for (int axis = 0; axis < s->axes; axis++) {
        if (s->shape[axis] < 2) {
            continue;
        }
        identity_map(s, &map);
        map.kind[axis] = 1;
        if (try_map(s, &map, tables)) {
            result[0] = axis;
            return FOUND_REVERSE;
        }
    }
    for (int first = 0; first < s->axes; first++) {
        for (int second = first + 1; second < s->axes; second++) {
            if (s->shape[first] != s->shape[second] || s->shape[first] < 2) {
                continue;
            }
            identity_map(s, &map);
            map.source[first] = second;
            map.source[second] = first;
            if (try_map(s, &map, tables)) {
                result[0] = first;
                result[1] = second;
                return FOUND_SWAP;
            }
        }
    }
    for (int axis = 0; axis < s->axes; axis++) {
        if (s->shape[axis] >= 2 && find_shift(s, axis, tables, &result[1])) {
            result[0] = axis;
            return FOUND_SHIFT;
        }
    }
    int axis = 0;
    if (find_c0(s, perm, tables, &axis, &result[1], &result[2])) {
        result[0] = axis;
        return FOUND_C0;
    }
    return FOUND_NONE;
}

static int array_type(const Py_buffer *view) {
    const char *format = view->format ? view->format : "B";
    if (format[0] == '<' || format[0] == '=' || format[0] == '@') {
        format++;
    }
    if (format[1] != '\0') {
        return -1;
    }
    switch (format[0]) {
    case 'e':
        return view->itemsize == 2 ? T_HALF : -1;
    case 'f':
        return view->itemsize == 4 ? T_FLOAT : -1;
    case 'd':
        return view->itemsize == 8 ? T_DOUBLE : -1;
    default:
        return -1;
    }
}

static int prepare(Search *s, const Py_buffer *x, const Py_buffer *y) {
    int x_type = array_type(x), y_type = array_type(y);
    if (x_type < 0 || y_type < 0 || x->ndim != y->ndim || x->ndim < 1 || x->ndim > MAX_AXES) {
        PyErr_SetString(PyExc_ValueError, "find: two float16/float32/float64 arrays of 1 to 32 axes expected");
        return -1;
    }
    s->axes = x->ndim;
    s->size = 1;
    for (int axis = 0; axis < s->axes; axis++) {
        if (x->shape[axis] != y->shape[axis]) {
            PyErr_SetString(PyExc_ValueError, "find: the two arrays differ in shape");
            return -1;
        }
        s->shape[axis] = x->shape[axis];
        s->size *= x->shape[axis];
    }
    if (s->size < 2) {
        PyErr_SetString(PyExc_ValueError, "find: at least 2 elements expected");
        return -1;
    }
    int64_t stride = 1;
    for (int axis = s->axes - 1; axis >= 0; axis--) {
        s->strides[axis] = stride;
        stride *= s->shape[axis];
    }
    s->x = (Array){(const char *)x->buf, x_type};
    s->y = (Array){(const char *)y->buf, y_type};
    uint64_t state = 0x9E3779B97F4A7C15ULL;
    for (int k = 0; k < PROBES; k++) { /* fixed pseudo-random positions (splitmix64): they only save time */
        state += 0x9E3779B97F4A7C15ULL;
        uint64_t z = state;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        int64_t at = (int64_t)((z ^ (z >> 31)) % (uint64_t)s->size);
        /* A nonzero fused value nearby when there is one: zeros (padding, ReLU) match many wrong candidates. */
        for (int64_t look = 0; look < 256 && look < s->size; look++) {
            int64_t near = (at + look) % s->size;
            if (load(&s->x, near) != 0.0) {
                at = near;
                break;
            }
        }
        s->probes[k] = at;
    }
    return 0;
}

static PyObject *found_tuple(const Search *s, int kind, const int64_t *result, const int64_t *perm) {
    static const char *names[] = {"", "reverse", "swap_axes", "shift", "c0_blocks"};
    PyObject *order = Py_None;
    Py_INCREF(order);
    if (kind == FOUND_C0) {
        Py_DECREF(order);
        order = PyTuple_New((Py_ssize_t)result[2]);
        for (int64_t j = 0; order != NULL && j < result[2]; j++) {
            PyTuple_SET_ITEM(order, (Py_ssize_t)j, PyLong_FromLongLong(perm[j]));
        }
    }
    if (order == NULL) {
        return NULL;
    }
    return Py_BuildValue("(sLLNN)", names[kind], (long long)result[0], (long long)result[1], order,
                         PyBool_FromLong(s->exact));
}

/* The C-contiguous buffers of x and y (both released by the caller), or -1 with the error set and neither held. */
static int two_buffers(PyObject *x_object, PyObject *y_object, Py_buffer *x, Py_buffer *y) {
    if (PyObject_GetBuffer(x_object, x, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        return -1;
    }
    if (PyObject_GetBuffer(y_object, y, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        PyBuffer_Release(x);
        return -1;
    }
    return 0;
}

static PyObject *find(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *x_object, *y_object;
    double c1, c2;
    int single;
    if (!PyArg_ParseTuple(args, "OOddp", &x_object, &y_object, &c1, &c2, &single)) {
        return NULL;
    }
    Py_buffer x, y;
    if (two_buffers(x_object, y_object, &x, &y) < 0) {
        return NULL;
    }
    Search s;
    memset(&s, 0, sizeof(s));
    PyObject *answer = NULL;
    if (prepare(&s, &x, &y) == 0) {
        s.single = single;
        s.c1 = c1;
        s.c2 = c2;
        s.c1f = (float)c1;
        s.c2f = (float)c2;
        s.raw = s.x.type == s.y.type;
        s.itemsize = (size_t)x.itemsize;
        int64_t table_size = MAX_BLOCKS; /* the C0 views' block table, or the leading axes' tables */
        for (int axis = 0; axis < s.axes; axis++) table_size += s.shape[axis];
        int64_t *tables = malloc((size_t)table_size * sizeof(int64_t));
        int64_t *perm = malloc(MAX_BLOCKS * sizeof(int64_t));
        int64_t result[3] = {0, 0, 0};
        int kind = FOUND_NO_MEMORY;
        if (tables != NULL && perm != NULL) {
            Py_BEGIN_ALLOW_THREADS
            kind = search(&s, tables, perm, result);
            Py_END_ALLOW_THREADS
        }
        if (kind == FOUND_NO_MEMORY) {
            PyErr_NoMemory();
        } else if (kind == FOUND_NONE) {
            answer = Py_None;
            Py_INCREF(answer);
        } else {
            answer = found_tuple(&s, kind, result, perm);
        }
        free(tables);
        free(perm);
    }
    PyBuffer_Release(&x);
    PyBuffer_Release(&y);
    return answer;
}

/* The ranks of two sorted value arrays beyond their least tol (signature._sorted_match's first pass): rank k
 * is beyond when |sx[k] - sy[k]| > c1 * |sy[k]| + c2, computed as numpy computes it on the arrays as float32
 * (`single`) or float64. The excess over that tol only picks which ranks Python looks at first. */
typedef struct {
    int64_t beyond, most, alone, first[64];
    int first_count;
} Ranks;

#define DEFINE_RANKS(NAME, T, ABS)                                                                                 \
    static void NAME(const Array *xs, const Array *ys, int64_t n, T c1, T c2, int limit, Ranks *r) {               \
        T most = 0, alone_most = 0;                                                                                \
        T previous = 0, y = n ? (T)load(ys, 0) : 0;                                                                \
        for (int64_t k = 0; k < n; k++) {                                                                          \
            T x = (T)load(xs, k), next = k + 1 < n ? (T)load(ys, k + 1) : 0;                                       \
            T diff = ABS(x - y);                                                                                   \
            T least = c1 * ABS(y);                                                                                 \
            least += c2;                                                                                           \
            if (!(diff <= least)) {                                                                                \
                T excess = diff - least;                                                                           \
                int tied = (k > 0 && previous == y) || (k + 1 < n && next == y);                                   \
                if (r->beyond == 0 || excess > most) {                                                             \
                    most = excess;                                                                                 \
                    r->most = k;                                                                                   \
                }                                                                                                  \
                if (!tied && (r->alone < 0 || excess > alone_most)) {                                              \
                    alone_most = excess;                                                                           \
                    r->alone = k;                                                                                  \
                }                                                                                                  \
                if (r->first_count < limit) r->first[r->first_count++] = k;                                        \
                r->beyond++;                                                                                       \
            }                                                                                                      \
            previous = y;                                                                                          \
            y = next;                                                                                              \
        }                                                                                                          \
    }
DEFINE_RANKS(ranks_float, float, fabsf)
DEFINE_RANKS(ranks_double, double, fabs)

/* sorted_ranks(sorted_x, sorted_y, c1, c2, single, limit) -> (beyond, most, alone, first ranks). */
static PyObject *sorted_ranks(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *x_object, *y_object;
    double c1, c2;
    int single, limit;
    if (!PyArg_ParseTuple(args, "OOddpi", &x_object, &y_object, &c1, &c2, &single, &limit)) {
        return NULL;
    }
    Py_buffer x, y;
    if (two_buffers(x_object, y_object, &x, &y) < 0) {
        return NULL;
    }
    PyObject *answer = NULL;
    int x_type = array_type(&x), y_type = array_type(&y);
    int64_t n = (int64_t)(x.len / (x.itemsize ? x.itemsize : 1));
    if (x_type < 0 || y_type < 0 || n != (int64_t)(y.len / (y.itemsize ? y.itemsize : 1)) || limit < 0
        || limit > 64 || (single && (x_type == T_DOUBLE || y_type == T_DOUBLE))) { /* float32 reads no double */
        PyErr_SetString(PyExc_ValueError, "sorted_ranks: two float16/float32/float64 arrays of one size expected "
                                            "(no float64 when single)");
    } else {
        Array xs = {(const char *)x.buf, x_type}, ys = {(const char *)y.buf, y_type};
        Ranks r;
        memset(&r, 0, sizeof(r));
        r.most = -1;
        r.alone = -1;
        Py_BEGIN_ALLOW_THREADS
        if (single) {
            ranks_float(&xs, &ys, n, (float)c1, (float)c2, limit, &r);
        } else {
            ranks_double(&xs, &ys, n, c1, c2, limit, &r);
        }
        Py_END_ALLOW_THREADS
        PyObject *first = PyTuple_New(r.first_count);
        for (int k = 0; first != NULL && k < r.first_count; k++) {
            PyObject *rank = PyLong_FromLongLong((long long)r.first[k]);
            if (rank == NULL) {
                Py_CLEAR(first);
                break;
            }
            PyTuple_SET_ITEM(first, k, rank);
        }
        if (first != NULL) {
            answer = Py_BuildValue("(LLLN)", (long long)r.beyond, (long long)r.most, (long long)r.alone, first);
        }
    }
    PyBuffer_Release(&x);
    PyBuffer_Release(&y);
    return answer;
}

/* flushed: blocks of this many elements ORed branch-free, the first block with a hit ends the pass. */
#define FLUSH_BLOCK 4096

/* 1 when some x[k] is +-0 (magnitude bits 0) where y[k]'s magnitude bits lie in (0, below), below >= 2. */
#define FLUSHED_BODY(U, MAGNITUDE)                                                                                 \
    {                                                                                                              \
        const U span = (U)(below - 1);                                                                             \
        for (int64_t start = 0; start < count; start += FLUSH_BLOCK) {                                             \
            int64_t end = count - start < FLUSH_BLOCK ? count : start + FLUSH_BLOCK;                               \
            U hit = 0;                                                                                             \
            for (int64_t k = start; k < end; k++) {                                                                \
                U zero = (U)((x[k] & MAGNITUDE) == 0);                                                             \
                U small = (U)((U)((y[k] & MAGNITUDE) - 1) < span);                                                 \
                hit |= (U)(zero & small);                                                                          \
            }                                                                                                      \
            if (hit) return 1;                                                                                     \
        }                                                                                                          \
        return 0;                                                                                                  \
    }
#define DEFINE_FLUSHED(SUFFIX, ATTRIBUTE)                                                                          \
    ATTRIBUTE static int flushed16##SUFFIX(const uint16_t *x, const uint16_t *y, uint64_t below, int64_t count)    \
        FLUSHED_BODY(uint16_t, 0x7fffu)                                                                            \
    ATTRIBUTE static int flushed32##SUFFIX(const uint32_t *x, const uint32_t *y, uint64_t below, int64_t count)    \
        FLUSHED_BODY(uint32_t, 0x7fffffffu)                                                                        \
    ATTRIBUTE static int flushed64##SUFFIX(const uint64_t *x, const uint64_t *y, uint64_t below, int64_t count)    \
        FLUSHED_BODY(uint64_t, 0x7fffffffffffffffull)
DEFINE_FLUSHED(_baseline, )
#if TRANSFORM_X86_DISPATCH
DEFINE_FLUSHED(_avx2, __attribute__((target("avx2"))))
#endif

/* The build of flushed* this machine runs (set at import by pick_builds). */
static int (*flushed16)(const uint16_t *, const uint16_t *, uint64_t, int64_t) = flushed16_baseline;
static int (*flushed32)(const uint32_t *, const uint32_t *, uint64_t, int64_t) = flushed32_baseline;
static int (*flushed64)(const uint64_t *, const uint64_t *, uint64_t, int64_t) = flushed64_baseline;

/* The AVX2 builds of same_run* and flushed* where this machine has AVX2 (at import). */
static void pick_builds(void) {
#if TRANSFORM_X86_DISPATCH
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) {
        same_run16 = same_run16_avx2;
        same_run32 = same_run32_avx2;
        same_run64 = same_run64_avx2;
        flushed16 = flushed16_avx2;
        flushed32 = flushed32_avx2;
        flushed64 = flushed64_avx2;
    }
#endif
}

/* A grid's points as runs of contiguous elements: the trailing axes the grid keeps whole (every index, in order)
 * make one run; the leading axes are walked by an odometer (no axis walked: the whole array is one run). */
typedef struct {
    int axes;
    const int64_t *index[MAX_AXES];
    int64_t count[MAX_AXES], stride[MAX_AXES], at[MAX_AXES];
    int64_t run, base;
} Walk;

/* Holds the buffers of the grids tuple (one non-empty int64 index array per axis of shape, each index within
 * it; *held counts the buffers to release) and sets the walk at the first run; 0 when valid, else -1 (no error
 * set). */
static int walk_grid(PyObject *grids_object, const Py_buffer *x, Py_buffer *grids, int *held, Walk *walk) {
    int axes = x->ndim;
    if (!PyTuple_Check(grids_object) || axes < 1 || axes > MAX_AXES || PyTuple_GET_SIZE(grids_object) != axes) {
        return -1;
    }
    int64_t step = 1;
    walk->run = 1;
    walk->axes = 0;
    int whole_tail = 1;
    for (int axis = axes - 1; axis >= 0; axis--) {
        Py_buffer *grid = &grids[axis];
        if (PyObject_GetBuffer(PyTuple_GET_ITEM(grids_object, axis), grid, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
            PyErr_Clear();
            return -1;
        }
        (*held)++;
        const char *format = grid->format ? grid->format : "B";
        if (format[0] == '<' || format[0] == '=' || format[0] == '@') format++;
        if (grid->itemsize != 8 || (format[0] != 'l' && format[0] != 'q') || format[1] != '\0' || grid->len < 8) {
            return -1;
        }
        const int64_t *indices = grid->buf;
        int64_t count = (int64_t)(grid->len / 8), length = x->shape[axis];
        int whole = count == length;
        for (int64_t k = 0; k < count; k++) {
            if (indices[k] < 0 || indices[k] >= length) return -1;
            whole &= indices[k] == k;
        }
        walk->index[axis] = indices;
        walk->count[axis] = count;
        walk->stride[axis] = step;
        walk->at[axis] = 0;
        whole_tail &= whole;
        if (whole_tail) {
            walk->run *= length;
        } else if (walk->axes == 0) {
            walk->axes = axis + 1;
        }
        step *= length;
    }
    walk->base = 0;
    for (int axis = 0; axis < walk->axes; axis++) walk->base += walk->index[axis][0] * walk->stride[axis];
    return 0;
}

/* Moves the walk to its next run (walk->base); 0 when every run was seen. */
static int walk_next(Walk *walk) {
    for (int axis = walk->axes - 1; axis >= 0; axis--) {
        walk->base -= walk->index[axis][walk->at[axis]] * walk->stride[axis];
        if (++walk->at[axis] < walk->count[axis]) {
            walk->base += walk->index[axis][walk->at[axis]] * walk->stride[axis];
            return 1;
        }
        walk->at[axis] = 0;
        walk->base += walk->index[axis][0] * walk->stride[axis];
    }
    return 0;
}

/* flushed's test on count elements of x and y from `at` (a run of the grid, or the whole arrays). */
static int flushed_run(const char *x, const char *y, Py_ssize_t size, uint64_t below, int64_t at, int64_t count) {
    if (size == 2) {
        const uint16_t *xs = (const uint16_t *)x + at, *ys = (const uint16_t *)y + at;
        if (count >= 64) return flushed16(xs, ys, below, count);
        for (int64_t k = 0; k < count; k++) { /* short runs inline: no call per grid point */
            if ((xs[k] & 0x7fffu) == 0 && (uint16_t)((ys[k] & 0x7fffu) - 1) < (uint16_t)(below - 1)) return 1;
        }
        return 0;
    }
    if (size == 4) {
        const uint32_t *xs = (const uint32_t *)x + at, *ys = (const uint32_t *)y + at;
        if (count >= 64) return flushed32(xs, ys, below, count);
        for (int64_t k = 0; k < count; k++) {
            if ((xs[k] & 0x7fffffffu) == 0 && (uint32_t)((ys[k] & 0x7fffffffu) - 1) < (uint32_t)(below - 1)) return 1;
        }
        return 0;
    }
    const uint64_t *xs = (const uint64_t *)x + at, *ys = (const uint64_t *)y + at;
    if (count >= 64) return flushed64(xs, ys, below, count);
    for (int64_t k = 0; k < count; k++) {
        if ((xs[k] & 0x7fffffffffffffffull) == 0 && (ys[k] & 0x7fffffffffffffffull) - 1 < below - 1) return 1;
    }
    return 0;
}

/* flushed(x, y, below[, grids]) -> bool (see the top of the file). */
static PyObject *flushed(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *x_object, *y_object, *grids_object = Py_None;
    unsigned long long below;
    if (!PyArg_ParseTuple(args, "OOK|O", &x_object, &y_object, &below, &grids_object)) {
        return NULL;
    }
    Py_buffer x, y, grids[MAX_AXES];
    if (two_buffers(x_object, y_object, &x, &y) < 0) {
        return NULL;
    }
    PyObject *answer = NULL;
    Py_ssize_t size = x.itemsize;
    int held = 0, valid = (size == 2 || size == 4 || size == 8) && y.itemsize == size && x.len == y.len
                          && (size == 8 || below <= (1ULL << (8 * size - 1)));
    Walk walk;
    walk.axes = 0;
    walk.base = 0;
    walk.run = (int64_t)(x.len / (size ? size : 1));
    if (valid && grids_object != Py_None) {
        valid = x.ndim == y.ndim && walk_grid(grids_object, &x, grids, &held, &walk) == 0;
        for (int axis = 0; valid && axis < x.ndim; axis++) valid = x.shape[axis] == y.shape[axis];
    }
    if (!valid) {
        PyErr_SetString(PyExc_ValueError, "flushed: two arrays of one shape and itemsize 2, 4 or 8, below a "
                                            "magnitude's bits, grids None or one int64 index array per axis");
    } else {
        int hit = 0;
        if (below >= 2) { /* below 1 or 0: no magnitude lies in (0, below) */
            Py_BEGIN_ALLOW_THREADS
            do {
                hit = flushed_run(x.buf, y.buf, size, below, walk.base, walk.run);
            } while (!hit && walk_next(&walk));
            Py_END_ALLOW_THREADS
        }
        answer = PyBool_FromLong(hit);
    }
    for (int axis = x.ndim - 1; axis >= x.ndim - held; axis--) PyBuffer_Release(&grids[axis]);
    PyBuffer_Release(&x);
    PyBuffer_Release(&y);
    return answer;
}

/* 1 when finite x, y differ beyond c1 * max(|x|, |y|) + c2 (signature._classify's bad, in float64 op by op). */
static inline int bad_double(double x, double y, double c1, double c2) {
    if (!isfinite(x) || !isfinite(y)) {
        return 0;
    }
    double ax = fabs(x), ay = fabs(y);
    double tol = c1 * (ax > ay ? ax : ay);
    tol += c2;
    return fabs(x - y) > tol;
}

/* grid_differs(x, y, grids, c1, c2, cap) -> bool (see the top of the file). */
static PyObject *grid_differs(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *x_object, *y_object, *grids_object;
    double c1, c2;
    long long cap;
    if (!PyArg_ParseTuple(args, "OOOddL", &x_object, &y_object, &grids_object, &c1, &c2, &cap)) {
        return NULL;
    }
    Py_buffer x, y, grids[MAX_AXES];
    if (two_buffers(x_object, y_object, &x, &y) < 0) {
        return NULL;
    }
    int held = 0, x_type = array_type(&x), y_type = array_type(&y);
    Walk walk;
    int valid = x_type >= 0 && y_type >= 0 && x.ndim == y.ndim && walk_grid(grids_object, &x, grids, &held, &walk) == 0;
    for (int axis = 0; valid && axis < x.ndim; axis++) valid = x.shape[axis] == y.shape[axis];
    PyObject *answer = NULL;
    if (!valid) {
        PyErr_SetString(PyExc_ValueError, "grid_differs: two float16/float32/float64 arrays of one shape and one "
                                            "non-empty int64 index array per axis, within it, expected");
    } else {
        Array xs = {(const char *)x.buf, x_type}, ys = {(const char *)y.buf, y_type};
        int hit = 0;
        Py_BEGIN_ALLOW_THREADS
        int64_t seen = 0;
        do {
            for (int64_t k = 0; k < walk.run && seen < cap && !hit; k++, seen++) {
                hit = bad_double(load(&xs, walk.base + k), load(&ys, walk.base + k), c1, c2);
            }
        } while (!hit && seen < cap && walk_next(&walk));
        Py_END_ALLOW_THREADS
        answer = PyBool_FromLong(hit);
    }
    for (int axis = x.ndim - 1; axis >= x.ndim - held; axis--) PyBuffer_Release(&grids[axis]);
    PyBuffer_Release(&x);
    PyBuffer_Release(&y);
    return answer;
}

static PyMethodDef methods[] = {
    {"find", find, METH_VARARGS,
     "find(x, y, c1, c2, single) -> None | (kind, a, b, perm, exact): the first named transform of signature "
     "check 4 that maps y onto x within tol = c1*max(|x|,|y|) + c2."},
    {"sorted_ranks", sorted_ranks, METH_VARARGS,
     "sorted_ranks(sorted_x, sorted_y, c1, c2, single, limit) -> (beyond, most, alone, first): the ranks k with "
     "|sx[k] - sy[k]| > c1*|sy[k]| + c2 (float32 when single): how many, the one most beyond (-1: none), the one "
     "most beyond whose sy[k] is not tied (-1: none), the first `limit` of them (at most 64)."},
    {"flushed", flushed, METH_VARARGS,
     "flushed(x, y, below[, grids]) -> bool: some element (of the grid) with x = +-0 and 0 < |y| < below "
     "(magnitudes as stored bits)."},
    {"grid_differs", grid_differs, METH_VARARGS,
     "grid_differs(x, y, grids, c1, c2, cap) -> bool: one of the grid's first cap points (C order) with finite "
     "x, y and |x - y| > c1*max(|x|,|y|) + c2 in float64."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_transform",
                                    "Signature check 4's named transforms tested with an early exit.", -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__transform(void) {
    for (uint32_t half = 0; half < 65536; half++) half_table[half] = half_to_float((uint16_t)half);
    pick_builds();
    return PyModule_Create(&module);
}
