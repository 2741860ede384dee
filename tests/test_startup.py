"""Start-up: ``irshape check small.xml`` imports nothing heavy, so it feels instant in a hook.

numpy is imported only by a dry run, and OpenVINO never (it is the test oracle). Each layer
imports only what it uses (the checker is imported by the command that checks, never by the
configuration, the selection, baselines or reporters), and a plain check imports the modules
listed here. The time itself is measured by ``bench/bench_startup.py``, never asserted here.
"""

from __future__ import annotations

import ast
import gc
import os
import subprocess
import sys
from pathlib import Path

import pytest
from probes import modules_after_cli

from irshape import check_file, lifetime

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
    "irshape.api_layer",  # check_layer, infer_layer
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
    "locale",  # click's gettext lookups: irshape.cli.group makes its help and version options without them
    "json",
    "hashlib",
    "tempfile",
    "traceback",  # --debug
    "dataclasses",  # the records are plain classes (irshape.record)
    "irshape.ir.repair",  # a file libxml2 rejects and pugixml reads
    "irshape.ir.legacy",  # a <net> with a <pre-process> or a <meta_data>
    "irshape.ir.depth",  # a file with bodies, or past libxml2's depth
    "resource",  # ...irshape.ir.depth's stack limit
    "irshape.check.structure",  # a file its graph's index finds anything to look at in
    "irshape.check.layer_findings",  # a layer whose check has a finding
    "irshape.check.walk_findings",  # a file whose walk has one (a wrong declared dim...)
    "irshape.check.subgraphs",  # Loop, If, TensorIterator
    "irshape.check.variables",  # Assign
    "irshape.shapes.control",
    "irshape.shapes.bounds",  # a tensor with a value or bounds, a Select, Broadcast or Tile
    "irshape.shapes.reals",
    "irshape.shapes.values",
    "irshape.shapes.findings",  # a shape function's finding (the fixture's layers make none)
    "irshape.shapes.axes",  # ...and the axis helpers irshape.shapes.findings gives them
)


def test_plain_check_imports_only_what_it_uses() -> None:
    assert modules_after_cli("check", "--isolated", str(FIXTURE), watch=ONLY_WHEN_ASKED) == []


def _environment(pycache: Path, *, write_bytecode: bool) -> dict[str, str]:
    """This environment, its bytecode (and the scanner's kept programs) under ``pycache``."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")}
    env["PYTHONPYCACHEPREFIX"] = str(pycache)
    if not write_bytecode:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def test_a_plain_check_reads_without_lxml_where_bytecode_is_kept(tmp_path: Path) -> None:
    """The fixture, of ov.save_model's layout, is read by the scanner: lxml is never imported.
    At the first start the scanner's patterns are compiled and kept (irshape.ir.regex_cache),
    from the second on made from what was kept."""
    env = _environment(tmp_path, write_bytecode=True)
    watch = ("lxml", "lxml.etree", "irshape.ir.scan")
    files = []
    for _ in range(2):
        assert modules_after_cli("check", "--isolated", str(FIXTURE), watch=watch, env=env) == [
            "irshape.ir.scan"
        ]
        (kept,) = tmp_path.rglob("scan.*.regex")
        files.append((kept, kept.stat().st_ino, kept.stat().st_mtime_ns))
    assert files[0] == files[1]  # the second start read the file the first wrote: not written again


def test_without_bytecode_kept_a_small_file_is_read_by_lxml(tmp_path: Path) -> None:
    """Under PYTHONDONTWRITEBYTECODE (nothing kept): compiling the patterns at every start would
    cost more than lxml's reading of a small file, so lxml reads it; nothing is written."""
    env = _environment(tmp_path, write_bytecode=False)
    watch = ("lxml.etree", "irshape.ir.scan")  # nor is the scanner imported for nothing
    assert modules_after_cli("check", "--isolated", str(FIXTURE), watch=watch, env=env) == ["lxml.etree"]
    assert not list(tmp_path.rglob("*.regex"))


