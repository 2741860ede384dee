"""The registry of diagnostic codes: one entry per code, with its template and documentation.

Codes are stable: a code is never reused for another meaning. Ranges:
IRS0xx reading the file, IRS1xx layer attributes, IRS2xx layer inputs, IRS3xx output shapes,
IRS4xx the graph, IRS5xx dry runs, IRS9xx irshape itself.
"""

from __future__ import annotations

from irshape.diagnostics import Diagnostic, Rule, Severity

ERROR, WARNING, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO

RULES: dict[str, Rule] = {}
_NAMES: dict[str, str] = {}  # each rule's name -> its code (a name is taken once)


def _rule(
    code: str,
    name: str,
    severity: Severity,
    template: str,
    *,
    summary: str,
    why: str,
    fix: str,
    example: str = "",
) -> Rule:
    if code in RULES or name in _NAMES:
        raise ValueError(f"duplicate diagnostic {code} {name}")
    _NAMES[name] = code
    RULES[code] = Rule(code, name, severity, template, summary, why, fix, example)
    return RULES[code]


def lookup(code_or_name: str) -> Rule | None:
    """The rule a code (``IRS306``, any case) or a rule name (``value-unknown``) names."""
    text = code_or_name.strip()
    return RULES.get(text.upper()) or RULES.get(_NAMES.get(text.lower(), ""))


# --- IRS0xx: reading the file ------------------------------------------------------------

XML_SYNTAX = _rule(
    "IRS001",
    "xml-syntax",
    ERROR,
    "the file is not well-formed XML: {reason}",
    summary="The file cannot be parsed as XML.",
    why="OpenVINO's reader (pugixml) rejects the file with a byte offset; nothing in it is checked.",
    fix="Repair the XML at the line given (a missing closing tag, a stray character, a truncated file).",
    example="<layer id='1' type='Convolution'><data strides='1,1'></layer>",
)
NOT_IR = _rule(
    "IRS002",
    "not-ir",
    ERROR,
    "the document is neither an IR <net> nor <layer> fragments (root element <{root}>)",
    summary="The root element is not <net> and the file holds no <layer> elements.",
    why="OpenVINO reads IR documents whose root is <net>; irshape also reads bare <layer> fragments.",
    fix="Check that the file is an OpenVINO IR .xml.",
)
IR_VERSION = _rule(
    "IRS003",
    "ir-version",
    ERROR,
    "<net> version {version!r}: OpenVINO reads only IR versions 10 and 11",
    summary="The <net> version attribute is missing or not 10/11.",
    why="OpenVINO's IR frontend accepts version 10 and 11 only and otherwise says the model format "
    "is not supported.",
    fix="Re-export the model with a current OpenVINO (ov.save_model writes version 11).",
)
UNSAFE_XML = _rule(
    "IRS004",
    "unsafe-xml",
    ERROR,
    "the document has a {what}; irshape does not expand entities or load DTDs, "
    "and OpenVINO IR never needs them",
    summary="The file declares a DTD or entities.",
    why="Entity expansion and external DTDs are how XML files attack their readers "
    "(billion laughs, reading local files). IR files never use them.",
    fix="Remove the <!DOCTYPE> and <!ENTITY> declarations.",
)
DIM_SYNTAX = _rule(
    "IRS005",
    "dim-syntax",
    ERROR,
    "<dim> {text!r} is not an integer >= -1; OpenVINO rejects the file "
    "('dimension must be greater or equal to -1')",
    summary="A port <dim> is not an integer of at least -1.",
    why="OpenVINO parses each <dim> as a 64-bit integer and fails the whole file on anything else. "
    "'?' is valid in a Parameter's shape attribute but not in a <dim>.",
    fix="Write the dimension as an integer; -1 for a dynamic dimension.",
    example="<dim>?</dim>",
)
DIM_LENIENT = _rule(
    "IRS010",
    "dim-lenient",
    WARNING,
    "<dim> {text!r} is read by OpenVINO as {value}",
    summary="A port <dim> with text after its number.",
    why="OpenVINO reads the leading integer of a <dim> and drops the rest ('3.5' is 3, '1..5' is 1).",
    fix="Write the dimension as a plain integer.",
)
FILE_UNREADABLE = _rule(
    "IRS012",
    "file-unreadable",
    ERROR,
    "cannot read the file: {reason}",
    summary="The file cannot be opened or read (missing, a directory, no permission).",
    why="Nothing of a file that cannot be read can be checked; OpenVINO cannot read it either.",
    fix="Check the path and the file's permissions.",
    example="check_file('models/missing.xml')",
)
SHAPE_LITERAL = _rule(
    "IRS011",
    "shape-literal",
    WARNING,
    "Parameter shape {text!r}: OpenVINO reads the dimension {literal!r} as {reading}",
    summary="A Parameter shape dimension OpenVINO reads other than it is written.",
    why="OpenVINO's dimension parser clips and wraps instead of failing: an interval whose upper "
    "bound is below its lower one ('3..-1', '5..2') and 9223372036854775807 become an empty "
    "interval that prints as '?' yet matches no size, negatives below -1 become 0, and numbers "
    "beyond 64 bits become 0 (or the open bound of an interval).",
    fix="Write -1 or ? for a dynamic dimension, lo..hi with lo <= hi for an interval.",
    example='<data shape="1,3..-1,224,224" element_type="f32"/>',
)
SHAPE_SYNTAX = _rule(
    "IRS006",
    "shape-syntax",
    ERROR,
    "{layer_type} attribute {attribute}={text!r} cannot be parsed: {reason}",
    summary="A Parameter or Const shape attribute cannot be parsed.",
    why="OpenVINO fails to read the file when a shape attribute is not in its dimension syntax.",
    fix="Use OpenVINO's syntax: '1,3,224,224', '?' or -1 for dynamic, '2..10' for an interval, "
    "'...' for dynamic rank.",
    example='<data shape="1,3,x,224"/>',
)
LAYER_ATTRIBUTE_MISSING = _rule(
    "IRS007",
    "layer-attribute-missing",
    ERROR,
    "<layer> has no {attribute!r} attribute; OpenVINO rejects the file "
    "('node <layer> is missing mandatory attribute: {attribute}')",
    summary="A <layer> in a <net> lacks id, name, type or version.",
    why="OpenVINO requires all four attributes on every layer of an IR document, including layers "
    "no Result reaches: it reads them all before it builds anything.",
    fix='Add the attribute (version is the opset, e.g. version="opset1").',
)
OUTPUT_SHAPE_UNKNOWN = _rule(
    "IRS008",
    "output-shape-unknown",
    INFO,
    "the value of the output_shape input is not known here ({reason}); spatial output dims not checked",
    summary="The value of a backprop op's output_shape input cannot be read.",
    why="The spatial output dims of ConvolutionBackpropData and GroupConvolutionBackpropData are "
    "the value of their output_shape input. irshape reads it from a Const in the .bin file; in a "
    "fragment, without the .bin, or from a computed input, the value is unknown.",
    fix="Nothing to fix; check the whole IR with its .bin to have the spatial dims checked.",
)
WEIGHTS_UNREADABLE = _rule(
    "IRS009",
    "weights-unreadable",
    INFO,
    "{reason}",
    summary="The .bin file next to the IR is missing or empty (one finding per file).",
    why="irshape reads Const sizes and values (the backprop ops' output_shape) from <stem>.bin. "
    "OpenVINO fails to load an IR with Consts whose .bin is missing ('Empty weights data in bin "
    "file or bin file cannot be found!') or empty; irshape checks everything else and says once "
    "what it could not check.",
    fix="Keep the .bin next to the .xml with the same stem.",
)

