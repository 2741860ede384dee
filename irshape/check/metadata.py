"""What an IR says besides its graph, checked as OpenVINO's IR reader reads it: the runtime
attributes of layers and ports (``<rt_info>``), and the ``<net>``'s legacy ``<pre-process>``
and ``<meta_data>``.

``<rt_info>`` (IR v11 only: OpenVINO does not read it in IR v10). Of a layer's first
``<rt_info>``, and of each port's, OpenVINO reads the ``<attribute>`` elements with a ``name``
and a ``version``: the runtime attributes it knows by that pair (``ov::pass::Attributes``, all
version ``"0"``) are parsed and added to the node's runtime info, which fails on a value they
cannot parse and on a second attribute of a name; three known names cannot be read at all.
Unknown names or versions are skipped, as are the ``<user_data>`` elements (free-form strings).

The ``<net>``'s legacy ``<meta_data>`` (read only when the ``<net>`` has no ``<rt_info>``):
each child must be ``<cli_parameters>`` or have a ``value``.

``<pre-process>`` (``input_model.cpp``'s ``parse_pre_process``, run after the model is built,
in IR v10 and v11 alike): per-channel mean values subtracted from one Parameter, each a value
or ``H x W`` values in the ``.bin``. The net's own ``<rt_info>`` (framework and conversion
parameters) is free-form: OpenVINO reads it without any check, and so does irshape.

Each grammar here was measured against OpenVINO 2026.4 (``tests/test_metadata_openvino.py``).
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Mapping

from irshape import rules
from irshape.check.graph import Graph, Source, build_graph
from irshape.diagnostics import Diagnostic, Location
from irshape.dims import DimSyntaxError, PartialShape, parse_partial_shape
from irshape.ir import element_types
from irshape.ir.legacy import PreProcess, PreProcessChannel
from irshape.ir.model import Document, Layer, Port, RtAttribute, all_layers
from irshape.ir.parse import clean
from irshape.ir.values import C_SPACE, ListSyntaxError, parse_int_list, parse_uint
from irshape.ir.weights import Weights
from irshape.ops.interface import Tensor
from irshape.record import Record

Report = Callable[[Diagnostic], None]
# A known attribute's value check: the key it reads, its text, what is wrong and OpenVINO's words.
Problem = tuple[str, str, str, str]


def check_document(graph: Graph, weights: Weights, report: Report) -> None:
    """The runtime attributes of the graph's layers and ports, and the net's <pre-process> and
    <meta_data>."""
    document = graph.document
    if document.version is not None and document.version > 10:
        clean: set[int] = set()  # the (shared) attribute dicts that are a clean <rt_info> alone
        # A plain loop: every layer of a large model passes here, few have <rt_info>.
        for layer in document.layers:
            if layer.rt_info:
                check_layer_rt_info(layer, graph, report, clean)
                continue
            for port in layer.outputs:
                if port.rt_info:
                    check_layer_rt_info(layer, graph, report, clean)
                    break
            else:
                for port in layer.inputs:
                    if port.rt_info:
                        check_layer_rt_info(layer, graph, report, clean)
                        break
    if document.pre_process is not None:
        check_pre_process(document, graph, weights, report)
    if document.meta_data and not document.has_rt_info:
        check_meta_data(document, report)


def check_meta_data(document: Document, report: Report) -> None:
    """The legacy <meta_data>, which OpenVINO reads only without a <rt_info> of the <net>: each
    child <cli_parameters> or with a value (the first that is not fails the file)."""
    for entry in document.meta_data:
        if entry.tag != "cli_parameters" and not entry.has_value:
            what = f"<{entry.tag}>" if entry.tag else "text"
            where = Location(document.path, entry.line)
            report(rules.META_DATA_LEGACY(where, what=what, tag=entry.tag))
            return


# --- <rt_info> -------------------------------------------------------------------------------------


def check_layer_rt_info(layer: Layer, graph: Graph, report: Report, clean: set[int]) -> None:
    """The layer's <rt_info>, then its output and input ports', as OpenVINO reads them.
    ``clean`` holds the ids of the attribute dicts (the reader shares equal ones) already found
    to make a clean <rt_info> alone, as the one ``decompression`` of many models' layers does."""
    place = _Place(graph, layer)
    if layer.rt_info:
        # OpenVINO sets primitives_priority from <data PrimitivesPriority> before the <rt_info>
        given = "PrimitivesPriority" in layer.data and layer.data_line is not None
        first = (
            {"primitives_priority": f"by <data PrimitivesPriority> on line {layer.data_line}"}
            if given
            else {}
        )
        _check_rt_info(layer.rt_info, "the layer", place, report, clean, first)
    for port in layer.outputs:
        if port.rt_info:
            _check_rt_info(port.rt_info, f"output port {port.id}", place, report, clean)
    for port in layer.inputs:
        if port.rt_info:
            _check_rt_info(port.rt_info, f"input port {port.id}", place, report, clean)


