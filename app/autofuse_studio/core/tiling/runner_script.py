#!/usr/bin/env python3
"""verify-tiling build-host runner: cmake + make under timeouts, AutofuseTiling in a child process, result.json.

Standard library only (Python >= 3.7), so this one file can be copied to any host with python3, cmake and
a C++ compiler:  python3 runner_script.py --job job.json [--watch-stdin]
The job file names a prepared project folder (sources + CMakeLists.txt), the parameters and the timeouts;
see the README's verify-tiling section. process_tree.py must sit next to it. The tiling child reports its
result over a pipe the runner opens (never over stdout, which the tiling code shares); every process a step
starts is stopped when the step ends, even one that called setsid. The tiling code is not sandboxed.
"""

from __future__ import annotations

import ctypes
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
from typing import Any

if __package__:  # imported by autofuse_studio
    from autofuse_studio.core.tiling import process_tree
else:  # run as a script: process_tree.py was shipped next to this file
    import process_tree  # type: ignore[no-redef]

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
KILL_GRACE_S = 2.0
MAX_TILING_BYTES = 1 << 30
MAX_RESULT_BYTES = 1 << 16
UINT32_MAX = 0xFFFFFFFF

_active: list[subprocess.Popen[bytes]] = []  # children to stop on cancel (each leads its own group)
_token = os.urandom(16).hex()  # marks this run's processes (process_tree.tagged)


class StepFailed(Exception):
    """A build or run step failed; the message is the sentence for result.json."""


def say(text: str) -> None:
    """Print a console line now (the GUI shows it live)."""
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM to the child's process group, SIGKILL after a grace period."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            return
        try:
            proc.wait(KILL_GRACE_S)
            return
        except subprocess.TimeoutExpired:
            continue


def _on_stop_signal(number: int, _frame: object) -> None:
    # Cancel (SIGTERM from the app, SIGHUP/EOF from a dropped ssh link): take cmake, make and the
    # tiling process down with us; they run in their own groups so that timeouts can kill whole trees.
    for proc in list(_active):
        _stop(proc)
    process_tree.sweep(_token, set())
    say(f"✗ cancelled (signal {number})")
    os._exit(128 + number)


def _watch_stdin() -> None:
    # The remote side of an ssh session sees EOF on stdin when the client goes away.
    # os.read, not sys.stdin: a daemon thread blocked in a buffered read aborts interpreter shutdown.
    try:
        while os.read(0, 4096):
            pass
    except OSError:
        pass
    os.kill(os.getpid(), signal.SIGTERM)


def run_step(argv: list[str], timeout: float, log: Any, env: dict[str, str] | None = None,
             pass_fds: tuple[int, ...] = ()) -> tuple[int, str]:
    """Run argv in its own session, echo its output live to stdout and the log; (code, output).

    When it ends (or times out) every process it left behind is killed too.
    """
    try:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                start_new_session=True, env=env, pass_fds=pass_fds)
    except OSError as exc:
        raise StepFailed(f"{argv[0]} could not be started: {exc.strerror or exc}") from None
    _active.append(proc)
    chunks: list[str] = []

    def pump() -> None:
        assert proc.stdout is not None
        for raw in iter(proc.stdout.readline, b""):
            line = raw.decode("utf-8", "replace")
            chunks.append(line)
            log.write(line)
            sys.stdout.write(line)
            sys.stdout.flush()

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    try:
        code = proc.wait(timeout)
    except subprocess.TimeoutExpired:
        _stop(proc)  # its group first, while its pid (the group id) is still reserved
        name = os.path.basename(argv[0])
        raise StepFailed(f"{name} did not finish within the {timeout:g} s timeout and was stopped.") from None
    finally:
        _active.remove(proc)
        # Then everything else it started, also after a normal end: setsid'ed or double-forked processes
        # are outside its group, and nothing a step started may outlive it (or hold its output pipe open).
        process_tree.sweep(_token, {other.pid for other in _active})
        reader.join(5)
    return code, "".join(chunks)


def preflight(env: dict[str, str]) -> None:
    """cmake, make, g++ and the CANN toolkit must be present: each missing one is a clear sentence."""
    host = os.uname().nodename
    for tool in ("cmake", "make", "g++", "gcc"):
        if shutil.which(tool, path=env.get("PATH")) is None:
            raise StepFailed("{} was not found on {} (PATH={}); install it or fix PATH.".format(
                tool, host, env.get("PATH", "")))
    ascend = env.get("ASCEND_HOME_PATH", "")
    if not ascend:
        raise StepFailed(f"ASCEND_HOME_PATH is not set on {host}: source the CANN set_env.sh or set it in the host "
                         "profile.")
    if not os.path.isdir(os.path.join(ascend, "include")):
        raise StepFailed(f"The CANN toolkit was not found on {host}: ASCEND_HOME_PATH={ascend} has no include/ folder.")


