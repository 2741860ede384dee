"""Mutants of saved single-op files.

1. Rejected mutants: the XML (and, where a value changes, the .bin) of a valid single-op file
   is edited with lxml so that ``ov.Core().read_model`` raises: bad auto_pad spellings, list
   attributes of the wrong length or unparsable, zero strides/dilations, a data channel count
   that does not match the kernel, group counts that do not divide the channels, wrong kernel
   and data ranks, mismatched element types, and bad ``output_shape`` inputs (wrong length,
   float type, rank 0/2, a negative value). Each mutant must be rejected by OpenVINO (else the
   mutant class is wrong) AND give at least one irshape error.
2. Declared-dim mutants: one static ``<dim>`` of the op's output port is changed (+1 or -1).
   OpenVINO accepts those silently (asserted); irshape must report an error, and every error
   it reports must sit on the line of that output ``<port>`` or of that ``<dim>``.

Every base file is first checked to be accepted by OpenVINO and clean in irshape.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import openvino as ov  # plain import: without OpenVINO this suite fails, it is never skipped
import pytest
from lxml import etree

import irshape

from . import generate as gen
from .conftest import STATS, fmt_diag

# --------------------------------------------------------------------------------------
# base single-op files
# --------------------------------------------------------------------------------------

SHORT = {gen.CONV: "conv", gen.BACKPROP: "deconv", gen.GCONV: "gconv", gen.GBACKPROP: "gdeconv"}


def _checked(xml: Path, label: str) -> irshape.FileReport:
    """irshape's report on ``xml``, which must hold no internal error (IRS9xx)."""
    report = irshape.check_file(xml)
    internal = [d for d in report.diagnostics if d.code.startswith("IRS9")]
    assert not internal, f"{label}: irshape failed: {[fmt_diag(d) for d in internal]}"
    return report


def _base_case(op: str, nsp: int) -> gen.Case:
    D = 6 if nsp == 3 else 8
    K = [3] * nsp
    if op == gen.CONV:
        data, filt = [1, 4], [3, 4]
    elif op == gen.BACKPROP:
        data, filt = [1, 4], [4, 3]
    elif op == gen.GCONV:
        data, filt = [1, 6], [2, 3, 3]  # G=2, C_OUT/G=3, C_IN/G=3
    else:
        data, filt = [1, 6], [2, 3, 2]  # G=2, C_IN/G=3, C_OUT/G=2
    fwd = op in gen.FORWARD
    return gen.Case(
        cid=f"b{SHORT[op]}{nsp}",
        op=op,
        nsp=nsp,
        data=",".join(map(str, [*data, *[D] * nsp])),
        filt=",".join(map(str, [*filt, *K])),
        filt_const=True,
        strides=[2] * nsp,
        dilations=[1] * nsp,
        pads_begin=[1] * nsp,
        pads_end=[0] * nsp,
        auto_pad="explicit",
        output_padding=None if fwd else [1] * nsp,
        output_shape=None if fwd else ("const", "i64", [D * 2 + 1] * nsp),
    )


BASES = {c.cid: c for c in (_base_case(op, n) for op in gen.OPS for n in (1, 2, 3))}