class _Place:
    """A layer's location, made when a finding needs it (most <rt_info> have none)."""

    __slots__ = ("graph", "layer", "location")

    def __init__(self, graph: Graph, layer: Layer) -> None:
        self.graph = graph
        self.layer = layer
        self.location: Location | None = None

    def at(self, line: int) -> Location:
        if self.location is None:
            self.location = self.graph.where(self.layer)
        return self.location.at_line(line)


def _check_rt_info(
    attributes: tuple[RtAttribute, ...],
    owner: str,
    place: _Place,
    report: Report,
    clean: set[int],
    given: dict[str, str] | None = None,
) -> None:
    """``given``: the runtime attributes the node has before its <rt_info> is read, each with
    where it comes from."""
    alone = len(attributes) == 1
    if alone and not given and id(attributes[0].attributes) in clean:
        return
    first: dict[str, str] = dict(given) if given else {}
    found = False
    for attribute in attributes:
        name = attribute.attributes.get("name")
        if name is None or attribute.attributes.get("version") != _VERSION:
            continue  # no runtime attribute OpenVINO knows: skipped
        if name in _UNREADABLE:
            found = True
            report(rules.RT_INFO_UNREADABLE(place.at(attribute.line), owner=owner, name=name))
            continue
        if name not in _KNOWN:
            continue
        check_value = _KNOWN[name]
        problem = None if check_value is None else check_value(attribute.attributes)
        if problem is not None:  # OpenVINO fails parsing it, before it adds it to the node
            found = True
            key, text, what, ov_message = problem
            at = place.at(attribute.line)
            text = _quoted(text)
            report(
                rules.RT_INFO_VALUE(
                    at, owner=owner, name=name, key=key, text=text, problem=what, ov_message=ov_message
                )
            )
        elif name in first:
            found = True
            at = place.at(attribute.line)
            report(rules.RT_INFO_DUPLICATE(at, owner=owner, name=name, first=first[name]))
        else:
            first[name] = f"on line {attribute.line}"
    if alone and not found and not given:
        clean.add(id(attributes[0].attributes))


# --- a port's layout against the shape OpenVINO checks it with ------------------------------------

# The output tensor a layer's output port gives, as OpenVINO computes it (None: not known).
OutputTensor = Callable[[Source], Tensor | None]


def check_layouts(
    graph: Graph,
    output_tensor: OutputTensor,
    report: Report,
    bound: Mapping[int, Tensor] | None = None,
    results: bool = True,
) -> None:
    """IRS026: an output port's ``layout`` of another rank than the shape OpenVINO checks it
    against (``ov::layout::utils::is_compatible``, IR v11 only). ``bound`` is None for the
    model, else the tensors a Loop, If or TensorIterator binds to its body's Parameters (by
    id(layer)).

    In the model, only when some built layer, or layer of a body, carries ``precise``
    (DisableFP16Compression): the IR reader's normalize step runs ConvertLegacyPrecisionAttribute
    (src/common/transformations/.../convert_legacy_precision_attribute.cpp), which then changes
    the model, so its pass manager validates it (Model::validate_nodes_and_infer_types,
    src/core/src/model.cpp), which checks the layout of each Result (the layout of the output
    port it reads: the Result shares that tensor, src/core/src/op/result.cpp). In a body, always:
    the op validates its bodies when it is built, and first sets each bound Parameter's shape
    (Parameter::set_partial_shape checks the Parameter's layout). ``results``: whether the op
    validates the body as a model (Loop and If do; a TensorIterator revalidates its body's layers
    one by one, which checks no Result's layout)."""
    document = graph.document
    if document.version is None or document.version <= 10:
        return
    if bound is not None and (_check_bound_parameters(graph, bound, report) or not results):
        return  # the op fails setting a Parameter's shape, before it validates the body
    misfits = _misfit_results(graph, output_tensor)
    if not misfits:  # the usual file: looked no further (not for 'precise' in every layer)
        return
    if bound is not None:
        why = "OpenVINO checks each body Result's layout when the op holding the body validates it"
    else:
        trigger = _precise_layer(graph)
        if trigger is None:
            return
        layer, line = trigger
        why = (
            f"OpenVINO checks each Result's layout when it validates the model, which read_model "
            f"does here because layer {layer.name!r} (line {line}) carries the runtime attribute "
            "'precise' (its ConvertLegacyPrecisionAttribute pass changes the model)"
        )
    for result, (producer, port), (layout, line), tensor in misfits:
        shown = f"opset1::Result {result.name}[0]:{tensor.element_type or 'dynamic'}{tensor.shape}"
        ov_message = f"Result '{shown}' with shape {tensor.shape} is incompatible with layout {layout}"
        subject = f"the Result {result.name!r} reading it"
        _report_layout(graph, producer, port, line, layout, subject, tensor, why, ov_message, report)


