"""Output shapes of the four ops.

Static cases are the spec formulas worked by hand (the working is in each id); dynamic and
quirk cases are the results OpenVINO gave in the experiments of rules §1, §2, §5.3 and §7.
"""

import pytest

import irshape

CONV, GCONV = "Convolution", "GroupConvolution"
DECONV, GDECONV = "ConvolutionBackpropData", "GroupConvolutionBackpropData"


def infer(op, attrs, *shapes, value=None):
    shape = irshape.infer_layer(op, attrs, list(shapes), output_shape_value=value)
    return None if shape is None else str(shape)


HAND_WORKED = [
    # forward: floor((D + pb + pe - ((K-1)*d+1)) / s) + 1
    pytest.param(
        CONV,
        {"strides": "2", "auto_pad": "valid"},
        ["1,5,128", "16,5,4"],
        "[1,16,63]",
        id="1D valid: floor((128-4)/2)+1=63",
    ),
    pytest.param(
        CONV,
        {"pads_begin": "2,2", "pads_end": "2,2"},
        ["1,3,224,224", "64,3,5,5"],
        "[1,64,224,224]",
        id="2D: 224+2+2-5+1=224",
    ),
    pytest.param(
        CONV,
        {"strides": "3,3,3", "dilations": "2,2,2"},
        ["1,7,320,320,320", "32,7,3,3,3"],
        "[1,32,106,106,106]",
        id="3D: floor((320-5)/3)+1=106",
    ),
    pytest.param(CONV, {"strides": "2,2"}, ["1,1,7,8", "1,1,3,3"], "[1,1,3,3]", id="floor((7-3)/2)+1=3"),
    pytest.param(
        CONV,
        {"strides": "2,2", "auto_pad": "same_upper"},
        ["1,1,7,8", "1,1,3,3"],
        "[1,1,4,4]",
        id="same: ceil(7/2)=4, ceil(8/2)=4",
    ),
    pytest.param(
        CONV,
        {"dilations": "2,3"},
        ["1,1,9,9", "1,1,3,3"],
        "[1,1,5,3]",
        id="dilations: 9-((3-1)*2+1)+1=5, 9-((3-1)*3+1)+1=3",
    ),
    pytest.param(
        CONV,
        {"auto_pad": "SAME_UPPER"},
        ["1,1,2,2", "1,1,5,5"],
        "[1,1,2,2]",
        id="same_* has no kernel check, auto_pad case-insensitive",
    ),
    pytest.param(
        CONV,
        {"auto_pad": "valid", "pads_begin": "2,2"},
        ["1,1,5,5", "1,1,3,3"],
        "[1,1,3,3]",
        id="valid ignores pads",
    ),
    pytest.param(
        GCONV,
        {"pads_begin": "2", "pads_end": "2"},
        ["1,12,224", "4,1,3,5"],
        "[1,4,224]",
        id="group spec 1D: C=4*1, 224+4-5+1",
    ),
    pytest.param(GCONV, {}, ["1,20,10,20", "4,2,5,3,5"], "[1,8,8,16]", id="group: spatial axes Z,Y,X"),
    # backprop: s*(D-1) + (K-1)*d+1 - pb - pe + op
    pytest.param(
        DECONV,
        {"strides": "2,2", "pads_begin": "1,1", "pads_end": "1,1"},
        ["1,20,224,224", "20,10,3,3"],
        "[1,10,447,447]",
        id="spec ex1: 2*223+3-2=447",
    ),
    pytest.param(
        DECONV,
        {"strides": "3,3", "output_padding": "2,2"},
        ["1,20,2,2", "20,10,3,3"],
        "[1,10,8,8]",
        id="spec ex2: 3*1+3+2=8",
    ),
    pytest.param(
        DECONV,
        {"auto_pad": "same_upper", "output_padding": "1,1"},
        ["1,1,4,4", "1,1,3,3"],
        "[1,1,7,7]",
        id="backprop same without output_shape = valid: 3+3+1=7",
    ),
    pytest.param(
        DECONV,
        {"pads_begin": "-1", "pads_end": "-2"},
        ["1,1,2", "1,1,3"],
        "[1,1,7]",
        id="backprop negative pads: 1+3+1+2=7",
    ),
    pytest.param(DECONV, {"output_padding": "-1"}, ["1,1,4", "1,1,3"], "[1,1,5]", id="op -1: 3+3-1=5"),
    pytest.param(
        DECONV,
        {"pads_begin": "5", "pads_end": "5"},
        ["1,1,2", "1,1,3"],
        "[1,1,?]",
        id="over-cropped backprop dim becomes ?: 1+3-10<0",
    ),
    pytest.param(DECONV, {"pads_begin": "2", "pads_end": "2"}, ["1,1,2", "1,1,3"], "[1,1,0]", id="1+3-4=0"),
    pytest.param(DECONV, {}, ["1,1,0", "1,1,3"], "[1,1,3]", id="D=0 acts as 1: (0-1) clips to 0, +3"),
    pytest.param(
        GDECONV,
        {"strides": "2", "pads_begin": "1", "pads_end": "1"},
        ["1,20,224", "4,5,2,3"],
        "[1,8,447]",
        id="group spec 1D: C=4*2, 447",
    ),
    pytest.param(
        GDECONV,
        {"strides": "2,2,2", "pads_begin": "1,1,1", "pads_end": "1,1,1"},
        ["1,20,224,224,224", "4,5,2,3,3,3"],
        "[1,8,447,447,447]",
        id="group spec 3D",
    ),
]


