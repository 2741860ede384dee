"""``check_file(fix=...)``: declared dims rewritten to what OpenVINO computes, nothing else.

The oracle is OpenVINO's own writer: an IR saved by ``ov.save_model`` declares the shapes
OpenVINO computed. Mutate some of its declared dims and the fix must give back the file
OpenVINO wrote, byte for byte.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset8 as ops
import openvino.opset17 as opset17
import pytest
from click.testing import CliRunner
from lxml import etree

import irshape
from irshape.cli import main

ROOT = Path(__file__).resolve().parents[1]


def _model() -> ov.Model:
    """x [1,3,16,16] -> conv 3x3 stride 2 -> relu -> group deconv 4x4 stride 2 -> tanh."""
    rng = np.random.default_rng(0)
    x = ops.parameter([1, 3, 16, 16], np.float32, name="x")
    kernel = ops.constant(rng.random((8, 3, 3, 3), dtype=np.float32))
    y = ops.convolution(x, kernel, [2, 2], [1, 1], [1, 1], [1, 1], name="conv")
    y = ops.relu(y, name="relu")
    up = ops.constant(rng.random((2, 4, 2, 4, 4), dtype=np.float32))
    y = ops.group_convolution_backprop_data(
        y, up, [2, 2], pads_begin=[1, 1], pads_end=[1, 1], dilations=[1, 1], name="up"
    )
    return ov.Model([ops.result(ops.tanh(y, name="tanh"), name="out")], [x], "m")


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, bytes]:
    path = tmp_path_factory.mktemp("ov") / "m.xml"
    ov.save_model(_model(), path, compress_to_fp16=False)
    return path.read_text(encoding="utf-8"), path.with_suffix(".bin").read_bytes()


def mutate(text: str, layer: str, section: str, axis: int, value: int) -> str:
    """``text`` with the ``axis``-th <dim> of the layer's first ``section`` port set to ``value``."""
    tree = etree.fromstring(text.encode())
    (dim,) = tree.xpath(f"//layer[@name='{layer}']/{section}/port[1]/dim[{axis + 1}]")
    lines = text.split("\n")
    old = lines[dim.sourceline - 1]
    lines[dim.sourceline - 1] = old.replace(f">{dim.text}<", f">{value}<", 1)
    assert lines[dim.sourceline - 1] != old
    return "\n".join(lines)


def save(tmp_path: Path, text: str, weights: bytes) -> Path:
    path = tmp_path / "m.xml"
    path.write_text(text, encoding="utf-8")
    path.with_suffix(".bin").write_bytes(weights)
    return path


# (layer, section, axis, wrong value): conv's output is 8x8 ((16 + 2 - 3) // 2 + 1), relu keeps
# it, the deconv's 2*(8-1) + 4 - 2 = 16; the Parameter's port repeats its shape attribute.
MUTANTS = {
    "conv output and the relu input it feeds": [("conv", "output", 2, 9), ("relu", "input", 2, 9)],
    "deconv output alone": [("up", "output", 3, 15)],
    "Parameter port against its shape": [("x", "output", 1, 4)],
    "none: a right file stays as it is": [],
    "all at once": [("conv", "output", 3, 7), ("relu", "input", 3, 7), ("up", "output", 2, 17)],
}


@pytest.mark.parametrize("name", MUTANTS)
def test_fix_gives_back_the_file_openvino_wrote(
    tmp_path: Path, written: tuple[str, bytes], name: str
) -> None:
    original, weights = written
    text = original
    for edit in MUTANTS[name]:
        text = mutate(text, *edit)
    path = save(tmp_path, text, weights)
    report = irshape.check_file(path, fix="write")
    assert path.read_text(encoding="utf-8") == original
    assert len(report.fixes) == len(MUTANTS[name])
    assert report.diagnostics == []  # the report is of the fixed file


def test_diff_shows_the_fix_and_writes_nothing(tmp_path: Path, written: tuple[str, bytes]) -> None:
    original, weights = written
    text = mutate(original, "up", "output", 3, 15)
    path = save(tmp_path, text, weights)
    report = irshape.check_file(path, fix="diff")
    assert path.read_text(encoding="utf-8") == text
    assert [d.code for d in report.diagnostics] == ["IRS301"]
    removed = [line for line in report.diff.splitlines() if line.startswith("-") and "<dim>" in line]
    added = [line for line in report.diff.splitlines() if line.startswith("+") and "<dim>" in line]
    assert [r[1:].strip() for r in removed] == ["<dim>15</dim>"]
    assert [a[1:].strip() for a in added] == ["<dim>16</dim>"]


