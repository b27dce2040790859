"""The Chinese UI on a machine without a CJK font: a shipped font is registered, else one sentence says what to do.

Every check runs in a child process whose fontconfig sees only DejaVu Sans (FONTCONFIG_FILE pointing at a
fonts.conf listing one folder), because fontconfig reads its configuration once per process.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from autofuse_studio.ui.fonts import INSTALL_COMMAND, CjkFont, simplified_first
from tests.no_cjk import chinese_settings, no_cjk_environment, system_cjk_font

PROBE = """
import json, sys
from pathlib import Path
from PySide6.QtGui import QTextLayout
from PySide6.QtWidgets import QApplication, QLabel
from autofuse_studio.ui.fonts import NOTICE_NAME, ensure_cjk_font

app = QApplication(sys.argv[:1])

def drawn_by(text):
    layout = QTextLayout(text, app.font())
    layout.beginLayout(); layout.createLine(); layout.endLayout()
    run = layout.glyphRuns()[0]
    return [run.rawFont().familyName(), 0 not in list(run.glyphIndexes())]

before = drawn_by("中文")
font = ensure_cjk_font(sys.argv[2], Path(sys.argv[1]))
result = {"before": before, "after": drawn_by("中文"), "family": font.family, "bundled": font.bundled,
          "notice": font.notice}
if sys.argv[3:] == ["window"]:
    from autofuse_studio.ui.main_window import MainWindow
    window = MainWindow()
    def shown():
        label = window.statusBar().findChild(QLabel, NOTICE_NAME)
        return label is not None and label.isVisibleTo(window) and label.text()
    window.set_language("zh_CN")
    result["window_zh"] = shown()
    window.set_language("en")
    result["window_en"] = shown()
print(json.dumps(result))
"""


@pytest.fixture
def no_cjk_env(tmp_path: Path) -> dict[str, str]:
    """An environment whose fontconfig knows only DejaVu Sans."""
    return no_cjk_environment(tmp_path / "fontconfig")


def probe(env: dict[str, str], folder: Path, language: str, *extra: str) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", PROBE, str(folder), language, *extra], capture_output=True,
                          text=True, env=env, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return result


def test_without_any_cjk_font_one_sentence_says_how_to_install_one(no_cjk_env: dict[str, str],
                                                                   tmp_path: Path) -> None:
    empty = tmp_path / "no-fonts"
    empty.mkdir()
    result = probe(no_cjk_env, empty, "zh_CN", "window")
    assert result["before"] == ["DejaVu Sans", False]  # boxes: DejaVu has no Chinese glyphs
    notice = str(result["notice"])
    assert result["family"] is None
    assert INSTALL_COMMAND in notice and "DejaVu Sans" in notice  # what to run, which font is used meanwhile
    assert notice.count(". ") == 0 and notice.endswith(".")  # one sentence
    assert result["window_zh"] == notice  # the main window shows it after a switch to Chinese ...
    assert result["window_en"] is False  # ... and hides it again in English


def test_a_shipped_font_is_registered_and_draws_chinese(no_cjk_env: dict[str, str], tmp_path: Path) -> None:
    cjk = system_cjk_font()
    if cjk is None:
        pytest.skip("no CJK font on this machine to stand in for the bundle's Noto Sans CJK")
    shipped = tmp_path / "resources-fonts"
    shipped.mkdir()
    (shipped / cjk.name).symlink_to(cjk)
    (shipped / "README.txt").write_text("not a font")
    result = probe(no_cjk_env, shipped, "zh_CN")
    assert result["before"][1] is False  # type: ignore[index]
    assert result["bundled"] is True and result["notice"] == ""
    assert result["after"] == [result["family"], True]  # Chinese is now drawn by the registered family


def test_english_needs_no_cjk_font(no_cjk_env: dict[str, str], tmp_path: Path) -> None:
    result = probe(no_cjk_env, tmp_path, "en")
    assert (result["family"], result["notice"]) == (None, "")


def test_the_app_reports_the_missing_font_at_start(no_cjk_env: dict[str, str], tmp_path: Path) -> None:
    env = {**no_cjk_env, **chinese_settings(tmp_path / "config"), "AUTOFUSE_STUDIO_FAIL_FAST": "1"}
    done = subprocess.run([sys.executable, "-m", "autofuse_studio", "--self-check"], capture_output=True, text=True,
                          env=env, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "self-check: ok" in done.stdout
    assert "self-check: Chinese text font: none" in done.stdout


def test_the_simplified_chinese_face_of_a_collection_is_preferred() -> None:
    noto = ["Noto Sans CJK JP", "Noto Sans CJK KR", "Noto Sans CJK SC", "Noto Sans Mono CJK SC"]
    assert simplified_first(noto) == "Noto Sans CJK SC"
    assert simplified_first(["WenQuanYi Micro Hei Mono", "WenQuanYi Micro Hei"]) == "WenQuanYi Micro Hei"
    assert CjkFont("Noto Sans CJK SC", bundled=True).describe() == "Noto Sans CJK SC (shipped in the bundle)"
