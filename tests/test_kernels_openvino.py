"""The numpy kernels agree with OpenVINO's CPU plugin.

Each generated configuration is a one-op model (Parameter data, Constant filter, optional
Constant output_shape) built with the ``openvino.opset1`` builders, compiled for "CPU" and run
on seeded random data. The pads handed to the kernels are the ones OpenVINO resolved itself
(``node.get_attributes()`` after construction, rules §12.6), so auto_pad is not reimplemented
here.

Traps handled (rules §12):
* The CPU plugin's default inference precision is bf16 on CPUs that support it (off by ~1e-2):
  models are compiled with ``INFERENCE_PRECISION_HINT=f32``.
* ``opset1.group_convolution_backprop_data`` drops the pads when ``output_shape`` is given, so
  that case is built through the same node factory the builder uses, with the pads passed on.
"""

from __future__ import annotations

import dataclasses
import zlib
from collections import Counter

import numpy as np
import openvino as ov
import openvino.opset1 as opset1
import pytest
from openvino.utils.node_factory import NodeFactory

from irshape.execute import UnsupportedByOpenVINOError
from irshape.execute import convolve as convolution
from irshape.execute import convolve_backprop as convolution_backprop

CONV, GCONV = "Convolution", "GroupConvolution"
DECONV, GDECONV = "ConvolutionBackpropData", "GroupConvolutionBackpropData"
CPU_CONFIG = {"INFERENCE_PRECISION_HINT": "f32"}
CONFIGS_PER_OP = 100

_core = ov.Core()


@dataclasses.dataclass(frozen=True)
class Config:
    op: str
    x_shape: tuple[int, ...]
    w_shape: tuple[int, ...]
    strides: tuple[int, ...]
    dilations: tuple[int, ...]
    pads_begin: tuple[int, ...]
    pads_end: tuple[int, ...]
    auto_pad: str
    output_padding: tuple[int, ...] | None = None
    output_shape: tuple[int, ...] | None = None

    @property
    def backprop(self) -> bool:
        return self.op in (DECONV, GDECONV)

    @property
    def groups(self) -> int:
        return self.w_shape[0] if len(self.w_shape) == len(self.x_shape) + 1 else 1


def _ints(rng: np.random.Generator, lo: int, hi: int, n: int) -> tuple[int, ...]:
    return tuple(int(v) for v in rng.integers(lo, hi + 1, n))


def _generate(op: str, count: int, seed: int) -> list[Config]:
    """Seeded configurations the CPU plugin can build (pads_begin >= 0; forward pb + pe >= 0)."""
    rng = np.random.default_rng(seed)
    configs: list[Config] = []
    while len(configs) < count:
        nd = int(rng.integers(1, 4))
        spatial = _ints(rng, 1, {1: 16, 2: 9, 3: 5}[nd], nd)
        kernel = _ints(rng, 1, 5 if nd == 1 else 3, nd)
        strides, dilations = _ints(rng, 1, 3, nd), _ints(rng, 1, 3, nd)
        pads_begin, pads_end = _ints(rng, 0, 3, nd), _ints(rng, -2, 3, nd)
        auto_pad = str(rng.choice(["explicit", "same_upper", "same_lower", "valid"]))
        grouped = op in (GCONV, GDECONV)
        groups = int(rng.integers(1, 4)) if grouped else 1
        c_g, m_g = int(rng.integers(1, 5)), int(rng.integers(1, 5))
        if op == GDECONV and groups == 1 and (c_g, m_g) != (1, 1):
            continue  # the CPU plugin cannot build these (test_single_group_backprop_...)
        x_shape = (int(rng.integers(1, 3)), groups * c_g, *spatial)
        if op == CONV:
            w_shape = (m_g, c_g, *kernel)
        elif op == GCONV:
            w_shape = (groups, m_g, c_g, *kernel)
        elif op == DECONV:
            w_shape = (c_g, m_g, *kernel)
        else:
            w_shape = (groups, c_g, m_g, *kernel)
        dilated = [(k - 1) * d + 1 for k, d in zip(kernel, dilations, strict=True)]
        if op in (CONV, GCONV):
            pads_end = tuple(max(e, -b) for b, e in zip(pads_begin, pads_end, strict=True))
            if auto_pad in ("explicit", "valid"):
                used = (pads_begin, pads_end) if auto_pad == "explicit" else ((0,) * nd, (0,) * nd)
                if any(kd > dd + b + e for kd, dd, b, e in zip(dilated, spatial, *used, strict=True)):
                    continue
            configs.append(Config(op, x_shape, w_shape, strides, dilations, pads_begin, pads_end, auto_pad))
            continue
        output_padding = _ints(rng, -1, 2, nd)
        full = [(dd - 1) * s + kd for dd, s, kd in zip(spatial, strides, dilated, strict=True)]
        output_shape = None
        if rng.random() < 0.4:
            output_shape = tuple(max(1, f + int(rng.integers(-4, 5))) for f in full)
        else:
            used = (pads_begin, pads_end) if auto_pad == "explicit" else ((0,) * nd, (0,) * nd)
            size = [f - b - e + o for f, b, e, o in zip(full, *used, output_padding, strict=True)]
            if min(size) < 1:
                continue
        configs.append(
            Config(
                op, x_shape, w_shape, strides, dilations, pads_begin, pads_end, auto_pad, output_padding,
                output_shape,
            )
        )  # fmt: skip
    return configs


