"""Regenerate the README's screenshots with the app itself (offscreen): `make screenshots`.

Every tab in English and Chinese, on the bundled demo case (resources/demo), a sample ATT log from
../shared/samples/att (read in place; those shots are skipped when the samples are absent), a graph
without fused ops (the warnings panel), a statistics-mode case (statistics CSVs as the NPU writes them)
and an 8-rank case. Settings go to a temporary folder, so the
user's own layout and recent cases are neither used nor changed.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from qt_waits import pause, wait_for

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the case generators are test support: tests/synth (not in the product)
IMAGES = ROOT / "docs" / "images"
SAMPLES = ROOT.parent / "shared" / "samples" / "att"
ATT_LOG = SAMPLES / "synthetic" / "perf_multi_case.log"
SUMMARY_LOGS = [SAMPLES / "upstream-tests" / name for name in ("test_complete.log", "test_missing_result_perf.log")]
MAX_BYTES = 300_000  # a bigger PNG is written with a 256-colour palette instead
SIZE = (1600, 1000)
LANGUAGES = ("en", "zh_CN")




def save(picture: object, out: Path) -> Path:
    """Write a QPixmap as PNG, palette-reduced when it would be over MAX_BYTES."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage

    image = picture.toImage()  # type: ignore[attr-defined]
    image.save(str(out))
    if out.stat().st_size > MAX_BYTES:  # UI colours are few: a palette without dithering looks the same
        flags = Qt.ImageConversionFlag.ThresholdDither | Qt.ImageConversionFlag.AvoidDither
        image.convertToFormat(QImage.Format.Format_Indexed8, flags).save(str(out), "PNG", 0)
    print(f"{out.relative_to(ROOT)}  {out.stat().st_size // 1024} KB")
    return out


def _window() -> object:
    from autofuse_studio.ui.main_window import MainWindow

    window = MainWindow()
    window.resize(*SIZE)
    window.show()
    return window


def _open_case(window: object, paths: list[str]) -> None:
    window.open_paths(paths)  # type: ignore[attr-defined]
    wait_for(window.resultShown)  # type: ignore[attr-defined]


def _open_logs(window: object, paths: list[Path]) -> None:
    window.open_att_logs([str(path) for path in paths])  # type: ignore[attr-defined]
    wait_for(window.att.loaded)  # type: ignore[attr-defined]


def case_tabs(window: object, lang: str) -> list[Path]:
    """Precision and Graph tabs of the demo case (the first divergence selected)."""
    from autofuse_studio.ui.app import demo_case_dir

    _open_case(window, [str(demo_case_dir())])
    shots = [save(window.grab(), IMAGES / f"precision-{lang}.png")]  # type: ignore[attr-defined]
    window.tabs.setCurrentIndex(window.tab_status.page(window.graph))  # type: ignore[attr-defined]
    pause(800)
    shots.append(save(window.grab(), IMAGES / f"graph-{lang}.png"))  # type: ignore[attr-defined]
    return shots


def npu_run(scratch: Path, kind: str) -> Path:
    """A run folder as it comes off the NPU: the full-coverage case's graphs with its `kind` ('raw' or 'stats') twin."""
    import shutil

    from tests.synth import full_coverage_spec, generate_case
    from tests.synth.raw_twin import twin_case

    run = scratch / f"{kind}-run"
    if run.exists():
        return run
    npy = scratch / f"{kind}-npy"
    manifest = generate_case(npy, full_coverage_spec())
    twins = twin_case(npy, scratch / f"{kind}-twin", kind)
    for side in ("af_open", "af_close"):
        graph = npy / manifest.graphs[side]
        (run / side).mkdir(parents=True)
        shutil.copy(graph, run / side / graph.name)
        twins[side].rename(run / side / "dump")
    return run


def statistics_case(window: object, lang: str, scratch: Path) -> list[Path]:
    """A statistics-mode case (`dump_data: stats` CSVs on both sides), its first divergence's statistics shown."""
    _open_case(window, [str(npu_run(scratch, "stats"))])
    window.workbench.go_to_first_divergence()  # type: ignore[attr-defined]
    pause(500)
    return [save(window.grab(), IMAGES / f"statistics-case-{lang}.png")]  # type: ignore[attr-defined]


def warnings_panel(window: object, lang: str, scratch: Path) -> list[Path]:
    """The warnings panel and the status line for a graph that holds no fused operator."""
    import json

    from autofuse_studio.ui.app import demo_case_dir

    demo = demo_case_dir()
    graph = scratch / "af_open_without_fused_ops.json"
    graph.write_text(json.dumps({"graph": [{"name": "g", "op": [{"name": "a", "type": "Add"}]}]}), encoding="utf-8")
    close = next((demo / "af_close").glob("*.json"))
    _open_case(window, [str(graph), str(close), str(demo / "af_open" / "dump"), str(demo / "af_close" / "dump")])
    return [save(window.grab(), IMAGES / f"precision-warnings-{lang}.png")]  # type: ignore[attr-defined]