RT_INFO_DUPLICATE = _rule(
    "IRS020",
    "rt-info-duplicate",
    ERROR,
    "{owner}'s <rt_info> gives the runtime attribute {name!r} (version 0) again (first {first}); "
    "OpenVINO rejects the file ('multiple rt_info attributes are detected: {name}')",
    summary="A runtime attribute OpenVINO knows, given twice in one <rt_info>.",
    why="In IR v11 OpenVINO reads each <attribute name=... version=...> of a layer's or port's "
    "<rt_info> that names a runtime attribute it knows (fused_names, old_api_map_order, "
    "old_api_map_element_type, layout, decompression, precise, primitives_priority, "
    "memory_type, preprocessing: version 0) into the node's runtime info, and fails when one "
    "comes twice. A layer's <data PrimitivesPriority=...> gives it primitives_priority before "
    "its <rt_info> is read. Unknown names and versions, and <user_data>, are skipped, however "
    "often they come; IR v10 does not read <rt_info>.",
    fix="Keep one <attribute> of each name in an <rt_info>; merge their values (fused_names "
    "takes a comma-separated list).",
    example='<attribute name="fused_names" version="0" value="a"/>'
    '<attribute name="fused_names" version="0" value="b"/>',
)
RT_INFO_VALUE = _rule(
    "IRS021",
    "rt-info-value",
    ERROR,
    "{owner}'s <rt_info> attribute {name!r}: {key}={text!r} {problem}; OpenVINO rejects the file "
    "('{ov_message}')",
    summary="A runtime attribute whose value OpenVINO cannot parse.",
    why="OpenVINO parses the values of the runtime attributes it knows when it reads the layer (IR "
    "v11): fused_names as comma-separated names (none empty or blank), old_api_map_order as "
    "comma-separated unsigned integers, old_api_map_element_type as an element type name, and "
    "a layout in ov::Layout's grammar ('NCHW', 'N...C', '[N,C,H,W]', '[N,...]', '**SCALAR**': "
    "letters, digits and _, each dimension named once, '?' for an unnamed one). A value it "
    "cannot parse fails the file.",
    fix="Write the value in the attribute's grammar, or drop the attribute (it only annotates the model).",
    example='<attribute name="layout" version="0" layout="[N,C"/>',
)
RT_INFO_UNREADABLE = _rule(
    "IRS022",
    "rt-info-unreadable",
    ERROR,
    "{owner}'s <rt_info> attribute {name!r} (version 0) is a runtime attribute OpenVINO cannot "
    "read from an IR; it rejects the file ('VisitAttributes is not supported for: attribute attribute')",
    summary="A runtime attribute OpenVINO knows but cannot read back from an IR.",
    why="DisableConstantFolding, nms_selected_indices and strides_propagation are runtime "
    "attributes OpenVINO's reader creates by name, but they have no serialized form: reading one "
    "(version 0) fails the file. OpenVINO never writes them.",
    fix="Remove the <attribute>.",
    example='<attribute name="DisableConstantFolding" version="0"/>',
)
PRE_PROCESS_INVALID = _rule(
    "IRS023",
    "pre-process-invalid",
    ERROR,
    "<pre-process> {problem}; OpenVINO rejects the file ('{ov_message}')",
    summary="A legacy <pre-process> block OpenVINO cannot apply.",
    why="OpenVINO still applies an IR's <pre-process> (the mean values of IR v10, in v10 and v11 "
    "alike) after it builds the model: it subtracts the means from the Parameter that "
    "reference-layer-name names (by default the first Parameter of rank 4), which must have a "
    "static shape of rank 2 to 5; each <channel>'s first <mean> gives a value, or an offset and "
    "a size in the .bin; one mean per channel of the Parameter (axis 1, axis 0 for rank 3), ids "
    "below the channel count, all of one kind.",
    fix="Name the Parameter the means apply to, give one <channel id=...><mean .../></channel> per "
    "channel, or drop the block and subtract the means in the model.",
    example='<pre-process reference-layer-name="missing">'
    '<channel id="0"><mean value="1"/></channel></pre-process>',
)
PRE_PROCESS_MEAN_BYTES = _rule(
    "IRS024",
    "pre-process-mean-bytes",
    ERROR,
    "<pre-process> channel {channel} mean {problem}",
    summary="A <pre-process> mean whose bytes in the .bin OpenVINO cannot read.",
    why="A <mean offset=... size=...> is the channel's mean image in the .bin, one value of the "
    "Parameter's element type per pixel of a channel (H x W for an NCHW Parameter): OpenVINO "
    "fails on another size, on bytes past the end of the .bin, and on any for a sub-byte type "
    "(it reads a byte a pixel, then packs them), and read_model dies (a "
    "segmentation fault) when there is no .bin at all, or when two means share a channel id and "
    "leave another channel without one.",
    fix="Keep the .bin next to the .xml; give each channel one mean of H x W values inside it.",
    example='<channel id="0"><mean offset="0" size="16"/></channel>',
)
META_DATA_LEGACY = _rule(
    "IRS025",
    "meta-data-legacy",
    ERROR,
    "<meta_data> holds {what} without a value attribute; OpenVINO reads <meta_data> (the <net> has no "
    "<rt_info>) and rejects the file ('Unsupported legacy argument: {tag}')",
    summary="A legacy <meta_data> entry OpenVINO cannot read.",
    why="Without a <rt_info> of the <net>, OpenVINO reads the legacy <meta_data> into the model's "
    "runtime info: each child must be <cli_parameters> or have a value attribute (<MO_version "
    'value="..."/>); any other child, or text, fails the file. With a <rt_info> the <meta_data> is '
    "not read at all, and the <net>'s <rt_info> itself is free-form (nothing in it is checked).",
    fix="Give the entry a value attribute, or move the metadata into the <net>'s <rt_info> "
    '(<info name="..." value="..."/>), as ov.save_model writes it.',
    example="<meta_data><MO_version/></meta_data>",
)

