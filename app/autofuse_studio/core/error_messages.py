"""The errors' half of the message catalogue (core/messages.py holds the notices'): code -> (English, Chinese).

An AppError made with `.of(code, **params)` takes its English sentence (its str(), what the CLI prints and the
tests read) from here; `render_error(exc, language)` renders it in a front end's language, and gives str(exc)
for an error without a code, a code the catalogue lacks or params that do not fill the template. The
'ERROR: …' lines of the reference tool (docs/compatibility.md) are Chinese in both columns: the CLI prints
them as they are.

This module imports nothing of autofuse_studio (core/errors.py imports it).
"""

from __future__ import annotations

import contextlib
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
    # --- GE dump graph files (core/ge) -------------------------------------------------------------------
    "graph_file_missing": ("The graph file {path} does not exist.", "图文件 {path} 不存在。"),
    "graph_file_is_folder": ("{path} is a folder, not a GE dump graph file (.json or .txt).",
                             "{path} 是文件夹，不是 GE dump 图文件（.json 或 .txt）。"),
    "graph_file_unreadable": ("Cannot read the graph file {path}: {reason}.", "无法读取图文件 {path}：{reason}。"),
    "graph_empty": ("{path} is empty; expected a GE dump graph (JSON or protobuf text).",
                    "{path} 是空文件；应为 GE dump 图（JSON 或 protobuf 文本）。"),
    "graph_binary": ("{path} contains binary data; expected a GE dump graph as JSON or protobuf text (convert "
                     "binary .om/.pb files with `atc --mode=1 --json=...` first).",
                     "{path} 含有二进制数据；应为 JSON 或 protobuf 文本格式的 GE dump 图（请先用 "
                     "`atc --mode=1 --json=...` 转换二进制 .om/.pb 文件）。"),
    "graph_not_utf8": ("{path} is not UTF-8 text (bad byte at line {line}); expected a GE dump graph.",
                       "{path} 不是 UTF-8 文本（第 {line} 行有非法字节）；应为 GE dump 图。"),
    "graph_pbtxt_too_deep": ("{path}: protobuf text is nested too deeply.", "{path}：protobuf 文本嵌套过深。"),
    "graph_not_json": ("{path} is not valid JSON: {reason} at line {line}, column {column}.",
                       "{path} 不是有效的 JSON：第 {line} 行第 {column} 列：{reason}。"),
    "graph_json_truncated": ("{path} is not valid JSON (the file looks truncated): {reason} at line {line}, column "
                             "{column}.",
                             "{path} 不是有效的 JSON（文件似乎被截断）：第 {line} 行第 {column} 列：{reason}。"),
    "graph_json_not_utf8": ("{path} is not UTF-8 JSON text: {reason}.", "{path} 不是 UTF-8 JSON 文本：{reason}。"),
    "graph_json_too_deep": ("{path}: JSON is nested too deeply.", "{path}：JSON 嵌套过深。"),
    "pbtxt_unparsable": ("{path}: cannot parse protobuf text: {problem}.",
                         "{path}：无法解析 protobuf 文本：{problem}。"),
    "pbtxt_unparsable_at": ("{path}: cannot parse protobuf text at line {line}, column {column}: {problem}.",
                            "{path}：无法解析 protobuf 文本，第 {line} 行第 {column} 列：{problem}。"),
    "graph_no_ge_graph": ("{path} contains no GE graph: expected a ModelDef with a 'graph' list or a GraphDef with "
                          "an 'op' list.",
                          "{path} 不含 GE 图：应为带 'graph' 列表的 ModelDef 或带 'op' 列表的 GraphDef。"),
    "graph_no_graphs": ("{path} contains no graphs.", "{path} 不含任何图。"),
    # --- case file fields (core/case.py) -------------------------------------------------------------------
    "case_refused": ("The case file {path} is refused: {reason}", "案例文件 {path} 被拒绝：{reason}"),
    "case_refused_other": ("The case file {path} is refused: {reason}.", "案例文件 {path} 被拒绝：{reason}。"),
    "case_limits_not_object": ("'{field}' must be an object of limits (cosine, max_abs, max_rel), not {value}.",
                               "'{field}' 必须是限值对象（cosine、max_abs、max_rel），而不是 {value}。"),
    "case_threshold_unusable": ("Threshold '{key}' of '{field}' {problem} (or null).",
                                "'{field}' 的阈值 '{key}' {problem}（或 null）。"),
    "case_per_dtype_not_object": ("'{field}' must be an object keyed by dtype (e.g. {{\"float16\": {{\"cosine\": "
                                  "0.995}}}}), not {value}.",
                                  "'{field}' 必须是以 dtype 为键的对象（例如 {{\"float16\": {{\"cosine\": 0.995}}}}），"
                                  "而不是 {value}。"),
    "case_thresholds_not_object": ("'{field}' must be an object with 'default', 'per_dtype' and 'stats', not {value}.",
                                   "'{field}' 必须是含 'default'、'per_dtype' 和 'stats' 的对象，而不是 {value}。"),
    "case_stats_not_object": ("'{field}' must be an object of statistics limits, not {value}.",
                              "'{field}' 必须是统计量限值对象，而不是 {value}。"),
    "case_stats_limits_not_object": ("'{field}' must be an object of statistics limits ({keys}), not {value}.",
                                     "'{field}' 必须是统计量限值对象（{keys}），而不是 {value}。"),
    "case_path_not_text": ("'{field}' must be a path (text) or null, not {value}.",
                           "'{field}' 必须是路径（文本）或 null，而不是 {value}。"),
    "case_path_nul": ("'{field}' holds a NUL character, which no path can hold.",
                      "'{field}' 含有 NUL 字符，路径中不能有该字符。"),
    "case_path_too_long": ("'{field}' is a path of {count:,} characters (at most {limit:,}).",
                           "'{field}' 是长度为 {count:,} 个字符的路径（最多 {limit:,} 个）。"),
    "case_not_bool": ("'{field}' must be true or false, not {value}.",
                      "'{field}' 必须是 true 或 false，而不是 {value}。"),
    "case_step_invalid": ("'step' must be a step folder name or null, not {value}.",
                          "'step' 必须是 step 文件夹名或 null，而不是 {value}。"),
    "case_too_many_ranks": ("'ranks' lists {count:,} ranks (at most {limit:,}).",
                            "'ranks' 列出了 {count:,} 个 rank（最多 {limit:,} 个）。"),
    "case_text_too_long": ("'{field}' is a text of {count:,} characters (at most {limit:,}).",
                           "'{field}' 是长度为 {count:,} 个字符的文本（最多 {limit:,} 个）。"),
    "case_ranks_invalid": ("'ranks' must be a list of device ids, their text (\"0,2\") or null, not {value}.",
                           "'ranks' 必须是设备 id 列表、其文本（\"0,2\"）或 null，而不是 {value}。"),
    "case_names_invalid": ("'{field}' must be a list of names, not {value}.",
                           "'{field}' 必须是名称列表，而不是 {value}。"),
    "case_selected_invalid": ("'view.selected' must be a row key (a list of names and numbers) or null, not {value}.",
                              "'view.selected' 必须是行键（名称和数字的列表）或 null，而不是 {value}。"),
    "case_splitter_invalid": ("'view.splitter' must be two sizes in pixels (0 to {limit:,}), not {value}.",
                              "'view.splitter' 必须是两个以像素为单位的尺寸（0 到 {limit:,}），而不是 {value}。"),
    "case_view_text_invalid": ("'{field}' must be text (at most {limit:,} characters) or null, not {value}.",
                               "'{field}' 必须是文本（最多 {limit:,} 个字符）或 null，而不是 {value}。"),
    "case_filter_invalid": ("'view.filter' must be an object of texts (status, verdict, signature, rank, step, "
                            "text), not {value}.",
                            "'view.filter' 必须是文本对象（status、verdict、signature、rank、step、text），"
                            "而不是 {value}。"),
    "case_view_not_object": ("'view' must be an object (sort, filters, selection, splitter), not {value}.",
                             "'view' 必须是对象（sort、filters、selection、splitter），而不是 {value}。"),
    # --- thresholds (core/precision/thresholds.py) ---------------------------------------------------------
    "threshold_unknown_dtype": ("{place}: unknown dtype {dtype} (use {names}, or the dump files' names such as "
                                "DT_FLOAT16, DT_BF16, DT_FLOAT).",
                                "{place}：未知的 dtype {dtype}（请使用 {names}，或 dump 文件中的名称，如 DT_FLOAT16、"
                                "DT_BF16、DT_FLOAT）。"),
    "threshold_unusable": ("{place}: threshold '{key}' {problem}.", "{place}：阈值 '{key}' {problem}。"),
    "threshold_table_not_table": ("{place} must be a table of limits (cosine, max_abs, max_rel), not {value}.",
                                  "{place} 必须是限值表（cosine、max_abs、max_rel），而不是 {value}。"),
    "threshold_unknown_key": ("{place}: unknown threshold '{key}' (use cosine, max_abs, max_rel)",
                              "{place}：未知的阈值 '{key}'（请使用 cosine、max_abs、max_rel）"),
    "thresholds_unknown_table": ("{path}: unknown key '{key}' (use the tables [default], [dtype.NAME] and [stats]).",
                                 "{path}：未知的键 '{key}'（请使用表 [default]、[dtype.NAME] 和 [stats]）。"),
    "thresholds_dtype_not_tables": ("{path}: dtype must hold tables such as [dtype.float16], not {value}.",
                                    "{path}：dtype 必须包含 [dtype.float16] 这样的表，而不是 {value}。"),
    "threshold_unknown_stats_key": ("{place}: unknown statistics threshold '{key}' (use {keys}).",
                                    "{place}：未知的统计量阈值 '{key}'（请使用 {keys}）。"),
    "threshold_stats_not_number": ("{place}: statistics threshold '{key}' must be a finite number of 0 or more, not "
                                   "{value}.",
                                   "{place}：统计量阈值 '{key}' 必须是大于等于 0 的有限数，而不是 {value}。"),
    "thresholds_stats_not_table": ("{path}: stats must be a table of statistics limits, not {value}.",
                                   "{path}：stats 必须是统计量限值表，而不是 {value}。"),
    "thresholds_stats_dtype_not_tables": ("{path}: stats.dtype must hold tables such as [stats.dtype.float16].",
                                          "{path}：stats.dtype 必须包含 [stats.dtype.float16] 这样的表。"),
    "thresholds_stats_dtype_not_table": ("{place} must be a table of statistics limits.",
                                         "{place} 必须是统计量限值表。"),
    "dtype_threshold_syntax": ("Bad --dtype-threshold '{text}': expected DTYPE:KEY=VALUE, e.g. float16:cosine=0.995 "
                               "(keys: cosine, max_abs, max_rel)",
                               "--dtype-threshold '{text}' 有误：应为 DTYPE:KEY=VALUE，例如 float16:cosine=0.995"
                               "（键：cosine、max_abs、max_rel）"),
    "dtype_threshold_no_dtype": ("Bad --dtype-threshold '{text}': the dtype before ':' is empty.",
                                 "--dtype-threshold '{text}' 有误：':' 前的 dtype 为空。"),
    # --- dump files: raw dumps, NPY headers, conversion (core/dumps) ----------------------------------------
    "tensor_choice_syntax": ("--tensor takes input:N or output:N (e.g. output:0), not {value}.",
                             "--tensor 接受 input:N 或 output:N（例如 output:0），而不是 {value}。"),
    "raw_dump_no_tensor": ("Raw dump {path} has {inputs} input(s) and {outputs} output(s): it holds no {kind} "
                           "{index}.",
                           "原始 dump {path} 有 {inputs} 个输入和 {outputs} 个输出：其中没有 {kind} {index}。"),
    "raw_dump_choose_tensor": ("Raw dump {path} holds {count} tensors ({tensors}): choose one with --tensor, e.g. "
                               "--tensor output:0.",
                               "原始 dump {path} 含有 {count} 个张量（{tensors}）：请用 --tensor 选择一个，例如 "
                               "--tensor output:0。"),
    "npy_header_broken": ("{path} has a broken NPY header: {reason}.", "{path} 的 NPY 头部已损坏：{reason}。"),
    "npy_no_magic": ("{path} is not an NPY file (the magic string \\x93NUMPY is missing).",
                     "{path} 不是 NPY 文件（缺少魔数 \\x93NUMPY）。"),
    "npy_version_unsupported": ("{path} uses NPY format version {major}.{minor}, which is not supported.",
                                "{path} 使用 NPY 格式版本 {major}.{minor}，不受支持。"),
    "npy_bad_shape": ("{path} has an invalid shape in its NPY header: dimension {axis} is {problem}.",
                      "{path} 的 NPY 头部中形状无效：第 {axis} 维为 {problem}。"),
    "npy_structured_descr": ("{path} has an unsupported dtype (structured data).",
                             "{path} 的 dtype 不受支持（结构化数据）。"),
    "npy_dtype_unsupported": ("{path} has an unsupported dtype {dtype}.", "{path} 的 dtype {dtype} 不受支持。"),
    "npy_dtype_float8": ("{path} has an unsupported dtype {dtype} (1-byte opaque values, probably float8).",
                         "{path} 的 dtype {dtype} 不受支持（1 字节不透明值，可能是 float8）。"),
    "npy_pickled": ("{path} holds Python objects (pickled data); refusing to load it.",
                    "{path} 含有 Python 对象（pickle 数据）；拒绝加载。"),
    "npy_structured_dtype": ("{path} has an unsupported dtype {dtype} (structured data).",
                             "{path} 的 dtype {dtype} 不受支持（结构化数据）。"),
    "convert_output_inside_input": ("The output folder {path} is inside the input folder {source}: choose a folder "
                                    "outside it.",
                                    "输出文件夹 {path} 位于输入文件夹 {source} 之内：请选择其外的文件夹。"),
    "convert_output_contains_input": ("The output folder {path} contains the input folder {source}: choose a folder "
                                      "beside it.",
                                      "输出文件夹 {path} 包含输入文件夹 {source}：请选择与其并列的文件夹。"),
    "convert_output_unlistable": ("Cannot list the output folder {path}: {reason}.",
                                  "无法列出输出文件夹 {path} 的内容：{reason}。"),
    "convert_output_not_empty": ("The output folder {path} is not empty; use --force to write into it (only the files "
                                 "converted are replaced).",
                                 "输出文件夹 {path} 不为空；使用 --force 写入其中（只替换转换的文件）。"),
    "convert_link_outside": ("Cannot write into {path}: a link there leads outside the output folder {target}.",
                             "无法写入 {path}：那里的链接指向输出文件夹 {target} 之外。"),
    "convert_no_dumps": ("No raw or nano dump file was found under {path}.",
                         "在 {path} 下没有找到原始或 nano dump 文件。"),
    "convert_only_npy": ("No raw or nano dump file was found under {path} (it holds 1 NPY file: nothing to "
                         "convert).", "在 {path} 下没有找到原始或 nano dump 文件（其中有 1 个 NPY 文件：无需转换）。"),
    "convert_only_npys": ("No raw or nano dump file was found under {path} (it holds {count:,} NPY files: nothing "
                          "to convert).",
                          "在 {path} 下没有找到原始或 nano dump 文件（其中有 {count:,} 个 NPY 文件：无需转换）。"),
    # --- side files: case, thresholds, host profiles, path map (core/side_files.py) ---------------------------
    "side_file_not_file": ("{what} {shown} is {kind}, not a file.", "{what} {shown} 是{kind}，不是文件。"),
    "side_file_unreadable": ("{what} {shown} cannot be read: {reason}.", "无法读取{what} {shown}：{reason}。"),
    "side_file_too_large": ("{what} {shown} is larger than {size}.", "{what} {shown} 大于 {size}。"),
    # --- host profiles (core/remote/profiles.py) -----------------------------------------------------------
    "profile_refused": ("Host profile {name} is refused: {problems}", "主机配置 {name} 被拒绝：{problems}"),
    "profile_not_object": ("{what} must be a JSON object, not {value}.", "{what} 必须是 JSON 对象，而不是 {value}。"),
    "profile_missing_field": ("{what} has no {fields}.", "{what} 缺少 {fields}。"),
    "profile_fields_refused": ("{what} is refused: {problems}", "{what} 被拒绝：{problems}"),
    "profiles_not_utf8": ("The host profiles file '{path}' is not UTF-8 text.",
                          "主机配置文件 '{path}' 不是 UTF-8 文本。"),
    "profiles_not_json": ("The host profiles file '{path}' is not valid JSON: {reason} at line {line}.",
                          "主机配置文件 '{path}' 不是有效的 JSON：第 {line} 行：{reason}。"),
    "profiles_json_too_deep": ("The host profiles file '{path}' is not valid JSON (too deeply nested or a too long "
                               "number).", "主机配置文件 '{path}' 不是有效的 JSON（嵌套过深或数字过长）。"),
    "profiles_no_hosts_list": ("The host profiles file '{path}' must hold an object with a \"hosts\" list.",
                               "主机配置文件 '{path}' 必须包含一个带 \"hosts\" 列表的对象。"),
    "profile_broken": ("{problem} Fix it with `autofuse-studio hosts set {name} ...` or in the runner panel's Hosts… "
                       "dialog.",
                       "{problem} 请用 `autofuse-studio hosts set {name} ...` 或在运行面板的“主机…”对话框中修正。"),
    "profile_unknown": ("No host profile named {name} (known: {known}); add one with `autofuse-studio hosts add` or in "
                        "the runner panel.",
                        "没有名为 {name} 的主机配置（已有：{known}）；请用 `autofuse-studio hosts add` 或在运行面板中"
                        "添加一个。"),
    # --- Dask TLS (core/cluster/tls.py) ---------------------------------------------------------------------
    "tls_not_a_path": ("{option} takes the path of a PEM file, not {value}.",
                       "{option} 接受 PEM 文件的路径，而不是 {value}。"),
    "tls_file_unreadable": ("Cannot read {option} {path}: {reason}.", "无法读取 {option} {path}：{reason}。"),
    "tls_not_a_file": ("{option} {path} is not a file.", "{option} {path} 不是文件。"),
    "tls_options_without_tls": ("{options} are for a tls:// scheduler: {address} is not one (write tls://{rest}, or "
                                "leave them out).",
                                "{options} 用于 tls:// scheduler：{address} 不是（请写 tls://{rest}，或去掉这些选项）。"),
    "tls_dask_config_unusable": ("Cannot use the TLS files of Dask's configuration (distributed.comm.tls) for "
                                 "{address}: {reason}.",
                                 "无法为 {address} 使用 Dask 配置中的 TLS 文件（distributed.comm.tls）：{reason}。"),
    "tls_needs_files": ("The scheduler {address} speaks TLS: give the cluster's CA and this client's certificate with "
                        "{options} (or set them in Dask's configuration, distributed.comm.tls).",
                        "scheduler {address} 使用 TLS：请用 {options} 给出集群的 CA 和此客户端的证书（或在 Dask 配置 "
                        "distributed.comm.tls 中设置）。"),
    "tls_files_missing": ("A tls:// scheduler needs both --tls-ca-file and --tls-cert (and --tls-key unless the "
                          "certificate file holds the key): {missing} missing.",
                          "tls:// scheduler 需要 --tls-ca-file 和 --tls-cert（证书文件不含密钥时还需 --tls-key）："
                          "缺少 {missing}。"),
    "tls_files_unusable": ("Cannot use the TLS files ({files}): {reason}; give PEM files (the key unencrypted).",
                           "无法使用 TLS 文件（{files}）：{reason}；请给出 PEM 文件（密钥不加密）。"),
    # --- tiling runner: scenes and compile config (core/tiling) ------------------------------------------------
    "scene_undetected": ("✗ 无法自动检测场景: '{path}' holds neither {inductor_file} (inductor) nor a "
                         "*tiling_func*.cpp file (tf); pass --scene tf or --scene inductor.",
                         "✗ 无法自动检测场景：'{path}' 中既没有 {inductor_file}（inductor）也没有 *tiling_func*.cpp "
                         "文件（tf）；请传入 --scene tf 或 --scene inductor。"),
    "tiling_source_unreadable": ("Cannot read '{path}': {reason}.", "无法读取 '{path}'：{reason}。"),
    "tf_no_sources": ("'{path}' holds no *tiling_func*.cpp or *infershape*.cpp file to build.",
                      "'{path}' 中没有可构建的 *tiling_func*.cpp 或 *infershape*.cpp 文件。"),
    "artifacts_too_many_tokens": ("'{path}' line {line}: the artifacts dict has more than {limit} tokens; refusing to "
                                  "parse it.",
                                  "'{path}' 第 {line} 行：artifacts 字典超过 {limit} 个词法单元；拒绝解析。"),
    "artifacts_too_deep": ("'{path}' line {line}: the artifacts dict is nested more than {limit} levels deep; "
                           "refusing to parse it.",
                           "'{path}' 第 {line} 行：artifacts 字典嵌套超过 {limit} 层；拒绝解析。"),
    "artifacts_not_python": ("'{path}' line {line}: the artifacts dict is not valid Python ({reason}).",
                             "'{path}' 第 {line} 行：artifacts 字典不是有效的 Python（{reason}）。"),
    "artifacts_not_closed": ("'{path}' line {line}: the artifacts dict is never closed.",
                             "'{path}' 第 {line} 行：artifacts 字典没有闭合。"),
    "artifacts_missing": ("'{path}' holds no top-level `<name>_artifacts = {{...}}` assignment.",
                          "'{path}' 中没有顶层的 `<name>_artifacts = {{...}}` 赋值。"),
    "artifacts_variable_not_python": ("'{path}' line {line}: {variable} is not valid Python: {reason}.",
                                      "'{path}' 第 {line} 行：{variable} 不是有效的 Python：{reason}。"),
    "artifacts_not_literal": ("'{path}' line {line}: {variable} is not a plain literal dict.",
                              "'{path}' 第 {line} 行：{variable} 不是纯字面量字典。"),
    "artifacts_not_dict": ("'{path}' line {line}: {variable} is not a dict.",
                           "'{path}' 第 {line} 行：{variable} 不是字典。"),
    "inductor_file_missing": ("The inductor scene needs '{path}', which does not exist.",
                              "inductor 场景需要 '{path}'，但它不存在。"),
    "inductor_file_too_large": ("'{path}' is larger than {megabytes} MB; refusing to parse it.",
                                "'{path}' 大于 {megabytes} MB；拒绝解析。"),
    "artifacts_no_entry": ("'{path}': {name}_artifacts has no string entry '{key}' (needed for {target}).",
                           "'{path}'：{name}_artifacts 没有字符串条目 '{key}'（{target} 需要它）。"),
    "compile_not_string_list": ("'{path}': [compile] {key} must be a list of strings.",
                                "'{path}'：[compile] {key} 必须是字符串列表。"),
    "compile_config_too_large": ("The compile config '{path}' is larger than {kilobytes} KB.",
                                 "编译配置 '{path}' 大于 {kilobytes} KB。"),
    "compile_config_unreadable": ("Cannot read the compile config '{path}': {reason}.",
                                  "无法读取编译配置 '{path}'：{reason}。"),
    "compile_config_not_utf8": ("The compile config '{path}' is not UTF-8 text (byte {byte}).",
                                "编译配置 '{path}' 不是 UTF-8 文本（第 {byte} 字节）。"),
    "compile_config_not_toml": ("The compile config '{path}' is not valid TOML: {reason}.",
                                "编译配置 '{path}' 不是有效的 TOML：{reason}。"),
    "compile_config_too_deep": ("The compile config '{path}' is not valid TOML (a too long number or too deep "
                                "nesting).", "编译配置 '{path}' 不是有效的 TOML（数字过长或嵌套过深）。"),
    "compile_config_not_file": ("The compile config '{path}' is not a regular file.",
                                "编译配置 '{path}' 不是普通文件。"),
    "compile_config_missing": ("The compile config '{path}' does not exist.", "编译配置 '{path}' 不存在。"),
    "compile_not_table": ("'{path}': compile must be a table ([compile]).",
                          "'{path}'：compile 必须是表（[compile]）。"),
    "compile_flags_not_string": ("'{path}': [compile] flags must be one string.",
                                 "'{path}'：[compile] flags 必须是一个字符串。"),
    "compile_config_refused": ("'{path}': {reason}", "编译配置 '{path}' 有误：{reason}"),
    "compile_flags_unsplittable": ("[compile] flags {flags} cannot be split into arguments: {reason}.",
                                   "[compile] flags {flags} 无法拆分为参数：{reason}。"),
    "compile_value_unsafe": ("compile config {key} '{value}' contains ';' or a line break, which CMake would treat as "
                             "a list or a new command.",
                             "编译配置 {key} '{value}' 含有 ';' 或换行，CMake 会将其视为列表或新命令。"),
    # --- tiling runner: parameters, job, log inputs (core/tiling) -------------------------------------------
    "tiling_unknown_preset": ("Unknown preset '{name}': use A or B.", "未知的预设 '{name}'：请使用 A 或 B。"),
    "input_json_not_file": ("The input JSON '{path}' is not a regular file.", "输入 JSON '{path}' 不是普通文件。"),
    "input_json_unreadable": ("Cannot read the input JSON '{path}': {reason}.",
                              "无法读取输入 JSON '{path}'：{reason}。"),
    "input_json_too_large": ("The input JSON '{path}' is larger than {kilobytes} KB; it should hold four small "
                             "values.", "输入 JSON '{path}' 大于 {kilobytes} KB；它应只包含四个小值。"),
    "input_json_not_utf8": ("The input JSON '{path}' is not UTF-8 text (byte {byte}).",
                            "输入 JSON '{path}' 不是 UTF-8 文本（第 {byte} 字节）。"),
    "input_json_invalid": ("The input JSON '{path}' is not valid JSON: {reason} at line {line}, column {column}.",
                           "输入 JSON '{path}' 不是有效的 JSON：第 {line} 行第 {column} 列：{reason}。"),
    "input_json_too_deep": ("The input JSON '{path}' is nested too deeply to be parameters.",
                            "输入 JSON '{path}' 嵌套过深，不能作为参数。"),
    "input_json_long_number": ("The input JSON '{path}' holds a number too long to read ({reason}).",
                               "输入 JSON '{path}' 含有过长而无法读取的数字（{reason}）。"),
    "input_json_not_object": ("The input JSON '{path}' must hold an object with dynamic_dims, aiv_num, ub_size and "
                              "abi.",
                              "输入 JSON '{path}' 必须包含一个带 dynamic_dims、aiv_num、ub_size 和 abi 的对象。"),
    "verify_tiling_problems": ("[verify-tiling] {count} problem(s) found before compiling; nothing was built:\n{lines}",
                               "[verify-tiling] 编译前发现 {count} 个问题；未构建任何内容：\n{lines}"),
    "preset_and_input_json": ("--preset and --input-json cannot be used together: pick one source of parameters.",
                              "--preset 和 --input-json 不能同时使用：请选择一个参数来源。"),
    "verify_output_is_file": ("-o {output}: '{folder}' is a file, not a folder for result.json and build.log.",
                              "-o {output}：'{folder}' 是文件，不是存放 result.json 和 build.log 的文件夹。"),
    "verify_output_unusable": ("-o {output}: {reason}", "-o {output} 不可用：{reason}"),
    "verify_source_missing": ("✗ 源目录不存在: {path}", "✗ 源目录不存在：{path}"),
    "verify_unknown_scene": ("--scene {scene}: use tf or inductor.", "--scene {scene}：请使用 tf 或 inductor。"),
    "verify_log_missing": ("✗ 日志不存在: --log {path} does not exist.", "✗ 日志不存在：--log {path} 不存在。"),
    "verify_no_python3": ("verify-tiling needs python3 on PATH to run its build runner; none was found.",
                          "verify-tiling 需要 PATH 中的 python3 来运行其构建程序；但没有找到。"),
    "log_op_unknown": ("--op {operator}: the log has tiling inputs only for {names}.",
                       "--op {operator}：日志只有 {names} 的 tiling 输入。"),
    "log_op_ambiguous": ("The log holds tiling inputs for several operators ({names}) and none is named like the "
                         "kernel '{kernel}'; pass --op NAME.",
                         "日志含有多个算子（{names}）的 tiling 输入，且没有一个与 kernel '{kernel}' 同名；请传入 "
                         "--op NAME。"),
    "log_case_no_match": ("The log has no tiling input line for {name} matching --case {case}.",
                          "日志中没有 {name} 与 --case {case} 匹配的 tiling 输入行。"),
    "log_case_ambiguous": ("--case {case} is ambiguous. {detail}; narrow it, e.g. r=0,g=0,c=0.",
                           "--case {case} 有歧义。{detail}；请缩小范围，例如 r=0,g=0,c=0。"),
    # --- runs on a host (core/remote/nwa_remote.py, nwa_stream.py) -------------------------------------------
    "remote_command_refused": ("--remote-command {command} is refused: {problem}.",
                               "--remote-command {command} 被拒绝：{problem}。"),
    "remote_path_unsendable": ("The {label_en} path {value} ({option}) cannot be sent to host '{host}': {problem}.",
                               "{label} 路径 {value}（{option}）无法发送到主机 '{host}'：{problem}。"),
    "remote_step_unsendable": ("--step {step} cannot be sent to host '{host}': {problem}.",
                               "--step {step} 无法发送到主机 '{host}'：{problem}。"),
    "remote_rank_not_device": ("--rank {rank} is not a device id.", "--rank {rank} 不是设备 id。"),
    "remote_not_autofuse": ("'{command} --version' on host '{host}' ({address}) did not answer like Autofuse Studio "
                            "(it said {said}); name the right program with --remote-command.",
                            "主机 '{host}'（{address}）上的 '{command} --version' 的应答不像 Autofuse Studio（它输出 "
                            "{said}）；请用 --remote-command 指定正确的程序。"),
    "remote_command_not_found": ("'{command}' was not found on host '{host}' ({address}): install autofuse-studio "
                                 "there (pip install autofuse-studio) or name it with --remote-command.",
                                 "在主机 '{host}'（{address}）上找不到 '{command}'：请在那里安装 autofuse-studio"
                                 "（pip install autofuse-studio）或用 --remote-command 指定它。"),
    "remote_command_not_executable": ("'{command}' cannot be run (not executable) on host '{host}' ({address}): "
                                      "install autofuse-studio there (pip install autofuse-studio) or name it with "
                                      "--remote-command.",
                                      "在主机 '{host}'（{address}）上无法运行 '{command}'（不可执行）：请在那里安装 "
                                      "autofuse-studio（pip install autofuse-studio）或用 --remote-command 指定它。"),
    "remote_too_old": ("'{command}' on host '{host}' ({address}) is Autofuse Studio {version}, older than the "
                       "{minimum} that --host needs (stream protocol {protocol}, this is {here}); upgrade it there.",
                       "主机 '{host}'（{address}）上的 '{command}' 是 Autofuse Studio {version}，早于 --host 所需的 "
                       "{minimum}（流协议 {protocol}，本机为 {here}）；请在那里升级。"),
    "host_stream_broken": ("Host '{host}' sent {problem}; its comparison was stopped.",
                           "主机 '{host}' 发送了 {problem}；其比较已停止。"),
    "host_protocol_newer": ("Host '{host}' runs Autofuse Studio {version} with stream protocol {protocol}, newer than "
                            "this one's {ours}; upgrade here too.",
                            "主机 '{host}' 运行 Autofuse Studio {version}，流协议 {protocol} 比本机的 {ours} 新；"
                            "请把本机也升级。"),
    "host_run_lost": ("The comparison on host '{host}' ended before its result: the remote process was killed or the "
                      "connection was lost.", "主机 '{host}' 上的比较在得出结果前结束：远程进程被终止或连接已断开。"),
    "host_run_lost_said": ("The comparison on host '{host}' ended before its result: the remote process was killed or "
                           "the connection was lost ({last}).",
                           "主机 '{host}' 上的比较在得出结果前结束：远程进程被终止或连接已断开（{last}）。"),
    "host_run_stopped": ("The remote autofuse-studio on host '{host}' stopped with exit code {code} before its "
                         "result: {last}",
                         "主机 '{host}' 上的远程 autofuse-studio 在得出结果前以退出码 {code} 停止：{last}"),
    "host_run_stopped_silent": ("The remote autofuse-studio on host '{host}' stopped with exit code {code} before its "
                                "result: no output",
                                "主机 '{host}' 上的远程 autofuse-studio 在得出结果前以退出码 {code} 停止：没有输出"),
    # --- desktop entry (core/desktop.py) and fetching from a host (core/remote/fetch.py) -----------------------
    "desktop_not_utf8": ("Cannot write a desktop entry for {command}: the path is not valid UTF-8, and a desktop "
                         "entry holds UTF-8 text only. Install from a folder whose name is UTF-8.",
                         "无法为 {command} 写入桌面项：该路径不是有效的 UTF-8，而桌面项只能包含 UTF-8 文本。请从名称为 "
                         "UTF-8 的文件夹安装。"),
    "desktop_line_break": ("Cannot write a desktop entry for a command with a line break in it: {command}.",
                           "无法为含有换行的命令写入桌面项：{command}。"),
    "desktop_control_char": ("Cannot write a desktop entry for a command with the control character {char} in it: "
                             "{command}.", "无法为含有控制字符 {char} 的命令写入桌面项：{command}。"),
    "desktop_not_linux": ("`desktop install` integrates with Linux (freedesktop) desktops; this is {platform}.",
                          "`desktop install` 用于 Linux（freedesktop）桌面；当前系统是 {platform}。"),
    "desktop_install_failed": ("Cannot install {name}: {reason}", "无法安装 {name}：{reason}"),
    "desktop_target_not_file": ("Cannot install {name}: {path} is {kind}, not a file; remove it first.",
                                "无法安装 {name}：{path} 是{kind}，不是文件；请先删除它。"),
    "desktop_remove_failed": ("Cannot remove {path}: {reason}", "无法删除 {path}：{reason}"),
    "remote_fetch_unsendable": ("The path {shown} cannot be sent to host '{host}': {problem}.",
                                "路径 {shown} 无法发送到主机 '{host}'：{problem}。"),
    # --- run specs sent to a host (core/run/spec.py) -----------------------------------------------------------
    "spec_wrong_format": ("{source} is not an {format} document.", "{source} 不是 {format} 文档。"),
    "spec_bad_mode": ("{source}: 'mode' must be 1 or 2.", "{source}：'mode' 必须是 1 或 2。"),
    "spec_bad_ranks": ("{source}: 'ranks' must be a list of device ids (digits).",
                       "{source}：'ranks' 必须是设备 id（数字）的列表。"),
    "spec_bad_jobs": ("{source}: 'jobs' must be between 1 and 4096.", "{source}：'jobs' 必须在 1 到 4096 之间。"),
    "spec_refused": ("{source}: {reason}", "{source} 有误：{reason}"),
    "spec_bad_timeout": ("{source}: 'connect_timeout' must be between 1 and 3600 seconds.",
                         "{source}：'connect_timeout' 必须在 1 到 3600 秒之间。"),
    "spec_bad_path_map": ("{source}: 'path_map' must be a list of WORKER:CLIENT=LOCAL texts.",
                          "{source}：'path_map' 必须是 WORKER:CLIENT=LOCAL 文本的列表。"),
    "spec_bad_where": ("{source}: 'where' must be local, host or cluster.",
                       "{source}：'where' 必须是 local、host 或 cluster。"),
    "spec_not_object": ("{source} must be a JSON object.", "{source} 必须是 JSON 对象。"),
    "spec_field_kind": ("{source}: '{key}' must be {kind}.", "{source}：'{key}' 必须是 {kind}。"),
    "spec_text_invalid": ("{source}: '{key}' is longer than {limit} characters or holds a NUL.",
                          "{source}：'{key}' 超过 {limit} 个字符或含有 NUL。"),
    # --- ATT logs, run roots and their outputs (core/att) -------------------------------------------------------
    "case_filter_unknown_dimension": ("--case '{text}': unknown dimension '{name}' (use r/result, g/group or c/case, "
                                      "e.g. r=0,1,g=2,c=1).",
                                      "--case '{text}'：未知的维度 '{name}'（请使用 r/result、g/group 或 c/case，例如 "
                                      "r=0,1,g=2,c=1）。"),
    "case_filter_no_dimension": ("--case '{text}': '{token}' needs a dimension first, e.g. c={token}.",
                                 "--case '{text}'：'{token}' 前需要先写维度，例如 c={token}。"),
    "case_filter_not_integer": ("--case '{text}': '{token}' is not an integer id.",
                                "--case '{text}'：'{token}' 不是整数 id。"),
    "att_csv_missing": ("CSV file '{path}' not found.", "找不到 CSV 文件 '{path}'。"),
    "att_csv_columns": ("CSV file '{path}' lacks the column(s) {columns}.", "CSV 文件 '{path}' 缺少列 {columns}。"),
    "att_csv_unreadable": ("Cannot read CSV file '{path}': {reason}.", "无法读取 CSV 文件 '{path}'：{reason}。"),
    "att_file_unreadable": ("Cannot read '{path}': {reason}.", "无法读取 '{path}'：{reason}。"),
    "att_no_free_folder": ("No free folder name next to '{path}' (tried {tried}).",
                           "'{path}' 旁没有可用的文件夹名（已尝试 {tried} 个）。"),
    "att_run_no_log": ("No ATT log in the {side} run '{path}' ({count} file(s) that could hold logs were read; none "
                       "has [PROF], [PERF], [DFX] or FINAL_TILING lines).",
                       "{side} 运行 '{path}' 中没有 ATT 日志（读取了 {count} 个可能含有日志的文件；没有一个含有 "
                       "[PROF]、[PERF]、[DFX] 或 FINAL_TILING 行）。"),
    "att_archive_create": ("Cannot create the archive folder '{path}': {reason}.",
                           "无法创建归档文件夹 '{path}'：{reason}。"),
    "att_no_free_archive": ("No free archive name for '{name}' in '{path}' (tried {tried}).",
                            "'{path}' 中没有 '{name}' 可用的归档名（已尝试 {tried} 个）。"),
    "att_archive_in_run_root": ("The archive folder '{path}' is inside the run root '{root}' (it is '{folder}'); the "
                                "run root is only read, so pick an archive root whose {sub}/ lies outside it.",
                                "归档文件夹 '{path}' 位于运行根目录 '{root}' 之内（实际为 '{folder}'）；"
                                "运行根目录只读，请选择其 {sub}/ 位于运行根目录之外的归档根目录。"),
    "att_archive_became_inside": ("The archive folder '{path}' is inside the run root '{root}'; nothing was archived.",
                                  "归档文件夹 '{path}' 位于运行根目录 '{root}' 之内；未归档任何内容。"),
    "att_write_in_run_root": ("Refusing to write '{path}': it is inside the run root '{root}'.",
                              "拒绝写入 '{path}'：它位于运行根目录 '{root}' 之内。"),
    "att_output_in_run_root": ("The {what} '{path}' is inside the run root '{root}'; the run root is only read, so "
                               "pick a folder outside it.",
                               "{what} '{path}' 位于运行根目录 '{root}' 之内；运行根目录只读，请选择其外的文件夹。"),
    "att_report_folder_is_file": ("Cannot write the report into '{path}': it is a file, not a folder.",
                                  "无法将报告写入 '{path}'：它是文件，不是文件夹。"),
    "att_output_not_empty": ("The output folder '{path}' is not empty; choose a new folder or pass --force (which "
                             "replaces report.md, summary.csv, root-cause.jsonl and summary.xlsx only).",
                             "输出文件夹 '{path}' 不为空；请选择新文件夹或传入 --force（只替换 report.md、summary.csv、"
                             "root-cause.jsonl 和 summary.xlsx）。"),
    "run_root_unlistable": ("Cannot list the run root '{path}': {reason}.", "无法列出运行根目录 '{path}'：{reason}。"),
    "run_side_symlink": ("The {what} '{path}' is a symbolic link; links are not followed inside a run root (pass the "
                         "folder it points to as the run root instead).",
                         "{what} '{path}' 是符号链接；运行根目录内不跟随链接（请改为把它指向的文件夹作为运行"
                         "根目录）。"),
    "run_root_three_runs": ("The run root '{path}' holds default/, pgo/ and base/: which two to compare is not clear; "
                            "pass --default-root and --candidate-root.",
                            "运行根目录 '{path}' 含有 default/、pgo/ 和 base/：不清楚比较哪两个；请传入 --default-root "
                            "和 --candidate-root。"),
    "run_sides_same": ("The default run '{default}' and the candidate run '{candidate}' are the same folder; pick two "
                       "separate folders.",
                       "default 运行 '{default}' 和 candidate 运行 '{candidate}' 是同一个文件夹；请选择两个不同的"
                       "文件夹。"),
    "run_sides_overlap": ("The default run '{default}' and the candidate run '{candidate}' overlap (one holds the "
                          "other); pick two separate folders.",
                          "default 运行 '{default}' 和 candidate 运行 '{candidate}' 相互重叠（一个包含另一个）；"
                          "请选择两个不同的文件夹。"),
    # --- tensor layouts (core/dumps/layout.py) and dump folders (core/dumps/walk.py) ----------------------------
    "layout_shape_mismatch": ("Cannot convert {layout} shape {shape} to origin {origin} shape {origin_shape}: "
                              "{problem}.",
                              "无法将 {layout} 形状 {shape} 转换为原始 {origin} 形状 {origin_shape}：{problem}。"),
    "layout_no_conversion": ("No conversion is known from layout {layout} to {target}.",
                             "没有从布局 {layout} 到 {target} 的已知转换。"),
    "layout_cannot_reorder": ("Cannot reorder axes {axes} as {order}.", "无法将轴 {axes} 重排为 {order}。"),
    "layout_already_converted": ("The {layout} tensor was already converted; convert raw tensors only.",
                                 "该 {layout} 张量已经转换过；只能转换原始张量。"),
    "dump_folder_unreadable": ("Cannot read the dump folder {path}: {reason}.",
                               "无法读取 dump 文件夹 {path}：{reason}。"),
    # --- command line and Python API (cli/*, api/*) --------------------------------------------------------------
    "perf_source_missing": ("[perf-formula] 源目录不存在: {path}", "[perf-formula] 源目录不存在：{path}"),
    "profile_exists": ("A host profile named {name} exists already; change it with `hosts set`.",
                       "名为 {name} 的主机配置已存在；请用 `hosts set` 修改它。"),
    "api_dtype_thresholds_not_mapping": ("dtype_thresholds must map dtype names to limits, e.g. {{'float16': "
                                         "{{'cosine': 0.995}}}}, not {value}.",
                                         "dtype_thresholds 必须把 dtype 名映射到限值，例如 {{'float16': "
                                         "{{'cosine': 0.995}}}}，而不是 {value}。"),
    "api_limits_not_mapping": ("{place} must map limit names to numbers, e.g. {{'cosine': 0.995}}, not {value}.",
                               "{place} 必须把限值名映射到数字，例如 {{'cosine': 0.995}}，而不是 {value}。"),
    "api_unknown_limit": ("{place}: unknown limit {key} (use cosine, max_abs, max_rel).",
                          "{place}：未知的限值 {key}（请使用 cosine、max_abs、max_rel）。"),
    "api_jobs_not_int": ("jobs must be a whole number of worker threads, not {value}.",
                         "jobs 必须是表示工作线程数的整数，而不是 {value}。"),
    # --- Dask clusters: path maps, addresses, refused replies (core/cluster) ------------------------------------
    "path_map_syntax": ("{option} takes {form}, not {value}.", "{option} 接受 {form}，而不是 {value}。"),
    "path_map_not_absolute": ("{option}: {prefix} in {value} is not an absolute path; write {form}.",
                              "{option}：{value} 中的 {prefix} 不是绝对路径；请写成 {form}。"),
    "path_map_not_utf8": ("The path map file {path} is not UTF-8 text.", "路径映射文件 {path} 不是 UTF-8 文本。"),
    "cluster_sent_pickle": ("The Dask cluster at {address} sent this client a pickled Python object; it was refused "
                            "(this client never unpickles data from the cluster) and the run stops: check who runs the "
                            "scheduler and the workers (docs/scale-out.md).",
                            "{address} 上的 Dask 集群向此客户端发送了 pickle 的 Python 对象；已拒绝（此客户端从不"
                            "反序列化来自集群的数据），运行停止：请检查是谁在运行 scheduler 和 worker"
                            "（docs/scale-out.md）。"),
    "worker_sent_foreign": ("The Dask worker {worker} sent a {what} that autofuse-studio's task does not send "
                            "({reason}); it was refused (this client never unpickles data from the cluster) and the "
                            "run stops: check who runs workers on this scheduler (docs/scale-out.md).",
                            "Dask worker {worker} 发送了 autofuse-studio 的任务不会发送的 {what}（{reason}）；已拒绝"
                            "（此客户端从不反序列化来自集群的数据），运行停止：请检查是谁在此 scheduler 上运行 worker"
                            "（docs/scale-out.md）。"),
    "not_a_scheduler": ("The server at {address} did not answer like a Dask scheduler ({error}: {reason}); check the "
                        "address and the port (a scheduler listens on {port} unless told otherwise; its dashboard's "
                        "HTTP port is another).",
                        "{address} 上的服务器的应答不像 Dask scheduler（{error}：{reason}）；请检查地址和端口"
                        "（scheduler 默认监听 {port}；其 dashboard 的 HTTP 端口是另一个）。"),
    "scheduler_address_bad": ("--scheduler takes a Dask scheduler address like tcp://HOST:{port}, not {value}: "
                              "{problem}.",
                              "--scheduler 接受 tcp://HOST:{port} 这样的 Dask scheduler 地址，而不是 {value}："
                              "{problem}。"),
    # --- tensor view and heatmap (core/precision) ---------------------------------------------------------------
    "view_sizes_differ": ("Cannot view {fused} against {path}: {fused_size} elements {fused_shape} vs {origin_size} "
                          "elements {origin_shape}.",
                          "无法将 {fused} 与 {path} 对照查看：{fused_size} 个元素 {fused_shape} 对 {origin_size} 个"
                          "元素 {origin_shape}。"),
    "view_empty": ("Cannot view {fused} against {path}: the tensors are empty.",
                   "无法将 {fused} 与 {path} 对照查看：张量为空。"),
    "view_row_no_files": ("Row {op}:{index} has no fused/origin file pair to show.",
                          "行 {op}:{index} 没有可显示的 fused/origin 文件对。"),
    "view_changed": ("Cannot show {fused} against {origin}: {problem}.",
                     "无法将 {fused} 与 {origin} 对照显示：{problem}。"),
    "heatmap_wrap_not_1d": ("Only a 1-D tensor can be wrapped; this one has shape {shape}.",
                            "只有一维张量可以折行；此张量的形状为 {shape}。"),
    "heatmap_needs_axes": ("A heatmap needs at least one row axis and one column axis.",
                           "热力图至少需要一个行轴和一个列轴。"),
    "heatmap_axes_invalid": ("Heatmap axes {rows} x {cols} must be distinct axes of a {ndim}-D grid.",
                             "热力图轴 {rows} x {cols} 必须是 {ndim} 维网格中互不相同的轴。"),
    "rank_ids_invalid": ("{option} takes device ids (numbers of at most {digits} digits, e.g. 0,2,3), not {value}.",
                         "{option} 接受设备 id（最多 {digits} 位的数字，例如 0,2,3），而不是 {value}。"),
    # --- ssh options and files fetched from a host (core/remote/ssh.py, fetch.py) -------------------------------
    "ssh_timeout_invalid": ("The ssh connect timeout must be a whole number of seconds in 1..{limit}, not {value}.",
                            "ssh 连接超时必须是 1..{limit} 之间的整数秒，而不是 {value}。"),
    "remote_file_too_large": ("{path} on host '{host}' is larger than {megabytes} MB.",
                              "主机 '{host}' 上的 {path} 大于 {megabytes} MB。"),
    "remote_file_missing": ("There is no file {path} on host '{host}'.", "主机 '{host}' 上没有文件 {path}。"),
    # --- att command line (cli/att.py) -----------------------------------------------------------------------
    "att_no_logs_at": ("No log files found at '{path}'", "在 '{path}' 没有找到日志文件"),
    # --- pictures and exports of the GUI (ui/*) -----------------------------------------------------------------
    "picture_encode_failed": ("Could not encode the picture for {path}.", "无法为 {path} 编码图片。"),
    "png_encode_failed": ("Could not encode the picture as PNG.", "无法将图片编码为 PNG。"),
    "table_png_encode_failed": ("Could not encode the table picture as PNG.", "无法将表格图片编码为 PNG。"),
    "table_picture_too_large": ("The table picture would be {width}×{height} px: too large to draw.",
                                "表格图片将为 {width}×{height} 像素：太大，无法绘制。"),
    "exporter_no_data": ("Could not write {path}: the exporter produced no data.",
                         "无法写入 {path}：导出器没有生成数据。"),
    "svg_start_failed": ("Could not start an SVG drawing.", "无法开始绘制 SVG。"),
    "picture_unwritable": ("Could not write {path}: {reason}.", "无法写入 {path}：{reason}。"),
    "file_unwritable_quoted": ("Could not write '{path}': {reason}.", "无法写入 '{path}'：{reason}。"),
    "png_too_big": ("The picture is {width:,.0f} x {height:,.0f} px, too big for one readable PNG (at most "
                    "{side:,} px a side). Export it as SVG, or export one operator's picture.",
                    "图片为 {width:,.0f} x {height:,.0f} 像素，太大，无法生成一张可读的 PNG（每边最多 {side:,} "
                    "像素）。请导出为 SVG，或只导出一个算子的图片。"),
    "no_file_pair_to_show": ("{op}:{index} has no file pair to show.", "{op}:{index} 没有可显示的文件对。"),
}

