"""Scene detection (tf / inductor) and the source files that go into the build folder."""

from __future__ import annotations

import ast
import re
import tokenize
from dataclasses import dataclass, field
from pathlib import Path

from autofuse_studio.core.errors import InputError, UsageError

SCENES = ("tf", "inductor")
INDUCTOR_FILE = "output_code.py"
MAX_OUTPUT_CODE_BYTES = 64 * 1024 * 1024  # read in full; only the artifacts dict is ever parsed
MAX_LITERAL_TOKENS = 100_000  # bounds the syntax tree of that dict (a real one has a few dozen tokens)
MAX_LITERAL_DEPTH = 32
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
    raise UsageError.of("scene_undetected", path=source_dir, inductor_file=INDUCTOR_FILE)


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
        raise InputError.of("tiling_source_unreadable", path=path, reason=exc.strerror or str(exc)) from None


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
        raise InputError.of("tf_no_sources", path=source_dir)
    return SourceSet("tf", tf_kernel_name(list(files)), files, origin)


def _literal_end(text: str, start: int, path: Path, line: int) -> int:
    """Offset just past the bracketed literal opening at text[start]; bounded tokens and nesting, no recursion."""
    position = line_start = start

    def readline() -> str:
        nonlocal position, line_start
        end = text.find("\n", position)
        end = len(text) if end < 0 else end + 1
        line_start, position = position, end
        return text[line_start:end]

    depth = 0
    try:
        for count, token in enumerate(tokenize.generate_tokens(readline)):
            if count > MAX_LITERAL_TOKENS:
                raise InputError.of("artifacts_too_many_tokens", path=path, line=line, limit=MAX_LITERAL_TOKENS)
            if token.type != tokenize.OP or token.string not in "([{)]}":
                continue
            depth += 1 if token.string in "([{" else -1
            if depth > MAX_LITERAL_DEPTH:
                raise InputError.of("artifacts_too_deep", path=path, line=line, limit=MAX_LITERAL_DEPTH)
            if depth == 0:
                return line_start + token.end[1]
    except (tokenize.TokenError, SyntaxError) as exc:
        raise InputError.of("artifacts_not_python", path=path, line=line, reason=exc.args[0]) from None
    raise InputError.of("artifacts_not_closed", path=path, line=line)


def _artifacts_dict(path: Path, text: str) -> tuple[str, dict[str, object]]:
    """The first column-0 `<name>_artifacts = {...}`, literal-evaluated (never executed, never the whole file)."""
    match = _ARTIFACTS_RE.search(text)
    if match is None:
        raise InputError.of("artifacts_missing", path=path)
    variable = f"{match.group(1)}_artifacts"
    line = text.count("\n", 0, match.start()) + 1
    opening = match.end() - 1
    literal = text[opening:_literal_end(text, opening, path, line)]
    try:
        value = ast.literal_eval(ast.parse(literal, filename=str(path), mode="eval").body)
    except SyntaxError as exc:
        raise InputError.of("artifacts_variable_not_python", path=path, line=line, variable=variable,
                            reason=exc.msg) from None
    except (ValueError, TypeError, RecursionError, MemoryError):
        raise InputError.of("artifacts_not_literal", path=path, line=line, variable=variable) from None
    if not isinstance(value, dict):
        raise InputError.of("artifacts_not_dict", path=path, line=line, variable=variable)
    return match.group(1), value


def collect_inductor(source_dir: Path) -> SourceSet:
    """The inductor scene: tiling_def and host_impl literal-evaluated from output_code.py."""
    path = source_dir / INDUCTOR_FILE
    if not path.is_file():
        raise InputError.of("inductor_file_missing", path=path)
    if path.stat().st_size > MAX_OUTPUT_CODE_BYTES:
        raise InputError.of("inductor_file_too_large", path=path, megabytes=MAX_OUTPUT_CODE_BYTES >> 20)
    name, artifacts = _artifacts_dict(path, _read_text(path))
    files: dict[str, str] = {}
    for key, target in (("tiling_def", "autofuse_tiling_data.h"), ("host_impl", "tiling_func.cpp")):
        value = artifacts.get(key)
        if not isinstance(value, str):
            raise InputError.of("artifacts_no_entry", path=path, name=name, key=key, target=target)
        files[target] = value
    origin = dict.fromkeys(files, f"{path} ({name}_artifacts)")
    return SourceSet("inductor", _safe_name(name), files, origin)


def collect_sources(source_dir: Path, scene: str) -> SourceSet:
    """The SourceSet for the scene."""
    return collect_inductor(source_dir) if scene == "inductor" else collect_tf(source_dir)
