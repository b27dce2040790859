"""Pass/fail thresholds: cosine, max abs and max rel limits, with per-dtype overrides, from flags or TOML."""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from autofuse_studio.core.errors import InputError
from autofuse_studio.core.precision.metrics import Metrics

DEFAULT_COSINE = 0.99


@dataclass(frozen=True)
class Limits:
    """One set of limits; None means 'not checked'."""

    cosine: float | None = DEFAULT_COSINE
    max_abs: float | None = None
    max_rel: float | None = None

    def fails(self, metrics: Metrics) -> bool:
        """True when the metrics break any limit.

        Identical tensors pass (even all-zero ones, whose cosine is 0 by the formula). NaN metrics fail
        unless both sides hold their NaN/Inf at the same positions (then the model, not fusion, made them).
        """
        if metrics.max_abs_err == 0:
            return False
        if metrics.nonfinite_mismatch == 0 and (metrics.nan_fused or metrics.inf_fused):
            return False
        checks = ((self.cosine, metrics.cosine, True), (self.max_abs, metrics.max_abs_err, False),
                  (self.max_rel, metrics.max_rel_err, False))
        for limit, value, is_minimum in checks:
            if limit is None:
                continue
            if math.isnan(value) or (value < limit if is_minimum else value > limit):
                return True
        return False

    def as_dict(self) -> dict[str, float | None]:
        """JSON-friendly form."""
        return {"cosine": self.cosine, "max_abs": self.max_abs, "max_rel": self.max_rel}


@dataclass(frozen=True)
class Thresholds:
    """Default limits plus overrides keyed by dtype name (float16, bfloat16, float32, int32 ...)."""

    default: Limits = field(default_factory=Limits)
    per_dtype: dict[str, Limits] = field(default_factory=dict)

    def limits_for(self, dtype: str) -> Limits:
        """The limits for a row whose origin-side dtype is `dtype`."""
        return self.per_dtype.get(dtype, self.default)

    def fails(self, metrics: Metrics, dtype: str) -> bool:
        """True when the row's metrics break its dtype's limits."""
        return self.limits_for(dtype).fails(metrics)

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly form, as written into --output files."""
        return {"default": self.default.as_dict(),
                "per_dtype": {name: limits.as_dict() for name, limits in sorted(self.per_dtype.items())}}


_KEYS = {"cosine": "cosine", "max_abs": "max_abs", "max_abs_err": "max_abs",
         "max_rel": "max_rel", "max_rel_err": "max_rel"}


def _limits_from_table(table: dict[str, Any], base: Limits, where: str) -> Limits:
    values: dict[str, float | None] = {}
    for key, value in table.items():
        if key not in _KEYS:
            raise InputError(f"{where}: unknown threshold '{key}' (use cosine, max_abs, max_rel)")
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise InputError(f"{where}: threshold '{key}' must be a number, not {value!r}")
        values[_KEYS[key]] = float(value)
    return replace(base, **values)


def load_thresholds(path: str | Path, base: Thresholds | None = None) -> Thresholds:
    """Read `[default]` and `[dtype.<name>]` tables from a TOML file on top of `base`."""
    base = base or Thresholds()
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"Cannot read the thresholds file {path}: {error}", path) from error
    except tomllib.TOMLDecodeError as error:
        raise InputError(f"The thresholds file {path} is not valid TOML: {error}", path) from error
    default = _limits_from_table(data.get("default", {}), base.default, f"{path} [default]")
    per_dtype = dict(base.per_dtype)
    for name, table in data.get("dtype", {}).items():
        per_dtype[name] = _limits_from_table(table, default, f"{path} [dtype.{name}]")
    return Thresholds(default, per_dtype)


def parse_dtype_limit(text: str) -> tuple[str, str, float]:
    """Parse a CLI override 'float16:cosine=0.995' into (dtype, key, value)."""
    try:
        dtype, assignment = text.split(":", 1)
        key, value = assignment.split("=", 1)
        return dtype.strip(), _KEYS[key.strip()], float(value)
    except (ValueError, KeyError) as error:
        raise InputError(f"Bad --dtype-threshold '{text}': expected DTYPE:KEY=VALUE, "
                         "e.g. float16:cosine=0.995 (keys: cosine, max_abs, max_rel)") from error
