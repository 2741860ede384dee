"""A port's ``<rt_info>`` layout against the shapes OpenVINO checks it with (IRS026,
irshape/check/metadata.py ``check_layouts``), judged by the installed OpenVINO's read_model on
small IR v11 files: irshape reports an error exactly where read_model fails, with OpenVINO's
message, at the line of the ``layout`` attribute.

What OpenVINO 2026.4 does (docs/openvino-ir-reading.md §16): read_model validates the whole
model only when a pass of the IR reader's normalize step changed it, and
ConvertLegacyPrecisionAttribute does when a layer it builds (or a layer of a body) carries the
runtime attribute ``precise``; Model::validate_nodes_and_infer_types then checks each Result's
layout, the one of the output port it reads. A Loop or an If validates its bodies as models
(their Results' layouts, always), and every control op sets the shapes of the body Parameters it
binds (Parameter::set_partial_shape checks their layouts). The expected verdicts below are
OpenVINO's, asserted at every run."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

import openvino as ov
import openvino.opset8 as ops
import pytest
from probes import openvino_rejection

import irshape

SHAPE = (1, 3, 4, 4)
PRECISE = '<attribute name="precise" version="0"/>'


def _attribute(name: str, value: str | None = None, key: str = "value", version: str = "0") -> str:
    value_text = "" if value is None else f' {key}="{value}"'
    return f'<attribute name="{name}" version="{version}"{value_text}/>'


def _layout(text: str) -> str:
    return _attribute("layout", text, "layout")


def _rt(inner: str) -> str:
    return f"\n<rt_info>\n{inner}\n</rt_info>\n" if inner else ""


def _dims(shape: tuple[int, ...]) -> str:
    return "".join(f"<dim>{d}</dim>" for d in shape)


Source = tuple[int, int, tuple[int, ...]]  # layer id, output port id, its dims


class _Net:
    """An IR v11 (or v10) network built a layer at a time; each <rt_info> child on a line of its own."""

    def __init__(self) -> None:
        self.layers: list[str] = []
        self.edges: list[tuple[int, int, int, int]] = []

    def _id(self) -> int:
        return len(self.layers)

    def parameter(
        self,
        shape: tuple[int, ...] = SHAPE,
        layer_rt: str = "",
        port_rt: str = "",
        text: str | None = None,
        name: str | None = None,
    ) -> Source:
        """``text``: the <data shape> when it is no static shape (its port then declares none)."""
        i = self._id()
        data = ",".join(map(str, shape)) if text is None else text
        dims = _dims(shape) if text is None else ""
        self.layers.append(
            f'<layer id="{i}" name="{name or f"p{i}"}" type="Parameter" version="opset1">\n'
            f'<data shape="{data}" element_type="f32"/>{_rt(layer_rt)}'
            f'<output><port id="0" precision="FP32">{_rt(port_rt)}{dims}</port></output>\n</layer>'
        )
        return i, 0, shape if text is None else ()

    def relu(self, source: Source, layer_rt: str = "", in_rt: str = "", out_rt: str = "") -> Source:
        i = self._id()
        dims = _dims(source[2])
        self.layers.append(
            f'<layer id="{i}" name="relu{i}" type="ReLU" version="opset1">{_rt(layer_rt)}'
            f'<input><port id="0" precision="FP32">{_rt(in_rt)}{dims}</port></input>'
            f'<output><port id="1" precision="FP32">{_rt(out_rt)}{dims}</port></output>\n</layer>'
        )
        self.edges.append((source[0], source[1], i, 0))
        return i, 1, source[2]

    def result(self, source: Source, layer_rt: str = "", in_rt: str = "") -> None:
        i = self._id()
        self.layers.append(
            f'<layer id="{i}" name="r{i}" type="Result" version="opset1">{_rt(layer_rt)}'
            f'<input><port id="0" precision="FP32">{_rt(in_rt)}{_dims(source[2])}</port></input>\n</layer>'
        )
        self.edges.append((source[0], source[1], i, 0))

    def text(self, version: str = "11") -> str:
        edges = "".join(
            f'<edge from-layer="{a}" from-port="{b}" to-layer="{c}" to-port="{d}"/>\n'
            for a, b, c, d in self.edges
        )
        layers = "\n".join(self.layers)
        return (
            f'<?xml version="1.0"?>\n<net name="m" version="{version}">\n<layers>\n{layers}\n</layers>\n'
            f"<edges>\n{edges}</edges>\n</net>\n"
        )


def _agree(xml: Path) -> str | None:
    """read_model's verdict, asserting that irshape's is the same: no error where it reads;
    where it fails, IRS026 errors only, at lines holding a layout attribute, one of them with
    OpenVINO's message. The message (None: it reads)."""
    message = openvino_rejection(xml)
    errors = [d for d in irshape.check_file(xml).diagnostics if d.severity is irshape.Severity.ERROR]
    if message is None:
        assert errors == []
        return None
    assert errors and {d.code for d in errors} == {"IRS026"}, (message, errors)
    lines = xml.read_text().split("\n")
    assert all('name="layout"' in lines[d.line - 1] and d.column >= 1 for d in errors)
    for d in errors:  # named after the layer whose port carries the layout
        opening = next(line for line in reversed(lines[: d.line]) if "<layer " in line)
        assert f'name="{d.layer_name}"' in opening, (d.layer_name, opening)
    assert any(f"('{message}')" in d.message for d in errors), (message, [d.message for d in errors])
    return message


