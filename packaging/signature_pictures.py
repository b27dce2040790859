"""The pictures of docs/signatures.md: one pair per signature code, shown in the tensor panel offscreen.

For each code the pair generator of the tests (tests/core/signature_cases.py) builds a small 2-D pair with that
fault (unclassified: a multiplicative noise no check names), core signs it, and the tensor panel shows it as the
GUI shows a signed CULPRIT row: the heatmaps with the signature's place outlined for codes that have one, the
histograms (with the sorted-values inset for a permutation) for the others. Each is saved as
docs/images/signature-<code>.png at SIZE, palette-reduced. `python packaging/signature_pictures.py [code ...]`.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from qt_waits import pause, wait_for

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the pair generator is test support (tests/core), not in the product
IMAGES = ROOT / "docs" / "images"
SIZE = (960, 700)
SHAPE = (24, 64)
# The tab that shows a code best: the heatmaps outline a place; the histograms show a value-wide fault.
HEATMAP_CODES = ("nonfinite_introduced", "overflow", "underflow", "tail_block", "localised", "mixed")
FLOAT16_CODES = ("overflow", "underflow")  # float16's limits are the ones kernels hit
CODES = ("nonfinite_introduced", "overflow", "underflow", "layout_permutation", "tail_block", "localised", "bias",
         "scale", "rounding", "uncorrelated", "unclassified", "mixed")


def pair_for(code: str) -> tuple[Any, Any, str, str, Any]:
    """(fused, origin, fused dtype, origin dtype, signature) of a generated pair whose signature has `code`."""
    import numpy as np
    from tests.core.signature_cases import FAULTS, cast

    from autofuse_studio.core.precision.signature import classify

    for seed in range(200):
        rng = np.random.default_rng([seed, CODES.index(code)])
        base = rng.standard_normal(SHAPE)
        if code == "unclassified":
            origin = cast(base, "float32")
            fused = cast(base * (1 + rng.standard_normal(SHAPE) * 0.2), "float32")
            case_pair = (fused, origin, "float32", "float32")
        else:
            case = FAULTS[code](rng, base, "float16" if code in FLOAT16_CODES else "float32", 1.0)
            if case is None:
                continue
            case_pair = (case.fused, case.origin, case.fused_dtype, case.origin_dtype)
        found = classify(case_pair[0].astype(np.float64), case_pair[1].astype(np.float64), case_pair[2],
                         case_pair[3])
        if found is not None and found.code == code and (code != "mixed" or len(found.params["parts"]) == 2):
            return (*case_pair, found)
    raise AssertionError(f"no generated pair is signed {code}")


def shoot(code: str, folder: Path, panel: Any) -> Path:
    """Show the code's pair in the tensor panel and save it as docs/images/signature-<code>.png."""
    import numpy as np
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage

    from autofuse_studio.core.precision.rows import OUTPUT, VERDICT_CULPRIT, PrecisionRow

    fused, origin, fused_dtype, origin_dtype, signature = pair_for(code)
    np.save(folder / f"{code}-fused.npy", fused)
    np.save(folder / f"{code}-origin.npy", origin)
    row = PrecisionRow(OUTPUT, "autofuse_13", 0, "Add_7", 0, "OK", verdict=VERDICT_CULPRIT,
                       fused_file=str(folder / f"{code}-fused.npy"), origin_file=str(folder / f"{code}-origin.npy"),
                       fused_dtype=fused_dtype, origin_dtype=origin_dtype, fused_shape=SHAPE, origin_shape=SHAPE,
                       signature=signature)
    panel.tabs.setCurrentWidget(panel.histograms)
    panel.show_row(row)
    wait_for(panel.viewReady)
    panel.tabs.setCurrentWidget(panel.heatmaps if code in HEATMAP_CODES else panel.histograms)
    pause(400)
    out = IMAGES / f"signature-{code}.png"
    image = panel.grab().toImage()
    flags = Qt.ImageConversionFlag.ThresholdDither | Qt.ImageConversionFlag.AvoidDither
    image.convertToFormat(QImage.Format.Format_Indexed8, flags).save(str(out), "PNG", 0)
    print(f"{out.relative_to(ROOT)}  {out.stat().st_size // 1024} KB  {signature.sentence}")
    return out


def main(argv: list[str] | None = None) -> int:
    """Write the pictures of the codes named (default: every code)."""
    codes = (argv if argv is not None else sys.argv[1:]) or list(CODES)
    from autofuse_studio.ui.app import make_application
    from autofuse_studio.ui.precision.tensor_panel import TensorPanel

    home = Path(tempfile.mkdtemp(prefix="autofuse-signatures-"))
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
        os.environ[name] = str(home / name.lower())
    app = make_application()
    IMAGES.mkdir(parents=True, exist_ok=True)
    panel = TensorPanel()  # one panel for all: each row replaces the last, as in the GUI
    panel.resize(*SIZE)
    panel.show()
    with tempfile.TemporaryDirectory() as scratch:
        for code in codes:
            shoot(code, Path(scratch), panel)
    panel.shutdown()
    panel.close()
    app.processEvents()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