@dataclass
class Doc:
    """A mutable copy of a base file: the XML tree and the .bin bytes."""

    case: gen.Case
    tree: Any
    bin: bytearray

    def layer(self, suffix: str = "") -> Any:
        name = self.case.cid + suffix
        found = [el for el in self.tree.iter("layer") if el.get("name") == name]
        assert len(found) == 1, name
        return found[0]

    @property
    def op(self) -> Any:
        return self.layer()

    @property
    def data(self) -> Any:
        return self.op.find("data")

    def set_port_dims(self, port: Any, dims: list[int]) -> None:
        for d in port.findall("dim"):
            port.remove(d)
        for v in dims:
            el = etree.SubElement(port, "dim")
            el.text = str(v)

    def set_param_shape(self, dims: list[int]) -> None:
        """The data Parameter's shape (and, for tidiness, its port dims and the op's input)."""
        param = self.layer("_data")
        param.find("data").set("shape", ",".join(map(str, dims)))
        self.set_port_dims(param.find("output/port"), dims)
        self.set_port_dims(self.op.find("input").findall("port")[0], dims)

    def set_param_type(self, et: str, precision: str) -> None:
        param = self.layer("_data")
        param.find("data").set("element_type", et)
        param.find("output/port").set("precision", precision)

    def set_const(self, suffix: str, et: str, shape: list[int], raw: bytes, port_idx: int) -> None:
        """Repoint a Const at new bytes appended to the .bin (offset/size stay coherent)."""
        const = self.layer(suffix)
        data = const.find("data")
        data.set("element_type", et)
        data.set("shape", ", ".join(map(str, shape)))
        data.set("offset", str(len(self.bin)))
        data.set("size", str(len(raw)))
        self.bin.extend(raw)
        precision = {"f32": "FP32", "i64": "I64", "i32": "I32", "boolean": "BOOL"}[et]
        const.find("output/port").set("precision", precision)
        self.set_port_dims(const.find("output/port"), shape)
        self.op.find("input").findall("port")[port_idx].set("precision", precision)
        self.set_port_dims(self.op.find("input").findall("port")[port_idx], shape)

    def reshape_const(self, suffix: str, shape: list[int], port_idx: int) -> None:
        """Same bytes, another shape (the element count is kept, so the .bin stays valid)."""
        const = self.layer(suffix)
        const.find("data").set("shape", ", ".join(map(str, shape)))
        self.set_port_dims(const.find("output/port"), shape)
        self.set_port_dims(self.op.find("input").findall("port")[port_idx], shape)


def _dims(shape: str) -> list[int]:
    return [int(v) for v in shape.split(",")]


# --------------------------------------------------------------------------------------
# rejected mutant classes: name -> (applies to case?, mutate)
# --------------------------------------------------------------------------------------

Mutation = Callable[[Doc], None]


def _set(attr: str, value: str) -> Mutation:
    def m(doc: Doc) -> None:
        doc.data.set(attr, value)

    return m


def _list_len(attr: str, delta: int) -> Mutation:
    def m(doc: Doc) -> None:
        values = [int(v) for v in doc.data.get(attr).split(",")]
        values = values + [values[-1]] * delta if delta > 0 else values[:delta]
        doc.data.set(attr, ", ".join(map(str, values)))

    return m


def _zero_at(attr: str) -> Mutation:
    def m(doc: Doc) -> None:
        values = [int(v) for v in doc.data.get(attr).split(",")]
        values[-1] = 0
        doc.data.set(attr, ", ".join(map(str, values)))

    return m


def _data_channels(fn: Callable[[gen.Case], int]) -> Mutation:
    def m(doc: Doc) -> None:
        dims = _dims(doc.case.data)
        dims[1] = fn(doc.case)
        doc.set_param_shape(dims)

    return m


def _data_rank(rank: int) -> Mutation:
    def m(doc: Doc) -> None:
        dims = _dims(doc.case.data)
        dims = dims[:rank] if rank <= len(dims) else dims + [4] * (rank - len(dims))
        doc.set_param_shape(dims)

    return m


def _kernel_rank(delta: int) -> Mutation:
    def m(doc: Doc) -> None:
        dims = _dims(doc.case.filt)
        dims = [*dims, 1] if delta > 0 else [*dims[:-2], dims[-2] * dims[-1]]
        doc.reshape_const("_filter", dims, 1)

    return m


def _os(et: str, shape: list[int] | None, values: Callable[[gen.Case], list[int]]) -> Mutation:
    def m(doc: Doc) -> None:
        vals = values(doc.case)
        shp = [len(vals)] if shape is None else shape
        np_t = {"i64": np.int64, "i32": np.int32, "f32": np.float32, "boolean": np.bool_}[et]
        doc.set_const("_os", et, shp, np.array(vals, dtype=np_t).tobytes(), 2)

    return m


def _os_parameter(shape: str, auto_pad: str) -> Mutation:
    """Turn the output_shape Const into an i64 Parameter of ``shape`` (value unknown)."""

    def m(doc: Doc) -> None:
        const = doc.layer("_os")
        const.set("type", "Parameter")
        data = const.find("data")
        for key in list(data.attrib):
            del data.attrib[key]
        data.set("shape", shape)
        data.set("element_type", "i64")
        port = const.find("output/port")
        doc.set_port_dims(port, [] if shape == "..." else [-1])
        doc.set_port_dims(doc.op.find("input").findall("port")[2], [] if shape == "..." else [-1])
        doc.data.set("auto_pad", auto_pad)

    return m


