"""One small side branch per feature, independent of the culprit so that each row's verdict is clear."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from tests.synth.dag import Ref, TensorInfo
from tests.synth.numerics import binary, conv1x1, identity, reduce_sum, relu, transpose, unary
from tests.synth.patterns import Ctx, add_c, like, mul_c, rational

# Deep scopes like real exported models; the NPY name then exceeds 255 chars (mapping.csv case).
LONG_SCOPE = "model/" + "/".join(
    f"transformer_encoder_layer_{i}_multi_head_self_attention_block" for i in range(5)
)


def _pair(ctx: Ctx, x: Ref, scope: str, storage: str = "plain", defects: frozenset[str] = frozenset(),
          dtype: str | None = None) -> Ref:
    """A fused Mul+Add group on x whose output uses `storage` on the af-open side."""
    info = like(ctx.b.dag.info(x), dtype=dtype or ctx.b.dag.info(x).dtype)
    with ctx.b.fused(defects=defects):
        m = mul_c(ctx, x, scope, info, 0.75)
        y = add_c(ctx, m, scope, info, 0.125)
    ctx.b.dag.info(y).open_storage = storage
    return y


def _nc1hwc0(ctx: Ctx) -> None:
    """Conv2D (5HD on both sides, zero padding) -> fused 5HD output (garbage padding) -> consumer."""
    b, scope = ctx.b, "model/stem/conv1"
    weight = ctx.rng.normal(0.0, 0.25, (23, 23)).astype(np.float32)
    w = b.const(f"{scope}/weight", weight, ctx.spec.dtype)
    conv_info = TensorInfo((2, 23, 4, 5), ctx.spec.dtype, "NCHW", close_layout="NC1HWC0")
    conv = b.op("Conv2D", scope, [ctx.image(), w], conv1x1(), conv_info)
    info = like(conv_info)
    with b.fused():
        m = mul_c(ctx, conv, "model/stem/act", info, 0.5)
        a = add_c(ctx, m, "model/stem/act", info, 0.1)
        y = b.op("Relu", "model/stem/act", [a], relu(), like(info))
    b.dag.info(y).open_storage = "nc1hwc0"
    b.output(_pair(ctx, y, "model/stem/proj"))


def _fractal_nz(ctx: Ctx) -> None:
    """ND [2, 50, 40] -> fused FRACTAL_NZ [2, 3, 4, 16, 16] output (garbage padding) -> consumer."""
    y = _pair(ctx, ctx.data("model/tokens", (2, 50, 40)), "model/attn/score", "nz")
    info = like(ctx.b.dag.info(y))
    with ctx.b.fused():
        r = ctx.b.op("Relu", "model/attn/gate", [y], relu(), like(info))
        z = mul_c(ctx, r, "model/attn/gate", info, 1.5)
    ctx.b.output(z)


def _bf16(ctx: Ctx) -> None:
    """A bf16 fused output (af-open NPY is void 'V2') consumed by another fused op."""
    y = _pair(ctx, ctx.data("model/bf16_input", (8, 40), dtype="bfloat16"), "model/head/bf16")
    with ctx.b.fused():
        z = mul_c(ctx, y, "model/head/bf16_out", like(ctx.b.dag.info(y)), 2.0)
    ctx.b.output(z)


def _softmax(ctx: Ctx) -> None:
    """Exp fused op -> ReduceSum (not fused) -> RealDiv fused op."""
    b, x, scope = ctx.b, ctx.aux(), "model/attn/softmax"
    info = like(b.dag.info(x))
    with b.fused():
        m = b.op("Minimum", scope, [x, ctx.const(scope, 3.0, info.dtype)], binary("minimum"), like(info))
        e = b.op("Exp", scope, [m], unary("exp"), like(info))
    s = b.op("ReduceSum", scope, [e], reduce_sum(), like(info, shape=(info.shape[0], 1)))
    with b.fused():
        d = b.op("RealDiv", scope, [e, s], binary("divide"), like(info))
        y = mul_c(ctx, d, scope, info, float(info.shape[1]))
    b.output(y)


def _multi_output(ctx: Ctx) -> None:
    """A fused op with two outputs: its Mul is also read by a Transpose outside the group."""
    b, x, scope = ctx.b, ctx.aux(), "model/ffn/gate"
    info = like(b.dag.info(x))
    with b.fused():
        m = mul_c(ctx, x, scope, info, 1.25)
        a = add_c(ctx, m, scope, info, -0.5)
        y = b.op("Relu", scope, [a], relu(), like(info))
    t = b.op("Transpose", scope, [m], transpose(), like(info, shape=info.shape[::-1]))
    b.output(y)
    b.output(t)


def _subgraph(ctx: Ctx) -> None:
    """Two fused ops inside a PartitionedCall subgraph, read back by a fused op of the root graph."""
    b, x = ctx.b, ctx.aux()
    with b.in_region("sub"):
        y = _pair(ctx, x, "model/decoder/sub_block")
        with b.fused():
            z = rational(ctx, y, "model/decoder/sub_block/act", like(b.dag.info(y)))
    b.output(_pair(ctx, z, "model/decoder/post"))


def _int32(ctx: Ctx) -> None:
    """Mul + Cast to int32 fused: an int32 output."""
    b, x, scope = ctx.b, ctx.aux(), "model/post process/quant"  # a space: sanitised to '_'
    info = like(b.dag.info(x))
    with b.fused():
        m = mul_c(ctx, x, scope, info, 10.0)
        y = b.op("Cast", scope, [m], identity(), like(info, dtype="int32"))
    b.output(y)


def _simple(storage: str = "plain", defects: frozenset[str] = frozenset(), source: str = "aux",
            dtype: str | None = None) -> Callable[[Ctx, str], None]:
    """A feature that is a single fused Mul+Add branch with a storage mode or a file defect."""

    def build(ctx: Ctx, feature: str) -> None:
        x = {
            "aux": ctx.aux,
            "image": ctx.image,
            "nan": lambda: ctx.data("model/masked_input", (8, 40), nan_inf=True),
            "empty": lambda: ctx.data("model/empty_input", (0, 16)),
            "long": ctx.aux,
        }[source]()
        scope = LONG_SCOPE if source == "long" else f"model/side/{feature}"
        ctx.b.output(_pair(ctx, x, scope, storage, defects, dtype))

    return build


SIMPLE: dict[str, Callable[[Ctx, str], None]] = {
    "stale_duplicate": _simple(defects=frozenset({"stale_duplicate"})),
    "long_name": _simple(source="long"),
    "nan_inf": _simple(source="nan"),
    "no_mapping": _simple(defects=frozenset({"no_mapping"})),
    "missing_npy": _simple(defects=frozenset({"missing_npy"})),
    "garbage_npy": _simple(defects=frozenset({"garbage_npy"})),
    "pickle_npy": _simple(defects=frozenset({"pickle_npy"})),
    "format_unsupported": _simple("lstm"),
    "bad_5hd": _simple("bad5hd", source="image"),
    "dtype_cast": _simple("fp32", dtype="float16"),
    "shape_flattened": _simple("flatten"),
    "shape_mismatch": _simple("truncate"),
    "empty": _simple(source="empty"),
}

SPECIAL: dict[str, Callable[[Ctx], None]] = {
    "nc1hwc0": _nc1hwc0,
    "fractal_nz": _fractal_nz,
    "bf16": _bf16,
    "softmax": _softmax,
    "multi_output": _multi_output,
    "subgraph": _subgraph,
    "int32": _int32,
}


def add_all(ctx: Ctx) -> None:
    """Add the branch of every switched-on feature, in a fixed order (determinism)."""
    for feature in sorted(ctx.spec.features):
        if feature in SPECIAL:
            SPECIAL[feature](ctx)
        elif feature in SIMPLE:
            SIMPLE[feature](ctx, feature)
