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
        "constant-type-v10-evaluated",
        "IR v10, a layer typed 'Constant' (not 'Const': no bytes are read for it, "
        "docs/openvino-ir-reading.md §13) whose value OpenVINO evaluates while reading v10 "
        "(the Parameter retyped 'Constant' as the data of a Convolution, MVN or backprop op; a "
        "GroupConvolution retyped 'Constant'): it fails making a tensor of no bytes ('Check "
        "'shape_size(shape) == 0 || m_ptr != nullptr' failed at make_tensor.cpp'); the same "
        "layer as StridedSlice's end reads. irshape reads it as a Constant of unknown value. "
        "Fix (reading): find which consumers make IR v10 evaluate it, by experiment.",
        "constant_type_v10_evaluated",
        lambda v: _missed(v, "m_ptr != nullptr"),
        owner="reading",
    ),
    Known(
        "value-input-element-types",
        "A Const another op reads for its value whose element type OpenVINO handles in its own "
        "way, where irshape reports the value unknown (IRS306, an info): a real type as "
        "Slice's step (bf16) -> 'Stride must be non-zero'; MVN's or Interpolate's axes of "
        "dynamic type -> 'Axes element type must be i32, i64, u32 or u64'; a dynamic-type "
        "Const OpenVINO folds (ReduceSum's axes) -> 'Check 'm_element_type.is_static()' failed "
        "at make_tensor.cpp'; and a dynamic or 1/2/3/6-bit Const reached through a folding op "
        "(Gather's indices under a Reshape). And the wider answers: Unsqueeze's axes of "
        "f64/bf16 and Reshape's pattern of u64 are read by OpenVINO ([1,5,2,4..]), irshape "
        "leaves them unknown ([...], [5,2,?]). Fixed: a dynamic or 1/2/3/6-bit Const read "
        "directly for the value that decides a shape is IRS214 with OpenVINO's message "
        "(fixture value_input_unevaluable_type, now an agreement; docs/openvino-ir-reading.md §6).",
        "slice_step_real_type",
        lambda v: (
            _missed(
                v,
                "Element not supported",
                "Tensor was not initialized",
                "Stride must be non-zero",
                "Axes element type",
                "m_element_type.is_static()",
            )
            or (v.disagreement == "shape" and "element-type" in v.kinds)
        ),
    ),
    Known(
        "duplicate-ids-openvino-reads",
        "Two layers with one id that OpenVINO reads anyway: an id '-0' that equals '0' of a "
        "Parameter (OpenVINO keeps the last layer of an id in its map, so edges naming 0 reach "
        "the Const, and builds the Parameters apart). irshape reports IRS401 as an error and "
        "resolves the id to the first layer (check/graph.py _index_layers), so its shapes would "
        "not be OpenVINO's either. Fix (reading): index the last layer of an id, and make "
        "IRS401 an error only when the layer the map loses is one a Result reaches and not a "
        "Parameter.",
        "duplicate_ids_openvino_reads",
        lambda v: v.disagreement in ("false-error:IRS401", "false-error:IRS401,IRS408"),
        owner="reading",
    ),
)


def known_class(v: Verdicts) -> str | None:
    return next((k.name for k in KNOWN if k.matches(v)), None)
