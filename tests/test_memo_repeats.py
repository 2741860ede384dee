"""A model's repeated blocks cost one check each, not one per repetition (issue 26, item 2).

Counted, never timed: the calls of the op check itself (``check.layer._check_op``, behind the
memo of clean checks) and of the declared-dims compare (``check.layer.compare_declared``, behind
the walk's memo of repeated layers), on a network of 3 and of 12 identical residual blocks
(Convolution with its weights Const, Relu, Add of the block's input). The first block reads
the Parameter's tensor, the second the first block's output, and from the third on a block
repeats the one before it: the checks made do not grow with the blocks. Each layer still gets
its own result, and a fault in one repetition is still reported at its own layer.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from counting import Calls, fresh_memos

from irshape import check_string
from irshape.check import layer as check_layer
from irshape.check import model, sources

DIMS = "<dim>1</dim><dim>4</dim><dim>8</dim><dim>8</dim>"


def _block(first: int, source: int, source_port: int, conv_dims: str) -> tuple[str, str]:
    """A residual block's layers (ids first..first+3) and edges, fed by ``source``."""
    weights, conv, relu, add = first, first + 1, first + 2, first + 3
    layers = f"""
<layer id="{weights}" name="w{weights}" type="Const" version="opset1">
  <data element_type="f32" shape="4,4,3,3" offset="0" size="576"/>
  <output><port id="0" precision="FP32"><dim>4</dim><dim>4</dim><dim>3</dim><dim>3</dim></port></output>
</layer>
<layer id="{conv}" name="conv{conv}" type="Convolution" version="opset1">
  <data strides="1,1" dilations="1,1" pads_begin="1,1" pads_end="1,1" auto_pad="explicit"/>
  <input><port id="0">{DIMS}</port><port id="1"><dim>4</dim><dim>4</dim><dim>3</dim><dim>3</dim></port></input>
  <output><port id="2" precision="FP32">{conv_dims}</port></output>
</layer>
<layer id="{relu}" name="relu{relu}" type="ReLU" version="opset1">
  <input><port id="0">{conv_dims}</port></input>
  <output><port id="1" precision="FP32">{DIMS}</port></output>
</layer>
<layer id="{add}" name="add{add}" type="Add" version="opset1">
  <input><port id="0">{DIMS}</port><port id="1">{DIMS}</port></input>
  <output><port id="2" precision="FP32">{DIMS}</port></output>
</layer>"""
    edges = f"""
<edge from-layer="{source}" from-port="{source_port}" to-layer="{conv}" to-port="0"/>
<edge from-layer="{weights}" from-port="0" to-layer="{conv}" to-port="1"/>
<edge from-layer="{conv}" from-port="2" to-layer="{relu}" to-port="0"/>
<edge from-layer="{relu}" from-port="1" to-layer="{add}" to-port="0"/>
<edge from-layer="{source}" from-port="{source_port}" to-layer="{add}" to-port="1"/>"""
    return layers, edges


def network(blocks: int, faulty: int | None = None) -> str:
    """A Parameter, ``blocks`` residual blocks, a Result; block ``faulty`` (if any) declares
    a wrong dim on its convolution's output."""
    layers = [
        f"""<layer id="0" name="input" type="Parameter" version="opset1">
  <data shape="1,4,8,8" element_type="f32"/>
  <output><port id="0" precision="FP32">{DIMS}</port></output>
</layer>"""
    ]
    edges = []
    source, port = 0, 0
    for index in range(blocks):
        first = 1 + 4 * index
        conv_dims = DIMS.replace("<dim>8</dim>", "<dim>9</dim>", 1) if index == faulty else DIMS
        block_layers, block_edges = _block(first, source, port, conv_dims)
        layers.append(block_layers)
        edges.append(block_edges)
        source, port = first + 3, 2
    result = 1 + 4 * blocks
    layers.append(
        f"""<layer id="{result}" name="out" type="Result" version="opset1">
  <input><port id="0">{DIMS}</port></input>
</layer>"""
    )
    edges.append(f'<edge from-layer="{source}" from-port="{port}" to-layer="{result}" to-port="0"/>')
    return (
        '<?xml version="1.0"?>\n<net name="blocks" version="11">\n<layers>\n'
        + "\n".join(layers)
        + "\n</layers>\n<edges>"
        + "".join(edges)
        + "\n</edges>\n</net>\n"
    )


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[Calls]:
    # Fresh memos: what earlier checks in this process left must not count as work saved.
    fresh_memos(monkeypatch)
    counter = Calls(monkeypatch)
    counter.count(check_layer, "_check_op")
    counter.count(model, "compare_declared")
    yield counter


def _checked(blocks: int, calls: Calls, faulty: int | None = None) -> tuple[dict[str, int], Any]:
    for name in calls.counts:
        calls.counts[name] = 0
    check_layer._CLEAN.clear()
    sources._CLEAN_CONSTS.clear()
    report = check_string(network(blocks, faulty))
    return dict(calls.counts), report


def test_a_repeated_block_is_checked_once(calls: Calls) -> None:
    few, few_report = _checked(3, calls)
    many, many_report = _checked(12, calls)
    assert few_report.errors == [] and many_report.errors == []
    # Every layer has its result, inferred, however many blocks repeat.
    assert many_report.layers_checked == few_report.layers_checked + 9 * 3  # conv, relu, add
    assert all(layer.outputs for layer in many_report.layers if layer.type in ("Convolution", "Add"))
    # ...and the work does not grow with them: the blocks after the second are repeats.
    assert many == few
    # Three ops a block, checked for the first block (fed by the Parameter) and the second
    # (fed by a block's output) at most.
    assert few["_check_op"] <= 2 * 3
    assert few["compare_declared"] <= 2 * 3


def test_a_fault_in_a_repetition_is_still_reported_at_its_own_layer(calls: Calls) -> None:
    counts, report = _checked(12, calls, faulty=7)
    (finding,) = [d for d in report.errors if d.code == "IRS301"]
    assert finding.layer_id == str(1 + 4 * 7 + 1)  # block 7's convolution
    # The faulty layer is compared on its own; the clean blocks around it stay repeats.
    clean, _ = _checked(12, calls)
    assert counts["compare_declared"] > clean["compare_declared"]
    assert counts["compare_declared"] <= clean["compare_declared"] + 3 * 3
