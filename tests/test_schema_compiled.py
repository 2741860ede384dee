"""irshape/ops/declarations.py, what irshape reads at run time, says what irshape/schemas/*.toml say.

The TOML files are the source people edit; the compiled module is generated from them by
``python tools/compile_schemas.py`` and committed.
"""

from __future__ import annotations

import marshal
import tomllib
from pathlib import Path

from scripts import load_script

from irshape.ops import declarations
from irshape.ops.schema import declaration_files, find_declaration, load_declaration

ROOT = Path(__file__).resolve().parent.parent
REGENERATE = (
    "irshape/ops/declarations.py is stale: run `python tools/compile_schemas.py` and commit the result"
)


def test_compiled_schemas_match_the_toml_files() -> None:
    parsed = {
        path.name: tomllib.loads(path.read_text("utf-8"))
        for path in sorted((ROOT / "irshape" / "schemas").glob("*.toml"))
    }
    assert list(declarations.FILES) == list(parsed), REGENERATE
    assert len(declarations.DATA) == len(declarations.FILES), REGENERATE
    assert declaration_files() == frozenset(parsed)
    for (name, data), compiled in zip(parsed.items(), declarations.DATA, strict=True):
        loaded = marshal.loads(compiled)
        assert loaded == data, f"{name}: {REGENERATE}"
        # repr also sees key order (attributes are checked in file order) and True against 1
        assert repr(loaded) == repr(data), f"{name}: {REGENERATE}"
        assert load_declaration(name).name == name.removesuffix(".toml")


def test_the_compiled_module_is_what_the_compiler_writes() -> None:
    """Byte for byte: the generator is deterministic, so a stale module shows in the diff."""
    compiler = load_script(ROOT / "tools" / "compile_schemas.py")
    assert compiler.OUTPUT.read_text("utf-8") == compiler.source(), REGENERATE


def test_an_op_version_without_a_declaration_is_none() -> None:
    """Result-1 (in OpenVINO's opsets, with no output to infer) has none; tests/test_ops_doc.py
    checks it is the only op version of the opset table without one."""
    from irshape.ops.registry import lookup

    assert "Result-1.toml" not in declarations.FILES
    assert lookup("Result", "opset1") is None
    assert find_declaration("Result-1.toml") is None
    assert find_declaration("NoSuchOp-1.toml") is None
    assert find_declaration("Relu-1.toml") is load_declaration("Relu-1.toml")
