"""Differential tests of the state family's kernels (ReadValue-3/6, Assign-3/6) against
OpenVINO's CPU plugin: stateful models (ReadValues and the Assigns of new values, the model's
sinks) inferred once, their outputs and ``query_state()`` compared with irshape's results and
``Execution.variables``; one run starts from set states (``Context.initial``). Relu is the only
computation between them (the one element-wise kernel this branch has)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset3 as opset3
import openvino.opset6 as opset6
import pytest
from openvino.op.util import Variable, VariableInfo

from irshape.execute.network import Execution, ExecutionError, Outcome, execute
from irshape.ir.reader import read_file
from irshape.kernels import Context

from .harness import CPU_CONFIG, compare

_core = ov.Core()
# i64 variables: 'CPU plugin does not support i64 for use with oneDNN'
TYPES = (np.float32, np.int32, np.float16, np.uint8)


@dataclass
class Stateful:
    """One stateful model, what OpenVINO gave and what irshape gave."""

    expected: dict[str, np.ndarray]
    states: dict[str, np.ndarray]
    execution: Execution


def _variable(shape: str, element_type: ov.Type, name: str) -> Variable:
    info = VariableInfo()
    info.data_shape = ov.PartialShape(shape)
    info.data_type = element_type
    info.variable_id = name
    return Variable(info)


def _data(rng: np.random.Generator, shape: tuple[int, ...], dtype: type) -> np.ndarray:
    return (
        (rng.standard_normal(shape) * 20).astype(dtype)
        if np.dtype(dtype).kind == "f"
        else (rng.integers(0, 100, shape).astype(dtype))
    )


def build(rng: np.random.Generator):
    """Many variables in one model: (results, sinks, parameters, feeds, initial states)."""
    results, sinks, parameters, feeds, initial = [], [], [], [], {}
    counter = itertools.count()

    def feed(shape: tuple[int, ...], dtype: type) -> ov.Node:
        param = opset6.parameter(list(shape), ov.Type(np.dtype(dtype)))
        name = f"in{next(counter)}"
        param.set_friendly_name(name)
        param.output(0).set_names({name})
        parameters.append(param)
        feeds.append(_data(rng, shape, dtype))
        return param

    def output(node: ov.Node, name: str) -> None:
        result = opset6.result(node)
        result.set_friendly_name(name)
        results.append(result)

    for i in range(40):
        dtype = TYPES[i % len(TYPES)]
        element_type = ov.Type(np.dtype(dtype))
        kind = i % 5
        name = f"var{i}"
        x = feed((2, 3), dtype)
        variable: Variable | None = None
        if kind == 0:  # v6, static shape, no init: zeros
            variable = _variable("2,3", element_type, name)
            read = opset6.read_value(variable)
        elif kind == 1:  # v6, the KV cache: a dynamic dim starts at 0
            variable = _variable("?,3", element_type, name)
            read = opset6.read_value(variable)
        elif kind == 2:  # v6, dynamic last dim, an init input
            variable = _variable("2,?", element_type, name)
            read = opset6.read_value(feed((2, 1 + i % 3), dtype), variable)
        elif kind == 3:  # v3: the init input gives shape and type
            read = opset3.read_value(feed((2, 3), dtype), name)
        else:  # v6 with init, read through a Relu
            variable = _variable("2,3", element_type, name)
            read = opset6.relu(opset6.read_value(feed((2, 3), dtype), variable))
        # Assign-3 finds its variable through its input, and the plugin assigns a dynamic
        # variable only a value computed from its ReadValue (else 'Can't reorder data with
        # dynamic shapes'): those assign the Relu of what they read
        new = opset6.relu(read) if kind in (1, 2, 3) else opset6.relu(x)
        sinks.append(opset3.assign(new, name) if variable is None else opset6.assign(new, variable))
        output(read, f"read{i}")
        output(new, f"new{i}")
        if i % 7 == 3:  # a run starting from a set state
            shape = (4, 3) if kind == 1 else (2, 2) if kind == 2 else (2, 3)
            initial[name] = _data(rng, shape, dtype)
    return results, sinks, parameters, feeds, initial


def run(directory: Path, with_initial: bool) -> Stateful:
    rng = np.random.default_rng(6)
    results, sinks, parameters, feeds, initial = build(rng)
    if not with_initial:
        initial = {}
    model = ov.Model(results, sinks, parameters, "stateful")
    xml = directory / "stateful.xml"
    ov.save_model(model, xml, compress_to_fp16=False)
    request = _core.compile_model(_core.read_model(xml), "CPU", CPU_CONFIG).create_infer_request()
    for state in request.query_state():
        if state.name in initial:
            state.state = ov.Tensor(initial[state.name])
    request.infer(feeds)
    expected = {
        result.get_friendly_name(): np.array(request.get_output_tensor(i).data, copy=True)
        for i, result in enumerate(results)
    }
    states = {state.name: np.array(state.state.data, copy=True) for state in request.query_state()}
    document = read_file(xml).document
    assert document is not None
    inputs = {param.get_friendly_name(): value for param, value in zip(parameters, feeds, strict=True)}
    execution = execute(document, inputs, context=Context(initial))
    return Stateful(expected, states, execution)


@pytest.fixture(scope="module", params=[False, True], ids=["fresh", "set_states"])
def stateful(request, tmp_path_factory):
    return run(tmp_path_factory.mktemp("state"), request.param)


def test_outputs(stateful):
    assert set(stateful.execution.results) == set(stateful.expected)
    for name, expected in stateful.expected.items():
        problem = compare(expected, stateful.execution.results[name], exact=True)
        assert problem is None, f"{name}: {problem}"


def test_variables(stateful):
    assert set(stateful.execution.variables) == set(stateful.states)
    for name, expected in stateful.states.items():
        got = stateful.execution.variables[name]
        if expected.dtype == np.float32 and got.dtype == np.float16:
            # the plugin holds the variable of an f16 ReadValue-3 (which declares no type) in
            # f32; its values are the f16 ones
            expected = expected.astype(np.float16)
        problem = compare(expected, got, exact=True)
        assert problem is None, f"{name}: {problem}"


@pytest.mark.parametrize("shape", ["2..5,3", "1..,3"])
def test_interval_variable_without_init_is_refused(tmp_path, shape):
    """A variable whose dim is an interval excluding 0 cannot start empty: the plugin fails at
    inference, irshape refuses the layer as one OpenVINO cannot run."""
    variable = _variable(shape, ov.Type.f32, "v")
    read = opset6.read_value(variable)
    model = ov.Model([opset6.result(read)], [opset6.assign(opset6.relu(read), variable)], [], "interval")
    xml = tmp_path / "interval.xml"
    ov.save_model(model, xml, compress_to_fp16=False)
    request = _core.compile_model(_core.read_model(xml), "CPU", CPU_CONFIG).create_infer_request()
    with pytest.raises(RuntimeError):
        request.infer([])
    document = read_file(xml).document
    assert document is not None
    with pytest.raises(ExecutionError) as refused:
        execute(document, {})
    assert refused.value.outcome.outcome is Outcome.UNSUPPORTED


def test_kv_cache_two_steps(tmp_path):
    """The KV-cache pattern of an exported LLM: ReadValue of [1, ?, 4] (empty at first), Concat
    with the new step's values, Assign; two inferences carry the state (one Context), the
    outputs and the variables equal to OpenVINO's after each."""
    rng = np.random.default_rng(2)
    caches = []
    for i, dtype in enumerate((np.float32, np.float16, np.int32)):
        variable = _variable("1,?,4", ov.Type(np.dtype(dtype)), f"cache{i}")
        step = opset6.parameter([1, 2, 4], ov.Type(np.dtype(dtype)))
        step.set_friendly_name(f"step{i}")
        step.output(0).set_names({f"step{i}"})
        read = opset6.read_value(variable)
        grown = opset6.concat([read, step], 1)
        shape = opset6.shape_of(read)
        results = [opset6.result(grown), opset6.result(shape)]
        results[0].set_friendly_name(f"grown{i}")
        results[1].set_friendly_name(f"length{i}")
        caches.append((step, results, opset6.assign(grown, variable), dtype))
    model = ov.Model(
        [r for _, results, _, _ in caches for r in results],
        [assign for _, _, assign, _ in caches],
        [step for step, _, _, _ in caches],
        "kv_cache",
    )
    xml = tmp_path / "kv_cache.xml"
    ov.save_model(model, xml, compress_to_fp16=False)
    request = _core.compile_model(_core.read_model(xml), "CPU", CPU_CONFIG).create_infer_request()
    document = read_file(xml).document
    assert document is not None
    context = Context()
    for _ in range(2):
        feeds = [_data(rng, (1, 2, 4), dtype) for _, _, _, dtype in caches]
        request.infer(feeds)
        execution = execute(document, {f"step{i}": feed for i, feed in enumerate(feeds)}, context=context)
        for index, result in enumerate(model.get_results()):
            expected = np.array(request.get_output_tensor(index).data, copy=True)
            got = execution.results[result.get_friendly_name()]
            assert compare(expected, got, exact=True) is None, result.get_friendly_name()
        for state in request.query_state():
            got = execution.variables[state.name]
            assert compare(np.array(state.state.data), got, exact=True) is None, state.name
    assert execution.variables["cache0"].shape == (1, 4, 4)


