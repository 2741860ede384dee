"""TopK's ties as the CPU plugin orders them (found on the real networks: a MoE router's scores
tied by a padding token's zero embedding, RT-DETR's encoder scores tied at transformers' random
initialisation; ``fixtures/networks/``).

The plugin (nodes/topk.cpp) selects the k best of a static TopK in vector registers when k <= 6
(a bubble sort: ties in index order, as irshape always did); otherwise, and for every TopK it
compiles as a dynamic node, unless the sort must be stable, it takes a heap sort on the
innermost axis of a planar layout: among ties, the heap decides which elements are kept and in
what order (all-equal scores, k = 2 of 4, on a dynamic shape: indices [1, 0]). ``stable`` is
ignored when sorting by index. A NaN beats every value for the largest (``!(x <= root)``) and
none for the smallest. Data of rank 1 or 2 is planar; data of a higher rank takes its
producer's layout, planar or channels blocked (after a Convolution, an MVN, an Interpolate: no
heap), which irshape does not model: it keeps ties in index order there. irshape's kernel runs
that heap on the rows with ties (``irshape/kernels/indexing.py``, ``_HeapTopK``); each case here
has many ties (integers 0..3), in one model compiled once, static and dynamic shapes, every
TopK version, both modes, every sort, the element types the plugin sorts (57 of the 145 fail
with ties in index order).

Not covered (the plugin's other sorts still differ on ties, left to the kernels' owners): a
static TopK with k > 6 on an axis that is not the innermost (a bitonic sort or a bubble sort
through memory) and a static TopK of k = 1 on the innermost axis (a horizontal reduction across
vector lanes: of the tied maxima at 3 and 9 of a row of 21 it keeps 9: lane 9 of 16 on AVX-512,
whose reduction prefers lanes by their number modulo 4; another vector width orders them
otherwise).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset3 as ov3
import openvino.opset11 as ov11
import pytest

from .harness import Batch, Case, run_batch

DTYPES = (np.float32, np.float16, np.int32, np.int64, np.uint8, np.int8)


def _case(i: int, rng: np.random.Generator) -> Case:
    # the last axis of data of rank 1 or 2; another axis of data up to rank 4
    rank = int(rng.integers(1, 3)) if i % 4 else int(rng.integers(2, 5))
    shape = [int(d) for d in rng.integers(1, 4, rank)]
    axis = rank - 1 if i % 4 else int(rng.integers(0, rank - 1))
    shape[axis] = int(rng.integers(2, 24))
    dynamic = i % 2 == 1
    innermost = axis == rank - 1
    # k > 6 static only on the innermost axis (elsewhere: the plugin's bitonic sort, not followed)
    most = shape[axis] if dynamic or innermost else min(shape[axis], 6)
    k = int(rng.integers(1, most + 1))
    mode = ("max", "min")[i // 2 % 2]
    sort = ("value", "none", "index")[i // 4 % 3]
    version = (11, 3, 1)[i // 12 % 3]
    stable = version == 11 and sort != "none" and i // 36 % 2 == 1
    if innermost and k == 1 and not dynamic:
        k = 2  # (k = 1, static, innermost: the plugin's horizontal reduction, not followed)
    dtype = DTYPES[i % len(DTYPES)] if version != 1 else np.float32
    data = rng.integers(0, 4, shape).astype(dtype)
    heap = innermost and (dynamic or k > 6) and not (stable and sort != "index")
    if np.dtype(dtype).kind == "f" and i % 7 == 0 and heap:  # (NaN: the other sorts differ)
        data.reshape(-1)[rng.integers(0, data.size, 2)] = np.nan
    x = ov1.parameter(ov.PartialShape([-1] * rank) if dynamic else shape, ov.Type(np.dtype(dtype)))
    k_node = ov1.constant(np.int64(k))
    if version == 1:
        node = ov1.topk(x, k_node, axis, mode, sort)
    elif version == 3:
        node = ov3.topk(x, k_node, axis, mode, sort, "i32")
    else:
        node = ov11.topk(x, k_node, axis, mode, sort, "i64", stable)
    name = f"topk{version}_{mode}_{sort}_{'stable_' if stable else ''}{'dyn' if dynamic else 'static'}_{i}"
    return Case(name, {x: data}, [node.output(0), node.output(1)], exact=True)


CASES = [_case(i, np.random.default_rng(2400 + i)) for i in range(144)]


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> Batch:
    return run_batch(CASES, tmp_path_factory.mktemp("topk_ties"))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_ties_are_ordered_as_the_plugin_orders_them(batch: Batch, case: Case) -> None:
    assert batch.mismatch(case) is None, batch.mismatch(case)


def test_all_equal_scores_of_a_dynamic_topk(tmp_path: Any) -> None:
    """The MoE router's row of a padding token: four equal scores, the best two of them."""
    x = ov1.parameter(ov.PartialShape([-1, 4]), ov.Type.f32)
    node = ov11.topk(x, ov1.constant(np.int64(2)), -1, "max", "value", "i64", False)
    case = Case("router", {x: np.full((3, 4), 0.25, np.float32)}, [node.output(1)], exact=True)
    result = run_batch([case], tmp_path)
    assert result.expected["router_out0"].tolist() == [[1, 0]] * 3  # (the plugin's heap)
    assert result.mismatch(case) is None, result.mismatch(case)