def _file(tmp_path: Path, text: str) -> Path:
    xml = tmp_path / "model.xml"
    xml.write_text(text)
    return xml


# --- what makes read_model check the model's Results: a layer carrying 'precise' -------------------


def _with(
    layout_feed: Callable[[_Net], None], version: str = "11"
) -> Callable[[Callable[[_Net], object]], str]:
    """A network of the Parameter p0 [1,3,4,4] with layout NC read by a Result, and what ``build`` adds."""

    def make(build: Callable[[_Net], object]) -> str:
        net = _Net()
        layout_feed(net)
        build(net)
        return net.text(version)

    return make


def _nc_result(net: _Net) -> None:
    net.result(net.parameter(port_rt=_layout("NC")))


def _dead_relu(net: _Net) -> None:
    net.relu(net.parameter((2,)), layer_rt=PRECISE)  # its output goes nowhere: never built


def _duplicate_names(net: _Net) -> None:
    first = net.relu(net.parameter((2,)))
    net.layers[-1] = net.layers[-1].replace(f'name="relu{first[0]}"', 'name="x"')
    second = net.relu(first)
    net.layers[-1] = net.layers[-1].replace(f'name="relu{second[0]}"', 'name="x"')
    net.result(second)


TRIGGERS: dict[str, tuple[Callable[[_Net], object], bool, str]] = {  # what is added, reads, version
    "nothing": (lambda net: net.result(net.parameter()), True, "11"),
    "precise on another Parameter": (lambda net: net.result(net.parameter(layer_rt=PRECISE)), False, "11"),
    "precise on a Result": (lambda net: net.result(net.parameter(), layer_rt=PRECISE), False, "11"),
    "precise on a ReLU": (
        lambda net: net.result(net.relu(net.parameter((2,)), layer_rt=PRECISE)),
        False,
        "11",
    ),
    "precise with a value": (
        lambda net: net.result(net.parameter(layer_rt=_attribute("precise", "x"))),
        False,
        "11",
    ),
    "precise on a Parameter feeding nothing": (
        lambda net: net.parameter((2,), layer_rt=PRECISE),
        False,
        "11",
    ),
    "precise on a layer never built": (_dead_relu, True, "11"),
    "precise on an output port": (lambda net: net.result(net.parameter(port_rt=PRECISE)), True, "11"),
    "precise on a Result's input port": (lambda net: net.result(net.parameter(), in_rt=PRECISE), True, "11"),
    "precise of version 1": (
        lambda net: net.result(net.parameter(layer_rt=_attribute("precise", version="1"))),
        True,
        "11",
    ),
    "precise as disable_fp16_compression": (
        lambda net: net.result(net.parameter(layer_rt=_attribute("disable_fp16_compression"))),
        True,
        "11",
    ),
    "precise in IR v10 (rt_info is not read)": (
        lambda net: net.result(net.parameter(layer_rt=PRECISE)),
        True,
        "10",
    ),
    "layer names that collide (ResolveNameCollisions changes nothing OpenVINO validates)": (
        _duplicate_names,
        True,
        "11",
    ),
    **{
        f"{name} (another runtime attribute)": (
            lambda net, rt=rt: net.result(net.parameter(layer_rt=rt)),
            True,
            "11",
        )
        for name, rt in {
            "decompression": _attribute("decompression"),
            "fused_names": _attribute("fused_names", "a"),
            "old_api_map_order": _attribute("old_api_map_order", "0,1,2,3"),
            "old_api_map_element_type": _attribute("old_api_map_element_type", "f16"),
            "primitives_priority": _attribute("primitives_priority", "cpu:gemm"),
            "memory_type": _attribute("memory_type", "GPU_SURFACE"),
            "preprocessing": _attribute("preprocessing"),
        }.items()
    },
}


