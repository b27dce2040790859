"""Errors as codes (issue 27, item 4): the catalogue is complete, the raise sites fill it, English is str()."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import autofuse_studio
from autofuse_studio.core.case import CaseFiles, load_case_file
from autofuse_studio.core.dumps.index import DumpIndex
from autofuse_studio.core.dumps.npy import open_npy as load_npy
from autofuse_studio.core.error_messages import ERRORS, FRAGMENTS, LABELS_ZH, english, render_error
from autofuse_studio.core.errors import AppError, InputError, NpyLoadError, OutputError, UsageError
from autofuse_studio.core.precision.thresholds import load_thresholds as load_thresholds_file
from autofuse_studio.core.remote.profiles import profile_from_dict
from autofuse_studio.core.remote.ssh import ssh_failure
from autofuse_studio.core.reports.atomic import check_writable_target

PACKAGE = Path(autofuse_studio.__file__).parent
CJK = re.compile(r"[\u4e00-\u9fff]")
# Fields the Chinese rendering derives itself (core/error_messages._chinese_context).
DERIVED = {"label": "role", "where": None}
# What a `**mapping` argument of a raise site supplies.
SPREAD = {"where": {"host", "address"}, "_rank_param(where)": {"rank"}, "problem": {"problem", "problem_code"}}


def _fields(template: str) -> dict[str, str]:
    """The template's field names and their format specs."""
    return {name: spec or "" for _, name, spec, _ in string.Formatter().parse(template) if name}


def _sample(code: str) -> dict[str, object]:
    english_fields = _fields(ERRORS[code][0])
    params: dict[str, object] = {name: 1.5 if spec else f"<{name}>" for name, spec in english_fields.items()}
    params.setdefault("role", "af_open_graph")
    return params


def _trees() -> list[tuple[Path, ast.AST]]:
    """The package's modules that make coded errors, parsed."""
    return [(path, ast.parse(text)) for path in sorted(PACKAGE.rglob("*.py"))
            if ".of(" in (text := path.read_text(encoding="utf-8"))]


def _param_names(call: ast.Call) -> set[str]:
    """The parameter names a `.of(...)` call passes (a `**mapping` by SPREAD)."""
    names: set[str] = set()
    for keyword in call.keywords:
        names |= {keyword.arg} if keyword.arg else SPREAD[ast.unparse(keyword.value)]
    return names


def _raise_sites() -> list[tuple[Path, int, str, set[str]]]:
    """(file, line, code, parameter names) of every `.of("code", ...)` call in the package."""
    sites = []
    trees = _trees()
    for path, tree in trees:
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "of"
                    and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                continue
            sites.append((path, node.lineno, node.args[0].value, _param_names(node)))
    # `InputError.of("a" if … else "b", …)`: both codes
    for path, tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "of" \
                    and node.args and isinstance(node.args[0], ast.IfExp):
                names = _param_names(node)
                for branch in (node.args[0].body, node.args[0].orelse):
                    assert isinstance(branch, ast.Constant) and isinstance(branch.value, str)
                    sites.append((path, node.lineno, branch.value, names))
    return sites


@pytest.mark.parametrize("code", sorted(ERRORS))
def test_every_code_renders_in_english_and_chinese(code: str) -> None:
    en, zh = ERRORS[code]
    assert en and zh
    params = _sample(code)
    assert english(code, params)
    error = InputError.of(code, **params)
    assert str(error) == english(code, params) == render_error(error, "en")
    chinese = render_error(error, "zh_CN")
    assert chinese != str(error) or en.startswith("ERROR: ")  # the reference's lines are Chinese already
    assert CJK.search(chinese), chinese
    # Chinese asks for nothing the English sentence's params (and what is derived from them) do not give.
    assert set(_fields(zh)) <= set(_fields(en)) | set(DERIVED), code


