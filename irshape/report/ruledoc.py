"""The documentation of a diagnostic code, from the registry: ``irshape rule CODE`` and SARIF.

Every code gets what it means, why it matters, an example (the rule's own, and a message as
irshape prints it, its template filled with sample values) and the fix.
"""

from __future__ import annotations

import string
import textwrap
from typing import Any

from irshape.diagnostics import Rule

# Sample values of template fields, for the example messages. A field means the same in most
# templates (a port, an axis, an attribute); where it does not (a reason, a problem), the
# code's own samples below win. A field in neither table is shown as SAMPLE_DEFAULT.
SAMPLES: dict[str, Any] = {
    "attribute": "strides",
    "auto_pad": "valid",
    "axis": 2,
    "axis_index": 0,
    "begin": "1,1",
    "bin": "model.bin",
    "consequence": "",
    "count": 1,
    "data": "[1,3,8,8]",
    "declared": 448,
    "direction": "input",
    "edge": "2:2 -> 3:0",
    "element_type": "f32",
    "end": "1,1",
    "expected_count": 2,
    "first_line": 26,
    "from_port": 2,
    "hint": "",
    "id": "3",
    "inferred": 447,
    "kernel": "[4,3,3]",
    "layer": "layer 3 'relu'",
    "layer_name": "relu",
    "layer_type": "Parameter",
    "names": "layer 5 'add', layer 3 'relu'",
    "op": "Convolution-1",
    "port": "3",
    "port_id": 5,
    "precision": "FP32",
    "producer": "layer 2 'conv'",
    "produced": "[1,4,6,6]",
    "rank": 2,
    "shape": "[1,3]",
    "text": "0,1",
    "value": "[1,4,6,6]",
    "version": "9",
    "what": "the layer",
    "why": "",
}
SAMPLE_DEFAULT = "..."

