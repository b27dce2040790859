"""`autofuse-studio dump convert INPUT -o OUTPUT`: msaccucmp-compatible NPYs from raw and nano dumps, without CANN."""

from __future__ import annotations

import argparse
import sys

from autofuse_studio.cli.guard import run_guarded
from autofuse_studio.cli.progress import terminal_progress

EXIT_NOTHING_CONVERTED = 1


def build_parser() -> argparse.ArgumentParser:
    """The `dump` parser with its `convert` action."""
    parser = argparse.ArgumentParser(
        prog="autofuse-studio dump",
        description="Dump folders as they come off the NPU (raw protobuf-header and nano TLV dump files).")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    convert = actions.add_parser(
        "convert", help="write msaccucmp-compatible NPYs from raw and nano dump files",
        description="Write one NPY per input/output of every raw or nano dump file under INPUT into OUTPUT, "
                    "mirroring the sub-folders, named as `msaccucmp convert` names them: "
                    "{dump file}.{input|output}.{i}.npy (names of 255+ characters become a uuid3 hash listed in "
                    "that folder's mapping.csv). Values as stored (device layout); bf16, fp8 and HiFloat8 as "
                    "float32, int4 as int8. Unreadable files and tensors are skipped with one warning per kind. "
                    "Exit 0 when something was converted (warnings or not), 1 when nothing could be converted or "
                    "the folders are refused, 2 for bad arguments.")
    convert.add_argument("input", metavar="INPUT", help="dump folder as it came off the NPU (searched recursively; "
                                                        "links leading out of it are not followed)")
    convert.add_argument("-o", "--out-dir", required=True, metavar="OUTPUT",
                         help="folder to write the NPYs into (created if needed; not inside INPUT)")
    convert.add_argument("--origin-layout", action="store_true",
                         help="convert device layouts (NC1HWC0, FRACTAL_NZ ...) to the origin layout with the "
                              "header's original shape and append the shape to the name, as msaccucmp convert "
                              "-f does: {dump file}.{input|output}.{i}.{d0}x{d1}...npy")
    convert.add_argument("--force", action="store_true",
                         help="write into an OUTPUT folder that already holds files (only the files converted "
                              "are replaced, each atomically; mapping.csv lines are added, never removed)")
    return parser


def run_convert(args: argparse.Namespace) -> int:
    """Convert, print what was written and one line per kind of warning; the exit code."""
    from autofuse_studio.core.dumps.convert import convert_dumps

    result = convert_dumps(args.input, args.out_dir, origin_layout=args.origin_layout, force=args.force,
                           progress=terminal_progress())
    if sys.stderr.isatty():
        sys.stderr.write("\n")  # end the progress line
    for message in result.warnings:
        print(f"WARNING: {message}", file=sys.stderr)
    if result.tensors_written == 0:
        print(f"ERROR: No tensor could be converted from {result.source} ({result.files_found:,} dump file(s) "
              "found).", file=sys.stderr)
        return EXIT_NOTHING_CONVERTED
    print(result.describe())
    return 0


def main(argv: list[str]) -> int:
    """Entry point of `autofuse-studio dump`."""
    args = build_parser().parse_args(argv)
    return run_guarded(lambda: run_convert(args))
