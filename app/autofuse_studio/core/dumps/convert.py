"""Raw and nano dump files as the NPU wrote them -> the NPYs `msaccucmp convert` writes, without CANN.

One NPY per input/output, named `{dump file's real name}.{input|output}.{i}.npy` (the name before any hashing:
mapping.csv resolved) in the same relative folder of the output. Names of 255+ characters become
`uuid3(NAMESPACE_DNS, name).hex + ".npy"` with a `new,old` line in that output folder's mapping.csv, as
msaccucmp does. Values are written as stored (device layout), bf16 / fp8 / HiFloat8 as float32 and int4 as
int8, like `msaccucmp convert` without -f; with origin_layout the header's original shape restores the
origin layout and the converted shape is appended to the name (`.{d0}x{d1}.npy`, as -f mode does).
Tensors stream block by block from the memory-mapped dump into the NPY: a big tensor is never held in memory.
A file or tensor that cannot be read is skipped and summarised in one notice per kind of problem.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import secrets
import uuid
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

import numpy as np

from autofuse_studio.core.dumps.index import MAPPING_FILE, read_mapping
from autofuse_studio.core.dumps.layout import to_origin_layout
from autofuse_studio.core.dumps.lazy import LazyTensor, iter_blocks
from autofuse_studio.core.dumps.mapped import changed_since_mapped
from autofuse_studio.core.dumps.names import parse_dump_name
from autofuse_studio.core.dumps.raw_header import RawTensor
from autofuse_studio.core.dumps.sniff import NANO, NPY, RAW, STATS_CSV, sniff_file
from autofuse_studio.core.dumps.tensors import RawRef, open_raw_tensor, read_raw_dump
from autofuse_studio.core.dumps.walk import WalkReport, walk_contained, walk_notices
from autofuse_studio.core.errors import (
    FormatConversionError,
    FormatUnsupported,
    InputError,
    NpyLoadError,
    OutputError,
)
from autofuse_studio.core.notices import Notice, clip, examples, plural, shorten
from autofuse_studio.core.progress import NEVER_CANCELLED, CancelToken, Progress, no_progress
from autofuse_studio.core.reports.atomic import atomic_write_text, check_output_folder, make_folder, output_error

# msaccucmp renames output names of this many characters or more (cmp_utils/file_utils.py).
MAX_NAME = 255
_NPY_SUFFIX = ".npy"
# Kinds of skipped work, in the order their notices are listed.
UNREADABLE_FILE = "unreadable_dump_file"
UNREADABLE_TENSOR = "unreadable_tensor"
LAYOUT_NOT_CONVERTED = "layout_not_converted"
UNRESOLVED_NAME = "unresolved_hashed_name"
_MAX_ITEMS = 1000  # notice items kept per kind (the count stays exact)


@dataclass(frozen=True)
class _Source:
    """A dump file to convert: where it is, the name it had before any hashing, its folder relative to the input."""

    path: Path
    name: str
    relative: Path


@dataclass
class ConvertResult:
    """What a conversion did: dump files found and read, tensors written and skipped, bytes, notices."""

    source: Path
    target: Path
    files_found: int = 0
    files_read: int = 0
    tensors_written: int = 0
    tensors_skipped: int = 0
    bytes_written: int = 0
    written: list[Path] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)

    @property
    def warnings(self) -> list[str]:
        """One sentence per kind of problem met."""
        return [notice.message for notice in self.notices]

    def describe(self) -> str:
        """'Converted 412 tensors from 200 dump files into OUT (1,234,567 bytes).'"""
        return (f"Converted {plural(self.tensors_written, 'tensor')} from {plural(self.files_read, 'dump file')} "
                f"into {self.target} ({self.bytes_written:,} bytes).")


def npy_name(dump_name: str, kind: str, index: int, shape: tuple[int, ...] | None = None) -> str:
    """msaccucmp's NPY name of a tensor: `{dump}.{kind}.{i}.npy`, or `{dump}.{kind}.{i}.{d0}x{d1}.npy` with a shape."""
    suffix = "" if shape is None else "." + "x".join(str(dim) for dim in shape)
    return f"{dump_name}.{kind}.{index}{suffix}{_NPY_SUFFIX}"


