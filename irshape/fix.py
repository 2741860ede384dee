"""Rewrite declared ``<dim>`` s to the shapes OpenVINO computes (``irshape check --fix``).

OpenVINO ignores the declared dims of the layers it infers, and ``ov.save_model`` writes what
it computed: a static value, or -1 for a dim that is not static. The fix writes the same, for
the ports whose shape irshape knows as OpenVINO does (Parameters, Consts, the convolution ops
OpenVINO accepts, shape-preserving unary ops, and the inputs they feed). The file is patched as
text, so comments, layout and every other byte stay as they were; the patched text is read
back and must differ from the original in exactly the edited dims before anything is written,
and then it replaces the file atomically.
"""

from __future__ import annotations

import contextlib
import difflib
import os
import re
import tempfile
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from irshape.check.model import PortShapes, check_document
from irshape.edits import DimEdit
from irshape.ir.model import Document, Port, all_layers
from irshape.ir.reader import read_bytes
from irshape.ir.values import C_SPACE, parse_port_dim


class FixError(ValueError):
    """The file cannot be patched safely; nothing was written."""


@dataclass(frozen=True, slots=True)
class Patch:
    """The fixed text of one file and the edits that made it."""

    path: str
    before: str
    after: str
    edits: Sequence[DimEdit]

    def diff(self) -> str:
        return "".join(
            difflib.unified_diff(
                self.before.splitlines(keepends=True),
                self.after.splitlines(keepends=True),
                fromfile=self.path,
                tofile=self.path,
            )
        )


def plan_fix(data: bytes, path: str, source: str | os.PathLike[str] | None = None) -> Patch | None:
    """The patch that makes the IR text ``data`` declare what OpenVINO computes; None if none is
    needed or the file cannot be read. Raises :class:`FixError` when it cannot be made safely."""
    document = _document(data, path, source)
    if document is None:
        return None
    shapes: PortShapes = {}
    check_document(document, lambda finding: None, port_shapes=shapes)
    edits = dim_edits(document, shapes)
    if not edits:
        return None
    text = _decode(data)
    _check_lines(text, document, edits)
    after = apply_edits(text, edits)
    _verify(document, _document(after.encode("utf-8"), path, source), edits)
    return Patch(path, text, after, edits)


# -- which dims to change ------------------------------------------------------------------


def dim_edits(document: Document, shapes: PortShapes) -> list[DimEdit]:
    """The edits that make every port declare the shape OpenVINO computes for it.

    A dim already compatible (-1, or inside the computed interval) is kept, and so is a port
    whose rank differs (adding or removing ``<dim>`` s is not a patch of values).
    """
    edits: list[DimEdit] = []
    layers = all_layers(document.layers)
    for (layer_at, port_at), port, positions in _dims_in_file_order(document):
        shape = shapes.get(id(port))
        if shape is None or shape.dims is None or port.dims is None or len(port.dims) != len(shape.dims):
            continue
        layer = layers[layer_at]
        for axis, (declared, computed) in enumerate(zip(port.dims, shape.dims, strict=True)):
            if declared == -1 or computed.is_empty or computed.lo <= declared <= computed.hi:
                continue
            new = computed.value if computed.is_static else -1
            slot = (layer_at, port_at, axis)
            edits.append(
                DimEdit(port.dim_line(axis), positions[axis], declared, new, layer.id, port.id, axis, slot)
            )
    return edits


def _ports(document: Document) -> Iterator[tuple[tuple[int, int], Port]]:
    """Every port (of the bodies' layers too), with its layer's position and its own among the
    layer's inputs + outputs."""
    for layer_at, layer in enumerate(all_layers(document.layers)):
        for port_at, port in enumerate([*layer.inputs, *layer.outputs]):
            yield (layer_at, port_at), port


def _dims_in_file_order(document: Document) -> Iterator[tuple[tuple[int, int], Port, list[int]]]:
    """Each port with, per axis, the position of its ``<dim>`` among those starting on its line."""
    seen_on_line: Counter[int] = Counter()
    in_file_order = sorted(_ports(document), key=lambda item: (item[0][0], item[1].line))
    for slot, port in in_file_order:
        positions = []
        for axis in range(len(port.dims or ())):
            line = port.dim_line(axis)
            positions.append(seen_on_line[line])
            seen_on_line[line] += 1
        yield slot, port, positions


# -- the text patch ------------------------------------------------------------------------

