"""Grammars of the text the fuzzer writes into an IR: numbers, lists, shape literals, names.

Every function returns XML-ready text (``&``, ``<`` and ``"`` escaped or written as character
references on purpose) and draws from one :class:`random.Random`, so a seed gives a file.
The draws lean on the boundaries of OpenVINO's parsers: signs, leading zeros, every kind of
whitespace (literal, which XML normalizes in attributes, and as character references, which it
keeps), digits of other scripts, values at the int32/int64/uint64 limits, junk after a prefix.
"""

from __future__ import annotations

import random

LIMITS = (
    2**31 - 1,
    2**31,
    2**32 - 1,
    2**32,
    2**53 + 1,
    2**63 - 1,
    2**63,
    2**64 - 1,
    2**64,
    10**20,
    10**30,
)
# Whitespace: literal (attribute-normalized to a space by XML), as references (kept), and the
# kinds C's isspace knows but XML 1.0 forbids (\v, \f: the file is then not well-formed).
SPACES_LITERAL = (" ", "  ", "\t", "\n", "\r\n")
SPACES_REF = ("&#9;", "&#10;", "&#13;", "&#32;", "&#xA0;", "&#x2003;", "&#x3000;", "&#x85;")
SPACES_INVALID = ("\x0b", "\x0c", "&#11;", "&#12;")
# Digit sets of other scripts (Python's int() reads them, C++ parsers do not).
SCRIPTS = (0x660, 0x6F0, 0x966, 0xFF10, 0x1D7CE)
JUNK = (".5", ".0", "e3", "E2", "x", "abc", "0x1", " 7", "-", "+", "..", ";2", "#", "\\", "&amp;")


def pick(rng: random.Random, weighted: list[tuple[float, object]]) -> object:
    total = sum(w for w, _ in weighted)
    r = rng.random() * total
    for w, v in weighted:
        r -= w
        if r <= 0:
            return v
    return weighted[-1][1]


def space(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.45:
        return rng.choice(SPACES_LITERAL)
    if kind < 0.9:
        return rng.choice(SPACES_REF)
    return rng.choice(SPACES_INVALID)


def value(rng: random.Random, typical: tuple[int, ...]) -> int:
    """A value: usually a typical one, else a limit (or one past it), of either sign."""
    r = rng.random()
    if r < 0.6:
        return rng.choice(typical)
    if r < 0.75:
        return rng.choice((-1, -2, 0, 1, 2, 100))
    v = rng.choice(LIMITS) + rng.choice((0, 0, -1, 1))
    return -v if rng.random() < 0.3 else v


def digits(rng: random.Random, v: int) -> str:
    """The decimal digits of |v|, sometimes in another script or as character references."""
    text = str(abs(v))
    r = rng.random()
    if r < 0.05:
        base = rng.choice(SCRIPTS)
        return "".join(chr(base + int(c)) for c in text)
    if r < 0.08:
        i = rng.randrange(len(text))
        return text[:i] + chr(rng.choice(SCRIPTS) + int(text[i])) + text[i + 1 :]
    if r < 0.12:
        return "".join(f"&#{ord(c)};" if rng.random() < 0.5 else c for c in text)
    return text


def number(rng: random.Random, typical: tuple[int, ...] = (0, 1, 2, 3), plain: float = 0.55) -> str:
    """One number as written in a file: most often plain, else spelled at the edges."""
    v = value(rng, typical)
    if rng.random() < plain:
        return str(v)
    sign = "-" if v < 0 else ""
    r = rng.random()
    if r < 0.1:
        sign = "+" + sign
    elif r < 0.14:
        sign = "--" if v < 0 else "-"
    elif r < 0.17 and v == 0:
        sign = "-"
    zeros = "0" * rng.choice((0, 0, 0, 1, 2, 20))
    text = sign + zeros + digits(rng, v)
    if rng.random() < 0.3:
        text = space(rng) + text
    if rng.random() < 0.3:
        text = text + space(rng)
    if rng.random() < 0.15:
        text = text + rng.choice(JUNK)
    return text


def separator(rng: random.Random) -> str:
    return str(
        pick(
            rng,
            [
                (6, ","),
                (6, ", "),
                (1, " ,"),
                (0.5, ",,"),
                (0.5, ";"),
                (0.5, " "),
                (0.3, "&#44;"),
                (0.3, ",&#9;"),
                (0.3, "\t,"),
            ],
        )
    )


def int_list(rng: random.Random, n: int, typical: tuple[int, ...]) -> str:
    """A list attribute of about ``n`` numbers."""
    length = max(0, n + int(pick(rng, [(8, 0), (1, -1), (1, 1), (0.3, -n), (0.2, 2)])))  # type: ignore[call-overload]
    if length == 0 and rng.random() < 0.5:
        return rng.choice(("", " ", ",", "&#9;"))
    items = [number(rng, typical) for _ in range(length)]
    text = ""
    for i, item in enumerate(items):
        text += (separator(rng) if i else "") + item
    r = rng.random()
    if r < 0.05:
        text += ","
    elif r < 0.07:
        text = "," + text
    elif r < 0.09:
        text = "[" + text + "]"
    return text


def dim_literal(rng: random.Random, typical: tuple[int, ...]) -> str:
    """One dimension of a PartialShape literal (Parameter ``shape``)."""
    r = rng.random()
    if r < 0.55:
        return number(rng, typical, plain=0.7)
    if r < 0.65:
        return rng.choice(("?", "-1", "..", " ? ", "??", "*", ""))
    lo = number(rng, typical, plain=0.8) if rng.random() < 0.8 else ""
    hi = number(rng, typical, plain=0.8) if rng.random() < 0.8 else ""
    dots = str(pick(rng, [(10, ".."), (1, "..."), (1, " .. "), (0.5, ".")]))
    return lo + dots + hi


def shape_literal(rng: random.Random, dims: list[int]) -> str:
    """A Parameter ``shape``: the dims respelled, one changed, or a rank literal."""
    r = rng.random()
    if r < 0.06:
        return rng.choice(("...", "[...]", "", "[]", " ... ", "?", "[?]", "..."))
    n = len(dims) + int(pick(rng, [(10, 0), (1, -1), (1, 1)]))  # type: ignore[call-overload]
    out = []
    for i in range(max(n, 0)):
        typical = (dims[i],) if i < len(dims) else (1, 3)
        out.append(dim_literal(rng, typical) if rng.random() < 0.4 else str(typical[0]))
    text = separator(rng).join(out) if rng.random() < 0.2 else ",".join(out)
    if rng.random() < 0.15:
        text = "[" + text + "]"
    return text


def misspell(rng: random.Random, name: str) -> str:
    r = rng.random()
    if r < 0.25:
        return name.lower() if rng.random() < 0.5 else name.upper()
    if r < 0.4:
        i = rng.randrange(len(name))
        return name[:i] + name[i + 1 :]
    if r < 0.55:
        return name + rng.choice(("s", "1", "_", " "))
    if r < 0.65:
        return " " + name
    if r < 0.75:
        return name[: len(name) // 2]
    return rng.choice(("Conv", "Convolution2D", "Deconvolution", "Constant", "const", "Parameter", ""))