RT_INFO_LAYOUT_SHAPE = _rule(
    "IRS026",
    "rt-info-layout-shape",
    ERROR,
    "{owner}'s <rt_info> layout {layout} does not fit {subject}, of shape {shape}: {why}; OpenVINO "
    "rejects the file ('{ov_message}')",
    summary="A port's runtime layout of another rank than a shape OpenVINO checks it against.",
    why="OpenVINO compares a layout's rank with a shape in two places only (ov::layout::utils::"
    "is_compatible: the rank the layout names, at least that many dimensions with a '...'): "
    "Model::validate_nodes_and_infer_types checks each Result's layout (the layout of the output "
    "port it reads, whose tensor the Result shares), and Parameter::set_partial_shape checks a "
    "Parameter's. A Loop, If or TensorIterator sets the shapes of the body Parameters it binds "
    "whenever it is built, and a Loop or If validates its bodies as models (a TensorIterator "
    "revalidates their layers one by one, which checks no Result's layout), so a body fails on "
    "either. The model itself is validated by read_model only after a pass changed it: the IR "
    "reader's ConvertLegacyPrecisionAttribute does when some layer (or body layer) carries the "
    "runtime attribute 'precise' (DisableFP16Compression), so a top-level Result's layout is "
    "checked in such a model only, and a top-level Parameter's never.",
    fix="Give the port the layout of its shape's rank (or one with '...'), or drop the attribute.",
    example='<attribute name="layout" version="0" layout="NC"/>',
)

# --- IRS1xx: layer attributes --------------------------------------------------------------

ATTRIBUTE_MISSING = _rule(
    "IRS101",
    "attribute-missing",
    WARNING,
    "attribute {attribute!r} is missing; OpenVINO assumes {assumed}",
    summary="A strides, pads or dilations attribute is not written.",
    why="The spec marks these attributes as required, but OpenVINO silently defaults them "
    "(strides and dilations to 1, pads to 0). A missing attribute is usually a converter bug.",
    fix='Write the attribute explicitly, e.g. strides="1,1".',
)
ATTRIBUTE_UNKNOWN = _rule(
    "IRS102",
    "attribute-unknown",
    WARNING,
    "attribute {attribute!r} is not an attribute of {op}; OpenVINO ignores it",
    summary="The <data> element has an attribute the op does not have.",
    why="OpenVINO silently ignores unknown attributes, so a misspelt attribute has no effect.",
    fix="Remove it, or correct its spelling.",
)
ATTRIBUTE_LEGACY = _rule(
    "IRS103",
    "attribute-legacy",
    WARNING,
    "attribute {attribute}={value!r} comes from the 2020 spec revision and OpenVINO ignores it{consequence}",
    summary="A groups, data_format or filter_format attribute (2020 spec revision).",
    why="These attributes were never part of OpenVINO's ConvolutionBackpropData-1; OpenVINO ignores "
    "them and always reads data as channels-first (NCX) and kernels as [C_IN, C_OUT, X...].",
    fix="Remove the attribute; transpose NXC data to NCX before the layer if needed.",
    example='<data data_format="NXC" .../>',
)
ATTRIBUTE_SYNTAX = _rule(
    "IRS104",
    "attribute-syntax",
    ERROR,
    "attribute {attribute}={text!r} cannot be parsed: {reason}; OpenVINO rejects the file",
    summary="An attribute value OpenVINO cannot parse.",
    why="OpenVINO fails to read the file ('Cannot parse ...' or 'Cannot get vector of parameters').",
    fix='Write integer lists as comma-separated integers: strides="2,2".',
    example='strides="2,,2"',
)
ATTRIBUTE_LENIENT = _rule(
    "IRS105",
    "attribute-lenient",
    WARNING,
    "attribute {attribute}={text!r}: OpenVINO reads {read} ({reason})",
    summary="OpenVINO reads an attribute as something other than what is written.",
    why="OpenVINO's list parser drops whatever follows a number in each comma-separated field, so "
    "'2 2' is read as [2] and '2.5' as 2; a boolean that is not true, false, 1 or 0 (in any case) "
    "keeps the op's default, so keep_dims='yes' is false.",
    fix="Write comma-separated integers, and booleans as true or false.",
    example='strides="2 2"',
)
ATTRIBUTE_LENGTH = _rule(
    "IRS106",
    "attribute-length",
    ERROR,
    "attribute {attribute}={text!r} has {length} value(s) for {spatial} spatial axes; "
    "OpenVINO rejects the layer ('{ov_message}')",
    summary="A list attribute's length is not the number of spatial axes.",
    why="strides, dilations, pads_begin, pads_end and output_padding need one value per spatial axis "
    "(checked even when auto_pad makes the pads unused).",
    fix="Give one value per spatial axis (2 for a 2D convolution).",
)
AUTO_PAD_VALUE = _rule(
    "IRS107",
    "auto-pad-value",
    ERROR,
    "auto_pad={value!r} is not a value OpenVINO accepts; it rejects the layer "
    "('\"{value}\" is not a member of enum ov::op::PadType'){hint}",
    summary="auto_pad is not explicit, same_upper, same_lower or valid.",
    why="OpenVINO accepts exactly these four values (case-insensitive). 'None' and 'notset', the "
    "default in some spec revisions, are rejected; a missing auto_pad means explicit.",
    fix='Use auto_pad="explicit" (or leave it out) for explicit pads.',
    example='auto_pad="None"',
)
ZERO_STRIDE = _rule(
    "IRS108",
    "zero-stride",
    ERROR,
    "attribute {attribute}={text!r} has a zero; OpenVINO rejects the layer ('{ov_message}')",
    summary="A stride or dilation is 0.",
    why="OpenVINO rejects zero strides and dilations.",
    fix="Strides and dilations are at least 1.",
)
NEGATIVE_STRIDE = _rule(
    "IRS109",
    "negative-stride",
    ERROR,
    "attribute {attribute}={text!r} has a negative value; OpenVINO reads it as an unsigned "
    "number ({unsigned}) and computes a meaningless shape",
    summary="A stride or dilation is negative.",
    why="OpenVINO parses strides and dilations into unsigned integers without a check, so -1 "
    "becomes 18446744073709551615.",
    fix="Strides and dilations are at least 1.",
)
NEGATIVE_PADS = _rule(
    "IRS110",
    "negative-pads",
    WARNING,
    "pads_begin + pads_end = {total} on spatial axis {axis_index}: OpenVINO {effect}",
    summary="Negative forward pads that OpenVINO does not apply as written.",
    why="OpenVINO adds pads_begin + pads_end to the input as a dimension: a sum of -1 becomes a "
    "dynamic dimension and any sum below -1 becomes 0, so the pads are ignored.",
    fix="Crop the input with a Slice before the convolution instead of negative pads.",
)
PADS_IGNORED = _rule(
    "IRS111",
    "pads-ignored",
    INFO,
    "pads_begin={begin!r} pads_end={end!r} are ignored: auto_pad={auto_pad!r} {how}",
    summary="Non-zero pads that OpenVINO ignores because of auto_pad.",
    why="With auto_pad valid, same_upper or same_lower OpenVINO ignores pads_begin and pads_end "
    "(it still checks their lengths); ov.save_model writes them as zeros.",
    fix='Write zeros, or use auto_pad="explicit" if the pads are meant.',
)