def _misfit_results(
    graph: Graph, output_tensor: OutputTensor
) -> list[tuple[Layer, Source, tuple[Layout, int], Tensor]]:
    """The Results OpenVINO builds whose layout (the one of the output port each reads, with
    its line) does not fit the shape of what they read, in file order (OpenVINO's)."""
    misfits = []
    for layer in graph.document.layers:
        if layer.type != "Result" or not layer.inputs or not graph.is_built(layer):
            continue
        source = graph.source(layer.inputs[0])
        if source is None or not source[1].rt_info:
            continue
        found = _port_layout(source[1])
        tensor = None if found is None else output_tensor(source)
        if found is not None and tensor is not None and not found[0].fits(tensor.shape):
            misfits.append((layer, source, found, tensor))
    return misfits


def _check_bound_parameters(graph: Graph, bound: Mapping[int, Tensor], report: Report) -> bool:
    """A body Parameter the op binds: it sets the Parameter's shape, checked against its layout.
    Was any reported?"""
    found_any = False
    for layer in graph.document.layers:
        tensor = bound.get(id(layer))
        if tensor is None or not layer.outputs:
            continue
        port = layer.outputs[0]
        found = _port_layout(port)
        if found is None or found[0].fits(tensor.shape):
            continue
        layout, line = found
        declared = _parameter_shape(layer)  # its shape until the op sets it
        element_type = layer.data.get("element_type", "")
        shown = f"opset1::Parameter {layer.name} () -> ({element_type}{declared})"
        ov_message = (
            f"Can't set partial shape {tensor.shape} for Parameter {shown} with layout {layout}. "
            "Layout is not compatible with shape"
        )
        subject = "the shape the op holding the body sets on this Parameter"
        why = "OpenVINO checks a Parameter's layout when it sets its shape"
        _report_layout(graph, layer, port, line, layout, subject, tensor, why, ov_message, report)
        found_any = True
    return found_any


def _report_layout(
    graph: Graph,
    layer: Layer,
    port: Port,
    line: int,
    layout: Layout,
    subject: str,
    tensor: Tensor,
    why: str,
    ov_message: str,
    report: Report,
) -> None:
    rank = "dynamic" if tensor.shape.rank is None else str(tensor.shape.rank)
    report(
        rules.RT_INFO_LAYOUT_SHAPE(
            graph.where(layer).at_line(line),
            owner=f"output port {port.id}",
            layout=str(layout),
            subject=subject,
            shape=f"{tensor.shape} (rank {rank})",
            why=why,
            ov_message=ov_message,
        )
    )


def _port_layout(port: Port) -> tuple[Layout, int] | None:
    """The layout a port's <rt_info> gives OpenVINO, and its line; None without one (or with
    one OpenVINO cannot read: a finding of its own)."""
    for attribute in port.rt_info:
        attributes = attribute.attributes
        if attributes.get("name") == "layout" and attributes.get("version") == _VERSION:
            text = attributes.get("layout")
            layout = None if text is None else parse_layout(text)
            return None if layout is None else (layout, attribute.line)
    return None


def _precise_layer(graph: Graph) -> tuple[Layer, int] | None:
    """The first layer OpenVINO builds, in the model or in a body of one, that carries the
    runtime attribute ``precise`` (version 0, in the layer's own <rt_info>), with its line."""
    stack: list[tuple[Graph, list[Layer]]] = [(graph, graph.document.layers)]
    while stack:
        current, layers = stack.pop()
        for layer in layers:
            line = _precise_line(layer)
            if line is not None and current.is_built(layer):
                return layer, line
        for layer in reversed(layers):  # then the bodies, depth first, in file order
            if layer.subgraphs is not None and current.is_built(layer):
                for body in reversed(layer.subgraphs.bodies.values()):
                    if _carries_precise(body.layers):
                        stack.append((build_graph(body.document(graph.document)), body.layers))
    return None


