"""Which IRS306 infos are worth reading: those where the unknown value leaves a declared dim
unconfirmed.

An input whose value decides an output's dims and that irshape cannot compute (Range's stop in
every transformer export, a Reshape target from a dynamic shape) leaves those dims unknown.
Where the file declares them dynamic too (``?``, as OpenVINO's own reading infers them), the
info says nothing the user can act on: 89 of them on the optimum-intel LLM exports, none
actionable. Where the file declares a static dim there, irshape cannot confirm it, and the info
says why: that one is reported by default, the others only on request (``irshape check -v``).
"""

from __future__ import annotations

from collections.abc import Sequence

from irshape import rules
from irshape.diagnostics import Diagnostic
from irshape.dims import PartialShape
from irshape.ir.model import Layer
from irshape.results import LayerResult


def actionable_unknown_values(
    diagnostics: list[Diagnostic], layers: Sequence[Layer], results: Sequence[LayerResult]
) -> list[Diagnostic]:
    """``diagnostics`` without the IRS306 infos that leave no declared dim unconfirmed."""
    if not any(d.code == rules.VALUE_UNKNOWN.code for d in diagnostics):
        return diagnostics
    declared = {layer.id: layer for layer in reversed(layers)}  # the first of an id, as reported
    inferred = {result.layer_id: result for result in reversed(results)}
    return [
        d
        for d in diagnostics
        if d.code != rules.VALUE_UNKNOWN.code
        or _leaves_unconfirmed(declared.get(d.layer_id or ""), inferred.get(d.layer_id))
    ]


def _leaves_unconfirmed(layer: Layer | None, result: LayerResult | None) -> bool:
    """Does the layer declare a static dim where irshape infers none? (Unknown layer: yes.)"""
    if layer is None or result is None:
        return True
    for port, shape in zip(layer.outputs, result.outputs, strict=False):
        if port.dims is not None and _unconfirmed(port.dims, shape):
            return True
    return False


def _unconfirmed(dims: tuple[int, ...], shape: PartialShape) -> bool:
    if shape.rank is None:
        return any(length != -1 for length in dims)
    return any(
        length != -1 and not (index < len(shape) and shape[index].is_static)
        for index, length in enumerate(dims)
    )