ATTRIBUTE_VALUE = _rule(
    "IRS112",
    "attribute-value",
    ERROR,
    "attribute {attribute}={value!r} of {op} {problem}; OpenVINO rejects the layer ('{ov_message}')",
    summary="An attribute value outside what the op accepts (an enum's names, a value range).",
    why="OpenVINO validates each op's attributes when it builds the layer and rejects the file "
    "when one is out of its range or not one of the enum's names.",
    fix="Write one of the values the message lists (irshape rule IRS112; the op's spec lists them).",
    example='<data mode="half_up"/> on Round-5',
)

# --- IRS2xx: layer inputs ------------------------------------------------------------------

INPUT_COUNT = _rule(
    "IRS201",
    "input-count",
    ERROR,
    "{op} takes {expected_count} inputs; the layer has {count}{consequence}",
    summary="The layer has the wrong number of input ports.",
    why="Each op takes a fixed number of inputs (the forward convolutions data and kernel; the "
    "backprop ops data, kernel and optionally output_shape). OpenVINO fails on fewer; on more, "
    "IR v11 fails ('node index is out of range') and IR v10 fails where the op counts its inputs "
    "itself, and otherwise builds the op from its first inputs.",
    fix="Declare one <port> per input in <input>.",
)
DATA_RANK = _rule(
    "IRS202",
    "data-rank",
    ERROR,
    "data input has rank {rank} {shape}; {op} takes rank 3, 4 or 5 (1D, 2D, 3D){consequence}",
    summary="The data input's rank is not 3, 4 or 5.",
    why="OpenVINO's convolutions are 1D, 2D or 3D: data [N, C, spatial...] of rank 3 to 5.",
    fix="Reshape the data to [N, C, spatial...].",
)
KERNEL_RANK = _rule(
    "IRS203",
    "kernel-rank",
    ERROR,
    "kernel input has rank {rank} {kernel}; with data {data} (rank {data_rank}) {op} needs "
    "kernel rank {expected_rank} ({layout}); OpenVINO rejects the layer ('{ov_message}')",
    summary="The kernel's rank does not match the data's.",
    why="The kernel has the data's spatial axes plus two ([C_OUT, C_IN] or [C_IN, C_OUT]) or, for "
    "the group ops, three ([GROUPS, ...]) leading axes.",
    fix="Check the kernel layout; a group op's kernel has a leading GROUPS axis.",
)
ELEMENT_TYPE_MISMATCH = _rule(
    "IRS204",
    "element-type-mismatch",
    ERROR,
    "data element type {data} and kernel element type {kernel} differ; OpenVINO rejects the "
    "layer ('Element types for data batch and filters do not match')",
    summary="Data and kernel have different element types.",
    why="OpenVINO requires equal element types for data and kernel (or one dynamic).",
    fix="Insert a Convert so both have the same type.",
)
ELEMENT_TYPE_NOT_NUMERIC = _rule(
    "IRS205",
    "element-type-not-numeric",
    ERROR,
    "element type {element_type} is not numeric; OpenVINO rejects the layer",
    summary="Data and kernel are boolean.",
    why="OpenVINO requires a numeric element type (every type but boolean).",
    fix="Convert the inputs to a numeric type.",
)
OUTPUT_SHAPE_INPUT = _rule(
    "IRS206",
    "output-shape-input",
    ERROR,
    "output_shape input {problem}; OpenVINO rejects the layer ('{ov_message}')",
    summary="The output_shape input has the wrong rank, length or element type.",
    why="output_shape is a 1D integer tensor with one value per spatial axis.",
    fix="Give output_shape as a 1D i64 Const with one value per spatial axis.",
)
OUTPUT_SHAPE_NEGATIVE = _rule(
    "IRS207",
    "output-shape-negative",
    ERROR,
    "output_shape value {value} has a negative entry; OpenVINO rejects the layer "
    "('Value for partial shape evaluation can't be lower than zero.')",
    summary="The output_shape input holds a negative value.",
    why="Output sizes cannot be negative.",
    fix="Correct the output_shape Const.",
)
CHANNEL_MISMATCH = _rule(
    "IRS208",
    "channel-mismatch",
    ERROR,
    "data has {data_channels} channels but the kernel {kernel_axis} expects {kernel_channels}; "
    "OpenVINO rejects the layer ('Data batch channel count ({data_channels}) does not match "
    "filter input channel count ({kernel_channels}).')",
    summary="The data's channel count does not match the kernel's input channels.",
    why="Convolution's kernel is [C_OUT, C_IN, ...] and ConvolutionBackpropData's is "
    "[C_IN, C_OUT, ...]; C_IN must equal the data's channel dim.",
    fix="Check the kernel layout and the producer of the data.",
)
GROUP_MISMATCH = _rule(
    "IRS209",
    "group-mismatch",
    ERROR,
    "data has {data_channels} channels, which is not GROUPS x C_IN = {groups} x {per_group}; "
    "OpenVINO rejects the layer ('Input channels dimension of data batch is incompatible with "
    "filter groups or input channels.')",
    summary="The data's channels are not the kernel's GROUPS times its per-group input channels.",
    why="A group op splits the data channels into GROUPS equal parts of C_IN channels each.",
    fix="Check the kernel layout: GroupConvolution [GROUPS, C_OUT, C_IN, ...], "
    "GroupConvolutionBackpropData [GROUPS, C_IN, C_OUT, ...].",
)
KERNEL_TOO_LARGE = _rule(
    "IRS210",
    "kernel-too-large",
    ERROR,
    "spatial axis {axis_index}: the dilated kernel ({dilated} = ({kernel}-1)*{dilation}+1) is "
    "larger than the padded input ({padded} = {data} + {pads}); OpenVINO rejects the layer",
    summary="The dilated kernel does not fit in the padded input.",
    why="With explicit or valid padding the output would have no elements.",
    fix="Pad the input more, or use a smaller kernel or dilation.",
)