def _data_spatial(value: int) -> Mutation:
    def m(doc: Doc) -> None:
        dims = _dims(doc.case.data)
        dims[-1] = value
        doc.set_param_shape(dims)

    return m


def _os_reshape(shape_of: Callable[[int], list[int]]) -> Mutation:
    def m(doc: Doc) -> None:
        doc.reshape_const("_os", shape_of(doc.case.nsp), 2)

    return m


def _cin(case: gen.Case) -> int:
    f = _dims(case.filt)
    return {gen.CONV: f[1], gen.BACKPROP: f[0], gen.GCONV: f[2], gen.GBACKPROP: f[1]}[case.op]


def _groups(case: gen.Case) -> int:
    return _dims(case.filt)[0]


ALL = lambda c: True  # noqa: E731
MULTI = lambda c: c.nsp >= 2  # noqa: E731
BWD = lambda c: not c.forward  # noqa: E731
GRP = lambda c: c.group  # noqa: E731
PLAIN = lambda c: not c.group  # noqa: E731

REJECTED_MUTANTS: dict[str, tuple[Callable[[gen.Case], bool], Mutation]] = {
    # auto_pad values that are not members of PadType (§4.4)
    "auto_pad=notset": (ALL, _set("auto_pad", "notset")),
    "auto_pad=None": (ALL, _set("auto_pad", "None")),
    "auto_pad=same": (ALL, _set("auto_pad", "same")),
    "auto_pad=NOTSET": (ALL, _set("auto_pad", "NOTSET")),
    "auto_pad=empty": (ALL, _set("auto_pad", "")),
    "auto_pad=auto": (ALL, _set("auto_pad", "auto")),
    "auto_pad=space-valid": (ALL, _set("auto_pad", " valid")),
    "auto_pad=same-upper": (ALL, _set("auto_pad", "same-upper")),
    # list lengths (§4.1)
    "strides+1": (ALL, _list_len("strides", 1)),
    "strides-1": (MULTI, _list_len("strides", -1)),
    "dilations+1": (ALL, _list_len("dilations", 1)),
    "dilations-1": (MULTI, _list_len("dilations", -1)),
    "pads_begin+1": (ALL, _list_len("pads_begin", 1)),
    "pads_end-1": (MULTI, _list_len("pads_end", -1)),
    "pads_end+2": (ALL, _list_len("pads_end", 2)),
    "output_padding+1": (BWD, _list_len("output_padding", 1)),
    "output_padding-1": (lambda c: BWD(c) and MULTI(c), _list_len("output_padding", -1)),
    # pads lengths are checked even when auto_pad ignores the values (§4.1)
    "valid+pads_begin+1": (
        ALL,
        lambda d: (d.data.set("auto_pad", "valid"), _list_len("pads_begin", 1)(d)),
    ),
    # list values and syntax (§4.2, §4.6)
    "stride=0": (ALL, _zero_at("strides")),
    "dilation=0": (ALL, _zero_at("dilations")),
    "strides=a": (ALL, lambda d: d.data.set("strides", ",".join(["a"] * d.case.nsp))),
    "strides=double-comma": (MULTI, lambda d: d.data.set("strides", "1,,1")),
    "dilations=+1": (ALL, lambda d: d.data.set("dilations", ",".join(["+1"] * d.case.nsp))),
    "pads_begin=[1]": (ALL, lambda d: d.data.set("pads_begin", "[1]")),
    # channels (§2)
    "data C + 1": (PLAIN, _data_channels(lambda c: _cin(c) + 1)),
    "data C = C_IN/G * G + 1 (not divisible)": (
        GRP,
        _data_channels(lambda c: _cin(c) * _groups(c) + 1),
    ),
    "data C = C_IN/G * (G + 1) (groups mismatch)": (
        GRP,
        _data_channels(lambda c: _cin(c) * (_groups(c) + 1)),
    ),
    # ranks (§3)
    "kernel rank + 1": (ALL, _kernel_rank(1)),
    "kernel rank - 1": (ALL, _kernel_rank(-1)),
    "data rank 2": (ALL, _data_rank(2)),
    "data rank 6": (ALL, _data_rank(6)),
    # element types (§6)
    "data f16, filter f32": (ALL, lambda d: d.set_param_type("f16", "FP16")),
    "data boolean": (ALL, lambda d: d.set_param_type("boolean", "BOOL")),
    # output_shape input (§1.2)
    "output_shape length + 1": (BWD, _os("i64", None, lambda c: [9] * (c.nsp + 1))),
    "output_shape length - 1": (
        lambda c: BWD(c) and MULTI(c),
        _os("i64", None, lambda c: [9] * (c.nsp - 1)),
    ),
    "output_shape f32": (BWD, _os("f32", None, lambda c: [9] * c.nsp)),
    "output_shape boolean": (BWD, _os("boolean", None, lambda c: [1] * c.nsp)),
    "output_shape rank 2 (1 x n)": (BWD, _os_reshape(lambda n: [1, n])),
    "output_shape rank 2 (n x 1)": (BWD, _os_reshape(lambda n: [n, 1])),
    "output_shape rank 0": (lambda c: BWD(c) and c.nsp == 1, _os_reshape(lambda n: [])),
    "output_shape negative": (BWD, _os("i64", None, lambda c: [-3] + [9] * (c.nsp - 1))),
    # same_* with an output_shape of unknown length: OpenVINO fails (internal error
    # "Accessing out-of-range dimension"), while explicit/valid give a rank-2 output
    "same_upper + output_shape Parameter [?]": (BWD, _os_parameter("?", "same_upper")),
    "same_lower + output_shape Parameter [...]": (BWD, _os_parameter("...", "same_lower")),
    # more shapes
    "data rank 1": (ALL, _data_rank(1)),
    "kernel larger than padded input (explicit)": (lambda c: c.forward, _data_spatial(1)),
    "kernel larger than input (valid)": (
        lambda c: c.forward,
        lambda d: (d.data.set("auto_pad", "valid"), _data_spatial(2)(d)),
    ),
    "group C_IN/G = 0": (
        GRP,
        lambda d: d.reshape_const(
            "_filter",
            [_dims(d.case.filt)[0], *([3, 0] if d.case.forward else [0, 3]), *_dims(d.case.filt)[3:]],
            1,
        ),
    ),
    "strides space-separated": (MULTI, lambda d: d.data.set("strides", " ".join(["1"] * d.case.nsp))),
    # the layer itself
    "version=opset17": (ALL, lambda d: d.op.set("version", "opset17")),
    "version=opset0": (ALL, lambda d: d.op.set("version", "opset0")),
    "version=Opset1": (ALL, lambda d: d.op.set("version", "Opset1")),
}

