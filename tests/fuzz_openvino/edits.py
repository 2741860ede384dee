"""Edits of a saved IR's text, drawn from grammars (``grammar.py``), and the file they make.

An :class:`Edited` file is a base IR (``bases.py``) with one to three edits applied to its XML
text (and, for a few, to its .bin). Edits work on the text, not on a tree, so that they can
make what a tree cannot: a repeated attribute, a control character, a character reference.
Each edit is named by its kind (``list-attr``, ``param-shape``, ...) for the classes of
disagreements, and described in full for the report.
"""

from __future__ import annotations

import random
import re
import struct
from collections.abc import Callable
from dataclasses import dataclass, field

from . import grammar as g
from .bases import Base, bases

CONV_TYPES = ("Convolution", "ConvolutionBackpropData", "GroupConvolution", "GroupConvolutionBackpropData")
LIST_ATTRS = ("strides", "dilations", "pads_begin", "pads_end")
AUTO_PADS = (
    "explicit",
    "same_upper",
    "same_lower",
    "valid",
    "EXPLICIT",
    "Same_Upper",
    "VALID",
    "notset",
    "none",
    "None",
    "",
    "same",
    "auto",
    " valid",
    "valid ",
    "same-upper",
    "same_upper\t",
    "explicit&#0;",
)
ELEMENT_TYPES = (
    "f32",
    "F32",
    "f16",
    "i64",
    "I64",
    "i32",
    "u8",
    "boolean",
    "bool",
    "f64",
    "bf16",
    "u1",
    "i4",
    "string",
    "dynamic",
    "undefined",
    "FP32",
    "fp32",
    "float32",
    "",
    " f32",
    "f32 ",
    "nf4",
    "f8e4m3",
    "u64",
)
PRECISIONS = (
    "FP32",
    "FP16",
    "I64",
    "I32",
    "U8",
    "BOOL",
    "f32",
    "F32",
    "fp32",
    "",
    "UNSPECIFIED",
    "BIN",
    "FOO",
)
OPSETS = (
    "opset1",
    "opset2",
    "opset8",
    "opset16",
    "opset17",
    "opset0",
    "opset99",
    "OPSET1",
    "Opset1",
    "opset1 ",
    "",
    "experimental",
    "extension",
    "opset01",
    "ie_internal_opset",
    "opset1.0",
)
LATER_OPS = (
    "Convolution",
    "NMSRotated",
    "NonMaxSuppression",
    "ScaledDotProductAttention",
    "Relu",
    "Elu",
    "SoftSign",
    "Identity",
)


@dataclass
class Edited:
    base: str
    seed: int
    xml: str
    bin: bytes
    edits: list[tuple[str, str]] = field(default_factory=list)  # (kind, description)

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(sorted({k for k, _ in self.edits}))


# -- locating things in the text -------------------------------------------------------------

_LAYER = re.compile(r"<layer [^>]*>.*?</layer>", re.S)


def _attr(tag_text: str, name: str) -> str | None:
    m = re.search(rf'\s{re.escape(name)}="([^"]*)"', tag_text)
    return None if m is None else m.group(1)


def layer_spans(xml: str) -> list[tuple[int, int, dict[str, str]]]:
    spans = []
    for m in _LAYER.finditer(xml):
        head = m.group(0)[: m.group(0).index(">")]
        info = {k: _attr(head, k) or "" for k in ("id", "name", "type", "version")}
        spans.append((m.start(), m.end(), info))
    return spans


def _pick_layer(
    rng: random.Random, xml: str, types: tuple[str, ...]
) -> tuple[int, int, dict[str, str]] | None:
    found = [s for s in layer_spans(xml) if s[2]["type"] in types]
    return rng.choice(found) if found else None


