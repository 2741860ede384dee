"""``check_layer`` / ``infer_layer`` on ops beyond the convolutions, against OpenVINO's own
shape inference of the same op built with its Python API (the oracle; never skipped).

A converter calls irshape with plain values before it writes IR: the shapes, the values of the
inputs that decide the shape (as Consts would give them), the attributes as ``<data>`` text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import openvino as ov
import openvino.opset8 as op8
import openvino.opset11 as op11
import pytest

import irshape


def _ov_outputs(build: Callable[[], Any]) -> list[tuple[str, str]]:
    node = build()
    return [
        (str(o.get_partial_shape()).replace(" ", ""), o.get_element_type().get_type_name())
        for o in node.outputs()
    ]


def _param(shape: str, element_type: Any = np.float32) -> Any:
    return op8.parameter(ov.PartialShape(shape), element_type)


def _const(values: list[Any], element_type: Any = np.int64) -> Any:
    return op8.constant(np.array(values, dtype=element_type))


CASES: list[tuple[str, Callable[[], Any], dict[str, Any]]] = [
    (
        "Reshape special_zero",
        lambda: op8.reshape(_param("2,3,4"), _const([0, -1, 2]), special_zero=True),
        dict(
            op_type="Reshape",
            attributes={"special_zero": "true"},
            input_shapes=["2,3,4", [3]],
            input_values={1: [0, -1, 2]},
        ),
    ),
    (
        "Split on a negative axis",
        lambda: op8.split(_param("1,6,?"), _const(-2), 3),
        dict(
            op_type="Split", attributes={"num_splits": 3}, input_shapes=["1,6,?", []], input_values={1: [-2]}
        ),
    ),
    (
        "Gather with batch_dims",
        lambda: op8.gather(_param("2,5,7"), _const([[0, 1, 2], [3, 4, 0]]), _const(1), batch_dims=1),
        dict(
            op_type="Gather",
            attributes={"batch_dims": 1},
            input_shapes=["2,5,7", [2, 3], []],
            input_values={1: [0, 1, 2, 3, 4, 0], 2: [1]},
            version="opset8",
        ),
    ),
    (
        "TopK-11 with an i32 index type",
        lambda: op11.topk(
            _param("4,10..20"), _const(3), axis=1, mode="max", sort="value", index_element_type="i32"
        ),
        dict(
            op_type="TopK",
            attributes={"axis": 1, "mode": "max", "sort": "value", "index_element_type": "i32"},
            input_shapes=["4,10..20", []],
            input_values={1: [3]},
            version="opset11",
        ),
    ),
    (
        "Interpolate-11 scales",
        lambda: op11.interpolate(
            _param("1,3,10,?"), _const([2.0, 1.5], np.float32), "nearest", "scales", axes=_const([2, 3])
        ),
        dict(
            op_type="Interpolate",
            attributes={"mode": "nearest", "shape_calculation_mode": "scales"},
            input_shapes=["1,3,10,?", [2], [2]],
            input_values={1: [2.0, 1.5], 2: [2, 3]},
            input_element_types=["f32", "f32", "i64"],
            version="opset11",
        ),
    ),
    (
        "MaxPool-8: values and indices",
        lambda: op8.max_pool(
            _param("1,3,9,9"), [2, 2], [1, 1], [0, 0], [0, 0], [3, 3], "ceil", "explicit", "i32"
        ),
        dict(
            op_type="MaxPool",
            attributes={
                "strides": [2, 2],
                "dilations": [1, 1],
                "pads_begin": [0, 0],
                "pads_end": [0, 0],
                "kernel": [3, 3],
                "rounding_type": "ceil",
                "index_element_type": "i32",
            },
            input_shapes=["1,3,9,9"],
            version="opset8",
        ),
    ),
    (
        "Broadcast bidirectional",
        lambda: op8.broadcast(_param("3,1"), _const([2, 1, 4]), broadcast_spec="BIDIRECTIONAL"),
        dict(
            op_type="Broadcast",
            attributes={"mode": "bidirectional"},
            input_shapes=["3,1", [3]],
            input_values={1: [2, 1, 4]},
            version="opset3",
        ),
    ),
]


@pytest.mark.parametrize(("build", "call"), [(b, c) for _, b, c in CASES], ids=[name for name, _, _ in CASES])
def test_check_layer_infers_what_openvino_infers(build: Callable[[], Any], call: dict[str, Any]) -> None:
    result = irshape.check_layer(**call)
    assert result.ok, result.diagnostics
    ours = [
        (str(shape), element_type)
        for shape, element_type in zip(result.output_shapes, result.element_types, strict=True)
    ]
    assert ours == _ov_outputs(build)


def test_an_input_value_not_given_is_said_once_and_the_shape_stays_open() -> None:
    result = irshape.check_layer("Reshape", {"special_zero": "false"}, ["2,3,4", [3]])
    assert [d.code for d in result.diagnostics] == ["IRS306"]
    assert "input_values" in result.diagnostics[0].message
    assert str(result.output_shape) == "[?,?,?]"  # rank 3 from the target's length, as OpenVINO


def test_infer_layer_reads_the_op_of_the_opset_named() -> None:
    # MaxPool in opset1 has one output; opset8's two (values, indices): the first is the same.
    assert (
        str(
            irshape.infer_layer(
                "MaxPool",
                {"kernel": [2, 2], "strides": [2, 2], "pads_begin": [0, 0], "pads_end": [0, 0]},
                ["1,3,9,9"],
                version="opset8",
            )
        )
        == "[1,3,4,4]"
    )


def test_input_values_of_the_wrong_kind_raise_type_error() -> None:
    with pytest.raises(TypeError):
        irshape.check_layer("Reshape", {"special_zero": "true"}, ["2,3", [2]], input_values={1: "0,-1"})  # type: ignore[dict-item]
    with pytest.raises(TypeError):
        irshape.check_layer(
            "Reshape", {}, ["2,3", [2]], input_values={1: [0.5, 2]}, input_element_types=["f32", "i64"]
        )
    with pytest.raises(TypeError):
        irshape.check_layer("Reshape", {}, ["2,3", [2]], input_values={1: [6]}, input_element_types=["f32"])
