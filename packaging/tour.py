"""The small-screen tour (`make tour`): the real window over every kind of input, two sizes, two languages.

Drives MainWindow offscreen over the demo case, a 4-rank case, a single public GE graph, ATT logs, a run root
and the runner, at 1280x720 and 1600x1000, in English and Chinese; writes each screenshot into a folder
(default /tmp/autofuse-tour) and a contact sheet of them all (one PNG of captioned thumbnails), so a person
can look at every view at once. Started by `packaging/screenshots.py --tour [FOLDER] [--sheet PNG]`.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from qt_waits import pause, wait_for

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "samples"
DEFAULT_FOLDER = Path("/tmp/autofuse-tour")
SIZES = ((1280, 720), (1600, 1000))
LANGUAGES = ("en", "zh_CN")
# Small public graphs first: the tour is about the window, not about layout speed.
GRAPH_PREFERENCE = ("tf_small_ge_proto_00000000_Build.txt", "mirror-cann-graph-autofusion__test_graph.json")
THUMB_WIDTH = 400
SHEET_COLUMNS = 4
SHEET_MAX_BYTES = 1_400_000  # the committed contact sheet stays well under 1.5 MB

Shot = tuple[Path, str]  # a written PNG and its caption


def contact_sheet(shots: Sequence[Shot], out: Path, columns: int = SHEET_COLUMNS,
                  thumb_width: int = THUMB_WIDTH) -> Path:
    """One PNG grid of the shots' thumbnails (kept in aspect) with their captions under them, drawn with QPainter."""
    from PySide6.QtCore import QRect, Qt
    from PySide6.QtGui import QColor, QFont, QFontMetrics, QImage, QPainter

    images = [QImage(str(path)) for path, _caption in shots]
    if not images:
        raise ValueError("a contact sheet needs at least one picture")
    font = QFont()
    font.setPixelSize(13)
    caption_height = QFontMetrics(font).height() + 8
    thumbs = [image.scaledToWidth(thumb_width, Qt.TransformationMode.SmoothTransformation) for image in images]
    cell_height = max(thumb.height() for thumb in thumbs) + caption_height
    gap = 8
    columns = max(1, min(columns, len(thumbs)))
    rows = (len(thumbs) + columns - 1) // columns
    sheet = QImage(gap + columns * (thumb_width + gap), gap + rows * (cell_height + gap), QImage.Format.Format_RGB32)
    sheet.fill(QColor("#f4f4f4"))
    painter = QPainter(sheet)
    painter.setFont(font)
    metrics = QFontMetrics(font)
    for number, (thumb, (_path, caption)) in enumerate(zip(thumbs, shots, strict=True)):
        left = gap + (number % columns) * (thumb_width + gap)
        top = gap + (number // columns) * (cell_height + gap)
        painter.drawImage(left, top, thumb)
        painter.setPen(QColor("#999999"))
        painter.drawRect(left, top, thumb.width() - 1, thumb.height() - 1)
        painter.setPen(QColor("#202020"))
        text = metrics.elidedText(caption, Qt.TextElideMode.ElideMiddle, thumb_width)
        painter.drawText(QRect(left, top + thumb.height() + 2, thumb_width, caption_height - 2),
                         int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop), text)
    painter.end()
    out.parent.mkdir(parents=True, exist_ok=True)
    sheet.save(str(out))
    if out.stat().st_size > SHEET_MAX_BYTES:  # UI colours are few: a palette keeps it small and readable
        flags = Qt.ImageConversionFlag.ThresholdDither | Qt.ImageConversionFlag.AvoidDither
        sheet.convertToFormat(QImage.Format.Format_Indexed8, flags).save(str(out), "PNG", 0)
    return out


