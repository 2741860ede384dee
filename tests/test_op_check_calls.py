"""What the op check does not do again, or at all (issue 26, item 2): counted in calls, never
timed, on a chain of Convolutions that share one ``<data>`` (the reader shares one dict among
the layers whose ``<data>`` says the same) but whose inputs differ (each 3x3 convolution without
pads takes 2 from the spatial axes: floor((S - 3) / 1) + 1 = S - 2), so that no check repeats
another and each is made in full.

- A ``<data>`` that validates clean is validated once a declaration, not once a layer; a
  faulty one is still validated, and reported, at each layer.
- An op's layer without findings makes no location (the check's and the compare's), even
  where its declared dims are compared with a dynamic inferred shape (the file's -1 where
  OpenVINO infers ?); a layer with a finding gets its own line.
- The check of a constant without bytes (``layer_findings.no_value``) is not made for an op
  that evaluates no input and whose shape function found nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from counting import Calls, fresh_memos

from irshape import check_string, rules
from irshape.check import layer as check_layer
from irshape.check import layer_findings
from irshape.ir import model as ir_model

SIDE = 20  # the input's spatial size


def _dims(batch: str, side: int) -> str:
    return f"<dim>{batch}</dim><dim>4</dim><dim>{side}</dim><dim>{side}</dim>"


def chain(convolutions: int, extra_data: str = "", wrong_at: int | None = None) -> str:
    """A Parameter of [?,4,20,20], ``convolutions`` 3x3 Convolutions in a chain (one weights Const
    each, all at offset 0), a Result; convolution ``wrong_at`` declares its last axis one too
    large."""
    layers = [
        f"""<layer id="0" name="input" type="Parameter" version="opset1">
  <data shape="?,4,{SIDE},{SIDE}" element_type="f32"/>
  <output><port id="0" precision="FP32">{_dims("-1", SIDE)}</port></output>
</layer>"""
    ]
    edges = []
    source, source_port = 0, 0
    for index in range(convolutions):
        weights, conv = 1 + 2 * index, 2 + 2 * index
        side_in, side_out = SIDE - 2 * index, SIDE - 2 * index - 2
        declared = _dims("-1", side_out)
        if index == wrong_at:
            declared = declared[: declared.rindex("<dim>")] + f"<dim>{side_out + 1}</dim>"
        layers.append(
            f"""<layer id="{weights}" name="w{weights}" type="Const" version="opset1">
  <data element_type="f32" shape="4,4,3,3" offset="0" size="576"/>
  <output><port id="0" precision="FP32"><dim>4</dim><dim>4</dim><dim>3</dim><dim>3</dim></port></output>
</layer>
<layer id="{conv}" name="conv{conv}" type="Convolution" version="opset1">
  <data strides="1,1" dilations="1,1" pads_begin="0,0" pads_end="0,0" auto_pad="explicit"{extra_data}/>
  <input><port id="0">{_dims("-1", side_in)}</port><port id="1"><dim>4</dim><dim>4</dim><dim>3</dim><dim>3</dim></port></input>
  <output><port id="2" precision="FP32">{declared}</port></output>
</layer>"""
        )
        edges.append(
            f'<edge from-layer="{source}" from-port="{source_port}" to-layer="{conv}" to-port="0"/>'
            f'<edge from-layer="{weights}" from-port="0" to-layer="{conv}" to-port="1"/>'
        )
        source, source_port = conv, 2
    result = 1 + 2 * convolutions
    layers.append(
        f"""<layer id="{result}" name="out" type="Result" version="opset1">
  <input><port id="0">{_dims("-1", SIDE - 2 * convolutions)}</port></input>
</layer>"""
    )
    edges.append(f'<edge from-layer="{source}" from-port="2" to-layer="{result}" to-port="0"/>')
    return (
        '<?xml version="1.0"?>\n<net name="chain" version="11">\n<layers>\n'
        + "\n".join(layers)
        + "\n</layers>\n<edges>\n"
        + "\n".join(edges)
        + "\n</edges>\n</net>\n"
    )


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[Calls]:
    # Fresh memos: what earlier checks in this process left must not count as work saved.
    fresh_memos(monkeypatch)
    counter = Calls(monkeypatch)
    for name in ("_check_op", "validate_attributes"):
        counter.count(check_layer, name)
    counter.count(layer_findings, "no_value")
    location = ir_model.Layer.location
    counter.counts["convolution located"] = 0

    def located(layer: ir_model.Layer, *args: Any) -> Any:
        counter.counts["convolution located"] += layer.type == "Convolution"
        return location(layer, *args)

    monkeypatch.setattr(ir_model.Layer, "location", located)
    yield counter


def _convolutions(report: Any) -> list[Any]:
    return [layer for layer in report.layers if layer.type == "Convolution"]


def test_a_shared_data_is_validated_once_and_no_location_is_made(calls: Calls) -> None:
    report = check_string(chain(6))
    assert report.errors == [] and report.warnings == []
    # Each convolution is checked in full (its input differs from the one before)...
    assert calls.counts["_check_op"] == 6
    assert [str(layer.outputs[0]) for layer in _convolutions(report)] == [
        f"[?,4,{side},{side}]" for side in (18, 16, 14, 12, 10, 8)
    ]
    # ...but their one <data> is validated once, and nothing else locates a convolution (the
    # first validation is given its location: its findings would need it).
    assert calls.counts["validate_attributes"] == 1
    assert calls.counts["convolution located"] == 1
    assert calls.counts["no_value"] == 0


def test_a_faulty_data_is_validated_and_reported_at_each_layer(calls: Calls) -> None:
    report = check_string(chain(4, extra_data=' colour="red"'))
    unknown = [d for d in report.diagnostics if d.code == rules.ATTRIBUTE_UNKNOWN.code]
    assert sorted(int(d.layer_id or "-1") for d in unknown) == [2, 4, 6, 8]
    assert calls.counts["validate_attributes"] == 4
    # each at its own <data>'s line (the line after its layer's)
    lines = {layer.layer_id: layer.line for layer in _convolutions(report)}
    assert all(d.line == lines[d.layer_id] + 1 for d in unknown)


def test_a_wrong_declared_dim_is_located_at_its_own_layer(calls: Calls) -> None:
    text = chain(4, wrong_at=2)  # convolution 2 (layer 6) makes [?,4,14,14] and declares 15 last
    report = check_string(text)
    wrong = [d for d in report.diagnostics if d.code == rules.DECLARED_DIM_MISMATCH.code]
    assert [d.layer_id for d in wrong] == ["6"]
    assert "output port 2 axis 3: declared 15, inferred 14" in wrong[0].message
    assert wrong[0].line == text[: text.index("<dim>15</dim>")].count("\n") + 1
    assert calls.counts["validate_attributes"] == 1
    assert calls.counts["convolution located"] == 2  # the first validation's, the finding's
