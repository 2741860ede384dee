"""Start-up: ``irshape check small.xml`` imports nothing heavy, so it feels instant in a hook.

numpy is imported only by a dry run, and OpenVINO never (it is the test oracle). The time
itself is measured by ``bench/bench_startup.py``, never asserted here.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from probes import modules_after_cli

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "fixtures" / "ir" / "conv_relu_deconv.xml"
HEAVY = ("numpy", "openvino", "scipy", "pandas", "torch")
NETWORKS = sorted((Path(__file__).resolve().parent.parent / "fixtures" / "networks").glob("*_static_f32.xml"))


@pytest.mark.parametrize(
    "args",
    [
        ("check", "--isolated", str(FIXTURE)),
        ("check", "--isolated", "--format", "json", str(FIXTURE)),
        ("infer", str(FIXTURE)),
        ("rules",),
        # Every family, values folded through ShapeOf, Gather, Slice, Reduce*, Reshape...:
        ("check", "--isolated", *(str(p) for p in NETWORKS)),
    ],
    ids=["check", "check-json", "infer", "rules", "check-networks"],
)
def test_no_heavy_import(args: tuple[str, ...]) -> None:
    assert modules_after_cli(*args, watch=HEAVY) == []


def test_importtime_of_a_check() -> None:
    """The same through ``python -X importtime -m irshape check``, as the README tells to measure."""
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "irshape", "check", "--isolated", str(FIXTURE)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    modules = [
        line.split("|")[-1].strip() for line in proc.stderr.splitlines() if line.startswith("import time:")
    ]
    assert "irshape.cli" in modules
    assert not [m for m in modules if m.split(".")[0] in HEAVY]


def test_library_import_is_light() -> None:
    assert modules_after_cli("--version", watch=HEAVY) == []


# What only other commands, formats or options need: a plain check must not pay for it.
ONLY_WHEN_ASKED = (
    "irshape.fix",  # --fix, --diff
    "irshape.execute",  # --dry-run, irshape run
    "irshape.report.json",
    "irshape.report.sarif",
    "irshape.report.junit",
    "irshape.report.github",
    "irshape.report.ruledoc",  # irshape rule, SARIF
    "irshape.sniff",  # a file that may be other XML than IR
    "irshape.columns",  # a run with findings
    "irshape.baseline",  # a run with a baseline, SARIF
    "irshape.cli.settings",  # --show-settings
    "concurrent.futures",  # -j with enough XML to share
    "difflib",  # a misspelt configuration key
    "json",
    "hashlib",
    "tempfile",
    "traceback",  # --debug
    "dataclasses",  # the records are plain classes (irshape.record)
)


def test_plain_check_imports_only_what_it_uses() -> None:
    assert modules_after_cli("check", "--isolated", str(FIXTURE), watch=ONLY_WHEN_ASKED) == []


NO_CONV = (
    '<net name="n" version="11"><layers>'
    '<layer id="0" name="x" type="Parameter" version="opset1"><data shape="1" element_type="f32"/>'
    '<output><port id="0" precision="FP32"><dim>1</dim></port></output></layer>'
    '<layer id="1" name="y" type="Result" version="opset1">'
    '<input><port id="0" precision="FP32"><dim>1</dim></port></input></layer>'
    '</layers><edges><edge from-layer="0" from-port="0" to-layer="1" to-port="0"/></edges></net>'
)


FAMILIES = ("convolution", "elementwise", "source")


@pytest.mark.parametrize("has_conv", [False, True], ids=["no-conv", "conv"])
def test_tomllib_only_for_a_config_and_only_the_families_used(tmp_path: Path, has_conv: bool) -> None:
    """No configuration: no TOML is parsed. Declarations are read from the compiled modules of
    the families of the ops the file has, never from the TOML, and no other family's."""
    xml = FIXTURE  # Parameter, Const, Convolution, ReLU, ConvolutionBackpropData, Result
    if not has_conv:
        xml = tmp_path / "no_conv.xml"
        xml.write_text(NO_CONV)  # Parameter, Result
    watch = ("tomllib", *(f"irshape.schemas._compiled_{family}" for family in FAMILIES))
    used = ("convolution", "elementwise", "source") if has_conv else ("source",)
    read = [f"irshape.schemas._compiled_{family}" for family in used]
    assert sorted(modules_after_cli("check", "--isolated", str(xml), watch=watch)) == read
