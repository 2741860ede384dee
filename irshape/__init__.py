"""irshape: validate OpenVINO IR convolution layers and infer their shapes.

The library never prints and never exits: every problem comes back as a
:class:`Diagnostic` in a :class:`FileReport` (or a :class:`LayerCheck` for one layer).

The names below are imported on first use (``irshape.check_file``, ``from irshape import
Severity``): importing a submodule (``irshape.config``, ``irshape.cli``) runs this file first,
and must not import the checker with it. ``tests/test_startup.py`` pins what each imports.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from irshape.api import check_file, check_string
    from irshape.api_layer import AttributeValue, LayerCheck, ShapeLike, check_layer, infer_layer
    from irshape.diagnostics import Diagnostic, Location, Rule, Severity
    from irshape.dims import Dim, PartialShape, parse_partial_shape
    from irshape.results import FileReport, LayerResult
    from irshape.rules import RULES

__version__ = "0.2.0"

# Public name -> the module that defines it.
_HOMES = {
    "AttributeValue": "irshape.api_layer",
    "LayerCheck": "irshape.api_layer",
    "ShapeLike": "irshape.api_layer",
    "check_file": "irshape.api",
    "check_layer": "irshape.api_layer",
    "check_string": "irshape.api",
    "infer_layer": "irshape.api_layer",
    "Diagnostic": "irshape.diagnostics",
    "Location": "irshape.diagnostics",
    "Rule": "irshape.diagnostics",
    "Severity": "irshape.diagnostics",
    "Dim": "irshape.dims",
    "PartialShape": "irshape.dims",
    "parse_partial_shape": "irshape.dims",
    "FileReport": "irshape.results",
    "LayerResult": "irshape.results",
    "RULES": "irshape.rules",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value  # found once: later reads do not come here
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})


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