def build(job: dict[str, Any], log: Any, env: dict[str, str]) -> str:
    """cmake + make; returns the path of lib<kernel>.so."""
    project = os.path.abspath(job["build_dir"])
    build_dir = os.path.join(project, "build")
    code, output = run_step(["cmake", "-S", project, "-B", build_dir, "-DCMAKE_C_COMPILER=gcc",
                             "-DCMAKE_CXX_COMPILER=g++",
                             "--no-warn-unused-cli"], float(job["build_timeout"]), log, env)
    if code != 0:
        raise StepFailed(f"cmake 失败 (exit code {code}):\n{output[-4000:]}")
    say("✓ cmake OK")
    code, output = run_step(["make", "--no-print-directory", "-C", build_dir, "-j{}".format(int(job.get("jobs", 2)))],
                            float(job["build_timeout"]), log, env)
    if code != 0:
        raise StepFailed(f"make 失败 (exit code {code}):\n{output[-4000:]}")
    so_path = os.path.join(build_dir, "lib{}.so".format(job["kernel_name"]))
    if not os.path.isfile(so_path):
        raise StepFailed(f"编译成功但未找到 {so_path}")
    say(f"✓ make OK  → {so_path}")
    return so_path


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _read_available(fd: int) -> bytes:
    """What is in the pipe now (the child wrote before exiting; a straggler may still hold the write end)."""
    os.set_blocking(fd, False)
    data = b""
    while len(data) <= MAX_RESULT_BYTES:
        try:
            chunk = os.read(fd, 4096)
        except BlockingIOError:
            break
        if not chunk:
            break
        data += chunk
    return data


def _run_child(job: dict[str, Any], so_path: str, log: Any, env: dict[str, str]) -> tuple[int, bytes]:
    """Start the tiling child with the write end of a fresh pipe; (exit code, what it wrote to the pipe)."""
    payload = json.dumps({"so": so_path, "scene": job["scene"], "params": job["params"],
                          "workspace_width": job.get("workspace_width", 32)})
    read_fd, write_fd = os.pipe()
    try:
        argv = [sys.executable, os.path.abspath(__file__), "--child", payload, "--result-fd", str(write_fd)]
        try:
            code, _ = run_step(argv, float(job["run_timeout"]), log, env, pass_fds=(write_fd,))
        finally:
            os.close(write_fd)
        return code, _read_available(read_fd)
    finally:
        os.close(read_fd)


def _parse_result(code: int, data: bytes) -> dict[str, Any]:
    try:
        result = json.loads(data.decode("utf-8")) if data else None
    except ValueError:
        result = None
    if not isinstance(result, dict) or not isinstance(result.get("ok"), bool):
        raise StepFailed(f"The tiling process exited with code {code} without a result.")
    if result["ok"] and code != 0:
        raise StepFailed(f"The tiling process reported a result but then exited with code {code}.")
    return result


def execute(job: dict[str, Any], so_path: str, log: Any, env: dict[str, str]) -> dict[str, int]:
    """Call AutofuseTiling in a child process so a crash or hang cannot take this runner down."""
    code, data = _run_child(job, so_path, log, env)
    if code < 0:
        raise StepFailed(f"AutofuseTiling crashed the tiling process with {_signal_name(-code)} — check that the "
                         "input JSON's abi (shape_dims, block_dim_width) matches the library.")
    result = _parse_result(code, data)
    if not result["ok"]:
        raise StepFailed(str(result.get("error")))
    try:
        return {"block_dim": int(result["block_dim"]), "workspace_size": int(result["workspace_size"])}
    except (KeyError, TypeError, ValueError):
        raise StepFailed("The tiling process returned an incomplete result.") from None


def _child_call(request: dict[str, Any]) -> dict[str, Any]:
    params, scene = request["params"], request["scene"]
    abi = params["abi"]
    lib = ctypes.CDLL(request["so"])
    try:
        tiling_func, size_func = lib.AutofuseTiling, lib.GetTilingDataSize
    except AttributeError as exc:
        return {"ok": False, "error": "The library does not export {} with C linkage (extern \"C\").".format(
            str(exc).split(":")[-1].strip())}
    size_func.restype, size_func.argtypes = ctypes.c_size_t, []
    size = size_func()
    if not 0 < size <= MAX_TILING_BYTES:
        return {"ok": False, "error": f"GetTilingDataSize() returned {size}; expected (0, 2^30]."}
    tiling = ctypes.create_string_buffer(size + 64)
    # 8-byte zeroed buffers for both outputs: a 64-bit write never overruns, a 32-bit one reads back right.
    workspace, block_dim = ctypes.c_uint64(0), ctypes.c_uint64(0)
    dims = [ctypes.c_uint32(d) for d in params["dynamic_dims"]]
    args: list[Any] = [*dims, ctypes.cast(tiling, ctypes.c_void_p), ctypes.byref(workspace), ctypes.byref(block_dim)]
    if scene == "inductor":
        args.append(ctypes.c_void_p(None))
    else:
        args += [ctypes.c_uint32(params["aiv_num"]), ctypes.c_uint32(params["ub_size"])]
    tiling_func.restype = ctypes.c_int64
    code = tiling_func(*args)
    if code != 0:
        return {"ok": False, "error": f"AutofuseTiling returned {code} (non-zero: the tiling failed)."}
    bd = block_dim.value if abi.get("block_dim_width") == 64 else block_dim.value & UINT32_MAX
    ws = workspace.value if request.get("workspace_width") == 64 else workspace.value & UINT32_MAX
    if bd > UINT32_MAX or ws > UINT32_MAX:
        return {"ok": False, "error": f"block_dim {bd} or workspace {ws} exceeds 0xFFFFFFFF."}
    return {"ok": True, "block_dim": bd, "workspace_size": ws}


