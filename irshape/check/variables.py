"""A stateful model's variables: each Assign writes the variable a ReadValue reads, matched by
``variable_id`` across the whole model (not by an edge), so no one layer's check sees it.

OpenVINO's reader (``ir_deserializer.cpp``), once the model is built, ties each Assign to the
ReadValue of its id among the layers it built, and fails with 'map::at' when there is none. An
Assign-3 looks earlier, when it is built: for a ReadValue-3 of its id among the layers it is
computed from ('Can't find variable with id = ...'), and then requires the values it writes to
be of the variable's element type, and of its shape when both are static; a ReadValue-3's
variable has its init value's type and shape (``assign_shape_inference.hpp``).
"""

from __future__ import annotations

from collections.abc import Callable

from irshape import rules
from irshape.check.graph import Graph
from irshape.diagnostics import Diagnostic
from irshape.ir.model import Layer
from irshape.ops.interface import Tensor
from irshape.ops.opsets import op_version

Report = Callable[[Diagnostic], None]

_NOT_FOUND = (
    "Check 'false' failed at src/frontends/common/src/frontend.cpp:53: Converting input model map::at"
)


def check_variables(graph: Graph, report: Report) -> None:
    """IRS424: an Assign whose variable no built ReadValue reads."""
    if "Assign" not in graph.types:
        return
    built = [graph.layers[key] for key in graph.built if key in graph.layers]
    read = {_variable_id(layer) for layer in built if _op(layer)[0] == "ReadValue"}
    for layer in graph.document.layers:
        variable_id = _variable_id(layer)
        op, version = _op(layer)
        if layer.type != "Assign" or op != "Assign" or variable_id is None:
            continue
        if version == 3 and not _upstream_read_value_3(graph, layer, variable_id):
            problem = "no ReadValue-3 the Assign-3 is computed from reads"
            report(
                _finding(graph, layer, variable_id, problem, f"Can't find variable with id = {variable_id}")
            )
        elif variable_id not in read:
            report(_finding(graph, layer, variable_id, "no ReadValue of the model reads", _NOT_FOUND))


def check_assigned_values(graph: Graph, computed: Callable[[Layer], Tensor | None], report: Report) -> None:
    """IRS424: an Assign-3 writing values of another element type, or another static shape, than
    the variable of its ReadValue-3 holds. ``computed`` gives a layer's first output as OpenVINO
    computes it (None where irshape does not know it). Only for a variable one ReadValue-3
    reads: several ReadValues of one id share the reader's variable, each updating it."""
    if "Assign" not in graph.types:
        return
    built = [graph.layers[key] for key in graph.built if key in graph.layers]
    readers: dict[str, list[Layer]] = {}
    for layer in built:
        variable_id = _variable_id(layer)
        if _op(layer)[0] == "ReadValue" and variable_id is not None:
            readers.setdefault(variable_id, []).append(layer)
    for layer in built:
        variable_id = _variable_id(layer)
        if _op(layer) != ("Assign", 3) or variable_id is None or len(readers.get(variable_id, ())) != 1:
            continue
        (reader,) = readers[variable_id]
        if _op(reader) != ("ReadValue", 3) or not _upstream_read_value_3(graph, layer, variable_id):
            continue
        problem = _inconsistency(computed(reader), computed(layer))
        if problem is not None:
            report(_finding(graph, layer, variable_id, *problem))


def _inconsistency(variable: Tensor | None, written: Tensor | None) -> tuple[str, str] | None:
    """How the written values differ from the variable, with OpenVINO's message; None: they do not."""
    if variable is None or written is None or variable.element_type is None or written.element_type is None:
        return None
    if variable.element_type != written.element_type:
        problem = (
            f"holds {variable.element_type} values (its ReadValue-3's init value's type), "
            f"but the Assign-3 writes {written.element_type}"
        )
        return problem, "Variables types are inconsistent."
    static = variable.shape.lengths is not None and written.shape.lengths is not None
    if static and variable.shape.lengths != written.shape.lengths:
        problem = (
            f"holds values of shape {variable.shape} (its ReadValue-3's init value's), "
            f"but the Assign-3 writes {written.shape}"
        )
        return problem, "Variables output shapes are inconsistent."
    return None


def _finding(graph: Graph, layer: Layer, variable_id: str, problem: str, ov_message: str) -> Diagnostic:
    return rules.VARIABLE_UNMATCHED(
        graph.where(layer),
        layer_type=layer.type,
        variable_id=variable_id,
        problem=problem,
        ov_message=ov_message,
    )


def _op(layer: Layer) -> tuple[str | None, int | None]:
    found = op_version(layer.type or "", layer.version or "")
    return (None, None) if found is None else found


def _variable_id(layer: Layer) -> str | None:
    return layer.data.get("variable_id")


def _upstream_read_value_3(graph: Graph, assign: Layer, variable_id: str) -> bool:
    """Is a ReadValue-3 of ``variable_id`` among the layers ``assign`` is computed from?"""
    producers = graph.producers
    seen: set[str] = set()
    stack = list(producers.get(graph.key(assign), ()))
    while stack:
        key = stack.pop()
        if key in seen:
            continue
        seen.add(key)
        layer = graph.layers.get(key)
        if layer is not None and _op(layer) == ("ReadValue", 3) and _variable_id(layer) == variable_id:
            return True
        stack.extend(producers.get(key, ()))
    return False