class Tour:
    """One language at one size: a fresh window per input, each view saved under `folder`."""

    def __init__(self, folder: Path, scratch: Path, lang: str, size: tuple[int, int]) -> None:
        self.folder, self.scratch, self.lang, self.size = folder, scratch, lang, size
        self.shots: list[Shot] = []

    def tag(self) -> str:
        """'en-1280x720'."""
        return f"{self.lang.split('_')[0]}-{self.size[0]}x{self.size[1]}"

    def window(self) -> object:
        """A shown MainWindow of the tour's size."""
        from autofuse_studio.ui.main_window import MainWindow

        window = MainWindow()
        window.resize(*self.size)
        window.show()
        pause(200)
        return window

    def shoot(self, window: object, name: str, caption: str) -> None:
        """Save the whole window as <name>-<lang>-<size>.png with a caption for the contact sheet."""
        pause(400)
        out = self.folder / f"{name}-{self.tag()}.png"
        window.grab().save(str(out))  # type: ignore[attr-defined]
        self.shots.append((out, f"{caption} · {self.tag()}"))
        print(f"{out}")

    def run(self, steps: Sequence[Callable[[object], None]]) -> list[Shot]:
        """Each step in a fresh window (nothing of an earlier input remains)."""
        for step in steps:
            window = self.window()
            try:
                step(window)
            finally:
                window.close()  # type: ignore[attr-defined]
                pause(50)
        return self.shots

    def case(self, window: object, name: str, paths: list[str]) -> None:
        """A case's Precision tab (warnings expanded when there are any) and its Graph tab."""
        window.open_paths(paths)  # type: ignore[attr-defined]
        wait_for(window.resultShown)  # type: ignore[attr-defined]
        bench = window.workbench  # type: ignore[attr-defined]
        bench.go_to_first_divergence()
        pause(600)
        self.shoot(window, f"{name}-precision", f"{name}: Precision")
        if bench.notices.isVisible():
            bench.notices.toggle.setChecked(True)
            self.shoot(window, f"{name}-warnings", f"{name}: warnings expanded")
        window.tabs.setCurrentIndex(window.tab_status.page(window.graph))  # type: ignore[attr-defined]
        pause(1200)
        self.shoot(window, f"{name}-graph", f"{name}: Graph")

    def start_page(self, window: object) -> None:
        """A fresh window: the start page (recent cases, open buttons, the drop hint)."""
        self.shoot(window, "start-page", "start page")

    def demo(self, window: object) -> None:
        """The bundled demo case."""
        from autofuse_studio.ui.app import demo_case_dir

        self.case(window, "demo", [str(demo_case_dir())])
        self.sign_on_demand(window)

    def sign_on_demand(self, window: object) -> None:
        """The shown case's first OK row compared by value: the offer to sign it, then its signature."""
        bench = window.workbench  # type: ignore[attr-defined]
        window.tabs.setCurrentIndex(window.tab_status.page(bench))  # type: ignore[attr-defined]
        row = next((row for row in bench.result.rows if row.verdict == "OK" and row.metrics is not None
                    and row.metrics.max_abs_err), None)
        if row is None:
            return
        panel = bench.tensor_panel
        bench.view.select_row(row)
        wait_for(panel.viewReady)
        self.shoot(window, "demo-sign-offer", "demo: an OK row, its signature offered")
        panel.signature_line.button.click()
        wait_for(panel.signature_line.signatureChanged)
        self.shoot(window, "demo-sign-on-demand", "demo: the OK row signed on demand")

    def multi_rank(self, window: object) -> None:
        """A 4-rank case with a culprit on rank 2 and a missing rank (so the warnings panel shows)."""
        from tests.synth import generate_case
        from tests.synth.spec import multi_rank_spec

        root = self.scratch / "multi-rank"
        if not root.exists():
            generate_case(root, multi_rank_spec(ranks=4, culprit_rank=2, missing_ranks=(("af_close", 3),)))
        self.case(window, "multi-rank", [str(root)])

    def graph_alone(self, window: object) -> None:
        """One public GE graph opened alone (skipped without ../shared/samples/ge)."""
        graph = public_graph()
        if graph is None:
            print(f"skipped the graph alone: no graph under {SHARED / 'ge'}")
            return
        bench = window.graph  # type: ignore[attr-defined]
        # A graph alone opens in whichever pane its kind names: wait for either pane's layout.
        window.open_paths([str(graph)])  # type: ignore[attr-defined]
        wait_for(bench.open_pane.layoutReady, 60_000, 800, bench.close_pane.layoutReady)
        self.shoot(window, "graph-alone", f"graph alone: {graph.name}")

    def att_logs(self, window: object) -> None:
        """ATT logs in the ATT tab (the shared samples, else a generated log)."""
        logs = att_logs(self.scratch)
        window.open_paths([str(path) for path in logs])  # type: ignore[attr-defined]
        wait_for(window.att.loaded)  # type: ignore[attr-defined]
        self.shoot(window, "att-logs", "ATT logs")

    def run_root(self, window: object) -> None:
        """A generated run root (default and PGO runs) in the ATT tab's Runs view."""
        from tests.synth.att_log import SyntheticShape
        from tests.synth.att_runs import RunLogSpec, write_run_root

        root = self.scratch / "run-root"
        if not root.exists():
            write_run_root(root, SyntheticShape(), [RunLogSpec("logs/att.log", [0, 1, 2], perf=True)],
                           [RunLogSpec("logs/att.log", [0, 1, 2], perf=True, changes={1: "faster"})])
        window.tabs.setCurrentIndex(window.tab_status.page(window.att))  # type: ignore[attr-defined]
        handle = window.att.open_run_root(root)  # type: ignore[attr-defined]
        wait_for(handle.finished)
        self.shoot(window, "run-root", "run root")

    def runner(self, window: object) -> None:
        """The runner tab as a new user first sees it."""
        window.tabs.setCurrentIndex(window.tab_status.page(window.runner_panel))  # type: ignore[attr-defined]
        self.shoot(window, "runner", "Runner")

    def steps(self) -> list[Callable[[object], None]]:
        """Every view of the tour, in order."""
        return [self.start_page, self.demo, self.multi_rank, self.graph_alone, self.att_logs, self.run_root,
                self.runner]