INPUT_RANK = _rule(
    "IRS211",
    "input-rank",
    ERROR,
    "input {input_index} ({input}) has rank {rank} {shape}, {expected}; OpenVINO rejects the layer "
    "('{ov_message}')",
    summary="An input's rank is not one the op accepts.",
    why="Each op accepts its inputs in certain ranks only (a scalar axis, a 1D shape, data of at "
    "least rank 2...); OpenVINO rejects the layer when it builds it.",
    fix="Feed the input a tensor of the rank the message names (the op's spec lists them).",
)
INPUTS_INCOMPATIBLE = _rule(
    "IRS212",
    "inputs-incompatible",
    ERROR,
    "{problem}; OpenVINO rejects the layer ('{ov_message}')",
    summary="Input shapes the op cannot combine (axes that do not broadcast, sizes that differ).",
    why="OpenVINO checks that the inputs' shapes agree where the op needs them to (broadcast axes, "
    "a concatenation's other axes, a MatMul's inner dims) and rejects the layer otherwise.",
    fix="Correct the shape of one of the inputs the message names.",
)
INPUT_ELEMENT_TYPE = _rule(
    "IRS213",
    "input-element-type",
    ERROR,
    "{problem}; OpenVINO rejects the layer ('{ov_message}')",
    summary="An input's element type is not one the op accepts, or differs from another input's.",
    why="Ops constrain their inputs' element types (integer axes, equal data types, boolean "
    "conditions); OpenVINO rejects the layer when they do not hold.",
    fix="Convert the input to the element type the message names.",
)
INPUT_VALUE = _rule(
    "IRS214",
    "input-value",
    ERROR,
    "{problem}; OpenVINO rejects the layer ('{ov_message}')",
    summary="A constant input's value the op rejects (an axis out of range, a shape it cannot reshape to).",
    why="Where an input's value decides the output (axes, target shapes, pads, indices), OpenVINO "
    "validates it when it builds the layer.",
    fix="Correct the value of the Const that feeds the input.",
)

BODY_INVALID = _rule(
    "IRS215",
    "body-invalid",
    ERROR,
    "{problem}; OpenVINO rejects the layer ('{ov_message}')",
    summary="A Loop, If or TensorIterator whose port map, back edges or bodies OpenVINO rejects.",
    why="OpenVINO joins the outer inputs and outputs to the body Parameters and Results by the "
    "port map when it reads the layer, and validates the op's iteration inputs and its branches' "
    "outputs when it builds it.",
    fix="Make the port map name the body's Parameters and Results, and the inputs and outputs agree with it.",
)

# --- IRS3xx: output shapes -----------------------------------------------------------------

DECLARED_DIM_MISMATCH = _rule(
    "IRS301",
    "declared-dim-mismatch",
    ERROR,
    "output port {port} axis {axis}: declared {declared}, inferred {inferred}{arithmetic}; "
    "OpenVINO ignores declared dims and will use {inferred}",
    summary="A declared output <dim> differs from the inferred one.",
    why="OpenVINO ignores the declared dims of an op's output and silently re-infers them, so a "
    "wrong <dim> in the file hides a bug in whatever wrote it, and tools that trust the "
    "declared dims get it wrong.",
    fix="Write the inferred value (irshape infer prints every output shape).",
    example="<dim>448</dim> where 2*(224-1) + (3-1)*1+1 - 1 - 1 + 0 = 447",
)
DECLARED_RANK_MISMATCH = _rule(
    "IRS302",
    "declared-rank-mismatch",
    ERROR,
    "output port {port}: declared {declared} (rank {declared_rank}), inferred {inferred} "
    "(rank {inferred_rank}); OpenVINO ignores declared dims and will use {inferred}",
    summary="The declared output rank differs from the inferred one.",
    why="OpenVINO ignores declared output dims; the file describes a different tensor from the "
    "one OpenVINO computes.",
    fix="Write the inferred shape.",
)
OUTPUT_DIM_DYNAMIC = _rule(
    "IRS303",
    "output-dim-dynamic",
    WARNING,
    "spatial axis {axis_index}: {formula} = {value} < 0, so OpenVINO makes the output dim "
    "dynamic ('?') instead of failing",
    summary="Pads or output_padding crop a backprop output below zero.",
    why="OpenVINO turns a negative backprop output size into a dynamic dimension rather than an "
    "error; the model fails later, at compile or run time.",
    fix="Reduce pads_begin/pads_end or raise output_padding.",
)
OUTPUT_PORT_MISSING = _rule(
    "IRS304",
    "output-port-missing",
    WARNING,
    "the layer declares no output port; its output shape is {inferred}",
    summary="A known op without an <output><port>.",
    why="OpenVINO infers the output anyway, but no edge can leave the layer and declared shapes "
    "cannot be compared.",
    fix="Declare the output port with its dims.",
)
DYNAMIC_RANK_OUTPUT = _rule(
    "IRS305",
    "dynamic-rank-output",
    WARNING,
    "OpenVINO infers an output of {what} here{why}; declared dims are not checked",
    summary="OpenVINO cannot determine the output rank.",
    why="With unknown input ranks and no list attributes, or a non-constant output_shape of "
    "unknown length, OpenVINO gives the output a dynamic or truncated rank.",
    fix="Give the inputs static ranks, or the output_shape input a static length.",
)

VALUE_UNKNOWN = _rule(
    "IRS306",
    "value-unknown",
    INFO,
    "the value of input {input_index} ({input}) is not known ({reason}), so {consequence}",
    summary="An input whose value decides the output shape is not a value irshape can compute.",
    why="Reshape's target, axes, pads, indices and the like decide output dims. Where the value "
    "comes from a Const or a shape subgraph irshape computes it; otherwise the dims it decides are "
    "left as OpenVINO leaves them when it cannot fold the value, or unknown.",
    fix="Nothing to fix in most files; a Const in place of a computed value lets irshape check more.",
)

OUTPUT_PORT_EXTRA = _rule(
    "IRS307",
    "output-port-extra",
    ERROR,
    "the layer declares {declared} output ports; {op} has {count}{consequence}",
    summary="A layer declares more output ports than its op has.",
    why="IR v11 sets each declared output port's runtime info on the op's output of that index and "
    "fails on a port past the op's last output ('node index is out of range'); IR v10 ignores such "
    "a port, unless an edge leaves it (the op has no output to give it).",
    fix="Remove the extra <port> (or check the layer's type: a MaxPool-8 retyped MaxPool-1 loses "
    "its indices output).",
    example='<layer type="Relu" ...><output><port id="1"/><port id="2"/></output></layer>',
)

OP_NOT_INFERRED = _rule(
    "IRS308",
    "op-not-inferred",
    INFO,
    "irshape does not infer {op} yet: it carries the layer's declared output dims on, where "
    "OpenVINO computes them, and checks the layers it feeds from those",
    summary="A layer of an OpenVINO op that irshape has no shape function for.",
    why="OpenVINO computes every layer's outputs. irshape infers the ops docs/ops.md lists, every "
    "op version of OpenVINO 2026.4's opsets; for an op version a newer OpenVINO adds, until "
    "irshape declares it, it can only take the declared dims, so a wrong one there goes unseen "
    "and the layers below are checked against it.",
    fix="Nothing to fix in the file; docs/ops.md lists the ops irshape infers.",
    example='<layer type="Multinomial" version="opset13"> ... </layer> (with its declaration removed)',
)


