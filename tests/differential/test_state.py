"""ReadValue-3/6 and Assign-3/6 against OpenVINO (read_model of saved files): variables of
static, ``?``, interval and dynamic-rank shapes and of static or dynamic type, with and without
an init value (a Parameter or a Const), the KV-cache pattern (ReadValue -> Concat -> Assign), a
ReadValue of a Const feeding a Reshape's target (OpenVINO does not fold a ReadValue). Mutants
read_model rejects (a variable_shape or variable_type the init value does not fit, an unknown
type, an Assign whose variable no ReadValue reads) are errors on the layer; a declared dim off by
one is IRS301/IRS302."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset3 as ov3
import openvino.opset6 as ov6
import pytest
from networks import NETWORKS_DIR, expected_outputs
from openvino.op.util import Variable, VariableInfo

import irshape

from .conftest import STATS
from .family_suite import (
    Mutant,
    check_dim_mutant,
    check_mutant,
    check_valid,
    draw_cases,
    named_inputs,
    set_input_shape,
    shape,
)
from .ops_harness import (
    OpCase,
    OpsBatchRunner,
    apply_mutant,
    batches,
    layer_element,
    openvino_reads,
    parameter,
    params,
    save_batch,
)

SEED = 20261125
PER_OP = 110
_IDS = itertools.count()
TYPES = (np.float32, np.float32, np.float16, np.int64, np.int32, bool)
OV_TYPES = {np.float32: ov.Type.f32, np.float16: ov.Type.f16, np.int64: ov.Type.i64, np.int32: ov.Type.i32}
OV_TYPES[bool] = ov.Type.boolean  # type: ignore[index]


def _variable(data_shape: ov.PartialShape, data_type: ov.Type) -> Variable:
    info = VariableInfo()
    info.data_shape, info.data_type, info.variable_id = data_shape, data_type, f"var{next(_IDS)}"
    return Variable(info)


def _relaxed(rng: random.Random, dims: list[int]) -> ov.PartialShape:
    """A variable shape that contains ``dims``: each dim kept, ``?`` or an interval around it."""
    if rng.random() < 0.15:
        return ov.PartialShape.dynamic()
    out = []
    for d in dims:
        pick = rng.random()
        if pick < 0.4:
            out.append(ov.Dimension(d))
        elif pick < 0.7:
            out.append(ov.Dimension())
        else:
            out.append(ov.Dimension(max(0, d - rng.randint(0, 3)), d + rng.randint(0, 5)))
    return ov.PartialShape(out)


def _init(rng: random.Random, dims: list[int], element_type: Any) -> Callable[[], ov.Node]:
    """The init value: a Parameter of some style, or a Const."""
    if rng.random() < 0.25:
        values = np.zeros(dims, dtype=element_type)
        return lambda: ov1.constant(values)
    init_shape = shape(rng, dims)
    return lambda: parameter(init_shape, element_type)


def draw_read_value_6(rng: random.Random) -> Callable[[], ov.Node]:
    dims = [rng.randint(1, 6) for _ in range(rng.randint(0, 4))]
    element_type = rng.choice(TYPES)
    init = None if rng.random() < 0.25 else _init(rng, dims, element_type)
    relaxed = _relaxed(rng, dims)
    data_type = OV_TYPES[element_type] if rng.random() < 0.75 else ov.Type.dynamic
    if init is None and rng.random() < 0.5:
        relaxed = ov.PartialShape(dims)  # (a variable of static shape: a plugin's usual one)

    def build() -> ov.Node:
        variable = _variable(relaxed, data_type)
        return ov6.read_value(variable) if init is None else ov6.read_value(init(), variable)

    return build


def draw_read_value_3(rng: random.Random) -> Callable[[], ov.Node]:
    dims = [rng.randint(1, 6) for _ in range(rng.randint(0, 4))]
    init = _init(rng, dims, rng.choice(TYPES))
    return lambda: ov3.read_value(init(), f"var{next(_IDS)}")


def _kv_update(rng: random.Random) -> tuple[Callable[[], ov.Node], ov.PartialShape, Any]:
    """The KV-cache pattern's new value: Concat(past, present) on the sequence axis, where past
    is a ReadValue of [batch, heads, ?, size] (its id returned by the builder)."""
    batch, heads, size = rng.randint(1, 3), rng.randint(1, 4), rng.randint(1, 8)
    element_type = rng.choice([np.float32, np.float16])
    present = shape(rng, [batch, heads, rng.randint(1, 5), size])
    pick = rng.random()
    past = ov.PartialShape([batch, heads, -1 if pick < 0.5 else rng.randint(0, 4), size])
    past = ov.PartialShape.dynamic() if pick > 0.85 else past
    return (lambda: parameter(present, element_type)), past, element_type


def draw_assign_6(rng: random.Random) -> Callable[[], ov.Node]:
    if rng.random() < 0.3:
        return _static_state(rng)
    present, past, element_type = _kv_update(rng)
    init = rng.random() < 0.5 and not past.is_static

    def build() -> ov.Node:
        variable = _variable(past, OV_TYPES[element_type])
        value = present()
        read = ov6.read_value(ov1.convert_like(value, value), variable) if init else ov6.read_value(variable)
        return ov6.assign(ov1.concat([read, value], 2), variable)

    return build


def _static_state(rng: random.Random) -> Callable[[], ov.Node]:
    """A state of static shape, updated by an Add (a running sum)."""
    dims = [rng.randint(1, 6) for _ in range(rng.randint(0, 4))]
    element_type = rng.choice([np.float32, np.int32])

    def build() -> ov.Node:
        variable = _variable(ov.PartialShape(dims), OV_TYPES[element_type])
        return ov6.assign(ov1.add(ov6.read_value(variable), parameter(dims, element_type)), variable)

    return build


def draw_assign_3(rng: random.Random) -> Callable[[], ov.Node]:
    dims = [rng.randint(1, 6) for _ in range(rng.randint(0, 4))]
    element_type = rng.choice([np.float32, np.float16, np.int32])
    init = _init(rng, dims, element_type)
    other = shape(rng, dims)

    def build() -> ov.Node:
        variable_id = f"var{next(_IDS)}"
        read = ov3.read_value(init(), variable_id)
        return ov3.assign(ov1.add(read, parameter(other, element_type)), variable_id)

    return build


def draw_not_folded(rng: random.Random) -> Callable[[], ov.Node]:
    """A Reshape whose target is a ReadValue of a Const: OpenVINO does not fold the ReadValue,
    so the target is unknown (a rank-N output of ``?`` dims, or the bounds of the Const's type)."""
    dims = [rng.randint(1, 4) for _ in range(rng.randint(1, 3))]
    target = np.array(dims, dtype=rng.choice([np.int64, np.int32]))
    data = shape(rng, dims)
    six = rng.random() < 0.6

    def build() -> ov.Node:
        init = ov1.constant(target)
        if six:
            read = ov6.read_value(init, _variable(ov.PartialShape([len(dims)]), OV_TYPES[target.dtype.type]))
        else:
            read = ov3.read_value(init, f"var{next(_IDS)}")
        return ov1.reshape(parameter(data), read, False)

    return build


DRAWS = {
    "ReadValue-6": draw_read_value_6,
    "ReadValue-3": draw_read_value_3,
    "Assign-6": draw_assign_6,
    "Assign-3": draw_assign_3,
}


def _cases() -> list[OpCase]:
    rng = random.Random(SEED)
    cases = []
    for prefix, (op, draw) in zip(("rv", "rw", "as", "at"), DRAWS.items(), strict=True):
        cases += draw_cases(prefix, op, draw, rng, PER_OP)
    cases += draw_cases("rf", "Reshape-1", draw_not_folded, rng, 30)
    return cases


CASES = _cases()
BATCHES = batches(CASES)
STATS["state family cases (tests/differential/test_state.py)"] = len(CASES)


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_shapes_and_types_match_openvino(ops_runner: OpsBatchRunner, index: int, case: OpCase) -> None:
    check_valid(ops_runner, f"state{index}", BATCHES[index], case)


@pytest.mark.parametrize("index", range(len(BATCHES)))
def test_a_declared_dim_off_by_one_is_an_error(
    ops_runner: OpsBatchRunner, tmp_path: Path, index: int
) -> None:
    check_dim_mutant(ops_runner, f"state{index}", BATCHES[index], tmp_path)


def test_the_cases_span_the_rules() -> None:
    """Each op version has its cases; the ReadValue-6 ones have no init value, a Parameter's
    and a Const's, variables of dynamic type and of dynamic rank."""
    ops = [case.op for case in CASES]
    assert all(ops.count(op) >= 100 for op in DRAWS)
    nodes = [case.build() for case in CASES if case.op == "ReadValue-6"]
    assert {node.get_input_size() for node in nodes} == {0, 1}
    kinds = {node.input_value(0).get_node().get_type_name() for node in nodes if node.get_input_size()}
    assert kinds == {"Parameter", "Constant"}
    types = {node.get_output_element_type(0).get_type_name() for node in nodes}
    assert "dynamic" in types and "f32" in types
    assert any(node.get_output_partial_shape(0).rank.is_dynamic for node in nodes)


# --- mutants --------------------------------------------------------------------------------


def _read_value_6(dims: list[int], variable_shape: list[int]) -> Callable[[], ov.Node]:
    def build() -> ov.Node:
        (init,) = named_inputs(parameter(dims))
        return ov6.read_value(init, _variable(ov.PartialShape(variable_shape), ov.Type.f32))

    return build


def _set_data(name: str, value: str) -> Callable[[Any, str], None]:
    def edit(tree: Any, cid: str) -> None:
        layer_element(tree, cid).find("data").set(name, value)

    return edit


def _rename_read_values(tree: Any, cid: str) -> None:
    for layer in tree.xpath("//layer[@type='ReadValue']"):
        layer.find("data").set("variable_id", "renamed")


def _assign_6() -> ov.Node:
    variable = _variable(ov.PartialShape([2, -1]), ov.Type.f32)
    (value,) = named_inputs(parameter([2, 3]))
    return ov6.assign(ov1.concat([ov6.read_value(variable), value], 1), variable)


def _assign_3() -> ov.Node:
    (init,) = named_inputs(parameter([2, 3]))
    return ov3.assign(ov1.relu(ov3.read_value(init, "v3")), "v3")


def _assign_3_of_a_sum() -> ov.Node:
    """An Assign-3 of its ReadValue-3's value plus another, converted back to f32."""
    init, other = named_inputs(parameter([2, 3]), parameter([2, 3]))
    return ov3.assign(ov1.convert(ov1.add(ov3.read_value(init, "v3"), other), "f32"), "v3")


def _convert_to(destination_type: str) -> Callable[[Any, str], None]:
    def edit(tree: Any, cid: str) -> None:
        (layer,) = tree.xpath("//layer[@type='Convert']")
        layer.find("data").set("destination_type", destination_type)

    return edit


MUTANTS = [
    Mutant(
        "variable shape narrower",
        _read_value_6([2, 3], [-1, 3]),
        _set_data("variable_shape", "2,4"),
        "IRS212",
    ),
    Mutant(
        "variable shape rank", _read_value_6([2, 3], [-1, 3]), _set_data("variable_shape", "?,3,1"), "IRS212"
    ),
    Mutant(
        "variable shape scalar", _read_value_6([2, 3], [-1, 3]), _set_data("variable_shape", ""), "IRS212"
    ),
    Mutant("variable shape interval", _read_value_6([2, 3], [-1, 3]), _set_data("variable_shape", "3..8,3")),
    Mutant("variable shape negative", _read_value_6([2, 3], [2, 3]), _set_data("variable_shape", "2,-2")),
    Mutant("variable shape empty", _read_value_6([2, 3], [2, 3]), _set_data("variable_shape", "5..3,3")),
    Mutant(
        "variable shape syntax", _read_value_6([2, 3], [2, 3]), _set_data("variable_shape", "2,3a"), "IRS104"
    ),
    Mutant(
        "variable shape comma", _read_value_6([2, 3], [2, 3]), _set_data("variable_shape", "2,3,"), "IRS104"
    ),
    Mutant("variable type other", _read_value_6([2, 3], [2, 3]), _set_data("variable_type", "f16"), "IRS213"),
    Mutant(
        "variable type precision", _read_value_6([2, 3], [2, 3]), _set_data("variable_type", "FP32"), "IRS104"
    ),
    Mutant(
        "variable type unknown", _read_value_6([2, 3], [2, 3]), _set_data("variable_type", "float"), "IRS104"
    ),
    Mutant("variable type empty", _read_value_6([2, 3], [2, 3]), _set_data("variable_type", ""), "IRS104"),
    Mutant("assign-6 unknown variable", _assign_6, _set_data("variable_id", "other"), "IRS424"),
    Mutant("assign-6 read value renamed", _assign_6, _rename_read_values, "IRS424"),
    Mutant("assign-3 unknown variable", _assign_3, _set_data("variable_id", "other"), "IRS424"),
    Mutant("assign-3 read value renamed", _assign_3, _rename_read_values, "IRS424"),
    Mutant("assign-3 of another type", _assign_3_of_a_sum, _convert_to("f16"), "IRS424"),
    Mutant("assign-3 of an integer type", _assign_3_of_a_sum, _convert_to("i32"), "IRS424"),
    Mutant("assign-3 of another shape", _assign_3_of_a_sum, set_input_shape(1, [3, 2, 3]), "IRS424"),
    Mutant("assign-3 of a longer axis", _assign_3_of_a_sum, set_input_shape(1, [2, 2, 3]), "IRS424"),
]


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.name for m in MUTANTS])
def test_mutant_openvino_rejects_is_an_error(tmp_path: Path, mutant: Mutant) -> None:
    check_mutant(tmp_path, mutant)