def _replace_in(
    xml: str, start: int, end: int, old: re.Pattern[str] | str, new: str | Callable[..., str]
) -> str:
    block = xml[start:end]
    pattern = old if isinstance(old, re.Pattern) else re.compile(re.escape(old))
    block2 = pattern.sub(new, block, count=1)  # type: ignore[arg-type]
    return xml[:start] + block2 + xml[end:]


def _set_data_attr(xml: str, span: tuple[int, int, dict[str, str]], attr: str, text: str | None) -> str:
    """Set (or, with None, remove) an attribute of the layer's <data>; add it if absent."""
    start, end, _ = span
    block = xml[start:end]
    data = re.search(r"<data\b[^>]*?/?>", block)
    if data is None:
        return xml
    tag = data.group(0)
    if re.search(rf'\s{attr}="[^"]*"', tag):
        new_tag = re.sub(rf'\s{attr}="[^"]*"', "" if text is None else f' {attr}="{text}"', tag, count=1)
    elif text is not None:
        new_tag = tag.replace("<data", f'<data {attr}="{text}"', 1)
    else:
        return xml
    block = block.replace(tag, new_tag, 1)
    return xml[:start] + block + xml[end:]


def _int(text: str | None, default: int = 1) -> int:
    """A value an earlier edit may have respelled, as a plain int for the grammars."""
    text = (text or "").strip()
    return int(text) if re.fullmatch(r"-?[0-9]{1,25}", text) else default


def _spatial(info_xml: str) -> int:
    strides = re.search(r'strides="([^"]*)"', info_xml)
    return len(strides.group(1).split(",")) if strides else 2


# -- the edits ---------------------------------------------------------------------------------


def e_list_attr(rng: random.Random, d: Edited) -> None:
    span = _pick_layer(rng, d.xml, CONV_TYPES)
    if span is None:
        return
    block = d.xml[span[0] : span[1]]
    attrs = LIST_ATTRS + (("output_padding",) if "Backprop" in span[2]["type"] else ())
    attr = rng.choice(attrs)
    typical = (1, 2) if attr in ("strides", "dilations") else (0, 1, 2)
    text = g.int_list(rng, _spatial(block), typical)
    d.xml = _set_data_attr(d.xml, span, attr, text)
    d.edits.append(("list-attr", f"{span[2]['name']}.{attr}={text!r}"))


def e_auto_pad(rng: random.Random, d: Edited) -> None:
    span = _pick_layer(rng, d.xml, CONV_TYPES)
    if span is None:
        return
    text = rng.choice(AUTO_PADS)
    d.xml = _set_data_attr(d.xml, span, "auto_pad", text)
    d.edits.append(("auto-pad", f"{span[2]['name']}.auto_pad={text!r}"))


def e_attr_presence(rng: random.Random, d: Edited) -> None:
    span = _pick_layer(rng, d.xml, (*CONV_TYPES, *OTHER_TYPES, "Parameter", "Const"))
    if span is None:
        return
    block = d.xml[span[0] : span[1]]
    data = re.search(r"<data\b[^>]*?/?>", block)
    names = re.findall(r'\s(\w+)="', data.group(0)) if data else []
    r = rng.random()
    if r < 0.35 and names:
        attr = rng.choice(names)
        d.xml = _set_data_attr(d.xml, span, attr, None)
        d.edits.append(("attr-removed", f"{span[2]['name']}: <data> without {attr}"))
    elif r < 0.7 and names and data:
        attr = rng.choice(names)
        old = _attr(data.group(0), attr) or ""
        new = rng.choice((old, "1", "2, 2", "0", "f16", "same_upper", "x"))
        tag = data.group(0)
        first = rng.random() < 0.5
        dup = f' {attr}="{new}"'
        new_tag = tag.replace("<data", "<data" + dup, 1) if first else re.sub(r"\s*/?>$", dup + " />", tag)
        d.xml = d.xml[: span[0]] + block.replace(tag, new_tag, 1) + d.xml[span[1] :]
        d.edits.append(
            (
                "attr-duplicate",
                f"{span[2]['name']}: {attr} repeated {'before' if first else 'after'} as {new!r}",
            )
        )
    elif r < 0.85:
        attr = rng.choice(("groups", "group", "foo", "output_padding", "data_format", "element_type"))
        d.xml = _set_data_attr(d.xml, span, attr, rng.choice(("1", "2", "NCHW", "f32")))
        d.edits.append(("attr-added", f"{span[2]['name']}: {attr} added"))
    elif data:
        d.xml = d.xml[: span[0]] + block.replace(data.group(0), "", 1) + d.xml[span[1] :]
        d.edits.append(("data-removed", f"{span[2]['name']}: no <data>"))


