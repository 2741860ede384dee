"""Loop-5 and TensorIterator-1 whose back edges change a body Parameter's shape or element type
from pass to pass, against OpenVINO's ``read_model`` (outer and body shapes) and its CPU plugin
(``compile_model`` CPU, f32: values, and the cases it fails).

What OpenVINO 2026.4 does (``loop.cpp``, ``tensor_iterator.cpp``; docs/openvino-ir-reading.md,
the control-flow section): a Loop reruns its body's inference while a back edge whose Result is
a last-iteration output brings a shape its Parameter does not hold (those dims dynamic, another
rank a dynamic rank), at most as many passes as the iterations it knows; a TensorIterator runs
its body's inference once, its Parameters keep the outer inputs' shapes. Every case is one
control-flow node named after it; all of them in one model, read once.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import openvino as ov
import openvino.opset8 as op
import pytest
from lxml import etree

import irshape
from irshape.check.model import check_document
from irshape.execute.compare import CPU_CONFIG, compare_document, describe
from irshape.execute.run import RunError, parameter_shape, parameters, random_input, run_document
from irshape.ir.reader import read_file

Built = tuple[list[ov.Output], list[ov.Node]]  # the node's outputs, the model Parameters it needs


def _const(value: Any, dtype: Any = np.int64) -> ov.Node:
    return op.constant(np.array(value, dtype))


def _changed(value: ov.Output, change: str, dtype: Any = np.float32) -> ov.Output:
    """``value`` with its shape changed as a body does from pass to pass."""
    if change == "row":  # a row appended on axis 0: [1,4] -> [2,4] -> [3,4]
        row_shape = op.scatter_update(op.shape_of(value), _const([0]), _const([1]), _const(0))
        row = op.broadcast(op.constant(np.array(1, dtype)), row_shape)
        return op.concat([value, row], 0).output(0)
    if change == "double":
        return op.concat([value, value], 0).output(0)
    if change == "shrink":  # cut to at most one row
        return op.slice(value, _const([0]), _const([1]), _const([1]), _const([0])).output(0)
    if change == "unsqueeze":  # one rank more
        return op.unsqueeze(value, _const([0])).output(0)
    return op.relu(value).output(0)


def _outer(name: str, shape: Any, dtype: Any = np.float32) -> ov.Node:
    partial = ov.PartialShape.dynamic() if shape is None else ov.PartialShape(shape)
    return op.parameter(partial, dtype, name=name)


def loop(
    name: str,
    shape: Any = (1, 4),
    change: str = "row",
    trip: int | None = 3,
    body_condition: bool | None = True,
    last: bool = True,
    concat: bool = False,
    to_i32: bool = False,
    dtype: Any = np.float32,
) -> Built:
    """A Loop over one merged input whose back edge brings ``change`` of it (converted to i32
    with ``to_i32``); its outputs: the back edge's value (``last``), a value computed from it,
    and its concatenation (``concat``). ``trip`` None: a trip count OpenVINO does not know;
    ``body_condition`` None: a condition that depends on the iteration."""
    x = _outer(f"{name}_x", shape, dtype)
    bx = op.parameter(x.get_output_partial_shape(0), dtype)
    current = op.parameter([], np.int64)
    value = _changed(bx.output(0), change, dtype)
    if to_i32:
        value = op.convert(value, "i32").output(0)
    elif dtype == np.int32:  # an i32 state computed in f32: the back edge converts it
        value = op.multiply(op.convert(value, "f32"), op.constant(np.array(1.5, np.float32))).output(0)
    used = op.multiply(op.convert(value, "f32"), op.constant(np.array(2.0, np.float32))).output(0)
    if body_condition is None:
        condition = op.less(current, _const(2)).output(0)
    else:
        condition = _const(body_condition, np.bool_).output(0)
    body = ov.Model([condition, value, used], [bx, current])
    inputs = [x]
    if trip is None:
        trip_count: ov.Node = _outer(f"{name}_trip", [], np.int64)
        inputs.append(trip_count)
    else:
        trip_count = _const(trip)
    node = op.loop(trip_count, _const(True, np.bool_))
    node.set_function(body)
    node.set_special_body_ports([1, 0])
    node.set_merged_input(bx, x.output(0), body.outputs[1])
    outputs = [node.get_iter_value(body.outputs[1], -1)] if last else []
    outputs.append(node.get_iter_value(body.outputs[2], -1))
    if concat:
        outputs.append(node.get_concatenated_slices(body.outputs[1], 0, 1, 1, -1, 0))
    node.set_friendly_name(name)
    return outputs, inputs


def chain(name: str, trip: int | None, ti: bool = False) -> Built:
    """Two merged inputs, the second's back edge changing only once the first's Parameter is
    dynamic: a Loop needs two passes of its fixed point (at most ``trip``) to widen both."""
    x1, x2 = _outer(f"{name}_x1", [1, 4]), _outer(f"{name}_x2", [1, 4])
    p1, p2 = op.parameter([1, 4], np.float32), op.parameter([1, 4], np.float32)
    r1 = _changed(p1.output(0), "row")
    second_row = op.slice(p1, _const([1]), _const([2]), _const([1]), _const([0]))  # [0,4] at first
    r2 = op.relu(op.concat([second_row, p2], 0)).output(0)
    inputs = [x1, x2]
    if ti:
        sequence, part = _outer(f"{name}_seq", [3, 2]), op.parameter([1, 2], np.float32)
        body = ov.Model([r1, r2, op.relu(part).output(0)], [p1, p2, part])
        node: Any = op.tensor_iterator()
        node.set_body(body)
        node.set_sliced_input(part, sequence.output(0), 0, 1, 1, -1, 0)
        inputs.append(sequence)
        first = 0
    else:
        body = ov.Model([_const(True, np.bool_).output(0), r1, r2], [p1, p2, op.parameter([], np.int64)])
        trip_count: ov.Node = _const(trip) if trip is not None else _outer(f"{name}_trip", [], np.int64)
        if trip is None:
            inputs.append(trip_count)
        node = op.loop(trip_count, _const(True, np.bool_))
        node.set_function(body)
        node.set_special_body_ports([2, 0])
        first = 1
    node.set_merged_input(p1, x1.output(0), body.outputs[first])
    node.set_merged_input(p2, x2.output(0), body.outputs[first + 1])
    node.set_friendly_name(name)
    return [
        node.get_iter_value(body.outputs[first], -1),
        node.get_iter_value(body.outputs[first + 1], -1),
    ], inputs


def tensor_iterator(
    name: str, shape: Any = (1, 4), change: str = "row", concat: bool = False, to_i32: bool = False
) -> Built:
    """A TensorIterator over a sliced sequence of 3 with one merged input whose back edge
    brings ``change`` of it."""
    x, sequence = _outer(f"{name}_x", shape), _outer(f"{name}_seq", [3, 2])
    bx, part = op.parameter(x.get_output_partial_shape(0), np.float32), op.parameter([1, 2], np.float32)
    value = _changed(bx.output(0), change)
    if to_i32:
        value = op.convert(value, "i32").output(0)
    used = op.multiply(op.convert(value, "f32"), op.constant(np.array(2.0, np.float32))).output(0)
    body = ov.Model([value, used, op.relu(part).output(0)], [bx, part])
    node = op.tensor_iterator()
    node.set_body(body)
    node.set_sliced_input(part, sequence.output(0), 0, 1, 1, -1, 0)
    node.set_merged_input(bx, x.output(0), body.outputs[0])
    outputs = [node.get_iter_value(body.outputs[0], -1), node.get_iter_value(body.outputs[1], -1)]
    if concat:
        outputs.append(node.get_concatenated_slices(body.outputs[0], 0, 1, 1, -1, 0))
    node.set_friendly_name(name)
    return outputs, [x, sequence]


def loop_ports(name: str, change: str = "row", current_shape: list[int] | None = None) -> Built:
    """A Loop with every kind of port: a sequence sliced on axis 0, an invariant input, a
    merged one whose back edge brings ``change`` of it, the current-iteration Parameter (a
    scalar, or of ``current_shape``) added to the value; outputs of the last iteration and
    a concatenation of the slices."""
    x, sequence, invariant = (
        _outer(f"{name}_x", [1, 4]),
        _outer(f"{name}_seq", [3, 2]),
        _outer(f"{name}_inv", [1, 4]),
    )
    bx, part, binv = (op.parameter(shape, np.float32) for shape in ([1, 4], [1, 2], [1, 4]))
    current = op.parameter(current_shape or [], np.int64)
    value = _changed(op.add(bx, binv).output(0), change)
    value = op.add(value, op.convert(current, "f32")).output(0)
    body = ov.Model(
        [_const(True, np.bool_).output(0), value, op.relu(part).output(0), op.relu(binv).output(0)],
        [bx, part, binv, current],
    )
    node = op.loop(_const(3), _const(True, np.bool_))
    node.set_function(body)
    node.set_special_body_ports([3, 0])
    node.set_sliced_input(part, sequence.output(0), 0, 1, 1, -1, 0)
    node.set_invariant_input(binv, invariant.output(0))
    node.set_merged_input(bx, x.output(0), body.outputs[1])
    outputs = [
        node.get_iter_value(body.outputs[1], -1),
        node.get_concatenated_slices(body.outputs[2], 0, 1, 1, -1, 0),
        node.get_iter_value(body.outputs[3], -1),
    ]
    node.set_friendly_name(name)
    return outputs, [x, sequence, invariant]


def ti_ports(name: str, change: str = "same") -> Built:
    """A TensorIterator with every kind of port: a sequence sliced backwards on axis 1, an
    invariant input, a merged one whose back edge brings ``change`` of it; a concatenated
    output (backwards, on axis 1) and last-iteration outputs."""
    x, sequence, invariant = (
        _outer(f"{name}_x", [2, 4]),
        _outer(f"{name}_seq", [2, 3, 4]),
        _outer(f"{name}_inv", [2, 4]),
    )
    bx, part, binv = (op.parameter(shape, np.float32) for shape in ([2, 4], [2, 1, 4], [2, 4]))
    step = op.squeeze(part, _const([1]))
    value = _changed(op.add(op.multiply(bx, binv), step).output(0), change)
    body = ov.Model(
        [value, op.unsqueeze(value, _const([1])).output(0), op.relu(binv).output(0)], [bx, part, binv]
    )
    node = op.tensor_iterator()
    node.set_body(body)
    node.set_sliced_input(part, sequence.output(0), -1, -1, 1, 0, 1)
    node.set_invariant_input(binv, invariant.output(0))
    node.set_merged_input(bx, x.output(0), body.outputs[0])
    outputs = [
        node.get_iter_value(body.outputs[0], -1),
        node.get_concatenated_slices(body.outputs[1], -1, -1, 1, 0, 1),
        node.get_iter_value(body.outputs[2], -1),
    ]
    node.set_friendly_name(name)
    return outputs, [x, sequence, invariant]


def loop_back_to(name: str, shape: Any, back: str, length: int) -> Built:
    """A Loop whose back edge brings its Parameter (of the outer ``shape``, an interval) its
    first ``length`` rows (``back`` "slice"), or its rows summed and broadcast to ``length``
    ("broadcast"): a body value inside the Parameter's dims or not."""
    x = _outer(f"{name}_x", shape)
    bx = op.parameter(x.get_output_partial_shape(0), np.float32)
    if back == "slice":
        value = op.slice(bx, _const([0]), _const([length]), _const([1]), _const([0])).output(0)
    else:
        value = op.broadcast(op.reduce_sum(bx, _const([0]), True), _const([length, 4])).output(0)
    body = ov.Model([_const(True, np.bool_).output(0), value], [bx])
    node = op.loop(_const(3), _const(True, np.bool_))
    node.set_function(body)
    node.set_special_body_ports([-1, 0])
    node.set_merged_input(bx, x.output(0), body.outputs[1])
    node.set_friendly_name(name)
    return [node.get_iter_value(body.outputs[1], -1)], [x]


