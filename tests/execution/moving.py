"""What the layout and rearrange suites share: data of every element type a layout op moves,
index Consts, one batch per op group compiled once, Parameters with their feeds, the
executor's refusal of a layer, and cases checked against OpenVINO's reference (Rebuilt)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import openvino as ov
import openvino.opset13 as opset

from irshape.execute.network import ExecutionError, Outcome, execute
from irshape.ir.reader import read_file

from .harness import CPU_CONFIG, Batch, Case, parameter, run_batch

# The element types of the data: i64 stays inside the int32 range, as the CPU plugin runs i64
# as i32 (an element beyond it comes out truncated even from a Concat; the kernels keep it,
# as the reference: test_layout's wide cases).
DTYPES: tuple[Any, ...] = (
    np.float32,
    np.int32,
    np.int64,
    np.uint8,
    np.bool_,
    np.float16,
    np.int8,
    np.int16,
    np.uint16,
)


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
    # i64 over its whole range: the plugin holds it as i32 (irshape/kernels/integers.py)
    info = np.iinfo(dtype)
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


def refusal(directory: Path, node: ov.Node, feeds: Mapping[ov.Node, np.ndarray]) -> Outcome | None:
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


class Rebuilt:
    """A case whose expected values come from OpenVINO's reference rather than the CPU plugin:
    ``build`` makes the node from its data inputs, once on Parameters (the case irshape runs),
    once for the reference (:meth:`expected`)."""

    def __init__(self, name: str, build: Callable[..., ov.Node], values: Sequence[np.ndarray]) -> None:
        self.build = build
        self.values = [np.array(value, copy=True) for value in values]
        inputs = [parameter(value.shape, value.dtype) for value in self.values]
        node = build(*inputs)
        outputs = [node.output(i) for i in range(node.get_output_size())]
        self.case = Case(name, dict(zip(inputs, self.values, strict=True)), outputs, exact=True)

    def expected(self) -> list[np.ndarray]:
        """The outputs as the node's own ``evaluate`` (the reference implementation, no plugin
        and no precision conversion) computes them; where it has none for these inputs
        (SliceScatter; SpaceToBatch of rank 2), the CPU plugin's on Const inputs."""
        inputs = [parameter(value.shape, value.dtype) for value in self.values]
        node = self.build(*inputs)
        # the values as the plugin holds them from a Parameter (i64 as its low 32 bits:
        # irshape/kernels/integers.py), so that the reference computes on what the plugin reads
        held = [
            value.astype(np.int32).astype(value.dtype)
            if value.dtype.kind in "iu" and value.dtype.itemsize == 8
            else value
            for value in self.values
        ]
        fed = {param.get_friendly_name(): value for param, value in zip(inputs, held, strict=True)}
        arguments = []  # each input of the node: a fed value, or a Const's
        for i in range(node.get_input_size()):
            source = node.input_value(i).get_node()
            value = (
                source.get_data() if source.get_type_name() == "Constant" else fed[source.get_friendly_name()]
            )
            arguments.append(ov.Tensor(np.array(value, copy=True)))  # (a 0-d value stays 0-d)
        count = node.get_output_size()
        outputs = [ov.Tensor(node.get_output_element_type(i), node.get_output_shape(i)) for i in range(count)]
        if node.evaluate(outputs, arguments):
            return [np.array(output.data, copy=True) for output in outputs]
        on_consts = self.build(*[opset.constant(value) for value in held])
        model = ov.Model([on_consts.output(i) for i in range(count)], [], "on_consts")
        request = ov.Core().compile_model(model, "CPU", CPU_CONFIG).create_infer_request()
        request.infer([])
        return [np.array(request.get_output_tensor(i).data, copy=True) for i in range(count)]
