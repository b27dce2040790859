"""Thresholds from TOML files and CLI overrides; clear errors for bad files."""

from __future__ import annotations

from pathlib import Path

import pytest

from autofuse_studio.cli.nwa import build_parser
from autofuse_studio.cli.run_args import thresholds_from_args
from autofuse_studio.core.errors import InputError
from autofuse_studio.core.precision.thresholds import Limits, Thresholds, load_thresholds, parse_dtype_limit


def test_toml_default_and_per_dtype(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text("[default]\ncosine = 0.995\nmax_abs = 0.5\n\n[dtype.float16]\nmax_rel_err = 0.01\n",
                    encoding="utf-8")
    thresholds = load_thresholds(path)
    assert thresholds.default == Limits(cosine=0.995, max_abs=0.5, max_rel=None)
    # A dtype table starts from the file's default limits.
    assert thresholds.limits_for("float16") == Limits(cosine=0.995, max_abs=0.5, max_rel=0.01)
    assert thresholds.limits_for("float32") == thresholds.default


@pytest.mark.parametrize(("text", "message"), [
    ("[default]\ncosine = 'high'\n", "must be a number"),
    ("[default]\nspeed = 1\n", "unknown threshold 'speed'"),
    ("[default\n", "not valid TOML"),
])
def test_bad_files_name_the_file(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=message) as caught:
        load_thresholds(path)
    assert "bad.toml" in str(caught.value)


def test_cli_flags_override_the_file(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text("[default]\ncosine = 0.995\n", encoding="utf-8")
    args = build_parser().parse_args(["--thresholds", str(path), "--max-rel-threshold", "0.2",
                                      "--dtype-threshold", "bfloat16:cosine=0.98"])
    thresholds = thresholds_from_args(args)
    assert thresholds.default == Limits(cosine=0.995, max_abs=None, max_rel=0.2)
    assert thresholds.per_dtype["bfloat16"] == Limits(cosine=0.98, max_abs=None, max_rel=0.2)
    assert thresholds.as_dict()["per_dtype"]["bfloat16"]["cosine"] == 0.98


def test_bad_dtype_override_is_explained() -> None:
    with pytest.raises(InputError, match="DTYPE:KEY=VALUE"):
        parse_dtype_limit("float16-cosine-0.9")
    assert parse_dtype_limit("int32:max_abs=0") == ("int32", "max_abs", 0.0)
    assert Thresholds().limits_for("anything").cosine == 0.99
