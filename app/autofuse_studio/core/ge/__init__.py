"""GE dump graphs: JSON and protobuf-text readers, one Model, fusion mapping."""

from autofuse_studio.core.ge.attrs import attr_value
from autofuse_studio.core.ge.fusion import (
    FUSED_TYPES,
    FusedOp,
    FusionMapping,
    InputMapping,
    OutputMapping,
    build_fusion_mapping,
)
from autofuse_studio.core.ge.load import load_model
from autofuse_studio.core.ge.model import Graph, InputRef, Model, Op, TensorDesc

__all__ = [
    "FUSED_TYPES",
    "FusedOp",
    "FusionMapping",
    "Graph",
    "InputMapping",
    "InputRef",
    "Model",
    "Op",
    "OutputMapping",
    "TensorDesc",
    "attr_value",
    "build_fusion_mapping",
    "load_model",
]
