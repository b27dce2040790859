"""`report --host NAME`: compare on the host, then draw here from the rows, the two graphs and two NPYs fetched.

Only what the pictures need travels: the rows (as for `nwa --host`), both graph files, and the two tensors of
the first divergence (up to MAX_TENSOR_BYTES each; bigger ones skip the tensor pictures with a note).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from autofuse_studio.core.errors import UsageError
from autofuse_studio.core.remote.fetch import MAX_TENSOR_BYTES, TooLarge, fetch_file
from autofuse_studio.core.remote.profiles import HostProfile

MAX_GRAPH_BYTES = 2 << 30


class GraphsHere:
    """The parsed graphs and fusion mapping of the host's case (what the graph pictures read)."""

    def __init__(self, profile: HostProfile, open_graph: str, close_graph: str, folder: Path, timeout: int) -> None:
        from autofuse_studio.core.ge.fusion import build_fusion_mapping
        from autofuse_studio.core.ge.load import load_model

        self.af_open = load_model(fetch_file(profile, open_graph, folder / ("open-" + Path(open_graph).name),
                                             MAX_GRAPH_BYTES, timeout))
        self.af_close = load_model(fetch_file(profile, close_graph, folder / ("close-" + Path(close_graph).name),
                                              MAX_GRAPH_BYTES, timeout))
        self.mapping = build_fusion_mapping(self.af_open)


def run_report_host(args: argparse.Namespace) -> int:
    """Compare on the host, write report.xlsx and the pictures here; print what a local report prints."""
    from autofuse_studio.cli import report
    from autofuse_studio.cli.nwa_host import remote_request
    from autofuse_studio.cli.progress import terminal_progress
    from autofuse_studio.core.precision.table import describe_row
    from autofuse_studio.core.remote.nwa_remote import check_request
    from autofuse_studio.core.remote.nwa_stream import RemoteStream, collect
    from autofuse_studio.core.remote.profiles import find_profile
    from autofuse_studio.core.reports.precision_files import write_xlsx

    if args.mode != 1:
        raise UsageError("report supports mode 1 only (graphs and dump folders).")
    profile = find_profile(args.host)
    request = remote_request(args)
    check_request(request, profile.name)
    out_dir = report._prepare_out_dir(Path(args.out_dir), args.force)
    result = collect(RemoteStream(profile, request, args.connect_timeout).records(), profile.name,
                     progress=terminal_progress()).result
    write_xlsx(result, out_dir / report.REPORT_FILE)
    with tempfile.TemporaryDirectory(prefix="report-host-") as scratch:
        folder = Path(scratch)
        first = result.first_divergence  # without one there is no graph picture: nothing to copy
        graphs = None if first is None else GraphsHere(profile, request.af_open_graph, request.af_close_graph,
                                                         folder, args.connect_timeout)
        kept = None if first is None else (first.fused_file, first.origin_file)
        try:
            if first is not None:  # the tensor panel reads the two NPYs: local copies for the drawing only
                first.fused_file, first.origin_file = _tensors_here(profile, first.fused_file, first.origin_file,
                                                                    folder, args.connect_timeout)
            written = [out_dir / report.REPORT_FILE, *report.write_pictures(result, out_dir, graphs)]
        finally:
            if first is not None and kept is not None:
                first.fused_file, first.origin_file = kept
    print(f"{len(result.rows)} rows; first divergence: {describe_row(first) if first else 'none'}")
    for path in written:
        print(f"Wrote {path}")
    return 0


def _tensors_here(profile: HostProfile, fused: str | None, origin: str | None, folder: Path,
                  timeout: int) -> tuple[str | None, str | None]:
    """Local copies of the first divergence's NPYs; (None, None) with a note when one cannot be copied."""
    if fused is None or origin is None:
        return fused, origin
    try:
        return (str(fetch_file(profile, fused, folder / "fused.npy", MAX_TENSOR_BYTES, timeout)),
                str(fetch_file(profile, origin, folder / "origin.npy", MAX_TENSOR_BYTES, timeout)))
    except TooLarge as exc:
        print(f"Note: no tensor pictures: {exc}", file=sys.stderr)
        return None, None
