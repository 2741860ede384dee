"""Body layers in an execution's per-layer results (issue 24, control flow): ``irshape run
--save-all`` keeps every body layer's outputs under the path of outer layer ids that findings
name it by (``3/body/5``), from the body's last run; the dry run's summary, like check's,
counts the top-level layers (a Loop is one layer executed, its body's layers are not counted),
and its IRS501 names a body layer by that path, once."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset8 as ov8

import irshape
from irshape.execute.dryrun import DryRunOptions
from irshape.execute.run import run_document
from irshape.ir.reader import read_file

TRIPS = 3


def _loop_model(xml: Path) -> None:
    """x [2, 3] -> Loop (3 trips; its body: Relu, times 2, the product back to the Parameter)
    -> Relu -> Result."""
    x = ov1.parameter([2, 3], np.float32, name="x")
    inner = ov1.parameter([2, 3], np.float32, name="inner")
    doubled = ov1.multiply(ov1.relu(inner), ov1.constant(np.float32(2)))
    doubled.set_friendly_name("doubled")
    body = ov.Model([ov1.result(doubled), ov1.result(ov1.constant(np.bool_(True)))], [inner])
    loop = ov8.loop(ov1.constant(np.int64(TRIPS)), ov1.constant(np.bool_(True)))
    loop.set_function(body)
    loop.set_special_body_ports([-1, 1])
    loop.set_merged_input(inner, x.output(0), doubled.output(0))
    loop.set_friendly_name("loop")
    out = ov1.relu(loop.get_iter_value(doubled.output(0), -1))
    ov.save_model(ov.Model([ov1.result(out)], [x]), str(xml))


def _if_model(xml: Path) -> None:
    """x, c -> If (then: x + 1, else: x * 3) -> Result."""
    x = ov1.parameter([4], np.float32, name="x")
    condition = ov1.parameter([], np.bool_, name="c")
    then_x, else_x = (ov1.parameter([4], np.float32, name=n) for n in ("then_x", "else_x"))
    plus = ov1.add(then_x, ov1.constant(np.float32(1)))
    times = ov1.multiply(else_x, ov1.constant(np.float32(3)))
    then_result, else_result = ov1.result(plus), ov1.result(times)
    choice = ov8.if_op(condition)
    choice.set_then_body(ov.Model([then_result], [then_x]))
    choice.set_else_body(ov.Model([else_result], [else_x]))
    choice.set_input(x.output(0), then_x, else_x)
    out = choice.set_output(then_result, else_result)
    ov.save_model(ov.Model([ov1.result(out)], [x, condition]), str(xml))


def _layer_ids(xml: Path, type_name: str) -> list[str]:
    document = read_file(xml).document
    assert document is not None
    return [layer.id or "" for layer in document.layers if layer.type == type_name]


def _openvino(xml: Path, feed: list[np.ndarray]) -> np.ndarray:
    compiled = ov.Core().compile_model(str(xml), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    return np.asarray(compiled(feed)[0])


def test_a_loops_body_layers_are_kept_by_path_from_the_last_iteration(tmp_path: Path) -> None:
    xml = tmp_path / "loop.xml"
    _loop_model(xml)
    (loop_id,) = _layer_ids(xml, "Loop")
    data = np.array([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]], np.float32)
    document = read_file(xml).document
    assert document is not None
    run = run_document(document, {"x": data}, keep_all=True)
    (loop,) = [layer for layer in document.layers if layer.id == loop_id]
    assert loop.subgraphs is not None
    body = loop.subgraphs.bodies["body"]
    (doubled,) = [layer for layer in body.layers if layer.name == "doubled"]
    kept = run.layers[f"{loop_id}/body/{doubled.id}"]
    # the last iteration's product is the Loop's output, which OpenVINO's Relu passes on
    np.testing.assert_array_equal(np.maximum(kept, 0), _openvino(xml, [data]))
    np.testing.assert_array_equal(kept, run.layers[loop_id])
    body_keys = {key for key in run.layers if key.startswith(f"{loop_id}/body/")}
    assert body_keys == {f"{loop_id}/body/{layer.id}" for layer in body.layers if layer.type != "Result"}


def test_only_the_if_branch_taken_is_kept(tmp_path: Path) -> None:
    xml = tmp_path / "if.xml"
    _if_model(xml)
    (if_id,) = _layer_ids(xml, "If")
    data = np.array([1.0, 2.0, -3.0, 0.5], np.float32)
    document = read_file(xml).document
    assert document is not None
    for condition, taken, other in ((True, "then_body", "else_body"), (False, "else_body", "then_body")):
        run = run_document(document, {"x": data, "c": np.array(condition)}, keep_all=True)
        assert any(key.startswith(f"{if_id}/{taken}/") for key in run.layers)
        assert not any(key.startswith(f"{if_id}/{other}/") for key in run.layers)
        np.testing.assert_array_equal(run.layers[if_id], _openvino(xml, [data, np.array(condition)]))


def test_the_dry_run_counts_the_top_level_layers_as_check_does(tmp_path: Path) -> None:
    xml = tmp_path / "loop.xml"
    _loop_model(xml)
    report = irshape.check_file(xml, dry_run=DryRunOptions())
    assert report.dry_run is not None
    assert (report.dry_run.executed, report.dry_run.total) == (2, 2)  # the Loop and the Relu
    assert report.diagnostics == []


def test_the_dry_run_compares_body_layers_once_by_path(tmp_path: Path) -> None:
    """A body layer's declared dim off by one: besides check's IRS301, the dry run's IRS501 on
    that body layer, named by its path and reported once though the Loop runs its body 3 times."""
    xml = tmp_path / "loop.xml"
    _loop_model(xml)
    (loop_id,) = _layer_ids(xml, "Loop")
    text = xml.read_text("utf-8")
    layer_start = text.index('name="doubled"')
    output = text.index("<output>", layer_start)
    dim = text.index("<dim>2</dim>", output)
    xml.write_text(text[:dim] + "<dim>3</dim>" + text[dim + len("<dim>2</dim>") :], "utf-8")
    document = read_file(xml).document
    assert document is not None
    (loop,) = [layer for layer in document.layers if layer.id == loop_id]
    assert loop.subgraphs is not None
    (doubled,) = [layer for layer in loop.subgraphs.bodies["body"].layers if layer.name == "doubled"]
    report = irshape.check_file(xml, dry_run=DryRunOptions())
    dry = [d for d in report.diagnostics if d.code == "IRS501"]
    assert [(d.layer_id, d.line) for d in dry] == [(f"{loop_id}/body/{doubled.id}", doubled.outputs[0].line)]
    assert "[2,3]" in dry[0].message and "[3,3]" in dry[0].message
    assert report.dry_run is not None and report.dry_run.total == 2