# --- IRS5xx: dry runs -----------------------------------------------------------------------

DRY_RUN_SHAPE_MISMATCH = _rule(
    "IRS501",
    "dry-run-shape-mismatch",
    ERROR,
    "the dry run produced an output of shape {produced}, but the port declares {declared}",
    summary="Running the layer with numpy gives a shape other than the declared one.",
    why="The dry run executes the layer on random data at the declared input shapes; its output "
    "shape is what any runtime computes, whatever the declared dims say.",
    fix="Write the produced shape into the output port's dims.",
)
DRY_RUN_SKIPPED = _rule(
    "IRS502",
    "dry-run-skipped",
    INFO,
    "not run: {reason}",
    summary="A layer the dry run could not execute (the layers below it are not run either).",
    why="A dry run needs static input shapes (dynamic dims need a size from --dim-value), the "
    "values of the Consts (the .bin) and a kernel for the op; a layer without one of them is not "
    "run, and the layers that take its outputs are counted as not executed in the summary.",
    fix="Give --dim-value N to run dynamic dims at size N; keep the .bin beside the .xml.",
)
DRY_RUN_MEMORY = _rule(
    "IRS503",
    "dry-run-memory",
    INFO,
    "not run: it would need about {needed} of working memory, over the --max-memory limit of {limit}",
    summary="A layer too large for the dry run's memory limit.",
    why="The dry run estimates a layer's working memory before it allocates anything and skips the "
    "layers over the limit, so that a large layer cannot exhaust the machine.",
    fix="Raise --max-memory if the machine has the memory.",
)
DRY_RUN_FAILED = _rule(
    "IRS504",
    "dry-run-failed",
    WARNING,
    "the dry run could not execute the layer: {reason}",
    summary="The numpy kernel refused the layer.",
    why="Some attribute combinations OpenVINO's shape inference accepts cannot be executed, e.g. "
    "negative pads_begin, which OpenVINO's CPU plugin refuses as well.",
    fix="See the reason; usually the pads.",
)
DRY_RUN_DISAGREES = _rule(
    "IRS505",
    "dry-run-disagrees",
    WARNING,
    "{reason}",
    summary="irshape's kernel produced another output than irshape's own shape inference: a bug in irshape.",
    why="The dry run checks each executed output against the shape and element type irshape infers "
    "at the same inputs. The two are written from OpenVINO's rules independently; when they "
    "disagree, one of them is wrong, and the finding says nothing about the file.",
    fix="Please report it with the file (or the layer) that shows it.",
)


# --- IRS4xx: the graph ---------------------------------------------------------------------

