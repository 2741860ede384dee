"""ReduceProd's bounds where an upper bound of its data is the type's maximum (an unbounded dim
read through ShapeOf), as OpenVINO evaluates them (issue 24, item 1; seed 3's ro02675 of
``test_real_chains.py``).

``ReduceProd::evaluate_upper`` (src/core/src/op/reduce_prod.cpp): where the data's upper bound
holds the type's maximum and no zero, it copies one scalar, the output type's maximum, over the
output and returns. A product of one element is that maximum ("no limit", which the Minimum with 640 below keeps:
the default evaluator's mask of unbounded inputs); in a product of more
than one element the others are memory nothing wrote: the same file read again gives another
bound (by experiment: ``2..12`` and ``12..642``; the first element is the maximum whichever row
holds the unbounded dim). irshape gives such a product no bounds, so its
dims hold each of OpenVINO's readings; the one-element product is OpenVINO's exactly.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset3 as ov3
import openvino.opset8 as ov8
from click.testing import CliRunner

from irshape.cli import main

_NUMPY = {"f16": np.float16, "f32": np.float32, "i64": np.int64}


def _i(values: list[int]) -> ov.Node:
    return ov1.constant(np.array(values, dtype=np.int64))


def _padded_product(
    data: ov.Node, padded: ov.Node, element_type: str, order: list[int], rows: int, name: str
) -> ov.Node:
    """Pad of a ``[2] * rows`` tensor by ``min(ReduceProd(rows of the dims), 640)``."""
    dims = ov8.gather(ov3.shape_of(data, "i64"), _i(order), ov1.constant(np.int64(0)))
    sizes = dims if element_type == "i64" else ov1.convert(dims, element_type)
    rows_of_sizes = ov1.reshape(sizes, _i([rows, len(order) // rows]), False)
    product = ov1.reduce_prod(rows_of_sizes, _i([1]), False)
    bounded = ov1.minimum(product, ov1.constant(np.array([640], dtype=_NUMPY[element_type])))
    pads = ov1.convert(bounded, "i64")
    node = ov1.pad(padded, pads, _i([0] * rows), "constant")
    node.set_friendly_name(name)
    return node


def _cases() -> tuple[list[ov.Node], list[ov.Node], dict[str, int]]:
    data = ov1.parameter(ov.PartialShape("[2..5,?,4,5]"), np.float32)
    parameters = [data] + [ov1.parameter([2] * count, np.float32) for count in (1, 2)]
    nodes, rows = [], {}
    for element_type in ("f16", "f32", "i64"):
        for name, order, count in (
            (f"one_{element_type}", [1, 2], 1),  # [?, 4]: the maximum, then 640
            (f"two_{element_type}", [1, 2, 0, 3], 2),  # [?, 4] and [2..5, 5]: the second unwritten
            (f"first_{element_type}", [0, 3, 1, 2], 2),  # [2..5, 5] and [?, 4]
        ):
            nodes.append(_padded_product(data, parameters[count], element_type, order, count, name))
            rows[name] = count
    return nodes, parameters, rows


def _dims(text: str) -> list[tuple[int, float]]:
    """``[2..,12..642]`` as (lower, upper) pairs."""
    pairs = []
    for dim in text.strip("[]").split(","):
        if dim == "?":
            pairs.append((0, np.inf))
            continue
        low, _, high = dim.partition("..")
        pairs.append(
            (int(low or 0), float(high) if high else np.inf) if ".." in dim else (int(dim), int(dim))
        )
    return pairs


def test_product_with_an_unbounded_dim_is_openvinos(tmp_path: Path) -> None:
    nodes, parameters, rows = _cases()
    xml = tmp_path / "products.xml"
    ov.save_model(ov.Model(nodes, parameters, "products"), str(xml), compress_to_fp16=False)
    readings = []
    for _ in range(3):  # the unwritten elements differ between readings
        model = ov.Core().read_model(str(xml))
        readings.append(
            {op.get_friendly_name(): str(op.get_output_partial_shape(0)) for op in model.get_ops()}
        )
    outcome = CliRunner().invoke(main, ["infer", str(xml)])
    assert outcome.exit_code == 0, outcome.stdout
    lines = {line.split("'")[1]: line for line in outcome.stdout.splitlines() if "'" in line}
    for name, count in rows.items():
        ours = lines[name].split("(Pad): ", 1)[1].split(" ")[2]
        if count == 1:  # one element: evaluate_upper's maximum, kept by the Minimum (as "no limit")
            assert all(reading[name] == ours for reading in readings), (name, ours, readings)
            continue
        for reading in readings:  # irshape's dims hold each of OpenVINO's readings
            for (low, high), (their_low, their_high) in zip(_dims(ours), _dims(reading[name]), strict=True):
                assert low <= their_low and their_high <= high, (name, ours, reading[name])


def _signed_product(
    data: ov.Node, padded: ov.Node, element_type: str, shift: list[int], name: str, clamped: bool
) -> ov.Node:
    """Pad of a ``[1000]`` tensor by the product of ``[2..5, 7..9]`` minus ``shift`` (clamped
    to ``[2, 2]``: 2 wherever the product has bounds, whatever their order)."""
    dims = ov8.gather(ov3.shape_of(data, "i64"), _i([2, 3]), ov1.constant(np.int64(0)))
    sizes = dims if element_type == "i64" else ov1.convert(dims, element_type)
    shifted = ov1.subtract(sizes, ov1.constant(np.array(shift, dtype=_NUMPY[element_type])))
    product = ov1.reduce_prod(shifted, _i([0]), True)
    if clamped:
        product = ov1.clamp(product, 2.0, 2.0)
    node = ov1.pad(padded, ov1.convert(product, "i64"), _i([0]), "constant")
    node.set_friendly_name(name)
    return node


# (the bounds of [2..5, 7..9] minus the shift: lower and upper per element)
SHIFTS = ([3, 8], [3, 6], [1, 8], [6, 3], [6, 8], [3, 10], [0, 8], [3, 7], [2, 7], [5, 9], [1, 1])


def test_product_of_signed_bounds_is_openvinos(tmp_path: Path) -> None:
    """ReduceProd's bounds where its data's bounds are below zero: by experiment, OpenVINO 2026.4
    multiplies the lower bounds and the upper ones whatever their signs (``[-1..2, -1..1]`` gives
    ``1..2``, ``[-4..-1, 4..6]`` ``-16..-6``), even where the lower product is above the upper
    one (``[-4..-1, -1..1]``: 4 and -1), which read as a dim is ``?`` and clamped to ``[2, 2]``
    is 2 (seed 2's ro02999: an f16 lower product of inf, the upper one 65504, clamped)."""
    data = ov1.parameter(ov.PartialShape("[1,3,2..5,7..9]"), np.float32)
    padded = ov1.parameter([1000], np.float32)
    nodes = [
        _signed_product(data, padded, element_type, shift, f"{element_type}_{index}{'_c' * clamped}", clamped)
        for element_type in ("f32", "f16", "i64")
        for index, shift in enumerate(SHIFTS)
        for clamped in (
            (False, True) if element_type != "i64" else (False,)
        )  # (an i64 Clamp of bounds: left)
    ]
    xml = tmp_path / "signed.xml"
    ov.save_model(ov.Model(nodes, [data, padded], "signed"), str(xml), compress_to_fp16=False)
    model = ov.Core().read_model(str(xml))
    expected = {op.get_friendly_name(): str(op.get_output_partial_shape(0)) for op in model.get_ops()}
    outcome = CliRunner().invoke(main, ["infer", str(xml)])
    assert outcome.exit_code == 0, outcome.stdout
    lines = {line.split("'")[1]: line for line in outcome.stdout.splitlines() if "'" in line}
    ours = {
        node.get_friendly_name(): lines[node.get_friendly_name()].split("(Pad): ", 1)[1].split(" ")[2]
        for node in nodes
    }
    assert ours == {name: expected[name] for name in ours}
    assert (
        expected["f32_0"] == "[1001..1002]"
        and expected["i64_3"] == "[984..994]"
        and expected["f16_4"] == "[?]"
    )
    assert expected["f16_4_c"] == expected["f32_5_c"] == "[1002]"  # (4 and -1, 3 and -2 clamped)
