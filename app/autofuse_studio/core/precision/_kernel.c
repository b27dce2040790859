/*
 * One-pass precision statistics of a pair of equally long 1-D blocks (see metrics.py, _block_partial).
 *
 * Plain C99 called through ctypes: ctypes releases the GIL for the whole call, so threads scale. The
 * Python module below lets setuptools build and install this file as an extension module next to the
 * package; it exposes one function, sign_classify (a signature's checks in one call: its Python-side
 * argument handling is cheaper than ctypes' for a call whose work is a few microseconds).
 *
 * Every value is converted to double and the arithmetic is the numpy reference's, operation by
 * operation, so max values and pass counts are bit-identical; only the summation order of the sums
 * differs (lane-wise per chunk, like BLAS), which changes them by a few ulps. Blocks whose sums of
 * squares could overflow are handed back to the numpy path, which rescales them (status AF_FALLBACK).
 *
 * For the many small pairs of a run there are also a batched af_pair_stats and a reader of whole small
 * files (both used by pair_batch.py), so a worker releases the GIL twice per batch instead of several
 * times per pair. The af_sign_* functions are the signature checks' sweeps (signature_native.py).
 */

/* Python.h must come before the standard headers; only the module init below uses it. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if !defined(_WIN32)
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#endif

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
/* For each 8-bit mask the positions of its set bits, ascending (then zeros): the survey's list_looked. */
static int32_t packed_bits[256][8];
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
        for (int bits = 0; bits < 256; bits++)
            for (int b = 0, listed = 0; b < 8; b++)
                if ((bits >> b) & 1) packed_bits[bits][listed++] = b;
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

/* For tests: use the baseline code (0) or whatever af_init chose (1); returns the level now in use. Not
 * for use while other threads run the kernel. */
AF_EXPORT int af_use_simd(int wanted)
{
    use_avx2 = 0;
    if (wanted) af_init();
    return use_avx2;
}

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

/*
 * af_pair_stats for k pairs in one call (pair_batch.py): one GIL release for a whole batch of small pairs
 * instead of one per pair, which on two threads turned every pair into a GIL handoff. Pair i reads a[i],
 * b[i] (n[i] elements of a_types[i], b_types[i]) and writes 7 doubles at out_doubles + 7 i, 7 counts at
 * out_counts + 7 i and af_pair_stats' return code in status[i]; the results are af_pair_stats' own.
 */
AF_EXPORT int af_pair_stats_batch(int64_t k, const void *const *a, const int32_t *a_types, const void *const *b,
                                  const int32_t *b_types, const int64_t *n, double t1, double t2, double eps,
                                  double *out_doubles, int64_t *out_counts, int32_t *status)
{
    for (int64_t i = 0; i < k; i++)
        status[i] = af_pair_stats(a[i], a_types[i], b[i], b_types[i], n[i], t1, t2, eps,
                                  out_doubles + OUT_DOUBLES * i, out_counts + OUT_COUNTS * i);
    return AF_OK;
}

/*
 * Tensor view (tensor_view.py): the first pass over one block of a pair (both sides' statistics, the
 * error range, top-K candidates and the heatmap cells) and the second one (four histograms), each in
 * one loop over raw values instead of a dozen numpy passes over float64 copies. Values are converted
 * to double exactly as numpy converts them and every count, extreme and bin is the numpy path's; only
 * the summation order of the sums (means, M2, cell sums) differs.
 */

/* Statistics of one side of a block: finite values only; mean and M2 merged chunk by chunk (Chan). */
typedef struct {
    int64_t finite, nan;
    double min, max, mean, m2;
} af_side;

AF_INLINE void side_combine(af_side *s, int64_t count, double mean, double m2)
{
    int64_t total;
    double delta;
    if (count == 0) return;
    if (s->finite == 0) {
        s->finite = count;
        s->mean = mean;
        s->m2 = m2;
        return;
    }
    /* The operation order of StatsAccumulator._combine. */
    total = s->finite + count;
    delta = mean - s->mean;
    s->mean += delta * (double)count / (double)total;
    s->m2 += m2 + delta * delta * (double)s->finite * (double)count / (double)total;
    s->finite = total;
}

/* One chunk of one side with NaN or Inf in it: counts, extremes and the finite values' mean and M2. */
static void side_chunk_nonfinite(const double *x, int64_t m, af_side *s)
{
    double total = 0.0, mean, m2 = 0.0;
    int64_t finite = 0, i;
    for (i = 0; i < m; i++) {
        double v = x[i];
        if ((v - v) == 0.0) {
            total += v;
            finite++;
            s->min = v < s->min ? v : s->min;
            s->max = v > s->max ? v : s->max;
        } else if (v != v) {
            s->nan++;
        }
    }
    if (finite == 0) return;
    mean = total / (double)finite;
    for (i = 0; i < m; i++) {
        double d = x[i] - mean;
        if ((x[i] - x[i]) == 0.0) m2 += d * d;
    }
    side_combine(s, finite, mean, m2);
}

#if AF_X86_DISPATCH
/* Sum, x - x, min and max of a chunk in AVX2: GCC does not vectorise the ternary min/max (minpd is
 * exactly `v < low ? v : low`). out: total, check, lowest, highest. */
__attribute__((target("avx2"))) static void side_sweep_avx2(const double *x, int64_t m, double *out)
{
    __m256d sum0 = _mm256_setzero_pd(), sum1 = _mm256_setzero_pd(), probe = _mm256_setzero_pd();
    __m256d low0 = _mm256_set1_pd(INFINITY), low1 = low0, high0 = _mm256_set1_pd(-INFINITY), high1 = high0;
    double lanes[16], total = 0.0, check = 0.0, lowest = INFINITY, highest = -INFINITY;
    int64_t i = 0;
    for (; i + 8 <= m; i += 8) {
        __m256d v0 = _mm256_loadu_pd(x + i), v1 = _mm256_loadu_pd(x + i + 4);
        sum0 = _mm256_add_pd(sum0, v0);
        sum1 = _mm256_add_pd(sum1, v1);
        probe = _mm256_add_pd(probe, _mm256_add_pd(_mm256_sub_pd(v0, v0), _mm256_sub_pd(v1, v1)));
        low0 = _mm256_min_pd(v0, low0);
        low1 = _mm256_min_pd(v1, low1);
        high0 = _mm256_max_pd(v0, high0);
        high1 = _mm256_max_pd(v1, high1);
    }
    _mm256_storeu_pd(lanes, _mm256_add_pd(sum0, sum1));
    _mm256_storeu_pd(lanes + 4, probe);
    _mm256_storeu_pd(lanes + 8, _mm256_min_pd(low0, low1));
    _mm256_storeu_pd(lanes + 12, _mm256_max_pd(high0, high1));
    for (int k = 0; k < 4; k++) {
        total += lanes[k];
        check += lanes[4 + k];
        lowest = lanes[8 + k] < lowest ? lanes[8 + k] : lowest;
        highest = lanes[12 + k] > highest ? lanes[12 + k] : highest;
    }
    for (; i < m; i++) {
        total += x[i];
        check += x[i] - x[i];
        lowest = x[i] < lowest ? x[i] : lowest;
        highest = x[i] > highest ? x[i] : highest;
    }
    out[0] = total;
    out[1] = check;
    out[2] = lowest;
    out[3] = highest;
}
#endif

/* Sum, x - x, min and max of a chunk in plain C (the baseline build). out: as side_sweep_avx2. */
AF_INLINE void side_sweep(const double *x, int64_t m, double *out)
{
    double sum[LANES], probe[LANES], low[LANES], high[LANES];
    double total = 0.0, check = 0.0, lowest = INFINITY, highest = -INFINITY;
    int k;
    int64_t i;
    for (k = 0; k < LANES; k++) {
        sum[k] = probe[k] = 0.0;
        low[k] = INFINITY;
        high[k] = -INFINITY;
    }
    for (i = 0; i + LANES <= m; i += LANES) {
        for (k = 0; k < LANES; k++) {
            double v = x[i + k];
            sum[k] += v;
            probe[k] += v - v;
            low[k] = v < low[k] ? v : low[k];
            high[k] = v > high[k] ? v : high[k];
        }
    }
    for (; i < m; i++) {
        double v = x[i];
        total += v;
        check += v - v;
        lowest = v < lowest ? v : lowest;
        highest = v > highest ? v : highest;
    }
    for (k = 0; k < LANES; k++) {
        total += sum[k];
        check += probe[k];
        lowest = low[k] < lowest ? low[k] : lowest;
        highest = high[k] > highest ? high[k] : highest;
    }
    out[0] = total;
    out[1] = check;
    out[2] = lowest;
    out[3] = highest;
}

/* One chunk of one side: counts, extremes and the chunk's mean, then its M2 around that mean (Chan's
 * merge into the block's). x - x sums to 0 exactly when every value is finite, else the chunk is
 * redone by the scalar loop above. */
AF_INLINE void side_chunk(const double *x, int64_t m, af_side *s, int avx)
{
    double sweep[4], m2[LANES], mean, chunk_m2 = 0.0;
    int k;
    int64_t i;
#if AF_X86_DISPATCH
    if (avx)
        side_sweep_avx2(x, m, sweep);
    else
#endif
        side_sweep(x, m, sweep);
    (void)avx;
    if (sweep[1] != 0.0) {
        side_chunk_nonfinite(x, m, s);
        return;
    }
    s->min = sweep[2] < s->min ? sweep[2] : s->min;
    s->max = sweep[3] > s->max ? sweep[3] : s->max;
    mean = sweep[0] / (double)m;
    for (k = 0; k < LANES; k++) m2[k] = 0.0;
    for (i = 0; i + LANES <= m; i += LANES) {
        for (k = 0; k < LANES; k++) {
            double d = x[i + k] - mean;
            m2[k] += d * d;
        }
    }
    for (; i < m; i++) {
        double d = x[i] - mean;
        chunk_m2 += d * d;
    }
    for (k = 0; k < LANES; k++) chunk_m2 += m2[k];
    side_combine(s, m, mean, chunk_m2);
}

/* The heatmap's cell arrays (HeatmapAccumulator's window), updated in place; order shared with view_kernel.py. */
enum { CELL_ELEMENTS, CELL_SUM_F, CELL_SUM_O, CELL_NONFINITE_F, CELL_NONFINITE_O, CELL_WORST_KEY, CELL_WORST_FLAT,
       CELL_WORST_F, CELL_WORST_O, CELL_ARRAYS };

typedef struct {
    int64_t *elements, *nonfinite_f, *nonfinite_o, *worst_flat;
    double *sum_f, *sum_o, *worst_key, *worst_f, *worst_o;
} af_cells;

/* The run of consecutive elements in one cell being added: flushed to the cell when the cell changes. */
typedef struct {
    int64_t start; /* flat index of the block's first element */
    int64_t cell, count, nonfinite_f, nonfinite_o, worst_at;
    double sum_f, sum_o, worst, worst_f, worst_o;
} af_run;

static void run_flush(af_run *run, const af_cells *cells)
{
    int64_t c = run->cell;
    if (c < 0) return;
    cells->elements[c] += run->count;
    cells->sum_f[c] += run->sum_f;
    cells->sum_o[c] += run->sum_o;
    cells->nonfinite_f[c] += run->nonfinite_f;
    cells->nonfinite_o[c] += run->nonfinite_o;
    if (run->worst_at >= 0) {
        cells->worst_key[c] = run->worst;
        cells->worst_flat[c] = run->start + run->worst_at;
        cells->worst_f[c] = run->worst_f;
        cells->worst_o[c] = run->worst_o;
    }
}

typedef struct {
    double max_abs, min_positive, threshold;
    int64_t nonfinite, candidates;
    int64_t *candidate; /* block positions whose key exceeds `threshold` (capacity: the block) */
    double *keys;       /* every key, or NULL */
} af_errors;

/* Keys (|x - y|, NaN as +Inf), the error range, top-K candidates and the heatmap runs of one chunk.
 * The state lives in scalar locals while the loop runs: in a struct whose address is taken, or behind
 * a pointer that every candidate or cell store could alias, it would go through memory each time. */
AF_INLINE void errors_chunk(const double *x, const double *y, const int64_t *ids, int64_t offset, int64_t m,
                            const af_cells *cells, af_run *state, af_errors *errors)
{
    int64_t cell = state->cell, count = state->count, nonfinite_f = state->nonfinite_f;
    int64_t nonfinite_o = state->nonfinite_o, worst_at = state->worst_at;
    double sum_f = state->sum_f, sum_o = state->sum_o, worst = state->worst;
    double worst_f = state->worst_f, worst_o = state->worst_o;
    double max_abs = errors->max_abs, min_positive = errors->min_positive, threshold = errors->threshold;
    int64_t nonfinite = errors->nonfinite, candidates = errors->candidates;
    int64_t *candidate = errors->candidate;
    double *keys = errors->keys;
    for (int64_t i = 0; i < m; i++) {
        int64_t at = offset + i, next = ids[at];
        double fx = x[i], fy = y[i];
        double key = fabs(fx - fy);
        if (key != key) key = INFINITY;
        if (key < INFINITY) {
            max_abs = key > max_abs ? key : max_abs;
            double positive = key > 0.0 ? key : INFINITY; /* selects, not branches: zeros come at random */
            min_positive = positive < min_positive ? positive : min_positive;
        } else {
            nonfinite++;
        }
        if (key > threshold) candidate[candidates++] = at;
        if (keys) keys[at] = key;
        if (next != cell) {
            if (cell >= 0) {
                cells->elements[cell] += count;
                cells->sum_f[cell] += sum_f;
                cells->sum_o[cell] += sum_o;
                cells->nonfinite_f[cell] += nonfinite_f;
                cells->nonfinite_o[cell] += nonfinite_o;
                if (worst_at >= 0) {
                    cells->worst_key[cell] = worst;
                    cells->worst_flat[cell] = state->start + worst_at;
                    cells->worst_f[cell] = worst_f;
                    cells->worst_o[cell] = worst_o;
                }
            }
            cell = next;
            count = nonfinite_f = nonfinite_o = 0;
            sum_f = sum_o = 0.0;
            worst = cells->worst_key[cell];
            worst_at = -1;
        }
        count++;
        if ((fx - fx) == 0.0) sum_f += fx; else nonfinite_f++;
        if ((fy - fy) == 0.0) sum_o += fy; else nonfinite_o++;
        /* Strictly greater: the first element reaching a cell's maximum keeps it (the numpy tie rule). */
        if (key > worst) {
            worst = key;
            worst_at = at;
            worst_f = fx;
            worst_o = fy;
        }
    }
    state->cell = cell;
    state->count = count;
    state->nonfinite_f = nonfinite_f;
    state->nonfinite_o = nonfinite_o;
    state->worst_at = worst_at;
    state->sum_f = sum_f;
    state->sum_o = sum_o;
    state->worst = worst;
    state->worst_f = worst_f;
    state->worst_o = worst_o;
    errors->max_abs = max_abs;
    errors->min_positive = min_positive;
    errors->nonfinite = nonfinite;
    errors->candidates = candidates;
}

#if AF_X86_DISPATCH
/* chunk_keys in AVX2 (GCC does not vectorise its ternary min/max). */
__attribute__((target("avx2"))) static int chunk_keys_avx2(const double *x, const double *y, int64_t m,
                                                           af_errors *errors, double *keys)
{
    const __m256d sign = _mm256_set1_pd(-0.0), inf = _mm256_set1_pd(INFINITY), zero = _mm256_setzero_pd();
    const __m256d threshold = _mm256_set1_pd(errors->threshold);
    __m256d high = zero, low = inf;
    double lanes[8];
    int64_t nonfinite = 0, i = 0;
    int above = 0;
    for (; i + 4 <= m; i += 4) {
        __m256d key = _mm256_andnot_pd(sign, _mm256_sub_pd(_mm256_loadu_pd(x + i), _mm256_loadu_pd(y + i)));
        __m256d infinite = _mm256_cmp_pd(key, inf, _CMP_EQ_OQ);
        _mm256_storeu_pd(keys + i, key);
        nonfinite += __builtin_popcount((unsigned)_mm256_movemask_pd(infinite));
        above |= _mm256_movemask_pd(_mm256_cmp_pd(key, threshold, _CMP_GT_OQ));
        high = _mm256_max_pd(_mm256_blendv_pd(key, zero, infinite), high);
        low = _mm256_min_pd(_mm256_blendv_pd(inf, key, _mm256_cmp_pd(key, zero, _CMP_GT_OQ)), low);
    }
    _mm256_storeu_pd(lanes, high);
    _mm256_storeu_pd(lanes + 4, low);
    for (int k = 0; k < 4; k++) {
        errors->max_abs = lanes[k] > errors->max_abs ? lanes[k] : errors->max_abs;
        errors->min_positive = lanes[4 + k] < errors->min_positive ? lanes[4 + k] : errors->min_positive;
    }
    for (; i < m; i++) {
        double key = fabs(x[i] - y[i]);
        keys[i] = key;
        if (key < INFINITY) {
            errors->max_abs = key > errors->max_abs ? key : errors->max_abs;
            if (key > 0.0 && key < errors->min_positive) errors->min_positive = key;
        } else {
            nonfinite++;
        }
        above |= key > errors->threshold;
    }
    errors->nonfinite += nonfinite;
    return above != 0;
}
#endif

/* Keys of a chunk whose values are all finite, with the error range; returns whether a key exceeds
 * the top-K threshold. */
AF_INLINE int chunk_keys(const double *x, const double *y, int64_t m, af_errors *errors, double *keys)
{
    double high[LANES], low[LANES], threshold = errors->threshold;
    int64_t nonfinite = 0, above = 0, i;
    int k;
    for (k = 0; k < LANES; k++) {
        high[k] = 0.0;
        low[k] = INFINITY;
    }
#define AF_KEY(K, I) \
    do { \
        double key = fabs(x[I] - y[I]); /* finite values: +Inf on overflow, never NaN */ \
        double finite = key < INFINITY ? key : 0.0; \
        double positive = key > 0.0 ? key : INFINITY; \
        keys[I] = key; \
        nonfinite += key == INFINITY; \
        above |= key > threshold; \
        high[K] = finite > high[K] ? finite : high[K]; \
        low[K] = positive < low[K] ? positive : low[K]; \
    } while (0)
    for (i = 0; i + LANES <= m; i += LANES) {
        for (k = 0; k < LANES; k++) AF_KEY(k, i + k);
    }
    for (; i < m; i++) AF_KEY(0, i);
#undef AF_KEY
    for (k = 0; k < LANES; k++) {
        errors->max_abs = high[k] > errors->max_abs ? high[k] : errors->max_abs;
        errors->min_positive = low[k] < errors->min_positive ? low[k] : errors->min_positive;
    }
    errors->nonfinite += nonfinite;
    return above != 0;
}

/* The heatmap cells of a chunk whose values are all finite, run by run: a run's sums and largest key
 * are reductions the vectoriser can do, and only a run that beats its cell's worst is searched for the
 * first element reaching its largest key (the numpy tie rule). */
AF_INLINE void chunk_runs(const double *x, const double *y, const double *keys, const int64_t *ids, int64_t m,
                          int64_t first, const af_cells *cells)
{
    int64_t i = 0;
    while (i < m) {
        int64_t cell = ids[i], j = i + 1, at;
        double sum_f[4] = {0.0, 0.0, 0.0, 0.0}, sum_o[4] = {0.0, 0.0, 0.0, 0.0};
        double top[4] = {-1.0, -1.0, -1.0, -1.0}, largest;
        int k;
        while (j < m && ids[j] == cell) j++;
        for (at = i; at + 4 <= j; at += 4) {
            for (k = 0; k < 4; k++) {
                sum_f[k] += x[at + k];
                sum_o[k] += y[at + k];
                top[k] = keys[at + k] > top[k] ? keys[at + k] : top[k];
            }
        }
        for (; at < j; at++) {
            sum_f[0] += x[at];
            sum_o[0] += y[at];
            top[0] = keys[at] > top[0] ? keys[at] : top[0];
        }
        cells->elements[cell] += j - i;
        cells->sum_f[cell] += (sum_f[0] + sum_f[1]) + (sum_f[2] + sum_f[3]);
        cells->sum_o[cell] += (sum_o[0] + sum_o[1]) + (sum_o[2] + sum_o[3]);
        largest = top[0];
        for (k = 1; k < 4; k++) largest = top[k] > largest ? top[k] : largest;
        if (largest > cells->worst_key[cell]) { /* strictly: on a tie the earlier element keeps the cell */
            for (at = i; keys[at] != largest; at++) {}
            cells->worst_key[cell] = largest;
            cells->worst_flat[cell] = first + at;
            cells->worst_f[cell] = x[at];
            cells->worst_o[cell] = y[at];
        }
        i = j;
    }
}

AF_INLINE void view_first(const void *f, int f_type, const void *o, int o_type, int64_t n, const int64_t *ids,
                          const af_cells *cells, af_side *sides, af_errors *errors, af_run *run, int avx)
{
    double f_buffer[CHUNK], o_buffer[CHUNK], keys[CHUNK];
    for (int64_t offset = 0; offset < n; offset += CHUNK) {
        int64_t m = n - offset < CHUNK ? n - offset : CHUNK;
        const double *x = to_double(f, f_type, offset, m, f_buffer, avx);
        const double *y = to_double(o, o_type, offset, m, o_buffer, avx);
        int64_t nan_before = sides[0].nan + sides[1].nan, finite_before = sides[0].finite + sides[1].finite;
        int above;
        side_chunk(x, m, &sides[0], avx);
        side_chunk(y, m, &sides[1], avx);
        if (sides[0].finite + sides[1].finite - finite_before != 2 * m || sides[0].nan + sides[1].nan != nan_before) {
            /* NaN or Inf in the chunk: the element-by-element loop. */
            errors_chunk(x, y, ids, offset, m, cells, run, errors);
            continue;
        }
        run_flush(run, cells); /* the element-by-element loop's last run */
        run->cell = -1;
#if AF_X86_DISPATCH
        above = avx ? chunk_keys_avx2(x, y, m, errors, keys) : chunk_keys(x, y, m, errors, keys);
#else
        above = chunk_keys(x, y, m, errors, keys);
#endif
        if (above) {
            for (int64_t i = 0; i < m; i++) {
                if (keys[i] > errors->threshold) errors->candidate[errors->candidates++] = offset + i;
            }
        }
        if (errors->keys) memcpy(errors->keys + offset, keys, (size_t)m * sizeof *keys);
        chunk_runs(x, y, keys, ids + offset, m, run->start + offset, cells);
    }
}

static void view_first_baseline(const void *f, int f_type, const void *o, int o_type, int64_t n,
                                const int64_t *ids, const af_cells *cells, af_side *sides, af_errors *errors,
                                af_run *run)
{
    view_first(f, f_type, o, o_type, n, ids, cells, sides, errors, run, 0);
}

#if AF_X86_DISPATCH
__attribute__((target("avx2,f16c"))) static void view_first_avx2(const void *f, int f_type, const void *o,
                                                                  int o_type, int64_t n, const int64_t *ids,
                                                                  const af_cells *cells, af_side *sides,
                                                                  af_errors *errors, af_run *run)
{
    view_first(f, f_type, o, o_type, n, ids, cells, sides, errors, run, 1);
}
#endif

/*
 * The tensor view's first pass over f[0:n] and o[0:n] (flat indices start ..): `ids` are the elements'
 * heatmap cells as indices into the `cells` arrays (CELL_* order), which are updated in place. Block
 * positions whose key exceeds `threshold` go to `candidate` (room for n); `keys` (NULL or room for n)
 * receives every key. out_doubles: per side min, max, mean, M2, then the largest finite key and the
 * smallest positive one; out_counts: per side finite, NaN, then non-finite keys and candidates.
 */
AF_EXPORT int af_view_first(const void *f, int f_type, const void *o, int o_type, int64_t n, const int64_t *ids,
                            void *const *cell_arrays, int64_t start, double threshold, int64_t *candidate,
                            double *keys, double *out_doubles, int64_t *out_counts)
{
    af_side sides[2];
    af_errors errors;
    af_run run;
    af_cells cells;
    if (!f16_ready || f_type < AF_BOOL || f_type > AF_FLOAT64 || o_type < AF_BOOL || o_type > AF_FLOAT64)
        return AF_UNSUPPORTED;
    cells.elements = (int64_t *)cell_arrays[CELL_ELEMENTS];
    cells.sum_f = (double *)cell_arrays[CELL_SUM_F];
    cells.sum_o = (double *)cell_arrays[CELL_SUM_O];
    cells.nonfinite_f = (int64_t *)cell_arrays[CELL_NONFINITE_F];
    cells.nonfinite_o = (int64_t *)cell_arrays[CELL_NONFINITE_O];
    cells.worst_key = (double *)cell_arrays[CELL_WORST_KEY];
    cells.worst_flat = (int64_t *)cell_arrays[CELL_WORST_FLAT];
    cells.worst_f = (double *)cell_arrays[CELL_WORST_F];
    cells.worst_o = (double *)cell_arrays[CELL_WORST_O];
    for (int side = 0; side < 2; side++) {
        sides[side].finite = sides[side].nan = 0;
        sides[side].min = INFINITY;
        sides[side].max = -INFINITY;
        sides[side].mean = sides[side].m2 = 0.0;
    }
    errors.max_abs = 0.0;
    errors.min_positive = INFINITY;
    errors.threshold = threshold;
    errors.nonfinite = errors.candidates = 0;
    errors.candidate = candidate;
    errors.keys = keys;
    run.start = start;
    run.cell = -1;
    run.worst_at = -1;
#if AF_X86_DISPATCH
    if (use_avx2)
        view_first_avx2(f, f_type, o, o_type, n, ids, &cells, sides, &errors, &run);
    else
#endif
        view_first_baseline(f, f_type, o, o_type, n, ids, &cells, sides, &errors, &run);
    run_flush(&run, &cells);
    for (int side = 0; side < 2; side++) {
        out_doubles[4 * side] = sides[side].min;
        out_doubles[4 * side + 1] = sides[side].max;
        out_doubles[4 * side + 2] = sides[side].mean;
        out_doubles[4 * side + 3] = sides[side].m2;
        out_counts[2 * side] = sides[side].finite;
        out_counts[2 * side + 1] = sides[side].nan;
    }
    out_doubles[8] = errors.max_abs;
    out_doubles[9] = errors.min_positive;
    out_counts[4] = errors.nonfinite;
    out_counts[5] = errors.candidates;
    return AF_OK;
}

/* One histogram's binning (HistogramAccumulator): position = (v - origin) * scale, or for log bins
 * (log2(v) - origin) * scale + 1, clipped and truncated; `lower[k]` is the smallest value numpy's log2
 * puts in log bin k or above, so log bins do not depend on how log2 is computed here. */
typedef struct {
    double origin, scale;
    int64_t bins;
    int64_t *counts;
    const double *lower;
} af_bins;

/* The bins of a chunk's values and errors, written for the vectoriser (no branches, no int64 <-> double
 * conversions, which AVX2 lacks). Linear bins are exact (numpy's operations); log bins are estimates
 * from a log2 good to about 3e-5 (the exponent bits plus a least-squares polynomial of the mantissa),
 * settled exactly by log_bin. Returns 0 when every value and error is finite, else 1: then the
 * chunk takes the scalar loop, which uses only the log estimates. */
