"""Field-shaped dressing for generated ATT logs: slog/plog prefixes, noise lines and exponent numbers."""

from __future__ import annotations

import random
from decimal import Decimal

# Prefix styles (SyntheticShape.prefix): how each line of a field log starts.
LEGACY = "legacy"  # the original generator: fixed noise line, records without prefix
NONE = "none"  # no prefix at all, noise lines are bare messages
GE = "ge"  # every line `[INFO] GE(pid,python):timestamp [file:line]pid `, as CANN slog prints it
MIXED = "mixed"  # levels, modules and files vary per line, a few lines have no prefix
PREFIX_STYLES = (LEGACY, NONE, GE, MIXED)

_LEVELS = ("INFO", "INFO", "INFO", "DEBUG", "WARNING", "ERROR", "EVENT")
_MODULES = ("GE", "GE", "FE", "TEFUSION", "ASCENDCL", "RUNTIME", "AUTOFUSE", "HCCL")
_FILES = ("tiling_log.cc", "tiling_func.cc", "graph_optimizer.cc", "schedule_result.cpp", "model_info_gen.cc",
          "ascgen_log.h")
# Message bodies of the noise lines, several with bracket tags and ATT-looking words that are no markers.
_BODIES = (
    "Set input params for tiling case of AscGraph. S0 = {n}. S1 = 512.",
    "[AutoFuse] schedule group {n} begin, node count 12, [Load_0] [Store_1] [Add_2]",
    "ub size = 196608, core num = 48, block dim = {n}",
    "[{op}] try tiling case 2 of graph0_result0_g1 with s0t_size = {n}",
    "[{op}][TilingData] The value of ub_size is {n} before alignment",
    "Among the candidates [{n}] [{n}] [a] [b] none is final yet",
    "[GraphOpt][Fusion][{op}] pass AutofuseLowering took {n} us",
    "[{op}] PROF PERF DFX ATT words without brackets, value {n}e-3",
)


def exponent_form(value: float, variant: int) -> str:
    """`value` written with an exponent (`1.2345e3`, `1.2345E+03`, `12345e-1`), parsing to the very same float."""
    digits = Decimal(repr(value))
    exponent = digits.adjusted()
    if variant % 3 == 0:
        return f"{digits.scaleb(-exponent)}e{exponent}"
    if variant % 3 == 1:
        return f"{digits.scaleb(-exponent)}E{exponent:+03d}"
    places = -int(digits.as_tuple().exponent)  # an integer mantissa: 1234.5 -> 12345e-1
    return f"{digits.scaleb(places)}e{-places}"

class FieldDress:
    """Random but reproducible prefixes and noise lines for one generated log."""

    def __init__(self, style: str, noise_width: int, seed: int) -> None:
        if style not in PREFIX_STYLES:
            raise ValueError(f"unknown prefix style {style!r}; one of {', '.join(PREFIX_STYLES)}")
        self.style = style
        self.rng = random.Random(seed)
        self.pad = " " + "x" * noise_width if noise_width else ""
        # A pool of prefixes drawn once: drawing one per line made a 140 MB log take a minute to write.
        self._prefixes = [self._draw_prefix() for _ in range(997)]
        self._turn = 0

    def _draw_prefix(self) -> str:
        rng = self.rng
        if self.style in (NONE, LEGACY):
            return ""
        pid = rng.randint(1000, 99999)
        stamp = (f"2026-01-{rng.randint(1, 28):02d}-{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:"
                 f"{rng.randint(0, 59):02d}.{rng.randint(0, 999):03d}.{rng.randint(0, 999):03d}")
        if self.style == GE:
            return f"[INFO] GE({pid},python):{stamp} [tiling_log.cc:{rng.randint(1, 2000)}]{pid} "
        if rng.random() < 0.1:
            return ""
        level, module, file = rng.choice(_LEVELS), rng.choice(_MODULES), rng.choice(_FILES)
        thread = f"{pid}" if rng.random() < 0.5 else f"{pid},{rng.choice(('python', 'ge_compile', 'tbe'))}"
        return f"[{level}] {module}({thread}):{stamp} [{file}:{rng.randint(1, 9999)}]{rng.randint(1000, 99999)} "

    def prefix(self) -> str:
        """The next line prefix ('' for the legacy and none styles)."""
        self._turn += 1
        return self._prefixes[self._turn % len(self._prefixes)]

    def noise(self, count: int, op: str) -> list[str]:
        """`count` noise lines (each with a prefix and the padding), none of them an ATT record."""
        rng = self.rng
        return [f"{self.prefix()}{rng.choice(_BODIES).format(n=rng.randint(0, 4096), op=op)}{self.pad}\n"
                for _ in range(count)]
