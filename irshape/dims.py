"""Dimensions and shapes with OpenVINO's interval arithmetic.

A dimension is an interval ``[lo, hi]`` of non-negative integers, where ``hi`` may be
infinite (``INF`` = 2**63 - 1, OpenVINO's ``Interval::s_max``). The operations below copy
the clipping rules of OpenVINO's ``interval.cpp`` and ``dimension.cpp`` so that irshape
infers the same ``?``, ``1..`` and ``..10`` that OpenVINO does (rules §5.2).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence

from irshape.record import FrozenRecord, set_field

INF = 2**63 - 1


def _clip(value: int) -> int:
    return max(0, min(INF, value))


def _clip_add(a: int, b: int) -> int:
    if a == INF or b == INF:
        return INF
    return min(a + b, INF)


def _clip_minus(a: int, b: int) -> int:
    if a <= b:
        return 0
    if a == INF:
        return INF
    return a - b


def _clip_times(a: int, b: int) -> int:
    if a == 0 or b == 0:
        return 0
    if a == INF or b == INF or a > INF // b:
        return INF
    return a * b


class Dim(FrozenRecord):
    """One dimension: the interval ``[lo, hi]``; ``hi == INF`` means unbounded."""

    __slots__ = ("hi", "lo")
    lo: int
    hi: int

    def __init__(self, lo: int, hi: int) -> None:
        set_field(self, "lo", lo)
        set_field(self, "hi", hi)

    # Spelled out, not the record's generic ones: shapes compare their dims all the time.
    def __eq__(self, other: object) -> bool:
        if type(other) is not Dim:
            return NotImplemented
        return self.lo == other.lo and self.hi == other.hi

    def __hash__(self) -> int:  # type: ignore[override]
        return hash((self.lo, self.hi))

    # -- construction, as OpenVINO's Dimension constructors do it --------------------------

    @classmethod
    def of(cls, value: int) -> Dim:
        """``Dimension(v)``: -1 is fully dynamic, other negatives clip to 0."""
        if value == -1:
            return DYNAMIC
        v = _clip(value)
        return cls(v, v)

    @classmethod
    def between(cls, lo: int, hi: int) -> Dim:
        """``Dimension(lo, hi)`` with -1 meaning 0 (lo) or unbounded (hi); empty stays empty."""
        lo = 0 if lo == -1 else lo
        hi = INF if hi == -1 else hi
        if hi < lo:
            return EMPTY
        return cls(_clip(lo), _clip(hi))

    # -- queries ------------------------------------------------------------------------------

    @property
    def is_static(self) -> bool:
        return self.lo == self.hi and not self.is_empty

    @property
    def is_empty(self) -> bool:
        return self.lo == INF and self.hi == INF

    @property
    def value(self) -> int:
        """The length of a static dimension."""
        if not self.is_static:
            raise ValueError(f"dimension {self} is not static")
        return self.lo

    def compatible(self, other: Dim) -> bool:
        return not (self & other).is_empty

    # -- arithmetic (Interval operators) --------------------------------------------------

    def __and__(self, other: Dim) -> Dim:
        lo, hi = max(self.lo, other.lo), min(self.hi, other.hi)
        return EMPTY if hi < lo else Dim(lo, hi)

    def __add__(self, other: Dim | int) -> Dim:
        o = _as_dim(other)
        if self.is_empty or o.is_empty:
            return EMPTY
        return Dim(_clip_add(self.lo, o.lo), _clip_add(self.hi, o.hi))

    def __sub__(self, other: Dim | int) -> Dim:
        o = _as_dim(other)
        if self.is_empty or o.is_empty:
            return EMPTY
        return Dim(_clip_minus(self.lo, o.hi), _clip_minus(self.hi, o.lo))

    def __mul__(self, other: Dim | int) -> Dim:
        o = _as_dim(other)
        if self.is_empty:
            return self
        if o.is_empty:
            return o
        return Dim(_clip_times(self.lo, o.lo), _clip_times(self.hi, o.hi))

    def divide_exact(self, divisor: int) -> Dim:
        """``Dimension / n``: the values of ``self`` that ``n`` divides, divided by ``n``.

        OpenVINO divides in double precision, so a huge upper bound rounds as a double does
        (``4.. / 2`` is ``2..4611686018427387904``, rules §2).
        """
        if divisor == 1:
            return self
        if self.lo == 0 and self.hi == INF:
            return DYNAMIC
        return Dim.between(math.ceil(self.lo / divisor), math.floor(self.hi / divisor))

    def floor_div(self, divisor: int) -> Dim:
        """``dim::floor_div``: an unbounded upper bound stays unbounded.

        OpenVINO divides the *lengths*, where an unbounded or empty bound reads as -1 and C++
        division truncates, so an empty dim divides to ``?`` (rules §5.2). The divisor is an
        int64: a stride OpenVINO read as 2^64 - n divides as -n (truncating toward zero).
        """
        if self.is_static:
            return Dim.of(trunc_div(self.lo, divisor))
        lo = trunc_div(_length(self.lo), divisor)
        hi = -1 if self.hi == INF else trunc_div(self.hi, divisor)
        return Dim.between(lo, hi)

    def ceil_div(self, divisor: int) -> Dim:
        """``dim::ceil_div``, with ``util::ceil_div(x, y) = x == 0 ? 0 : 1 + (x - 1) / y``.

        On an empty dim that gives ``1..`` for divisors above 2 (the length -1 becomes 1).
        """
        if self.is_static:
            return Dim.of(_ceil_div_length(self.lo, divisor))
        lo = _ceil_div_length(_length(self.lo), divisor)
        hi = -1 if self.hi == INF else _ceil_div_length(self.hi, divisor)
        return Dim.between(lo, hi)

    def padded(self, pad: int) -> Dim:
        """``dim::padded``: add a signed amount; a static result below 0 becomes ``?``. The sum
        is an int64 one: past 2^63 - 1 it wraps to a negative, which is ``?`` too."""
        if pad == 0:
            return self

        def bound(v: int) -> int:
            total = int64(v + pad)
            return -1 if v == INF or total < 0 else total

        upper = bound(self.hi)
        if self.is_static:
            return Dim.of(upper)
        return Dim.between(bound(self.lo), upper)

    def dilated(self, dilation: int) -> Dim:
        """``dim::dilated``: the extent ``(K - 1) * d + 1`` of a dilated kernel."""
        return (self - 1) * dilation + 1

    # -- text -----------------------------------------------------------------------------

    def __str__(self) -> str:
        if self.is_empty:  # an empty interval prints as "?" in OpenVINO (rules §5.1)
            return "?"
        if self.is_static:
            return str(self.lo)
        if self.lo > 0:
            return f"{self.lo}.." + ("" if self.hi == INF else str(self.hi))
        if self.hi != INF:
            return f"..{self.hi}"
        return "?"

    def to_json(self) -> int | str:
        return self.lo if self.is_static else str(self)


DYNAMIC = Dim(0, INF)
EMPTY = Dim(INF, INF)


def _length(bound: int) -> int:
    """A bound as ``Dimension::get_min_length``/``get_max_length`` give it: unbounded is -1."""
    return -1 if bound == INF else bound


def trunc_div(a: int, b: int) -> int:
    """C++ integer division, which truncates toward zero."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def int64(value: int) -> int:
    """``value`` as a C++ int64 holds it: modulo 2^64, two's complement (a size_t read back as
    an int64 length, or an int64 sum that overflows)."""
    return (value + 2**63) % 2**64 - 2**63