AF_INLINE int chunk_bins(const double *x, const double *y, int64_t m, const double *bin, int32_t *out)
{
    const double two52 = 4503599627370496.0; /* 2**52: its mantissa holds a small integer exactly */
    int32_t nonfinite = 0; /* an OR, not a float sum: the vectoriser may not reorder float sums */
    for (int64_t i = 0; i < m; i++) {
        double fx = x[i], fy = y[i], e = fx - fy, v = fabs(e), mantissa, exponent, p, pf, po, pe;
        uint64_t bits, exponent_bits;
        nonfinite |= ((fx - fx) != 0.0) | ((fy - fy) != 0.0) | ((e - e) != 0.0);
        pf = (fx - bin[0]) * bin[1];
        po = (fy - bin[3]) * bin[4];
        pe = (e - bin[6]) * bin[7];
        pf = pf > 0.0 ? pf : 0.0;
        po = po > 0.0 ? po : 0.0;
        pe = pe > 0.0 ? pe : 0.0;
        out[i] = (int32_t)(pf < bin[2] ? pf : bin[2]);
        out[CHUNK + i] = (int32_t)(po < bin[5] ? po : bin[5]);
        out[2 * CHUNK + i] = (int32_t)(pe < bin[8] ? pe : bin[8]);
        memcpy(&bits, &v, sizeof bits);
        exponent_bits = (bits >> 52) | UINT64_C(0x4330000000000000);
        memcpy(&exponent, &exponent_bits, sizeof exponent);
        exponent -= two52 + 1023.0;
        bits = (bits & UINT64_C(0x000fffffffffffff)) | UINT64_C(0x3ff0000000000000);
        memcpy(&mantissa, &bits, sizeof mantissa);
        mantissa -= 1.0;
        p = exponent + mantissa * (1.4418258 + mantissa * (-0.7086821 + mantissa * (0.41542195 + mantissa
            * (-0.19442267 + mantissa * 0.04588553))));
        p = (p - bin[9]) * bin[10] + 1.0;
        p = p > 1.0 ? p : 1.0;
        p = p < bin[11] ? p : bin[11];
        out[3 * CHUNK + i] = v > 0.0 ? (int32_t)p : 0; /* bin 0: the exact zeros (lower[0] = 0 <= 0 < lower[1]) */
    }
    return nonfinite;
}

/* The exact log bin of v >= 0 from its estimate k in [0, bins - 1]; lower[] has bins + 1 entries,
 * lower[0] = 0 and lower[bins] = +Inf, so k + 1 is always readable. */
AF_INLINE int64_t log_bin(const double *lower, double v, int64_t k)
{
    /* Both bounds of the estimated bin at once (independent loads); walking on is rare: the estimate is
     * off only within about 3e-5 of a bound (or for subnormals). No branch on zeros: they come at random. */
    if (v >= lower[k + 1]) {
        do k++; while (v >= lower[k + 1]);
    } else if (v < lower[k]) {
        do k--; while (v < lower[k]);
    }
    return k;
}

AF_INLINE int64_t linear_index(double origin, double scale, double top, double v)
{
    double p = (v - origin) * scale;
    p = p > 0.0 ? p : 0.0; /* NaN too (an overflowing scale): bin 0 */
    p = p < top ? p : top;
    return (int64_t)p;
}

AF_INLINE int view_hist(const void *f, int f_type, const void *o, int o_type, int64_t n, const af_bins *bins,
                        int64_t *nonfinite, int avx)
{
    double f_buffer[CHUNK], o_buffer[CHUNK], bin[12];
    int32_t index[4 * CHUNK];
    int64_t nonfinite_f = 0, nonfinite_o = 0, nonfinite_e = 0;
    /* Locals, not the struct: a count's store could alias its fields. */
    int64_t *fc = bins[0].counts, *oc = bins[1].counts, *ec = bins[2].counts, *lc = bins[3].counts;
    const double *lower = bins[3].lower;
    for (int h = 0; h < 4; h++) {
        bin[3 * h] = bins[h].origin;
        bin[3 * h + 1] = bins[h].scale;
        bin[3 * h + 2] = (double)(bins[h].bins - 1);
    }
    for (int64_t offset = 0; offset < n; offset += CHUNK) {
        int64_t m = n - offset < CHUNK ? n - offset : CHUNK;
        const double *x = to_double(f, f_type, offset, m, f_buffer, avx);
        const double *y = to_double(o, o_type, offset, m, o_buffer, avx);
        if (!chunk_bins(x, y, m, bin, index)) {
            for (int64_t i = 0; i < m; i++) {
                fc[index[i]]++;
                oc[index[CHUNK + i]]++;
                ec[index[2 * CHUNK + i]]++;
                lc[log_bin(lower, fabs(x[i] - y[i]), index[3 * CHUNK + i])]++;
            }
            continue;
        }
        for (int64_t i = 0; i < m; i++) {
            double fx = x[i], fy = y[i], e = fx - fy;
            if ((fx - fx) == 0.0) fc[linear_index(bin[0], bin[1], bin[2], fx)]++; else nonfinite_f++;
            if ((fy - fy) == 0.0) oc[linear_index(bin[3], bin[4], bin[5], fy)]++; else nonfinite_o++;
            if ((e - e) == 0.0) {
                ec[linear_index(bin[6], bin[7], bin[8], e)]++;
                lc[log_bin(lower, fabs(e), index[3 * CHUNK + i])]++;
            } else {
                nonfinite_e++;
            }
        }
    }
    nonfinite[0] += nonfinite_f;
    nonfinite[1] += nonfinite_o;
    nonfinite[2] += nonfinite_e;
    return AF_OK;
}

static int view_hist_baseline(const void *f, int f_type, const void *o, int o_type, int64_t n,
                              const af_bins *bins, int64_t *nonfinite)
{
    return view_hist(f, f_type, o, o_type, n, bins, nonfinite, 0);
}

#if AF_X86_DISPATCH
__attribute__((target("avx2,f16c"))) static int view_hist_avx2(const void *f, int f_type, const void *o,
                                                                int o_type, int64_t n, const af_bins *bins,
                                                                int64_t *nonfinite)
{
    return view_hist(f, f_type, o, o_type, n, bins, nonfinite, 1);
}
#endif

/*
 * The tensor view's histograms of f[0:n], o[0:n] and their difference: params holds origin and scale of
 * the fused, origin, error and |error| (log) binnings, bins their bin counts, counts their int64 count
 * arrays (added to in place), lower the log binning's lower bounds (bins[3] + 1 entries, the last +Inf). nonfinite gets the
 * NaN/Inf counts of fused, origin and error added.
 */
AF_EXPORT int af_view_hist(const void *f, int f_type, const void *o, int o_type, int64_t n, const double *params,
                           const int64_t *bins, int64_t *const *counts, const double *lower, int64_t *nonfinite)
{
    af_bins binning[4];
    if (!f16_ready || f_type < AF_BOOL || f_type > AF_FLOAT64 || o_type < AF_BOOL || o_type > AF_FLOAT64)
        return AF_UNSUPPORTED;
    for (int h = 0; h < 4; h++) {
        if (bins[h] < 1) return AF_UNSUPPORTED;
        binning[h].origin = params[2 * h];
        binning[h].scale = params[2 * h + 1];
        binning[h].bins = bins[h];
        binning[h].counts = counts[h];
        binning[h].lower = lower;
    }
#if AF_X86_DISPATCH
    if (use_avx2) return view_hist_avx2(f, f_type, o, o_type, n, binning, nonfinite);
#endif
    return view_hist_baseline(f, f_type, o, o_type, n, binning, nonfinite);
}

/*
 * Whole small files into one caller-provided buffer (pair_batch.py): open, fstat, read and close a batch
 * of NPY files in one call, so a worker thread releases the GIL once per batch rather than four times
 * per file. Only the I/O is done here: every check of the contents stays in Python (npy.py), and a file
 * with any status but AF_READ_OK is left to Python's own open_npy, which words its error.
 */
enum { AF_READ_OK = 0, AF_READ_OPEN_FAILED, AF_READ_NOT_REGULAR, AF_READ_EMPTY, AF_READ_TOO_BIG, AF_READ_FAILED };

/* Each file starts on a cache line, so the data after a 64-byte-padded np.save header is aligned. */
#define AF_FILE_ALIGN 64

#if defined(_WIN32)
#define AF_POSIX_IO 0
#else
#define AF_POSIX_IO 1
#endif

#if AF_POSIX_IO
/* open_npy's flags (npy.py _OPEN_FLAGS): O_NONBLOCK so opening a FIFO cannot wait for a writer. */
#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif
#ifndef O_NONBLOCK
#define O_NONBLOCK 0
#endif
#define AF_OPEN_FLAGS (O_RDONLY | O_NONBLOCK | O_CLOEXEC)

/* Up to `size` bytes from fd into dst, retrying short reads and EINTR; -1 on an error, else the count
 * (less than size when the file shrank: open_npy's _read_all keeps what it got too). */
static int64_t read_whole(int fd, uint8_t *dst, int64_t size)
{
    int64_t got = 0;
    while (got < size) {
        ssize_t part = read(fd, dst + got, (size_t)(size - got));
        if (part < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        if (part == 0) break;
        got += part;
    }
    return got;
}
#endif

/*
 * Files paths[0:count] read whole, one after the other, into buffer[0:capacity]: file i gets status[i]
 * and, when AF_READ_OK, its bytes at buffer + offsets[i], sizes[i] of them. Not regular files, empty
 * ones and those over max_size bytes are not read. Returns how many files were handled: fewer than
 * count when the next one does not fit in the rest of the buffer (use the data, then call again with
 * the remaining paths), or AF_UNSUPPORTED without POSIX I/O (Python then opens every file itself).
 */
AF_EXPORT int64_t af_read_files(const char *const *paths, int64_t count, int64_t max_size, uint8_t *buffer,
                                int64_t capacity, int64_t *offsets, int64_t *sizes, int32_t *status)
{
#if AF_POSIX_IO
    int64_t used = 0;
    for (int64_t i = 0; i < count; i++) {
        struct stat info;
        int64_t start, size, got;
        int fd;
        offsets[i] = sizes[i] = 0;
        do {
            fd = open(paths[i], AF_OPEN_FLAGS);
        } while (fd < 0 && errno == EINTR);
        if (fd < 0) {
            status[i] = AF_READ_OPEN_FAILED;
            continue;
        }
        if (fstat(fd, &info) != 0) {
            close(fd);
            status[i] = AF_READ_FAILED;
            continue;
        }
        if (!S_ISREG(info.st_mode)) {
            close(fd);
            status[i] = AF_READ_NOT_REGULAR;
            continue;
        }
        size = (int64_t)info.st_size;
        start = (int64_t)((((uintptr_t)buffer + (uintptr_t)used + AF_FILE_ALIGN - 1)
                           & ~(uintptr_t)(AF_FILE_ALIGN - 1)) - (uintptr_t)buffer);
        if (size > 0 && size <= max_size && start + size > capacity && used > 0) {
            close(fd); /* the caller comes back with an empty buffer (where it is refused if it still does not fit) */
            return i;
        }
        if (size == 0 || size > max_size || start + size > capacity) {
            close(fd);
            status[i] = size == 0 ? AF_READ_EMPTY : AF_READ_TOO_BIG;
            continue;
        }
        got = read_whole(fd, buffer + start, size);
        close(fd);
        if (got < 0) {
            status[i] = AF_READ_FAILED;
            continue;
        }
        status[i] = AF_READ_OK;
        offsets[i] = start;
        sizes[i] = got;
        used = start + got;
    }
    return count;
#else
    (void)paths, (void)count, (void)max_size, (void)buffer, (void)capacity, (void)offsets, (void)sizes;
    (void)status;
    return AF_UNSUPPORTED;
#endif
}

/*
 * Offsets of the { } [ ] outside JSON strings at nesting level <= max_level, ascending (an open's level is the
 * depth before it, a close's the depth after it). A quote opens or closes a string unless an odd run of
 * backslashes precedes it, wherever it is: the same rule as the numpy scan (stepwise_json.bracket_positions),
 * so both agree on any bytes, valid JSON or not. Writes at most `capacity` offsets and returns how many there
 * are in all (call again with room for that many when it is more). With `depths`, depths[0] gets the least
 * depth after any bracket (kept or not; INT64_MAX without brackets) and depths[1] the depth after the last.
 */
static int64_t scan_brackets(const uint8_t *data, int64_t size, int64_t max_level, int64_t *offsets,
                             int64_t capacity, int64_t *depths)
{
    int64_t found = 0, backslashes = 0, i = 0, depth = 0, least = INT64_MAX;
    while (i < size) {
        uint8_t byte = data[i];
        if (byte == '"' && (backslashes & 1) == 0) {
            /* A string: jump from quote to quote (most of a graph's bytes are names and attr values). The
             * backslashes before a quote inside it cannot reach past the quote that opened the string. */
            int64_t at = i;
            int closed = 0;
            for (;;) {
                const uint8_t *quote = memchr(data + at + 1, '"', (size_t)(size - at - 1));
                int64_t run = 0;
                if (quote == NULL)
                    break; /* unterminated: no bracket after it is outside a string */
                at = quote - data;
                while (data[at - 1 - run] == '\\')
                    run++;
                if ((run & 1) == 0) {
                    closed = 1;
                    break;
                }
            }
            if (!closed)
                break;
            i = at + 1;
            backslashes = 0;
            continue;
        }
        if (byte == '\\') {
            backslashes++;
        } else {
            if (byte == '{' || byte == '[' || byte == '}' || byte == ']') {
                int opens = byte == '{' || byte == '[';
                int64_t level = opens ? depth : depth - 1;
                depth += opens ? 1 : -1;
                if (depth < least)
                    least = depth;
                if (level <= max_level) {
                    if (found < capacity)
                        offsets[found] = i;
                    found++;
                }
            }
            backslashes = 0;
        }
        i++;
    }
    if (depths != NULL) {
        depths[0] = least;
        depths[1] = depth;
    }
    return found;
}

/* Every bracket outside strings (the stepwise graph decoder's numpy-free scan), through ctypes without the GIL. */
AF_EXPORT int64_t af_json_brackets(const uint8_t *data, int64_t size, int64_t *offsets, int64_t capacity)
{
    return scan_brackets(data, size, INT64_MAX, offsets, capacity, NULL);
}

/*
 * Only the brackets at level <= max_level, and the depths that tell a balanced document (see scan_brackets):
 * a graph's op arrays and op objects without the millions of brackets inside the ops, which cost the stepwise
 * decoder 150 MB of index arrays and their page faults on a 130 MB attribute-heavy graph.
 */
AF_EXPORT int64_t af_json_brackets_upto(const uint8_t *data, int64_t size, int64_t max_level, int64_t *offsets,
                                        int64_t capacity, int64_t *depths)
{
    return scan_brackets(data, size, max_level, offsets, capacity, depths);
}

/*
 * The offset of the first of `count` needles found in data[0, size), or -1 (role detection: does a graph
 * file name fused ops?). memchr for each needle's first byte, then memcmp: several GB/s on graph text,
 * where bytes.find went at 0.5 GB/s, and called through ctypes the GIL is free meanwhile.
 */
AF_EXPORT int64_t af_find_any(const uint8_t *data, int64_t size, const uint8_t *const *needles,
                              const int64_t *lengths, int64_t count)
{
    int64_t best = -1;
    for (int64_t n = 0; n < count; n++) {
        const uint8_t *needle = needles[n];
        int64_t length = lengths[n], end = best < 0 ? size : best + length - 1;
        if (length <= 0 || length > end)
            continue;
        for (int64_t at = 0; at + length <= end;) {
            const uint8_t *first = memchr(data + at, needle[0], (size_t)(end - length + 1 - at));
            if (first == NULL)
                break;
            at = first - data;
            if (memcmp(first, needle, (size_t)length) == 0) {
                best = at; /* later needles only need to look before it */
                break;
            }
            at++;
        }
    }
    return best;
}

/*
 * Signatures (signature.py, issue 31): the counts, extremes and per-axis projections the cheap checks need,
 * in one sweep over the raw values instead of a dozen numpy passes over float64 copies. Every value is
 * converted to double (or float, af_sign_whole's float mode) exactly as numpy converts it and every
 * comparison is the numpy path's, operation by operation, so counts, first indices, maxima and projections
 * are bit-identical; only the sums differ in summation order (signature.py gates on them with an error
 * bound and leaves the close calls to numpy). Floats only (float16, bfloat16 stored as float32, float32,
 * float64): anything else returns AF_UNSUPPORTED and the numpy path runs.
 */

enum { SV_MAX_ABS, SV_MAX_REL, SV_DOUBLES };
enum { SV_NOT_SAME, SV_NOT_BOTH, SV_BAD, SV_REST, SV_NONFINITE, SV_NONFINITE_FIRST, SV_OVERFLOW,
       SV_OVERFLOW_FIRST, SV_UNDERFLOW, SV_UNDERFLOW_FIRST, SV_COUNTS };
enum { SP_C1, SP_C2, SP_F_MAX, SP_F_TINY, SP_F_MIN_SUB };
#define SV_MAX_AXES 32
/* The survey lists at most this many of a chunk's flagged elements (more: the flags are scanned). */
#define SV_LOOKED 256

static int is_float_code(int type) { return type == AF_FLOAT16 || type == AF_FLOAT32 || type == AF_FLOAT64; }

/* Bytes per element of a float type code. */
static size_t type_size(int type) { return type == AF_FLOAT16 ? 2 : type == AF_FLOAT32 ? 4 : 8; }

/* Whether two buffers hold the same bytes: their last 4 KB first (an error in a tail tile then costs no pass
 * over the equal rest before it), then the whole. */
static int same_bits(const void *a, const void *b, size_t bytes)
{
    const size_t end = bytes > 8192 ? 4096 : 0;
    if (end && memcmp((const char *)a + bytes - end, (const char *)b + bytes - end, end) != 0) return 0;
    return memcmp(a, b, bytes - end) == 0;
}

AF_INLINE void first_of(int64_t *count, int64_t *first, int64_t i)
{
    if ((*count)++ == 0) *first = i;
}

/* Floating-point exceptions are never looked at: without -ftrapping-math GCC if-converts the survey's selects
 * and vectorises its chunk loop (no value changes: the operations and their order stay the same). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("no-trapping-math")
#endif

/* Lanes of the survey's reductions (as stats_chunk: independent accumulators, no reassociation). */
typedef struct {
    double max_abs[LANES], max_rel[LANES];
    double not_same[LANES], not_both[LANES], bad[LANES];
    /* The extremes of x and y (NaN never replaces a lane's value): the permutation gate's, exact. */
    double x_max[LANES], x_min[LANES], y_max[LANES], y_min[LANES];
} af_survey_lanes;

/* The survey's vector part over one chunk of doubles: reductions in lanes, and per element what the scalar
 * part must do (attention[k]: 2 when it must look, the element not both finite, |y| above the fused max or a
 * bad fused zero; 1 when the element is a plain rest one, bad with both finite, |y| within the fused max and a
 * fused value not zero, which no check 1-3 can explain; 0 when it is neither; the vector sweeps also give 3, an
 * underflow: a bad fused zero, both finite, |y| in the fused subnormal range, which the scalar part only counts). */
AF_INLINE int survey_chunk(const double *xs, const double *ys, int64_t m, const double *params,
                            af_survey_lanes *v, double *attention)
{
    const double c1 = params[SP_C1], c2 = params[SP_C2], f_max = params[SP_F_MAX];
    /* Local copies of the lanes: kept in registers, not reloaded through v each element. */
    af_survey_lanes w = *v;
    int64_t i = 0;
    int k;
/* Branch-free (compares give masks, the division runs for every element) so the compiler vectorises it. */
#define SV_BODY(K, I) \
    do { \
        const double x = xs[I], y = ys[I], ax = fabs(x), ay = fabs(y), diff = fabs(x - y); \
        const int fx = ax <= DBL_MAX, fy = ay <= DBL_MAX, both = fx & fy; \
        const double mx = fx ? ax : 0.0, my = fy ? ay : 0.0, top = mx > my ? mx : my; \
        const double tol = c1 * top + c2, quotient = diff / (ay > 0 ? ay : 1.0); \
        const int same = (x == y) | ((x != x) & (y != y)); \
        const int bad = (both & (diff > tol)) | ((!both) & !((!fx) & (!fy) & same)); \
        const double d = both ? diff : 0.0, r = (both & (ay > 0)) ? quotient : 0.0; \
        w.max_abs[K] = d > w.max_abs[K] ? d : w.max_abs[K]; \
        w.max_rel[K] = r > w.max_rel[K] ? r : w.max_rel[K]; \
        w.not_same[K] += same ? 0.0 : 1.0; \
        w.not_both[K] += both ? 0.0 : 1.0; \
        w.bad[K] += bad ? 1.0 : 0.0; \
        w.x_max[K] = x > w.x_max[K] ? x : w.x_max[K]; \
        w.x_min[K] = x < w.x_min[K] ? x : w.x_min[K]; \
        w.y_max[K] = y > w.y_max[K] ? y : w.y_max[K]; \
        w.y_min[K] = y < w.y_min[K] ? y : w.y_min[K]; \
        const int special_ = (!both) | (ay > f_max) | (bad & (x == 0)); \
        attention[I] = special_ ? 2.0 : bad ? 1.0 : 0.0; \
    } while (0)
    for (; i + LANES <= m; i += LANES)
        for (k = 0; k < LANES; k++) SV_BODY(k, i + k);
    for (; i < m; i++) SV_BODY(0, i);
#undef SV_BODY
    *v = w;
    return 3; /* the caller looks at every attention flag (as if both kinds were there) */
}

/* A float16, float32 or float64 element as double (exact). */
AF_INLINE double value_at(const void *data, int type, int64_t i)
{
    if (type == AF_FLOAT64) return ((const double *)data)[i];
    if (type == AF_FLOAT32) return (double)((const float *)data)[i];
    return (double)f16_table[((const uint16_t *)data)[i]];
}

static int survey_chunk_baseline(const double *xs, const double *ys, int64_t m, const double *params,
                                 af_survey_lanes *v, double *attention)
{
    return survey_chunk(xs, ys, m, params, v, attention);
}

#if AF_X86_DISPATCH
/* The elements i + b for each set bit b of `bits` (8 bits at most) appended to looked[0..listed) (room for
 * SV_LOOKED + 8: eight are stored whatever the count); -1 once more than SV_LOOKED (the chunk is dense: its
 * attention flags are scanned instead), or when it already was. Branch-free on the bits (left-packed through
 * packed_bits): a sparse error's flags are random, and a loop over them mispredicted at every vector. */
__attribute__((target("avx2,f16c"))) static inline int list_looked(int32_t *looked, int listed, int64_t i, int bits)
{
    const int count = __builtin_popcount((unsigned)bits);
    if (listed < 0 || listed + count > SV_LOOKED) return -1;
    _mm256_storeu_si256((__m256i *)(looked + listed),
                        _mm256_add_epi32(_mm256_set1_epi32((int32_t)i),
                                         _mm256_loadu_si256((const __m256i *)packed_bits[bits])));
    return listed + count;
}

/* Four elements from flat index i as doubles (exact; no buffer: the survey converts in registers). */
__attribute__((target("avx2,f16c"), always_inline)) static inline __m256d load4_double(const void *data, int type,
                                                                                      int64_t i)
{
    if (type == AF_FLOAT64) return _mm256_loadu_pd((const double *)data + i);
    if (type == AF_FLOAT32) return _mm256_cvtps_pd(_mm_loadu_ps((const float *)data + i));
    return _mm256_cvtps_pd(_mm_cvtph_ps(_mm_loadl_epi64((const __m128i *)((const uint16_t *)data + i))));
}

/* survey_chunk in AVX2 intrinsics on elements [offset, offset + m) of the raw pair (float16, float32 or float64
 * each), four a step: the same operations in the same order per element (max_pd(a, b) is a > b ? a : b,
 * min_pd(a, b) a < b ? a : b; no FMA; an all-finite vector skips the NaN/Inf tests, whose masks are then
 * known), so every maximum, extreme and count is the scalar code's; the counts come from the masks' bits.
 * looked: the chunk's indices whose attention is not 0, ascending, while there are at most SV_LOOKED of them
 * (then *looked_count is their count, else -1: the caller scans the attention flags). */
__attribute__((target("avx2,f16c"), always_inline)) static inline int survey_chunk_body(
    const void *x_data, int x_type, const void *y_data, int y_type, int64_t offset, int64_t m, const double *params,
    af_survey_lanes *v, double *attention, int32_t *looked, int64_t *looked_count, int maxima)
{
    int64_t listed = 0;
    const __m256d c1 = _mm256_set1_pd(params[SP_C1]), c2 = _mm256_set1_pd(params[SP_C2]);
    const __m256d f_max = _mm256_set1_pd(params[SP_F_MAX]), top_finite = _mm256_set1_pd(DBL_MAX);
    const __m256d zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1.0), two = _mm256_set1_pd(2.0);
    const __m256d three = _mm256_set1_pd(3.0);
    const __m256d f_tiny = _mm256_set1_pd(params[SP_F_TINY]), f_min_sub = _mm256_set1_pd(params[SP_F_MIN_SUB]);
    const __m256d magnitude = _mm256_castsi256_pd(_mm256_set1_epi64x(INT64_C(0x7fffffffffffffff)));
    const __m256d all = _mm256_castsi256_pd(_mm256_set1_epi64x(-1));
    const __m256d below = _mm256_set1_pd(1 - 0x1p-50), tiny = _mm256_set1_pd(0x1p-1000);
    __m256d max_abs = zero, max_rel = zero;
    /* The counts and the flags in integers from the masks' bits (fewer vector registers live: no spills). */
    int64_t not_same = 0, not_both = 0, bad_count = 0;
    int any = 0, any_special = 0;
    __m256d x_max = _mm256_loadu_pd(v->x_max), x_min = _mm256_loadu_pd(v->x_min);
    __m256d y_max = _mm256_loadu_pd(v->y_max), y_min = _mm256_loadu_pd(v->y_min);
    double lanes[4];
    int64_t i = 0;
    for (; i + 4 <= m; i += 4) {
        const __m256d x = load4_double(x_data, x_type, offset + i), y = load4_double(y_data, y_type, offset + i);
        const __m256d ax = _mm256_and_pd(x, magnitude), ay = _mm256_and_pd(y, magnitude);
        const __m256d diff = _mm256_and_pd(_mm256_sub_pd(x, y), magnitude);
        const __m256d fx = _mm256_cmp_pd(ax, top_finite, _CMP_LE_OQ), fy = _mm256_cmp_pd(ay, top_finite, _CMP_LE_OQ);
        const __m256d both = _mm256_and_pd(fx, fy);
        const __m256d mx = _mm256_and_pd(ax, fx), my = _mm256_and_pd(ay, fy);
        const __m256d top = _mm256_max_pd(mx, my);
        const __m256d tol = _mm256_add_pd(_mm256_mul_pd(c1, top), c2);
        const __m256d positive = _mm256_cmp_pd(ay, zero, _CMP_GT_OQ);
        const int both_bits = _mm256_movemask_pd(both);
        __m256d same, bad;
        if (both_bits == 15) { /* every element finite (the common case): no NaN pair, no special value alike */
            same = _mm256_cmp_pd(x, y, _CMP_EQ_OQ);
            bad = _mm256_cmp_pd(diff, tol, _CMP_GT_OQ);
        } else {
            const __m256d nan_pair = _mm256_and_pd(_mm256_cmp_pd(x, x, _CMP_UNORD_Q),
                                                   _mm256_cmp_pd(y, y, _CMP_UNORD_Q));
            same = _mm256_or_pd(_mm256_cmp_pd(x, y, _CMP_EQ_OQ), nan_pair);
            bad = _mm256_or_pd(_mm256_and_pd(both, _mm256_cmp_pd(diff, tol, _CMP_GT_OQ)),
                               _mm256_andnot_pd(both, _mm256_xor_pd(_mm256_andnot_pd(fx, _mm256_andnot_pd(fy, same)),
                                                                    all)));
        }
        const __m256d d = _mm256_and_pd(diff, both), rated = _mm256_and_pd(both, positive);
        /* |x - y| / |y| only where it may beat the lane's best b: fl(diff / ay) > b implies diff >= b ay, so
         * diff >= fl(b ay) (1 - 2**-50) (or b ay is too small to tell): the division, costly, stays rare. */
        if (maxima) {
            const __m256d bound = _mm256_mul_pd(_mm256_mul_pd(max_rel, ay), below);
            const __m256d maybe = _mm256_and_pd(rated, _mm256_or_pd(_mm256_cmp_pd(diff, bound, _CMP_GE_OQ),
                                                                    _mm256_cmp_pd(bound, tiny, _CMP_LT_OQ)));
            if (_mm256_movemask_pd(maybe)) {
                const __m256d quotient = _mm256_div_pd(diff, _mm256_blendv_pd(one, ay, positive));
                max_rel = _mm256_max_pd(_mm256_and_pd(quotient, rated), max_rel);
            }
        }
        /* special: not both finite or |y| above the fused max (looked at in double); a bad fused zero below is an
         * underflow when |y| lies in the fused subnormal range (flag 3: only counted), else a plain rest one. */
        const __m256d special = _mm256_or_pd(_mm256_xor_pd(both, all), _mm256_cmp_pd(ay, f_max, _CMP_GT_OQ));
        const __m256d under = _mm256_and_pd(
            _mm256_andnot_pd(special, _mm256_and_pd(bad, _mm256_cmp_pd(x, zero, _CMP_EQ_OQ))),
            _mm256_and_pd(_mm256_cmp_pd(ay, f_min_sub, _CMP_GE_OQ), _mm256_cmp_pd(ay, f_tiny, _CMP_LT_OQ)));
        const int special_bits = _mm256_movemask_pd(_mm256_or_pd(special, under)), bad_bits = _mm256_movemask_pd(bad);
        listed = list_looked(looked, listed, i, special_bits | bad_bits); /* a few to look at (dense: abandoned) */
        if (maxima) max_abs = _mm256_max_pd(d, max_abs);
        /* max_pd(a, b) is a > b ? a : b, min_pd(a, b) a < b ? a : b: survey_chunk's selects. */
        x_max = _mm256_max_pd(x, x_max);
        x_min = _mm256_min_pd(x, x_min);
        y_max = _mm256_max_pd(y, y_max);
        y_min = _mm256_min_pd(y, y_min);
        not_same += 4 - __builtin_popcount((unsigned)_mm256_movemask_pd(same));
        not_both += 4 - __builtin_popcount((unsigned)both_bits);
        bad_count += __builtin_popcount((unsigned)bad_bits);
        _mm256_storeu_pd(attention + i,
                         _mm256_blendv_pd(_mm256_blendv_pd(_mm256_and_pd(bad, one), three, under), two, special));
        any |= special_bits | bad_bits;
        any_special |= special_bits;
    }
#define SV_FOLD(VECTOR, FIELD, COMBINE) \
    do { \
        _mm256_storeu_pd(lanes, VECTOR); \
        for (int k = 0; k < 4; k++) COMBINE(v->FIELD[k], lanes[k]); \
    } while (0)
#define SV_MAX(ACC, VALUE) ACC = (VALUE) > (ACC) ? (VALUE) : (ACC)
#define SV_ADD(ACC, VALUE) ACC += (VALUE)
    SV_FOLD(max_abs, max_abs, SV_MAX);
    SV_FOLD(max_rel, max_rel, SV_MAX);
#undef SV_FOLD
    /* Whole numbers below 2**53: exact in lane 0 whatever the order. */
    v->not_same[0] += (double)not_same;
    v->not_both[0] += (double)not_both;
    v->bad[0] += (double)bad_count;
    /* The extremes' first four lanes are the vectors themselves (loaded from them above). */
    _mm256_storeu_pd(v->x_max, x_max);
    _mm256_storeu_pd(v->x_min, x_min);
    _mm256_storeu_pd(v->y_max, y_max);
    _mm256_storeu_pd(v->y_min, y_min);
#undef SV_MAX
#undef SV_ADD
    if (i < m) { /* the last one to three elements, as doubles */
        double xs[4], ys[4];
        for (int k = 0; i + k < m; k++) {
            xs[k] = value_at(x_data, x_type, offset + i + k);
            ys[k] = value_at(y_data, y_type, offset + i + k);
        }
        survey_chunk(xs, ys, m - i, params, v, attention + i);
        for (; i < m && listed >= 0; i++)
            if (attention[i] != 0) listed = listed < SV_LOOKED ? (looked[listed] = (int32_t)i, listed + 1) : -1;
        *looked_count = listed;
        return 3; /* as survey_chunk: the caller looks */
    }
    *looked_count = listed;
    /* Bit 0: a flag is set, bit 1: an element to look at is there (0: the scalar part has nothing to do). */
    return (any != 0 ? 1 : 0) | (any_special != 0 ? 2 : 0);
}

