"""The numpy kernels: one function per op, in family modules named as the shape functions' are.

A kernel is ``f(call: KernelCall) -> ndarray | Sequence[ndarray]``: it gets the input arrays,
their OpenVINO element types, the parsed attributes and what shape inference said of this very
call (every output's shape and element type at these inputs, and what a family keeps in
``details``, the convolutions' resolved pads); it returns every output, each with the numpy
dtype :func:`storage_dtype` gives for the output's element type. The op's declaration names it
(``kernel = "relu"`` in ``irshape/schemas/Relu-1.toml``: :func:`kernel_of` finds it in
``irshape.kernels.elementwise``), so adding an op is one declaration, one shape function, one
kernel and their tests. Semantics are OpenVINO's CPU plugin's (compiled with
``INFERENCE_PRECISION_HINT=f32``), read from ``src/core/reference/include/openvino/reference/``
and confirmed by the differential suites in ``tests/execution/``.

This package imports numpy; nothing on ``irshape check``'s path imports it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from importlib import import_module
from typing import Any

import numpy as np

from irshape.ops.interface import OpResult
from irshape.ops.schema import OpSchema, ParsedAttributes
from irshape.record import FrozenRecord, set_field

KernelOutput = np.ndarray | Sequence[np.ndarray]


class UnsupportedByOpenVINOError(ValueError):
    """OpenVINO's CPU plugin cannot build or run this layer (a negative ``pads_begin``), though
    shape inference accepts it: the kernel refuses it too, and says why."""


class KernelError(ValueError):
    """The kernel cannot compute this call (an index out of range where OpenVINO's plugin
    fails too, an element type it does not run); the message says why, in one line."""


# How an OpenVINO element type is held in numpy while executing. Types numpy lacks are widened
# to a type that holds every one of their values exactly: bf16 and the f8/f4 types as float32
# (values already rounded to the narrow type), the sub-byte integers as one byte an element,
# nf4 as its float32 code-book value (what a Convert of it gives), strings as Python str objects.
_STORAGE = {
    "f64": np.float64,
    "f32": np.float32,
    "f16": np.float16,
    "bf16": np.float32,
    "f8e4m3": np.float32,
    "f8e5m2": np.float32,
    "f8e8m0": np.float32,
    "f4e2m1": np.float32,
    "nf4": np.float32,
    "i64": np.int64,
    "i32": np.int32,
    "i16": np.int16,
    "i8": np.int8,
    "i4": np.int8,
    "u64": np.uint64,
    "u32": np.uint32,
    "u16": np.uint16,
    "u8": np.uint8,
    "u6": np.uint8,
    "u4": np.uint8,
    "u3": np.uint8,
    "u2": np.uint8,
    "u1": np.uint8,
    "boolean": np.bool_,
    "string": np.object_,
}


def storage_dtype(element_type: str | None) -> np.dtype[Any] | None:
    """The numpy dtype that holds values of an OpenVINO element type (``f32``, ``u4``...), or
    None for an unknown or dynamic type."""
    dtype = _STORAGE.get(element_type or "")
    return None if dtype is None else np.dtype(dtype)


class Context:
    """What outlives one layer during one execution: the variables of a stateful model
    (ReadValue/Assign), by variable id. ``initial`` holds the values a run starts from where it
    was given any; a variable not there starts as its ReadValue's initialiser says."""

    __slots__ = ("initial", "variables")

    def __init__(self, initial: dict[str, np.ndarray] | None = None) -> None:
        self.initial: dict[str, np.ndarray] = {} if initial is None else dict(initial)
        self.variables: dict[str, np.ndarray] = {}


class KernelCall(FrozenRecord):
    """A kernel's arguments: the declaration, the inputs, the attributes, shape inference's answer."""

    __slots__ = (
        "attributes",
        "compiled_static",
        "constant_inputs",
        "context",
        "inference",
        "input_types",
        "inputs",
        "schema",
    )
    schema: OpSchema
    inputs: tuple[np.ndarray, ...]
    input_types: tuple[str, ...]  # each input's OpenVINO element type ("f32", "u4", "boolean")
    attributes: ParsedAttributes
    inference: OpResult  # the outputs' shapes and element types OpenVINO infers at these inputs
    context: Context
    # the inputs the plugin holds as constants (a Const, or what its compile step folds): some
    # of its nodes compute otherwise with one (Power by a constant exponent, elementwise.py)
    constant_inputs: frozenset[int]
    # is input ``port``'s shape static in the model as OpenVINO reads it (the shape the plugin
    # compiles, not the one it runs at)? Asked only where the plugin's node depends on it (a
    # recurrent sequence's lengths, TopK's ties): the executor answers by a check of the whole
    # model, made once, and says not static for a port it has no shape for; None: the caller
    # does not know (taken as static)
    compiled_static: Callable[[int], bool] | None

    def __init__(
        self,
        schema: OpSchema,
        inputs: tuple[np.ndarray, ...],
        input_types: tuple[str, ...],
        attributes: ParsedAttributes,
        inference: OpResult,
        context: Context,
        constant_inputs: frozenset[int] = frozenset(),
        compiled_static: Callable[[int], bool] | None = None,
    ) -> None:
        set_field(self, "schema", schema)
        set_field(self, "inputs", inputs)
        set_field(self, "input_types", input_types)
        set_field(self, "attributes", attributes)
        set_field(self, "inference", inference)
        set_field(self, "context", context)
        set_field(self, "constant_inputs", constant_inputs)
        set_field(self, "compiled_static", compiled_static)

    def attribute(self, name: str) -> Any:
        """A declared scalar attribute's value, its default when missing (as OpCall's)."""
        return self.attributes.scalar(self.schema.attributes[name])

    def int_list(self, name: str) -> tuple[int, ...]:
        """A declared list attribute's values; its default spread to ``length`` items is the
        shape function's business, so a missing list is ``()``."""
        return self.attributes.int_list(name)

    def output_type(self, index: int = 0) -> str:
        """The OpenVINO element type of output ``index``, as shape inference gives it."""
        return self.inference.outputs[index].element_type or "dynamic"

    def output_dtype(self, index: int = 0) -> np.dtype[Any]:
        """The numpy dtype output ``index`` must have (see :func:`storage_dtype`)."""
        dtype = storage_dtype(self.output_type(index))
        if dtype is None:
            raise KernelError(f"output {index} has the element type {self.output_type(index)}")
        return dtype

    def output_shape(self, index: int = 0) -> tuple[int, ...]:
        """Output ``index``'s shape where inference knows it exactly (most ops at static inputs);
        a :class:`KernelError` where it depends on the data (NonZero's, NMS's)."""
        shape = self.inference.outputs[index].shape
        if not shape.is_static:
            raise KernelError(f"output {index} is {shape}: the kernel must compute its shape")
        return tuple(d.lo for d in shape.dims or ())


