"""ShapeOf-3 with ``output_type`` i32 of a dim an i32 cannot hold, against OpenVINO.

OpenVINO's ShapeOf bounds (``src/core/src/op/shape_of.cpp``, ``evaluate_bound``) select, for an
i32 output, the element type's limit where a dim's interval reaches INT32_MAX: an element whose
dim's maximum is at or above INT32_MAX has the upper bound INT32_MAX (read as unbounded), one whose
dim's minimum is at or above it has the lower bound 0. Shape inference reads a ShapeOf's value
through those bounds only, so a static dim of 3000000000 (or of INT32_MAX itself) reads as ``?``
downstream, ``5..3000000000`` as ``5..``, ``2147483647..`` as ``?`` (read_model of each case's
file, tests below; irshape gave the dim itself: ``[1,3000000000]``, ``[1,2147483647..]``). Every
consumer reading the ShapeOf's value sees it so: a Reshape's or a Broadcast's target, a Concat
into one, a Gather, a Convert to i64, arithmetic on the way.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset3 as ov3
import openvino.opset8 as ov8

import irshape

from .ops_harness import OpCase, as_broadcast_target, read_back, save_batch

INT32_MAX = 2**31 - 1
HUGE = 3_000_000_000

# static dims an i32 cannot hold (at position 0, beside a static 4): every consumer of the value
STATIC = {
    "huge": ov.Dimension(HUGE),
    "int32_max": ov.Dimension(INT32_MAX),
    "wrapping_to_3": ov.Dimension(2**32 + 3),  # cut to 32 bits it is 3: OpenVINO still reads ?
}
# dims whose interval reaches past INT32_MAX: arithmetic on the bounds (irshape's lower bound was
# the dim's minimum cut to INT32_MAX, which overflowed in an i32 Add)
BOUNDED = {
    "from_int32_max": ov.Dimension(INT32_MAX, HUGE),
    "from_huge": ov.Dimension(HUGE, HUGE + 7),
    "lower_from_huge": ov.Dimension(HUGE, -1),
    "lower_from_int32_max": ov.Dimension(INT32_MAX, -1),
}


def _const(values: object, element_type: type = np.int64) -> ov.Node:
    return ov1.constant(np.array(values, dtype=element_type))


def _shape_of(dim: ov.Dimension) -> ov.Node:
    return ov3.shape_of(ov1.parameter(ov.PartialShape([dim, 4]), np.float32), "i32")


def _first(shape: ov.Node) -> ov.Node:
    return ov8.gather(shape, _const([0], np.int32), _const(0, np.int32))


def _flat() -> ov.Node:
    return ov1.parameter(ov.PartialShape([-1]), np.float32)


def _reshape(target: ov.Node) -> ov.Node:
    return ov1.reshape(_flat(), target, False)


# consumers of the ShapeOf's value: the node each builds is the one compared
CONSUMERS: dict[str, Callable[[ov.Node], ov.Node]] = {
    "reshape_of_concat": lambda s: _reshape(ov1.concat([_const([1], np.int32), _first(s)], 0)),
    "reshape_of_whole": lambda s: _reshape(s),
    "reshape_of_concat_of_whole": lambda s: _reshape(ov1.concat([_const([2], np.int32), s], 0)),
    "broadcast_of_whole": lambda s: ov3.broadcast(_const(1.0, np.float32), s),
    "broadcast_of_concat": lambda s: as_broadcast_target(_first(s)),
    "broadcast_v1_of_i64": lambda s: ov1.broadcast(_const(1.0, np.float32), ov1.convert(s, "i64")),
    "reshape_of_minimum": lambda s: _reshape(ov1.minimum(s, _const([INT32_MAX], np.int32))),
}
ARITHMETIC: dict[str, Callable[[ov.Node], ov.Node]] = {
    "reshape_of_sum": lambda s: _reshape(ov1.add(_first(s), _const([1], np.int32))),
    "broadcast_of_sum": lambda s: ov3.broadcast(
        _const(1.0, np.float32), ov1.add(s, _const([1, 0], np.int32))
    ),
}


# where irshape's old reading already agreed (a static INT32_MAX read as the unbounded upper
# bound it also is; a Broadcast of a sum whose overflowed lower bound was not read): left out,
# so every case here failed before the fix
AGREED_BEFORE = {
    (consumer, "int32_max")
    for consumer in (
        "reshape_of_concat",
        "reshape_of_whole",
        "reshape_of_concat_of_whole",
        "broadcast_of_concat",
        "broadcast_v1_of_i64",
    )
}


def _cases() -> list[tuple[str, OpCase]]:
    """(what it is, the case) for every consumer of every static dim, and for the arithmetic
    of every dim."""
    made: list[tuple[str, OpCase]] = []
    pairs = [(c, d) for c in {**CONSUMERS, **ARITHMETIC} for d in STATIC if (c, d) not in AGREED_BEFORE]
    pairs += [(c, d) for c in ARITHMETIC for d in BOUNDED if c != "broadcast_of_sum"]
    dims = {**STATIC, **BOUNDED}
    consumers = {**CONSUMERS, **ARITHMETIC}
    for consumer, dim in pairs:
        build = (lambda c, d: lambda: c(_shape_of(d)))(consumers[consumer], dims[dim])
        made.append((f"{consumer} of {dim}", OpCase(f"i32so{len(made):03d}", "ShapeOf-3", build)))
    return made


def _differences(xml: Path) -> list[str]:
    expected = read_back(xml)
    report = irshape.check_file(xml)
    found = [f"{d.layer_name}: {d.code} {d.message}" for d in report.errors]
    for layer in report.layers:
        if not layer.name.startswith("i32so"):
            continue
        ours = list(zip([str(s) for s in layer.outputs], list(layer.element_types), strict=False))
        if ours != expected[layer.name]:
            found.append(f"{layer.name} ({layer.type}): irshape {ours}, OpenVINO {expected[layer.name]}")
    return found


def test_i32_shape_of_of_dims_past_int32_max_reads_as_openvino(tmp_path: Path) -> None:
    cases = [case for _, case in _cases()]
    assert len(cases) == 26
    xml = tmp_path / "i32_shape_of.xml"
    save_batch(cases, xml)
    found = _differences(xml)
    assert found == [], "\n".join(found)