/* survey_chunk_body with the usual pairs' types known to the compiler: each load unswitched (no type tests per
 * vector; the same operations, so the same outputs). maxima 0: the lanes' maxima of the differences and quotients
 * left as they are (survey_run's lazy sweep once the answer cannot be rounding). */
__attribute__((target("avx2,f16c"))) static int survey_chunk_avx2(const void *x_data, int x_type, const void *y_data,
                                                                   int y_type, int64_t offset, int64_t m,
                                                                   const double *params, af_survey_lanes *v,
                                                                   double *attention, int32_t *looked,
                                                                   int64_t *looked_count, int maxima)
{
    if (x_type == AF_FLOAT32 && y_type == AF_FLOAT64)
        return maxima ? survey_chunk_body(x_data, AF_FLOAT32, y_data, AF_FLOAT64, offset, m, params, v, attention,
                                          looked, looked_count, 1)
                      : survey_chunk_body(x_data, AF_FLOAT32, y_data, AF_FLOAT64, offset, m, params, v, attention,
                                          looked, looked_count, 0);
    if (x_type == AF_FLOAT64 && y_type == AF_FLOAT64)
        return survey_chunk_body(x_data, AF_FLOAT64, y_data, AF_FLOAT64, offset, m, params, v, attention, looked,
                                 looked_count, maxima);
    return survey_chunk_body(x_data, x_type, y_data, y_type, offset, m, params, v, attention, looked, looked_count,
                             maxima);
}

/* Eight float16 or float32 elements from flat index i as floats (exact). */
__attribute__((target("avx2,f16c"), always_inline)) static inline __m256 load8_float(const void *data, int type,
                                                                                    int64_t i)
{
    if (type == AF_FLOAT32) return _mm256_loadu_ps((const float *)data + i);
    return _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)((const uint16_t *)data + i)));
}

/* 0: the survey's sweep stays in double (af_sign_survey_f32: the tests compare the two). */
static int survey_f32_on = 1;

AF_EXPORT void af_sign_survey_f32(int on) { survey_f32_on = on != 0; }

/* True when survey_chunk_f32 may sweep this pair: both sides float16 or float32 (exact as floats), c1 0 or a
 * normal float up to 1/2 (a tolerance never overflows in float), c2 up to 2**100 and a normal float or exact
 * in float (float32's 4 smallest subnormals), and the fused dtype's largest value exact in float. */
static int survey_f32_fits(int x_type, int y_type, const double *params)
{
    const double c1 = params[SP_C1], c2 = params[SP_C2], f_max = params[SP_F_MAX];
    return (x_type == AF_FLOAT16 || x_type == AF_FLOAT32) && (y_type == AF_FLOAT16 || y_type == AF_FLOAT32)
           && (c1 == 0 || (c1 >= 0x1p-100 && c1 <= 0.5)) && c2 >= 0 && c2 <= 0x1p100
           && (c2 >= 0x1p-100 || (double)(float)c2 == c2)
           && f_max <= FLT_MAX && (double)(float)f_max == f_max;
}

/* The exact (double) maxima of |x - y| and |x - y| / |y| over the both-finite elements of [offset, offset + m)
 * (m a multiple of 8) that may hold them, from survey_chunk_f32's floats of each element (d_seen: |x - y| of
 * both-finite elements, else 0; q_seen: |x - y| / |y| where both are finite and |y| > 0, else 0): differences
 * whose float is d_top > 0 (float rounding is monotonic, so the largest difference rounds to the largest
 * float), quotients whose float is at least q_floor > 0; in double, survey_chunk's operations, four lanes at a
 * time. Returns how many elements it worked out at a cost (the differences, and the quotients that needed a
 * division: a quotient its float gives exactly costs a multiplication). */
__attribute__((target("avx2,f16c"))) static int64_t survey_f32_maxima(const void *x_data, int x_type,
                                                                       const void *y_data, int y_type,
                                                                       int64_t offset, int64_t m,
                                                                       const float *d_seen, const float *q_seen,
                                                                       float d_top, float q_floor, double *max_abs,
                                                                       double *max_rel)
{
    const __m256 d_top8 = _mm256_set1_ps(d_top), q_floor8 = _mm256_set1_ps(q_floor);
    const __m256d magnitude_d = _mm256_castsi256_pd(_mm256_set1_epi64x(INT64_C(0x7fffffffffffffff)));
    const __m256d one_d = _mm256_set1_pd(1.0);
    const __m256i lane_bits = _mm256_setr_epi64x(1, 2, 4, 8);
    __m256d abs_top = _mm256_setzero_pd(), rel_top = _mm256_setzero_pd();
    double lanes[4], single_abs = 0, single_rel = 0; /* the maxima of the vectors done one by one */
    int64_t worked = 0;
    for (int64_t i = 0; i < m; i += 8) {
        const int d_bits = _mm256_movemask_ps(_mm256_cmp_ps(_mm256_loadu_ps(d_seen + i), d_top8, _CMP_EQ_OQ));
        const int q_bits = _mm256_movemask_ps(_mm256_cmp_ps(_mm256_loadu_ps(q_seen + i), q_floor8, _CMP_GE_OQ));
        if ((d_bits | q_bits) == 0) continue;
        if (__builtin_popcount((unsigned)(d_bits | q_bits)) < 4) {
            /* A few (a scale's rare ties, an underflow's flushed values): one by one, the same operations. */
            for (int bits = d_bits | q_bits; bits; bits &= bits - 1) {
                const int k = __builtin_ctz((unsigned)bits);
                const double xd = value_at(x_data, x_type, offset + i + k);
                const double yd = value_at(y_data, y_type, offset + i + k);
                const double d = fabs(xd - yd), ay = fabs(yd), q = q_seen[i + k];
                if ((d_bits >> k) & 1) {
                    single_abs = d > single_abs ? d : single_abs;
                    worked++;
                }
                if ((q_bits >> k) & 1) {
                    const double quotient = d == q * ay ? q : d / ay;
                    worked += d != q * ay;
                    single_rel = quotient > single_rel ? quotient : single_rel;
                }
            }
            continue;
        }
        const __m256 x = load8_float(x_data, x_type, offset + i), y = load8_float(y_data, y_type, offset + i);
        const __m256 q_float = _mm256_loadu_ps(q_seen + i);
        worked += __builtin_popcount((unsigned)d_bits);
        for (int half = 0; half < 2; half++) {
            const __m256d xd = _mm256_cvtps_pd(half ? _mm256_extractf128_ps(x, 1) : _mm256_castps256_ps128(x));
            const __m256d yd = _mm256_cvtps_pd(half ? _mm256_extractf128_ps(y, 1) : _mm256_castps256_ps128(y));
            const __m256d qd = _mm256_cvtps_pd(half ? _mm256_extractf128_ps(q_float, 1)
                                                    : _mm256_castps256_ps128(q_float));
            const __m256i d_lanes = _mm256_and_si256(_mm256_set1_epi64x(d_bits >> (4 * half)), lane_bits);
            const __m256i q_lanes = _mm256_and_si256(_mm256_set1_epi64x(q_bits >> (4 * half)), lane_bits);
            const __m256d d_mask = _mm256_castsi256_pd(_mm256_cmpeq_epi64(d_lanes, lane_bits));
            const __m256d q_mask = _mm256_castsi256_pd(_mm256_cmpeq_epi64(q_lanes, lane_bits));
            const __m256d d = _mm256_and_pd(_mm256_sub_pd(xd, yd), magnitude_d);
            const __m256d ayd = _mm256_and_pd(yd, magnitude_d);
            /* Where d is exactly q ay (q the float quotient; the product of two floats is exact in double), d / ay
             * is q exactly, so the double division would give q: a scale by a power of two or a flushed value
             * (all its quotients alike) needs no division. The others divide. */
            const __m256d exact = _mm256_cmp_pd(d, _mm256_mul_pd(qd, ayd), _CMP_EQ_OQ);
            const __m256d divide = _mm256_andnot_pd(exact, q_mask);
            const int divide_bits = _mm256_movemask_pd(divide);
            __m256d quotient = qd;
            abs_top = _mm256_max_pd(_mm256_and_pd(d, d_mask), abs_top);
            if (divide_bits) {
                quotient = _mm256_blendv_pd(qd, _mm256_div_pd(d, _mm256_blendv_pd(one_d, ayd, divide)), divide);
                worked += __builtin_popcount((unsigned)divide_bits);
            }
            rel_top = _mm256_max_pd(_mm256_and_pd(quotient, q_mask), rel_top);
        }
    }
    _mm256_storeu_pd(lanes, abs_top);
    for (int k = 0; k < 4; k++) *max_abs = lanes[k] > *max_abs ? lanes[k] : *max_abs;
    _mm256_storeu_pd(lanes, rel_top);
    for (int k = 0; k < 4; k++) *max_rel = lanes[k] > *max_rel ? lanes[k] : *max_rel;
    *max_abs = single_abs > *max_abs ? single_abs : *max_abs;
    *max_rel = single_rel > *max_rel ? single_rel : *max_rel;
    return worked;
}

/* survey_chunk_avx2 for a float16/float32 pair (survey_f32_fits) in float vectors, eight elements a step, with
 * the same outputs bit for bit. Float holds every value, its extremes and its finiteness exactly; only
 * |x - y| and tol are rounded (relative error below 2**-22 once c1 and c2 are normal floats; a float
 * difference in the subnormal range is exact), so an element whose difference lies within tol (1 +- 2**-20)
 * +- 2**-100 is decided again in double exactly as survey_chunk does, and the maxima of the differences and
 * quotients from the few elements whose floats may beat the maxima so far, worked out in double
 * (survey_f32_exact). Returns -1 with v untouched (the caller then runs survey_chunk_avx2) when float cannot
 * tell: a difference or quotient overflowing float, quotients too small for float to rank, an extreme at
 * zero (which of +0 and -0 the lanes keep depends on the order). *dense: set to 1 when the rescan works out more
 * than one element in 32 (the double sweep is then the faster). maxima 0: no rescan, the double lanes' maxima
 * left as they are (survey_run's lazy sweep). */
__attribute__((target("avx2,f16c"), always_inline)) static inline int survey_chunk_f32_body(
    const void *x_data, int x_type, const void *y_data, int y_type, int64_t offset, int64_t m, const double *params,
    af_survey_lanes *v, double *attention, int32_t *looked, int64_t *looked_count, int maxima, int *dense,
    uint8_t *flag_bits)
{
    const double c1_d = params[SP_C1], c2_d = params[SP_C2];
    const __m256 c1 = _mm256_set1_ps((float)c1_d), c2 = _mm256_set1_ps((float)c2_d);
    const __m256 f_max = _mm256_set1_ps((float)params[SP_F_MAX]), top_finite = _mm256_set1_ps(FLT_MAX);
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f);
    const __m256 magnitude = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    const __m256 all = _mm256_castsi256_ps(_mm256_set1_epi32(-1));
    const __m256 relative = _mm256_set1_ps(0x1p-20f), absolute = _mm256_set1_ps(0x1p-100f);
    /* The fused subnormal range's bounds as floats, and whether they are exact (all ones) or not (zero). */
    const double tiny_d = params[SP_F_TINY], min_sub_d = params[SP_F_MIN_SUB];
    const __m256 f_tiny = _mm256_set1_ps((float)tiny_d), f_min_sub = _mm256_set1_ps((float)min_sub_d);
    const __m256 under_ok = (double)(float)tiny_d == tiny_d && (double)(float)min_sub_d == min_sub_d ? all : zero;
    const __m256i lane_bits = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    __m256 d_max = zero, q_max = zero;
    float d_seen[CHUNK], q_seen[CHUNK]; /* each element's float |x - y| and quotient, for the maxima's rescan */
    __m256 x_max = _mm256_set1_ps(-INFINITY), x_min = _mm256_set1_ps(INFINITY);
    __m256 y_max = _mm256_set1_ps(-INFINITY), y_min = _mm256_set1_ps(INFINITY);
    int64_t not_same = 0, not_both = 0, bad_count = 0, listed = 0;
    int any = 0, any_special = 0;
    const int64_t whole = m & ~(int64_t)7;
    for (int64_t i = 0; i < whole; i += 8) {
        const __m256 x = load8_float(x_data, x_type, offset + i), y = load8_float(y_data, y_type, offset + i);
        const __m256 ax = _mm256_and_ps(x, magnitude), ay = _mm256_and_ps(y, magnitude);
        const __m256 diff = _mm256_and_ps(_mm256_sub_ps(x, y), magnitude);
        const __m256 fx = _mm256_cmp_ps(ax, top_finite, _CMP_LE_OQ), fy = _mm256_cmp_ps(ay, top_finite, _CMP_LE_OQ);
        const __m256 both = _mm256_and_ps(fx, fy);
        const __m256 top = _mm256_max_ps(_mm256_and_ps(ax, fx), _mm256_and_ps(ay, fy));
        const __m256 tol = _mm256_add_ps(_mm256_mul_ps(c1, top), c2);
        const __m256 margin = _mm256_add_ps(_mm256_mul_ps(tol, relative), absolute);
        const __m256 positive = _mm256_cmp_ps(ay, zero, _CMP_GT_OQ);
        const int both_bits = _mm256_movemask_ps(both);
        __m256 same, bad;
        /* Beyond tol + margin: bad; within twice the margin of tol: decided in double below. */
        bad = _mm256_and_ps(both, _mm256_cmp_ps(diff, _mm256_add_ps(tol, margin), _CMP_GT_OQ));
        /* Twice the margin: an element left out is beyond tol + margin or below tol - margin whatever the
         * rounding of these float sums. */
        const int unsure_bits = _mm256_movemask_ps(_mm256_and_ps(
            both, _mm256_cmp_ps(_mm256_and_ps(_mm256_sub_ps(diff, tol), magnitude), _mm256_add_ps(margin, margin),
                                _CMP_LE_OQ)));
        if (both_bits == 255) {
            same = _mm256_cmp_ps(x, y, _CMP_EQ_OQ);
        } else {
            const __m256 nan_pair = _mm256_and_ps(_mm256_cmp_ps(x, x, _CMP_UNORD_Q), _mm256_cmp_ps(y, y, _CMP_UNORD_Q));
            same = _mm256_or_ps(_mm256_cmp_ps(x, y, _CMP_EQ_OQ), nan_pair);
            bad = _mm256_or_ps(bad, _mm256_andnot_ps(both, _mm256_xor_ps(_mm256_andnot_ps(fx, _mm256_andnot_ps(fy, same)),
                                                                         all)));
        }
        if (unsure_bits) { /* survey_chunk's test in double for these few elements */
            float xs[8], ys[8];
            int bad_bits = _mm256_movemask_ps(bad) & ~unsure_bits;
            _mm256_storeu_ps(xs, x);
            _mm256_storeu_ps(ys, y);
            for (int bits = unsure_bits; bits; bits &= bits - 1) {
                const int k = __builtin_ctz((unsigned)bits);
                const double xd = xs[k], yd = ys[k], ax_d = fabs(xd), ay_d = fabs(yd);
                const double tol_d = c1_d * (ax_d > ay_d ? ax_d : ay_d) + c2_d;
                if (fabs(xd - yd) > tol_d) bad_bits |= 1 << k;
            }
            bad = _mm256_castsi256_ps(_mm256_cmpeq_epi32(
                _mm256_and_si256(_mm256_set1_epi32(bad_bits), lane_bits), lane_bits));
        }
        const __m256 d_both = _mm256_and_ps(diff, both);
        d_max = _mm256_max_ps(d_both, d_max);
        if (maxima) { /* the quotients and the rescan's floats feed only the maxima */
            const __m256 rated = _mm256_and_ps(both, positive);
            const __m256 quotient = _mm256_and_ps(_mm256_div_ps(diff, _mm256_blendv_ps(one, ay, positive)), rated);
            q_max = _mm256_max_ps(quotient, q_max);
            _mm256_storeu_ps(d_seen + i, d_both);
            _mm256_storeu_ps(q_seen + i, quotient);
        }
        /* As survey_chunk_avx2: a bad fused zero with |y| in the fused subnormal range is an underflow (flag 3)
         * when float holds that range's bounds exactly, else it is looked at in double. */
        const __m256 hard = _mm256_or_ps(_mm256_xor_ps(both, all), _mm256_cmp_ps(ay, f_max, _CMP_GT_OQ));
        const __m256 zero_bad = _mm256_andnot_ps(hard, _mm256_and_ps(bad, _mm256_cmp_ps(x, zero, _CMP_EQ_OQ)));
        const __m256 special = _mm256_or_ps(hard, _mm256_andnot_ps(under_ok, zero_bad));
        const __m256 under = _mm256_and_ps(_mm256_and_ps(zero_bad, under_ok),
                                           _mm256_and_ps(_mm256_cmp_ps(ay, f_min_sub, _CMP_GE_OQ),
                                                         _mm256_cmp_ps(ay, f_tiny, _CMP_LT_OQ)));
        const int special_bits = _mm256_movemask_ps(_mm256_or_ps(special, under)), bad_bits = _mm256_movemask_ps(bad);
        listed = list_looked(looked, listed, i, special_bits | bad_bits); /* a few to look at (dense: abandoned) */
        flag_bits[i >> 3] = (uint8_t)(special_bits | bad_bits); /* the flags a bit each (mark_columns_bits) */
        x_max = _mm256_max_ps(x, x_max);
        x_min = _mm256_min_ps(x, x_min);
        y_max = _mm256_max_ps(y, y_max);
        y_min = _mm256_min_ps(y, y_min);
        not_same += 8 - __builtin_popcount((unsigned)_mm256_movemask_ps(same));
        not_both += 8 - __builtin_popcount((unsigned)both_bits);
        bad_count += __builtin_popcount((unsigned)bad_bits);
        {
            const __m256 flags = _mm256_blendv_ps(
                _mm256_blendv_ps(_mm256_and_ps(bad, one), _mm256_set1_ps(3.0f), under), _mm256_set1_ps(2.0f), special);
            _mm256_storeu_pd(attention + i, _mm256_cvtps_pd(_mm256_castps256_ps128(flags)));
            _mm256_storeu_pd(attention + i + 4, _mm256_cvtps_pd(_mm256_extractf128_ps(flags, 1)));
        }
        any |= special_bits | bad_bits;
        any_special |= special_bits;
    }
    {
        float lanes[8], d_top = 0, q_top = 0, e[4] = {-INFINITY, INFINITY, -INFINITY, INFINITY};
        int k;
        _mm256_storeu_ps(lanes, d_max);
        for (k = 0; k < 8; k++) d_top = lanes[k] > d_top ? lanes[k] : d_top;
        _mm256_storeu_ps(lanes, q_max);
        for (k = 0; k < 8; k++) q_top = lanes[k] > q_top ? lanes[k] : q_top;
#define SV_F32_FOLD(VECTOR, INDEX, BEATS) \
    do { \
        _mm256_storeu_ps(lanes, VECTOR); \
        for (k = 0; k < 8; k++) e[INDEX] = lanes[k] BEATS e[INDEX] ? lanes[k] : e[INDEX]; \
    } while (0)
        SV_F32_FOLD(x_max, 0, >);
        SV_F32_FOLD(x_min, 1, <);
        SV_F32_FOLD(y_max, 2, >);
        SV_F32_FOLD(y_min, 3, <);
#undef SV_F32_FOLD
        /* Without the maxima no quotient was worked out (q_top 0): only the tests that do not read it. */
        if (isinf(d_top) || (maxima && (isinf(q_top) || (d_top > 0 && q_top < 0x1p-100f))) || e[0] == 0
            || e[1] == 0 || e[2] == 0 || e[3] == 0)
            return -1;
        double max_abs = 0, max_rel = 0;
        for (k = 0; k < LANES; k++) {
            max_abs = v->max_abs[k] > max_abs ? v->max_abs[k] : max_abs;
            max_rel = v->max_rel[k] > max_rel ? v->max_rel[k] : max_rel;
        }
        /* Only when the chunk may hold a larger one than the chunks before (the floats within 2**-22; d_top 0:
         * every difference and quotient is 0). Lane 0 of the double lanes takes the maxima. */
        if (maxima && d_top > 0
            && ((double)d_top * (1 + 0x1p-20) >= max_abs || (double)q_top * (1 + 0x1p-20) >= max_rel)) {
            const int64_t worked = survey_f32_maxima(x_data, x_type, y_data, y_type, offset, whole, d_seen, q_seen,
                                                     d_top, q_top * (1 - 0x1p-20f), &v->max_abs[0],
                                                     &v->max_rel[0]);
            /* Dense (many quotients alike but not exact in float): the double sweep is faster from here on. */
            if (worked > whole / 32) *dense = 1;
        }
        /* Lane 0 of the double lanes takes the chunk's extremes (the same selects: values, never a NaN). */
        v->x_max[0] = e[0] > v->x_max[0] ? e[0] : v->x_max[0];
        v->x_min[0] = e[1] < v->x_min[0] ? e[1] : v->x_min[0];
        v->y_max[0] = e[2] > v->y_max[0] ? e[2] : v->y_max[0];
        v->y_min[0] = e[3] < v->y_min[0] ? e[3] : v->y_min[0];
    }
    v->not_same[0] += (double)not_same;
    v->not_both[0] += (double)not_both;
    v->bad[0] += (double)bad_count;
    if (whole < m) { /* the last one to seven elements, as doubles */
        double xs[8], ys[8];
        int64_t i = whole;
        for (int k = 0; i + k < m; k++) {
            xs[k] = value_at(x_data, x_type, offset + i + k);
            ys[k] = value_at(y_data, y_type, offset + i + k);
        }
        survey_chunk(xs, ys, m - i, params, v, attention + i);
        for (; i < m && listed >= 0; i++)
            if (attention[i] != 0) listed = listed < SV_LOOKED ? (looked[listed] = (int32_t)i, listed + 1) : -1;
        *looked_count = listed;
        return 3;
    }
    *looked_count = listed;
    return (any != 0 ? 1 : 0) | (any_special != 0 ? 2 : 0);
}

/* survey_chunk_f32_body with `maxima` known to the compiler: without the maxima (the lazy sweep's usual case, once
 * the answer cannot be rounding) the loop holds no division and stores no floats for the rescan. */
__attribute__((target("avx2,f16c"))) static int survey_chunk_f32(const void *x_data, int x_type, const void *y_data,
                                                                 int y_type, int64_t offset, int64_t m,
                                                                 const double *params, af_survey_lanes *v,
                                                                 double *attention, int32_t *looked,
                                                                 int64_t *looked_count, int maxima, int *dense,
                                                                 uint8_t *flag_bits)
{
    if (maxima)
        return survey_chunk_f32_body(x_data, x_type, y_data, y_type, offset, m, params, v, attention, looked,
                                     looked_count, 1, dense, flag_bits);
    return survey_chunk_f32_body(x_data, x_type, y_data, y_type, offset, m, params, v, attention, looked,
                                 looked_count, 0, dense, flag_bits);
}

/* The permutation gate's sums over a float16/float32 pair (every element finite: the survey says so): out[0] the
 * sum of x, out[1] of y, out[2] of tol = c1 max(|x|, |y|) + c2, each in double (exact values, tol as the scalar
 * code rounds it: no FMA), eight elements a step in two four-lane halves. Another order than af_sign_gate's:
 * gate_decide's margin bounds the error of any order. Only the sums: the extremes are the survey's. */
__attribute__((target("avx2,f16c"))) static void gate_sums_f32(const void *x_data, int x_type, const void *y_data,
                                                               int y_type, int64_t n, double c1, double c2,
                                                               double *out)
{
    const __m256d c1v = _mm256_set1_pd(c1), c2v = _mm256_set1_pd(c2);
    const __m256d magnitude = _mm256_castsi256_pd(_mm256_set1_epi64x(INT64_C(0x7fffffffffffffff)));
    __m256d sx_lo = _mm256_setzero_pd(), sy_lo = sx_lo, st_lo = sx_lo, sx_hi = sx_lo, sy_hi = sx_lo, st_hi = sx_lo;
    double lanes[4], sum_x = 0, sum_y = 0, sum_tol = 0;
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 x = load8_float(x_data, x_type, i), y = load8_float(y_data, y_type, i);
        const __m256d x_lo = _mm256_cvtps_pd(_mm256_castps256_ps128(x)), x_hi = _mm256_cvtps_pd(_mm256_extractf128_ps(x, 1));
        const __m256d y_lo = _mm256_cvtps_pd(_mm256_castps256_ps128(y)), y_hi = _mm256_cvtps_pd(_mm256_extractf128_ps(y, 1));
        const __m256d top_lo = _mm256_max_pd(_mm256_and_pd(x_lo, magnitude), _mm256_and_pd(y_lo, magnitude));
        const __m256d top_hi = _mm256_max_pd(_mm256_and_pd(x_hi, magnitude), _mm256_and_pd(y_hi, magnitude));
        sx_lo = _mm256_add_pd(sx_lo, x_lo);
        sx_hi = _mm256_add_pd(sx_hi, x_hi);
        sy_lo = _mm256_add_pd(sy_lo, y_lo);
        sy_hi = _mm256_add_pd(sy_hi, y_hi);
        st_lo = _mm256_add_pd(st_lo, _mm256_add_pd(_mm256_mul_pd(c1v, top_lo), c2v));
        st_hi = _mm256_add_pd(st_hi, _mm256_add_pd(_mm256_mul_pd(c1v, top_hi), c2v));
    }