INTERVAL = (ov.Dimension(1, 3), 4)

# Read by read_model: every back edge kind, growth, interval, dynamic rank, element type change
SHAPE_CASES: dict[str, Callable[[str], Built]] = {
    "loop_row_trip3": lambda n: loop(n),
    "loop_row_trip1": lambda n: loop(n, trip=1),  # one pass of the fixed point
    "loop_row_trip0": lambda n: loop(n, trip=0),  # no pass: the Parameter stays [1,4]
    "loop_row_trip_unknown": lambda n: loop(n, trip=None),
    "loop_row_do_while": lambda n: loop(n, body_condition=False),
    "loop_row_condition_varies": lambda n: loop(n, body_condition=None),
    "loop_row_interval": lambda n: loop(n, shape=INTERVAL),
    "loop_row_dynamic_rank": lambda n: loop(n, shape=None),
    "loop_row_back_edge_only": lambda n: loop(n, last=False),  # no fixed point: not an output
    "loop_row_concatenated_only": lambda n: loop(n, last=False, concat=True),
    "loop_row_concatenated": lambda n: loop(n, concat=True),
    "loop_unsqueeze": lambda n: loop(n, change="unsqueeze"),  # another rank: a dynamic rank
    "loop_double": lambda n: loop(n, shape=(2, 4), change="double"),
    "loop_shrink": lambda n: loop(n, shape=(3, 4), change="shrink"),
    "loop_to_i32": lambda n: loop(n, change="same", to_i32=True),
    "loop_dynamic_to_i32": lambda n: loop(n, shape=(-1, 4), change="same", to_i32=True),
    "ti_dynamic_to_i32": lambda n: tensor_iterator(n, shape=(-1, 4), change="same", to_i32=True),
    "loop_row_to_i32": lambda n: loop(n, to_i32=True),
    "loop_i32_state": lambda n: loop(n, change="same", dtype=np.int32),
    "loop_chain_trip1": lambda n: chain(n, 1),
    "loop_chain_trip2": lambda n: chain(n, 2),
    "loop_chain_trip3": lambda n: chain(n, 3),
    "loop_chain_trip_unknown": lambda n: chain(n, None),
    "ti_row": lambda n: tensor_iterator(n),
    "ti_row_concatenated": lambda n: tensor_iterator(n, concat=True),
    "ti_row_interval": lambda n: tensor_iterator(n, shape=INTERVAL),
    "ti_row_dynamic_rank": lambda n: tensor_iterator(n, shape=None),
    "ti_unsqueeze": lambda n: tensor_iterator(n, change="unsqueeze"),
    "ti_shrink": lambda n: tensor_iterator(n, shape=(3, 4), change="shrink"),
    "ti_to_i32": lambda n: tensor_iterator(n, change="same", to_i32=True),
    "ti_chain": lambda n: chain(n, 3, ti=True),
    "ti_row_dynamic": lambda n: tensor_iterator(n, shape=(-1, 4)),
    "loop_row_back_edge_only_dynamic": lambda n: loop(n, shape=(-1, 4), last=False),
    "loop_row_back_edge_only_interval": lambda n: loop(n, shape=INTERVAL, last=False),
    "loop_ports_row": lambda n: loop_ports(n),
    "loop_ports_same": lambda n: loop_ports(n, change="same", current_shape=[1]),
    "loop_ports_shrink": lambda n: loop_ports(n, change="shrink"),
    "ti_ports_same": lambda n: ti_ports(n),
    "ti_ports_row": lambda n: ti_ports(n, change="row"),
    # a body value inside the Parameter's interval keeps it; one only meeting it widens it
    "loop_1to5_first2": lambda n: loop_back_to(n, (ov.Dimension(1, 5), 4), "slice", 2),
    "loop_1to5_first7": lambda n: loop_back_to(n, (ov.Dimension(1, 5), 4), "slice", 7),
    "loop_3to5_first2": lambda n: loop_back_to(n, (ov.Dimension(3, 5), 4), "slice", 2),
    "loop_dynamic_first2": lambda n: loop_back_to(n, (-1, 4), "slice", 2),
    "loop_0to2_first1": lambda n: loop_back_to(n, (ov.Dimension(0, 2), 4), "slice", 1),
    "loop_1to5_to3": lambda n: loop_back_to(n, (ov.Dimension(1, 5), 4), "broadcast", 3),
    "loop_1to5_to7": lambda n: loop_back_to(n, (ov.Dimension(1, 5), 4), "broadcast", 7),
    "loop_dynamic_to3": lambda n: loop_back_to(n, (-1, 4), "broadcast", 3),
    # an initial value with dims of 0 (TensorFlow's empty TensorList, [0,1]): those dims dynamic
    "loop_empty_same": lambda n: loop(n, shape=(0, 4), change="same"),
    "loop_empty_back_edge_only": lambda n: loop(n, shape=(0, 4), change="same", last=False),
    "loop_empty_columns_row": lambda n: loop(n, shape=(2, 0), change="row"),
    "loop_0to2_same": lambda n: loop(n, shape=(ov.Dimension(0, 2), 4), change="same"),
    "ti_empty_same": lambda n: tensor_iterator(n, shape=(0, 4), change="same"),
}

