"""Small probes several test modules share: what a command line imports, what OpenVINO reads."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path


def modules_after_cli(*args: str, watch: Iterable[str], env: Mapping[str, str] | None = None) -> list[str]:
    """Which of ``watch`` are in sys.modules after ``irshape ARGS`` ran in a fresh interpreter
    (in ``env``: the environment as it is by default)."""
    program = (
        "import sys\n"
        "from irshape.cli import main\n"
        "try:\n"
        "    main(sys.argv[1:])\n"
        "except SystemExit:\n"
        "    pass\n"
        f"print(sorted(m for m in {tuple(watch)!r} if m in sys.modules))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", program, *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        env=env,
    )
    return ast.literal_eval(proc.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def openvino_accepts(xml: Path) -> bool:
    """Does ``ov.Core().read_model`` read the file? (OpenVINO is the oracle, imported here.)"""
    return openvino_rejection(xml) is None


def openvino_rejection(xml: Path) -> str | None:
    """None where ``ov.Core().read_model`` reads the file, else the last line of its message."""
    import openvino as ov

    try:
        ov.Core().read_model(str(xml))
    except Exception as exc:  # read_model raises RuntimeError and OpenVINO's own exceptions
        return str(exc).strip().splitlines()[-1]
    return None