#define GS_FOLD(ACC, LO, HI) \
    do { \
        _mm256_storeu_pd(lanes, _mm256_add_pd(LO, HI)); \
        ACC = (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]); \
    } while (0)
    GS_FOLD(sum_x, sx_lo, sx_hi);
    GS_FOLD(sum_y, sy_lo, sy_hi);
    GS_FOLD(sum_tol, st_lo, st_hi);
#undef GS_FOLD
    for (; i < n; i++) {
        const double x = value_at(x_data, x_type, i), y = value_at(y_data, y_type, i);
        const double ax = fabs(x), ay = fabs(y);
        sum_x += x;
        sum_y += y;
        sum_tol += c1 * (ax > ay ? ax : ay) + c2;
    }
    out[0] = sum_x;
    out[1] = sum_y;
    out[2] = sum_tol;
}
#endif

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif

/* Where the rest elements lie: marks[offset(axis) + index] = 1 for the indices holding one; `filled` counts the
 * marks so a dense error stops marking once every index of every axis is marked. */
typedef struct {
    int ndim;
    const int64_t *dims;
    int64_t offsets[SV_MAX_AXES], total, filled, last_row, row_start; /* row_start: last_row's first flat index */
    int64_t last_filled; /* how many indices of the last axis are marked */
    int64_t index[SV_MAX_AXES]; /* last_row's index along each axis before the last */
    int64_t *marks;
} af_marks;

/* Lay the axes' marks out one after another in `marks` and clear them; 0 when a length is not positive or the
 * lengths' product is not `n` (the caller then declines the pair). */
static int marks_init(af_marks *mk, int ndim, const int64_t *dims, int64_t n, int64_t *marks)
{
    int64_t product = 1;
    mk->ndim = ndim;
    mk->dims = dims;
    mk->total = mk->filled = 0;
    mk->last_row = -1;
    mk->row_start = mk->last_filled = 0;
    mk->marks = marks;
    for (int a = 0; a < ndim; a++) {
        if (dims[a] <= 0) return 0;
        mk->offsets[a] = mk->total;
        mk->total += dims[a];
        product *= dims[a];
    }
    if (product != n) return 0;
    memset(marks, 0, (size_t)mk->total * sizeof *marks);
    return 1;
}

AF_INLINE void mark(af_marks *mk, int64_t at)
{
    if (!mk->marks[at]) {
        mk->marks[at] = 1;
        mk->filled++;
    }
}

/* mark() of an index of the last axis, counted in last_filled too. */
AF_INLINE void mark_last(af_marks *mk, int64_t at)
{
    if (!mk->marks[at]) {
        mk->marks[at] = 1;
        mk->filled++;
        mk->last_filled++;
    }
}

/* Mark the indices of flat element i: the last axis from i % length, the others once per row. Within the row
 * of the previous call no division is made (a pair whose every element differs calls this for each one). */
static void mark_element(af_marks *mk, int64_t i)
{
    const int last = mk->ndim - 1;
    const int64_t length = mk->dims[last];
    int64_t row;
    if (mk->filled == mk->total) return; /* every index of every axis holds one already */
    if (mk->last_row >= 0 && i >= mk->row_start && i - mk->row_start < length) {
        mark_last(mk, mk->offsets[last] + (i - mk->row_start));
        return;
    }
    if (mk->last_row >= 0 && i - mk->row_start >= length && i - mk->row_start < 2 * length) {
        /* The next row (a dense error's usual step): its indices by carrying, no division (each cost as much
         * as a row of the sweep on short rows). */
        mk->last_row++;
        mk->row_start += length;
        mark_last(mk, mk->offsets[last] + (i - mk->row_start));
        for (int a = last - 1; a >= 0; a--) {
            if (++mk->index[a] < mk->dims[a]) break;
            mk->index[a] = 0;
        }
        for (int a = last - 1; a >= 0; a--) mark(mk, mk->offsets[a] + mk->index[a]);
        return;
    }
    row = i / length;
    mark_last(mk, mk->offsets[last] + i % length);
    if (row != mk->last_row) {
        mk->last_row = row;
        mk->row_start = row * length;
        for (int a = last - 1; a >= 0; a--) {
            mk->index[a] = row % mk->dims[a];
            mark(mk, mk->offsets[a] + mk->index[a]);
            row /= mk->dims[a];
        }
    }
}

/*
 * signature._classify's masks on one pair of n elements of shape dims[0..ndim) (C order): x fused, y origin.
 * params: ROUNDING_ULPS*eps and ROUNDING_ULPS*min_subnormal of the lower-precision dtype, then the fused
 * dtype's max, tiny (smallest normal) and min_subnormal. tol = c1 * max(|x| if finite else 0, |y| if finite
 * else 0) + c2; bad: both finite and |x - y| > tol, or not the same special value. out_doubles (SV_*): the
 * rounding params' max |x - y| and max |x - y| / |y| over both-finite elements (0 when none; the
 * permutation gate's extremes and sums are af_sign_gate's, asked for only when needed). out_counts (SV_*): elements not equal (NaN equal to NaN),
 * not both finite, bad, rest (bad and none of the three below), then count and first flat index of
 * nonfinite_introduced, overflow and underflow. marks[offset(axis) + index]: 1 when a rest element lies at
 * that index of that axis, else 0 (offset: the lengths of the axes before).
 */
static void survey_run(const void *x_data, int x_type, const void *y_data, int y_type, int64_t n,
                       const double *params, af_marks *marks, double *out_doubles, int64_t *out_counts,
                       double *extremes, int lazy);

AF_EXPORT int af_sign_survey(const void *x_data, int x_type, const void *y_data, int y_type, int64_t n, int ndim,
                             const int64_t *dims, const double *params, double *out_doubles, int64_t *out_counts,
                             int64_t *marks)
{
    af_marks mk;
    if (!f16_ready || !is_float_code(x_type) || !is_float_code(y_type) || n <= 0 || ndim < 1
        || ndim > SV_MAX_AXES)
        return AF_UNSUPPORTED;
    if (!marks_init(&mk, ndim, dims, n, marks)) return AF_UNSUPPORTED;
    survey_run(x_data, x_type, y_data, y_type, n, params, &mk, out_doubles, out_counts, NULL, 0);
    return AF_OK;
}

#if AF_X86_DISPATCH
/* Whether survey_run's counts so far hold a rest, non-finite, overflow or underflow element: then the answer is
 * not rounding (the counts only grow), the one answer that reads the maxima. */
static int decided_before(const int64_t *c)
{
    return c[SV_REST] || c[SV_NONFINITE] || c[SV_OVERFLOW] || c[SV_UNDERFLOW];
}
#endif

#if AF_X86_DISPATCH
/* The 64 flag bits from chunk position p on (bit k: element p + k), 0 for positions before the chunk; the bytes
 * after the chunk's flags are zero. */
static inline uint64_t flags_at(const uint8_t *bits, int64_t p)
{
    uint64_t word;
    if (p <= -64) return 0;
    if (p < 0) return flags_at(bits, 0) << -p;
    memcpy(&word, bits + (p >> 3), sizeof word);
    if (p & 7) word = (word >> (p & 7)) | ((uint64_t)bits[(p >> 3) + 8] << (64 - (p & 7)));
    return word;
}

/* mark_columns from the float sweep's flag bits: the row starting at chunk position `start` (maybe before the
 * chunk), positions [from, end) of it, OR-ed into the last axis's marks 64 columns a step; column_bits mirrors the
 * columns marked this way, so only a column new to it is looked at in `marks` (marked and counted as mark_last
 * does). Returns how many marks it set. */
static int64_t mark_columns_bits(const uint8_t *bits, int64_t start, int64_t from, int64_t end,
                                 uint64_t *column_bits, int64_t *marks)
{
    const int64_t c_lo = from - start, c_hi = end - start;
    int64_t added = 0;
    for (int64_t w = c_lo / 64; w * 64 < c_hi; w++) {
        uint64_t word = flags_at(bits, start + w * 64), fresh;
        if (c_lo > w * 64) word &= ~UINT64_C(0) << (c_lo - w * 64);
        if (c_hi < w * 64 + 64) word &= (UINT64_C(1) << (c_hi - w * 64)) - 1;
        fresh = word & ~column_bits[w];
        if (!fresh) continue;
        column_bits[w] |= fresh;
        for (; fresh; fresh &= fresh - 1) {
            const int64_t column = w * 64 + __builtin_ctzll(fresh);
            if (!marks[column]) {
                marks[column] = 1;
                added++;
            }
        }
    }
    return added;
}
#endif

/* column[k] = 1 where attention[k] is not 0 (k < count; the marks are 0 or 1): how many it set that were 0, as
 * mark_last counts them. A row of a moved C0 block's pair leaves a few columns never marked, so each row is
 * looked at whole: branch-free, four a step with AVX2. */
#if AF_X86_DISPATCH
__attribute__((target("avx2"))) static int64_t mark_columns_avx2(const double *attention, int64_t *column,
                                                                 int64_t count)
{
    const __m256i one = _mm256_set1_epi64x(1);
    __m256i added = _mm256_setzero_si256();
    int64_t lanes[4], total, k = 0;
    for (; k + 4 <= count; k += 4) {
        const __m256i hit = _mm256_and_si256(
            _mm256_castpd_si256(_mm256_cmp_pd(_mm256_loadu_pd(attention + k), _mm256_setzero_pd(), _CMP_NEQ_UQ)),
            one);
        const __m256i old = _mm256_loadu_si256((const __m256i *)(column + k));
        added = _mm256_add_epi64(added, _mm256_andnot_si256(old, hit));
        _mm256_storeu_si256((__m256i *)(column + k), _mm256_or_si256(old, hit));
    }
    _mm256_storeu_si256((__m256i *)lanes, added);
    total = lanes[0] + lanes[1] + lanes[2] + lanes[3];
    for (; k < count; k++) {
        const int64_t hit = attention[k] != 0;
        total += hit & (column[k] ^ 1);
        column[k] |= hit;
    }
    return total;
}
#endif

static int64_t mark_columns(const double *attention, int64_t *column, int64_t count)
{
    int64_t added = 0;
#if AF_X86_DISPATCH
    if (use_avx2) return mark_columns_avx2(attention, column, count);
#endif
    for (int64_t k = 0; k < count; k++) {
        const int64_t hit = attention[k] != 0;
        added += hit & (column[k] ^ 1);
        column[k] |= hit;
    }
    return added;
}

/* af_sign_survey's sweep on marks set up by marks_init; extremes (when not NULL): x max, x min, y max, y min
 * (exact; their lanes never take a NaN; left as they are for identical bits). lazy: where the float sweep finds
 * the maxima costly to rescan (many quotients tied within float's rounding, as a scale's), or once a rest,
 * non-finite, overflow or underflow element was counted (then the answer is not rounding), it goes on in float
 * without them and both come out NaN (the caller sweeps again, not lazy, when it needs them: signature.py reads
 * them only for a rounding answer, nothing beyond rounding found); otherwise the double sweep takes over. */
static void survey_run(const void *x_data, int x_type, const void *y_data, int y_type, int64_t n,
                       const double *params, af_marks *marks, double *out_doubles, int64_t *out_counts,
                       double *extremes, int lazy)
{
    double x_buffer[CHUNK], y_buffer[CHUNK], attention[CHUNK];
    int32_t looked[SV_LOOKED + 8]; /* survey_chunk_avx2's list of a chunk's flagged elements (list_looked's room) */
    /* The float sweep's flags a bit each (16 zero bytes after them: mark_columns_bits reads 9 bytes at a time), and
     * the last axis's marks as bits (allocated once a row needs them; the marks themselves stay the answer). */
#if AF_X86_DISPATCH
    uint8_t flag_bits[CHUNK / 8 + 16];
    uint64_t *column_bits = NULL;
    int have_bits = 0;
#endif
    const double f_max = params[SP_F_MAX], f_tiny = params[SP_F_TINY], f_min_sub = params[SP_F_MIN_SUB];
    const double c1 = params[SP_C1], c2 = params[SP_C2];
    af_survey_lanes v;
    af_marks mk = *marks;
    int64_t c[SV_COUNTS], ndim_last_length = mk.dims[mk.ndim - 1];
    int k;
#if AF_X86_DISPATCH
    const int f32 = use_avx2 && survey_f32_on && survey_f32_fits(x_type, y_type, params);
    int dense = 0; /* survey_chunk_f32 found its maxima too costly to rescan: the double sweep from then on */
#else
    (void)lazy; /* only the float sweep (x86) leaves maxima out */
#endif
    int skipped = 0; /* lazy and dense: a chunk swept in float without the maxima */
    memset(c, 0, sizeof c);
    if (x_type == y_type && same_bits(x_data, y_data, (size_t)n * type_size(x_type))) {
        /* The same bits: identical (NaN payloads included), nothing else is read. */
        memset(out_doubles, 0, SV_DOUBLES * sizeof *out_doubles);
        memcpy(out_counts, c, sizeof c);
        return;
    }
    memset(&v, 0, sizeof v);
    for (k = 0; k < LANES; k++) {
        v.x_max[k] = v.y_max[k] = -INFINITY;
        v.x_min[k] = v.y_min[k] = INFINITY;
    }
    for (int64_t offset = 0; offset < n; offset += CHUNK) {
        int64_t m = n - offset < CHUNK ? n - offset : CHUNK;
        const double *xs = NULL, *ys = NULL; /* the chunk as doubles (NULL: AVX2 converts in registers) */
        int64_t looked_count = -1; /* -1: no list, the attention flags are scanned */
        int look; /* survey_chunk's bits: 1 plain rest elements, 2 elements to look at */
        double bad_before = 0, bad_after = 0;
        for (k = 0; k < LANES; k++) bad_before += v.bad[k];
#if AF_X86_DISPATCH
        {
            /* Dense and lazy: in float still, without the maxima. Lazy once a rest, non-finite, overflow or
             * underflow element was counted (counts only grow): the answer cannot be rounding, the one answer
             * that reads the maxima, so they are not worked out (NaN) and no sweep again is asked for. */
            const int rescan = !dense && !(lazy && decided_before(c));
            look = f32 && (rescan || lazy) ? survey_chunk_f32(x_data, x_type, y_data, y_type, offset, m, params, &v,
                                                              attention, looked, &looked_count, rescan, &dense,
                                                              flag_bits)
                                           : -1;
            /* Every element's flag is a bit when the float sweep took the whole chunk in steps of eight. */
            have_bits = look >= 0 && m % 8 == 0;
            if (have_bits) memset(flag_bits + m / 8, 0, 16);
            skipped |= !rescan && look >= 0;
        }
        if (look >= 0) {
            /* float16/float32 pairs: eight elements a step in float, the same outputs */
        } else if (use_avx2 && x_type != AF_FLOAT16 && y_type != AF_FLOAT16) {
            const int maxima = !(lazy && decided_before(c)); /* as the float sweep's rescan */
            look = survey_chunk_avx2(x_data, x_type, y_data, y_type, offset, m, params, &v, attention, looked,
                                     &looked_count, maxima);
            skipped |= !maxima;
        } else if (use_avx2) { /* float16 converts faster eight at a time into the buffers (to_double) */
            xs = to_double(x_data, x_type, offset, m, x_buffer, use_avx2);
            ys = to_double(y_data, y_type, offset, m, y_buffer, use_avx2);
            look = survey_chunk_avx2(xs, AF_FLOAT64, ys, AF_FLOAT64, 0, m, params, &v, attention, looked,
                                     &looked_count, 1);
        } else
#endif
        {
            xs = to_double(x_data, x_type, offset, m, x_buffer, use_avx2);
            ys = to_double(y_data, y_type, offset, m, y_buffer, use_avx2);
            look = survey_chunk_baseline(xs, ys, m, params, &v, attention);
        }
        if (look == 1) {
            /* Plain rest elements only: they are the chunk's bad ones (exact counts in doubles); a row needs
             * marking once its last axis is full, so the scan jumps to the next row after its first one. */
            for (k = 0; k < LANES; k++) bad_after += v.bad[k];
            c[SV_REST] += (int64_t)(bad_after - bad_before);
            if (looked_count >= 0) { /* the few flagged ones listed: no scan of the flags */
                for (int64_t q = 0; q < looked_count && mk.filled < mk.total; q++)
                    mark_element(&mk, offset + looked[q]);
                continue;
            }
            for (int64_t j = 0; j < m && mk.filled < mk.total; j++) {
                if (attention[j] == 0) continue;
                mark_element(&mk, offset + j);
                if (mk.last_filled == ndim_last_length && mk.filled < mk.total) {
                    j = mk.row_start + ndim_last_length - offset - 1;
                } else {
                    /* The row is marked: the rest of it in this chunk (a row may go on in the next one) can only
                     * mark indices of the last axis, those not marked yet (a moved block leaves a few never
                     * marked, and a call per element cost as much as the sweep). */
                    const int64_t start = mk.row_start - offset;
                    const int64_t end = start + ndim_last_length < m ? start + ndim_last_length : m;
                    int64_t added;
#if AF_X86_DISPATCH
                    if (have_bits && column_bits == NULL)
                        column_bits = calloc((size_t)(ndim_last_length + 63) / 64, sizeof *column_bits);
                    if (have_bits && column_bits != NULL)
                        added = mark_columns_bits(flag_bits, start, j + 1, end, column_bits,
                                                  mk.marks + mk.offsets[mk.ndim - 1]);
                    else
#endif
                        added = mark_columns(attention + j + 1, mk.marks + mk.offsets[mk.ndim - 1] + (j + 1 - start),
                                             end - j - 1);
                    mk.filled += added;
                    mk.last_filled += added;
                    j = end - 1;
                }
            }
            continue;
        }
        /* Here look is 0 or has bit 2 (look == 1 went on above). With a list of the few flagged elements the
         * flags are not scanned (each j once, ascending, as the scan takes them). */
        for (int64_t q = 0, j = 0; look && (looked_count >= 0 ? q < looked_count : j < m); q++, j++) {
            if (looked_count >= 0) j = looked[q];
            if (attention[j] == 0) continue;
            if (attention[j] == 3) { /* an underflow (the vector sweeps decided it) */
                first_of(&c[SV_UNDERFLOW], &c[SV_UNDERFLOW_FIRST], offset + j);
                continue;
            }
            if (attention[j] == 1) { /* a plain rest element (survey_chunk): checks 1-3 cannot explain it */
                c[SV_REST]++;
                mark_element(&mk, offset + j);
                if (look == 1 && mk.last_filled == ndim_last_length && mk.last_row >= 0
                    && offset + j >= mk.row_start && offset + j - mk.row_start < ndim_last_length) {
                    /* The row is marked and the last axis full: the rest of the row (in this chunk) needs
                     * no mark, only its plain elements counted. */
                    int64_t end = mk.row_start + ndim_last_length - offset, plain = 0;
                    if (end > m) end = m;
                    for (int64_t k2 = j + 1; k2 < end; k2++) plain += attention[k2] == 1;
                    c[SV_REST] += plain;
                    j = end - 1;
                }
                continue;
            }
            {
                const double x = xs != NULL ? xs[j] : value_at(x_data, x_type, offset + j);
                const double y = ys != NULL ? ys[j] : value_at(y_data, y_type, offset + j);
                const double ax = fabs(x), ay = fabs(y);
                const int fx = isfinite(x), fy = isfinite(y);
                const double mx = fx ? ax : 0, my = fy ? ay : 0;
                const double tol = c1 * (mx > my ? mx : my) + c2;
                const int bad = (fx && fy) ? fabs(x - y) > tol : !(!fx && !fy && ((isnan(x) && isnan(y)) || x == y));
                const int overflow = (isinf(x) || ax >= f_max) && fy && ay > f_max;
                const int nonfinite = !fx && fy && !overflow;
                const int underflow = x == 0 && ay >= f_min_sub && ay < f_tiny && bad;
                if (overflow) first_of(&c[SV_OVERFLOW], &c[SV_OVERFLOW_FIRST], offset + j);
                if (nonfinite) first_of(&c[SV_NONFINITE], &c[SV_NONFINITE_FIRST], offset + j);
                if (underflow) first_of(&c[SV_UNDERFLOW], &c[SV_UNDERFLOW_FIRST], offset + j);
                if (bad && !overflow && !nonfinite && !underflow) {
                    c[SV_REST]++;
                    mark_element(&mk, offset + j);
                }
            }
        }
    }
    {
        double r[SV_DOUBLES], counts[3] = {0, 0, 0};
        r[SV_MAX_ABS] = r[SV_MAX_REL] = 0;
        for (k = 0; k < LANES; k++) {
            r[SV_MAX_ABS] = v.max_abs[k] > r[SV_MAX_ABS] ? v.max_abs[k] : r[SV_MAX_ABS];
            r[SV_MAX_REL] = v.max_rel[k] > r[SV_MAX_REL] ? v.max_rel[k] : r[SV_MAX_REL];
            counts[0] += v.not_same[k];
            counts[1] += v.not_both[k];
            counts[2] += v.bad[k];
        }
        if (skipped) r[SV_MAX_ABS] = r[SV_MAX_REL] = NAN;
        memcpy(out_doubles, r, sizeof r);
        c[SV_NOT_SAME] = (int64_t)counts[0];
        c[SV_NOT_BOTH] = (int64_t)counts[1];
        c[SV_BAD] = (int64_t)counts[2];
    }
    if (extremes != NULL) {
        extremes[0] = extremes[2] = -INFINITY;
        extremes[1] = extremes[3] = INFINITY;
        for (k = 0; k < LANES; k++) {
            extremes[0] = v.x_max[k] > extremes[0] ? v.x_max[k] : extremes[0];
            extremes[1] = v.x_min[k] < extremes[1] ? v.x_min[k] : extremes[1];
            extremes[2] = v.y_max[k] > extremes[2] ? v.y_max[k] : extremes[2];
            extremes[3] = v.y_min[k] < extremes[3] ? v.y_min[k] : extremes[3];
        }
    }
#if AF_X86_DISPATCH
    free(column_bits);
#endif
    *marks = mk;
    memcpy(out_counts, c, sizeof c);
}

enum { SW_MAX_ABS, SW_MAX_REL, SW_X_MAX, SW_X_MIN, SW_Y_MAX, SW_Y_MIN, SW_NAN, SW_DOUBLES };
enum { SW_NOT_EQUAL, SW_SPECIAL, SW_CANDIDATES, SW_COUNTS };
enum { WP_SCALE, WP_FLOOR, WP_SPECIAL_LIMIT };

/* What af_sign_whole found so far: its counts and the flat indices it keeps. */
typedef struct {
    int64_t c[SW_COUNTS];
    int64_t special_cap, candidate_cap;
    int64_t *specials, *candidates;
    double scale, floor_, limit;
    double x_max, x_min, y_max, y_min; /* over the elements without a NaN on either side */
    int64_t nan;                       /* elements with a NaN on either side */
    int special;
} af_whole;

/* A whole sweep's state before its first element: no counts, the extremes empty, the caller's index arrays. */
static void whole_start(af_whole *w, int special, const double *params, int64_t special_cap, int64_t *specials,
                        int64_t candidate_cap, int64_t *candidates)
{
    memset(w, 0, sizeof *w);
    w->special_cap = special_cap;
    w->candidate_cap = candidate_cap;
    w->specials = specials;
    w->candidates = candidates;
    w->scale = params[WP_SCALE];
    w->floor_ = params[WP_FLOOR];
    w->limit = params[WP_SPECIAL_LIMIT];
    w->special = special;
    w->x_max = w->y_max = -INFINITY;
    w->x_min = w->y_min = INFINITY;
}

AF_INLINE void whole_record(af_whole *w, int64_t i, int is_special, int is_candidate)
{
    if (is_special) {
        if (w->c[SW_SPECIAL] < w->special_cap) w->specials[w->c[SW_SPECIAL]] = i;
        w->c[SW_SPECIAL]++;
    }
    if (is_candidate) {
        if (w->c[SW_CANDIDATES] < w->candidate_cap) w->candidates[w->c[SW_CANDIDATES]] = i;
        w->c[SW_CANDIDATES]++;
    }
}

/* whole_record of `lanes` elements from flat index i (bit b of special, candidate: element i + b); a run of
 * candidates only (every element differs) is written at once, or counted once the indices are full. */
AF_INLINE void whole_record_lanes(af_whole *w, int64_t i, int lanes, int special, int candidate)
{
    const int all = (1 << lanes) - 1;
    if (!special && candidate == all) {
        const int64_t count = w->c[SW_CANDIDATES];
        for (int b = 0; b < lanes && count + b < w->candidate_cap; b++) w->candidates[count + b] = i + b;
        w->c[SW_CANDIDATES] = count + lanes;
        return;
    }
    for (int b = 0; b < lanes; b++) whole_record(w, i + b, (special >> b) & 1, (candidate >> b) & 1);
}

/* numpy's maximum: NaN when either is NaN. */
#define SW_NAN_MAX(a, b) (isnan(a) || isnan(b) ? (a) + (b) : ((a) > (b) ? (a) : (b)))

/* One element: array_equal's and _special's tests on its doubles, then _candidates' in TYPE (float for
 * float16/float32 pairs, double otherwise), operation by operation as numpy does them. */
#define SW_ELEMENT(TYPE, FABS, X, Y, I, MAX_ABS, MAX_REL) \
    do { \
        const double x_ = (X), y_ = (Y); \
        const TYPE xv = (TYPE)x_, yv = (TYPE)y_; \
        const TYPE ax = FABS(xv), ay = FABS(yv); \
        TYPE diff = FABS(xv - yv), tol = SW_NAN_MAX(ax, ay); \
        tol = tol * (TYPE)w->scale; \
        tol = tol + (TYPE)w->floor_; \
        if (x_ != y_) w->c[SW_NOT_EQUAL]++; \
        whole_record(w, I, w->special && (isnan(x_) || fabs(x_) >= w->limit), \
                     (!(diff <= tol) || !isfinite(tol)) && !(xv == yv || (isnan(xv) && isnan(yv)))); \
        if (!isfinite(diff)) diff = 0; \
        if (diff > MAX_ABS) MAX_ABS = diff; \
        if (ay > 0 && diff / ay > MAX_REL) MAX_REL = diff / ay; \
    } while (0)

/* One element's part in the extremes (elements with a NaN on either side are only counted). */
AF_INLINE void whole_extremes(af_whole *w, double x, double y)
{
    if (x != x || y != y) {
        w->nan++;
        return;
    }
    w->x_max = x > w->x_max ? x : w->x_max;
    w->x_min = x < w->x_min ? x : w->x_min;
    w->y_max = y > w->y_max ? y : w->y_max;
    w->y_min = y < w->y_min ? y : w->y_min;
}

/* A float16 or float32 element as float (exact). */
AF_INLINE float float_at(const void *data, int type, int64_t i)
{
    return type == AF_FLOAT16 ? f16_table[((const uint16_t *)data)[i]] : ((const float *)data)[i];
}

/* Elements [start, n) of a float16/float32 pair in plain C. */
static void whole_float_scalar(const void *x_data, int x_type, const void *y_data, int y_type, int64_t start,
                               int64_t n, af_whole *w, float *max_abs, float *max_rel)
{
    for (int64_t i = start; i < n; i++) {
        SW_ELEMENT(float, fabsf, float_at(x_data, x_type, i), float_at(y_data, y_type, i), i, *max_abs, *max_rel);
        whole_extremes(w, float_at(x_data, x_type, i), float_at(y_data, y_type, i));
    }
}

#if AF_X86_DISPATCH
__attribute__((target("avx2,f16c"))) static __m256 load8(const void *data, int type, int64_t i)
{
    if (type == AF_FLOAT16) return _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)((const uint16_t *)data + i)));
    return _mm256_loadu_ps((const float *)data + i);
}

