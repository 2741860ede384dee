"""schemas/_compiled.py, what irshape reads at run time, says what schemas/*.toml say.

The TOML files are the source people edit; the compiled module is generated from them by
``python tools/compile_schemas.py`` and committed.
"""

from __future__ import annotations

import importlib
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REGENERATE = "schemas/_compiled.py is stale: run `python tools/compile_schemas.py` and commit the result"


def test_compiled_schemas_match_the_toml_files() -> None:
    compiled = importlib.import_module("irshape.schemas._compiled").SCHEMAS
    parsed = {path.name: tomllib.loads(path.read_text("utf-8")) for path in (ROOT / "schemas").glob("*.toml")}
    assert sorted(compiled) == sorted(parsed), REGENERATE
    for name, data in parsed.items():
        assert compiled[name] == data, f"{name}: {REGENERATE}"
        # repr also sees key order (attributes are checked in file order) and True against 1
        assert repr(compiled[name]) == repr(data), f"{name}: {REGENERATE}"
