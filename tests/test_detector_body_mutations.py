"""The bodies of the detectors (the Ifs around batched NonMaxSuppression, the Loops pasting masks
and decoding keypoints): a declared dim off by one on a body layer of any type is an error on
that body layer, and a body Parameter's declared shape, which OpenVINO's reader does read,
changes irshape's verdict exactly as it changes OpenVINO's.

The detectors are the corpus files over ``LARGE`` layers with a Loop, If or TensorIterator
(tests/test_networks_mutations.py mutates the bodies of the smaller control-flow files). What
OpenVINO makes of each body layer comes from ``read_model`` of the file with every layer, body
layers included, renamed after its id path (``<outer id>/<body tag>/<id>``), mapped back by
friendly name.

**Declared dims off by one.** In each body of each detector, for each (op type, version, output
port) found there, the first layer whose port has a dim OpenVINO knows (a static one, else an
interval with an upper bound) gets that dim declared one more than OpenVINO's (its upper bound
plus one for an interval), and so does the port feeding the first Result of each kind of body
output (an If branch's output, a Loop's last-iteration output, the value a back edge carries;
the execution condition is a boolean scalar): with its consumers' input ports left as they
were, and with them changed to match. irshape must report an error on that body layer (layer id ``<outer>/<tag>/<id>``)
at the mutated dim's line (IRS301), or at its ``<data>`` for a Parameter or Const whose
``shape`` attribute the port now contradicts (IRS416).

Why it is cheap: a detector's check costs ~0.05-0.1 s (the scan reads 0.6 MB again and the
walk visits the ~1,500 unchanged layers, each a hit of the memo of clean checks: nothing there
is re-inferred), so a file carries many mutants at once, in rounds of independent ones: in each
body, the mutants of one depth (no path of the body from one to another, so no inference of one
reads another's declared dims), all bodies together (each is built apart, by OpenVINO and by
irshape's walk). A finding counts only at the mutated dim's own line, and every error of a
round must be one of its mutants' (or an edge mismatch, IRS411, at a mutated port's consumer,
when the consumers are left as they were): findings stay attributable. That is checked, not
assumed: on two detectors the largest round finds exactly the union of what its mutants find
checked one by one.

**A body Parameter's declared shape.** OpenVINO's reader builds each body first with its
Parameters as declared, validates it, and only then binds the outer inputs (a Loop's
current-iteration Parameter is never bound: its declared shape is the one OpenVINO uses). Each
dim of each body Parameter's ``shape`` (its port dims following, so only the attribute is at
stake) is changed: a static dim plus one, an interval's upper bound plus one, ``?`` made 1, and
the rank made one more and one less; in the detectors and in the corpus's smaller control-flow
files too (the TensorIterators of the LSTM and Scan models, the ONNX Loop and If, the greedy
decoder's Loop). Per mutant, as OpenVINO decides: where ``read_model`` fails, irshape
rejects the file on a layer of that body; where it reads, irshape rejects nothing, every
top-level layer's shape is OpenVINO's, and irshape's IRS301/IRS302 name every body layer whose
declared output dims OpenVINO's body contradicts (as a finding's layer, or among the layers it
says repeat the wrong dims downstream) and no other (a finding's layer declares a contradicted
output, a layer named downstream a contradicted output or input). Bodies alike in every
shape-relevant detail (the same NMS If in several detectors) are varied once.

This found irshape comparing a Loop body's declared dims at the shapes of every pass of its
fixed point, not only the last one OpenVINO keeps (``1,320,320`` declared for the Mask R-CNN
mask-pasting Loop's accumulator, [?,320,320] in OpenVINO, was IRS301 "inferred 0" from the
first pass): see the last test; and Gather folding nothing where an index is out of range,
where OpenVINO gathers zeros (the same Loop's mask Parameter declared one rank short makes a
Broadcast target of [1,1,16,0], which OpenVINO rejects): tests/test_gather_out_of_range_openvino.py.
"""

from __future__ import annotations

import functools
import os
import re
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import openvino as ov  # the oracle (a missing OpenVINO fails the import, never skips)
import pytest
from lxml import etree
from networks import ID_PREFIX, Dims, dims_of, expected_outputs, load_expected, network_files
from test_networks_mutations import CONTROL_FLOW, LARGE

import irshape
from irshape.results import FileReport
from irshape.rules import rejects