Kernel = Callable[[KernelCall], KernelOutput]
WorkingBytes = Callable[[KernelCall], int]
_ESTIMATES: dict[Kernel, WorkingBytes] = {}


def working_memory(estimate: WorkingBytes) -> Callable[[Kernel], Kernel]:
    """Declares how many bytes a kernel allocates at most for a call (outputs and temporaries,
    not its inputs), for kernels whose temporaries outgrow :func:`working_bytes`' default
    (a convolution's unfolded windows)."""

    def register(kernel: Kernel) -> Kernel:
        _ESTIMATES[kernel] = estimate
        return kernel

    return register


def working_bytes(kernel: Kernel, call: KernelCall) -> int:
    """An upper estimate of the memory ``kernel`` allocates for ``call``, made before it runs:
    its own estimate, else twice its outputs (an output and one temporary of its size) and one
    copy of its inputs. An output whose size depends on the data counts at its upper bound."""
    estimate = _ESTIMATES.get(kernel)
    if estimate is not None:
        return estimate(call)
    outputs = sum(output_bytes(call, i) for i in range(len(call.inference.outputs)))
    return 2 * outputs + sum(a.nbytes for a in call.inputs)


def output_bytes(call: KernelCall, index: int) -> int:
    """The bytes output ``index`` takes at most: its shape's upper bounds times its itemsize."""
    output = call.inference.outputs[index]
    dtype = storage_dtype(output.element_type) or np.dtype(np.float64)
    dims = output.shape.dims
    if dims is None:
        return 0  # a dynamic rank: nothing to estimate from (the kernel's own estimate must)
    count = 1
    for dim in dims:
        count *= min(dim.hi, 1 << 62)
    return count * dtype.itemsize


def kernel_of(schema: OpSchema) -> Kernel | None:
    """The kernel a declaration names, importing its family module on first use; None when
    the op has none yet."""
    return _kernel(schema.family, schema.kernel) if schema.kernel else None


@functools.cache
def _kernel(family: str, name: str) -> Kernel | None:
    try:
        module = import_module(f"irshape.kernels.{family}")
    except ModuleNotFoundError as exc:
        if exc.name != f"irshape.kernels.{family}":
            raise
        return None
    kernel: Kernel | None = getattr(module, name, None)
    return None if kernel is None else _storing_bf16(kernel)


def _storing_bf16(kernel: Kernel) -> Kernel:
    """``kernel`` with its outputs stored as the plugin stores them: bf16 rounded to bf16 (held
    as f32 values already rounded), f64 saturated to f32's range and rounded to f32 (the plugin
    holds f64 as f32: an overflow is FLT_MAX, not inf; an f64 Const's 0.1 is f32's 0.1). A
    kernel computes in f32 and need not do either itself. Many did not (NormalizeL2, MVN, the
    poolings, the convolutions, ReduceSum... gave values between two bf16 ones; ReduceL2 of f64
    inf: found by the kernel fuzzer, tests/execution/test_kernel_fuzz.py)."""

    @functools.wraps(kernel)
    def storing(call: KernelCall) -> KernelOutput:
        result = kernel(call)
        types = [output.element_type for output in call.inference.outputs]
        if ("bf16" not in types and "f64" not in types) or call.schema.op == "Identity":
            return result  # (the plugin removes an Identity: its value passes whole)
        return tuple(
            _stored(array, element_type)
            for array, element_type in zip(outputs_of(result), types, strict=False)
        )

    if kernel in _ESTIMATES:
        _ESTIMATES[storing] = _ESTIMATES[kernel]
    return storing


def _stored(array: np.ndarray, element_type: str | None) -> np.ndarray:
    if element_type == "bf16" and array.dtype == np.float32:
        from irshape.kernels.narrow_reals import round_to_bf16  # only where bf16 is met

        return round_to_bf16(array)
    if element_type == "f64" and array.dtype == np.float64:
        limit = float(np.finfo(np.float32).max)
        saturated = np.where(np.isnan(array), array, np.clip(array, -limit, limit))
        held: np.ndarray = saturated.astype(np.float32).astype(np.float64)
        return held
    return array


def outputs_of(result: KernelOutput) -> tuple[np.ndarray, ...]:
    """A kernel's answer as a tuple of arrays (a single-output kernel may return one array)."""
    if isinstance(result, np.ndarray):
        return (result,)
    if isinstance(result, np.generic):  # numpy gives a scalar for the 0-d result of many ops
        return (np.asarray(result),)
    return tuple(np.asarray(r) if isinstance(r, np.generic) else r for r in result)