# Run by the CPU plugin (static inputs; an unknown trip count given as 3)
RUN_CASES = [
    "loop_row_trip3",
    "loop_row_trip1",
    "loop_row_trip_unknown",
    "loop_row_do_while",
    "loop_row_condition_varies",
    "loop_double",
    "loop_shrink",
    "loop_to_i32",
    "loop_i32_state",
    "loop_chain_trip1",
    "loop_chain_trip2",
    "loop_chain_trip3",
    "loop_chain_trip_unknown",
    "ti_to_i32",
    "loop_ports_row",
    "loop_ports_same",
    "loop_ports_shrink",
    "ti_ports_same",
    # a Parameter dynamic in the model as read takes every shape (the model compiled dynamic)
    "ti_row_interval",
    "ti_row_dynamic",
    "loop_row_back_edge_only_dynamic",
    "loop_row_back_edge_only_interval",
]

# The CPU plugin fails them (compiling or inferring), and irshape run says why
FAILING_CASES = {
    "loop_row_back_edge_only": "OpenVINO's shape inference made [1, 4]",
    "loop_row_concatenated_only": "OpenVINO's shape inference made [1, 4]",
    "loop_row_concatenated": "takes only parts |stride| long",
    "ti_row": "OpenVINO's shape inference made [1, 4]",
    "ti_row_concatenated": "OpenVINO's shape inference made [1, 4]",
    "ti_unsqueeze": "OpenVINO's shape inference made [1, 4]",
    "ti_shrink": "OpenVINO's shape inference made [3, 4]",
    "ti_chain": "OpenVINO's shape inference made [1, 4]",
    "ti_ports_row": "OpenVINO's shape inference made [2, 4]",
    "loop_unsqueeze": "doesn't support Loop operation with dynamic rank",
}