BODY_TAGS = ("body", "then_body", "else_body")
DIM_ERRORS = {"IRS301", "IRS302"}
SHAPE_ATTRIBUTE_ERROR = "IRS416"
EDGE_ERROR = "IRS411"
MODES = ("consumers-as-they-were", "consumers-follow")
STATED = {"Parameter", "Const"}


CONTROL_FLOW_FILES = [
    xml
    for xml in network_files()
    if any(op.split("/")[0] in CONTROL_FLOW for op in load_expected(xml)["op_counts"])
]
DETECTORS = [xml for xml in CONTROL_FLOW_FILES if len(expected_outputs(xml)) > LARGE]


# -- the detectors' bodies, as written and as OpenVINO reads them ------------------------------


@dataclass
class Port:
    """An output port of a body layer: where its dims are written, and OpenVINO's shape."""

    id: str
    ordinal: int
    line: int
    declared: list[int]
    dim_lines: list[int]
    openvino: Dims
    consumers: list[tuple[str, str]] = field(default_factory=list)  # (body layer id, input port id)


@dataclass
class BodyLayer:
    path: str  # "<outer id>/<tag>/<id>", "<outer id>/<tag>/<id>/<tag>/<id>" in a nested body
    id: str
    type: str
    version: str
    ports: list[Port]
    data_line: int  # the line of its <data> (0: none)
    shape: str | None  # a Parameter's or Const's shape attribute
    input_dim_lines: dict[str, list[int]]  # input port id -> the lines of its dims
    inputs: dict[str, list[int]]  # input port id -> its declared dims
    sources: dict[str, tuple[str, int]] = field(default_factory=dict)  # input port id -> (producer, ordinal)


@dataclass(eq=False)  # (one per body: hashed by identity)
class Body:
    outer: str
    tag: str
    layers: dict[str, BodyLayer]  # by body layer id, in document order
    roles: dict[str, set[str]] = field(default_factory=dict)  # Result id -> what it gives the op

    @property
    def prefix(self) -> str:
        return f"{self.outer}/{self.tag}/"


@dataclass
class Detector:
    xml: Path
    text: list[str]  # the renamed copy's lines, each with its end
    bodies: list[Body]


def _bodies_of(node: Any) -> list[tuple[str, Any]]:
    if node.get_type_name() == "If":
        return [("then_body", node.get_then_body()), ("else_body", node.get_else_body())]
    return [("body", node.get_function())]


def _renamed(tree: etree._ElementTree) -> None:
    """Every layer named after its id path, body layers too, however deep (names decide no shape)."""
    for layer in tree.getroot().iterfind("layers/layer"):
        _rename(layer, layer.get("id", ""))


def _rename(layer: etree._Element, path: str) -> None:
    layer.set("name", ID_PREFIX + path)
    for tag in BODY_TAGS:
        for inner in layer.iterfind(f"{tag}/layers/layer"):
            _rename(inner, f"{path}/{tag}/{inner.get('id')}")


def _write(text: list[str], target: Path, weights: Path) -> Path:
    target.write_text("".join(text), encoding="utf-8")
    bin_path = target.with_suffix(".bin")
    if not bin_path.exists():
        try:
            os.link(weights, bin_path)  # the weights as they are
        except OSError:
            os.symlink(weights, bin_path)
    return target


def _openvino_bodies(model: Any) -> dict[str, Any]:
    """Body layer path -> OpenVINO's node, for every body of every control-flow node."""
    nodes = {}
    for node in model.get_ordered_ops():
        if node.get_type_name() not in CONTROL_FLOW:
            continue
        for _, body in _bodies_of(node):
            for op in body.get_ordered_ops():
                nodes[op.get_friendly_name()[len(ID_PREFIX) :]] = op
            nodes.update(_openvino_bodies(body))  # (a body's own Loops, Ifs, TensorIterators)
    return nodes


def _openvino_dims(op: Any, ordinal: int) -> Dims:
    return dims_of(op.get_output_partial_shape(ordinal))