def short_name(name: str) -> str:
    """`name`, or `uuid3(NAMESPACE_DNS, name).hex + '.npy'` when it has MAX_NAME characters or more (msaccucmp)."""
    if len(name) < MAX_NAME:
        return name
    return uuid.uuid3(uuid.NAMESPACE_DNS, name).hex + _NPY_SUFFIX


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def check_folders(source: Path, target: Path, force: bool) -> None:
    """InputError (nothing written) when the input is not a folder, the folders overlap, or the output has files.

    The output may be neither inside the input (the NPYs would land in the dump the user chose to read) nor
    around it (mirrored sub-folders could land in the input); an output folder that already holds files is
    written into only with `force`.
    """
    if not source.exists():
        raise InputError.of("dump_folder_missing", path=source)
    if not source.is_dir():
        raise InputError.of("dump_folder_not_folder", path=source)
    real_source, real_target = os.path.realpath(source), os.path.realpath(target)
    if _inside(real_target, real_source):
        raise InputError.of("convert_output_inside_input", path=target, source=source)
    if _inside(real_source, real_target):
        raise InputError.of("convert_output_contains_input", path=target, source=source)
    if target.exists() and not target.is_dir():
        raise InputError.of("output_not_folder", path=target)
    check_output_folder(target)
    if target.is_dir() and not force:
        try:
            with os.scandir(target) as entries:
                occupied = next(entries, None) is not None
        except OSError as exc:
            raise OutputError.of("convert_output_unlistable", path=target, reason=exc.strerror or str(exc)) from None
        if occupied:
            raise InputError.of("convert_output_not_empty", path=target)


class _Problems:
    """Skipped work by kind: (where, why) pairs, summarised as one notice per kind at the end."""

    def __init__(self, source: Path) -> None:
        self.source = source
        self.items: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
        self.counts: dict[str, int] = defaultdict(int)

    def add(self, kind: str, where: str, why: str, tensor: str = "") -> None:
        """Note one skipped file (`where`, relative to the input) or one of its tensors ('output 0')."""
        self.counts[kind] += 1
        if len(self.items[kind]) < _MAX_ITEMS:
            self.items[kind].append((where, tensor, why))

    def notices(self) -> list[Notice]:
        root = shorten(str(self.source), 40)
        templates = {
            UNREADABLE_FILE: "{count} under {root} could not be read and were skipped",
            UNREADABLE_TENSOR: "{count} could not be read and were skipped",
            LAYOUT_NOT_CONVERTED: "{count} could not be brought to their origin layout and were skipped",
            UNRESOLVED_NAME: "{count} under {root} are named by a hash that no mapping.csv line resolves; their NPYs "
                             "keep the hashed name",
        }
        nouns = {UNREADABLE_FILE: "dump file", UNREADABLE_TENSOR: "tensor", LAYOUT_NOT_CONVERTED: "tensor",
                 UNRESOLVED_NAME: "dump file"}
        notices = []
        for kind, template in templates.items():
            count = self.counts.get(kind, 0)
            if not count:
                continue
            items = self.items[kind]
            text = template.format(count=plural(count, nouns[kind]), root=root)
            first = f"; first: {clip(items[0][2], 160)}" if items[0][2] else ""
            # Examples by file name: the op name is in it, the folders above are alike.
            shown = examples(f"{os.path.basename(where)} {tensor}".rstrip() for where, tensor, _ in items)
            message = f"{text} (e.g. {shown}{first})."
            names = [f"{os.path.basename(where)} {tensor}".rstrip() for where, tensor, _ in items]
            notices.append(Notice(kind, message, count, [{"path": where, "tensor": tensor, "reason": why}
                                                         for where, tensor, why in items],
                                  params={"root": root, "names": names}))
        return notices


def _is_hash(name: str) -> bool:
    return name.isascii() and name.isdigit()


