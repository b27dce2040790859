"""`nwa --scheduler`: the cluster options of `nwa` and the run on a Dask cluster (figures on stderr only)."""

from __future__ import annotations

import argparse
import sys

from autofuse_studio.core.errors import UsageError
from autofuse_studio.core.run.events import RunOutcome
from autofuse_studio.core.run.spec import OnCluster


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


def where_on_cluster(args: argparse.Namespace) -> OnCluster | None:
    """The spec's cluster when --scheduler is given (None otherwise); usage errors before any work."""
    tls_given = any(getattr(args, name, None) for name in ("tls_ca_file", "tls_cert", "tls_key"))
    if not getattr(args, "scheduler", None):
        if getattr(args, "path_map", None) or getattr(args, "path_map_file", None):
            raise UsageError.of("path_map_needs_scheduler")
        if tls_given:
            raise UsageError.of("tls_needs_scheduler")
        return None
    if getattr(args, "host", None):
        raise UsageError.of("host_or_scheduler")
    return OnCluster(args.scheduler, tuple(args.path_map), args.path_map_file, args.tls_ca_file, args.tls_cert,
                     args.tls_key)


def print_cluster_figures(outcome: RunOutcome) -> None:
    """A cluster run's notes and figures on stderr (nothing for other runs): stdout stays the local run's."""
    stats = outcome.stats
    if stats is None:
        return
    for note in stats.notes:
        print(f"WARNING: {note}", file=sys.stderr)
    print(f"Cluster {stats.scheduler}: {stats.workers} workers, {stats.tasks} tasks, {stats.pairs} pairs compared, "
          f"{stats.result_bytes / 1024:.1f} KiB of results sent back ({stats.bytes_per_pair:.0f} bytes per pair)",
          file=sys.stderr)