def test_an_assign_3_of_a_read_value_6_is_an_error(tmp_path: Path) -> None:
    """Assign-3 looks for a ReadValue-3 of its id only: a ReadValue-6 of it does not do."""
    base, target = tmp_path / "base.xml", tmp_path / "mutant.xml"
    save_batch([OpCase("m0", "Assign-3", _assign_3)], base)

    def edit(tree: Any) -> None:
        for layer in tree.xpath("//layer[@type='ReadValue']"):
            layer.set("version", "opset6")
            layer.find("data").set("variable_shape", "2,3")
            layer.find("data").set("variable_type", "f32")

    apply_mutant(base, target, edit)
    assert openvino_reads(target) is not None  # 'Can't find variable with id = v3'
    codes = {d.code for d in irshape.check_file(target).errors}
    assert codes == {"IRS424"}


def test_an_assign_6_of_a_read_value_3_reads(tmp_path: Path) -> None:
    """An Assign-6 is tied to the ReadValue of its id, of either version."""
    base, target = tmp_path / "base.xml", tmp_path / "edited.xml"

    def build() -> ov.Node:
        variable = _variable(ov.PartialShape([2, 3]), ov.Type.f32)
        return ov6.assign(ov1.relu(ov6.read_value(parameter([2, 3]), variable)), variable)

    save_batch([OpCase("m0", "Assign-6", build)], base)

    def edit(tree: Any) -> None:
        (layer,) = tree.xpath("//layer[@type='ReadValue']")
        layer.set("version", "opset3")
        for name in ("variable_shape", "variable_type"):
            del layer.find("data").attrib[name]

    apply_mutant(base, target, edit)
    assert openvino_reads(target) is None
    assert not irshape.check_file(target).errors


