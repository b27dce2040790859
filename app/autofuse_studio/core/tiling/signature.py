"""Read the AutofuseTiling signature from the C++ sources and check it against the JSON abi before compiling."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

_COMMENT_RE = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)
# A declaration or definition (a return type before the name), not a call such as `AutofuseTiling(&t, ...)`.
_DECL_RE = re.compile(r"\b(?:u?int64_t|u?int32_t|int|long|long\s+long)\s+AutofuseTiling\s*\(([^)]*)\)")


@dataclass(frozen=True)
class Signature:
    """What the source declares: dynamic dims, pointer widths and the tail (tf or inductor)."""

    file: str
    line: int
    dims: int
    workspace_width: int
    block_dim_width: int
    tail: str  # "tf" (aiv_num, ub_size), "inductor" (stream pointer) or "unknown"

    @property
    def where(self) -> str:
        """file:line of the declaration."""
        return f"{self.file} line {self.line}"


def _width(param: str) -> int:
    return 64 if ("64" in param or "long" in param or "size_t" in param) else 32


def _parse(params_text: str) -> tuple[int, int, int, str] | None:
    params = [" ".join(p.split()) for p in params_text.split(",") if p.strip()]
    pointers = [i for i, p in enumerate(params) if "*" in p]
    if not pointers or pointers[0] + 2 >= len(params):
        return None
    first = pointers[0]
    workspace, block_dim = params[first + 1], params[first + 2]
    tail = params[first + 3:]
    if len(tail) == 2 and all("*" not in p for p in tail):
        kind = "tf"
    elif len(tail) == 1 and "*" in tail[0]:
        kind = "inductor"
    else:
        kind = "unknown"
    return first, _width(workspace), _width(block_dim), kind


def find_signature(files: dict[str, str]) -> Signature | None:
    """The first AutofuseTiling declaration in the .cpp/.h files (sorted by name), or None."""
    for name in sorted(files):
        text = files[name]
        # Blank comments out but keep newlines so line numbers stay right.
        clean = _COMMENT_RE.sub(lambda m: "\n" * m.group(0).count("\n"), text)
        for match in _DECL_RE.finditer(clean):
            parsed = _parse(match.group(1))
            if parsed is not None:
                line = clean.count("\n", 0, match.start()) + 1
                return Signature(name, line, *parsed)
    return None


def signature_problems(sig: Signature, scene: str, abi: dict[str, Any]) -> list[str]:
    """Every disagreement between the declared signature, the scene and the JSON abi."""
    problems = []
    shape_dims = abi.get("shape_dims")
    if isinstance(shape_dims, int) and sig.dims != shape_dims:
        problems.append(f"AutofuseTiling in {sig.where} takes {sig.dims} dynamic dim(s) but abi.shape_dims = "
                        f"{shape_dims}: calling it would pass the wrong arguments.")
    width = abi.get("block_dim_width")
    if width in (32, 64) and sig.block_dim_width != width:
        problems.append(f"AutofuseTiling in {sig.where} writes a {sig.block_dim_width}-bit block_dim but "
                        f"abi.block_dim_width = {width}.")
    if sig.tail != "unknown" and sig.tail != scene:
        expected = "(..., uint32_t aiv_num, uint32_t ub_size)" if sig.tail == "tf" else "(..., void* stream)"
        problems.append(f"AutofuseTiling in {sig.where} has the {sig.tail} ABI {expected} but the scene is {scene}.")
    return problems
