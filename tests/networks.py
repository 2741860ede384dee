"""The real-network corpus in ``fixtures/networks/``: its files and OpenVINO's answer per layer.

Each ``<name>.xml`` (+ ``.bin``) was converted from a torch model by ``tools/make_networks.py``
and written by ``ov.save_model``. Beside it, ``<name>.expected.json`` holds what
``ov.Core().read_model`` makes of the saved file: for every top-level layer, keyed by its XML
id, its type, version and, per output port, the port id, the partial shape (OpenVINO's
``str(PartialShape)`` and a structured form) and the element type.

Converted layer names are not unique, so OpenVINO's nodes are mapped back to XML ids through a
copy of the file whose layers are renamed ``irshape_id_<id>``: ``read_model`` keeps a layer's
name as the node's friendly name. Every XML layer must be found that way, or the derivation
fails.

A file with layers of ``version="extension"`` (openvino_tokenizers' models: the one extension
library the corpus uses) is read as its users read it, with that library added to the Core
(``core.add_extension``); its expectation also says so (``extensions``) and records what a plain
``read_model`` says of it (``read_model_without_extensions``: it fails).

OpenVINO is imported only by :func:`derive_expected` and :func:`extension_core` (the generator and
the OpenVINO tests use them); loading the committed expectations needs only the standard library.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import shutil
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from lxml import etree

NETWORKS_DIR = Path(__file__).resolve().parent.parent / "fixtures" / "networks"
ID_PREFIX = "irshape_id_"
# OpenVINO's type name -> the one IR writes (which also differs in case: Relu is written ReLU).
_XML_TYPE_NAMES = {"Constant": "Const"}

Dims = list[int | list[int | None]] | None
"""A structured shape: ints and [lo, hi] intervals (hi None: unbounded); None: dynamic rank."""


def network_files(directory: Path = NETWORKS_DIR) -> list[Path]:
    """The corpus's IR files, sorted by name."""
    return sorted(directory.glob("*.xml"))


def expected_path(xml: Path) -> Path:
    """``<name>.xml`` -> ``<name>.expected.json``."""
    return xml.with_name(xml.stem + ".expected.json")