def _save(names: list[str], xml: Path) -> None:
    outputs: list[ov.Output] = []
    inputs: list[ov.Node] = []
    for name in names:
        made, needed = SHAPE_CASES[name](name)
        outputs += made
        inputs += needed
    ov.save_model(ov.Model([op.result(o) for o in outputs], inputs), xml, compress_to_fp16=False)


def _shapes(outputs: Any) -> list[str]:
    return [f"{o.get_partial_shape()} {o.get_element_type().get_type_name()}" for o in outputs]


@pytest.fixture(scope="module")
def shapes_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    xml = tmp_path_factory.mktemp("back_edges") / "shapes.xml"
    _save(list(SHAPE_CASES), xml)
    return xml


def test_outer_and_body_shapes_are_openvinos(shapes_file: Path) -> None:
    """Each node's outputs, and every body layer's outputs, as read_model gives them."""
    model = ov.Core().read_model(shapes_file)
    nodes = {node.get_friendly_name(): node for node in model.get_ordered_ops()}
    report = irshape.check_file(shapes_file)
    assert not report.errors, [d.message for d in report.errors][:3]
    ours = {
        r.name: [f"{s} {t}" for s, t in zip(r.outputs, r.element_types, strict=True)] for r in report.layers
    }
    wrong = [
        (n, ours[n], _shapes(nodes[n].outputs()))
        for n in SHAPE_CASES
        if ours[n] != _shapes(nodes[n].outputs())
    ]
    document = read_file(shapes_file).document
    assert document is not None
    port_shapes: dict[int, Any] = {}
    check_document(document, lambda finding: None, port_shapes=port_shapes)
    compared = 0
    for layer in document.layers:
        if layer.name not in SHAPE_CASES or layer.subgraphs is None:
            continue
        body_nodes = {n.get_friendly_name(): n for n in nodes[layer.name].get_function().get_ordered_ops()}
        for body_layer in layer.subgraphs.bodies["body"].layers:
            node = body_nodes[body_layer.name]
            if body_layer.type == "Result":
                continue  # (an output OpenVINO's Result has and its IR layer does not)
            for port, output in zip(body_layer.outputs, node.outputs(), strict=True):
                theirs = str(output.get_partial_shape())
                compared += 1
                if str(port_shapes.get(id(port))) != theirs:
                    wrong.append((f"{layer.name}/{body_layer.name}", port_shapes.get(id(port)), theirs))
    assert not wrong, wrong[:10]
    assert compared > 200


