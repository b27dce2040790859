"""Dump NPY names: standard, old (no stream), FFTS+, -f shape suffix, sanitised op names, non-dump files."""

from __future__ import annotations

import pytest

from autofuse_studio.core.dumps.names import NpyName, parse_npy_name, sanitize_op_name


def test_standard_name_with_stream_id() -> None:
    name = "AscBackend.autofuse_28_Pow_RealDiv_Square.3.44.1783906987170021.output.0.npy"
    assert parse_npy_name(name) == NpyName(
        file_name=name,
        op_type="AscBackend",
        op_name="autofuse_28_Pow_RealDiv_Square",
        task_id=3,
        stream_id=44,
        timestamp=1783906987170021,
        kind="output",
        index=0,
        shape_suffix=None,
        ffts=None,
    )


def test_old_name_without_stream_id() -> None:
    parsed = parse_npy_name("GreaterEqual.grad_GreaterEqual.325.1619494134722860.input.1.npy")
    assert parsed is not None
    assert (parsed.task_id, parsed.stream_id, parsed.timestamp) == (325, None, 1619494134722860)
    assert (parsed.kind, parsed.index) == ("input", 1)


def test_ffts_plus_name_without_stream_id() -> None:
    parsed = parse_npy_name("Conv2D.Conv2D_lxslice0.9.1670205069981234.4.330.0.0.output.0.npy")
    assert parsed is not None
    assert (parsed.task_id, parsed.stream_id, parsed.timestamp) == (9, None, 1670205069981234)
    assert parsed.ffts == (4, 330, 0, 0)


def test_ffts_plus_name_with_stream_id() -> None:
    parsed = parse_npy_name("Conv2D.Conv2D_lxslice0.9.2.1670205069981234.4.330.0.1.output.2.npy")
    assert parsed is not None
    assert (parsed.task_id, parsed.stream_id, parsed.timestamp) == (9, 2, 1670205069981234)
    assert (parsed.ffts, parsed.index) == ((4, 330, 0, 1), 2)


@pytest.mark.parametrize(("suffix", "shape"), [("1x64x112x112", (1, 64, 112, 112)), ("8", (8,)), ("", ())])
def test_format_conversion_shape_suffix(suffix: str, shape: tuple[int, ...]) -> None:
    parsed = parse_npy_name(f"Conv2D.conv1.3.44.1783906987170021.output.0.{suffix}.npy")
    assert parsed is not None
    assert parsed.shape_suffix == shape
    assert (parsed.op_name, parsed.kind, parsed.index) == ("conv1", "output", 0)


def test_short_timestamps_as_in_the_samples() -> None:
    parsed = parse_npy_name("AscBackend.autofuse_11_Multi.3.44.222.output.0.npy")
    assert parsed is not None
    assert (parsed.task_id, parsed.stream_id, parsed.timestamp) == (3, 44, 222)


def test_op_names_keep_unicode_and_dashes() -> None:
    parsed = parse_npy_name("Add.层_1-a.3.44.5.output.0.npy")
    assert parsed is not None
    assert parsed.op_name == "层_1-a"


@pytest.mark.parametrize(
    ("graph_name", "file_part"),
    [
        ("scope/layer.1/Add", "scope_layer_1_Add"),
        ("a\\b c", "a_b_c"),
        ("plain_name", "plain_name"),
        ("keep:colon", "keep:colon"),
    ],
)
def test_sanitize_op_name(graph_name: str, file_part: str) -> None:
    assert sanitize_op_name(graph_name) == file_part


@pytest.mark.parametrize(
    "file_name",
    [
        "m2_a.npy",
        "notes.txt",
        "mapping.csv",
        "Add.op.3.44.5.output.0",  # no .npy
        "Add.op.3.output.0.npy",  # a single number field
        "Add.op.3.44.5.weights.0.npy",  # unknown kind
        "Add.op.3.44.5.output.x.npy",  # non-numeric index
        "Add.op.3.4a.5.output.0.npy",  # non-numeric middle field
        "Add.op.3.44.5.output.0.1x2y.npy",  # bad shape suffix
        ".op.3.44.5.output.0.npy",  # empty op type
        "Add.op.1.2.3.4.5.6.7.8.output.0.npy",  # too many number fields
        "Add.op.3.²4.5.output.0.npy",  # unicode digit
        "Opdebug.Node_OpDebug.3.44.5.output.0.json",
    ],
)
def test_non_dump_files_are_ignored(file_name: str) -> None:
    assert parse_npy_name(file_name) is None


@pytest.mark.parametrize(
    "name",
    [
        "AscBackend.autofuse_28_Pow.3.44.1783906987170021.output.0.npy",
        "Add.add_1.12.7.1783906987170021.input.2.npy",
        "GreaterEqual.grad_GreaterEqual.325.1619494134722860.input.1.npy",
        "Conv2D.Conv2D_lxslice0.9.1670205069981234.4.330.0.0.output.0.npy",
        "Cast.cast_0.3.44.1783906987170021.output.0.2x3x4.npy",
        "Cast.cast_0.3.44.1783906987170021.output.0..npy",
        "Mul.mul.3.44.17839069871.output.x.npy",
        "a.b.1.2.3.output.0.npy.bak",
        "Relu.relu_é.1.2.3.output.0.npy",
        "Relu.relu.１.2.3.output.0.npy",
    ],
)
def test_index_fast_path_agrees_with_the_full_parser(name: str) -> None:
    from autofuse_studio.core.dumps.index import _name_fields

    parsed = parse_npy_name(name)
    expected = None if parsed is None else (parsed.op_name, parsed.kind, parsed.index, parsed.timestamp)
    assert _name_fields(name) == expected