def public_graph() -> Path | None:
    """A small public GE graph under ../shared/samples/ge, or None."""
    folder = SHARED / "ge"
    for name in GRAPH_PREFERENCE:
        if (folder / name).is_file():
            return folder / name
    found = sorted(folder.glob("*.*")) if folder.is_dir() else []
    return found[0] if found else None


def att_logs(scratch: Path) -> list[Path]:
    """The shared sample ATT log, else one generated by tests/synth/att_log.py."""
    sample = SHARED / "att" / "synthetic" / "perf_multi_case.log"
    if sample.is_file():
        return [sample]
    from tests.synth.att_log import SyntheticShape, write_synthetic_log

    log = scratch / "att.log"
    write_synthetic_log(log, SyntheticShape())
    return [log]




def _has_chinese_font() -> bool:
    from PySide6.QtGui import QFontDatabase

    return bool(QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese))


def run_tour(folder: Path = DEFAULT_FOLDER, sheet: Path | None = None) -> list[Shot]:
    """Every view at every size in every language into `folder`, plus contact-sheet.png (copied to `sheet`)."""
    home = Path(tempfile.mkdtemp(prefix="autofuse-tour-"))
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
        os.environ[name] = str(home / name.lower())  # fresh settings: no remembered layout or recent cases
    sys.path.insert(0, str(ROOT))  # the case generators are test support: tests/synth
    from autofuse_studio.ui.app import make_application
    from autofuse_studio.ui.i18n import translations

    app = make_application()
    folder.mkdir(parents=True, exist_ok=True)
    shots: list[Shot] = []
    for lang in LANGUAGES:
        if lang != "en" and not _has_chinese_font():
            print("skipped the Chinese tour: no Simplified Chinese font (apt-get install fonts-noto-cjk)")
            continue
        translations().apply(lang)
        for size in SIZES:
            tour = Tour(folder, home, lang, size)
            shots += tour.run(tour.steps())
    translations().apply("en")
    # Side by side per view: English and Chinese, both sizes, in one row.
    order: dict[str, int] = {}
    for path, _caption in shots:
        order.setdefault(path.name.rsplit("-", 2)[0], len(order))
    shots.sort(key=lambda shot: (order[shot[0].name.rsplit("-", 2)[0]], shot[1]))
    written = contact_sheet(shots, folder / "contact-sheet.png")
    print(f"{written}  {written.stat().st_size // 1024} KB, {len(shots)} views")
    if sheet is not None:
        sheet.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(written, sheet)
        print(f"{sheet}")
    app.processEvents()
    shutil.rmtree(home, ignore_errors=True)
    return shots