def test_the_facts_the_docs_state(shapes_file: Path) -> None:
    """What docs/openvino-ir-reading.md says of these cases, pinned on read_model."""
    nodes = {n.get_friendly_name(): n for n in ov.Core().read_model(shapes_file).get_ordered_ops()}

    def body_parameter(name: str, index: int = 0) -> str:
        return str(nodes[name].get_function().get_parameters()[index].get_partial_shape())

    assert body_parameter("loop_row_trip3") == "[?,4]"
    assert body_parameter("loop_row_trip0") == "[1,4]"  # no pass at all
    assert body_parameter("loop_row_back_edge_only") == "[1,4]"  # not a last-iteration output
    assert body_parameter("loop_unsqueeze") == "[...]"
    assert [body_parameter("loop_chain_trip1", i) for i in (0, 1)] == ["[?,4]", "[1,4]"]
    assert [body_parameter("loop_chain_trip2", i) for i in (0, 1)] == ["[?,4]", "[?,4]"]
    assert body_parameter("ti_row") == "[1,4]"  # a TensorIterator has no fixed point
    assert _shapes(nodes["ti_row"].outputs()) == ["[2,4] f32", "[2,4] f32"]
    assert _shapes(nodes["loop_to_i32"].outputs())[0] == "[1,4] i32"  # the Parameter stays f32
    assert body_parameter("loop_1to5_first2") == "[1..5,4]"  # [1..2] lies inside: kept
    assert body_parameter("loop_3to5_first2") == "[?,4]"  # [2] lies outside [3..5]: widened
    assert body_parameter("loop_row_interval") == "[?,4]"  # [2..4] meets [1..3]: widened
    assert body_parameter("loop_1to5_to3") == "[1..5,4]"
    assert body_parameter("loop_dynamic_to3") == "[?,4]"
    assert body_parameter("loop_empty_same") == "[?,4]"  # a static 0 is dynamic in the body
    assert body_parameter("loop_empty_back_edge_only") == "[?,4]"
    assert body_parameter("loop_0to2_same") == "[..2,4]"  # an interval from 0 is not
    assert body_parameter("ti_empty_same") == "[0,4]"  # nor a TensorIterator's


def _inputs(document: Any) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(0)
    inputs = {
        layer.name or "": random_input(layer, parameter_shape(layer), rng, 1, clamp=True)
        for layer in parameters(document)
    }
    for name in inputs:
        if name.endswith("_trip"):
            inputs[name] = np.array(3, np.int64)
        elif name.startswith("loop_i32_state"):
            inputs[name] = np.array([[1, 3, 5, -3]], np.int32)  # 1.5, 4.5, 7.5: ties rounded to even
    return inputs


def test_execution_equals_openvino_cpu(tmp_path: Path) -> None:
    """The Loops whose shapes grow per iteration and the back edges that convert an element
    type, run by irshape, equal the CPU plugin's outputs."""
    xml = tmp_path / "run.xml"
    _save(RUN_CASES, xml)
    document = read_file(xml).document
    assert document is not None
    comparison = compare_document(document, _inputs(document))
    assert not comparison.not_run, [f.message() for f in comparison.not_run[:5]]
    assert not comparison.divergent, [describe(c) for c in comparison.divergent[:5]]
    assert {c.layer.name for c in comparison.outputs} >= set(RUN_CASES)


def _cpu_fails(xml: Path, inputs: dict[str, np.ndarray]) -> bool:
    try:
        compiled = ov.Core().compile_model(str(xml), "CPU", CPU_CONFIG)
        compiled.infer_new_request({name: value for name, value in inputs.items()})
    except RuntimeError:
        return True
    return False


