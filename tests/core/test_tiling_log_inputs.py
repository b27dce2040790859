"""--log/--case: tiling inputs taken from an ATT log, with their origin."""

from __future__ import annotations

from pathlib import Path

import pytest

from autofuse_studio.core.errors import UsageError
from autofuse_studio.core.tiling.job import VerifyRequest, prepare
from tests.stub_sdk import write_tf_source

LOG = """[Add] Start GetTiling.
[Add] local buffer tiling success, input: result_id: 0, group_id: 0, case_id: 0, sub_case_id: 0core_num: 2, ub_size: 512, input_vars[0]: 512, input_vars[1]: 256, tiling_vars[0]: 1
[Add] local buffer tiling success, input: result_id: 0, group_id: 0, case_id: 1, sub_case_id: 0core_num: 4, ub_size: 1024, input_vars[0]: 64, input_vars[1]: 32, tiling_vars[0]: 1
[Mul] local buffer tiling success, input: result_id: 1, group_id: 0, case_id: 0, sub_case_id: 0core_num: 4, ub_size: 256, input_vars[0]: 256, input_vars[1]: 256
"""


@pytest.fixture
def source(tmp_path: Path) -> Path:
    return write_tf_source(tmp_path / "src", "tf_dynamic", dims=2)


def test_case_values_come_from_the_log_and_say_where(tmp_path: Path, source: Path) -> None:
    log = tmp_path / "att.log"
    log.write_text(LOG)
    job = prepare(VerifyRequest(str(source), preset="B", log=str(log), case="r=0,g=0,c=1"))
    assert job.params.values["dynamic_dims"] == [64, 32]
    assert job.params.values["aiv_num"] == 4
    assert job.params.values["ub_size"] == 1024
    assert job.params.origins["dynamic_dims"].endswith("att.log:3 (Add result 0 group 0 case 1)")
    assert any("dynamic_dims ← log" in note and ":3" in note for note in job.notes)
    assert job.params.source == "preset_B+log"


def test_aiv_num_flag_wins_over_log(tmp_path: Path, source: Path) -> None:
    log = tmp_path / "att.log"
    log.write_text(LOG)
    job = prepare(VerifyRequest(str(source), preset="B", log=str(log), case="c=0", aiv_num=7))
    assert job.params.values["aiv_num"] == 7
    assert job.params.origins["aiv_num"] == "--aiv-num"
    assert job.params.values["dynamic_dims"] == [512, 256]


def test_ambiguous_case_is_an_error(tmp_path: Path, source: Path) -> None:
    log = tmp_path / "att.log"
    log.write_text(LOG)
    with pytest.raises(UsageError, match="ambiguous"):
        prepare(VerifyRequest(str(source), preset="B", log=str(log), case="r=0"))


def test_log_without_inputs_keeps_preset(tmp_path: Path, source: Path) -> None:
    log = tmp_path / "att.log"
    log.write_text("[Add] [PROF]The value of block_dim is 2 in graph0_result0_g0_0.\n")
    job = prepare(VerifyRequest(str(source), preset="B", log=str(log), case="c=0"))
    assert job.params.values["dynamic_dims"] == [1024, 512]
    assert any("no tiling input lines" in note for note in job.notes)


def test_missing_log_is_a_usage_error(source: Path) -> None:
    with pytest.raises(UsageError, match="日志不存在"):
        prepare(VerifyRequest(str(source), preset="B", log="/nonexistent.log"))
