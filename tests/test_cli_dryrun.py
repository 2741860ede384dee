"""``irshape check --dry-run`` and ``irshape run`` end to end, through click's CliRunner and the real
command.

Expected shapes are worked by hand from the spec formulas (forward: ``floor((D + pb + pe - ((K-1)*d
+ 1)) / s) + 1``; backprop: ``(D-1)*s + (K-1)*d + 1 - pb - pe + output_padding``); values are
compared with OpenVINO's CPU plugin.
"""

from __future__ import annotations

import json
import os
import pickle
import re
import shutil
import subprocess
import sys
import tracemalloc
from pathlib import Path

import numpy as np
import openvino as ov
import pytest
from click.testing import CliRunner, Result
from openvino import opset1 as ops
from probes import modules_after_cli

import irshape.cli.inputs
import irshape.cli.progress
import irshape.files
from irshape.cli import DryRunProgress, MemorySize, main
from irshape.execute.dryrun import DryRunOptions

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"
SPEC = sorted((FIXTURES / "spec").glob("*.xml"))
NET = FIXTURES / "ir" / "conv_relu_deconv.xml"
DYNAMIC_NET = FIXTURES / "ir" / "dynamic_interval.xml"
THREE_D = FIXTURES / "spec" / "000_group_convolution_backprop_data_3d.xml"  # output 1x8x447^3
EXAMPLE2 = FIXTURES / "spec" / "001_convolution_backprop_data_example2.xml"  # output 1x10x8x8
GIB = 1 << 30

