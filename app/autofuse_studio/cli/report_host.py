"""`report --host NAME`: compare on the host, then draw here from the rows, the two graphs and two NPYs fetched.

Only what the pictures need travels: the rows (as for `nwa --host`), both graph files, and the two tensors of
the first divergence (up to MAX_TENSOR_BYTES each; bigger ones skip the tensor pictures with a note).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from autofuse_studio.core.precision.rows import PrecisionResult
from autofuse_studio.core.remote.fetch import MAX_TENSOR_BYTES, TooLarge, fetch_file
from autofuse_studio.core.remote.profiles import HostProfile
from autofuse_studio.core.run.spec import OnHost, RunSpec

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


def host_pictures(result: PrecisionResult, spec: RunSpec, out_dir: Path) -> list[Path]:
    """The report's pictures of a host run, drawn here from copies of its two graphs and first-divergence tensors."""
    from autofuse_studio.cli.report_pictures import write_pictures
    from autofuse_studio.core.remote.profiles import find_profile

    assert isinstance(spec.where, OnHost)
    profile, timeout = find_profile(spec.where.host), spec.where.connect_timeout
    with tempfile.TemporaryDirectory(prefix="report-host-") as scratch:
        folder = Path(scratch)
        first = result.first_divergence  # without one there is no graph picture: nothing to copy
        graphs = None if first is None else GraphsHere(profile, str(spec.af_open_graph), str(spec.af_close_graph),
                                                         folder, timeout)
        kept = None if first is None else (first.fused_file, first.origin_file)
        try:
            if first is not None:  # the tensor panel reads the two NPYs: local copies for the drawing only
                first.fused_file, first.origin_file = _tensors_here(profile, first.fused_file, first.origin_file,
                                                                    folder, timeout)
            return write_pictures(result, out_dir, graphs)
        finally:
            if first is not None and kept is not None:
                first.fused_file, first.origin_file = kept


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
