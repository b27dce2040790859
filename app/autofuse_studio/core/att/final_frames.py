"""Collects FINAL_TILING lines of one file: single records, framed records and summaries."""

from __future__ import annotations

from autofuse_studio.core.att.final_tiling import (
    MARKERS,
    PendingFrame,
    build_record,
    build_summary,
    frame_problem,
    parse_envelope,
)
from autofuse_studio.core.att.model import FinalTiling, FinalTilingSummary, SourceRef

INCOMPLETE = "incomplete_final_tiling"
DUPLICATE = "duplicate_final_tiling"


class FinalTilingCollector:
    """Feed it every line holding `[ATT][FINAL_TILING`; call finish() at end of file."""

    def __init__(self) -> None:
        self.records: list[FinalTiling] = []
        self.summaries: list[FinalTilingSummary] = []
        self._open: dict[str, PendingFrame] = {}

    def feed(self, text: str, source: SourceRef) -> None:
        """Handle one line that contains a FINAL_TILING marker."""
        for marker in MARKERS:
            index = text.find(marker)
            if index >= 0:
                kind = marker[len("[ATT][FINAL_TILING"):-1]  # "", "_BEGIN", "_SUMMARY_CHUNK", ...
                fields = parse_envelope(text[index + len(marker):])
                self._dispatch(kind, fields, source)
                return

    def _dispatch(self, kind: str, fields: dict[str, str], source: SourceRef) -> None:
        summary = kind.startswith("_SUMMARY")
        step = kind.removeprefix("_SUMMARY")
        if step == "":
            if summary:
                self.summaries.append(build_summary(fields, fields.get("groups"), source))
            else:
                self.records.append(build_record(fields, fields.get("tiling_repr"), source))
        elif step == "_BEGIN":
            frame_id = fields.get("id")
            if frame_id:
                if frame_id in self._open:
                    self._close_incomplete(self._open.pop(frame_id), None)
                self._open[frame_id] = PendingFrame(fields, source, summary)
        elif step == "_CHUNK":
            frame = self._open.get(fields.get("id", ""))
            if frame is not None:
                # Duplicated or reordered chunks spoil the record: seq must count up from 0.
                if _seq(fields) != len(frame.chunks):
                    frame.bad = True
                frame.chunks.append(fields.get("data", ""))
        elif step == "_END":
            frame = self._open.pop(fields.get("id", ""), None)
            if frame is not None:
                self._close(frame, fields)

    def _close(self, frame: PendingFrame, end: dict[str, str]) -> None:
        problem = "bad chunk order" if frame.bad else frame_problem(frame.fields, end, frame.chunks)
        payload = "".join(frame.chunks)
        if problem is not None:
            self._close_incomplete(frame, end.get("hash"))
            return
        if frame.summary:
            self.summaries.append(build_summary(frame.fields, payload, frame.origin))
            return
        record = build_record(frame.fields, payload, frame.origin)
        if record.status == "ok" and record.tiling_repr is None and payload:
            record.status = INCOMPLETE  # payload neither JSON nor a raw full_json string
        record.repr_hash = frame.fields.get("hash") if record.status == "ok" else record.repr_hash
        self.records.append(record)

    def _close_incomplete(self, frame: PendingFrame, claimed_hash: str | None) -> None:
        if frame.summary:
            self.summaries.append(build_summary(frame.fields, None, frame.origin, complete=False))
            return
        record = build_record(frame.fields, None, frame.origin)
        record.status, record.tiling_repr, record.repr_hash = INCOMPLETE, None, claimed_hash
        self.records.append(record)

    def finish(self) -> tuple[list[FinalTiling], list[FinalTilingSummary]]:
        """Close unfinished frames, mark duplicates, and return records sorted by source line."""
        for frame in list(self._open.values()):
            self._close_incomplete(frame, None)
        self._open.clear()
        self.records.sort(key=lambda r: r.origin.line)
        self.summaries.sort(key=lambda r: r.origin.line)
        seen: set[tuple[object, ...]] = set()
        for record in self.records:
            # One chosen tiling per (operator, graph, result, group): later ok records are duplicates.
            identity = (record.operator, record.graph, record.result, record.group)
            if record.status != "ok":
                continue
            if identity in seen:
                record.status = DUPLICATE
            seen.add(identity)
        return self.records, self.summaries


def _seq(fields: dict[str, str]) -> int | None:
    try:
        return int(fields.get("seq", ""))
    except ValueError:
        return None
