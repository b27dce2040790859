"""`nwa --scheduler`: the cluster options of `nwa` and the run on a Dask cluster (figures on stderr only)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from autofuse_studio.cli.progress import terminal_progress
from autofuse_studio.core.precision.engine import Mode1Request
from autofuse_studio.core.precision.rows import PrecisionResult

if TYPE_CHECKING:  # the cluster modules are imported only when --scheduler is used
    from autofuse_studio.core.cluster.run import ClusterOptions


def add_cluster_options(parser: argparse.ArgumentParser) -> None:
    """--scheduler, --path-map, --path-map-file and the TLS files (docs/scale-out.md)."""
    group = parser.add_argument_group("Dask cluster (pip install 'autofuse-studio[cluster]', docs/scale-out.md)")
    group.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                       help="compare on the Dask cluster of this scheduler (tcp:// or tls://), each pair on a "
                       "worker that sees its dump files; the output is the local run's")
    group.add_argument("--path-map", action="append", default=[], metavar="WORKER:CLIENT_PREFIX=LOCAL_PREFIX",
                       help="where a worker (its --name or host, * for all) sees the dump folders given here "
                       "(repeatable)")
    group.add_argument("--path-map-file", metavar="FILE", help="path map entries, one WORKER:CLIENT=LOCAL per line")
    group.add_argument("--tls-ca-file", metavar="FILE", help="tls:// scheduler: the PEM file of the CA that signed "
                       "the cluster's certificates")
    group.add_argument("--tls-cert", metavar="FILE", help="tls:// scheduler: this client's PEM certificate")
    group.add_argument("--tls-key", metavar="FILE", help="tls:// scheduler: this client's PEM key (not needed "
                       "when the certificate file holds it)")


def cluster_options(args: argparse.Namespace) -> ClusterOptions | None:
    """The checked ClusterOptions when --scheduler is given (None otherwise); usage errors before any work."""
    tls_given = any(getattr(args, name, None) for name in ("tls_ca_file", "tls_cert", "tls_key"))
    if not getattr(args, "scheduler", None):
        from autofuse_studio.core.errors import UsageError

        if getattr(args, "path_map", None) or getattr(args, "path_map_file", None):
            raise UsageError("--path-map and --path-map-file need --scheduler (they say where its workers see "
                             "the dump folders).")
        if tls_given:
            raise UsageError("--tls-ca-file, --tls-cert and --tls-key need --scheduler tls://HOST:PORT (they say "
                             "how to reach it).")
        return None
    from autofuse_studio.core.cluster.address import parse_scheduler_address, require_distributed
    from autofuse_studio.core.cluster.pathmap import load_path_map
    from autofuse_studio.core.cluster.run import ClusterOptions
    from autofuse_studio.core.cluster.tls import TlsFiles, dask_security

    address = parse_scheduler_address(args.scheduler)
    path_map = load_path_map(args.path_map, args.path_map_file)
    require_distributed()
    tls = TlsFiles(args.tls_ca_file, args.tls_cert, args.tls_key) if tls_given else None
    dask_security(address, tls)  # tls:// without certificates, tcp:// with them, unusable files: a sentence now
    return ClusterOptions(address, path_map, tls=tls)


def run_on_cluster(request: Mode1Request, options: ClusterOptions) -> PrecisionResult:
    """Run on the cluster with progress in tasks on stderr; Ctrl-C cancels every submitted task."""
    from autofuse_studio.core.cluster.run import run_cluster

    run = run_cluster(request, options, progress=terminal_progress())
    stats = run.stats
    for note in stats.notes:
        print(f"WARNING: {note}", file=sys.stderr)
    print(f"Cluster {options.scheduler}: {stats.workers} workers, {stats.tasks} tasks, {stats.pairs} pairs compared, "
          f"{stats.result_bytes / 1024:.1f} KiB of results sent back ({stats.bytes_per_pair:.0f} bytes per pair)",
          file=sys.stderr)
    return run.result