def att_tabs(window: object, lang: str) -> list[Path]:
    """The ATT tab: one operator's cases, the all-operators picture, the summary of two logs."""
    if not ATT_LOG.exists():
        print(f"skipped the ATT shots: {ATT_LOG} is not there")
        return []
    att = window.att  # type: ignore[attr-defined]
    _open_logs(window, [ATT_LOG])
    shots = [save(window.grab(), IMAGES / f"att-perf-{lang}.png")]  # type: ignore[attr-defined]
    att.perf.mode.setCurrentIndex(1)
    wait_for(att.perf.wholeShown, 20_000)
    shots.append(save(window.grab(), IMAGES / f"att-all-operators-{lang}.png"))  # type: ignore[attr-defined]
    att.perf.mode.setCurrentIndex(0)
    _open_logs(window, [path for path in SUMMARY_LOGS if path.exists()])
    att.tabs.setCurrentWidget(att.summary)
    pause(300)
    shots.append(save(window.grab(), IMAGES / f"att-summary-{lang}.png"))  # type: ignore[attr-defined]
    return shots


def runner_tab(window: object, lang: str, scratch: Path) -> list[Path]:
    """The runner after a run whose source folder holds no tiling code (no SDK needed)."""
    panel = window.runner_panel  # type: ignore[attr-defined]
    window.tabs.setCurrentIndex(window.tab_status.page(panel))  # type: ignore[attr-defined]
    source = scratch / "my_kernel_src"
    source.mkdir(exist_ok=True)
    (source / "kernel.cpp").write_text("int kernel() { return 0; }\n", encoding="utf-8")
    panel.ask_confirmation = lambda _folder: True
    panel.form.source_edit.setText(str(source))
    panel.start_run()
    wait_for(panel.runFinished)
    return [save(window.grab(), IMAGES / f"runner-{lang}.png")]  # type: ignore[attr-defined]


def multi_rank_overview(out: Path) -> Path:
    """The precision tab of an 8-rank case: overview grid, filters and the first rows."""
    from PySide6.QtCore import QRect
    from tests.synth import generate_case
    from tests.synth.spec import multi_rank_spec

    with tempfile.TemporaryDirectory() as scratch:
        generate_case(Path(scratch), multi_rank_spec(ranks=8, culprit_rank=5, runs=2,
                                                     missing_ranks=(("af_close", 7),)))
        window = _window()
        _open_case(window, [scratch])
        bench = window.workbench  # type: ignore[attr-defined]
        top = bench.view.mapTo(bench, bench.view.rect().topLeft()).y()
        shot = save(bench.grab(QRect(0, 0, bench.width(), top + 260)), out)
        window.close()  # type: ignore[attr-defined]
    return shot


def _has_chinese_font() -> bool:
    from PySide6.QtGui import QFontDatabase

    return bool(QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese))


def shoot_language(lang: str, scratch: Path) -> list[Path]:
    """Every tab in one language (fresh windows, so nothing of the other language's run remains)."""
    from autofuse_studio.ui.i18n import translations

    translations().apply(lang)
    short = lang.split("_")[0]
    shots: list[Path] = []
    steps: list[Callable[[object], list[Path]]] = [
        lambda window: case_tabs(window, short), lambda window: warnings_panel(window, short, scratch),
        lambda window: statistics_case(window, short, scratch),
        lambda window: att_tabs(window, short), lambda window: runner_tab(window, short, scratch)]
    for step in steps:
        window = _window()
        shots += step(window)
        window.close()  # type: ignore[attr-defined]
    return shots


def main(argv: list[str] | None = None) -> int:
    """Write every screenshot into docs/images/; with --tour, the small-screen tour instead (packaging/tour.py)."""
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tour", nargs="?", const=None, default=False, metavar="FOLDER",
                        help="every view at 1280x720 and 1600x1000, English and Chinese, into FOLDER "
                             "(default /tmp/autofuse-tour) with a contact sheet")
    parser.add_argument("--sheet", type=Path, help="also copy the tour's contact sheet here")
    args = parser.parse_args(argv)
    if args.tour is not False:
        from tour import DEFAULT_FOLDER, run_tour

        run_tour(Path(args.tour) if args.tour else DEFAULT_FOLDER, args.sheet)
        # Everything is written: leave without the interpreter's teardown, where Qt's and pyqtgraph's objects of
        # 44 windows are destroyed in an order that crashes (a segfault after the work, failing `make tour`).
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)
    home = Path(tempfile.mkdtemp(prefix="autofuse-screenshots-"))
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
        os.environ[name] = str(home / name.lower())
    from autofuse_studio.ui.app import make_application

    app = make_application()
    IMAGES.mkdir(parents=True, exist_ok=True)
    for lang in LANGUAGES:
        if lang != "en" and not _has_chinese_font():
            print("skipped the Chinese shots: no Simplified Chinese font is installed (e.g. fonts-wqy-microhei)")
            continue
        shoot_language(lang, home)
    from autofuse_studio.ui.i18n import translations

    translations().apply("en")  # the README that shows it is English
    multi_rank_overview(IMAGES / "multi-rank-overview.png")
    app.processEvents()
    return 0


if __name__ == "__main__":
    sys.exit(main())
