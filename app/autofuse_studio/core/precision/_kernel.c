/*
 * One-pass precision statistics of a pair of equally long 1-D blocks (see metrics.py, _block_partial).
 *
 * Plain C99 called through ctypes: ctypes releases the GIL for the whole call, so threads scale. The
 * Python module init below only exists so setuptools can build and install this file as an extension
 * module next to the package; it exposes nothing.
 *
 * Every value is converted to double and the arithmetic is the numpy reference's, operation by
 * operation, so max values and pass counts are bit-identical; only the summation order of the sums
 * differs (lane-wise per chunk, like BLAS), which changes them by a few ulps. Blocks whose sums of
 * squares could overflow are handed back to the numpy path, which rescales them (status AF_FALLBACK).
 */

/* Python.h must come before the standard headers; only the module init below uses it. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define AF_X86_DISPATCH 1
#include <immintrin.h>
#else
#define AF_X86_DISPATCH 0
#endif

#if defined(_WIN32)
#define AF_EXPORT __declspec(dllexport)
#else
#define AF_EXPORT __attribute__((visibility("default")))
#endif

#if defined(__GNUC__)
#define AF_INLINE static inline __attribute__((always_inline))
#else
#define AF_INLINE static inline
#endif

/* Type codes shared with native.py. */
enum {
    AF_BOOL = 0, AF_INT8, AF_INT16, AF_INT32, AF_INT64, AF_UINT8, AF_UINT16, AF_UINT32, AF_UINT64,
    AF_FLOAT16, AF_BFLOAT16, AF_FLOAT32, AF_FLOAT64
};

/* Return codes. */
enum { AF_OK = 0, AF_FALLBACK = 1, AF_UNSUPPORTED = -1 };

/* Layout of the output arrays, shared with native.py. */
enum { OUT_DOT, OUT_AA, OUT_BB, OUT_DD, OUT_SUM_ABS, OUT_MAX_ABS, OUT_MAX_REL, OUT_DOUBLES };
enum { OUT_PASS1, OUT_PASS2, OUT_NAN_A, OUT_INF_A, OUT_NAN_B, OUT_INF_B, OUT_MISMATCH, OUT_COUNTS };

/* Elements converted at a time: three double buffers of this size (24 KB) stay in L1 and on any
 * thread's stack. */
#define CHUNK 1024
/* Independent accumulators per sum: they let the compiler vectorise the reductions without
 * reassociating (no -ffast-math) and make the sums blocked, hence more accurate. */
#define LANES 8

static float f16_table[65536];
static int f16_ready;
static int use_avx2;

/* Exact IEEE half -> float: normals and subnormals via integer arithmetic, Inf/NaN kept. */
static float half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exponent = (h >> 10) & 0x1fu;
    uint32_t mantissa = h & 0x3ffu;
    uint32_t bits;
    float value;
    if (exponent == 0x1fu) {
        bits = sign | 0x7f800000u | (mantissa << 13);
    } else if (exponent == 0) {
        value = (float)mantissa * (1.0f / 16777216.0f); /* m * 2**-24, exact */
        memcpy(&bits, &value, sizeof bits);
        bits |= sign;
    } else {
        bits = sign | ((exponent + 112u) << 23) | (mantissa << 13);
    }
    memcpy(&value, &bits, sizeof value);
    return value;
}

/* Build the half table and pick the instruction set; Python calls it once, before any thread. */
AF_EXPORT int af_init(void)
{
    if (!f16_ready) {
        for (uint32_t h = 0; h < 65536u; h++) f16_table[h] = half_to_float((uint16_t)h);
        f16_ready = 1;
    }
#if AF_X86_DISPATCH
    __builtin_cpu_init();
    use_avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("f16c");
#endif
    return use_avx2;
}

/* The instruction set in use: 1 = AVX2 + F16C, 0 = baseline (SSE2 on x86-64). */
AF_EXPORT int af_simd_level(void) { return use_avx2; }

static int is_integer(int type) { return type >= AF_BOOL && type <= AF_UINT64; }

#if AF_X86_DISPATCH
__attribute__((target("avx2,f16c"))) static void f16_to_double_f16c(const uint16_t *src, int64_t m, double *dst)
{
    int64_t i = 0;
    for (; i + 8 <= m; i += 8) {
        __m256 f = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(src + i)));
        _mm256_storeu_pd(dst + i, _mm256_cvtps_pd(_mm256_castps256_ps128(f)));
        _mm256_storeu_pd(dst + i + 4, _mm256_cvtps_pd(_mm256_extractf128_ps(f, 1)));
    }
    for (; i < m; i++) dst[i] = f16_table[src[i]];
}
#endif