@pytest.mark.parametrize("name", list(TRIGGERS))
def test_what_makes_read_model_check_the_results(tmp_path: Path, name: str) -> None:
    build, reads, version = TRIGGERS[name]
    message = _agree(_file(tmp_path, _with(_nc_result, version)(build)))
    assert (message is None) is reads, message
    if message is not None:
        assert (
            message
            == "Result 'opset1::Result r1[0]:f32[1,3,4,4]' with shape [1,3,4,4] is incompatible with layout [N,C]"
        )


def test_precise_on_the_parameter_itself(tmp_path: Path) -> None:
    net = _Net()
    net.result(net.parameter(layer_rt=PRECISE, port_rt=_layout("NC")))
    assert _agree(_file(tmp_path, net.text())) is not None


# --- the layout's rank against the Result's shape ----------------------------------------------------

LAYOUTS = [
    "NC",
    "NCHW",
    "nchw",
    "[batch,channels]",
    "N...C",
    "...",
    "",
    "**SCALAR**",
    "[N,?,?]",
    "N?HW",
    "[N,...]",
    "...C",
    "NCHW...",
    "?",
    "[?,?,?,?,?]",
    "[N,C,]",
]
SHAPES: list[tuple[tuple[int, ...], str | None]] = [  # dims, or a <data shape> of no static shape
    (SHAPE, None),
    ((2,), None),
    ((), None),
    ((), "?,?"),
    ((), "..."),
    ((), "1..4,3"),
    ((), "?,3,?,?,-1"),
]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_layout_of_each_rank_against_each_shape(tmp_path: Path, layout: str) -> None:
    """A Parameter of each shape with the layout, read by a Result, in a model where another
    layer is 'precise': 16 layouts x 7 shapes, one file each."""
    verdicts = []
    for index, (dims, text) in enumerate(SHAPES):
        net = _Net()
        net.result(net.parameter(dims, port_rt=_layout(layout), text=text))
        net.result(net.parameter((1,), layer_rt=PRECISE))
        xml = tmp_path / f"shape{index}.xml"
        xml.write_text(net.text())
        verdicts.append(_agree(xml) is None)
    # a dynamic rank fits every layout; "..." and "" every shape
    assert verdicts[4]
    assert all(verdicts) is (layout in ("...", ""))


# --- which port's layout a Result's check reads ----------------------------------------------------


def _two_results_of_one_parameter(net: _Net) -> None:
    parameter = net.parameter(port_rt=_layout("NC"))
    net.result(net.relu(parameter))
    net.result(parameter)


def _two_parameters_of_bad_layouts(net: _Net) -> None:
    first = net.parameter(port_rt=_layout("NC"))
    net.result(net.parameter((5,), port_rt=_layout("NC")))  # the first Result in the file fails first
    net.result(first)


