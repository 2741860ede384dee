"""What a check returns: typed, printable by any reporter, never printed by the library."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from irshape.diagnostics import Diagnostic, Severity
from irshape.dims import PartialShape
from irshape.record import Record

if TYPE_CHECKING:
    from irshape.edits import DimEdit
    from irshape.ir.model import Layer


class LayerResult(Record):
    """A layer irshape read; ``outputs`` holds the inferred output shapes of a known op,
    ``element_types`` their element types (None where not known) and ``ports`` the ids of the
    output ports they belong to (None for an output the layer declares no port for)."""

    __slots__ = (
        "checked",
        "element_types",
        "layer_id",
        "line",
        "name",
        "outputs",
        "ports",
        "type",
        "version",
    )
    layer_id: str | None
    name: str | None
    type: str | None
    version: str | None
    line: int
    checked: bool  # True for the ops irshape validates and infers
    outputs: list[PartialShape]
    element_types: list[str | None]
    ports: list[str | None]

    def __init__(
        self,
        layer_id: str | None,
        name: str | None,
        type: str | None,
        version: str | None,
        line: int,
        checked: bool = False,
        outputs: list[PartialShape] | None = None,
        element_types: list[str | None] | None = None,
        ports: list[str | None] | None = None,
    ) -> None:
        self.layer_id = layer_id
        self.name = name
        self.type = type
        self.version = version
        self.line = line
        self.checked = checked
        self.outputs = [] if outputs is None else outputs
        self.element_types = [] if element_types is None else element_types
        self.ports = [] if ports is None else ports

    @classmethod
    def of_layers(cls, layers: list[Layer]) -> list[LayerResult]:
        """``LayerResult(layer.id, layer.name, layer.type, layer.version, layer.line)`` for each
        of ``layers``, made without calling the class (CPython 3.11 runs a class's ``__init__``
        through C, its arguments copied: a fifth of the cost, for a result a layer)."""
        results: list[LayerResult] = []
        append, new = results.append, object.__new__
        for layer in layers:
            result = new(cls)
            result.layer_id = layer.id
            result.name = layer.name
            result.type = layer.type
            result.version = layer.version
            result.line = layer.line
            result.checked = False
            result.outputs = []
            result.element_types = []
            result.ports = []
            append(result)
        return results

    def to_json(self) -> dict[str, Any]:
        return {
            "layer_id": self.layer_id,
            "layer_name": self.name,
            "layer_type": self.type,
            "layer_version": self.version,
            "line": self.line,
            "outputs": [shape.to_json() for shape in self.outputs],
            "ports": list(self.ports),
            "element_types": list(self.element_types),
        }


class DryRunSummary(Record):
    """What a dry run executed of one file: how many layers ran, and of those that did not,
    how many for each reason (``"no kernel"``, ``"over memory"``, ``"below a layer not run"``...)."""

    __slots__ = ("executed", "not_executed")
    executed: int
    not_executed: dict[str, int]

    def __init__(self, executed: int = 0, not_executed: dict[str, int] | None = None) -> None:
        self.executed = executed
        self.not_executed = {} if not_executed is None else not_executed

    @property
    def total(self) -> int:
        return self.executed + sum(self.not_executed.values())

    def add(self, other: DryRunSummary) -> None:
        self.executed += other.executed
        for reason, count in other.not_executed.items():
            self.not_executed[reason] = self.not_executed.get(reason, 0) + count

    def to_json(self) -> dict[str, Any]:
        return {
            "layers_executed": self.executed,
            "layers_not_executed": self.total - self.executed,
            "not_executed_by_reason": dict(sorted(self.not_executed.items())),
        }


class FileReport(Record):
    """All findings of one file, and the layers read from it."""

    __slots__ = ("_counts", "diagnostics", "diff", "dry_run", "fixes", "layers", "path", "skipped")
    path: str
    diagnostics: list[Diagnostic]
    layers: list[LayerResult]
    fixes: list[DimEdit]  # with --fix: written; with --diff: proposed
    diff: str  # with --diff: the unified diff --fix would apply
    skipped: str | None  # with skip_non_ir: why the file is not checked (it is no IR)
    dry_run: DryRunSummary | None  # with a dry run: what it executed
    _counts: tuple[int, int] | None  # (checked, not checked) once the layers are dropped

    def __init__(
        self,
        path: str,
        diagnostics: list[Diagnostic] | None = None,
        layers: list[LayerResult] | None = None,
        fixes: list[DimEdit] | None = None,
        diff: str = "",
        skipped: str | None = None,
    ) -> None:
        self.path = path
        self.diagnostics = [] if diagnostics is None else diagnostics
        self.layers = [] if layers is None else layers
        self.fixes = [] if fixes is None else fixes
        self.diff = diff
        self.skipped = skipped
        self.dry_run: DryRunSummary | None = None
        self._counts = None

    def drop_layers(self) -> None:
        """Forget the layers, keeping only how many were checked and not: a run over a whole
        repository holds its findings, not each file's ~100 layers (they are most of a report)."""
        from irshape import lifetime  # (only the checking of files retires: results is imported
        # by the reporters and the selection, which must not pull in the program's lifetime)

        checked = self.layers_checked
        self._counts = (checked, len(self.layers) - checked)
        lifetime.retire(self.layers)  # freed when the next file begins, or not at all by the program's exit
        self.layers = []

    def _with(self, severity: Severity) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is severity]

    @property
    def errors(self) -> list[Diagnostic]:
        return self._with(Severity.ERROR)

    @property
    def warnings(self) -> list[Diagnostic]:
        return self._with(Severity.WARNING)

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def layers_checked(self) -> int:
        if self._counts is not None:
            return self._counts[0]
        return len([layer for layer in self.layers if layer.checked])  # (no call a layer, as a generator's)

    @property
    def layers_not_checked(self) -> int:
        if self._counts is not None:
            return self._counts[1]
        return len(self.layers) - self.layers_checked

    def layer(self, layer_id: str) -> LayerResult | None:
        return next((layer for layer in self.layers if layer.layer_id == layer_id), None)

    def to_json(self) -> dict[str, Any]:
        out = {
            "path": self.path,
            "diagnostics": [d.to_json() for d in self.diagnostics],
            "layers_checked": self.layers_checked,
            "layers_not_checked": self.layers_not_checked,
        }
        if self.dry_run is not None:
            out["dry_run"] = self.dry_run.to_json()
        return out