@functools.cache
def detector(xml: Path) -> Detector:
    """The detector ``xml`` renamed (:func:`_renamed`), as lines to mutate, and its bodies with
    what OpenVINO reads of each body layer."""
    tree = etree.parse(str(xml))
    _renamed(tree)
    text = etree.tostring(tree, encoding="unicode")
    lines = ['<?xml version="1.0"?>\n', *(text + "\n").splitlines(keepends=True)]
    reparsed = etree.fromstring("".join(lines).encode())  # the lines of the text written
    with tempfile.TemporaryDirectory(prefix="irshape-detector-") as tmp:
        copy = _write(lines, Path(tmp) / xml.name, xml.with_suffix(".bin"))
        ops = _openvino_bodies(ov.Core().read_model(str(copy)))
    bodies = []
    for outer in reparsed.iterfind("layers/layer"):
        bodies.extend(_bodies_within(outer, outer.get("id", ""), ops))
    return Detector(xml, lines, bodies)


def _bodies_within(outer: etree._Element, path: str, ops: dict[str, Any]) -> list[Body]:
    """The bodies of the layer ``outer`` (its id path ``path``), and theirs, in document order:
    a body's Loop, If or TensorIterator is a layer of that body, and its bodies are bodies too
    (their layers named ``3/then_body/2/body/4``)."""
    bodies: list[Body] = []
    if outer.get("type") not in CONTROL_FLOW:
        return bodies
    for tag in BODY_TAGS:
        element = outer.find(tag)
        if element is None:
            continue
        body = _body(path, tag, element, ops)
        body.roles = _result_roles(outer, tag)
        bodies.append(body)
        for inner in element.iterfind("layers/layer"):
            bodies.extend(_bodies_within(inner, f"{path}/{tag}/{inner.get('id')}", ops))
    return bodies


def _result_roles(outer: etree._Element, tag: str) -> dict[str, set[str]]:
    """What each body Result gives the op, by the port map and back edges (the output kinds of
    a body): a concatenated or last-iteration output, the value a back edge carries to the next
    iteration, the execution condition; an If branch's output."""
    roles: dict[str, set[str]] = {}
    port_map = "port_map" if tag == "body" else tag.replace("body", "port_map")
    for entry in outer.iterfind(f"{port_map}/output"):
        if entry.get("purpose") == "execution_condition":
            role = "execution-condition"
        elif tag != "body":
            role = "if-output"
        else:
            role = "concatenated-output" if "axis" in entry.attrib else "last-iteration-output"
        roles.setdefault(entry.get("internal_layer_id", ""), set()).add(role)
    for edge in outer.iterfind("back_edges/edge"):
        roles.setdefault(edge.get("from-layer", ""), set()).add("back-edge")
    return roles


def _body(outer: str, tag: str, element: etree._Element, ops: dict[str, Any]) -> Body:
    layers: dict[str, BodyLayer] = {}
    for inner in element.iterfind("layers/layer"):
        path = f"{outer}/{tag}/{inner.get('id')}"
        op = ops[path]
        data = inner.find("data")
        ports = [
            Port(
                id=port.get("id", ""),
                ordinal=ordinal,
                line=port.sourceline,
                declared=[int(dim.text or "") for dim in port.iterfind("dim")],
                dim_lines=[dim.sourceline for dim in port.iterfind("dim")],
                openvino=_openvino_dims(op, ordinal),
            )
            for ordinal, port in enumerate(inner.iterfind("output/port"))
        ]
        layers[inner.get("id", "")] = BodyLayer(
            path=path,
            id=inner.get("id", ""),
            type=inner.get("type", ""),
            version=inner.get("version", ""),
            ports=ports,
            data_line=0 if data is None else data.sourceline,
            shape=None if data is None else data.get("shape"),
            input_dim_lines={
                port.get("id", ""): [dim.sourceline for dim in port.iterfind("dim")]
                for port in inner.iterfind("input/port")
            },
            inputs={
                port.get("id", ""): [int(dim.text or "") for dim in port.iterfind("dim")]
                for port in inner.iterfind("input/port")
            },
        )
    for edge in element.iterfind("edges/edge"):
        producer = layers[edge.get("from-layer", "")]
        (port,) = [p for p in producer.ports if p.id == edge.get("from-port")]
        port.consumers.append((edge.get("to-layer", ""), edge.get("to-port", "")))
        layers[edge.get("to-layer", "")].sources[edge.get("to-port", "")] = (producer.id, port.ordinal)
    return Body(outer, tag, layers)


def _replaced(line: str, old: str, new: str) -> str:
    assert line.count(old) == 1, (line, old)
    return line.replace(old, new)