@pytest.mark.parametrize(("op", "attrs", "shapes", "expected"), HAND_WORKED)
def test_hand_worked(op, attrs, shapes, expected):
    assert infer(op, attrs, *shapes) == expected


def test_output_shape_value_taken_as_is():
    # spec example 3: 224 input, k3, s1, valid, output_shape [450, 450] -> [1,10,450,450]
    attrs = {"auto_pad": "valid", "pads_begin": "1,1", "pads_end": "1,1"}
    assert infer(DECONV, attrs, "1,20,224,224", "20,10,3,3", "2", value=[450, 450]) == "[1,10,450,450]"
    assert infer(GDECONV, {}, "1,16,5,5", "1,16,2,3,3", "2", value=[100, 9]) == "[1,2,100,9]"


def test_output_shape_unknown_value_gives_dynamic_spatial_dims():
    assert infer(DECONV, {}, "1,16,5,5", "16,2,3,3", "2") == "[1,2,?,?]"
    # a non-constant output_shape of unknown length: OpenVINO gives rank 2 (rules §1.2)
    assert infer(DECONV, {}, "1,16,5,5", "16,2,3,3", "?") == "[1,2]"


# rules §5.3 and §7: observed OpenVINO results for dynamic and interval inputs
OBSERVED = [
    (CONV, {}, ["?,?,?,?", "2,?,3,3"], "[?,2,1..,1..]"),
    (CONV, {}, ["?,3,?,10", "2,3,3,3"], "[?,2,1..,8]"),
    (CONV, {}, ["...", "2,3,3,3"], "[?,2,1..,1..]"),
    (CONV, {"auto_pad": "same_upper"}, ["...", "2,3,3,3"], "[?,2,?,?]"),
    (CONV, {}, ["1,3,5,5", "..."], "[1,?,1..5,1..5]"),
    (CONV, {"auto_pad": "same_lower", "strides": "2,2"}, ["1,3,5,5", "..."], "[1,?,3,3]"),
    (
        CONV,
        {"pads_begin": "1,1", "pads_end": "1,1", "dilations": "2,2"},
        ["1,3,5,5", "..."],
        "[1,?,1..7,1..7]",
    ),
    (CONV, {"strides": "1,1"}, ["...", "..."], "[?,?,1..,1..]"),
    (CONV, {}, ["...", "..."], "[...]"),
    (CONV, {}, ["1,3,1..10,5..", "2,3,3,3"], "[1,2,1..8,3..]"),
    (CONV, {"strides": "2,2"}, ["1,3,1..10,5..", "2,3,3,3"], "[1,2,1..4,2..]"),
    (CONV, {"strides": "2,2", "auto_pad": "same_upper"}, ["1,3,1..10,5..", "2,3,3,3"], "[1,2,1..5,3..]"),
    (CONV, {"pads_begin": "1,1", "pads_end": "1,1"}, ["1,3,..10,?", "2,3,3,3"], "[1,2,1..10,1..]"),
    (CONV, {}, ["1,3,4..10,8", "2,3,1..3,3"], "[1,2,2..10,6]"),
    (CONV, {"auto_pad": "same_upper"}, ["1,3,8,8", "2,3,?,3"], "[1,2,8,8]"),
    (CONV, {}, ["1,3,8,8", "2,3,?,3"], "[1,2,1..8,6]"),
    (CONV, {}, ["1,3,1..2,8", "2,3,3,3"], "[1,2,1,6]"),
    (CONV, {}, ["1..4,3,8,8", "2..6,3,3,3"], "[1..4,2..6,6,6]"),
    (CONV, {"pads_begin": "-1,0"}, ["1,1,10,10", "1,1,3,3"], "[1,1,8..,8]"),
    (CONV, {"pads_begin": "-5,0"}, ["1,1,10,10", "1,1,3,3"], "[1,1,8,8]"),
    (CONV, {"pads_begin": "-3,0", "pads_end": "1,0"}, ["1,1,10,10", "1,1,3,3"], "[1,1,8,8]"),
    (CONV, {"pads_begin": "2,0", "pads_end": "-2,0"}, ["1,1,10,10", "1,1,3,3"], "[1,1,8,8]"),
    (CONV, {}, ["1,1,5,5", "1,1,0,3"], "[1,1,5,3]"),
    (
        DECONV,
        {"strides": "2,2", "pads_begin": "1,1", "pads_end": "1,1"},
        ["?,4,?,224", "4,16,3,3"],
        "[?,16,1..,447]",
    ),
    (
        DECONV,
        {"strides": "2,2", "pads_begin": "1,1", "pads_end": "1,1"},
        ["1,4,2..10,224", "4,16,3,3"],
        "[1,16,3..19,447]",
    ),
    (DECONV, {"pads_begin": "5,5", "pads_end": "5,5"}, ["1,4,2..10,224", "4,16,3,3"], "[1,16,..2,216]"),
    (
        DECONV,
        {"strides": "2,2", "pads_begin": "1,1", "pads_end": "1,1"},
        ["1,4,224,224", "4,16,3,?"],
        "[1,16,447,445..]",
    ),
    (DECONV, {}, ["...", "4,2,3,3"], "[?,2,3..,3..]"),
    (DECONV, {}, ["1,4,224,224", "..."], "[1,?,224..,224..]"),
    (DECONV, {}, ["...", "..."], "[...]"),
    (
        DECONV,
        {"strides": "2,2", "pads_begin": "1,1", "pads_end": "1,1"},
        ["?,?,224,224", "5,2,3,3"],
        "[?,2,447,447]",
    ),
    (GCONV, {}, ["1..3,2..6,1..5,3..10,20..100", "2..3,1..3,2..3,3,3,3"], "[1..3,2..9,1..3,1..8,18..98]"),
    (GCONV, {"auto_pad": "same_lower"}, ["?,4,5,5", "?,1,2,3,3"], "[?,2,5,5]"),
    (GCONV, {"auto_pad": "same_lower"}, ["?,4,5,5", "?,?,2,3,3"], "[?,?,5,5]"),
    (GCONV, {"auto_pad": "same_lower"}, ["?,?,5,5", "?,1,2,3,3"], "[?,?,5,5]"),
    (GCONV, {}, ["...", "2,1,2,3,3"], "[?,2,1..,1..]"),
    (GCONV, {}, ["1,4,5,5", "..."], "[1,?,1..5,1..5]"),
    (GCONV, {}, ["6,6,8,8", "?,4,2,3,3"], "[6,12,6,6]"),
    (GCONV, {}, ["1,6,8,8", "2..5,4,2,3,3"], "[1,12,6,6]"),
    (GCONV, {}, ["1,4..8,8,8", "?,1,2,3,3"], "[1,2..4,6,6]"),
    (GCONV, {}, ["1,4..,8,8", "?,1,2,3,3"], "[1,2..4611686018427387904,6,6]"),
    (
        GDECONV,
        {"strides": "2,2", "pads_begin": "1,1", "pads_end": "1,1"},
        ["1,20,224,224", "?,5,2,3,3"],
        "[1,8,447,447]",
    ),
    (
        GDECONV,
        {"strides": "2,2", "pads_begin": "1,1", "pads_end": "1,1"},
        ["1,20,224,224", "4,5,2,?,3"],
        "[1,8,445..,447]",
    ),
    (
        GDECONV,
        {"strides": "2,2", "pads_begin": "1,1", "pads_end": "1,1"},
        ["?,20,224,?", "4,5,2,3,3"],
        "[?,8,447,1..]",
    ),
    (GDECONV, {}, ["...", "4,5,2,3,3"], "[?,8,3..,3..]"),
    (GDECONV, {}, ["1,8,224,224", "..."], "[1,?,224..,224..]"),
    (GDECONV, {}, ["1,16,6,6", "2,8,2,3,3"], "[1,4,8,8]"),
]


