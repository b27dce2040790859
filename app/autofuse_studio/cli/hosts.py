"""`autofuse-studio hosts`: list, add, change and remove the remote build host profiles from a terminal."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from autofuse_studio.cli.guard import run_guarded
from autofuse_studio.core.errors import InputError, UsageError
from autofuse_studio.core.remote.grammar import show
from autofuse_studio.core.remote.profiles import (
    HostProfile,
    StoredEntry,
    load_entries,
    profile_from_dict,
    profiles_path,
    save_entries,
)

# Options shared by `add` and `set`: argparse destination -> HostProfile field.
_FIELDS = {"port": "port", "identity_file": "identity_file", "proxy_jump": "proxy_jump", "work_dir": "work_dir",
           "ascend_home": "ascend_home", "remote_python": "python", "known_hosts_file": "known_hosts_file"}


def _profile_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", type=int, help="ssh port (default: ssh's, usually 22)")
    parser.add_argument("--identity-file", help="private key file (default: the ssh agent / ~/.ssh keys)")
    parser.add_argument("--proxy-jump", help="jump host, [user@]host[:port] (ssh -J)")
    parser.add_argument("--work-dir", help="remote folder for builds (default /tmp/autofuse-studio)")
    parser.add_argument("--ascend-home", help="ASCEND_HOME_PATH on the host (default: the login environment's)")
    parser.add_argument("--remote-python", help="python3 on the host (default python3)")
    parser.add_argument("--known-hosts-file", help="known_hosts file to use instead of ~/.ssh/known_hosts")


def build_parser() -> argparse.ArgumentParser:
    """The `hosts` parser with its list / add / set / remove actions."""
    parser = argparse.ArgumentParser(
        prog="autofuse-studio hosts",
        description=f"Remote build host profiles for verify-tiling --host (stored in {profiles_path()}). "
                    "No passwords are stored: ssh uses keys or the agent.")
    actions = parser.add_subparsers(dest="action", required=True)
    actions.add_parser("list", help="print every profile: name, destination, options")
    add = actions.add_parser("add", help="save a new profile")
    add.add_argument("name")
    add.add_argument("destination", help="user@host or a ~/.ssh/config alias")
    _profile_options(add)
    change = actions.add_parser("set", help="change options of a saved profile")
    change.add_argument("name")
    change.add_argument("--destination", help="user@host or a ~/.ssh/config alias")
    _profile_options(change)
    remove = actions.add_parser("remove", help="delete a saved profile")
    remove.add_argument("name")
    return parser


def _changes(args: argparse.Namespace) -> dict[str, Any]:
    return {field: getattr(args, option) for option, field in _FIELDS.items() if getattr(args, option) is not None}


def _index(entries: list[StoredEntry], name: str) -> int:
    for number, entry in enumerate(entries):
        if entry.name == name:
            return number
    known = ", ".join(show(entry.name or "?") for entry in entries) or "none saved yet"
    raise InputError.of("no_host_profile", name=show(name), known=known)


def _describe(profile: HostProfile) -> str:
    details = [f"work_dir={profile.work_dir}", f"python={profile.python}"]
    details += [f"{key}={value}" for key, value in (("identity_file", profile.identity_file),
                                                   ("ascend_home", profile.ascend_home),
                                                   ("known_hosts_file", profile.known_hosts_file)) if value]
    return f"{profile.name}\t{profile.describe()}\t{' '.join(details)}"


def _list(entries: list[StoredEntry]) -> int:
    for entry in entries:
        if entry.profile is not None:
            print(_describe(entry.profile))
    broken = [entry.problem for entry in entries if entry.problem]
    for problem in broken:
        print(f"ERROR: {problem}", file=sys.stderr)
    if not entries:
        print(f"No host profiles saved yet ({profiles_path()}).", file=sys.stderr)
    return 1 if broken else 0


def _add(entries: list[StoredEntry], args: argparse.Namespace) -> int:
    if any(entry.name == args.name for entry in entries):
        raise UsageError.of("profile_exists", name=show(args.name))
    profile = profile_from_dict({"name": args.name, "destination": args.destination, **_changes(args)})
    save_entries([*entries, StoredEntry(profile.to_dict(), profile, None)])
    print(f"Added {_describe(profile)}")
    return 0


def _set(entries: list[StoredEntry], args: argparse.Namespace) -> int:
    number = _index(entries, args.name)
    changes = _changes(args)
    if args.destination is not None:
        changes["destination"] = args.destination
    raw = entries[number].raw
    # A broken entry can be repaired: the changes go onto what is stored, then the whole entry is checked.
    profile = profile_from_dict({**raw, **changes})
    entries[number] = StoredEntry(profile.to_dict(), profile, None)
    save_entries(entries)
    print(f"Changed {_describe(profile)}")
    return 0


def run(args: argparse.Namespace) -> int:
    """Do one action on the saved profiles; prints what changed."""
    entries = load_entries()
    if args.action == "list":
        return _list(entries)
    if args.action == "add":
        return _add(entries, args)
    if args.action == "remove":
        del entries[_index(entries, args.name)]
        save_entries(entries)
        print(f"Removed {args.name}")
        return 0
    return _set(entries, args)


def main(argv: list[str]) -> int:
    """Entry point of `autofuse-studio hosts`."""
    args = build_parser().parse_args(argv)
    return run_guarded(lambda: run(args))
