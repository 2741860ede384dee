"""Disagreements the fuzzer finds that are not fixed yet, each with its owner: the op
machinery (the op registry, the families' value reading) or the reading layer.

Each names its fixture (``fixtures/fuzz/<fixture>.xml`` with its ``.bin``), a file the fuzzer
made that shows it. The CI test treats these as expected until they are fixed and fails on any
other disagreement; ``test_known_fixtures`` keeps each fixture honest (OpenVINO still gives the
verdict described).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .oracle import Verdicts


@dataclass(frozen=True)
class Known:
    name: str
    description: str
    fixture: str  # fixtures/fuzz/<fixture>.xml
    matches: Callable[[Verdicts], bool]
    owner: str = "op machinery"  # or "reading": a reading-layer class not fixed yet


def _missed(v: Verdicts, *texts: str) -> bool:
    return (v.disagreement or "").startswith("missed:") and any(t in (v.ov_error or "") for t in texts)


KNOWN: tuple[Known, ...] = (
    Known(
        "type-not-in-opset",
        "A layer whose version is an opset name OpenVINO does not know ('Co' with version "
        "'opset99', 'const' with 'Opset1', a Const with 'opset1' and a control character "
        "after it, the fixture): OpenVINO, with no extension loaded, rejects the file ('Cannot "
        "create Co layer Constant_42 id:2 from unsupported opset: opset99'); "
        "irshape gives the info IRS404, deliberately: an opset name that is not one of "
        "OpenVINO's is an extension's, which the user loads with its ops (README). Types not "
        "in one of OpenVINO's own opsets are errors (fixed).",
        "type_unknown_opset",
        lambda v: _missed(v, "doesn't contain the operation with type", "from unsupported opset"),
    ),
    Known(
        "ops-not-modelled",
        "A layer changed to an op irshape does not model (NMSRotated-13) with inputs that op does "
        "not take: OpenVINO fails (its input count check, its shape inference); irshape checks "
        "only the structure of unknown ops. Fix: declarations for the ops left (docs/ops.md "
        "lists those modelled). And MVN given version 'opset2' "
        "in IR v10 with its axes input: read as MVN-2, one input ('Expected 1 element in "
        "new_args for the MVN op but got 2'); irshape checks it as MVN-6.",
        "ops_not_modelled",
        lambda v: (
            (v.disagreement or "").startswith("missed:")
            and (
                bool({"layer-type", "layer-version"} & set(v.kinds))
                or (bool({"edge-removed", "edge-id"} & set(v.kinds)) and "out of range" in (v.ov_error or ""))
            )
        ),
    ),
    Known(
        "unsigned-list-attributes",
        "A list attribute OpenVINO keeps unsigned (Interpolate's pads_begin/pads_end are "
        "size_t): a negative value fails the parse ('Cannot parse ' -2' in \"2, 2147483646, "
        "-2,0\"'), and a value past the int64 range but within size_t's reads "
        "('18446744073709551614', fixture unsigned_list_attribute_past_int64); irshape reads "
        "it as the signed int64 list the convolutions' pads are (IRS104 past int64). Fix "
        "(reading, ops/schema.py and the declarations): an unsigned list type.",
        "unsigned_list_attribute_negative",
        lambda v: (
            "op-attr" in v.kinds
            and (
                _missed(v, "Cannot parse") or (v.disagreement == "false-error:IRS104" and "pads_" in v.detail)
            )
        ),
        owner="reading",
    ),
    Known(
        "gather-batch-dims-range",
        "Gather-8 with batch_dims='-2', indices of rank 1 and data of rank 3: OpenVINO reads it "
        "(its own normalisation of a negative batch_dims is not the spec's), irshape says "
        "IRS112 (below -rank(indices)). Fix (op machinery, shapes/indexing.py): OpenVINO's "
        "batch_dims range, by experiment.",
        "gather_negative_batch_dims",
        lambda v: v.disagreement == "false-error:IRS112" and "op-attr" in v.kinds,
    ),
    Known(
        "interpolate-sizes-length",
        "Interpolate-11 whose sizes Const has a shape written '-9223372036854775807' (2^63 + 1 "
        "as size_t: a Dimension of 0, and a byte count that wraps to 8, so the Const reads): "
        "OpenVINO compares the sizes' element count (0) with the axes (2) and fails ('The "
        "number of elements in the 'sizes' input does not match the number of axes 2'); "
        "irshape's resize family does not compare the sizes' length with the axes when the "
        "value is not read. Fix (op machinery, shapes/resize.py): that check on the shape.",
        "interpolate_sizes_length_wraps",
        lambda v: _missed(v, "does not match the number of axes"),
    ),
)


def known_class(v: Verdicts) -> str | None:
    return next((k.name for k in KNOWN if k.matches(v)), None)