def _ceil_div_length(x: int, y: int) -> int:
    """``ov::util::ceil_div`` on int64 lengths, truncating as C++ does."""
    return 0 if x == 0 else 1 + trunc_div(x - 1, y)


def _as_dim(value: Dim | int) -> Dim:
    return value if isinstance(value, Dim) else Dim.of(value)


MAX_RANK = 1 << 24  # a shape of more dims would take gigabytes, in OpenVINO as here


class PartialShape:
    """A shape of :class:`Dim` s, or of dynamic rank (``dims is None``)."""

    __slots__ = ("_hash", "dims", "lengths")

    def __init__(self, dims: Iterable[Dim | int] | None) -> None:
        self.dims: tuple[Dim, ...] | None = None if dims is None else tuple(_as_dim(d) for d in dims)
        # The lengths of a static shape (else None): compared with declared <dim>s in one step.
        self.lengths: tuple[int, ...] | None = _static_lengths(self.dims)
        self._hash: int | None = None  # a shape is hashed often (memo keys) and never changes

    @classmethod
    def dynamic(cls, rank: int | None = None) -> PartialShape:
        """``rank`` dims of unknown length; a dynamic rank for None, or for a rank no memory
        holds (a Reshape target Const of shape [9007199254740993]: OpenVINO's bad_alloc)."""
        return cls(None if rank is None or rank > MAX_RANK else [DYNAMIC] * rank)

    @property
    def rank(self) -> int | None:
        return None if self.dims is None else len(self.dims)

    @property
    def is_static(self) -> bool:
        return self.dims is not None and all(d.is_static for d in self.dims)

    def __iter__(self) -> Iterator[Dim]:
        return iter(self.dims or ())

    def __len__(self) -> int:
        if self.dims is None:
            raise TypeError("a shape of dynamic rank has no length")
        return len(self.dims)

    def __getitem__(self, index: int) -> Dim:
        if self.dims is None:
            raise TypeError("a shape of dynamic rank has no dimensions")
        return self.dims[index]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PartialShape) and self.dims == other.dims

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(self.dims)
        return self._hash

    def __str__(self) -> str:
        if self.dims is None:
            return "[...]"
        return "[" + ",".join(str(d) for d in self.dims) + "]"

    def __repr__(self) -> str:
        return f"PartialShape({self})"

    def to_json(self) -> list[int | str] | None:
        return None if self.dims is None else [d.to_json() for d in self.dims]


def _static_lengths(dims: tuple[Dim, ...] | None) -> tuple[int, ...] | None:
    if dims is None or not all(d.lo == d.hi != INF for d in dims):  # Dim.is_static, inlined
        return None
    return tuple(d.lo for d in dims)