REJECT_PARAMS = [
    pytest.param(base, mutant, id=f"{base}:{mutant}")
    for base, case in BASES.items()
    for mutant, (applies, _) in REJECTED_MUTANTS.items()
    if applies(case)
]

# --------------------------------------------------------------------------------------
# accepted variants: edits OpenVINO reads without complaint (irshape must not error and
# must infer the shape OpenVINO infers from the edited file)
# --------------------------------------------------------------------------------------


def _out_port_id_zero(doc: Doc) -> None:
    """Spec-style numbering: the output port reuses id 0 (legal, §8.2)."""
    op = doc.op
    port = op.find("output/port")
    old = port.get("id")
    port.set("id", "0")
    for edge in doc.tree.iter("edge"):
        if edge.get("from-layer") == op.get("id") and edge.get("from-port") == old:
            edge.set("from-port", "0")


def _retype_all(et: str, precision: str) -> Mutation:
    """Data Parameter and filter Const to another type of the same width (bytes reused)."""

    def m(doc: Doc) -> None:
        doc.set_param_type(et, precision)
        const = doc.layer("_filter")
        const.find("data").set("element_type", et)
        const.find("output/port").set("precision", precision)
        doc.op.find("output/port").set("precision", precision)

    return m


def _port_dims(which: str, fn: Callable[[list[int]], list[int]]) -> Mutation:
    def m(doc: Doc) -> None:
        if which == "op-in":
            port = doc.op.find("input").findall("port")[0]
        elif which == "param-out":
            port = doc.layer("_data").find("output/port")
        elif which == "result-in":
            port = doc.layer("_out").find("input/port")
        else:
            port = doc.op.find("output/port")
        doc.set_port_dims(port, fn([int(d.text) for d in port.findall("dim")]))

    return m


