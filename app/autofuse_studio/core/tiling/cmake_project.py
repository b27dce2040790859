"""compile.toml loading and the generated CMakeLists.txt (C++17, the reference's libraries and flags)."""

from __future__ import annotations

import shlex
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autofuse_studio.core.errors import InputError

DEFAULT_FLAGS = "-O0 -g -fno-common -Werror -Wextra -Wfloat-equal -fvisibility=default -DLOG_CPP"
SDK_LIBRARIES = ("c_sec", "ascendalog", "platform", "error_manager", "tiling_api", "graph_base", "register")
ARCH_DIRS = ("", "/aarch64-linux", "/x86_64-linux")
MAX_CONFIG_BYTES = 1 << 20


@dataclass(frozen=True)
class CompileConfig:
    """The [compile] table: flags (one string), extra include folders and extra link libraries."""

    flags: str = DEFAULT_FLAGS
    extra_includes: tuple[str, ...] = ()
    extra_links: tuple[str, ...] = ()
    source: str = "defaults"
    notes: tuple[str, ...] = field(default=())


def default_config_path() -> Path:
    """~/.att_analyze/compile.toml, as the reference."""
    return Path.home() / ".att_analyze" / "compile.toml"


def _string_list(table: dict[str, object], key: str, path: Path) -> tuple[str, ...]:
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise InputError.of("compile_not_string_list", path=path, key=key)
    return tuple(value)


def _read_toml(config_path: Path) -> dict[str, Any]:
    try:
        if config_path.stat().st_size > MAX_CONFIG_BYTES:
            raise InputError.of("compile_config_too_large", path=config_path, kilobytes=MAX_CONFIG_BYTES >> 10)
        return tomllib.loads(config_path.read_bytes().decode("utf-8-sig"))
    except OSError as exc:
        raise InputError.of("compile_config_unreadable", path=config_path, reason=exc.strerror or str(exc)) from None
    except UnicodeDecodeError as exc:
        raise InputError.of("compile_config_not_utf8", path=config_path, byte=exc.start) from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError.of("compile_config_not_toml", path=config_path, reason=str(exc)) from None
    except (ValueError, RecursionError):  # 5000-digit integers, 100k nested arrays
        raise InputError.of("compile_config_too_deep", path=config_path) from None


def load_compile_config(path: str | Path | None) -> CompileConfig:
    """Read compile.toml; an explicit path must exist, the default one may be absent (-> defaults)."""
    explicit = path is not None
    config_path = Path(path) if path is not None else default_config_path()
    if not config_path.is_file():
        if config_path.exists():
            raise InputError.of("compile_config_not_file", path=config_path)
        if explicit:
            raise InputError.of("compile_config_missing", path=config_path)
        return CompileConfig()
    data = _read_toml(config_path)
    table = data.get("compile")
    if table is None:
        return CompileConfig(source=str(config_path), notes=(f"'{config_path}' has no [compile] table; "
                                                             "using the default flags.",))
    if not isinstance(table, dict):
        raise InputError.of("compile_not_table", path=config_path)
    flags = table.get("flags", DEFAULT_FLAGS)
    if not isinstance(flags, str):
        raise InputError.of("compile_flags_not_string", path=config_path)
    config = CompileConfig(flags, _string_list(table, "extra_includes", config_path),
                           _string_list(table, "extra_links", config_path), str(config_path))
    try:
        check_config(config)
    except InputError as exc:
        raise InputError.of("compile_config_refused", path=config_path, reason=str(exc), cause_code=exc.code,
                            cause_params=exc.params) from None
    return config


def split_flags(flags: str) -> list[str]:
    """The flags string split like a shell would (no shell runs); InputError on unbalanced quotes."""
    try:
        return shlex.split(flags)
    except ValueError as exc:  # "No closing quotation", "No escaped character" (a trailing backslash)
        raise InputError.of("compile_flags_unsplittable", flags=repr(flags[:80]), reason=str(exc).lower()) from None


def check_config(config: CompileConfig) -> None:
    """Refuse values that would change the CMake script's structure rather than pass a value."""
    split_flags(config.flags)
    for label, values in (("flags", [config.flags]), ("extra_includes", config.extra_includes),
                          ("extra_links", config.extra_links)):
        for value in values:
            if any(char in value for char in ";\n\r"):
                raise InputError.of("compile_value_unsafe", key=label, value=value)


def _quote(value: str) -> str:
    """A CMake quoted argument: `$`, `"` and `\\` escaped so values cannot inject CMake code."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$") + '"'


def cmakelists(kernel_name: str, config: CompileConfig) -> str:
    """The CMakeLists.txt text for the build folder."""
    flags = " ".join(_quote(flag) for flag in split_flags(config.flags))
    includes = [f"${{ASCEND_PATH}}{arch}/include" for arch in ARCH_DIRS]
    includes += [_quote(path) for path in config.extra_includes]
    link_dirs = [f"${{ASCEND_PATH}}{arch}/lib64" for arch in ARCH_DIRS]
    links = [*SDK_LIBRARIES, *(_quote(link) for link in config.extra_links)]
    return "\n".join([
        "cmake_minimum_required(VERSION 3.10)",
        "project(kernel CXX)",
        "set(CMAKE_CXX_STANDARD 17)",
        "set(CMAKE_CXX_STANDARD_REQUIRED ON)",
        "set(ASCEND_PATH $ENV{ASCEND_HOME_PATH})",
        "file(GLOB KERNEL_SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/*tiling_func*.cpp "
        "${CMAKE_CURRENT_SOURCE_DIR}/*infershape*.cpp)",
        # link_directories rather than target_link_directories: the latter needs CMake 3.13.
        f"link_directories({' '.join(link_dirs)})",
        f"add_library({kernel_name} SHARED ${{KERNEL_SOURCES}})",
        f"target_compile_options({kernel_name} PRIVATE {flags})",
        f"target_include_directories({kernel_name} PRIVATE {' '.join(includes)})",
        f"target_link_libraries({kernel_name} PRIVATE {' '.join(links)})",
        "",
    ])
