"""Each shape function's ``@reads`` against its declaration: the ports a function reads as
values are the declaration's ``value_inputs``, and the ports it reads through their bounds its
``bounds_inputs`` (where a layer typed 'Constant' is no failure, §13), so the check that judges a
``Constant`` input (irshape.check.layer) and the reading agree."""

from __future__ import annotations

import pytest

from irshape.ops.registry import all_declarations, shape_function
from irshape.ops.schema import OpSchema
from irshape.shapes import reading

DECLARATIONS = [
    s for s in all_declarations() if not s.is_source
]  # (sources are read by irshape.check.sources)


def _readings(schema: OpSchema) -> dict[int, reading.Reading]:
    readings: dict[int, reading.Reading] = getattr(
        shape_function(schema.family, schema.function), reading.READS, {}
    )
    return readings


def test_some_shape_functions_declare_what_they_read() -> None:
    read = [s.name for s in DECLARATIONS if _readings(s)]
    assert len(read) > 50, read  # the attribute is there, through stacked decorators too
    assert set(_readings(next(s for s in DECLARATIONS if s.name == "Broadcast-3"))) == {1, 2}


@pytest.mark.parametrize("schema", DECLARATIONS, ids=lambda s: s.name)
def test_reads_match_the_declaration(schema: OpSchema) -> None:
    readings = _readings(schema)
    assert set(readings) <= set(schema.value_inputs), "a port read by @reads is not a value input"
    assert set(schema.bounds_inputs) <= set(schema.value_inputs)
    assert set(schema.evaluated_inputs) <= set(schema.value_inputs)
    through_bounds = {p for p, how in readings.items() if how is reading.BOUNDS}
    declared = {p for p in schema.bounds_inputs if p in readings}
    assert through_bounds == declared, "bounds_inputs are the ports read through their bounds"
    for port in through_bounds:  # a 'Constant' there is unknown, not a failure, both ways
        assert readings[port].no_bytes is None
