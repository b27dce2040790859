"""`autofuse-studio hosts`: list, add, change and remove the remote build host profiles from a terminal."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from typing import Any

from autofuse_studio.cli.guard import run_guarded
from autofuse_studio.core.errors import InputError, UsageError
from autofuse_studio.core.remote.profiles import (
    HostProfile,
    load_profiles,
    profile_problems,
    profiles_path,
    save_profiles,
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


def _save_checked(profiles: list[HostProfile], profile: HostProfile) -> None:
    problems = profile_problems(profile)
    if problems:
        raise InputError(" ".join(problems))
    save_profiles(profiles)


def _index(profiles: list[HostProfile], name: str) -> int:
    for number, profile in enumerate(profiles):
        if profile.name == name:
            return number
    known = ", ".join(p.name for p in profiles) or "none saved yet"
    raise InputError(f"No host profile named '{name}' (known: {known}).")


def _describe(profile: HostProfile) -> str:
    details = [f"work_dir={profile.work_dir}", f"python={profile.python}"]
    details += [f"{key}={value}" for key, value in (("identity_file", profile.identity_file),
                                                   ("ascend_home", profile.ascend_home),
                                                   ("known_hosts_file", profile.known_hosts_file)) if value]
    return f"{profile.name}\t{profile.describe()}\t{' '.join(details)}"


def run(args: argparse.Namespace) -> int:
    """Do one action on the saved profiles; prints what changed."""
    profiles = load_profiles()
    if args.action == "list":
        for profile in profiles:
            print(_describe(profile))
        if not profiles:
            print(f"No host profiles saved yet ({profiles_path()}).", file=sys.stderr)
        return 0
    if args.action == "add":
        if any(profile.name == args.name for profile in profiles):
            raise UsageError(f"A host profile named '{args.name}' exists already; change it with `hosts set`.")
        profile = HostProfile(args.name, args.destination, **_changes(args))
        _save_checked([*profiles, profile], profile)
        print(f"Added {_describe(profile)}")
        return 0
    number = _index(profiles, args.name)
    if args.action == "remove":
        del profiles[number]
        save_profiles(profiles)
        print(f"Removed {args.name}")
        return 0
    changes = _changes(args)
    if args.destination is not None:
        changes["destination"] = args.destination
    profiles[number] = replace(profiles[number], **changes)
    _save_checked(profiles, profiles[number])
    print(f"Changed {_describe(profiles[number])}")
    return 0


def main(argv: list[str]) -> int:
    """Entry point of `autofuse-studio hosts`."""
    args = build_parser().parse_args(argv)
    return run_guarded(lambda: run(args))
