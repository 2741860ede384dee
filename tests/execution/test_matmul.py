"""The matmul family's kernels (MatMul-1, Einsum-7, Inverse-14, ScaledDotProductAttention-13)
against OpenVINO's CPU plugin: seeded configurations of every attribute and layout, batched
into a few models."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import openvino as ov
import openvino.opset13 as opset
import openvino.opset14 as opset14
import pytest

from irshape.execute.network import Outcome, execute
from irshape.ir.reader import read_file
from irshape.shapes.matmul import parse_equation

from .harness import BF16_AS_F32_OFF_AVX512, Case, parameter, run_batch

Shape = tuple[int, ...]


def _data(rng: np.random.Generator, shape: Shape, dtype: Any, kind: str = "random") -> np.ndarray:
    """Random data, or an edge pattern: zeros, negatives, NaN and infinities sprinkled."""
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        low = 0 if dtype.kind == "u" else -8
        return rng.integers(low, 9, shape).astype(dtype)
    values = rng.standard_normal(shape)
    if kind == "zeros":
        values[rng.random(shape) < 0.5] = 0.0
    elif kind == "negative":
        values = -np.abs(values) * 10
    elif kind == "special" and values.size:
        flat = values.reshape(-1)
        flat[rng.integers(0, flat.size)] = np.nan
        flat[rng.integers(0, flat.size)] = np.inf
    return values.astype(dtype)


# --- MatMul-1 --------------------------------------------------------------------------------

# (A's shape, B's shape) before transposition; the transposes are applied to the shapes given.
_MATMUL_SHAPES: list[tuple[Shape, Shape]] = [
    ((3, 4), (4, 5)),
    ((4,), (4, 5)),
    ((3, 4), (4,)),
    ((4,), (4,)),
    ((2, 3, 4), (4, 5)),
    ((3, 4), (2, 4, 5)),
    ((2, 1, 3, 4), (3, 4, 2)),
    ((1, 3, 4), (2, 4, 6)),
    ((2, 3, 1, 4), (1, 4, 1)),
    ((5,), (2, 3, 5, 2)),
    ((2, 3, 5, 2), (2,)),
    ((1, 1), (1, 1)),
    ((6, 7), (7, 1)),
]


def _transposed(shape: Shape, transpose: bool) -> Shape:
    return (*shape[:-2], shape[-1], shape[-2]) if transpose and len(shape) >= 2 else shape


def matmul_cases() -> list[Case]:
    rng = np.random.default_rng(1)
    cases = []
    kinds = ["random", "zeros", "negative", "special"]
    for index, (a_shape, b_shape) in enumerate(_MATMUL_SHAPES):
        for ta, tb in [(False, False), (True, False), (False, True), (True, True)]:
            for dtype in (np.float32, np.float16, np.int32):
                if dtype != np.float32 and (ta or tb) and index % 2:
                    continue
                kind = kinds[(index + ta + 2 * tb) % 4] if dtype != np.int32 else "random"
                if kind == "special" and dtype == np.float16:
                    kind = "zeros"
                sa, sb = _transposed(a_shape, ta), _transposed(b_shape, tb)
                a, b = parameter(sa, dtype), parameter(sb, dtype)
                node = opset.matmul(a, b, ta, tb)
                name = f"matmul{index}_{int(ta)}{int(tb)}_{np.dtype(dtype).name}_{kind}"
                feeds = {a: _data(rng, sa, dtype, kind), b: _data(rng, sb, dtype, kind)}
                cases.append(Case(name, feeds, [node.output(0)]))
    # integers: products summed exactly, saturated to the output type (the plugin sums in f32)
    for dtype in (np.int8, np.uint8, np.int64, np.int32):
        info = np.iinfo(dtype)
        a, b = parameter((2, 3), dtype), parameter((3, 2), dtype)
        high = min(int(info.max), 1000)
        low = max(int(info.min), -1000)
        a_values = np.array([[high, high, 1], [low, 0, 2]], dtype)
        b_values = np.array([[high, 1], [2, low], [3, high]], dtype)
        name = f"matmul_saturated_{np.dtype(dtype).name}"
        cases.append(Case(name, {a: a_values, b: b_values}, [opset.matmul(a, b, False, False).output(0)]))
    # a Const operand (weights, as in a fully connected layer)
    x = parameter((2, 8))
    weights = opset.constant(rng.standard_normal((3, 8)).astype(np.float32))
    dense = opset.matmul(x, weights, False, True)
    cases.append(Case("matmul_const_weights", {x: _data(rng, (2, 8), np.float32)}, [dense.output(0)]))
    return cases


# --- Einsum-7 --------------------------------------------------------------------------------

# (equation, input shapes)
_EINSUM: list[tuple[str, list[Shape]]] = [
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("ij,jk", [(2, 3), (3, 4)]),
    ("ij->ji", [(2, 3)]),
    ("ij", [(2, 3)]),
    ("ji", [(2, 3)]),
    ("ii->i", [(3, 3)]),
    ("iij->ij", [(2, 2, 3)]),
    ("ijk->kji", [(2, 3, 4)]),
    ("ij->", [(2, 3)]),
    ("i,i->", [(5,), (5,)]),
    ("i,j->ij", [(3,), (4,)]),
    ("ij,ij->ij", [(2, 3), (2, 3)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("abc,cd->abd", [(2, 3, 4), (4, 5)]),
    ("ab,bc,cd->ad", [(2, 3), (3, 4), (4, 2)]),
    ("ab,bc,cd", [(2, 3), (3, 4), (4, 2)]),
    ("Ab,bC->AC", [(2, 3), (3, 4)]),
    ("aB,Ba", [(2, 3), (3, 2)]),
    ("...ij,...jk->...ik", [(2, 3, 4), (2, 4, 5)]),
    ("...ij,...jk->...ik", [(2, 1, 3, 4), (5, 4, 2)]),
    ("...ij,...jk", [(2, 3, 4), (4, 5)]),
    ("...j,j->...", [(2, 3, 4), (4,)]),
    ("i...->...", [(3, 2, 2)]),
    ("...ij->ij", [(2, 3, 4, 5)]),  # an output without the ellipsis sums its dims
    ("i...->i", [(3, 2, 2)]),
    ("a...,...b->ab", [(2, 3), (3, 4)]),
    ("a...b->b...a", [(2, 3, 4, 5)]),
    ("...,...->...", [(2, 3), (3,)]),
    ("...ii->...i", [(2, 3, 3)]),
    ("ij,jk->ik", [(2, 1), (3, 4)]),  # a label's dims broadcast across inputs
    ("ij,kj->ik", [(2, 3), (4, 1)]),
    ("bhqd,bhkd->bhqk", [(1, 2, 3, 4), (1, 2, 5, 4)]),
    ("bhqk,bhkd->bqhd", [(1, 2, 3, 5), (1, 2, 5, 4)]),
    ("abcd,ce->abde", [(2, 1, 3, 2), (3, 4)]),
    ("...a,...a->...", [(3, 4), (2, 3, 4)]),
    ("i,i,i->i", [(4,), (4,), (4,)]),
    ("ii->", [(3, 3)]),
    ("bA,c", [(2, 3), (4,)]),  # implicit output: the labels sorted as characters, upper case first
    ("Zy,yx", [(2, 3), (3, 4)]),
    ("bii->bi", [(2, 4, 4)]),
    ("ij,ij->", [(3, 4), (3, 4)]),
    ("ijk,ikl->ijl", [(2, 1, 3), (2, 3, 4)]),
    ("a...,a...->...", [(2, 3, 1), (2, 1, 4)]),
]


def _random_einsum(rng: np.random.Generator) -> tuple[str, list[Shape]]:
    """A random equation of 1 to 3 operands over 6 labels (repeats allowed), some with an
    ellipsis whose dims broadcast (1s), an implicit or explicit output (with or without the
    ellipsis), and shapes that fit it."""
    labels = "abcdXY"
    sizes = {label: int(rng.integers(1, 5)) for label in labels}
    ellipsis_dims = [int(rng.integers(1, 4)) for _ in range(int(rng.integers(0, 3)))]
    with_ellipsis = rng.random() < 0.4
    subscripts, shapes = [], []
    for _ in range(int(rng.integers(1, 4))):
        chosen = [str(c) for c in rng.choice(list(labels), int(rng.integers(1, 4)))]
        subscript, shape = "".join(chosen), [sizes[c] for c in chosen]
        if with_ellipsis and rng.random() < 0.7:
            at = int(rng.integers(0, len(chosen) + 1))
            rank = int(rng.integers(0, len(ellipsis_dims) + 1))
            dims = [d if rng.random() < 0.7 else 1 for d in ellipsis_dims[len(ellipsis_dims) - rank :]]
            subscript, shape = subscript[:at] + "..." + subscript[at:], shape[:at] + dims + shape[at:]
        subscripts.append(subscript)
        shapes.append(tuple(shape))
    if rng.random() < 0.5:
        return ",".join(subscripts), shapes
    present = sorted(set("".join(subscripts).replace(".", "")))
    output = "".join(str(c) for c in rng.permutation(present)[: int(rng.integers(0, len(present) + 1))])
    if any("..." in s for s in subscripts) and rng.random() < 0.7:
        at = int(rng.integers(0, len(output) + 1))
        output = output[:at] + "..." + output[at:]
    return ",".join(subscripts) + "->" + output, shapes


def random_einsum_cases() -> list[Case]:
    """Random equations; those whose implicit output repeats a label (one input's label met
    twice and in no other input) are left out: OpenVINO's CPU plugin cannot build them
    ("Input order must have shape [n]"), and numpy refuses them too."""
    rng = np.random.default_rng(17)
    cases: list[Case] = []
    while len(cases) < 40:
        equation, shapes = _random_einsum(rng)
        output = parse_equation(equation)[1].replace("...", "")
        if len(set(output)) != len(output):
            continue
        params = [parameter(shape) for shape in shapes]
        feeds = {p: _data(rng, shape, np.float32) for p, shape in zip(params, shapes, strict=True)}
        node = opset.einsum(params, equation)
        cases.append(Case(f"einsum_random{len(cases)}", feeds, [node.output(0)]))
    return cases


def einsum_cases() -> list[Case]:
    rng = np.random.default_rng(2)
    cases = []
    kinds = ["random", "zeros", "negative"]
    for index, (equation, shapes) in enumerate(_EINSUM):
        for dtype in (np.float32, np.int32) if index % 3 == 0 else (np.float32,):
            params = [parameter(shape, dtype) for shape in shapes]
            feeds = {p: _data(rng, s, dtype, kinds[index % 3]) for p, s in zip(params, shapes, strict=True)}
            node = opset.einsum(params, equation)
            cases.append(Case(f"einsum{index}_{np.dtype(dtype).name}", feeds, [node.output(0)]))
    # f16, computed in f32 and rounded once
    a, b = parameter((3, 4), np.float16), parameter((4, 2), np.float16)
    feeds = {a: _data(rng, (3, 4), np.float16), b: _data(rng, (4, 2), np.float16)}
    cases.append(Case("einsum_f16", feeds, [opset.einsum([a, b], "ij,jk->ik").output(0)]))
    return cases


# --- Inverse-14 ------------------------------------------------------------------------------


def inverse_cases() -> list[Case]:
    rng = np.random.default_rng(3)
    cases = []
    shapes: list[Shape] = [
        (1, 1),
        (2, 2),
        (3, 3),
        (4, 4),
        (5, 5),
        (2, 3, 3),
        (2, 2, 4, 4),
        (3, 1, 1),
        (0, 3, 3),
        (6, 6),
        (8, 8),
        (2, 1, 2, 2),
        (4, 5, 5),
    ]
    for index, shape in enumerate(shapes):
        for adjoint in (False, True):
            for dtype in (np.float32, np.float16):
                n = shape[-1]
                # well conditioned: a random matrix plus a multiple of the identity, some permuted
                values = rng.standard_normal(shape) + (n + 1) * np.eye(n)
                if index % 3 == 1:
                    values = values[..., ::-1, :]
                data = parameter(shape, dtype)
                node = opset14.inverse(data, adjoint)
                name = f"inverse{index}_{'adj' if adjoint else 'inv'}_{np.dtype(dtype).name}"
                cases.append(Case(name, {data: values.astype(dtype)}, [node.output(0)]))
    # singular matrices: OpenVINO's LU divides by zero pivots (infinities, NaNs), a permutation
    singular = np.array(
        [
            [[1, 2, 3], [2, 4, 6], [1, 0, 1]],
            [[0, 0, 0], [0, 0, 0], [0, 0, 0]],
            [[0, 1, 0], [1, 0, 0], [0, 0, 1]],
            [[1, 1, 1], [1, 1, 1], [2, 3, 4]],
            [[2, 0, 0], [0, 0, 0], [0, 0, 3]],
        ],
        np.float32,
    )
    for adjoint in (False, True):
        data = parameter(singular.shape)
        name = f"inverse_singular_{'adj' if adjoint else 'inv'}"
        cases.append(Case(name, {data: singular}, [opset14.inverse(data, adjoint).output(0)]))
    # found by the kernel fuzzer (test_kernel_fuzz_layers.py): f64 matrices with a repeated row
    # are singular in the plugin's f32 elimination (NaN and infinities), where irshape's f64
    # left residues and gave 1.4e16
    repeated = rng.standard_normal((3, 4, 4))
    repeated[:, 3] = repeated[:, 0]
    for adjoint in (False, True):
        data = parameter(repeated.shape, np.float64)
        name = f"inverse_repeated_row_f64_{'adj' if adjoint else 'inv'}"
        cases.append(Case(name, {data: repeated}, [opset14.inverse(data, adjoint).output(0)]))
    return cases


# --- ScaledDotProductAttention-13 --------------------------------------------------------------


def _sdpa_case(
    rng: np.random.Generator,
    name: str,
    batch: Sequence[int],
    sizes: tuple[int, int, int, int],
    *,
    causal: bool,
    mask: str | None,
    mask_shape: Shape | None,
    scale: str | None,
    dtype: Any,
) -> Case:
    length, source, embed, value_embed = sizes
    shapes = [(*batch, length, embed), (*batch, source, embed), (*batch, source, value_embed)]
    params = [parameter(shape, dtype) for shape in shapes]
    feeds = {p: _data(rng, s, dtype) for p, s in zip(params, shapes, strict=True)}
    inputs: list[Any] = list(params)
    if mask is not None or scale is not None:
        mask_shape = mask_shape or (length, source)
        if mask == "boolean":
            m = parameter(mask_shape, np.bool_)
            values = rng.random(mask_shape) < 0.7
            values[..., 0] = True  # every row keeps a position...
            feeds[m] = values
        elif mask == "real" or mask is None:
            m = parameter(mask_shape, dtype)
            values = np.where(rng.random(mask_shape) < 0.3, -np.inf, rng.standard_normal(mask_shape))
            values[..., 0] = 0.5
            feeds[m] = values.astype(dtype)
        inputs.append(m)
    if scale is not None:
        if scale == "param":
            s = parameter((), dtype)
            feeds[s] = np.array(0.3 + rng.random(), dtype)
            inputs.append(s)
        else:
            inputs.append(opset.constant(np.array([0.7], dtype)))
    node = opset.scaled_dot_product_attention(*inputs, causal=causal)
    return Case(name, feeds, [node.output(0)])


def sdpa_cases() -> list[Case]:
    rng = np.random.default_rng(4)
    cases = []
    batches: list[tuple[int, ...]] = [(1,), (2,), (1, 2), (2, 3)]
    sizes = [(3, 4, 5, 5), (4, 4, 8, 3), (5, 3, 2, 4), (1, 6, 4, 4), (6, 1, 3, 2)]
    index = 0
    for batch_index, batch in enumerate(batches):
        for size_index, size in enumerate(sizes):
            for causal, mask, scale in [
                (False, None, None),
                (True, None, None),
                (False, "boolean", None),
                (False, "real", "const"),
                (False, "boolean", "param"),
                (True, "real", "param"),
            ]:
                if (batch_index + size_index) % 2 and mask is not None and causal:
                    continue
                mask_shape: Shape | None = None
                if mask is not None and batch and index % 3 == 1:
                    mask_shape = (*batch[:1], *([1] * (len(batch) - 1)), size[0], size[1])
                elif mask is not None and index % 3 == 2:
                    mask_shape = (1, size[0], size[1])
                dtype = np.float16 if index % 7 == 3 else np.float32
                name = f"sdpa{index}_{'causal' if causal else 'full'}_{mask}_{scale}_{np.dtype(dtype).name}"
                cases.append(
                    _sdpa_case(
                        rng,
                        name,
                        batch,
                        size,
                        causal=causal,
                        mask=mask,
                        mask_shape=mask_shape,
                        scale=scale,
                        dtype=dtype,
                    )
                )
                index += 1
    # a row masked throughout is NaN
    q, k, v = parameter((1, 2, 3)), parameter((1, 4, 3)), parameter((1, 4, 3))
    m = parameter((2, 4), np.bool_)
    mask_values = np.array([[True, False, True, False], [False] * 4])
    feeds = {p: _data(rng, tuple(p.get_output_shape(0)), np.float32) for p in (q, k, v)}
    feeds[m] = mask_values
    cases.append(Case("sdpa_masked_row", feeds, [opset.scaled_dot_product_attention(q, k, v, m).output(0)]))
    # scores far beyond exp's range: a softmax that does not subtract the row's maximum overflows
    q, k, v = parameter((2, 3, 8)), parameter((2, 5, 8)), parameter((2, 5, 8))
    feeds = {p: _data(rng, tuple(p.get_output_shape(0)), np.float32) * 40 for p in (q, k, v)}
    cases.append(Case("sdpa_large_scores", feeds, [opset.scaled_dot_product_attention(q, k, v).output(0)]))
    return cases


def _random_batch(rng: np.random.Generator, dims: list[int], rank: int) -> list[int]:
    """The last ``rank`` of ``dims``, some of them 1 (broadcast)."""
    return [d if rng.random() < 0.7 else 1 for d in dims[len(dims) - rank :]] if rank else []


def random_product_cases() -> list[Case]:
    """Random MatMul layouts (ranks 1 to 4, broadcast batch dims, transposes) and random
    attentions (broadcast batch dims, boolean or real masks of lower rank, scales, causal)."""
    rng = np.random.default_rng(18)
    cases = []
    for index in range(40):
        m, k, n = (int(rng.integers(1, 5)) for _ in range(3))
        dims = [int(rng.integers(1, 4)) for _ in range(2)]
        rank_a, rank_b = int(rng.integers(1, 5)), int(rng.integers(1, 5))
        a = [k] if rank_a == 1 else [*_random_batch(rng, dims, rank_a - 2), m, k]
        b = [k] if rank_b == 1 else [*_random_batch(rng, dims, rank_b - 2), k, n]
        ta, tb = bool(rng.random() < 0.5), bool(rng.random() < 0.5)
        a_shape, b_shape = _transposed(tuple(a), ta), _transposed(tuple(b), tb)
        pa, pb = parameter(a_shape), parameter(b_shape)
        feeds = {pa: _data(rng, a_shape, np.float32), pb: _data(rng, b_shape, np.float32)}
        cases.append(Case(f"matmul_random{index}", feeds, [opset.matmul(pa, pb, ta, tb).output(0)]))
    for index in range(40):
        dims = [int(rng.integers(1, 3)) for _ in range(int(rng.integers(1, 3)))]
        length, source, embed, value_embed = (int(rng.integers(1, 6)) for _ in range(4))
        key_batch = _random_batch(rng, dims, len(dims))
        q = parameter((*_random_batch(rng, dims, len(dims)), length, embed))
        k, v = parameter((*key_batch, source, embed)), parameter((*key_batch, source, value_embed))
        feeds = {p: _data(rng, tuple(p.get_output_shape(0)), np.float32) for p in (q, k, v)}
        inputs: list[Any] = [q, k, v]
        if rng.random() < 0.6:
            rows = length if rng.random() < 0.8 else 1
            mask_shape = (*_random_batch(rng, dims, int(rng.integers(0, len(dims) + 1))), rows, source)
            if rng.random() < 0.5:
                mask = parameter(mask_shape, np.bool_)
                values = rng.random(mask_shape) < 0.7
                values[..., 0] = True
            else:
                mask = parameter(mask_shape)
                values = np.where(rng.random(mask_shape) < 0.2, -np.inf, rng.standard_normal(mask_shape))
                values = values.astype(np.float32)
                values[..., 0] = 0.0
            feeds[mask] = values
            inputs.append(mask)
            if rng.random() < 0.5:
                inputs.append(opset.constant(np.array(rng.random() + 0.1, np.float32)))
        node = opset.scaled_dot_product_attention(*inputs, causal=bool(rng.random() < 0.3))
        cases.append(Case(f"sdpa_random{index}", feeds, [node.output(0)]))
    return cases


CASES = (
    matmul_cases()
    + einsum_cases()
    + random_einsum_cases()
    + inverse_cases()
    + sdpa_cases()
    + random_product_cases()
)


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    return run_batch(CASES, tmp_path_factory.mktemp("matmul"))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_matmul_family(batch, case):
    assert batch.mismatch(case) is None, batch.mismatch(case)


def test_every_layer_ran(batch):
    assert batch.execution is not None and batch.execution.ran == batch.execution.total


def _outcomes(node: Any, params: list[Any], tmp_path: Any, max_memory: int) -> list[Outcome]:
    """What became of the layers when irshape executes ``node`` under ``max_memory`` bytes."""
    for i, param in enumerate(params):
        param.set_friendly_name(f"in{i}")
    xml = tmp_path / "model.xml"
    ov.save_model(ov.Model([opset.result(node)], params, "model"), xml, compress_to_fp16=False)
    document = read_file(xml).document
    assert document is not None
    inputs = {f"in{i}": np.zeros(tuple(p.get_output_shape(0)), np.float32) for i, p in enumerate(params)}
    execution = execute(document, inputs, max_memory=max_memory, stop_at_failure=False)
    return [failure.outcome for failure in execution.failures]


def test_attention_scores_count_in_the_memory_estimate(tmp_path):
    # 12 KiB of inputs, 4 KiB of output, but 256 KiB of scores [256, 256] (and their exp,
    # weights, mask): over a 200 KiB limit though twice the output plus the inputs is not
    q, k, v = (parameter((1, 256, 4)) for _ in range(3))
    node = opset.scaled_dot_product_attention(q, k, v, causal=True)
    assert _outcomes(node, [q, k, v], tmp_path, 200 * 1024) == [Outcome.OVER_MEMORY]
    assert _outcomes(node, [q, k, v], tmp_path, 2 * 1024 * 1024) == []


# --- bf16: the data converted to bf16 in the model, the results converted back to f32 -----------


def _bf16(node: Any) -> Any:
    return opset.convert(node, "bf16")


def bf16_cases() -> list[Case]:
    """MatMul, Einsum and Inverse round once to bf16; an attention rounds each step of its
    decomposition (the scaled key or the scaled scores, the masked scores, the weights)."""
    rng = np.random.default_rng(14)
    cases = []

    def feeds(*params: Any) -> dict[Any, np.ndarray]:
        return {p: _data(rng, tuple(p.get_output_shape(0)), np.float32) for p in params}

    for index in range(4):
        a, b = parameter((2, 3, 4)), parameter((4, 5))
        node = opset.matmul(_bf16(a), _bf16(b), False, False)
        cases.append(
            Case(
                f"bf16_matmul{index}",
                feeds(a, b),
                [opset.convert(node, "f32").output(0)],
                exact=BF16_AS_F32_OFF_AVX512,
            )
        )
        a, b = parameter((3, 4)), parameter((2, 4, 3))
        node = opset.einsum([_bf16(a), _bf16(b)], "ij,bjk->bik")
        cases.append(
            Case(
                f"bf16_einsum{index}",
                feeds(a, b),
                [opset.convert(node, "f32").output(0)],
                exact=BF16_AS_F32_OFF_AVX512,
            )
        )
        data = parameter((2, 3, 3))
        values = {data: (rng.standard_normal((2, 3, 3)) + 4 * np.eye(3)).astype(np.float32)}
        node = opset14.inverse(_bf16(data), index % 2 == 1)
        cases.append(
            Case(
                f"bf16_inverse{index}",
                values,
                [opset.convert(node, "f32").output(0)],
                exact=BF16_AS_F32_OFF_AVX512,
            )
        )
    # attentions with every input form: the default scale 1/sqrt(E) inexact in bf16 (E = 8, 12)
    # or exact (E = 4, 16), real and boolean masks, a scale input, causal; each rounds where the
    # plugin's decomposition stores bf16 (see irshape/kernels/matmul.py)
    forms = [(mask, scale, causal) for mask in (None, "real", "boolean") for scale in (False, True)
             for causal in (False, True) if not (scale and mask is None)]  # fmt: skip
    for index, (mask, scale, causal) in enumerate(forms * 2):
        length, source = (3, 5) if index % 2 else (6, 4)
        size = (8, 12, 4, 16)[index % 4]
        q, k, v = (parameter((1, 2, n, size)) for n in (length, source, source))
        inputs = feeds(q, k, v)
        args = [_bf16(q), _bf16(k), _bf16(v)]
        if mask is not None:
            m = parameter((1, 1, length, source), np.bool_ if mask == "boolean" else np.float32)
            inputs[m] = (
                rng.random((1, 1, length, source)) < 0.7
                if mask == "boolean"
                else _data(rng, (1, 1, length, source), np.float32)
            )
            args.append(m if mask == "boolean" else _bf16(m))
        if scale:
            factor = parameter(())
            inputs[factor] = np.array(rng.uniform(0.1, 0.9), np.float32)
            args.append(_bf16(factor))
        node = opset.scaled_dot_product_attention(*args, causal=causal)
        cases.append(
            Case(
                f"bf16_sdpa{index}",
                inputs,
                [opset.convert(node, "f32").output(0)],
                exact=BF16_AS_F32_OFF_AVX512,
            )
        )
    return cases


BF16_CASES = bf16_cases()


@pytest.fixture(scope="module")
def bf16_batch(tmp_path_factory):
    return run_batch(BF16_CASES, tmp_path_factory.mktemp("matmul_bf16"))


@pytest.mark.parametrize("case", BF16_CASES, ids=lambda c: c.name)
def test_bf16(bf16_batch, case):
    assert bf16_batch.mismatch(case) is None, bf16_batch.mismatch(case)
