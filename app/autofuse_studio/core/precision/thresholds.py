"""Pass/fail thresholds: cosine, max abs and max rel limits, with per-dtype overrides, from flags or TOML."""

from __future__ import annotations

import functools
import math
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from autofuse_studio.core.dumps.dump_dtypes import dtype_name, dump_dtype
from autofuse_studio.core.error_messages import problem_params
from autofuse_studio.core.errors import InputError
from autofuse_studio.core.precision.metrics import Metrics
from autofuse_studio.core.precision.stats import StatsLimits, StatsThresholds
from autofuse_studio.core.printable import EXCERPT_CHARS, escape_controls, short_repr
from autofuse_studio.core.side_files import read_side_file

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
        return bool(self.violations(metrics))

    def violations(self, metrics: Metrics) -> list[str]:
        """Each broken limit as 'cosine 0.95 < 0.99' (empty when the metrics pass; see fails)."""
        if metrics.max_abs_err == 0:
            return []
        if metrics.nonfinite_mismatch == 0 and (metrics.nan_fused or metrics.inf_fused):
            return []
        checks = (("cosine", self.cosine, metrics.cosine, True),
                  ("max_abs_err", self.max_abs, metrics.max_abs_err, False),
                  ("max_rel_err", self.max_rel, metrics.max_rel_err, False))
        broken = []
        for name, limit, value, is_minimum in checks:
            if limit is None:
                continue
            if math.isnan(value) or (value < limit if is_minimum else value > limit):
                broken.append(f"{name} {value:.6g} {'<' if is_minimum else '>'} {limit:g}")
        return broken

    def describe(self) -> str:
        """'cosine >= 0.99, max_abs_err <= 0.5' (the limits that are checked)."""
        parts = [f"cosine >= {self.cosine:g}" if self.cosine is not None else "",
                 f"max_abs_err <= {self.max_abs:g}" if self.max_abs is not None else "",
                 f"max_rel_err <= {self.max_rel:g}" if self.max_rel is not None else ""]
        return ", ".join(part for part in parts if part) or "no limits"

    def as_dict(self) -> dict[str, float | None]:
        """JSON-friendly form."""
        return {"cosine": self.cosine, "max_abs": self.max_abs, "max_rel": self.max_rel}


