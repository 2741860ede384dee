"""The kernel fuzzer's drawers for the narrow real types: FakeConvert-13 (data scaled, rounded
through f8e4m3 or f8e5m2 by way of f16, and back). The machinery, the budget and its
environment variables: ``fuzzing.py``."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from .fuzzing import BF16, F16, F32, Draw, Drawers, Node, make, run_family

drawers = Drawers()

# the largest finite values of the f8 types, and a value past each
F8_LIMITS = {"f8e4m3": 448.0, "f8e5m2": 57344.0}


def _f8_values(d: Draw, shape: Sequence[int], target: str) -> np.ndarray:
    """Data around the f8 grid: ordinary values, its subnormals, its rounding ties (between two
    neighbours of the grid, and of f16's), values past its largest finite one, and the
    edges of the data's own type (NaN, infinities, signed zeros)."""
    limit = F8_LIMITS[target]
    mantissa = 3 if target == "f8e4m3" else 2
    values = np.array(d.rng.standard_normal(tuple(shape)) * d.pick([0.01, 1.0, 10.0, limit / 4, limit * 2]))
    if values.size and d.chance(0.6):
        # ties of the f8 grid: m + 1/2 steps of 2^(e - mantissa)
        exponents = d.rng.integers(-8, 9, values.shape)
        steps = d.rng.integers(0, 2**mantissa, values.shape) + 0.5
        ties = (
            (1 + steps / 2**mantissa) * np.exp2(exponents) * np.where(d.rng.random(values.shape) < 0.5, -1, 1)
        )
        mask = d.rng.random(values.shape) < 0.4
        values[mask] = ties[mask]
    if values.size:
        edges = np.array(
            [0.0, -0.0, np.nan, np.inf, -np.inf, limit, -limit, limit * 1.07, 2**-9, 2**-16, 1e-30]
        )
        mask = d.rng.random(values.shape) < 0.15
        values[mask] = d.rng.choice(edges, int(mask.sum()))
    return values


def _fed(d: Draw, values: np.ndarray) -> None:
    """Feed ``values`` to the Parameter drawn last (a bf16 one is fed f32)."""
    parameter = list(d.inputs)[-1]
    with np.errstate(over="ignore"):  # past f16's range: inf, as the data's own edge
        d.inputs[parameter] = values.astype(d.inputs[parameter].dtype)


@drawers.add("elementwise", "FakeConvert-13")
def _fake_convert(d: Draw) -> Sequence[Node]:
    element_type = d.pick([F32, F32, F16, BF16])
    target = d.pick(["f8e4m3", "f8e5m2"])
    shape = d.shape(d.int(0, 4))
    data = d.data(shape, element_type)
    _fed(d, _f8_values(d, shape, target))
    # the scale (and the shift, of the scale's shape) broadcast one way, numpy-style: a suffix
    # of the data's dims, each kept or 1
    suffix = shape[len(shape) - d.int(0, len(shape)) :]
    scale_shape = [dim if d.chance(0.5) else 1 for dim in suffix]
    scale = d.data(scale_shape, element_type, "positive")
    if d.chance(0.5):  # one scale for all (a per-tensor quantisation), some past the f8 range
        _fed(d, np.full(scale_shape, d.pick([1.0, 0.5, 4.0, 1 / 448, 300.0])))
    inputs = [data, scale]
    if d.chance(0.5):
        inputs.append(d.data(scale_shape, element_type, d.pick(["unit", "halves"])))
    return [make(13, "FakeConvert", inputs, {"destination_type": target})]


@pytest.mark.parametrize("family", drawers.families())
def test_kernel_fuzz(family: str, tmp_path: Path) -> None:
    run_family(drawers, family, tmp_path)