def _precise_line(layer: Layer) -> int | None:
    for attribute in layer.rt_info:
        attributes = attribute.attributes
        if attributes.get("name") == "precise" and attributes.get("version") == _VERSION:
            return attribute.line
    return None


def _carries_precise(layers: list[Layer]) -> bool:
    """Does a layer of ``layers``, or of their bodies, carry ``precise`` (built or not)?"""
    return any(_precise_line(layer) is not None for layer in all_layers(layers))


def _fused_names(attributes: dict[str, str]) -> Problem | None:
    """``fused_names``: a set of strings split on ``,`` (``std::getline``: a last empty field
    is no field), each trimmed of spaces and none empty."""
    text = attributes.get("value")
    if text is None:
        return None
    fields = text.split(",")
    if fields[-1] == "":
        fields.pop()
    for field in fields:
        if field.strip(" ") == "":
            message = (
                f'Cannot get a set of strings from "{_quoted(text)}". Value "{_quoted(field)}" is incorrect'
            )
            return "value", text, "has an empty name", message
    return None


def _old_api_map_order(attributes: dict[str, str]) -> Problem | None:
    """``old_api_map_order``: a ``std::vector<uint64_t>``, read as OpenVINO reads list attributes."""
    text = attributes.get("value")
    if text is None:
        return None
    try:
        parse_int_list(text, unsigned=True)
    except ListSyntaxError as exc:
        return "value", text, "is not a list of unsigned integers", str(exc)
    return None


def _old_api_map_element_type(attributes: dict[str, str]) -> Problem | None:
    """``old_api_map_element_type``: an element type's name, in any case."""
    text = attributes.get("value")
    if text is None or element_types.from_element_type(text) is not None:
        return None
    return (
        "value",
        text,
        "is not an element type",
        f'"{_quoted(text)}" is not a member of enum element::Type_t',
    )


def _layout(attributes: dict[str, str]) -> Problem | None:
    """``layout``: its ``layout`` key in ov::Layout's grammar."""
    text = attributes.get("layout")
    if text is None:
        return None
    error = layout_error(text)
    return None if error is None else ("layout", text, "is not a layout", error)


_VERSION = "0"  # every runtime attribute OpenVINO's reader creates is of version 0
# The runtime attributes OpenVINO's reader creates and reads (ov::pass::Attributes), each with
# the check of its value (None: a string, or nothing, read as it is).
_KNOWN: dict[str, Callable[[dict[str, str]], Problem | None] | None] = {
    "fused_names": _fused_names,
    "old_api_map_order": _old_api_map_order,
    "old_api_map_element_type": _old_api_map_element_type,
    "layout": _layout,
    "primitives_priority": None,
    "precise": None,  # DisableFP16Compression
    "decompression": None,
    "memory_type": None,  # ov::preprocess::TensorInfoMemoryType
    "preprocessing": None,
}
# Known to the reader, but with no serialized form: reading one fails.
_UNREADABLE = frozenset({"DisableConstantFolding", "nms_selected_indices", "strides_propagation"})


# ov::Layout's grammar (src/core/src/layout.cpp), with its messages.
_SCALAR = "**SCALAR**"
_ELLIPSIS = "..."
_DIMENSION_ALIASES = {
    "BATCH": "N",
    "B": "N",
    "CHANNELS": "C",
    "CHANNEL": "C",
    "HEIGHT": "H",
    "WIDTH": "W",
    "DEPTH": "D",
}


class _LayoutError(ValueError):
    pass


class Layout(Record):
    """An ov::Layout as OpenVINO parses it: the dimensions before its ``...`` (all of them
    without one) and after, each an upper-case name (aliases resolved) or ``?``."""

    __slots__ = ("left", "right", "scalar")
    left: tuple[str, ...]
    right: tuple[str, ...] | None  # None: no ``...`` (a layout of one rank)
    scalar: bool  # ``**SCALAR**``: rank 0

    def __init__(self, left: tuple[str, ...], right: tuple[str, ...] | None, scalar: bool = False) -> None:
        self.left = left
        self.right = right
        self.scalar = scalar

    def fits(self, shape: PartialShape) -> bool:
        """``ov::layout::utils::is_compatible``: the shape's rank is the layout's (at least the
        dimensions it names with a ``...``); a shape of dynamic rank fits any layout."""
        if shape.rank is None:
            return True
        named = len(self.left) + len(self.right or ())
        return shape.rank == named if self.right is None else shape.rank >= named

    def __str__(self) -> str:
        """``Layout::to_string``: ``[N,C,H,W]``, ``[N,...,C]``, ``**SCALAR**``."""
        if self.scalar:
            return _SCALAR
        names = [*self.left, *(() if self.right is None else (_ELLIPSIS, *self.right))]
        return "[" + ",".join(names) + "]"