/* Elements [offset, offset + m) of `src` as doubles: a pointer into src for float64, else `buffer`. */
AF_INLINE const double *to_double(const void *src, int type, int64_t offset, int64_t m, double *buffer, int avx)
{
    int64_t i;
    switch (type) {
    case AF_FLOAT64:
        return (const double *)src + offset;
    case AF_FLOAT32: {
        const float *p = (const float *)src + offset;
        for (i = 0; i < m; i++) buffer[i] = p[i];
        break;
    }
    case AF_FLOAT16: {
        const uint16_t *p = (const uint16_t *)src + offset;
#if AF_X86_DISPATCH
        if (avx) {
            f16_to_double_f16c(p, m, buffer);
            break;
        }
#endif
        (void)avx;
        for (i = 0; i < m; i++) buffer[i] = f16_table[p[i]];
        break;
    }
    case AF_BFLOAT16: {
        const uint16_t *p = (const uint16_t *)src + offset;
        for (i = 0; i < m; i++) {
            uint32_t bits = (uint32_t)p[i] << 16;
            float value;
            memcpy(&value, &bits, sizeof value);
            buffer[i] = value;
        }
        break;
    }
    case AF_BOOL: {
        const uint8_t *p = (const uint8_t *)src + offset;
        for (i = 0; i < m; i++) buffer[i] = p[i] != 0;
        break;
    }
#define AF_CONVERT(CODE, CTYPE) \
    case CODE: { \
        const CTYPE *p = (const CTYPE *)src + offset; \
        for (i = 0; i < m; i++) buffer[i] = (double)p[i]; \
        break; \
    }
    AF_CONVERT(AF_INT8, int8_t)
    AF_CONVERT(AF_INT16, int16_t)
    AF_CONVERT(AF_INT32, int32_t)
    AF_CONVERT(AF_INT64, int64_t)
    AF_CONVERT(AF_UINT8, uint8_t)
    AF_CONVERT(AF_UINT16, uint16_t)
    AF_CONVERT(AF_UINT32, uint32_t)
    AF_CONVERT(AF_UINT64, uint64_t)
#undef AF_CONVERT
    default:
        break;
    }
    return buffer;
}

/* An integer element as sign and magnitude: every int64 and uint64 fits without loss. */
static void sign_magnitude(const void *src, int type, int64_t index, int *negative, uint64_t *magnitude)
{
    int64_t value;
    *negative = 0;
    switch (type) {
    case AF_BOOL: *magnitude = ((const uint8_t *)src)[index] != 0; return;
    case AF_UINT8: *magnitude = ((const uint8_t *)src)[index]; return;
    case AF_UINT16: *magnitude = ((const uint16_t *)src)[index]; return;
    case AF_UINT32: *magnitude = ((const uint32_t *)src)[index]; return;
    case AF_UINT64: *magnitude = ((const uint64_t *)src)[index]; return;
    case AF_INT8: value = ((const int8_t *)src)[index]; break;
    case AF_INT16: value = ((const int16_t *)src)[index]; break;
    case AF_INT32: value = ((const int32_t *)src)[index]; break;
    default: value = ((const int64_t *)src)[index]; break;
    }
    *negative = value < 0;
    /* Two's complement negation in uint64 is exact even for INT64_MIN. */
    *magnitude = value < 0 ? (uint64_t)0 - (uint64_t)value : (uint64_t)value;
}

/* |a - b| of integer elements, exact, rounded once to double (like numpy's uint64 -> float64). */
static void exact_abs_diff(const void *a, int a_type, const void *b, int b_type, int64_t offset, int64_t m,
                           double *out)
{
    for (int64_t i = 0; i < m; i++) {
        int a_negative, b_negative;
        uint64_t a_magnitude, b_magnitude;
        sign_magnitude(a, a_type, offset + i, &a_negative, &a_magnitude);
        sign_magnitude(b, b_type, offset + i, &b_negative, &b_magnitude);
        if (a_negative == b_negative) {
            out[i] = (double)(a_magnitude >= b_magnitude ? a_magnitude - b_magnitude : b_magnitude - a_magnitude);
        } else {
            uint64_t sum = a_magnitude + b_magnitude;
            if (sum >= a_magnitude) {
                out[i] = (double)sum;
            } else {
                /* 2**64 + sum (uint64 against a negative int): halve it, keeping the lost bit as a
                 * sticky bit so the single rounding to double stays correct. */
                out[i] = 2.0 * (double)((UINT64_C(1) << 63) | (sum >> 1) | (sum & 1u));
            }
        }
    }
}

typedef struct {
    double dot, aa, bb, dd, sum_abs, max_abs, max_rel;
    int64_t pass1, pass2;
} af_acc;