@pytest.mark.parametrize("name", list(FAILING_CASES))
def test_what_the_cpu_plugin_fails_irshape_refuses(tmp_path: Path, name: str) -> None:
    xml = tmp_path / f"{name}.xml"
    _save([name], xml)
    document = read_file(xml).document
    assert document is not None
    inputs = _inputs(document)
    assert _cpu_fails(xml, inputs)
    with pytest.raises(RunError, match=FAILING_CASES[name].replace("|", r"\|").replace("[", r"\[")):
        run_document(document, inputs)


def test_a_dynamic_parameter_takes_the_back_edges_bytes(tmp_path: Path) -> None:
    """Where the Parameter is dynamic in the model as read (the Loop's fixed point made it so,
    or the outer input is), the CPU plugin hands the i32 Result's bytes to the f32 Parameter
    unconverted (1 becomes a denormal, which the next Convert makes 0); irshape does the same."""
    names = ["loop_row_to_i32", "loop_dynamic_to_i32", "ti_dynamic_to_i32"]
    xml = tmp_path / "bytes.xml"
    _save(names, xml)
    inputs = {f"{name}_x": np.array([[1.0, 2.0, 3.0, 4.0]], np.float32) for name in names}
    inputs["ti_dynamic_to_i32_seq"] = np.ones([3, 2], np.float32)
    compiled = ov.Core().compile_model(str(xml), "CPU", CPU_CONFIG)
    request = compiled.infer_new_request(inputs)
    last = request[compiled.outputs[0]]
    converted = [[1, 2, 3, 4], [1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1]]  # had it converted
    assert last.tolist() == [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [1, 1, 1, 1]] != converted
    document = read_file(xml).document
    assert document is not None
    comparison = compare_document(document, inputs)
    assert not comparison.not_run, [f.message() for f in comparison.not_run[:5]]
    assert not comparison.divergent, [describe(c) for c in comparison.divergent[:5]]
    assert {c.layer.name for c in comparison.outputs} >= set(names)


def test_a_body_dim_off_by_one_is_irs301_at_the_last_pass(shapes_file: Path, tmp_path: Path) -> None:
    """A body layer's declared output dim one off the static dim OpenVINO's last pass gives
    (the first such layer of each body, not a Parameter, whose declared shape OpenVINO builds
    the body from) is IRS301 on that layer, named by its path of ids, and nothing else is."""
    model = ov.Core().read_model(shapes_file)
    nodes = {node.get_friendly_name(): node for node in model.get_ordered_ops()}
    tree = etree.parse(str(shapes_file))
    expected: set[str] = set()
    for name in SHAPE_CASES:
        (outer,) = tree.xpath(f"/net/layers/layer[@name='{name}']")
        body_nodes = {n.get_friendly_name(): n for n in nodes[name].get_function().get_ordered_ops()}
        for layer in outer.xpath(
            "./body/layers/layer[not(@type='Parameter') and not(@type='Result') and not(@type='Const')]"
        ):
            shape = body_nodes[layer.get("name")].get_output_partial_shape(0)
            dims = layer.xpath("./output/port[1]/dim")
            if shape.rank.is_dynamic or not dims or not shape[0].is_static:
                continue
            dims[0].text = str(shape[0].get_length() + 1)
            expected.add(f"{outer.get('id')}/body/{layer.get('id')}")
            break
    mutant = tmp_path / "mutant.xml"
    tree.write(str(mutant))
    mutant.with_suffix(".bin").write_bytes(shapes_file.with_suffix(".bin").read_bytes())
    report = irshape.check_file(mutant)
    found = {d.layer_id for d in report.diagnostics if d.code == "IRS301"}
    assert len(expected) >= 20
    assert found == expected, (sorted(expected - found), sorted(found - expected))


_NP = {
    "f32": np.float32,
    "f16": np.float16,
    "u8": np.uint8,
    "i16": np.int16,
    "i32": np.int32,
    "i64": np.int64,
}


def _retyped_loop(name: str, state: str, back: str) -> Built:
    """A Loop of 3 trips over a dynamic merged input of ``state`` whose back edge brings its
    value plus one in ``back``; its output: what the Parameter held at each iteration (in f32)."""
    x = _outer(f"{name}_x", (-1, 4), _NP[state])
    bx = op.parameter([-1, 4], _NP[state])
    value = op.convert(op.add(op.convert(bx, "f32"), _const(1.0, np.float32)), back)
    held = op.unsqueeze(op.convert(bx, "f32"), _const([0]))
    body = ov.Model([_const(True, np.bool_).output(0), value.output(0), held.output(0)], [bx])
    node = op.loop(_const(3), _const(True, np.bool_))
    node.set_function(body)
    node.set_special_body_ports([-1, 0])
    node.set_merged_input(bx, x.output(0), body.outputs[1])
    node.set_friendly_name(name)
    return [node.get_concatenated_slices(body.outputs[2], 0, 1, 1, -1, 0)], [x]


# (the Parameter's type, the back edge's): of one size as the CPU plugin holds them (i64 as
# i32, i16 as i32, f16 as f32 under the f32 hint)
SAME_SIZE = [("f32", "i64"), ("i64", "f32"), ("i32", "i16"), ("i16", "i32"), ("f16", "f32"), ("f32", "f16")]


