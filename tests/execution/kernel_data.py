"""Seeded data for the kernel suites: shapes, and arrays of every element type with the type's
edges mixed in."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pytest

from .harness import Batch, Case, run_batch

DTYPES: list[Any] = [np.float32, np.float16, np.int32, np.int64, np.uint8, np.int8, np.bool_]
# for ops that only move elements: the other integer types too, at their extremes (u64's maximum
# passes through the plugin unchanged; f64 does not: the plugin holds it as f32)
MOVE_DTYPES: list[Any] = [*DTYPES, np.uint16, np.int16, np.uint32, np.uint64]


def data_of(rng: np.random.Generator, shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    """Random data with the type's edges mixed in (extremes, zeros, NaN and infinities)."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return np.asarray(rng.random(shape) < 0.5)
    if dtype.kind == "f":
        values = np.asarray(rng.standard_normal(shape) * 10).astype(dtype)
        edges = np.array([0.0, -0.0, np.inf, -np.inf, np.nan], dtype)
    else:
        # the CPU plugin holds i64 as i32 (keeping the low 32 bits: 2**63 - 1 comes back as
        # -1): i64 data stays within i32
        info = np.iinfo(np.int32 if dtype == np.int64 else dtype)
        values = np.asarray(
            rng.integers(max(info.min, -100), min(info.max, 100), shape, endpoint=True)
        ).astype(dtype)
        edges = np.array([0, info.min, info.max], dtype=dtype)
    mask = rng.random(shape) < 0.15
    values[mask] = rng.choice(edges, int(mask.sum()))
    return values


def shape_of(rng: np.random.Generator, rank: int, lo: int = 1, hi: int = 5) -> tuple[int, ...]:
    return tuple(int(v) for v in rng.integers(lo, hi, rank, endpoint=True))


class Batches:
    """Each suite's batch, run when its first case is tested (a suite that fails to build
    fails its own cases only)."""

    def __init__(self, suites: Mapping[str, Sequence[Case]], factory: pytest.TempPathFactory) -> None:
        self.suites = suites
        self.factory = factory
        self.done: dict[str, Batch] = {}

    def __getitem__(self, suite: str) -> Batch:
        if suite not in self.done:
            self.done[suite] = run_batch(self.suites[suite], self.factory.mktemp(suite))
        return self.done[suite]