@pytest.mark.parametrize(("op", "attrs", "shapes", "expected"), OBSERVED, ids=lambda v: str(v))
def test_observed_openvino_results(op, attrs, shapes, expected):
    assert infer(op, attrs, *shapes) == expected


def test_same_pads_split_forward_and_backprop():
    from irshape.dims import Dim
    from irshape.shapes.window import backprop_auto_pads, forward_same_pads

    # forward, 7 input, k3, s2: out 4, total (4-1)*2+3-7 = 2 -> 1/1; 8 input: total 1 -> upper 0/1
    assert forward_same_pads(Dim.of(7), Dim.of(3), 2, 1, upper=True) == (1, 1)
    assert forward_same_pads(Dim.of(8), Dim.of(3), 2, 1, upper=True) == (0, 1)
    assert forward_same_pads(Dim.of(8), Dim.of(3), 2, 1, upper=False) == (1, 0)
    # backprop, D=2, k3, s2, op1, O=3: total 1*2+3-3+1 = 3 -> same_upper puts 2 at the BEGIN
    assert backprop_auto_pads(Dim.of(2), Dim.of(3), Dim.of(3), 2, 1, 1, upper=True) == (2, 1)
    assert backprop_auto_pads(Dim.of(2), Dim.of(3), Dim.of(3), 2, 1, 1, upper=False) == (1, 2)
    # a negative total (spec example 3: 223+3-450) is clamped to 0
    assert backprop_auto_pads(Dim.of(224), Dim.of(3), Dim.of(450), 1, 1, 0, upper=True) == (0, 0)
