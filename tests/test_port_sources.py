"""Each input port holds its source (issue 26): the producer layer and the output port the edge
into it comes from, set by the graph's index (``build_graph``) by OpenVINO's rules (ids read as
numbers, the last layer of an id kept, the first port of an id, the first edge into a port
whose both ends exist), so that the walk follows an input to its producer with no lookup.

The expected sources are written out from the edges of each small file (the rules of
docs/openvino-ir-reading.md), not taken from the index. What the walk no longer does is counted
in ``tests/test_walk_calls.py``.
"""

from __future__ import annotations

import pickle

from test_memo_repeats import network

from irshape.check import graph
from irshape.ir.model import Document, Layer, Port
from irshape.ir.reader import read_bytes

_DIMS = "<dim>1</dim><dim>4</dim>"


def _read(text: str) -> Document:
    document = read_bytes(text.encode(), "m.xml").document
    assert document is not None
    return document


def _layer(layer_id: str, kind: str, inputs: list[str], outputs: list[str]) -> str:
    ports_in = "".join(f'<port id="{p}" precision="FP32">{_DIMS}</port>' for p in inputs)
    ports_out = "".join(f'<port id="{p}" precision="FP32">{_DIMS}</port>' for p in outputs)
    return (
        f'<layer id="{layer_id}" name="l{layer_id}" type="{kind}" version="opset1">'
        + ('<data shape="1,4" element_type="f32"/>' if kind == "Parameter" else "")
        + (f"<input>{ports_in}</input>" if inputs else "")
        + (f"<output>{ports_out}</output>" if outputs else "")
        + "</layer>\n"
    )


def _net(layers: list[str], edges: list[tuple[str, str, str, str]]) -> str:
    written = "".join(
        f'<edge from-layer="{a}" from-port="{b}" to-layer="{c}" to-port="{d}"/>\n' for a, b, c, d in edges
    )
    return f'<net name="m" version="11">\n<layers>\n{"".join(layers)}</layers>\n<edges>\n{written}</edges>\n</net>\n'


def _sources(document: Document) -> list[list[tuple[int, int] | None]]:
    """Each layer's input sources as (producer's position in the file, output port's index)."""
    position = {id(layer): index for index, layer in enumerate(document.layers)}

    def named(port: Port) -> tuple[int, int] | None:
        if port.source is None:
            return None
        producer, out_port = port.source
        assert any(out_port is p for p in producer.outputs)
        return position[id(producer)], out_port.index

    return [[named(port) for port in layer.inputs] for layer in document.layers]


def test_the_usual_file() -> None:
    document = _read(network(3))
    assert all(port.source is None for layer in document.layers for port in layer.inputs)  # (not yet)
    built = graph.build_graph(document)
    assert built.edges_plain and built.every_input_fed
    # The Parameter (0), then blocks of a weights Const, Convolution, ReLU, Add; a Result.
    expected: list[list[tuple[int, int] | None]] = [[]]
    source = (0, 0)
    for block in range(3):
        weights, conv, relu = 1 + 4 * block, 2 + 4 * block, 3 + 4 * block
        expected += [[], [source, (weights, 0)], [(conv, 0)], [(relu, 0), source]]
        source = (4 + 4 * block, 0)
    expected.append([source])
    assert _sources(document) == expected


def test_ids_read_as_numbers_the_kept_layer_and_the_first_edge() -> None:
    layers = [
        _layer("0", "Parameter", [], ["0"]),
        _layer("1", "Parameter", [], ["0"]),
        _layer("2", "Relu", ["0"], ["1"]),  # replaced by the later layer 2: never a producer
        _layer("2", "Add", ["0", "1", "1"], ["2"]),  # two ports "1": the first one is named
        _layer("3", "Result", ["0"], []),
        _layer("4", "Result", ["0"], []),  # fed by an edge from a layer that does not exist
        _layer("5", "Result", ["0"], []),  # no edge
    ]
    edges = [
        ("00", "0", "2", "0"),  # "00" is layer 0
        ("1", "0", "02", "01"),  # the kept layer 2, its first port "1"
        ("0", "0", "2", "1"),  # a second edge into that port: the first one stands
        ("2", "2", "3", "0"),
        ("9", "0", "4", "0"),
    ]
    document = _read(_net(layers, edges))
    built = graph.build_graph(document)
    assert not built.edges_plain and built.shared_inputs
    # The replaced layer 2's input is named as the kept one's first port, and the kept one's
    # second port "1" as its first: each fed as that one is (an edge names a port by the
    # layer's and the port's ids, which both share).
    assert _sources(document) == [[], [], [(0, 0)], [(0, 0), (1, 0), (1, 0)], [(3, 0)], [None], [None]]


def test_an_index_again_sets_what_this_document_says() -> None:
    """The sources are the index's of the document as it is now: an edge taken away, or a file
    that is no longer the usual one, leaves no source behind."""
    document = _read(network(3))
    graph.build_graph(document)
    conv = document.layers[2]
    assert conv.inputs[1].source is not None
    document.edges = [e for e in document.edges if (e.to_layer, e.to_port) != (conv.id, "1")]
    graph.build_graph(document)  # still the usual file, one input not fed
    assert conv.inputs[1].source is None and conv.inputs[0].source is not None
    document.edges = [*document.edges, document.edges[0]]  # a second edge into one port
    built = graph.build_graph(document)
    assert not built.edges_plain and conv.inputs[1].source is None and conv.inputs[0].source is not None


def test_a_fragment_has_no_sources() -> None:
    text = _layer("0", "Relu", ["0"], ["1"])
    document = _read(text)
    graph.build_graph(document)
    assert document.layers[0].inputs[0].source is None


def test_the_source_is_a_link_not_a_field() -> None:
    """Equality, repr, copies and pickles of a port leave its source out (a field would compare
    and print the graph above it); a copy or a pickled port has none."""
    document = _read(network(3))
    graph.build_graph(document)
    port = document.layers[2].inputs[0]
    assert port.source is not None
    assert "source" not in Port.field_names() and "Layer" not in repr(port)
    again = _read(network(3)).layers[2].inputs[0]
    assert again == port and again.source is None
    assert port.replace(line=1).source is None
    unpickled = pickle.loads(pickle.dumps(port))
    assert unpickled == port and unpickled.source is None
    assert isinstance(document.layers[0], Layer)


def test_the_scanners_records_are_the_classes() -> None:
    """made_port and made_layer (the scanner's, without the class's call) make what Port(...)
    and Layer(...) make: every slot set, the same fields, no source."""
    from irshape.ir.model import RtAttribute, made_layer, made_port

    rt_info = (RtAttribute({"name": "a"}, 3),)
    made = made_port("1", 0, 2, (1, 4), 2, "FP32", "t", rt_info)
    port = Port("1", 0, 2, (1, 4), range(3, 5), "FP32", "t", rt_info)
    assert made == port and made.source is None and made.dim_lines == range(3, 5)
    assert all(hasattr(made, name) for name in Port.__slots__)
    layer = made_layer("0", "n", "Relu", "opset1", 1, None, None, False, [made], [], ())
    assert layer == Layer("0", "n", "Relu", "opset1", 1, inputs=[port])
    assert layer.data is Layer("1", None, None, None, 1).data  # (the shared <data> of none)
    assert all(hasattr(layer, name) for name in Layer.__slots__)
