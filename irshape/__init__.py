"""irshape: validate OpenVINO IR convolution layers and infer their shapes.

The library never prints and never exits: every problem comes back as a
:class:`Diagnostic` in a :class:`FileReport` (or a :class:`LayerCheck` for one layer).
"""

from irshape.api import (
    AttributeValue,
    LayerCheck,
    ShapeLike,
    check_file,
    check_layer,
    check_string,
    infer_layer,
)
from irshape.diagnostics import Diagnostic, Location, Rule, Severity
from irshape.dims import Dim, PartialShape, parse_partial_shape
from irshape.results import FileReport, LayerResult
from irshape.rules import RULES

__version__ = "0.2.0"

__all__ = [
    "RULES",
    "AttributeValue",
    "Diagnostic",
    "Dim",
    "FileReport",
    "LayerCheck",
    "LayerResult",
    "Location",
    "PartialShape",
    "Rule",
    "Severity",
    "ShapeLike",
    "check_file",
    "check_layer",
    "check_string",
    "infer_layer",
    "parse_partial_shape",
]