def _sources(source: Path, progress: Progress, cancel: CancelToken,
             problems: _Problems) -> tuple[list[_Source], list[Notice], int]:
    """Every raw or nano dump file under `source` (by name; hashed names by content), the walk's notices, NPYs seen."""
    report, found, npys = WalkReport(), [], 0
    notices: list[Notice] = []
    for folder, names in walk_contained(source, progress, cancel, report):
        mapping = read_mapping(folder / MAPPING_FILE, notices) if MAPPING_FILE in names else {}
        relative = folder.relative_to(source)
        for name in sorted(names):
            real = mapping.get(name, name)
            npys += name.endswith(_NPY_SUFFIX)
            if parse_dump_name(real) is not None:
                # Named like a dump: converted, or reported when unreadable (a truncated or hostile file).
                if sniff_file(folder / name) not in (NPY, STATS_CSV):
                    found.append(_Source(folder / name, real, relative))
            elif _is_hash(real) and sniff_file(folder / name) in (RAW, NANO):
                # CANN wrote a long name as its hash but no mapping.csv line says which: keep the hash.
                problems.add(UNRESOLVED_NAME, str(relative / name), "")
                found.append(_Source(folder / name, real, relative))
    return found, notices + walk_notices(source, report), npys


def _header_bytes(tensor: LazyTensor) -> bytes:
    """The NPY header np.save writes for an array of the tensor's dtype and shape (format 1.0, 2.0 if needed)."""
    header = {"descr": np.lib.format.dtype_to_descr(tensor.dtype), "fortran_order": False, "shape": tensor.shape}
    buffer = io.BytesIO()
    try:
        np.lib.format.write_array_header_1_0(buffer, header)
    except ValueError:  # a header over 64 KB: only format 2.0 can hold it
        buffer = io.BytesIO()
        np.lib.format.write_array_header_2_0(buffer, header)
    return buffer.getvalue()


@contextlib.contextmanager
def _atomic_file(target: Path) -> Iterator[BinaryIO]:
    """A new file beside `target` that replaces it once written (OSError -> OutputError naming `target`).

    atomic_open names its temp file after the target, which passes the 255-byte limit for dump names of
    about 240 characters; the temp name here is short. O_EXCL with mode 0o666 lets the umask apply as
    for any plain open().
    """
    while True:
        temp = target.parent / f".afs-convert-{secrets.token_hex(6)}.tmp"
        try:
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
            break
        except FileExistsError:
            continue
        except OSError as exc:
            raise output_error(target, exc) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        if exc.filename in (None, str(temp), str(target)):
            raise output_error(target, exc) from None
        raise
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


def write_npy(target: Path, tensor: LazyTensor, cancel: CancelToken = NEVER_CANCELLED) -> int:
    """Write `tensor` as an NPY file atomically, block by block; returns the bytes written."""
    header = _header_bytes(tensor)
    written = len(header)
    with _atomic_file(target) as handle:
        handle.write(header)
        for block in iter_blocks(tensor):
            cancel.check()
            try:
                handle.write(np.ascontiguousarray(block).data)
            except OSError as exc:  # write() from a mapping past a shrunk file's end fails with EFAULT
                changed = changed_since_mapped(tensor.view) if exc.errno == errno.EFAULT else None
                if changed is None:
                    raise
                raise NpyLoadError(f"{changed}.") from None
            written += block.nbytes
        changed = changed_since_mapped(tensor.view)  # a dump that shrank meanwhile read as zeros: not written
        if changed is not None:
            raise NpyLoadError(f"{changed}.")
    return written