def test_without_fix_nothing_is_written(tmp_path: Path) -> None:
    path = tmp_path / "bad.xml"
    source = (ROOT / "fixtures" / "invalid" / "IRS301_declared_dim_mismatch.xml").read_bytes()
    path.write_bytes(source)
    os.utime(path, (1_000_000_000, 1_000_000_000))
    irshape.check_file(path)
    assert path.read_bytes() == source
    assert path.stat().st_mtime == 1_000_000_000


def test_fix_keeps_the_file_mode_and_every_other_byte(tmp_path: Path) -> None:
    path = tmp_path / "layer.xml"
    source = (ROOT / "fixtures" / "invalid" / "IRS301_declared_dim_mismatch.xml").read_text()
    source = source.replace("<layer", "<!-- a comment with <dim>7</dim> -->\n<layer", 1)
    assert source.count("<dim>7</dim><dim>6</dim>") == 1  # the output's H, W: (8 - 3) + 1 = 6
    path.write_text(source)
    path.chmod(0o640)
    report = irshape.check_file(path, fix="write")
    assert [str(e) for e in report.fixes] == ["line 9: layer 1 port 3 axis 2: 7 -> 6"]
    assert path.read_text() == source.replace("<dim>7</dim><dim>6</dim>", "<dim>6</dim><dim>6</dim>")
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["layer.xml"]  # no temporary file left


def test_a_rank_mismatch_is_not_patched(tmp_path: Path) -> None:
    path = tmp_path / "rank.xml"
    path.write_bytes((ROOT / "fixtures" / "invalid" / "IRS302_declared_rank_mismatch.xml").read_bytes())
    report = irshape.check_file(path, fix="write")
    assert report.fixes == []
    assert "IRS302" in [d.code for d in report.diagnostics]


def test_a_dim_the_fix_cannot_find_safely_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "odd.xml"
    source = (ROOT / "fixtures" / "invalid" / "IRS301_declared_dim_mismatch.xml").read_text()
    odd = source.replace("<dim>7</dim>", "<dim>7<!-- rows --></dim>")
    path.write_text(odd)
    report = irshape.check_file(path, fix="write")
    assert path.read_text() == odd
    assert sorted(d.code for d in report.diagnostics) == ["IRS301", "IRS902"]


def test_a_file_that_cannot_be_written_is_a_finding(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "bad.xml"
    source = (ROOT / "fixtures" / "invalid" / "IRS301_declared_dim_mismatch.xml").read_bytes()
    path.write_bytes(source)

    def refuse(src: object, dst: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", refuse)
    report = irshape.check_file(path, fix="write")
    assert path.read_bytes() == source
    assert sorted(d.code for d in report.diagnostics) == ["IRS301", "IRS902"]
    assert "Permission denied" in report.diagnostics[0].message
    assert [p.name for p in tmp_path.iterdir()] == ["bad.xml"]  # the temporary file is removed


# -- the command line ----------------------------------------------------------------------


def _bad_copy(tmp_path: Path) -> Path:
    path = tmp_path / "bad.xml"
    path.write_bytes((ROOT / "fixtures" / "invalid" / "IRS301_declared_dim_mismatch.xml").read_bytes())
    return path


def test_cli_diff_prints_the_patch_and_exits_1(tmp_path: Path) -> None:
    path = _bad_copy(tmp_path)
    before = path.read_bytes()
    result = CliRunner().invoke(main, ["check", "--isolated", "--diff", str(path)])
    assert result.exit_code == 1
    assert f"--- {path}\n+++ {path}\n" in result.stdout
    assert (
        '-    <port id="3" precision="FP32"><dim>1</dim><dim>4</dim><dim>7</dim><dim>6</dim></port>'
        in result.stdout
    )
    assert path.read_bytes() == before
    fixed = CliRunner().invoke(main, ["check", "--isolated", "--fix", str(path)])
    assert fixed.exit_code == 0, fixed.output
    assert "irshape: fixed 1 declared dim(s) in 1 file(s)" in fixed.stderr
    again = CliRunner().invoke(main, ["check", "--isolated", "--diff", str(path)])
    assert (again.exit_code, again.stdout) == (0, "")


@pytest.mark.parametrize("args", [["--fix", "--diff", "bad.xml"], ["--fix", "-"], ["--diff", "-"]])
def test_cli_fix_usage_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str]) -> None:
    _bad_copy(tmp_path)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", "--isolated", *args], input="<layer/>")
    assert result.exit_code == 2
    assert "--fix" in result.stderr


# -- what the fix must not touch -------------------------------------------------------------