_DIM = re.compile(r"<dim(?:\s[^>]*)?>([^<]*)</dim\s*>")
_NOT_MARKUP = re.compile(r"<!--.*?-->|<!\[CDATA\[.*?\]\]>|<\?.*?\?>", re.S)  # where "<dim>" is text


def apply_edits(text: str, edits: Iterable[DimEdit]) -> str:
    """``text`` with each edit's ``<dim>`` rewritten; a dim not found as expected is an error."""
    wanted = {(edit.line, edit.index): edit for edit in edits}
    pieces: list[str] = []
    done = 0
    for line, index, match in _dim_elements(text):
        edit = wanted.pop((line, index), None)
        if edit is None:
            continue
        # the reader's grammar (irshape.ir.values): '+33' and '33abc' are 33, as OpenVINO reads them
        if parse_port_dim(match.group(1)) != edit.old:
            raise FixError(f"line {line}: expected <dim>{edit.old}</dim>, found {match.group(0)!r}")
        # Only the value changes: the whitespace around it (newlines included) stays.
        content = match.group(1)
        start = match.start(1) + len(content) - len(content.lstrip(C_SPACE))
        end = match.start(1) + len(content.rstrip(C_SPACE))
        pieces += [text[done:start], str(edit.new)]
        done = end
    if wanted:
        line, index = min(wanted)
        raise FixError(f"line {line}: <dim> number {index + 1} of the line was not found")
    return "".join([*pieces, text[done:]])


def _dim_elements(text: str) -> Iterator[tuple[int, int, re.Match[str]]]:
    """Every ``<dim>`` element outside comments and CDATA: its line, its index on the line."""
    hidden = [m.span() for m in _NOT_MARKUP.finditer(text)]
    line, counted, per_line = 1, 0, Counter[int]()
    for match in _DIM.finditer(text):
        if any(start <= match.start() < end for start, end in hidden):
            continue
        line += text.count("\n", counted, match.start())
        counted = match.start()
        yield line, per_line[line], match
        per_line[line] += 1


# -- safety --------------------------------------------------------------------------------


def _document(data: bytes, path: str, source: str | os.PathLike[str] | None) -> Document | None:
    return read_bytes(data, path, source=None if source is None else os.fspath(source)).document


def _decode(data: bytes) -> str:
    """The text of a UTF-8 file (the encoding OpenVINO writes); others are not patched."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise FixError("only UTF-8 files are fixed") from None


def _check_lines(text: str, document: Document, edits: Sequence[DimEdit]) -> None:
    """On each line to edit, the ``<dim>`` s in the text must be the dims irshape read there
    (dims of parts irshape does not read, such as a TensorIterator body, would shift them)."""
    read = Counter(
        port.dim_line(axis) for _, port in _ports(document) for axis in range(len(port.dims or ()))
    )
    written = Counter(line for line, _, _ in _dim_elements(text))
    for line in {edit.line for edit in edits}:
        if read[line] != written[line]:
            raise FixError(f"line {line} holds <dim>s irshape does not read as port dims")


def _verify(before: Document, after: Document | None, edits: Sequence[DimEdit]) -> None:
    """The patched text must read as the original with exactly the edited dims changed."""
    expected = {edit.slot: edit.new for edit in edits}
    old_ports, new_ports = list(_ports(before)), list(_ports(after)) if after is not None else []
    if len(old_ports) != len(new_ports):
        raise FixError("the patched file does not read back as the same ports")
    for (slot, old), (_, new) in zip(old_ports, new_ports, strict=True):
        want = tuple(expected.get((*slot, axis), d) for axis, d in enumerate(old.dims or ()))
        if (new.dims or ()) != want:
            raise FixError(f"the patched file reads back other dims on line {new.line}")


def write_atomically(path: str | os.PathLike[str], text: str) -> None:
    """Replace ``path`` with ``text``: a temporary file beside it, then ``os.replace``.

    A symbolic link is followed (its target is replaced, the link stays), and the file keeps
    its mode and, where the process may set them, its owner and group. Other hard links to the
    file keep the old text: an atomic replace makes a new file.
    """
    path = Path(path).resolve()
    before = path.stat()
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            out.write(text)
        os.chmod(temporary, before.st_mode & 0o7777)
        if hasattr(os, "chown") and (before.st_uid, before.st_gid) != (os.getuid(), os.getgid()):
            with contextlib.suppress(PermissionError):
                os.chown(temporary, before.st_uid, before.st_gid)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
