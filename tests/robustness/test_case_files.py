"""Malformed *.afcase files: one sentence naming the file (and the key), the app goes on; FIFOs never hang it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from autofuse_studio.core.case import CASE_FORMAT, CaseFiles, load_case_file, save_case, view_from_dict
from autofuse_studio.core.errors import InputError
from autofuse_studio.core.precision.thresholds import Limits, Thresholds
from tests.robustness.conftest import assert_no_traceback, run_cli


def _case(path: Path, **document: Any) -> Path:
    path.write_text(json.dumps({"format": CASE_FORMAT, **document}), encoding="utf-8")
    return path


BAD_DOCUMENTS: list[tuple[dict[str, Any], str]] = [
    ({"thresholds": [1, 2]}, "'thresholds' must be an object"),
    ({"thresholds": {"per_dtype": [1]}}, "'thresholds.per_dtype' must be an object keyed by dtype"),
    ({"thresholds": {"per_dtype": {"float16": 5}}}, "'thresholds.per_dtype.float16' must be an object of limits"),
    ({"thresholds": {"per_dtype": {"flaot16": {"cosine": 0.9}}}}, "unknown dtype 'flaot16' (use bool"),
    ({"thresholds": {"default": {"cosine": "high"}}}, "must be a number"),
    ({"thresholds": {"stats": {"per_dtype": {"float16": [1]}}}}, "must be an object of statistics limits"),
    ({"thresholds": {"stats": {"default": {"max_rel": -1}}}}, "statistics threshold 'max_rel'"),
    ({"npy_a": "a\u0000b.npy"}, "'npy_a' holds a NUL character"),
    ({"af_open_graph": 5}, "'af_open_graph' must be a path (text) or null, not 5"),
    ({"af_open_data": "x" * 5000}, "'af_open_data' is a path of 5,000 characters"),
    ({"compare_input": "yes"}, "'compare_input' must be true or false"),
    ({"step": {"a": 1}}, "'step' must be a step folder name"),
    ({"view": [1]}, "'view' must be an object"),
    ({"view": {"status": 5}}, "'view.status' must be a list of names, not 5"),
    ({"view": {"splitter": ["a", 1]}}, "'view.splitter' must be two sizes in pixels"),
    ({"view": {"splitter": [1, 2 ** 40]}}, "'view.splitter' must be two sizes in pixels"),
    ({"view": {"selected": 7}}, "'view.selected' must be a row key"),
    ({"view": {"sort_descending": "no"}}, "'view.sort_descending' must be true or false"),
    ({"view": {"text": ["Mul"]}}, "'view.text' must be text"),
]


@pytest.mark.parametrize(("document", "message"), BAD_DOCUMENTS)
def test_a_malformed_case_file_is_one_sentence_naming_file_and_key(tmp_path: Path, document: dict[str, Any],
                                                                    message: str) -> None:
    path = _case(tmp_path / "bad.afcase", **document)
    with pytest.raises(InputError) as caught:
        load_case_file(path)
    text = str(caught.value)
    assert text.startswith(f"The case file {path} is refused: ")
    assert message in text
    assert "\n" not in text


@pytest.mark.parametrize(("text", "message"), [
    ('{"format": "autofuse-studio-case/1", "step": ' + "1" * 5000 + "}", "a too long number or too deep nesting"),
    ('{"format": "autofuse-studio-case/1", "view": ' + "[" * 100_000 + "]" * 100_000 + "}", "too deep nesting"),
    ('{"format": "autofuse-studio-case/1", ', "not valid JSON (line 1)"),
    ("\xff", "not UTF-8"),
    ("[1, 2]", "is not an Autofuse Studio case file"),
])
def test_numbers_nesting_and_encoding_are_refused(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.afcase"
    path.write_bytes(text.encode("utf-8") if text != "\xff" else b"\xff")
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_case_file(path)


def test_a_fifo_or_device_case_file_is_named_and_never_read(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.afcase"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="is a named pipe \\(FIFO\\), not a file"):
        load_case_file(fifo)
    with pytest.raises(InputError, match="is a character device, not a file"):
        load_case_file("/dev/zero")
    with pytest.raises(InputError, match="is a folder, not a file"):
        load_case_file(tmp_path)


def test_good_files_still_load_and_unknown_keys_are_dropped(tmp_path: Path) -> None:
    case = CaseFiles(npy_a=tmp_path / "a.npy", npy_b=tmp_path / "b.npy", step="3",
                     thresholds=Thresholds(Limits(0.995), {"DT_FLOAT16": Limits(0.9)}),
                     view={"splitter": [300, 500], "status": ["OK"], "text": "Mul", "selected": [None, "0", None,
                                                                                                 "output", "op", 0]})
    loaded = load_case_file(save_case(case, tmp_path / "ok.afcase"))
    assert loaded.npy_a == tmp_path / "a.npy" and loaded.step == "3"
    assert loaded.thresholds.limits_for("float16").cosine == 0.9  # the dump's name keys the row's dtype
    assert loaded.view == case.view
    assert view_from_dict({"splitter": [1, 2], "from_a_newer_version": {"x": 1}}) == {"splitter": [1, 2]}
    assert load_case_file(_case(tmp_path / "old.afcase", compare_input=True)).compare_input is True


def test_a_300_mb_case_file_is_refused_in_bounded_memory(tmp_path: Path) -> None:
    path = tmp_path / "huge.afcase"
    with path.open("wb") as handle:
        handle.write(b'{"format": "autofuse-studio-case/1", "text": "')
        handle.truncate(300 << 20)  # a sparse file: the size is what counts
    script = textwrap.dedent(f"""
        from autofuse_studio.core.case import load_case_file
        from autofuse_studio.core.errors import InputError
        try:
            load_case_file({str(path)!r})
        except InputError as error:
            print(error)
        print(int([l for l in open('/proc/self/status') if l.startswith('VmHWM')][0].split()[1]) // 1024)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False)
    assert_no_traceback(done.stdout + done.stderr)
    message, peak = done.stdout.strip().splitlines()
    assert message == f"The case file {path} is larger than 1 MB."
    assert int(peak) < 200  # was 747 MB: the whole file was read, decoded and parsed


# --- The window: a bad case file is a sentence in the case panel, and the app goes on ---------------------


@pytest.mark.parametrize(("document", "message"), [BAD_DOCUMENTS[0], BAD_DOCUMENTS[7], BAD_DOCUMENTS[13],
                                                   BAD_DOCUMENTS[14]])
def test_the_window_shows_a_bad_case_file_as_a_sentence(qtbot: QtBot, tmp_path: Path, document: dict[str, Any],
                                                         message: str) -> None:
    from autofuse_studio.ui.main_window import MainWindow

    window = MainWindow()
    qtbot.addWidget(window)
    path = _case(tmp_path / "bad.afcase", **document)
    window.open_paths([str(path)])
    assert message in window.case_panel.banner.text()
    assert window.case_panel.case().npy_a is None  # nothing of the bad file was applied


def test_the_window_never_waits_on_a_fifo_case_file(qtbot: QtBot, tmp_path: Path) -> None:
    from autofuse_studio.ui.main_window import MainWindow

    window = MainWindow()
    qtbot.addWidget(window)
    fifo = tmp_path / "pipe.afcase"
    os.mkfifo(fifo)
    window.open_case_file(str(fifo))  # returns at once: the FIFO is never opened for reading
    assert "named pipe (FIFO)" in window.case_panel.banner.text()


def test_the_app_starts_with_a_bad_case_file_argument(tmp_path: Path) -> None:
    """`autofuse-studio bad.afcase`: the window comes up (the case panel says why); no traceback at start-up."""
    for number, (document, _message) in enumerate(BAD_DOCUMENTS[:2] + BAD_DOCUMENTS[7:8] + BAD_DOCUMENTS[13:15]):
        path = _case(tmp_path / f"bad{number}.afcase", **document)
        run = run_cli("--self-check", path, env={"XDG_CONFIG_HOME": str(tmp_path / "config")})
        assert run.returncode == 0, run.output
        assert "self-check: ok" in run.stdout
