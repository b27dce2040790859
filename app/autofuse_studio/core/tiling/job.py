"""verify-tiling before any compiler runs: resolve scene, parameters, log values and sources; check them all."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autofuse_studio.core.att.case_filter import parse_case_filter
from autofuse_studio.core.errors import OutputError, UsageError
from autofuse_studio.core.reports.atomic import check_output_folder, check_writable_target
from autofuse_studio.core.tiling import runner_script
from autofuse_studio.core.tiling.cmake_project import CompileConfig, cmakelists, load_compile_config
from autofuse_studio.core.tiling.log_inputs import read_log_inputs, select_log_inputs
from autofuse_studio.core.tiling.params import (
    TilingParams,
    load_input_json,
    override_aiv_num,
    preset_params,
    scene_problems,
    validate_params,
)
from autofuse_studio.core.tiling.scene import SCENES, SourceSet, collect_sources, detect_scene
from autofuse_studio.core.tiling.signature import Signature, find_signature, signature_problems

RUNNER_PATH = Path(runner_script.__file__)
RUNNER_FILES = ("runner_script.py", "process_tree.py")


@dataclass
class VerifyRequest:
    """Everything `att verify-tiling` accepts (the GUI fills the same object)."""

    source_dir: str
    scene: str | None = None
    preset: str | None = None
    input_json: str | None = None
    aiv_num: int | None = None
    log: str | None = None
    case: str | None = None
    op: str | None = None
    compile_config: str | None = None
    keep_build: bool = False
    output: str = "output/verify/"
    build_timeout: float = 600.0
    run_timeout: float = 60.0
    jobs: int = 2


@dataclass
class PreparedJob:
    """A checked request: ready to be written as a build project plus job.json."""

    request: VerifyRequest
    source_dir: Path
    scene: str
    params: TilingParams
    sources: SourceSet
    config: CompileConfig
    signature: Signature | None
    notes: list[str] = field(default_factory=list)  # console lines: the inputs and where they came from

    def job_dict(self, build_dir: str, output: str, ascend_home: str | None = None) -> dict[str, Any]:
        """The runner's job.json (paths relative to the job file, or absolute)."""
        request = self.request
        result_base = {"scene": self.scene, "source_dir": str(self.source_dir), "case": request.case,
                       "log": str(Path(request.log).resolve()) if request.log else None}
        return {"version": 1, "build_dir": build_dir, "output": output, "kernel_name": self.sources.kernel_name,
                "scene": self.scene, "params": self.params.values, "keep_build": request.keep_build,
                "workspace_width": self.signature.workspace_width if self.signature else 32,
                "build_timeout": request.build_timeout, "run_timeout": request.run_timeout,
                "jobs": request.jobs, "ascend_home": ascend_home, "result_base": result_base}


def _problems_error(problems: list[str]) -> UsageError:
    lines = "\n".join(f"  ✗ {problem}" for problem in problems)
    return UsageError.of("verify_tiling_problems", count=len(problems), lines=lines)


def _load_params(request: VerifyRequest) -> TilingParams:
    if request.input_json is not None and request.preset is not None:
        raise UsageError.of("preset_and_input_json")
    params = load_input_json(request.input_json) if request.input_json else preset_params(request.preset or "A")
    if request.aiv_num is not None:
        override_aiv_num(params, request.aiv_num)
    return params


def _apply_log(request: VerifyRequest, params: TilingParams, kernel_name: str, notes: list[str]) -> None:
    if request.log is None:
        if request.case:
            notes.append("[verify-tiling] note: --case only selects values from --log; without --log it is "
                         "recorded in result.json only")
        return
    case_filter = parse_case_filter(request.case)
    skipped: list[str] = []
    entries = read_log_inputs(request.log, skipped)
    notes += [f"[verify-tiling] note: --log {line}" for line in skipped]
    chosen, why = select_log_inputs(entries, case_filter, kernel_name, request.op, request.case)
    notes.append(f"[verify-tiling] --log: {why}")
    if chosen is None:
        return
    where = f"log {chosen.where}"
    params.values["dynamic_dims"] = list(chosen.dims)
    params.origins["dynamic_dims"] = where
    params.values["ub_size"] = chosen.ub_size
    params.origins["ub_size"] = where
    if request.aiv_num is None:  # an explicit --aiv-num still wins over the log
        params.values["aiv_num"] = chosen.core_num
        params.origins["aiv_num"] = f"{where} core_num"
    params.source += "+log"


