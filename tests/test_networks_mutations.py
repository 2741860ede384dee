"""On the real networks, a declared output dim changed by one is an error on the layer that
carries it, whatever the layer's type: with its consumers' input ports left as they were (the
file contradicts itself at the edge) and with them changed to match (a consistent file, wrong
only against OpenVINO's arithmetic). OpenVINO ignores declared dims, so this is irshape's to see.

Every file whose shapes irshape computes exactly (not the known gaps of
tests/test_networks_openvino.py) and, in each, the first two layers of every type with an
output dim OpenVINO knows statically (``<name>.expected.json``, OpenVINO's own reading). The
whole detectors (over LARGE layers: a check of one takes about a second, and they repeat the
others' types) add the first layer of each type no other file has sampled and of Loop, If and
ROIAlign, or their first layer with such a dim where they have none of those. The files that are
another file's model compressed or quantized by NNCF (``NNCF_VARIANTS``: the same layer types,
new element types in the weights' decompression) add the first layer of each (type, input
precision, output precision) no file before them has sampled.

The bodies of the TensorIterators, Loops and Ifs of those files but the large ones are mutated
too: the first two layers of every type in them with an output dim OpenVINO knows statically
(in its reading of the body, ``get_function()``, ``get_then_body()``...), an error on that body
layer (``<outer id>/<body>/<id>``) at the mutated dim's line (or its ``<data>``'s, IRS416). The
large files' bodies: tests/test_detector_body_mutations.py.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
from lxml import etree
from networks import (
    EXTENSION_VERSION,
    ID_PREFIX,
    _renamed_copy,
    expected_outputs,
    load_expected,
    network_files,
    xml_layers,
)
from test_networks_openvino import KNOWN_GAPS

import irshape

PER_TYPE = 2
LARGE = 600  # layers
ALWAYS = {"Loop", "If", "ROIAlign"}  # sampled in every large file: what the detectors are for
NNCF_VARIANTS = {
    "bert_int8_dyn_tokens",
    "decoder_stateful_kv_int8_sym",
    "llama_cb4_g16_dyn_tokens",
    "llama_int2_sym_g16_dyn_tokens",
    "llama_int3_sym_g16_dyn_tokens",
    "llama_int4_asym_g16_dyn_tokens",
    "llama_int4_sym_g16_dyn_tokens",
    "llama_mxfp4_dyn_tokens",
    "llama_nf4_g16_interval_tokens",
    "llama_nvfp4_g16_dyn_tokens",
    "mobilenet_v2_int8_static",
    "resnet_int8_dyn_batch_hw",
}


def _static_axis(port: dict[str, Any]) -> int | None:
    """An axis of a port whose dim OpenVINO knows and that is at least 1."""
    dims = port["dims"]
    if dims is None:
        return None
    return next((axis for axis, dim in enumerate(dims) if isinstance(dim, int) and dim >= 1), None)


def _candidates(xml: Path, precisions: bool = False) -> list[tuple[str, str, int]]:
    """(layer id, type, axis) of each layer of ``xml`` with a dim OpenVINO knows statically; with
    ``precisions``, the type is followed by the precisions of its first input and its output
    (``Convert/u4/f16``)."""
    expected = expected_outputs(xml)
    found = []
    for layer in xml_layers(etree.parse(str(xml))):
        if layer.get("version") == EXTENSION_VERSION:
            continue  # (an extension's op: irshape cannot know its output, and says so, IRS404)
        ports = expected.get(layer.get("id"), [])
        axis = _static_axis(ports[0]) if ports else None
        if axis is not None:
            kind = layer.get("type", "")
            if precisions:
                into = layer.find("input/port")
                kind += f"/{'' if into is None else into.get('precision')}/{ports[0]['element_type']}"
            found.append((layer.get("id", ""), kind, axis))
    return found


def _targets() -> list[Any]:
    files = [xml for xml in network_files() if xml.stem not in KNOWN_GAPS]
    chosen: dict[Path, list[tuple[str, str, int]]] = {}
    large = [xml for xml in files if len(expected_outputs(xml)) > LARGE]
    variants = [xml for xml in files if xml.stem in NNCF_VARIANTS]
    for xml in files:
        if xml in large or xml in variants:
            continue
        taken: dict[str, int] = {}
        for layer_id, kind, axis in _candidates(xml):
            if taken.get(kind, 0) < PER_TYPE:
                taken[kind] = taken.get(kind, 0) + 1
                chosen.setdefault(xml, []).append((layer_id, kind, axis))
    sampled = {kind for layers in chosen.values() for _, kind, _ in layers}
    for xml in large:
        candidates = _candidates(xml)
        new = [
            next(c for c in candidates if c[1] == kind) for kind in dict.fromkeys(c[1] for c in candidates)
        ]
        chosen[xml] = [c for c in new if c[1] not in sampled or c[1] in ALWAYS] or candidates[:1]
        sampled |= {kind for _, kind, _ in chosen[xml]}
    for xml in variants:
        candidates = _candidates(xml, precisions=True)
        firsts: dict[str, tuple[str, str, int]] = {}
        for layer_id, kind, axis in candidates:
            firsts.setdefault(kind, (layer_id, kind, axis))
        chosen[xml] = [c for kind, c in firsts.items() if kind not in sampled] or candidates[:1]
        sampled |= set(firsts)
    return [
        pytest.param(xml, layer_id, axis, id=f"{xml.stem}-{layer_id}-{kind}")
        for xml in files
        for layer_id, kind, axis in chosen.get(xml, [])
    ]


TARGETS = _targets()


def _mutant(xml: Path, target: Path, layer_id: str, axis: int, consumers_follow: bool) -> None:
    tree = etree.parse(str(xml))
    (layer,) = tree.xpath(f"/net/layers/layer[@id='{layer_id}']")
    port = layer.find("output/port")
    dim = port.findall("dim")[axis]
    dim.text = str(int(dim.text) + 1)
    if consumers_follow:
        edges = tree.xpath(f"/net/edges/edge[@from-layer='{layer_id}' and @from-port='{port.get('id')}']")
        for edge in edges:
            (consumer,) = tree.xpath(f"/net/layers/layer[@id='{edge.get('to-layer')}']")
            (into,) = [p for p in consumer.findall("input/port") if p.get("id") == edge.get("to-port")]
            into.findall("dim")[axis].text = dim.text
    tree.write(str(target))
    os.link(xml.with_suffix(".bin"), target.with_suffix(".bin"))  # the weights as they are


def test_every_exactly_computed_file_is_sampled() -> None:
    files = {p.values[0].stem for p in TARGETS}
    assert files == {xml.stem for xml in network_files()} - set(KNOWN_GAPS)
    assert len(TARGETS) > 200
    assert {xml.stem for xml in network_files()} >= NNCF_VARIANTS


CONTROL_FLOW = ("TensorIterator", "Loop", "If")


def _bodies(node: Any) -> list[tuple[str, Any]]:
    """(XML tag, OpenVINO's model) of each body of a TensorIterator, Loop or If node."""
    if node.get_type_name() == "If":
        return [("then_body", node.get_then_body()), ("else_body", node.get_else_body())]
    return [("body", node.get_function())]


def _body_candidates(xml: Path) -> list[tuple[str, str, str, str, int]]:
    """(outer layer id, body tag, body layer id, type, axis) of each body layer of ``xml`` whose
    first output has a dim OpenVINO knows statically, found by name in OpenVINO's body."""
    import openvino as ov  # (the oracle: its reading of the bodies)

    with tempfile.TemporaryDirectory(prefix="irshape-bodies-") as tmp:
        model = ov.Core().read_model(str(_renamed_copy(xml, Path(tmp))))
    outer = {node.get_friendly_name()[len(ID_PREFIX) :]: node for node in model.get_ordered_ops()}
    found = []
    for layer in xml_layers(etree.parse(str(xml))):
        if layer.get("type") not in CONTROL_FLOW:
            continue
        for tag, body in _bodies(outer[layer.get("id", "")]):
            ops = {op.get_friendly_name(): op for op in body.get_ordered_ops()}
            for inner in layer.iterfind(f"{tag}/layers/layer"):
                op = ops.get(inner.get("name"))
                if op is None or inner.find("output/port") is None or op.get_output_size() == 0:
                    continue
                dims = [d.get_length() if d.is_static else None for d in op.get_output_partial_shape(0)]
                axis = next((a for a, d in enumerate(dims) if d is not None and d >= 1), None)
                if axis is not None:
                    found.append((layer.get("id", ""), tag, inner.get("id", ""), inner.get("type", ""), axis))
    return found


def _body_targets() -> list[Any]:
    files = [
        xml
        for xml in network_files()
        if xml.stem not in KNOWN_GAPS and len(expected_outputs(xml)) <= LARGE
        if any(op.split("/")[0] in CONTROL_FLOW for op in load_expected(xml)["op_counts"])
    ]
    targets = []
    for xml in files:
        taken: dict[str, int] = {}
        for outer, tag, inner, kind, axis in _body_candidates(xml):
            if taken.get(kind, 0) < PER_TYPE:
                taken[kind] = taken.get(kind, 0) + 1
                targets.append(
                    pytest.param(xml, outer, tag, inner, axis, id=f"{xml.stem}-{outer}-{tag}-{inner}-{kind}")
                )
    return targets


BODY_TARGETS = _body_targets()


def test_the_bodies_of_the_control_flow_files_are_sampled() -> None:
    files = {p.values[0].stem for p in BODY_TARGETS}
    assert files >= {"ti_lstm_static", "ti_lstm_dyn", "onnx_scan_static", "onnx_control_flow_dyn"}
    assert {p.values[2] for p in BODY_TARGETS} == {"body", "then_body", "else_body"}


def _body_mutant(
    xml: Path, target: Path, outer: str, tag: str, inner: str, axis: int, consumers_follow: bool
) -> set[int]:
    """Write the mutant; the lines a finding on the mutated layer may name: its mutated dim's
    (IRS301), its ``<data>``'s (IRS416: a Parameter's or Const's shape the port contradicts)."""
    tree = etree.parse(str(xml))
    (body,) = tree.xpath(f"/net/layers/layer[@id='{outer}']/{tag}")
    (layer,) = body.xpath(f"layers/layer[@id='{inner}']")
    port = layer.find("output/port")
    dim = port.findall("dim")[axis]
    dim.text = str(int(dim.text) + 1)
    if consumers_follow:
        for edge in body.xpath(f"edges/edge[@from-layer='{inner}' and @from-port='{port.get('id')}']"):
            (consumer,) = body.xpath(f"layers/layer[@id='{edge.get('to-layer')}']")
            (into,) = [p for p in consumer.findall("input/port") if p.get("id") == edge.get("to-port")]
            into.findall("dim")[axis].text = dim.text
    tree.write(str(target))
    os.link(xml.with_suffix(".bin"), target.with_suffix(".bin"))
    (written,) = etree.parse(str(target)).xpath(
        f"/net/layers/layer[@id='{outer}']/{tag}/layers/layer[@id='{inner}']"
    )
    data = written.find("data")
    return {written.find("output/port").findall("dim")[axis].sourceline} | (
        set() if data is None else {data.sourceline}
    )


@pytest.mark.parametrize(
    "consumers_follow", [False, True], ids=["consumers-as-they-were", "consumers-follow"]
)
@pytest.mark.parametrize(("xml", "outer", "tag", "inner", "axis"), BODY_TARGETS)
def test_a_declared_dim_off_by_one_in_a_body_is_an_error_on_that_body_layer(
    tmp_path: Path, xml: Path, outer: str, tag: str, inner: str, axis: int, consumers_follow: bool
) -> None:
    target = tmp_path / xml.name
    lines = _body_mutant(xml, target, outer, tag, inner, axis, consumers_follow)
    report = irshape.check_file(target)
    on_layer = [d for d in report.errors if d.layer_id == f"{outer}/{tag}/{inner}" and d.line in lines]
    assert on_layer, [f"{d.code} {d.layer_id} {d.message[:160]}" for d in report.diagnostics]
    assert {d.code for d in on_layer} <= {"IRS301", "IRS302", "IRS416"}


@pytest.mark.parametrize(
    "consumers_follow", [False, True], ids=["consumers-as-they-were", "consumers-follow"]
)
@pytest.mark.parametrize(("xml", "layer_id", "axis"), TARGETS)
def test_a_declared_dim_off_by_one_is_an_error_on_that_layer(
    tmp_path: Path, xml: Path, layer_id: str, axis: int, consumers_follow: bool
) -> None:
    target = tmp_path / xml.name
    _mutant(xml, target, layer_id, axis, consumers_follow)
    report = irshape.check_file(target)
    on_layer = [d for d in report.errors if d.layer_id == layer_id]
    assert on_layer, [f"{d.code} {d.layer_id} {d.message[:160]}" for d in report.diagnostics]
    assert {d.code for d in on_layer} <= {"IRS301", "IRS302", "IRS416"}
