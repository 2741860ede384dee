"""irshape/schemas/_index.py and irshape/schemas/_compiled_<Op>_<N>.py, what irshape reads at run time, say
what irshape/schemas/*.toml say.

The TOML files are the source people edit; the compiled modules are generated from them by
``python tools/compile_schemas.py`` and committed.
"""

from __future__ import annotations

import importlib
import tomllib
from pathlib import Path

from irshape.ops.schema import compiled_module

ROOT = Path(__file__).resolve().parent.parent
REGENERATE = (
    "irshape/schemas/_compiled_*.py are stale: run `python tools/compile_schemas.py` and commit the result"
)


def test_compiled_schemas_match_the_toml_files() -> None:
    declarations = importlib.import_module("irshape.schemas._index").DECLARATIONS
    parsed = {
        path.name: tomllib.loads(path.read_text("utf-8"))
        for path in (ROOT / "irshape" / "schemas").glob("*.toml")
    }
    assert sorted(declarations) == sorted(parsed), REGENERATE
    # The source ops' declarations (Parameter-1, Constant-1) are the package's own (SOURCES in
    # irshape/schemas/__init__.py); every other declaration has its module.
    sources = importlib.import_module("irshape.schemas").SOURCES
    assert sorted(sources) == sorted(name for name, data in parsed.items() if data["family"] == "source")
    assert sorted(sources) == ["Constant-1.toml", "Parameter-1.toml"]
    generated = {path.name for path in (ROOT / "irshape" / "schemas").glob("_compiled_*.py")}
    modules = {
        f"_compiled_{name.removesuffix('.toml').replace('-', '_')}.py"
        for name in parsed
        if name not in sources
    }
    assert generated == modules, REGENERATE
    for name, data in parsed.items():
        compiled = (
            sources.get(name) or importlib.import_module(f"irshape.schemas.{compiled_module(name)}").SCHEMA
        )
        assert compiled == data, f"{name}: {REGENERATE}"
        # repr also sees key order (attributes are checked in file order) and True against 1
        assert repr(compiled) == repr(data), f"{name}: {REGENERATE}"


def test_the_op_versions_without_a_declaration_are_known_absent() -> None:
    """irshape/schemas/__init__.py names every op version of the opset table that has no TOML
    file (a check then knows it absent without a failed import), and no other."""
    from irshape.ops.opsets import table
    from irshape.ops.registry import lookup
    from irshape.schemas import UNDECLARED

    versions = {f"{op}-{version}.toml" for op, spans in table().items() for *_, version in spans}
    files = {path.name for path in (ROOT / "irshape" / "schemas").glob("*.toml")}
    assert versions - files == UNDECLARED, REGENERATE
    assert "Result-1.toml" in UNDECLARED
    assert lookup("Result", "opset1") is None