PLACES: dict[str, tuple[Callable[[_Net], object], bool]] = {  # the layout NC somewhere, reads
    "the output port of a Parameter a Result reads": (
        lambda net: net.result(net.parameter(port_rt=_layout("NC"))),
        False,
    ),
    "the output port of a ReLU a Result reads": (
        lambda net: net.result(net.relu(net.parameter(), out_rt=_layout("NC"))),
        False,
    ),
    "the input port of a Result": (lambda net: net.result(net.parameter(), in_rt=_layout("NC")), True),
    "a Result's own rt_info": (lambda net: net.result(net.parameter(), layer_rt=_layout("NC")), True),
    "the input port of a ReLU": (
        lambda net: net.result(net.relu(net.parameter(), in_rt=_layout("NC"))),
        True,
    ),
    "a Parameter read by a ReLU only": (
        lambda net: net.result(net.relu(net.parameter(port_rt=_layout("NC")))),
        True,
    ),
    "a Parameter read by a ReLU and a Result": (_two_results_of_one_parameter, False),
    "a Parameter read by two Results": (
        lambda net: [net.result(p) for p in [net.parameter(port_rt=_layout("NC"))] * 2],
        False,
    ),
    "two Parameters of bad layouts": (_two_parameters_of_bad_layouts, False),
    "a layout of version 1": (
        lambda net: net.result(net.parameter(port_rt=_attribute("layout", "NC", "layout", version="1"))),
        True,
    ),
    "a layout without its layout key": (
        lambda net: net.result(net.parameter(port_rt=_attribute("layout", "NC"))),
        True,
    ),
}


@pytest.mark.parametrize("name", list(PLACES))
@pytest.mark.parametrize("precise", [True, False], ids=["precise", "no precise"])
def test_which_port_carries_the_layout(tmp_path: Path, name: str, precise: bool) -> None:
    build, reads = PLACES[name]
    net = _Net()
    build(net)
    if precise:
        net.result(net.parameter((1,), layer_rt=PRECISE))
    message = _agree(_file(tmp_path, net.text()))
    assert (message is None) is (reads or not precise), message


# --- bodies: Loop, If and TensorIterator --------------------------------------------------------------


def _body_models(directory: Path) -> dict[str, Path]:
    """An If of a Parameter condition (then: its Parameter to a Result; else: a ReLU), an If
    of a constant condition, a Loop (a back edge through a ReLU, the current iteration through
    a Convert) and a TensorIterator (an invariant input to a ReLU), each of x [1,3,4,4],
    written by ov.save_model."""
    x = ops.parameter(list(SHAPE), ov.Type.f32, name="x")
    models: dict[str, ov.Model] = {}
    for name, condition in (("if", ops.parameter([], ov.Type.boolean, name="cond")), ("if_const", None)):
        if_op = ops.if_op(condition if condition is not None else ops.constant(True, name="cond"))
        then_parameter = ops.parameter(list(SHAPE), ov.Type.f32, name="then_p")
        else_parameter = ops.parameter(list(SHAPE), ov.Type.f32, name="else_p")
        else_relu = ops.relu(else_parameter, name="else_relu")
        if_op.set_then_body(ov.Model([ops.result(then_parameter)], [then_parameter]))
        if_op.set_else_body(ov.Model([ops.result(else_relu)], [else_parameter]))
        if_op.set_input(x.output(0), then_parameter, else_parameter)
        then_results, else_results = if_op.get_then_body().get_results(), if_op.get_else_body().get_results()
        output = if_op.set_output(then_results[0], else_results[0])
        inputs = [x] if condition is None else [condition, x]
        models[name] = ov.Model([ops.result(ops.relu(output, name="if_relu"))], inputs, "m")
    body_parameter = ops.parameter(list(SHAPE), ov.Type.f32, name="loop_p")
    iteration = ops.parameter([1], ov.Type.i64, name="loop_iteration")
    body_relu = ops.relu(body_parameter, name="loop_relu")
    iteration_f32 = ops.convert(iteration, ov.Type.f32, name="loop_convert")
    go_on = ops.result(ops.constant(True, name="go_on"))
    body = ov.Model([ops.result(body_relu), go_on, ops.result(iteration_f32)], [iteration, body_parameter])
    loop = ops.loop(ops.constant(2, ov.Type.i64), ops.constant(True))
    loop.set_function(body)
    loop.set_special_body_ports([0, 1])  # the current iteration, the condition
    loop.set_merged_input(body_parameter, x.output(0), body_relu.output(0))
    last = loop.get_iter_value(body_relu.output(0), -1)
    iterations = loop.get_concatenated_slices(iteration_f32.output(0), 0, 1, 1, -1, 0)
    models["loop"] = ov.Model([ops.result(last), ops.result(iterations)], [x], "m")
    ti_parameter = ops.parameter(list(SHAPE), ov.Type.f32, name="ti_p")
    ti_relu = ops.relu(ti_parameter, name="ti_relu")
    ti = ops.tensor_iterator()
    ti.set_body(ov.Model([ops.result(ti_relu)], [ti_parameter]))
    ti.set_invariant_input(ti_parameter, x.output(0))
    models["ti"] = ov.Model([ops.result(ti.get_iter_value(ti_relu.output(0), -1))], [x], "m")
    paths = {}
    for name, model in models.items():
        paths[name] = directory / f"{name}.xml"
        ov.save_model(model, paths[name], compress_to_fp16=False)
    return paths