ALL_CONFIGS = [
    cfg
    for seed, op in enumerate((CONV, GCONV, DECONV, GDECONV), start=100)
    for cfg in _generate(op, CONFIGS_PER_OP, seed)
]


def _config_id(cfg: Config) -> str:
    parts = [
        cfg.op,
        "x" + "x".join(map(str, cfg.x_shape)),
        "w" + "x".join(map(str, cfg.w_shape)),
        cfg.auto_pad,
    ]
    if cfg.output_shape is not None:
        parts.append("O" + "x".join(map(str, cfg.output_shape)))
    return "-".join(parts)


def _build(cfg: Config, w: np.ndarray) -> tuple[ov.Model, ov.Node]:
    data = opset1.parameter(list(cfg.x_shape), np.float32, name="x")
    filters = opset1.constant(w)
    attrs = {
        "strides": list(cfg.strides),
        "pads_begin": list(cfg.pads_begin),
        "pads_end": list(cfg.pads_end),
        "dilations": list(cfg.dilations),
        "auto_pad": cfg.auto_pad,
    }
    if cfg.op == CONV:
        node = opset1.convolution(data, filters, **attrs)
    elif cfg.op == GCONV:
        node = opset1.group_convolution(data, filters, **attrs)
    else:
        attrs["output_padding"] = list(cfg.output_padding or ())
        out_shape = None
        if cfg.output_shape is not None:
            out_shape = opset1.constant(np.array(cfg.output_shape, dtype=np.int64))
        if cfg.op == DECONV:
            node = opset1.convolution_backprop_data(data, filters, output_shape=out_shape, **attrs)
        elif out_shape is None:
            node = opset1.group_convolution_backprop_data(data, filters, **attrs)
        else:  # the builder would drop the pads here (rules §12.1)
            inputs = [data.output(0), filters.output(0), out_shape.output(0)]
            node = NodeFactory("opset1").create(GDECONV, inputs, {**attrs, "auto_pad": cfg.auto_pad.upper()})
    return ov.Model([node], [data]), node


def _run_openvino(model: ov.Model, x: np.ndarray) -> np.ndarray:
    compiled = _core.compile_model(model, "CPU", CPU_CONFIG)
    return compiled([x])[compiled.output(0)]


def _run_kernel(cfg: Config, x: np.ndarray, w: np.ndarray, node: ov.Node) -> np.ndarray:
    resolved = node.get_attributes()  # post-inference pads: auto_pad already applied
    common = {
        "strides": cfg.strides,
        "dilations": cfg.dilations,
        "pads_begin": list(resolved["pads_begin"]),
        "pads_end": list(resolved["pads_end"]),
        "groups": cfg.groups,
    }
    if not cfg.backprop:
        return convolution(x, w, **common)
    return convolution_backprop(
        x, w, output_padding=list(resolved["output_padding"]), output_spatial=cfg.output_shape, **common
    )


