"""How OpenVINO's IR reader finds a layer's op: its ``type`` in the opset its ``version`` names.

The reader translates a few legacy type names, redirects a few (type, version) pairs, then
looks the type up in the opset; the op version it builds is the one that opset holds
(:mod:`irshape.ops.opset_table`). Type names are matched without regard to case, opset names
exactly.
"""

from __future__ import annotations

import functools

from irshape.ops.opset_table import MAX_OPSET, OP_VERSIONS

# translate_type_name in OpenVINO's reader, applied before the lookup.
TRANSLATED = {"Const": "Constant", "PReLU": "PRelu", "ReLU": "Relu", "SoftMax": "Softmax"}
# The reader's own redirections (xml_deserialize_util.cpp, create_node), matched exactly.
_OPSET1_FROM_OPSET2 = frozenset({"MVN", "ROIPooling", "ReorgYolo"})
_EXPERIMENTAL_IN_OPSET6 = frozenset(
    {
        "ExperimentalDetectronDetectionOutput",
        "ExperimentalDetectronGenerateProposalsSingleImage",
        "ExperimentalDetectronPriorGridGenerator",
        "ExperimentalDetectronROIFeatureExtractor",
        "ExperimentalDetectronTopKROIs",
        "GRUCell",
        "RNNCell",
        "Proposal",
    }
)


@functools.cache  # built for the first type not spelled as OpenVINO spells it (no two differ by case only)
def _names_by_lower() -> dict[str, str]:
    names = (line.partition(" ")[0] for line in OP_VERSIONS.splitlines() if line)
    return {name.lower(): name for name in names}


def _row(name: str) -> str | None:
    """The spans of the op type spelled exactly ``name``: its line of the table after the type."""
    if not name.isidentifier():  # (every type is: no text of a file matches across lines)
        return None
    start = OP_VERSIONS.find(f"\n{name} ")
    if start < 0:
        return None
    start += len(name) + 2
    return OP_VERSIONS[start : OP_VERSIONS.index("\n", start)]


@functools.lru_cache(maxsize=1024)  # once a type (a file has few), its row read from the table
def _op(op_type: str) -> tuple[str, list[tuple[int, int, int]]] | None:
    """The op's canonical name and its spans (see :func:`table`), or None."""
    name = TRANSLATED.get(op_type, op_type)
    row = _row(name)  # usually found as spelled: a file spells its types as OpenVINO's table does
    if row is None:
        name = _names_by_lower().get(name.lower(), "")
        row = _row(name)
        if row is None:
            return None
    return name, _spans(row)


def _spans(row: str) -> list[tuple[int, int, int]]:
    """``"1-13:1 14-15:14"`` as ``[(1, 13, 1), (14, 15, 14)]``."""
    found = []
    for span in row.split():
        opsets, _, version = span.partition(":")
        first, _, last = opsets.partition("-")
        found.append((int(first), int(last), int(version)))
    return found


def table() -> dict[str, tuple[tuple[int, int, int], ...]]:
    """Every op type's ``(first_opset, last_opset, op_version)`` spans, in the table's order
    (for tools and tests: a check reads the rows of its file's types only)."""
    rows = (line.partition(" ") for line in OP_VERSIONS.splitlines() if line)
    return {name: tuple(_spans(row)) for name, _, row in rows}


def canonical_type(op_type: str) -> str | None:
    """The op's name as OpenVINO spells it (``"relu"`` -> ``"Relu"``), None if in no opset."""
    entry = _op(op_type)
    return entry[0] if entry is not None else None


def opsets_of(op_type: str) -> frozenset[int]:
    """The opsets that hold ``op_type`` (empty when none does)."""
    entry = _op(op_type)
    if entry is None:
        return frozenset()
    return frozenset(opset for first, last, _ in entry[1] for opset in range(first, last + 1))


def effective_version(op_type: str, version: str) -> str:
    """The opset the reader really looks ``op_type`` up in for a layer of ``version``."""
    if version in ("experimental", "extension") and op_type in _EXPERIMENTAL_IN_OPSET6:
        return "opset6"
    if version == "opset1" and op_type in _OPSET1_FROM_OPSET2:
        return "opset2"
    return version


def opset_number(version: str) -> int | None:
    """N for ``"opsetN"`` when OpenVINO has that opset, else None (names match exactly)."""
    digits = version[5:]  # "opset" and 1 to 18 decimal digits, the first not 0 (no regex: a
    # pattern compiled at import costs every start-up)
    if not (
        version.startswith("opset")
        and 0 < len(digits) <= 18
        and digits.isdecimal()
        and digits[0] in "123456789"
    ):
        return None
    number = int(digits)
    return number if number <= MAX_OPSET else None


@functools.lru_cache(maxsize=1024)  # few (type, version) pairs a file, asked once a layer
def op_version(op_type: str, version: str) -> tuple[str, int] | None:
    """The op OpenVINO builds for a layer: its canonical type and op version, or None when
    the layer's opset does not hold the type (IRS403/IRS404 say why)."""
    entry = _op(op_type)
    number = opset_number(effective_version(op_type, version))
    if entry is None or number is None:
        return None
    name, spans = entry
    for first, last, op_version in spans:
        if first <= number <= last:
            return name, op_version
    return None


def latest_version(op_type: str) -> tuple[str, int] | None:
    """The op version the newest opset holding ``op_type`` has (for layers with no usable
    version: fragments, and layers whose version OpenVINO rejects anyway)."""
    entry = _op(op_type)
    if entry is None:
        return None
    name, spans = entry
    return name, spans[-1][2]  # the spans run up the opsets
