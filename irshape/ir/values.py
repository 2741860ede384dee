"""Attribute values the way OpenVINO's IR reader parses them (rules §4.6, §8.2)."""

from __future__ import annotations

import functools
import re

from irshape.record import FrozenRecord, set_field

# One field of a list attribute: leading blanks, an optional minus, digits, then anything,
# which OpenVINO drops ("2.5" -> 2, "2 2" -> 2).
_FIELD = re.compile(r"\s*(-?\d+)(.*)", re.DOTALL)


class ListSyntaxError(ValueError):
    """A list attribute OpenVINO fails to parse; the message is OpenVINO's."""


class IntList(FrozenRecord):
    __slots__ = ("dropped", "values")
    values: tuple[int, ...]
    dropped: str | None  # text OpenVINO silently dropped, if any besides blanks

    def __init__(self, values: tuple[int, ...], dropped: str | None = None) -> None:
        set_field(self, "values", values)
        set_field(self, "dropped", dropped)


def parse_int_list(text: str) -> IntList:
    """Parse ``"2,2"`` leniently as OpenVINO does; raise :class:`ListSyntaxError` where it fails."""
    if len(text) <= _CACHED_TEXT_MAX:  # a model repeats its shapes, strides and pads
        return _parse_short_int_list(text)
    return _parse_int_list(text)


_CACHED_TEXT_MAX = 64


def _parse_int_list(text: str) -> IntList:
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
        match = _FIELD.fullmatch(field)
        if match is None:
            raise ListSyntaxError(f"Cannot parse '{field.strip()}' in \"{text}\"")
        if _too_long(match.group(1), 20):  # beyond any 64-bit integer; int() refuses 4300+ digits
            raise ListSyntaxError(f"Cannot parse '{field.strip()[:24]}...': out of the 64-bit range")
        values.append(_int(match.group(1)))
        if match.group(2).strip():
            dropped.append(match.group(2).strip())
    return IntList(tuple(values), " ".join(dropped) or None)


def parse_port_dim(text: str | None) -> int | None:
    """A ``<dim>``: OpenVINO streams an int64 from the text and needs it to be >= -1.

    Returns None where OpenVINO rejects the file.
    """
    match = re.match(r"\s*([-+]?\d+)", text or "")
    if match is None or _too_long(match.group(1), 19):
        return None
    value = _int(match.group(1))
    if value < -1 or value > 2**63 - 1:
        return None
    return value


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