def layout_error(text: str) -> str | None:
    """Why ``ov::Layout(text)`` fails (its message), or None where it parses. The simple form
    names one dimension a character (``NCHW``, ``N?HW``, ``N...C``), the advanced one a name
    between commas (``[N,C,H,W]``, ``[batch,...,C]``); names are letters, digits and ``_``,
    matched in upper case with aliases (BATCH and B are N), each once."""
    try:
        _parse_layout(text)
    except _LayoutError as exc:
        return str(exc)
    return None


def parse_layout(text: str) -> Layout | None:
    """The layout ``ov::Layout(text)`` makes; None where it fails (see :func:`layout_error`)."""
    try:
        return _parse_layout(text)
    except _LayoutError:
        return None


def _parse_layout(text: str) -> Layout:
    if text == "":
        return Layout((), ())  # the dynamic layout, [...]
    layout = text.strip(C_SPACE)
    if not layout:
        raise _LayoutError("Cannot parse ov::Layout from an empty string")
    if layout == _SCALAR:
        return Layout((), None, scalar=True)
    names: set[str] = set()
    if len(layout) >= 2 and layout[0] == "[" and layout[-1] == "]":
        return _parse_advanced(layout[1:-1], names)
    ellipsis = layout.find(_ELLIPSIS)
    left: list[str] = []
    right: list[str] | None = None
    i = 0
    while i < len(layout):
        char = layout[i].upper()
        if char == ".":
            if right is not None:
                raise _LayoutError("Multiple ... are not allowed")
            if i != ellipsis:
                raise _LayoutError("Undefined number of dimensions shall have ...")
            right = []
            i += len(_ELLIPSIS)
            continue
        name = "?" if char == "?" else _name_dimension(char, names)
        (left if right is None else right).append(name)
        i += 1
    return Layout(tuple(left), None if right is None else tuple(right))


def _parse_advanced(inner: str, names: set[str]) -> Layout:
    if inner == "":
        raise _LayoutError("Cannot parse ov::Layout from an empty string")
    ellipsis = inner.find(_ELLIPSIS)
    if ellipsis < 0:
        return Layout(_parse_commas(inner, names), None)
    left: tuple[str, ...] = ()
    right: tuple[str, ...] = ()
    left_text = inner[:ellipsis].strip(C_SPACE)
    if left_text:
        if left_text[-1] != ",":
            raise _LayoutError(f"Layout: Invalid left side ({inner})")
        left = _parse_commas(left_text[:-1], names)
    right_text = inner[ellipsis + len(_ELLIPSIS) :].strip(C_SPACE)
    if right_text:
        if right_text[0] != ",":
            raise _LayoutError(f"Layout: Invalid right side ({inner})")
        right = _parse_commas(right_text[1:], names)
    return Layout(left, right)


def _parse_commas(text: str, names: set[str]) -> tuple[str, ...]:
    if text == "":
        raise _LayoutError("Empty sub-string detected while parsing layout")
    fields = text.split(",")
    if fields[-1] == "":
        fields.pop()  # std::getline yields no last empty field
    found: list[str] = []
    for field in fields:
        name = field.strip(C_SPACE)
        found.append("?" if name == "?" else _name_dimension(name, names))
    return tuple(found)


def _name_dimension(name: str, names: set[str]) -> str:
    """The dimension's name as OpenVINO keeps it (upper case, aliases resolved), named once."""
    internal = name.upper()
    internal = _DIMENSION_ALIASES.get(internal, internal)
    if name == "":
        raise _LayoutError("Layout dimension name can't be empty")
    alphanumeric = False
    for char in name:
        ascii_alnum = char.isascii() and char.isalnum()
        alphanumeric |= ascii_alnum
        if not ascii_alnum and char != "_":
            raise _LayoutError(
                f"Layout name is invalid ({name}). Only english letters, digits and _ is allowed"
            )
    if not alphanumeric:
        raise _LayoutError(f"Layout name is invalid ({name}). Name shall have alphanumeric characters")
    if internal in names:
        raise _LayoutError(f"Dimension ({internal}) is defined multiple times in layout")
    names.add(internal)
    return internal