def test_a_small_file_on_two_jobs_is_read_by_one_process() -> None:
    """-j 2 (the default on an idle machine of two cores) shares the reading of a large file
    only: a small one's check does not import the two-process reader (pickle, signal...)."""
    watch = ("irshape.ir.split", "pickle", "signal")
    assert modules_after_cli("check", "--isolated", "-j", "2", str(FIXTURE), watch=watch) == []


NO_CONV = (
    '<net name="n" version="11"><layers>'
    '<layer id="0" name="x" type="Parameter" version="opset1"><data shape="1" element_type="f32"/>'
    '<output><port id="0" precision="FP32"><dim>1</dim></port></output></layer>'
    '<layer id="1" name="y" type="Result" version="opset1">'
    '<input><port id="0" precision="FP32"><dim>1</dim></port></input></layer>'
    '</layers><edges><edge from-layer="0" from-port="0" to-layer="1" to-port="0"/></edges></net>'
)


@pytest.mark.parametrize("has_conv", [False, True], ids=["no-conv", "conv"])
def test_tomllib_only_for_a_config_and_only_the_declarations_used(tmp_path: Path, has_conv: bool) -> None:
    """No configuration: no TOML is parsed. Declarations are read from their compiled module
    (irshape.ops.declarations), and only the ops the file has are made records (not even other
    ops of their families), but Parameter's and Constant's, which their checks do not read."""
    xml = FIXTURE  # Parameter, Const, Convolution, ReLU, ConvolutionBackpropData, Result
    if not has_conv:
        xml = tmp_path / "no_conv.xml"
        xml.write_text(NO_CONV)  # Parameter, Result
    assert modules_after_cli("check", "--isolated", str(xml), watch=("tomllib",)) == []
    record = (
        "import irshape.ops.schema as schema\n"
        "made, load = [], schema._load\n"
        "schema._load = lambda raw: made.append(f\"{raw['op']}-{raw['version']}\") or load(raw)\n"
    )
    argv = f"sys.argv = ['irshape', 'check', '--isolated', {str(xml)!r}]\n"
    code = f"import sys\n{_NO_EXIT}{record}{argv}from irshape.cli import run\nrun()\nprint(sorted(made))\n"
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    made = ast.literal_eval(proc.stdout.strip().splitlines()[-1])
    # (Result has no declaration)
    used = ["Convolution-1", "ConvolutionBackpropData-1", "Relu-1"]
    assert made == (used if has_conv else [])


# --- the layers: each imports only what it uses -----------------------------------------------

# The modules of the checker: what reads IR and checks it. The layers above it (paths, the
# selection, the configuration, baselines, reporters, the command line) must not import it:
# only the command that checks does, through irshape.files.
CHECKER = ("irshape.api", "irshape.files", "irshape.check", "irshape.ir", "irshape.ops", "irshape.shapes")
CHECKER += ("irshape.schemas", "lxml")

# What of irshape a fresh interpreter holds after importing each module above the checker.
DATA = ["irshape.diagnostics", "irshape.dims", "irshape.record", "irshape.results"]
LAYERS = {
    "irshape": [],
    "irshape.paths": ["irshape.paths", "irshape.record"],
    "irshape.baseline": ["irshape.baseline", "irshape.paths", *DATA],
    "irshape.selection": ["irshape.paths", "irshape.rules", "irshape.selection", *DATA],
    # the reporters' interface, options, summary and statistics (a format's module on first use)
    "irshape.report": ["irshape.paths", "irshape.report", "irshape.rules", *DATA],
    "irshape.config": [
        "irshape.config",
        "irshape.paths",
        "irshape.report",
        "irshape.rules",
        "irshape.selection",
        *DATA,
    ],
    "irshape.cli": ["irshape.cli", "irshape.lifetime"],  # the program: click comes after gc.disable()
}