ACCEPTED_VARIANTS: dict[str, tuple[Callable[[gen.Case], bool], Mutation]] = {
    "type lower-case": (ALL, lambda d: d.op.set("type", d.op.get("type").lower())),
    "type upper-case": (ALL, lambda d: d.op.set("type", d.op.get("type").upper())),
    "version=opset2": (ALL, lambda d: d.op.set("version", "opset2")),
    "version=opset8": (ALL, lambda d: d.op.set("version", "opset8")),
    "version=opset16": (ALL, lambda d: d.op.set("version", "opset16")),
    "no <data> (all defaults)": (ALL, lambda d: d.op.remove(d.data)),
    "unknown attributes": (
        ALL,
        lambda d: [
            d.data.set(k, v)
            for k, v in (("groups", "2"), ("data_format", "NXC"), ("filter_format", "XIO"), ("foo", "bar"))
        ],
    ),
    "output_padding on a forward op": (
        lambda c: c.forward,
        lambda d: d.data.set("output_padding", ", ".join(["1"] * d.case.nsp)),
    ),
    "strides with decimals (1.7 -> 1)": (
        ALL,
        lambda d: d.data.set("strides", ",".join(["1.7"] * d.case.nsp)),
    ),
    "output port id 0": (ALL, _out_port_id_zero),
    "IR version 10": (ALL, lambda d: d.tree.getroot().set("version", "10")),
    "data element_type dynamic": (ALL, lambda d: d.set_param_type("dynamic", "UNSPECIFIED")),
    "data and filter i32": (ALL, _retype_all("i32", "I32")),
    "output precision FP16 on an f32 op": (ALL, lambda d: d.op.find("output/port").set("precision", "FP16")),
    "output dims all -1 (compatible)": (ALL, _port_dims("op-out", lambda v: [-1] * len(v))),
    "output dims removed (dynamic rank)": (ALL, _port_dims("op-out", lambda v: [])),
}
# Edits whose output shape differs from the base: the declared output dims (op output port
# and Result input port) are rewritten to what OpenVINO infers, so that only the edit differs.
SYNC_DECLARED = {"no <data> (all defaults)", "strides with decimals (1.7 -> 1)"}

# OpenVINO reads these silently, irshape reports them as errors on purpose (declared dims
# that OpenVINO ignores, §8.2, like the output-dim mutants below; negative strides/dilations
# that OpenVINO misreads as 2^64-1, §4.2). The test asserts both verdicts.
FLAGGED_VARIANTS: dict[str, tuple[Callable[[gen.Case], bool], Mutation]] = {
    "op input port dims wrong": (ALL, _port_dims("op-in", lambda v: [x + 3 for x in v])),
    "Parameter port dims wrong": (ALL, _port_dims("param-out", lambda v: [x + 3 for x in v])),
    "Result input port dims wrong": (ALL, _port_dims("result-in", lambda v: [x + 3 for x in v])),
    "negative stride": (ALL, lambda d: d.data.set("strides", ",".join(["-1"] * d.case.nsp))),
    "negative dilation": (ALL, lambda d: d.data.set("dilations", ",".join(["-1"] * d.case.nsp))),
}

FLAGGED_PARAMS = [
    pytest.param(base, variant, id=f"{base}:{variant}")
    for base, case in BASES.items()
    for variant, (applies, _) in FLAGGED_VARIANTS.items()
    if applies(case)
]
ACCEPT_PARAMS = [
    pytest.param(base, variant, id=f"{base}:{variant}")
    for base, case in BASES.items()
    for variant, (applies, _) in ACCEPTED_VARIANTS.items()
    if applies(case)
]

# --------------------------------------------------------------------------------------
# declared-dim mutants: generated valid configurations, one op per file
# --------------------------------------------------------------------------------------


