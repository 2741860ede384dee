"""OpenVINO's interval arithmetic and dimension syntax (rules §5.1, §5.2), worked by hand."""

import pytest

from irshape.dims import (
    DYNAMIC,
    EMPTY,
    INF,
    Dim,
    DimSyntaxError,
    PartialShape,
    literal_reading,
    parse_dim,
    parse_partial_shape,
)


@pytest.mark.parametrize(
    ("literal", "lo", "hi"),
    [
        ("7", 7, 7),
        ("07", 7, 7),
        (" 7 ", 7, 7),
        ("?", 0, INF),
        ("-1", 0, INF),
        ("..", 0, INF),
        ("2..", 2, INF),
        ("..5", 0, 5),
        ("2..10", 2, 10),
        ("2..2", 2, 2),
        ("-2", 0, 0),
        ("-100", 0, 0),  # negative values clip to 0
        # Observed in OpenVINO 2026.4: 2**63-1 is Interval(s_max, s_max), the empty interval,
        # and so is any `lo..hi` with hi < lo (before clipping): `?` with min length -1.
        ("9223372036854775807", INF, INF),
        ("9223372036854775807..", INF, INF),
        ("3..-1", INF, INF),
        ("0..-1", INF, INF),
        ("..-1", INF, INF),
        ("5..2", INF, INF),
        ("-3..5", 0, 5),
        ("-1..-1", 0, 0),
        ("9223372036854775808", 0, 0),
    ],
)
def test_dimension_literals(literal: str, lo: int, hi: int) -> None:
    assert parse_dim(literal) == Dim(lo, hi)


@pytest.mark.parametrize("literal", ["x", "5.0", "+5", "1e3", "0x10", "1 .. 10", "(1"])
def test_dimension_literals_openvino_rejects(literal: str) -> None:
    with pytest.raises(DimSyntaxError):
        parse_dim(literal)


@pytest.mark.parametrize(
    ("text", "printed"),
    [
        ("1,3,224,224", "[1,3,224,224]"),
        ("[1,3,?,2..10]", "[1,3,?,2..10]"),
        ("...", "[...]"),
        ("[...]", "[...]"),
        ("", "[]"),
        ("[]", "[]"),
        ("?,3,1..10,..20", "[?,3,1..10,..20]"),
        ("1,5..2", "[1,?]"),
    ],
)
def test_partial_shapes_print_like_openvino(text: str, printed: str) -> None:
    assert str(parse_partial_shape(text)) == printed


@pytest.mark.parametrize("text", ["1,3,,5", "1,3,5,5,"])
def test_partial_shape_empty_field_rejected(text: str) -> None:
    with pytest.raises(DimSyntaxError):
        parse_partial_shape(text)


def test_subtraction_clips_at_zero() -> None:
    assert Dim(2, 10) - Dim.of(3) == Dim(0, 7)
    assert Dim(2, INF) - Dim.of(3) == Dim(0, INF)
    assert Dim.of(2) - Dim.of(5) == Dim.of(0)


def test_addition_and_multiplication() -> None:
    assert Dim(1, 4) + Dim(2, 3) == Dim(3, 7)
    assert Dim(1, INF) + 1 == Dim(2, INF)
    assert Dim(2, 3) * Dim(4, 5) == Dim(8, 15)
    assert Dim(0, 3) * DYNAMIC == Dim(0, INF)
    assert Dim.of(0) * DYNAMIC == Dim.of(0)  # 0 wins over infinity


def test_divisions() -> None:
    assert Dim(3, 10).floor_div(2) == Dim(1, 5)
    assert Dim(3, INF).floor_div(2) == Dim(1, INF)
    assert Dim(3, 10).ceil_div(2) == Dim(2, 5)


