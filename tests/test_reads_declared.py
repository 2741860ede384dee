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


# What OpenVINO says reading a layer typed 'Constant' (no bytes) each way (docs §13, §15):
# get_input_const_data_as and its kin fail on the null data, the bounds read as unknown, a
# folded value has no tensor, cast_vector crashes read_model (irshape: unknown)
_NO_BYTES = {
    "direct": "ptr is Null",
    "as_shape": "ptr is Null",
    "tile": "ptr is Null",
    "topk_k": "ptr is Null",
    "output_shape": "ptr is Null",
    "as_is": "ptr is Null",
    "bounds": None,
    "cast_vector": None,
    "folded": "Tensor was not initialized.",
}


@pytest.mark.parametrize("schema", DECLARATIONS, ids=lambda s: s.name)
def test_a_constant_is_judged_as_its_reading_reads_it(schema: OpSchema) -> None:
    # one judgment (reading.constant_failure, from the declaration) for the reading of a port
    # and for the check of the ports OpenVINO evaluates; it is what the port's way of reading
    # gives in OpenVINO
    for port, how in _readings(schema).items():
        assert reading.constant_failure(schema, port, how) == _NO_BYTES[how.name], port
    for port in schema.evaluated_inputs:
        expected = None if port in schema.bounds_inputs else schema.no_value_message
        assert reading.constant_failure(schema, port) == expected
