"""``irshape run``: execute a whole network with numpy (imported only here)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from irshape.cli.group import Command
from irshape.cli.options import (
    NEEDS_NUMPY,
    AbnormalExit,
    has_numpy,
    input_option,
    max_memory_option,
    state_option,
)

if TYPE_CHECKING:
    import numpy as np

    from irshape.execute.run import Run


@click.command(name="run", cls=Command)
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@input_option
@state_option
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the Results to this .npz file (one array per Result name, and each variable of a "
    "stateful model as variable:ID) instead of a summary.",
)
@click.option(
    "--save-all",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    metavar="FILE.npz",
    help="Also write every layer's outputs to this .npz, keyed by layer id (ID.N for output N of a "
    "layer with several).",
)
@click.option(
    "--seed",
    type=int,
    default=None,
    metavar="N",
    help="Fill each Parameter given no --input with random data from seed N.",
)
@click.option(
    "--dim-value",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="With --seed: the size of the dynamic dims of the random inputs.",
)
@max_memory_option
@click.option("--debug", is_flag=True, help="Show the traceback of an irshape failure.")
def run_command(
    file: Path,
    inputs: tuple[str, ...],
    states: tuple[str, ...],
    output: Path | None,
    save_all: Path | None,
    seed: int | None,
    dim_value: int | None,
    max_memory: int | None,
    debug: bool,
) -> None:
    """Execute the network FILE with numpy, every layer in graph order.

    Without --output, prints each Result's (and variable's) name, shape, dtype and min/max/mean.
    A stateful model (ReadValue/Assign) runs one inference from its variables' initialisers, or
    from the --state values given (by variable id, as the output's variable:ID arrays name them).
    Exit 2 with a one-line message when the file cannot be run.
    """
    if not has_numpy():
        raise AbnormalExit(f"irshape run {NEEDS_NUMPY}")
    if dim_value is not None and seed is None:
        raise click.UsageError("--dim-value only applies with --seed (random inputs)")
    try:
        run = _run_file(file, inputs, states, seed, dim_value, max_memory, keep_all=save_all is not None)
        results = run.arrays()
        if save_all is not None:
            _write_npz(save_all, run.layers)
            click.echo(
                f"irshape: wrote the outputs of {len(run.layers)} layer output(s) to {save_all}", err=True
            )
        if output is not None:
            _write_npz(output, results)
            click.echo(f"irshape: wrote {len(results)} output(s) to {output}", err=True)
        else:
            for name, value in results.items():
                click.echo(_summary(name, value))
    except click.ClickException:
        raise
    except MemoryError:
        raise AbnormalExit(f"{file}: not enough memory to run it") from None
    except Exception as exc:  # irshape's own failure: still one line, unless --debug
        if debug:
            raise
        raise AbnormalExit(f"{file}: irshape failed: {type(exc).__name__}: {exc}".splitlines()[0]) from None


def _run_file(
    file: Path,
    inputs: Sequence[str],
    states: Sequence[str],
    seed: int | None,
    dim_value: int | None,
    max_memory: int | None,
    *,
    keep_all: bool,
) -> Run:
    import numpy as np

    from irshape.execute.run import RunError, prepare_inputs, prepare_states, run_document
    from irshape.ir.reader import read_file

    given, given_states = given_inputs_and_states(inputs, states)
    result = read_file(file)
    if result.document is None:
        errors = [d.message for d in result.diagnostics if d.severity == "error"]
        raise AbnormalExit(f"{file}: cannot read it as IR: {errors[0] if errors else 'no document'}")
    rng = None if seed is None else np.random.default_rng(seed)
    try:
        prepared = prepare_inputs(result.document, given, rng=rng, dim_value=dim_value)
        start = prepare_states(result.document, given_states)
        if max_memory is None:
            return run_document(result.document, prepared, keep_all=keep_all, states=start)
        return run_document(result.document, prepared, max_memory=max_memory, keep_all=keep_all, states=start)
    except RunError as exc:
        raise AbnormalExit(f"{file}: {exc}") from None
    except ValueError as exc:  # a kernel refused a layer, e.g. pads OpenVINO's CPU plugin refuses
        raise AbnormalExit(f"{file}: cannot run it: {exc}") from None


def given_inputs(inputs: Sequence[str]) -> dict[str, np.ndarray]:
    """The arrays of the ``--input`` options by Parameter name: ``NAME=FILE.npy`` one each, a
    ``FILE.npz`` every array it holds."""
    named: dict[str, Path] = {}
    archives: list[Path] = []
    for item in inputs:
        name, sep, path = item.partition("=")
        if not sep and item.endswith(".npz"):
            archives.append(Path(item))
        elif not sep or not name or not path:
            raise click.BadParameter(f"{item!r} is not NAME=FILE.npy or FILE.npz", param_hint="'--input'")
        elif name in named:
            raise click.BadParameter(f"Parameter {name!r} is given twice", param_hint="'--input'")
        else:
            named[name] = Path(path)
    given = {name: _load_npy(name, path) for name, path in named.items()}
    for archive in archives:
        for key, value in _load_npz(archive).items():
            if key in given:
                raise click.BadParameter(f"Parameter {key!r} is given twice", param_hint="'--input'")
            given[key] = value
    return given


def given_inputs_and_states(
    inputs: Sequence[str], states: Sequence[str]
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """The ``--input`` arrays by Parameter name and the variables' starting values by variable
    id, from ``--state`` and from the ``variable:ID`` arrays of an ``--input`` archive."""
    given, given_states = split_states(given_inputs(inputs))
    for name, value in given_state_arrays(states).items():
        if name in given_states:
            raise click.BadParameter(f"variable {name!r} is given twice", param_hint="'--state'")
        given_states[name] = value
    return given, given_states


def split_states(given: Mapping[str, np.ndarray]) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """The given arrays split into Parameter inputs and variables (``variable:ID``, by ID)."""
    from irshape.execute.run import VARIABLE_PREFIX

    inputs = {k: v for k, v in given.items() if not k.startswith(VARIABLE_PREFIX)}
    states = {k.removeprefix(VARIABLE_PREFIX): v for k, v in given.items() if k.startswith(VARIABLE_PREFIX)}
    return inputs, states


def given_state_arrays(states: Sequence[str]) -> dict[str, np.ndarray]:
    """The arrays of the ``--state`` options by variable id: ``ID=FILE.npy`` one each, a
    ``FILE.npz`` its ``variable:ID`` arrays (its other arrays, an earlier run's Results, are
    not variables and are left alone)."""
    from irshape.execute.run import VARIABLE_PREFIX

    given: dict[str, np.ndarray] = {}
    for item in states:
        if item.endswith(".npz") and "=" not in item:
            arrays = _load_npz(Path(item), "--state")
            found = {
                key.removeprefix(VARIABLE_PREFIX): value
                for key, value in arrays.items()
                if key.startswith(VARIABLE_PREFIX)
            }
            if not found:
                raise AbnormalExit(f"--state {item}: no variable:ID array in it")
        else:
            name, sep, path = item.partition("=")
            if not sep or not name or not path:
                raise click.BadParameter(f"{item!r} is not ID=FILE.npy or FILE.npz", param_hint="'--state'")
            found = {name: _load_npy(name, Path(path), "--state")}
        for name, value in found.items():
            if name in given:
                raise click.BadParameter(f"variable {name!r} is given twice", param_hint="'--state'")
            given[name] = value
    return given


def _load_npz(path: Path, option: str = "--input") -> dict[str, np.ndarray]:
    import zipfile

    import numpy as np

    try:
        with np.load(path, allow_pickle=False) as archive:
            if not hasattr(archive, "files"):
                raise AbnormalExit(f"{option} {path} is a single array; give it as NAME={path}")
            return {key: archive[key] for key in archive.files}
    except OSError as exc:
        raise AbnormalExit(f"{option}: cannot read {path}: {exc.strerror or exc}") from None
    except (ValueError, EOFError, zipfile.BadZipFile) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise AbnormalExit(f"{option}: cannot load {path}: {reason}") from None


def _load_npy(name: str, path: Path, option: str = "--input") -> np.ndarray:
    import numpy as np

    try:
        with path.open("rb") as handle:
            magic = handle.read(6)
            if magic != b"\x93NUMPY":
                what = "a .npz archive" if magic.startswith(b"PK") else "not a .npy file"
                raise AbnormalExit(f"{option} {name}: {path} is {what}; give an array saved with np.save")
            handle.seek(0)
            value = np.load(handle, allow_pickle=False)
    except OSError as exc:
        raise AbnormalExit(f"{option} {name}: cannot read {path}: {exc.strerror or exc}") from None
    except (ValueError, EOFError) as exc:  # a truncated file, object arrays, a bad header
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise AbnormalExit(f"{option} {name}: cannot load {path}: {reason}") from None
    assert isinstance(value, np.ndarray)
    return value


def _storable(value: np.ndarray) -> np.ndarray:
    """An array as a .npy file holds it without pickling: irshape's strings (an object array of
    ``str``, bytes that are not UTF-8 kept as lone surrogates) as numpy's str dtype, which
    ``--input`` and ``--state`` read back as strings."""
    if value.dtype != object:
        return value
    return value.astype(str)


def _write_npz(path: Path, arrays: Mapping[str, np.ndarray]) -> None:
    """An ``np.savez`` archive at ``path``, written atomically: a temporary file in the same
    directory, then a rename. Written as np.savez writes it (stored ``NAME.npy`` members), but
    member by member, since a Result named ``file`` would clash with np.savez's own argument."""
    import tempfile  # only `irshape run --output` writes a file
    import zipfile

    from numpy.lib import format as npy_format

    try:
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    except OSError as exc:
        raise AbnormalExit(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        with (
            os.fdopen(fd, "wb") as handle,
            zipfile.ZipFile(handle, mode="w", compression=zipfile.ZIP_STORED) as archive,
        ):
            for name, value in arrays.items():
                with archive.open(f"{name}.npy", "w", force_zip64=True) as member:
                    npy_format.write_array(member, _storable(value), allow_pickle=False)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)  # mkstemp's file is private; the result is not
        os.replace(temporary, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(exc, OSError):
            raise AbnormalExit(f"cannot write {path}: {exc.strerror or exc}") from None
        raise


def _summary(name: str, value: np.ndarray) -> str:
    shape = "[" + ",".join(str(n) for n in value.shape) + "]"
    line = f"{name}: shape {shape} {value.dtype}"
    if value.size == 0:
        return line + " (empty)"
    if value.dtype.kind in "fiub":
        data = value.astype("float64")
        line += f" min {data.min():.6g} max {data.max():.6g} mean {data.mean():.6g}"
    return line
