"""The legacy parts of a ``<net>`` that OpenVINO still reads: IR v10's ``<pre-process>`` (mean
values, applied to IR v10 and v11 alike) and ``<meta_data>`` (read when the ``<net>`` has no
``<rt_info>``), as :class:`~irshape.ir.model.Document` holds them.

Apart from :mod:`irshape.ir.model` for start-up: few files have them (none of the 119 fixture
networks), and a check of any other does not make these records' classes (~0.25M instructions).
The reader imports this module when a ``<net>`` has one of them.
"""

from __future__ import annotations

from irshape.record import Record


class PreProcessChannel(Record):
    """One ``<channel>`` of a ``<pre-process>``: its attributes (``id``), and the attributes of
    its first ``<mean>`` (``value``, or ``offset`` and ``size`` in the .bin), None without one."""

    __slots__ = ("attributes", "line", "mean", "mean_line")
    attributes: dict[str, str]
    line: int
    mean: dict[str, str] | None
    mean_line: int

    def __init__(
        self, attributes: dict[str, str], line: int, mean: dict[str, str] | None, mean_line: int
    ) -> None:
        self.attributes = attributes
        self.line = line
        self.mean = mean
        self.mean_line = mean_line


class PreProcess(Record):
    """The ``<net>``'s first ``<pre-process>`` (IR v10's legacy mean values, which OpenVINO
    still applies to IR v10 and v11): its attributes (``reference-layer-name``,
    ``mean-precision``) and its ``<channel>`` s."""

    __slots__ = ("attributes", "channels", "line")
    attributes: dict[str, str]
    channels: tuple[PreProcessChannel, ...]
    line: int

    def __init__(
        self, attributes: dict[str, str], channels: tuple[PreProcessChannel, ...], line: int
    ) -> None:
        self.attributes = attributes
        self.channels = channels
        self.line = line


class MetaDataEntry(Record):
    """One child of the ``<net>``'s first ``<meta_data>`` (the legacy metadata OpenVINO reads
    when the ``<net>`` has no ``<rt_info>``): its tag (``""`` for text), whether it has a
    ``value`` attribute, its line."""

    __slots__ = ("has_value", "line", "tag")
    tag: str
    has_value: bool
    line: int

    def __init__(self, tag: str, has_value: bool, line: int) -> None:
        self.tag = tag
        self.has_value = has_value
        self.line = line
