"""Element-wise ops: the output has the data input's shape.

``same_shape`` serves the unary activations and math ops, and for now the ops that
normalise or quantise their data input (their other inputs are checked by OpenVINO against
the data, which this function does not yet do).
"""

from __future__ import annotations

from irshape.ops.interface import OpCall, OpResult, Output

DATA = 0


def same_shape(call: OpCall) -> OpResult:
    """The data input's shape and element type."""
    data = call.inputs[DATA]
    return OpResult([Output(data.shape, data.element_type)])


def convert(call: OpCall) -> OpResult:
    """Convert-1: the data input's shape in ``destination_type``."""
    data = call.inputs[DATA]
    destination = call.attributes.values.get("destination_type")
    return OpResult([Output(data.shape, destination if isinstance(destination, str) else None)])
