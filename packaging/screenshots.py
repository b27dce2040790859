"""Regenerate the README's screenshots with the app itself (offscreen): `python packaging/screenshots.py`."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
IMAGES = ROOT / "docs" / "images"


def multi_rank_overview(out: Path) -> Path:
    """The precision tab of an 8-rank case: overview grid, filters and the first rows."""
    from PySide6.QtCore import QEventLoop, QRect, QTimer

    from autofuse_studio.core.synth import generate_case
    from autofuse_studio.core.synth.spec import multi_rank_spec
    from autofuse_studio.ui.main_window import MainWindow

    with tempfile.TemporaryDirectory() as scratch:
        generate_case(Path(scratch), multi_rank_spec(ranks=8, culprit_rank=5, runs=2,
                                                     missing_ranks=(("af_close", 7),)))
        window = MainWindow()
        window.resize(1600, 1000)
        window.show()
        loop = QEventLoop()
        window.analysis.finished.connect(lambda _analysis: QTimer.singleShot(300, loop.quit))
        window.analysis.failed.connect(lambda _error: loop.quit())
        QTimer.singleShot(60_000, loop.quit)
        window.open_paths([scratch])
        loop.exec()
        bench = window.workbench
        top = bench.view.mapTo(bench, bench.view.rect().topLeft()).y()
        picture = bench.grab(QRect(0, 0, bench.width(), top + 260))
        picture.save(str(out))
        window.close()
    return out


def main() -> int:
    """Write every screenshot into docs/images/."""
    from autofuse_studio.ui.app import make_application

    app = make_application()
    IMAGES.mkdir(parents=True, exist_ok=True)
    print(multi_rank_overview(IMAGES / "multi-rank-overview.png"))
    app.processEvents()
    return 0


if __name__ == "__main__":
    sys.exit(main())