def e_element_type(rng: random.Random, d: Edited) -> None:
    span = _pick_layer(rng, d.xml, ("Parameter", "Const"))
    if span is None:
        return
    if rng.random() < 0.6:
        text = rng.choice(ELEMENT_TYPES)
        d.xml = _set_data_attr(d.xml, span, "element_type", text)
        d.edits.append(("element-type", f"{span[2]['name']}.element_type={text!r}"))
    else:
        text = rng.choice(PRECISIONS)
        d.xml = _replace_in(d.xml, span[0], span[1], re.compile(r'precision="[^"]*"'), f'precision="{text}"')
        d.edits.append(("precision", f"{span[2]['name']} output precision={text!r}"))


def e_const(rng: random.Random, d: Edited) -> None:
    span = _pick_layer(rng, d.xml, ("Const",))
    if span is None:
        return
    block = d.xml[span[0] : span[1]]
    attr = rng.choice(("shape", "shape", "offset", "size"))
    old = _attr(block, attr) or "0"
    if attr == "shape":
        dims = [_int(x) for x in old.split(",") if x.strip()]
        text = (
            g.int_list(rng, len(dims), tuple(dims) or (1,))
            if rng.random() < 0.8
            else ", ".join(
                map(str, rng.choice((dims[::-1], [*dims, 1], dims[:-1], [int(x) * 2 for x in dims] or [2])))
            )
        )
    else:
        v = _int(old, 0)
        text = g.number(rng, (v, v + 1, max(v - 1, 0), v * 2, len(d.bin), 0))
    d.xml = _set_data_attr(d.xml, span, attr, text)
    d.edits.append(("const-" + attr, f"{span[2]['name']}.{attr}={text!r}"))


def e_param_shape(rng: random.Random, d: Edited) -> None:
    span = _pick_layer(rng, d.xml, ("Parameter",))
    if span is None:
        return
    block = d.xml[span[0] : span[1]]
    old = _attr(block, "shape") or ""
    dims = [_int(x, 3) for x in old.split(",") if x.strip()]
    text = g.shape_literal(rng, dims)
    d.xml = _set_data_attr(d.xml, span, "shape", text)
    d.edits.append(("param-shape", f"{span[2]['name']}.shape={text!r}"))


def e_dim(rng: random.Random, d: Edited) -> None:
    dims = list(re.finditer(r"<dim>([^<]*)</dim>", d.xml))
    if not dims:
        return
    m = rng.choice(dims)
    v = _int(m.group(1))
    text = (
        g.number(rng, (v, v + 1, -1, 0), plain=0.3)
        if rng.random() < 0.9
        else rng.choice(("?", "1..5", "", "-2"))
    )
    d.xml = d.xml[: m.start(1)] + text + d.xml[m.end(1) :]
    d.edits.append(("dim", f"<dim> at {m.start()} = {text!r} (was {m.group(1)})"))


def e_net_version(rng: random.Random, d: Edited) -> None:
    text = g.number(rng, (10, 11, 11, 12, 9), plain=0.3)
    d.xml = re.sub(r'(<net name="[^"]*" version=")[^"]*"', lambda m: m.group(1) + text + '"', d.xml, count=1)
    d.edits.append(("net-version", f"net version={text!r}"))