def _check_output(output: str) -> None:
    """-o must be (or become) a writable folder whose result.json and build.log are not folders."""
    folder = Path(output)
    if folder.exists() and not folder.is_dir():
        raise UsageError.of("verify_output_is_file", output=output, folder=folder)
    try:
        check_output_folder(folder)
        for name in ("result.json", "build.log"):
            check_writable_target(folder / name)
    except OutputError as exc:
        raise UsageError.of("verify_output_unusable", output=output, reason=str(exc), cause_code=exc.code,
                             cause_params=exc.params) from None


def prepare(request: VerifyRequest) -> PreparedJob:
    """Check everything that can be checked without a compiler; UsageError lists every problem."""
    _check_output(request.output)
    source_dir = Path(request.source_dir).resolve()
    if not source_dir.is_dir():
        raise UsageError.of("verify_source_missing", path=request.source_dir)
    if request.scene is not None and request.scene not in SCENES:
        raise UsageError.of("verify_unknown_scene", scene=request.scene)
    if request.log is not None and not Path(request.log).exists():
        raise UsageError.of("verify_log_missing", path=request.log)
    scene = request.scene or detect_scene(source_dir)
    params = _load_params(request)
    sources = collect_sources(source_dir, scene)
    notes = [f"[verify-tiling] scene={scene}" + ("" if request.scene else " (detected)")]
    _apply_log(request, params, sources.kernel_name, notes)
    config = load_compile_config(request.compile_config)
    problems = validate_params(params.values) + scene_problems(scene, params.abi)
    signature = find_signature(sources.files)
    if signature is not None and not problems:
        problems += signature_problems(signature, scene, params.abi)
    if problems:
        raise _problems_error(problems)
    values = params.values
    notes.append(f"[verify-tiling] input-config source={params.source} aiv_num={values['aiv_num']} "
                 f"ub_size={values['ub_size']} dynamic_dims={values['dynamic_dims']}")
    notes += [f"[verify-tiling]   {key} ← {params.origins.get(key, '?')}"
              for key in ("dynamic_dims", "aiv_num", "ub_size", "abi")]
    if signature is None:
        notes.append("[verify-tiling] note: no AutofuseTiling declaration found in the sources; the ABI is "
                     "checked only when the library runs")
    notes.append(f"[verify-tiling] kernel={sources.kernel_name} compile-config={config.source}")
    notes += [f"[verify-tiling] note: {note}" for note in config.notes]
    notes.append("[verify-tiling] hint: change the inputs with --input-json FILE, --aiv-num N or --log/--case")
    return PreparedJob(request, source_dir, scene, params, sources, config, signature, notes)


def write_project(job: PreparedJob, folder: Path, output: str, ascend_home: str | None = None) -> Path:
    """Write src/ (sources + CMakeLists.txt), runner_script.py and job.json into folder; returns job.json."""
    src = folder / "src"
    src.mkdir(parents=True, exist_ok=True)
    for name, text in job.sources.files.items():
        (src / name).write_text(text, encoding="utf-8")
    if not (src / "CMakeLists.txt").exists():
        (src / "CMakeLists.txt").write_text(cmakelists(job.sources.kernel_name, job.config), encoding="utf-8")
    for helper in RUNNER_FILES:  # the runner and the one module it imports, shipped side by side
        shutil.copyfile(RUNNER_PATH.parent / helper, folder / helper)
    job_path = folder / "job.json"
    job_path.write_text(json.dumps(job.job_dict("src", output, ascend_home), indent=2, ensure_ascii=False),
                        encoding="utf-8")
    return job_path