def test_every_raise_site_fills_its_templates_and_every_code_is_used() -> None:
    sites = _raise_sites()
    assert len(sites) >= 60
    for path, line, code, names in sites:
        where = f"{path.relative_to(PACKAGE)}:{line}"
        assert code in ERRORS, f"{where}: no catalogue entry for {code!r}"
        assert set(_fields(ERRORS[code][0])) <= names, f"{where}: {code} needs {set(_fields(ERRORS[code][0]))}"
        derived = {field for field, source in DERIVED.items() if source is None or source in names}
        assert set(_fields(ERRORS[code][1])) <= names | derived, f"{where}: the Chinese {code} lacks a param"
    assert {code for _, _, code, _ in sites} == set(ERRORS), "codes no raise site uses"


def test_the_role_labels_have_chinese_words() -> None:
    from autofuse_studio.core.case import ROLE_LABELS

    assert set(ROLE_LABELS) == set(LABELS_ZH)


def test_an_error_without_a_code_is_its_sentence_in_every_language() -> None:
    error = InputError("A sentence of its own.", "/x")
    assert error.code is None and error.params == {} and error.path == "/x"
    assert render_error(error, "zh_CN") == render_error(error, "en") == "A sentence of its own."
    assert render_error(ValueError("plain"), "zh") == "plain"


def test_params_of_another_version_fall_back_to_the_sentence() -> None:
    error = InputError("The dump graph /g does not exist or is not a file.", code="graph_missing", params={})
    assert render_error(error, "zh") == str(error)
    assert render_error(InputError("said", code="no_such_code"), "zh") == "said"


def test_of_keeps_path_and_line_attributes() -> None:
    error = InputError.of("case_not_json", path=Path("/c.afcase"), line=3)
    assert (error.path, error.line, error.code) == ("/c.afcase", 3, "case_not_json")
    assert error.params == {"path": "/c.afcase", "line": 3}
    assert OutputError.of("output_is_folder", path=Path("/o")).path == "/o"
    assert UsageError.of("report_mode1_only").exit_code == 2


# --- real raise sites: the English sentence is byte for byte what it was -------------------------------------


def _raised(call: object) -> Any:
    with pytest.raises(AppError) as caught:
        call()  # type: ignore[operator]
    return caught.value


def test_a_missing_graph_of_a_case(tmp_path: Path) -> None:
    graph = tmp_path / "missing.json"
    case = CaseFiles(af_open_graph=graph, af_close_graph=graph, af_open_data=tmp_path, af_close_data=tmp_path)
    error = _raised(case.spec)
    assert str(error) == f"The af-open graph {graph} does not exist or is not a file."
    assert case.problems()[0] == str(error)
    assert render_error(error, "en") == str(error)
    assert render_error(error, "zh_CN") == f"af-open 图 {graph} 不存在或不是文件。"


def test_a_case_with_an_input_not_set(tmp_path: Path) -> None:
    error = _raised(CaseFiles(npy_b=tmp_path / "b.npy").spec)
    assert str(error) == "The NPY file A is not set."
    assert render_error(error, "zh") == "NPY 文件 A未设置。"


def test_a_missing_dump_folder(tmp_path: Path) -> None:
    error = _raised(lambda: DumpIndex.build(tmp_path / "nowhere"))
    assert str(error) == f"Dump folder {tmp_path / 'nowhere'} does not exist." == render_error(error, "en")
    assert error.path == str(tmp_path / "nowhere")
    assert render_error(error, "zh") == f"dump 文件夹 {tmp_path / 'nowhere'} 不存在。"


