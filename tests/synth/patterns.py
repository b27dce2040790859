"""Building blocks for topologies: a build context and bounded elementwise patterns (one fused op each)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np

from tests.synth.dag import DagBuilder, Ref, TensorInfo
from tests.synth.numerics import binary, relu, unary
from tests.synth.spec import CaseSpec

AUX_SHAPE = (8, 40)
IMAGE_SHAPE = (2, 23, 4, 5)  # C = 23 is not a multiple of 16: 5HD padding matters


@dataclass
class Ctx:
    """Builder, spec and seeded rng shared by all topology helpers."""

    b: DagBuilder
    spec: CaseSpec
    rng: np.random.Generator
    inputs: dict[str, Ref] = field(default_factory=dict)

    def data(self, name: str, shape: tuple[int, ...], fmt: str = "ND", dtype: str | None = None,
             nan_inf: bool = False) -> Ref:
        """A Data input, created once per name."""
        if name not in self.inputs:
            info = TensorInfo(shape, dtype or self.spec.dtype, fmt)
            self.inputs[name] = self.b.data(name, info, nan_inf)
        return self.inputs[name]

    def aux(self) -> Ref:
        """The small shared input of the feature branches."""
        return self.data("model/aux_input", AUX_SHAPE)

    def image(self) -> Ref:
        """The NCHW image input of the layout branches."""
        return self.data("model/image", IMAGE_SHAPE, "NCHW")

    def const(self, scope: str, value: float, dtype: str) -> Ref:
        """A scalar-like [1] Const weight."""
        return self.b.const(self.b.unique(scope, "Const"), np.array([value], np.float32), dtype)


Step = Callable[[Ctx, Ref, str, TensorInfo], Ref]


def like(info: TensorInfo, **changes: object) -> TensorInfo:
    """A fresh TensorInfo (one per op: storage is set per op) copied from `info`."""
    return replace(info, close_layout="", open_storage="plain", **changes)  # type: ignore[arg-type]


def mul_c(ctx: Ctx, x: Ref, scope: str, info: TensorInfo, c: float) -> Ref:
    """x * const."""
    return ctx.b.op("Mul", scope, [x, ctx.const(scope, c, info.dtype)], binary("multiply"), like(info))


def add_c(ctx: Ctx, x: Ref, scope: str, info: TensorInfo, c: float) -> Ref:
    """x + const."""
    return ctx.b.op("Add", scope, [x, ctx.const(scope, c, info.dtype)], binary("add"), like(info))


def affine(ctx: Ctx, x: Ref, scope: str, info: TensorInfo) -> Ref:
    """Mul, Add: a contractive affine map (ends with Add + Const, as the culprit needs)."""
    m = mul_c(ctx, x, scope, info, float(ctx.rng.uniform(0.6, 0.9)))
    return add_c(ctx, m, scope, info, float(ctx.rng.uniform(-0.2, 0.2)))


def rational(ctx: Ctx, x: Ref, scope: str, info: TensorInfo) -> Ref:
    """Pow, Add, RealDiv, Mul: 1.5x / (1 + x^2), bounded by 0.75."""
    b = ctx.b
    p = b.op("Pow", scope, [x, ctx.const(scope, 2.0, info.dtype)], binary("power"), like(info))
    a = add_c(ctx, p, scope, info, 1.0)
    d = b.op("RealDiv", scope, [x, a], binary("divide"), like(info))
    return mul_c(ctx, d, scope, info, 1.5)


def expmin(ctx: Ctx, x: Ref, scope: str, info: TensorInfo) -> Ref:
    """Minimum, Exp, Add: exp(min(x, 1)) - 1."""
    b = ctx.b
    m = b.op("Minimum", scope, [x, ctx.const(scope, 1.0, info.dtype)], binary("minimum"), like(info))
    e = b.op("Exp", scope, [m], unary("exp"), like(info))
    return add_c(ctx, e, scope, info, -1.0)


def relu_affine(ctx: Ctx, x: Ref, scope: str, info: TensorInfo) -> Ref:
    """Relu, Mul, Add."""
    r = ctx.b.op("Relu", scope, [x], relu(), like(info))
    m = mul_c(ctx, r, scope, info, float(ctx.rng.uniform(1.0, 1.3)))
    return add_c(ctx, m, scope, info, float(ctx.rng.uniform(-0.4, -0.2)))


def merge(ctx: Ctx, x: Ref, y: Ref, scope: str, info: TensorInfo) -> Ref:
    """Mul, Add, Mul: 0.7 * (x * y + x), joining two branches."""
    b = ctx.b
    p = b.op("Mul", scope, [x, y], binary("multiply"), like(info))
    s = b.op("Add", scope, [p, x], binary("add"), like(info))
    return mul_c(ctx, s, scope, info, 0.7)


SINGLE_INPUT: tuple[Step, ...] = (affine, rational, expmin, relu_affine)