# --- <pre-process> ---------------------------------------------------------------------------------


def check_pre_process(document: Document, graph: Graph, weights: Weights, report: Report) -> None:
    """The means of the net's <pre-process>, as OpenVINO applies them once the model is built."""
    pre_process = document.pre_process
    assert pre_process is not None
    here = Location(document.path, pre_process.line)
    parameter = _reference_parameter(pre_process, document, graph, here, report)
    if parameter is None:
        return
    layer, input_name = parameter
    where = graph.where(layer)
    shape = _parameter_shape(layer)
    if shape is None:
        return  # a shape OpenVINO cannot read: a finding of its own
    rank = shape.rank
    if rank is None or not shape.is_static:
        problem = f"applies to Parameter {input_name!r} of shape {shape}, which is not static"
        ov_message = f"can not apply pre-process for '{input_name}' input"
        report(
            rules.PRE_PROCESS_INVALID(where.at_line(pre_process.line), problem=problem, ov_message=ov_message)
        )
        return
    if not 2 <= rank <= 5:
        problem = f"applies to Parameter {input_name!r} of rank {rank}, not 2 to 5"
        ov_message = f"Unsupported input dimensions rank {rank} for pre-process input '{input_name}'"
        report(
            rules.PRE_PROCESS_INVALID(where.at_line(pre_process.line), problem=problem, ov_message=ov_message)
        )
        return
    dims = [dim.value for dim in shape]
    _check_means(pre_process, layer, dims, where, weights, report)


def _reference_parameter(
    pre_process: PreProcess, document: Document, graph: Graph, here: Location, report: Report
) -> tuple[Layer, str] | None:
    """The Parameter the means apply to, and the name OpenVINO gives it in its messages: the
    one named by ``reference-layer-name`` (trimmed), else the first Parameter of rank 4, else
    the first Parameter."""
    parameters = [
        layer
        for layer in document.layers
        if layer.type == "Parameter" and graph.layers.get(graph.key(layer)) is layer
    ]
    name = pre_process.attributes.get("reference-layer-name", "").strip(C_SPACE)
    if name:
        found = next((layer for layer in parameters if layer.name == name), None)
        if found is None:
            other = next((layer for layer in document.layers if layer.name == name), None)
            what = "no layer" if other is None else f"a {other.type} layer, not a Parameter"
            problem = f"reference-layer-name={name!r} names {what}"
            ov_message = f"pre-process name ref '{name}' refers to un-existing input"
            report(rules.PRE_PROCESS_INVALID(here, problem=problem, ov_message=ov_message))
        return None if found is None else (found, name)
    if not parameters:
        problem = "has no reference-layer-name and the model no Parameter"
        report(
            rules.PRE_PROCESS_INVALID(here, problem=problem, ov_message="!model->get_parameters().empty()")
        )
        return None
    by_rank = (layer for layer in parameters if (shape := _parameter_shape(layer)) and shape.rank == 4)
    chosen = next(by_rank, parameters[0])
    return chosen, chosen.name or ""


def _parameter_shape(layer: Layer) -> PartialShape | None:
    text = layer.data.get("shape")
    if text is None:
        return PartialShape([])  # OpenVINO's Parameter without a shape: a scalar
    try:
        return parse_partial_shape(text)
    except DimSyntaxError:
        return None