/* The hot loop over one chunk of doubles; `exact` holds integer |a - b| or is NULL (then |a - b|). */
AF_INLINE void stats_chunk(const double *a, const double *b, const double *exact, int64_t m, double t1, double t2,
                           double eps, af_acc *acc)
{
    /* Pass counts are doubles too (exact: a chunk counts at most CHUNK): mixing int64 and double
     * lanes keeps GCC from vectorising the loop for SSE2. */
    double dot[LANES], aa[LANES], bb[LANES], dd[LANES], sum_abs[LANES], max_abs[LANES], max_rel[LANES];
    double pass1[LANES], pass2[LANES];
    int k;
    int64_t i = 0;
    for (k = 0; k < LANES; k++) {
        dot[k] = aa[k] = bb[k] = dd[k] = sum_abs[k] = max_abs[k] = max_rel[k] = 0.0;
        pass1[k] = pass2[k] = 0.0;
    }
#define AF_BODY(K, I) \
    do { \
        double x = a[I], y = b[I]; \
        double d = exact ? exact[I] : fabs(x - y); \
        double ax = fabs(x), ay = fabs(y); \
        double rel = d / ((ax > ay ? ax : ay) + eps); \
        dot[K] += x * y; \
        aa[K] += x * x; \
        bb[K] += y * y; \
        dd[K] += d * d; \
        sum_abs[K] += d; \
        max_abs[K] = d > max_abs[K] ? d : max_abs[K]; \
        max_rel[K] = rel > max_rel[K] ? rel : max_rel[K]; \
        pass1[K] += rel < t1 ? 1.0 : 0.0; \
        pass2[K] += rel < t2 ? 1.0 : 0.0; \
    } while (0)
    for (; i + LANES <= m; i += LANES) {
        for (k = 0; k < LANES; k++) AF_BODY(k, i + k);
    }
    for (; i < m; i++) AF_BODY(0, i);
#undef AF_BODY
    for (k = 0; k < LANES; k++) {
        acc->dot += dot[k];
        acc->aa += aa[k];
        acc->bb += bb[k];
        acc->dd += dd[k];
        acc->sum_abs += sum_abs[k];
        acc->max_abs = max_abs[k] > acc->max_abs ? max_abs[k] : acc->max_abs;
        acc->max_rel = max_rel[k] > acc->max_rel ? max_rel[k] : acc->max_rel;
        acc->pass1 += (int64_t)pass1[k];
        acc->pass2 += (int64_t)pass2[k];
    }
}

/* The main pass, inlined into one function per instruction set so each gets its own vector code. */
AF_INLINE void main_pass(const void *a, int a_type, const void *b, int b_type, int64_t n, double t1, double t2,
                         double eps, af_acc *acc, int avx)
{
    double a_buffer[CHUNK], b_buffer[CHUNK], d_buffer[CHUNK];
    int exact = is_integer(a_type) && is_integer(b_type);
    for (int64_t offset = 0; offset < n; offset += CHUNK) {
        int64_t m = n - offset < CHUNK ? n - offset : CHUNK;
        const double *x = to_double(a, a_type, offset, m, a_buffer, avx);
        const double *y = to_double(b, b_type, offset, m, b_buffer, avx);
        if (exact) {
            exact_abs_diff(a, a_type, b, b_type, offset, m, d_buffer);
            stats_chunk(x, y, d_buffer, m, t1, t2, eps, acc);
        } else {
            stats_chunk(x, y, NULL, m, t1, t2, eps, acc);
        }
    }
}

static void main_pass_baseline(const void *a, int a_type, const void *b, int b_type, int64_t n, double t1,
                               double t2, double eps, af_acc *acc)
{
    main_pass(a, a_type, b, b_type, n, t1, t2, eps, acc, 0);
}

#if AF_X86_DISPATCH
__attribute__((target("avx2,f16c"))) static void main_pass_avx2(const void *a, int a_type, const void *b,
                                                                 int b_type, int64_t n, double t1, double t2,
                                                                 double eps, af_acc *acc)
{
    main_pass(a, a_type, b, b_type, n, t1, t2, eps, acc, 1);
}
#endif

typedef struct {
    int64_t nan_a, inf_a, nan_b, inf_b, mismatch;
    int nan_diff, nan_rel;
    double peak_a, peak_b; /* max |x| over the non-NaN values */
} af_rare;

