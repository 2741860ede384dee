"""Numbers the way OpenVINO's IR reader parses them, one grammar per place in the file
(docs/openvino-ir-reading.md gives each with the experiment that shows it):

* list attributes (strides, pads, dilations, output_padding, a Const's ``shape``): split on
  ``,``; each field trimmed of C's whitespace, then ``std::from_chars`` into an int64: an
  optional ``-`` (no ``+``), ASCII digits, anything after them dropped, out of range an error;
* a port ``<dim>``: ``istream >> int64``: C whitespace skipped, an optional sign, ASCII digits,
  the rest ignored; overflow fails; the value must be at least -1;
* ids, a Const's ``offset`` and ``size``, the net's ``version``: ``std::stoll`` over the whole
  text (leading C whitespace, an optional sign, ASCII digits, nothing after), int64, >= 0.

C's whitespace is `` \t\n\v\f\r`` only: Python's ``str.strip()`` and ``int()`` also take
no-break and other Unicode spaces and digits of other scripts, which OpenVINO rejects.
"""

from __future__ import annotations

import functools
import re

from irshape.record import FrozenRecord, set_field

C_SPACE = " \t\n\v\f\r"  # isspace() in the C locale
INT64_MAX = 2**63 - 1
INT64_MIN = -(2**63)

UINT64_MAX = 2**64 - 1


# The patterns are compiled on first use (a start-up pays ~1M instructions for each at import).
@functools.cache
def _field(unsigned: bool) -> re.Pattern[str]:
    """One trimmed field of a list attribute: an optional minus, ASCII digits, then anything,
    which OpenVINO drops ("2.5" -> 2, "2 2" -> 2). An unsigned list's field has no sign at all."""
    return re.compile(r"([0-9]+)(.*)" if unsigned else r"(-?[0-9]+)(.*)", re.DOTALL)


@functools.cache
def _leading_int() -> re.Pattern[str]:
    """The start of istream >> int64, as a <dim> is read; as a whole text (fullmatch), std::stoll's
    as ids, offsets, sizes and the net version are read."""
    return re.compile(r"[ \t\n\v\f\r]*([+-]?[0-9]+)")


class ListSyntaxError(ValueError):
    """A list attribute OpenVINO fails to parse; the message is OpenVINO's."""


class IntList(FrozenRecord):
    __slots__ = ("dropped", "values")
    values: tuple[int, ...]
    dropped: str | None  # text OpenVINO silently dropped, if any besides blanks

    def __init__(self, values: tuple[int, ...], dropped: str | None = None) -> None:
        set_field(self, "values", values)
        set_field(self, "dropped", dropped)


def parse_int_list(text: str, unsigned: bool = False) -> IntList:
    """Parse ``"2,2"`` leniently as OpenVINO does; raise :class:`ListSyntaxError` where it fails.

    ``unsigned``: the grammar of an attribute OpenVINO keeps as ``std::vector<size_t>``
    (Interpolate's pads): ``std::from_chars`` into a uint64, so no sign at all (``-0`` fails)
    and values up to 2^64 - 1 (docs/openvino-ir-reading.md §1)."""
    if len(text) <= _CACHED_TEXT_MAX:  # a model repeats its shapes, strides and pads
        return _parse_short_int_list(text, unsigned)
    return _parse_int_list(text, unsigned)


_CACHED_TEXT_MAX = 64


def _parse_int_list(text: str, unsigned: bool = False) -> IntList:
    if text == "":
        return IntList(())
    fields = text.split(",")
    if len(fields) > 1 and fields[-1] == "":
        fields.pop()  # one trailing comma is accepted
    values: list[int] = []
    dropped: list[str] = []
    for field in fields:
        if field == "":
            raise ListSyntaxError(f'Cannot get vector of parameters! "{text}" is incorrect')
        digits = field.strip(C_SPACE)
        if digits.isdigit() and digits.isascii() and len(digits) < 19:  # the common case, without the regex
            values.append(int(digits))
            continue
        match = _field(unsigned).fullmatch(digits)
        if match is None:
            raise ListSyntaxError(f"Cannot parse '{field}' in \"{text}\"")
        lo, hi, kind = (0, UINT64_MAX, "uint64") if unsigned else (INT64_MIN, INT64_MAX, "int64")
        value = None if _too_long(match.group(1), 20 if unsigned else 19) else _int(match.group(1))
        if value is None or not lo <= value <= hi:
            raise ListSyntaxError(f"Cannot parse '{field[:40]}' in \"{text[:80]}\": out of the {kind} range")
        values.append(value)
        if match.group(2).strip(C_SPACE):
            dropped.append(match.group(2).strip(C_SPACE))
    return IntList(tuple(values), " ".join(dropped) or None)


def parse_port_dim(text: str | None) -> int | None:
    """A ``<dim>``: OpenVINO streams an int64 from the text and needs it to be >= -1.

    Returns None where OpenVINO rejects the file.
    """
    if text is not None and text.isdigit() and text.isascii() and len(text) < 19:  # the common case
        return int(text)
    match = _leading_int().match(text or "")
    if match is None or _too_long(match.group(1), 19):
        return None
    value = _int(match.group(1))
    if value < -1 or value > 2**63 - 1:
        return None
    return value


def parse_uint(text: str | None) -> int | None:
    """An id, a Const's offset or size, the net's version: ``std::stoll`` over the whole text
    (pugixml's ``get_uint64_attr``), then ``>= 0``. None where OpenVINO rejects it."""
    if text is None:
        return None
    if text.isdigit() and text.isascii() and len(text) < 19:  # the common case, without the regex
        return int(text)
    match = _leading_int().fullmatch(text)
    if match is None or _too_long(match.group(1), 19):
        return None
    value = _int(match.group(1))
    return value if 0 <= value <= INT64_MAX else None


def _too_long(digits: str, limit: int) -> bool:
    """More than ``limit`` significant digits (19: past int64, 20: past uint64); ``int()``
    refuses more than 4300 digits, leading zeros included."""
    return len(digits.lstrip("+-").lstrip("0")) > limit


def _int(digits: str) -> int:
    """``int()`` of a sign and digits that are not _too_long, leading zeros and all."""
    value = int(digits.lstrip("+-").lstrip("0") or "0")
    return -value if digits.startswith("-") else value


# An IntList is immutable; a text that fails raises again each time (exceptions are not cached).
_parse_short_int_list = functools.lru_cache(maxsize=4096)(_parse_int_list)