LAYER_ID_DUPLICATE = _rule(
    "IRS401",
    "layer-id-duplicate",
    WARNING,
    "layer id {id!r} is also the id of the layer on line {kept_line}, which OpenVINO keeps (the "
    "last <layer> with an id): {consequence}",
    summary="Two <layer> elements have the same id.",
    why="OpenVINO stores layers by id: the last layer with an id replaces the earlier ones, which "
    "are never built, and every edge naming the id reaches it. The file may still load, as another "
    "model than its writer meant; an error where OpenVINO fails (a Parameter replaced by a layer "
    "with inputs: 'Attempt to access node ... that not in graph.'). irshape checks the graph "
    "OpenVINO builds, with the kept layer.",
    fix="Give every layer its own id and renumber the edges.",
)
ID_SYNTAX = _rule(
    "IRS402",
    "id-syntax",
    ERROR,
    "{what} {problem}; OpenVINO rejects the file ('{ov_message}')",
    summary="A layer, port or edge id is missing or not an unsigned integer.",
    why="OpenVINO reads layer ids, port ids and the four edge attributes as unsigned 64-bit "
    "integers, for every layer and edge of the file, and fails on anything else.",
    fix='Write ids as plain non-negative integers: <edge from-layer="0" from-port="0" ...>.',
    example='<port id="a">',
)
OPSET_UNSUPPORTED = _rule(
    "IRS403",
    "opset-unsupported",
    ERROR,
    "version {version!r} {problem}; OpenVINO rejects the layer ('{ov_message}')",
    summary="The layer's version is not an opset OpenVINO has, or that opset lacks the op.",
    why="OpenVINO looks the op up in the opset the version attribute names, exactly as written "
    "(opset1 ... opset17; case-sensitive). The convolutions are in opset1 to opset16; opset17 "
    "holds only a few ops.",
    fix='Use an opset that has the op, e.g. version="opset1" for the convolutions.',
    example='<layer type="Convolution" version="Opset1">',
)
OP_TYPE_UNKNOWN = _rule(
    "IRS404",
    "op-type-unknown",
    ERROR,
    "type {type!r} is in no opset of OpenVINO 2026.4; read_model fails ('{ov_message}'){unless}",
    summary="The layer's type is not an op of any OpenVINO opset.",
    why="OpenVINO builds a layer from the op its opset (version) names. In one of OpenVINO's own "
    "opsets (opset1 ... opset17) an unknown type, a misspelling or an op of a later opset, fails "
    "the file: an error. An op whose version names an opset of its own needs a custom extension "
    "(core.add_extension): an info, as irshape cannot know whether the extension is loaded.",
    fix="Check the spelling of the type (it is matched case-insensitively), or load the extension.",
)
PRECISION_INVALID = _rule(
    "IRS405",
    "precision-invalid",
    ERROR,
    "output port {port} precision {problem}; OpenVINO rejects the file ('{ov_message}'){hint}",
    summary="An output port has no precision, or one OpenVINO does not know.",
    why="OpenVINO reads every output port's precision, in every layer, reached or not, and fails "
    "on a missing or unknown name. Precision names are FP32, FP16, I64, BOOL ... or f32, f16, "
    "i64, boolean ...; F32 and fp32 are not precisions.",
    fix='Write a precision name, e.g. precision="FP32".',
    example='<port id="2" precision="F32">',
)
EDGE_LAYER_MISSING = _rule(
    "IRS406",
    "edge-layer-missing",
    ERROR,
    "edge {edge}: no layer has id {id}; {consequence}",
    summary="An edge names a layer that does not exist.",
    why="An edge from a missing layer makes OpenVINO fail when it builds the consumer; an edge "
    "to a missing layer is silently ignored. Either way the graph is not what the file meant.",
    fix="Correct the edge's from-layer or to-layer, or remove the edge.",
)
EDGE_PORT_MISSING = _rule(
    "IRS407",
    "edge-port-missing",
    ERROR,
    "edge {edge}: {layer} has no {direction} port with id {port_id}; OpenVINO rejects the "
    "file ('Can not find {direction} port with id {port_id} in layer {layer_name}')",
    summary="An edge names a port id the layer does not declare.",
    why="OpenVINO looks a to-port up among the consumer's <input> ports and a from-port among the "
    "producer's <output> ports; an id that is not there fails the file.",
    fix="Point the edge at a declared port, or declare the port.",
)
EDGE_DUPLICATE_INPUT = _rule(
    "IRS408",
    "edge-duplicate-input",
    ERROR,
    "edge {edge} feeds input port {port}, which the edge on line {first_line} already feeds; "
    "OpenVINO rejects the file ('... has incorrect input with index ...!')",
    summary="Two edges go into the same input port.",
    why="An input port takes one tensor. OpenVINO counts one input per edge, so the extra edge "
    "leaves an input slot empty and the layer fails.",
    fix="Remove one of the edges, or route it to another port.",
)
INPUT_UNCONNECTED = _rule(
    "IRS409",
    "input-unconnected",
    ERROR,
    "input port {port} has no edge; {consequence}",
    summary="A declared input port that no edge feeds.",
    why="IR v11 fails on a declared input port without an edge ('node index is out of range'), "
    "except an optional last input the op supplies a default for itself (Slice's axes, Pad's "
    "pad_value). IR v10 builds the layer with only its connected inputs: an unconnected last port "
    "is silently dropped (a backprop op loses its output_shape input), a gap fails the file.",
    fix="Add the missing edge, or remove the port declaration.",
)
GRAPH_CYCLE = _rule(
    "IRS410",
    "graph-cycle",
    ERROR,
    "{names} form a cycle; OpenVINO rejects the file ('Attempt to access node ... that not in graph.')",
    summary="The edges form a cycle.",
    why="An IR is an acyclic graph; OpenVINO builds each layer after its producers and cannot "
    "build a layer that feeds itself.",
    fix="Remove the edge that closes the cycle (loops belong in a Loop or TensorIterator body).",
)
EDGE_DIMS_MISMATCH = _rule(
    "IRS411",
    "edge-dims-mismatch",
    ERROR,
    "input port {port} declares {declared} but the edge from {producer} port {from_port} "
    "carries {produced}; {consequence}",
    summary="An input port's dims differ from the dims of the output port that feeds it.",
    why="Both ends of an edge describe the same tensor. OpenVINO ignores input port dims, so the "
    "file contradicts itself silently, and tools that read the dims get it wrong.",
    fix="Write the same dims on both ends (-1 for a dynamic dim).",
)
EDGE_PRECISION_MISMATCH = _rule(
    "IRS412",
    "edge-precision-mismatch",
    WARNING,
    "input port {port} precision {declared} but {producer} port {from_port} produces "
    "{produced}; OpenVINO ignores input port precisions",
    summary="An input port's precision differs from the precision of the port that feeds it.",
    why="Both ends of an edge describe the same tensor; a different precision usually means a "
    "missing Convert. OpenVINO never reads input port precisions.",
    fix="Write the producer's precision on the input port, or insert a Convert.",
)
DATA_MISSING = _rule(
    "IRS413",
    "data-missing",
    ERROR,
    "{layer_type} layer has no <data> element; OpenVINO rejects the file ('{ov_message}')",
    summary="A Parameter or Const without <data>.",
    why="A Parameter's shape and element_type and a Const's element_type, shape, offset and size "
    "live in <data>; OpenVINO fails without it.",
    fix='Add <data shape="..." element_type="..."/> (and offset, size for a Const).',
)
ELEMENT_TYPE_INVALID = _rule(
    "IRS414",
    "element-type-invalid",
    ERROR,
    "{layer_type} element_type={text!r} is not a type OpenVINO accepts here; it rejects the file "
    "('{ov_message}'){hint}",
    summary="A Parameter or Const element_type OpenVINO cannot read.",
    why="element_type uses OpenVINO's element type names (f32, i64, u1, boolean ...), not port "
    "precisions: FP32, BOOL and BIN are rejected. A Parameter accepts any case (F32); a Const "
    "also passes the name through the precision parser, so only f32 or I64-style names work.",
    fix='Write the lower-case element type name, e.g. element_type="f32".',
    example='<data element_type="FP32" .../>',
)
ELEMENT_TYPE_PRECISION_MISMATCH = _rule(
    "IRS415",
    "type-precision-mismatch",
    WARNING,
    "element_type {element_type} but output port {port} precision {precision} names {named}; "
    "OpenVINO uses element_type and ignores the precision",
    summary="A Parameter's or Const's element_type and its port precision name different types.",
    why="The two describe the same tensor; OpenVINO takes the type from element_type only, so "
    "tools that read the precision get it wrong.",
    fix="Make the precision name the element_type (f32 -> FP32, i64 -> I64, u1 -> BIN).",
)
SHAPE_ATTRIBUTE_MISMATCH = _rule(
    "IRS416",
    "shape-attribute-mismatch",
    ERROR,
    "{layer_type} shape={text!r} but output port {port} declares {declared}; OpenVINO uses the "
    "shape attribute ({shape}) and ignores the port dims",
    summary="A Parameter's or Const's shape attribute differs from its output port dims.",
    why="OpenVINO takes a Parameter's or Const's shape from the shape attribute only; port dims "
    "that disagree are silently ignored, and everything downstream gets the attribute's shape.",
    fix="Make the port dims match the shape attribute (-1 for a dynamic or interval dim).",
)
PARAMETER_ATTRIBUTE_MISSING = _rule(
    "IRS417",
    "parameter-defaulted",
    WARNING,
    "Parameter has no {attribute} attribute; OpenVINO makes it {meaning}",
    summary="A Parameter without shape (a scalar) or without element_type (dynamic).",
    why="OpenVINO does not fail: a missing shape makes the Parameter a scalar (rank 0), a missing "
    "element_type makes its type dynamic. Neither is usually meant.",
    fix='Write both: <data shape="1,3,224,224" element_type="f32"/>.',
)
CONST_ATTRIBUTE = _rule(
    "IRS418",
    "const-attribute",
    ERROR,
    "Const {attribute} {problem}; OpenVINO rejects the file ('{ov_message}')",
    summary="A Const's element_type, shape, offset or size is missing or unreadable.",
    why="A Const's bytes are bin[offset : offset+size], read as shape x element_type; OpenVINO "
    "needs all four, offset and size as unsigned integers.",
    fix='Write <data element_type="f32" shape="16, 3, 3, 3" offset="0" size="1728"/>.',
)
CONST_SIZE_TOO_SMALL = _rule(
    "IRS419",
    "const-size-too-small",
    ERROR,
    "Const size={size} bytes, but shape {shape} of {element_type} needs {needed} ({count} "
    "element(s) x {bits} bit(s){packing}); OpenVINO rejects the file ('Attribute and shape size "
    "are inconsistent for Const op!')",
    summary="A Const's size is smaller than its shape and element type need.",
    why="OpenVINO needs ceil(elements x bits / 8) bytes (sub-byte types packed: u1 8 to a byte, "
    "i4/u4 2 to a byte); a larger size is accepted, a smaller one fails the file.",
    fix="Write the size the shape needs, or correct the shape or element_type.",
)
CONST_OUT_OF_BIN = _rule(
    "IRS420",
    "const-out-of-bin",
    ERROR,
    "Const bytes {offset}..{end} lie beyond the end of {bin} ({bin_size} bytes); OpenVINO "
    "rejects the file ('Incorrect weights in bin file!')",
    summary="A Const's offset + size lies beyond the end of the .bin file.",
    why="OpenVINO reads a Const from bin[offset : offset+size] and fails when that is not inside "
    "the file: a truncated .bin, or a .bin from another export.",
    fix="Use the .bin written together with this .xml.",
)
UNREACHABLE_LAYER = _rule(
    "IRS421",
    "unreachable-layer",
    WARNING,
    "no Result is reached from {what}; OpenVINO never builds or validates {them}{names}",
    summary="Layers from which no Result (or Assign) is reached.",
    why="OpenVINO builds only the layers it reaches walking back from Result and Assign layers "
    "(and every Parameter). Other layers are never built: an unknown op or an invalid layer "
    "there is silently accepted, and its output is lost.",
    fix="Connect the layer's output to a Result, or remove the dead layers.",
)
NO_RESULT = _rule(
    "IRS422",
    "no-result",
    WARNING,
    "the net has no Result (or Assign) layer; OpenVINO loads a model with no outputs{unbuilt}",
    summary="A <net> without a Result layer.",
    why="OpenVINO builds the graph backwards from its Result and Assign layers; without one it "
    "builds only the Parameters.",
    fix='Add a <layer type="Result" version="opset1"> fed by each model output.',
)
RESULTS_SHARE_OUTPUT = _rule(
    "IRS423",
    "results-share-output",
    ERROR,
    "{results} read the same output ({producer} port {port}); OpenVINO (IR v10) rejects the file "
    "('Model tensor names have collisions. Please use OVC to generate new IR version, it should "
    "allow to avoid the issue')",
    summary="Two Result layers read one named output, in IR v10.",
    why="Reading IR v10, OpenVINO gives each Result a tensor of its own carrying the names of the "
    "output it reads, and fails when two Results carry one output's names. IR v11, and IR v10 "
    "outputs without names, read.",
    fix="Give each output one Result, or save the model again (ov.save_model writes IR v11).",
)
NAME_COLLISION = _rule(
    "IRS425",
    "name-collision",
    ERROR,
    "{what} {name!r}, a name OpenVINO (IR v10) gives the model's {side} here, is already the "
    "name of {other}; OpenVINO rejects the file ('Model operation names have collisions with "
    "tensor names. Please use MO to generate new IR version, it should allow to avoid the issue')",
    summary="In IR v10, a Parameter's name, or the name of the layer a Result reads, is the tensor "
    "name of another input or output.",
    why="Reading IR v10, OpenVINO names each model output also by the name of the layer it comes "
    "from (with '.port' when that layer has several outputs) and each input by its Parameter's "
    "name, and fails when such a name is already another input's or output's tensor name (a "
    "port's names) or another such name. IR v11 names them by their tensor names alone.",
    fix="Rename the layer or the tensor (the port's names), or save the model again "
    "(ov.save_model writes IR v11).",
    example='<layer name="b" type="Parameter"> beside <port names="b"> on another Parameter',
)
VARIABLE_UNMATCHED = _rule(
    "IRS424",
    "variable-unmatched",
    ERROR,
    "{layer_type} writes variable {variable_id!r}, which {problem}; OpenVINO rejects the file "
    "('{ov_message}')",
    summary="An Assign whose variable_id no ReadValue of the model reads, or an Assign-3 that "
    "writes values of another type or shape than its ReadValue-3's variable holds.",
    why="A stateful model's Assign writes the variable a ReadValue reads, matched by variable_id. "
    "OpenVINO's reader ties each Assign to the ReadValue of its id and fails when the model has "
    "none ('map::at'); an Assign-3 looks for a ReadValue-3 of its id among the layers it is "
    "computed from, and requires the values it writes to have the variable's element type (its "
    "init value's) and, when both are static, its shape.",
    fix="Give the Assign the variable_id of the ReadValue it updates (or add that ReadValue); "
    "convert or reshape what an Assign-3 writes to its variable's type and shape.",
    example='<data variable_id="past_key_1"/> on an Assign when the ReadValue says "past_key.1"',
)