def test_npy_load_errors(tmp_path: Path) -> None:
    folder = tmp_path / "folder.npy"
    folder.mkdir()
    error = _raised(lambda: load_npy(folder))
    assert isinstance(error, NpyLoadError)
    assert str(error) == f"Cannot read {folder}: it is a directory, not an NPY file."
    assert render_error(error, "zh") == f"无法读取 {folder}：它是一个文件夹，不是 NPY 文件。"
    empty = tmp_path / "empty.npy"
    empty.write_bytes(b"")
    assert str(_raised(lambda: load_npy(empty))) == f"{empty} is empty (0 bytes), not an NPY file."
    short = tmp_path / "short.npy"
    np.save(short, np.zeros(8, np.float32))
    short.write_bytes(short.read_bytes()[:-4])
    error = _raised(lambda: load_npy(short))
    assert str(error) == (f"{short} is truncated: its header promises 32 bytes of <f4 data for shape (8,) but only "
                          "28 bytes follow.")
    assert CJK.search(render_error(error, "zh"))


def test_an_output_folder_in_the_way(tmp_path: Path) -> None:
    error: AppError = _raised(lambda: check_writable_target(tmp_path))
    assert isinstance(error, OutputError)
    assert str(error) == f"Cannot write '{tmp_path}': it is a folder."
    assert render_error(error, "zh") == f"无法写入 '{tmp_path}'：它是一个文件夹。"


def test_case_and_thresholds_files(tmp_path: Path) -> None:
    case = tmp_path / "bad.afcase"
    case.write_text("{\n  nope", encoding="utf-8")
    error = _raised(lambda: load_case_file(case))
    assert str(error) == f"The case file {case} is not valid JSON (line 2)." and error.line == 2
    assert render_error(error, "zh") == f"案例文件 {case} 不是有效的 JSON（第 2 行）。"
    toml = tmp_path / "t.toml"
    toml.write_bytes(b"\xff\xfe")
    error = _raised(lambda: load_thresholds_file(toml))
    assert str(error) == f"The thresholds file {toml} is not UTF-8 text."


def test_a_host_that_cannot_be_reached() -> None:
    profile = profile_from_dict({"name": "box", "destination": "me@box.example"})
    error = ssh_failure(profile, 255, "ssh: connect to host box port 22: Connection refused", 10)
    assert str(error) == (f"Cannot reach host 'box' ({profile.describe()}): the connection was refused (is sshd "
                          "running on that port?).")
    assert render_error(error, "zh") == f"无法连接主机 'box'（{profile.describe()}）：连接被拒绝（该端口上的 sshd 是否在运行？）。"
    timeout = ssh_failure(profile, 255, "Connection timed out", 7)
    assert str(timeout).endswith("no answer within the 7 s connect timeout.")
    assert "7 秒" in render_error(timeout, "zh")


def test_att_logs_not_found(tmp_path: Path) -> None:
    from autofuse_studio.core.att.scanner import discover_logs

    error = _raised(lambda: discover_logs(tmp_path / "none"))
    assert str(error) == f"Path '{tmp_path / 'none'}' not found."
    assert render_error(error, "zh") == f"路径 '{tmp_path / 'none'}' 不存在。"


def test_graph_file_errors_in_chinese(tmp_path: Path) -> None:
    from autofuse_studio.core.ge.load import load_model

    error = _raised(lambda: load_model(tmp_path / "none.json"))
    assert str(error) == f"The graph file {tmp_path / 'none.json'} does not exist."
    assert render_error(error, "zh") == f"图文件 {tmp_path / 'none.json'} 不存在。"
    cut = tmp_path / "cut.json"
    cut.write_text('{"graph": [', encoding="utf-8")
    error = _raised(lambda: load_model(cut))
    assert str(error).startswith(f"{cut} is not valid JSON (the file looks truncated): ") and error.line == 1
    assert render_error(error, "zh").startswith(f"{cut} 不是有效的 JSON（文件似乎被截断）：第 1 行第 ")