# Parts of sentences an error's params carry as 'problem_code' (and the part's own params): 'problem' holds the
# English words, the Chinese sentence renders the code's Chinese words in their place.
FRAGMENTS: dict[str, tuple[str, str]] = {
    "limit_not_number": ("must be a number, not {limit_value}", "必须是数字，而不是 {limit_value}"),
    "limit_not_finite": ("must be a finite number, not {limit_value}", "必须是有限数，而不是 {limit_value}"),
    "limit_out_of_range": ("must be in [{limit_low}, {limit_high}], not {limit_value}",
                           "必须在 [{limit_low}, {limit_high}] 之内，而不是 {limit_value}"),
    "limit_too_small": ("must be {limit_low} or more, not {limit_value}",
                        "必须大于等于 {limit_low}，而不是 {limit_value}"),
}

# Words that fill the templates, in Chinese: the case's roles ({label} from `role`), the run-root sides
# ({what}) and what a path is instead of a file ({kind}).
LABELS_ZH: dict[str, str] = {
    "af_open_graph": "af-open 图", "af_close_graph": "af-close 图", "af_open_data": "af-open dump 文件夹",
    "af_close_data": "af-close dump 文件夹", "npy_a": "NPY 文件 A", "npy_b": "NPY 文件 B",
}
WORDS_ZH: dict[str, str] = {
    "default root": "default 根目录", "candidate root": "candidate 根目录",
    "output folder": "输出文件夹", "archive folder": "归档文件夹",
    "a folder": "一个文件夹", "a directory": "一个文件夹", "a named pipe (FIFO)": "一个命名管道（FIFO）",
    "a socket": "一个套接字",
    "The case file": "案例文件", "The thresholds file": "阈值文件", "The host profiles file": "主机配置文件",
    "The path map file": "路径映射文件",
    "a whole number": "整数", "a text": "文本", "true or false": "true 或 false", "a list": "列表",
    "an object": "对象",
    "The host profile": "主机配置",
    "a character device": "一个字符设备", "a block device": "一个块设备", "not a regular file": "非普通文件",
}