def test_division_of_the_empty_interval_reads_its_lengths_as_minus_one() -> None:
    # dim::floor_div / dim::ceil_div work on get_min_length() = get_max_length() = -1:
    # floor: -1 / 4 truncates to 0 -> Dimension(0, -1) = ?; ceil: 1 + (-2) / 3 = 1 -> 1..
    assert EMPTY.floor_div(4) == DYNAMIC
    assert EMPTY.ceil_div(3) == Dim(1, INF)
    assert EMPTY.ceil_div(2) == DYNAMIC  # 1 + (-2) / 2 = 0
    # exact division for the group count: [4,8] / 2 = [2,4]; 6 / 4 is empty; ? stays ?
    assert Dim(4, 8).divide_exact(2) == Dim(2, 4)
    assert Dim.of(6).divide_exact(4).is_empty
    assert DYNAMIC.divide_exact(2) == DYNAMIC
    # an unbounded C gives a finite upper bound, divided in double precision as OpenVINO does
    # (rules §2): 4.. / 2 -> 2..4611686018427387904
    assert Dim(4, INF).divide_exact(2) == Dim(2, 4611686018427387904)


@pytest.mark.parametrize(
    ("dim", "pad", "result"),
    [
        (Dim.of(6), 0, Dim.of(6)),
        (Dim.of(6), -2, Dim.of(4)),
        (Dim.of(2), -5, DYNAMIC),
        (Dim(3, 10), -5, Dim(0, 5)),
        (Dim(3, INF), 2, Dim(5, INF)),
        (Dim(3, 4), -10, Dim(0, INF)),
    ],
)
def test_padded(dim: Dim, pad: int, result: Dim) -> None:
    assert dim.padded(pad) == result


def test_dilated_kernel_of_zero_acts_as_one() -> None:
    assert Dim.of(0).dilated(3) == Dim.of(1)
    assert Dim.of(3).dilated(2) == Dim.of(5)


def test_json_notation() -> None:
    shape = PartialShape([Dim.of(1), DYNAMIC, Dim(2, 10), Dim(3, INF), Dim(0, 8)])
    assert shape.to_json() == [1, "?", "2..10", "3..", "..8"]
    assert PartialShape(None).to_json() is None


ODD_LITERALS = [
    "3..-1",
    "0..-1",
    "..-1",
    "5..2",
    "-3..5",
    "-1..-1",
    "-1..5",
    "-7",
    "0",
    "..",
    "2..",
    "9223372036854775806",
    "9223372036854775807",
    "9223372036854775807..",
    "9223372036854775806..9223372036854775807",
    "..9223372036854775807",
    "99999999999999999999",
    "-99999999999999999999",
    "9223372036854775808",
    "5..99999999999999999999",
    "99999999999999999999..5",
    "5..-99999999999999999999",
    "-99999999999999999999..5",
    "9223372036854775808..",
]


@pytest.mark.parametrize("literal", ODD_LITERALS)
def test_dimension_literals_match_openvino(literal: str) -> None:
    import openvino as ov

    theirs = ov.PartialShape(literal)[0]
    ours = parse_dim(literal)
    # get_min_length/get_max_length report an unbounded (or empty) bound as -1.
    assert (theirs.get_min_length(), theirs.get_max_length()) == (
        -1 if ours.lo == INF else ours.lo,
        -1 if ours.hi == INF else ours.hi,
    )
    assert str(theirs) == str(ours)


@pytest.mark.parametrize(
    ("literal", "flagged"),
    [
        ("3..-1", True),  # empty
        ("5..2", True),  # empty
        ("9223372036854775807", True),  # empty
        ("-5", True),  # 0
        ("-3..5", True),  # ..5
        ("99999999999999999999", True),  # 0
        ("1..99999999999999999999", True),  # 1..
        ("-1", False),
        ("?", False),
        ("-1..5", False),  # -1 is OpenVINO's "unspecified" bound
        ("2..10", False),
        ("..5", False),
        ("07", False),
    ],
)
def test_literals_openvino_reads_otherwise_are_flagged(literal: str, flagged: bool) -> None:
    assert (literal_reading(literal) is not None) is flagged