/* The vector sweeps' extremes folded into w's, lane by lane in order (as the scalar code compares them). */
__attribute__((target("avx2,f16c"))) static void whole_fold_extremes(af_whole *w, __m256 x_max, __m256 x_min,
                                                                     __m256 y_max, __m256 y_min)
{
    float lanes[8];
    _mm256_storeu_ps(lanes, x_max);
    for (int k = 0; k < 8; k++) w->x_max = (double)lanes[k] > w->x_max ? (double)lanes[k] : w->x_max;
    _mm256_storeu_ps(lanes, x_min);
    for (int k = 0; k < 8; k++) w->x_min = (double)lanes[k] < w->x_min ? (double)lanes[k] : w->x_min;
    _mm256_storeu_ps(lanes, y_max);
    for (int k = 0; k < 8; k++) w->y_max = (double)lanes[k] > w->y_max ? (double)lanes[k] : w->y_max;
    _mm256_storeu_ps(lanes, y_min);
    for (int k = 0; k < 8; k++) w->y_min = (double)lanes[k] < w->y_min ? (double)lanes[k] : w->y_min;
}

/* whole_float_scalar eight elements a step: the maxima and the not-equal count in vectors (max_ps(a, b) is
 * a > b ? a : b, as the scalar code); the elements a special or candidate test marks are recorded in order.
 * A NaN on either side makes |x - y| NaN, hence a candidate whatever the tolerance: the NaN-dropping max_ps
 * in the tolerance changes nothing. */
__attribute__((target("avx2,f16c"))) static void whole_float_avx2(const void *x_data, int x_type, const void *y_data,
                                                                  int y_type, int64_t start, int64_t n, af_whole *w,
                                                                  float *max_abs, float *max_rel)
{
    const __m256 magnitude = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    const __m256 scale = _mm256_set1_ps((float)w->scale), floor_ = _mm256_set1_ps((float)w->floor_);
    const __m256 top_finite = _mm256_set1_ps(FLT_MAX), zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f);
    const __m256 limit = _mm256_set1_ps((float)w->limit);
    const __m256 below = _mm256_set1_ps(1 - 0x1p-21f), tiny = _mm256_set1_ps(0x1p-100f);
    const __m256 low_start = _mm256_set1_ps(-INFINITY), high_start = _mm256_set1_ps(INFINITY);
    __m256 best_abs = zero, best_rel = zero;
    /* Extremes: max_ps(v, acc) returns acc where v is NaN, so a NaN element changes none (it is counted). */
    __m256 x_max = low_start, x_min = high_start, y_max = low_start, y_min = high_start;
    float lanes[8];
    int64_t i = start, not_equal = 0, nan = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 x = load8(x_data, x_type, i), y = load8(y_data, y_type, i);
        const __m256 ax = _mm256_and_ps(x, magnitude), ay = _mm256_and_ps(y, magnitude);
        const __m256 diff = _mm256_and_ps(_mm256_sub_ps(x, y), magnitude);
        const __m256 tol = _mm256_add_ps(_mm256_mul_ps(_mm256_max_ps(ax, ay), scale), floor_);
        /* Unordered: a NaN on either side (one compare); the usual vector has none and skips the NaN work. */
        const __m256 either_nan = _mm256_cmp_ps(x, y, _CMP_UNORD_Q);
        const int nan_bits = _mm256_movemask_ps(either_nan);
        __m256 same = _mm256_cmp_ps(x, y, _CMP_EQ_OQ), keep_x = x, keep_y = y;
        if (nan_bits) {
            same = _mm256_or_ps(same,
                                _mm256_and_ps(_mm256_cmp_ps(x, x, _CMP_UNORD_Q), _mm256_cmp_ps(y, y, _CMP_UNORD_Q)));
            keep_x = _mm256_blendv_ps(x, _mm256_set1_ps(NAN), either_nan);
            keep_y = _mm256_blendv_ps(y, _mm256_set1_ps(NAN), either_nan);
            nan += __builtin_popcount((unsigned)nan_bits);
        }
        const __m256 wrong = _mm256_or_ps(_mm256_cmp_ps(diff, tol, _CMP_NLE_UQ),
                                          _mm256_cmp_ps(tol, top_finite, _CMP_NLE_UQ));
        const int candidate = _mm256_movemask_ps(_mm256_andnot_ps(same, wrong));
        /* isnan(x) or |x| >= limit: not (|x| < limit), unordered true. */
        const int special = w->special ? _mm256_movemask_ps(_mm256_cmp_ps(ax, limit, _CMP_NLT_UQ)) : 0;
        const __m256 d = _mm256_and_ps(diff, _mm256_cmp_ps(diff, top_finite, _CMP_LE_OQ));
        const __m256 positive = _mm256_cmp_ps(ay, zero, _CMP_GT_OQ);
        /* d / ay only where it may beat the lane's best (as in survey_chunk_avx2, with float's 2**-21). */
        const __m256 bound = _mm256_mul_ps(_mm256_mul_ps(best_rel, ay), below);
        const __m256 maybe = _mm256_and_ps(positive, _mm256_or_ps(_mm256_cmp_ps(d, bound, _CMP_GE_OQ),
                                                                   _mm256_cmp_ps(bound, tiny, _CMP_LT_OQ)));
        not_equal += __builtin_popcount((unsigned)_mm256_movemask_ps(_mm256_cmp_ps(x, y, _CMP_NEQ_UQ)));
        x_max = _mm256_max_ps(keep_x, x_max);
        x_min = _mm256_min_ps(keep_x, x_min);
        y_max = _mm256_max_ps(keep_y, y_max);
        y_min = _mm256_min_ps(keep_y, y_min);
        best_abs = _mm256_max_ps(d, best_abs);
        if (_mm256_movemask_ps(maybe)) {
            const __m256 r = _mm256_and_ps(_mm256_div_ps(d, _mm256_blendv_ps(one, ay, positive)), positive);
            best_rel = _mm256_max_ps(r, best_rel);
        }
        if (candidate | special)
            whole_record_lanes(w, i, 8, special, candidate);
    }
    w->c[SW_NOT_EQUAL] += not_equal;
    w->nan += nan;
    whole_fold_extremes(w, x_max, x_min, y_max, y_min);
    _mm256_storeu_ps(lanes, best_abs);
    for (int k = 0; k < 8; k++) *max_abs = lanes[k] > *max_abs ? lanes[k] : *max_abs;
    _mm256_storeu_ps(lanes, best_rel);
    for (int k = 0; k < 8; k++) *max_rel = lanes[k] > *max_rel ? lanes[k] : *max_rel;
    whole_float_scalar(x_data, x_type, y_data, y_type, i, n, w, max_abs, max_rel);
}
#endif

#if AF_X86_DISPATCH
/* The double sweep of af_sign_whole (a float64 side) four elements a step, on chunks of doubles: SW_ELEMENT's
 * tests and maxima in vectors (max_pd(a, b) is a > b ? a : b; a NaN in the tolerance's max changes nothing, as
 * in whole_float_avx2: |x - y| is NaN then, a candidate whatever the tolerance), the division only where it may
 * beat the lane's best (as survey_chunk_avx2). Returns how many elements it did (a multiple of 4). */
__attribute__((target("avx2,f16c"))) static int64_t whole_double_avx2(const double *xs, const double *ys, int64_t m,
                                                                      int64_t offset, af_whole *w, double *max_abs,
                                                                      double *max_rel)
{
    const __m256d magnitude = _mm256_castsi256_pd(_mm256_set1_epi64x(INT64_C(0x7fffffffffffffff)));
    const __m256d scale = _mm256_set1_pd(w->scale), floor_ = _mm256_set1_pd(w->floor_);
    const __m256d top_finite = _mm256_set1_pd(DBL_MAX), zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1.0);
    const __m256d limit = _mm256_set1_pd(w->limit);
    const __m256d below = _mm256_set1_pd(1 - 0x1p-50), tiny = _mm256_set1_pd(0x1p-1000);
    __m256d best_abs = zero, best_rel = zero;
    double lanes[4];
    int64_t i = 0, not_equal = 0;
    for (; i + 4 <= m; i += 4) {
        const __m256d x = _mm256_loadu_pd(xs + i), y = _mm256_loadu_pd(ys + i);
        const __m256d ax = _mm256_and_pd(x, magnitude), ay = _mm256_and_pd(y, magnitude);
        const __m256d diff = _mm256_and_pd(_mm256_sub_pd(x, y), magnitude);
        const __m256d tol = _mm256_add_pd(_mm256_mul_pd(_mm256_max_pd(ax, ay), scale), floor_);
        const __m256d x_nan = _mm256_cmp_pd(x, x, _CMP_UNORD_Q);
        const __m256d same = _mm256_or_pd(_mm256_cmp_pd(x, y, _CMP_EQ_OQ),
                                          _mm256_and_pd(x_nan, _mm256_cmp_pd(y, y, _CMP_UNORD_Q)));
        const __m256d wrong = _mm256_or_pd(_mm256_cmp_pd(diff, tol, _CMP_NLE_UQ),
                                           _mm256_cmp_pd(tol, top_finite, _CMP_NLE_UQ));
        const int candidate = _mm256_movemask_pd(_mm256_andnot_pd(same, wrong));
        const int special = w->special ? _mm256_movemask_pd(_mm256_or_pd(x_nan, _mm256_cmp_pd(ax, limit, _CMP_GE_OQ)))
                                       : 0;
        const __m256d d = _mm256_and_pd(diff, _mm256_cmp_pd(diff, top_finite, _CMP_LE_OQ));
        const __m256d positive = _mm256_cmp_pd(ay, zero, _CMP_GT_OQ);
        const __m256d bound = _mm256_mul_pd(_mm256_mul_pd(best_rel, ay), below);
        const __m256d maybe = _mm256_and_pd(positive, _mm256_or_pd(_mm256_cmp_pd(d, bound, _CMP_GE_OQ),
                                                                   _mm256_cmp_pd(bound, tiny, _CMP_LT_OQ)));
        not_equal += __builtin_popcount((unsigned)_mm256_movemask_pd(_mm256_cmp_pd(x, y, _CMP_NEQ_UQ)));
        best_abs = _mm256_max_pd(d, best_abs);
        if (_mm256_movemask_pd(maybe)) {
            const __m256d r = _mm256_and_pd(_mm256_div_pd(d, _mm256_blendv_pd(one, ay, positive)), positive);
            best_rel = _mm256_max_pd(r, best_rel);
        }
        if (candidate | special)
            whole_record_lanes(w, offset + i, 4, special, candidate);
    }
    w->c[SW_NOT_EQUAL] += not_equal;
    _mm256_storeu_pd(lanes, best_abs);
    for (int k = 0; k < 4; k++) *max_abs = lanes[k] > *max_abs ? lanes[k] : *max_abs;
    _mm256_storeu_pd(lanes, best_rel);
    for (int k = 0; k < 4; k++) *max_rel = lanes[k] > *max_rel ? lanes[k] : *max_rel;
    return i;
}
#endif

/*
 * signature._sampled's passes over the whole of a big pair, in one sweep: values not equal (array_equal,
 * NaN unequal), the fused NaN/±Inf/±max values (_special: isnan(x) or |x| >= params[WP_SPECIAL_LIMIT], the
 * fused max as x's dtype stores it; only when `special` is set) and _candidates (elements beyond
 * params[WP_SCALE] * max(|x|, |y|) + params[WP_FLOOR], computed in float when `wide64` is 0, in double
 * otherwise; out_doubles: their max |x - y| and max |x - y| / |y|, then the largest and smallest x and y
 * over the elements with no NaN on either side and how many have one: the permutation gate's extremes, exact;
 * float pairs only, -1 NaN for a `wide64` one, whose scalar double loop they would slow by a fifth).
 * Up to special_cap and candidate_cap flat indices are written (ascending); out_counts has the full counts.
 */
static int sign_whole(const void *x_data, int x_type, const void *y_data, int y_type, int64_t n, int wide64,
                      int special, const double *params, int64_t special_cap, int64_t *specials,
                      int64_t candidate_cap, int64_t *candidates, double *out_doubles, int64_t *out_counts,
                      int same);

AF_EXPORT int af_sign_whole(const void *x_data, int x_type, const void *y_data, int y_type, int64_t n, int wide64,
                            int special, const double *params, int64_t special_cap, int64_t *specials,
                            int64_t candidate_cap, int64_t *candidates, double *out_doubles, int64_t *out_counts)
{
    return sign_whole(x_data, x_type, y_data, y_type, n, wide64, special, params, special_cap, specials,
                      candidate_cap, candidates, out_doubles, out_counts, -1);
}

/* af_sign_whole; same: 1 when the caller found the two buffers the same bits, -1 when not compared yet. */
static int sign_whole(const void *x_data, int x_type, const void *y_data, int y_type, int64_t n, int wide64,
                      int special, const double *params, int64_t special_cap, int64_t *specials,
                      int64_t candidate_cap, int64_t *candidates, double *out_doubles, int64_t *out_counts,
                      int same)
{
    float max_abs_float = 0, max_rel_float = 0;
    double max_abs_double = 0, max_rel_double = 0;
    af_whole whole;
    af_whole *w = &whole;
    if (!f16_ready || !is_float_code(x_type) || !is_float_code(y_type) || n <= 0) return AF_UNSUPPORTED;
    if (!wide64 && (x_type == AF_FLOAT64 || y_type == AF_FLOAT64)) return AF_UNSUPPORTED;
    whole_start(w, special, params, special_cap, specials, candidate_cap, candidates);
    out_doubles[SW_X_MAX] = out_doubles[SW_X_MIN] = out_doubles[SW_Y_MAX] = out_doubles[SW_Y_MIN] = 0;
    out_doubles[SW_NAN] = 0; /* (the extremes of identical tensors are not worked out) */
    if (same == 1 || (x_type == y_type && same_bits(x_data, y_data, (size_t)n * type_size(x_type)))) {
        /* The same bits: equal unless NaN (NaN != NaN); no candidate (equal or both NaN), no difference. */
        int64_t nan = 0;
        for (int64_t offset = 0; offset < n; offset += CHUNK) {
            int64_t m = n - offset < CHUNK ? n - offset : CHUNK;
            double x_buffer[CHUNK];
            const double *xs = to_double(x_data, x_type, offset, m, x_buffer, use_avx2);
            for (int64_t k = 0; k < m; k++) nan += xs[k] != xs[k];
        }
        if (nan == 0) {
            out_doubles[SW_MAX_ABS] = out_doubles[SW_MAX_REL] = 0;
            memcpy(out_counts, w->c, sizeof w->c);
            return AF_OK;
        }
    }
    if (wide64) {
        double x_buffer[CHUNK], y_buffer[CHUNK];
        for (int64_t offset = 0; offset < n; offset += CHUNK) {
            int64_t m = n - offset < CHUNK ? n - offset : CHUNK;
            const double *xs = to_double(x_data, x_type, offset, m, x_buffer, use_avx2);
            const double *ys = to_double(y_data, y_type, offset, m, y_buffer, use_avx2);
            int64_t k = 0;
#if AF_X86_DISPATCH
            if (use_avx2) k = whole_double_avx2(xs, ys, m, offset, w, &max_abs_double, &max_rel_double);
#endif
            for (; k < m; k++)
                SW_ELEMENT(double, fabs, xs[k], ys[k], offset + k, max_abs_double, max_rel_double);
        }
    } else {
#if AF_X86_DISPATCH
        if (use_avx2)
            whole_float_avx2(x_data, x_type, y_data, y_type, 0, n, w, &max_abs_float, &max_rel_float);
        else
#endif
            whole_float_scalar(x_data, x_type, y_data, y_type, 0, n, w, &max_abs_float, &max_rel_float);
    }
    out_doubles[SW_MAX_ABS] = wide64 ? max_abs_double : (double)max_abs_float;
    out_doubles[SW_MAX_REL] = wide64 ? max_rel_double : (double)max_rel_float;
    out_doubles[SW_X_MAX] = w->x_max;
    out_doubles[SW_X_MIN] = w->x_min;
    out_doubles[SW_Y_MAX] = w->y_max;
    out_doubles[SW_Y_MIN] = w->y_min;
    out_doubles[SW_NAN] = wide64 ? -1.0 : (double)w->nan;
    memcpy(out_counts, w->c, sizeof w->c);
    return AF_OK;
}

#if AF_X86_DISPATCH
/* af_sign_scan's sweep after its first candidate: elements [start, n) eight a step for what stays exact there
 * (the not-equal count, the fused NaN/±Inf/±max values and the extremes), with whole_float_avx2's tests and
 * selects; no tolerance, no maxima of the differences (the candidates are af_sign_whole's to list). */
__attribute__((target("avx2,f16c"))) static void scan_float_avx2(const void *x_data, int x_type, const void *y_data,
                                                                 int y_type, int64_t start, int64_t n, af_whole *w)
{
    const __m256 magnitude = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    const __m256 limit = _mm256_set1_ps((float)w->limit), not_a_number = _mm256_set1_ps(NAN);
    __m256 x_max = _mm256_set1_ps(-INFINITY), x_min = _mm256_set1_ps(INFINITY);
    __m256 y_max = _mm256_set1_ps(-INFINITY), y_min = _mm256_set1_ps(INFINITY);
    float ignored_abs = 0, ignored_rel = 0;
    int64_t i = start, not_equal = 0, nan = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 x = load8(x_data, x_type, i), y = load8(y_data, y_type, i);
        const __m256 either_nan = _mm256_cmp_ps(x, y, _CMP_UNORD_Q); /* a NaN on either side */
        const int nan_bits = _mm256_movemask_ps(either_nan);
        /* isnan(x) or |x| >= limit: not (|x| < limit), unordered true. */
        const int special = w->special ? _mm256_movemask_ps(_mm256_cmp_ps(_mm256_and_ps(x, magnitude), limit,
                                                                          _CMP_NLT_UQ))
                                       : 0;
        __m256 keep_x = x, keep_y = y;
        if (nan_bits) { /* the usual vector has no NaN: no blend */
            keep_x = _mm256_blendv_ps(x, not_a_number, either_nan);
            keep_y = _mm256_blendv_ps(y, not_a_number, either_nan);
            nan += __builtin_popcount((unsigned)nan_bits);
        }
        not_equal += __builtin_popcount((unsigned)_mm256_movemask_ps(_mm256_cmp_ps(x, y, _CMP_NEQ_UQ)));
        x_max = _mm256_max_ps(keep_x, x_max);
        x_min = _mm256_min_ps(keep_x, x_min);
        y_max = _mm256_max_ps(keep_y, y_max);
        y_min = _mm256_min_ps(keep_y, y_min);
        if (special) whole_record_lanes(w, i, 8, special, 0);
    }
    w->c[SW_NOT_EQUAL] += not_equal;
    w->nan += nan;
    whole_fold_extremes(w, x_max, x_min, y_max, y_min);
    /* The last few elements as af_sign_whole does them (their candidates and maxima are not looked at). */
    whole_float_scalar(x_data, x_type, y_data, y_type, i, n, w, &ignored_abs, &ignored_rel);
}
#endif

#if AF_X86_DISPATCH
/* scan_float_avx2 for a pair with a float64 side (af_sign_whole's double sweep leaves the extremes out): the
 * not-equal count and the fused NaN/±Inf/±max values of m doubles from flat index offset, four a step. */
__attribute__((target("avx2,f16c"))) static void scan_double_avx2(const double *xs, const double *ys, int64_t m,
                                                                  int64_t offset, af_whole *w)
{
    const __m256d magnitude = _mm256_castsi256_pd(_mm256_set1_epi64x(INT64_C(0x7fffffffffffffff)));
    const __m256d limit = _mm256_set1_pd(w->limit);
    int64_t i = 0, not_equal = 0;
    for (; i + 4 <= m; i += 4) {
        const __m256d x = _mm256_loadu_pd(xs + i), y = _mm256_loadu_pd(ys + i);
        const int special = w->special ? _mm256_movemask_pd(_mm256_or_pd(
                                             _mm256_cmp_pd(x, x, _CMP_UNORD_Q),
                                             _mm256_cmp_pd(_mm256_and_pd(x, magnitude), limit, _CMP_GE_OQ)))
                                       : 0;
        not_equal += __builtin_popcount((unsigned)_mm256_movemask_pd(_mm256_cmp_pd(x, y, _CMP_NEQ_UQ)));
        if (special) whole_record_lanes(w, offset + i, 4, special, 0);
    }
    for (; i < m; i++) {
        not_equal += xs[i] != ys[i];
        whole_record(w, offset + i, w->special && (isnan(xs[i]) || fabs(xs[i]) >= w->limit), 0);
    }
    w->c[SW_NOT_EQUAL] += not_equal;
}
#endif

#if AF_X86_DISPATCH
/* scan_double_avx2 of a float32 x and a float64 y read in place, eight elements a step: the fused NaN/±Inf/±max
 * test on x's floats (exact: `limit` is x's dtype's value, float holds it), x != y on x converted to double
 * (exact). Elements [offset, offset + n); the last few as scan_double_avx2's scalar loop. */
__attribute__((target("avx2,f16c"))) static void scan_f32_f64_avx2(const float *xs, const double *ys, int64_t n,
                                                                   int64_t offset, af_whole *w)
{
    const __m256 magnitude = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    const __m256 limit = _mm256_set1_ps((float)w->limit);
    int64_t i = offset, not_equal = 0;
    for (; i + 8 <= offset + n; i += 8) {
        const __m256 x = _mm256_loadu_ps(xs + i);
        const __m256d low = _mm256_cvtps_pd(_mm256_castps256_ps128(x));
        const __m256d high = _mm256_cvtps_pd(_mm256_extractf128_ps(x, 1));
        const int differ = _mm256_movemask_pd(_mm256_cmp_pd(low, _mm256_loadu_pd(ys + i), _CMP_NEQ_UQ))
                           | _mm256_movemask_pd(_mm256_cmp_pd(high, _mm256_loadu_pd(ys + i + 4), _CMP_NEQ_UQ)) << 4;
        /* isnan(x) or |x| >= limit: not (|x| < limit), unordered true. */
        const int special = w->special ? _mm256_movemask_ps(_mm256_cmp_ps(_mm256_and_ps(x, magnitude), limit,
                                                                          _CMP_NLT_UQ))
                                       : 0;
        not_equal += __builtin_popcount((unsigned)differ);
        if (special) whole_record_lanes(w, i, 8, special, 0);
    }
    for (; i < offset + n; i++) {
        const double x = xs[i], y = ys[i];
        not_equal += x != y;
        whole_record(w, i, w->special && (isnan(x) || fabs(x) >= w->limit), 0);
    }
    w->c[SW_NOT_EQUAL] += not_equal;
}
#endif

/* af_sign_scan's chunk: one in SCAN_CHUNK elements (a multiple of 8) is swept whole before the next looks. */
#define SCAN_CHUNK 4096

/*
 * af_sign_whole of a float pair (same arguments but wide64: a float64 side) with the candidates looked for only
 * until more than candidate_cap are found (dense errors; checked after each chunk of SCAN_CHUNK): signature._sampled
 * needs them only when the sample grid shows nothing beyond rounding, and then asks af_sign_whole. When
 * out_counts[SW_CANDIDATES] <= candidate_cap every output is af_sign_whole's (all the candidates listed);
 * otherwise the not-equal count, the specials and the extremes are still exact (the rest of the pair by
 * scan_float_avx2), the candidates' count and the two maxima cover only the chunks swept before (a float64
 * side: af_sign_whole's double sweep, whose extremes are not worked out, then scan_double_avx2). AF_UNSUPPORTED
 * without AVX2 (af_sign_whole then).
 */
AF_EXPORT int af_sign_scan(const void *x_data, int x_type, const void *y_data, int y_type, int64_t n, int special,
                           const double *params, int64_t special_cap, int64_t *specials, int64_t candidate_cap,
                           int64_t *candidates, double *out_doubles, int64_t *out_counts)
{
#if AF_X86_DISPATCH
    float max_abs = 0, max_rel = 0;
    double max_abs_double = 0, max_rel_double = 0;
    af_whole whole;
    af_whole *w = &whole;
    int64_t offset = 0;
    const int wide64 = x_type == AF_FLOAT64 || y_type == AF_FLOAT64;
    if (!f16_ready || !use_avx2 || n <= 0 || !is_float_code(x_type) || !is_float_code(y_type))
        return AF_UNSUPPORTED;
    if (x_type == y_type && same_bits(x_data, y_data, (size_t)n * type_size(x_type)))
        return sign_whole(x_data, x_type, y_data, y_type, n, wide64, special, params, special_cap, specials,
                          candidate_cap, candidates, out_doubles, out_counts, 1);
    whole_start(w, special, params, special_cap, specials, candidate_cap, candidates);
    if (wide64) { /* af_sign_whole's double sweep, chunk by chunk, until a candidate */
        double x_buffer[CHUNK], y_buffer[CHUNK];
        /* float32 against float64 (a float64 origin) past the candidates: read in place, x's tests in float. */
        const int in_place = x_type == AF_FLOAT32 && y_type == AF_FLOAT64 && (double)(float)w->limit == w->limit;
        for (; offset < n; offset += CHUNK) {
            const int64_t m = n - offset < CHUNK ? n - offset : CHUNK;
            const double *xs, *ys;
            int64_t k;
            if (in_place && w->c[SW_CANDIDATES] > candidate_cap) {
                scan_f32_f64_avx2((const float *)x_data, (const double *)y_data, n - offset, offset, w);
                offset = n; /* the whole rest swept: nothing below runs */
                break;
            }
            xs = to_double(x_data, x_type, offset, m, x_buffer, use_avx2);
            ys = to_double(y_data, y_type, offset, m, y_buffer, use_avx2);
            if (w->c[SW_CANDIDATES] > candidate_cap) {
                scan_double_avx2(xs, ys, m, offset, w);
                continue;
            }
            k = whole_double_avx2(xs, ys, m, offset, w, &max_abs_double, &max_rel_double);
            for (; k < m; k++) SW_ELEMENT(double, fabs, xs[k], ys[k], offset + k, max_abs_double, max_rel_double);
        }
    }
    while (offset < n && w->c[SW_CANDIDATES] <= candidate_cap) {
        const int64_t end = n - offset < SCAN_CHUNK ? n : offset + SCAN_CHUNK;
        whole_float_avx2(x_data, x_type, y_data, y_type, offset, end, w, &max_abs, &max_rel);
        offset = end;
    }
    if (offset < n) scan_float_avx2(x_data, x_type, y_data, y_type, offset, n, w);
    out_doubles[SW_MAX_ABS] = wide64 ? max_abs_double : (double)max_abs;
    out_doubles[SW_MAX_REL] = wide64 ? max_rel_double : (double)max_rel;
    out_doubles[SW_X_MAX] = w->x_max;
    out_doubles[SW_X_MIN] = w->x_min;
    out_doubles[SW_Y_MAX] = w->y_max;
    out_doubles[SW_Y_MIN] = w->y_min;
    out_doubles[SW_NAN] = wide64 ? -1.0 : (double)w->nan;
    memcpy(out_counts, w->c, sizeof w->c);
    return AF_OK;
#else
    (void)x_data, (void)x_type, (void)y_data, (void)y_type, (void)n, (void)special, (void)params;
    (void)special_cap, (void)specials, (void)candidate_cap, (void)candidates, (void)out_doubles, (void)out_counts;
    return AF_UNSUPPORTED;
#endif
}
#undef SCAN_CHUNK
#undef SW_ELEMENT
#undef SW_NAN_MAX


