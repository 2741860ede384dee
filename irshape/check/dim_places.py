"""The place of a ``<dim>`` the reader rejects (IRS005) or reads leniently (IRS010): which axis
of its port it is, and its column.

The reader knows a dim's line, not its column, and several dims often share a line
(``<dim>a</dim><dim></dim>``): each finding is given the axis and the column of its own
element, found from the text of its line. Only a file with such findings is read again.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence

from irshape import rules
from irshape.diagnostics import Diagnostic
from irshape.ir.model import Layer, Port

_DIM_CODES = frozenset({rules.DIM_SYNTAX.code, rules.DIM_LENIENT.code})
# A <dim>'s text (its value starts at group 1's start), or an empty <dim/>.
_DIM_ELEMENT = re.compile(r"<dim\s*>([^<]*)</dim\s*>|<dim\s*/>")
_QUOTED = re.compile(r"<dim> '([^']*)'")


def place_dim_findings(
    diagnostics: list[Diagnostic], layers: Sequence[Layer], data: Callable[[], bytes]
) -> list[Diagnostic]:
    """``diagnostics`` with the axis (in the message too) and column of each IRS005 and IRS010."""
    if not any(d.code in _DIM_CODES for d in diagnostics):
        return diagnostics
    from irshape.columns import source_lines  # only a file with such findings

    lines = source_lines(data(), (d.line or 0 for d in diagnostics if d.code in _DIM_CODES))
    by_id = {layer.id: layer for layer in reversed(layers)}
    seen: Counter[tuple[object, ...]] = Counter()
    placed = []
    for d in diagnostics:
        quoted = _QUOTED.match(d.message) if d.code in _DIM_CODES else None
        line = lines.get(d.line or 0)
        if quoted is None or line is None:
            placed.append(d)
            continue
        key = (d.layer_id, d.port, d.line, d.code, quoted.group(1))
        place = _place(by_id.get(d.layer_id or ""), d, line, quoted.group(1), seen[key])
        seen[key] += 1
        if place is None:
            placed.append(d)
            continue
        axis, column = place
        message = d.message.replace(quoted.group(0), f"{quoted.group(0)} (axis {axis})", 1)
        placed.append(d.replace(axis=axis, column=column, message=message))
    return placed


def _place(layer: Layer | None, d: Diagnostic, line: str, text: str, nth: int) -> tuple[int, int] | None:
    """(axis, 1-based column) of the ``nth`` dim of ``text`` on ``line`` the finding is about."""
    port = _port(layer, d)
    if port is None:
        return None
    axes = [axis for axis, at in enumerate(port.dim_lines) if at == d.line]
    elements = list(_DIM_ELEMENT.finditer(line))
    if len(elements) != len(axes):  # the line holds dims of another port too: not placed
        return None
    matching = [
        (axis, m) for axis, m in zip(axes, elements, strict=True) if (m.group(1) or "").strip() == text
    ]
    if nth >= len(matching):
        return None
    axis, element = matching[nth]
    return axis, element.start() + 1


def _port(layer: Layer | None, d: Diagnostic) -> Port | None:
    if layer is None or d.port is None:
        return None
    ports = [p for p in (*layer.inputs, *layer.outputs) if p.id == d.port and d.line in p.dim_lines]
    return ports[0] if len(ports) == 1 else None
