"""The library API: check IR text or files, or a single layer given as plain values.

Nothing here prints or exits; every problem in the input comes back as a finding.
"""

from __future__ import annotations

import operator
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Literal, SupportsIndex, cast

from irshape import lifetime, rules
from irshape.check.layer import check_op, compare_declared
from irshape.check.model import check_document
from irshape.diagnostics import Diagnostic, Location, Severity
from irshape.dims import PartialShape, parse_partial_shape
from irshape.ir.model import Layer, Port
from irshape.ir.parse import ReadResult
from irshape.ir.reader import read_bytes, read_file
from irshape.ops.interface import Tensor, Unknown
from irshape.ops.registry import lookup
from irshape.record import FrozenRecord, set_field
from irshape.results import FileReport

if TYPE_CHECKING:
    from irshape.edits import DimEdit
    from irshape.execute.dryrun import DryRunOptions

ShapeLike = PartialShape | str | Iterable[SupportsIndex]
"""A shape: a :class:`PartialShape`, OpenVINO's notation (``"1,3,?,2..10"``), or ints (-1: dynamic).
Ints may be any integers Python can index with (numpy's among them); a list, a tuple or a 1-D array."""
AttributeValue = str | SupportsIndex | Iterable[SupportsIndex]
"""A ``<data>`` attribute: its text as written in IR, an int, or a list (tuple, 1-D array) of ints."""
PathLike = str | os.PathLike[str]
"""A file's path: a ``str`` or a :class:`pathlib.Path` (any ``os.PathLike``)."""


FixMode = Literal["write", "diff"]
"""``check_file(fix=...)``: rewrite the declared dims, or only compute the diff."""