def _with_dim(text: list[str], line: int, old: int, new: int) -> None:
    text[line - 1] = _replaced(text[line - 1], f"<dim>{old}</dim>", f"<dim>{new}</dim>")


# -- declared dims off by one ------------------------------------------------------------------


@dataclass
class Mutant:
    body: Body
    layer: BodyLayer
    port: Port
    axis: int
    value: int  # the dim declared: OpenVINO's plus one (its upper bound plus one)
    roles: set[str] = field(default_factory=set)  # the body outputs it feeds, where chosen for them

    @property
    def kind(self) -> str:
        return f"{self.layer.type}-{self.layer.version}:{self.port.ordinal}"

    @property
    def line(self) -> int:
        return self.port.dim_lines[self.axis]

    def apply(self, text: list[str], consumers_follow: bool) -> None:
        _with_dim(text, self.line, self.port.declared[self.axis], self.value)
        if not consumers_follow:
            return
        for consumer, port_id in self.port.consumers:
            line = self.body.layers[consumer].input_dim_lines[port_id][self.axis]
            _with_dim(text, line, self.port.declared[self.axis], self.value)

    def found(self, report: FileReport) -> bool:
        """An error on the mutated layer at the mutated dim (IRS301/IRS302), or at its
        ``<data>`` for a shape attribute the port now contradicts (IRS416)."""
        return any(
            d.layer_id == self.layer.path
            and (
                (d.code in DIM_ERRORS and d.line == self.line)
                or (d.code == SHAPE_ATTRIBUTE_ERROR and d.line == self.layer.data_line)
            )
            for d in report.errors
        )


def _known_axis(port: Port) -> tuple[int, int] | None:
    """(axis, value to declare) for a dim of ``port`` OpenVINO knows: a static one plus one,
    else an interval's upper bound plus one."""
    dims = port.openvino
    if dims is None or len(dims) != len(port.declared):
        return None
    for axis, dim in enumerate(dims):
        if isinstance(dim, int):
            return axis, dim + 1
    for axis, dim in enumerate(dims):
        if isinstance(dim, list) and dim[1] is not None:
            return axis, dim[1] + 1
    return None


@functools.cache
def body_mutants(body: Body) -> list[Mutant]:
    """The first layer of each (type, version, output port) of ``body`` with a dim OpenVINO
    knows, that dim declared off by one; and for each kind of body output (:func:`_result_roles`),
    the port feeding the first Result of that kind, where OpenVINO knows a dim of it."""
    chosen: dict[str, Mutant] = {}
    for layer in body.layers.values():
        for port in layer.ports:
            known = _known_axis(port)
            if known is None:
                continue
            mutant = Mutant(body, layer, port, *known)
            chosen.setdefault(mutant.kind, mutant)
    mutants = list(chosen.values())
    for role in sorted({role for roles in body.roles.values() for role in roles}):
        for result in (body.layers[i] for i in body.layers if role in body.roles.get(i, ())):
            ((producer, ordinal),) = result.sources.values()
            port = body.layers[producer].ports[ordinal]
            known = _known_axis(port)
            if known is None:
                continue
            same = next((m for m in mutants if m.port is port), None)
            if same is None:
                same = Mutant(body, body.layers[producer], port, *known)
                mutants.append(same)
            same.roles.add(role)
            break
    return mutants


def unmutable_kinds(body: Body) -> set[str]:
    """The (type, version, port) of ``body`` where OpenVINO knows no dim to be off by one: a
    scalar, or only unbounded dims (``?``), on every layer of that kind."""
    kinds = {
        f"{layer.type}-{layer.version}:{port.ordinal}"
        for layer in body.layers.values()
        for port in layer.ports
    }
    return kinds - {mutant.kind for mutant in body_mutants(body)}


def _depths(body: Body, mutants: list[Mutant]) -> list[int]:
    """For each mutant, how many other mutants lie on the longest path of ``body`` into it: the
    mutants of one depth are independent (no path from one to another), so no inference of one
    can read another's declared dims."""
    mutated = {m.layer.id for m in mutants}
    producers: dict[str, set[str]] = {layer_id: set() for layer_id in body.layers}
    for layer in body.layers.values():
        for producer, _ in layer.sources.values():
            producers[layer.id].add(producer)

    @functools.cache
    def depth(layer_id: str) -> int:  # mutants on the longest path into it, itself excluded
        return max((depth(p) + (p in mutated) for p in producers[layer_id]), default=0)

    return [depth(m.layer.id) for m in mutants]


