"""Real cmake + g++ builds against the stub SDK; AutofuseTiling runs in a child process."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from autofuse_studio.core.tiling.job import VerifyRequest, prepare
from autofuse_studio.core.tiling.local import RunOutcome, run_local
from tests.stub_sdk import expected, needs_build, write_inductor_source, write_tf_source

pytestmark = needs_build



def _run(request: VerifyRequest) -> tuple[RunOutcome, list[str]]:
    lines: list[str] = []
    outcome = run_local(prepare(request), lines.append)
    return outcome, lines


def _json(tmp_path: Path, kind: str, dims: list[int], width: int = 32) -> str:
    path = tmp_path / "in.json"
    path.write_text(json.dumps({"dynamic_dims": dims, "aiv_num": 6, "ub_size": 4000,
                                "abi": {"kind": kind, "shape_dims": len(dims), "block_dim_width": width}}))
    return str(path)


def test_tf_static_succeeds_with_reference_result(sdk: Path, tmp_path: Path) -> None:
    source = write_tf_source(tmp_path / "src")
    outcome, lines = _run(VerifyRequest(str(source), output=str(tmp_path / "out")))
    assert outcome.exit_code == 0
    text = (tmp_path / "out" / "result.json").read_text(encoding="utf-8")
    assert not text.endswith("\n")
    result = json.loads(text)
    assert list(result) == ["scene", "source_dir", "case", "log", "status", "fields"]
    assert result["status"] == "SUCCEEDED"
    assert result["fields"] == expected("tf_static", [])
    assert result["source_dir"] == str(source.resolve())
    for stage in ("=== Compile Check ===", "✓ cmake OK", "=== Tiling Execution ==="):
        assert stage in lines
    assert any(line.startswith("✓ make OK  → ") for line in lines)
    assert f"  block_dim            = {result['fields']['block_dim']}" in lines
    assert (tmp_path / "out" / "build.log").read_text()
    assert outcome.build_dir is None


def test_tf_dynamic_64bit_kept_build_has_valid_so_path(sdk: Path, tmp_path: Path) -> None:
    source = write_tf_source(tmp_path / "src", "tf_dynamic", dims=2, width=64)
    outcome, _ = _run(VerifyRequest(str(source), input_json=_json(tmp_path, "tf_dynamic", [1000, 7], 64),
                                    keep_build=True, output=str(tmp_path / "out")))
    assert outcome.result is not None
    assert outcome.result["fields"] == expected("tf_dynamic", [1000, 7], aiv_num=6, ub_size=4000)
    assert Path(outcome.result["so_path"]).is_file()
    assert outcome.build_dir is not None
    shutil.rmtree(outcome.build_dir)


def test_inductor_succeeds(sdk: Path, tmp_path: Path) -> None:
    source = write_inductor_source(tmp_path / "src", dims=1)
    outcome, _ = _run(VerifyRequest(str(source), input_json=_json(tmp_path, "inductor", [77]),
                                    output=str(tmp_path / "out")))
    assert outcome.result is not None
    assert outcome.result["scene"] == "inductor"
    assert outcome.result["fields"] == expected("inductor", [77])


def test_compile_error_is_compile_failed(sdk: Path, tmp_path: Path) -> None:
    source = write_tf_source(tmp_path / "src", behaviour="compile_error")
    outcome, lines = _run(VerifyRequest(str(source), output=str(tmp_path / "out")))
    assert outcome.exit_code == 1
    assert outcome.result is not None
    assert outcome.result["status"] == "COMPILE_FAILED"
    assert outcome.result["error"].startswith("make 失败")
    assert "✗ 编译失败:" in lines


@pytest.mark.parametrize(("behaviour", "message"), [
    ("nonzero", "AutofuseTiling returned 7"),
    ("segfault", "crashed the tiling process with SIGSEGV"),
    ("hang", "did not finish within the 1 s timeout"),
])
def test_runtime_failures_never_kill_the_tool(sdk: Path, tmp_path: Path, behaviour: str, message: str) -> None:
    source = write_tf_source(tmp_path / "src", behaviour=behaviour)
    outcome, lines = _run(VerifyRequest(str(source), run_timeout=1, output=str(tmp_path / "out")))
    assert outcome.exit_code == 1
    assert outcome.result is not None
    assert outcome.result["status"] == "RUNTIME_FAILED"
    assert message in outcome.result["error"]
    assert any(line.startswith("✗ Runtime Error:") for line in lines)


def test_missing_cann_is_one_sentence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ASCEND_HOME_PATH", str(tmp_path / "no-cann"))
    source = write_tf_source(tmp_path / "src")
    outcome, _ = _run(VerifyRequest(str(source), output=str(tmp_path / "out")))
    assert outcome.result is not None
    assert outcome.result["status"] == "COMPILE_FAILED"
    assert "The CANN toolkit was not found" in outcome.result["error"]
