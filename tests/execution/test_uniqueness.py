"""Unique-10's kernel against OpenVINO's CPU plugin: sorted and unsorted, flattened and along
an axis, index and count types, data with many repeats, infinities and signed zeros."""

from __future__ import annotations

from typing import Any

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset10 as ov10
import pytest

from .harness import Case, compare, parameter
from .kernel_data import DTYPES, Batches, data_of, shape_of


def unique_cases() -> list[Case]:
    rng = np.random.default_rng(40)
    cases = []
    for i in range(64):
        dtype = DTYPES[i % len(DTYPES)]
        rank = int(rng.integers(1, 4))
        shape = shape_of(rng, rank)
        # no NaN: the plugin's sort is broken by it (elements after a NaN are out of order)
        data = data_of(rng, shape, dtype)
        if data.dtype.kind == "f":
            data = np.asarray(np.nan_to_num(data, nan=0.5, posinf=np.inf, neginf=-np.inf))
        if i % 3 == 0 and dtype is not np.bool_:  # many repeats
            with np.errstate(invalid="ignore"):
                data = (data % 3).astype(dtype)
        x = parameter(shape, dtype)
        index_type, count_type = ("i32", "i64")[i % 2], ("i64", "i32")[i // 2 % 2]
        is_sorted = bool(i % 4 < 2)
        if i % 5 < 2:
            axis = int(rng.integers(-rank, rank))
            if i % 10 == 0:  # slices repeated along the axis
                data = np.take(data, rng.integers(0, shape[axis], shape[axis]), axis=axis)
            axis_node = ov1.constant(np.array(axis if i % 2 else [axis], [np.int32, np.int64][i // 3 % 2]))
            node = ov10.unique(x, axis_node, is_sorted, index_type, count_type)
        else:
            node = ov10.unique(x, None, is_sorted, index_type, count_type)
        outputs = [node.output(k) for k in range(4)]
        if i % 5 < 2:
            # With an axis the plugin's first indices and counts are wrong (uninitialised
            # memory, or indices of other slices): the unique slices and reverse indices only
            outputs = [outputs[0], outputs[2]]
        cases.append(
            Case(f"unique{i}_{'sorted' if is_sorted else 'unsorted'}", {x: data}, outputs, exact=True)
        )
    return cases


def fuzz_found_cases() -> list[Case]:
    """What the kernel fuzzer (test_kernel_fuzz_signal.py) found: u64 and u32 data reach the
    plugin's node as i32 and are sorted signed (2^64 - 1 is -1: first; 2^31 + 1 before 0)."""
    cases = []
    for dtype, values in [
        (np.uint64, [0, 2**64 - 1, 5, 2**64 - 1, 7, 0]),
        (np.uint32, [2**31 + 1, 3, 0, 2**32 - 2, 3, 9]),
        (np.int64, [-(2**31), 2**31 - 1, -4, 2**31 - 1, 8, 0]),
    ]:
        x = parameter((2, 3), dtype)
        node = ov10.unique(x, None, True, "i64", "i32")
        data = np.array(values, dtype).reshape(2, 3)
        cases.append(Case(f"fuzz_sorted_{np.dtype(dtype).name}", {x: data}, list(node.outputs()), exact=True))
    return cases


def nan_cases() -> list[Case]:
    """Data holding NaNs (f32, f16, f64, bf16 through a Convert): the plugin compares by ``==``,
    so every NaN is a unique element unsorted (``[[nan, 1, nan], [2, 1, 2]]``: ``[nan, 1, nan,
    2]``), and along an axis every slice holding one is unique, sorted too, where the plugin's
    stable sort of each column decides their order. irshape counted the NaNs as one (and its
    executor failed the layer: the count's shape against the data's). Sorted and flattened:
    ``sorted_nan_cases``. Along an axis only the unique slices and the reverse indices (the others are wrong there, above)."""
    rng = np.random.default_rng(24)
    cases = []
    hand = [(np.array([[np.nan, 1, np.nan], [2, 1, 2]]), a) for a in (None, 1)]
    for i in range(72):
        if i < len(hand):
            values, axis = hand[i]
        else:
            shape = (1,) * int(rng.integers(0, 2)) + shape_of(rng, int(rng.integers(1, 3)), 2, 4)
            values = rng.choice([np.nan, np.nan, 0.0, -0.0, 1.5, -2.0, np.inf], shape)
            # two items holding NaNs that irshape took for one (every case failed before): along
            # an axis (a first with no dims other than 1 before it: after them the plugin's
            # slices are wrong, above) slice 1 a copy of slice 0, which holds one
            firsts = [a for a in range(values.ndim) if int(np.prod(values.shape[:a])) == 1 and shape[a] > 1]
            axis = int(rng.choice(firsts)) if i % 2 else None
            if axis is None:
                values.reshape(-1)[rng.choice(values.size, 2, replace=False)] = np.nan
            else:
                moved = np.moveaxis(values, axis, 0)
                moved[(0,) * moved.ndim] = np.nan
                moved[1] = moved[0]
        element_type = ("f32", "f16", "f64", "bf16")[i % 4]
        is_sorted = axis is not None and bool(i % 3)
        dtype = {"f16": np.float16, "f64": np.float64}.get(element_type, np.float32)
        x = parameter(values.shape, dtype)
        data = ov1.convert(x, "bf16") if element_type == "bf16" else x
        axis_node = None if axis is None else ov1.constant(np.array(axis, np.int64))
        node = ov10.unique(data, axis_node, is_sorted, "i32", ("i64", "i32")[i % 2])
        outputs = list(node.outputs()) if axis is None else [node.output(0), node.output(2)]
        if element_type == "bf16":  # compared as f32 (the Python API reads bf16 as f16 bits)
            outputs[0] = ov1.convert(outputs[0], "f32").output(0)
        name = f"nan{i}_{element_type}_{'sorted' if is_sorted else 'unsorted'}_axis{axis}"
        cases.append(Case(name, {x: values.astype(dtype)}, outputs, exact=True))
    return cases


def sorted_nan_cases() -> list[Case]:
    """Sorted and flattened data holding NaNs: the plugin's ``std::sort`` by ``<`` leaves
    repeats apart around a NaN (``[[nan, 1, nan], [2, 1, 2]]``: ``[nan, 1, nan, 1, 2]``), and its
    first indices, reverse indices and counts compare by ``==`` (a NaN's count 0). irshape gave
    the NaNs as one, last. Sizes past std::sort's runs of 16 too (its partitions)."""
    rng = np.random.default_rng(25)
    cases = []
    for i in range(32):
        size = int(rng.integers(2, 16)) if i % 2 else int(rng.integers(17, 80))
        values = rng.choice([np.nan, np.nan, 0.0, 1.5, -2.0, 3.0, np.inf], size)
        values[rng.choice(size, 2, replace=False)] = np.nan
        element_type = ("f32", "f16", "f64", "bf16")[i % 4]
        dtype = {"f16": np.float16, "f64": np.float64}.get(element_type, np.float32)
        x = parameter(values.shape, dtype)
        data = ov1.convert(x, "bf16") if element_type == "bf16" else x
        node = ov10.unique(data, None, True, ("i32", "i64")[i % 2], "i64")
        outputs = list(node.outputs())
        if element_type == "bf16":
            outputs[0] = ov1.convert(outputs[0], "f32").output(0)
        cases.append(
            Case(f"sorted_nan{i}_{element_type}_{size}", {x: values.astype(dtype)}, outputs, exact=True)
        )
    return cases


CASES = {
    "unique": unique_cases(),
    "fuzz_found": fuzz_found_cases(),
    "nan": nan_cases(),
    "sorted_nan": sorted_nan_cases(),
}
ALL = [(name, case) for name, cases in CASES.items() for case in cases]


@pytest.fixture(scope="module")
def batches(tmp_path_factory: pytest.TempPathFactory) -> Batches:
    return Batches(CASES, tmp_path_factory)


@pytest.mark.parametrize(("suite", "case"), ALL, ids=[case.name for _, case in ALL])
def test_kernel_matches_openvino(batches: Batches, suite: str, case: Case) -> None:
    problem = batches[suite].mismatch(case)
    assert problem is None, problem


def test_first_indices_and_counts_along_an_axis_as_the_spec_defines_them(tmp_path: Any) -> None:
    """Hand-worked: rows 0 and 2 are equal. OpenVINO gives no defined answer to check against
    here (its plugin's first indices and counts along an axis are uninitialised memory, and its
    reference, folding a Const, reports rows repeated apart once, at the wrong index)."""
    from irshape.execute.network import execute
    from irshape.ir.reader import read_file

    x = parameter((4, 2), np.int32)
    x.set_friendly_name("x")
    node = ov10.unique(x, ov1.constant(np.array(0, np.int64)), False, "i64", "i64")
    xml = tmp_path / "unique_rows.xml"
    ov.save_model(ov.Model([node.output(k) for k in range(4)], [x]), xml)
    document = read_file(xml).document
    assert document is not None
    data = np.array([[3, 4], [1, 2], [3, 4], [0, 0]], np.int32)
    results = list(execute(document, {"x": data}).results.values())
    uniques, first, reverse, counts = results
    assert uniques.tolist() == [[3, 4], [1, 2], [0, 0]]  # in the order of first occurrence
    assert first.tolist() == [0, 1, 3]
    assert reverse.tolist() == [0, 1, 0, 2]
    assert counts.tolist() == [2, 1, 1]


def _const_unique(tmp_path: Any, axis: int | None, is_sorted: bool) -> tuple[Any, Any]:
    """A Unique of a Const holding NaNs (the model's one Parameter feeds a Relu beside it): the
    saved file, and its data."""
    data = np.array([[np.nan, 1, np.nan], [2, 1, 2]], np.float32)
    x = parameter((1,), np.float32)
    x.set_friendly_name("x")
    axis_node = None if axis is None else ov1.constant(np.array(axis, np.int64))
    node = ov10.unique(ov1.constant(data), axis_node, is_sorted, "i64", "i64")
    results = [ov1.result(o) for o in (node.output(0), node.output(2), ov1.relu(x).output(0))]
    for name, result in zip(("uniques", "reverse", "relu"), results, strict=True):
        result.set_friendly_name(name)
    xml = tmp_path / f"unique_const_{axis}_{is_sorted}.xml"
    ov.save_model(ov.Model(results, [x]), xml, compress_to_fp16=False)
    return xml, data


@pytest.mark.parametrize("axis", [None, 1])
def test_unsorted_unique_of_a_const_runs_as_the_plugin_runs_it(tmp_path: Any, axis: int | None) -> None:
    """The plugin does not fold a Unique of a Const (it has no evaluate): its node runs, with the
    shapes read_model inferred, which unsorted agree with it (every NaN apart, both)."""
    from irshape.execute.network import execute
    from irshape.ir.reader import read_file

    xml, _ = _const_unique(tmp_path, axis, False)
    compiled = ov.Core().compile_model(xml, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    one = np.ones(1, np.float32)
    expected = compiled({0: one})
    document = read_file(xml).document
    assert document is not None
    got = execute(document, {"x": one}).results
    assert sorted(got) == ["relu", "reverse", "uniques"]
    for index, name in enumerate(("uniques", "reverse")):
        problem = compare(expected[compiled.outputs[index]], got[name], exact=True)
        assert problem is None, f"{name}: {problem}"


@pytest.mark.parametrize("axis", [None, 1])
def test_sorted_unique_of_a_const_with_nan_fails_as_in_the_plugin(tmp_path: Any, axis: int | None) -> None:
    """Sorted, the plugin's node counts the NaNs apart where read_model's reference collapsed
    them (flattened: 1 unique element; along axis 1: 2 columns): the node's shape is not the one
    compiled, and compile_model fails ('Can not clone with new dims'); irshape refuses the layer as
    one the plugin cannot run, not as a bug of its own (it said 'a bug in irshape')."""
    from irshape.execute.network import ExecutionError, Outcome, execute
    from irshape.ir.reader import read_file

    xml, _ = _const_unique(tmp_path, axis, True)
    with pytest.raises(RuntimeError, match="Can not clone with new dims"):  # (the node runs as it compiles)
        ov.Core().compile_model(xml, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    one = np.ones(1, np.float32)
    document = read_file(xml).document
    assert document is not None
    with pytest.raises(ExecutionError) as refused:
        execute(document, {"x": one})
    assert refused.value.outcome.outcome is Outcome.UNSUPPORTED, refused.value