# A Convolution with a dynamic height: out = D - 3 + 1 = D - 2 (3x3 kernel, no pads, stride 1).
DYNAMIC_CONV = """<layer id="1" name="conv" type="Convolution" version="opset1">
  <data strides="1,1" dilations="1,1" pads_begin="0,0" pads_end="0,0" auto_pad="explicit"/>
  <input>
    <port id="0" precision="FP32"><dim>1</dim><dim>3</dim><dim>-1</dim><dim>8</dim></port>
    <port id="1" precision="FP32"><dim>4</dim><dim>3</dim><dim>3</dim><dim>3</dim></port>
  </input>
  <output>
    <port id="2" precision="FP32"><dim>1</dim><dim>4</dim><dim>10</dim><dim>6</dim></port>
  </output>
</layer>
"""


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("GITHUB_ACTIONS", "NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)


def run(*args: str | Path, input: str | bytes | None = None) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def codes_by_file(result: Result) -> dict[str, list[str]]:
    data = json.loads(result.stdout)
    return {Path(f["path"]).name: [d["code"] for d in f["diagnostics"]] for f in data["files"]}


def dry_codes(codes: list[str]) -> list[str]:
    return [c for c in codes if c.startswith("IRS5")]


# --- check --dry-run ----------------------------------------------------------------------------


def test_dry_run_on_the_spec_fixtures() -> None:
    result = run("check", "--isolated", "--dry-run", "--format", "json", *SPEC)
    assert result.exit_code == 0, result.output
    found = codes_by_file(result)
    assert len(found) == len(SPEC)
    for name, codes in found.items():
        if name.endswith("_3d.xml"):
            # 000/003: output 1x8x447^3 f32 (2.66 GiB); 004: input 1x12x224^3 f32 (0.50 GiB) and
            # output 1x4x224^3 (0.17 GiB) plus an im2col tile: all over the 1 GiB default.
            assert dry_codes(codes) == ["IRS503"], name
        elif name == "001_convolution_backprop_data_example3.xml":
            assert dry_codes(codes) == ["IRS502"]  # output_shape's value is only in a comment
        else:
            assert dry_codes(codes) == [], name  # ran, and produced the declared shape


def test_the_3d_example_is_skipped_with_its_size_and_nothing_is_allocated() -> None:
    tracemalloc.start()
    try:
        result = run("check", "--isolated", "--dry-run", THREE_D)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result.exit_code == 0, result.output
    (line,) = [line for line in result.stdout.splitlines() if "IRS503" in line]
    needed = float(re.search(r"about ([\d.]+) GiB", line).group(1))  # type: ignore[union-attr]
    # At least the output (1*8*447^3 f32) and the input (1*20*224^3 f32) are needed.
    assert needed >= (8 * 447**3 + 20 * 224**3) * 4 / GIB
    assert "over the --max-memory limit of 1.0 GiB" in line
    assert peak < 64 * 2**20  # not one of those arrays was allocated


def test_a_wrong_declared_dim_is_an_irs501_error(tmp_path: Path) -> None:
    # Example 2: (2-1)*3 + ((3-1)*1+1) - 0 - 0 + 2 = 8; declare 9 on axis 2.
    text = EXAMPLE2.read_text().replace("<dim>8</dim>", "<dim>9</dim>", 1)
    (tmp_path / "wrong.xml").write_text(text)
    result = run("check", "--isolated", "--dry-run", "wrong.xml")
    assert result.exit_code == 1
    (line,) = [line for line in result.stdout.splitlines() if "IRS501" in line]
    assert "[error]" in line and "produced an output of shape [1,10,8,8]" in line
    assert "declares [1,10,9,8]" in line
    # Without --dry-run the static check finds it (IRS301), but no IRS5xx appears.
    static = run("check", "--isolated", "wrong.xml")
    assert "IRS301" in static.stdout and "IRS5" not in static.stdout


def test_dry_run_from_stdin() -> None:
    text = EXAMPLE2.read_text().replace("<dim>8</dim>", "<dim>9</dim>", 1)
    result = run("check", "--isolated", "--dry-run", "-", "--stdin-filename", "s.xml", input=text)
    assert result.exit_code == 1 and "IRS501" in result.stdout and "s.xml" in result.stdout


@pytest.mark.parametrize(
    ("dim_value", "expected"),
    [(None, ["IRS502"]), ("12", []), ("11", ["IRS501"])],  # 12 - 2 = 10 is declared; 11 - 2 = 9 not
)
def test_dim_value_runs_dynamic_dims_at_that_size(
    tmp_path: Path, dim_value: str | None, expected: list[str]
) -> None:
    (tmp_path / "dyn.xml").write_text(DYNAMIC_CONV)
    extra = ["--dim-value", dim_value] if dim_value else []
    result = run("check", "--isolated", "--dry-run", "--format", "json", *extra, "dyn.xml")
    assert dry_codes(codes_by_file(result)["dyn.xml"]) == expected, result.output
    if dim_value == "11":
        assert "produced an output of shape [1,4,9,6]" in result.stdout
    if dim_value is None:
        assert "--dim-value" in result.stdout


def test_dim_value_on_a_net_with_dynamic_dims() -> None:
    without = run("check", "--isolated", "--dry-run", "--format", "json", DYNAMIC_NET)
    # Said once, at the Parameter; the layers below it are counted in the summary.
    assert dry_codes(codes_by_file(without)["dynamic_interval.xml"]) == ["IRS502"]
    assert "give --dim-value N to run it" in without.stdout
    with_size = run("check", "--isolated", "--dry-run", "--dim-value", "20", "--format", "json", DYNAMIC_NET)
    assert dry_codes(codes_by_file(with_size)["dynamic_interval.xml"]) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1073741824", GIB),
        ("512M", 512 * 2**20),
        ("2G", 2 * GIB),
        ("1GiB", GIB),
        ("1gib", GIB),
        ("64K", 64 * 1024),
        ("1.5G", 3 * 2**29),
        ("100MB", 100_000_000),
        ("10 B", 10),
    ],
)
def test_memory_sizes(text: str, expected: int) -> None:
    assert MemorySize().convert(text, None, None) == expected


@pytest.mark.parametrize("text", ["12Q", "-1", "", "G", "1.5.2G", "one", "1GB2"])
def test_a_bad_memory_size_is_a_usage_error(text: str) -> None:
    result = run("check", "--isolated", "--dry-run", "--max-memory", text, NET)
    assert result.exit_code == 2
    assert "Invalid value for '--max-memory'" in result.stderr
    assert "Traceback" not in result.output


def test_max_memory_applies() -> None:
    tiny = run("check", "--isolated", "--dry-run", "--max-memory", "1000", "--format", "json", NET)
    # The first convolution is over the limit; the layers below it cannot run either.
    assert dry_codes(codes_by_file(tiny)["conv_relu_deconv.xml"]) == ["IRS503"]
    assert "over the --max-memory limit of 1000 B" in tiny.stdout
    summary = json.loads(tiny.stdout)["summary"]["dry_run"]
    assert summary == {
        "layers_executed": 0,
        "layers_not_executed": 3,
        "not_executed_by_reason": {"below a layer not run": 2, "over the memory limit": 1},
    }
    # 004's 3D example needs over 0.67 GiB (input + output alone): over 512 MiB, under 4 GiB.
    three_d = FIXTURES / "spec" / "004_group_convolution_3d.xml"
    half = run("check", "--isolated", "--dry-run", "--max-memory", "512M", three_d)
    assert "IRS503" in half.stdout and "limit of 512.0 MiB" in half.stdout