# -- parsing -----------------------------------------------------------------------------


_C_SPACE = " \t\n\v\f\r"  # what OpenVINO's trim() removes: isspace() in the C locale


class DimSyntaxError(ValueError):
    """A dimension literal OpenVINO cannot parse."""


def _parse_bound(text: str, what: str) -> int | None:
    """An int64 as OpenVINO 2026.4 reads a dimension or bound: the text must hold only ASCII
    digits and '-' (its check_all_digits), then a stream reads a number from its start; None
    when the number overflows or there is none ('-', '--9'), which reads as the default (0, or
    an open upper bound)."""
    if text.strip(_BOUND_CHARACTERS):  # a character other than these
        raise DimSyntaxError(f"Cannot parse {what}: {text!r}")
    digits = _leading_number(text)
    if digits is None:
        return None
    if len(digits.lstrip("-").lstrip("0")) > 19:  # beyond int64 (and int() refuses 4300+ digits)
        return None
    value = int(digits)
    return value if -INF - 1 <= value <= INF else None


_BOUND_CHARACTERS = "0123456789-"
_DIGITS = "0123456789"


def _leading_number(text: str) -> str | None:
    """The number at the start of ``text`` (``-?[0-9]+``, str methods: a regex compiled at
    import costs every start-up), None when there is none."""
    sign = "-" if text.startswith("-") else ""
    rest = text[len(sign) :]
    count = len(rest) - len(rest.lstrip(_DIGITS))
    return sign + rest[:count] if count else None


def parse_dim(literal: str) -> Dim:
    """One dimension of OpenVINO's ``PartialShape`` string syntax (rules §5.1).

    ``lo..hi`` becomes ``Interval(lo, hi)``: bounds below the other give the *empty* interval
    (so ``3..-1`` and ``5..2`` are empty, printed ``?``), then each bound is clipped to
    ``[0, 2**63-1]`` (``-3..5`` is ``..5``). A single number is ``Dimension(n)``: -1 is
    dynamic, other negatives are 0, and ``2**63-1`` itself is the empty interval. A number
    beyond int64 reads as 0, and as the default bound (0 or unbounded) inside an interval.
    (Each observed in OpenVINO 2026.4.)
    """
    text = literal.strip(_C_SPACE)
    if _plain_number(text):  # the usual dim
        return Dim.of(int(text))
    if text == "?" or text == "-1":  # the exact text: "-01" is the number -1, read as 0
        return DYNAMIC
    if ".." in text:
        lo_text, _, hi_text = text.partition("..")
        lo = _parse_bound(lo_text, "min bound") if lo_text else None
        hi = _parse_bound(hi_text, "max bound") if hi_text else None
        lo, hi = (0 if lo is None else lo), (INF if hi is None else hi)
        if hi < lo:
            return EMPTY
        return Dim(_clip(lo), _clip(hi))
    value = _parse_bound(text, "dimension")
    if value == INF:
        return EMPTY
    return Dim.of(0 if value is None or value < 0 else value)


def _plain_number(text: str) -> bool:
    """ASCII digits only, and fewer than 19 of them: a number below INF, which every rule
    above reads as itself."""
    return text.isdigit() and text.isascii() and len(text) < 19


def literal_reading(literal: str) -> str | None:
    """What OpenVINO reads ``literal`` as, when that is not what it says; else None."""
    if _plain_number(literal.strip(_C_SPACE)):  # the usual dim says what it is
        return None
    dim = parse_dim(literal)
    if dim.is_empty:
        return "an empty interval: it prints as ? but no size is compatible with it"
    text = literal.strip(_C_SPACE)
    bounds = text.partition("..")[::2] if ".." in text else (text,)
    for bound in filter(None, bounds):
        value = _parse_bound(bound, "bound") if bound != "?" else -1
        if value is None:
            return f"{dim} (beyond 64 bits, or no number: the default)"
        if value < -1 or (value == -1 and bound not in ("-1", "?")):
            return f"{dim} (a negative size{'; only the text -1 itself is dynamic' if value == -1 else ''})"
        if bound != "?" and _leading_number(bound) != bound:
            return f"{dim} (the characters after the number are ignored)"
    return None


def parse_partial_shape(text: str) -> PartialShape:
    """OpenVINO's ``PartialShape(string)``: ``1,3,?,2..10``, ``[...]``; ``""`` is a scalar."""
    body = text.strip(_C_SPACE)
    if body.startswith("[") and body.endswith("]"):
        body = body[1:-1].strip(_C_SPACE)
    if body == "...":
        return PartialShape(None)
    if body == "":
        return PartialShape([])
    fields = body.split(",")
    if any(f == "" for f in fields):
        raise DimSyntaxError(f"Cannot get vector of dimensions! {text!r} is incorrect")
    return PartialShape(parse_dim(f) for f in fields)


def static_shape(values: Sequence[int]) -> PartialShape:
    return PartialShape(Dim.of(v) for v in values)