/* Floating-point exceptions are never looked at (see the survey): the gate's chunk loop vectorises too. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("no-trapping-math")
#endif

enum { SG_X_MAX, SG_X_MIN, SG_Y_MAX, SG_Y_MIN, SG_SUM_X, SG_SUM_Y, SG_SUM_ABS_Y, SG_NAN, SG_TOL_MAX, SG_SUM_TOL,
       SG_DOUBLES };

/* One chunk of af_sign_gate in lanes (g: LANES each of x max, x min, y max, y min, sums of x, y, |y|, NaNs). */
AF_INLINE void gate_chunk(const double *xs, const double *ys, int64_t m, double c1, double c2, double *g)
{
    double lanes[SG_DOUBLES][LANES];
    int64_t i = 0;
    int k;
    for (int f = 0; f < SG_DOUBLES; f++)
        for (k = 0; k < LANES; k++) lanes[f][k] = g[f * LANES + k];
#define SG_BODY(K, I) \
    do { \
        const double x = xs[I], y = ys[I], ax = fabs(x), ay = fabs(y); \
        const double tol = c1 * (ax > ay ? ax : ay) + c2; \
        lanes[SG_X_MAX][K] = x > lanes[SG_X_MAX][K] ? x : lanes[SG_X_MAX][K]; \
        lanes[SG_X_MIN][K] = x < lanes[SG_X_MIN][K] ? x : lanes[SG_X_MIN][K]; \
        lanes[SG_Y_MAX][K] = y > lanes[SG_Y_MAX][K] ? y : lanes[SG_Y_MAX][K]; \
        lanes[SG_Y_MIN][K] = y < lanes[SG_Y_MIN][K] ? y : lanes[SG_Y_MIN][K]; \
        lanes[SG_SUM_X][K] += x; \
        lanes[SG_SUM_Y][K] += y; \
        lanes[SG_SUM_ABS_Y][K] += ay; \
        lanes[SG_NAN][K] += ((x != x) | (y != y)) ? 1.0 : 0.0; \
        lanes[SG_TOL_MAX][K] = tol > lanes[SG_TOL_MAX][K] ? tol : lanes[SG_TOL_MAX][K]; \
        lanes[SG_SUM_TOL][K] += tol; \
    } while (0)
    for (; i + LANES <= m; i += LANES)
        for (k = 0; k < LANES; k++) SG_BODY(k, i + k);
    for (; i < m; i++) SG_BODY(0, i);
#undef SG_BODY
    for (int f = 0; f < SG_DOUBLES; f++)
        for (k = 0; k < LANES; k++) g[f * LANES + k] = lanes[f][k];
}

static void gate_chunk_baseline(const double *xs, const double *ys, int64_t m, double c1, double c2, double *g)
{
    gate_chunk(xs, ys, m, c1, c2, g);
}

#if AF_X86_DISPATCH
__attribute__((target("avx2,f16c"))) static void gate_chunk_avx2(const double *xs, const double *ys, int64_t m,
                                                                 double c1, double c2, double *g)
{
    gate_chunk(xs, ys, m, c1, c2, g);
}
#endif

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif

/*
 * The figures of the permutation gates (signature._permutation's, _whole_permutation's) on a whole pair:
 * out[SG_*] = the extremes of x and y (exact; meaningful when out[SG_NAN], the count of elements with a NaN
 * on either side, is 0), the sums of x, y and |y| in double (in lanes: off from numpy's pairwise sums by at
 * most n units of 2**-53 of the sum of the magnitudes), and the largest and the sum of tol = c1 max(|x|,
 * |y|) + c2 (for finite pairs _classify's tol).
 */
AF_EXPORT int af_sign_gate(const void *x_data, int x_type, const void *y_data, int y_type, int64_t n, double c1,
                           double c2, double *out)
{
    double x_buffer[CHUNK], y_buffer[CHUNK], g[SG_DOUBLES * LANES];
    if (!f16_ready || !is_float_code(x_type) || !is_float_code(y_type) || n <= 0) return AF_UNSUPPORTED;
    for (int k = 0; k < LANES; k++) {
        g[SG_X_MAX * LANES + k] = g[SG_Y_MAX * LANES + k] = -INFINITY;
        g[SG_X_MIN * LANES + k] = g[SG_Y_MIN * LANES + k] = INFINITY;
        g[SG_SUM_X * LANES + k] = g[SG_SUM_Y * LANES + k] = g[SG_SUM_ABS_Y * LANES + k] = g[SG_NAN * LANES + k] = 0;
        g[SG_TOL_MAX * LANES + k] = -INFINITY;
        g[SG_SUM_TOL * LANES + k] = 0;
    }
    for (int64_t offset = 0; offset < n; offset += CHUNK) {
        int64_t m = n - offset < CHUNK ? n - offset : CHUNK;
        const double *xs = to_double(x_data, x_type, offset, m, x_buffer, use_avx2);
        const double *ys = to_double(y_data, y_type, offset, m, y_buffer, use_avx2);
#if AF_X86_DISPATCH
        if (use_avx2)
            gate_chunk_avx2(xs, ys, m, c1, c2, g);
        else
#endif
            gate_chunk_baseline(xs, ys, m, c1, c2, g);
    }
    out[SG_X_MAX] = out[SG_Y_MAX] = -INFINITY;
    out[SG_X_MIN] = out[SG_Y_MIN] = INFINITY;
    out[SG_SUM_X] = out[SG_SUM_Y] = out[SG_SUM_ABS_Y] = out[SG_NAN] = out[SG_SUM_TOL] = 0;
    out[SG_TOL_MAX] = -INFINITY;
    for (int k = 0; k < LANES; k++) {
        const double *lane = g + k;
        out[SG_X_MAX] = lane[SG_X_MAX * LANES] > out[SG_X_MAX] ? lane[SG_X_MAX * LANES] : out[SG_X_MAX];
        out[SG_X_MIN] = lane[SG_X_MIN * LANES] < out[SG_X_MIN] ? lane[SG_X_MIN * LANES] : out[SG_X_MIN];
        out[SG_Y_MAX] = lane[SG_Y_MAX * LANES] > out[SG_Y_MAX] ? lane[SG_Y_MAX * LANES] : out[SG_Y_MAX];
        out[SG_Y_MIN] = lane[SG_Y_MIN * LANES] < out[SG_Y_MIN] ? lane[SG_Y_MIN * LANES] : out[SG_Y_MIN];
        out[SG_SUM_X] += lane[SG_SUM_X * LANES];
        out[SG_SUM_Y] += lane[SG_SUM_Y * LANES];
        out[SG_SUM_ABS_Y] += lane[SG_SUM_ABS_Y * LANES];
        out[SG_NAN] += lane[SG_NAN * LANES];
        out[SG_TOL_MAX] = lane[SG_TOL_MAX * LANES] > out[SG_TOL_MAX] ? lane[SG_TOL_MAX * LANES] : out[SG_TOL_MAX];
        out[SG_SUM_TOL] += lane[SG_SUM_TOL * LANES];
    }
    return AF_OK;
}


/*
 * signature._residual (checks 7-10: bias, scale, then what the correlation needs) in C, in stages, for pairs
 * whose differing elements form no region. Every value is numpy's: the masks are _classify's, the estimates
 * come from the same model sample (the flat positions 0, stride, 2 stride, ...: signature._model_sample), each
 * median is the same order statistic (the mean of the two middle ones, (a + b) / 2, for an even count), the
 * products and quotients are the same IEEE operations. A NaN in a median's input returns AF_FALLBACK (numpy orders NaN
 * last; the numpy path decides then), as does a failed allocation.
 */
enum { RP_C1, RP_C2, RP_F_MAX, RP_F_TINY, RP_F_MIN_SUB, RP_EPS, RP_ULPS, RP_STRIDE, RP_REJECT };
enum { RS_BIAS, RS_SCALE, RS_GATHER, RS_REL };
enum { RD_FIRST, RD_SECOND, RD_DOUBLES };
enum { RC_USABLE, RC_LEFT, RC_REST, RC_COUNTS };

/* The k-th smallest of a[0, m) (0-based; no NaN): quickselect with a median-of-three pivot and Hoare's
 * partition; a is reordered, the ones before k no larger, the ones after no smaller. (A radix selection was
 * slower on every size and shape of the generator's pairs.) */
static double select_kth(double *a, int64_t m, int64_t k)
{
    int64_t lo = 0, hi = m - 1;
    while (hi > lo) {
        int64_t mid = lo + (hi - lo) / 2, i = lo, j = hi;
        double p, t;
        if (a[mid] < a[lo]) { t = a[mid]; a[mid] = a[lo]; a[lo] = t; }
        if (a[hi] < a[lo]) { t = a[hi]; a[hi] = a[lo]; a[lo] = t; }
        if (a[hi] < a[mid]) { t = a[hi]; a[hi] = a[mid]; a[mid] = t; }
        p = a[mid];
        while (i <= j) {
            while (a[i] < p) i++;
            while (a[j] > p) j--;
            if (i <= j) {
                t = a[i]; a[i] = a[j]; a[j] = t;
                i++;
                j--;
            }
        }
        if (k <= j) hi = j;
        else if (k >= i) lo = i;
        else return a[k];
    }
    return a[k];
}

/* np.median of a[0, m), m > 0 (a is left as it is; scratch: room for m doubles): the middle order statistic,
 * or (lower + upper) / 2 of the two middle ones. *nan is set when a NaN is among them, and when the answer
 * involves a zero while both signed zeros are there (numpy may pick the other one: the numpy path decides). */
static double median_of(const double *a, int64_t m, double *scratch, int *nan)
{
    double upper, lower;
    for (int64_t i = 0; i < m; i++) {
        if (a[i] != a[i]) {
            *nan = 1;
            return NAN;
        }
        scratch[i] = a[i];
    }
    upper = select_kth(scratch, m, m / 2);
    lower = upper;
    if (m % 2 == 0) {
        lower = scratch[0]; /* the largest of the ones before m/2 */
        for (int64_t i = 1; i < m / 2; i++) lower = scratch[i] > lower ? scratch[i] : lower;
    }
    if (upper == 0 || lower == 0) {
        int negative = 0, positive = 0;
        for (int64_t i = 0; i < m; i++)
            if (a[i] == 0) {
                if (signbit(a[i])) negative = 1;
                else positive = 1;
            }
        if (negative && positive) *nan = 1;
    }
    return m % 2 ? upper : (lower + upper) / 2;
}

/* v > np.median(a[0, m)) for m > 0 (scratch: room for m doubles; *nan as median_of sets it), mostly without
 * the median: one count of the values below v decides unless it is exactly m / 2 of an even m (then v may
 * fall between the two middle values and their mean decides, worked out by median_of). More than m / 2 below:
 * both middle values are below v, so is their rounded mean (no overflow for v <= DBL_MAX / 2); at most
 * (m - 1) / 2 below: the lower middle value is at least v, so is the mean. A model's size test needs only this,
 * not the median (a third of a fitted model's selections). */
static int above_median(const double *a, int64_t m, double v, double *scratch, int *nan)
{
    int64_t below = 0, nans = 0;
    for (int64_t i = 0; i < m; i++) {
        below += a[i] < v;
        nans += a[i] != a[i];
    }
    if (nans) {
        *nan = 1;
        return 0;
    }
    if (below > m / 2 && v <= DBL_MAX / 2) return 1;
    if (below <= (m - 1) / 2) return 0;
    return v > median_of(a, m, scratch, nan);
}

/* _classify's per-element masks (as af_sign_survey: operation by operation numpy's). */
typedef struct {
    double x, y, tol;
    int usable, rest;
} af_element;

AF_INLINE af_element classify_element(double x, double y, const double *params)
{
    af_element e;
    const double ax = fabs(x), ay = fabs(y), mx = isfinite(x) ? ax : 0, my = isfinite(y) ? ay : 0;
    const int fx = isfinite(x), fy = isfinite(y), both = fx && fy;
    const int bad = both ? fabs(x - y) > (params[RP_C1] * (mx > my ? mx : my) + params[RP_C2])
                         : !(!fx && !fy && ((isnan(x) && isnan(y)) || x == y));
    const int overflow = (isinf(x) || ax >= params[RP_F_MAX]) && fy && ay > params[RP_F_MAX];
    const int nonfinite = !fx && fy && !overflow;
    const int underflow = x == 0 && ay >= params[RP_F_MIN_SUB] && ay < params[RP_F_TINY] && bad;
    const int explained = overflow || nonfinite || underflow;
    e.x = x;
    e.y = y;
    e.tol = params[RP_C1] * (mx > my ? mx : my) + params[RP_C2];
    e.usable = both && !explained;
    e.rest = bad && !explained;
    return e;
}

/* classify_element out of line, for the rare elements the plain fast paths below leave to it. */
static __attribute__((noinline)) af_element classify_other(double x, double y, const double *params)
{
    return classify_element(x, y, params);
}

/* classify_element of a sample element: a plain one (both finite, |y| within the fused max, x not zero) is one
 * no check 1-3 explains, hence usable, rest when beyond tol (see model_left_avx2); its tol and test are
 * classify_element's operations, without its tests for the special values (out of line, for the others). */
AF_INLINE af_element classify_sampled(double x, double y, const double *params)
{
    const double ax = fabs(x), ay = fabs(y);
    if (ax <= DBL_MAX && ay <= DBL_MAX && ay <= params[RP_F_MAX] && x != 0) {
        af_element e;
        e.x = x;
        e.y = y;
        e.tol = params[RP_C1] * (ax > ay ? ax : ay) + params[RP_C2];
        e.usable = 1;
        e.rest = fabs(x - y) > e.tol;
        return e;
    }
    return classify_other(x, y, params);
}

/* A float16, float32 or float64 element as double (exact). */
AF_INLINE double double_at(const void *data, int type, int64_t i)
{
    return type == AF_FLOAT64 ? ((const double *)data)[i] : (double)float_at(data, type, i);
}

/* The m elements start, start + stride, ... of a float16/float32/float64 array as doubles (double_at's exact
 * values): the type is tested once per call, not per element as double_at does. */
static void strided_doubles(const void *data, int type, int64_t start, int64_t stride, int64_t m, double *out)
{
    if (type == AF_FLOAT64) {
        const double *d = (const double *)data + start;
        for (int64_t k = 0; k < m; k++) out[k] = d[k * stride];
    } else if (type == AF_FLOAT32) {
        const float *f = (const float *)data + start;
        for (int64_t k = 0; k < m; k++) out[k] = (double)f[k * stride];
    } else {
        const uint16_t *h = (const uint16_t *)data + start;
        for (int64_t k = 0; k < m; k++) out[k] = (double)f16_table[h[k * stride]];
    }
}

/* The model sample (flat positions 0, stride, 2 stride, ...) classified once for the stages: its usable
 * elements' x, y and tol in columns, in C order (what every stage reads of them), and how many of the others are
 * rest (each stage counts them off its model). */
typedef struct {
    int64_t used, rest_other;
    double *x, *y, *tol; /* room for the picked positions each, used of them filled */
} af_sample;

/* classify_sampled of xs[k], ys[k] for k in [from, m) into the sample's columns from `used`; returns the new used
 * count (rest_other: the others that are rest). */
static int64_t sample_elements(const double *xs, const double *ys, int64_t from, int64_t m, const double *params,
                               af_sample *sample, int64_t used, int64_t *rest_other)
{
    for (int64_t k = from; k < m; k++) {
        const af_element e = classify_sampled(xs[k], ys[k], params);
        /* Written always, kept when usable: no branch on the data for the usual all-usable sample. */
        sample->x[used] = e.x;
        sample->y[used] = e.y;
        sample->tol[used] = e.tol;
        used += e.usable;
        *rest_other += e.rest && !e.usable;
    }
    return used;
}

#if AF_X86_DISPATCH
/* classify_sampled's plain test in four lanes (x finite, |y| within the fused max, x not zero; NaN: not plain). */
__attribute__((target("avx2,f16c"), always_inline)) static inline __m256d plain_lanes(__m256d x, __m256d ax,
                                                                                     __m256d ay, __m256d f_max)
{
    return _mm256_and_pd(_mm256_and_pd(_mm256_cmp_pd(ax, _mm256_set1_pd(DBL_MAX), _CMP_LE_OQ),
                                       _mm256_cmp_pd(ay, f_max, _CMP_LE_OQ)),
                         _mm256_cmp_pd(x, _mm256_setzero_pd(), _CMP_NEQ_OQ));
}

/* sample_elements four at a time: four plain ones (classify_sampled's test in lanes) are usable with tol's same
 * operations (no FMA); a step holding another goes through sample_elements. */
__attribute__((target("avx2,f16c"))) static int64_t sample_elements_avx2(const double *xs, const double *ys,
                                                                         int64_t m, const double *params,
                                                                         af_sample *sample, int64_t used,
                                                                         int64_t *rest_other)
{
    const __m256d c1 = _mm256_set1_pd(params[RP_C1]), c2 = _mm256_set1_pd(params[RP_C2]);
    const __m256d f_max = _mm256_set1_pd(params[RP_F_MAX]);
    const __m256d magnitude = _mm256_castsi256_pd(_mm256_set1_epi64x(INT64_C(0x7fffffffffffffff)));
    int64_t k = 0;
    for (; k + 4 <= m; k += 4) {
        const __m256d x = _mm256_loadu_pd(xs + k), y = _mm256_loadu_pd(ys + k);
        const __m256d ax = _mm256_and_pd(x, magnitude), ay = _mm256_and_pd(y, magnitude);
        if (_mm256_movemask_pd(plain_lanes(x, ax, ay, f_max)) != 15) {
            used = sample_elements(xs, ys, k, k + 4, params, sample, used, rest_other);
            continue;
        }
        _mm256_storeu_pd(sample->x + used, x);
        _mm256_storeu_pd(sample->y + used, y);
        _mm256_storeu_pd(sample->tol + used, _mm256_add_pd(_mm256_mul_pd(c1, _mm256_max_pd(ax, ay)), c2));
        used += 4;
    }
    return sample_elements(xs, ys, k, m, params, sample, used, rest_other);
}
#endif

/* The model sample of a stride (its ceil(n / stride) elements) classified (classify_sampled); 0 when out of
 * memory. */
static int classify_sample(const void *x_data, int x_type, const void *y_data, int y_type, int64_t n,
                           int64_t stride, const double *params, af_sample *sample)
{
    const int64_t picked = (n + stride - 1) / stride;
    double xs[CHUNK], ys[CHUNK];
    int64_t used = 0, rest_other = 0;
    double *block = (double *)malloc((size_t)(3 * picked) * sizeof *block);
    if (block == NULL) return 0;
    sample->x = block;
    sample->y = block + picked;
    sample->tol = block + 2 * picked;
    for (int64_t p = 0; p < picked; p += CHUNK) {
        const int64_t m = picked - p < CHUNK ? picked - p : CHUNK;
        strided_doubles(x_data, x_type, p * stride, stride, m, xs);
        strided_doubles(y_data, y_type, p * stride, stride, m, ys);
#if AF_X86_DISPATCH
        if (use_avx2) {
            used = sample_elements_avx2(xs, ys, m, params, sample, used, &rest_other);
            continue;
        }
#endif
        used = sample_elements(xs, ys, 0, m, params, sample, used, &rest_other);
    }
    sample->used = used;
    sample->rest_other = rest_other;
    return 1;
}

#define RS_EACH(BODY) \
    do { \
        for (int64_t offset_ = 0; offset_ < n; offset_ += CHUNK) { \
            int64_t m_ = n - offset_ < CHUNK ? n - offset_ : CHUNK; \
            const double *xs_ = to_double(x_data, x_type, offset_, m_, x_buffer, use_avx2); \
            const double *ys_ = to_double(y_data, y_type, offset_, m_, y_buffer, use_avx2); \
            for (int64_t k_ = 0; k_ < m_; k_++) { \
                const int64_t i = offset_ + k_; \
                const af_element e = classify_element(xs_[k_], ys_[k_], params); \
                (void)i; \
                BODY \
            } \
        } \
    } while (0)

/* A value model's test on one element: RS_BIAS |d - offset| > tol + slack (a offset, b slack), RS_SCALE
 * |x - factor y| > tol max(1, |factor|) (a factor, b that max). */
AF_INLINE int model_off(int kind, double x, double y, double tol, double a, double b)
{
    return kind == RS_BIAS ? fabs((x - y) - a) > tol + b : fabs(x - a * y) > tol * b;
}

/* model_left over m elements (flat index offset + k) one by one: the stage's test with classify_element. */
static int64_t model_left_scalar(const double *xs, const double *ys, int64_t m, int64_t offset, const double *params,
                                 int kind, double a, double b, af_marks *mk)
{
    int64_t left = 0;
    for (int64_t k = 0; k < m; k++) {
        const af_element e = classify_element(xs[k], ys[k], params);
        if ((model_off(kind, e.x, e.y, e.tol, a, b) && e.usable) || (e.rest && !e.usable)) {
            left++;
            mark_element(mk, offset + k);
        }
    }
    return left;
}

/* 0: the value models' whole pass stays in double (af_sign_model_f32: the tests compare the two). */
static int model_f32_on = 1;

AF_EXPORT void af_sign_model_f32(int on) { model_f32_on = on != 0; }

#if AF_X86_DISPATCH
/* model_left_scalar four elements a step on the raw pair's elements [0, n) (float16, float32 or float64 each,
 * converted to double in registers: no buffer): a plain element (both finite, |y| within the fused max, x not
 * zero) is one no check 1-3 explains (overflow needs |y| above the max, nonfinite a non-finite x, underflow
 * x == 0), hence usable, and its test is the same operations in vectors (no FMA); the others go through
 * classify_element. */
__attribute__((target("avx2,f16c"), always_inline)) static inline int64_t model_left_body(
    const void *x_data, int x_type, const void *y_data, int y_type, int64_t n, const double *params, int kind,
    double a, double b, int usable, af_marks *mk)
{
    const __m256d c1 = _mm256_set1_pd(params[RP_C1]), c2 = _mm256_set1_pd(params[RP_C2]);
    const __m256d f_max = _mm256_set1_pd(params[RP_F_MAX]);
    const __m256d va = _mm256_set1_pd(a), vb = _mm256_set1_pd(b);
    const __m256d magnitude = _mm256_castsi256_pd(_mm256_set1_epi64x(INT64_C(0x7fffffffffffffff)));
    int64_t left = 0, i = 0;
    for (; i + 4 <= n; i += 4) {
        const __m256d x = load4_double(x_data, x_type, i), y = load4_double(y_data, y_type, i);
        const __m256d ax = _mm256_and_pd(x, magnitude), ay = _mm256_and_pd(y, magnitude);
        /* usable: every element is (model_left's all_usable), so each one's test is the plain one. */
        const __m256d plain = usable ? _mm256_castsi256_pd(_mm256_set1_epi64x(-1)) : plain_lanes(x, ax, ay, f_max);
        const __m256d tol = _mm256_add_pd(_mm256_mul_pd(c1, _mm256_max_pd(ax, ay)), c2);
        __m256d off;
        int plain_bits, off_bits;
        if (kind == RS_BIAS)
            off = _mm256_cmp_pd(_mm256_and_pd(_mm256_sub_pd(_mm256_sub_pd(x, y), va), magnitude),
                                _mm256_add_pd(tol, vb), _CMP_GT_OQ);
        else
            off = _mm256_cmp_pd(_mm256_and_pd(_mm256_sub_pd(x, _mm256_mul_pd(va, y)), magnitude),
                                _mm256_mul_pd(tol, vb), _CMP_GT_OQ);
        off_bits = _mm256_movemask_pd(off);
        if (usable) { /* no element needs classify_element */
            if (!off_bits) continue;
            for (int k = 0; k < 4; k++) {
                if ((off_bits >> k) & 1) {
                    left++;
                    mark_element(mk, i + k);
                }
            }
            continue;
        }
        plain_bits = _mm256_movemask_pd(plain);
        off_bits &= plain_bits;
        if (plain_bits == 15 && !off_bits) continue;
        for (int k = 0; k < 4; k++) {
            if ((plain_bits >> k) & 1) {
                if ((off_bits >> k) & 1) {
                    left++;
                    mark_element(mk, i + k);
                }
            } else {
                const double xd = double_at(x_data, x_type, i + k), yd = double_at(y_data, y_type, i + k);
                left += model_left_scalar(&xd, &yd, 1, i + k, params, kind, a, b, mk);
            }
        }
    }
    for (; i < n; i++) {
        const double xd = double_at(x_data, x_type, i), yd = double_at(y_data, y_type, i);
        left += model_left_scalar(&xd, &yd, 1, i, params, kind, a, b, mk);
    }
    return left;
}

/* model_left_body with the usual pairs' types, the model's kind and whether every element is usable known to
 * the compiler (loads and the model's test unswitched; the same operations, so the same answer). */
__attribute__((target("avx2,f16c"))) static int64_t model_left_avx2(const void *x_data, int x_type,
                                                                    const void *y_data, int y_type, int64_t n,
                                                                    const double *params, int kind, double a,
                                                                    double b, int all_usable, af_marks *mk)
{
#define ML_USABLE(X_TYPE, Y_TYPE, KIND) \
    (all_usable ? model_left_body(x_data, X_TYPE, y_data, Y_TYPE, n, params, KIND, a, b, 1, mk) \
                : model_left_body(x_data, X_TYPE, y_data, Y_TYPE, n, params, KIND, a, b, 0, mk))
#define ML_TYPED(X_TYPE, Y_TYPE) \
    (kind == RS_BIAS    ? ML_USABLE(X_TYPE, Y_TYPE, RS_BIAS) \
     : kind == RS_SCALE ? ML_USABLE(X_TYPE, Y_TYPE, RS_SCALE) \
                        : model_left_body(x_data, X_TYPE, y_data, Y_TYPE, n, params, kind, a, b, 0, mk))
    if (x_type == AF_FLOAT32 && y_type == AF_FLOAT32) return ML_TYPED(AF_FLOAT32, AF_FLOAT32);
    if (x_type == AF_FLOAT32 && y_type == AF_FLOAT64) return ML_TYPED(AF_FLOAT32, AF_FLOAT64);
    if (x_type == AF_FLOAT64 && y_type == AF_FLOAT64) return ML_TYPED(AF_FLOAT64, AF_FLOAT64);
    return ML_TYPED(x_type, y_type);
#undef ML_TYPED
#undef ML_USABLE
}

/* True when model_left_f32 may run: float16/float32 sides (exact as floats), the fused max exact in float, and
 * tol's c1, c2 and the model's a and b far inside float's range: c1 between 2**-12 and 1/2, c2 up to 2**100,
 * a and b 0 or between 2**-100 and 2**100 in magnitude (each float within 2**-24 of its double). A smaller c1
 * (a float32 pair's 4 ulps: 2**-21) leaves tol within float's own rounding: most elements would be tested
 * again in double, so the double pass runs. */
static int model_f32_fits(int x_type, int y_type, const double *params, double a, double b)
{
    const double c1 = params[RP_C1], c2 = params[RP_C2], f_max = params[RP_F_MAX];
    const double fa = fabs(a), fb = fabs(b);
    return model_f32_on && (x_type == AF_FLOAT16 || x_type == AF_FLOAT32)
           && (y_type == AF_FLOAT16 || y_type == AF_FLOAT32) && c1 >= 0x1p-12 && c1 <= 0.5
           && c2 >= 0 && c2 <= 0x1p100 && f_max <= FLT_MAX && (double)(float)f_max == f_max
           && (fa == 0 || (fa >= 0x1p-100 && fa <= 0x1p100)) && (fb == 0 || (fb >= 0x1p-100 && fb <= 0x1p100));
}

/* model_left_avx2 on the raw float16/float32 pair (model_f32_fits), eight elements a step in float, the same
 * count and marks. A plain element's test (|d - a| > tol + b, |x - a y| > tol b) is decided in float when the
 * two sides differ by more than twice a bound on the float rounding (2**-20 of the magnitudes involved, plus
 * 2**-120 for subnormal results: the float sums and products are within a few 2**-24 of the double ones, the
 * double ones within 2**-52 of the exact); the others (an overflow in float too: Inf or NaN never decides) are
 * tested again in double with model_off's operations, and the elements that are not plain go through
 * classify_element, as model_left_avx2 does. */
