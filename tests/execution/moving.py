"""What the layout and rearrange suites share: data of every element type a layout op moves,
index Consts, and one batch per op group compiled once."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import openvino as ov
import openvino.opset13 as opset

from irshape.execute.network import ExecutionError, execute
from irshape.ir.reader import read_file

from .harness import CPU_CONFIG, Batch, Case, parameter, run_batch

# The element types of the data: i64 stays inside the int32 range, as the CPU plugin runs i64
# as i32 (an element beyond it comes out truncated even from a Concat; the kernels keep it).
DTYPES: tuple[Any, ...] = (np.float32, np.int32, np.int64, np.uint8, np.bool_, np.float16)


def data_of(rng: np.random.Generator, shape: Sequence[int], dtype: Any) -> np.ndarray:
    """Random data with its edges: NaN, infinities and signed zeros among the reals, the
    extremes among the integers."""
    dtype = np.dtype(dtype)
    shape = tuple(shape)
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    if dtype.kind == "f":
        values = (rng.standard_normal(shape) * 10).astype(dtype)
        flat = values.reshape(-1)
        if flat.size >= 8:
            picks = rng.choice(flat.size, 4, replace=False)
            flat[picks] = np.array([np.nan, np.inf, -np.inf, -0.0], dtype)
        return values
    info = np.iinfo(np.int32 if dtype == np.int64 else dtype)
    values = rng.integers(info.min, info.max, shape, dtype=np.int64, endpoint=True).astype(dtype)
    flat = values.reshape(-1)
    if flat.size >= 4:
        flat[:2] = [info.min, info.max]
    return values


def ints(values: Sequence[int] | int, dtype: Any = np.int64) -> ov.Node:
    """An index Const (axes, shapes, pads) of ``values``."""
    return opset.constant(np.array(values, dtype=dtype))


Builder = Callable[[np.random.Generator, int], list[Case]]


def groups_of(builders: Mapping[str, Builder], seed: int = 0) -> dict[str, list[Case]]:
    """Each group's cases, seeded by the group's position."""
    return {
        name: build(np.random.default_rng(seed + i), i) for i, (name, build) in enumerate(builders.items())
    }


class Batches:
    """Each group's batch, built, compiled and run on first use."""

    def __init__(self, groups: Mapping[str, list[Case]], directory: Callable[[str], Path]) -> None:
        self.groups = groups
        self.directory = directory
        self.done: dict[str, Batch] = {}

    def __call__(self, group: str) -> Batch:
        if group not in self.done:
            self.done[group] = run_batch(self.groups[group], self.directory(group))
        return self.done[group]


def parameters(groups: Mapping[str, list[Case]]) -> list[tuple[str, Case]]:
    return [(group, case) for group, cases in groups.items() for case in cases]


def folded(outputs: Mapping[str, ov.Output]) -> dict[str, np.ndarray]:
    """The values of ``outputs`` computed from Consts alone: OpenVINO folds such a model at
    compile time with its reference implementations (not the CPU plugin's kernels)."""
    names = list(outputs)
    model = ov.Model([opset.result(outputs[name]) for name in names], [], "folded")
    request = ov.Core().compile_model(model, "CPU", CPU_CONFIG).create_infer_request()
    request.infer([])
    return {name: np.array(request.get_output_tensor(i).data, copy=True) for i, name in enumerate(names)}


class Feeds:
    """Parameters made with the values to feed them: data, and index inputs given at run time."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.values: dict[ov.Node, np.ndarray] = {}

    def index(self, value: Sequence[int] | int, dtype: Any) -> ov.Node:
        node = parameter(np.shape(value), dtype)
        self.values[node] = np.array(value, dtype)
        return node

    def data(self, shape: Sequence[int], dtype: Any) -> ov.Node:
        node = parameter(shape, dtype)
        self.values[node] = data_of(self.rng, shape, dtype)
        return node


def refusal(directory: Path, node: ov.Node, feeds: Mapping[ov.Node, np.ndarray]) -> Any:
    """What irshape's executor says of a model of ``node`` (saved as IR, not compiled): the
    outcome of the layer it stops at, None when it runs through."""
    model = ov.Model([node.output(0)], list(feeds), "refused")
    ov.save_model(model, directory / "refused.xml", compress_to_fp16=False)
    document = read_file(directory / "refused.xml").document
    assert document is not None
    try:
        execute(document, {param.get_friendly_name(): value for param, value in feeds.items()})
    except ExecutionError as stopped:
        return stopped.outcome.outcome
    return None
