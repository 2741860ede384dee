"""Disagreements the fuzzer finds whose fix lies in the op machinery (the op registry, the
convolution rules and arithmetic), not in the reading layer: handed to the lead.

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
        "A layer type OpenVINO does not have in the stated opset (a misspelling: 'Convolutions', "
        "'Prameter', 'CONST', ' Const'; or an op of a later opset). OpenVINO rejects the file "
        "('Opset opset1 doesn't contain the operation with type: Convolutions'); irshape gives only "
        "the warning IRS404 (op-type-unknown). Fix: in the op registry / check_opsets, a type that "
        "is not in an OpenVINO opset named by the layer's version is an error (an extension's own "
        "opset name stays an info).",
        "type_not_in_opset",
        lambda v: _missed(v, "doesn't contain the operation with type", "from unsupported opset"),
    ),
    Known(
        "conv-arithmetic-at-64-bit-limits",
        "Convolution shapes with strides or dilations OpenVINO reads as unsigned 64-bit numbers "
        "(a negative value is 2^64 - n) or pads whose sum passes int64: OpenVINO computes a shape "
        "(e.g. strides '-1, 2' on 9x9, k3 -> [1,6,1,5]; pads_end '2, 9223372036854775807' -> a "
        "static 5), irshape infers another ([1,6,8,9] ignoring the stride; or 1..). IRS109 stays "
        "a deliberate error, but the inferred shape must be OpenVINO's. Fix: conv_arith with "
        "uint64 strides/dilations and int64 wrap-around of pad sums.",
        "conv_arithmetic_64_bit",
        lambda v: v.disagreement == "shape" and "list-attr" in v.kinds,
    ),
    Known(
        "ops-not-modelled",
        "A layer changed to an op irshape does not model (Identity, Relu, Elu, SoftSign, "
        "NMSRotated, ScaledDotProductAttention) with inputs that op does not take: OpenVINO fails "
        "('node index is out of range', \"index '0' out of range\", its shape inference); irshape "
        "checks only the structure of unknown ops. Fix: input counts (and shapes) in the op "
        "registry.",
        "ops_not_modelled",
        lambda v: (
            (v.disagreement or "").startswith("missed:")
            and (
                "layer-type" in v.kinds
                or (bool({"edge-removed", "edge-id"} & set(v.kinds)) and "out of range" in (v.ov_error or ""))
            )
        ),
    ),
    Known(
        "output-shape-element-types",
        "The backprop ops' output_shape input as a Const OpenVINO cannot evaluate: dynamic or "
        "undefined element_type -> 'Tensor was not initialized.' (the same Const as a kernel is "
        "fine); a sub-byte type: u1 -> OpenVINO "
        "'Element not supported'; i4 -> its values read as signed nibbles, a negative one "
        "'Value for partial shape evaluation can't be lower than zero.'; nf4 -> OpenVINO reads "
        "the file, irshape says IRS206 (not an integer type). Fix: the output_shape rules "
        "(which types OpenVINO evaluates, reading sub-byte values).",
        "output_shape_subbyte",
        lambda v: (
            (
                _missed(
                    v,
                    "Element not supported",
                    "can't be lower than zero",
                    "Tensor was not initialized",
                    "does not support casting elements",
                )
                and "'string'" not in (v.ov_error or "")
            )
            or v.disagreement == "false-error:IRS206"
            or (v.disagreement == "shape" and "element-type" in v.kinds)
        ),
    ),
    Known(
        "huge-output-shape-length",
        "An output_shape Const whose shape attribute is huge (shape='2147483646' with size 16): "
        "OpenVINO rejects the Const ('Attribute and shape size are inconsistent'); irshape also "
        "reports IRS419 but then fails with IRS901 (MemoryError in layer.py _output_spatial: "
        "PartialShape.dynamic(n) of the Const's length). Fix: check the length against the "
        "spatial rank before building a shape of it.",
        "huge_output_shape_length",
        lambda v: v.disagreement == "internal-error" and "MemoryError" in v.detail,
    ),
    Known(
        "huge-dilation-backprop",
        "ConvolutionBackpropData with an output_shape input and a dilation near 2^63 "
        "('9223372036854775806, 2'): OpenVINO fails ('Cannot get length of dynamic dimension'); "
        "irshape fails with IRS901 (ValueError: dimension ? is not static, in the backprop "
        "arithmetic). Never crash: the arithmetic must treat the dilated kernel's overflow as "
        "OpenVINO does.",
        "huge_dilation_backprop",
        lambda v: v.disagreement == "internal-error" and "is not static" in v.detail,
    ),
    Known(
        "const-element-count-wraps",
        "A Const shape with negative dims or dims near 2^63 whose element count wraps around "
        "in size_t: OpenVINO reads each dim as an unsigned 64-bit number, multiplies modulo 2^64 "
        "and compares the wrapped byte count with size ('9223372036854775807,-1, 3' of f32 needs "
        "12 bytes, so size=24 passes); irshape reports IRS418 (negative dim) as an error. Fix "
        "(reading layer, graph.py _const_shape / weights.bytes_needed): count modulo 2^64, then "
        "find what shape OpenVINO gives the Const's consumers.",
        "const_element_count_wraps",
        lambda v: (v.disagreement or "").startswith("false-error:IRS418"),
        owner="reading",
    ),
    Known(
        "string-const-bytes",
        "A Const of element_type 'string' whose bytes are not a packed string tensor (a 4-byte "
        "count, offsets, characters): OpenVINO fails reading it ('Incorrect packed string tensor "
        "format: header exceeds provided buffer size', 'basic_string::_M_create' or, as the "
        "output_shape input, 'Constant does not support casting elements of type 'string'': the "
        "message varies from run to run, read from bytes it should not trust); irshape "
        "does not look at a string Const's bytes. Fix (reading layer, graph.py Const checks / "
        "weights.py): read the packed header and check it against size.",
        "string_const_bytes",
        lambda v: _missed(v, "packed string tensor", "basic_string", "of type 'string'"),
        owner="reading",
    ),
    Known(
        "parameter-with-inputs",
        "A layer retyped 'Parameter' that still has input edges (here an unreachable copy of a "
        "convolution): OpenVINO builds every Parameter, whatever reaches it, and fails "
        "('Attempt to access node 1 that not in graph.'); irshape reports nothing. Fix: a "
        "Parameter with incoming edges is an error.",
        "parameter_with_inputs",
        lambda v: _missed(v, "that not in graph"),
        owner="reading",
    ),
    Known(
        "duplicate-ids-openvino-reads",
        "Two layers with one id that OpenVINO reads anyway: both unreachable, or an id '-0' that "
        "equals '0' of a Parameter (OpenVINO keeps the last layer of an id and builds Parameters "
        "apart). irshape reports IRS401 as an error. Fix (reading layer): find when OpenVINO's "
        "id map loses a layer that a Result reaches, and make IRS401 an error only then.",
        "duplicate_ids_openvino_reads",
        lambda v: v.disagreement in ("false-error:IRS401", "false-error:IRS401,IRS408"),
        owner="reading",
    ),
)


def known_class(v: Verdicts) -> str | None:
    return next((k.name for k in KNOWN if k.matches(v)), None)
