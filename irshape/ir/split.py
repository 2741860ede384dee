"""Read a large IR on two processes: the reader reads up to a layer near the middle while a
forked child reads from there to the end.

The child starts at the first ``<layer`` a little past the middle of the file, as a restarted
parser does (:class:`~irshape.ir.stream.LinedParser`): a fresh parser fed ``<net><layers>`` and then
the file from there, its lines offset by the line ends before the cut. When the reader reaches
the cut it checks that the cut really was such a point (between two layers of the ``<net>``'s
first ``<layers>``, outside any comment, no ``<edges>`` before it, the encoding the child
assumed); only then does it take the child's reading, else it reads on alone. Whatever goes
wrong in the child (an exception, a kill), the reader reads on alone: the result is always
the one reading alone would give.

The child's model comes back through a pipe as ``marshal`` data (plain tuples, lists and
dicts, several times faster than pickling the model's classes).
"""

from __future__ import annotations

import gc
import marshal
import os
import pickle
import re
import signal
from typing import Any

from irshape.forking import single_threaded
from irshape.ir.model import Edge, Layer, Port, RtAttribute
from irshape.ir.parse import Reader, Rest
from irshape.ir.stream import line_ends

SPLIT_MIN_BYTES = 4 << 20  # below this, forking costs more than it saves
# Where the cut goes, as a share of the file: past the middle, as the child also has the
# <edges> and the packing of its model to do. At 0.53 both processes spend the same CPU time
# on a 100k-layer IR (the reader up to the cut, the child in all; it was 0.56, and the reader
# then took ~15% longer than the child).
_CUT_SHARE = 0.53
_WINDOW = 1 << 20  # bytes searched for a <layer from the middle on
_BLOCK = 1 << 20
_LAYER_START = re.compile(rb"<layer[\s/>]")
_ENCODING = re.compile(rb"""<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)["']""")


def start(path: str) -> _Child | None:
    """Fork a child reading ``path`` from a ``<layer`` near its middle; None where that would
    not pay or cannot be done (a small file, not a <net> in an ASCII-compatible encoding,
    no ``os.fork``, a process of several threads: :mod:`irshape.forking`)."""
    if not hasattr(os, "fork"):
        return None
    try:
        with open(path, "rb") as stream:
            size = os.fstat(stream.fileno()).st_size
            if size < SPLIT_MIN_BYTES:
                return None
            head = stream.read(4096)
            if not head.lstrip(b"\xef\xbb\xbf").lstrip().startswith(b"<") or b"<net" not in head:
                return None  # UTF-16 and others: the reader reads alone
            middle = int(size * _CUT_SHARE)
            stream.seek(middle)
            found = _LAYER_START.search(stream.read(_WINDOW))
    except OSError:
        return None
    if found is None or not single_threaded():
        return None
    declared = _ENCODING.search(head)
    encoding = declared.group(1).decode() if declared else "UTF-8"
    return _Child.fork(path, middle + found.start(), encoding)


class _Child:
    """The forked child, as the reader's :class:`~irshape.ir.parse.Join`."""

    def __init__(self, pid: int, pipe: int, cut: int, encoding: str) -> None:
        self.pid = pid
        self.pipe = pipe
        self.cut = cut
        self.encoding = encoding

    @classmethod
    def fork(cls, path: str, cut: int, encoding: str) -> _Child | None:
        read_end, write_end = os.pipe()
        try:
            pid = os.fork()
        except OSError:
            os.close(read_end)
            os.close(write_end)
            return None
        if pid == 0:  # the child: never returns
            os.close(read_end)
            _child(path, cut, encoding, write_end)
        os.close(write_end)
        return cls(pid, read_end, cut, encoding)

    def take(self) -> Rest | None:
        if self.pid == 0:
            return None
        chunks = []
        while chunk := os.read(self.pipe, _BLOCK):
            chunks.append(chunk)
        self._reap()
        if not chunks:
            return None  # the child failed: read on alone
        return _unpack(marshal.loads(b"".join(chunks)))

    def cancel(self) -> None:
        if self.pid != 0:
            os.kill(self.pid, signal.SIGKILL)
            self._reap()

    def _reap(self) -> None:
        os.close(self.pipe)
        os.waitpid(self.pid, 0)
        self.pid = 0