def _check_means(
    pre_process: PreProcess, layer: Layer, dims: list[int], where: Location, weights: Weights, report: Report
) -> None:
    """OpenVINO's walk over the <channel>s: each first <mean> a value, or bytes of the .bin."""
    channels = dims[0] if len(dims) == 3 else dims[1]  # CHW for rank 3, else N C ...
    pixels = 1
    for dim in _pixel_dims(dims):
        pixels *= dim
    element_type = element_types.from_element_type(layer.data.get("element_type", "dynamic"))
    size = element_size(element_type)  # unknown for string and dynamic: not checked
    mean_bytes = None if size is None else pixels * size
    scalars: set[tuple[int, float]] = set()
    blobs: dict[tuple[int, int, int], PreProcessChannel] = {}  # by (channel, size, offset)
    next_id = 0
    for channel in pre_process.channels:
        default_id = next_id
        next_id += 1
        at = where.at_line(channel.line)
        channel_id = _channel_id(channel, default_id, at, report)
        mean = channel.mean
        if channel_id is None or mean is None:
            if channel_id is None:
                return  # OpenVINO stops at the first channel it cannot read
            continue
        at = where.at_line(channel.mean_line)
        if "value" not in mean and "size" not in mean:
            problem = f"channel {channel_id}'s <mean> has neither a value nor a size"
            ov_message = "mean should have at least one of the following attribute: value, size"
            report(rules.PRE_PROCESS_INVALID(at, problem=problem, ov_message=ov_message))
            return
        if "value" in mean:
            value = _stream_float(mean["value"])
            if value is None:
                text = _quoted(mean["value"])
                problem = f"channel {channel_id}'s mean value={text!r} is not a number"
                ov_message = f'node <mean> has attribute "value" = "{text}" which is not a floating point'
                report(rules.PRE_PROCESS_INVALID(at, problem=problem, ov_message=ov_message))
                return
            scalars.add((channel_id, value))
        if "size" in mean and "offset" in mean:
            blob = _mean_blob(channel_id, mean, mean_bytes, dims, element_type, weights, at, report)
            if blob is None:
                return
            blobs[(channel_id, *blob)] = channel
    here = where.at_line(pre_process.line)
    if scalars and blobs:
        problem = "mixes mean values and means in the .bin"
        report(
            rules.PRE_PROCESS_INVALID(here, problem=problem, ov_message="mean values have different types")
        )
        return
    ids = [channel_id for channel_id, _ in sorted(scalars)] or [key[0] for key in sorted(blobs)]
    if not ids or not _channel_count_fits(ids, channels, here, report):
        return
    _check_mean_constants(bool(scalars), ids, channels, element_type, here, report)


def _check_mean_constants(
    scalars: bool, ids: list[int], channels: int, element_type: str | None, here: Location, report: Report
) -> None:
    """The means made Constants of the Parameter's type, concatenated and subtracted from it."""
    if scalars and element_type in _NO_MEAN_VALUES:
        problem = f"gives mean values to a Parameter of {element_type}"
        _invalid(report, here, problem, _NO_MEAN_VALUES[element_type])
        return
    bits = element_types.BITS.get(element_type or "", 8)
    if not scalars and bits < 8:
        problem = (
            f"is {element_type}, {bits} bit(s) a value: OpenVINO reads one byte a pixel for a mean, "
            "then builds the mean's Constant packed from those bytes, and rejects the file ('The "
            "Constant byte size and input data byte size not same')"
        )
        report(rules.PRE_PROCESS_MEAN_BYTES(here, channel=ids[0], problem=problem))
        return
    missing = sorted(set(range(channels)) - set(ids))
    if not scalars and missing:  # two means of one id (distinct bytes) leave a channel without one
        duplicate = next(i for i in ids if ids.count(i) > 1)
        problem = (
            f"is given twice, and channel {missing[0]} gets none; read_model dies on it (a segmentation "
            "fault: it concatenates the missing mean)"
        )
        report(rules.PRE_PROCESS_MEAN_BYTES(here, channel=duplicate, problem=problem))
        return
    if element_type == "boolean":
        problem = "subtracts the means from a boolean Parameter"
        _invalid(report, here, problem, "This operation does not support inputs with element type: boolean")


# Mean values OpenVINO cannot make a Constant of the Parameter's type from (its messages).
_NO_MEAN_VALUES = {
    "string": "Constant does not support writing elements of type 'f32' into Constant",
    "dynamic": "Element not supported",
}


def _invalid(report: Report, where: Location, problem: str, ov_message: str) -> None:
    report(rules.PRE_PROCESS_INVALID(where, problem=problem, ov_message=ov_message))


def _channel_id(channel: PreProcessChannel, default: int, where: Location, report: Report) -> int | None:
    text = channel.attributes.get("id")
    if text is None:
        return default
    value = parse_uint(text)
    if value is None:
        problem = f"<channel id={_quoted(text)!r}> is not an unsigned integer"
        ov_message = (
            f'node <channel> has attribute "id" = "{_quoted(text)}" which is not an unsigned 64 bit integer'
        )
        report(rules.PRE_PROCESS_INVALID(where, problem=problem, ov_message=ov_message))
    return value


