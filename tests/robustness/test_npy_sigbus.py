"""A memory-mapped dump that shrinks or is rewritten while it is compared: a row status naming it, never SIGBUS.

Each run happens in a fresh process: without the guard the read past the new end of the file kills the
process with SIGBUS ("Bus error", exit 135), which must never take pytest down with it.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from autofuse_studio.core.dumps import mapped
from autofuse_studio.core.precision.pair import READ_BELOW_BYTES
from tests.robustness.conftest import assert_no_traceback
from tests.synth.raw_writer import RawDumpSpec, RawTensorSpec, write_raw_dump

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SIGBUS on a shrunk mapping is a POSIX matter"),
    pytest.mark.skipif(not mapped.guarded(), reason="the _mapguard extension was not built (no C compiler)"),
]

ELEMENTS = 12 << 20  # 48 MB of float32 per file: well above READ_BELOW_BYTES, so both files are mapped
BLOCKS_BEFORE = 3  # blocks compared before the file shrinks

# In the child: after the first blocks, a thread truncates the victim and the comparison goes on reading.
TRUNCATE_MIDWAY = """
import os, sys, threading
from autofuse_studio.core.precision import metrics
victim, size, blocks = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
started, done = threading.Event(), threading.Event()

def truncate():
    started.wait()
    os.truncate(victim, size)
    done.set()

threading.Thread(target=truncate, daemon=True).start()
compare_block, calls, lock = metrics.block_partial, [0], threading.Lock()

def block_partial(a, b):
    with lock:
        calls[0] += 1
        if calls[0] == blocks:
            started.set()
            done.wait(30)
    return compare_block(a, b)