def _child(path: str, cut: int, encoding: str, pipe: int) -> None:
    """Read the file from ``cut`` on and write the result to ``pipe``; exit, whatever happens."""
    gc.disable()  # a short-lived process of many small objects without cycles
    try:
        with open(path, "rb") as stream:
            ends, after_cr = 0, False
            for block in iter(lambda: stream.read(min(_BLOCK, cut - stream.tell())), b""):
                ends += line_ends(block, after_cr)
                after_cr = block.endswith(b"\r")
            ends += after_cr  # the cut is before a "<": a "\r" just before it ends its line alone

            def chunks() -> Any:
                stream.seek(cut)
                while chunk := stream.read(1 << 16):
                    yield chunk

            rest = Reader(path, path).read_rest(chunks, ends, encoding)
        data = marshal.dumps(_pack(rest))
        with os.fdopen(pipe, "wb") as out:
            out.write(data)
    finally:
        os._exit(0)  # no clean-up of the parent's state copied into this process


# -- the transport: the model as plain values -------------------------------------------------------


def _pack(rest: Rest) -> tuple[Any, ...]:
    layers = [
        (
            *(layer.id, layer.name, layer.type, layer.version, layer.line),
            *(layer.data, layer.data_line, layer.has_data),
            [_pack_port(port) for port in layer.inputs],
            [_pack_port(port) for port in layer.outputs],
            None if layer.subgraphs is None else pickle.dumps(layer.subgraphs),  # the rare Loop, If
            _pack_rt_info(layer.rt_info),
        )
        for layer in rest.layers
    ]
    edges = (
        None
        if rest.edges is None
        else [(e.from_layer, e.from_port, e.to_layer, e.to_port, e.line) for e in rest.edges]
    )
    diagnostics = pickle.dumps(rest.diagnostics) if rest.diagnostics else b""
    # the <net>'s own parts after the cut (a <pre-process>, <meta_data>, an <rt_info>): rare
    net_parts = (rest.pre_process, rest.meta_data, rest.has_rt_info)
    return layers, edges, diagnostics, rest.error, pickle.dumps(net_parts)


def _pack_port(port: Port) -> tuple[Any, ...]:
    lines = port.dim_lines
    # A list stands for a range (marshal has none), a tuple for itself.
    packed_lines = [lines.start, lines.stop] if isinstance(lines, range) else lines
    rt_info = _pack_rt_info(port.rt_info)
    return port.id, port.index, port.line, port.dims, packed_lines, port.precision, port.names, rt_info


def _pack_rt_info(rt_info: tuple[RtAttribute, ...]) -> tuple[tuple[dict[str, str], int], ...]:
    return tuple((attribute.attributes, attribute.line) for attribute in rt_info)


def _unpack_rt_info(packed: tuple[tuple[dict[str, str], int], ...]) -> tuple[RtAttribute, ...]:
    return tuple(RtAttribute(attributes, line) for attributes, line in packed) if packed else ()


def _unpack(packed: tuple[Any, ...]) -> Rest:
    layers, edges, diagnostics, error, net_parts = packed
    return Rest(
        [_unpack_layer(*fields) for fields in layers],
        None if edges is None else [Edge(*fields) for fields in edges],
        pickle.loads(diagnostics) if diagnostics else [],
        error,
        *pickle.loads(net_parts),
    )


def _unpack_layer(*fields: Any) -> Layer:
    id, name, type_, version, line, data, data_line, has_data, inputs, outputs, subgraphs, rt_info = fields
    layer = Layer(
        id, name, type_, version, line, data or None, data_line, has_data
    )  # (no <data>: the shared {})
    if rt_info:
        layer.rt_info = _unpack_rt_info(rt_info)
    layer.inputs, layer.outputs = _unpack_ports(inputs), _unpack_ports(outputs)
    if subgraphs is not None:
        layer.subgraphs = pickle.loads(subgraphs)
    return layer


def _unpack_ports(ports: list[tuple[Any, ...]]) -> list[Port]:
    return [
        Port(
            id,
            index,
            line,
            dims,
            range(*lines) if isinstance(lines, list) else lines,
            precision,
            names,
            _unpack_rt_info(rt_info),
        )
        for id, index, line, dims, lines, precision, names, rt_info in ports
    ]
