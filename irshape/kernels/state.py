"""Kernels of the state family (irshape/shapes/state.py): ReadValue-3/6 and Assign-3/6.

The execution's :class:`~irshape.kernels.Context` holds the variables by ``variable_id``. As the
CPU plugin runs a stateful model (confirmed by tests/execution/test_state.py, comparing
``InferRequest.query_state()`` after one inference):

* a ReadValue gives the variable's current value: the one an Assign stored earlier in this
  execution, else the one the run was given (``Context.initial``), else its initialiser;
* the initialiser is the init input (ReadValue-3 always has one, ReadValue-6 may), else zeros
  of ``variable_shape`` with every dynamic dim 0 (``?,32`` starts as ``[0, 32]``, the empty
  KV cache an LLM starts from); the plugin cannot start a variable whose dim is an interval
  not containing 0 (``2..5``), nor one of dynamic rank;
* an Assign stores its input as the variable's new value and outputs it unchanged; the
  executor runs it after every ReadValue of its variable (``_Executor._assign_after_reads``),
  edge or no edge between them, so a ReadValue reads the value the run started with;
* the plugin runs no i64 variable ("CPU plugin does not support i64 for use with oneDNN"),
  holds the variable of an f16 ReadValue-3 in f32, and assigns a dynamic variable only a
  value computed from its ReadValue ("Can't reorder data with dynamic shapes"): irshape runs
  all of these.
"""

from __future__ import annotations

import math

import numpy as np

from irshape.dims import DimSyntaxError, parse_partial_shape
from irshape.kernels import KernelCall, KernelError, UnsupportedByOpenVINOError, working_memory


def _read_bytes(call: KernelCall) -> int:
    """What a ReadValue allocates: a copy of the value it gives (its inferred shape may be
    unbounded: ``?,32``)."""
    value = _stored_value(call)
    if value is not None:
        return int(value.nbytes)
    try:
        return math.prod(_initial_shape(call)) * call.output_dtype(0).itemsize
    except (KernelError, UnsupportedByOpenVINOError):
        return 0  # the kernel refuses it


@working_memory(_read_bytes)
def read_value(call: KernelCall) -> np.ndarray:
    """ReadValue-3 and ReadValue-6."""
    dtype = call.output_dtype(0)
    value = _stored_value(call)
    if value is None:
        value = np.zeros(_initial_shape(call), dtype)
    return np.asarray(value, dtype=dtype)


def _stored_value(call: KernelCall) -> np.ndarray | None:
    """The variable's current value, the run's initial one, or the init input; else None."""
    variable = str(call.attribute("variable_id"))
    context = call.context
    if variable in context.variables:
        return context.variables[variable]
    if variable in context.initial:
        return np.asarray(context.initial[variable])
    return call.inputs[0] if call.inputs else None


def assign(call: KernelCall) -> np.ndarray:
    """Assign-3 and Assign-6: the input becomes the variable's value, and the output."""
    value = np.array(call.inputs[0], copy=True)
    call.context.variables[str(call.attribute("variable_id"))] = value
    return value


def _initial_shape(call: KernelCall) -> tuple[int, ...]:
    """The shape a ReadValue-6 without init starts from: its variable_shape, dynamic dims 0."""
    text = str(call.attribute("variable_shape"))
    try:
        shape = parse_partial_shape(text)
    except DimSyntaxError as exc:
        raise KernelError(f"variable_shape '{text}' does not parse: {exc}") from exc
    if shape.dims is None:
        raise UnsupportedByOpenVINOError("the plugin cannot start a variable of dynamic rank without init")
    dims = []
    for dim in shape.dims:
        if dim.is_static:
            dims.append(dim.lo)
        elif dim.lo == 0:
            dims.append(0)
        else:
            raise UnsupportedByOpenVINOError(
                f"the plugin cannot start a variable whose dim {dim} excludes 0 without init"
            )
    return tuple(dims)
