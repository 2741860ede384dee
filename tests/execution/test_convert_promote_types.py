"""ConvertPromoteTypes-14's kernel against OpenVINO's CPU plugin: pairs of the element types the
plugin takes as inputs (boolean, f16, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64),
(the harness feeds no bf16), safe and unsafe promotion, PyTorch's scalar rule, the u64 target; random data and edge values
(integer extremes, NaN, infinities, values past the target's range), batched into one model."""

from __future__ import annotations

import numpy as np
import openvino as ov
import openvino.opset14 as opset14
import pytest

from .harness import Case, parameter, run_batch

_TYPES = ["boolean", "f16", "f32", "f64", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"]
_DTYPES = {
    "boolean": np.bool_, "f16": np.float16, "f32": np.float32, "f64": np.float64,
    "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
    "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
}  # fmt: skip


def _data(rng: np.random.Generator, element_type: str, shape: tuple[int, ...], edges: bool) -> np.ndarray:
    if element_type == "boolean":
        return rng.random(shape) < 0.5
    dtype = np.dtype(_DTYPES[element_type])
    if dtype.kind == "f":
        values = rng.standard_normal(shape) * 300
        if edges and values.size >= 4:
            # an f64 Parameter's infinities reach the plugin's nodes as +-FLT_MAX (its input
            # conversion, not this op's): f64 edges are NaN and finite values only
            specials = (
                [np.nan, 1e20, -3.5e9, 70000.5] if dtype == np.float64 else [np.nan, np.inf, -np.inf, 70000.5]
            )
            values.reshape(-1)[:4] = specials
        with np.errstate(over="ignore"):  # 70000.5 is inf in f16
            return values.astype(dtype)
    info = np.iinfo(dtype)
    values = rng.integers(max(info.min, -1000), min(info.max, 1000), shape, endpoint=True)
    if edges and values.size >= 2:
        values = values.astype(object)
        # the whole range: straight from a Parameter the plugin converts u32, u64 and i64 whole
        # to a real type and cuts them to 32 bits otherwise (irshape/kernels/integers.py)
        values.reshape(-1)[:2] = [info.min, info.max]
    return np.array(values, dtype=dtype)


def _parameter(element_type: str, shape: tuple[int, ...]) -> ov.Node:
    return parameter(shape, _DTYPES[element_type])


def _cases() -> list[Case]:
    rng = np.random.default_rng(14)
    cases: list[Case] = []
    attempts = 0
    while len(cases) < 120 and attempts < 5000:
        attempts += 1
        first, second = rng.choice(_TYPES), rng.choice(_TYPES)
        shapes = [(2, 3), (3,)] if rng.random() < 0.7 else [(2, 3), ()]
        if rng.random() < 0.5:
            shapes.reverse()
        unsafe, scalars = bool(rng.random() < 0.6), bool(rng.random() < 0.4)
        target = str(rng.choice(["f32", "i64", "f16", "f64"]))
        nodes = [_parameter(str(t), s) for t, s in zip((first, second), shapes, strict=True)]
        try:
            node = opset14.convert_promote_types(*nodes, unsafe, scalars, target)
        except RuntimeError:  # a pair the safe rules refuse
            continue
        edges = len(cases) % 3 == 0
        feeds = {
            n: _data(rng, str(t), s, edges) for n, t, s in zip(nodes, (first, second), shapes, strict=True)
        }
        name = f"promote{len(cases)}_{first}_{second}_{'unsafe' if unsafe else 'safe'}"
        cases.append(Case(name, feeds, list(node.outputs())))
    return cases


CASES = _cases()


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    return run_batch(CASES, tmp_path_factory.mktemp("promote"))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_convert_promote_types(batch, case):
    assert batch.mismatch(case) is None, batch.mismatch(case)


def test_every_layer_ran(batch):
    assert batch.execution is not None and batch.execution.ran == batch.execution.total