def _retyped_file(pairs: list[tuple[str, str]], xml: Path) -> dict[str, np.ndarray]:
    outputs: list[ov.Output] = []
    inputs: list[ov.Node] = []
    for state, back in pairs:
        made, needed = _retyped_loop(f"retyped_{state}_{back}", state, back)
        outputs += made
        inputs += needed
    ov.save_model(ov.Model([op.result(o) for o in outputs], inputs), xml, compress_to_fp16=False)
    return {f"retyped_{state}_{back}_x": np.array([[1, 2, 3, 1]], _NP[state]) for state, back in pairs}


def test_back_edges_of_one_size_as_the_plugin_holds_types_pass_their_bytes(tmp_path: Path) -> None:
    """A dynamic Parameter takes a back edge of another type of the same size as the plugin
    holds them: its bytes (f32 2.0 read as i64 is 1073741824, i64 2 read as f32 a denormal);
    i32 and i16, f32 and f16 are one type to the plugin (f32 hint): their values pass."""
    xml = tmp_path / "retyped.xml"
    inputs = _retyped_file(SAME_SIZE, xml)
    compiled = ov.Core().compile_model(str(xml), "CPU", CPU_CONFIG)
    request = compiled.infer_new_request(inputs)
    held = {pair: request[compiled.outputs[i]].reshape(3, 4) for i, pair in enumerate(SAME_SIZE)}
    assert held[("i64", "f32")][1].tolist() == [1073741824.0, 1077936128.0, 1082130432.0, 1073741824.0]
    assert held[("i32", "i16")][2].tolist() == [3, 4, 5, 3]
    document = read_file(xml).document
    assert document is not None
    comparison = compare_document(document, inputs)
    assert not comparison.not_run, [f.message() for f in comparison.not_run[:5]]
    assert not comparison.divergent, [describe(c) for c in comparison.divergent[:5]]


def test_a_back_edge_of_another_size_is_refused(tmp_path: Path) -> None:
    """A u8 back edge into a dynamic f32 Parameter: the plugin writes the 4 bytes it brings and
    the Parameter reads 16, the last three elements left from the iteration before (not the
    values brought, converted or not): memory the back edge does not fill. (The other way, u8
    taking f32's 16 bytes, overruns the Parameter's memory: the process aborts, 'malloc():
    unaligned fastbin chunk detected'.) irshape refuses it and says why."""
    xml = tmp_path / "sizes.xml"
    inputs = _retyped_file([("f32", "u8")], xml)
    compiled = ov.Core().compile_model(str(xml), "CPU", CPU_CONFIG)
    held = compiled.infer_new_request(inputs)[compiled.outputs[0]].reshape(3, 4)
    assert held[0].tolist() == [1, 2, 3, 1]
    assert held[1, 1:].tolist() == held[0, 1:].tolist() != [3, 4, 2]  # left from iteration 0
    document = read_file(xml).document
    assert document is not None
    with pytest.raises(RunError, match="models only between types of one size"):
        run_document(document, inputs)


def _any_rank(name: str, dtype: Any = np.float32) -> ov.Node:
    return op.parameter(ov.PartialShape.dynamic(), dtype, name=name)


def _loop_fed_by_dynamic_rank(port: str) -> tuple[ov.Model, dict[str, np.ndarray]]:
    """A Loop over a static [1,4] whose trip count or execution condition comes from a
    Parameter of dynamic rank (no body Parameter of dynamic rank)."""
    x = _outer("x", (1, 4))
    bx = op.parameter([1, 4], np.float32)
    body = ov.Model([_const(True, np.bool_).output(0), op.relu(bx).output(0)], [bx])
    trip: ov.Node = _any_rank("trip", np.int64) if port == "trip" else _const(3)
    condition: ov.Node = _any_rank("condition", np.bool_) if port == "condition" else _const(True, np.bool_)
    node = op.loop(trip, condition)
    node.set_function(body)
    node.set_special_body_ports([-1, 0])
    node.set_merged_input(bx, x.output(0), body.outputs[1])
    inputs = [x] + [p for p in (trip, condition) if p.get_type_name() == "Parameter"]
    feeds = {"x": np.ones((1, 4), np.float32), "trip": np.array(3), "condition": np.array(True)}
    model = ov.Model([op.result(node.get_iter_value(body.outputs[1], -1))], inputs)
    return model, {p.get_friendly_name(): feeds[p.get_friendly_name()] for p in inputs}


