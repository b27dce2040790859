"""msaccucmp as a peer for the benchmarks: prepared at run time from a local git snapshot of Ascend/msprobe.

The peer is the pre-2025-09 pure-Python msaccucmp (commit 72c5bd4c, `src/compare/msaccucmp.py`), which reads raw
CANN dumps with protobuf alone (`import dump_data_pb2`), without CANN; newer versions need libascend_dump_parser.so.
None of its code lives in this repository: `prepare_msaccucmp` extracts `src/compare` and `resource/dump_data.proto`
with `git archive` into a cache folder and generates `dump_data_pb2.py` there with protoc from grpcio-tools (the
build's `build/build_python_code.py` writes it into `src/compare` too). grpcio-tools is never a project dependency: it
is imported from this interpreter if present, else from a `pip install --target` folder in the cache (installed on
first use unless AF_MSACCUCMP_NO_PIP is set). Anything missing raises `PeerUnavailable` with the reason.

Graph JSON: msaccucmp's fusion rule parser (`vector_cmp/fusion_manager/fusion_rule_parser.py`) reads
`graph[].op[]` with name, type, id, input, attr `_datadump_original_op_names` and output_desc attrs
`_datadump_origin_name` / `_datadump_origin_output_index` / `origin_format` / `origin_shape`: exactly the keys and value
shapes our synthetic GE JSON (`ge_proto_*_Build.json`) writes, so the graphs are handed over unchanged (no converter).

Environment: AF_MSPROBE_GIT_DIR (the bare git dir of the snapshot), AF_MSACCUCMP_CACHE (the cache folder).
"""

from __future__ import annotations

import csv
import math
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from typing import Any

COMMIT = "72c5bd4c"
SNAPSHOT = Path(os.environ.get("AF_MSPROBE_GIT_DIR", "/work/.mirror/Ascend+msprobe/repo"))
CACHE = Path(os.environ.get("AF_MSACCUCMP_CACHE", Path(tempfile.gettempdir()) / "autofuse-bench-msaccucmp"))
# msaccucmp returns 2 (MSACCUCMP_NO_DUMP_FILE_ERROR) whenever an op of the graph has no dump, e.g. every Data and
# Const op; the CSV is complete all the same.
OK_RETURN_CODES = (0, 2)
# The full-precision variant: the same program, with the one function that formats every metric as '{:.6f}'
# (cmp_utils.utils.format_value, called as utils.format_value by every algorithm) printing the full float.
_FULL_PRECISION = (
    "import runpy, sys\n"
    "from cmp_utils import utils\n"
    "utils.format_value = lambda value: repr(float(value))\n"
    "sys.argv[0] = 'msaccucmp.py'\n"
    "runpy.run_path('msaccucmp.py', run_name='__main__')\n"
)

Key = tuple[str, str, int]  # (fusion-on op name, "input" | "output", tensor index)


class PeerUnavailable(RuntimeError):
    """msaccucmp cannot be prepared here; the message says why."""


@dataclass(frozen=True)
class Msaccucmp:
    """A prepared msaccucmp: the folder that holds msaccucmp.py and the generated dump_data_pb2.py."""

    folder: Path
    python: str = sys.executable

    @property
    def script(self) -> Path:
        """The msaccucmp.py entry point."""
        return self.folder / "msaccucmp.py"


def _git(*args: str, binary: bool = False) -> subprocess.CompletedProcess[Any]:
    return subprocess.run(["git", "--git-dir", str(SNAPSHOT), *args], capture_output=True, check=False,
                          text=not binary, timeout=120)


def _extract(staging: Path) -> None:
    if shutil.which("git") is None:
        raise PeerUnavailable("git is not installed")
    if not SNAPSHOT.is_dir():
        raise PeerUnavailable(f"no Ascend/msprobe git snapshot at {SNAPSHOT} (set AF_MSPROBE_GIT_DIR)")
    if _git("cat-file", "-e", f"{COMMIT}^{{commit}}").returncode != 0:
        raise PeerUnavailable(f"the snapshot at {SNAPSHOT} has no commit {COMMIT}")
    archive = _git("archive", COMMIT, "src/compare", "resource/dump_data.proto", binary=True)
    if archive.returncode != 0:
        raise PeerUnavailable(f"git archive {COMMIT} failed: {archive.stderr.decode(errors='replace')[-500:]}")
    with tarfile.open(fileobj=BytesIO(archive.stdout)) as tar:
        tar.extractall(staging, filter="data")
    for path in [staging, *staging.rglob("*")]:
        # msaccucmp warns about (and for some files refuses) group- or world-writable files.
        path.chmod(path.stat().st_mode & ~0o022)


def _protoc_commands(cache: Path) -> list[tuple[list[str], dict[str, str]]]:
    """Ways to run protoc, best first: grpc_tools in this interpreter, then a pip --target folder in the cache."""
    target = cache / "grpcio-tools"
    with_target = {**os.environ, "PYTHONPATH": str(target)}
    command = [sys.executable, "-m", "grpc_tools.protoc"]
    found = subprocess.run([sys.executable, "-c", "import grpc_tools.protoc"], capture_output=True, check=False)
    if found.returncode == 0:
        return [(command, dict(os.environ))]
    if not (target / "grpc_tools").is_dir() and not os.environ.get("AF_MSACCUCMP_NO_PIP"):
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                        "--target", str(target), "grpcio-tools"], capture_output=True, check=False, timeout=600)
    if (target / "grpc_tools").is_dir():
        return [(command, with_target)]
    return []