def test_assign_runs_after_the_read(tmp_path):
    """An Assign that does not descend from its variable's ReadValue (whose init is a longer
    chain) still writes after the read: the ReadValue gives the value the run started with."""
    variable = _variable("2,3", ov.Type.f32, "v")
    x = opset6.parameter([2, 3], ov.Type.f32)
    x.set_friendly_name("x")
    x.output(0).set_names({"x"})
    init = opset6.relu(opset6.relu(opset6.relu(opset6.relu(x))))
    read = opset6.read_value(init, variable)
    result = opset6.result(read)
    result.set_friendly_name("read")
    assign = opset6.assign(opset6.relu(opset6.negative(x)), variable)
    xml = tmp_path / "order.xml"
    ov.save_model(ov.Model([result], [assign], [x], "order"), xml, compress_to_fp16=False)
    request = _core.compile_model(_core.read_model(xml), "CPU", CPU_CONFIG).create_infer_request()
    feed = np.arange(6, dtype=np.float32).reshape(2, 3) - 2
    expected = np.array(request.infer([feed])[0], copy=True)
    document = read_file(xml).document
    assert document is not None
    execution = execute(document, {"x": feed})
    assert compare(expected, execution.results["read"], exact=True) is None
    assert (
        compare(np.array(request.query_state()[0].state.data), execution.variables["v"], exact=True) is None
    )