DryRunProgress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` after each layer a dry run runs or skips."""


def check_file(
    path: PathLike,
    *,
    debug: bool = False,
    dry_run: DryRunOptions | None = None,
    progress: DryRunProgress | None = None,
    fix: FixMode | None = None,
    processes: int = 1,
    columns: bool = True,
    skip_non_ir: bool = False,
    every_unknown_value: bool = False,
) -> FileReport:
    """Check the IR file at ``path`` (its sibling .bin is read for Const values).

    With ``dry_run``, each convolution layer is also executed with numpy (imported only then)
    and the shape it produces is compared with the declared one; ``progress`` follows it.

    With ``fix="write"``, declared dims are first rewritten (atomically) to the shapes
    OpenVINO computes and the fixed file is checked; ``report.fixes`` lists the edits. With
    ``fix="diff"`` the file is left alone and ``report.diff`` holds the patch. Nothing is ever
    written without ``fix="write"``.

    With ``processes`` of 2 or more, a large file is read on two processes (same result).

    ``columns`` finds the column of each finding on its line (the file is read again only when
    there are findings); without it every column is 1, for a caller that finds the columns of
    the findings it keeps (:func:`irshape.columns.add_columns`). With ``skip_non_ir``, a file
    that is not an IR and does not look like one (a ``pom.xml``, an SVG) comes back with no
    finding and ``report.skipped`` saying why.

    IRS306 (an input's value is not known) is reported where it leaves a declared static dim
    unconfirmed; with ``every_unknown_value``, also where the file declares the dims it decides
    dynamic, as OpenVINO infers them (:mod:`irshape.check.unconfirmed`).
    """
    path = _path_text(path)
    fixes, diff, problem = _fix(path, fix) if fix is not None else ([], "", None)
    report = _check(
        lambda: read_file(path, processes=processes),
        path,
        debug,
        dry_run,
        progress,
        every_unknown_value,
        lambda: _read_or_empty(path),
    )
    report.fixes, report.diff = fixes, diff
    if problem is not None:
        report.diagnostics.append(rules.FIX_FAILED(Location(path), reason=problem))
        report.diagnostics.sort(key=Diagnostic.sort_key)
    if skip_non_ir and _not_ir(report, lambda: _read_or_empty(path)):
        return report
    if columns and report.diagnostics:
        from irshape.columns import add_columns  # only a file with findings

        add_columns(report, _read_or_empty(path))
    return report


def _path_text(path: object) -> str:
    if isinstance(path, str):
        return path
    if isinstance(path, os.PathLike):
        text = os.fspath(path)
        if isinstance(text, str):
            return text
    raise TypeError(f"a path is a str or an os.PathLike of str, not {type(path).__name__}")


def _read_or_empty(path: str) -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError:
        return b""


# The findings of a file that may be other XML: irshape.sniff looks only at such a file.
_MAYBE_NOT_IR = frozenset({rules.NOT_IR.code, rules.XML_SYNTAX.code, rules.UNSAFE_XML.code})


def _not_ir(report: FileReport, data: Callable[[], bytes]) -> bool:
    """Mark ``report`` skipped when the file is not an IR and does not look like one."""
    if not any(d.code in _MAYBE_NOT_IR for d in report.diagnostics):
        return False
    from irshape.sniff import not_ir_reason  # only a file that may be no IR

    reason = not_ir_reason(report.diagnostics, data)
    if reason is None:
        return False
    report.diagnostics, report.skipped = [], reason
    return True


def _fix(path: str, mode: FixMode) -> tuple[list[DimEdit], str, str | None]:
    """Plan, and with ``mode="write"`` apply, the fix of ``path``: (edits, diff, why it failed)."""
    from irshape.fix import FixError, plan_fix, write_atomically  # only a fixing run needs them

    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return [], "", None  # the check reports the unreadable file
    try:
        patch = plan_fix(data, path, path)
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
    path: PathLike = "<string>",
    debug: bool = False,
    dry_run: DryRunOptions | None = None,
    progress: DryRunProgress | None = None,
    columns: bool = True,
    skip_non_ir: bool = False,
    every_unknown_value: bool = False,
) -> FileReport:
    """Check IR XML given as text; ``path`` names it in findings (no .bin is read).
    ``columns``, ``skip_non_ir`` and ``every_unknown_value`` as in :func:`check_file`."""
    if isinstance(text, str):
        data = text.encode("utf-8")
    elif isinstance(text, bytes | bytearray | memoryview):
        data = bytes(text)
    else:
        raise TypeError(f"check_string takes the XML as str or bytes, not {type(text).__name__}")
    name = _path_text(path)
    report = _check(
        lambda: read_bytes(data, name), name, debug, dry_run, progress, every_unknown_value, lambda: data
    )
    if skip_non_ir and _not_ir(report, lambda: data):
        return report
    if columns and report.diagnostics:
        from irshape.columns import add_columns  # only text with findings

        add_columns(report, data)
    return report


# The findings whose axis and column irshape.check.dim_places finds after the reading: its module
# (and its patterns) are imported by a file that has one (tests/test_startup.py holds the two alike).
PLACED_DIM_CODES = frozenset({rules.DIM_SYNTAX.code, rules.DIM_LENIENT.code})


def _check(
    read: Callable[[], ReadResult],
    path: str,
    debug: bool,
    dry_run: DryRunOptions | None = None,
    progress: DryRunProgress | None = None,
    every_unknown_value: bool = False,
    data: Callable[[], bytes] = lambda: b"",
) -> FileReport:
    report = FileReport(path)
    lifetime.release()  # the previous file's model, if the program kept it
    try:
        result = read()
        lifetime.retire(result)
        report.diagnostics.extend(result.diagnostics)
        if result.document is not None:
            if any(d.code in PLACED_DIM_CODES for d in report.diagnostics):
                from irshape.check.dim_places import place_dim_findings  # only a file with such findings

                report.diagnostics = place_dim_findings(report.diagnostics, result.document.layers, data)
            report.layers = check_document(result.document, report.diagnostics.append, debug=debug)
            unknown = rules.VALUE_UNKNOWN.code
            if not every_unknown_value and any(d.code == unknown for d in report.diagnostics):
                from irshape.check.unconfirmed import actionable_unknown_values  # only a file with IRS306

                report.diagnostics = actionable_unknown_values(
                    report.diagnostics, result.document.layers, report.layers
                )
            if dry_run is not None:
                from irshape.execute.dryrun import dry_run as run_layers  # numpy: only when asked

                report.dry_run = run_layers(result.document, dry_run, report.diagnostics.append, progress)
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

    ``output_shapes`` and ``element_types`` are what irshape infers for each output as OpenVINO
    would (empty when the layer is too broken to infer them); ``output_shape`` is the first
    output's shape, or None. They are computed even past an error that makes OpenVINO reject
    the layer, so look at ``ok`` first. ``diagnostics`` are the findings, with path ``"<layer>"``.
    """

    __slots__ = ("diagnostics", "element_types", "output_shapes")
    output_shapes: list[PartialShape]
    element_types: list[str | None]
    diagnostics: list[Diagnostic]

    def __init__(
        self,
        output_shapes: list[PartialShape],
        element_types: list[str | None],
        diagnostics: list[Diagnostic],
    ) -> None:
        set_field(self, "output_shapes", output_shapes)
        set_field(self, "element_types", element_types)
        set_field(self, "diagnostics", diagnostics)

    @property
    def output_shape(self) -> PartialShape | None:
        return self.output_shapes[0] if self.output_shapes else None

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.WARNING]

    @property
    def ok(self) -> bool:
        """No error: OpenVINO reads this layer and infers ``output_shapes``."""
        return not self.errors


InputValue = Iterable[SupportsIndex] | Iterable[float]
"""An input's value, flattened in C order: ints (a shape, axes, indices) or, for an input of a
floating-point type, floats (Interpolate's scales)."""

_REAL_TYPES = frozenset({"f16", "f32", "f64", "bf16"})


def check_layer(
    op_type: str,
    attributes: Mapping[str, AttributeValue],
    input_shapes: Sequence[ShapeLike],
    *,
    input_values: Mapping[int, InputValue] | None = None,
    input_element_types: Sequence[str] | None = None,
    declared_output: ShapeLike | None = None,
    output_shape_value: Iterable[SupportsIndex] | None = None,
    element_type: str = "f32",
    version: str = "opset1",
) -> LayerCheck:
    """Check one layer of any op irshape knows without writing any XML, e.g. from a converter
    before it writes IR.

    ``attributes`` are the ``<data>`` attributes (lists may be given as int sequences);
    ``input_shapes`` one shape per input. ``input_values`` maps an input's index to its value
    when it is a constant (Reshape's target, Gather's axis, Pad's pads, Interpolate's sizes or
    scales...): the inputs whose values decide the shape, as a Const would give them.
    ``input_element_types`` gives each input's element type; without it an input given int
    values, and any other input but the first whose value the op reads, is ``i64``, and the
    rest are ``element_type``.
    ``output_shape_value`` is the backprop ops' output_shape value (input 2; implied when
    ``input_shapes`` has two). ``declared_output`` is the first output's shape the converter
    means to write, compared with the inferred one (IRS301/IRS302). ``version`` names the
    opset (``opset1`` ... ``opset16``) whose version of the op is meant.

    Every problem of the layer itself is a finding. What is not a layer at all raises:
    ValueError for an op type irshape does not know in that opset or a shape string OpenVINO
    cannot parse, TypeError for an attribute, shape or value of the wrong Python type.
    """
    if not isinstance(op_type, str):
        raise TypeError(f"op_type is a str such as 'Convolution', not {type(op_type).__name__}")
    if not isinstance(attributes, Mapping):
        raise TypeError(f"attributes are a mapping of names to values, not {type(attributes).__name__}")
    if isinstance(input_shapes, str | bytes) or not isinstance(input_shapes, Iterable):
        raise TypeError(f"input_shapes is a list of shapes, not {type(input_shapes).__name__}")
    for name, value in (("element_type", element_type), ("version", version)):
        if not isinstance(value, str):
            raise TypeError(f"{name} is a str, not {type(value).__name__}")
    schema = lookup(op_type, version)
    if schema is None or schema.is_source:
        raise ValueError(f"irshape does not know the op type {op_type!r} in {version}")
    shapes = [_to_shape(shape) for shape in input_shapes]
    values = dict(_input_values(input_values))
    if output_shape_value is not None:
        values[2] = _ints(output_shape_value, "output_shape_value")
        if len(shapes) == 2:
            shapes.append(PartialShape([len(values[2])]))
    types = _element_types(input_element_types, len(shapes), element_type, values, schema.value_inputs)
    inputs = [
        _input(i, shape, types[i], values.get(i), schema.value_inputs) for i, shape in enumerate(shapes)
    ]
    layer = Layer(id="0", name=op_type, type=op_type, version=version, line=0, has_data=True)
    layer.data = {name: _attribute_text(value) for name, value in attributes.items()}
    layer.inputs = [Port(id=str(i), index=i, line=0, dims=None) for i in range(len(inputs))]
    if declared_output is not None:
        declared = _to_shape(declared_output)
        dims = None if declared.dims is None else tuple(d.lo if d.is_static else -1 for d in declared)
        layer.outputs.append(Port(id=str(len(inputs)), index=0, line=0, dims=dims))
    where = Location("<layer>", layer_id="0", layer_name=op_type, layer_type=op_type, layer_version=version)
    diagnostics: list[Diagnostic] = []
    inference = check_op(schema, layer, inputs, where, diagnostics.append)
    if inference is None:
        return LayerCheck([], [], diagnostics)
    if declared_output is not None:
        compare_declared(layer, inference, where, diagnostics.append)
    outputs = inference.outputs
    return LayerCheck([o.shape for o in outputs], [o.element_type for o in outputs], diagnostics)


def _input_values(values: Mapping[int, InputValue] | None) -> Iterable[tuple[int, tuple[object, ...]]]:
    if values is None:
        return
    if not isinstance(values, Mapping):
        raise TypeError(f"input_values maps input indices to values, not {type(values).__name__}")
    for index, value in values.items():
        if not _is_index(index):
            raise TypeError(f"input_values is keyed by input index (an int), not {index!r}")
        if isinstance(value, str | bytes) or not isinstance(value, Iterable):
            raise TypeError(f"input {index}'s value is a sequence of numbers, not {value!r}")
        items = tuple(value)
        if not all(_is_index(item) or isinstance(item, float) for item in items):
            raise TypeError(f"input {index}'s value is a sequence of numbers, not {value!r}")
        yield operator.index(index), items


def _element_types(
    given: Sequence[str] | None,
    count: int,
    default: str,
    values: Mapping[int, tuple[object, ...]],
    value_inputs: tuple[int, ...],
) -> list[str]:
    """Each input's element type: as given; else i64 for an input of int values and for the
    other inputs whose values the op reads (a shape, axes: never input 0, the data), else
    ``default``."""
    if given is None:
        return [_default_type(i, default, values.get(i), value_inputs) for i in range(count)]
    types = list(given)
    if len(types) != count or not all(isinstance(t, str) for t in types):
        raise TypeError(f"input_element_types names one element type (a str) per input, {count} here")
    return types


def _default_type(
    index: int, default: str, value: tuple[object, ...] | None, value_inputs: tuple[int, ...]
) -> str:
    if value is not None:
        return default if any(isinstance(v, float) for v in value) else "i64"
    return "i64" if index > 0 and index in value_inputs else default


def _input(
    index: int,
    shape: PartialShape,
    element_type: str,
    value: tuple[object, ...] | None,
    value_inputs: tuple[int, ...],
) -> Tensor:
    """An input as a Const of that value would give it, or with its value unknown."""
    tensor = Tensor(shape, element_type)
    if value is None:
        if index in value_inputs:
            tensor.unknown_as(Unknown.ELSEWHERE, f"no value was given for input {index} (input_values)")
    elif element_type in _REAL_TYPES:
        tensor.reals = tuple(
            v if isinstance(v, float) else float(operator.index(cast(SupportsIndex, v))) for v in value
        )
    else:
        tensor.value = _ints(value, f"input {index}'s value (of element type {element_type})", "ints")
    return tensor


def infer_layer(
    op_type: str,
    attributes: Mapping[str, AttributeValue],
    input_shapes: Sequence[ShapeLike],
    *,
    input_values: Mapping[int, InputValue] | None = None,
    output_shape_value: Iterable[SupportsIndex] | None = None,
    version: str = "opset1",
) -> PartialShape | None:
    """The first output shape OpenVINO infers for one layer; None when OpenVINO would reject
    the layer (any error finding of :func:`check_layer`) or cannot infer a shape."""
    result = check_layer(
        op_type,
        attributes,
        input_shapes,
        input_values=input_values,
        output_shape_value=output_shape_value,
        version=version,
    )
    return result.output_shape if result.ok else None


def _attribute_text(value: AttributeValue) -> str:
    if isinstance(value, str):
        return value
    if not isinstance(value, bool) and _is_index(value):
        return str(operator.index(value))  # type: ignore[arg-type]
    return ",".join(str(v) for v in _ints(value, "an attribute", "a str, an int or a sequence of ints"))


def _is_index(value: object) -> bool:
    """An integer of any kind (numpy's too, a 0-d integer array), not a bool."""
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        return False
    try:
        operator.index(value)
    except TypeError:
        return False
    return True


def _ints(value: object, what: str, kinds: str = "a sequence of ints") -> tuple[int, ...]:
    """The ints of a list, tuple or 1-D array of integers (numpy's too, without numpy)."""
    if not isinstance(value, str | bytes | Mapping) and isinstance(value, Iterable):
        items = list(value)
        if all(_is_index(item) for item in items):
            return tuple(operator.index(item) for item in items)
    raise TypeError(f"{what} is {kinds}, not {value!r}")


def _to_shape(shape: ShapeLike) -> PartialShape:
    if isinstance(shape, PartialShape):
        return shape
    if isinstance(shape, str):
        return parse_partial_shape(shape)
    return PartialShape(
        _ints(shape, "a shape", "a PartialShape, a string like '1,3,?,224' or a list of ints")
    )