def e_layer_version(rng: random.Random, d: Edited) -> None:
    span = rng.choice(layer_spans(d.xml))
    text = rng.choice(OPSETS)
    d.xml = _replace_in(d.xml, span[0], span[1], re.compile(r'version="[^"]*"'), f'version="{text}"')
    d.edits.append(("layer-version", f"{span[2]['name']} ({span[2]['type']}).version={text!r}"))


def e_layer_type(rng: random.Random, d: Edited) -> None:
    span = rng.choice(layer_spans(d.xml))
    old = span[2]["type"]
    r = rng.random()
    if r < 0.6:
        text = g.misspell(rng, old)
    else:
        text = rng.choice(LATER_OPS)
        if rng.random() < 0.5:
            d.xml = _replace_in(
                d.xml,
                span[0],
                span[1],
                re.compile(r'version="[^"]*"'),
                f'version="{rng.choice(("opset1", "opset5", "opset13", "opset15", "opset16"))}"',
            )
    d.xml = _replace_in(d.xml, span[0], span[1], re.compile(r'type="[^"]*"'), f'type="{text}"')
    d.edits.append(("layer-type", f"{span[2]['name']}.type={text!r} (was {old})"))


def e_edges(rng: random.Random, d: Edited) -> None:
    edges = list(re.finditer(r"[ \t]*<edge [^>]*/>\n", d.xml))
    if not edges:
        return
    m = rng.choice(edges)
    r = rng.random()
    if r < 0.3:
        d.xml = d.xml[: m.start()] + d.xml[m.end() :]
        d.edits.append(("edge-removed", f"edge removed: {m.group(0).strip()}"))
    elif r < 0.5:
        d.xml = d.xml[: m.end()] + m.group(0) + d.xml[m.end() :]
        d.edits.append(("edge-duplicated", f"edge repeated: {m.group(0).strip()}"))
    else:
        attr = rng.choice(("from-layer", "from-port", "to-layer", "to-port"))
        old = _int(_attr(m.group(0), attr), 0)
        text = g.number(rng, (old, old + 1, max(old - 1, 0), 5), plain=0.4)
        new = re.sub(rf'{attr}="[^"]*"', f'{attr}="{text}"', m.group(0), count=1)
        d.xml = d.xml[: m.start()] + new + d.xml[m.end() :]
        d.edits.append(("edge-id", f"edge {m.group(0).strip()} {attr}={text!r}"))


def e_layer_id(rng: random.Random, d: Edited) -> None:
    """Respell a layer's id, and (usually) its edges' references the same or another way."""
    span = rng.choice(layer_spans(d.xml))
    old = span[2]["id"]
    text = g.number(rng, (_int(old),), plain=0.0)
    d.xml = _replace_in(d.xml, span[0], span[1], f'id="{old}"', f'id="{text}"')
    if rng.random() < 0.7:
        ref = text if rng.random() < 0.5 else g.number(rng, (_int(old),), plain=0.3)
        d.xml = re.sub(rf'(-layer=")({re.escape(old)})(")', lambda m: m.group(1) + ref + m.group(3), d.xml)
        d.edits.append(("layer-id", f"{span[2]['name']} id={text!r}, edges {ref!r}"))
    else:
        d.xml = d.xml
        d.edits.append(("layer-id", f"{span[2]['name']} id={text!r}, edges unchanged"))


def e_port_id(rng: random.Random, d: Edited) -> None:
    span = _pick_layer(rng, d.xml, (*CONV_TYPES, *OTHER_TYPES, "Result", "Relu"))
    if span is None:
        return
    block = d.xml[span[0] : span[1]]
    ports = list(re.finditer(r'<port id="([^"]*)"', block))
    m = rng.choice(ports)
    port = _int(m.group(1), 0)
    text = g.number(rng, (port, port + 1, 7), plain=0.0)
    block = block[: m.start(1)] + text + block[m.end(1) :]
    d.xml = d.xml[: span[0]] + block + d.xml[span[1] :]
    d.edits.append(("port-id", f"{span[2]['name']} port {m.group(1)} id={text!r}"))