def child_main(payload: str, result_fd: int) -> int:
    """The tiling child: load the library, call AutofuseTiling, write one JSON object to the runner's pipe."""
    os.set_inheritable(result_fd, False)  # programs the tiling code may exec do not get the channel
    try:
        result = _child_call(json.loads(payload))
    except Exception as exc:  # noqa: BLE001 - any failure in the child becomes the runtime error text
        result = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
    data = json.dumps(result).encode("utf-8")
    while data:
        data = data[os.write(result_fd, data):]
    os.close(result_fd)
    return 0 if result.get("ok") else 1


def write_result(job: dict[str, Any], result: dict[str, Any]) -> str:
    """result.json in the output folder (indent 2, no trailing newline), written atomically."""
    out_dir = job["output"]
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, "result.json")
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as handle:
        handle.write(json.dumps(result, indent=2, ensure_ascii=False))
    os.replace(tmp, path)
    return path


def run_job(job: dict[str, Any]) -> int:
    """Build, execute, write result.json; returns 0 / 1."""
    env = dict(os.environ)
    env[process_tree.TOKEN_VARIABLE] = _token
    if job.get("ascend_home"):
        env["ASCEND_HOME_PATH"] = job["ascend_home"]
    ascend = env.get("ASCEND_HOME_PATH", "")
    lib_dirs = [os.path.join(ascend, arch, "lib64") for arch in ("", "aarch64-linux", "x86_64-linux")]
    env["LD_LIBRARY_PATH"] = os.pathsep.join([*lib_dirs, env.get("LD_LIBRARY_PATH", "")]).rstrip(os.pathsep)
    result: dict[str, Any] = dict(job["result_base"])
    os.makedirs(job["output"], exist_ok=True)
    with open(os.path.join(job["output"], "build.log"), "w", encoding="utf-8") as log:
        say("=== Compile Check ===")
        try:
            preflight(env)
            so_path = build(job, log, env)
        except StepFailed as exc:
            say(f"✗ 编译失败:\n{exc}")
            result.update(status="COMPILE_FAILED", error=str(exc))
            write_result(job, result)
            return EXIT_FAILED
        if job.get("keep_build"):
            result["so_path"] = so_path
        say("=== Tiling Execution ===")
        try:
            fields = execute(job, so_path, log, env)
        except StepFailed as exc:
            say(f"✗ Runtime Error: {exc}")
            result.update(status="RUNTIME_FAILED", error=str(exc))
            write_result(job, result)
            return EXIT_FAILED
    for key, value in fields.items():
        say(f"  {key:<20} = {value}")
    result.update(status="SUCCEEDED", fields=fields)
    say(f"result: {write_result(job, result)}")
    return EXIT_OK


def main(argv: list[str]) -> int:
    """Entry point: --job FILE [--watch-stdin], or --child PAYLOAD (internal)."""
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(encoding="utf-8", errors="replace")
    if len(argv) == 4 and argv[0] == "--child" and argv[2] == "--result-fd" and argv[3].isdigit():
        return child_main(argv[1], int(argv[3]))
    if len(argv) < 2 or argv[0] != "--job":
        sys.stderr.write("usage: runner_script.py --job JOB.json [--watch-stdin]\n")
        return EXIT_USAGE
    process_tree.become_subreaper()  # orphans of the steps are re-parented here, where the sweep finds them
    for number in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(number, _on_stop_signal)
    if "--watch-stdin" in argv:
        threading.Thread(target=_watch_stdin, daemon=True).start()
    try:
        with open(argv[1], encoding="utf-8") as handle:
            job = json.load(handle)
        base = os.path.dirname(os.path.abspath(argv[1]))
        for key in ("build_dir", "output"):  # relative paths are relative to the job file
            job[key] = os.path.join(base, job[key])
    except (OSError, ValueError, KeyError) as exc:
        sys.stderr.write(f"cannot read the job file {argv[1]}: {exc}\n")
        return EXIT_USAGE
    return run_job(job)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