def _mean_blob(
    channel_id: int,
    mean: dict[str, str],
    mean_bytes: int | None,
    dims: list[int],
    element_type: str | None,
    weights: Weights,
    where: Location,
    report: Report,
) -> tuple[int, int] | None:
    """A mean in the .bin: its size and offset, where OpenVINO reads them."""
    size, offset = parse_uint(mean["size"]), parse_uint(mean["offset"])
    if size is None or offset is None:
        key = "size" if size is None else "offset"
        text = _quoted(mean[key])
        problem = f"channel {channel_id}'s mean {key}={text!r} is not an unsigned integer"
        ov_message = f'node <mean> has attribute "{key}" = "{text}" which is not an unsigned 64 bit integer'
        report(rules.PRE_PROCESS_INVALID(where, problem=problem, ov_message=ov_message))
        return None
    if mean_bytes is not None and size != mean_bytes:
        pixels = _pixel_dims(dims)
        shape = "[" + ",".join(map(str, [1, *pixels])) + "]" if len(dims) > 2 else "[1]"
        item = element_size(element_type)
        problem = (
            f"size={size} bytes, but a channel's mean is {shape} of {element_type}, {mean_bytes} bytes; "
            f"OpenVINO rejects the file ('mean blob size mismatch expected input, got: {size} expecting "
            f"{shape} x {item}')"
        )
        report(rules.PRE_PROCESS_MEAN_BYTES(where, channel=channel_id, problem=problem))
        return None
    if weights.path is None or weights.lfs_pointer:
        return size, offset  # the .bin is not known here
    bin_size = weights.size
    if bin_size is None:
        problem = (
            f"bytes {offset}..{offset + size} are to be read from {weights.name}, which does not exist; "
            "read_model dies on it (a segmentation fault: it reads the size of weights it has not got)"
        )
        report(rules.PRE_PROCESS_MEAN_BYTES(where, channel=channel_id, problem=problem))
        return None
    if offset + size > bin_size:
        problem = (
            f"bytes {offset}..{offset + size} lie beyond the end of {weights.name} ({bin_size} bytes); "
            "OpenVINO rejects the file ('mean value offset and size are out of weights size range')"
        )
        report(rules.PRE_PROCESS_MEAN_BYTES(where, channel=channel_id, problem=problem))
        return None
    return size, offset


def _pixel_dims(dims: list[int]) -> list[int]:
    """The dims of one channel's mean: H, W of NCHW or CHW; D, H, W of NCDHW; none of NC."""
    return dims[1:] if len(dims) == 3 else dims[2:]


def element_size(element_type: str | None) -> int | None:
    """``element::Type::size()``: bytes of one element, sub-byte types taking a whole byte."""
    bits = element_types.BITS.get(element_type or "")
    return None if bits is None else (bits + 7) // 8


def _channel_count_fits(ids: list[int], channels: int, where: Location, report: Report) -> bool:
    """One mean per channel, and every channel id below the count (OpenVINO counts the distinct
    means it read: two channels of one id and one value are one)."""
    if len(ids) != channels:
        problem = f"gives {len(ids)} mean(s) for a Parameter of {channels} channel(s)"
        ov_message = f"Number of mean values ({len(ids)}) is not equal to number of channels ({channels})"
        report(rules.PRE_PROCESS_INVALID(where, problem=problem, ov_message=ov_message))
        return False
    beyond = next((i for i in ids if i >= channels), None)
    if beyond is not None:
        problem = f"gives channel id {beyond}, past the Parameter's {channels} channel(s)"
        ov_message = f"Mean values channel index {beyond} is out of range ({channels})"
        report(rules.PRE_PROCESS_INVALID(where, problem=problem, ov_message=ov_message))
        return False
    return True


def _stream_float(text: str) -> float | None:
    """A ``<mean value>`` as OpenVINO reads it (``istream >> float``, then the stream must be at
    its end): blanks, a sign, digits with one point, an exponent after a digit; what the stream
    takes must be all the text (an empty or blank text reads, as 0). None where OpenVINO fails."""
    at = len(text) - len(text.lstrip(C_SPACE))
    start = at
    if at < len(text) and text[at] in "+-":
        at += 1
    digits = point = exponent = False
    while at < len(text):
        char = text[at]
        if "0" <= char <= "9":
            digits = True
        elif char == "." and not point and not exponent:
            point = True
        elif char in "eE" and digits and not exponent:
            exponent = True
            if at + 1 < len(text) and text[at + 1] in "+-":
                at += 1
        else:
            return None
        at += 1
    try:
        value = float(text[start:])
    except ValueError:
        value = 0.0  # what the stream takes but cannot convert ('1e', '-', '.'): read as 0
    return struct.unpack("<f", struct.pack("<f", value))[0] if abs(value) < 3.4e38 else value


def _quoted(text: str) -> str:
    """A value quoted in a finding: printable, bounded."""
    return clean(text)