@pytest.mark.parametrize("cfg", ALL_CONFIGS, ids=_config_id)
def test_kernel_matches_openvino_cpu(cfg: Config) -> None:
    rng = np.random.default_rng(zlib.crc32(_config_id(cfg).encode()))
    x = rng.standard_normal(cfg.x_shape).astype(np.float32)
    w = rng.standard_normal(cfg.w_shape).astype(np.float32)
    model, node = _build(cfg, w)
    if cfg.op == GDECONV and cfg.auto_pad == "explicit":
        assert list(node.get_attributes()["pads_begin"]) == list(cfg.pads_begin)
    want = _run_openvino(model, x)
    got = _run_kernel(cfg, x, w, node)
    assert got.dtype == np.float32
    assert got.shape == want.shape == tuple(node.get_output_shape(0))
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


def test_generated_configurations_cover_every_attribute() -> None:
    seen: Counter[str] = Counter()
    for cfg in ALL_CONFIGS:
        nd = len(cfg.strides)
        seen[f"{cfg.op} {nd}D"] += 1
        seen[f"{cfg.op} {cfg.auto_pad}"] += 1
        seen[f"{cfg.op} stride>1"] += max(cfg.strides) > 1
        seen[f"{cfg.op} dilation>1"] += max(cfg.dilations) > 1
        seen[f"{cfg.op} batch 2"] += cfg.x_shape[0] == 2
        if cfg.auto_pad == "explicit":
            seen[f"{cfg.op} asymmetric pads"] += cfg.pads_begin != cfg.pads_end
            seen[f"{cfg.op} negative pads_end"] += min(cfg.pads_end) < 0
        if cfg.groups > 1:
            c_in_g = cfg.w_shape[1] if cfg.backprop else cfg.w_shape[2]
            c_out_g = cfg.w_shape[2] if cfg.backprop else cfg.w_shape[1]
            seen[f"{cfg.op} grouped non-depthwise"] += c_in_g > 1 and c_out_g > 1
        if cfg.backprop:
            seen[f"{cfg.op} output_shape {cfg.auto_pad}"] += cfg.output_shape is not None
            seen[f"{cfg.op} output_padding>0"] += (
                cfg.output_shape is None and max(cfg.output_padding or (0,)) > 0
            )
            seen[f"{cfg.op} output_padding<0"] += (
                cfg.output_shape is None and min(cfg.output_padding or (0,)) < 0
            )
    assert len(ALL_CONFIGS) >= 300
    for op in (CONV, GCONV, DECONV, GDECONV):
        keys = [f"{op} {n}D" for n in (1, 2, 3)]
        keys += [f"{op} {m}" for m in ("explicit", "same_upper", "same_lower", "valid")]
        keys += [
            f"{op} {f}" for f in ("stride>1", "dilation>1", "batch 2", "asymmetric pads", "negative pads_end")
        ]
        if op in (GCONV, GDECONV):
            keys.append(f"{op} grouped non-depthwise")
        if op in (DECONV, GDECONV):
            keys += [f"{op} output_shape {m}" for m in ("explicit", "same_upper", "same_lower", "valid")]
            keys += [f"{op} output_padding>0", f"{op} output_padding<0"]
        missing = [k for k in keys if seen[k] == 0]
        assert not missing, missing


UNBUILDABLE = [
    # op, x_shape, w_shape, strides, pads_begin, pads_end
    pytest.param(CONV, (1, 2, 10), (3, 2, 3), (1,), (-1,), (0,), id="Convolution pb=-1"),
    pytest.param(CONV, (1, 2, 10), (3, 2, 3), (1,), (-2,), (2,), id="Convolution pb=-2 pe=2"),
    pytest.param(CONV, (1, 2, 10), (3, 2, 3), (1,), (0,), (-1,), id="Convolution pb+pe=-1"),
    pytest.param(CONV, (1, 2, 10), (3, 2, 3), (1,), (1,), (-3,), id="Convolution pb+pe=-2"),
    pytest.param(GCONV, (1, 4, 9, 8), (2, 3, 2, 3, 3), (2, 1), (0, -1), (0, 1), id="GroupConvolution pb<0"),
    pytest.param(GCONV, (1, 4, 9, 8), (2, 3, 2, 3, 3), (2, 1), (0, 0), (-2, 0), id="GroupConvolution pe=-2"),
    pytest.param(DECONV, (1, 2, 5), (2, 3, 3), (2,), (-1,), (0,), id="ConvolutionBackpropData pb<0"),
    pytest.param(GDECONV, (1, 4, 3, 4), (2, 2, 3, 2, 2), (2, 2), (0, -2), (1, 1), id="GroupConvolutionBackpropData pb<0"),
]  # fmt: skip