def _if_fed_by_dynamic_rank(port: str) -> tuple[ov.Model, dict[str, np.ndarray]]:
    """An If whose condition or data input is of dynamic rank; its branches' outputs of rank 1."""
    x = _any_rank("x") if port == "data" else _outer("x", (1, 4))
    condition = _any_rank("condition", np.bool_) if port == "condition" else _outer("condition", (), np.bool_)
    branches = []
    for _ in range(2):
        p = op.parameter(x.get_output_partial_shape(0), np.float32)
        total = op.reduce_sum(op.reshape(p, _const([-1]), False), _const([0]), True)
        branches.append((ov.Model([total.output(0)], [p]), p))
    node = op.if_op(condition)
    node.set_then_body(branches[0][0])
    node.set_else_body(branches[1][0])
    node.set_input(x.output(0), branches[0][1], branches[1][1])
    out = node.set_output(branches[0][0].results[0], branches[1][0].results[0])
    model = ov.Model([op.result(out)], [x, condition])
    return model, {"x": np.ones((1, 4), np.float32), "condition": np.array(True)}


def _relu_of_dynamic_rank() -> tuple[ov.Model, dict[str, np.ndarray]]:
    x = _any_rank("x")
    return ov.Model([op.result(op.relu(x))], [x]), {"x": np.ones((1, 4), np.float32)}


DYNAMIC_RANK_PORTS = {
    "relu": _relu_of_dynamic_rank,
    "loop_trip_count": lambda: _loop_fed_by_dynamic_rank("trip"),
    "loop_execution_condition": lambda: _loop_fed_by_dynamic_rank("condition"),
    "if_condition": lambda: _if_fed_by_dynamic_rank("condition"),
    "if_data": lambda: _if_fed_by_dynamic_rank("data"),
}


@pytest.mark.parametrize("name", list(DYNAMIC_RANK_PORTS))
def test_a_port_of_dynamic_rank_run_at_static_data_is_refused(tmp_path: Path, name: str) -> None:
    """The narrower cases of a Loop or If fed by an input of dynamic rank at static data: no
    body Parameter of dynamic rank, only an outer input (a Loop's trip count or execution
    condition, an If's condition or data whose branches give static ranks), which irshape ran.
    What the plugin refuses is the model's Parameter of dynamic rank itself, whatever reads it
    (a Relu alike: 'CPU plug-in doesn't support Parameter operation with dynamic rank');
    irshape now refuses such a Parameter, saying why."""
    model, feeds = DYNAMIC_RANK_PORTS[name]()
    xml = tmp_path / f"{name}.xml"
    ov.save_model(model, xml, compress_to_fp16=False)
    with pytest.raises(RuntimeError, match="support Parameter operation with dynamic rank"):
        ov.Core().compile_model(str(xml), "CPU", CPU_CONFIG)
    document = read_file(xml).document
    assert document is not None
    with pytest.raises(RunError, match="support Parameter operation with dynamic rank"):
        run_document(document, feeds)


def _loop_of_trip_input(xml: Path, other_output: bool = True) -> None:
    """x [?,3] -> Loop (trip count from a Parameter; body: x + 1 back to the Parameter, and
    x * 5 an output of no back edge, with ``other_output``)."""
    x = _outer("x", (-1, 3))
    trip = _outer("trip", (), np.int64)
    bx = op.parameter([-1, 3], np.float32)
    plus = op.add(bx, op.constant(np.float32(1)))
    times = op.multiply(bx, op.constant(np.float32(5)))
    body = ov.Model([_const(True, np.bool_).output(0), plus.output(0), times.output(0)], [bx])
    node = op.loop(trip, _const(True, np.bool_))
    node.set_function(body)
    node.set_special_body_ports([-1, 0])
    node.set_merged_input(bx, x.output(0), body.outputs[1])
    outputs = [node.get_iter_value(body.outputs[1], -1)]
    if other_output:
        outputs.append(node.get_iter_value(body.outputs[2], -1))
    ov.save_model(ov.Model([op.result(o) for o in outputs], [x, trip]), xml, compress_to_fp16=False)


def test_a_loop_of_no_iteration(tmp_path: Path) -> None:
    """Run at a trip count of 0, the back edge's output gives the merged input (irshape does
    the same), and the output of no back edge gives what the request's last inference left
    in the body's memory (the values of the run before at trip count 2: memory no iteration
    of this inference wrote), which irshape refuses, saying why."""
    xml = tmp_path / "no_iteration.xml"
    _loop_of_trip_input(xml)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    compiled = ov.Core().compile_model(str(xml), "CPU", CPU_CONFIG)
    request = compiled.create_infer_request()
    request.infer({"x": x + 10, "trip": np.array(2)})
    before = np.array(request.get_output_tensor(1).data)
    request.infer({"x": x, "trip": np.array(0)})
    assert np.array_equal(request.get_output_tensor(0).data, x)
    assert np.array_equal(request.get_output_tensor(1).data, before)  # left from the run before
    assert before.tolist() == ((x + 11) * 5).tolist()
    document = read_file(xml).document
    assert document is not None
    with pytest.raises(RunError, match="body memory no iteration wrote"):
        run_document(document, {"x": x, "trip": np.array(0)})
    alone = tmp_path / "merged_only.xml"  # without that output: the merged input, as the plugin
    _loop_of_trip_input(alone, other_output=False)
    document = read_file(alone).document
    assert document is not None
    (result,) = run_document(document, {"x": x, "trip": np.array(0)}).results.values()
    assert np.array_equal(result, x)