def is_chinese(language: str) -> bool:
    """True for 'zh', 'zh_CN' and the like (the GUI's and the CLI's codes alike)."""
    return language.lower().startswith("zh")


def problem_params(code: str, **values: str) -> dict[str, str]:
    """The params of a sentence part `code` of FRAGMENTS: its English words as 'problem', the code, its values."""
    return {"problem": FRAGMENTS[code][0].format(**values), "problem_code": code, **values}


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
    part = FRAGMENTS.get(context["problem_code"]) if isinstance(context.get("problem_code"), str) else None
    if part:
        with contextlib.suppress(KeyError, IndexError, ValueError):  # if so, the English words stay
            context["problem"] = part[1].format(**context)
    cause = _chinese_cause(context.get("cause_code"), context.get("cause_params"))
    if cause:  # an error wrapping another ('The case file … is refused: <its sentence>'): both in Chinese
        context["reason"] = cause
    return context


def _chinese_cause(code: Any, params: Any) -> str | None:
    """The Chinese sentence of a wrapped error's code and params; None when there is none or it cannot render."""
    if not isinstance(code, str) or code not in ERRORS or not isinstance(params, Mapping):
        return None
    try:
        return ERRORS[code][1].format(**_chinese_context({k: v for k, v in params.items() if k != "cause_code"}))
    except (KeyError, IndexError, ValueError, TypeError, AttributeError):
        return None


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