@dataclass(frozen=True)
class Thresholds:
    """Default limits plus overrides keyed by dtype name (float16, bfloat16, float32, int32 ...)."""

    default: Limits = field(default_factory=Limits)
    per_dtype: dict[str, Limits] = field(default_factory=dict)
    stats: StatsThresholds = field(default_factory=StatsThresholds)  # statistics-mode rows

    def limits_for(self, dtype: str) -> Limits:
        """The limits for a row whose origin-side dtype is `dtype` (float16 and DT_FLOAT16 are the same)."""
        found = self.per_dtype.get(dtype)
        if found is not None or not self.per_dtype:
            return found or self.default
        wanted = dtype_key(dtype)
        if wanted is None:
            return self.default
        return next((limits for name, limits in self.per_dtype.items() if dtype_key(name) == wanted), self.default)

    def fails(self, metrics: Metrics, dtype: str) -> bool:
        """True when the row's metrics break its dtype's limits."""
        return self.limits_for(dtype).fails(metrics)

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly form, as written into --output files."""
        return {"default": self.default.as_dict(),
                "per_dtype": {name: limits.as_dict() for name, limits in sorted(self.per_dtype.items())},
                "stats": self.stats.as_dict()}


# Names users key per-dtype limits by: numpy's (float16, bfloat16, int32 ...), the dump files' (DT_FLOAT16, DT_BF16
# ...) and CANN's short spellings; each maps to the name the rows carry (a tensor's decoded dtype).
_NUMPY_NAMES = ("bool", "int4", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
                "bfloat16", "float32", "float64", "hifloat8", "float8_e5m2", "float8_e4m3fn", "float8_e8m0fnu",
                "complex64", "complex128")
_ALIASES = {"float": "float32", "double": "float64", "bf16": "bfloat16", "fp16": "float16", "half": "float16",
            "fp32": "float32", "fp64": "float64"}


@functools.cache
def _dtype_keys() -> dict[str, str]:
    keys = {name: name for name in _NUMPY_NAMES} | dict(_ALIASES)
    for code in range(256):
        name = dtype_name(code)
        if name == f"DT_{code}":  # past the last known value
            break
        logical = dump_dtype(code).logical
        keys[name.lower()] = logical
        keys.setdefault(logical, logical)
    return keys


def dtype_key(name: str) -> str | None:
    """The row dtype name `name` stands for (DT_FLOAT16 -> float16, fp16 -> float16); None for an unknown name."""
    return _dtype_keys().get(name.strip().lower())


def check_dtype_name(name: object, where: str) -> str:
    """`name` when it names a dtype; InputError listing the known names otherwise (a typo would be ignored)."""
    if isinstance(name, str) and dtype_key(name) is not None:
        return name.strip()
    shown = repr(escape_controls(name[:EXCERPT_CHARS])) if isinstance(name, str) else short_repr(name, EXCERPT_CHARS)
    raise InputError.of("threshold_unknown_dtype", place=where, dtype=shown, names=", ".join(_NUMPY_NAMES))


_KEYS = {"cosine": "cosine", "max_abs": "max_abs", "max_abs_err": "max_abs",
         "max_rel": "max_rel", "max_rel_err": "max_rel"}
_RANGES = {"cosine": (-1.0, 1.0), "max_abs": (0.0, math.inf), "max_rel": (0.0, math.inf)}
MAX_FILE_BYTES = 1 << 20


def limit_problem(key: str, value: object) -> str | None:
    """Why value is not a usable limit for key (cosine in [-1, 1], errors >= 0, finite); None when it is."""
    problem = limit_problem_params(key, value)
    return None if problem is None else problem["problem"]


def limit_problem_params(key: str, value: object) -> dict[str, str] | None:
    """limit_problem as an error's params: 'problem' (the English words), 'problem_code' (their fragment in
    core/error_messages.FRAGMENTS, which the Chinese sentence renders) and the fragment's values; None if usable."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return problem_params("limit_not_number", limit_value=repr(value))
    low, high = _RANGES[_KEYS[key]]
    number = float(value)
    if not math.isfinite(number):
        return problem_params("limit_not_finite", limit_value=str(value))
    if not low <= number <= high:
        if math.isfinite(high):
            return problem_params("limit_out_of_range", limit_low=f"{low:g}", limit_high=f"{high:g}",
                                  limit_value=str(value))
        return problem_params("limit_too_small", limit_low=f"{low:g}", limit_value=str(value))
    return None


def check_limit(key: str, value: object, where: str) -> float:
    """value as a float limit; InputError '<where>: threshold <key> must be …' when it is not usable."""
    problem = limit_problem_params(key, value)
    if problem:
        raise InputError.of("threshold_unusable", place=where, key=key, **problem)
    return float(value)  # type: ignore[arg-type]


def _limits_from_table(table: object, base: Limits, where: str) -> Limits:
    if not isinstance(table, dict):
        raise InputError.of("threshold_table_not_table", place=where, value=repr(table))
    values: dict[str, float | None] = {}
    for key, value in table.items():
        if key not in _KEYS:
            raise InputError.of("threshold_unknown_key", place=where, key=key)
        values[_KEYS[key]] = check_limit(key, value, where)
    return replace(base, **values)