metrics.block_partial = block_partial
from autofuse_studio import cli
code = cli.main(sys.argv[4:])
print(f"blocks compared: {calls[0]}")
sys.exit(code)
"""


def _run(script: str, *args: str | Path) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(script), *map(str, args)], capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode != -signal.SIGBUS, f"the process died of SIGBUS:\n{done.stdout}\n{done.stderr}"
    assert_no_traceback(done.stdout + done.stderr)
    return done


def _npys(folder: Path) -> tuple[Path, Path]:
    values = (np.arange(ELEMENTS, dtype=np.float32) % 1000) / 7
    np.save(folder / "a.npy", values)
    np.save(folder / "b.npy", values * np.float32(1.001))
    assert (folder / "b.npy").stat().st_size > READ_BELOW_BYTES
    return folder / "a.npy", folder / "b.npy"


@pytest.mark.parametrize("new_size", [0, 4096, 1 << 20])
def test_an_npy_truncated_while_it_is_compared_is_a_status_naming_it(tmp_path: Path, new_size: int) -> None:
    a, b = _npys(tmp_path)
    out = tmp_path / "rows.json"
    done = _run(TRUNCATE_MIDWAY, b, new_size, BLOCKS_BEFORE,
                "nwa", "--mode", "2", "--npy-a", a, "--npy-b", b, "--output", out)
    assert done.returncode == 1, done.stdout + done.stderr  # mode 2: the files could not be compared
    assert "状态: NPY_LOAD_ERROR" in done.stdout
    assert f"{b} changed while it was read" in done.stdout
    assert "its values are not used" in done.stdout
    blocks = int(done.stdout.rsplit("blocks compared: ", 1)[1])
    assert blocks > BLOCKS_BEFORE  # the comparison read on after the file shrank
    row = json.loads(out.read_text(encoding="utf-8"))["rows"][0]
    assert row["status"] == "NPY_LOAD_ERROR"
    assert row["cosine"] is None
    assert str(b) in row["message"]


def test_a_raw_dump_truncated_while_it_is_compared_is_a_status_naming_it(tmp_path: Path) -> None:
    values = (np.arange(ELEMENTS, dtype=np.float32) % 1000) / 7
    fused, origin = tmp_path / "Add.fused.1.2.1700000000000001", tmp_path / "Add.origin.1.2.1700000000000002"
    write_raw_dump(fused, RawDumpSpec("fused", outputs=[RawTensorSpec.of(values)]))
    write_raw_dump(origin, RawDumpSpec("origin", outputs=[RawTensorSpec.of(values * np.float32(1.001))]))
    done = _run(TRUNCATE_MIDWAY, fused, 8192, BLOCKS_BEFORE,
                "nwa", "--mode", "2", "--npy-a", fused, "--npy-b", origin, "--tensor", "output:0")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "NPY_LOAD_ERROR" in done.stdout
    assert f"{fused} changed while it was read" in done.stdout


def test_a_file_rewritten_in_place_while_it_is_compared_is_noticed(tmp_path: Path) -> None:
    """Same size, new bytes (no fault at all): the modification time tells, and the numbers are not used."""
    a, b = _npys(tmp_path)
    script = TRUNCATE_MIDWAY.replace("os.truncate(victim, size)",
                                     "fd = os.open(victim, os.O_WRONLY); os.pwrite(fd, b'\\0' * size, 1 << 20); "
                                     "os.close(fd); os.utime(victim, ns=(1, 1))")
    done = _run(script, b, 4096, BLOCKS_BEFORE, "nwa", "--mode", "2", "--npy-a", a, "--npy-b", b)
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"{b} was written to while it was read" in done.stdout


def test_an_untouched_big_pair_still_compares(tmp_path: Path) -> None:
    a, b = _npys(tmp_path)
    done = _run(TRUNCATE_MIDWAY.replace("os.truncate(victim, size)", "pass"), b, 0, BLOCKS_BEFORE,
                "nwa", "--mode", "2", "--npy-a", a, "--npy-b", b)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "状态: OK" in done.stdout


def test_sigbus_outside_our_mappings_still_ends_the_process(tmp_path: Path) -> None:
    """The handler only answers for its own mappings: any other bus error is what it was before."""
    victim = tmp_path / "other.bin"
    victim.write_bytes(b"\1" * (1 << 20))
    script = """
    import mmap, os, sys
    from autofuse_studio.core.dumps.mapped import map_file
    fd = os.open(sys.argv[1], os.O_RDONLY)
    ours = map_file(fd, sys.argv[1])  # installs the handler
    other = mmap.mmap(fd, 0, access=mmap.ACCESS_READ)
    os.truncate(sys.argv[1], 0)
    print("ours reads", bytes(memoryview(ours)[-1:]), ours.faulted, flush=True)
    print(other[-1], flush=True)
    """
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(script), str(victim)], capture_output=True,
                          text=True, timeout=60, check=False)
    assert "ours reads b'\\x00' True" in done.stdout
    assert done.returncode == -signal.SIGBUS


def test_the_tensor_panel_says_a_file_changed_instead_of_showing_zeros(tmp_path: Path) -> None:
    a, b = _npys(tmp_path)
    script = """
    import os, sys
    from autofuse_studio.core.errors import InputError
    from autofuse_studio.core.precision.heatmap_grid import default_axes
    from autofuse_studio.core.precision.tensor_view import compute_heatmap, compute_tensor_view, open_pair
    pair = open_pair(sys.argv[1], sys.argv[2])  # every file mapped, as the tensor panel opens them
    os.truncate(sys.argv[2], 4096)
    for compute in (compute_tensor_view, lambda pair: compute_heatmap(pair, default_axes(pair.shape))):
        try:
            compute(pair)
        except InputError as error:
            print(error)
    """
    done = _run(script, a, b)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 2
    assert all(f"{b} changed while it was read" in line for line in lines)


def test_dump_convert_skips_a_tensor_whose_file_shrank_while_it_was_written(tmp_path: Path) -> None:
    source, out = tmp_path / "dump", tmp_path / "npys"
    source.mkdir()
    values = np.arange(1 << 20, dtype=np.float32)  # four blocks
    raw = source / "Add.op.1.2.1700000000000001"
    write_raw_dump(raw, RawDumpSpec("op", inputs=[RawTensorSpec.of(values)], outputs=[RawTensorSpec.of(values)]))
    script = """
    import os, sys
    from autofuse_studio.core.dumps import convert
    blocks = convert.iter_blocks

    def iter_blocks(tensor):
        for number, block in enumerate(blocks(tensor)):
            yield block
            if number == 0 and os.path.getsize(sys.argv[1]) > 1 << 16:
                os.truncate(sys.argv[1], 1 << 16)  # the first tensor's first block is out: the rest is gone

    convert.iter_blocks = iter_blocks
    from autofuse_studio import cli
    sys.exit(cli.main(sys.argv[2:]))
    """
    done = _run(script, raw, "dump", "convert", source, "-o", out)
    assert "changed while it was read" in done.stderr, done.stderr
    assert "could not be read and were skipped" in done.stderr
    assert done.returncode == 1  # nothing could be converted: both tensors lay past the new end
    assert not list(out.rglob("*.npy"))  # no NPY of zeros written