@pytest.mark.parametrize(("op", "x_shape", "w_shape", "strides", "pb", "pe"), UNBUILDABLE)
def test_pads_the_cpu_plugin_cannot_build_are_refused(op, x_shape, w_shape, strides, pb, pe) -> None:
    """Pins what was found: the CPU plugin fails on these pads, and the kernels refuse them."""
    nd = len(strides)
    op_padding = (0,) * nd if op in (DECONV, GDECONV) else None
    cfg = Config(op, x_shape, w_shape, strides, (1,) * nd, pb, pe, "explicit", op_padding)
    x = np.ones(x_shape, np.float32)
    w = np.ones(w_shape, np.float32)
    model, node = _build(cfg, w)
    with pytest.raises(RuntimeError):
        _run_openvino(model, x)
    with pytest.raises(UnsupportedByOpenVINOError):
        _run_kernel(cfg, x, w, node)


@pytest.mark.parametrize(
    ("x_shape", "w_shape", "strides"),
    [
        pytest.param((1, 1, 5), (1, 1, 2, 3), (2,), id="1D C_IN/G=1 C_OUT/G=2"),
        pytest.param((2, 3, 4, 5), (1, 3, 2, 3, 2), (2, 1), id="2D C_IN/G=3 C_OUT/G=2"),
        pytest.param((1, 2, 3, 3, 2), (1, 2, 1, 2, 2, 2), (1, 2, 2), id="3D C_IN/G=2 C_OUT/G=1"),
    ],
)
def test_single_group_backprop_fails_on_cpu_but_equals_the_plain_op(x_shape, w_shape, strides) -> None:
    """Found: the CPU plugin cannot build GroupConvolutionBackpropData with one group unless
    C_IN/G = C_OUT/G = 1 ("could not create a primitive descriptor for the deconvolution").
    The kernel computes it anyway; it equals ConvolutionBackpropData with the group axis dropped,
    which the CPU plugin does run."""
    nd = len(strides)
    rng = np.random.default_rng(5)
    x = rng.standard_normal(x_shape).astype(np.float32)
    w = rng.standard_normal(w_shape).astype(np.float32)
    pads = {"pads_begin": (1,) * nd, "pads_end": (0,) * nd}
    grouped = Config(
        GDECONV, x_shape, w_shape, strides, (1,) * nd, auto_pad="explicit", output_padding=(1,) * nd, **pads
    )
    plain = dataclasses.replace(grouped, op=DECONV, w_shape=w_shape[1:])
    model, node = _build(grouped, w)
    with pytest.raises(RuntimeError, match="primitive descriptor"):
        _run_openvino(model, x)
    plain_model, _ = _build(plain, w[0])
    got = _run_kernel(grouped, x, w, node)
    np.testing.assert_allclose(got, _run_openvino(plain_model, x), rtol=1e-4, atol=1e-4)


def test_group_backprop_builder_drops_pads_with_output_shape() -> None:
    """Why _build bypasses the builder for GroupConvolutionBackpropData with output_shape."""
    data = opset1.parameter([1, 4, 3, 3], np.float32)
    filters = opset1.constant(np.ones([2, 2, 1, 3, 3], np.float32))
    out_shape = opset1.constant(np.array([5, 5], dtype=np.int64))
    node = opset1.group_convolution_backprop_data(
        data, filters, [1, 1], output_shape=out_shape, pads_begin=[1, 1], pads_end=[1, 1]
    )
    assert list(node.get_attributes()["pads_begin"]) == [0, 0]
