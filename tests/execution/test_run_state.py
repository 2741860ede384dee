"""``irshape run --state``: a stateful model (ReadValue/Assign, an optimum-intel style KV-cache
decoder) starts from the variables given on the command line, so a second-token run can be
reproduced; the Result and the final variables equal OpenVINO's CPU plugin after
``InferRequest.query_state()`` set the same values, for one step and for two steps chained
through ``--output``."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import openvino as ov
import pytest
from click.testing import CliRunner

from irshape.cli import main

from .harness import CPU_CONFIG, compare

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
DECODER = FIXTURES / "networks" / "decoder_stateful_kv.xml"
PAST = 3  # tokens already in the cache


def _initial_cache(model: ov.Model) -> dict[str, np.ndarray]:
    """A KV cache of PAST tokens per variable ([1, 2, PAST, 16]): from the empty cache the plugin
    cannot run a batch of 1 (its Concat meets a batch of 0)."""
    rng = np.random.default_rng(7)
    return {
        op.get_variable_id(): rng.standard_normal((1, 2, PAST, 16)).astype(np.float32)
        for op in model.get_ops()
        if op.get_type_name() == "ReadValue"
    }


def _openvino_steps(tokens: list[np.ndarray], cache: dict[str, np.ndarray]) -> list[dict[str, np.ndarray]]:
    """OpenVINO's Result and variables after each step, from ``cache``, one request throughout."""
    core = ov.Core()
    request = core.compile_model(core.read_model(DECODER), "CPU", CPU_CONFIG).create_infer_request()
    for state in request.query_state():
        state.state = ov.Tensor(cache[state.name])
    steps = []
    for ids in tokens:
        request.infer({"input_ids": ids})
        arrays = {"result": np.array(request.get_output_tensor(0).data, copy=True)}
        for state in request.query_state():
            arrays[f"variable:{state.name}"] = np.array(state.state.data, copy=True)
        steps.append(arrays)
    return steps


@pytest.fixture(scope="module")
def setting(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    directory = tmp_path_factory.mktemp("state")
    cache = _initial_cache(ov.Core().read_model(DECODER))
    tokens = [np.array([[3, 1, 4, 1]], np.int64), np.array([[5]], np.int64)]
    for index, ids in enumerate(tokens):
        np.save(directory / f"ids{index}.npy", ids)
    np.savez(directory / "cache.npz", **{f"variable:{k}": v for k, v in cache.items()})
    for name, value in cache.items():
        np.save(directory / f"{name}.npy", value)
    return {"dir": directory, "cache": cache, "expected": _openvino_steps(tokens, cache)}


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["run", str(DECODER), *args])
    return result.exit_code, result.output


def _assert_equal_to(expected: dict[str, np.ndarray], out: Path) -> None:
    got = np.load(out)
    variables = sorted(k for k in got.files if k.startswith("variable:"))
    assert variables == sorted(k for k in expected if k.startswith("variable:"))
    for name in variables:
        assert compare(expected[name], got[name]) is None, (name, compare(expected[name], got[name]))
    (result,) = [k for k in got.files if not k.startswith("variable:")]
    assert compare(expected["result"], got[result]) is None, compare(expected["result"], got[result])


def test_state_npz_starts_the_variables(setting: dict[str, object]) -> None:
    directory = Path(str(setting["dir"]))
    expected = setting["expected"]
    assert isinstance(expected, list)
    code, output = _run("-i", f"input_ids={directory / 'ids0.npy'}", "--state", str(directory / "cache.npz"),
                        "-o", str(directory / "out0.npz"))  # fmt: skip
    assert code == 0, output
    _assert_equal_to(expected[0], directory / "out0.npz")
    # each variable grew by the 4 tokens: the cache given was read, not the empty initialiser
    assert np.load(directory / "out0.npz")[f"variable:{next(iter(setting['cache']))}"].shape == (
        1,
        2,
        PAST + 4,
        16,
    )  # type: ignore[call-overload]


def test_second_token_from_the_first_runs_output(setting: dict[str, object]) -> None:
    """The second step starts from the first's --output (its Results are left alone)."""
    directory = Path(str(setting["dir"]))
    expected = setting["expected"]
    assert isinstance(expected, list)
    first = ("-i", f"input_ids={directory / 'ids0.npy'}", "--state", str(directory / "cache.npz"))
    assert _run(*first, "-o", str(directory / "step1.npz"))[0] == 0
    code, output = _run("-i", f"input_ids={directory / 'ids1.npy'}", "--state", str(directory / "step1.npz"),
                        "-o", str(directory / "step2.npz"))  # fmt: skip
    assert code == 0, output
    _assert_equal_to(expected[1], directory / "step2.npz")


def test_state_one_variable_a_file_and_in_the_input_npz(setting: dict[str, object]) -> None:
    directory = Path(str(setting["dir"]))
    expected = setting["expected"]
    assert isinstance(expected, list)
    cache = setting["cache"]
    assert isinstance(cache, dict)
    names = sorted(cache)
    each = [x for name in names[:2] for x in ("--state", f"{name}={directory / f'{name}.npy'}")]
    # the other two inside the --input archive, beside input_ids
    np.savez(directory / "mixed.npz", input_ids=np.load(directory / "ids0.npy"),
             **{f"variable:{name}": cache[name] for name in names[2:]})  # fmt: skip
    code, output = _run("-i", str(directory / "mixed.npz"), *each, "-o", str(directory / "out_each.npz"))
    assert code == 0, output
    _assert_equal_to(expected[0], directory / "out_each.npz")


def test_state_errors_are_one_line(setting: dict[str, object]) -> None:
    directory = Path(str(setting["dir"]))
    ids = ("-i", f"input_ids={directory / 'ids0.npy'}")
    np.save(directory / "wrong.npy", np.zeros((1, 3, PAST, 16), np.float32))
    code, output = _run(*ids, "--state", f"nope={directory / 'wrong.npy'}")
    assert code == 2 and "no variable 'nope' (the variables: 'past3Result_1885'" in output, output
    name = sorted(setting["cache"])[0]  # type: ignore[call-overload]
    code, output = _run(*ids, "--state", f"{name}={directory / 'wrong.npy'}")
    assert (
        code == 2 and f"state '{name}' has shape [1,3,3,16], but variable '{name}' takes [?,2,?,16]" in output
    )
    np.savez(directory / "plain.npz", input_ids=np.zeros((1, 1), np.int64))
    code, output = _run(*ids, "--state", str(directory / "plain.npz"))
    assert code == 2 and "no variable:ID array in it" in output, output
    code, output = _run(
        *ids, "--state", f"{name}={directory / 'wrong.npy'}", "--state", f"{name}={directory / 'wrong.npy'}"
    )
    assert code == 2 and "given twice" in output, output


def test_compare_starts_both_sides_from_the_given_state(setting: dict[str, object]) -> None:
    """``irshape compare --state``: OpenVINO and irshape both start from the cache given (from
    the empty cache the plugin cannot run this decoder at all), and agree on every layer."""
    directory = setting["dir"]
    assert isinstance(directory, Path)
    args = ["compare", str(DECODER), "-i", f"input_ids={directory / 'ids0.npy'}"]
    result = CliRunner().invoke(main, [*args, "--state", str(directory / "cache.npz")])
    assert result.exit_code == 0, result.output
    assert " 0 diverge" in result.output and "0 layer(s) irshape did not run" in result.output
    wrong = CliRunner().invoke(main, [*args, "--state", f"nope={directory / 'ids0.npy'}"])
    assert wrong.exit_code == 2 and "no variable 'nope'" in wrong.output, wrong.output