__attribute__((target("avx2,f16c"), always_inline)) static inline int64_t model_left_f32_body(
    const void *x_data, int x_type, const void *y_data, int y_type, int64_t n, const double *params, int kind,
    double a, double b, int usable, af_marks *mk)
{
    const __m256 c1 = _mm256_set1_ps((float)params[RP_C1]), c2 = _mm256_set1_ps((float)params[RP_C2]);
    const __m256 f_max = _mm256_set1_ps((float)params[RP_F_MAX]), top_finite = _mm256_set1_ps(FLT_MAX);
    const __m256 zero = _mm256_setzero_ps(), va = _mm256_set1_ps((float)a), vb = _mm256_set1_ps((float)b);
    const __m256 magnitude = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    const __m256 relative = _mm256_set1_ps(0x1p-19f), absolute = _mm256_set1_ps(0x1p-119f);
    const __m256 a_size = _mm256_and_ps(va, magnitude);
    int64_t left = 0, i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 x = load8_float(x_data, x_type, i), y = load8_float(y_data, y_type, i);
        const __m256 ax = _mm256_and_ps(x, magnitude), ay = _mm256_and_ps(y, magnitude);
        /* usable: every element is (model_left's all_usable), so each one's test is the plain one. */
        const __m256 plain = usable ? _mm256_castsi256_ps(_mm256_set1_epi32(-1)) : _mm256_and_ps(
            _mm256_and_ps(_mm256_cmp_ps(ax, top_finite, _CMP_LE_OQ), _mm256_cmp_ps(ay, f_max, _CMP_LE_OQ)),
            _mm256_cmp_ps(x, zero, _CMP_NEQ_OQ));
        const __m256 tol = _mm256_add_ps(_mm256_mul_ps(c1, _mm256_max_ps(ax, ay)), c2);
        __m256 lhs, rhs, sizes;
        if (kind == RS_BIAS) {
            lhs = _mm256_and_ps(_mm256_sub_ps(_mm256_sub_ps(x, y), va), magnitude);
            rhs = _mm256_add_ps(tol, vb);
            sizes = a_size;
        } else {
            const __m256 product = _mm256_mul_ps(va, y);
            lhs = _mm256_and_ps(_mm256_sub_ps(x, product), magnitude);
            rhs = _mm256_mul_ps(tol, vb);
            sizes = _mm256_and_ps(product, magnitude);
        }
        /* Twice the bound (2**-19, 2**-119): the float sums below round by far less than the bound itself. */
        const __m256 margin = _mm256_add_ps(
            _mm256_mul_ps(_mm256_add_ps(_mm256_add_ps(_mm256_add_ps(ax, ay), sizes), _mm256_add_ps(lhs, rhs)),
                          relative),
            absolute);
        const int plain_bits = _mm256_movemask_ps(plain);
        const int off_bits = _mm256_movemask_ps(_mm256_cmp_ps(lhs, _mm256_add_ps(rhs, margin), _CMP_GT_OQ))
                             & plain_bits;
        const int in_bits = _mm256_movemask_ps(_mm256_cmp_ps(lhs, _mm256_sub_ps(rhs, margin), _CMP_LT_OQ));
        if (plain_bits == 255 && in_bits == 255) continue; /* all plain, all within the model */
        for (int k = 0; k < 8; k++) {
            const double xd = double_at(x_data, x_type, i + k), yd = double_at(y_data, y_type, i + k);
            if (!((plain_bits >> k) & 1)) {
                left += model_left_scalar(&xd, &yd, 1, i + k, params, kind, a, b, mk);
            } else if ((off_bits >> k) & 1) {
                left++;
                mark_element(mk, i + k);
            } else if (!((in_bits >> k) & 1)) { /* unsure in float: model_off in double */
                const double axd = fabs(xd), ayd = fabs(yd);
                const double tol_d = params[RP_C1] * (axd > ayd ? axd : ayd) + params[RP_C2];
                if (model_off(kind, xd, yd, tol_d, a, b)) {
                    left++;
                    mark_element(mk, i + k);
                }
            }
        }
    }
    for (; i < n; i++) {
        const double xd = double_at(x_data, x_type, i), yd = double_at(y_data, y_type, i);
        left += model_left_scalar(&xd, &yd, 1, i, params, kind, a, b, mk);
    }
    return left;
}

/* model_left_f32_body with the usual pairs' types and whether every element is usable known to the compiler
 * (the loads unswitched). */
__attribute__((target("avx2,f16c"))) static int64_t model_left_f32(const void *x_data, int x_type,
                                                                   const void *y_data, int y_type, int64_t n,
                                                                   const double *params, int kind, double a,
                                                                   double b, int all_usable, af_marks *mk)
{
#define MF_TYPED(X_TYPE, Y_TYPE) \
    (all_usable ? model_left_f32_body(x_data, X_TYPE, y_data, Y_TYPE, n, params, kind, a, b, 1, mk) \
                : model_left_f32_body(x_data, X_TYPE, y_data, Y_TYPE, n, params, kind, a, b, 0, mk))
    if (x_type == AF_FLOAT16 && y_type == AF_FLOAT16) return MF_TYPED(AF_FLOAT16, AF_FLOAT16);
    if (x_type == AF_FLOAT16 && y_type == AF_FLOAT32) return MF_TYPED(AF_FLOAT16, AF_FLOAT32);
    return MF_TYPED(x_type, y_type);
#undef MF_TYPED
}
#endif

/* A value model's whole pass: how many elements it leaves (RS_BIAS_LEFT, RS_SCALE_LEFT), marked in mk.
 * all_usable: the caller knows every element usable (both sides finite, none an overflow, a nonfinite_introduced
 * or an underflow: the survey's counts), so no element needs classify_element's tests, only the model's. */
static int64_t model_left(const void *x_data, int x_type, const void *y_data, int y_type, int64_t n,
                          const double *params, int kind, double a, double b, int all_usable, af_marks *mk)
{
    double x_buffer[CHUNK], y_buffer[CHUNK];
    int64_t left = 0;
#if AF_X86_DISPATCH
    if (use_avx2 && model_f32_fits(x_type, y_type, params, a, b))
        return model_left_f32(x_data, x_type, y_data, y_type, n, params, kind, a, b, all_usable, mk);
    if (use_avx2) return model_left_avx2(x_data, x_type, y_data, y_type, n, params, kind, a, b, all_usable, mk);
#else
    (void)all_usable;
#endif
    for (int64_t offset = 0; offset < n; offset += CHUNK) {
        const int64_t m = n - offset < CHUNK ? n - offset : CHUNK;
        const double *xs = to_double(x_data, x_type, offset, m, x_buffer, use_avx2);
        const double *ys = to_double(y_data, y_type, offset, m, y_buffer, use_avx2);
        left += model_left_scalar(xs, ys, m, offset, params, kind, a, b, mk);
    }
    return left;
}

/* model_left on its own, for the tests (0 on the stride params: none is read): how many elements the model
 * (kind RS_BIAS or RS_SCALE, a and b as model_off takes them) leaves, their marks in marks (laid out as
 * af_sign_survey's); -1 when the pair or shape is not one the sweeps read. all_usable: as model_left's (the
 * caller vouches for it). */
AF_EXPORT int64_t af_sign_model_left(const void *x_data, int x_type, const void *y_data, int y_type, int64_t n,
                                     int ndim, const int64_t *dims, const double *params, int kind, double a,
                                     double b, int all_usable, int64_t *marks)
{
    af_marks mk;
    if (!f16_ready || !is_float_code(x_type) || !is_float_code(y_type) || n <= 0 || ndim < 1
        || ndim > SV_MAX_AXES || (kind != RS_BIAS && kind != RS_SCALE) || !marks_init(&mk, ndim, dims, n, marks))
        return -1;
    return model_left(x_data, x_type, y_data, y_type, n, params, kind, a, b, all_usable, &mk);
}

/*
 * A value model rejected without its medians. The bias and scale stages reject a model when more than RP_REJECT
 * of the sample's positions are off it. Whatever the model's value v turns out to be (the offset or the factor),
 * it lies in a range the sample gives at once ([min, max] of the differences, or of the strong quotients), and
 * an element can be on the model only when its own value (its difference, or quotient) lies within a width W
 * of v: W bounds the element's tolerance at the largest slack or factor of that range, widened by more than
 * every rounding of the test. The values are counted on buckets of the range: those of one window of buckets
 * around v's bucket (the bucket of a value is non-decreasing in it, and a value within W of v lies within
 * `reach` buckets of v's) bound how many elements can be on. When even the fullest window leaves more than
 * RP_REJECT off, the model is rejected exactly as its medians would have it rejected (left = n): an
 * uncorrelated pair is decided without three of the stages' four medians and the two passes off the models.
 * Otherwise the stage runs as before.
 */
#define RJ_BUCKETS 256

typedef struct {
    double lo, hi, scale;
    int64_t reach;
    int32_t counts[4][RJ_BUCKETS]; /* four, in turn: increments of one bucket in a row do not wait */
} af_cover;

/* 0: the stages always work out their medians (af_sign_model_reject: the tests compare the two). */
static int model_reject_on = 1;
/* How many stages the buckets rejected since the last af_sign_model_reject call (for the tests; counted
 * atomically: sign_classify runs without the GIL). */
static int64_t model_rejected;

static void count_rejected(void)
{
#if defined(__GNUC__)
    __atomic_fetch_add(&model_rejected, 1, __ATOMIC_RELAXED);
#else
    model_rejected++;
#endif
}

/* Turn the early rejection on (1) or off (0), or leave it (-1); returns how many stages it rejected since the
 * last call (and restarts that count). */
AF_EXPORT int64_t af_sign_model_reject(int on)
{
#if defined(__GNUC__)
    const int64_t rejected = __atomic_exchange_n(&model_rejected, 0, __ATOMIC_RELAXED);
#else
    const int64_t rejected = model_rejected;
    model_rejected = 0;
#endif
    if (on >= 0) model_reject_on = on != 0;
    return rejected;
}

/* Buckets over [lo, hi] for values within w of a point of it; 0 when the range is empty or not finite, or a
 * window would hold every bucket (nothing to gain). reach: floor((w scale)(1 + 2^-20)) + 2 buckets bound how
 * far the bucket of a value within w moves (the roundings of (v - lo) scale are below 2^-40 of a bucket). */
static int cover_start(af_cover *c, double lo, double hi, double w)
{
    double reach;
    if (!(lo < hi) || !(fabs(lo) <= 1e300) || !(fabs(hi) <= 1e300) || !(w >= 0)) return 0;
    c->lo = lo;
    c->hi = hi;
    c->scale = (double)RJ_BUCKETS / (hi - lo);
    if (!(c->scale > 0) || !(c->scale <= DBL_MAX)) return 0;
    reach = w * c->scale * (1 + 0x1p-20);
    if (!(reach < RJ_BUCKETS / 2)) return 0;
    c->reach = (int64_t)reach + 2;
    memset(c->counts, 0, sizeof c->counts);
    return 1;
}

/* The bucket of v (not NaN): non-decreasing in v (each step is); branch-free (minsd, maxsd). */
AF_INLINE int cover_bucket(const af_cover *c, double v)
{
    double t = (v - c->lo) * c->scale;
    t = t > 0 ? t : 0;
    t = t < RJ_BUCKETS - 1 ? t : RJ_BUCKETS - 1;
    return (int)t;
}

/* Count v[0, m) on the buckets: the buckets worked out a block at a time (a loop the compiler vectorises),
 * then counted. */
static void cover_count(af_cover *c, const double *v, int64_t m)
{
    int32_t buckets[CHUNK];
    for (int64_t start = 0; start < m; start += CHUNK) {
        const int64_t size = m - start < CHUNK ? m - start : CHUNK;
        for (int64_t j = 0; j < size; j++) buckets[j] = cover_bucket(c, v[start + j]);
        for (int64_t j = 0; j < size; j++) c->counts[j & 3][buckets[j]]++;
    }
}

/* The most values in one window of 2 reach + 1 buckets. */
static int64_t cover_most(const af_cover *c)
{
    int64_t sums[RJ_BUCKETS + 1], most = 0;
    sums[0] = 0;
    for (int k = 0; k < RJ_BUCKETS; k++)
        sums[k + 1] = sums[k] + c->counts[0][k] + c->counts[1][k] + c->counts[2][k] + c->counts[3][k];
    for (int64_t k = 0; k < RJ_BUCKETS; k++) {
        const int64_t first = k - c->reach < 0 ? 0 : k - c->reach;
        const int64_t last = k + c->reach > RJ_BUCKETS - 1 ? RJ_BUCKETS - 1 : k + c->reach;
        const int64_t held = sums[last + 1] - sums[first];
        most = held > most ? held : most;
    }
    return most;
}

/* Whether a model with `on` elements at most among the sample's `usable` (others: rest_other of them off) is
 * rejected as residual_stage rejects it (off_picked > RP_REJECT picked; off_picked >= usable - on + rest_other). */
static int cover_rejects(int64_t usable, int64_t on, int64_t rest_other, int64_t picked, const double *params)
{
    return (double)(usable - (on < usable ? on : usable) + rest_other) > params[RP_REJECT] * (double)picked;
}

/* The least and largest of v[0, m), m > 0, none NaN (in lanes: one comparison chain is latency-bound). */
static void cover_range(const double *v, int64_t m, double *lo, double *hi)
{
    double l[4], h[4];
    int64_t j = 0;
    for (int k = 0; k < 4; k++) l[k] = h[k] = v[0];
    for (; j + 4 <= m; j += 4)
        for (int k = 0; k < 4; k++) {
            l[k] = v[j + k] < l[k] ? v[j + k] : l[k];
            h[k] = v[j + k] > h[k] ? v[j + k] : h[k];
        }
    for (; j < m; j++) {
        l[0] = v[j] < l[0] ? v[j] : l[0];
        h[0] = v[j] > h[0] ? v[j] : h[0];
    }
    for (int k = 1; k < 4; k++) {
        l[0] = l[k] < l[0] ? l[k] : l[0];
        h[0] = h[k] > h[0] ? h[k] : h[0];
    }
    *lo = l[0];
    *hi = h[0];
}

/* The bias stage's rejection from the sample's usable differences d (tol_max: the largest of their tol): the
 * offset is a median of some of them, so it lies in [min d, max d] and its slack ulps eps |offset| is at most
 * that of the larger end; an element is on only when |d - offset| <= tol + slack, rounded (2^-30 more). */
static int bias_rejected(const double *d, int64_t used, double tol_max, int64_t rest_other, int64_t picked,
                         const double *params)
{
    af_cover c;
    double lo, hi, slack;
    cover_range(d, used, &lo, &hi);
    slack = params[RP_ULPS] * params[RP_EPS] * (fabs(lo) > fabs(hi) ? fabs(lo) : fabs(hi));
    if (!cover_start(&c, lo, hi, (tol_max + slack) * (1 + 0x1p-30) + 0x1p-1022)) return 0;
    cover_count(&c, d, used);
    return cover_rejects(used, cover_most(&c), rest_other, picked, params);
}

/* The least |y| whose quotient scale_rejected places (smaller ones may be on anywhere): c2 / y_least is c1 / 16
 * (c1 2^-10 without c1), so tol / |y| <= c1 (max(|q|, 1) + 1/16): at least 2^-900. */
static double scale_y_least(const double *params)
{
    const double y_least = params[RP_C1] > 0 ? 16 * params[RP_C2] / params[RP_C1] : params[RP_C2] * 0x1p10;
    return y_least > 0x1p-900 ? y_least : 0x1p-900;
}

/* The scale stage's rejection from the quotients q[0, m) of the sample's usable elements with |y| >= y_least
 * (scale_y_least; the other usable ones: `anywhere`), the factor a median of the strong
 * quotients in [lo, hi] (|factor| <= most = max(1, |lo|, |hi|)). An element is on only when |x - factor y| <=
 * tol max(1, |factor|), so |x / y - factor| <= tol most / |y|, tol = c1 max(|x|, |y|) + c2: at most
 * g(|q|) = most (c1 max(|q|, 1) + c2 / y_least) with q = x / y, plus the roundings of q, factor y and the test
 * (the 2^-20, 2^-30 and 2^-40 terms: more than all of them). g rises by slope < 1/2 per unit of |q|, so with
 * W = g(most + W) (solved below) a quotient beyond [lo - W, hi + W] is never on, and one within is on only
 * within W of the factor. */
static int scale_rejected(double *q, int64_t m, int64_t anywhere, double lo, double hi, int64_t usable,
                          int64_t rest_other, int64_t picked, const double *params)
{
    af_cover c;
    const double most = fabs(lo) > fabs(hi) ? (fabs(lo) > 1.0 ? fabs(lo) : 1.0) : (fabs(hi) > 1.0 ? fabs(hi) : 1.0);
    const double y_least = scale_y_least(params);
    const double c1 = params[RP_C1] * (1 + 0x1p-20) * (1 + 0x1p-30), c2 = params[RP_C2] / y_least * (1 + 0x1p-30);
    const double slope = most * c1 + 0x1p-40;
    /* g(t) = most (c1 t + c2) + (most + t) 2^-40 for t >= 1; W = g(most + W) = g(most) / (1 - slope). */
    const double w = (most * (c1 * most + c2) + 2 * most * 0x1p-40) / (1 - slope) * (1 + 0x1p-20);
    double low, high;
    int64_t kept = 0;
    if (!(slope < 0.5) || !cover_start(&c, lo, hi, w)) return 0;
    low = lo - w;
    high = hi + w;
    for (int64_t j = 0; j < m; j++) { /* branch-free: the ones that may be on kept in q[0, kept) */
        const double v = q[j];
        q[kept] = v;
        kept += v >= low && v <= high; /* Inf: never on (beyond most + W) */
    }
    cover_count(&c, q, kept);
    return cover_rejects(usable, cover_most(&c) + anywhere, rest_other, picked, params);
}

/* Whether every element k < m is plain (both finite, |y| <= f_max, x not zero; NaN: not plain): in SSE2 lanes
 * (GCC leaves the comparisons' int reduction scalar), the same comparisons. */
static int all_plain_pairs(const double *xs, const double *ys, int64_t m, double f_max)
{
    int64_t k = 0;
    int plain = 1;
#if AF_X86_DISPATCH
    {
        const __m128d magnitude = _mm_castsi128_pd(_mm_set1_epi64x(INT64_C(0x7fffffffffffffff)));
        const __m128d top = _mm_set1_pd(DBL_MAX), y_top = _mm_set1_pd(f_max), zero = _mm_setzero_pd();
        __m128d all = _mm_castsi128_pd(_mm_set1_epi64x(-1));
        for (; k + 2 <= m; k += 2) {
            const __m128d x = _mm_loadu_pd(xs + k), ay = _mm_and_pd(_mm_loadu_pd(ys + k), magnitude);
            const __m128d ok = _mm_and_pd(_mm_and_pd(_mm_cmple_pd(_mm_and_pd(x, magnitude), top), _mm_cmple_pd(ay, top)),
                                          _mm_and_pd(_mm_cmple_pd(ay, y_top), _mm_cmpneq_pd(x, zero)));
            all = _mm_and_pd(all, ok);
        }
        plain = _mm_movemask_pd(all) == 3;
    }
#endif
    for (; k < m; k++)
        plain &= (fabs(xs[k]) <= DBL_MAX) & (fabs(ys[k]) <= DBL_MAX) & (fabs(ys[k]) <= f_max) & (xs[k] != 0);
    return plain;
}

/*
 * One stage of _residual on a pair of n elements of shape dims (x fused, y origin); params (RP_*): tol's two
 * terms, the fused max, tiny and min_subnormal, the lower-precision eps, ROUNDING_ULPS, the model sample's
 * stride and the share of its positions off a model that rejects the model without a whole pass. The estimates
 * come from the sample; whether a model fits is counted on every element. Stages:
 *  RS_BIAS: out RD_FIRST the offset (median of d = x - y over the sample's usable elements, again over those
 *    within their max(tol) of it), RD_SECOND 1 when |offset| > median(tol) over the sample's usable, else 0
 *    (_residual's size test, above_median); counts: the sample's usable,
 *    left (usable with |d - offset| > tol + ulps eps |offset|, plus rest not usable), marks of left (as
 *    af_sign_survey's).
 *  RS_SCALE: out RD_FIRST the factor (median of x / y over the sample's usable elements with |y| > 0 and |y| at
 *    least their median |y|), RD_SECOND 1 when |factor - 1| > min(1, low_eps), low_eps the median of
 *    tol / max(|y|, 1e-300) over the sample's usable, else 0;
 *    counts: the sample's usable with |y| > 0 (in RC_USABLE), left for |x - factor y| > tol max(1, |factor|),
 *    marks of left.
 *  RS_GATHER: x_out, y_out get x and y of the sample's usable elements (C order); counts: those.
 *  RS_REL: RD_FIRST the median of |d| / max(|y|, 1e-300) over the rest (0 when none); counts: rest.
 * When more than RP_REJECT of the sample's positions are left, the model does not fit: left is n (no marks) and
 * the whole pass is skipped. RD_SECOND (BIAS, SCALE) is only worked out when left holds at most half of the
 * elements (the model may fit: only then does _residual look at it), else 0.
 */
static int residual_stage(const void *x_data, int x_type, const void *y_data, int y_type, int64_t n,
                          const double *params, int stage, double *out_doubles, int64_t *out_counts,
                          const af_marks *marks, double *x_out, double *y_out, const af_sample *sample,
                          int all_usable);

/* A residual stage on marks set up by marks_init (params[RP_STRIDE] checked by the caller); sample:
 * the model sample of params[RP_STRIDE] classified (classify_sample), which BIAS and SCALE need (NULL: they fall
 * back), or NULL for a GATHER of another stride; all_usable: as model_left's. */
static int residual_stage(const void *x_data, int x_type, const void *y_data, int y_type, int64_t n,
                          const double *params, int stage, double *out_doubles, int64_t *out_counts,
                          const af_marks *marks, double *x_out, double *y_out, const af_sample *sample,
                          int all_usable)
{
    double x_buffer[CHUNK], y_buffer[CHUNK];
    double *first = NULL, *second = NULL;
    double *scratch = NULL; /* a median's scratch */
    int64_t used = 0, left = 0, rest = 0, stride, picked, room;
    const double *sx = sample != NULL ? sample->x : NULL, *sy = sample != NULL ? sample->y : NULL;
    const double *stol = sample != NULL ? sample->tol : NULL;
    const int64_t sampled = sample != NULL ? sample->used : 0;
    int nan = 0, status = AF_OK;
    af_marks mk = *marks;
    stride = (int64_t)params[RP_STRIDE];
    picked = (n + stride - 1) / stride;
    room = picked;
    out_doubles[RD_FIRST] = out_doubles[RD_SECOND] = 0;
    if (stage == RS_GATHER && sample == NULL) {
        /* A plain element (both finite, |y| within the fused max, x not zero: no check 1-3 explains it) is
         * usable without classify_element's other tests (see model_left_avx2). */
        for (int64_t p = 0; p < picked; p += CHUNK) {
            const int64_t m = picked - p < CHUNK ? picked - p : CHUNK;
            double *xs = x_out + used, *ys = y_out + used; /* read in place: x_out has room for picked */
            strided_doubles(x_data, x_type, p * stride, stride, m, xs);
            strided_doubles(y_data, y_type, p * stride, stride, m, ys);
            if (all_plain_pairs(xs, ys, m, params[RP_F_MAX])) { /* the usual chunk: kept whole */
                used += m;
                continue;
            }
            for (int64_t k = 0; k < m; k++) { /* compacted in place: written at used <= the index read */
                const double x = xs[k], y = ys[k];
                const int plain = fabs(x) <= DBL_MAX && fabs(y) <= DBL_MAX && fabs(y) <= params[RP_F_MAX] && x != 0;
                /* Written always, kept when usable: no branch on the data for the usual all-plain sample. */
                x_out[used] = x;
                y_out[used] = y;
                used += plain || classify_other(x, y, params).usable;
            }
        }
        out_counts[RC_USABLE] = used;
        return AF_OK;
    }
    if (stage == RS_GATHER) {
        memcpy(x_out, sx, (size_t)sampled * sizeof *x_out);
        memcpy(y_out, sy, (size_t)sampled * sizeof *y_out);
        out_counts[RC_USABLE] = sampled;
        return AF_OK;
    }
    if (stage == RS_REL) {
        double *rel = (double *)malloc((size_t)n * sizeof *rel);
        double *scratch = (double *)malloc((size_t)n * sizeof *scratch);
        if (rel == NULL || scratch == NULL) {
            free(rel);
            free(scratch);
            return AF_FALLBACK;
        }
        RS_EACH({
            if (e.rest) {
                double ay = fabs(e.y);
                rel[rest++] = fabs(e.x - e.y) / (ay > 1e-300 || ay != ay ? ay : 1e-300);
            }
        });
        if (rest) out_doubles[RD_FIRST] = median_of(rel, rest, scratch, &nan);
        free(rel);
        free(scratch);
        out_counts[RC_REST] = rest;
        return nan ? AF_FALLBACK : AF_OK;
    }
    if (sample == NULL) return AF_FALLBACK; /* the stages below read the model sample */
    first = (double *)malloc((size_t)room * sizeof *first);
    second = (double *)malloc((size_t)room * sizeof *second);
    scratch = (double *)malloc((size_t)room * sizeof *scratch);
    if (first == NULL || second == NULL || scratch == NULL) {
        free(first);
        free(second);
        free(scratch);
        return AF_FALLBACK;
    }
    if (stage == RS_BIAS) {
        double offset, tol_max = -INFINITY, slack;
        int64_t near = 0, off_picked = 0;
        const int64_t rest_other = sample->rest_other;
        double tol_lanes[4] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY};
        used = sampled;
        for (int64_t j = 0; j < used; j++) {
            first[j] = sx[j] - sy[j];
            second[j] = stol[j];
            /* In four lanes: one chain of maxima waits on each one before (the usable tols are finite). */
            tol_lanes[j & 3] = stol[j] > tol_lanes[j & 3] ? stol[j] : tol_lanes[j & 3];
        }
        for (int k = 0; k < 4; k++) tol_max = tol_lanes[k] > tol_max ? tol_lanes[k] : tol_max;
        out_counts[RC_USABLE] = used;
        if (used == 0) goto done;
        if (model_reject_on && bias_rejected(first, used, tol_max, rest_other, picked, params)) {
            count_rejected();
            left = n; /* as off_picked's test below would decide: no offset, no whole pass */
            goto done;
        }
        offset = median_of(first, used, scratch, &nan);
        if (nan) goto done;
        for (int64_t j = 0; j < used; j++) {
            const double difference = first[j];
            first[near] = difference; /* branch-free: whether a difference is near is random */
            near += fabs(difference - offset) <= tol_max;
        }
        /* All near (a clean bias): first is unchanged, so is its median. */
        if (near && near != used) offset = median_of(first, near, scratch, &nan);
        slack = params[RP_ULPS] * params[RP_EPS] * fabs(offset);
        off_picked = rest_other; /* the sample's rest elements that are not usable: off every model */
        for (int64_t j = 0; j < used; j++) off_picked += fabs((sx[j] - sy[j]) - offset) > stol[j] + slack;
        if ((double)off_picked > params[RP_REJECT] * (double)picked) {
            left = n;
        } else {
            left = model_left(x_data, x_type, y_data, y_type, n, params, RS_BIAS, offset, slack, all_usable, &mk);
        }
        out_doubles[RD_FIRST] = offset;
        /* Only a model that fits (left on at most half of the elements) looks at its size test. */
        if (2 * left <= n) out_doubles[RD_SECOND] = above_median(second, used, fabs(offset), scratch, &nan);
    } else if (stage == RS_SCALE) {
        double factor, cut, scale_tol;
        const double y_least = scale_y_least(params);
        int64_t big = 0, strong = 0, usable = 0, off_picked = 0;
        int64_t quotients = 0, anywhere = 0; /* for scale_rejected */
        const int64_t usable_all = sampled, rest_other = sample->rest_other;
        for (int64_t j = 0; j < sampled; j++) {
            const double ay = fabs(sy[j]);
            first[big] = ay; /* branch-free: first has room for picked */
            big += ay > 0;
        }
        out_counts[RC_USABLE] = big;
        if (big == 0) goto done;
        cut = median_of(first, big, scratch, &nan);
        if (nan) goto done;
        for (int64_t j = 0; j < sampled; j++) {
            const double q = sx[j] / sy[j], ay = fabs(sy[j]);
            const int listed = ay >= y_least;
            first[strong] = q; /* branch-free, as near above (first has room for picked) */
            strong += ay > 0 && ay >= cut;
            second[quotients] = q; /* the usable ones' quotients for scale_rejected (second: room for picked) */
            quotients += listed;
            anywhere += !listed;
        }
        if (model_reject_on && strong > 0) {
            double lo, hi;
            cover_range(first, strong, &lo, &hi);
            if (scale_rejected(second, quotients, anywhere, lo, hi, usable_all, rest_other, picked, params)) {
                count_rejected();
                left = n; /* as off_picked's test below would decide */
                goto done;
            }
        }
        factor = median_of(first, strong, scratch, &nan);
        if (nan) goto done;
        scale_tol = fabs(factor) > 1.0 ? fabs(factor) : 1.0;
        off_picked = rest_other;
        for (int64_t j = 0; j < sampled; j++) off_picked += fabs(sx[j] - factor * sy[j]) > stol[j] * scale_tol;
        if ((double)off_picked > params[RP_REJECT] * (double)picked) {
            left = n;
        } else {
            left = model_left(x_data, x_type, y_data, y_type, n, params, RS_SCALE, factor, scale_tol, all_usable, &mk);
        }
        out_doubles[RD_FIRST] = factor;
        if (2 * left <= n) { /* as for the bias; |factor - 1| > min(1, low_eps) */
            int above;
            /* tol / max(|y|, 1e-300) of the usable ones, only now: a model that does not fit never needs them. */
            for (int64_t j = 0; j < sampled; j++) {
                const double ay = fabs(sy[j]);
                second[usable++] = stol[j] / (ay > 1e-300 || ay != ay ? ay : 1e-300);
            }
            above = above_median(second, usable, fabs(factor - 1), scratch, &nan);
            out_doubles[RD_SECOND] = fabs(factor - 1) > 1.0 || above;
        }
    } else {
        status = AF_UNSUPPORTED;
    }