def test_dry_run_options_need_dry_run() -> None:
    for option in (["--seed", "1"], ["--dim-value", "4"], ["--max-memory", "1G"]):
        result = run("check", "--isolated", *option, NET)
        assert result.exit_code == 2, option
        assert "only with --dry-run" in result.stderr


def test_dry_run_options_and_progress_pickle() -> None:
    options = DryRunOptions(seed=3, dim_value=5, max_memory=123)
    assert pickle.loads(pickle.dumps(options)) == options
    progress = DryRunProgress(4, sys.stderr)
    copy = pickle.loads(pickle.dumps(progress.layer))  # what a worker process receives
    assert copy.__self__.stream is None and copy.__self__.files == 4


def irshape_command(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if k not in ("GITHUB_ACTIONS", "NO_COLOR", "FORCE_COLOR")}
    return subprocess.run(
        [sys.executable, "-m", "irshape", *map(str, args)], cwd=cwd, capture_output=True, env=env
    )


def test_dry_run_on_a_process_pool_prints_what_one_process_prints(tmp_path: Path) -> None:
    """subprocess: -j 2 (a process pool: over PARALLEL_MIN_BYTES of XML) equals -j 1."""
    models = tmp_path / "models"
    models.mkdir()
    padding = f"<!-- {'x' * 40_000} -->\n"
    for spec in SPEC:
        (models / spec.name).write_text(padding + spec.read_text())
    for i in range(6):
        (models / f"net{i}.xml").write_text(NET.read_text().replace("?>", "?>\n" + padding, 1))
        shutil.copy(NET.with_suffix(".bin"), models / f"net{i}.bin")
    wrong = padding + EXAMPLE2.read_text().replace("<dim>8</dim>", "<dim>9</dim>", 1)
    (models / "wrong.xml").write_text(wrong)
    total = sum(f.stat().st_size for f in models.glob("*.xml"))
    assert total > irshape.files.PARALLEL_MIN_BYTES
    args = ("check", "--isolated", "--dry-run", "--max-memory", "2M", "models")
    serial = irshape_command(*args, "-j", "1", cwd=tmp_path)
    parallel = irshape_command(*args, "-j", "2", cwd=tmp_path)
    assert serial.returncode == parallel.returncode == 1, serial.stderr
    assert parallel.stdout == serial.stdout
    assert b"IRS501" in serial.stdout and b"IRS503" in serial.stdout
    assert b"IRS901" not in serial.stdout and parallel.stderr == serial.stderr == b""


# --- the progress line ----------------------------------------------------------------------------


def test_no_progress_on_a_stderr_that_is_not_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(irshape.cli.progress, "PROGRESS_DELAY", -1.0)  # draw at once, if at all
    result = run("check", "--isolated", "--dry-run", NET, *SPEC[:3])
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    assert "irshape: dry run [" not in result.output  # (the summary line says "dry run: ...")