@functools.cache
def rounds(xml: Path) -> list[list[Mutant]]:
    """The mutants of the detector ``xml`` in rounds of independent ones: in each body, those
    of one depth (:func:`_depths`); the bodies apart."""
    packed: dict[int, list[Mutant]] = {}
    for body in detector(xml).bodies:
        mutants = body_mutants(body)
        for mutant, depth in zip(mutants, _depths(body, mutants), strict=True):
            packed.setdefault(depth, []).append(mutant)
    return [packed[depth] for depth in sorted(packed)]


def _round_ids() -> list[Any]:
    return [
        pytest.param(xml, r, mode, id=f"{xml.stem}-round{r}-{mode}")
        for xml in DETECTORS
        for r in range(len(rounds(xml)))
        for mode in MODES
    ]


def _checked(xml: Path, mutants: list[Mutant], consumers_follow: bool, directory: Path) -> FileReport:
    """irshape's report of the detector ``xml`` with ``mutants``, written in ``directory``."""
    text = list(detector(xml).text)
    for mutant in mutants:
        mutant.apply(text, consumers_follow)
    return irshape.check_file(_write(text, directory / xml.name, xml.with_suffix(".bin")))


def _attributable(report: FileReport, mutants: list[Mutant], consumers_follow: bool) -> list[str]:
    """The errors of ``report`` that are none of the mutants' own."""
    allowed = {(m.layer.path, m.line) for m in mutants} | {(m.layer.path, m.layer.data_line) for m in mutants}
    if not consumers_follow:
        allowed |= {
            (m.body.layers[consumer].path, line)
            for m in mutants
            for consumer, port_id in m.port.consumers
            for line in m.body.layers[consumer].input_dim_lines[port_id]
        }
    return [
        f"{d.code} {d.layer_id} line {d.line}: {d.message[:160]}"
        for d in report.errors
        if (d.layer_id, d.line) not in allowed
        or d.code not in DIM_ERRORS | {SHAPE_ATTRIBUTE_ERROR, EDGE_ERROR}
    ]


def test_the_detectors_bodies_are_there() -> None:
    names = {xml.stem for xml in DETECTORS}
    assert {"faster_rcnn_static_f32", "mask_rcnn_static_f32", "keypoint_rcnn_static_f32"} <= names
    assert len(names) >= 6
    tags = {body.tag for xml in DETECTORS for body in detector(xml).bodies}
    assert tags == set(BODY_TAGS)


def test_every_body_layer_kind_with_a_known_dim_is_mutated() -> None:
    """Each body's mutants cover every (type, version, output port) of it but those where
    OpenVINO knows no dim at all; those are few and named here (OpenVINO's shapes: a scalar, or
    ``?`` in a file whose boxes are not bounded)."""
    unmutable: set[str] = set()
    for xml in DETECTORS:
        for body in detector(xml).bodies:
            for mutant in body_mutants(body):
                assert mutant.layer.type != "Result"
            unmutable |= unmutable_kinds(body)
    assert unmutable == {
        "ReduceMax-opset1:0",  # the NMS If's max coordinate: a scalar
        "ReduceMin-opset1:0",  # the mask-pasting Loop's scalars
        "Subtract-opset1:0",
        "Convert-opset1:0",  # [?] where the boxes are not bounded (mutated where they are)
        "Multiply-opset1:0",
        "Squeeze-opset1:0",
        "Const-opset1:0",  # the ONNX exports' scalar Consts in their bodies
        "Interpolate-opset11:0",  # the ONNX Keypoint R-CNN's Loop: a heatmap resized to its box, [?,?,?,?]
    }, unmutable
    mutants = [m for xml in DETECTORS for body in detector(xml).bodies for m in body_mutants(body)]
    mutated = {m.kind for m in mutants}
    # every kind of body output but the execution condition (a boolean scalar) feeds a mutant
    roles = {
        role for xml in DETECTORS for body in detector(xml).bodies for r in body.roles.values() for role in r
    }
    assert roles == {"if-output", "last-iteration-output", "back-edge", "execution-condition"}
    assert {role for m in mutants for role in m.roles} == roles - {"execution-condition"}
    # the ops the detectors' bodies are there for
    assert {
        "NonMaxSuppression-opset9:0",
        "NonMaxSuppression-opset9:1",
        "NonMaxSuppression-opset9:2",
        "TopK-opset11:0",
        "TopK-opset11:1",
        "Interpolate-opset11:0",
        "Convert-opset1:0",
        "Multiply-opset1:0",
        "Squeeze-opset1:0",
    } <= mutated


