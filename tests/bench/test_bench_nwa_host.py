"""`nwa --host` benchmark: the 8-rank case of test_bench_multi_rank through a local sshd vs the same CLI run locally.

Both are whole `autofuse-studio nwa` processes (best of two); the host run adds one ssh handshake, the host's
interpreter start and the record stream. Printed: both times, their ratio and difference, and the bytes per row (JSON, and
after ssh's zlib). The console output must be the same.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from autofuse_studio.core.remote.profiles import save_profiles
from tests.stub_sdk.remote_nwa import case_args, remote_command
from tests.stub_sdk.sshd import LocalSshd, start_sshd
from tests.synth import generate_case
from tests.synth.spec import multi_rank_spec

pytestmark = pytest.mark.bench

RANKS, FUSED, ELEMENTS = 8, 300, 65_536
# One machine: the host path can only add cost, and most of it is fixed (one ssh handshake, the host's
# interpreter start: about 0.45 s to the first record here), so the limit is on the added seconds.
MAX_OVERHEAD_S = 2.0


@pytest.fixture
def sshd(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalSshd]:
    yield from start_sshd(tmp_path_factory.mktemp("sshd"))


def _best(argv: list[str]) -> tuple[float, str]:
    best, out = float("inf"), ""
    for _ in range(2):
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "autofuse_studio", "nwa", *argv], capture_output=True, text=True,
                              check=False, env=os.environ.copy())
        best = min(best, time.perf_counter() - start)
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr
        out = done.stdout
    return best, out


def test_eight_ranks_on_a_host(sshd: LocalSshd, tmp_path: Path) -> None:
    save_profiles([sshd.profile()])
    spec = multi_rank_spec(ranks=RANKS, culprit_rank=5, n_fused=FUSED, elements=ELEMENTS, steps=1,
                           chains=FUSED // 6, culprit=FUSED - 3 * (FUSED // 6))
    root = tmp_path / "case"
    manifest = generate_case(root, spec)
    args = case_args(root, manifest, "--compare-input", "-j", "2")
    local_time, local_out = _best(args)
    host_time, host_out = _best(["--host", "testhost", "--remote-command", remote_command(tmp_path), *args])
    stream = subprocess.run([sys.executable, "-m", "autofuse_studio", "nwa", "--emit-jsonl", *args],
                            capture_output=True, check=True).stdout
    rows = sum(line.count(b'"id":') for line in stream.splitlines() if line.startswith(b'{"type":"rows"'))
    ratio = host_time / local_time
    print(f"\nnwa --host: {RANKS} ranks, {rows} rows; local {local_time:.2f} s, --host {host_time:.2f} s, ratio "
          f"{ratio:.2f}, overhead {host_time - local_time:.2f} s (target <= {MAX_OVERHEAD_S}); stream {len(stream) / rows:.0f} B/row as JSON, "
          f"{len(zlib.compress(stream, 6)) / rows:.0f} B/row compressed")
    assert host_out == local_out
    assert host_time - local_time <= MAX_OVERHEAD_S, f"nwa --host adds {host_time - local_time:.2f} s"