def _generate_pb2(staging: Path, cache: Path) -> None:
    proto_dir, out_dir = staging / "resource", staging / "src" / "compare"
    errors = []
    for command, env in _protoc_commands(cache):
        done = subprocess.run([*command, f"-I{proto_dir}", f"--python_out={out_dir}", str(proto_dir / "dump_data.proto")],
                              capture_output=True, text=True, check=False, env=env, timeout=120)
        if done.returncode == 0 and (out_dir / "dump_data_pb2.py").is_file():
            return
        errors.append(done.stderr[-300:])
    raise PeerUnavailable("grpcio-tools is not available (not importable here, pip install --target failed or was "
                          f"disabled by AF_MSACCUCMP_NO_PIP){': ' + ' | '.join(errors) if errors else ''}")


def _smoke(folder: Path) -> None:
    """msaccucmp imports everything it needs (numpy, protobuf, psutil, pandas, the pb2) for `compare -h`."""
    done = subprocess.run([sys.executable, "msaccucmp.py", "compare", "-h"], cwd=folder, capture_output=True,
                          text=True, check=False, timeout=120)
    if done.returncode != 0:
        raise PeerUnavailable(f"msaccucmp does not start with {sys.executable}: {(done.stdout + done.stderr)[-800:]}")


def prepare_msaccucmp(cache: Path = CACHE) -> Msaccucmp:
    """msaccucmp of commit COMMIT with its dump_data_pb2, built once into `cache`; PeerUnavailable if it cannot be."""
    folder = cache / f"msaccucmp-{COMMIT}" / "src" / "compare"
    if (folder / "msaccucmp.py").is_file() and (folder / "dump_data_pb2.py").is_file():
        _smoke(folder)
        return Msaccucmp(folder)
    cache.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix="msaccucmp-", dir=cache))
    try:
        _extract(staging)
        _generate_pb2(staging, cache)
        _smoke(staging / "src" / "compare")
        shutil.rmtree(cache / f"msaccucmp-{COMMIT}", ignore_errors=True)
        staging.rename(cache / f"msaccucmp-{COMMIT}")
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return Msaccucmp(folder)


def run_msaccucmp(peer: Msaccucmp, fusion_on_dir: Path, fusion_off_dir: Path, fusion_on_json: Path,
                  fusion_off_json: Path, out_dir: Path, full_precision: bool = False) -> tuple[float, Path]:
    """Wall seconds of one `msaccucmp.py compare -m -g -f -cf -out` process, and the result CSV it wrote.

    The dump dirs must be the folders that hold the raw files (msaccucmp does not recurse). With full_precision the
    metrics are printed as full floats instead of 6 decimals (for the value check; not for timing).
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    for old in out_dir.glob("result_*.csv"):
        old.unlink()
    args = ["compare", "-m", str(fusion_on_dir), "-g", str(fusion_off_dir), "-f", str(fusion_on_json),
            "-cf", str(fusion_off_json), "-out", str(out_dir)]
    command = [peer.python, "-c", _FULL_PRECISION, *args] if full_precision else [peer.python, str(peer.script), *args]
    log = out_dir / "msaccucmp.log"
    with log.open("wb") as sink:
        start = time.perf_counter()
        done = subprocess.run(command, cwd=peer.folder, stdout=sink, stderr=subprocess.STDOUT, check=False)
        seconds = time.perf_counter() - start
    results = sorted(out_dir.glob("result_*.csv"))
    if done.returncode not in OK_RETURN_CODES or len(results) != 1:
        tail = log.read_text(encoding="utf-8", errors="replace")[-2000:]
        raise RuntimeError(f"msaccucmp exited with {done.returncode} and wrote {len(results)} result CSVs:\n{tail}")
    return seconds, results[0]


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        return math.nan


def parse_result_csv(path: Path) -> dict[Key, tuple[float, float]]:
    """{(fusion-on op, kind, index): (cosine, max abs error)} of every tensor row with at least one metric.

    Rows with no metric (Data/Const ops without dumps, inputs fed by ops without a ground truth) are left out;
    a metric msaccucmp could not compute is NaN.
    """
    with path.open(newline="", encoding="utf-8") as stream:
        reader = csv.reader(stream)
        header = next(reader)
        tensor, cosine, max_abs = (header.index(name) for name in
                                   ("TensorIndex", "CosineSimilarity", "MaxAbsoluteError"))
        rows: dict[Key, tuple[float, float]] = {}
        for row in reader:
            op, _, rest = row[tensor].rpartition(":")
            op, _, kind = op.rpartition(":")
            if kind not in ("input", "output") or not rest.isdigit():
                continue
            values = (_number(row[cosine]), _number(row[max_abs]))
            if not all(math.isnan(value) for value in values):
                rows[(op, kind, int(rest))] = values
    return rows