def test_dims_fed_by_an_op_irshape_does_not_infer_are_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # x -> GroupedMatMul -> conv: OpenVINO computes that layer's output itself. irshape infers
    # every op version of OpenVINO's opsets (tests/test_ops_doc.py),
    # so GroupedMatMul's declaration is hidden here: irshape then says it does not infer it
    # (IRS308), and a wrong dim declared there says nothing about the conv, whose own declared
    # dims must stay as OpenVINO wrote them.
    from irshape.check import model as walk

    hidden = walk.lookup
    monkeypatch.setattr(walk, "lookup", lambda t, v=None: None if t == "GroupedMatMul" else hidden(t, v))
    x = ops.parameter([1, 3, 8], np.float32, name="x")
    kernel = ops.constant(np.ones((4, 3, 3), np.float32))
    weights = ops.constant(np.ones((1, 8, 8), np.float32))
    pooled = opset17.grouped_matmul(x, weights, name="roll")  # [1,3,8] x [1,8,8]^T: [1,3,8]
    y = ops.convolution(pooled, kernel, [1], [0], [0], [1], name="conv")
    model = ov.Model([ops.result(y, name="out")], [x], "m")
    ov.save_model(model, tmp_path / "o.xml", compress_to_fp16=False)
    text = mutate((tmp_path / "o.xml").read_text(encoding="utf-8"), "roll", "output", 2, 9)
    path = save(tmp_path, text, (tmp_path / "o.bin").read_bytes())
    report = irshape.check_file(path, fix="write")
    assert (report.fixes, path.read_text(encoding="utf-8")) == ([], text)
    assert [d.code for d in report.diagnostics] == ["IRS308", "IRS411"]
    assert "cannot tell which" in report.diagnostics[1].message


def test_dims_after_a_rejected_layer_are_left_alone(tmp_path: Path, written: tuple[str, bytes]) -> None:
    original, weights = written
    rejected = original.replace('strides="2, 2"', 'strides="0, 2"', 1)  # the conv: IRS108
    assert rejected != original
    text = mutate(rejected, "relu", "output", 2, 9)
    path = save(tmp_path, text, weights)
    report = irshape.check_file(path, fix="write")
    assert (report.fixes, path.read_text(encoding="utf-8")) == ([], text)
    # No "OpenVINO will use ..." after the rejection: the relu's 9 is only inconsistent with
    # the deconv input's 8, and irshape says it cannot tell which is right.
    assert [d.code for d in report.diagnostics] == ["IRS108", "IRS411"]
    assert "cannot tell which" in report.diagnostics[1].message


def test_only_the_value_changes_not_the_whitespace_around_it(tmp_path: Path) -> None:
    source = (ROOT / "fixtures" / "invalid" / "IRS301_declared_dim_mismatch.xml").read_text()
    spaced = source.replace("<dim>7</dim>", "<dim>\n  7\n</dim>")
    path = tmp_path / "spaced.xml"
    path.write_text(spaced)
    assert len(irshape.check_file(path, fix="write").fixes) == 1
    assert path.read_text() == spaced.replace("<dim>\n  7\n</dim>", "<dim>\n  6\n</dim>")


def test_a_symbolic_link_is_followed(tmp_path: Path) -> None:
    target = _bad_copy(tmp_path)
    link = tmp_path / "link.xml"
    link.symlink_to(target.name)
    assert len(irshape.check_file(link, fix="write").fixes) == 1
    assert link.is_symlink()
    assert "<dim>6</dim><dim>6</dim>" in target.read_text()


def test_cli_diff_fails_on_a_file_it_cannot_patch(tmp_path: Path) -> None:
    path = _bad_copy(tmp_path)
    path.write_text(path.read_text().replace("<dim>7</dim>", "<dim>7<!-- rows --></dim>"))
    result = CliRunner().invoke(main, ["check", "--isolated", "--diff", str(path)])
    assert (result.exit_code, result.stdout) == (1, "")
    assert "IRS902" in result.stderr


@pytest.mark.parametrize("written_dim", ["+7", "07", "7abc", "\t+7 "])
def test_a_dim_openvino_reads_leniently_is_fixed_as_the_reader_reads_it(
    tmp_path: Path, written_dim: str
) -> None:
    # the reader, the values and --fix share one grammar (istream >> int64): '+7' is 7, so the
    # wrong 7 (OpenVINO's 6) is patched, not refused with IRS902
    source = (ROOT / "fixtures" / "invalid" / "IRS301_declared_dim_mismatch.xml").read_text()
    lenient = source.replace("<dim>7</dim>", f"<dim>{written_dim}</dim>")
    path = tmp_path / "lenient.xml"
    path.write_text(lenient)
    report = irshape.check_file(path, fix="write")
    assert "IRS902" not in [d.code for d in report.diagnostics]
    assert len(report.fixes) == 1
    fixed = written_dim.replace(written_dim.strip(), "6")  # the whitespace around it stays
    assert path.read_text() == lenient.replace(f"<dim>{written_dim}</dim>", f"<dim>{fixed}</dim>")