# --- IRS9xx: irshape itself ----------------------------------------------------------------

INTERNAL_ERROR = _rule(
    "IRS901",
    "internal-error",
    ERROR,
    "irshape failed on this input ({summary}); please report it with the file. "
    "Run with --debug for the traceback",
    summary="irshape hit an unexpected exception.",
    why="A bug in irshape: every bad input should produce a finding, never a crash.",
    fix="Report it with the file that triggered it.",
)
FIX_FAILED = _rule(
    "IRS902",
    "fix-failed",
    WARNING,
    "--fix cannot rewrite this file, so it leaves it unchanged: {reason}",
    summary="irshape check --fix could not rewrite the file safely.",
    why="--fix patches <dim> values in place and reads the result back; when the text holds <dim>s "
    "irshape does not read as port dims, is not UTF-8, or cannot be written, it changes nothing.",
    fix="Correct the declared dims by hand; the other findings say which and to what.",
    example='<port id="2"><dim>1</dim><dim>8</dim><dim>9<!-- rows --></dim><dim>8</dim></port>',
)


# Errors after which OpenVINO still reads the layer: it ignores the declared dims they compare
# (output dims, input port dims, a Parameter's or Const's port dims), and never runs a dry run.
# Every other error means OpenVINO rejects the layer or the file (or, for a negative stride,
# computes a meaningless shape).
NOT_REJECTING = frozenset(
    {
        DECLARED_DIM_MISMATCH.code,
        DECLARED_RANK_MISMATCH.code,
        EDGE_DIMS_MISMATCH.code,
        NEGATIVE_STRIDE.code,  # OpenVINO reads it (as 2^64 - n) and computes a shape
        SHAPE_ATTRIBUTE_MISMATCH.code,
        DRY_RUN_SHAPE_MISMATCH.code,
    }
)


def rejects(diagnostic: Diagnostic) -> bool:
    """Does the finding mean OpenVINO rejects its layer or its file?"""
    return diagnostic.severity is Severity.ERROR and diagnostic.code not in NOT_REJECTING


def markdown_table() -> str:
    """The README's table of codes, generated from this registry."""
    rows = ["| code | name | severity | what it means |", "|---|---|---|---|"]
    rows += [
        f"| {r.code} | {r.name} | {r.severity.value} | {r.summary} |"
        for r in sorted(RULES.values(), key=lambda r: r.code)
    ]
    return "\n".join(rows)
