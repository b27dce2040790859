"""verify-tiling checks that run before any compiler: params, scene, signature, compile.toml, log inputs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from autofuse_studio.core.errors import InputError, UsageError
from autofuse_studio.core.tiling.cmake_project import cmakelists, load_compile_config
from autofuse_studio.core.tiling.job import VerifyRequest, prepare
from autofuse_studio.core.tiling.params import PRESETS, parse_input_json, validate_params
from autofuse_studio.core.tiling.scene import collect_inductor, detect_scene, tf_kernel_name
from autofuse_studio.core.tiling.signature import find_signature
from tests.stub_sdk import tiling_cpp, write_inductor_source, write_tf_source


def _params(**changes: object) -> dict[str, object]:
    values = json.loads(json.dumps(PRESETS["B"]))
    values.update(changes)
    return values


def test_presets_are_valid() -> None:
    assert validate_params(PRESETS["A"]) == []
    assert validate_params(PRESETS["B"]) == []


@pytest.mark.parametrize(("changes", "expected"), [
    ({"aiv_num": 0}, "aiv_num = 0 is out of range"),
    ({"aiv_num": 70000}, "aiv_num = 70000 is out of range"),
    ({"ub_size": True}, "ub_size = true is out of range"),
    ({"dynamic_dims": [1024, 0]}, "dynamic_dims[1] = 0 is out of range"),
    ({"dynamic_dims": [1] * 33, "abi": {"kind": "tf_dynamic", "shape_dims": 33, "block_dim_width": 32}},
     "at most 32"),
    ({"abi": {"kind": "tf_static", "shape_dims": 2, "block_dim_width": 32}}, "tf_static takes no dynamic dims"),
    ({"abi": {"kind": "tf_dynamic", "shape_dims": 2, "block_dim_width": 16}}, "must be 32 or 64"),
    ({"abi": {"kind": "cuda", "shape_dims": 2, "block_dim_width": 32}}, "is not one of"),
    ({"dynamic_dims": [5]}, "dynamic_dims holds 1 value(s) but abi.shape_dims = 2"),
])
def test_each_bad_range_is_one_clear_sentence(changes: dict[str, object], expected: str) -> None:
    problems = validate_params(_params(**changes))
    assert len(problems) == 1
    assert expected in problems[0]


def test_several_problems_are_all_reported() -> None:
    problems = validate_params(_params(aiv_num=-1, ub_size=None, dynamic_dims="x"))
    assert len(problems) == 3


def test_bad_json_names_line() -> None:
    with pytest.raises(InputError, match="line 2"):
        parse_input_json('{\n "aiv_num": }', "in.json")


def test_scene_detection(tmp_path: Path) -> None:
    tf = write_tf_source(tmp_path / "tf")
    assert detect_scene(tf) == "tf"
    both = write_inductor_source(write_tf_source(tmp_path / "both"))
    assert detect_scene(both) == "inductor"  # output_code.py wins
    (tmp_path / "empty").mkdir()
    with pytest.raises(UsageError, match="无法自动检测场景"):
        detect_scene(tmp_path / "empty")


def test_kernel_name_is_stable_and_inductor_name_is_sane(tmp_path: Path) -> None:
    assert tf_kernel_name(["Zed_tiling_func.cpp", "Add_tiling_func.cpp", "x.h"]) == "Add"
    sources = collect_inductor(write_inductor_source(tmp_path / "ind", name="autofused_mul_1"))
    assert sources.kernel_name == "autofused_mul_1"
    assert set(sources.files) == {"autofuse_tiling_data.h", "tiling_func.cpp"}


def test_inductor_file_is_never_executed(tmp_path: Path) -> None:
    folder = write_inductor_source(tmp_path / "ind")
    assert "raise SystemExit" in (folder / "output_code.py").read_text()
    collect_inductor(folder)  # would raise SystemExit if executed


@pytest.mark.parametrize(("kind", "dims", "width", "tail"), [
    ("tf_static", 0, 32, "tf"), ("tf_dynamic", 3, 64, "tf"), ("inductor", 2, 32, "inductor")])
def test_signature_is_read_from_source(kind: str, dims: int, width: int, tail: str) -> None:
    sig = find_signature({"k_tiling_func.cpp": "// int64_t AutofuseTiling(int x)\n" + tiling_cpp(kind, dims, width)})
    assert sig is not None
    assert (sig.dims, sig.block_dim_width, sig.tail) == (dims, width, tail)


def test_abi_mismatch_reported_before_compiling(tmp_path: Path) -> None:
    folder = write_tf_source(tmp_path / "tf", "tf_dynamic", dims=2, width=64)
    with pytest.raises(UsageError) as info:
        prepare(VerifyRequest(str(folder), preset="B"))
    assert "nothing was built" in str(info.value)
    assert "64-bit block_dim but abi.block_dim_width = 32" in str(info.value)


def test_scene_abi_mismatch(tmp_path: Path) -> None:
    folder = write_inductor_source(tmp_path / "ind")
    with pytest.raises(UsageError, match=r"inductor scene needs abi\.kind inductor"):
        prepare(VerifyRequest(str(folder), preset="A"))


def test_preset_and_input_json_are_exclusive(tmp_path: Path) -> None:
    folder = write_tf_source(tmp_path / "tf")
    with pytest.raises(UsageError, match=r"cannot be used together"):
        prepare(VerifyRequest(str(folder), preset="A", input_json="x.json"))


def test_compile_config_and_cmakelists(tmp_path: Path) -> None:
    config_path = tmp_path / "compile.toml"
    config_path.write_text('[compile]\nflags = "-O2 -DX=\\"${HOME}\\""\nextra_includes = ["/opt/inc"]\n'
                           'extra_links = ["m"]\n')
    config = load_compile_config(config_path)
    text = cmakelists("Add", config)
    assert "set(CMAKE_CXX_STANDARD 17)" in text
    assert "c_sec ascendalog platform error_manager tiling_api graph_base register" in text
    assert '"-DX=\\${HOME}"' in text  # quoted and escaped: no CMake variable expansion
    assert '"/opt/inc"' in text
    assert load_compile_config(None).flags.startswith("-O0 -g -fno-common -Werror")
    (tmp_path / "bad.toml").write_text('[compile]\nflags = "-O2) \\nexecute_process(COMMAND x"\n')
    with pytest.raises(InputError, match="line break"):
        load_compile_config(tmp_path / "bad.toml")
    with pytest.raises(InputError, match="does not exist"):
        load_compile_config(tmp_path / "missing.toml")