def _output_port_rt(text: str, layer: str, inner: str) -> str:
    """``inner`` as the <rt_info> of the first output port of the layer named ``layer``."""
    at = text.index(f'name="{layer}"')
    port = text.index("<port", text.index("<output>", at))
    end = text.index(">", port)
    rt = f"\n<rt_info>\n{inner}\n</rt_info>\n"
    if text[end - 1] == "/":  # <port .../>
        return text[: end - 1] + ">" + rt + "</port>" + text[end + 1 :]
    return text[: end + 1] + rt + text[end + 1 :]


def _layer_rt(text: str, layer: str, inner: str) -> str:
    return re.sub(
        rf'(<layer id="\d+" name="{layer}"[^>]*>)', rf"\1\n<rt_info>\n{inner}\n</rt_info>", text, count=1
    )


BODY_CASES: dict[str, tuple[str, str, str | None, bool]] = {  # model, layout's layer, precise's, reads
    "If: a bound then-body Parameter": ("if", "then_p", None, False),
    "If: a bound else-body Parameter": ("if", "else_p", None, False),
    "If: a then-body Parameter a Result reads, precise in the body": ("if", "then_p", "then_p", False),
    "If: a ReLU a body Result reads": ("if", "else_relu", None, False),
    "If: a ReLU a body Result reads, precise outside": ("if", "else_relu", "x", False),
    "If: its output, precise in a body": ("if", "If_", "else_relu", True),
    "If: its output read by a Result, precise in a body": ("if", "if_relu", "else_relu", False),
    "If: its output read by a Result, precise outside": ("if", "if_relu", "cond", False),
    "If: its output read by a Result": ("if", "if_relu", None, True),
    "If: the outer input, precise": ("if", "x", "cond", True),
    "constant If: the Parameter of the branch it runs": ("if_const", "then_p", None, False),
    "constant If: the Parameter of the branch it never runs": ("if_const", "else_p", None, True),
    "constant If: a ReLU of the branch it never runs": ("if_const", "else_relu", None, True),
    "Loop: a bound body Parameter": ("loop", "loop_p", None, False),
    "Loop: a ReLU a body Result reads": ("loop", "loop_relu", None, False),
    "Loop: its current-iteration Parameter (never set)": ("loop", "loop_iteration", None, True),
    "Loop: a Convert of the iteration a body Result reads": ("loop", "loop_convert", None, False),
    "Loop: its output read by a Result, precise in the body": ("loop", "Loop_", "loop_relu", False),
    "TensorIterator: a bound body Parameter": ("ti", "ti_p", None, False),
    "TensorIterator: a ReLU a body Result reads (validated layer by layer)": ("ti", "ti_relu", None, True),
    "TensorIterator: a ReLU a body Result reads, precise": ("ti", "ti_relu", "ti_relu", True),
    "TensorIterator: its output read by a Result, precise in the body": (
        "ti",
        "TensorIterator_",
        "ti_relu",
        False,
    ),
}


@pytest.fixture(scope="module")
def body_models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[str, bytes]]:
    paths = _body_models(tmp_path_factory.mktemp("bodies"))
    return {name: (path.read_text(), path.with_suffix(".bin").read_bytes()) for name, path in paths.items()}


def _layer_named(text: str, prefix: str) -> str:
    """The full name of the first layer whose name starts with ``prefix`` (ov names ops by their type)."""
    found = re.search(rf'name="({re.escape(prefix)}[^"]*)"', text)
    assert found is not None, prefix
    return found.group(1)


@pytest.mark.parametrize("name", list(BODY_CASES))
def test_layouts_in_and_around_bodies(
    tmp_path: Path, name: str, body_models: dict[str, tuple[str, bytes]]
) -> None:
    model, layout_layer, precise_layer, reads = BODY_CASES[name]
    text, weights = body_models[model]
    text = _output_port_rt(text, _layer_named(text, layout_layer), _layout("NC"))
    if precise_layer is not None:
        text = _layer_rt(text, _layer_named(text, precise_layer), PRECISE)
    xml = _file(tmp_path, text)
    xml.with_suffix(".bin").write_bytes(weights)
    message = _agree(xml)
    assert (message is None) is reads, message


