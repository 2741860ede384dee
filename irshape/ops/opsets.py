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
    return {name.lower(): name for name in OP_VERSIONS}


def _op(op_type: str) -> tuple[str, dict[int, int]] | None:
    """The op's canonical name and its version in each opset that holds it, or None."""
    spelled = TRANSLATED.get(op_type, op_type)
    # usually found as spelled: a file spells its types as OpenVINO's table does
    name = spelled if spelled in OP_VERSIONS else _names_by_lower().get(spelled.lower())
    return None if name is None else (name, _versions(name))


@functools.cache  # one entry an op: built as it is asked for (all at once cost ~2M instructions a start)
def _versions(name: str) -> dict[int, int]:
    return {opset: version for lo, hi, version in OP_VERSIONS[name] for opset in range(lo, hi + 1)}


def canonical_type(op_type: str) -> str | None:
    """The op's name as OpenVINO spells it (``"relu"`` -> ``"Relu"``), None if in no opset."""
    entry = _op(op_type)
    return entry[0] if entry is not None else None


def opsets_of(op_type: str) -> frozenset[int]:
    """The opsets that hold ``op_type`` (empty when none does)."""
    entry = _op(op_type)
    return frozenset(entry[1]) if entry is not None else frozenset()


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
    if entry is None or number is None or number not in entry[1]:
        return None
    return entry[0], entry[1][number]


def latest_version(op_type: str) -> tuple[str, int] | None:
    """The op version the newest opset holding ``op_type`` has (for layers with no usable
    version: fragments, and layers whose version OpenVINO rejects anyway)."""
    entry = _op(op_type)
    if entry is None:
        return None
    return entry[0], entry[1][max(entry[1])]
