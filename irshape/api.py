"""The library API: check IR text or files, or a single layer given as plain values.

Nothing here prints or exits; every problem in the input comes back as a finding.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TypeGuard

from irshape import lifetime, rules
from irshape.check.layer import TensorInfo, check_op, compare_declared
from irshape.check.model import check_document
from irshape.diagnostics import Diagnostic, Location, Severity
from irshape.dims import PartialShape, parse_partial_shape
from irshape.ir.model import Layer, Port
from irshape.ir.reader import ReadResult, read_bytes, read_file
from irshape.ops.registry import lookup
from irshape.record import FrozenRecord, set_field
from irshape.results import FileReport

if TYPE_CHECKING:
    from irshape.edits import DimEdit
    from irshape.execute.dryrun import DryRunOptions

ShapeLike = PartialShape | str | Sequence[int]
"""A shape: a :class:`PartialShape`, OpenVINO's notation (``"1,3,?,2..10"``), or ints (-1: dynamic)."""
AttributeValue = str | int | Sequence[int]
"""A ``<data>`` attribute: its text as written in IR, an int, or a list of ints."""


FixMode = Literal["write", "diff"]
"""``check_file(fix=...)``: rewrite the declared dims, or only compute the diff."""

DryRunProgress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` after each layer a dry run runs or skips."""


def check_file(
    path: str | Path,
    *,
    debug: bool = False,
    dry_run: DryRunOptions | None = None,
    progress: DryRunProgress | None = None,
    fix: FixMode | None = None,
    processes: int = 1,
) -> FileReport:
    """Check the IR file at ``path`` (its sibling .bin is read for Const values).

    With ``dry_run``, each convolution layer is also executed with numpy (imported only then)
    and the shape it produces is compared with the declared one; ``progress`` follows it.

    With ``fix="write"``, declared dims are first rewritten (atomically) to the shapes
    OpenVINO computes and the fixed file is checked; ``report.fixes`` lists the edits. With
    ``fix="diff"`` the file is left alone and ``report.diff`` holds the patch. Nothing is ever
    written without ``fix="write"``.

    With ``processes`` of 2 or more, a large file is read on two processes (same result).
    """
    fixes, diff, problem = _fix(Path(path), fix) if fix is not None else ([], "", None)
    report = _check(lambda: read_file(path, processes=processes), str(path), debug, dry_run, progress)
    report.fixes, report.diff = fixes, diff
    if problem is not None:
        report.diagnostics.append(rules.FIX_FAILED(Location(str(path)), reason=problem))
        report.diagnostics.sort(key=Diagnostic.sort_key)
    return report


def _fix(path: Path, mode: FixMode) -> tuple[list[DimEdit], str, str | None]:
    """Plan, and with ``mode="write"`` apply, the fix of ``path``: (edits, diff, why it failed)."""
    from irshape.fix import FixError, plan_fix, write_atomically  # only a fixing run needs them

    try:
        data = path.read_bytes()
    except OSError:
        return [], "", None  # the check reports the unreadable file
    try:
        patch = plan_fix(data, str(path), path)
    except FixError as exc:
        return [], "", str(exc)
    if patch is None:
        return [], "", None
    if mode == "diff":
        return list(patch.edits), patch.diff(), None
    try:
        write_atomically(path, patch.after)
    except OSError as exc:
        return [], "", f"cannot write the file: {exc.strerror or exc}"
    return list(patch.edits), "", None


def check_string(
    text: str | bytes,
    *,
    path: str = "<string>",
    debug: bool = False,
    dry_run: DryRunOptions | None = None,
    progress: DryRunProgress | None = None,
) -> FileReport:
    """Check IR XML given as text; ``path`` names it in findings (no .bin is read)."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    return _check(lambda: read_bytes(data, path), path, debug, dry_run, progress)


def _check(
    read: Callable[[], ReadResult],
    path: str,
    debug: bool,
    dry_run: DryRunOptions | None = None,
    progress: DryRunProgress | None = None,
) -> FileReport:
    report = FileReport(path)
    lifetime.release()  # the previous file's model, if the program kept it
    try:
        result = read()
        lifetime.retire(result)
        report.diagnostics.extend(result.diagnostics)
        if result.document is not None:
            report.layers = check_document(result.document, report.diagnostics.append, debug=debug)
            if dry_run is not None:
                from irshape.execute.dryrun import dry_run as run_layers  # numpy: only when asked

                run_layers(result.document, dry_run, report.diagnostics.append, progress)
    except Exception as exc:  # a bug in irshape: a finding, never a traceback
        summary = f"{type(exc).__name__}: {exc}".splitlines()[0][:200]
        if debug:
            import traceback  # only --debug shows one; its imports cost ~2 ms of every start-up

            summary += "\n" + traceback.format_exc()
        report.diagnostics.append(rules.INTERNAL_ERROR(Location(path), summary=summary))
    report.diagnostics.sort(key=Diagnostic.sort_key)
    return report


class LayerCheck(FrozenRecord):
    """The result of checking one layer given as plain values.

    ``output_shape`` is the shape irshape infers as OpenVINO would (None when the layer is too
    broken to infer one). It is computed even past an error that makes OpenVINO reject the
    layer, so look at ``ok`` first. ``diagnostics`` are the findings, with path ``"<layer>"``.
    """

    __slots__ = ("diagnostics", "output_shape")
    output_shape: PartialShape | None
    diagnostics: list[Diagnostic]

    def __init__(self, output_shape: PartialShape | None, diagnostics: list[Diagnostic]) -> None:
        set_field(self, "output_shape", output_shape)
        set_field(self, "diagnostics", diagnostics)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.WARNING]

    @property
    def ok(self) -> bool:
        """No error: OpenVINO reads this layer and infers ``output_shape``."""
        return not self.errors


def check_layer(
    op_type: str,
    attributes: Mapping[str, AttributeValue],
    input_shapes: Sequence[ShapeLike],
    *,
    declared_output: ShapeLike | None = None,
    output_shape_value: Sequence[int] | None = None,
    element_type: str = "f32",
    version: str = "opset1",
) -> LayerCheck:
    """Check one layer without writing any XML, e.g. from a converter before it writes IR.

    ``attributes`` are the ``<data>`` attributes (lists may be given as int sequences);
    ``input_shapes`` are data, kernel and, for the backprop ops, the output_shape input's
    shape (``[2]``); ``output_shape_value`` is that input's value when it is a constant;
    ``declared_output`` is the output shape the converter means to write, compared with the
    inferred one (IRS301/IRS302). A given ``output_shape_value`` implies the third input when
    ``input_shapes`` has only two.

    Every problem of the layer itself is a finding. What is not a layer at all raises:
    ValueError for an op type irshape does not know (Convolution, ConvolutionBackpropData,
    GroupConvolution, GroupConvolutionBackpropData) or a shape string OpenVINO cannot parse,
    TypeError for an attribute or shape of the wrong Python type.
    """
    schema = lookup(op_type, version)
    if schema is None or schema.is_source:
        raise ValueError(f"irshape does not know the op type {op_type!r}")
    if output_shape_value is not None and len(input_shapes) == 2:
        input_shapes = [*input_shapes, [len(output_shape_value)]]
    layer = Layer(id="0", name=op_type, type=op_type, version=version, line=0, has_data=True)
    layer.data = {name: _attribute_text(value) for name, value in attributes.items()}
    inputs = [TensorInfo(_to_shape(shape), element_type) for shape in input_shapes]
    if len(inputs) > 2:
        inputs[2].element_type = "i64"
        if output_shape_value is not None:
            inputs[2].value = tuple(output_shape_value)
        else:
            inputs[2].value_unknown = "no output_shape_value was given"
    layer.inputs = [Port(id=str(i), index=i, line=0, dims=None) for i in range(len(inputs))]
    if declared_output is not None:
        declared = _to_shape(declared_output)
        dims = None if declared.dims is None else tuple(d.lo if d.is_static else -1 for d in declared)
        layer.outputs.append(Port(id=str(len(inputs)), index=0, line=0, dims=dims))
    where = Location("<layer>", layer_id="0", layer_name=op_type, layer_type=op_type, layer_version=version)
    diagnostics: list[Diagnostic] = []
    inference = check_op(schema, layer, inputs, where, diagnostics.append)
    if inference is None:
        return LayerCheck(None, diagnostics)
    if declared_output is not None:
        compare_declared(layer, inference, where, diagnostics.append)
    return LayerCheck(inference.shape, diagnostics)


def infer_layer(
    op_type: str,
    attributes: Mapping[str, AttributeValue],
    input_shapes: Sequence[ShapeLike],
    *,
    output_shape_value: Sequence[int] | None = None,
) -> PartialShape | None:
    """The output shape OpenVINO infers for one layer; None when OpenVINO would reject the layer
    (any error finding of :func:`check_layer`) or cannot infer a shape."""
    result = check_layer(op_type, attributes, input_shapes, output_shape_value=output_shape_value)
    return result.output_shape if result.ok else None


def _attribute_text(value: AttributeValue) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if _is_int_sequence(value):
        return ",".join(str(v) for v in value)
    raise TypeError(f"an attribute is a str, an int or a sequence of ints, not {value!r}")


def _is_int_sequence(value: object) -> TypeGuard[Sequence[int]]:
    return (
        isinstance(value, Sequence)
        and not isinstance(value, str)
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    )


def _to_shape(shape: ShapeLike) -> PartialShape:
    if isinstance(shape, PartialShape):
        return shape
    if isinstance(shape, str):
        return parse_partial_shape(shape)
    if _is_int_sequence(shape):
        return PartialShape(shape)
    raise TypeError(f"a shape is a PartialShape, a string like '1,3,?,224' or a list of ints, not {shape!r}")
