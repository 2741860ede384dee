"""One correction ``--fix`` makes to a declared dim: a result of a check (``FileReport.fixes``)
as much as an instruction to the patcher (:mod:`irshape.fix`), so it lives below both."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class DimEdit:
    """Write ``new`` into the ``index``-th ``<dim>`` starting on ``line``, which holds ``old``."""

    line: int
    index: int
    old: int
    new: int
    layer_id: str | None
    port: str
    axis: int
    slot: tuple[int, int, int] = field(compare=False)  # layer position, port position, axis

    def __str__(self) -> str:
        where = f"line {self.line}: layer {self.layer_id} port {self.port} axis {self.axis}"
        return f"{where}: {self.old} -> {self.new}"