@pytest.mark.parametrize(("xml", "r", "mode"), _round_ids())
def test_a_declared_dim_off_by_one_in_a_detector_body_is_an_error_on_that_body_layer(
    tmp_path: Path, xml: Path, r: int, mode: str
) -> None:
    consumers_follow = mode == "consumers-follow"
    mutants = rounds(xml)[r]
    report = _checked(xml, mutants, consumers_follow, tmp_path)
    missed = [f"{m.layer.path} {m.kind} axis {m.axis} = {m.value}" for m in mutants if not m.found(report)]
    assert not missed, (missed, [f"{d.code} {d.layer_id} {d.line} {d.message[:120]}" for d in report.errors])
    assert not _attributable(report, mutants, consumers_follow)


def _error_keys(report: FileReport) -> set[tuple[str, str | None, int]]:
    return {(d.code, d.layer_id, d.line) for d in report.errors}


@pytest.mark.parametrize("name", ["faster_rcnn_static_f32", "mask_rcnn_static_f32"])
def test_a_round_finds_what_its_mutants_find_one_by_one(tmp_path: Path, name: str) -> None:
    """The packing is sound: the largest round of a detector with four bodies (and one with a
    Loop besides) finds exactly the union of what its mutants find checked alone, with the
    consumers left as they were (the edge findings too)."""
    (xml,) = [xml for xml in DETECTORS if xml.stem == name]
    mutants = max(rounds(xml), key=len)
    assert len(mutants) >= 7
    alone: set[tuple[str, str | None, int]] = set()
    for mutant in mutants:
        alone |= _error_keys(_checked(xml, [mutant], False, tmp_path))
    assert _error_keys(_checked(xml, mutants, False, tmp_path)) == alone


# -- a body Parameter's declared shape -----------------------------------------------------------


def _shape_variants(shape: str) -> Iterator[tuple[str, str]]:
    """(what changed, the new shape attribute) of a Parameter's ``shape``."""
    dims = shape.split(",") if shape else []
    for axis, dim in enumerate(dims):
        if re.fullmatch(r"\d+", dim):
            new = str(int(dim) + 1)
        elif re.fullmatch(r"\d*\.\.\d+", dim):
            low, high = dim.split("..")
            new = f"{low}..{int(high) + 1}"
        else:
            new = "1"
        yield f"axis {axis} {dim} -> {new}", ",".join([*dims[:axis], new, *dims[axis + 1 :]])
    yield "rank + 1", ",".join([*dims, "1"])
    if dims:
        yield "rank - 1", ",".join(dims[:-1])


def _signature(body: Body) -> tuple[Any, ...]:
    """What decides a body's shapes: each layer's type, version, declared shape and dims, and
    OpenVINO's shapes, but for the upper bound of an interval (the NMS If of four detectors
    differs only in how many boxes it bounds: ..80, ..55, ..69, ..40); bodies alike in these are
    varied once."""
    return tuple(
        (
            layer.type,
            layer.version,
            re.sub(r"\.\.\d+", "..N", layer.shape or ""),
            tuple(
                (tuple(p.declared), re.sub(r"\[(\d+), \d+\]", r"[\1, N]", str(p.openvino)))
                for p in layer.ports
            ),
        )
        for layer in body.layers.values()
    )


def _parameter_cases() -> list[Any]:
    seen: set[tuple[Any, ...]] = set()
    cases = []
    for xml in CONTROL_FLOW_FILES:
        for index, body in enumerate(detector(xml).bodies):
            signature = _signature(body)
            if signature in seen:
                continue
            seen.add(signature)
            for layer in body.layers.values():
                if layer.type != "Parameter" or layer.shape is None:
                    continue
                for change, shape in _shape_variants(layer.shape):
                    cases.append(
                        pytest.param(xml, index, layer.id, shape, id=f"{xml.stem}-{layer.path}-{change}")
                    )
    return cases


