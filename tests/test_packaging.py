"""The schemas ship inside the package, and the documented code table is the registry's."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import irshape
from irshape.ops.registry import all_declarations, lookup
from irshape.rules import RULES, markdown_table

ROOT = Path(__file__).resolve().parent.parent


def test_every_declaration_file_loads_and_is_found_case_insensitively() -> None:
    names = sorted(s.name for s in all_declarations())
    assert names == sorted(p.stem for p in (ROOT / "irshape" / "schemas").glob("*.toml"))
    for name in ("Convolution-1", "ConvolutionBackpropData-1", "GroupConvolution-1", "Relu-1", "Parameter-1"):
        assert name in names
    assert lookup("convolution", "opset1") is lookup("CONVOLUTION", "opset1")
    assert lookup("Conv", "opset1") is None


def test_wheel_ships_the_schemas(tmp_path: Path) -> None:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "-q",
            "-w",
            str(tmp_path),
            str(ROOT),
        ],
        check=True,
    )
    (wheel,) = tmp_path.glob("irshape-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for schema in (ROOT / "irshape" / "schemas").glob("*.toml"):
        assert f"irshape/schemas/{schema.name}" in names
    # What irshape reads them from at run time: the module compiled from them.
    assert "irshape/ops/declarations.py" in names
    assert "irshape/py.typed" in names
    # Every module of the source tree ships (the kernels, the executor...), not only those a
    # hand-kept list of packages names.
    for module in (ROOT / "irshape").rglob("*.py"):
        assert module.relative_to(ROOT).as_posix() in names, module


def test_a_checkout_imports_as_an_install_does() -> None:
    """Run from the clone's root, ``import irshape`` finds the checkout's package, whose
    declarations are where an install has them (irshape/ops/declarations.py, compiled from
    irshape/schemas/): every layer is inferred."""
    code = (
        "import irshape; r = irshape.check_file('fixtures/ir/conv_relu_deconv.xml'); "
        "print(len(r.errors), r.layers_checked)"
    )
    out = subprocess.run([sys.executable, "-I", "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.split() == ["0", "3"], out.stdout + out.stderr


def test_docs_code_table_is_generated_from_the_registry() -> None:
    assert markdown_table() in (ROOT / "docs" / "codes.md").read_text()
    assert "(docs/codes.md)" in (ROOT / "README.md").read_text()  # and the README links to it


def test_every_rule_is_documented() -> None:
    for rule in RULES.values():
        assert rule.code.startswith("IRS") and len(rule.code) == 6
        assert rule.summary and rule.why and rule.fix, rule.code


def test_library_is_typed() -> None:
    assert (Path(irshape.__file__).parent / "py.typed").exists()