SAMPLES_BY_CODE: dict[str, dict[str, Any]] = {
    "IRS001": {"reason": "Opening and ending tag mismatch: data line 1 and layer, line 1, column 60"},
    "IRS002": {"root": "model"},
    "IRS004": {"what": "document type declaration (<!DOCTYPE>)"},
    "IRS005": {"text": "?"},
    "IRS006": {"attribute": "shape", "text": "1,3,x,224", "reason": "Cannot parse dimension: 'x'"},
    "IRS007": {"attribute": "name"},
    "IRS011": {
        "text": "1,3..-1,224,224",
        "literal": "3..-1",
        "reading": "an empty interval: it prints as ? but no size is compatible with it",
    },
    "IRS012": {"reason": "No such file or directory"},
    "IRS008": {"reason": "a fragment has no graph to take the value from"},
    "IRS009": {
        "reason": "there is no readable model.bin next to the IR; Const sizes and values are not "
        "checked (OpenVINO fails without it: 'Empty weights data in bin file or bin file cannot be "
        "found!')"
    },
    "IRS010": {"text": "6.5", "value": 6},
    "IRS101": {"assumed": "1 on every spatial axis"},
    "IRS102": {"attribute": "stride"},
    "IRS103": {
        "attribute": "data_format",
        "value": "NXC",
        "consequence": ": the layer will be read channels-first (NCX), so channels-last data is "
        "read with its first spatial axis as the channels",
    },
    "IRS104": {"text": "2,,2", "reason": 'Cannot get vector of parameters! "2,,2" is incorrect'},
    "IRS105": {"text": "2 2", "read": "[2]", "reason": "it drops '2'"},
    "IRS106": {
        "text": "1,1,1",
        "length": 3,
        "spatial": 2,
        "ov_message": "Strides should be defined for all and only spatial dimensions.",
    },
    "IRS107": {
        "value": "None",
        "hint": '; for explicit pads write auto_pad="explicit" (or leave auto_pad out)',
    },
    "IRS108": {"ov_message": "Strides has zero dimension(s)."},
    "IRS109": {"text": "-1,1", "unsigned": 18446744073709551615},
    "IRS110": {"total": -3, "effect": "ignores them (a negative sum below -1 counts as 0)"},
    "IRS111": {"how": "uses no padding"},
    "IRS202": {
        "shape": "[1,3]",
        "consequence": "; OpenVINO rejects the layer ('Expected a 3D, 4D or 5D tensor for the input.')",
    },
    "IRS203": {
        "rank": 3,
        "data_rank": 4,
        "expected_rank": 4,
        "layout": "[C_OUT, C_IN, Y, X]",
        "ov_message": "Data batch and filters rank do not match",
    },
    "IRS204": {"data": "f32", "kernel": "f16"},
    "IRS205": {"element_type": "boolean"},
    "IRS206": {
        "problem": "has 3 values for 2 spatial axes",
        "ov_message": "Output shape should be defined for all and only spatial dimensions.",
    },
    "IRS207": {"value": "[-4, 10]"},
    "IRS208": {"data_channels": 3, "kernel_axis": "(axis 1, C_IN)", "kernel_channels": 5},
    "IRS209": {"data_channels": 6, "groups": 2, "per_group": 4},
    "IRS210": {"dilated": 3, "kernel": 3, "dilation": 1, "padded": 2, "data": 2, "pads": "0 + 0"},
    "IRS301": {"arithmetic": " = 2*(224-1) + (3-1)*1+1 - 1 - 1 + 0"},
    "IRS302": {
        "declared": "[1,4,6]",
        "declared_rank": 3,
        "inferred": "[1,4,6,6]",
        "inferred_rank": 4,
    },
    "IRS303": {"formula": "1*(2-1) + (3-1)*1+1 - 5 - 5 + 0", "value": -6},
    "IRS304": {"inferred": "[1,4,6,6]"},
    "IRS305": {"what": "dynamic rank", "why": " (data and kernel ranks unknown, no list attributes)"},
    "IRS501": {"produced": "[1,4,6,6]", "declared": "[1,4,7,6]"},
    "IRS502": {"reason": "an input has dynamic dims; give --dim-value N to run them at size N"},
    "IRS503": {"needed": "7.4 GiB", "limit": "1.0 GiB"},
    "IRS504": {"reason": "negative pads_begin [-1, 0]: OpenVINO's CPU plugin cannot build this layer"},
    "IRS402": {
        "what": "edge from-port",
        "problem": "'two' is not an unsigned integer",
        "ov_message": "stoll",
    },
    "IRS403": {
        "version": "Opset1",
        "problem": "is not an opset OpenVINO has (opset1 ... opset17); the name is matched exactly, "
        "write 'opset1'",
        "ov_message": "Cannot create Convolution layer conv id:2 from unsupported opset: Opset1",
    },
    "IRS404": {
        "type": "Rectifier",
        "ov_message": "Opset opset1 doesn't contain the operation with type: Rectifier",
    },
    "IRS405": {
        "port": "2",
        "problem": "'F32' is not a precision name",
        "ov_message": "Unsupported element type: F32",
        "hint": "; write FP32 or f32",
    },
    "IRS406": {
        "edge": "7:2 -> 3:0",
        "id": "7",
        "consequence": "OpenVINO rejects the file ('Cannot create  layer  id:0 from unsupported opset: ')",
    },
    "IRS407": {"edge": "2:2 -> 3:5"},
    "IRS408": {"port": "0", "first_line": 43},
    "IRS409": {
        "port": "0",
        "consequence": "OpenVINO (IR v11) rejects the file when it builds the layer ('... out of range')",
    },
    "IRS411": {
        "port": "0",
        "declared": "[1,4,6,7]",
        "consequence": "OpenVINO ignores declared input dims and feeds the layer [1,4,6,6]",
    },
    "IRS412": {"port": "0", "declared": "FP16", "produced": "FP32"},
    "IRS413": {"ov_message": "Layer data must be defined for: opset1::Parameter data ..."},
    "IRS414": {
        "layer_type": "Const",
        "text": "FP32",
        "ov_message": '"FP32" is not a member of enum element::Type_t',
        "hint": "; write f32",
    },
    "IRS415": {"element_type": "f16", "port": "0", "named": "f32"},
    "IRS416": {
        "layer_type": "Const",
        "text": "4,3,3,3",
        "port": "0",
        "declared": "[4,3,3,5]",
        "shape": "[4,3,3,3]",
    },
    "IRS417": {"attribute": "element_type", "meaning": "dynamic-typed (the port precision is not used)"},
    "IRS418": {
        "attribute": "offset",
        "problem": "'-1' is not an unsigned integer",
        "ov_message": 'node <data> has attribute "offset" = "-1" which is not an unsigned 64 bit integer',
    },
    "IRS419": {
        "size": 431,
        "shape": "[4, 3, 3, 3]",
        "needed": 432,
        "count": 108,
        "bits": 32,
        "packing": "",
    },
    "IRS420": {"offset": 8, "end": 440, "bin_size": 432},
    "IRS421": {
        "what": "this layer or the 1 layer(s) connected to it",
        "them": "any of them",
        "names": ": layer 1 'weights', layer 2 'conv'",
    },
    "IRS422": {"unbuilt": ""},
    "IRS901": {"summary": "IndexError: list index out of range"},
    "IRS902": {"reason": "line 4 holds <dim>s irshape does not read as port dims"},
}


class _Samples(dict[str, Any]):
    def __missing__(self, key: str) -> Any:
        return SAMPLES.get(key, SAMPLE_DEFAULT)


def example_message(rule: Rule) -> str:
    """The rule's message template filled with sample values, as irshape would print it."""
    return string.Formatter().vformat(rule.template, (), _Samples(SAMPLES_BY_CODE.get(rule.code, {})))


def rule_text(rule: Rule) -> str:
    """Plain-text documentation of ``rule``."""
    wrap = textwrap.TextWrapper(width=88, initial_indent="  ", subsequent_indent="  ")
    parts = [
        f"{rule.code} {rule.name} ({rule.severity.value})",
        "",
        "What:",
        wrap.fill(rule.summary),
        "",
        "Why:",
        wrap.fill(rule.why),
        "",
        "Example:",
    ]
    if rule.example:
        parts.append(textwrap.indent(rule.example, "  "))
    parts += [
        wrap.fill(f"irshape says: {rule.code} [{rule.severity.value}] {example_message(rule)}"),
        "",
        "Fix:",
        wrap.fill(rule.fix),
    ]
    return "\n".join(parts)


def rule_markdown(rule: Rule) -> str:
    """Markdown documentation of ``rule`` (SARIF ``help.markdown``)."""
    parts = [
        f"**{rule.code} {rule.name}** ({rule.severity.value})",
        "",
        f"**What:** {rule.summary}",
        "",
        f"**Why:** {rule.why}",
        "",
        "**Example:**",
        "",
    ]
    if rule.example:
        parts += ["```", rule.example, "```", ""]
    parts += [
        "```",
        f"{rule.code} [{rule.severity.value}] {example_message(rule)}",
        "```",
        "",
        f"**Fix:** {rule.fix}",
    ]
    return "\n".join(parts)