def modules_after(program: str, env: dict[str, str] | None = None) -> list[str]:
    """sys.modules after ``program`` ran in a fresh interpreter (in ``env``), sorted."""
    code = f"import sys\n{program}\nprint(sorted(sys.modules))\n"
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True, env=env
    )
    return ast.literal_eval(proc.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


@pytest.mark.parametrize("module", LAYERS)
def test_each_layer_imports_only_what_it_uses(module: str) -> None:
    loaded = [m for m in modules_after(f"import {module}") if m.split(".")[0] in ("irshape", "lxml", "click")]
    assert not [m for m in loaded if m.startswith(CHECKER)], f"{module} imports the checker"
    assert loaded == sorted({"irshape", module, *LAYERS[module]})


# What of irshape a plain `irshape check` of FIXTURE imports: its command, the text format, the
# layers above and the checker with the families of the fixture's ops (and not the other
# commands, formats, the progress line, the settings' description...). A module added to the
# list must be one every check uses; what only some files or options need is imported there.
PLAIN_CHECK = [
    # the command line and what it reports with
    "irshape",
    "irshape.cli",
    "irshape.cli.check",
    "irshape.cli.group",
    "irshape.cli.inputs",
    "irshape.cli.options",
    "irshape.config",
    "irshape.files",
    "irshape.lifetime",
    "irshape.paths",
    "irshape.report",
    "irshape.report.text",
    "irshape.selection",
    # the data every layer shares
    "irshape.diagnostics",
    "irshape.dims",
    "irshape.record",
    "irshape.results",
    "irshape.rules",
    # the checker, with the families of the fixture's ops
    "irshape.api",
    "irshape.check",
    "irshape.check.graph",
    "irshape.check.layer",
    "irshape.check.model",
    "irshape.check.sources",
    "irshape.ir",
    "irshape.ir.element_types",
    "irshape.ir.model",
    "irshape.ir.parse",
    "irshape.ir.reader",
    "irshape.ir.regex_cache",  # the scanner's patterns, kept beside its bytecode
    "irshape.ir.scan",  # the reader of ov.save_model's layout (lxml imported only where it reads)
    "irshape.ir.stream",
    "irshape.ir.values",
    "irshape.ir.weights",
    "irshape.ops",
    "irshape.ops.declarations",
    "irshape.ops.interface",
    "irshape.ops.opset_table",
    "irshape.ops.opsets",
    "irshape.ops.registry",
    "irshape.ops.schema",
    "irshape.shapes",
    "irshape.shapes.broadcast",
    "irshape.shapes.convolution",
    "irshape.shapes.elementwise",
    "irshape.shapes.moving",  # the decorator of the ops that move elements (bounds: where used)
    "irshape.shapes.reading",
    "irshape.shapes.window",
]

# The modules of Python's a plain check imports beyond those a click program reading XML with
# lxml imports: gc (built in), mmap (the .bin) and binascii (the checksum of the scanner's kept
# patterns, irshape.ir.regex_cache: lxml's gzip imports zlib for its own); and math (the
# element-wise shape functions'),
# which click and lxml import on Python 3.11 but not on 3.13. (resource, for irshape.ir.depth's stack limit, is
# imported by a file with bodies or past libxml2's depth only.) Not pathlib: with fnmatch, ntpath,
# urllib.parse and ipaddress it is ~16M instructions of a start in an install from a wheel, whose
# site does not import it (an editable install's does, so there it is in both lists); a check's
# paths are str (irshape.paths).
CHECK_ONLY = {"binascii", "gc", "math", "mmap"}

# What the console script does (`from irshape.cli import run`; run()), and `python -m irshape`,
# with sys.modules printed after the run instead of the program's quick exit.
_NO_EXIT = "import irshape.lifetime\nirshape.lifetime.hard_exit = lambda code: None\n"
_ARGV = f"sys.argv = ['irshape', 'check', '--isolated', {str(FIXTURE)!r}]\n"
_CHECK = _NO_EXIT + _ARGV + "from irshape.cli import run\nrun()"
_PYTHON_M = (
    _NO_EXIT + _ARGV + "import runpy\nrunpy.run_module('irshape', run_name='__main__', alter_sys=True)"
)
# A click program that runs a command and imports lxml.etree.
_CLICK_AND_LXML = (
    "import click, lxml.etree\n"
    "@click.command()\n"
    "@click.argument('path', type=click.Path(exists=True))\n"
    "def command(path): pass\n"
    f"command([{str(FIXTURE)!r}], standalone_mode=False)"
)


def test_a_plain_check_imports_these_modules_of_irshape(tmp_path: Path) -> None:
    """As installed: bytecode written (so the scanner's patterns kept, and the scanner reading
    the fixture; where they cannot be, lxml reads it: see above)."""
    env = _environment(tmp_path, write_bytecode=True)
    loaded = [m for m in modules_after(_CHECK, env) if m.split(".")[0] == "irshape"]
    assert {
        "added": sorted(set(loaded) - set(PLAIN_CHECK)),
        "missing": sorted(set(PLAIN_CHECK) - set(loaded)),
    } == {
        "added": [],
        "missing": [],
    }


def test_a_plain_check_imports_little_besides_irshape_click_and_lxml() -> None:
    floor = set(modules_after(_CLICK_AND_LXML))
    extra = [m for m in modules_after(_CHECK) if m not in floor and m.split(".")[0] != "irshape"]
    assert extra == sorted(CHECK_ONLY - floor)


# A finder after every other: it is asked only for the modules no finder found (a failed import).
_RECORD_MISSES = (
    "class _Misses:\n"
    "    names = []\n"
    "    @classmethod\n"
    "    def find_spec(cls, name, path=None, target=None):\n"
    "        cls.names.append(name)\n"
    "sys.meta_path.append(_Misses)\n"
)


def test_a_plain_check_tries_no_import_that_fails() -> None:
    """Each failed import costs the path finders' search and an exception (~0.1M instructions):
    an op without a declaration (Result-1) is looked for among the compiled declarations
    (irshape.ops.declarations), and irshape tries nothing else that is not there. lxml's own (rnc2rng) is the floor's too."""

    def misses(program: str) -> set[str]:
        code = f"import sys\n{_RECORD_MISSES}{program}\nprint(sorted(_Misses.names))\n"
        proc = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
        )
        return set(ast.literal_eval(proc.stdout.strip().splitlines()[-1]))

    assert sorted(misses(_CHECK) - misses(_CLICK_AND_LXML)) == []


