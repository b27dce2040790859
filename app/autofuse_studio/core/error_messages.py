"""The errors' half of the message catalogue (core/messages.py holds the notices'): code -> (English, Chinese).

An AppError made with `.of(code, **params)` takes its English sentence (its str(), what the CLI prints and the
tests read) from here; `render_error(exc, language)` renders it in a front end's language, and gives str(exc)
for an error without a code, a code the catalogue lacks or params that do not fill the template. The
'ERROR: …' lines of the reference tool (docs/compatibility.md) are Chinese in both columns: the CLI prints
them as they are.

This module imports nothing of autofuse_studio (core/errors.py imports it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

ERRORS: dict[str, tuple[str, str]] = {
    # --- inputs: missing, unreadable, not a file / not a folder -------------------------------------------
    "input_not_set": ("The {label} is not set.", "{label}未设置。"),
    "input_folder_missing": ("The {label} {path} does not exist or is not a folder.",
                             "{label} {path} 不存在或不是文件夹。"),
    "input_file_missing": ("The {label} {path} does not exist or is not a file.",
                           "{label} {path} 不存在或不是文件。"),
    "graph_missing": ("The dump graph {path} does not exist or is not a file.",
                      "dump 图 {path} 不存在或不是文件。"),
    "npy_missing": ("The NPY file {path} does not exist.", "NPY 文件 {path} 不存在。"),
    "side_dump_folder_missing": ("The {what} dump folder {path} does not exist or is not a folder.",
                                 "{what} 的 dump 文件夹 {path} 不存在或不是文件夹。"),
    "dump_folder_missing": ("Dump folder {path} does not exist.", "dump 文件夹 {path} 不存在。"),
    "dump_folder_not_folder": ("Dump folder {path} is not a folder.", "dump 文件夹 {path} 不是文件夹。"),
    # --- NPY files --------------------------------------------------------------------------------------
    "npy_unreadable": ("Cannot read {path}: {reason}.", "无法读取 {path}：{reason}。"),
    "npy_not_regular": ("Cannot read {path}: it is {kind}, not an NPY file.",
                        "无法读取 {path}：它是{kind}，不是 NPY 文件。"),
    "npy_not_a_file": ("{path} is {kind}, not an NPY file.", "{path} 是{kind}，不是 NPY 文件。"),
    "npy_empty": ("{path} is empty (0 bytes), not an NPY file.", "{path} 是空文件（0 字节），不是 NPY 文件。"),
    "npy_mmap": ("Cannot memory-map {path}: {reason}", "无法内存映射 {path}：{reason}"),
    "npy_truncated": (
        "{path} is truncated: its header promises {expected} bytes of {dtype} data for shape {shape} but only "
        "{present} bytes follow.",
        "{path} 被截断：其头部声明形状 {shape} 的 {dtype} 数据共 {expected} 字节，但其后只有 {present} 字节。"),
    "npy_trailing": (
        "{path} has {extra} bytes after the {expected} bytes of {dtype} data its header promises for shape {shape}.",
        "{path} 在其头部为形状 {shape} 声明的 {expected} 字节 {dtype} 数据之后还有 {extra} 字节。"),
    # --- case and thresholds files ------------------------------------------------------------------------
    "case_not_utf8": ("The case file {path} is not UTF-8 text.", "案例文件 {path} 不是 UTF-8 文本。"),
    "case_not_json": ("The case file {path} is not valid JSON (line {line}).",
                      "案例文件 {path} 不是有效的 JSON（第 {line} 行）。"),
    "case_json_too_deep": ("The case file {path} is not valid JSON (a too long number or too deep nesting).",
                           "案例文件 {path} 不是有效的 JSON（数字过长或嵌套过深）。"),
    "not_a_case_file": ("{path} is not an Autofuse Studio case file (format {format}).",
                        "{path} 不是 Autofuse Studio 案例文件（格式 {format}）。"),
    "thresholds_not_utf8": ("The thresholds file {path} is not UTF-8 text.", "阈值文件 {path} 不是 UTF-8 文本。"),
    "thresholds_not_toml": ("The thresholds file {path} is not valid TOML: {reason}",
                            "阈值文件 {path} 不是有效的 TOML：{reason}"),
    "thresholds_toml_too_deep": ("The thresholds file {path} is not valid TOML (a too long number or too deep "
                                 "nesting).", "阈值文件 {path} 不是有效的 TOML（数字过长或嵌套过深）。"),
    # --- steps and ranks of the dump folders --------------------------------------------------------------
    "step_not_in_both": ("Step {step} is not in both dump folders{where} (af-open has {open_steps}, af-close has "
                         "{close_steps}).",
                         "step {step} 不同时存在于两个 dump 文件夹中{where}（af-open 有 {open_steps}，af-close 有 "
                         "{close_steps}）。"),
    "no_common_step": ("The dump folders have no step in common{where} (af-open: {open_steps}; af-close: "
                       "{close_steps}); choose one with --step.",
                       "两个 dump 文件夹没有共同的 step{where}（af-open：{open_steps}；af-close：{close_steps}）；"
                       "请用 --step 选择一个。"),
    "rank_not_in_dumps": ("Rank {unknown} is not in the dump folders (af-open has {open_ranks}, af-close has "
                          "{close_ranks}).",
                          "rank {unknown} 不在 dump 文件夹中（af-open 有 {open_ranks}，af-close 有 {close_ranks}）。"),
    # --- outputs ------------------------------------------------------------------------------------------
    "output_not_folder": ("The output path {path} exists and is not a folder.", "输出路径 {path} 已存在且不是文件夹。"),
    "report_exists": ("{report} already exists; use --force to overwrite it.",
                      "{report} 已存在；使用 --force 覆盖它。"),
    "output_suffix": ("Cannot write {path}: the output file must end in .json, .csv or .xlsx.",
                      "无法写入 {path}：输出文件必须以 .json、.csv 或 .xlsx 结尾。"),
    "output_folder_unusable": ("Cannot write into '{path}': {problem}.", "无法写入 '{path}'：{problem}。"),
    "output_folder_create": ("Cannot create the folder '{path}': {problem}.", "无法创建文件夹 '{path}'：{problem}。"),
    "output_is_folder": ("Cannot write '{path}': it is a folder.", "无法写入 '{path}'：它是一个文件夹。"),
    "output_unwritable": ("Cannot write '{path}': {problem}.", "无法写入 '{path}'：{problem}。"),
    "output_outside_folder": ("Refusing to write '{relative}': it resolves outside '{path}'.",
                              "拒绝写入 '{relative}'：它解析到 '{path}' 之外。"),
    "nothing_to_export": ("There is no finished analysis to export yet.", "还没有可导出的已完成分析。"),
    # --- nwa / report run options -------------------------------------------------------------------------
    "report_mode1_only": ("report supports mode 1 only (graphs and dump folders).",
                          "report 只支持模式 1（图和 dump 文件夹）。"),
    "run_spec_not_json": ("--run-spec is not JSON.", "--run-spec 不是 JSON。"),
    "remote_mode1_only": ("--{option} runs mode 1 (graphs and dump folders) only; compare two NPY files locally.",
                          "--{option} 只运行模式 1（图和 dump 文件夹）；请在本机比较两个 NPY 文件。"),
    "mode2_here_only": ("Mode 2 compares two NPY files on this machine; --host and --scheduler run mode 1 only.",
                        "模式 2 在本机比较两个 NPY 文件；--host 和 --scheduler 只运行模式 1。"),
    "host_mode1_only": ("A run on a host compares mode 1 (graphs and dump folders) only; compare two NPY files "
                        "locally.", "在主机上的运行只比较模式 1（图和 dump 文件夹）；请在本机比较两个 NPY 文件。"),
    "path_map_needs_scheduler": ("--path-map and --path-map-file need --scheduler (they say where its workers see "
                                 "the dump folders).",
                                 "--path-map 和 --path-map-file 需要 --scheduler（它们说明其 worker 在哪里看到 dump "
                                 "文件夹）。"),
    "tls_needs_scheduler": ("--tls-ca-file, --tls-cert and --tls-key need --scheduler tls://HOST:PORT (they say "
                            "how to reach it).",
                            "--tls-ca-file、--tls-cert 和 --tls-key 需要 --scheduler tls://HOST:PORT（它们说明如何"
                            "连接它）。"),
    "host_or_scheduler": ("--host runs the comparison on one host and --scheduler on a Dask cluster: choose one.",
                          "--host 在一台主机上运行比较，--scheduler 在 Dask 集群上运行：请选择其一。"),
    "emit_jsonl_mode1": ("--emit-jsonl streams mode 1 only.", "--emit-jsonl 只输出模式 1。"),
    "no_host_profile": ("No host profile named {name} (known: {known}).",
                        "没有名为 {name} 的主机配置（已有：{known}）。"),
    # the reference tool's lines: Chinese in both languages (docs/compatibility.md)
    "ref_option_required": ("ERROR: 模式{mode}需要 {option} 参数", "ERROR: 模式{mode}需要 {option} 参数"),
    "ref_npy_missing": ("ERROR: NPY 文件不存在: {path}", "ERROR: NPY 文件不存在: {path}"),
    "ref_graph_missing": ("ERROR: dump 图 JSON 文件不存在: {path}", "ERROR: dump 图 JSON 文件不存在: {path}"),
    "ref_data_missing": ("ERROR: datadump 目录不存在: {path}", "ERROR: datadump 目录不存在: {path}"),
    # --- hosts (ssh) --------------------------------------------------------------------------------------
    "ssh_no_python": ("{python} was not found on host '{host}' ({address}); set the profile's python3 path.",
                      "在主机 '{host}'（{address}）上找不到 {python}；请设置该配置的 python3 路径。"),
    "ssh_refused": ("Cannot reach host '{host}' ({address}): the connection was refused (is sshd running on that "
                    "port?).", "无法连接主机 '{host}'（{address}）：连接被拒绝（该端口上的 sshd 是否在运行？）。"),
    "ssh_timeout": ("Cannot reach host '{host}' ({address}): no answer within the {timeout} s connect timeout.",
                    "无法连接主机 '{host}'（{address}）：在 {timeout} 秒的连接超时内没有应答。"),
    "ssh_unresolved": ("Cannot reach host '{host}' ({address}): the host name could not be resolved.",
                       "无法连接主机 '{host}'（{address}）：无法解析主机名。"),
    "ssh_key_refused": ("host '{host}' ({address}) refused the key ({key}); passwords are never asked (BatchMode), "
                        "so authorise the key on the host or pick another identity file.",
                        "主机 '{host}'（{address}）拒绝了密钥（{key}）；从不询问密码（BatchMode），请在该主机上授权"
                        "此密钥或选择另一个身份文件。"),
    "ssh_host_key": ("The host key of host '{host}' ({address}) does not match known_hosts; check the host, then fix "
                     "known_hosts.", "主机 '{host}'（{address}）的主机密钥与 known_hosts 不符；请检查该主机，然后修正 "
                     "known_hosts。"),
    "ssh_failed": ("ssh to host '{host}' ({address}) failed: {detail}",
                   "ssh 连接主机 '{host}'（{address}）失败：{detail}"),
    # --- Dask clusters ------------------------------------------------------------------------------------
    "scheduler_unreachable": (
        "Cannot reach the Dask scheduler at {address} within {timeout:g} s ({reason}); start it with `dask "
        "scheduler` on that host, or check the address, the scheme (tls:// for a scheduler with certificates) and "
        "the firewall.",
        "无法在 {timeout:g} 秒内连接 {address} 上的 Dask scheduler（{reason}）；请在该主机上用 `dask scheduler` "
        "启动它，或检查地址、协议（有证书的 scheduler 用 tls://）和防火墙。"),
    "scheduler_refused_client": ("The Dask scheduler at {address} refused this client ({reason}).",
                                 "{address} 上的 Dask scheduler 拒绝了此客户端（{reason}）。"),
    "cluster_no_workers": ("The Dask scheduler at {address} has no workers: start `dask worker {address}` on each "
                           "node that holds dumps.",
                           "{address} 上的 Dask scheduler 没有 worker：请在每个存有 dump 的节点上启动 "
                           "`dask worker {address}`。"),
    "worker_version": ("The Dask worker {worker} runs autofuse-studio {worker_version}, this client {version}: "
                       "install the same version on every worker.",
                       "Dask worker {worker} 运行 autofuse-studio {worker_version}，此客户端为 {version}：请在每个 "
                       "worker 上安装相同的版本。"),
    "no_worker_sees_folder": ("No worker of the Dask cluster at {address} sees the {what} dump folder {path} (give "
                              "each worker's local folder with --path-map).{problems}",
                              "{address} 上的 Dask 集群没有 worker 能看到 {what} 的 dump 文件夹 {path}（请用 "
                              "--path-map 给出每个 worker 的本地文件夹）。{problems}"),
    "dask_missing": ("Running on a Dask cluster (--scheduler) needs dask.distributed: {hint}.",
                     "在 Dask 集群上运行（--scheduler）需要 dask.distributed：{hint}。"),
    # --- ATT logs -----------------------------------------------------------------------------------------
    "att_path_not_found": ("Path '{path}' not found.", "路径 '{path}' 不存在。"),
    "att_path_not_file_or_folder": ("Path '{path}' is neither a file nor a folder.",
                                    "路径 '{path}' 既不是文件也不是文件夹。"),
    "att_log_unreadable": ("Cannot read log '{path}': {reason}.", "无法读取日志 '{path}'：{reason}。"),
    "att_no_log_files": ("No .log files found in '{path}' (nor *.log.gz).",
                         "在 '{path}' 中没有找到 .log 文件（也没有 *.log.gz）。"),
    "att_no_logs_in": ("No log files (*.log, *.log.gz) found in {names}.",
                       "在 {names} 中没有找到日志文件（*.log、*.log.gz）。"),
    "att_no_records": ("No ATT records found in '{path}'; nothing to compare.",
                       "在 '{path}' 中没有找到 ATT 记录；没有可比较的内容。"),
    "att_no_data_export": ("No data to export.", "没有可导出的数据。"),
    "att_no_data_display": ("No data to display.", "没有可显示的数据。"),
    "att_no_operator": ("No operator{op} found in '{path}'.", "在 '{path}' 中没有找到算子{op}。"),
    "perf_no_lines": ("[perf-formula] no [PERF] lines to draw; nothing was written.",
                      "[perf-formula] 没有可绘制的 [PERF] 行；未写入任何内容。"),
    "run_root_missing": ("The run root '{path}' does not exist.", "运行根目录 '{path}' 不存在。"),
    "run_root_not_folder": ("The run root '{path}' is not a folder.", "运行根目录 '{path}' 不是文件夹。"),
    "run_side_not_folder": ("The {what} '{path}' is not a folder.", "{what} '{path}' 不是文件夹。"),
    "run_side_outside": ("The {what} '{path}' is outside the run root '{root}'; both runs must be inside it.",
                         "{what} '{path}' 在运行根目录 '{root}' 之外；两次运行都必须在其中。"),
    "run_root_no_default": ("No default run in the run root '{path}': expected a folder default/ (or base/), or "
                            "--default-root.",
                            "运行根目录 '{path}' 中没有 default 运行：应有文件夹 default/（或 base/），或使用 "
                            "--default-root。"),
    "run_root_no_candidate": ("No candidate run in the run root '{path}': expected a folder pgo/ or base/ next to "
                              "default/, or --candidate-root.",
                              "运行根目录 '{path}' 中没有 candidate 运行：应在 default/ 旁有文件夹 pgo/ 或 base/，"
                              "或使用 --candidate-root。"),
}

# Words that fill the templates, in Chinese: the case's roles ({label} from `role`), the run-root sides
# ({what}) and what a path is instead of a file ({kind}).
LABELS_ZH: dict[str, str] = {
    "af_open_graph": "af-open 图", "af_close_graph": "af-close 图", "af_open_data": "af-open dump 文件夹",
    "af_close_data": "af-close dump 文件夹", "npy_a": "NPY 文件 A", "npy_b": "NPY 文件 B",
}
WORDS_ZH: dict[str, str] = {
    "default root": "default 根目录", "candidate root": "candidate 根目录",
    "a folder": "一个文件夹", "a directory": "一个文件夹", "a named pipe (FIFO)": "一个命名管道（FIFO）",
    "a socket": "一个套接字",
    "a character device": "一个字符设备", "a block device": "一个块设备", "not a regular file": "非普通文件",
}


def is_chinese(language: str) -> bool:
    """True for 'zh', 'zh_CN' and the like."""
    return language.lower().startswith("zh")


def english(code: str, params: Mapping[str, Any]) -> str:
    """The English sentence of `code` (KeyError for a code the catalogue lacks: a bug at the raise site)."""
    return ERRORS[code][0].format(**params)


def _chinese_context(params: Mapping[str, Any]) -> dict[str, Any]:
    context = dict(params)
    if context.get("role") in LABELS_ZH:
        context["label"] = LABELS_ZH[context["role"]]
    for key in ("what", "kind"):
        if isinstance(context.get(key), str):
            context[key] = WORDS_ZH.get(context[key], context[key])
    if "where" in context:  # ' on rank 3' in English
        context["where"] = f"（rank {context['rank']}）" if context.get("rank") else ""
    return context


def render_error(exc: BaseException, language: str) -> str:
    """The error's sentence in `language`: str(exc) in English, for an error without a code and whenever the
    catalogue cannot render it (another version's code or params)."""
    code = getattr(exc, "code", None)
    if not is_chinese(language) or not code or code not in ERRORS:
        return str(exc)
    try:
        sentence = ERRORS[code][1].format(**_chinese_context(getattr(exc, "params", None) or {}))
    except (KeyError, IndexError, ValueError, TypeError, AttributeError):
        return str(exc)
    host = getattr(exc, "on_host", None)  # a host's error relayed here (core/remote/nwa_stream.py)
    return f"{sentence}（在主机 '{host}' 上）" if host else sentence