def test_the_workaround_for_a_variable_of_dynamic_rank_and_type(tmp_path: Path) -> None:
    """A ReadValue-6 whose variable is of dynamic rank and type gives its init value's shape
    and type (OpenVINO's workaround for IRs of older versions); of dynamic rank only, not."""
    xml = tmp_path / "rv.xml"
    save_batch([OpCase("m0", "ReadValue-6", _read_value_6([2, 3], [2, 3]))], xml)
    for variable_type, expected in (("dynamic", ("[2,3]", "f32")), ("f32", ("[...]", "f32"))):
        target = tmp_path / f"{variable_type}.xml"
        apply_mutant(xml, target, lambda tree, t=variable_type: _workaround_edit(tree, t))
        model = ov.Core().read_model(str(target))
        (node,) = [n for n in model.get_ops() if n.get_friendly_name() == "m0"]
        assert (
            str(node.get_output_partial_shape(0)),
            node.get_output_element_type(0).get_type_name(),
        ) == expected
        (layer,) = [layer for layer in irshape.check_file(target).layers if layer.name == "m0"]
        assert (str(layer.outputs[0]), layer.element_types[0]) == expected


def _workaround_edit(tree: Any, variable_type: str) -> None:
    data = layer_element(tree, "m0").find("data")
    data.set("variable_shape", "...")
    data.set("variable_type", variable_type)