def e_dangling(rng: random.Random, d: Edited) -> None:
    """A copy of a conv layer that no Result reaches (fed by the same producers), maybe broken."""
    span = _pick_layer(rng, d.xml, CONV_TYPES)
    if span is None:
        return
    block = d.xml[span[0] : span[1]]
    new_id = str(90 + d.xml.count('_dangling"'))  # each copy its own id
    copy = re.sub(r'id="[^"]*"', f'id="{new_id}"', block, count=1).replace(
        f'name="{span[2]["name"]}"', f'name="{span[2]["name"]}_dangling"', 1
    )
    if rng.random() < 0.7:
        fake = Edited(d.base, d.seed, copy, d.bin)
        rng.choice((e_list_attr, e_auto_pad, e_layer_type, e_layer_version, e_dim))(rng, fake)
        copy = fake.xml
        what = "; ".join(x for _, x in fake.edits)
    else:
        what = "unchanged"
    d.xml = d.xml[: span[1]] + "\n\t\t" + copy + d.xml[span[1] :]
    old_id = span[2]["id"]
    new_edges = "".join(
        m.group(0).replace(f'to-layer="{old_id}"', f'to-layer="{new_id}"')
        for m in re.finditer(rf'[ \t]*<edge [^>]*to-layer="{re.escape(old_id)}"[^>]*/>\n', d.xml)
    )
    d.xml = d.xml.replace("</edges>", new_edges + "\t</edges>", 1)
    d.edits.append(("dangling", f"unreachable copy of {span[2]['name']} ({what})"))


def e_xml_defect(rng: random.Random, d: Edited) -> None:
    """A control character in an attribute value (pugixml reads it; it is not XML)."""
    span = rng.choice(layer_spans(d.xml))
    where = rng.choice(("name", "version", "type"))
    char = rng.choice(("\x01", "\x08", "\x1f", "\x0b", "&#1;"))
    d.xml = _replace_in(
        d.xml, span[0], span[1], re.compile(rf'{where}="([^"]*)"'), lambda m: f'{where}="{m.group(1)}{char}"'
    )
    d.edits.append(("xml-control-char", f"{span[2]['name']}.{where} + {char!r}"))


OTHER_TYPES = (
    "MaxPool",
    "AvgPool",
    "Add",
    "Reshape",
    "Transpose",
    "Concat",
    "Unsqueeze",
    "Gather",
    "Slice",
    "StridedSlice",
    "MatMul",
    "ReduceSum",
    "SoftMax",
    "NormalizeL2",
    "MVN",
    "Interpolate",
    "NonMaxSuppression",
    "NMSRotated",
)
_WORDS = ("true", "false", "True", "FALSE", "1", "0", "yes", "", " true", "2")
_INT_LIST = re.compile(r"-?\d+(\s*,\s*-?\d+)*")
_REAL = re.compile(r"-?\d*\.\d+(e[-+]?\d+)?|-?\d+e[-+]?\d+")