done:
    free(first);
    free(second);
    free(scratch);
    out_counts[RC_LEFT] = left;
    return nan ? AF_FALLBACK : status;
}
#undef RS_EACH

/*
 * signature.classify's native path in one call (sign_classify below): af_sign_survey's sweep, the permutation
 * gate (from the sweep's extremes; the sums of af_sign_gate only when the extremes agree), the region of the
 * differing elements (_region_of on the marks), then the residual BIAS and SCALE stages with _residual's
 * decisions and the GATHER of the correlation sample. Python builds the Signature from the compact answer and
 * computes the correlation (numpy's dot: its summation order is BLAS's).
 */
enum { SC_IDENTICAL, SC_DONE, SC_PERMUTATION, SC_FALLBACK, SC_GATHERED, SC_REL };
enum { SC_FULL, SC_SKIP_GATE, SC_ONLY_REL };
enum { SM_NONE, SM_BIAS, SM_SCALE };
/* sign_classify's params: the residual stages' (RP_*), then these. */
enum { CP_CORR_STRIDE = RP_REJECT + 1, CP_TAIL_DENSITY, CP_LOCAL_SHARE, CP_CENTRE, CP_COUNT };
/* A region: code (0 none, 1 tail_block, 2 localised), axis, first index, marked indices, then up to
 * SC_LISTED of them (localised). */
#define SC_LISTED 16
enum { SR_CODE, SR_AXIS, SR_FIRST, SR_COUNT, SR_LISTED, SR_SIZE = SR_LISTED + SC_LISTED };

typedef struct {
    int status, gate, model;
    double survey[SV_DOUBLES];
    int64_t counts[SV_COUNTS];
    int64_t region[SR_SIZE], model_region[SR_SIZE];
    double model_value, rel;
    int64_t used;
} af_classified;

/* _region_of on marks: the tail (min of share, axis) or else the localised slices (min of share, axis). */
static void region_of_marks(const af_marks *mk, const double *params, int64_t *out)
{
    double tail_share = INFINITY, local_share = INFINITY;
    int tail_axis = -1, local_axis = -1;
    int64_t tail_first = 0, local_count = 0;
    memset(out, 0, SR_SIZE * sizeof *out);
    for (int a = 0; a < mk->ndim; a++) {
        const int64_t length = mk->dims[a], *m = mk->marks + mk->offsets[a];
        int64_t count = 0, first = -1, last = -1, few;
        double share;
        if (length < 2) continue;
        for (int64_t j = 0; j < length; j++)
            if (m[j]) {
                if (first < 0) first = j;
                last = j;
                count++;
            }
        if (count == length || count == 0) continue;
        share = (double)count / (double)length;
        if (first > 0 && last == length - 1 && (double)count >= params[CP_TAIL_DENSITY] * (double)(length - first)
            && share < tail_share) {
            tail_share = share;
            tail_axis = a;
            tail_first = first;
        }
        few = (int64_t)(params[CP_LOCAL_SHARE] * (double)length);
        if (count <= (few > 1 ? few : 1) && share < local_share) {
            local_share = share;
            local_axis = a;
            local_count = count;
        }
    }
    if (tail_axis >= 0) {
        out[SR_CODE] = 1;
        out[SR_AXIS] = tail_axis;
        out[SR_FIRST] = tail_first;
    } else if (local_axis >= 0) {
        const int64_t length = mk->dims[local_axis], *m = mk->marks + mk->offsets[local_axis];
        int64_t listed = 0;
        out[SR_CODE] = 2;
        out[SR_AXIS] = local_axis;
        out[SR_COUNT] = local_count;
        for (int64_t j = 0; j < length && listed < SC_LISTED; j++)
            if (m[j]) out[SR_LISTED + listed++] = j;
    }
}

/* signature._gate: 0 when the permutation gate fails for sure, 1 when it holds, -1 when the sums are too close
 * to call. The extremes come from the survey (every element finite here); tol_max = c1 M + c2 with M the
 * largest magnitude among them is af_sign_gate's max of c1 max(|x|, |y|) + c2 (rounding is monotone). */
static int gate_decide(const void *x_data, int x_type, const void *y_data, int y_type, int64_t n,
                       const double *params, const int64_t *counts, const double *extremes)
{
    const double c1 = params[RP_C1], c2 = params[RP_C2];
    double top = 0, tol_max, g[SG_DOUBLES], largest, margin, excess;
    if (counts[SV_NOT_BOTH] || n < 2) return 0;
    for (int k = 0; k < 4; k++) top = fabs(extremes[k]) > top ? fabs(extremes[k]) : top;
    tol_max = c1 * top + c2;
    if (!(fabs(extremes[0] - extremes[2]) <= tol_max) || !(fabs(extremes[1] - extremes[3]) <= tol_max)) return 0;
#if AF_X86_DISPATCH
    if (use_avx2 && (x_type == AF_FLOAT16 || x_type == AF_FLOAT32) && (y_type == AF_FLOAT16 || y_type == AF_FLOAT32)) {
        /* Only the sums are swept (a pass of ten lanes' accumulators cost as much as the survey): the extremes
         * and tol's largest are the survey's, as af_sign_gate would find them. */
        double sums[3];
        gate_sums_f32(x_data, x_type, y_data, y_type, n, c1, c2, sums);
        g[SG_X_MAX] = extremes[0], g[SG_X_MIN] = extremes[1], g[SG_Y_MAX] = extremes[2], g[SG_Y_MIN] = extremes[3];
        g[SG_SUM_X] = sums[0], g[SG_SUM_Y] = sums[1], g[SG_SUM_TOL] = sums[2], g[SG_TOL_MAX] = tol_max;
    } else
#endif
        if (af_sign_gate(x_data, x_type, y_data, y_type, n, c1, c2, g) != AF_OK) return -1;
    if (!(fabs(g[SG_X_MAX] - g[SG_Y_MAX]) <= g[SG_TOL_MAX]) || !(fabs(g[SG_X_MIN] - g[SG_Y_MIN]) <= g[SG_TOL_MAX]))
        return 0;
    largest = fabs(g[SG_X_MAX]);
    largest = fabs(g[SG_X_MIN]) > largest ? fabs(g[SG_X_MIN]) : largest;
    largest = fabs(g[SG_Y_MAX]) > largest ? fabs(g[SG_Y_MAX]) : largest;
    largest = fabs(g[SG_Y_MIN]) > largest ? fabs(g[SG_Y_MIN]) : largest;
    largest = g[SG_TOL_MAX] > largest ? g[SG_TOL_MAX] : largest;
    margin = (double)(2 * (n + 64)) * 0x1p-53 * (double)n * 4.0 * largest; /* _gate's, operation by operation */
    excess = fabs(g[SG_SUM_X] - g[SG_SUM_Y]) - 2 * g[SG_SUM_TOL];
    if (excess > margin) return 0;
    return excess < -margin ? 1 : -1;
}

/* numpy's pairwise sum of a[0, n) (np.add.reduce of a contiguous float64 array, started from its identity 0):
 * below 8 elements one by one, up to 128 in eight accumulators, above that the two halves (the first a multiple
 * of 8 long) summed apart. signature.py checks once that it gives numpy's sums before asking for it. */
static double pairwise_sum(const double *a, int64_t n)
{
    if (n < 8) {
        double sum = 0.;
        for (int64_t i = 0; i < n; i++) sum += a[i];
        return sum;
    }
    if (n <= 128) {
        double r[8], sum;
        int64_t i;
        for (int k = 0; k < 8; k++) r[k] = a[k];
        for (i = 8; i < n - (n % 8); i += 8)
            for (int k = 0; k < 8; k++) r[k] += a[i + k];
        sum = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; i++) sum += a[i];
        return sum;
    }
    {
        int64_t half = n / 2;
        half -= half % 8;
        return pairwise_sum(a, half) + pairwise_sum(a + half, n - half);
    }
}

/* np.add.reduce's sum of a[0, n) (for signature.py's check). */
AF_EXPORT double af_pairwise_sum(const double *a, int64_t n)
{
    double sum = 0.;
    sum += pairwise_sum(a, n);
    return sum;
}

/* a -= np.add.reduce(a) / n, as signature._correlation centres a sample (n > 0). */
static void centre(double *a, int64_t n)
{
    const double mean = af_pairwise_sum(a, n) / (double)n;
    for (int64_t i = 0; i < n; i++) a[i] -= mean;
}

/* _fits: the model leaves nothing, or at most half of the elements forming a region (written to region). */
static int model_fits(int64_t left, int64_t n, const af_marks *mk, const double *params, int64_t *region)
{
    memset(region, 0, SR_SIZE * sizeof *region);
    if (left == 0) return 1;
    if (2 * left > n) return 0;
    region_of_marks(mk, params, region);
    return region[SR_CODE] != 0;
}

static void classify_models(const void *x_data, int x_type, const void *y_data, int y_type, int64_t n,
                            const double *params, af_marks *mk, double *x_out, double *y_out, af_classified *r);

static void classify_run(const void *x_data, int x_type, const void *y_data, int y_type, int64_t n,
                         const double *params, int mode, af_marks *mk, double *x_out, double *y_out,
                         af_classified *r)
{
    double extremes[4] = {0, 0, 0, 0}, d[RD_DOUBLES];
    int64_t c[RC_COUNTS];
    int status;
    r->status = SC_DONE;
    if (mode == SC_ONLY_REL) {
        status = residual_stage(x_data, x_type, y_data, y_type, n, params, RS_REL, d, c, mk, NULL, NULL, NULL, 0);
        r->status = status == AF_OK ? SC_REL : SC_FALLBACK;
        r->rel = c[RC_REST] ? d[RD_FIRST] : 0.0;
        return;
    }
    survey_run(x_data, x_type, y_data, y_type, n, params, mk, r->survey, r->counts, extremes, 1);
    if (r->counts[SV_NOT_SAME] && !r->counts[SV_REST] && !r->counts[SV_NONFINITE] && !r->counts[SV_OVERFLOW]
        && !r->counts[SV_UNDERFLOW] && isnan(r->survey[SV_MAX_ABS])) {
        /* The lazy sweep left the maxima out and the answer is rounding (nothing else found), which reports
         * them: swept again, in full. */
        marks_init(mk, mk->ndim, mk->dims, n, mk->marks);
        survey_run(x_data, x_type, y_data, y_type, n, params, mk, r->survey, r->counts, extremes, 0);
    }
    if (!r->counts[SV_NOT_SAME]) {
        r->status = SC_IDENTICAL;
        return;
    }
    if (!r->counts[SV_REST]) return;
    if (mode == SC_FULL && !r->counts[SV_NONFINITE] && !r->counts[SV_OVERFLOW] && !r->counts[SV_UNDERFLOW]) {
        r->gate = gate_decide(x_data, x_type, y_data, y_type, n, params, r->counts, extremes);
        if (r->gate != 0) {
            r->status = SC_PERMUTATION;
            return;
        }
    }
    region_of_marks(mk, params, r->region);
    if (r->region[SR_CODE]) return;
    classify_models(x_data, x_type, y_data, y_type, n, params, mk, x_out, y_out, r);
}

/* classify_run's value models (bias, scale) and the correlation sample, for differing elements with no region:
 * the model sample is classified once for the stages. */
static void classify_models(const void *x_data, int x_type, const void *y_data, int y_type, int64_t n,
                            const double *params, af_marks *mk, double *x_out, double *y_out, af_classified *r)
{
    double d[RD_DOUBLES], gather_params[CP_COUNT];
    int64_t c[RC_COUNTS];
    af_sample classified;
    af_sample *sample = classify_sample(x_data, x_type, y_data, y_type, n, (int64_t)params[RP_STRIDE], params,
                                        &classified)
                            ? &classified
                            : NULL; /* out of memory: the stages fall back */
    /* Every element usable (the survey's exact counts): the models' whole passes test only the model. */
    const int all_usable = !r->counts[SV_NOT_BOTH] && !r->counts[SV_NONFINITE] && !r->counts[SV_OVERFLOW]
                           && !r->counts[SV_UNDERFLOW];
    marks_init(mk, mk->ndim, mk->dims, n, mk->marks); /* cleared, counters too */
    if (residual_stage(x_data, x_type, y_data, y_type, n, params, RS_BIAS, d, c, mk, NULL, NULL, sample, all_usable)
        != AF_OK) {
        r->status = SC_FALLBACK;
        goto done;
    }
    if (c[RC_USABLE]) {
        if (model_fits(c[RC_LEFT], n, mk, params, r->model_region) && d[RD_SECOND] != 0) {
            r->model = SM_BIAS;
            r->model_value = d[RD_FIRST];
            goto done;
        }
        marks_init(mk, mk->ndim, mk->dims, n, mk->marks); /* cleared, counters too */
        if (residual_stage(x_data, x_type, y_data, y_type, n, params, RS_SCALE, d, c, mk, NULL, NULL, sample,
                           all_usable) != AF_OK) {
            r->status = SC_FALLBACK;
            goto done;
        }
        if (c[RC_USABLE]) {
            const double factor = d[RD_FIRST];
            if (model_fits(c[RC_LEFT], n, mk, params, r->model_region) && d[RD_SECOND] != 0) {
                r->model = SM_SCALE;
                r->model_value = factor;
                goto done;
            }
        }
    }
    memset(r->model_region, 0, sizeof r->model_region);
    memcpy(gather_params, params, sizeof gather_params);
    gather_params[RP_STRIDE] = params[CP_CORR_STRIDE];
    residual_stage(x_data, x_type, y_data, y_type, n, gather_params, RS_GATHER, d, c, mk, x_out, y_out,
                   params[CP_CORR_STRIDE] == params[RP_STRIDE] ? sample : NULL, 0);
    r->used = c[RC_USABLE];
    if (params[CP_CENTRE] != 0 && r->used >= 2) { /* centred as signature._correlation centres it */
        centre(x_out, r->used);
        centre(y_out, r->used);
    }
    r->status = SC_GATHERED;
done:
    if (sample != NULL) free(sample->x); /* the block of the three columns */
}

/* A region as Python sees it: None, or (code, axis, first index, count, (listed indices)). */
static PyObject *region_object(const int64_t *region)
{
    PyObject *listed;
    int64_t count = region[SR_CODE] == 2 ? (region[SR_COUNT] < SC_LISTED ? region[SR_COUNT] : SC_LISTED) : 0;
    if (!region[SR_CODE]) Py_RETURN_NONE;
    listed = PyTuple_New((Py_ssize_t)count);
    if (listed == NULL) return NULL;
    for (int64_t j = 0; j < count; j++) {
        PyObject *index = PyLong_FromLongLong((long long)region[SR_LISTED + j]);
        if (index == NULL) {
            Py_DECREF(listed);
            return NULL;
        }
        PyTuple_SET_ITEM(listed, (Py_ssize_t)j, index);
    }
    return Py_BuildValue("(LLLLN)", (long long)region[SR_CODE], (long long)region[SR_AXIS],
                         (long long)region[SR_FIRST], (long long)region[SR_COUNT], listed);
}

/*
 * sign_classify(x, y, x_code, y_code, shape, params, mode, x_out, y_out): x fused, y origin (C-contiguous
 * float16/float32/float64 buffers of the shape's size), params (CP_COUNT floats: RP_*, the correlation
 * sample's stride, TAIL_MIN_DENSITY, LOCALISED_MAX_SHARE, 1 to centre a gathered sample as
 * signature._correlation does, else 0), mode (SC_*), x_out and y_out writable float64
 * buffers for the correlation sample. Returns None when it declines (the numpy path runs), else (status,
 * max_abs, max_rel, nonfinite count, first, overflow count, first, underflow count, first, rest, gate,
 * region, model, model value, model's region, gathered count, rel). The GIL is released for the sweeps.
 */
static PyObject *sign_classify(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer views[4];
    int held = 0, x_type, y_type, mode, ndim;
    int64_t dims[SV_MAX_AXES], n = 1, total = 0, *marks = NULL;
    double params[CP_COUNT];
    af_classified r;
    af_marks mk;
    PyObject *result = NULL, *region = NULL, *model_region = NULL;
    (void)self;
    if (nargs != 9) {
        PyErr_SetString(PyExc_TypeError, "sign_classify takes 9 arguments");
        return NULL;
    }
    x_type = (int)PyLong_AsLong(args[2]);
    y_type = (int)PyLong_AsLong(args[3]);
    mode = (int)PyLong_AsLong(args[6]);
    if (PyErr_Occurred()) return NULL;
    if (!PyTuple_Check(args[4]) || !PyTuple_Check(args[5]) || PyTuple_GET_SIZE(args[5]) != CP_COUNT) {
        PyErr_SetString(PyExc_TypeError, "sign_classify: shape and params must be tuples");
        return NULL;
    }
    ndim = (int)PyTuple_GET_SIZE(args[4]);
    if (!f16_ready || !is_float_code(x_type) || !is_float_code(y_type) || ndim < 1 || ndim > SV_MAX_AXES
        || mode < SC_FULL || mode > SC_ONLY_REL)
        Py_RETURN_NONE;
    for (int a = 0; a < ndim; a++) {
        dims[a] = (int64_t)PyLong_AsLongLong(PyTuple_GET_ITEM(args[4], a));
        if (dims[a] <= 0) {
            PyErr_Clear(); /* an empty axis (or not an int): the numpy path */
            Py_RETURN_NONE;
        }
        n *= dims[a];
        total += dims[a];
    }
    for (int k = 0; k < CP_COUNT; k++) params[k] = PyFloat_AsDouble(PyTuple_GET_ITEM(args[5], k));
    if (PyErr_Occurred()) return NULL;
    if (!(params[RP_STRIDE] >= 1 && params[RP_STRIDE] <= (double)n + 1)
        || !(params[CP_CORR_STRIDE] >= 1 && params[CP_CORR_STRIDE] <= (double)n + 1))
        Py_RETURN_NONE;
    for (; held < 4; held++) {
        int flags = held < 2 ? PyBUF_C_CONTIGUOUS : PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE;
        if (PyObject_GetBuffer(args[held < 2 ? held : held + 5], &views[held], flags) != 0) {
            PyErr_Clear(); /* not a contiguous buffer: the numpy path */
            goto declined;
        }
    }
    {
        const int64_t capacity = (int64_t)(views[2].len < views[3].len ? views[2].len : views[3].len) / 8;
        const int64_t stride = (int64_t)params[CP_CORR_STRIDE];
        if ((int64_t)views[0].len != n * (int64_t)type_size(x_type)
            || (int64_t)views[1].len != n * (int64_t)type_size(y_type) || capacity < (n + stride - 1) / stride)
            goto declined;
    }
    marks = (int64_t *)malloc((size_t)total * sizeof *marks);
    if (marks == NULL || !marks_init(&mk, ndim, dims, n, marks)) goto declined;
    memset(&r, 0, sizeof r);
    Py_BEGIN_ALLOW_THREADS
    classify_run(views[0].buf, x_type, views[1].buf, y_type, n, params, mode, &mk, (double *)views[2].buf,
                 (double *)views[3].buf, &r);
    Py_END_ALLOW_THREADS
    region = region_object(r.region);
    model_region = region == NULL ? NULL : region_object(r.model_region);
    if (model_region == NULL) {
        Py_XDECREF(region);
        goto release;
    }
    result = Py_BuildValue("(iddLLLLLLLiNidNLd)", r.status, r.survey[SV_MAX_ABS], r.survey[SV_MAX_REL],
                           (long long)r.counts[SV_NONFINITE], (long long)r.counts[SV_NONFINITE_FIRST],
                           (long long)r.counts[SV_OVERFLOW], (long long)r.counts[SV_OVERFLOW_FIRST],
                           (long long)r.counts[SV_UNDERFLOW], (long long)r.counts[SV_UNDERFLOW_FIRST],
                           (long long)r.counts[SV_REST], r.gate, region, r.model, r.model_value, model_region,
                           (long long)r.used, r.rel);
    goto release;
declined:
    result = Py_None;
    Py_INCREF(result);
release:
    free(marks);
    while (held > 0) PyBuffer_Release(&views[--held]);
    return result;
}

/*
 * sign_sweep(x, y, x_code, y_code, wide64, special, params, specials, candidates, until): af_sign_whole (or,
 * with `until`, af_sign_scan, af_sign_whole when it declines) through the buffer protocol, the GIL released:
 * x, y C-contiguous float buffers of one element count, params (WP_*: scale, floor, special limit) a tuple of
 * 3 floats, specials and candidates writable int64 buffers whose sizes are the caps. Returns None when the
 * sweeps decline, else (not_equal, special count, candidate count, max_abs, max_rel, x_max, x_min, y_max, y_min,
 * nan) (SW_* of the outputs). signature_native.whole's call: a ctypes call's argument conversions and array
 * addresses were a fixed cost of every big pair.
 */
static PyObject *sign_sweep(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer views[4];
    int held = 0, x_type, y_type, wide64, special, until, status = AF_UNSUPPORTED;
    double params[3], doubles[SW_DOUBLES];
    int64_t counts[SW_COUNTS], n;
    PyObject *result = NULL;
    (void)self;
    if (nargs != 10) {
        PyErr_SetString(PyExc_TypeError, "sign_sweep takes 10 arguments");
        return NULL;
    }
    x_type = (int)PyLong_AsLong(args[2]);
    y_type = (int)PyLong_AsLong(args[3]);
    wide64 = (int)PyLong_AsLong(args[4]);
    special = (int)PyLong_AsLong(args[5]);
    until = (int)PyLong_AsLong(args[9]);
    if (PyErr_Occurred()) return NULL;
    if (!PyTuple_Check(args[6]) || PyTuple_GET_SIZE(args[6]) != 3) {
        PyErr_SetString(PyExc_TypeError, "sign_sweep: params must be a tuple of 3 floats");
        return NULL;
    }
    for (int k = 0; k < 3; k++) params[k] = PyFloat_AsDouble(PyTuple_GET_ITEM(args[6], k));
    if (PyErr_Occurred()) return NULL;
    if (!is_float_code(x_type) || !is_float_code(y_type)) Py_RETURN_NONE;
    for (; held < 4; held++) {
        const int flags = held < 2 ? PyBUF_C_CONTIGUOUS : PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE;
        if (PyObject_GetBuffer(args[held < 2 ? held : held + 5], &views[held], flags) != 0) {
            PyErr_Clear(); /* not a contiguous buffer: the caller's numpy path */
            goto release;
        }
    }
    n = (int64_t)views[0].len / (int64_t)type_size(x_type);
    if ((int64_t)views[0].len != n * (int64_t)type_size(x_type)
        || (int64_t)views[1].len != n * (int64_t)type_size(y_type))
        goto release;
    Py_BEGIN_ALLOW_THREADS
    if (until)
        status = af_sign_scan(views[0].buf, x_type, views[1].buf, y_type, n, special, params,
                              (int64_t)views[2].len / 8, (int64_t *)views[2].buf, (int64_t)views[3].len / 8,
                              (int64_t *)views[3].buf, doubles, counts);
    if (status != AF_OK)
        status = af_sign_whole(views[0].buf, x_type, views[1].buf, y_type, n, wide64, special, params,
                               (int64_t)views[2].len / 8, (int64_t *)views[2].buf, (int64_t)views[3].len / 8,
                               (int64_t *)views[3].buf, doubles, counts);
    Py_END_ALLOW_THREADS
    if (status == AF_OK)
        result = Py_BuildValue("(LLLddddddd)", (long long)counts[SW_NOT_EQUAL], (long long)counts[SW_SPECIAL],
                               (long long)counts[SW_CANDIDATES], doubles[SW_MAX_ABS], doubles[SW_MAX_REL],
                               doubles[SW_X_MAX], doubles[SW_X_MIN], doubles[SW_Y_MAX], doubles[SW_Y_MIN],
                               doubles[SW_NAN]);
release:
    while (held > 0) PyBuffer_Release(&views[--held]);
    if (result == NULL && !PyErr_Occurred()) Py_RETURN_NONE;
    return result;
}

/* ---- A folder's entries in one call (core/dumps/native_listing.py) ----
 *
 * os.scandir releases and takes the GIL again around every readdir(): listing a dump folder of 70k files beside a
 * graph's parse made the threads hand the GIL back and forth tens of thousands of times, and the GUI thread, asleep
 * whenever it was free, waited behind them. Here one ctypes call (the GIL released once) reads the whole folder.
 */
#if AF_POSIX_IO
static char af_entry_kind(unsigned char type)
{
    switch (type) {
    case DT_REG: return 'f';
    case DT_DIR: return 'd';
    case DT_LNK: return 'l';
    case DT_UNKNOWN: return '?';
    default: return 'o'; /* a FIFO, socket or device: never a dump file */
    }
}
#endif

/* Every entry of the folder `path` but "." and "..", in readdir order: the names, each followed by a NUL, into
 * `names`, and one kind byte per entry into `kinds` ('f' regular file, 'd' folder, 'l' symbolic link, 'o' other,
 * '?' unknown: the caller asks stat). Returns the bytes the names take and sets *count to the entries; when either
 * is beyond its capacity nothing more was written: call again with that much. -errno when the folder cannot be
 * opened or read, -1 where there is no readdir (Windows). */
AF_EXPORT int64_t af_list_folder(const char *path, char *names, int64_t names_capacity, char *kinds,
                                 int64_t kinds_capacity, int64_t *count)
{
    *count = 0;
#if AF_POSIX_IO
    DIR *folder = opendir(path);
    if (folder == NULL) return -(int64_t)(errno ? errno : EIO);
    int64_t used = 0, entries = 0;
    for (;;) {
        errno = 0;
        struct dirent *entry = readdir(folder);
        if (entry == NULL) {
            int failure = errno;
            closedir(folder);
            *count = entries;
            return failure ? -(int64_t)failure : used;
        }
        const char *name = entry->d_name;
        if (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'))) continue;
        int64_t length = (int64_t)strlen(name) + 1;
        if (used + length <= names_capacity && entries < kinds_capacity) {
            memcpy(names + used, name, (size_t)length);
            kinds[entries] = af_entry_kind(entry->d_type);
        }
        used += length;
        entries += 1;
    }
#else
    (void)path;
    (void)names;
    (void)names_capacity;
    (void)kinds;
    (void)kinds_capacity;
    return -1; /* no readdir here: the caller lists with os.scandir */
#endif
}

static PyMethodDef af_methods[] = {
    {"sign_classify", (PyCFunction)(void (*)(void))sign_classify, METH_FASTCALL,
     "signature.classify's native path in one call (see _kernel.c)."},
    {"sign_sweep", (PyCFunction)(void (*)(void))sign_sweep, METH_FASTCALL,
     "signature_native.whole's sweep in one call (see _kernel.c)."},
    {NULL, NULL, 0, NULL}};

/* The module: an importable extension whose API is the C one above (through ctypes), plus sign_classify. */

static struct PyModuleDef af_module = {
    PyModuleDef_HEAD_INIT, "_kernel",
    "Native precision kernel; call af_pair_stats through ctypes (see native.py).", -1, af_methods, NULL, NULL,
    NULL, NULL};

PyMODINIT_FUNC PyInit__kernel(void) { return PyModule_Create(&af_module); }