def _dim_mutant_cases() -> list[tuple[gen.Case, str, int, int]]:
    """(case, expected shape, output dim index, delta) for a deterministic sample."""
    accepted, _ = gen.generate()
    rng = random.Random(gen.SEED + 1)
    by_op: dict[str, list[gen.Accepted]] = {}
    for a in accepted:
        by_op.setdefault(a.case.op, []).append(a)
    out = []
    for op in gen.OPS:
        pool = by_op[op]
        picks = rng.sample(pool, 40)
        for a in picks:
            static = [i for i, tok in enumerate(a.expected.strip("[]").split(",")) if tok.isdigit()]
            if a.expected == "[...]" or not static:
                continue
            i = rng.choice(static)
            value = int(a.expected.strip("[]").split(",")[i])
            delta = 1 if value < 1 or rng.random() < 0.6 else -1
            out.append((a.case, a.expected, i, delta))
            if len([o for o in out if o[0].op == op]) >= 20:
                break
    return out


DIM_MUTANTS = _dim_mutant_cases()
DIM_PARAMS = [
    pytest.param(case, expected, i, delta, id=f"{case.cid}-{case.op}:out[{i}]{delta:+d}")
    for case, expected, i, delta in DIM_MUTANTS
]

STATS["rejected mutants (OpenVINO read_model raises)"] = (
    f"{len(REJECT_PARAMS)} from {len(BASES)} base files, {len(REJECTED_MUTANTS)} classes"
)
STATS["declared-dim mutants (OpenVINO read_model accepts)"] = len(DIM_PARAMS)
STATS["accepted file variants (OpenVINO read_model accepts)"] = len(ACCEPT_PARAMS)
STATS["variants OpenVINO accepts and irshape flags on purpose"] = len(FLAGGED_PARAMS)

# --------------------------------------------------------------------------------------
# fixtures and helpers
# --------------------------------------------------------------------------------------


class Files:
    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.saved: dict[str, tuple[Path, str]] = {}

    def base(self, case: gen.Case) -> tuple[Path, str]:
        """Save ``case`` alone; check OpenVINO and irshape accept it. Returns (xml, shape)."""
        if case.cid not in self.saved:
            folder = self.tmp / case.cid
            folder.mkdir()
            xml = folder / "base.xml"
            expected = gen.save_cases([case], xml, name=case.cid)[case.cid]
            assert gen.read_back(xml) == {case.cid: expected}
            report = irshape.check_file(xml)
            assert not report.errors, "base file not clean in irshape:\n" + "\n".join(
                fmt_diag(d) for d in report.errors
            )
            self.saved[case.cid] = (xml, expected)
        return self.saved[case.cid]

    def load(self, case: gen.Case) -> Doc:
        xml, _ = self.base(case)
        tree = etree.parse(str(xml))
        return Doc(case, tree, bytearray(xml.with_suffix(".bin").read_bytes()))

    def write(self, doc: Doc, stem: str) -> Path:
        xml = self.tmp / doc.case.cid / f"{stem}.xml"
        doc.tree.write(str(xml), xml_declaration=True, encoding="utf-8")
        xml.with_suffix(".bin").write_bytes(bytes(doc.bin))
        return xml


@pytest.fixture(scope="session")
def files(tmp_path_factory: pytest.TempPathFactory) -> Files:
    return Files(tmp_path_factory.mktemp("mutants"))


def _stem(text: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in text)[:80]


def _ov_error(xml: Path) -> str | None:
    try:
        ov.Core().read_model(str(xml))
    except RuntimeError as exc:
        return [ln for ln in str(exc).splitlines() if ln.strip()][-1]
    return None


# --------------------------------------------------------------------------------------
# tests
# --------------------------------------------------------------------------------------


def test_mutant_counts() -> None:
    assert len(REJECT_PARAMS) >= 36
    assert len(DIM_PARAMS) >= 36
    assert {c.op for c, *_ in DIM_MUTANTS} == set(gen.OPS)