def _read_toml(path: str | Path) -> dict[str, Any]:
    # A regular file only, and never more than the cap read (a FIFO would hang, /dev/zero reports 0 bytes).
    contents = read_side_file(path, MAX_FILE_BYTES, "The thresholds file")
    try:
        return tomllib.loads(contents.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise InputError.of("thresholds_not_utf8", path=path) from None
    except tomllib.TOMLDecodeError as error:
        raise InputError.of("thresholds_not_toml", path=path, reason=str(error)) from None
    except (ValueError, RecursionError):  # 5000-digit integers, 100k nested arrays
        raise InputError.of("thresholds_toml_too_deep", path=path) from None


def load_thresholds(path: str | Path, base: Thresholds | None = None) -> Thresholds:
    """Read `[default]`, `[dtype.<name>]` and `[stats]` (+ `[stats.dtype.<name>]`) tables from a TOML file."""
    base = base or Thresholds()
    data = _read_toml(path)
    unknown = sorted(set(data) - {"default", "dtype", "stats"})
    if unknown:
        raise InputError.of("thresholds_unknown_table", path=path, key=unknown[0])
    default = _limits_from_table(data.get("default", {}), base.default, f"{path} [default]")
    dtypes = data.get("dtype", {})
    if not isinstance(dtypes, dict):
        raise InputError.of("thresholds_dtype_not_tables", path=path, value=repr(dtypes))
    per_dtype = dict(base.per_dtype)
    for name, table in dtypes.items():
        where = f"{path} [dtype.{escape_controls(name[:EXCERPT_CHARS])}]"
        per_dtype[check_dtype_name(name, where)] = _limits_from_table(table, default, where)
    return Thresholds(default, per_dtype, _stats_from_table(data.get("stats", {}), base.stats, path))


STATS_KEYS = ("max_rel", "abs_floor", "max_nonfinite_diff")


def stats_limits(base: StatsLimits, values: dict[str, object], where: str) -> StatsLimits:
    """`base` with the given statistics limits replaced; InputError naming `where` for unusable values."""
    checked: dict[str, float | int] = {}
    for key, value in values.items():
        if key not in STATS_KEYS:
            raise InputError.of("threshold_unknown_stats_key", place=where, key=key, keys=", ".join(STATS_KEYS))
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < math.inf:
            raise InputError.of("threshold_stats_not_number", place=where, key=key, value=repr(value))
        checked[key] = int(value) if key == "max_nonfinite_diff" else float(value)
    return StatsLimits(float(checked.get("max_rel", base.max_rel)), float(checked.get("abs_floor", base.abs_floor)),
                       int(checked.get("max_nonfinite_diff", base.max_nonfinite_diff)))


def _stats_from_table(table: object, base: StatsThresholds, path: str | Path) -> StatsThresholds:
    if not isinstance(table, dict):
        raise InputError.of("thresholds_stats_not_table", path=path, value=repr(table))
    values = {key: value for key, value in table.items() if key != "dtype"}
    default = stats_limits(base.default, values, f"{path} [stats]")
    dtypes = table.get("dtype", {})
    if not isinstance(dtypes, dict):
        raise InputError.of("thresholds_stats_dtype_not_tables", path=path)
    per_dtype = dict(base.per_dtype)
    for name, limits in dtypes.items():
        where = f"{path} [stats.dtype.{escape_controls(name[:EXCERPT_CHARS])}]"
        if not isinstance(limits, dict):
            raise InputError.of("thresholds_stats_dtype_not_table", place=where, path=path)
        per_dtype[check_dtype_name(name, where)] = stats_limits(default, limits, where)
    return StatsThresholds(default, per_dtype)


def parse_dtype_limit(text: str) -> tuple[str, str, float]:
    """Parse a CLI override 'float16:cosine=0.995' into (dtype, key, value)."""
    try:
        dtype, assignment = text.split(":", 1)
        key, value = assignment.split("=", 1)
        key, number = _KEYS[key.strip()], float(value)
    except (ValueError, KeyError) as error:
        raise InputError.of("dtype_threshold_syntax", text=text) from error
    if not dtype.strip():
        raise InputError.of("dtype_threshold_no_dtype", text=text)
    check_dtype_name(dtype, f"--dtype-threshold '{text}'")
    return dtype.strip(), key, check_limit(key, number, f"--dtype-threshold '{text}'")
