"""The public Python API for scripts and notebooks: compare a case or two NPYs, summarise ATT logs (docs/api.md).

Everything here is Qt-free and thin: the same core functions serve the CLI, the GUI and these calls.
pandas is imported only by the to_dataframe() methods.
"""

from autofuse_studio.api.att import AttSummary, summarize_att
from autofuse_studio.api.precision import (
    CaseComparison,
    CasePaths,
    NpyComparison,
    compare_case,
    compare_npys,
    demo_case,
    make_thresholds,
)
from autofuse_studio.core.errors import AppError, InputError

__all__ = [
    "AppError",
    "AttSummary",
    "CaseComparison",
    "CasePaths",
    "InputError",
    "NpyComparison",
    "compare_case",
    "compare_npys",
    "demo_case",
    "make_thresholds",
    "summarize_att",
]