/* The rare second pass for blocks with NaN, Inf or huge values: counts and NaN flags, scalar. */
static void nonfinite_pass(const void *a, int a_type, const void *b, int b_type, int64_t n, double eps,
                           af_rare *rare)
{
    double a_buffer[CHUNK], b_buffer[CHUNK];
    memset(rare, 0, sizeof *rare);
    for (int64_t offset = 0; offset < n; offset += CHUNK) {
        int64_t m = n - offset < CHUNK ? n - offset : CHUNK;
        const double *x = to_double(a, a_type, offset, m, a_buffer, 0);
        const double *y = to_double(b, b_type, offset, m, b_buffer, 0);
        for (int64_t i = 0; i < m; i++) {
            double ax = fabs(x[i]), ay = fabs(y[i]);
            /* C99 only promises nonzero (glibc isinf gives -1 for -Inf): normalise to 0/1 for counting. */
            int nan_x = isnan(x[i]) != 0, nan_y = isnan(y[i]) != 0;
            int inf_x = isinf(x[i]) != 0, inf_y = isinf(y[i]) != 0;
            double d = fabs(x[i] - y[i]);
            double rel = d / ((ax > ay ? ax : ay) + eps);
            rare->nan_a += nan_x;
            rare->inf_a += inf_x;
            rare->nan_b += nan_y;
            rare->inf_b += inf_y;
            rare->mismatch += (nan_x != nan_y) + ((inf_x || inf_y) && x[i] != y[i]);
            rare->nan_diff |= isnan(d);
            rare->nan_rel |= isnan(rel);
            if (ax > rare->peak_a) rare->peak_a = ax;
            if (ay > rare->peak_b) rare->peak_b = ay;
        }
    }
}

/*
 * Statistics of a[0:n] against b[0:n]. out_doubles: dot_ab, sum_aa, sum_bb, sum_dd, sum_abs, max_abs,
 * max_rel; out_counts: rel < t1, rel < t2, nan_a, inf_a, nan_b, inf_b, nonfinite_mismatch.
 * Returns AF_OK, AF_FALLBACK (use the numpy path: empty block or sums that need rescaling) or
 * AF_UNSUPPORTED (unknown type code, or af_init not called).
 */
AF_EXPORT int af_pair_stats(const void *a, int a_type, const void *b, int b_type, int64_t n, double t1, double t2,
                            double eps, double *out_doubles, int64_t *out_counts)
{
    /* The numpy path rescales a side whose peak reaches 2**480 (metrics._SCALE_EXPONENT_LIMIT). */
    const double scale_limit = ldexp(1.0, 480);
    af_acc acc;
    af_rare rare;
    int integers = is_integer(a_type) && is_integer(b_type);
    if (!f16_ready || a_type < AF_BOOL || a_type > AF_FLOAT64 || b_type < AF_BOOL || b_type > AF_FLOAT64)
        return AF_UNSUPPORTED;
    if (n <= 0) return AF_FALLBACK;
    memset(&acc, 0, sizeof acc);
#if AF_X86_DISPATCH
    if (use_avx2)
        main_pass_avx2(a, a_type, b, b_type, n, t1, t2, eps, &acc);
    else
#endif
        main_pass_baseline(a, a_type, b, b_type, n, t1, t2, eps, &acc);
    memset(&rare, 0, sizeof rare);
    /* Finite sums well below overflow prove there is no NaN, Inf or huge value: skip the second pass. */
    if (!integers && !(fabs(acc.aa) < 0x1p960 && fabs(acc.bb) < 0x1p960 && fabs(acc.dd) < 0x1p960)) {
        nonfinite_pass(a, a_type, b, b_type, n, eps, &rare);
        if ((rare.nan_a + rare.inf_a == 0 && rare.peak_a >= scale_limit)
            || (rare.nan_b + rare.inf_b == 0 && rare.peak_b >= scale_limit)
            || (!(fabs(acc.dd) < 0x1p960) && !rare.nan_diff && !isinf(acc.max_abs)))
            return AF_FALLBACK;
        if (rare.nan_diff) acc.max_abs = NAN;
        if (rare.nan_rel) acc.max_rel = NAN;
    }
    out_doubles[OUT_DOT] = acc.dot;
    out_doubles[OUT_AA] = acc.aa;
    out_doubles[OUT_BB] = acc.bb;
    out_doubles[OUT_DD] = acc.dd;
    out_doubles[OUT_SUM_ABS] = acc.sum_abs;
    out_doubles[OUT_MAX_ABS] = acc.max_abs;
    out_doubles[OUT_MAX_REL] = acc.max_rel;
    out_counts[OUT_PASS1] = acc.pass1;
    out_counts[OUT_PASS2] = acc.pass2;
    out_counts[OUT_NAN_A] = rare.nan_a;
    out_counts[OUT_INF_A] = rare.inf_a;
    out_counts[OUT_NAN_B] = rare.nan_b;
    out_counts[OUT_INF_B] = rare.inf_b;
    out_counts[OUT_MISMATCH] = rare.mismatch;
    return AF_OK;
}

/* A trivial module init so the file builds as an importable extension; the API is the C one above. */

static struct PyModuleDef af_module = {
    PyModuleDef_HEAD_INIT, "_kernel",
    "Native precision kernel; call af_pair_stats through ctypes (see native.py).", -1, NULL, NULL, NULL, NULL,
    NULL};

PyMODINIT_FUNC PyInit__kernel(void) { return PyModule_Create(&af_module); }
