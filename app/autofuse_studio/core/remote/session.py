"""A verify-tiling run on a remote host: upload (tar over ssh), run with live output, download, clean up."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import tarfile
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path

from autofuse_studio.core.remote.profiles import HostProfile
from autofuse_studio.core.remote.ssh import (
    RemoteError,
    cleanup_command,
    download_command,
    run_command,
    ssh_argv,
    ssh_failure,
    upload_command,
)
from autofuse_studio.core.reports.atomic import atomic_write_bytes, atomic_write_text, make_folder
from autofuse_studio.core.tiling.job import PreparedJob, write_project
from autofuse_studio.core.tiling.local import Echo, RunOutcome, read_result

SSH_STEP_TIMEOUT = 120.0  # upload, download and cleanup of a few small files


@dataclass(frozen=True)
class RemoteOptions:
    """Per-run choices: keep the remote folder, ssh connect timeout."""

    keep_remote: bool = False
    connect_timeout: int = 10


def _ssh(profile: HostProfile, command: str, options: RemoteOptions, data: bytes = b"") -> bytes:
    """Run one short ssh command; RemoteError with a clear sentence when it fails."""
    argv = ssh_argv(profile, command, options.connect_timeout)
    try:
        done = subprocess.run(argv, input=data, capture_output=True, timeout=SSH_STEP_TIMEOUT + options.connect_timeout,
                              check=False)
    except subprocess.TimeoutExpired:
        raise ssh_failure(profile, 255, "timed out", options.connect_timeout) from None
    if done.returncode != 0:
        raise ssh_failure(profile, done.returncode, done.stderr.decode("utf-8", "replace"), options.connect_timeout)
    return done.stdout


def _tar_folder(folder: Path) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for path in sorted(folder.rglob("*")):
            archive.add(path, arcname=str(path.relative_to(folder)), recursive=False)
    return buffer.getvalue()


def _stream(profile: HostProfile, command: str, options: RemoteOptions, echo: Echo, timeout: float) -> int:
    """Run the remote runner, echoing its output live; ssh is stopped on cancel or timeout."""
    argv = ssh_argv(profile, command, options.connect_timeout)
    # stdin stays an open pipe: closing it (or this process dying) is the remote runner's signal to stop.
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert proc.stdout is not None
        for raw in iter(proc.stdout.readline, b""):
            echo(raw.decode("utf-8", "replace").rstrip("\n"))
        code = proc.wait(timeout)
    except BaseException:
        proc.kill()
        proc.wait()
        raise
    stderr = proc.stderr.read().decode("utf-8", "replace") if proc.stderr else ""
    if proc.stdin:
        proc.stdin.close()
    if proc.stderr:
        proc.stderr.close()
    proc.stdout.close()
    if code == 255:
        raise ssh_failure(profile, code, stderr, options.connect_timeout)
    if stderr.strip():
        echo(stderr.rstrip("\n"))
    return code


def _unpack(data: bytes, kernel: str, output: Path, keep_build: bool) -> None:
    """Copy result.json and build.log (and the kept library) out of the downloaded tar, by name only."""
    wanted = {"out/result.json": output / "result.json", "out/build.log": output / "build.log",
              f"src/build/lib{kernel}.so": output / f"lib{kernel}.so"}
    with tarfile.open(fileobj=io.BytesIO(data), mode="r") as archive:
        for member in archive.getmembers():
            target = wanted.get(member.name)
            handle = archive.extractfile(member) if member.isfile() and target else None
            if handle is not None and target is not None:
                atomic_write_bytes(target, handle.read())
    result_path = output / "result.json"
    result = read_result(result_path)
    if result is not None and keep_build and "so_path" in result:
        # so_path must be valid here: point it at the downloaded copy, not the build host's folder.
        result["so_path"] = str(output / f"lib{kernel}.so")
        atomic_write_text(result_path, json.dumps(result, indent=2, ensure_ascii=False))


def run_remote(job: PreparedJob, profile: HostProfile, options: RemoteOptions, echo: Echo) -> RunOutcome:
    """Upload, run, download and clean up; RemoteError for connection, key and python3 problems."""
    output = Path(job.request.output).resolve()
    make_folder(output)
    (output / "result.json").unlink(missing_ok=True)
    folder = f"{profile.work_dir.rstrip('/')}/att-verify-{uuid.uuid4().hex[:12]}"
    kernel = job.sources.kernel_name
    staging = Path(tempfile.mkdtemp(prefix="att-verify-upload-"))
    uploaded = False
    try:
        write_project(job, staging, "out", profile.ascend_home)
        echo(f"[verify-tiling] host={profile.name} ({profile.describe()}) folder={folder}")
        _ssh(profile, upload_command(folder, profile.python), options, _tar_folder(staging))
        uploaded = True
        echo("[verify-tiling] uploaded sources and runner")
        limit = 2 * job.request.build_timeout + job.request.run_timeout + 60
        code = _stream(profile, run_command(folder, profile.python), options, echo, limit)
        members = ["out/result.json", "out/build.log"]
        if job.request.keep_build:
            members.append(f"src/build/lib{kernel}.so")
        _unpack(_ssh(profile, download_command(folder, members), options), kernel, output, job.request.keep_build)
        echo(f"[verify-tiling] downloaded result.json and build.log to {output}")
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        if uploaded and not options.keep_remote:
            try:
                _ssh(profile, cleanup_command(folder), options)
            except RemoteError as exc:  # the run's own outcome matters more than a failed cleanup
                echo(f"[verify-tiling] warning: could not remove {folder}: {exc}")
        elif uploaded:
            echo(f"[verify-tiling] remote folder kept: {profile.name}:{folder}")
    return RunOutcome(code, read_result(output / "result.json"), output / "result.json", None)
