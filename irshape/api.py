"""The library API: check IR files or text (one layer given as plain values is
:mod:`irshape.api_layer`'s).

Nothing here prints or exits; every problem in the input comes back as a finding.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

from irshape import lifetime, rules
from irshape.check.model import PortShapes, check_document
from irshape.diagnostics import Diagnostic, Location
from irshape.ir.parse import ReadResult
from irshape.ir.reader import read_bytes, read_file
from irshape.results import FileReport

if TYPE_CHECKING:
    from irshape.edits import DimEdit
    from irshape.execute.dryrun import DryRunOptions

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
            # A dry run of a file with control flow runs its bodies at the shapes this check
            # infers for them: kept from it (not inferred a second time)
            body_shapes: PortShapes | None = (
                {}
                if dry_run is not None and any(x.subgraphs is not None for x in result.document.layers)
                else None
            )
            report.layers = check_document(
                result.document, report.diagnostics.append, debug=debug, body_shapes=body_shapes
            )
            unknown = rules.VALUE_UNKNOWN.code
            if not every_unknown_value and any(d.code == unknown for d in report.diagnostics):
                from irshape.check.unconfirmed import actionable_unknown_values  # only a file with IRS306

                report.diagnostics = actionable_unknown_values(
                    report.diagnostics, result.document.layers, report.layers
                )
            if dry_run is not None:
                from irshape.execute.dryrun import dry_run as run_layers  # numpy: only when asked

                report.dry_run = run_layers(
                    result.document, dry_run, report.diagnostics.append, progress, body_shapes
                )
    except Exception as exc:  # a bug in irshape: a finding, never a traceback
        summary = f"{type(exc).__name__}: {exc}".splitlines()[0][:200]
        if debug:
            import traceback  # only --debug shows one; its imports cost ~2 ms of every start-up

            summary += "\n" + traceback.format_exc()
        report.diagnostics.append(rules.INTERNAL_ERROR(Location(path), summary=summary))
    report.diagnostics.sort(key=Diagnostic.sort_key)
    return report