def load_expected(xml: Path) -> dict[str, Any]:
    """The committed expectation of ``xml``."""
    return json.loads(expected_path(xml).read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def expected_outputs(xml: Path) -> dict[str, list[dict[str, Any]]]:
    """Layer id -> OpenVINO's output ports of that layer, in port order: each a dict of
    ``port`` (its XML id), ``shape`` (as OpenVINO prints it), ``dims`` (structured: see
    :data:`Dims`) and ``element_type``."""
    layers = load_expected(xml)["layers"]
    return {layer_id: layer["outputs"] for layer_id, layer in layers.items()}


def expected_shapes(xml: Path) -> dict[str, list[str]]:
    """Layer id -> OpenVINO's output shapes of that layer, in port order, as it prints them."""
    return {layer_id: [port["shape"] for port in ports] for layer_id, ports in expected_outputs(xml).items()}


EXTENSION_VERSION = "extension"  # the version openvino_tokenizers' ops are written with
TOKENIZERS = "openvino_tokenizers"


def extension_layer_ids(xml: Path) -> set[str]:
    """The ids of the top-level layers of ``xml`` whose op an extension library defines."""
    return {
        layer.get("id", "")
        for layer in xml_layers(etree.parse(str(xml)))
        if layer.get("version") == EXTENSION_VERSION
    }


def extension_library() -> Path:
    """openvino_tokenizers' shared library, found without importing the package: its import
    patches every ``ov.Core`` of the process to add the library, and a plain Core must stay plain
    here (to see a plain ``read_model`` fail)."""
    spec = importlib.util.find_spec(TOKENIZERS)
    if spec is None or not spec.submodule_search_locations:
        raise CorpusError(f"{TOKENIZERS} is not installed: the tokenizer files need its extension")
    lib = Path(next(iter(spec.submodule_search_locations))) / "lib"
    found = sorted(lib.glob(f"*{TOKENIZERS}.*"))  # libopenvino_tokenizers.so, .dylib; openvino_tokenizers.dll
    if not found:
        raise CorpusError(f"no {TOKENIZERS} library in {lib}")
    return found[0]


@functools.cache
def extension_core() -> Any:
    """A Core with openvino_tokenizers' library added, kept for the whole process: OpenVINO
    unloads an extension's library with the last Core that added it, and a model of its ops
    freed after that crashes the process (SIGSEGV at exit, seen here with OpenVINO 2026.4.1)."""
    import openvino as ov

    core = ov.Core()
    core.add_extension(str(extension_library()))
    return core


def xml_layers(tree: etree._ElementTree) -> list[etree._Element]:
    """The top-level layers of a ``<net>`` (bodies of TensorIterator/Loop are not walked)."""
    return list(tree.getroot().iterfind("layers/layer"))


def dims_of(shape: Any) -> Dims:
    """An ``ov.PartialShape`` as plain data: ints, [lo, hi] intervals (hi None if unbounded)."""
    if shape.rank.is_dynamic:
        return None
    dims: list[int | list[int | None]] = []
    for dim in shape:
        if dim.is_static:
            dims.append(dim.get_length())
        else:
            hi = dim.get_max_length()
            dims.append([dim.get_min_length(), None if hi < 0 else hi])
    return dims


def _renamed_copy(xml: Path, directory: Path) -> Path:
    """A copy of ``xml`` (and its .bin) in ``directory``, each layer named after its id."""
    tree = etree.parse(str(xml))
    for layer in xml_layers(tree):
        layer.set("name", ID_PREFIX + layer.get("id", ""))
    copy = directory / xml.name
    tree.write(str(copy), xml_declaration=True, encoding="utf-8")
    weights = xml.with_suffix(".bin")
    if weights.exists():
        shutil.copyfile(weights, copy.with_suffix(".bin"))
    return copy


class CorpusError(AssertionError):
    """OpenVINO's reading of a corpus file does not line up with its XML."""


def _nodes_by_id(model: Any, xml: Path, ids: list[str]) -> dict[str, Any]:
    """XML layer id -> OpenVINO's node, from the friendly names of a renamed copy's nodes."""
    nodes: dict[str, Any] = {}
    for node in model.get_ordered_ops():
        name = node.get_friendly_name()
        if not name.startswith(ID_PREFIX) or name[len(ID_PREFIX) :] in nodes:
            raise CorpusError(
                f"{xml.name}: node {name!r} ({node.get_type_name()}) maps to no layer id of its own"
            )
        nodes[name[len(ID_PREFIX) :]] = node
    if sorted(ids) != sorted(nodes):
        raise CorpusError(
            f"{xml.name}: XML layers and OpenVINO nodes differ: {sorted(set(ids) ^ set(nodes))}"
        )
    return nodes


def _output_ports(xml: Path, layer: etree._Element, node: Any) -> list[dict[str, Any]]:
    """What OpenVINO gives each output port the XML layer writes."""
    written = _XML_TYPE_NAMES.get(node.get_type_name(), node.get_type_name())
    if written.lower() != layer.get("type", "").lower():  # IR writes ReLU for Relu
        raise CorpusError(f"{xml.name}: layer {layer.get('id')} {layer.get('type')} read as {written}")
    ports = [port.get("id", "") for port in layer.iterfind("output/port")]
    # A Result has an output in OpenVINO (its input's shape) but no output port in IR.
    outputs = [] if node.get_type_name() == "Result" else node.outputs()
    if len(ports) != len(outputs):
        raise CorpusError(
            f"{xml.name}: layer {layer.get('id')}: {len(ports)} output ports, {len(outputs)} read"
        )
    return [
        {
            "port": port_id,
            "shape": str(output.get_partial_shape()),
            "dims": dims_of(output.get_partial_shape()),
            "element_type": output.get_element_type().get_type_name(),
        }
        for port_id, output in zip(ports, outputs, strict=True)
    ]


def derive_expected(xml: Path) -> dict[str, Any]:
    """OpenVINO's answer for every layer of ``xml``, read back from the file by ``read_model``."""
    import openvino as ov  # the oracle: only the generator and the OpenVINO test call this

    layers = xml_layers(etree.parse(str(xml)))
    extended = any(layer.get("version") == EXTENSION_VERSION for layer in layers)
    with tempfile.TemporaryDirectory(prefix="irshape-networks-") as tmp:
        copy = str(_renamed_copy(xml, Path(tmp)))
        model = (extension_core() if extended else ov.Core()).read_model(copy)
    nodes = _nodes_by_id(model, xml, [layer.get("id", "") for layer in layers])
    result = {
        layer.get("id", ""): {
            "type": layer.get("type"),
            "version": layer.get("version"),
            "outputs": _output_ports(xml, layer, nodes[layer.get("id", "")]),
        }
        for layer in layers
    }
    counts = Counter(f"{layer['type']}/{layer['version']}" for layer in result.values())
    head: dict[str, Any] = {"file": xml.name, "openvino_version": ov.get_version()}
    if extended:
        head["extensions"] = [TOKENIZERS]
        head["read_model_without_extensions"] = _plain_read_failure(xml)
    return {**head, "op_counts": dict(sorted(counts.items())), "layers": result}


def _plain_read_failure(xml: Path) -> str:
    """The last line of what a plain ``read_model`` (no extension added) raises on ``xml``: the
    layer it could not create. (The Core is ``ov.Core``'s base class, which an import of
    openvino_tokenizers, as the generator does, leaves unpatched.)"""
    from openvino._pyopenvino import Core

    try:
        Core().read_model(str(xml))
    except RuntimeError as error:
        return [line for line in str(error).splitlines() if line.strip()][-1]
    raise CorpusError(f"{xml.name}: a plain read_model reads it, though it has extension ops")


def dump_expected(expected: dict[str, Any]) -> str:
    """The JSON text of an expectation: one line per layer, so a diff shows the layer that changed."""
    head = {key: value for key, value in expected.items() if key != "layers"}
    lines = [json.dumps(head, indent=1)[:-2] + ","]  # the head object, left open
    lines.append(' "layers": {')
    entries = [f"  {json.dumps(key)}: {json.dumps(value)}" for key, value in expected["layers"].items()]
    lines.append(",\n".join(entries))
    lines.append(" }\n}\n")
    return "\n".join(lines)


def comparable(expected: dict[str, Any]) -> dict[str, Any]:
    """An expectation less what names the OpenVINO build (the shapes must not depend on it)."""
    return {key: value for key, value in expected.items() if key != "openvino_version"}
