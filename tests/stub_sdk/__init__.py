"""A tiny stand-in for the CANN SDK (headers + seven stub shared libraries) and tiling sources that use it.

Tests build it themselves with the real g++, so verify-tiling's real cmake + make + dlopen path runs here.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

# Real cmake + g++ builds: skipped with a reason where the tools are missing (CI installs them).
needs_build = pytest.mark.skipif(shutil.which("cmake") is None or shutil.which("g++") is None,
                                 reason="cmake and g++ are needed for real builds")

LIBRARIES = ("c_sec", "ascendalog", "platform", "error_manager", "tiling_api", "graph_base", "register")
_BUILT: dict[str, Path] = {}

SDK_HEADER = """#pragma once
#include <cstdint>
extern "C" int StubSdkMarker_c_sec(void);
extern "C" int StubSdkMarker_register(void);
"""

TILING_DATA = """#pragma once
#include <cstdint>
struct AutofuseTilingData { uint32_t block_dim; uint32_t tile; uint32_t dims[4]; };
"""

# What AutofuseTiling does, per behaviour: {dims} expands to the dim parameters' use.
BODIES = {
    "ok": "  *blockDim = BD; *workspaceSize = WS; tiling->block_dim = *blockDim; return 0;",
    "nonzero": "  (void)tiling; (void)workspaceSize; (void)blockDim; return 7;",
    "segfault": "  volatile uint32_t* p = nullptr; *p = 1; (void)tiling; (void)workspaceSize; (void)blockDim; return 0;",
    "hang": "  (void)tiling; (void)workspaceSize; (void)blockDim; for (;;) { usleep(100000); } return 0;",
    "compile_error": "  this is not C++;",
}


def stub_sdk(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The stub SDK folder (include/ + lib64/), built once per test process with g++."""
    key = str(tmp_path_factory.getbasetemp())
    if key in _BUILT:
        return _BUILT[key]
    root = tmp_path_factory.mktemp("stub_ascend")
    (root / "include").mkdir()
    (root / "lib64").mkdir()
    (root / "include" / "stub_sdk.h").write_text(SDK_HEADER)
    for name in LIBRARIES:
        source = root / "lib64" / f"{name}.c"
        source.write_text(f"int StubSdkMarker_{name}(void) {{ return 1; }}\n")
        subprocess.run(["gcc", "-shared", "-fPIC", "-o", str(root / "lib64" / f"lib{name}.so"), str(source)],
                       check=True)
    _BUILT[key] = root
    return root


def _signature(kind: str, dims: int, width: int) -> str:
    params = [f"uint32_t s{i}" for i in range(dims)]
    params += ["AutofuseTilingData* tiling", "uint32_t* workspaceSize", f"uint{width}_t* blockDim"]
    params += ["void* stream"] if kind == "inductor" else ["uint32_t aiv_num", "uint32_t ub_size"]
    return f'extern "C" int64_t AutofuseTiling({", ".join(params)})'


def tiling_cpp(kind: str = "tf_static", dims: int = 0, width: int = 32, behaviour: str = "ok") -> str:
    """A tiling_func.cpp whose AutofuseTiling computes a block_dim and workspace from its inputs."""
    product = " * ".join(f"(uint64_t)s{i}" for i in range(dims)) or "1"
    aiv = "8" if kind == "inductor" else "aiv_num"
    ub = "196608" if kind == "inductor" else "ub_size"
    unused = "(void)stream;" if kind == "inductor" else ""
    body = BODIES[behaviour].replace("BD", f"({aiv} < 8 ? {aiv} : 8) + ({product} % 3)").replace(
        "WS", f"(uint32_t)({ub} / 4 + {product} % 1000)")
    return f"""#include <cstddef>
#include <cstdint>
#include <unistd.h>
#include "autofuse_tiling_data.h"
#include "stub_sdk.h"

extern "C" size_t GetTilingDataSize() {{ return sizeof(AutofuseTilingData); }}

{_signature(kind, dims, width)} {{
  {unused}
  if (StubSdkMarker_c_sec() + StubSdkMarker_register() != 2) return -1;
{body}
}}
"""


def expected(kind: str, dims: list[int], aiv_num: int = 48, ub_size: int = 196608) -> dict[str, int]:
    """The block_dim and workspace_size the 'ok' stub returns for these inputs."""
    product = 1
    for dim in dims:
        product *= dim
    if kind == "inductor":
        aiv_num, ub_size = 8, 196608
    return {"block_dim": min(aiv_num, 8) + product % 3, "workspace_size": ub_size // 4 + product % 1000}


def write_tf_source(folder: Path, kind: str = "tf_static", dims: int = 0, width: int = 32,
                    behaviour: str = "ok", kernel: str = "Add") -> Path:
    """A tf scene folder: <kernel>_tiling_func.cpp + autofuse_tiling_data.h (+ a file that must be ignored)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{kernel}_tiling_func.cpp").write_text(tiling_cpp(kind, dims, width, behaviour))
    (folder / "autofuse_tiling_data.h").write_text(TILING_DATA)
    (folder / "notes.txt").write_text("not copied")
    return folder


def write_inductor_source(folder: Path, dims: int = 1, behaviour: str = "ok", name: str = "autofused_add") -> Path:
    """An inductor scene folder: output_code.py holding `<name>_artifacts = {tiling_def, host_impl}`."""
    folder.mkdir(parents=True, exist_ok=True)
    artifacts = {"tiling_def": TILING_DATA, "host_impl": tiling_cpp("inductor", dims, 32, behaviour)}
    (folder / "output_code.py").write_text(
        "import os  # never executed by verify-tiling\n"
        f"raise SystemExit('must not run')\n{name}_artifacts = {artifacts!r}\n")
    return folder


def sdk_env(sdk: Path) -> dict[str, str]:
    """Environment entries that point the build at the stub SDK."""
    return {"ASCEND_HOME_PATH": str(sdk)}