@pytest.mark.parametrize(("base", "mutant"), REJECT_PARAMS)
def test_rejected_mutant(files: Files, base: str, mutant: str) -> None:
    case = BASES[base]
    doc = files.load(case)
    REJECTED_MUTANTS[mutant][1](doc)
    xml = files.write(doc, _stem(mutant))
    ov_error = _ov_error(xml)
    assert ov_error is not None, f"mutant class is wrong: OpenVINO accepts {mutant} on {base}"
    report = _checked(xml, f"{base} {mutant}")
    assert report.errors, (
        f"{base} {mutant}: OpenVINO rejects ({ov_error}), irshape reports no error; "
        f"diagnostics: {[fmt_diag(d) for d in report.diagnostics]}\nfile {xml}"
    )


@pytest.mark.parametrize(("base", "variant"), ACCEPT_PARAMS)
def test_accepted_variant(files: Files, base: str, variant: str) -> None:
    case = BASES[base]
    doc = files.load(case)
    ACCEPTED_VARIANTS[variant][1](doc)
    xml = files.write(doc, "ok_" + _stem(variant))
    ov_error = _ov_error(xml)
    assert ov_error is None, f"variant class is wrong: OpenVINO rejects {variant}: {ov_error}"
    expected = gen.read_back(xml)[case.cid]
    if variant in SYNC_DECLARED:
        dims = [-1 if "." in t or "?" in t else int(t) for t in expected.strip("[]").split(",")]
        doc.set_port_dims(doc.op.find("output/port"), dims)
        doc.set_port_dims(doc.layer("_out").find("input/port"), dims)
        xml = files.write(doc, "ok_" + _stem(variant))
        assert gen.read_back(xml)[case.cid] == expected
    report = irshape.check_file(xml)
    layer = next((la for la in report.layers if la.name == case.cid), None)
    got = str(layer.outputs[0]) if layer is not None and layer.outputs else None
    problems = []
    if report.errors:
        problems.append("irshape errors:\n  " + "\n  ".join(fmt_diag(d) for d in report.errors))
    if got != expected:
        problems.append(f"shape: OpenVINO {expected}, irshape {got}")
    assert not problems, f"{base} {variant}\nfile {xml}\n" + "\n".join(problems)


@pytest.mark.parametrize(("base", "variant"), FLAGGED_PARAMS)
def test_flagged_variant(files: Files, base: str, variant: str) -> None:
    doc = files.load(BASES[base])
    FLAGGED_VARIANTS[variant][1](doc)
    xml = files.write(doc, "flag_" + _stem(variant))
    ov_error = _ov_error(xml)
    assert ov_error is None, f"variant class is wrong: OpenVINO rejects {variant}: {ov_error}"
    report = _checked(xml, f"{base} {variant}")
    assert report.errors, f"{base} {variant}: irshape reports no error\nfile {xml}"


@pytest.mark.parametrize(("case", "expected", "index", "delta"), DIM_PARAMS)
def test_declared_dim_mutant(files: Files, case: gen.Case, expected: str, index: int, delta: int) -> None:
    doc = files.load(case)
    port = doc.op.find("output/port")
    dims = port.findall("dim")
    old = int(dims[index].text)
    assert old >= 0, f"{case.cid}: declared dim {index} is {old}, OpenVINO says {expected}"
    dims[index].text = str(old + delta)
    path = doc.tree.getpath(dims[index])
    xml = files.write(doc, f"dim{index}{delta:+d}")

    # the lines of the mutated <dim> and of its <port>, in the file as written
    written = etree.parse(str(xml))
    dim_el = written.xpath(path)[0]
    lines = {dim_el.sourceline, dim_el.getparent().sourceline}
    assert dim_el.text == str(old + delta)

    assert _ov_error(xml) is None, "OpenVINO was expected to accept a wrong declared dim"
    assert gen.read_back(xml) == {case.cid: expected}

    report = _checked(xml, f"{case.cid}")
    assert report.errors, (
        f"{case.describe()}\nout[{index}] {old} -> {old + delta} (OpenVINO: {expected}): "
        f"irshape reports no error; diagnostics: {[fmt_diag(d) for d in report.diagnostics]}"
    )
    elsewhere = [d for d in report.errors if d.line not in lines]
    assert not elsewhere, (
        f"{case.describe()}\nout[{index}] {old} -> {old + delta}: errors not on lines "
        f"{sorted(lines)}:\n" + "\n".join(fmt_diag(d) for d in elsewhere)
    )