def _port_dims(shape: str) -> list[str]:
    return [dim if re.fullmatch(r"\d+", dim) else "-1" for dim in (shape.split(",") if shape else [])]


def _declaring(xml: Path, layer: BodyLayer, shape: str) -> list[str]:
    """The detector's text with the body Parameter ``layer`` declaring ``shape``, its port
    dims written to match (one a line, as the writer writes them)."""
    text = list(detector(xml).text)
    assert layer.shape is not None
    text[layer.data_line - 1] = _replaced(
        text[layer.data_line - 1], f'shape="{layer.shape}"', f'shape="{shape}"'
    )
    (port,) = layer.ports
    opened = text[port.line - 1]
    indent = opened[: len(opened) - len(opened.lstrip())]
    dims = [f"{indent}\t<dim>{dim}</dim>\n" for dim in _port_dims(shape)]
    if port.dim_lines:  # the dims' lines replaced (the port's other children stay)
        text[port.dim_lines[0] - 1 : port.dim_lines[-1]] = dims
    else:  # <port .../> opened to hold them
        assert opened.rstrip().endswith("/>"), opened
        text[port.line - 1 : port.line] = [opened.rstrip()[:-2].rstrip() + ">\n", *dims, f"{indent}</port>\n"]
    return text


def _openvino(path: Path) -> tuple[Any, str | None]:
    try:
        return ov.Core().read_model(str(path)), None
    except RuntimeError as error:
        return None, str(error)


def _contradicts(declared: list[int], openvino: Dims) -> bool:
    """Do declared dims describe another shape than OpenVINO's (a rank of its own, or a dim
    outside OpenVINO's)? -1 declares nothing."""
    if openvino is None or not declared:
        return False
    if len(declared) != len(openvino):
        return True
    for length, dim in zip(declared, openvino, strict=True):
        if length == -1:
            continue
        low, high = (dim, dim) if isinstance(dim, int) else (dim[0], dim[1])
        if length < low or (high is not None and length > high):
            return True
    return False


@pytest.mark.parametrize(("xml", "index", "parameter", "shape"), _parameter_cases())
def test_a_body_parameters_declared_shape_as_openvino_reads_it(
    tmp_path: Path, xml: Path, index: int, parameter: str, shape: str
) -> None:
    body = detector(xml).bodies[index]
    layer = body.layers[parameter]
    path = _write(_declaring(xml, layer, shape), tmp_path / xml.name, xml.with_suffix(".bin"))
    model, failure = _openvino(path)
    report = irshape.check_file(path)
    rejecting = [d for d in report.diagnostics if rejects(d)]
    if failure is not None:
        assert rejecting, failure
        assert all(d.layer_id and d.layer_id.startswith(body.prefix) and d.line for d in rejecting), [
            f"{d.code} {d.layer_id} {d.message[:160]}" for d in rejecting
        ]
        return
    assert not rejecting, [f"{d.code} {d.layer_id} {d.message[:160]}" for d in rejecting]
    # every top-level layer's shape is OpenVINO's (of this very file)
    nodes = {node.get_friendly_name()[len(ID_PREFIX) :]: node for node in model.get_ordered_ops()}
    for result in report.layers:
        node = nodes[result.layer_id]
        if result.type in STATED or node.get_type_name() == "Result":
            continue  # (what the file states, a Parameter's or Const's shape, irshape reads)
        assert [str(s) for s in result.outputs] == [str(o.get_partial_shape()) for o in node.outputs()], (
            result.layer_id
        )
    # irshape's IRS301/IRS302 are on body layers whose declared output dims OpenVINO's body
    # contradicts, and name (as their origin, or in its ``related``: the layers downstream that
    # repeat the wrong dims) every such layer; a layer named downstream declares a contradicted
    # dim on one of its ports, output or input
    ops = _openvino_bodies(model)
    openvino = {
        (body_layer.path, port.ordinal): _openvino_dims(ops[body_layer.path], port.ordinal)
        for other in detector(xml).bodies
        for body_layer in other.layers.values()
        for port in body_layer.ports
    }
    wrong_outputs, wrong_ports = set(), set()
    for other in detector(xml).bodies:
        for body_layer in other.layers.values():
            for port in body_layer.ports:
                declared = [int(d) for d in _port_dims(shape)] if body_layer is layer else port.declared
                if _contradicts(declared, openvino[body_layer.path, port.ordinal]):
                    wrong_outputs.add(body_layer.path)
            for port_id, (producer, ordinal) in body_layer.sources.items():
                if _contradicts(body_layer.inputs[port_id], openvino[other.layers[producer].path, ordinal]):
                    wrong_ports.add(body_layer.path)
    origins = [d for d in report.errors if d.code in DIM_ERRORS]
    downstream = {_named_path(label) for d in origins for label in d.related}
    assert {d.layer_id for d in origins} <= wrong_outputs
    assert wrong_outputs <= {d.layer_id for d in origins} | downstream
    assert downstream <= wrong_outputs | wrong_ports


