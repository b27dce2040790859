"""Where the Graph tab opens: the first divergence, else the first fused op, else a plain graph's first op."""

from __future__ import annotations

from autofuse_studio.core.ge.fusion import FusionMapping
from autofuse_studio.core.ge.model import Model
from autofuse_studio.core.precision.rows import PrecisionResult

__all__ = ["start_op"]


def start_op(af_open: Model | None, af_close: Model | None, mapping: FusionMapping | None,
             result: PrecisionResult | None) -> tuple[str, bool] | None:
    """(op name, True when it is in the af-open graph) to open on; None without any op."""
    first = result.first_divergence if result is not None else None
    if first is not None and af_open is not None and af_open.op(first.fused_op) is not None:
        return first.fused_op, True
    if af_open is not None and mapping is not None and mapping.fused_ops:
        return mapping.fused_ops[0].op.name, True
    for model, fused_side in ((af_open, True), (af_close, False)):
        ops = model.ops_in_order() if model is not None else []
        if ops:
            return ops[0].name, fused_side
    return None