def test_a_refused_case_field_is_chinese_inside_the_chinese_sentence(tmp_path: Path) -> None:
    from autofuse_studio.core.case import CASE_FORMAT

    case = tmp_path / "step.afcase"
    case.write_text(f'{{"format": "{CASE_FORMAT}", "step": 5.5}}', encoding="utf-8")
    error = _raised(lambda: load_case_file(case))
    assert str(error) == f"The case file {case} is refused: 'step' must be a step folder name or null, not 5.5."
    assert render_error(error, "zh") == f"案例文件 {case} 被拒绝：'step' 必须是 step 文件夹名或 null，而不是 5.5。"
    # a wrapped code this version does not know: the English reason inside the Chinese sentence
    stranger = InputError.of("case_refused", path="/c", reason="Said.", cause_code="gone", cause_params={})
    assert render_error(stranger, "zh") == "案例文件 /c 被拒绝：Said."


def test_a_side_file_that_is_a_folder(tmp_path: Path) -> None:
    error = _raised(lambda: load_thresholds_file(tmp_path))
    assert str(error) == f"The thresholds file {tmp_path} is a folder, not a file."
    assert render_error(error, "zh") == f"阈值文件 {tmp_path} 是一个文件夹，不是文件。"
    assert error.path == str(tmp_path)


def test_runner_and_host_errors_in_chinese() -> None:
    from autofuse_studio.core.desktop import check_command
    from autofuse_studio.core.remote.nwa_remote import too_old
    from autofuse_studio.core.tiling.params import preset_params

    error = _raised(lambda: preset_params("C"))
    assert (str(error), render_error(error, "zh")) == ("Unknown preset 'C': use A or B.", "未知的预设 'C'：请使用 A 或 B。")
    error = _raised(lambda: check_command(["/opt/a\nb"]))
    assert str(error).startswith("Cannot write a desktop entry for a command with a line break in it: ")
    assert render_error(error, "zh").startswith("无法为含有换行的命令写入桌面项：")
    profile = profile_from_dict({"name": "box", "destination": "me@box.example"})
    old = too_old(profile, "autofuse-studio", "0.1")
    assert str(old).startswith(f"'autofuse-studio' on host 'box' ({profile.describe()}) is Autofuse Studio 0.1, ")
    assert render_error(old, "zh").startswith(f"主机 'box'（{profile.describe()}）上的 'autofuse-studio' 是 ")


@pytest.mark.parametrize("part", sorted(FRAGMENTS))
def test_every_sentence_part_has_chinese_words_with_the_same_values(part: str) -> None:
    en, zh = FRAGMENTS[part]
    assert set(_fields(zh)) == set(_fields(en)) and CJK.search(zh)


def test_a_threshold_out_of_range_is_chinese_to_its_last_word(tmp_path: Path) -> None:
    from autofuse_studio.core.precision.thresholds import check_limit

    error = _raised(lambda: check_limit("cosine", 2, "--cosine-threshold"))
    assert str(error) == "--cosine-threshold: threshold 'cosine' must be in [-1, 1], not 2."
    assert render_error(error, "zh") == "--cosine-threshold：阈值 'cosine' 必须在 [-1, 1] 之内，而不是 2。"
    error = _raised(lambda: check_limit("max_abs", "x", "--max-abs-threshold"))
    assert str(error) == "--max-abs-threshold: threshold 'max_abs' must be a number, not 'x'."
    assert render_error(error, "zh") == "--max-abs-threshold：阈值 'max_abs' 必须是数字，而不是 'x'。"
    from autofuse_studio.core.case import CASE_FORMAT

    case = tmp_path / "limit.afcase"
    case.write_text(f'{{"format": "{CASE_FORMAT}", "thresholds": {{"default": {{"max_rel": -1}}}}}}', "utf-8")
    error = _raised(lambda: load_case_file(case))
    assert str(error) == (f"The case file {case} is refused: Threshold 'max_rel' of 'thresholds.default' must be 0 "
                          "or more, not -1 (or null).")
    assert render_error(error, "zh") == (f"案例文件 {case} 被拒绝：'thresholds.default' 的阈值 'max_rel' 必须大于等于 "
                                         "0，而不是 -1（或 null）。")
