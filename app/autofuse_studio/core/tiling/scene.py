"""Scene detection (tf / inductor) and the source files that go into the build folder."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

from autofuse_studio.core.errors import InputError, UsageError

SCENES = ("tf", "inductor")
INDUCTOR_FILE = "output_code.py"
MAX_OUTPUT_CODE_BYTES = 64 * 1024 * 1024  # ast.parse of an unbounded file could exhaust memory
_ARTIFACTS_RE = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)_artifacts\s*=\s*\{", re.MULTILINE)
_HEADER_SUFFIXES = (".h", ".hpp", ".inc")


@dataclass
class SourceSet:
    """What the build folder receives: file name -> text, plus the kernel (library) name."""

    scene: str
    kernel_name: str
    files: dict[str, str] = field(default_factory=dict)
    origin: dict[str, str] = field(default_factory=dict)  # file name -> where it came from


def detect_scene(source_dir: Path) -> str:
    """inductor when output_code.py exists (wins), tf when a *tiling_func*.cpp exists, else UsageError."""
    if (source_dir / INDUCTOR_FILE).is_file():
        return "inductor"
    if any(path.is_file() for path in source_dir.glob("*tiling_func*.cpp")):
        return "tf"
    raise UsageError(f"✗ 无法自动检测场景: '{source_dir}' holds neither {INDUCTOR_FILE} (inductor) nor a "
                     "*tiling_func*.cpp file (tf); pass --scene tf or --scene inductor.")


def _safe_name(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_]", "_", text) or "kernel"


def tf_kernel_name(names: list[str]) -> str:
    """The library name: the first *tiling_func*.cpp in sorted order, without `_tiling_func…`."""
    candidates = sorted(name for name in names if "tiling_func" in name and name.endswith(".cpp"))
    if not candidates:
        return "KernelUnknown"
    stem = candidates[0].split("tiling_func")[0].rstrip("_")
    return _safe_name(stem) if stem else "kernel"


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise InputError(f"Cannot read '{path}': {exc.strerror or exc}.", path) from None


def collect_tf(source_dir: Path) -> SourceSet:
    """The tf scene: top-level *tiling_func*/*infershape* .cpp files and every .h/.hpp/.inc."""
    files: dict[str, str] = {}
    origin: dict[str, str] = {}
    for path in sorted(source_dir.iterdir()):
        name = path.name
        wanted = (name.endswith(".cpp") and ("tiling_func" in name or "infershape" in name)) or \
            name.endswith(_HEADER_SUFFIXES)
        if wanted and path.is_file():
            files[name] = _read_text(path)
            origin[name] = str(path)
    if not any(name.endswith(".cpp") for name in files):
        raise InputError(f"'{source_dir}' holds no *tiling_func*.cpp or *infershape*.cpp file to build.", source_dir)
    return SourceSet("tf", tf_kernel_name(list(files)), files, origin)


def _artifacts_dict(path: Path, text: str) -> tuple[str, dict[str, object]]:
    match = _ARTIFACTS_RE.search(text)
    if match is None:
        raise InputError(f"'{path}' holds no top-level `<name>_artifacts = {{...}}` assignment.", path)
    variable = f"{match.group(1)}_artifacts"
    try:
        tree = ast.parse(text, filename=str(path))
    except SyntaxError as exc:
        raise InputError(f"'{path}' is not valid Python: {exc.msg} at line {exc.lineno}.", path, exc.lineno) from None
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == variable for t in node.targets):
            try:
                value = ast.literal_eval(node.value)  # never executes the file
            except ValueError:
                raise InputError(f"'{path}' line {node.lineno}: {variable} is not a plain literal dict.",
                                 path, node.lineno) from None
            if not isinstance(value, dict):
                raise InputError(f"'{path}' line {node.lineno}: {variable} is not a dict.", path, node.lineno)
            return match.group(1), value
    raise InputError(f"'{path}': {variable} is not assigned at the top level.", path)


def collect_inductor(source_dir: Path) -> SourceSet:
    """The inductor scene: tiling_def and host_impl literal-evaluated from output_code.py."""
    path = source_dir / INDUCTOR_FILE
    if not path.is_file():
        raise InputError(f"The inductor scene needs '{path}', which does not exist.", path)
    if path.stat().st_size > MAX_OUTPUT_CODE_BYTES:
        raise InputError(f"'{path}' is larger than {MAX_OUTPUT_CODE_BYTES >> 20} MB; refusing to parse it.", path)
    name, artifacts = _artifacts_dict(path, _read_text(path))
    files: dict[str, str] = {}
    for key, target in (("tiling_def", "autofuse_tiling_data.h"), ("host_impl", "tiling_func.cpp")):
        value = artifacts.get(key)
        if not isinstance(value, str):
            raise InputError(f"'{path}': {name}_artifacts has no string entry '{key}' (needed for {target}).", path)
        files[target] = value
    origin = dict.fromkeys(files, f"{path} ({name}_artifacts)")
    return SourceSet("inductor", _safe_name(name), files, origin)


def collect_sources(source_dir: Path, scene: str) -> SourceSet:
    """The SourceSet for the scene."""
    return collect_inductor(source_dir) if scene == "inductor" else collect_tf(source_dir)
