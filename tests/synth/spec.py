"""CaseSpec: the knobs of a synthetic af-open/af-close case, and the three stock specs."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

# Realistic traits of real Build graphs and dumps; they never make a row UNKNOWN on their own.
REALISM_FEATURES = frozenset(
    {
        "nc1hwc0",  # Conv2D producer with 5HD output; a fused 5HD output with C % 16 != 0, garbage padding
        "fractal_nz",  # a fused FRACTAL_NZ output with garbage padding
        "bf16",  # a bf16 fused output saved as a void 'V2' NPY on the af-open side
        "stale_duplicate",  # one fused op dumped twice; the older dump holds stale garbage
        "long_name",  # an original op whose NPY name exceeds 255 chars -> uuid name + mapping.csv
        "subgraph",  # a PartitionedCall whose subgraph holds fused ops
        "softmax",  # Exp fused op -> ReduceSum (not fused) -> RealDiv fused op
        "multi_output",  # a fused op with two outputs
        "control_edges",  # "x:-1" control inputs
        "nan_inf",  # NaN and Inf values (identical on both sides)
        "int32",  # an int32 fused output
    }
)

# Defects that produce every non-OK status of the reference vocabulary.
DEFECT_FEATURES = frozenset(
    {
        "no_mapping",  # fused output without _datadump_origin_* attrs -> NO_MAPPING
        "missing_npy",  # fused output NPY absent -> FILE_NOT_FOUND
        "garbage_npy",  # fused output NPY is random bytes -> NPY_LOAD_ERROR
        "pickle_npy",  # fused output NPY is a pickled object array -> NPY_LOAD_ERROR
        "format_unsupported",  # FRACTAL_ZN_LSTM vs ND -> FORMAT_UNSUPPORTED
        "bad_5hd",  # NC1HWC0 layout on a 4-D array -> FORMAT_CONVERSION_ERROR
        "dtype_cast",  # float32 fused output vs float16 original -> DTYPE_CAST
        "shape_flattened",  # same size, other shape -> SHAPE_FLATTENED
        "shape_mismatch",  # other size -> SHAPE_MISMATCH
        "empty",  # zero-element tensors -> COMPUTE_ERROR
    }
)

ALL_FEATURES = REALISM_FEATURES | DEFECT_FEATURES
DTYPES = ("float16", "float32")
SIDES = ("af_open", "af_close")
# Where each rank's and step's NPYs go: the CANN tree, or msprobe-style rank folders around the step folders.
LAYOUTS = ("standard", "rank_first", "step_first")


@dataclass(frozen=True)
class CaseSpec:
    """Knobs of a synthetic case; total fused ops = n_fused (main chains) + one or two per feature."""

    seed: int = 0
    n_fused: int = 8  # fused ops on the main chains
    elements: int = 1024  # elements of every main-chain tensor
    dtype: str = "float16"  # network dtype of the main chains
    steps: int = 1  # dump steps ("0", "1", ...)
    chains: int = 1  # parallel main chains; merges link them
    culprit: int | None = None  # main-chain fused op (creation order) computed with a wrong constant
    culprit_cosine: float = 0.9  # cosine of the culprit's output against the af-close value
    features: frozenset[str] = field(default_factory=frozenset)
    description: str = "synthetic af-open/af-close case"
    # Multi-rank knobs (data-parallel training: every rank has its own data and dump folder).
    ranks: int = 1  # device ids 0..ranks-1
    culprit_ranks: tuple[int, ...] | None = None  # ranks whose culprit op computes wrong; None: every rank
    layout: str = "standard"  # see LAYOUTS
    rank_folder: str = "rank{rank}"  # rank folder name outside the standard tree (rank_0, device{rank}, npu{rank})
    step_folder: str = "{step}"  # step folder name outside the standard tree ("step{step}" for msprobe)
    missing_ranks: tuple[tuple[str, int], ...] = ()  # (side, rank) whose dump is not written
    runs: int = 1  # {time} runs per rank; older runs hold other data and (a trap) newer file timestamps
    loop_occurrences: int = 1  # >1: one main-chain fused op is dumped this many times per step on both sides
    loop_extra_dump: bool = False  # the looped op gets one more (stale) dump on af-open: counts differ

    def __post_init__(self) -> None:
        """Reject knob values the generator cannot honour."""
        unknown = set(self.features) - ALL_FEATURES
        if unknown:
            raise ValueError(f"unknown synth features: {sorted(unknown)}")
        if self.dtype not in DTYPES:
            raise ValueError(f"dtype must be one of {DTYPES}, not {self.dtype!r}")
        if self.n_fused < 1 or self.elements < 1 or self.steps < 1 or self.chains < 1:
            raise ValueError("n_fused, elements, steps and chains must all be at least 1")
        if self.culprit is not None and not 0 <= self.culprit < self.n_fused:
            raise ValueError(f"culprit {self.culprit} is not a main-chain fused op (0..{self.n_fused - 1})")
        if not 0.0 < self.culprit_cosine < 0.99:
            raise ValueError("culprit_cosine must lie in (0, 0.99) so that the culprit fails")
        self._check_rank_knobs()

    def _check_rank_knobs(self) -> None:
        if self.ranks < 1 or self.runs < 1 or self.loop_occurrences < 1:
            raise ValueError("ranks, runs and loop_occurrences must all be at least 1")
        if self.layout not in LAYOUTS:
            raise ValueError(f"layout must be one of {LAYOUTS}, not {self.layout!r}")
        if "{rank}" not in self.rank_folder or "{step}" not in self.step_folder:
            raise ValueError("rank_folder needs {rank} and step_folder needs {step}")
        bad = [rank for rank in self.culprit_ranks or () if not 0 <= rank < self.ranks]
        bad += [rank for side, rank in self.missing_ranks if side not in SIDES or not 0 <= rank < self.ranks]
        if bad:
            raise ValueError(f"ranks {bad} are not among 0..{self.ranks - 1} (or the side is not af_open/af_close)")
        if self.loop_occurrences > 1 and self.culprit == 0:
            raise ValueError("the looped op is the first main-chain op, so the culprit must be another one")

    def has_culprit(self, rank: int) -> bool:
        """True when the culprit op computes wrong on `rank`."""
        return self.culprit is not None and (self.culprit_ranks is None or rank in self.culprit_ranks)

    def writes(self, side: str, rank: int) -> bool:
        """True when `side` has a dump of `rank`."""
        return (side, rank) not in self.missing_ranks

    def has(self, feature: str) -> bool:
        """True when the feature is switched on."""
        return feature in self.features


def multi_rank_spec(ranks: int = 4, culprit_rank: int = 2, **knobs: Any) -> CaseSpec:
    """Data-parallel training: `ranks` ranks with their own data, the culprit computes wrong on one rank only."""
    spec = CaseSpec(seed=31, n_fused=6, elements=512, dtype="float16", steps=2, chains=2, culprit=3, ranks=ranks,
                    culprit_ranks=(culprit_rank,),
                    description=f"{ranks} ranks, a wrong constant in one fused op on rank {culprit_rank} only")
    return replace(spec, **knobs)


def demo_spec() -> CaseSpec:
    """The bundled demo: small, two steps, every verdict, layouts, bf16, subgraph, long names."""
    return CaseSpec(
        seed=2024,
        n_fused=8,
        elements=768,
        dtype="float16",
        steps=2,
        chains=2,
        culprit=3,
        features=REALISM_FEATURES | {"no_mapping", "missing_npy", "dtype_cast", "shape_flattened"},
        description="Autofuse Studio demo: a wrong constant in one fused op, propagated downstream",
    )


def full_coverage_spec() -> CaseSpec:
    """For end-to-end tests: every status, every verdict, two steps."""
    return CaseSpec(
        seed=7,
        n_fused=8,
        elements=600,
        dtype="float16",
        steps=2,
        chains=2,
        culprit=3,
        features=ALL_FEATURES,
        description="full coverage: every status and verdict of the precision comparison",
    )


def bench_spec(n_fused: int = 300, elements: int = 260_000) -> CaseSpec:
    """Mode-1 benchmark: n_fused fp16 fused ops of `elements` each on short chains, one culprit."""
    # Short chains (about six fused ops deep): over hundreds of nonlinear ops the legitimate fp16
    # noise would grow chaotically and the culprit's error would fade and re-cross the threshold,
    # which would look like extra culprits.
    chains = max(1, n_fused // 6)
    return CaseSpec(
        seed=11,
        n_fused=n_fused,
        elements=elements,
        dtype="float16",
        steps=1,
        chains=chains,
        culprit=max(0, n_fused - 3 * chains),
        features=frozenset(),
        description=f"benchmark: {n_fused} fused ops x {elements} fp16 elements",
    )