def test_the_models_other_checks_hold_in_a_precise_model(tmp_path: Path) -> None:
    """What else Model::validate_nodes_and_infer_types could check (each Variable read and
    written once) does not fail a 'precise' model in 2026.4: a ReadValue without an Assign, and
    two Assigns of one variable, read. So IRS026 is the one finding 'precise' brings."""
    from openvino.op.util import Variable, VariableInfo

    x = ops.parameter([1, 3], ov.Type.f32, name="x")
    info = VariableInfo()
    info.data_shape, info.data_type, info.variable_id = ov.PartialShape([1, 3]), ov.Type.f32, "v"
    variable = Variable(info)
    read = ops.read_value(x, variable)
    add = ops.add(read, x)
    sinks = {"no Assign": [], "two Assigns": [ops.assign(add, variable), ops.assign(add, variable)]}
    for name, assigns in sinks.items():
        model = ov.Model([ops.result(add)], assigns, [x], "m")
        xml = tmp_path / f"{name.replace(' ', '_')}.xml"
        ov.save_model(model, xml, compress_to_fp16=False)
        text = xml.read_text()
        xml.write_text(_layer_rt(text, "x", PRECISE))
        assert 'name="precise"' in xml.read_text()
        assert _agree(xml) is None


def _random_network(chooser: random.Random) -> tuple[str, bool]:
    """One to three Parameters of the shapes above, each read by a Result, a ReLU (then a
    Result) or both; layouts of LAYOUTS on some output ports; 'precise' on some layers or
    ports. The text, and whether a layer carries 'precise'."""
    net = _Net()
    precise_layer = False

    def maybe(probability: float, text: str) -> str:
        return text if chooser.random() < probability else ""

    def some_layout() -> str:
        return maybe(0.6, _layout(chooser.choice(LAYOUTS)))

    for _ in range(chooser.randint(1, 3)):
        dims, text = chooser.choice(SHAPES)
        layer_rt = maybe(0.12, PRECISE)
        precise_layer |= bool(layer_rt)
        parameter = net.parameter(
            dims, layer_rt=layer_rt, port_rt=some_layout() + maybe(0.1, PRECISE), text=text
        )
        how = chooser.choice(("result", "relu", "both"))
        if how in ("result", "both"):
            net.result(parameter)
        if how in ("relu", "both"):
            layer_rt = maybe(0.12, PRECISE)
            precise_layer |= bool(layer_rt)
            net.result(net.relu(parameter, layer_rt=layer_rt, out_rt=some_layout()))
    return net.text(), precise_layer


def test_random_networks(tmp_path: Path) -> None:
    """300 networks drawn with a fixed seed: irshape's verdict is read_model's on each, and
    both verdicts occur with and without 'precise'."""
    chooser = random.Random(26)
    seen = set()
    for index in range(300):
        text, precise_layer = _random_network(chooser)
        xml = tmp_path / f"random{index}.xml"
        xml.write_text(text)
        seen.add((precise_layer, _agree(xml) is None))
    assert seen == {(True, True), (True, False), (False, True)}


@pytest.mark.parametrize("also_relu", [False, True])
def test_a_pre_process_between_the_parameter_and_its_result(tmp_path: Path, also_relu: bool) -> None:
    """The reader puts the <pre-process> mean's Subtract between the Parameter and its
    consumers before the model is validated; the Result's check still sees the Parameter's
    layout (measured: it fails)."""
    net = _Net()
    parameter = net.parameter(port_rt=_layout("NC"))
    net.result(parameter)
    if also_relu:
        net.result(net.relu(parameter))
    net.result(net.parameter((1,), layer_rt=PRECISE))
    means = "".join(f'<channel id="{i}"><mean value="1"/></channel>' for i in range(3))
    head = f'<pre-process reference-layer-name="p0">{means}</pre-process>\n'
    xml = _file(tmp_path, net.text().replace("<layers>", head + "<layers>", 1))
    assert _agree(xml) is not None