def _named_path(label: str) -> str:
    """The id path of a layer a finding names (``layer 13 'irshape_id_1231/body/13'``)."""
    found = re.fullmatch(rf"layer \S+ '{ID_PREFIX}(.+)'", label)
    assert found, label
    return found.group(1)


def _appending_loop(directory: Path, rows: str, concat_dims: tuple[str, str]) -> Path:
    """A Loop that appends a row to what its back edge brings (torchvision's mask pasting, in
    small): from a [0,2] start its body Parameter is [0,2] on the first pass and [?,2] once the
    [1,2] that comes back does not fit; the body Parameter declares ``rows`` (its port dims
    following), the Concat's output port ``concat_dims``."""
    import numpy as np
    from openvino import opset13 as ops

    start = ops.parameter([0, 2], np.float32, name="start")
    parameter = ops.parameter([0, 2], np.float32, name="rows")
    grown = ops.result(ops.concat([parameter, ops.constant(np.ones((1, 2), np.float32))], 0))
    body = ov.Model([grown, ops.result(ops.constant(np.array(True)))], [parameter], "body")
    loop = ops.loop(ops.constant(np.int64(3)), ops.constant(np.array(True)))
    loop.set_function(body)
    loop.set_special_body_ports([-1, 1])
    loop.set_merged_input(parameter, start.output(0), grown.output(0))
    xml = directory / "appending.xml"
    ov.save_model(ov.Model([loop.get_iter_value(grown.output(0), -1)], [start]), xml, compress_to_fp16=False)
    tree = etree.parse(str(xml))
    (declared,) = tree.xpath("//body/layers/layer[@name='rows']")
    declared.find("data").set("shape", rows)
    for dim, length in zip(declared.iterfind("output/port/dim"), _port_dims(rows), strict=True):
        dim.text = length
    (concat,) = tree.xpath("//body/layers/layer[@type='Concat']")
    for dim, length in zip(concat.iterfind("output/port/dim"), concat_dims, strict=True):
        dim.text = length
    tree.write(str(xml), xml_declaration=True, encoding="utf-8")
    return xml


def test_a_loops_body_is_compared_at_the_shapes_of_its_last_pass(tmp_path: Path) -> None:
    """The declared dims of a Loop's body are compared at the shapes OpenVINO keeps, those of
    its last pass over the body (a back edge widened the Parameter to [?,2]), not at the first
    pass's [0,2], which it validates and then replaces: declaring 1 row is no error (irshape
    said 'declared 1, inferred 0'), a Concat declaring 3 columns is one, once."""
    xml = _appending_loop(tmp_path, "1,2", ("-1", "2"))
    model, failure = _openvino(xml)
    assert failure is None
    (loop,) = [node for node in model.get_ordered_ops() if node.get_type_name() == "Loop"]
    (parameter,) = loop.get_function().get_parameters()
    assert str(parameter.get_partial_shape()) == "[?,2]"  # the pass OpenVINO keeps
    assert irshape.check_file(xml).errors == []
    wrong = _appending_loop(tmp_path, "1,2", ("-1", "3"))
    assert _openvino(wrong)[1] is None
    findings = [(d.code, d.layer_id) for d in irshape.check_file(wrong).errors]
    (concat,) = etree.parse(str(wrong)).xpath("//body/layers/layer[@type='Concat']")
    assert findings == [("IRS301", f"{loop_id(wrong)}/body/{concat.get('id')}")]


def loop_id(xml: Path) -> str:
    (layer,) = etree.parse(str(xml)).xpath("/net/layers/layer[@type='Loop']")
    return str(layer.get("id"))