def e_op_attr(rng: random.Random, d: Edited) -> None:
    """An attribute of a pooling, element-wise, layout, indexing, matmul, reduction,
    normalization or resize layer, respelled by its grammar (a list, a number, a word)."""
    span = _pick_layer(rng, d.xml, OTHER_TYPES)
    if span is None:
        return
    block = d.xml[span[0] : span[1]]
    data = re.search(r"<data\b[^>]*?/?>", block)
    attrs = re.findall(r'\s([\w-]+)="([^"]*)"', data.group(0)) if data else []
    if not attrs:
        return
    attr, old = rng.choice(attrs)
    if _INT_LIST.fullmatch(old.strip()) and "," in old:
        values = [int(v) for v in old.split(",")]
        text = g.int_list(rng, len(values), (*values, 0, 1, 2))
    elif _INT_LIST.fullmatch(old.strip()):
        text = g.number(rng, (int(old), int(old) + 1, -1, 0, 1, 2, 3, 4))
    elif _REAL.fullmatch(old.strip()):
        text = rng.choice(("0", "-1", "1e-5", "nan", "inf", "1e400", "0x1p-3", " 1e-5", "1e-5x", "", "-0.0"))
    elif old.lower() in ("true", "false"):
        text = rng.choice(_WORDS)
    else:
        text = (
            g.misspell(rng, old)
            if old and rng.random() < 0.5
            else rng.choice((old.upper(), old + " ", "", "x"))
        )
    d.xml = _set_data_attr(d.xml, span, attr, text)
    d.edits.append(("op-attr", f"{span[2]['name']} ({span[2]['type']}).{attr}={text!r}"))


_INTEGER_CONST = re.compile(r'element_type="(i64|i32)" shape="(\d*)" offset="(\d+)" size="(\d+)"')


def e_const_value(rng: random.Random, d: Edited) -> None:
    """The value of a small integer Const (a shape, axes, indices, sizes, begin/end/stride):
    one element, or all, set to a value near the edges of what its consumer accepts."""
    # (a scalar, shape "", is one element: NonMaxSuppression's max_output_boxes_per_class)
    found = [m for m in _INTEGER_CONST.finditer(d.xml) if int(m.group(2) or 1) <= 8]
    if not found:
        return
    m = rng.choice(found)
    width = 8 if m.group(1) == "i64" else 4
    count, offset = int(m.group(2) or 1), int(m.group(3))
    if offset + count * width > len(d.bin) or count == 0:
        return
    fmt = "<q" if width == 8 else "<i"
    old = [struct.unpack_from(fmt, d.bin, offset + i * width)[0] for i in range(count)]
    edges = (-2, -1, 0, 1, 2, 3, 7, 8, 9, 64, 2**31 - 1, -(2**31), 2**32, 2**62, 2**63 - 1, -(2**63))
    new = list(old)
    for i in range(count) if rng.random() < 0.3 else (rng.randrange(count),):
        v = rng.choice((*edges, old[i] + 1, old[i] - 1, -old[i]))
        bits = 8 * width  # (-old[i] of -2^63 is past int64: clamped as an i32's is)
        new[i] = max(-(2 ** (bits - 1)), min(2 ** (bits - 1) - 1, v))
    blob = bytearray(d.bin)
    for i, v in enumerate(new):
        struct.pack_into(fmt, blob, offset + i * width, v)
    d.bin = bytes(blob)
    d.edits.append(("const-value", f"Const at offset {offset} ({m.group(1)}): {old} -> {new}"))


EDITS: list[tuple[float, Callable[[random.Random, Edited], None]]] = [
    (6, e_list_attr),
    (2, e_auto_pad),
    (2, e_attr_presence),
    (2, e_element_type),
    (3, e_const),
    (3, e_param_shape),
    (2, e_dim),
    (1, e_net_version),
    (1, e_layer_version),
    (1, e_layer_type),
    (2, e_edges),
    (1, e_layer_id),
    (1, e_port_id),
    (1, e_dangling),
    (0.4, e_xml_defect),
    (4, e_op_attr),
    (3, e_const_value),
]


def edited(seed: int) -> Edited:
    """The edited file of this seed: a base and one to three edits (one, half the time)."""
    rng = random.Random(seed)
    all_bases = bases()
    base: Base = all_bases[rng.randrange(len(all_bases))]
    d = Edited(base.name, seed, base.xml, base.bin)
    count = int(g.pick(rng, [(5, 1), (3, 2), (2, 3)]))  # type: ignore[call-overload]
    for _ in range(count):
        edit = g.pick(rng, EDITS)  # type: ignore[arg-type]
        edit(rng, d)  # type: ignore[operator]
    return d