def test_progress_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same run as above on a terminal draws the line, and erases it at the end."""
    monkeypatch.setattr(irshape.cli.progress, "PROGRESS_DELAY", -1.0)
    monkeypatch.setattr(irshape.cli.inputs, "_stderr_is_tty", lambda: True)
    result = run("check", "--isolated", "--dry-run", NET, *SPEC[:3])
    assert "\rirshape: dry run [" in result.stderr and "4/4 files" in result.stderr
    assert result.stderr.endswith("\r") and result.stderr.rsplit("\r", 2)[-2].strip() == ""
    # -q keeps stderr quiet even on a terminal
    assert run("check", "--isolated", "-q", "--dry-run", NET).stderr == ""


class FakeTerminal:
    def __init__(self) -> None:
        self.text = ""

    def write(self, text: str) -> None:
        self.text += text

    def flush(self) -> None:
        pass


def test_progress_appears_only_after_a_second(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "get_terminal_size", lambda: os.terminal_size((200, 24)))
    now = [100.0]
    terminal = FakeTerminal()
    progress = DryRunProgress(3, terminal, clock=lambda: now[0])  # type: ignore[arg-type]
    now[0] = 100.9
    progress.layer(1, 2)
    progress.file_done()
    assert terminal.text == ""
    now[0] = 101.5
    progress.layer(1, 4)
    assert terminal.text.startswith("\rirshape: dry run [")
    assert "1/3 files  2s, about 2s left; file 2: 1/4 layers" in terminal.text
    progress.close()
    assert terminal.text.endswith("\r")
    silent = DryRunProgress(3, None, clock=lambda: now[0] + 10)
    silent.file_done()
    silent.close()  # nothing to write to, and nothing raised


# --- irshape run --------------------------------------------------------------------------------


def build_chain(directory: Path) -> tuple[Path, ov.Model]:
    """Parameter -> Convolution -> ConvolutionBackpropData -> GroupConvolution ->
    GroupConvolutionBackpropData (with output_shape) -> Result, saved as IR."""
    rng = np.random.default_rng(1)

    def weights(*shape: int) -> ov.Node:
        return ops.constant(rng.standard_normal(shape).astype(np.float32))

    x = ops.parameter([1, 4, 10, 10], np.float32, name="x")
    conv = ops.convolution(x, weights(6, 4, 3, 3), [2, 2], [1, 1], [0, 0], [1, 1], name="conv")
    deconv = ops.convolution_backprop_data(
        conv, weights(6, 3, 3, 3), [2, 2], pads_begin=[1, 1], pads_end=[1, 1], dilations=[1, 1],
        output_padding=[1, 1], name="deconv",
    )  # fmt: skip
    gconv = ops.group_convolution(
        deconv, weights(3, 2, 1, 3, 3), [1, 1], [0, 0], [0, 0], [2, 2], name="gconv"
    )
    output_shape = ops.constant(np.array([11, 10], np.int64))
    gdeconv = ops.group_convolution_backprop_data(
        gconv, weights(3, 2, 1, 2, 2), [2, 2], output_shape, name="gdeconv"
    )
    model = ov.Model([ops.result(gdeconv, name="y")], [x], "chain")
    xml = directory / "chain.xml"
    ov.save_model(model, str(xml), compress_to_fp16=False)
    return xml, model


@pytest.fixture
def chain(tmp_path: Path) -> tuple[Path, ov.Model]:
    return build_chain(tmp_path)


def test_run_matches_openvino_cpu(chain: tuple[Path, ov.Model], tmp_path: Path) -> None:
    xml, model = chain
    x = np.random.default_rng(5).standard_normal((1, 4, 10, 10)).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    result = run("run", xml, "--input", "x=x.npy", "--output", "out.npz")
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    with np.load(tmp_path / "out.npz") as archive:
        assert archive.files == ["y"]
        ours = archive["y"]
    # conv: floor((10+1+0-3)/2)+1 = 5; deconv: (5-1)*2 + 3 - 1 - 1 + 1 = 10;
    # gconv: 10 - ((3-1)*2+1) + 1 = 6, channels 3*2; gdeconv: output_shape [11,10], channels 3*1.
    assert ours.shape == (1, 3, 11, 10) and ours.dtype == np.float32
    # f32: on CPUs with bf16 the plugin's default precision is bf16, off by about 1e-2.
    compiled = ov.Core().compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    theirs = compiled({0: x})[compiled.output(0)]
    np.testing.assert_allclose(ours, theirs, rtol=1e-4, atol=1e-4)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".out.npz")]  # no temporary left


def test_run_prints_a_summary_without_output(chain: tuple[Path, ov.Model], tmp_path: Path) -> None:
    xml, _ = chain
    x = np.ones((1, 4, 10, 10), np.float32)
    np.save(tmp_path / "x.npy", x)
    result = run("run", xml, "-i", "x=x.npy")
    assert result.exit_code == 0, result.output
    (line,) = result.stdout.splitlines()
    match = re.fullmatch(r"y: shape \[1,3,11,10\] float32 min (\S+) max (\S+) mean (\S+)", line)
    assert match is not None, line
    low, high, mean = map(float, match.groups())
    assert low <= mean <= high and low < high


def test_run_with_a_seed_is_deterministic(chain: tuple[Path, ov.Model], tmp_path: Path) -> None:
    xml, _ = chain
    for name, seed in (("a", "7"), ("b", "7"), ("c", "8")):
        result = run("run", xml, "--seed", seed, "-o", f"{name}.npz")
        assert result.exit_code == 0, result.output
    a, b, c = (np.load(tmp_path / f"{n}.npz")["y"] for n in "abc")
    assert a.shape == (1, 3, 11, 10)
    np.testing.assert_array_equal(a, b)
    assert not np.allclose(a, c)
    assert run("run", xml, "--seed", "7").stdout == run("run", xml, "--seed", "7").stdout


def test_run_overwrites_an_existing_output(chain: tuple[Path, ov.Model], tmp_path: Path) -> None:
    xml, _ = chain
    (tmp_path / "out.npz").write_text("old")
    assert run("run", xml, "--seed", "1", "-o", "out.npz").exit_code == 0
    assert np.load(tmp_path / "out.npz")["y"].shape == (1, 3, 11, 10)


def error_of(result: Result) -> str:
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert result.stdout == ""
    lines = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_run_refuses_a_layer_over_max_memory(chain: tuple[Path, ov.Model], tmp_path: Path) -> None:
    xml, _ = chain
    refused = run("run", xml, "--seed", "1", "--max-memory", "1000")  # bytes: no conv fits
    assert refused.exit_code == 2
    assert "of working memory, over the limit of 1000 B (--max-memory)" in refused.stderr
    assert not list(tmp_path.glob("*.npz"))
    assert run("run", xml, "--seed", "1", "--max-memory", "64M").exit_code == 0


def test_run_errors_exit_2_with_one_line(chain: tuple[Path, ov.Model], tmp_path: Path) -> None:
    xml, _ = chain
    np.save(tmp_path / "small.npy", np.zeros((1, 4, 8, 8), np.float32))
    np.save(tmp_path / "rank.npy", np.zeros((4, 10, 10), np.float32))
    np.save(tmp_path / "float.npy", np.zeros((1, 4, 10, 10), np.float32))
    np.save(tmp_path / "objects.npy", np.array([1, "a"], dtype=object))
    (tmp_path / "garbage.npy").write_text("not an array")
    (tmp_path / "truncated.npy").write_bytes((tmp_path / "small.npy").read_bytes()[:100])
    (tmp_path / "broken.xml").write_text("<net><layers></net>")
    (tmp_path / "madeup.xml").write_text(Path(NET).read_text().replace('type="ReLU"', 'type="MadeUp"'))
    shutil.copy(Path(NET).with_suffix(".bin"), tmp_path / "madeup.bin")
    cases = {
        ("run", xml): "no input given for Parameter 'x' [1,4,10,10]",
        ("run", xml, "-i", "x=missing.npy"): "cannot read missing.npy",
        ("run", xml, "-i", "x=garbage.npy"): "garbage.npy is not a .npy file",
        ("run", xml, "-i", "x=truncated.npy"): "cannot load truncated.npy",
        ("run", xml, "-i", "x=objects.npy"): "Object arrays cannot be loaded",
        ("run", xml, "-i", "x=small.npy"): "has shape [1,4,8,8], but Parameter 'x' takes [1,4,10,10]",
        ("run", xml, "-i", "x=rank.npy"): "input 'x' has shape [4,10,10]",
        ("run", xml, "-i", "z=float.npy"): "no Parameter named 'z'",
        ("run", "madeup.xml", "--seed", "0"): "irshape does not know MadeUp layers",
        ("run", "broken.xml"): "cannot read it as IR",
        ("run", EXAMPLE2): "input 0 is not connected",
        ("run", xml, "--seed", "0", "-o", "nowhere/out.npz"): "cannot write nowhere/out.npz",
    }
    for args, message in cases.items():
        line = error_of(run(*args))
        assert message in line, (args, line)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-i", "x"], "'x' is not NAME=FILE.npy"),
        (["-i", "=x.npy"], "is not NAME=FILE.npy"),
        (["-i", "x=a.npy", "-i", "x=b.npy"], "given twice"),
        (["--dim-value", "3"], "--dim-value only applies with --seed"),
    ],
)
def test_run_usage_errors(chain: tuple[Path, ov.Model], args: list[str], message: str) -> None:
    xml, _ = chain
    result = run("run", xml, *args)
    assert result.exit_code == 2 and message in result.stderr, result.output
    assert "Traceback" not in result.output


def test_run_on_a_missing_file() -> None:
    result = run("run", "nothere.xml")
    assert result.exit_code == 2 and "does not exist" in result.stderr


def test_run_converts_inputs_within_their_kind(chain: tuple[Path, ov.Model], tmp_path: Path) -> None:
    xml, _ = chain
    x = np.random.default_rng(2).standard_normal((1, 4, 10, 10))
    np.save(tmp_path / "f64.npy", x)
    np.save(tmp_path / "f32.npy", x.astype(np.float32))
    a = run("run", xml, "-i", "x=f64.npy", "-o", "a.npz")
    b = run("run", xml, "-i", "x=f32.npy", "-o", "b.npz")
    assert a.exit_code == b.exit_code == 0
    np.testing.assert_array_equal(np.load(tmp_path / "a.npz")["y"], np.load(tmp_path / "b.npz")["y"])


def test_run_with_random_inputs_of_dynamic_dims(tmp_path: Path) -> None:
    """A Parameter [1,3,?,16..32]: --dim-value sizes the dynamic dims of the random input.

    Saved with save_model's default f16 weights, so each Const is behind a Convert."""
    rng = np.random.default_rng(0)
    x = ops.parameter(ov.PartialShape("1,3,?,16..32"), np.float32, name="x")
    w = ops.constant(rng.standard_normal((2, 3, 3, 3)).astype(np.float32))
    conv = ops.convolution(x, w, [1, 1], [0, 0], [0, 0], [1, 1], name="conv")
    model = ov.Model([ops.result(conv, name="y")], [x], "dyn")
    ov.save_model(model, str(tmp_path / "dyn.xml"))
    assert 'type="Convert"' in (tmp_path / "dyn.xml").read_text()
    error = error_of(run("run", "dyn.xml", "--seed", "0"))
    assert "dynamic shape [1,3,?,16..32]" in error and "--dim-value" in error
    assert "outside the dim 16..32" in error_of(run("run", "dyn.xml", "--seed", "0", "--dim-value", "8"))
    result = run("run", "dyn.xml", "--seed", "0", "--dim-value", "20")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("y: shape [1,2,18,18] float32")  # 20 - 3 + 1 = 18
    # A given input of any size within the intervals, compared with OpenVINO (same f16 weights).
    data = rng.standard_normal((1, 3, 5, 17)).astype(np.float32)
    np.save(tmp_path / "x.npy", data)
    assert run("run", "dyn.xml", "-i", "x=x.npy", "-o", "y.npz").exit_code == 0
    ours = np.load(tmp_path / "y.npz")["y"]
    assert ours.shape == (1, 2, 3, 15)
    saved = ov.Core().read_model(str(tmp_path / "dyn.xml"))
    compiled = ov.Core().compile_model(saved, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    np.testing.assert_allclose(ours, compiled({0: data})[compiled.output(0)], rtol=1e-4, atol=1e-4)
    np.save(tmp_path / "narrow.npy", data[..., :15])
    assert "takes [1,3,?,16..32]" in error_of(run("run", "dyn.xml", "-i", "x=narrow.npy"))


# --- numpy stays lazy --------------------------------------------------------------------------


LAZY = ("numpy", "irshape.execute")


def test_numpy_is_imported_by_the_dry_run_only() -> None:
    assert modules_after_cli("check", "--isolated", str(NET), watch=LAZY) == []
    assert modules_after_cli("run", "--help", watch=LAZY) == []
    assert modules_after_cli("check", "--help", watch=LAZY) == []
    assert modules_after_cli("check", "--isolated", "--dry-run", str(NET), watch=LAZY) == [
        "irshape.execute",
        "numpy",
    ]


def test_progress_says_the_time_left_from_the_measured_throughput(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "get_terminal_size", lambda: os.terminal_size((80, 24)))
    now = [0.0]
    terminal = FakeTerminal()
    progress = DryRunProgress(10, terminal, clock=lambda: now[0], label="check")  # type: ignore[arg-type]
    now[0] = 6.0  # a slow start (imports, a pool starting) is no file's work
    progress.file_done()
    assert "left" not in terminal.text  # one progress measures no throughput yet
    now[0] = 7.0
    progress.file_done()  # 1 file a second since the first: 8 files left, 8 s
    assert terminal.text.endswith("\rirshape: check [####--------------------] 2/10 files  7s, about 8s left")
    now[0] = 8.0
    progress.layer(1, 2)  # half a file more in a second: 7.5 files at 0.75 a second
    assert terminal.text.endswith("2/10 files  8s, about 10s left; file ")  # cut at 79 columns
    progress.close()


@pytest.mark.parametrize(
    ("seconds", "shown"), [(0.2, "1s"), (59.0, "59s"), (125.5, "2:06"), (3725.0, "1:02:05")]
)
def test_time_left_reads_as_a_clock(seconds: float, shown: str) -> None:
    from irshape.cli.progress import _duration

    assert _duration(seconds) == shown