def test_the_program_and_python_m_read_no_package_metadata() -> None:
    """The console script and ``python -m irshape`` start without importlib.metadata or
    pkg_resources (an entry point resolved through them costs ~10-30 ms)."""
    bare = set(modules_after("pass"))
    for program in (_CHECK, _PYTHON_M):
        loaded = set(modules_after(program)) - bare
        assert not {m for m in loaded if m.startswith(("importlib.metadata", "pkg_resources"))}


def test_the_programs_first_file_runs_no_collection_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the collector off, a pass before the first file would walk every object the imports
    made to free none; before each later file it frees the previous file's reference cycles."""
    passes: list[int] = []
    monkeypatch.setattr(gc, "collect", lambda generation=2: passes.append(generation) or 0)
    monkeypatch.setattr(gc, "isenabled", lambda: False)  # as the program runs
    lifetime.keep_for_exit()
    try:
        check_file(FIXTURE)
        first = list(passes)
        check_file(FIXTURE)
    finally:
        lifetime._kept = None  # as a library caller has it
    assert (first, passes) == ([], [0])


def test_a_file_with_dims_to_place_imports_what_places_them() -> None:
    """irshape.check.dim_places (and its patterns) is imported by a file with its findings only:
    the check's test of whether it is needed asks for the same codes as the module."""
    from irshape import api
    from irshape.check import dim_places

    assert api.PLACED_DIM_CODES == dim_places._DIM_CODES


@pytest.mark.parametrize(
    ("network", "folds_reals"),
    [("resnet_static_f32", False), ("bert_static_f32", False), ("mobilenet_v2_static_f32", True)],
)
def test_the_real_folds_are_imported_by_a_network_that_folds_reals(network: str, folds_reals: bool) -> None:
    """irshape.shapes.reals (OpenVINO's arithmetic on reals) and the C library's functions it loads
    (irshape.shapes.libm) are imported where a value or bound of reals is folded: 68 of the 119
    fixture networks fold none (~1M instructions of their start)."""
    path = ROOT / "fixtures" / "networks" / f"{network}.xml"
    loaded = modules_after(f"from irshape.api import check_file\ncheck_file({str(path)!r})")
    assert ("irshape.shapes.reals" in loaded, "irshape.shapes.libm" in loaded) == (folds_reals, folds_reals)