class _Converter:
    """Converts dump files one by one into the output tree, keeping counts, notices and mapping.csv lines."""

    def __init__(self, result: ConvertResult, origin_layout: bool, problems: _Problems,
                 cancel: CancelToken) -> None:
        self.result, self.origin_layout, self.problems, self.cancel = result, origin_layout, problems, cancel
        self.real_target = os.path.realpath(result.target)
        self.ready: set[Path] = set()

    def folder(self, relative: Path) -> Path:
        """The output folder for a relative input folder, created, and checked to stay inside the output."""
        folder = self.result.target / relative
        if folder not in self.ready:
            if not _inside(os.path.realpath(folder), self.real_target):
                raise OutputError.of("convert_link_outside", path=folder, target=self.result.target)
            make_folder(folder)
            self.ready.add(folder)
        return folder

    def convert_file(self, item: _Source, mapping_lines: list[str]) -> None:
        """Write every readable input and output of one dump file."""
        where = str(item.relative / item.path.name)
        try:
            dump = read_raw_dump(item.path)
        except NpyLoadError as exc:
            self.problems.add(UNREADABLE_FILE, where, str(exc))
            return
        self.result.files_read += 1
        for tensor in dump.tensors:
            self.cancel.check()
            self.convert_tensor(item, tensor, where, mapping_lines)

    def convert_tensor(self, item: _Source, tensor: RawTensor, where: str, mapping_lines: list[str]) -> None:
        """Write one tensor, or note why it was skipped."""
        label = f"{tensor.kind} {tensor.index}"
        if tensor.problem is not None:
            self._skip(UNREADABLE_TENSOR, where, tensor.problem, label)
            return
        try:
            lazy, layout = open_raw_tensor(RawRef(os.fspath(item.path), tensor.kind, tensor.index), merge_ffts=False)
            if self.origin_layout:
                lazy, _ = to_origin_layout(lazy, layout, None)
        except NpyLoadError as exc:
            self._skip(UNREADABLE_TENSOR, where, str(exc), label)
            return
        except (FormatUnsupported, FormatConversionError) as exc:
            self._skip(LAYOUT_NOT_CONVERTED, where, str(exc), label)
            return
        name = npy_name(item.name, tensor.kind, tensor.index, lazy.shape if self.origin_layout else None)
        file_name = short_name(name)
        target = self.folder(item.relative) / file_name
        try:
            written = write_npy(target, lazy, self.cancel)
        except NpyLoadError as exc:
            self._skip(UNREADABLE_TENSOR, where, str(exc), label)
            return
        if file_name != name:
            mapping_lines.append(f"{file_name},{name}")
        self.result.bytes_written += written
        self.result.tensors_written += 1
        self.result.written.append(target)

    def _skip(self, kind: str, where: str, why: str, label: str) -> None:
        self.problems.add(kind, where, why, label)
        self.result.tensors_skipped += 1

    def write_mapping(self, relative: Path, lines: list[str]) -> None:
        """Add `lines` to the output folder's mapping.csv (kept lines first, no line twice), atomically."""
        if not lines:
            return
        path = self.folder(relative) / MAPPING_FILE
        kept: list[str] = []
        # A link in the output is replaced, never followed: its target may lie outside the output folder.
        if path.is_file() and not path.is_symlink():
            try:
                kept = path.read_text(encoding="utf-8", errors="replace").splitlines()
            except OSError as exc:
                raise output_error(path, exc) from None
        merged = list(dict.fromkeys([line for line in kept if line.strip()] + lines))
        atomic_write_text(path, "\n".join(merged) + "\n")


def convert_dumps(source: str | Path, target: str | Path, *, origin_layout: bool = False, force: bool = False,
                  progress: Progress = no_progress, cancel: CancelToken = NEVER_CANCELLED) -> ConvertResult:
    """Write the msaccucmp NPYs of every raw and nano dump file under `source` into `target` (mirrored folders).

    InputError before anything is written when the folders are wrong (see check_folders) or `source` holds no
    dump file; unreadable files and tensors are skipped and summarised in the result's notices.
    """
    source, target = Path(source), Path(target)
    check_folders(source, target, force)
    result = ConvertResult(source, target)
    problems = _Problems(source)
    sources, walk_notices, npys = _sources(source, progress, cancel, problems)
    result.files_found = len(sources)
    if not sources:
        if npys:
            raise InputError.of("convert_only_npy" if npys == 1 else "convert_only_npys", path=source, count=npys)
        raise InputError.of("convert_no_dumps", path=source)
    converter = _Converter(result, origin_layout, problems, cancel)
    by_folder: dict[Path, list[_Source]] = defaultdict(list)
    for item in sources:
        by_folder[item.relative].append(item)
    done = 0
    for relative, items in by_folder.items():
        lines: list[str] = []
        try:
            for item in items:
                cancel.check()
                progress(done, len(sources), f"Converting {item.relative / item.path.name}")
                converter.convert_file(item, lines)
                done += 1
        finally:
            # Also when cancelled: the hashed NPYs already written stay resolvable.
            converter.write_mapping(relative, lines)
    progress(done, len(sources), "Converted")
    result.notices = walk_notices + problems.notices()
    return result