def test_the_stateful_decoder_is_inferred_to_its_last_layer() -> None:
    """The corpus's stateful decoder (tools/make_networks.py: its KV cache made ReadValue and
    Assign pairs): every layer but the Parameters, Consts and Results is inferred, as OpenVINO's
    read_model gives it (fixtures/networks/decoder_stateful_kv.expected.json)."""
    xml = NETWORKS_DIR / "decoder_stateful_kv.xml"
    expected = expected_outputs(xml)
    report = irshape.check_file(xml)
    assert not report.errors
    layers = [layer for layer in report.layers if layer.type not in ("Parameter", "Const", "Result")]
    assert {"ReadValue", "Assign", "ScaledDotProductAttention"} <= {layer.type for layer in layers}
    for layer in layers:
        openvinos = [(port["shape"], port["element_type"]) for port in expected[str(layer.layer_id)]]
        assert list(zip(map(str, layer.outputs), layer.element_types, strict=True)) == openvinos, layer.name


def test_an_assign_3_of_another_shape_reads_where_one_is_dynamic(tmp_path: Path) -> None:
    """Assign-3 compares the shapes only when the variable's and the written one are static: a
    variable of ``[?,3]`` takes ``[4,3]``, but not another type."""
    base, target = tmp_path / "base.xml", tmp_path / "edited.xml"
    save_batch([OpCase("m0", "Assign-3", _assign_3_of_a_sum)], base)
    apply_mutant(base, target, lambda tree: _dynamic_init_and_longer_other(tree, "f32"))
    assert openvino_reads(target) is None
    assert _errors_but_declared_dims(target) == []
    apply_mutant(base, target, lambda tree: _dynamic_init_and_longer_other(tree, "f16"))
    assert openvino_reads(target) is not None
    assert _errors_but_declared_dims(target) == ["IRS424"]


def _errors_but_declared_dims(xml: Path) -> list[str]:
    """The error codes but those of the declared dims the edit left as they were (IRS301/302)."""
    return [d.code for d in irshape.check_file(xml).errors if d.code not in ("IRS301", "IRS302")]


def _dynamic_init_and_longer_other(tree: Any, destination_type: str) -> None:
    set_input_shape(0, [-1, 3])(tree, "m0")
    set_input_shape(1, [4, 3])(tree, "m0")
    _convert_to(destination_type)(tree, "m0")
